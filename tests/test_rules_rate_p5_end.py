"""RATE (concert rating), RESTORE (discovery restoration), P5 (settlement) and END (final
scoring), with their rulings.

Pure functions of ``musici.rating`` are tested directly; the engine is tested on hand-built
tables: a 1-month game (RULING-MONTHS=1) is advanced to the start player's first P4 action,
every player's state is reset to known values, and the month is played on by hand.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from conftest import advance_to, events_of, make_game, rule_events

from musici import IllegalAnswer, standard_cardset
from musici import rating as R
from musici.cards import MusicCard
from musici.engine import Game

CARDS = standard_cardset()


# ---------------------------------------------------------------------------- helpers
def fresh(months: int = 1, seed: int = 3, **options: object) -> tuple[Game, list[int]]:
    """A game at the start player's first P4 action of month 1 with every player reset:
    1000 G, 0 fame, nothing in hand or played, no orchestras, markers or special cards.
    Returns the game and the turn order (order[0] holds the pending action decision)."""
    g = make_game(players=4, seed=seed, RULING_MONTHS=months, **options)
    advance_to(g, "action")
    assert g.phase == "P4" and g.round == 1
    order = g._order()
    assert g.decision.player == order[0]
    for p in g.players:
        p.money = 1000
        p.fame = 0
        p.hand = []
        p.played = []
        p.orchestras = []
        p.markers = {}
        p.permanent = []
        p.specials_hand = []
        p.specials_discard = []
        p.specials_bought = 0
        p.actions = 0
        p.concert = None
        p.special_used = p.tour_guide = p.advisor = p.rumour = False
    g.media = None
    g.chapel_free = None
    place(g, {order[0]: "opera", order[1]: "university", order[2]: "dome", order[3]: "chapel"})
    return g, order


def place(g: Game, areas: dict[int, str]) -> None:
    """Put location markers (P3.1) where a test wants them."""
    for seat, area in areas.items():
        g.players[seat].venue = area
    g.venues = {p.venue: p.seat for p in g.players}
    assert len(g.venues) == g.n, "two players on one area"


def place_first(g: Game, order: list[int], venue: str) -> None:
    """The first player in turn order on ``venue``, the others on the first free halls."""
    others = [a for a in ("university", "dome", "opera", "chapel", "small-commercial")
              if a != venue]
    place(g, {order[0]: venue, order[1]: others[0], order[2]: others[1],
              order[3]: others[2]})


def repose(g: Game, seat: int) -> None:
    """Ask ``seat``'s pending P4 action again, with options computed from the edited state."""
    assert g.decision is not None and g.decision.player == seat
    g.resume_at("action", seat)


def hold_concert(g: Game, seat: int, card: str, orchestras: tuple[str, ...]):
    """Play ``card`` with ``orchestras`` as seat's action; returns the concert event."""
    repose(g, seat)
    assert "concert" in g.decision.options
    g.answer("concert")
    if g.decision is not None and g.decision.kind == "concert_card":
        g.answer(card)
    assert g.decision.kind == "concert_orchestras" and g.decision.player == seat
    g.answer(tuple(orchestras))
    concerts = [e for e in g.events if e.kind == "concert" and e.player == seat]
    assert concerts and concerts[-1].data["card"] == card
    return concerts[-1]


def pass_p4(g: Game) -> None:
    """Every remaining P4 action is a pass; stops at the first other decision (or the end)."""
    while g.decision is not None and g.decision.kind == "action":
        g.answer("pass")


def settle(g: Game, seat: int, since: int) -> list[tuple[str, str, object]]:
    """(kind, rule, amount-or-delta) of seat's P5 events since ``since``."""
    out = []
    for e in g.events[since:]:
        if e.phase == "P5" and e.player == seat:
            out.append((e.kind, e.rule, e.data.get("amount", e.data.get("delta"))))
    return out


def end_now(g: Game) -> Game:
    """Skip to the final scoring (END) with the state as arranged."""
    g.resume_at("end")
    assert g.finished
    return g


# ============================================================================ RATE (pure)
# Synthetic cards keep the pure rating tests independent of the tuned card data.
BOTH = MusicCard("X1", "score", "js-bach", "both corners", "baroque", (7, 3, -1), 100,
                 (2, 2), (3, 3))
MODERN_ONLY = MusicCard("X2", "score", "beethoven", "modern only", "classical", (9, 4, -2),
                        100, None, (5, 2))
INSTR = MusicCard("X3", "score", "vivaldi", "instrumental", "baroque", (4, 2, 0), 100,
                  (2, 0), (2, 0))
SOLO = MusicCard("X4", "score", "js-bach", "solo", "baroque", (3, 1, 0), 100, (1, 0), (2, 0))
FOUND = MusicCard("X5", "discovery", "js-bach", "lost aria", "baroque", (2, 1, 0), 30,
                  (1, 1), None, deck="authentic")

RATE_CASES = [
    # card, style, brought, markers, restored, level, reasons
    (BOTH, "modern", (3, 3), 0, True, "good", ("RATE.GOOD",)),
    (BOTH, "modern", (4, 4), 0, True, "good", ("RATE.GOOD",)),  # more than required
    (BOTH, "modern", (5, 3), 0, True, "good", ("RATE.GOOD",)),
    (BOTH, "modern", (2, 3), 0, True, "fair", ("RATE.FAIR.2",)),  # exactly 10 below
    (BOTH, "modern", (3, 2), 0, True, "fair", ("RATE.FAIR.2",)),
    (BOTH, "modern", (2, 2), 0, True, "poor", ("RATE.POOR.2",)),  # exactly 20 below
    (BOTH, "modern", (1, 2), 0, True, "poor", ("RATE.POOR.2",)),  # 30 below
    (MODERN_ONLY, "authentic", (5, 2), 0, True, "fair", ("RATE.FAIR.1",)),  # mismatch, enough
    (MODERN_ONLY, "authentic", (7, 3), 0, True, "fair", ("RATE.FAIR.1",)),
    (MODERN_ONLY, "authentic", (4, 2), 0, True, "poor", ("RATE.POOR.1",)),  # 10 short
    (MODERN_ONLY, "authentic", (7, 0), 0, True, "poor", ("RATE.POOR.3",)),  # no singers
    (BOTH, "authentic", (4, 0), 0, True, "poor", ("RATE.POOR.3",)),  # total met, no singers
    (BOTH, "authentic", (0, 4), 0, True, "poor", ("RATE.POOR.3",)),
    (INSTR, "authentic", (2, 1), 0, True, "good", ("RATE.GOOD",)),  # singers not required
    (SOLO, "authentic", (1, 0), 1, True, "fair", ("RATE.FAIR.3",)),
    (SOLO, "authentic", (1, 0), 2, True, "poor", ("RATE.POOR.4",)),
    (SOLO, "authentic", (1, 0), 3, True, "poor", ("RATE.POOR.4",)),
    (FOUND, "authentic", (1, 1), 0, False, "poor", ("RATE.POOR.5",)),
    (FOUND, "authentic", (1, 1), 0, True, "good", ("RATE.GOOD",)),
    (SOLO, "authentic", (1, 0), 0, False, "good", ("RATE.GOOD",)),  # POOR.5: discovery only
    (BOTH, "modern", (2, 0), 2, True, "poor", ("RATE.POOR.2", "RATE.POOR.3", "RATE.POOR.4")),
    (BOTH, "modern", (2, 3), 1, True, "fair", ("RATE.FAIR.2", "RATE.FAIR.3")),
    (MODERN_ONLY, "authentic", (5, 2), 1, True, "fair", ("RATE.FAIR.1", "RATE.FAIR.3")),
]


@pytest.mark.rules("RATE.POOR", "RATE.POOR.1", "RATE.POOR.2", "RATE.POOR.3", "RATE.POOR.4",
                   "RATE.POOR.5", "RATE.FAIR", "RATE.FAIR.1", "RATE.FAIR.2", "RATE.FAIR.3",
                   "RATE.GOOD")
@pytest.mark.parametrize("card,style,brought,markers,restored,level,reasons", RATE_CASES)
def test_rate_concert_conditions(card, style, brought, markers, restored, level, reasons):
    r = R.rate_concert(card, style, brought, markers, restored=restored)
    assert r.level == level
    assert r.base_level == level
    assert r.reasons == reasons
    assert r.style == style
    assert r.brought == brought
    assert r.markers == markers
    assert r.media is False


@pytest.mark.rules("RATE.POOR.1", "RATE.FAIR.1")
def test_rate_requirement_of_other_style_when_card_lacks_the_style():
    # A modern-only card played authentically is judged against its modern corner [5, 2].
    r = R.rate_concert(MODERN_ONLY, "authentic", (5, 2), 0)
    assert r.required == (5, 2)
    assert r.level == "fair" and r.reasons == ("RATE.FAIR.1",)
    # A card with both corners: each style is judged against its own requirement.
    auth = R.rate_concert(BOTH, "authentic", (2, 2), 0)
    mod = R.rate_concert(BOTH, "modern", (2, 2), 0)
    assert auth.required == (2, 2) and auth.level == "good"
    assert mod.required == (3, 3) and mod.level == "poor"


@pytest.mark.rules("RATE.MEDIA")
@pytest.mark.parametrize("brought,markers,base,level", [
    ((2, 2), 0, "poor", "fair"),
    ((2, 3), 0, "fair", "good"),
    ((3, 3), 0, "good", "good"),
    ((3, 3), 2, "poor", "fair"),
    ((3, 3), 1, "fair", "good"),
])
def test_rate_media_raises_one_level(brought, markers, base, level):
    plain = R.rate_concert(BOTH, "modern", brought, markers, media=False)
    raised = R.rate_concert(BOTH, "modern", brought, markers, media=True)
    assert plain.level == base and plain.base_level == base
    assert raised.base_level == base
    assert raised.level == level
    assert raised.media is True
    assert raised.reasons == plain.reasons


# ============================================================================ RATE (engine)
def value(g: Game, card: str, level: str) -> int:
    """The card's fame for a rating (COMP.5 X/Y/Z), read from the game's card set."""
    return g.cards.music[card].fame[R.FAME_INDEX[level]]


def need(g: Game, card: str, style: str, requirement: tuple[int, int] | None) -> None:
    """Precondition on the (tunable) card data this test is built on."""
    music = g.cards.music[card]
    assert (music.authentic if style == "authentic" else music.modern) == requirement, (
        f"card data changed: {card} {style} is no longer {requirement}")


@pytest.mark.rules("RATE.POOR.2", "RATE.MEDIA", "RATE.FAME")
def test_engine_concert_event_poor_raised_by_media():
    g, order = fresh()
    s = order[0]
    p = g.players[s]
    need(g, "S01", "modern", (3, 3))  # Bach B minor Mass
    p.hand = ["S01"]
    p.orchestras = ["O01", "O02", "O11", "O12"]
    p.fame = 5
    g.media = s
    ev = hold_concert(g, s, "S01", ("O01", "O02", "O11", "O12"))
    d = ev.data
    fair = value(g, "S01", "fair")
    assert ev.rule == "P4.CONCERT.4"
    assert d["card"] == "S01" and d["kind"] == "score"
    assert d["style"] == "modern"
    assert d["brought"] == [2, 2] and d["required"] == [3, 3]
    assert d["markers"] == 0 and d["media"] is True and d["venue"] == "opera"
    assert d["base_rating"] == "poor" and d["rating"] == "fair"
    assert d["reasons"] == ["RATE.POOR.2"]
    assert d["card_fame"] == fair  # the fair value (RATE.FAME, after the media upgrade)
    assert d["restoration"] is None
    assert d["fame"] == fair and d["income"] == g.cards.music["S01"].income
    assert p.fame == 5 + fair
    assert p.played == ["S01"] and p.hand == []


@pytest.mark.rules("RATE.POOR.2", "RATE.FAME")
def test_engine_concert_poor_without_media():
    g, order = fresh()
    s = order[0]
    p = g.players[s]
    need(g, "S01", "modern", (3, 3))
    p.hand = ["S01"]
    p.orchestras = ["O01", "O02", "O11", "O12"]
    p.fame = 5
    g.media = order[1]  # someone else holds the media: no upgrade for s
    ev = hold_concert(g, s, "S01", ("O01", "O02", "O11", "O12"))
    poor = value(g, "S01", "poor")
    assert ev.data["media"] is False
    assert ev.data["rating"] == "poor" and ev.data["base_rating"] == "poor"
    assert ev.data["card_fame"] == poor and ev.data["fame"] == poor
    assert p.fame == 5 + poor


@pytest.mark.rules("RATE.FAIR.1", "RATE.POOR.1", "RATE.FAME")
@pytest.mark.parametrize("orchs,rating,reason", [
    (("O21", "O22", "O23", "O24", "O25", "O27", "O28"), "fair", "RATE.FAIR.1"),
    (("O21", "O22", "O23", "O24", "O27", "O28"), "poor", "RATE.POOR.1"),
])
def test_engine_style_mismatch(orchs, rating, reason):
    g, order = fresh()
    s = order[0]
    p = g.players[s]
    need(g, "S17", "authentic", None)  # Beethoven 9: modern only
    need(g, "S17", "modern", (5, 2))
    p.hand = ["S17"]
    p.orchestras = ["O21", "O22", "O23", "O24", "O25", "O27", "O28"]
    p.fame = 10
    ev = hold_concert(g, s, "S17", orchs)
    assert ev.data["style"] == "authentic"
    assert ev.data["required"] == [5, 2]
    assert ev.data["rating"] == rating and ev.data["reasons"] == [reason]
    assert ev.data["fame"] == value(g, "S17", rating)
    assert p.fame == 10 + value(g, "S17", rating)


@pytest.mark.rules("RATE.FAIR.3", "RATE.POOR.4", "RATE.GOOD", "RATE.FAME")
@pytest.mark.parametrize("markers,rating,reason", [
    (0, "good", "RATE.GOOD"),
    (1, "fair", "RATE.FAIR.3"),
    (2, "poor", "RATE.POOR.4"),
])
def test_engine_markers_on_brought_orchestras(markers, rating, reason):
    g, order = fresh()
    s = order[0]
    p = g.players[s]
    need(g, "S02", "authentic", (1, 0))  # Brandenburg 5
    p.hand = ["S02"]
    p.orchestras = ["O21", "O22"]
    p.markers = {"O21": markers, "O22": 2} if markers else {"O22": 2}
    p.fame = 10
    ev = hold_concert(g, s, "S02", ("O21",))  # O22 (2 markers) stays home
    assert ev.data["markers"] == markers
    assert ev.data["rating"] == rating and ev.data["reasons"] == [reason]
    assert ev.data["card_fame"] == value(g, "S02", rating)
    assert p.fame == 10 + value(g, "S02", rating)


@pytest.mark.rules("RATE.POOR.3")
def test_engine_missing_performance_type_is_poor():
    g, order = fresh()
    s = order[0]
    p = g.players[s]
    need(g, "S01", "authentic", (2, 2))
    p.hand = ["S01"]
    p.orchestras = ["O21", "O22", "O23", "O24"]  # 40 instrumentalists, no singers
    p.fame = 10
    ev = hold_concert(g, s, "S01", ("O21", "O22", "O23", "O24"))
    assert ev.data["brought"] == [4, 0]
    assert ev.data["rating"] == "poor" and ev.data["reasons"] == ["RATE.POOR.3"]
    assert p.fame == 10 + value(g, "S01", "poor")


@pytest.mark.rules("RATE.POOR.3", "RULING-MISSING-TYPE")
@pytest.mark.parametrize("option,level,reasons", [
    (None, "good", ["RATE.GOOD"]),  # default requested: the card asks for no singers
    ("requested", "good", ["RATE.GOOD"]),
    ("literal", "poor", ["RATE.POOR.3"]),  # 他带来的乐团缺少一种表演类型（器乐或声乐）
])
def test_engine_missing_type_ruling(option, level, reasons):
    g, order = fresh() if option is None else fresh(RULING_MISSING_TYPE=option)
    s = order[0]
    p = g.players[s]
    need(g, "S02", "authentic", (1, 0))
    p.hand = ["S02"]
    p.orchestras = ["O21"]  # 10 authentic instrumentalists, no singers
    p.fame = 10
    ev = hold_concert(g, s, "S02", ("O21",))
    assert ev.data["brought"] == [1, 0]
    assert ev.data["rating"] == level and ev.data["reasons"] == reasons
    assert p.fame == 10 + value(g, "S02", level)


@pytest.mark.rules("RATE.POOR.3", "RULING-MISSING-TYPE")
def test_missing_type_pure_function_both_readings():
    from musici.rating import missing_type
    assert not missing_type((2, 0), (2, 0), literal=False)
    assert missing_type((2, 0), (2, 0), literal=True)
    assert missing_type((2, 1), (3, 0), literal=False)
    assert missing_type((0, 2), (0, 2), literal=True)
    assert not missing_type((2, 1), (1, 1), literal=True)


@pytest.mark.rules("RATE.GOOD", "RATE.FAME")
def test_engine_more_than_required_is_good_and_tour_multiplies_after_card_fame():
    g, order = fresh()
    s = order[0]
    p = g.players[s]
    place(g, {s: "large-academic", order[1]: "university", order[2]: "dome",
              order[3]: "chapel"})
    need(g, "S02", "authentic", (1, 0))
    p.hand = ["S02"]
    p.orchestras = ["O21", "O22", "O27"]
    ev = hold_concert(g, s, "S02", ("O21", "O22", "O27"))
    good = value(g, "S02", "good")
    assert ev.data["brought"] == [2, 1]
    assert ev.data["rating"] == "good" and ev.data["reasons"] == ["RATE.GOOD"]
    assert ev.data["card_fame"] == good  # before P3.TOUR
    assert ev.data["fame"] == 2 * good  # large academic tour: fame x2
    assert p.fame == max(2 * good, 0)


# ============================================================================ RESTORE (pure)
@pytest.mark.rules("RESTORE.1")
def test_restore_nationality_or_era_point():
    d03 = CARDS.music["D03"]  # Vivaldi: Italian, baroque
    res = R.restoration(CARDS, d03, ["S21", "S08", "S06", "S13"])
    by_card = {m.card: m for m in res.matches}
    assert set(by_card) == {"S21", "S08", "S06"}  # S13 (Mozart, Austrian classical): nothing
    assert by_card["S21"].why == ("nationality",)  # Salieri: Italian, classical
    assert by_card["S08"].why == ("era",)  # Purcell: English, baroque
    assert by_card["S06"].why == ("nationality", "era")  # Corelli: both, still one point
    for m in by_card.values():
        assert (m.nationality_or_era, m.composer_or_lineage) == (1, 0)
    assert res.found
    assert res.bonus(good=True) == 3


@pytest.mark.rules("RESTORE.1")
def test_restore_same_composer_bach_and_bach_gives_two():
    d02 = CARDS.music["D02"]  # J. S. Bach aria (discovery)
    res = R.restoration(CARDS, d02, ["S01"])
    assert len(res.matches) == 1
    m = res.matches[0]
    assert m.card == "S01"
    assert (m.nationality_or_era, m.composer_or_lineage) == (1, 1)
    assert m.why == ("nationality", "era", "same composer")
    assert res.bonus(good=True) == 2
    assert R.restoration(CARDS, d02, ["S01", "S02"]).bonus(good=True) == 4


@pytest.mark.rules("RESTORE.1", "RESTORE.2", "RULING-LINEAGE")
def test_restore_lineage_depth_two_scarlatti_soler():
    s07, d09 = CARDS.music["S07"], CARDS.music["D09"]
    assert s07.composer == "a-scarlatti" and d09.composer == "soler"
    # No nationality, no era in common...
    assert CARDS.composers["a-scarlatti"].nationality != CARDS.composers["soler"].nationality
    assert s07.era != d09.era
    # ...but Soler studied with D. Scarlatti, A. Scarlatti's son: lineage at depth 2.
    res = R.restoration(CARDS, d09, ["S07"], lineage_any_depth=True)
    assert [(m.card, m.nationality_or_era, m.composer_or_lineage, m.why)
            for m in res.matches] == [("S07", 0, 1, ("lineage",))]
    assert res.found and res.bonus(good=True) == 1
    # RULING-LINEAGE=direct: only teacher and student count.
    direct = R.restoration(CARDS, d09, ["S07"], lineage_any_depth=False)
    assert direct.matches == () and not direct.found
    assert CARDS.in_lineage("a-scarlatti", "soler", any_depth=True)
    assert not CARDS.in_lineage("a-scarlatti", "soler", any_depth=False)
    assert CARDS.in_lineage("d-scarlatti", "soler", any_depth=False)
    assert CARDS.in_lineage("soler", "d-scarlatti", any_depth=False)


@pytest.mark.rules("RESTORE.2", "RULING-LINEAGE")
def test_restore_direct_lineage_counts_under_both_readings():
    d05 = CARDS.music["D05"]  # Geminiani, pupil of Corelli (S06)
    for any_depth in (True, False):
        res = R.restoration(CARDS, d05, ["S06"], lineage_any_depth=any_depth)
        assert [(m.card, m.nationality_or_era, m.composer_or_lineage, m.why)
                for m in res.matches] == [("S06", 1, 1, ("nationality", "era", "lineage"))]


@pytest.mark.rules("RESTORE.5")
def test_restore_pioneer_counts_as_played_card_of_same_era():
    d03 = CARDS.music["D03"]
    res = R.restoration(CARDS, d03, [], pioneer=True)
    assert [(m.card, m.nationality_or_era, m.composer_or_lineage) for m in res.matches] == [
        ("P6", 1, 0)]
    assert res.found and res.bonus(good=True) == 1
    assert not R.restoration(CARDS, d03, [], pioneer=False).found
    d20 = CARDS.music["D20"]  # modern deck: the modern-music pioneer
    res = R.restoration(CARDS, d20, ["S13"], pioneer=True)  # S13 gives nothing to Ravel
    assert [m.card for m in res.matches] == ["P5"]
    assert res.bonus(good=True) == 1


@pytest.mark.rules("RESTORE.3", "RULING-RESTORE-GOOD")
def test_restore_bonus_needs_good_rating_both_readings():
    res = R.restoration(CARDS, CARDS.music["D02"], ["S01", "S21"])
    # S01: nationality/era 1 + same composer 1; S21 (Salieri, Italian classical): nothing.
    assert [m.card for m in res.matches] == ["S01"]
    assert res.bonus(good=True) == 2
    assert res.bonus(good=False) == 0
    assert res.bonus(good=True, lineage_only_needs_good=True) == 2
    assert res.bonus(good=False, lineage_only_needs_good=True) == 1
    res2 = R.restoration(CARDS, CARDS.music["D03"], ["S06", "S08", "S03"])
    assert res2.bonus(good=True) == 4  # S06 1, S08 1, S03 (Vivaldi) 2
    assert res2.bonus(good=False) == 0
    assert res2.bonus(good=False, lineage_only_needs_good=True) == 3


@pytest.mark.rules("RESTORE.4")
def test_restore_bonus_before_cap_is_uncapped():
    res = R.restoration(CARDS, CARDS.music["D11"], ["S13", "S14", "D13", "S15", "S16"])
    # Mozart x2 (2 each), Hummel (Austrian classical + pupil of Mozart: 2), Haydn x2 (1 each)
    assert res.bonus(good=True) == 8


@pytest.mark.rules("RATE.POOR.5", "RESTORE.1")
def test_restore_nothing_found_makes_discovery_poor():
    d03 = CARDS.music["D03"]
    res = R.restoration(CARDS, d03, ["S13", "S17", "S27"])  # Mozart, Beethoven, Bizet
    assert res.matches == () and not res.found
    r = R.rate_concert(d03, "authentic", (1, 2), 0, restored=res.found)
    assert r.level == "poor" and r.reasons == ("RATE.POOR.5",)


# ============================================================================ RESTORE (engine)
def _discovery_concert(options: dict, played: list[str], card: str, orchs: tuple[str, ...],
                       markers: dict | None = None, permanent: list[str] | None = None,
                       fame: int = 10, venue: str = "opera"):
    g, order = fresh(**options)
    s = order[0]
    p = g.players[s]
    place(g, {s: venue, order[1]: "university", order[2]: "dome", order[3]: "chapel"})
    p.played = list(played)
    p.hand = [card]
    p.orchestras = list(orchs)
    p.markers = dict(markers or {})
    p.permanent = list(permanent or [])
    p.fame = fame
    ev = hold_concert(g, s, card, orchs)
    return g, p, ev


@pytest.mark.rules("RESTORE.1", "RESTORE.2", "RESTORE.3", "RULING-LINEAGE", "RATE.GOOD")
def test_engine_lineage_restoration_scarlatti_soler():
    g, p, ev = _discovery_concert({}, ["S07"], "D09", ("O21",))
    need(g, "D09", "authentic", (1, 0))  # Soler
    d = ev.data
    good = value(g, "D09", "good")
    assert d["kind"] == "discovery"
    assert d["rating"] == "good" and d["reasons"] == ["RATE.GOOD"]
    assert d["restoration"]["found"] is True
    assert d["restoration"]["matches"] == [["S07", 0, 1, ["lineage"]]]
    assert d["restoration"]["bonus"] == 1 and d["restoration"]["capped"] is False
    assert d["card_fame"] == good
    assert d["fame"] == good + 1
    assert p.fame == 10 + good + 1
    assert p.played == ["S07", "D09"]


@pytest.mark.rules("RULING-LINEAGE", "RESTORE.2", "RATE.POOR.5")
def test_engine_direct_lineage_ruling_finds_nothing_for_scarlatti_soler():
    g, p, ev = _discovery_concert({"RULING_LINEAGE": "direct"}, ["S07"], "D09", ("O21",))
    d = ev.data
    poor = value(g, "D09", "poor")
    assert d["restoration"]["found"] is False and d["restoration"]["matches"] == []
    assert d["restoration"]["bonus"] == 0
    assert d["rating"] == "poor" and d["reasons"] == ["RATE.POOR.5"]
    assert d["card_fame"] == poor and d["fame"] == poor
    assert p.fame == 10 + poor


@pytest.mark.rules("RESTORE.1", "RESTORE.3")
def test_engine_bach_and_bach_restoration():
    g, p, ev = _discovery_concert({}, ["S01"], "D02", ("O21", "O27"))
    need(g, "D02", "authentic", (1, 1))
    d = ev.data
    good = value(g, "D02", "good")
    assert d["restoration"]["matches"] == [["S01", 1, 1, ["nationality", "era",
                                                           "same composer"]]]
    assert d["restoration"]["bonus"] == 2
    assert d["rating"] == "good" and d["card_fame"] == good
    assert d["fame"] == good + 2
    assert p.fame == 10 + good + 2


@pytest.mark.rules("RESTORE.1", "RATE.POOR.5")
def test_engine_only_own_earlier_cards_restore():
    g, order = fresh()
    s = order[0]
    p = g.players[s]
    g.players[order[1]].played = ["S01", "S02"]  # another player's Bach does not count
    p.hand = ["D02"]
    p.orchestras = ["O21", "O27"]
    p.fame = 10
    ev = hold_concert(g, s, "D02", ("O21", "O27"))
    assert ev.data["restoration"]["found"] is False
    assert ev.data["rating"] == "poor" and ev.data["reasons"] == ["RATE.POOR.5"]
    assert p.fame == 10 + value(g, "D02", "poor")


@pytest.mark.rules("RATE.POOR.5")
def test_engine_discovery_without_restoration_is_poor():
    # Mozart's opera gives Vivaldi's Motezuma neither nationality, era nor lineage.
    g, p, ev = _discovery_concert({}, ["S13"], "D03", ("O21", "O27", "O28"))
    need(g, "D03", "authentic", (1, 2))
    d = ev.data
    poor = value(g, "D03", "poor")
    assert d["brought"] == [1, 2] and d["required"] == [1, 2]
    assert d["restoration"]["found"] is False
    assert d["rating"] == "poor" and d["reasons"] == ["RATE.POOR.5"]
    assert d["fame"] == poor
    assert p.fame == 10 + poor


@pytest.mark.rules("RESTORE.5", "RATE.POOR.5")
@pytest.mark.parametrize("permanent,found", [
    (["P6"], True),  # reconstructor: +1 era point on a good rating
    (["P5"], False),  # the modern pioneer does not help an authentic-back card
    ([], False),
])
def test_engine_pioneer_cards(permanent, found):
    g, p, ev = _discovery_concert({}, [], "D03", ("O21", "O27", "O28"), permanent=permanent)
    d = ev.data
    assert d["restoration"]["found"] is found
    if found:
        assert d["restoration"]["matches"] == [["P6", 1, 0, ["era"]]]
        assert d["rating"] == "good"
        fame = value(g, "D03", "good") + 1
    else:
        assert d["rating"] == "poor" and "RATE.POOR.5" in d["reasons"]
        fame = value(g, "D03", "poor")
    assert d["fame"] == fame
    assert p.fame == 10 + fame


@pytest.mark.rules("RESTORE.5")
def test_engine_modern_pioneer_for_modern_discovery():
    g, p, ev = _discovery_concert({}, [], "D20", ("O01",), permanent=["P5"])
    need(g, "D20", "modern", (1, 0))  # Ravel
    assert ev.data["restoration"]["matches"] == [["P5", 1, 0, ["era"]]]
    assert ev.data["rating"] == "good"
    assert ev.data["fame"] == value(g, "D20", "good") + 1
    assert p.fame == 10 + value(g, "D20", "good") + 1


@pytest.mark.rules("RESTORE.3", "RULING-RESTORE-GOOD", "RATE.FAIR.3", "RATE.POOR.4")
@pytest.mark.parametrize("ruling,markers,rating,bonus", [
    ("good-only", 0, "good", 2),
    ("good-only", 1, "fair", 0),
    ("good-only", 2, "poor", 0),
    ("lineage-good-only", 0, "good", 2),
    ("lineage-good-only", 1, "fair", 1),  # the nationality/era point only
    ("lineage-good-only", 2, "poor", 1),
])
def test_engine_restore_good_ruling(ruling, markers, rating, bonus):
    opts = {"RULING_RESTORE_GOOD": ruling}
    mk = {"O21": markers} if markers else {}
    g, p, ev = _discovery_concert(opts, ["S01"], "D02", ("O21", "O27"), markers=mk)
    d = ev.data
    assert d["restoration"]["found"] is True
    assert d["rating"] == rating
    assert d["restoration"]["bonus"] == bonus
    fame = value(g, "D02", rating) + bonus
    assert d["fame"] == fame
    assert p.fame == 10 + fame


# Restoration points of earlier cards for D11 (Mozart Requiem, Austrian, classical):
# Mozart (same composer) and Hummel (Mozart's pupil) 2 each; other classical cards 1 each.
D11_TWO = ["S13", "S14", "D13"]
D11_ONE = ["S15", "S16", "D10", "S18", "S19", "S20", "S21", "S22"]


@pytest.mark.rules("RESTORE.4")
def test_engine_restoration_capped_at_ten():
    played = D11_TWO + D11_ONE  # bonus 6 + 8 = 14
    g, p, ev = _discovery_concert({}, played, "D11", ("O01", "O02", "O11", "O12"), fame=0)
    need(g, "D11", "modern", (2, 2))
    d = ev.data
    good = value(g, "D11", "good")
    assert good + 14 > 10
    assert d["rating"] == "good" and d["card_fame"] == good
    assert d["restoration"]["bonus"] == 14
    assert d["restoration"]["capped"] is True
    assert d["fame"] == 10
    assert p.fame == 10


@pytest.mark.rules("RESTORE.4")
@pytest.mark.parametrize("total,capped", [(9, False), (10, False), (11, True)])
def test_engine_restoration_cap_boundary(total, capped):
    good = value(fresh()[0], "D11", "good")
    bonus = total - good
    assert 0 < bonus <= 14
    twos = min(bonus // 2, 3)
    played = D11_TWO[:twos] + D11_ONE[:bonus - 2 * twos]
    _, p, ev = _discovery_concert({}, played, "D11", ("O01", "O02", "O11", "O12"), fame=0)
    assert ev.data["restoration"]["bonus"] == bonus
    assert ev.data["restoration"]["capped"] is capped
    assert ev.data["fame"] == min(total, 10)
    assert p.fame == min(total, 10)


@pytest.mark.rules("RATE.FAME", "RESTORE.3")
def test_engine_card_fame_is_before_restore_and_tour():
    # D02 after S01 on the small academic tour: (good + 2) x 1.5; the card's value is good.
    g, p, ev = _discovery_concert({}, ["S01"], "D02", ("O21", "O27"), fame=0,
                                  venue="small-academic")
    good = value(g, "D02", "good")
    assert ev.data["card_fame"] == good
    assert ev.data["restoration"]["bonus"] == 2
    assert ev.data["fame"] == (good + 2) * 3 // 2
    assert ev.data["income"] == 0
    assert p.fame == (good + 2) * 3 // 2


# ============================================================================ P5
@pytest.mark.rules("P5.1", "P5.2", "P5.3")
def test_p5_income_after_tour_then_guarneri_then_venue_then_salaries():
    g, order = fresh()
    s = order[0]
    p = g.players[s]
    place(g, {s: "small-commercial", order[1]: "university", order[2]: "dome",
              order[3]: "chapel"})
    need(g, "S03", "modern", (2, 0))  # Vivaldi Four Seasons
    p.hand = ["S03"]
    p.orchestras = ["O01", "O02"]
    p.permanent = ["P1"]  # Guarneri
    p.fame = 10
    ev = hold_concert(g, s, "S03", ("O01", "O02"))
    income = g.cards.music["S03"].income * 3 // 10 * 5  # x1.5, down to 5 G
    assert ev.data["income"] == income
    assert ev.data["fame"] == 0  # commercial: fame given up
    p.money = 0  # only the income can pay what follows
    since = len(g.events)
    pass_p4(g)
    assert g.finished
    assert settle(g, s, since) == [
        ("income", "P5.1", income),
        ("income", "SPECIAL.P1", 50),
        ("fame", "P5.2", -3),
        ("pay", "P5.3", 100),
    ]
    assert p.money == income + 50 - 100
    assert p.fame == 7
    assert p.markers == {}


@pytest.mark.rules("P5.1", "P5.2")
def test_p5_large_commercial_income_doubled_and_five_fame():
    g, order = fresh()
    s = order[0]
    p = g.players[s]
    place(g, {s: "large-commercial", order[1]: "university", order[2]: "dome",
              order[3]: "chapel"})
    need(g, "S20", "modern", (1, 0))  # Boccherini quintet
    p.hand = ["S20"]
    p.orchestras = ["O01"]
    p.fame = 12
    hold_concert(g, s, "S20", ("O01",))
    income = 2 * g.cards.music["S20"].income
    since = len(g.events)
    pass_p4(g)
    assert settle(g, s, since) == [
        ("income", "P5.1", income), ("fame", "P5.2", -5), ("pay", "P5.3", 50)]
    assert p.money == 1000 + income - 50
    assert p.fame == 7


@pytest.mark.rules("P5.1", "P5.2", "P5.3")
def test_p5_players_settle_one_after_another_in_turn_order():
    g, order = fresh()
    for seat in order:
        g.players[seat].orchestras = [f"O0{seat + 1}"]
    since = len(g.events)
    pass_p4(g)
    seq = [e.player for e in g.events[since:] if e.phase == "P5" and e.player is not None]
    collapsed = [x for i, x in enumerate(seq) if i == 0 or seq[i - 1] != x]
    assert collapsed == order  # each player's whole settlement, start player first
    for seat in order:  # bonus, half venue, half salary
        assert [k for k, _, _ in settle(g, seat, since)] == ["income", "pay", "pay"]


@pytest.mark.rules("P5.1", "P4.4")
def test_p5_idle_bonus_arrives_before_the_venue_is_paid():
    g, order = fresh()
    s, t = order[0], order[1]
    place(g, {s: "university", t: "dome", order[2]: "opera", order[3]: "chapel"})
    g.players[s].money = 0
    g.players[s].fame = 4
    g.players[t].actions = 2  # two actions, no concert: no bonus
    since = len(g.events)
    pass_p4(g)
    assert settle(g, s, since) == [("income", "P4.4", 100), ("pay", "P4.3", 50)]
    assert g.players[s].money == 50
    assert g.players[s].fame == 4  # nothing went unpaid
    assert settle(g, t, since) == [("pay", "P4.3", 100)]
    assert g.players[t].money == 900


@pytest.mark.rules("P5.2")
@pytest.mark.parametrize("venue,cost", [
    ("chapel", 50), ("university", 100), ("dome", 200), ("opera", 400),
    ("small-academic", 200), ("large-academic", 400),
])
def test_p5_venue_money_with_concert(venue, cost):
    g, order = fresh()
    s = order[0]
    p = g.players[s]
    place_first(g, order, venue)
    p.hand = ["S02"]
    p.orchestras = ["O21"]
    hold_concert(g, s, "S02", ("O21",))
    since = len(g.events)
    pass_p4(g)
    pays = [e for e in g.events[since:] if e.kind == "pay" and e.player == s]
    assert [(e.rule, e.data["amount"]) for e in pays] == [("P5.2", cost), ("P5.3", 100)]
    income = 0 if "academic" in venue else g.cards.music["S02"].income
    assert p.money == 1000 + income - cost - 100


@pytest.mark.rules("P5.2", "P5.3", "P4.3", "RULING-HALF-VENUE")
@pytest.mark.parametrize("venue,option,rule,cost", [
    # default halls-only: "half the hall rent" (只需要支付音乐厅租金的一半); a tour in full
    ("chapel", "halls-only", "P4.3", 25), ("university", "halls-only", "P4.3", 50),
    ("dome", "halls-only", "P4.3", 100), ("opera", "halls-only", "P4.3", 200),
    ("small-academic", "halls-only", "P5.2", 200), ("large-academic", "halls-only", "P5.2", 400),
    # option all-venues: tours halved too
    ("dome", "all-venues", "P4.3", 100),
    ("small-academic", "all-venues", "P4.3", 100), ("large-academic", "all-venues", "P4.3", 200),
])
def test_p5_venue_and_salaries_halved_without_concert(venue, option, rule, cost):
    g, order = fresh(RULING_HALF_VENUE=option)
    s = order[0]
    p = g.players[s]
    place_first(g, order, venue)
    p.orchestras = ["O01", "O11", "O21"]  # 50 + 50 + 100, halved: 25 + 25 + 50
    p.actions = 2  # no P4.4 bonus
    since = len(g.events)
    pass_p4(g)
    assert settle(g, s, since) == [("pay", rule, cost), ("pay", "P4.3", 100)]
    assert p.money == 1000 - cost - 100
    assert p.markers == {}


@pytest.mark.rules("P5.2", "RULING-HALF-VENUE")
@pytest.mark.parametrize("tour,cost", [("large-commercial", 5), ("small-commercial", 3)])
def test_p5_commercial_tour_fame_cost_in_full_without_concert_by_default(tour, cost):
    g, order = fresh()  # RULING-HALF-VENUE=halls-only: only hall rent is halved (P4.3)
    s = order[0]
    p = g.players[s]
    place(g, {s: tour, order[1]: "university", order[2]: "dome", order[3]: "chapel"})
    p.fame = 10
    p.actions = 2
    since = len(g.events)
    pass_p4(g)
    assert settle(g, s, since) == [("fame", "P5.2", -cost)]
    assert p.fame == 10 - cost


@pytest.mark.rules("P5.2", "RULING-HALF-FAME", "RULING-HALF-VENUE")
@pytest.mark.parametrize("tour,ruling,cost", [
    ("large-commercial", "up", 3),
    ("large-commercial", "down", 2),
    ("small-commercial", "up", 2),
    ("small-commercial", "down", 1),
])
def test_p5_half_fame_cost_without_concert(tour, ruling, cost):
    g, order = fresh(RULING_HALF_FAME=ruling, RULING_HALF_VENUE="all-venues")
    s = order[0]
    p = g.players[s]
    place(g, {s: tour, order[1]: "university", order[2]: "dome", order[3]: "chapel"})
    p.fame = 10
    p.actions = 2
    since = len(g.events)
    pass_p4(g)
    assert settle(g, s, since) == [("fame", "P4.3", -cost)]
    assert p.fame == 10 - cost
    assert p.money == 1000


@pytest.mark.rules("P5.2", "RULING-UNPAID-VENUE")
@pytest.mark.parametrize("money,venue,unpaid,lost", [
    (30, "dome", 70, 2),  # half of 200 = 100: 70 unpaid, two started 50s
    (50, "opera", 150, 3),  # 150 unpaid: exactly three 50s
    (95, "dome", 5, 1),
    (0, "university", 50, 1),
])
def test_p5_unpaid_venue_costs_fame_per_started_50(money, venue, unpaid, lost):
    g, order = fresh()
    s = order[0]
    p = g.players[s]
    place_first(g, order, venue)
    p.money = money
    p.fame = 10
    p.actions = 2
    since = len(g.events)
    pass_p4(g)
    ev = rule_events(g, "RULING-UNPAID-VENUE", since)
    assert [(e.kind, e.data.get("amount"), e.data["fame"]) for e in ev] == [
        ("unpaid", unpaid, lost), ("fame", None, 10 - lost)]
    assert ev[1].data["delta"] == -lost
    assert p.money == 0
    assert p.fame == 10 - lost


@pytest.mark.rules("P5.2", "RULING-UNPAID-VENUE")
def test_p5_unpaid_venue_forgiven_alternative():
    g, order = fresh(RULING_UNPAID_VENUE="forgiven")
    s = order[0]
    p = g.players[s]
    place(g, {s: "dome", order[1]: "university", order[2]: "opera", order[3]: "chapel"})
    p.money = 30
    p.fame = 10
    p.actions = 2
    since = len(g.events)
    pass_p4(g)
    unpaid = [e for e in g.events[since:] if e.kind == "unpaid" and e.player == s]
    assert [(e.rule, e.data["amount"], e.data["fame"]) for e in unpaid] == [
        ("RULING-UNPAID-VENUE", 70, 0)]
    assert not [e for e in g.events[since:] if e.kind == "fame" and e.player == s]
    assert p.money == 0
    assert p.fame == 10


def _short_of_salaries(money: int, markers: dict | None = None,
                       orchestras: tuple[str, ...] = ("O01", "O02", "O21")):
    g, order = fresh()
    s = order[0]
    p = g.players[s]
    place(g, {s: "chapel", order[1]: "university", order[2]: "dome", order[3]: "opera"})
    g.chapel_free = s  # the venue costs nothing (P3.HALL.1)
    p.orchestras = list(orchestras)
    p.markers = dict(markers or {})
    p.money = money
    p.actions = 2
    since = len(g.events)
    pass_p4(g)
    return g, s, p, since


@pytest.mark.rules("P5.3")
def test_p5_salaries_choice_must_be_maximal():
    g, s, p, since = _short_of_salaries(60)  # halved: O01 25, O02 25, O21 50
    d = g.decision
    assert d is not None and d.kind == "salaries" and d.player == s and d.rule == "P5.3"
    assert d.items == ("O01", "O02", "O21") and d.costs == (25, 25, 50)
    assert d.budget == 60
    for bad in [(), ("O01",), ("O02",), ("O01", "O21"), ("O01", "O02", "O21")]:
        assert not g.is_legal(bad)
        with pytest.raises(IllegalAnswer):
            g.answer(bad)
        assert g.decision is d and p.money == 60 and p.markers == {}
    assert g.is_legal(("O21",)) and g.is_legal(("O01", "O02"))
    g.answer(("O21",))
    assert settle(g, s, since) == [
        ("venue_free", "P3.HALL.1", None),
        ("pay", "P4.3", 50), ("marker", "P5.3", None), ("marker", "P5.3", None)]
    assert p.money == 10
    assert p.markers == {"O01": 1, "O02": 1}
    assert p.orchestras == ["O01", "O02", "O21"]


@pytest.mark.rules("P5.3")
def test_p5_salaries_other_maximal_choice():
    g, s, p, since = _short_of_salaries(60)
    g.answer(("O01", "O02"))
    assert settle(g, s, since)[-2:] == [("pay", "P4.3", 50), ("marker", "P5.3", None)]
    assert p.money == 10
    assert p.markers == {"O21": 1}


@pytest.mark.rules("P5.3")
def test_p5_salaries_with_concert_are_full_and_paid_when_affordable():
    g, order = fresh()
    s = order[0]
    p = g.players[s]
    p.hand = ["S03"]
    p.orchestras = ["O01", "O02", "O21"]  # 50 + 50 + 100
    need(g, "S03", "modern", (2, 0))
    hold_concert(g, s, "S03", ("O01", "O02"))
    income = g.cards.music["S03"].income
    since = len(g.events)
    pass_p4(g)
    assert settle(g, s, since) == [
        ("income", "P5.1", income), ("pay", "P5.2", 400), ("pay", "P5.3", 200)]
    assert p.money == 1000 + income - 400 - 200
    assert p.markers == {}


@pytest.mark.rules("P5.7", "P5.3")
def test_p5_third_marker_sends_orchestra_under_the_deck():
    g, s, p, since = _short_of_salaries(0, markers={"O01": 2},
                                        orchestras=("O01", "O21"))
    # With 0 G nothing can be paid, so no salaries decision is posed (a single legal answer).
    assert not any(e.kind == "pay" and e.player == s for e in g.events[since:])
    leaves = events_of(g, "orchestra_leaves", since)
    assert [(e.rule, e.player, e.data["orchestra"], e.data["cause"]) for e in leaves] == [
        ("P5.7", s, "O01", "P5.3")]
    assert p.orchestras == ["O21"]
    assert p.markers == {"O21": 1}
    assert g.orchestra_deck[0] == "O01"  # face down under the deck


@pytest.mark.rules("P5.4")
@pytest.mark.parametrize("fame,surcharge", [
    (0, 0), (29, 0), (30, 50), (49, 50), (50, 100), (80, 100)])
def test_p5_fame_surcharge(fame, surcharge):
    g, order = fresh()
    s = order[0]
    p = g.players[s]
    place(g, {s: "chapel", order[1]: "university", order[2]: "dome", order[3]: "opera"})
    g.chapel_free = s
    p.fame = fame
    p.orchestras = ["O01"]
    p.actions = 2
    since = len(g.events)
    pass_p4(g)
    expected = [("venue_free", "P3.HALL.1", None), ("pay", "P4.3", 25)]
    if surcharge:
        expected.append(("pay", "P5.4", surcharge))
    assert settle(g, s, since) == expected
    assert p.money == 1000 - 25 - surcharge
    assert p.fame == fame


@pytest.mark.rules("P5.4", "RULING-UNPAID-SURCHARGE")
def test_p5_unpaid_surcharge_marker_of_players_choice():
    g, s, p, since = _short_of_salaries(100, orchestras=("O01", "O02"))
    # no decision was needed for salaries (50 <= 100); the surcharge (fame 0) is nothing yet
    assert g.finished and p.money == 50

    g, order = fresh()
    s = order[0]
    p = g.players[s]
    place(g, {s: "chapel", order[1]: "university", order[2]: "dome", order[3]: "opera"})
    g.chapel_free = s
    p.fame = 55
    p.orchestras = ["O01", "O02"]
    p.money = 100
    p.actions = 2
    since = len(g.events)
    pass_p4(g)
    d = g.decision
    assert d is not None and d.kind == "surcharge_marker" and d.player == s
    assert d.rule == "RULING-UNPAID-SURCHARGE"
    assert set(d.options) == {"O01", "O02"}
    g.answer("O02")
    assert settle(g, s, since) == [
        ("venue_free", "P3.HALL.1", None),
        ("pay", "P4.3", 50), ("marker", "RULING-UNPAID-SURCHARGE", None)]
    assert p.markers == {"O02": 1}
    assert p.money == 50  # salaries paid, the surcharge was not


@pytest.mark.rules("P5.4", "RULING-UNPAID-SURCHARGE")
def test_p5_unpaid_surcharge_forgiven_alternative():
    g, order = fresh(RULING_UNPAID_SURCHARGE="forgiven")
    s = order[0]
    p = g.players[s]
    place(g, {s: "chapel", order[1]: "university", order[2]: "dome", order[3]: "opera"})
    g.chapel_free = s
    p.fame = 35
    p.orchestras = ["O01", "O02"]
    p.money = 70
    p.actions = 2
    since = len(g.events)
    pass_p4(g)
    assert g.finished  # no marker decision was asked
    unpaid = [e for e in g.events[since:] if e.kind == "unpaid" and e.player == s]
    assert [(e.rule, e.data["amount"]) for e in unpaid] == [("RULING-UNPAID-SURCHARGE", 50)]
    assert p.markers == {}
    assert p.money == 20


@pytest.mark.rules("P5.7", "RULING-UNPAID-SURCHARGE")
def test_p5_surcharge_third_marker_orchestra_leaves():
    g, order = fresh()
    s = order[0]
    p = g.players[s]
    place(g, {s: "chapel", order[1]: "university", order[2]: "dome", order[3]: "opera"})
    g.chapel_free = s
    p.fame = 40
    p.orchestras = ["O01", "O21"]
    p.markers = {"O21": 2}
    p.money = 75  # salaries 25 + 50 paid, nothing left for the 50 G surcharge
    p.actions = 2
    deck_before = list(g.orchestra_deck)
    since = len(g.events)
    pass_p4(g)
    assert g.decision.kind == "surcharge_marker"
    g.answer("O21")
    leaves = events_of(g, "orchestra_leaves", since)
    assert [(e.rule, e.data["orchestra"], e.data["cause"]) for e in leaves] == [
        ("P5.7", "O21", "RULING-UNPAID-SURCHARGE")]
    assert p.orchestras == ["O01"]
    assert p.markers == {}
    assert g.orchestra_deck[0] == "O21" and g.orchestra_deck[1:] == deck_before


@pytest.mark.rules("P5.5", "P5.4")
@pytest.mark.parametrize("other_area,journalist", [
    ("large-academic", True),  # s is the only player in a hall
    ("university", False),  # another player is in a hall too
])
def test_p5_stradivari_and_journalist_after_surcharge(other_area, journalist):
    g, order = fresh()
    s = order[0]
    p = g.players[s]
    place(g, {s: "opera", order[1]: other_area, order[2]: "small-academic",
              order[3]: "small-commercial"})
    need(g, "S02", "authentic", (1, 0))
    p.hand = ["S02"]
    p.orchestras = ["O21"]
    p.permanent = ["P2", "P7"]
    p.fame = 29 - value(g, "S02", "good")
    hold_concert(g, s, "S02", ("O21",))
    assert p.fame == 29
    income = g.cards.music["S02"].income
    since = len(g.events)
    pass_p4(g)
    expected = [("income", "P5.1", income), ("pay", "P5.2", 400), ("pay", "P5.3", 100),
                ("fame", "SPECIAL.P2", 1)]
    if journalist:
        expected.append(("fame", "SPECIAL.P7", 1))
    # fame was 29 at P5.4: no surcharge, although it ends at 30 or more
    assert settle(g, s, since) == expected
    assert p.fame == (31 if journalist else 30)
    assert p.money == 1000 + income - 400 - 100


@pytest.mark.rules("P5.5")
def test_p5_fame_cards_need_a_concert():
    g, order = fresh()
    s = order[0]
    p = g.players[s]
    place(g, {s: "opera", order[1]: "large-academic", order[2]: "small-academic",
              order[3]: "small-commercial"})
    p.permanent = ["P1", "P2", "P7"]
    p.fame = 5
    p.actions = 2
    since = len(g.events)
    pass_p4(g)
    assert settle(g, s, since) == [("pay", "P4.3", 200)]
    assert p.fame == 5


@pytest.mark.rules("P5.6", "P5.7")
def test_p5_rumour_markers_placed_after_everyone_settled():
    g, order = fresh()
    s = order[0]
    g.players[s].rumour = True  # played the Rumourmonger this month
    for i, seat in enumerate(order[1:]):
        g.players[seat].orchestras = [f"O0{i + 1}"]
    g.players[order[3]].markers = {"O03": 2}
    deck_before = list(g.orchestra_deck)
    since = len(g.events)
    pass_p4(g)
    assert g.finished
    evs = g.events[since:]
    last_salary = max(i for i, e in enumerate(evs)
                      if e.kind == "pay" and e.player == order[3] and e.rule == "P4.3")
    rumour = [(i, e) for i, e in enumerate(evs)
              if e.rule == "SPECIAL.S6" or e.data.get("cause") == "SPECIAL.S6"]
    assert {e.player for _, e in rumour} == {order[1], order[2], order[3]}
    assert all(i > last_salary for i, _ in rumour)
    assert g.players[order[1]].markers == {"O01": 1}
    assert g.players[order[2]].markers == {"O02": 1}
    # the usual marker rules: a third marker sends O03 away
    assert g.players[order[3]].orchestras == [] and g.players[order[3]].markers == {}
    assert g.orchestra_deck[0] == "O03" and g.orchestra_deck[1:] == deck_before
    assert g.players[s].markers == {}


@pytest.mark.rules("P5.8", "RULING-FAME-FLOOR", "RULING-HALF-FAME")
@pytest.mark.parametrize("floor,expected", [("zero", 0), ("none", -2)])
def test_p5_fame_floor_on_commercial_tour_cost(floor, expected):
    g, order = fresh(RULING_FAME_FLOOR=floor, RULING_HALF_VENUE="all-venues")
    s = order[0]
    p = g.players[s]
    place(g, {s: "large-commercial", order[1]: "university", order[2]: "dome",
              order[3]: "chapel"})
    p.fame = 1
    p.actions = 2
    since = len(g.events)
    pass_p4(g)
    fame_ev = [e for e in g.events[since:] if e.kind == "fame" and e.player == s]
    assert [(e.data["delta"], e.data["fame"]) for e in fame_ev] == [(-3, expected)]
    assert ("floored" in fame_ev[0].data) is (floor == "zero")
    assert p.fame == expected
    assert g.results["fame"][s] == expected


@pytest.mark.rules("P5.8", "RULING-FAME-FLOOR", "RULING-UNPAID-VENUE")
@pytest.mark.parametrize("floor,expected", [("zero", 0), ("none", -4)])
def test_p5_fame_floor_on_unpaid_venue(floor, expected):
    g, order = fresh(RULING_FAME_FLOOR=floor)
    s = order[0]
    p = g.players[s]
    p.money = 0
    p.fame = 0
    p.actions = 2
    since = len(g.events)
    pass_p4(g)  # the opera, half price: 200 G unpaid, 4 fame
    lost = [e.data["delta"] for e in rule_events(g, "RULING-UNPAID-VENUE", since)
            if e.kind == "fame"]
    assert lost == [-4]
    assert p.fame == expected
    assert p.money == 0


@pytest.mark.rules("P5.8", "RULING-FAME-FLOOR")
@pytest.mark.parametrize("floor,expected", [("zero", 0), ("none", -1)])
def test_fame_floor_on_poor_concert(floor, expected):
    g, order = fresh(RULING_FAME_FLOOR=floor)
    s = order[0]
    p = g.players[s]
    need(g, "S01", "modern", (3, 3))
    p.hand = ["S01"]
    p.orchestras = ["O01", "O02", "O11", "O12"]
    ev = hold_concert(g, s, "S01", ("O01", "O02", "O11", "O12"))
    assert ev.data["fame"] == value(g, "S01", "poor") == -1
    assert p.fame == expected


# ============================================================================ END
def _end_table(**options):
    g, _ = fresh(**options)
    for p in g.players:
        p.fame = 10
        p.money = 500
    return g


def _awards(g: Game) -> list[tuple[str, str, list[int], Fraction]]:
    return [(a["rule"], a["award"], a["winners"], a["share"]) for a in g.results["awards"]]


@pytest.mark.rules("END.1", "END.2", "END.6")
def test_end_era_and_nationality_awards_with_split_tie():
    g = _end_table()
    g.players[0].played = ["S01", "S02"]  # Bach, Bach: baroque, German
    g.players[1].played = ["S13"]  # Mozart: classical, Austrian
    g.players[2].played = ["S25", "S23"]  # Verdi (Italian), Schubert (Austrian): romantic
    g.players[3].played = ["S26", "S27"]  # Berlioz, Bizet: romantic, French
    end_now(g)
    assert _awards(g) == [
        ("END.1", "baroque", [0], Fraction(4)),
        ("END.1", "classical", [1], Fraction(3)),
        ("END.1", "romantic", [2, 3], Fraction(5, 2)),
        ("END.2", "german-austrian", [0], Fraction(5)),
        ("END.2", "italian", [2], Fraction(4)),
        ("END.2", "french", [3], Fraction(3)),
    ]  # no END.3/END.4 award: nobody has a discovery card, orchestra or special card
    fame = g.results["fame"]
    assert fame == [Fraction(19), Fraction(13), Fraction(33, 2), Fraction(31, 2)]
    assert all(isinstance(f, Fraction) for f in fame)
    assert [e.rule for e in events_of(g, "award")] == ["END.1"] * 3 + ["END.2"] * 3
    assert g.results["winners"] == [0]


@pytest.mark.rules("END.3", "END.7", "RULING-END-CARDS", "END.1", "END.2")
@pytest.mark.parametrize("ruling,expected", [
    ("score-and-discovery", [12, 6, 4, 0]),
    ("score-only", [3, 3, 8, 0]),
    (None, [3, 3, 8, 0]),  # revision 2 default: score cards only (END.1/2 say 乐谱牌)
])
def test_end_discovery_cards_and_end_cards_ruling(ruling, expected):
    g = _end_table() if ruling is None else _end_table(RULING_END_CARDS=ruling)
    for p in g.players:
        p.fame = 0
    g.players[0].played = ["D01", "D02"]  # Bach discoveries, authentic back, baroque
    g.players[1].played = ["D11"]  # Mozart Requiem, modern back, classical
    g.players[2].played = ["S03"]  # Vivaldi score: baroque, Italian
    end_now(g)
    awards = {(a["award"]): (a["winners"], a["share"]) for a in g.results["awards"]}
    assert awards["authentic"] == ([0], Fraction(3))  # END.3 counts discoveries either way
    assert awards["modern"] == ([1], Fraction(3))
    if ruling == "score-and-discovery":  # not the default: the option must be asked for
        assert awards["baroque"] == ([0], Fraction(4))
        assert awards["classical"] == ([1], Fraction(3))
        assert awards["german-austrian"] == ([0], Fraction(5))
    else:
        assert awards["baroque"] == ([2], Fraction(4))
        assert "classical" not in awards and "german-austrian" not in awards
    assert awards["italian"] == ([2], Fraction(4))
    assert g.results["fame"] == [Fraction(x) for x in expected]


@pytest.mark.rules("END.4", "END.5", "END.6")
def test_end_orchestras_specials_markers_and_three_way_tie():
    g = _end_table()
    for p in g.players:
        p.fame = 5
    g.players[0].orchestras = ["O01"]
    g.players[1].orchestras = ["O02"]
    g.players[1].markers = {"O02": 2}
    g.players[2].orchestras = ["O21"]
    g.players[2].markers = {"O21": 1}
    g.players[0].specials_bought = 1
    g.players[3].specials_bought = 2
    end_now(g)
    assert _awards(g) == [
        ("END.4", "orchestras", [0, 1, 2], Fraction(2, 3)),
        ("END.4", "specials", [3], Fraction(2)),
    ]
    penalties = [(e.rule, e.player, e.data["markers"]) for e in events_of(g, "marker_penalty")]
    assert penalties == [("END.5", 1, 2), ("END.5", 2, 1)]
    assert g.results["fame"] == [Fraction(17, 3), Fraction(11, 3), Fraction(14, 3),
                                 Fraction(7)]
    assert g.results["winners"] == [3]


@pytest.mark.rules("END.6")
def test_end_no_award_without_a_card():
    g = _end_table()
    end_now(g)
    assert g.results["awards"] == []
    assert events_of(g, "award") == []
    assert g.results["fame"] == [Fraction(10)] * 4


@pytest.mark.rules("END.5", "P5.8", "RULING-FAME-FLOOR")
@pytest.mark.parametrize("floor,expected", [("zero", Fraction(0)), ("none", Fraction(-2))])
def test_end_marker_penalty_and_fame_floor(floor, expected):
    g = _end_table(RULING_FAME_FLOOR=floor)
    g.players[1].fame = 1
    g.players[1].orchestras = ["O01", "O02"]
    g.players[1].markers = {"O01": 2, "O02": 1}
    g.players[2].orchestras = ["O03", "O04", "O05"]  # most orchestras: 10 + 2
    end_now(g)
    assert g.results["fame"][1] == expected
    assert g.results["fame"][2] == Fraction(12)
    assert g.results["fame"][0] == Fraction(10)


@pytest.mark.rules("END.WIN")
@pytest.mark.parametrize("fames,moneys,winners,ranks", [
    ([20, 20, 10, 19], [300, 500, 2000, 0], [1], [2, 1, 4, 3]),  # fame tie: money decides
    ([20, 20, 10, 19], [500, 500, 2000, 0], [0, 1], [1, 1, 4, 3]),  # shared win
    ([10, 20, 30, 5], [900, 800, 0, 1000], [2], [3, 2, 1, 4]),  # fame first
])
def test_end_winner_by_fame_then_money(fames, moneys, winners, ranks):
    g = _end_table()
    for p, f, m in zip(g.players, fames, moneys, strict=True):
        p.fame, p.money = f, m
    end_now(g)
    assert g.results["winners"] == winners
    assert g.results["ranks"] == ranks
    final = events_of(g, "final")
    assert len(final) == 1 and final[0].rule == "END.WIN"
    assert final[0].data["winners"] == winners
    rows = g.standings()
    assert [r["seat"] for r in rows if r["winner"]] == winners


@pytest.mark.rules("END.1", "END.4", "END.WIN")
def test_end_runs_after_the_last_months_settlement():
    g, order = fresh()
    for p in g.players:
        p.actions = 2
    g.players[order[1]].played = ["S13", "S15"]  # classical x2
    g.players[order[2]].played = ["S14"]
    g.players[order[2]].orchestras = ["O01"]
    since = len(g.events)
    pass_p4(g)
    assert g.finished and g.phase == "END"
    evs = g.events[since:]
    last_p5 = max(i for i, e in enumerate(evs) if e.phase == "P5")
    first_award = min(i for i, e in enumerate(evs) if e.kind == "award")
    assert first_award > last_p5
    assert evs[-1].kind == "final" and evs[-1].rule == "END.WIN"
    awards = {a["award"]: (a["winners"], a["share"]) for a in g.results["awards"]}
    assert awards["classical"] == ([order[1]], Fraction(3))
    assert awards["german-austrian"] == ([order[1]], Fraction(5))
    assert awards["orchestras"] == ([order[2]], Fraction(2))
    fame = g.results["fame"]
    assert fame[order[1]] == g.players[order[1]].fame + 8
    assert fame[order[2]] == g.players[order[2]].fame + 2
    assert fame[order[0]] == g.players[order[0]].fame
