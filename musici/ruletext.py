"""The text of every rule id and ruling, read from the bundled ``data/RULES.md``.

Explanations, prompts, hovers and docs show a rule's words next to its id; they all read
them here, from the one authoritative file, so a revision of the rules changes them all.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from musici.rules import RuleSet

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


# ---------------------------------------------------------------------------- rulings in words
# Each reading of every ruling in a few words, for prose that states a rule: notebooks, docs
# and widgets say "a bid of 0 can win" through default_words(), never by hand, so changing
# a default in musici/rules.py changes every sentence that states it. Numbers come from
# musici/economy.py. tests/test_ruletext.py checks that every choice of every option has words.
def _readings() -> dict[str, dict[Any, str]]:
    from musici.economy import AUCTION_STEP, RESTORE_CAP, UNPAID_VENUE_STEP
    from musici.rules import RULE_OPTIONS

    months = RULE_OPTIONS["RULING-MONTHS"].choices
    steps = RULE_OPTIONS["RULING-MEDIA-STEP"].choices
    return {
        "RULING-START-PLAYER": {
            "random": "the first start player is drawn from the game's seed",
            "seat0": "seat 0 is always the first start player",
        },
        "RULING-MONTHS": {n: f"a game lasts {n} month{'s' if n != 1 else ''}" for n in months},
        "RULING-AUCTION-LAST": {
            "may-bid": f"when all the others passed before any bid, the last player may still "
                       f"bid {AUCTION_STEP} G or pass",
            "free": "when all the others passed before any bid, the last player takes the card "
                    "for nothing",
        },
        "RULING-MEDIA-ZERO": {
            "zero-can-win": "a bid of 0 can win: if every bid is 0, less fame and then chance "
                            "decide, and the winner takes the token for nothing",
            "no-winner": "a bid of 0 never wins: if every bid is 0, nobody holds the media",
        },
        "RULING-MEDIA-STEP": {s: f"media bids are multiples of {s} G" for s in steps},
        "RULING-ROUNDING": {
            "toward-zero": "a multiplied fame or money amount is rounded toward zero",
            "away-from-zero": "a multiplied fame or money amount is rounded away from zero",
        },
        "RULING-COMMERCIAL-FAME": {
            "required": "a commercial tour needs at least as much fame as it costs",
            "not-required": "anyone may choose a commercial tour, whatever their fame",
        },
        "RULING-STYLE": {
            "orchestras": "a concert is judged in the style of the orchestras brought",
            "best-of-card": "a card with both styles is judged in whichever style rates the "
                            "concert better",
        },
        "RULING-POACH-MARKERS": {
            "stay": "dissent markers stay on an orchestra hired away from another player",
            "return": "dissent markers of an orchestra hired away go back to the supply",
        },
        "RULING-NEGOTIATION": {
            "era-request": "the buyer names a seller, a price and optionally an era",
            "blind": "the buyer names only a seller and a price",
        },
        "RULING-LINEAGE": {
            "any-depth": "a teaching lineage counts over any number of teacher-pupil steps",
            "direct": "only a direct teacher and pupil count as a lineage",
        },
        "RULING-RESTORE-GOOD": {
            "good-only": "the whole restoration bonus needs a good concert",
            "lineage-good-only": "only the lineage part of the restoration bonus needs a good "
                                 "concert",
        },
        "RULING-HALF-VENUE": {
            "halls-only": "only hall rent is halved without a concert; a tour costs in full",
            "all-venues": "every venue cost is halved without a concert, tours included",
        },
        "RULING-MISSING-TYPE": {
            "requested": "a concert is poor when a section the card asks for is missing",
            "literal": "a concert is poor whenever its orchestras lack instrumentalists or "
                       "singers",
        },
        "RULING-HALF-FAME": {
            "up": "half a commercial tour's fame cost is rounded up",
            "down": "half a commercial tour's fame cost is rounded down",
        },
        "RULING-UNPAID-VENUE": {
            "fame-per-50": f"venue money that cannot be paid costs 1 fame per started "
                           f"{UNPAID_VENUE_STEP} G",
            "forgiven": "venue money that cannot be paid is forgiven",
        },
        "RULING-UNPAID-SURCHARGE": {
            "marker": "a salary surcharge that cannot be paid puts a dissent marker on an "
                      "orchestra of the player's choice",
            "forgiven": "a salary surcharge that cannot be paid is forgiven",
        },
        "RULING-FAME-FLOOR": {
            "zero": "fame never drops below 0",
            "none": "fame may drop below 0",
        },
        "RULING-END-CARDS": {
            "score-only": "the era and nationality awards (END.1, END.2) count score cards only",
            "score-and-discovery": "the era and nationality awards (END.1, END.2) count score "
                                   "and discovery cards alike",
        },
        "RULING-RESTORE-CAP": {
            "restored": f"the cap of {RESTORE_CAP} fame holds for a discovery card whose "
                        "concert earned a restoration bonus",
            "every-discovery": f"the cap of {RESTORE_CAP} fame holds for every discovery card",
        },
    }


@cache
def readings() -> Mapping[str, Mapping[Any, str]]:
    """Every ruling's readings in words: ``readings()["RULING-FAME-FLOOR"]["zero"]``."""
    return MappingProxyType({k: MappingProxyType(v) for k, v in _readings().items()})


def _option(ruling: str) -> Any:
    from musici.rules import RULE_OPTIONS, RuleOptionError

    if ruling not in RULE_OPTIONS:
        raise RuleOptionError(f"unknown ruling {ruling!r}; valid rulings are: "
                              f"{', '.join(RULE_OPTIONS)}")
    return RULE_OPTIONS[ruling]


def reading_words(ruling: str, value: Any) -> str:
    """The words of one reading: ``reading_words("RULING-FAME-FLOOR", "none")`` is
    "fame may drop below 0". Unknown rulings and values raise ``RuleOptionError``."""
    from musici.rules import RuleOptionError

    option = _option(ruling)
    if value not in option.choices:
        choices = ", ".join(repr(c) for c in option.choices)
        raise RuleOptionError(f"{ruling} has no reading {value!r}; expected one of: {choices}")
    return readings()[ruling][value]


def default_value(ruling: str) -> Any:
    """The value the project plays by default (``RuleSet()``'s)."""
    from musici.rules import RuleSet

    _option(ruling)
    return RuleSet().get(ruling)


def default_words(ruling: str, rules: RuleSet | None = None, *, short: bool = False) -> str:
    """The words of the reading ``rules`` plays (``RuleSet()``, the defaults, if None):
    ``default_words("RULING-MEDIA-ZERO")`` starts "a bid of 0 can win"; ``short`` keeps
    only the words before a colon or semicolon ("a bid of 0 can win")."""
    value = default_value(ruling) if rules is None else rules.get(ruling)
    words = reading_words(ruling, value)
    return re.split(r"[:;]", words, maxsplit=1)[0] if short else words


def default_assignment(ruling: str) -> str:
    """The default as an option, ``"RULING-MEDIA-ZERO=zero-can-win"``."""
    return f"{ruling}={default_value(ruling)}"


@cache
def ruling_rule(ruling: str) -> str:
    """The rule id whose text states the ruling (``"P2.3"`` for RULING-MEDIA-ZERO)."""
    _option(ruling)
    texts = rule_texts()
    stated = [rid for rid, text in texts.items()
              if not rid.startswith("RULING-") and f"{ruling}:" in text]
    if not stated:
        raise UnknownRuleError(ruling)
    return stated[0]


def ruling_sentence(ruling: str, rules: RuleSet | None = None, *, short: bool = False) -> str:
    """The reading in words with its rule and ruling: "fame never drops below 0 (P5.8,
    RULING-FAME-FLOOR)"."""
    return f"{default_words(ruling, rules, short=short)} ({ruling_rule(ruling)}, {ruling})"


def rule_words(rule_id: str, rules: RuleSet | None = None) -> str:
    """A rule's words for a game played under ``rules``: a ruling (``RULING-*``) in the
    reading those rules play (RULES.md's text of a ruling states only the default), any
    other id in RULES.md's words. For hovers and introductions of a shown game."""
    from musici.rules import RULE_OPTIONS

    option = RULE_OPTIONS.get(rule_id)
    if option is None or rules is None or rules.get(rule_id) == option.default:
        return rule_text(rule_id)
    words = default_words(rule_id, rules)
    return f"{words[:1].upper()}{words[1:]}."
