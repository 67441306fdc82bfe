"""The floors of the house import one way: ``musici.sim`` plays batches and never imports the
designer's analysis in ``musici.playtest`` (issue 19, item 5), and the engine imports
neither."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "musici"
# The old module paths of the moved analysis stay importable: each is a one-line alias, and
# musici.sim's __getattr__ resolves the old names lazily (importing musici.sim loads none).
ALIASES = {f"sim/{m}.py" for m in ("balance", "quality", "ladder", "tuning", "compare")} | {
    "sim/__init__.py"}


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and (
                node.value.startswith("musici.playtest")):
            names.add(node.value)  # importlib.import_module("musici.playtest...")
    return names


@pytest.mark.parametrize(("floor", "forbidden"), [
    ("sim", "musici.playtest"), ("engine", "musici.playtest"), ("engine", "musici.sim"),
])
def test_a_floor_never_imports_the_one_above(floor: str, forbidden: str) -> None:
    offenders = []
    for path in sorted((PACKAGE / floor).rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel in ALIASES:
            continue
        if any(name == forbidden or name.startswith(forbidden + ".") for name in imported(path)):
            offenders.append(rel)
    assert offenders == []


def test_importing_sim_loads_no_analysis() -> None:
    import subprocess
    import sys

    code = "import sys, musici.sim; print(any(m.startswith('musici.playtest') for m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "False", done.stderr


def test_the_old_names_still_resolve_to_the_new_home() -> None:
    import subprocess
    import sys

    code = ("from musici.sim import ladder, tune, LadderResult\n"
            "new, tuning = (sys.modules[f'musici.playtest.{m}'] for m in ('ladder', 'tuning'))\n"
            "assert ladder is new.ladder and tune is tuning.tune, 'names'\n"
            "import musici.sim.ladder as old\n"
            "assert old is sys.modules['musici.playtest.ladder'], 'module'\n"
            "print('ok')")
    done = subprocess.run([sys.executable, "-c", "import sys\n" + code], capture_output=True,
                          text=True)
    assert done.stdout.strip() == "ok", done.stderr
