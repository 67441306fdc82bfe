"""The text of every rule id and ruling, read from the bundled ``data/RULES.md``.

Explanations, prompts, hovers and docs show a rule's words next to its id; they all read
them here, from the one authoritative file, so a revision of the rules changes them all.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

_ITEM = re.compile(r"^- ((?:GOAL|COMP|SETUP|MONTH|P[1-5]|RATE|RESTORE|END|SPECIAL)[A-Z0-9.]*)"
                   r"\s*(?:—\s*)?(.*)$")
_SUB = re.compile(r"^  (\d+)\. (.*)$")
_RULING = re.compile(r"(RULING-[A-Z-]+[A-Z]):\s")


class UnknownRuleError(KeyError):
    """A rule id that RULES.md does not define."""

    def __str__(self) -> str:
        return f"no rule {self.args[0]!r} in RULES.md (ids look like 'P4.CONCERT.3' or 'RULING-STYLE')"


def rules_markdown() -> str:
    """The whole of the bundled RULES.md (the authoritative rules, with revisions)."""
    return resources.files("musici").joinpath("data/RULES.md").read_text(encoding="utf-8")


def source_text() -> str:
    """The designer's Chinese original that RULES.md renders."""
    return (resources.files("musici").joinpath("data/i-musici-rules-zh.txt")
            .read_text(encoding="utf-8"))


@cache
def rule_texts() -> dict[str, str]:
    """Every rule id (``P3.HALL.1``, ``RATE.POOR.3``) and ruling (``RULING-STYLE``) with its text."""
    texts: dict[str, str] = {}
    current: str | None = None
    for line in rules_markdown().splitlines():
        if line.startswith("## Revisions"):
            break
        item = _ITEM.match(line)
        sub = _SUB.match(line)
        if item:
            current = item.group(1)
            texts[current] = item.group(2).strip()
        elif sub and current is not None:
            parent = current.rsplit(".", 1)[0] if current.count(".") > 1 else current
            current = f"{parent}.{sub.group(1)}"
            texts[current] = sub.group(2).strip()
        elif current is not None and line.startswith("  ") and not line.startswith("  |") \
                and line.strip():
            texts[current] += " " + line.strip()
        elif not line.strip() or line.startswith("#"):
            current = None
    for text in list(texts.values()):
        for match in _RULING.finditer(text):
            # A ruling's text runs from its name to the end of the rule that states it.
            texts.setdefault(match.group(1), text[match.end():].strip())
    return texts


def rule_text(rule_id: str) -> str:
    """The text of one rule id or ruling; :class:`UnknownRuleError` if RULES.md has none."""
    try:
        return rule_texts()[rule_id]
    except KeyError:
        raise UnknownRuleError(rule_id) from None
