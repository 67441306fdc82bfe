"""Direct tests of the pure rule functions on hand-made edge cards (issue 22 item 8).

The engine-level rules tests play the bundled cards, so corners those cards never reach
(a requirement of zero of a type, printed fame above the RESTORE.4 cap, a free Chapel's
whole cost) are checked here against ``economy``, ``scoring`` and ``rating`` directly.
"""

from __future__ import annotations

import pytest

from musici import RuleSet, scoring
from musici import economy as E
from musici import rating as R
from musici.cards import MusicCard, standard_cardset

RENTS = standard_cardset().hall_rents


def card(*, kind: str = "score", fame: tuple[int, int, int] = (6, 3, 1), income: int = 100,
         authentic: tuple[int, int] | None = (2, 1), modern: tuple[int, int] | None = None,
         deck: str | None = None, era: str = "baroque") -> MusicCard:
    return MusicCard("X1", kind, "Vivaldi", "test piece", era, fame, income, authentic, modern,
                     deck)


def rules(**options: str) -> RuleSet:
    return RuleSet.from_options({k.replace("_", "-"): v for k, v in options.items()})


# ---------------------------------------------------------------- RATE.POOR.3, missing type
@pytest.mark.rules("RATE.POOR.3", "RULING-MISSING-TYPE")
def test_a_requirement_of_no_singers_misses_nothing_when_none_are_brought() -> None:
    assert not R.missing_type((3, 0), (3, 0), literal=False)  # requested: asks for none
    assert R.missing_type((3, 0), (3, 0), literal=True)  # literal: the type is absent


@pytest.mark.rules("RATE.POOR.3", "RULING-MISSING-TYPE")
def test_a_requirement_of_zero_instrumentalists_under_requested() -> None:
    c = card(authentic=(0, 2))
    requested = R.rate_concert(c, "authentic", (0, 2), 0)
    assert requested.level == R.GOOD and "RATE.POOR.3" not in requested.reasons
    literal = R.rate_concert(c, "authentic", (0, 2), 0, literal_missing_type=True)
    assert literal.level == R.POOR and literal.reasons == ("RATE.POOR.3",)
    # Through scoring's rule-set switch, the same two readings.
    for option, level in (("requested", R.GOOD), ("literal", R.POOR)):
        got = scoring.rate(c, "authentic", (0, 2), 0, rules=rules(RULING_MISSING_TYPE=option),
                           restored=True, media=False)
        assert got.level == level


@pytest.mark.rules("RATE.POOR.3")
def test_a_requested_type_brought_by_nobody_is_poor_even_with_enough_musicians() -> None:
    got = R.rate_concert(card(authentic=(1, 1)), "authentic", (3, 0), 0)
    assert got.level == R.POOR and "RATE.POOR.3" in got.reasons


# ---------------------------------------------------------------- RATE boundaries
@pytest.mark.rules("RATE.POOR.1", "RATE.POOR.2", "RATE.FAIR.1", "RATE.FAIR.2", "RATE.GOOD")
@pytest.mark.parametrize("brought, level, reason", [
    ((2, 1), R.GOOD, "RATE.GOOD"), ((3, 2), R.GOOD, "RATE.GOOD"),
    ((1, 1), R.FAIR, "RATE.FAIR.2"), ((2, 0), R.POOR, "RATE.POOR.3"),
    ((0, 1), R.POOR, "RATE.POOR.2"),
])
def test_own_style_boundaries(brought: tuple[int, int], level: str, reason: str) -> None:
    got = R.rate_concert(card(), "authentic", brought, 0)
    assert (got.level, reason in got.reasons) == (level, True)


@pytest.mark.rules("RATE.POOR.1", "RATE.FAIR.1")
def test_other_style_is_fair_with_enough_and_poor_with_one_short() -> None:
    c = card(authentic=(2, 1))
    assert R.rate_concert(c, "modern", (2, 1), 0).reasons == ("RATE.FAIR.1",)
    assert "RATE.POOR.1" in R.rate_concert(c, "modern", (1, 1), 0).reasons


@pytest.mark.rules("RATE.POOR.4", "RATE.FAIR.3", "RATE.MEDIA")
def test_markers_and_the_media_upgrade_one_level_only() -> None:
    c = card()
    assert R.rate_concert(c, "authentic", (2, 1), 1).level == R.FAIR
    assert R.rate_concert(c, "authentic", (2, 1), 2).level == R.POOR
    poor_media = R.rate_concert(c, "authentic", (2, 1), 2, media=True)
    assert (poor_media.base_level, poor_media.level) == (R.POOR, R.FAIR)
    good_media = R.rate_concert(c, "authentic", (2, 1), 0, media=True)
    assert (good_media.base_level, good_media.level) == (R.GOOD, R.GOOD)


@pytest.mark.rules("RATE.POOR.5")
def test_an_unrestored_discovery_card_is_poor_a_score_card_never() -> None:
    d = card(kind="discovery", deck="authentic")
    assert R.rate_concert(d, "authentic", (2, 1), 0, restored=False).reasons == ("RATE.POOR.5",)
    assert R.rate_concert(card(), "authentic", (2, 1), 0, restored=False).level == R.GOOD


# ---------------------------------------------------------------- RULING-STYLE best-of-card
@pytest.mark.rules("RULING-STYLE")
def test_best_style_rating_defaults_and_choice() -> None:
    both = card(authentic=(3, 0), modern=(1, 0))
    # Public defaults: requested missing type (RULING-MISSING-TYPE's default reading).
    default = R.best_style_rating(both, "authentic", (1, 0), 0, restored=True, media=False)
    assert (default.style, default.level) == ("modern", R.GOOD)
    # Equal levels: the orchestras' own style is kept.
    tie = R.best_style_rating(card(authentic=(1, 0), modern=(1, 0)), "modern", (1, 0), 0,
                              restored=True, media=False)
    assert tie.style == "modern"
    # A card of one style only: judged against it whatever the orchestras are.
    one = R.best_style_rating(card(authentic=(1, 0)), "modern", (1, 0), 0, restored=True,
                              media=False)
    assert (one.style, one.reasons) == ("modern", ("RATE.FAIR.1",))
    literal = R.best_style_rating(card(authentic=(1, 0), modern=(2, 0)), "authentic", (1, 0),
                                  0, restored=True, media=False, literal_missing_type=True)
    assert literal.level == R.POOR


# ---------------------------------------------------------------- RESTORE.4 cap
def _restore(first: int, second: int) -> R.Restoration:
    return R.Restoration(tuple(R.RestoreMatch(f"S{i}", 1, 0, ("era",)) for i in range(first))
                         + tuple(R.RestoreMatch(f"T{i}", 0, 1, ("lineage",))
                                 for i in range(second)))


@pytest.mark.rules("RESTORE.4", "RULING-RESTORE-CAP")
def test_a_score_card_printing_more_than_10_is_never_capped() -> None:
    big = card(fame=(13, 12, 11))
    for cap in ("restored", "every-discovery"):
        out = scoring.concert_outcome(big, "authentic", (2, 1), 0,
                                      rules=rules(RULING_RESTORE_CAP=cap), venue=None,
                                      media=False, restore=None)
        assert (out.total, out.capped) == (13, False)


@pytest.mark.rules("RESTORE.4", "RULING-RESTORE-CAP")
def test_the_cap_on_discovery_cards_restored_or_not() -> None:
    big = card(kind="discovery", deck="authentic", fame=(13, 12, 11))
    restored = _restore(1, 1)
    for cap in ("restored", "every-discovery"):
        out = scoring.concert_outcome(big, "authentic", (2, 1), 0,
                                      rules=rules(RULING_RESTORE_CAP=cap), venue=None,
                                      media=False, restore=restored)
        assert (out.bonus, out.total, out.capped) == (2, E.RESTORE_CAP, True)
    # Printed above 10, restored by nothing (poor: 11): only every-discovery caps it.
    nothing = R.Restoration(())
    rated = {cap: scoring.concert_outcome(big, "authentic", (2, 1), 0,
                                          rules=rules(RULING_RESTORE_CAP=cap), venue=None,
                                          media=False, restore=nothing)
             for cap in ("restored", "every-discovery")}
    assert (rated["restored"].total, rated["restored"].capped) == (11, False)
    assert (rated["every-discovery"].total, rated["every-discovery"].capped) == (10, True)
    # Exactly 10 is not "over" the cap.
    ten = card(kind="discovery", deck="authentic", fame=(8, 5, 2))
    out = scoring.concert_outcome(ten, "authentic", (2, 1), 0, rules=RuleSet(), venue=None,
                                  media=False, restore=_restore(1, 1))
    assert (out.total, out.capped) == (10, False)


@pytest.mark.rules("RESTORE.3", "RULING-RESTORE-GOOD")
def test_restoration_bonus_needs_a_good_rating_or_only_its_lineage_part() -> None:
    r = _restore(2, 1)
    assert r.bonus(good=True) == 3 and r.bonus(good=False) == 0
    assert r.bonus(good=False, lineage_only_needs_good=True) == 2
    assert scoring.restoration_bonus(r, R.FAIR, rules(RULING_RESTORE_GOOD="lineage-good-only")) == 2


# ---------------------------------------------------------------- P3.TOUR rounding
@pytest.mark.rules("P3.TOUR.3", "P3.TOUR.4", "RULING-ROUNDING")
def test_tour_rounding_both_ways_and_a_loss_on_a_commercial_tour() -> None:
    acad = scoring.tour_result(5, 100, "large-academic", RuleSet())
    away = scoring.tour_result(5, 100, "large-academic", rules(RULING_ROUNDING="away-from-zero"))
    assert acad[1] == 0 and away[0] - acad[0] in (0, 1)
    commercial = next(a for a, t in E.TOURS.items() if not t[2][0])
    assert scoring.tour_result(4, 100, commercial, RuleSet())[0] == 0
    assert scoring.tour_result(-3, 100, commercial, RuleSet())[0] == -3  # P3.TOUR.3
    assert R.scale(-7, 3, 2) == -10 and R.scale(-7, 3, 2, away_from_zero=True) == -11
    assert R.scale(7, 3, 2, unit=5) == 10 and R.scale(7, 3, 2, unit=5, away_from_zero=True) == 15


# ---------------------------------------------------------------- P5.2 venue costs, whole
@pytest.mark.rules("P3.HALL.1")
def test_the_free_chapel_costs_nothing_held_or_not() -> None:
    for held in (True, False):
        cost = E.venue_cost(E.FREE_HALL, held_concert=held, rules=RuleSet(), hall_rents=RENTS,
                            chapel_free=True)
        assert cost == E.VenueCost(0, 0, "P3.HALL.1", False) and cost.free


@pytest.mark.rules("P3.HALL.1", "P5.2", "P4.3")
def test_chapel_free_at_another_hall_changes_nothing() -> None:
    for hall in (h for h in E.HALLS if h != E.FREE_HALL):
        for held in (True, False):
            with_flag = E.venue_cost(hall, held_concert=held, rules=RuleSet(), hall_rents=RENTS,
                                     chapel_free=True)
            assert with_flag == E.venue_cost(hall, held_concert=held, rules=RuleSet(),
                                             hall_rents=RENTS)
            assert with_flag.money == (RENTS[hall] if held else RENTS[hall] // 2)
            assert with_flag.halved is (not held) and not with_flag.free


@pytest.mark.rules("SPECIAL.S3")
def test_the_tour_guide_makes_every_tour_free_and_no_hall() -> None:
    for tour in E.TOURS:
        for held in (True, False):
            cost = E.venue_cost(tour, held_concert=held, rules=RuleSet(), hall_rents=RENTS,
                                tour_guide=True)
            assert cost == E.VenueCost(0, 0, "SPECIAL.S3", False) and cost.free
    hall = E.venue_cost("opera", held_concert=True, rules=RuleSet(), hall_rents=RENTS,
                        tour_guide=True)
    assert hall == E.VenueCost(RENTS["opera"], 0, "P5.2", False)


@pytest.mark.rules("P4.3", "RULING-HALF-VENUE", "RULING-HALF-FAME")
def test_half_venue_costs_under_each_reading() -> None:
    tour = next(a for a, t in E.TOURS.items() if t[1])  # a tour costing fame
    money, fame = E.TOURS[tour][0], E.TOURS[tour][1]
    halls_only = E.venue_cost(tour, held_concert=False, rules=RuleSet(), hall_rents=RENTS)
    assert halls_only == E.VenueCost(money, fame, "P5.2", False)
    for half, want in (("down", fame // 2), ("up", (fame + 1) // 2)):
        got = E.venue_cost(tour, held_concert=False, hall_rents=RENTS,
                           rules=rules(RULING_HALF_VENUE="all-venues", RULING_HALF_FAME=half))
        assert got == E.VenueCost(money // 2, want, "P4.3", True)


# ---------------------------------------------------------------- small P4/P5 arithmetic
@pytest.mark.rules("P5.4")
def test_surcharge_thresholds() -> None:
    assert [E.surcharge(f) for f in (-5, 29, 30, 49, 50, 80)] == [0, 0, 50, 50, 100, 100]


@pytest.mark.rules("P4.4", "P4.3", "P4.HIRE.2", "RULING-UNPAID-VENUE")
def test_idle_bonus_half_salary_poach_price_and_unpaid_fame() -> None:
    assert [E.idle_bonus(False, a) for a in (0, 1, 2)] == [E.IDLE_BONUS, E.IDLE_BONUS, 0]
    assert E.idle_bonus(True, 0) == 0
    assert (E.salary_due(100, True), E.salary_due(100, False), E.salary_due(55, False)) == (100, 50, 27)
    assert (E.poach_price(150, 1), E.poach_price(150, 2)) == (150, 100)
    assert [E.unpaid_venue_fame(x) for x in (1, 50, 51, 100)] == [1, 1, 2, 2]


@pytest.mark.rules("P3.TOUR.5", "RULING-COMMERCIAL-FAME")
def test_commercial_tours_need_their_fame_cost() -> None:
    costly = [a for a, t in E.TOURS.items() if t[1]]
    assert not set(costly) & set(E.areas_open_to(0, RuleSet()))
    assert set(costly) <= set(E.areas_open_to(max(E.TOURS[a][1] for a in costly), RuleSet()))
    assert E.areas_open_to(0, rules(RULING_COMMERCIAL_FAME="not-required")) == E.AREAS
