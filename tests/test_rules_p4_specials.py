"""P4 (the three free actions) and the 15 special cards (SPECIAL), on hand-built tables.

Every test starts at the start player's first action of month 1 (:func:`start`), lays out
a known table (:func:`table`, :func:`place`), re-asks that seat's action so the options
fit the new table (:func:`reask`), then answers decisions itself while the other seats
pass quietly (:func:`run`), and checks the events and the concrete effects.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from conftest import advance_to

from musici import Game, IllegalAnswer, RuleSet
from musici.cards import CardSet, cardset_from_data, standard_cardset_data
from musici.state import AREAS

ALL_SCORES = [f"S{i:02d}" for i in range(1, 31)]
ALL_DISCOVERIES = {"authentic": [f"D{i:02d}" for i in range(1, 11)],
                   "modern": [f"D{i:02d}" for i in range(11, 21)]}
ALL_ORCHESTRAS = [f"O{i:02d}" for i in range(1, 33)]


# The numbers these tests rely on, pinned so that tuning the bundled card data does not
# change what is tested: fame [good, fair, poor], income, authentic and modern requirements.
PINNED = {
    "S01": ([7, 3, -1], 180, [2, 2], [3, 3]),  # Bach, Mass in B minor
    "S02": ([3, 1, 0], 50, [1, 0], [2, 0]),
    "S03": ([4, 2, 0], 100, [2, 0], [2, 0]),  # Vivaldi, The Four Seasons
    "S06": ([4, 2, 0], 90, [2, 0], [2, 0]),  # Corelli
    "S11": ([4, 2, -1], 90, [1, 1], [2, 1]),  # D. Scarlatti, Stabat Mater
    "S16": ([3, 1, 0], 40, [1, 0], [1, 0]),  # Haydn, Emperor quartet
    "S20": ([3, 1, 0], 45, [1, 0], [1, 0]),
    "S23": ([4, 2, 0], 90, None, [1, 1]),  # Schubert, Winterreise
    "S28": ([7, 3, -1], 220, None, [5, 0]),  # Dvorak, New World
    "S30": ([6, 3, -1], 180, None, [2, 2]),  # Faure, Requiem
    "D05": ([3, 1, 0], 45, [2, 0], None),  # Geminiani (Corelli's student)
    "D09": ([2, 1, 0], 25, [1, 0], None),  # Soler
    "D20": ([2, 1, 0], 25, None, [1, 0]),  # Ravel (Faure's student)
}


@cache
def pinned_cards() -> CardSet:
    data = standard_cardset_data()
    for card in data["scores"] + data["discoveries"]:
        if card["id"] in PINNED:
            fame, income, authentic, modern = PINNED[card["id"]]
            card.update(fame=fame, income=income, authentic=authentic, modern=modern)
    return cardset_from_data(data, "bundled cards with pinned test values")


# ---------------------------------------------------------------------------- helpers
def start(seed: int = 2, **options: object) -> tuple[Game, int]:
    """A 4-player game at the start player's first P4 action of month 1, with a clean
    table: everyone 1500 G, fame 0, no cards, no orchestras, no special cards."""
    rules = RuleSet.from_options({k.replace("_", "-"): v for k, v in options.items()})
    g = Game(players=4, seed=seed, rules=rules, cards=pinned_cards())
    advance_to(g, "action", when=lambda g: g.month == 1 and g.round == 1)
    s = g.decision.player
    assert s == g.start_player
    g.media = None
    g.chapel_free = None
    g.thief_marks = {}
    for p in g.players:
        p.money, p.fame = 1500, 0
        p.permanent, p.specials_hand, p.specials_discard = [], [], []
        p.specials_bought = 0
        p.critic_now = p.critic_next = p.banned_now = p.banned_next = False
    table(g)
    return g, s


def table(g: Game, *, hands=None, played=None, orchestras=None, markers=None,
          score_market=None, orch_market=None) -> None:
    """Lay out every card consistently; decks hold the rest in id order (top = last)."""
    hands, played = hands or {}, played or {}
    orchestras, markers = orchestras or {}, markers or {}
    for p in g.players:
        p.hand = list(hands.get(p.seat, []))
        p.played = list(played.get(p.seat, []))
        p.orchestras = list(orchestras.get(p.seat, []))
        p.markers = dict(markers.get(p.seat, {}))
    used = {c for p in g.players for c in (*p.hand, *p.played)}
    free = [c for c in ALL_SCORES if c not in used]
    g.score_market = list(score_market) if score_market else free[:4]
    g.score_deck = [c for c in free if c not in g.score_market]
    for deck, ids in ALL_DISCOVERIES.items():
        g.discovery_decks[deck] = [c for c in ids if c not in used]
    owned = {o for p in g.players for o in p.orchestras}
    free = [o for o in ALL_ORCHESTRAS if o not in owned]
    g.orchestra_market = list(orch_market) if orch_market else free[:4]
    g.orchestra_deck = [o for o in free if o not in g.orchestra_market]


def place(g: Game, where: dict[int, str]) -> None:
    """Set every seat's P3 area: ``where`` for the named seats, free halls for the rest."""
    free = [a for a in AREAS if a not in where.values()]
    g.venues = {}
    for p in g.players:
        area = where[p.seat] if p.seat in where else free.pop(0)
        g.venues[area] = p.seat
        p.venue = area


def reask(g: Game, s: int) -> None:
    """Pose seat ``s``'s pending action again, with options computed from the new table."""
    g.resume_at("action", s)
    assert g.decision.kind == "action" and g.decision.player == s


def quiet(d):
    if d.kind in ("action", "auction"):
        return "pass"
    if d.kind == "media_bid":
        return 0
    if d.kind == "venue":
        return d.options[0]
    return d.random_answer(random.Random(0))


def run(g: Game, stop, pick=None, log=None) -> None:
    """Answer with ``pick(g, decision)`` (None: quietly) until ``stop(g)`` holds."""
    for _ in range(5000):
        d = g.decision
        if d is None or stop(g):
            return
        if log is not None:
            log.append((g.month, g.phase, d.player, d.kind, d.options, dict(d.info)))
        a = pick(g, d) if pick else None
        g.answer(quiet(d) if a is None else a)
    pytest.fail("run() did not reach its stop condition")


def next_action(g: Game, s: int, pick=None) -> None:
    run(g, lambda g: g.decision.kind == "action" and g.decision.player == s, pick)


def end_month(g: Game, pick=None, log=None) -> None:
    m = g.month
    run(g, lambda g: g.month != m, pick, log)


def concert(g: Game, card: str, orchs: tuple[str, ...]) -> None:
    g.answer("concert")
    if g.decision.kind == "concert_card":
        g.answer(card)
    assert g.decision.kind == "concert_orchestras" and g.decision.info["card"] == card
    g.answer(tuple(orchs))


def evs(g: Game, *, seat=None, month=1, phase=None, kind=None, rule=None, since=0):
    return [e for e in g.events[since:]
            if (seat is None or e.player == seat) and (month is None or e.month == month)
            and (phase is None or e.phase == phase) and (kind is None or e.kind == kind)
            and (rule is None or e.rule == rule)]


def money_after(g: Game, s: int, month: int = 1) -> int:
    return next(h["money"][s] for h in g.monthly if h["month"] == month)


def fame_after(g: Game, s: int, month: int = 1) -> int:
    return next(h["fame"][s] for h in g.monthly if h["month"] == month)


def others(g: Game, s: int) -> list[int]:
    return [(s + i) % g.n for i in range(1, g.n)]


def seen_since(g: Game, seat: int, since: int) -> list:
    """The events after index ``since`` that ``seat``'s view shows."""
    before = sum(1 for e in g.events[:since] if e.visible_to(seat))
    return list(g.view(seat).history[before:])


def assert_illegal_and_unchanged(g: Game, answer) -> None:
    before = (g.decision, len(g.events), len(g.answers),
              [(p.hand[:], p.orchestras[:], p.money, p.fame) for p in g.players])
    with pytest.raises(IllegalAnswer):
        g.answer(answer)
    after = (g.decision, len(g.events), len(g.answers),
             [(p.hand[:], p.orchestras[:], p.money, p.fame) for p in g.players])
    assert after == before


# ---------------------------------------------------------------------------- P4.1–P4.4
@pytest.mark.rules("P4.1")
def test_three_rounds_in_turn_order_and_a_pass_costs_only_that_round():
    g, s = start()
    order = [(s + i) % 4 for i in range(4)]
    market = list(g.orchestra_market)
    seen = []
    while g.month == 1 and g.phase == "P4":
        d = g.decision
        seen.append((g.round, d.player))
        if d.player == s and g.round == 2:
            # s passed round 1 and may still act in round 2
            assert "hire" in d.options
            g.answer("hire")
            g.answer(market[0])
        else:
            g.answer("pass")
    assert seen == [(r, p) for r in (1, 2, 3) for p in order]
    passes = evs(g, kind="pass_round", rule="P4.1")
    assert len(passes) == 11
    assert [e.data["round"] for e in passes if e.player == s] == [1, 3]
    assert g.players[s].orchestras == [market[0]]
    assert g.phase != "P4"


@pytest.mark.rules("P4.2", "P4.SPECIAL.1")
def test_one_concert_and_one_special_card_a_month():
    g, s = start()
    p = g.players[s]
    table(g, hands={s: ["S02", "S03"]}, orchestras={s: ["O01", "O02"]})
    place(g, {s: "dome"})
    p.specials_hand = ["S2", "S5"]
    reask(g, s)
    concert(g, "S02", ("O01", "O02"))
    assert p.played == ["S02"]
    next_action(g, s)
    assert g.round == 2
    # a card and two orchestras are still there, but the month's concert is held
    assert "concert" not in g.decision.options
    assert "special" in g.decision.options
    g.answer("special")
    g.answer("S2")
    next_action(g, s)
    assert g.round == 3
    # S5 is still in hand and usable, but one special card a month
    assert p.specials_hand == ["S5"]
    assert "special" not in g.decision.options
    assert "concert" not in g.decision.options
    assert len(evs(g, seat=s, kind="concert")) == 1
    assert len(evs(g, seat=s, kind="special")) == 1


@pytest.mark.rules("P4.2")
def test_other_actions_may_repeat_every_round():
    g, s = start()
    p = g.players[s]
    table(g, orch_market=["O01", "O02", "O03", "O04"])
    reask(g, s)
    for r in (1, 2, 3):
        next_action(g, s)
        assert g.round == r
        g.answer("hire")
        g.answer(g.decision.options[0])
    assert len(p.orchestras) == 3
    assert len(evs(g, seat=s, kind="hire", rule="P4.HIRE.1")) == 3
    assert p.actions == 3


@pytest.mark.rules("P4.3", "P4.4")
def test_no_concert_pays_half_venue_and_half_salaries():
    g, s = start()
    table(g, orchestras={s: ["O01", "O21"]})
    place(g, {s: "dome"})
    reask(g, s)
    end_month(g)
    mine = evs(g, seat=s, phase="P5")
    assert [(e.rule, e.data["amount"]) for e in mine if e.kind == "pay"] == [
        ("P4.3", 100), ("P4.3", 25 + 50)]  # dome 200/2; salaries (50 + 100)/2
    assert [(e.rule, e.data["amount"]) for e in mine if e.kind == "income"] == [("P4.4", 100)]
    assert money_after(g, s) == 1500 + 100 - 100 - 75


@pytest.mark.rules("P4.3", "P4.CONCERT.4")
def test_with_a_concert_venue_and_salaries_are_paid_in_full():
    g, s = start()
    table(g, hands={s: ["S03", "S16"]}, orchestras={s: ["O01", "O02", "O21"]})
    place(g, {s: "dome"})
    reask(g, s)
    concert(g, "S03", ("O01", "O02"))
    end_month(g)
    mine = evs(g, seat=s, phase="P5")
    assert [(e.rule, e.data["amount"]) for e in mine if e.kind == "pay"] == [
        ("P5.2", 200), ("P5.3", 50 + 50 + 100)]
    assert [(e.rule, e.data["amount"]) for e in mine if e.kind == "income"] == [("P5.1", 100)]
    assert money_after(g, s) == 1500 + 100 - 200 - 200


@pytest.mark.rules("P4.4")
@pytest.mark.parametrize("plan,bonus", [
    ((), True),
    (("hire",), True),
    (("hire", "hire"), False),
    (("hire", "hire", "hire"), False),
    (("concert",), False),
])
def test_idle_bonus_for_at_most_one_action_and_no_concert(plan, bonus):
    g, s = start()
    table(g, hands={s: ["S03", "S16"]}, orchestras={s: ["O21", "O22"]},
          orch_market=["O01", "O02", "O03", "O04"])
    place(g, {s: "chapel"})
    g.chapel_free = s  # venue free, to isolate the bonus
    reask(g, s)
    for action in plan:
        next_action(g, s)
        if action == "hire":
            g.answer("hire")
            g.answer(g.decision.options[0])
        else:
            concert(g, "S16", ("O21",))  # the Chapel takes one orchestra
    end_month(g)
    assert len(evs(g, seat=s, kind="action")) == len(plan)
    paid = evs(g, seat=s, phase="P5", kind="income", rule="P4.4")
    assert [e.data["amount"] for e in paid] == ([100] if bonus else [])


# ---------------------------------------------------------------------------- P4.SPECIAL
@pytest.mark.rules("P4.SPECIAL.1", "SPECIAL.S3")
def test_special_card_goes_to_discard_and_needs_its_precondition():
    g, s = start()
    p = g.players[s]
    place(g, {s: "university"})  # a hall: the Tour guide cannot be used
    p.specials_hand = ["S3", "S2", "S5"]
    reask(g, s)
    g.answer("special")
    assert g.decision.kind == "special"
    assert set(g.decision.options) == {"S2", "S5"}
    with pytest.raises(IllegalAnswer):
        g.answer("S3")
    g.answer("S2")
    assert p.specials_hand == ["S3", "S5"]
    assert p.specials_discard == ["S2"]
    assert [e.data["card"] for e in evs(g, seat=s, kind="special", rule="P4.SPECIAL.1")] == ["S2"]
    assert p.critic_next is True  # the card's text was carried out
    assert p.actions == 1  # using a special card is the round's action


# ---------------------------------------------------------------------------- P4.CONCERT
@pytest.mark.rules("P4.CONCERT.1")
def test_concert_card_stays_in_front_and_can_never_be_traded():
    g, s = start()
    t = (s + 1) % 4
    p = g.players[s]
    table(g, hands={s: ["S03", "S16"], t: ["S20"]}, orchestras={s: ["O01", "O02"]})
    place(g, {s: "university"})
    reask(g, s)
    g.answer("concert")
    assert g.decision.kind == "concert_card" and set(g.decision.options) == {"S03", "S16"}
    g.answer("S03")
    g.answer(("O01", "O02"))
    (ev,) = evs(g, seat=s, kind="concert")
    assert ev.data["card"] == "S03" and ev.data["venue"] == "university" == p.venue
    assert p.played == ["S03"] and p.hand == ["S16"]
    # another player trying to buy from s is offered only the hand, not the played card
    next_action(g, t)
    g.answer("buy")
    if g.decision.kind == "buy":
        g.answer(f"player:{s}")
    g.answer(0)
    g.answer("any")
    assert g.decision.kind == "sell" and g.decision.player == s
    assert g.decision.options == ("decline", "S16")
    g.answer("decline")
    assert p.played == ["S03"]
    assert "S03" not in g.score_market


@pytest.mark.rules("P4.CONCERT.2")
def test_chapel_takes_one_orchestra():
    g, s = start()
    p = g.players[s]
    table(g, hands={s: ["S23", "S16"]}, orchestras={s: ["O01", "O02", "O11"]})
    place(g, {s: "chapel"})
    reask(g, s)
    g.answer("concert")
    g.answer("S23")
    d = g.decision
    assert d.kind == "concert_orchestras" and d.info["capacity"] == 1 and d.max_size == 1
    assert_illegal_and_unchanged(g, ("O01", "O11"))
    assert_illegal_and_unchanged(g, ())  # at least one orchestra
    g.answer(("O11",))
    (ev,) = evs(g, seat=s, kind="concert")
    assert ev.data["orchestras"] == ["O11"] and ev.data["brought"] == [0, 1]
    assert p.played == ["S23"]


@pytest.mark.rules("P4.CONCERT.2")
@pytest.mark.parametrize("venue,limit", [("university", 3), ("large-academic", 5)])
def test_hall_capacity_and_no_limit_on_tour(venue, limit):
    g, s = start()
    orchs = ["O01", "O02", "O03", "O04", "O11"]
    table(g, hands={s: ["S28", "S16"]}, orchestras={s: orchs})
    place(g, {s: venue})
    reask(g, s)
    g.answer("concert")
    g.answer("S28")
    assert g.decision.max_size == limit
    if venue == "university":
        assert_illegal_and_unchanged(g, ("O01", "O02", "O03", "O04"))
        g.answer(("O01", "O02", "O03"))
        brought = [3, 0]
    else:
        g.answer(tuple(orchs))  # 50 musicians on tour
        brought = [4, 1]
    (ev,) = evs(g, seat=s, kind="concert")
    assert ev.data["brought"] == brought


@pytest.mark.rules("P4.CONCERT.3")
def test_orchestras_of_one_concert_share_a_style():
    g, s = start()
    p = g.players[s]
    table(g, hands={s: ["S03", "S16"]}, orchestras={s: ["O21", "O01", "O22"]})
    place(g, {s: "university"})
    reask(g, s)
    g.answer("concert")
    g.answer("S03")
    assert_illegal_and_unchanged(g, ("O21", "O01"))
    assert_illegal_and_unchanged(g, ("O21", "O22", "O01"))
    assert p.hand == ["S03", "S16"] and p.played == [] and p.concert is None
    g.answer(("O21", "O22"))
    (ev,) = evs(g, seat=s, kind="concert")
    assert ev.data["style"] == "authentic" and ev.data["rating"] == "good"
    assert p.fame == 4


@pytest.mark.rules("P4.CONCERT.3", "RULING-STYLE")
@pytest.mark.parametrize("ruling,orchs,style,required,rating,fame", [
    # S01 Mass in B minor: authentic [2, 2], modern [3, 3]; fame 7/3/-1
    ("orchestras", ("O21", "O22", "O27", "O28"), "authentic", [2, 2], "good", 7),
    ("orchestras", ("O01", "O02", "O11", "O12"), "modern", [3, 3], "poor", -1),
    ("best-of-card", ("O01", "O02", "O11", "O12"), "authentic", [2, 2], "good", 7),
    ("best-of-card", ("O21", "O22", "O27", "O28"), "authentic", [2, 2], "good", 7),
])
def test_judged_style_follows_the_ruling(ruling, orchs, style, required, rating, fame):
    g, s = start(RULING_STYLE=ruling)
    p = g.players[s]
    table(g, hands={s: ["S01", "S16"]},
          orchestras={s: ["O01", "O02", "O11", "O12", "O21", "O22", "O27", "O28"]})
    place(g, {s: "dome"})
    p.fame = 10
    reask(g, s)
    concert(g, "S01", orchs)
    (ev,) = evs(g, seat=s, kind="concert")
    assert ev.data["style"] == style
    assert ev.data["required"] == required
    assert ev.data["rating"] == rating
    assert p.fame == 10 + fame


@pytest.mark.rules("P4.CONCERT.4")
@pytest.mark.parametrize("venue,fame,income", [
    ("university", 4, 100),  # S03 The Four Seasons: 4/2/0, income 100
    ("large-academic", 8, 0),  # fame x2, no income
])
def test_concert_fame_at_once_income_in_p5(venue, fame, income):
    g, s = start()
    p = g.players[s]
    table(g, hands={s: ["S03", "S16"]}, orchestras={s: ["O01", "O02"]})
    place(g, {s: venue})
    reask(g, s)
    concert(g, "S03", ("O01", "O02"))
    (ev,) = evs(g, seat=s, kind="concert")
    assert ev.data["rating"] == "good"
    assert p.fame == fame  # at once, in P4
    assert [(e.phase, e.data["delta"]) for e in evs(g, seat=s, kind="fame",
                                                    rule="P4.CONCERT.4")] == [("P4", fame)]
    assert p.money == 1500  # no income yet
    end_month(g)
    got = evs(g, seat=s, kind="income", rule="P5.1")
    assert [(e.phase, e.data["amount"]) for e in got] == ([("P5", income)] if income else [])


# ---------------------------------------------------------------------------- P4.HIRE
@pytest.mark.rules("P4.HIRE.1")
@pytest.mark.parametrize("orch,price", [("O05", 100), ("O11", 100), ("O21", 150), ("O27", 150)])
def test_hire_from_the_market(orch, price):
    g, s = start()
    p = g.players[s]
    table(g, orch_market=["O05", "O21", "O11", "O27"])
    reask(g, s)
    slot = g.orchestra_market.index(orch)
    top = g.orchestra_deck[-1]
    deck_size = len(g.orchestra_deck)
    g.answer("hire")
    g.answer(orch)
    assert p.orchestras == [orch]
    assert p.money == 1500 - price
    assert all(q.money == 1500 for q in g.players if q is not p)  # paid to the bank
    assert g.orchestra_market[slot] == top and orch not in g.orchestra_market
    assert len(g.orchestra_deck) == deck_size - 1
    (pay,) = evs(g, seat=s, kind="pay", rule="P4.HIRE.1")
    assert pay.data["amount"] == price and pay.data["to"] is None


@pytest.mark.rules("P4.HIRE.2", "RULING-POACH-MARKERS")
@pytest.mark.parametrize("ruling", ["return", "stay", None])  # None: the default, stay
@pytest.mark.parametrize("orch,markers,price", [
    ("O21", 1, 150), ("O21", 2, 100), ("O05", 1, 100), ("O05", 2, 50)])
def test_hire_away_from_another_player(ruling, orch, markers, price):
    g, s = start() if ruling is None else start(RULING_POACH_MARKERS=ruling)
    t = (s + 2) % 4
    p, q = g.players[s], g.players[t]
    table(g, orchestras={t: [orch, "O06"]}, markers={t: {orch: markers}})
    reask(g, s)
    g.answer("hire")
    assert orch in g.decision.options
    assert "O06" not in g.decision.options  # no marker: cannot be hired away
    g.answer(orch)
    d = g.decision
    assert d.kind == "poach_consent" and d.player == t and d.info["price"] == price
    g.answer("agree")
    assert p.orchestras == [orch] and q.orchestras == ["O06"]
    assert p.money == 1500 - price and q.money == 1500 + price
    assert q.markers == {}
    assert p.markers == ({} if ruling == "return" else {orch: markers})
    (ev,) = evs(g, seat=s, kind="poach", rule="P4.HIRE.2")
    assert ev.data["from"] == t and ev.data["price"] == price


@pytest.mark.rules("P4.HIRE.2")
def test_owner_may_refuse_to_let_an_orchestra_go():
    g, s = start()
    t = (s + 1) % 4
    p, q = g.players[s], g.players[t]
    table(g, orchestras={t: ["O21"]}, markers={t: {"O21": 2}})
    reask(g, s)
    g.answer("hire")
    g.answer("O21")
    assert g.decision.kind == "poach_consent" and g.decision.player == t
    g.answer("refuse")
    assert p.orchestras == [] and q.orchestras == ["O21"] and q.markers == {"O21": 2}
    assert p.money == 1500 and q.money == 1500
    assert len(evs(g, seat=t, kind="poach_refused", rule="P4.HIRE.2")) == 1
    assert p.actions == 1  # the action is spent


@pytest.mark.rules("P4.HIRE.3")
def test_hired_orchestra_plays_this_month_and_is_paid_from_this_p5():
    g, s = start()
    p = g.players[s]
    table(g, hands={s: ["S03", "S16"]}, orchestras={s: ["O22"]},
          orch_market=["O21", "O05", "O11", "O27"])
    place(g, {s: "university"})
    reask(g, s)
    g.answer("hire")
    g.answer("O21")
    assert p.orchestras == ["O22", "O21"]  # one orchestra per action
    next_action(g, s)
    g.answer("hire")
    g.answer("O05")
    assert p.orchestras == ["O22", "O21", "O05"]
    next_action(g, s)
    concert(g, "S03", ("O21", "O22"))
    (ev,) = evs(g, seat=s, kind="concert")
    assert ev.data["rating"] == "good" and ev.data["brought"] == [2, 0]
    end_month(g)
    sal = evs(g, seat=s, phase="P5", kind="pay", rule="P5.3")
    assert [e.data["amount"] for e in sal] == [100 + 100 + 50]


# ---------------------------------------------------------------------------- P4.BUY
@pytest.mark.rules("P4.BUY.1")
def test_buy_a_face_up_score():
    g, s = start()
    p = g.players[s]
    table(g, score_market=["S05", "S10", "S15", "S20"])
    reask(g, s)
    top = g.score_deck[-1]
    g.answer("buy")
    assert set(g.decision.options) == {"S05", "S10", "S15", "S20"}
    g.answer("S10")
    assert p.hand == ["S10"] and p.money == 1400
    assert g.score_market == ["S05", top, "S15", "S20"]
    assert top not in g.score_deck
    (pay,) = evs(g, seat=s, kind="pay", rule="P4.BUY.1")
    assert pay.data["amount"] == 100 and pay.data["to"] is None


@pytest.mark.rules("P4.BUY.2", "RULING-NEGOTIATION")
@pytest.mark.parametrize("ruling", ["era-request", "blind"])
def test_negotiated_purchase_from_another_hand(ruling):
    g, s = start(RULING_NEGOTIATION=ruling)
    t, u = (s + 1) % 4, (s + 2) % 4
    p, q = g.players[s], g.players[t]
    table(g, hands={t: ["S01", "S13", "S14", "S25"], u: ["S02"]})
    reask(g, s)
    since = len(g.events)
    g.answer("buy")
    g.answer(f"player:{t}")
    assert g.decision.kind == "buy_price" and g.decision.player == s
    g.answer(120)
    if ruling == "era-request":
        assert g.decision.kind == "buy_era" and g.decision.player == s
        g.answer("classical")
        offered = {"decline", "S13", "S14"}
    else:
        offered = {"decline", "S01", "S13", "S14", "S25"}
    d = g.decision
    assert d.kind == "sell" and d.player == t and set(d.options) == offered
    (offer,) = evs(g, kind="offer", rule="P4.BUY.2", since=since)
    assert offer.data["era"] == ("classical" if ruling == "era-request" else "any")
    g.answer("S14")
    assert p.hand == ["S14"] and q.hand == ["S01", "S13", "S25"]
    assert p.money == 1380 and q.money == 1620
    # handed over face down: only buyer and seller learn the card
    (passed,) = evs(g, kind="card_passed", since=since)
    assert sorted(passed.private) == sorted((s, t))
    assert any("S14" in repr(e.data) for e in seen_since(g, s, since))
    seen_by_u = [e for e in g.view(u).history if e.month == 1 and e.phase == "P4"]
    assert not any("S14" in repr(e.data) for e in seen_by_u)


@pytest.mark.rules("P4.BUY.2")
def test_only_score_cards_can_be_sold():
    # 出售者只能出售一张乐谱牌: the seller's options never include a discovery card
    g, s = start(RULING_NEGOTIATION="blind")
    t = (s + 1) % 4
    table(g, hands={t: ["D05", "S13", "D11"]})
    reask(g, s)
    g.answer("buy")
    g.answer(f"player:{t}")
    g.answer(50)
    d = g.decision
    assert d.kind == "sell" and d.player == t and d.options == ("decline", "S13")


@pytest.mark.rules("P4.BUY.2", "P4.BUY.3")
def test_a_hand_of_discovery_cards_only_cannot_sell():
    g, s = start(RULING_NEGOTIATION="blind")
    t = (s + 1) % 4
    p, q = g.players[s], g.players[t]
    table(g, hands={t: ["D05"]}, score_market=["S05", "S10", "S15", "S20"])
    reask(g, s)
    since = len(g.events)
    g.answer("buy")
    g.answer(f"player:{t}")
    g.answer(50)
    # the only answer is to decline: D05 stays, and P4.BUY.3 asks for a face-up card
    assert q.hand == ["D05"] and "D05" not in p.hand and q.money == 1500
    assert [e.kind for e in evs(g, since=since, rule="P4.BUY.3")] == ["declined"]
    assert g.decision.kind == "buy_fallback" and g.decision.player == s


@pytest.mark.rules("P4.BUY.3")
def test_declined_negotiation_forces_a_face_up_purchase():
    g, s = start()
    t = (s + 1) % 4
    p, q = g.players[s], g.players[t]
    table(g, hands={t: ["S13", "S14"]}, score_market=["S05", "S10", "S15", "S20"])
    reask(g, s)
    top = g.score_deck[-1]
    g.answer("buy")
    g.answer(f"player:{t}")
    g.answer(50)
    g.answer("any")
    g.answer("decline")
    d = g.decision
    assert d.kind == "buy_fallback" and d.player == s
    assert set(d.options) == {"S05", "S10", "S15", "S20"}
    g.answer("S15")
    assert p.hand == ["S15"] and p.money == 1400
    assert q.hand == ["S13", "S14"] and q.money == 1500
    assert g.score_market == ["S05", "S10", top, "S20"]
    assert [e.data["card"] for e in evs(g, seat=s, kind="buy", rule="P4.BUY.3")] == ["S15"]


@pytest.mark.rules("P4.BUY.3")
def test_declined_negotiation_without_money_for_a_face_up_card_spends_the_action():
    g, s = start()
    t, u = (s + 1) % 4, (s + 2) % 4
    p = g.players[s]
    table(g, hands={t: ["S13", "S14"], u: ["S02"]})
    p.money = 60
    market = list(g.score_market)
    reask(g, s)
    g.answer("buy")
    assert set(g.decision.options) == {f"player:{t}", f"player:{u}"}  # 60 G: no face-up card
    g.answer(f"player:{t}")
    g.answer(60)
    g.answer("any")
    g.answer("decline")
    assert len(evs(g, seat=s, kind="action_spent", rule="P4.BUY.3")) == 1
    assert p.hand == [] and p.money == 60 and g.score_market == market
    assert p.actions == 1


@pytest.mark.rules("P4.BUY.4")
def test_bought_card_can_be_played_the_same_month():
    g, s = start()
    p = g.players[s]
    table(g, hands={s: ["S16"]}, orchestras={s: ["O01", "O02"]},
          score_market=["S03", "S05", "S10", "S15"])
    place(g, {s: "university"})
    reask(g, s)
    g.answer("buy")
    g.answer("S03")
    next_action(g, s)
    assert g.round == 2 and g.month == 1
    g.answer("concert")
    assert set(g.decision.options) == {"S16", "S03"}
    g.answer("S03")
    g.answer(("O01", "O02"))
    assert p.played == ["S03"] and p.fame == 4


@pytest.mark.rules("P4.BUY.4")
def test_bought_card_can_be_sold_on_the_same_month():
    g, s = start()
    t = (s + 1) % 4
    p, q = g.players[s], g.players[t]
    table(g, hands={t: ["S13"]}, score_market=["S03", "S05", "S10", "S15"])
    reask(g, s)
    g.answer("buy")
    g.answer("S03")
    next_action(g, t)
    g.answer("buy")
    g.answer(f"player:{s}")
    g.answer(150)
    g.answer("any")
    assert g.decision.kind == "sell" and "S03" in g.decision.options
    g.answer("S03")
    assert q.hand == ["S13", "S03"] and p.hand == []
    assert p.money == 1500 - 100 + 150


# ---------------------------------------------------------------------------- P4.DISCOVER
@pytest.mark.rules("P4.DISCOVER.1")
@pytest.mark.parametrize("deck", ["authentic", "modern"])
def test_discover_draws_the_top_card_privately(deck):
    g, s = start()
    u = (s + 1) % 4
    p = g.players[s]
    reask(g, s)
    top = g.discovery_decks[deck][-1]
    size = len(g.discovery_decks[deck])
    other = "modern" if deck == "authentic" else "authentic"
    other_size = len(g.discovery_decks[other])
    since = len(g.events)
    g.answer("discover")
    g.answer(deck)
    assert p.hand == [top] and p.money == 1300
    assert len(g.discovery_decks[deck]) == size - 1 and top not in g.discovery_decks[deck]
    assert len(g.discovery_decks[other]) == other_size
    (public,) = evs(g, seat=s, kind="discover", since=since)
    assert public.private is None and public.data == {"deck": deck}
    (drew,) = evs(g, seat=s, kind="drew", since=since)
    assert drew.private == (s,) and drew.data["card"] == top
    assert any(e.kind == "drew" for e in seen_since(g, s, since))
    assert not any(top in repr(e.data) for e in seen_since(g, u, since))
    assert g.view(u).player(s).hand_size == 1
    assert top not in repr(g.view(u).player(s))


@pytest.mark.rules("P4.DISCOVER.2")
def test_discovery_card_is_played_like_a_score_and_restored():
    g, s = start()
    p = g.players[s]
    # Corelli played earlier; Geminiani (his student, Italian, baroque) discovered
    table(g, hands={s: ["D05", "S16"]}, played={s: ["S06"]}, orchestras={s: ["O21", "O22"]})
    place(g, {s: "university"})
    reask(g, s)
    g.answer("concert")
    assert set(g.decision.options) == {"D05", "S16"}
    g.answer("D05")
    g.answer(("O21", "O22"))
    (ev,) = evs(g, seat=s, kind="concert")
    assert ev.data["kind"] == "discovery" and ev.data["rating"] == "good"
    assert ev.data["restoration"]["found"] is True
    assert ev.data["restoration"]["bonus"] == 2
    assert p.fame == 3 + 2
    assert p.played == ["S06", "D05"] and p.hand == ["S16"]


# ---------------------------------------------------------------------------- P4.APPEASE
@pytest.mark.rules("P4.APPEASE.1", "P4.APPEASE.2")
def test_appease_pays_a_month_salary_per_marker_and_salary_is_still_due():
    g, s = start()
    p = g.players[s]
    table(g, orchestras={s: ["O01", "O21", "O02"]}, markers={s: {"O01": 2, "O21": 1}})
    place(g, {s: "chapel"})
    g.chapel_free = s
    p.money = 150
    reask(g, s)
    g.answer("appease")
    d = g.decision
    assert d.kind == "appease" and d.budget == 150
    assert_illegal_and_unchanged(g, ("O01", "O01", "O21"))  # 200 G: more than 150
    assert_illegal_and_unchanged(g, ("O02",))  # no marker on it
    g.answer(("O01", "O21"))
    assert p.markers == {"O01": 1}
    assert p.money == 0  # 50 (modern) + 100 (authentic), a full month each
    assert [e.data["amount"] for e in evs(g, seat=s, kind="pay", rule="P4.APPEASE.1")] == [50, 100]
    end_month(g)
    # P5: +100 (P4.4, one action), salaries halved without a concert: 25 + 50 + 25
    sal = [e.data["amount"] for e in evs(g, seat=s, phase="P5", kind="pay", rule="P4.3")]
    assert sal == [100]
    assert money_after(g, s) == 0
    assert p.markers == {"O01": 1}


# ---------------------------------------------------------------------------- SPECIAL.P1–P7
@pytest.mark.rules("SPECIAL.P1", "SPECIAL.P2")
@pytest.mark.parametrize("held", [True, False])
def test_guarneri_and_stradivari_pay_after_a_concert(held):
    g, s = start()
    p = g.players[s]
    table(g, hands={s: ["S03", "S16"]}, orchestras={s: ["O01", "O02"]})
    place(g, {s: "university"})
    p.permanent = ["P1", "P2"]
    reask(g, s)
    if held:
        concert(g, "S03", ("O01", "O02"))
        next_action(g, s)
        g.answer("hire")  # two actions: no P4.4 bonus either way
        g.answer(g.decision.options[0])
    else:
        g.answer("hire")
        g.answer(g.decision.options[0])
        next_action(g, s)
        g.answer("hire")
        g.answer(g.decision.options[0])
    end_month(g)
    guarneri = evs(g, seat=s, phase="P5", kind="income", rule="SPECIAL.P1")
    strad = evs(g, seat=s, phase="P5", kind="fame", rule="SPECIAL.P2")
    assert [e.data["amount"] for e in guarneri] == ([50] if held else [])
    assert [e.data["delta"] for e in strad] == ([1] if held else [])
    assert fame_after(g, s) == (4 + 1 if held else 0)


@pytest.mark.rules("SPECIAL.P3", "SPECIAL.P4")
@pytest.mark.parametrize("virtuoso,vocal,foreign,card,fame", [
    ("P3", "O11", "O21", "S23", 4),  # Winterreise, modern [1, 1]
    ("P4", "O27", "O11", "S11", 4),  # Stabat Mater, authentic [1, 1]
])
def test_virtuoso_is_one_instrumental_orchestra_without_salary(virtuoso, vocal, foreign,
                                                              card, fame):
    g, s = start()
    p = g.players[s]
    table(g, hands={s: [card, "S16"]}, orchestras={s: [vocal, foreign]})
    place(g, {s: "university"})
    p.permanent = [virtuoso]
    reask(g, s)
    g.answer("concert")
    g.answer(card)
    d = g.decision
    assert virtuoso in d.items
    assert_illegal_and_unchanged(g, (virtuoso, foreign))  # of its own style only
    g.answer((virtuoso, vocal))
    (ev,) = evs(g, seat=s, kind="concert")
    style = "modern" if virtuoso == "P3" else "authentic"
    assert ev.data["style"] == style and ev.data["brought"] == [1, 1]
    assert ev.data["rating"] == "good" and p.fame == fame
    end_month(g)
    sal = [e.data["amount"] for e in evs(g, seat=s, phase="P5", kind="pay", rule="P5.3")]
    assert sal == [50 + 100]  # the two orchestras only, nothing for the virtuoso


@pytest.mark.rules("SPECIAL.P3", "SPECIAL.P4")
@pytest.mark.parametrize("virtuoso,vocal", [("P3", "O11"), ("P4", "O27")])
def test_virtuoso_counts_against_hall_capacity(virtuoso, vocal):
    g, s = start()
    p = g.players[s]
    table(g, hands={s: ["S16", "S20"]}, orchestras={s: [vocal]})
    place(g, {s: "chapel"})
    p.permanent = [virtuoso]
    reask(g, s)
    g.answer("concert")
    g.answer("S16")
    assert g.decision.max_size == 1
    assert_illegal_and_unchanged(g, (virtuoso, vocal))
    g.answer((virtuoso,))
    (ev,) = evs(g, seat=s, kind="concert")
    assert ev.data["brought"] == [1, 0] and ev.data["rating"] == "good"


@pytest.mark.rules("SPECIAL.P3")
def test_virtuoso_alone_can_give_a_concert():
    g, s = start()
    p = g.players[s]
    table(g, hands={s: ["S16", "S20"]})
    place(g, {s: "university"})
    reask(g, s)
    assert "concert" not in g.decision.options  # nobody to play
    p.permanent = ["P3"]
    reask(g, s)
    assert "concert" in g.decision.options
    concert(g, "S16", ("P3",))
    assert p.fame == 3  # Emperor quartet, modern [1, 0]: good


@pytest.mark.rules("SPECIAL.P5", "SPECIAL.P6")
@pytest.mark.parametrize("card,orch,played,owned,rating,fame", [
    # D20 Ravel (modern back, French, romantic) 2/1/0, modern [1, 0]
    ("D20", "O01", [], [], "poor", 0),  # nothing restores it: RATE.POOR.5
    ("D20", "O01", [], ["P5"], "good", 2 + 1),
    ("D20", "O01", [], ["P6"], "poor", 0),  # the reconstructor is for authentic cards
    ("D20", "O01", ["S30"], [], "good", 2 + 2),  # Faure: French, romantic, Ravel's teacher
    ("D20", "O01", ["S30"], ["P5"], "good", 2 + 3),
    # D09 Soler (authentic back, Spanish, classical) 2/1/0, authentic [1, 0]
    ("D09", "O21", [], [], "poor", 0),
    ("D09", "O21", [], ["P6"], "good", 2 + 1),
    ("D09", "O21", [], ["P5"], "poor", 0),
])
def test_pioneer_and_reconstructor_count_as_an_extra_played_card(card, orch, played, owned,
                                                                 rating, fame):
    g, s = start()
    p = g.players[s]
    table(g, hands={s: [card, "S16"]}, played={s: played}, orchestras={s: [orch]})
    place(g, {s: "university"})
    p.permanent = list(owned)
    reask(g, s)
    concert(g, card, (orch,))
    (ev,) = evs(g, seat=s, kind="concert")
    assert ev.data["rating"] == rating
    assert p.fame == fame


@pytest.mark.rules("SPECIAL.P7")
@pytest.mark.parametrize("mine,rest,held,bonus", [
    ("dome", ["large-academic", "small-academic", "large-commercial"], True, True),
    ("dome", ["chapel", "small-academic", "large-commercial"], True, False),
    ("dome", ["large-academic", "small-academic", "large-commercial"], False, False),
    ("small-academic", ["chapel", "university", "opera"], True, True),
    ("small-academic", ["chapel", "university", "large-commercial"], True, False),
])
def test_journalist_when_alone_in_a_hall_or_on_a_tour(mine, rest, held, bonus):
    g, s = start()
    p = g.players[s]
    table(g, hands={s: ["S03", "S16"]}, orchestras={s: ["O01", "O02"]})
    place(g, {s: mine, **dict(zip(others(g, s), rest, strict=True))})
    p.permanent = ["P7"]
    reask(g, s)
    if held:
        concert(g, "S03", ("O01", "O02"))
    end_month(g)
    got = evs(g, seat=s, phase="P5", kind="fame", rule="SPECIAL.P7")
    assert [e.data["delta"] for e in got] == ([1] if bonus else [])


# ---------------------------------------------------------------------------- SPECIAL.S1–S8
@pytest.mark.rules("SPECIAL.S1")
def test_auctioneer_keeps_a_player_out_of_next_months_auction():
    g, s = start()
    t = (s + 2) % 4
    p = g.players[s]
    p.specials_hand = ["S1"]
    reask(g, s)
    g.answer("special")
    d = g.decision
    assert d.kind == "auctioneer" and set(d.options) == set(others(g, s))
    g.answer(t)
    log: list = []
    end_month(g, log=log)  # into month 2
    run(g, lambda g: g.month == 2 and g.phase != "P1", log=log)
    asked_m2 = {entry[2] for entry in log if entry[0] == 2 and entry[1] == "P1"}
    assert t not in asked_m2 and s in asked_m2
    assert [e.player for e in evs(g, month=2, kind="auction_banned", rule="P1.7")] == [t]
    run(g, lambda g: g.month == 3 and g.phase != "P1", log=log)
    asked_m3 = {entry[2] for entry in log if entry[0] == 3 and entry[1] == "P1"}
    assert t in asked_m3  # only next month
    assert not evs(g, month=3, kind="auction_banned")


@pytest.mark.rules("SPECIAL.S2")
def test_critic_adds_100_to_next_months_media_bid():
    g, s = start()
    p = g.players[s]
    p.specials_hand = ["S2"]
    reask(g, s)
    g.answer("special")
    assert p.critic_next

    def bids(g, d):
        if d.kind == "media_bid":
            return 50 if d.player == s else 100
        return None

    end_month(g)
    run(g, lambda g: g.month == 2 and g.phase == "P3", bids)
    before = money_after(g, s)
    assert g.media == s  # 50 + 100 beats 100
    (critic,) = evs(g, month=2, kind="critic", rule="P2.5")
    assert critic.player == s and critic.data == {"bid": 50, "counts": 150, "card": "S2"}
    assert [e.data["amount"] for e in evs(g, month=2, seat=s, kind="pay", rule="P2.2")] == [50]
    assert p.money == before - 50
    run(g, lambda g: g.month == 3 and g.phase == "P3", bids)
    assert g.media != s  # only the next month
    assert not evs(g, month=3, kind="critic")


@pytest.mark.rules("SPECIAL.S3")
@pytest.mark.parametrize("tour,fame,income", [
    ("large-academic", 8, 0),  # S03: fame 4 x2, no income; 400 G ignored
    ("large-commercial", 0, 200),  # no fame; income 100 x2; 5 fame ignored
])
def test_tour_guide_ignores_the_tour_cost(tour, fame, income):
    g, s = start()
    p = g.players[s]
    table(g, hands={s: ["S03", "S16"]}, orchestras={s: ["O01", "O02"]})
    place(g, {s: tour})
    p.fame = 10
    p.specials_hand = ["S3"]
    reask(g, s)
    g.answer("special")
    assert p.specials_discard == ["S3"]
    next_action(g, s)
    concert(g, "S03", ("O01", "O02"))
    end_month(g)
    mine = evs(g, seat=s, phase="P5")
    assert [e.rule for e in mine if e.kind == "venue_free"] == ["SPECIAL.S3"]
    assert [(e.rule, e.data["amount"]) for e in mine if e.kind == "pay"] == [("P5.3", 100)]
    assert not [e for e in mine if e.kind == "fame" and e.data["delta"] < 0]
    assert fame_after(g, s) == 10 + fame
    assert money_after(g, s) == 1500 + income - 100


@pytest.mark.rules("SPECIAL.S4")
def test_educator_takes_two_face_up_orchestras_free():
    g, s = start()
    p = g.players[s]
    table(g, orch_market=["O21", "O22", "O01", "O02"])
    place(g, {s: "chapel"})
    g.chapel_free = s
    p.specials_hand = ["S4"]
    reask(g, s)
    top2 = g.orchestra_deck[-2:]
    g.answer("special")
    d = g.decision
    assert d.kind == "educator" and d.max_size == 2
    assert_illegal_and_unchanged(g, ("O21", "O22", "O01"))
    g.answer(("O21", "O01"))
    assert sorted(p.orchestras) == ["O01", "O21"]
    assert p.money == 1500
    assert sorted(g.orchestra_market) == sorted(["O22", "O02", *top2])
    assert not evs(g, seat=s, kind="hire")
    assert p.actions == 1  # using the card is the round's action, not a hire
    end_month(g)
    mine = evs(g, seat=s, phase="P5")
    assert [e.data["amount"] for e in mine if e.kind == "income" and e.rule == "P4.4"] == [100]
    assert [e.data["amount"] for e in mine if e.kind == "pay"] == [50 + 25]  # half salaries


@pytest.mark.rules("SPECIAL.S5")
def test_financial_advisor_exempts_three_orchestras_from_salary():
    g, s = start()
    p = g.players[s]
    table(g, orchestras={s: ["O21", "O22", "O27", "O28", "O01"]})
    place(g, {s: "chapel"})
    g.chapel_free = s
    p.money = 0
    p.specials_hand = ["S5"]
    reask(g, s)
    g.answer("special")
    log: list = []

    def exempt(g, d):
        if d.kind == "advisor":
            return ("O21", "O22", "O27")
        return None

    end_month(g, exempt, log)
    asked = [(e[2], e[3]) for e in log if e[0] == 1 and e[1] == "P5" and e[2] == s]
    assert asked == [(s, "advisor")]  # the rest can be paid: no salary choice
    mine = evs(g, seat=s, phase="P5")
    assert [e.data["orchestras"] for e in mine if e.kind == "exempt"] == [["O21", "O22", "O27"]]
    # +100 (P4.4), then half salaries of O28 and O01 only: 50 + 25
    assert [e.data["amount"] for e in mine if e.kind == "pay"] == [75]
    assert p.markers == {} and not [e for e in mine if e.kind == "marker"]
    assert money_after(g, s) == 25


@pytest.mark.rules("SPECIAL.S5")
def test_financial_advisor_with_three_orchestras_pays_no_salary():
    g, s = start()
    p = g.players[s]
    table(g, hands={s: ["S03", "S16"]}, orchestras={s: ["O21", "O22", "O27"]})
    place(g, {s: "university"})
    p.money = 0
    p.specials_hand = ["S5"]
    reask(g, s)
    g.answer("special")
    next_action(g, s)
    concert(g, "S03", ("O21", "O22"))
    end_month(g)
    mine = evs(g, seat=s, phase="P5")
    assert not [e for e in mine if e.kind == "pay" and e.rule in ("P5.3", "P4.3")]
    assert p.markers == {}
    # income 100 then the hall (100): nothing left, yet the orchestras are content
    assert money_after(g, s) == 0


@pytest.mark.rules("SPECIAL.S6")
def test_rumourmonger_markers_at_the_end_of_p5():
    g, s = start()
    t1, t2, t3 = others(g, s)
    p = g.players[s]
    table(g, orchestras={s: ["O01"], t1: ["O02", "O03"], t2: ["O04", "O05"], t3: []},
          markers={t1: {"O03": 2}})
    p.specials_hand = ["S6"]
    reask(g, s)
    g.answer("special")
    log: list = []

    def choose(g, d):
        if d.kind == "rumour_marker":
            return {t1: "O03", t2: "O05"}[d.player]
        return None

    end_month(g, choose, log)
    asked = [(e[2], set(e[4]), e[5]["owner"]) for e in log if e[3] == "rumour_marker"]
    assert asked == [(t1, {"O02", "O03"}, s), (t2, {"O04", "O05"}, s)]
    placed = evs(g, kind="marker", rule="SPECIAL.S6")
    assert [(e.player, e.data["orchestra"]) for e in placed] == [(t2, "O05")]
    assert g.players[t2].markers == {"O05": 1}
    # a third marker: the orchestra leaves, face down under the orchestra deck (P5.7)
    (left,) = evs(g, kind="orchestra_leaves")
    assert left.player == t1 and left.data["cause"] == "SPECIAL.S6"
    assert g.players[t1].orchestras == ["O02"] and g.players[t1].markers == {}
    assert g.orchestra_deck[0] == "O03"
    assert [e.player for e in evs(g, kind="rumour_void", rule="SPECIAL.S6")] == [t3]
    assert p.markers == {}
    # placed at the very end of P5: after every player's settlement
    idx = {id(e): i for i, e in enumerate(g.events)}
    settle = [idx[id(e)] for e in evs(g, phase="P5") if e.kind in ("pay", "income")]
    rumours = [idx[id(e)] for e in (*placed, left)]
    assert settle and min(rumours) > max(settle)


@pytest.mark.rules("SPECIAL.S7")
def test_collector_takes_two_face_up_scores_free():
    g, s = start()
    p = g.players[s]
    table(g, score_market=["S05", "S10", "S15", "S20"])
    p.specials_hand = ["S7"]
    reask(g, s)
    top2 = g.score_deck[-2:]
    g.answer("special")
    assert g.decision.kind == "collector"
    assert_illegal_and_unchanged(g, ("S05", "S10", "S15"))
    assert_illegal_and_unchanged(g, ("deck:authentic", "deck:modern"))
    g.answer(("S05", "S15"))
    assert sorted(p.hand) == ["S05", "S15"] and p.money == 1500
    assert sorted(g.score_market) == sorted(["S10", "S20", *top2])
    assert not evs(g, seat=s, kind="buy")
    assert p.actions == 1


@pytest.mark.rules("SPECIAL.S7")
@pytest.mark.parametrize("deck", ["authentic", "modern"])
def test_collector_takes_one_face_up_and_a_discovery_card(deck):
    g, s = start()
    u = (s + 1) % 4
    p = g.players[s]
    table(g, score_market=["S05", "S10", "S15", "S20"])
    p.specials_hand = ["S7"]
    reask(g, s)
    top = g.score_deck[-1]
    found = g.discovery_decks[deck][-1]
    since = len(g.events)
    g.answer("special")
    g.answer(("S10", f"deck:{deck}"))
    assert sorted(p.hand) == sorted(["S10", found]) and p.money == 1500
    assert found not in g.discovery_decks[deck]
    assert g.score_market == ["S05", top, "S15", "S20"]
    (drew,) = evs(g, seat=s, kind="drew", since=since)
    assert drew.private == (s,) and drew.data["card"] == found
    assert not any(found in repr(e.data) for e in seen_since(g, u, since))


@pytest.mark.rules("SPECIAL.S8", "P4.BUY.5")
def test_thief_marked_card_only_the_thief_may_buy():
    g, s = start()
    t = (s + 1) % 4
    p, q = g.players[s], g.players[t]
    table(g, score_market=["S05", "S10", "S15", "S20"])
    p.specials_hand = ["S8"]
    reask(g, s)
    g.answer("special")
    d = g.decision
    assert d.kind == "thief" and set(d.options) == {"S05", "S10", "S15", "S20"}
    g.answer("S10")
    assert g.thief_marks == {"S10": s}
    assert len(evs(g, seat=s, kind="effect", rule="SPECIAL.S8")) == 1
    next_action(g, t)
    g.answer("buy")
    assert set(g.decision.options) == {"S05", "S15", "S20"}
    g.answer("S05")
    assert q.hand == ["S05"]
    next_action(g, s)
    assert g.round == 2
    g.answer("buy")
    assert "S10" in g.decision.options
    g.answer("S10")
    assert p.hand == ["S10"] and p.money == 1400
    assert g.thief_marks == {}


@pytest.mark.rules("SPECIAL.S8", "P4.BUY.5")
def test_thief_mark_lasts_into_later_months_and_blocks_the_forced_purchase():
    g, s = start()
    t, u = (s + 1) % 4, (s + 2) % 4
    q = g.players[t]
    table(g, hands={u: ["S13", "S14"]}, score_market=["S05", "S10", "S15", "S20"])
    g.players[s].specials_hand = ["S8"]
    reask(g, s)
    g.answer("special")
    g.answer("S15")
    end_month(g)
    end_month(g)
    assert g.month == 3
    run(g, lambda g: g.phase == "P4" and g.decision.kind == "action"
        and g.decision.player == t)
    assert g.thief_marks == {"S15": s}
    g.answer("buy")
    assert "S15" not in g.decision.options and "S05" in g.decision.options
    g.answer(f"player:{u}")
    g.answer(0)
    g.answer("any")
    g.answer("decline")
    assert g.decision.kind == "buy_fallback" and "S15" not in g.decision.options
    g.answer("S05")
    assert "S15" not in q.hand and g.score_market[2] == "S15"
