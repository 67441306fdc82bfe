"""Small pieces of player language shared by the stepper's panels: rule ids with their
text on hover, a ruling's reading in words, fame as mixed numbers."""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache
from html import escape
from typing import TYPE_CHECKING

from musici.analysis.hints import fame_text
from musici.ruletext import UnknownRuleError, default_words, rule_text, rule_words

if TYPE_CHECKING:
    from musici.rules import RuleSet

_RULE = ("<span class='rule-id' title='{title}' style='font-family:monospace;font-size:11px;"
         "background:#f2f2f2;padding:0 3px;border-radius:3px;cursor:help'>{id}</span>")


def rule_title(rule_id: str, rules: RuleSet | None = None) -> str:
    """The rule's text (for a hover), or "" for an id the rules do not have; with the shown
    game's ``rules``, a ruling in the reading that game plays (:func:`rule_words`)."""
    if rules is not None and rules.non_default():
        try:
            return rule_words(rule_id, rules)
        except UnknownRuleError:
            return ""
    return _default_title(rule_id)


@lru_cache(maxsize=512)
def _default_title(rule_id: str) -> str:
    try:
        return rule_text(rule_id)
    except UnknownRuleError:
        return ""


def rule_tag(rule_id: str, rules: RuleSet | None = None) -> str:
    """A rule id as a small tag whose hover shows the rule's text (for ``rules``' game: a
    ruling's hover says the reading that game plays)."""
    if rules is not None and rules.non_default():
        return _tag(rule_id, rule_title(rule_id, rules))
    return _default_tag(rule_id)


def _tag(rule_id: str, title: str) -> str:
    return _RULE.format(title=escape(title, quote=True), id=escape(rule_id))


@lru_cache(maxsize=512)
def _default_tag(rule_id: str) -> str:
    return _tag(rule_id, _default_title(rule_id))


def reading_html(ruling: str, rules: RuleSet | None = None, *, short: bool = True) -> str:
    """The reading of ``ruling`` that ``rules`` plays (the defaults if None), in words, with
    the ruling's tag: a note that states a rule ("fame never drops below 0") reads it here,
    so it says what the shown game plays, never a default by hand."""
    return f"{escape(default_words(ruling, rules, short=short))} {rule_tag(ruling, rules)}"


def strip_rule(text: str, rule: str) -> str:
    """``describe_event``'s line without its trailing ``[rule]`` (shown as a tag instead)."""
    suffix = f" [{rule}]"
    return text[: -len(suffix)] if text.endswith(suffix) else text


_FRACTION = re.compile(r"(?<![\d/])(-?\d+)/(\d+)(?![\d/])")
FRACTION_KINDS = frozenset({"award", "final", "marker_penalty"})


def mixed_numbers(text: str) -> str:
    """Fractions of fame written as a player does: "71/2" becomes "35½"."""
    return _FRACTION.sub(lambda m: fame_text(Fraction(int(m[1]), int(m[2]))), text)


__all__ = ["FRACTION_KINDS", "fame_text", "mixed_numbers", "reading_html", "rule_tag",
           "rule_title", "strip_rule"]
