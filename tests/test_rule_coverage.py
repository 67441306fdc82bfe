"""Every rule id of the project's rules document is cited by a test that checks its effect.

Tests cite ids with ``@pytest.mark.rules("P1.1", ...)``; this test fails when an id of
``docs/rules.md`` (written ``**ID**``) has no such test, or a test cites an unknown id.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULE_ID = re.compile(r"\*\*((?:GOAL|COMP|SETUP|MONTH|P[1-5]|RATE|RESTORE|END|SPECIAL|RULING)"
                     r"[A-Z0-9.\-]*[A-Z0-9])\*\*")


def documented_ids() -> set[str]:
    return set(RULE_ID.findall((ROOT / "docs" / "rules.md").read_text(encoding="utf-8")))


def cited_ids() -> dict[str, list[str]]:
    cited: dict[str, list[str]] = {}
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                continue
            for dec in node.decorator_list:
                if (isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute)
                        and dec.func.attr == "rules"):
                    for arg in dec.args:
                        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                            cited.setdefault(arg.value, []).append(f"{path.name}::{node.name}")
    return cited


def test_rules_document_lists_ids():
    ids = documented_ids()
    assert len(ids) >= 100, f"docs/rules.md lists only {len(ids)} rule ids"


def test_every_documented_rule_has_a_test():
    missing = sorted(documented_ids() - set(cited_ids()))
    assert not missing, f"rule ids of docs/rules.md with no test: {', '.join(missing)}"


def test_tests_cite_only_documented_rules():
    unknown = sorted(set(cited_ids()) - documented_ids())
    assert not unknown, f"tests cite rule ids not in docs/rules.md: {', '.join(unknown)}"
