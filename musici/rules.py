"""The rule set: every ruling of RULES.md as a named option with its default.

A ruling is where the designer's draft is silent or ambiguous; RULES.md names each one
(``RULING-*``) and states the default this project plays. Switching an option is how an
analyst asks "what if the other reading were the rule?".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from musici.decisions import brief
from musici.economy import AUCTION_STEP, MONEY_UNIT, UNPAID_VENUE_STEP


class RuleOptionError(ValueError):
    """An unknown rule option name or a value the option does not accept."""


@dataclass(frozen=True, slots=True)
class RuleOption:
    name: str
    default: Any
    choices: tuple[Any, ...]
    doc: str


_OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        "RULING-START-PLAYER", "random", ("random", "seat0"),
        "SETUP.5: the first start player is drawn from the seeded generator, or is seat 0.",
    ),
    RuleOption(
        "RULING-MONTHS", 12, tuple(range(1, 13)),
        "MONTH.4: number of months played (12; 6 and 4 for short test games).",
    ),
    RuleOption(
        "RULING-AUCTION-LAST", "may-bid", ("may-bid", "free"),
        f"P1.3: when all others passed before any bid, the last player may bid {AUCTION_STEP} G or pass "
        "(may-bid), or takes the card for nothing (free: their 'highest bid' is 0).",
    ),
    RuleOption(
        "RULING-MEDIA-ZERO", "zero-can-win", ("zero-can-win", "no-winner"),
        "P2.3: a bid of 0 is a bid: if all bid 0, less fame then chance decides and the winner "
        "pays nothing (zero-can-win, revision 2); or an effective bid of 0 cannot win "
        "(no-winner).",
    ),
    RuleOption(
        "RULING-MEDIA-STEP", 5, (5, 10, 25, 50, 100),
        "P2.6: media bids are multiples of this many G.",
    ),
    RuleOption(
        "RULING-ROUNDING", "toward-zero", ("toward-zero", "away-from-zero"),
        f"P3.TOUR.4: how a multiplied fame or money amount is rounded (money to {MONEY_UNIT} G).",
    ),
    RuleOption(
        "RULING-COMMERCIAL-FAME", "required", ("required", "not-required"),
        "P3.TOUR.5: a commercial tour needs fame at least its fame cost (required), or not.",
    ),
    RuleOption(
        "RULING-STYLE", "orchestras", ("orchestras", "best-of-card"),
        "P4.CONCERT.3: the judged style is the style of the orchestras brought (orchestras), "
        "or, for a card with both styles, whichever of them rates the concert better.",
    ),
    RuleOption(
        "RULING-POACH-MARKERS", "stay", ("stay", "return"),
        "P4.HIRE.2: dissent markers of a poached orchestra stay on the card (revision 2), or go "
        "back to the supply.",
    ),
    RuleOption(
        "RULING-NEGOTIATION", "era-request", ("era-request", "blind"),
        "P4.BUY.2: the buyer names seller, price and optionally an era (era-request), or only "
        "seller and price (blind).",
    ),
    RuleOption(
        "RULING-LINEAGE", "any-depth", ("any-depth", "direct"),
        "RESTORE.2: lineage links composers at any depth of teacher->student, or only "
        "direct teacher and student.",
    ),
    RuleOption(
        "RULING-RESTORE-GOOD", "good-only", ("good-only", "lineage-good-only"),
        "RESTORE.3: the whole restoration bonus needs a good rating (good-only), or only "
        "its lineage/same-composer part does.",
    ),
    RuleOption(
        "RULING-HALF-VENUE", "halls-only", ("halls-only", "all-venues"),
        "P4.3: without a concert only hall rent is halved (halls-only, the source's 'half the "
        "hall rent'); or every venue cost, tours included (all-venues; RULING-HALF-FAME).",
    ),
    RuleOption(
        "RULING-MISSING-TYPE", "requested", ("requested", "literal"),
        "RATE.POOR.3: poor when a type the card asks for was not brought (requested); or, "
        "literally, when the orchestras lack instrumentalists or singers (literal).",
    ),
    RuleOption(
        "RULING-HALF-FAME", "up", ("up", "down"),
        "P5.2: half a commercial tour's fame cost (no concert) is rounded up or down.",
    ),
    RuleOption(
        "RULING-UNPAID-VENUE", "fame-per-50", ("fame-per-50", "forgiven"),
        f"P5.2: unpaid venue money costs 1 fame per started {UNPAID_VENUE_STEP} G, or is simply "
        "forgiven.",
    ),
    RuleOption(
        "RULING-UNPAID-SURCHARGE", "marker", ("marker", "forgiven"),
        "P5.4: an unpaid fame surcharge puts a marker on an orchestra of the player's "
        "choice, or is forgiven.",
    ),
    RuleOption(
        "RULING-FAME-FLOOR", "zero", ("zero", "none"),
        "P5.8: fame never drops below 0 (zero), or may go negative (none).",
    ),
    RuleOption(
        "RULING-END-CARDS", "score-only", ("score-only", "score-and-discovery"),
        "END.7: END.1 and END.2 count score cards only (revision 2), or score and discovery "
        "cards alike.",
    ),
    RuleOption(
        "RULING-RESTORE-CAP", "restored", ("restored", "every-discovery"),
        "RESTORE.4: the cap of 10 fame holds for a discovery card whose concert earned a "
        "restoration bonus (revision 3, the source's words), or for every discovery card.",
    ),
)

# The revision of RULES.md this engine implements (its "Revisions" section); saves record it.
RULES_REVISION = 3

RULE_OPTIONS: Mapping[str, RuleOption] = MappingProxyType({o.name: o for o in _OPTIONS})

# Options added after games were first saved, with the reading those games were played
# under: a saved game that does not name an option played this value, not today's default.
ABSENT_IN_OLD_SAVES: Mapping[str, Any] = MappingProxyType({
    "RULING-HALF-VENUE": "all-venues",  # revision 2; before it every venue cost was halved
    "RULING-MISSING-TYPE": "requested",
    "RULING-RESTORE-CAP": "every-discovery",  # revision 3; before it every card was capped
})


def _check(name: str, value: Any) -> Any:
    option = RULE_OPTIONS.get(name)
    if option is None:
        valid = ", ".join(RULE_OPTIONS)
        raise RuleOptionError(f"unknown rule option {name!r}; valid options are: {valid}")
    if (isinstance(option.default, int) and isinstance(value, str) and len(value) < 10
            and value.lstrip("-").isascii() and value.lstrip("-").isdigit()):
        value = int(value)  # "12" from the command line; not "²", which isdigit() accepts
    if value not in option.choices or type(value) is not type(option.default):
        choices = ", ".join(repr(c) for c in option.choices)
        raise RuleOptionError(
            f"invalid value {brief(value, 60)} for rule option {name}; expected one of: {choices}"
        )
    return value


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every ruling and month option by its RULES.md name.

    >>> RuleSet().get("RULING-MONTHS")
    12
    >>> RuleSet.from_options({"RULING-MONTHS": 6}).months
    6
    """

    options: Mapping[str, Any] = field(
        default_factory=lambda: MappingProxyType({o.name: o.default for o in _OPTIONS})
    )

    @classmethod
    def from_options(cls, overrides: Mapping[str, Any] | None = None) -> RuleSet:
        """Defaults of RULES.md with ``overrides`` applied; unknown names or values raise."""
        values = {o.name: o.default for o in _OPTIONS}
        for name, value in (overrides or {}).items():
            values[name] = _check(name, value)
        return cls(MappingProxyType(values))

    @classmethod
    def from_saved(cls, saved: Mapping[str, Any]) -> RuleSet:
        """The rule set a saved game was played under: its recorded options, and for an
        option it does not name (added later), the reading of :data:`ABSENT_IN_OLD_SAVES`.

        Saves record every option, so only options newer than the file can be missing."""
        return cls.from_options({**ABSENT_IN_OLD_SAVES, **saved})

    @classmethod
    def parse(cls, assignments: list[str] | tuple[str, ...]) -> RuleSet:
        """Parse ``NAME=VALUE`` strings, as given on the command line."""
        overrides: dict[str, Any] = {}
        for text in assignments:
            name, sep, value = text.partition("=")
            if not sep:
                raise RuleOptionError(f"rule option {text!r} must be written NAME=VALUE")
            overrides[name.strip()] = value.strip()
        return cls.from_options(overrides)

    def get(self, name: str) -> Any:
        if name not in self.options:
            _check(name, None)
        return self.options[name]

    @property
    def months(self) -> int:
        return int(self.options["RULING-MONTHS"])

    def non_default(self) -> dict[str, Any]:
        """The options that differ from RULES.md's defaults."""
        return {
            name: value for name, value in self.options.items()
            if value != RULE_OPTIONS[name].default
        }

    def to_dict(self) -> dict[str, Any]:
        return dict(self.options)

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        # A rule set travels to worker processes as its plain options (re-checked on arrival).
        return RuleSet.from_options, (dict(self.options),)

    def __post_init__(self) -> None:
        for name, value in self.options.items():
            _check(name, value)
        missing = [name for name in RULE_OPTIONS if name not in self.options]
        if missing:
            raise RuleOptionError(f"rule set is missing options: {', '.join(missing)}")
