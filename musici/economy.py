"""The numbers of RULES.md, once: prices, salaries, bonuses, thresholds, awards, venues.

Everything that pays, charges or counts in the game reads its number here, and the small
pure functions below are the one home of each payment rule's arithmetic. The engine
applies them; bots, search and explanations call the same functions, so a ruling or a
price changes everywhere at once (DESIGN principle 8).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, NamedTuple

if TYPE_CHECKING:
    from musici.rules import RuleSet

# ---------------------------------------------------------------------------- setup
START_MONEY: Final = 1500  # SETUP.4
HAND_SIZE: Final = 3  # SETUP.2: secret starting hand
MARKET_SLOTS: Final = 4  # COMP.2: face-up score and orchestra slots
MONEY_UNIT: Final = 5  # COMP.8: every amount is a multiple of 5 G
# SETUP.6: what a 3-player game takes out of the game (orchestras by (style, part) before
# shuffling; score cards and cards of each discovery deck after shuffling).
SETUP6_ORCHESTRAS: Final[Mapping[tuple[str, str], int]] = MappingProxyType({
    ("modern", "instrumental"): 2, ("modern", "vocal"): 2,
    ("authentic", "instrumental"): 1, ("authentic", "vocal"): 1,
})
SETUP6_SCORES: Final = 6
SETUP6_DISCOVERIES_PER_DECK: Final = 3

# ---------------------------------------------------------------------------- P1, P2
AUCTION_STEP: Final = 100  # P1.1: the first bid and every raise
# P1.1: the first bid for a special card, per card: the rules' step for every card unless
# the card file's ``special_prices`` sets another (``CardSet.special_prices``)
SPECIAL_OPENING_BID: Final = AUCTION_STEP
CRITIC_BONUS: Final = 100  # P2.5 / SPECIAL.S2

# ---------------------------------------------------------------------------- P3 venues
# P3.HALL: area -> (rent in G, capacity in tens of musicians)
HALLS: Final[Mapping[str, tuple[int, int]]] = MappingProxyType({
    "chapel": (50, 1),
    "university": (100, 3),
    "dome": (200, 6),
    "opera": (400, 10),
})
FREE_HALL: Final = "chapel"  # P3.HALL.1: free for the player with strictly the least fame
# P3.TOUR: tour -> (money cost, fame cost, fame multiplier (num, den), income multiplier);
# the card file's ``tours`` may set others (``CardSet.tours``, the same shape)
TourTerms = tuple[int, int, tuple[int, int], tuple[int, int]]
TOURS: Final[Mapping[str, TourTerms]] = MappingProxyType({
    "large-academic": (400, 0, (2, 1), (0, 1)),
    "small-academic": (200, 0, (3, 2), (0, 1)),
    "large-commercial": (0, 5, (0, 1), (2, 1)),
    "small-commercial": (0, 3, (0, 1), (3, 2)),
})
AREAS: Final[tuple[str, ...]] = (*HALLS, *TOURS)  # P3.1: the 8 areas in board order
UNPAID_VENUE_STEP: Final = 50  # RULING-UNPAID-VENUE: 1 fame per started 50 G unpaid

# ---------------------------------------------------------------------------- P4 actions
ACTION_ROUNDS: Final = 3  # P4.1
SCORE_PRICE: Final = 100  # P4.BUY.1
DISCOVER_PRICE: Final = 200  # P4.DISCOVER.1
IDLE_BONUS: Final = 100  # P4.4
IDLE_MAX_ACTIONS: Final = 1  # P4.4: at most one action and no concert
HIRE_PRICE: Final[Mapping[str, int]] = MappingProxyType({"modern": 100, "authentic": 150})  # P4.HIRE.1
SALARY: Final[Mapping[str, int]] = MappingProxyType({"modern": 50, "authentic": 100})  # P4.HIRE.3
POACH_DISCOUNT: Final = 50  # P4.HIRE.2: an orchestra with 2 markers costs 50 G less
EDUCATOR_TAKES: Final = 2  # SPECIAL.S4
ADVISOR_EXEMPTS: Final = 3  # SPECIAL.S5
COLLECTOR_TAKES: Final = 2  # SPECIAL.S7

# ---------------------------------------------------------------------------- concerts
MUSICIANS_PER_ORCHESTRA: Final = 10  # COMP.6: one orchestra card; requirements are in tens (COMP.5)
RESTORE_CAP: Final = 10  # RESTORE.4
MAX_MARKERS: Final = 2  # P5.7: a third marker sends the orchestra away

# ---------------------------------------------------------------------------- P5
GUARNERI_BONUS: Final = 50  # SPECIAL.P1
STRADIVARI_FAME: Final = 1  # SPECIAL.P2
JOURNALIST_FAME: Final = 1  # SPECIAL.P7
# P5.4 (COMP.1's bright lines): (fame at least, surcharge in G), highest first
SURCHARGES: Final[tuple[tuple[int, int], ...]] = ((50, 100), (30, 50))

# ---------------------------------------------------------------------------- END
ERA_AWARDS: Final[Mapping[str, int]] = MappingProxyType(  # END.1
    {"baroque": 4, "classical": 3, "romantic": 5})
NATIONALITY_AWARDS: Final[Mapping[str, int]] = MappingProxyType(  # END.2
    {"german-austrian": 5, "italian": 4, "french": 3})
DISCOVERY_AWARDS: Final[Mapping[str, int]] = MappingProxyType(  # END.3
    {"authentic": 3, "modern": 3})
ORCHESTRA_AWARD: Final = 2  # END.4
SPECIALS_AWARD: Final = 2  # END.4
# Every END award by name (the card file's ``end_awards`` may set other sizes:
# ``CardSet.end_awards``, which scoring.end_awards reads), and the awards of each rule.
END_AWARDS: Final[Mapping[str, int]] = MappingProxyType({
    **ERA_AWARDS, **NATIONALITY_AWARDS, **DISCOVERY_AWARDS,
    "orchestras": ORCHESTRA_AWARD, "specials": SPECIALS_AWARD,
})
END_AWARD_RULES: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType({
    "END.1": tuple(ERA_AWARDS), "END.2": tuple(NATIONALITY_AWARDS),
    "END.3": tuple(DISCOVERY_AWARDS), "END.4": ("orchestras", "specials"),
})


# ---------------------------------------------------------------------------- arithmetic
def next_bid(high: int, *, first: bool, opening: int) -> int:
    """P1.1: the amount of the next bid in a special card's auction: ``opening`` (the card's
    first bid, ``CardSet.special_prices``) when nobody has bid yet, else the step above the
    highest bid ``high``."""
    return opening if first else high + AUCTION_STEP


def musicians(tens: int) -> int:
    """COMP.5/COMP.6: a requirement or capacity "in tens" as musicians (2 -> 20)."""
    return tens * MUSICIANS_PER_ORCHESTRA


def surcharge(fame: int) -> int:
    """P5.4: the salary surcharge at ``fame`` (0 below 30, 50 G from 30, 100 G from 50)."""
    for threshold, amount in SURCHARGES:
        if fame >= threshold:
            return amount
    return 0


def poach_price(price: int, markers: int) -> int:
    """P4.HIRE.2: an orchestra's full price with 1 marker, 50 G less with 2."""
    return price - POACH_DISCOUNT if markers >= MAX_MARKERS else price


def salary_due(salary: int, held_concert: bool) -> int:
    """P5.3 / P4.3: a month's salary, halved for a player who held no concert."""
    return salary if held_concert else salary // 2


def idle_bonus(held_concert: bool, actions: int) -> int:
    """P4.4: 100 G for a player who held no concert and performed at most one action."""
    return IDLE_BONUS if not held_concert and actions <= IDLE_MAX_ACTIONS else 0


def unpaid_venue_fame(unpaid: int) -> int:
    """RULING-UNPAID-VENUE=fame-per-50: fame lost for ``unpaid`` G of a venue's cost."""
    return -(-unpaid // UNPAID_VENUE_STEP)


def capacity(area: str) -> int | None:
    """P4.CONCERT.2: a hall's capacity in tens of musicians; ``None`` for a tour (no limit)."""
    hall = HALLS.get(area)
    return None if hall is None else hall[1]


# A venue cost or a ledger line built as a plain tuple of its class (NamedTuple's own
# __new__ is Python code, five times slower; the planners price every area every decision).
_new_line = tuple.__new__


class VenueCost(NamedTuple):
    """What an area costs its player in P5.2: money, or fame, or nothing, and why.

    (An immutable named tuple: made for every player every month, so cheap to build.)"""

    money: int
    fame: int
    rule: str  # "P5.2"; "P4.3" when halved; "P3.HALL.1" or "SPECIAL.S3" when free
    halved: bool = False

    @property
    def free(self) -> bool:
        return self.rule in ("P3.HALL.1", "SPECIAL.S3")


def venue_cost(area: str, *, held_concert: bool, rules: RuleSet, hall_rents: Mapping[str, int],
               chapel_free: bool = False, tour_guide: bool = False,
               tours: Mapping[str, TourTerms] | None = None) -> VenueCost:
    """P5.2: the cost of ``area`` for its player this month, under ``rules``.

    ``chapel_free``: this player gets the Chapel free (P3.HALL.1); ``tour_guide``: this
    player played the Tour guide (SPECIAL.S3); ``hall_rents``: the card set's rents
    (``CardSet.hall_rents``: the rules' :data:`HALLS` unless the card file sets others;
    required, so no caller prices a hall at a rent the game does not charge); ``tours``:
    the card set's tour terms (``CardSet.tours``; ``None``: the rules' :data:`TOURS`). A
    tour may cost money and fame at once when a card file says so. Without a concert a
    hall's rent is halved (P4.3); RULING-HALF-VENUE=all-venues halves a tour's cost too, and
    half a fame cost is rounded by RULING-HALF-FAME.
    """
    tour = (TOURS if tours is None else tours).get(area)
    if tour is not None:
        if tour_guide:
            return _new_line(VenueCost, (0, 0, "SPECIAL.S3", False))
        money, fame = tour[0], tour[1]
    else:
        if area == FREE_HALL and chapel_free:
            return _new_line(VenueCost, (0, 0, "P3.HALL.1", False))
        money, fame = hall_rents[area], 0
    if held_concert or (tour is not None and rules.options["RULING-HALF-VENUE"] == "halls-only"):
        # P4.3 RULING-HALF-VENUE: "half the hall rent"
        return _new_line(VenueCost, (money, fame, "P5.2", False))
    if fame:
        fame = (fame + 1) // 2 if rules.options["RULING-HALF-FAME"] == "up" else fame // 2
    return _new_line(VenueCost, (money // 2, fame, "P4.3", True))  # halved


def areas_open_to(fame: int, rules: RuleSet,
                  tours: Mapping[str, TourTerms] | None = None) -> tuple[str, ...]:
    """P3.1 and P3.TOUR.5 RULING-COMMERCIAL-FAME: the areas a player with ``fame`` may
    choose (a commercial tour needs fame of at least its fame cost, ``tours``: the card
    set's tour terms, ``None`` for the rules'), in board order."""
    if rules.options["RULING-COMMERCIAL-FAME"] != "required":
        return AREAS
    table = TOURS if tours is None else tours
    return tuple(a for a in AREAS if a not in table or fame >= table[a][1])


# ---------------------------------------------------------------------------- P5 ledger
class LedgerLine(NamedTuple):
    """One line of a player's month settlement: G received (+) or due (-), fame gained or
    lost, the reason in words and the rule id."""

    money: int
    fame: int
    reason: str
    rule: str




_NO_LINES: Final[tuple[LedgerLine, ...]] = ()


def received_lines(*, held_concert: bool, income: int, actions: int,
                   permanent: Collection[str]) -> tuple[LedgerLine, ...]:
    """P5.1 with P4.4: what a player receives this month, in order: the concert's income
    (after P3.TOUR), the idle bonus for at most one action and no concert (P4.4), the
    Guarneri violin with a concert (SPECIAL.P1). The first lines of :func:`month_ledger`."""
    lines = []
    if held_concert and income:
        lines.append(_new_line(LedgerLine, (income, 0, "concert income", "P5.1")))
    if idle_bonus(held_concert, actions):
        lines.append(_IDLE)
    if held_concert and "P1" in permanent:
        lines.append(_GUARNERI)
    return tuple(lines)


def fame_lines(*, held_concert: bool, permanent: Collection[str],
               alone: bool) -> tuple[LedgerLine, ...]:
    """P5.5: the fame cards' lines after a concert, in order: the Stradivari cello
    (SPECIAL.P2), the Journalist when no one else is in a hall / on a tour like the
    player's (SPECIAL.P7). The last lines of :func:`month_ledger`."""
    if not held_concert:
        return _NO_LINES
    lines = [_STRADIVARI] if "P2" in permanent else []
    if alone and "P7" in permanent:
        lines.append(_JOURNALIST)
    return tuple(lines)


_GUARNERI: Final = _new_line(LedgerLine, (GUARNERI_BONUS, 0, "Guarneri violin", "SPECIAL.P1"))
_IDLE: Final = _new_line(LedgerLine, (IDLE_BONUS, 0, "at most one action and no concert", "P4.4"))
_STRADIVARI: Final = _new_line(LedgerLine, (0, STRADIVARI_FAME, "Stradivari cello", "SPECIAL.P2"))
_JOURNALIST: Final = _new_line(LedgerLine, (0, JOURNALIST_FAME, "Journalist: alone in a hall/on a tour",
                                     "SPECIAL.P7"))


def month_ledger(*, held_concert: bool, income: int, actions: int, permanent: Collection[str],
                 venue: str, venue_cost: VenueCost, salaries: Sequence[int], surcharge_fame: int,
                 alone: bool = False) -> tuple[LedgerLine, ...]:
    """P5.1-P5.5 with P4.3/P4.4: a player's settlement lines in the order P5 applies them.

    ``income``: the concert's income after P3.TOUR (P5.1); ``actions``: actions taken this
    month (P4.4); ``permanent``: the player's permanent special cards (SPECIAL.P1/P2/P7);
    ``venue_cost``: :func:`venue_cost` of ``venue``; ``salaries``: each orchestra's printed
    salary (halved here without a concert, P4.3); ``surcharge_fame``: the fame P5.4 charges
    the surcharge at; ``alone``: no one else in a hall (or on a tour) like the player's
    (SPECIAL.P7). What is *due*: the engine pays what the player can and asks what to leave
    unpaid (P5.3); plans and previews sum the lines as if all is paid.

    The lines received are :func:`received_lines` and the fame cards' :func:`fame_lines`:
    the engine settles from those two parts (36-48 times a game) and pays the venue and
    salaries line by line as the player can (:func:`venue_cost`, :func:`salary_due`).
    """
    return (*received_lines(held_concert=held_concert, income=income, actions=actions,
                            permanent=permanent),
            venue_line(venue, venue_cost),
            *due_lines(held_concert=held_concert, salaries=salaries, surcharge_fame=surcharge_fame),
            *fame_lines(held_concert=held_concert, permanent=permanent, alone=alone))


def venue_line(venue: str, cost: VenueCost) -> LedgerLine:
    """P5.2: the venue's line of :func:`month_ledger` (``cost``: :func:`venue_cost`)."""
    return _new_line(LedgerLine, (-cost.money, -cost.fame, venue, cost.rule))


def due_lines(*, held_concert: bool, salaries: Sequence[int],
              surcharge_fame: int) -> tuple[LedgerLine, ...]:
    """P5.3 and P5.4 (P4.3 without a concert): the salaries of orchestras with these printed
    ``salaries`` and the surcharge at ``surcharge_fame``, the middle lines of
    :func:`month_ledger` after the venue's."""
    lines = []
    due = sum([salary_due(s, held_concert) for s in salaries])
    if due:
        lines.append(_new_line(LedgerLine, (-due, 0, "salaries", "P5.3" if held_concert else "P4.3")))
    extra = surcharge(surcharge_fame)
    if extra:
        lines.append(_new_line(LedgerLine, (-extra, 0, "salary surcharge", "P5.4")))
    return tuple(lines)
