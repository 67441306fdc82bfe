"""Direct rule tests written against the survivors of a mutation run (issue 22 item 8).

``benchmarks/mutation_score.py`` mutates ``scoring``, ``economy`` and ``rating``; each test
here checks a rule of RULES.md at a corner the engine-level tests did not pin down (a card
of one style judged under best-of-card, a restoration bonus of exactly 1 over the cap, a
card file's own tour terms, a tie on fame at the end, ...). The mutants that no test can
kill, and why, are listed in that script.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import pytest

from musici import RuleSet, scoring
from musici import economy as E
from musici import rating as R
from musici.cards import SPECIAL_NAMES, MusicCard, standard_cardset

CARDS = standard_cardset()
RENTS = CARDS.hall_rents


def card(*, kind: str = "score", fame: tuple[int, int, int] = (6, 3, 1), income: int = 100,
         authentic: tuple[int, int] | None = (2, 1), modern: tuple[int, int] | None = None,
         deck: str | None = None, era: str = "baroque") -> MusicCard:
    return MusicCard("X1", kind, "vivaldi", "test piece", era, fame, income, authentic, modern,
                     deck)


def rules(**options: str) -> RuleSet:
    return RuleSet.from_options({k.replace("_", "-"): v for k, v in options.items()})


BEST = rules(RULING_STYLE="best-of-card")


# ---------------------------------------------------------------- RATE
@pytest.mark.rules("RATE.POOR.3")
def test_a_requirement_of_ten_instrumentalists_with_none_brought_is_poor() -> None:
    assert R.missing_type((1, 2), (0, 3), literal=False)
    assert R.missing_type((2, 1), (3, 0), literal=False)
    got = R.rate_concert(card(authentic=(1, 2)), "authentic", (0, 3), 0)
    assert got.level == R.POOR and "RATE.POOR.3" in got.reasons


@pytest.mark.rules("RATE.POOR.5")
def test_a_discovery_card_rated_without_a_restoration_flag_counts_as_restored() -> None:
    # rate_concert's documented default: ``restored`` only says RESTORE.1 found nothing.
    d = card(kind="discovery", deck="authentic")
    assert R.rate_concert(d, "authentic", (2, 1), 0).level == R.GOOD
    assert R.rate_concert(d, "authentic", (2, 1), 0, restored=False).level == R.POOR


@pytest.mark.rules("RULING-STYLE", "P4.CONCERT.3", "RATE.FAIR.1")
def test_best_of_card_on_a_modern_only_card_keeps_the_orchestras_style() -> None:
    # Only a card showing both styles lets the player choose: authentic orchestras on a
    # modern-only card are judged as not matching, though the modern corner would be good.
    modern_only = card(authentic=None, modern=(2, 1))
    got = R.best_style_rating(modern_only, "authentic", (2, 1), 0, restored=True, media=False)
    assert (got.style, got.level, got.reasons) == ("authentic", R.FAIR, ("RATE.FAIR.1",))
    via_rules = scoring.rate(modern_only, "authentic", (2, 1), 0, rules=BEST, restored=True,
                             media=False)
    assert (via_rules.style, via_rules.level) == ("authentic", R.FAIR)


@pytest.mark.rules("RULING-STYLE", "RATE.POOR.5", "RATE.MEDIA", "RATE.POOR.3",
                   "RULING-MISSING-TYPE")
def test_best_of_card_on_a_one_style_card_passes_every_condition_on() -> None:
    d = card(kind="discovery", deck="authentic", authentic=(2, 0))
    kw = {"restored": True, "media": False}
    assert R.best_style_rating(d, "authentic", (2, 0), 0, **kw).level == R.GOOD
    unrestored = R.best_style_rating(d, "authentic", (2, 0), 0, restored=False, media=False)
    assert (unrestored.level, unrestored.reasons) == (R.POOR, ("RATE.POOR.5",))
    media = R.best_style_rating(d, "authentic", (2, 0), 1, restored=True, media=True)
    assert (media.base_level, media.level) == (R.FAIR, R.GOOD)
    literal = R.best_style_rating(d, "authentic", (2, 0), 0, literal_missing_type=True, **kw)
    assert (literal.level, literal.reasons) == (R.POOR, ("RATE.POOR.3",))


@pytest.mark.rules("RULING-STYLE", "RATE.POOR.5", "RATE.MEDIA")
def test_best_of_card_on_a_two_style_card_passes_every_condition_on() -> None:
    d = card(kind="discovery", deck="authentic", authentic=(2, 1), modern=(2, 1))
    assert R.best_style_rating(d, "modern", (2, 1), 0, restored=True, media=False).level == R.GOOD
    unrestored = R.best_style_rating(d, "modern", (2, 1), 0, restored=False, media=False)
    assert (unrestored.level, unrestored.reasons) == (R.POOR, ("RATE.POOR.5",))
    media = R.best_style_rating(d, "modern", (2, 1), 1, restored=True, media=True)
    assert (media.style, media.base_level, media.level) == ("modern", R.FAIR, R.GOOD)


@pytest.mark.rules("RULING-STYLE", "P4.CONCERT.3")
def test_the_rule_set_switches_to_the_best_corner() -> None:
    both = card(authentic=(3, 0), modern=(1, 0))
    kw = {"restored": True, "media": False}
    own = scoring.rate(both, "authentic", (1, 0), 0, rules=RuleSet(), **kw)
    best = scoring.rate(both, "authentic", (1, 0), 0, rules=BEST, **kw)
    assert (own.style, own.level) == ("authentic", R.POOR)
    assert (best.style, best.level) == ("modern", R.GOOD)
    # Equal levels: the orchestras' own style, whichever it is.
    tie = card(authentic=(1, 0), modern=(1, 0))
    for style in ("authentic", "modern"):
        assert scoring.rate(tie, style, (1, 0), 0, rules=BEST, **kw).style == style


@pytest.mark.rules("RULING-STYLE", "RULING-MISSING-TYPE", "RATE.POOR.3", "RATE.POOR.5",
                   "RATE.MEDIA")
def test_best_of_card_through_the_rule_set_reads_every_condition() -> None:
    both = card(authentic=(2, 0), modern=(2, 0))
    for option, level in (("requested", R.GOOD), ("literal", R.POOR)):
        got = scoring.rate(both, "authentic", (2, 0), 0, restored=True, media=False,
                           rules=rules(RULING_STYLE="best-of-card", RULING_MISSING_TYPE=option))
        assert got.level == level
    d = card(kind="discovery", deck="modern", authentic=(2, 1), modern=(2, 1))
    assert scoring.rate(d, "modern", (2, 1), 0, rules=BEST, restored=True,
                        media=False).level == R.GOOD
    assert scoring.rate(d, "modern", (2, 1), 0, rules=BEST, restored=False,
                        media=False).level == R.POOR
    lifted = scoring.rate(d, "modern", (2, 1), 1, rules=BEST, restored=True, media=True)
    assert (lifted.base_level, lifted.level) == (R.FAIR, R.GOOD)


# ---------------------------------------------------------------- RESTORE
@pytest.mark.rules("RESTORE.1", "RESTORE.2", "RULING-LINEAGE")
def test_soler_is_restored_by_alessandro_scarlatti_at_any_depth_by_default() -> None:
    # RESTORE.1's own example: A. Scarlatti (Italian, baroque) and Soler (Spanish,
    # classical) share no nationality or era; Soler studied with A. Scarlatti's son.
    soler = next(c for c in CARDS.music.values()
                 if c.composer == "soler" and c.kind == "discovery")
    a_scarlatti = next(c.id for c in CARDS.music.values() if c.composer == "a-scarlatti")
    found = R.restoration(CARDS, soler, [a_scarlatti])
    assert [(m.card, m.nationality_or_era, m.composer_or_lineage, m.why)
            for m in found.matches] == [(a_scarlatti, 0, 1, ("lineage",))]
    assert not R.restoration(CARDS, soler, [a_scarlatti], lineage_any_depth=False).found


@pytest.mark.rules("RESTORE.4", "RULING-RESTORE-CAP")
def test_a_bonus_of_one_over_the_cap_is_capped() -> None:
    big = card(kind="discovery", deck="authentic", fame=(10, 5, 2))
    one = R.Restoration((R.RestoreMatch("S1", 1, 0, ("era",)),))
    out = scoring.concert_outcome(big, "authentic", (2, 1), 0, rules=RuleSet(), venue=None,
                                  media=False, restore=one)
    assert (out.card_fame, out.bonus, out.total, out.capped) == (10, 1, E.RESTORE_CAP, True)
    assert out.restoration is one


# ---------------------------------------------------------------- P3.TOUR, a card file's terms
TRIPLE = {**E.TOURS, "large-academic": (400, 0, (3, 1), (0, 1)),
          "large-commercial": (100, 4, (0, 1), (2, 1))}


@pytest.mark.rules("P3.TOUR", "P4.CONCERT.4")
def test_a_card_files_tour_terms_multiply_the_concert() -> None:
    assert scoring.tour_result(4, 100, "large-academic", RuleSet(), TRIPLE) == (12, 0)
    assert scoring.tour_result(4, 100, "large-academic", RuleSet()) == (8, 0)
    out = scoring.concert_outcome(card(), "authentic", (2, 1), 0, rules=RuleSet(),
                                  venue="large-academic", media=False, restore=None,
                                  tours=TRIPLE)
    assert (out.total, out.fame, out.income) == (6, 18, 0)


@pytest.mark.rules("P5.2", "P4.3", "RULING-HALF-VENUE", "RULING-HALF-FAME")
def test_a_card_files_tour_costs_money_and_an_even_fame_cost_halves_exactly() -> None:
    held = E.venue_cost("large-commercial", held_concert=True, rules=RuleSet(),
                        hall_rents=RENTS, tours=TRIPLE)
    assert held == E.VenueCost(100, 4, "P5.2", False)
    for half in ("up", "down"):
        got = E.venue_cost("large-commercial", held_concert=False, hall_rents=RENTS, tours=TRIPLE,
                           rules=rules(RULING_HALF_VENUE="all-venues", RULING_HALF_FAME=half))
        assert got == E.VenueCost(50, 2, "P4.3", True)
        assert type(got.fame) is int


@pytest.mark.rules("P3.TOUR.5", "RULING-COMMERCIAL-FAME")
def test_a_card_files_commercial_fame_cost_decides_who_may_tour() -> None:
    dear = {**E.TOURS, "large-commercial": (0, 8, (0, 1), (2, 1))}
    assert "large-commercial" in E.areas_open_to(6, RuleSet())
    open_to = E.areas_open_to(6, RuleSet(), tours=dear)
    assert "large-commercial" not in open_to and "small-commercial" in open_to
    assert "large-commercial" in E.areas_open_to(8, RuleSet(), tours=dear)


@pytest.mark.rules("P3.HALL", "P3.HALL.1", "P5.2")
def test_the_chapel_costs_its_rent_unless_it_is_free_for_this_player() -> None:
    cost = E.venue_cost(E.FREE_HALL, held_concert=True, rules=RuleSet(), hall_rents=RENTS)
    assert cost == E.VenueCost(RENTS[E.FREE_HALL], 0, "P5.2", False) and not cost.free


# ---------------------------------------------------------------- P1, COMP, P4.CONCERT
@pytest.mark.rules("P1.1")
def test_the_first_bid_is_the_opening_and_every_later_one_a_step_up() -> None:
    assert E.next_bid(0, first=True, opening=E.SPECIAL_OPENING_BID) == 100
    assert E.next_bid(0, first=True, opening=150) == 150
    assert E.next_bid(300, first=False, opening=150) == 300 + E.AUCTION_STEP


@pytest.mark.rules("COMP.5", "COMP.6")
def test_tens_of_musicians() -> None:
    assert [E.musicians(t) for t in (0, 1, 3, 10)] == [0, 10, 30, 100]
    assert type(E.musicians(3)) is int


@pytest.mark.rules("P4.CONCERT.3", "SPECIAL.P3")
def test_lineup_without_markers() -> None:
    assert scoring.lineup(CARDS, ["P3", "O01"]) == ("modern", (2, 0), 0)
    assert scoring.lineup(CARDS, ["O01"], {}) == ("modern", (1, 0), 0)


# ---------------------------------------------------------------- END
@dataclass
class Seat:
    played: list[str] = field(default_factory=list)
    orchestras: list[str] = field(default_factory=list)
    specials_bought: int = 0


@pytest.mark.rules("END.1", "END.3", "END.4")
def test_every_award_names_its_rule() -> None:
    discovery = next(c.id for c in CARDS.music.values() if c.kind == "discovery")
    score = next(c.id for c in CARDS.music.values() if c.kind == "score")
    awards = scoring.end_awards(CARDS, RuleSet(),
                                [Seat([discovery, score], ["O01"], 1), Seat()])
    rule_of = {a.name: a.rule for a in awards}
    deck = CARDS.music[discovery].deck
    assert deck is not None
    assert rule_of[deck] == "END.3" and rule_of[CARDS.music[score].era] == "END.1"
    assert rule_of["orchestras"] == rule_of["specials"] == "END.4"


@pytest.mark.rules("END.WIN")
def test_a_single_player_is_first_and_no_tie_is_broken() -> None:
    got = scoring.final_scoring(CARDS, RuleSet(), [Seat()], [7], [0], [0])
    assert (got.ranks, got.winners, got.tie_break, got.fame) == ((1,), (0,), None, (Fraction(7),))


@pytest.mark.rules("END.WIN")
def test_a_tie_on_fame_and_money_is_shared() -> None:
    got = scoring.final_scoring(CARDS, RuleSet(), [Seat(), Seat()], [9, 9], [100, 100], [0, 0])
    assert (got.ranks, got.winners, got.tie_break) == ((1, 1), (0, 1), "money")


@pytest.mark.rules("END.WIN")
def test_a_tie_on_fame_is_broken_by_money_only_at_the_top() -> None:
    seats = [Seat(), Seat(), Seat()]
    top = scoring.final_scoring(CARDS, RuleSet(), seats, [10, 10, 5], [100, 200, 0], [0, 0, 0])
    assert (top.ranks, top.winners, top.tie_break) == ((2, 1, 3), (1,), "money")
    below = scoring.final_scoring(CARDS, RuleSet(), seats, [10, 8, 8], [0, 100, 200], [0, 0, 0])
    assert (below.ranks, below.winners, below.tie_break) == ((1, 3, 2), (0,), None)


@pytest.mark.rules("END.5")
def test_markers_cost_fame_and_are_reported_per_seat() -> None:
    got = scoring.final_scoring(CARDS, RuleSet(), [Seat(), Seat()], [9, 9], [0, 0], [2, 0])
    assert got.penalties == (2, 0) and got.fame == (Fraction(7), Fraction(9))
    assert got.winners == (1,)


@pytest.mark.rules("END.5", "END.WIN")
def test_final_scoring_wants_one_fame_and_one_marker_count_per_player() -> None:
    seats = [Seat(), Seat()]
    with pytest.raises(ValueError):
        scoring.final_scoring(CARDS, RuleSet(), seats, [9, 9, 9], [0, 0], [0, 0])
    with pytest.raises(ValueError):
        scoring.final_scoring(CARDS, RuleSet(), seats, [9, 9], [0, 0], [0, 0, 3])


# ---------------------------------------------------------------- P5 ledger
def _ledger(**kw: object) -> tuple[E.LedgerLine, ...]:
    args: dict[str, object] = {"held_concert": True, "income": 300, "actions": 2,
                               "permanent": ("P7",), "venue": "opera",
                               "venue_cost": E.VenueCost(400, 0, "P5.2"), "salaries": [100],
                               "surcharge_fame": 0}
    args.update(kw)
    return E.month_ledger(**args)  # type: ignore[arg-type]


@pytest.mark.rules("SPECIAL.P7")
def test_the_journalist_needs_to_be_alone() -> None:
    assert "SPECIAL.P7" not in [line.rule for line in _ledger()]
    journalist = [line for line in _ledger(alone=True) if line.rule == "SPECIAL.P7"]
    assert [(line.money, line.fame) for line in journalist] == [(0, E.JOURNALIST_FAME)]


@pytest.mark.rules("P5.1", "P4.4", "P5.2", "P5.3", "P5.4", "P3.HALL.1", "SPECIAL.P1",
                   "SPECIAL.P2", "SPECIAL.P7")
def test_the_ledger_lines_say_what_they_are_for() -> None:
    # The engine logs the income, bonus and fame lines' reasons as they are
    # (p5_settlement.settle): each names its cause, the special cards by their RULES names.
    held = _ledger(permanent=("P1", "P2", "P7"), salaries=[100, 50], surcharge_fame=31,
                   alone=True)
    assert [line.rule for line in held] == ["P5.1", "SPECIAL.P1", "P5.2", "P5.3", "P5.4",
                                            "SPECIAL.P2", "SPECIAL.P7"]
    income, guarneri, venue, salaries, surcharge, stradivari, journalist = held
    assert income.reason == "concert income"
    assert (guarneri.reason, stradivari.reason) == (SPECIAL_NAMES["P1"], SPECIAL_NAMES["P2"])
    assert journalist.reason.startswith(SPECIAL_NAMES["P7"])
    assert venue.reason == "opera"
    assert salaries.reason.startswith("salaries")
    assert surcharge.reason.startswith("salary surcharge")
    idle = _ledger(held_concert=False, income=0, actions=1, venue=E.FREE_HALL,
                   venue_cost=E.VenueCost(0, 0, "P3.HALL.1"))
    assert [line.rule for line in idle] == ["P4.4", "P3.HALL.1", "P4.3"]
    assert idle[0].reason == "at most one action and no concert"
    assert idle[1].reason.startswith(E.FREE_HALL) and idle[2].reason.startswith("salaries")
