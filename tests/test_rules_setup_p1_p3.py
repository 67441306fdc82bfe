"""GOAL, COMP, SETUP, MONTH and the first three phases of a month (P1 auction, P2 media,
P3 venue), with the rulings they use. Expected values come from RULES.md and the card data,
never from the engine's own tables."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from conftest import advance_to, events_of, finish, make_game, rule_events

from musici import Game, GameError, IllegalAnswer, RuleSet
from musici.cards import cardset_from_data, standard_cardset, standard_cardset_data
from musici.strategies import random_strategy

CARDS = standard_cardset()  # the bundled set, for the COMP tests


def _pinned():
    """The bundled set with a few score cards pinned to known values, so that the concert
    arithmetic below does not depend on the tuning of the bundled numbers."""
    data = standard_cardset_data()
    pins = {
        "S13": {"fame": [8, 4, -1], "income": 250, "authentic": [2, 2], "modern": [3, 3]},
        "S20": {"fame": [3, 1, 0], "income": 45, "authentic": [1, 0], "modern": [1, 0]},
        "S16": {"fame": [3, 1, 0], "income": 40, "authentic": [1, 0], "modern": [1, 0]},
        "S02": {"fame": [3, 1, 0], "income": 50, "authentic": [1, 0], "modern": [2, 0]},
        "S03": {"fame": [4, 2, 0], "income": 100, "authentic": [2, 0], "modern": [2, 0]},
    }
    for card in data["scores"]:
        card.update(pins.get(card["id"], {}))
    return cardset_from_data(data, "pinned test set")


PINNED = _pinned()
MI = [f"O{i:02d}" for i in range(1, 11)]  # modern instrumental
MV = [f"O{i:02d}" for i in range(11, 21)]  # modern vocal
AI = [f"O{i:02d}" for i in range(21, 27)]  # authentic instrumental
AV = [f"O{i:02d}" for i in range(27, 33)]  # authentic vocal

# RULES.md P3.HALL / P3.TOUR, written out independently of musici.state.
RENT = {"chapel": 50, "university": 100, "dome": 200, "opera": 400}
CAPACITY_MUSICIANS = {"chapel": 10, "university": 30, "dome": 60, "opera": 100}
TOUR_NAMES = ("large-academic", "small-academic", "large-commercial", "small-commercial")
TOUR_MONEY = {"large-academic": 400, "small-academic": 200}
TOUR_FAME = {"large-commercial": 5, "small-commercial": 3}
DEFAULTS = {"auction": "pass", "media_bid": 0, "action": "pass"}


# ---------------------------------------------------------------- helpers
def plan_of(**by_kind):
    """A scripted strategy: ``kind=value`` | ``kind={seat: value | [values...]}`` |
    ``kind=callable(decision)``. Unlisted seats/kinds use DEFAULTS (venue: first option)."""
    queues: dict[tuple[str, int], list] = {}

    def default(d):
        if d.kind == "venue":
            return d.options[0]
        if d.kind in DEFAULTS:
            return DEFAULTS[d.kind]
        raise AssertionError(f"unscripted decision {d.kind} for seat {d.player}: {d}")

    def plan(d):
        spec = by_kind.get(d.kind)
        if spec is None:
            return default(d)
        if callable(spec):
            return spec(d)
        if isinstance(spec, dict):
            if d.player not in spec:
                return default(d)
            spec = spec[d.player]
            if isinstance(spec, list):
                q = queues.setdefault((d.kind, d.player), list(spec))
                return q.pop(0) if q else default(d)
        return spec

    return plan


def drive(g: Game, plan, stop, seen: list | None = None) -> Game:
    """Answer with ``plan`` until ``stop(g)`` or the end; record decisions in ``seen``."""
    for _ in range(5000):
        if g.decision is None or stop(g):
            return g
        d = g.decision
        if seen is not None:
            seen.append((g.month, g.phase, d))
        g.answer(plan(d))
    raise AssertionError("drive did not stop")


def new_game(players: int = 4, seed: int = 3, **opts) -> Game:
    """A game on the pinned card set; ``opts`` as in conftest.make_game."""
    rules = RuleSet.from_options({k.replace("_", "-"): v for k, v in opts.items()})
    return Game(players=players, seed=seed, rules=rules, cards=PINNED)


def at_p2(players: int = 4, seed: int = 3, **opts) -> Game:
    """Month 1 with everyone passing the auction, stopped at the first media bid."""
    g = new_game(players=players, seed=seed, **opts)
    drive(g, plan_of(), lambda g: g.phase == "P2")
    assert g.decision.kind == "media_bid" and g.month == 1
    return g


def p5_events(g: Game, seat: int, month: int = 1):
    return [e for e in g.events if e.month == month and e.phase == "P5" and e.player == seat]


def money_delta(events) -> int:
    total = 0
    for e in events:
        if e.kind == "income":
            total += e.data["amount"]
        elif e.kind == "pay":
            total -= e.data["amount"]
    return total


def concert_game(area: str, card: str, orchs, *, fame: int = 10, media: bool = False,
                 seed: int = 3, **opts):
    """The start player holds one concert of ``card`` with ``orchs`` at ``area`` in month 1;
    everyone else passes. Played through month 1's P5."""
    g = at_p2(seed=seed, **opts)
    s = g.start_player
    p = g.players[s]
    p.hand, p.orchestras, p.fame = [card], list(orchs), fame
    plan = plan_of(media_bid={s: 5 if media else 0}, venue={s: area},
                   action={s: ["concert", "pass", "pass"]},
                   concert_orchestras={s: tuple(orchs)})
    drive(g, plan, lambda g: g.month == 2)
    concert = [e for e in events_of(g, "concert") if e.player == s]
    assert len(concert) == 1
    return g, s, concert[0]


def toward_zero(x: Fraction, unit: int = 1) -> int:
    q = Fraction(abs(x)) / unit
    return int(q.numerator // q.denominator) * unit * (1 if x >= 0 else -1)


def away_from_zero(x: Fraction, unit: int = 1) -> int:
    q = Fraction(abs(x)) / unit
    return -(-q.numerator // q.denominator) * unit * (1 if x >= 0 else -1)


def set_slot(g: Game, card: str) -> None:
    """Put ``card`` into the auction slot, swapping it with its place in the special deck."""
    if g.special_slot != card:
        i = g.special_deck.index(card)
        g.special_deck[i], g.special_slot = g.special_slot, card


# ---------------------------------------------------------------- GOAL
@pytest.mark.rules("GOAL.1")
@pytest.mark.parametrize("n", [2, 5, 1, 0])
def test_player_count_outside_3_4_rejected(n):
    with pytest.raises(GameError, match="3 or 4"):
        Game(players=n, seed=1)


@pytest.mark.rules("GOAL.1", "MONTH.4", "RULING-MONTHS")
@pytest.mark.parametrize("n", [3, 4])
def test_three_and_four_players_play_twelve_months(n):
    g = finish(make_game(players=n, seed=11))
    assert g.finished
    assert len(g.players) == n
    months = [e.data["month"] for e in events_of(g, "month")]
    assert months == list(range(1, 13))
    assert [h["month"] for h in g.monthly] == list(range(1, 13))
    assert len(g.results["fame"]) == n


@pytest.mark.rules("GOAL.2", "RULING-MONTHS")
def test_most_fame_wins_even_with_least_money():
    g = at_p2(seed=5, RULING_MONTHS=1)
    order = g._order()
    fames = {order[0]: 3, order[1]: 10, order[2]: 7, order[3]: 1}
    for s, f in fames.items():
        g.players[s].fame = f
    g.players[order[1]].money = 100  # the most famous player is the poorest
    halls = ["chapel", "university", "dome", "opera"]
    drive(g, plan_of(venue={s: halls[i] for i, s in enumerate(order)}), lambda g: False)
    assert g.finished
    assert g.results["winners"] == [order[1]]
    assert g.results["fame"][order[1]] == 10
    assert max(g.results["money"]) > g.results["money"][order[1]]
    assert g.standings()[0]["seat"] == order[1]


@pytest.mark.rules("GOAL.2")
def test_winners_of_random_games_have_the_most_fame():
    for seed in range(12):
        g = finish(make_game(players=4 if seed % 2 else 3, seed=seed))
        fame = g.results["fame"]
        best = max(fame)
        assert g.results["winners"], seed
        for s in g.results["winners"]:
            assert fame[s] == best
        leaders = [s for s in range(g.n) if fame[s] == best]
        if len(leaders) == 1:
            assert g.results["winners"] == leaders


# ---------------------------------------------------------------- COMP
@pytest.mark.rules("COMP.1", "P5.4")
def test_fame_track_bright_lines_set_the_salary_surcharge():
    g = at_p2(seed=4)
    order = g._order()
    fames = dict(zip(order, [29, 30, 49, 50], strict=True))
    for s, f in fames.items():
        g.players[s].fame = f
    halls = ["chapel", "university", "dome", "opera"]
    drive(g, plan_of(venue={s: halls[i] for i, s in enumerate(order)}), lambda g: g.month == 2)
    expected = {29: None, 30: 50, 49: 50, 50: 100}
    for s, f in fames.items():
        sur = [e for e in p5_events(g, s) if e.rule == "P5.4" and e.kind == "pay"]
        if expected[f] is None:
            assert sur == [], f
        else:
            assert [e.data["amount"] for e in sur] == [expected[f]], f


@pytest.mark.rules("COMP.2")
def test_board_areas_slots_and_decks():
    g = make_game(players=4, seed=2, RULING_COMMERCIAL_FAME="not-required")
    assert len(g.score_market) == 4 and all(g.score_market)
    assert len(g.orchestra_market) == 4 and all(g.orchestra_market)
    assert g.special_slot is not None
    assert set(g.discovery_decks) == {"authentic", "modern"}
    advance_to(g, "venue")
    areas = set(g.decision.options)
    assert areas == set(RENT) | set(TOUR_NAMES)
    assert len(areas) == 8
    # the face-up slots are refilled to 4 while the decks last, month after month
    while not g.finished:
        g.play([random_strategy] * 4, until="month")
        if g.finished:
            break
        assert g.month <= 12
        assert len(g.score_market) == 4
        if g.score_deck:
            assert all(g.score_market)
        if g.orchestra_deck:
            assert all(g.orchestra_market)


@pytest.mark.rules("COMP.3", "MONTH.3")
def test_one_start_marker_one_media_token_one_location_marker_each():
    g = make_game(players=4, seed=8)
    checked = 0
    while not g.finished:
        if g.phase == "P4":
            # every player has exactly one location marker, each on its own area
            assert len(g.venues) == 4
            assert sorted(g.venues.values()) == [0, 1, 2, 3]
            for s, p in enumerate(g.players):
                assert g.venues[p.venue] == s
            checked += 1
        assert g.media is None or g.media in range(4)
        assert g.start_player in range(4)
        g.ask(random_strategy)
    assert checked >= 12
    for m in range(1, 13):
        starts = [e.data["start_player"] for e in events_of(g, "month") if e.month == m]
        assert len(starts) == 1
        assert len([e for e in events_of(g, "media") if e.month == m]) <= 1
    assert events_of(g, "media")  # the one token was taken at least once


@pytest.mark.rules("COMP.4", "P1.4")
def test_fifteen_special_cards_seven_permanent():
    g = make_game(players=4, seed=6)
    assert len(CARDS.specials) == 15
    perm = {c for c, card in CARDS.specials.items() if card.permanent}
    assert perm == {f"P{i}" for i in range(1, 8)}
    assert set(CARDS.specials) - perm == {f"S{i}" for i in range(1, 9)}
    on_table = [g.special_slot, *g.special_deck]
    assert sorted(on_table) == sorted(CARDS.specials)
    # over many games the auctions only ever sell cards of that set, each at most once
    for seed in range(6):
        g = finish(make_game(players=4, seed=seed))
        sold = [e.data["card"] for e in events_of(g, "special_bought")]
        assert len(sold) == len(set(sold))
        assert set(sold) <= set(CARDS.specials)
        for p in g.players:
            assert set(p.permanent) <= perm
            assert not (set(p.specials_hand) | set(p.specials_discard)) & perm


@pytest.mark.rules("COMP.5")
def test_thirty_score_cards_with_the_printed_fields():
    scores = CARDS.scores
    assert len(scores) == 30
    assert {c.era for c in scores} == {"baroque", "classical", "romantic"}
    assert any(c.fame[2] < 0 for c in scores)  # Z may be negative
    only_auth = only_mod = both = 0
    for c in scores:
        assert c.kind == "score"
        good, fair, poor = c.fame
        assert good >= fair >= poor
        assert c.income >= 0 and c.income % 5 == 0
        assert CARDS.composers[c.composer].nationality
        for req in (c.authentic, c.modern):
            assert req is None or (len(req) == 2 and sum(req) > 0)
        only_auth += c.modern is None
        only_mod += c.authentic is None
        both += c.authentic is not None and c.modern is not None
    assert only_auth and only_mod and both


@pytest.mark.rules("COMP.5", "P3.HALL")
def test_good_concert_in_a_hall_gives_the_card_fame_and_income():
    card = PINNED.music["S13"]
    g, s, ev = concert_game("dome", "S13", MI[:3] + MV[:3])
    assert ev.data["rating"] == "good"
    assert ev.data["fame"] == card.fame[0]
    assert g.players[s].fame == 10 + card.fame[0]
    inc = [e for e in p5_events(g, s) if e.kind == "income" and e.rule == "P5.1"]
    assert [e.data["amount"] for e in inc] == [card.income]
    rent = [e for e in p5_events(g, s) if e.kind == "pay" and e.rule == "P5.2"]
    assert [e.data["amount"] for e in rent] == [RENT["dome"]]


@pytest.mark.rules("COMP.6", "SETUP.3")
def test_thirty_two_orchestras_by_type():
    counts = Counter((o.style, o.part) for o in CARDS.orchestras.values())
    assert counts == {("modern", "instrumental"): 10, ("modern", "vocal"): 10,
                      ("authentic", "instrumental"): 6, ("authentic", "vocal"): 6}
    g = make_game(players=4, seed=9)
    table = [*g.orchestra_market, *g.orchestra_deck]
    assert sorted(table) == sorted(CARDS.orchestras)
    assert len(g.orchestra_market) == 4


@pytest.mark.rules("COMP.7", "SETUP.3")
def test_twenty_discovery_cards_two_backs():
    disc = CARDS.discoveries
    assert len(disc) == 20
    assert Counter(c.deck for c in disc) == {"authentic": 10, "modern": 10}
    g = make_game(players=4, seed=9)
    for back in ("authentic", "modern"):
        deck = g.discovery_decks[back]
        assert len(deck) == 10
        assert all(CARDS.music[c].deck == back for c in deck)


@pytest.mark.rules("COMP.8", "P3.TOUR.4", "RULING-ROUNDING", "RULING-MEDIA-STEP")
@pytest.mark.parametrize("players,rounding,step", [
    (4, "toward-zero", 5), (3, "toward-zero", 5), (4, "away-from-zero", 5),
    (3, "away-from-zero", 25), (4, "toward-zero", 10),
])
def test_every_money_amount_is_a_multiple_of_5(players, rounding, step):
    for seed in range(4):
        g = finish(make_game(players=players, seed=seed, RULING_ROUNDING=rounding,
                             RULING_MEDIA_STEP=step))
        checked = 0
        for e in g.events:
            for key in ("amount", "money", "price", "bid", "income"):
                v = e.data.get(key)
                if isinstance(v, int) and not isinstance(v, bool):
                    if e.kind == "fame":
                        continue
                    assert v % 5 == 0, e
                    checked += 1
            for key in ("bids", "effective"):
                for v in e.data.get(key, ()):
                    assert v % 5 == 0, e
        for h in g.monthly:
            assert all(m % 5 == 0 for m in h["money"])
        assert all(p.money % 5 == 0 for p in g.players)
        assert checked > 50


# ---------------------------------------------------------------- SETUP
@pytest.mark.rules("SETUP.1", "SETUP.4")
@pytest.mark.parametrize("n", [3, 4])
def test_everyone_starts_on_fame_0_with_1500(n):
    g = make_game(players=n, seed=12)
    assert g.month == 1
    assert [p.fame for p in g.players] == [0] * n
    assert [p.money for p in g.players] == [1500] * n
    first = events_of(g, "month")[0]
    assert first.data["month"] == 1
    # after a month the marker has moved on
    g.play([random_strategy] * n, until="month")
    assert g.month == 2


@pytest.mark.rules("SETUP.2")
@pytest.mark.parametrize("n", [3, 4])
def test_deal_three_secret_cards_four_face_up(n):
    g = make_game(players=n, seed=13)
    hands = [p.hand for p in g.players]
    assert all(len(h) == 3 for h in hands)
    assert len(g.score_market) == 4 and all(g.score_market)
    in_play = [c for h in hands for c in h] + list(g.score_market) + g.score_deck
    hidden = [c for c in g.out_of_game if c in CARDS.music and CARDS.music[c].kind == "score"]
    assert sorted(in_play + hidden) == sorted(c.id for c in CARDS.scores)
    assert len(set(in_play)) == len(in_play)
    assert len(g.score_deck) == 30 - 3 * n - 4 - (6 if n == 3 else 0)
    # secret: each seat sees its own deal and no other
    for s in range(n):
        view = g.view(s)
        assert view.hand == tuple(g.players[s].hand)
        deals = [e for e in view.history if e.kind == "deal"]
        assert [e.player for e in deals] == [s]
        assert all(view.player(t).hand_size == 3 for t in range(n))
    # shuffled: different seeds deal different hands
    assert len({tuple(make_game(players=n, seed=k).players[0].hand) for k in range(8)}) > 1


@pytest.mark.rules("SETUP.3")
def test_decks_are_shuffled_and_one_special_revealed():
    orders = {"orch": set(), "spec": set(), "auth": set(), "mod": set()}
    for k in range(8):
        g = make_game(players=4, seed=k)
        assert g.special_slot is not None and len(g.special_deck) == 14
        assert g.special_slot not in g.special_deck
        orders["orch"].add(tuple(g.orchestra_market + g.orchestra_deck))
        orders["spec"].add((g.special_slot, *g.special_deck))
        orders["auth"].add(tuple(g.discovery_decks["authentic"]))
        orders["mod"].add(tuple(g.discovery_decks["modern"]))
    assert all(len(v) > 1 for v in orders.values())
    # the same seed gives the same table
    a, b = make_game(players=4, seed=5), make_game(players=4, seed=5)
    assert a.orchestra_deck == b.orchestra_deck and a.special_slot == b.special_slot


@pytest.mark.rules("SETUP.5", "RULING-START-PLAYER", "MONTH.2")
def test_start_player_random_by_default_and_seat0_option():
    starts = set()
    for k in range(40):
        g = make_game(players=4, seed=k)
        starts.add(g.start_player)
        assert g.decision.kind == "auction" and g.decision.player == g.start_player
        assert make_game(players=4, seed=k).start_player == g.start_player  # seeded
    assert starts == {0, 1, 2, 3}
    for k in range(15):
        g = make_game(players=4, seed=k, RULING_START_PLAYER="seat0")
        assert g.start_player == 0
        assert g.decision.player == 0
        g3 = make_game(players=3, seed=k, RULING_START_PLAYER="seat0")
        assert g3.start_player == 0


@pytest.mark.rules("SETUP.6")
def test_three_player_removals():
    for seed in range(5):
        g = make_game(players=3, seed=seed)
        out = g.out_of_game
        out_orch = [c for c in out if c in CARDS.orchestras]
        kinds = Counter((CARDS.orchestras[o].style, CARDS.orchestras[o].part) for o in out_orch)
        assert kinds == {("modern", "instrumental"): 2, ("modern", "vocal"): 2,
                         ("authentic", "instrumental"): 1, ("authentic", "vocal"): 1}
        table = g.orchestra_market + g.orchestra_deck
        assert len(table) == 26 and not set(table) & set(out_orch)
        out_scores = [c for c in out if c in CARDS.music and CARDS.music[c].kind == "score"]
        assert len(out_scores) == 6
        out_disc = [c for c in out if c in CARDS.music and CARDS.music[c].kind == "discovery"]
        assert Counter(CARDS.music[c].deck for c in out_disc) == {"authentic": 3, "modern": 3}
        assert len(g.discovery_decks["authentic"]) == 7 == len(g.discovery_decks["modern"])
        assert not set(out_disc) & set(g.discovery_decks["authentic"] + g.discovery_decks["modern"])
        in_play = [c for p in g.players for c in p.hand] + g.score_market + g.score_deck
        assert not set(out_scores) & set(in_play)
        # unseen: no player's view shows which score/discovery cards went out
        for s in range(3):
            for e in g.view(s).history:
                assert not set(e.data.get("cards", ())) & set(out_scores + out_disc), e
        # and they never come back into the game
        finish(g)
        seen = set()
        for p in g.players:
            seen |= set(p.hand) | set(p.played) | set(p.orchestras)
        seen |= set(g.score_market) | set(g.orchestra_market)
        assert not seen & set(out), seed
    g4 = make_game(players=4, seed=1)
    assert g4.out_of_game == []
    assert len(g4.orchestra_market + g4.orchestra_deck) == 32


# ---------------------------------------------------------------- MONTH
@pytest.mark.rules("MONTH.1")
def test_phases_run_in_order_every_month():
    for seed in (1, 2):
        g = finish(make_game(players=4, seed=seed))
        for m in range(1, 13):
            phases = []
            for e in g.events:
                if (e.month == m and e.phase not in ("SETUP", "END")
                        and (not phases or phases[-1] != e.phase)):
                    phases.append(e.phase)
            assert phases == ["P1", "P2", "P3", "P4", "P5"], (m, phases)


@pytest.mark.rules("MONTH.2")
@pytest.mark.parametrize("n", [3, 4])
def test_turn_order_is_start_player_then_clockwise(n):
    g = finish(make_game(players=n, seed=21))
    starts = {e.data["month"]: e.data["start_player"] for e in events_of(g, "month")}
    for m in range(1, 13):
        s = starts[m]
        order = [(s + i) % n for i in range(n)]
        bids = [e.player for e in events_of(g, "media_bid") if e.month == m]
        assert bids == order
        venues = [e.player for e in events_of(g, "venue") if e.month == m]
        assert venues == order
        for r in (1, 2, 3):
            acts = [e.player for e in g.events if e.month == m and e.phase == "P4"
                    and e.kind in ("action", "pass_round") and e.data.get("round") == r]
            assert acts == order, (m, r)


@pytest.mark.rules("MONTH.3")
def test_new_month_resets_markers_token_and_passes_start_player():
    g = make_game(players=4, seed=17)
    first = g.start_player
    had_media = 0
    while True:
        m = g.month
        g.play([random_strategy] * 4, until="month")
        if g.finished:
            break
        if any(e.kind == "media" and e.month == m for e in g.events):
            had_media += 1
        assert g.month == m + 1
        assert g.start_player == (first + m) % 4
        assert g.venues == {}
        assert all(p.venue is None for p in g.players)
        assert g.media is None
        assert all(p.concert is None and p.actions == 0 for p in g.players)
    assert had_media  # the token really was taken in some month, and came back


@pytest.mark.rules("MONTH.4", "RULING-MONTHS")
@pytest.mark.parametrize("months", [4, 6, 12])
def test_number_of_months_is_an_option(months):
    g = finish(make_game(players=4, seed=3, RULING_MONTHS=months))
    assert [e.data["month"] for e in events_of(g, "month")] == list(range(1, months + 1))
    assert len(g.monthly) == months
    final = events_of(g, "final")
    assert len(final) == 1 and final[0].month == months


# ---------------------------------------------------------------- P1 auction
@pytest.mark.rules("P1.1", "P1.2", "P1.3")
def test_auction_bids_step_by_100_and_high_bidder_pays():
    g = make_game(players=4, seed=3)
    o = g._order()
    card = g.special_slot
    seen = []
    script = {o[0]: ["bid", "bid"], o[1]: ["bid", "pass"], o[2]: ["pass"], o[3]: ["pass"]}
    drive(g, plan_of(auction=script), lambda g: g.phase != "P1", seen)
    auction = [d for _, ph, d in seen if d.kind == "auction"]
    assert [d.player for d in auction] == [o[0], o[1], o[2], o[3], o[0], o[1]]
    assert [d.info["bid"] for d in auction] == [100, 200, 300, 300, 300, 400]
    assert g.players[o[0]].money == 1500 - 300
    assert all(g.players[s].money == 1500 for s in o[1:])
    bought = events_of(g, "special_bought")
    assert len(bought) == 1 and bought[0].player == o[0] and bought[0].data["price"] == 300
    assert card in g.players[o[0]].permanent + g.players[o[0]].specials_hand
    assert g.players[o[0]].specials_bought == 1


@pytest.mark.rules("P1.2")
def test_player_who_cannot_afford_the_next_bid_can_only_pass():
    g = make_game(players=4, seed=3)
    o = g._order()
    g.players[o[1]].money = 150  # cannot pay the 200 G bid
    g.players[o[2]].money = 200  # can pay 200 G exactly
    seen = []
    drive(g, plan_of(auction={o[0]: ["bid"], o[2]: ["pass"], o[3]: ["pass"]}),
          lambda g: g.phase != "P1", seen)
    asked = [d.player for _, _, d in seen if d.kind == "auction"]
    assert asked == [o[0], o[2], o[3]]  # o[1] could only pass: no choice was offered
    assert [e.player for e in events_of(g, "pass_auction")] == [o[1], o[2], o[3]]
    assert g.players[o[1]].money == 150
    d2 = next(d for _, _, d in seen if d.player == o[2])
    assert d2.info["bid"] == 200 and set(d2.options) == {"pass", "bid"}
    assert g.players[o[0]].money == 1400


@pytest.mark.rules("P1.2")
def test_start_player_without_100_cannot_open():
    g = make_game(players=4, seed=3)
    o = g._order()
    g.players[o[0]].money = 95
    # re-pose the first auction turn with the new money
    g.resume_at("auction")
    assert g.decision.player == o[1]
    assert [e.player for e in events_of(g, "pass_auction")] == [o[0]]
    seen = []
    drive(g, plan_of(auction={o[1]: ["bid"]}), lambda g: g.phase != "P1", seen)
    assert o[0] not in [d.player for _, _, d in seen]
    assert g.players[o[0]].money == 95 and g.players[o[1]].money == 1400


@pytest.mark.rules("P1.2")
def test_passed_player_is_out_of_the_auction():
    g = make_game(players=4, seed=4)
    o = g._order()
    seen = []
    script = {o[0]: ["pass"], o[1]: ["bid", "bid"], o[2]: ["bid", "pass"], o[3]: ["pass"]}
    drive(g, plan_of(auction=script), lambda g: g.phase != "P1", seen)
    asked = [d.player for _, _, d in seen if d.kind == "auction"]
    assert asked == [o[0], o[1], o[2], o[3], o[1], o[2]]
    assert asked.count(o[0]) == 1 and asked.count(o[3]) == 1
    assert g.players[o[1]].money == 1500 - 300


@pytest.mark.rules("P1.4", "SPECIAL.P1")
def test_permanent_card_works_at_once():
    g = new_game(players=4, seed=3)
    set_slot(g, "P1")  # Guarneri violin
    s = g.start_player
    drive(g, plan_of(auction={s: ["bid"]}), lambda g: g.phase == "P2")
    p = g.players[s]
    assert p.permanent == ["P1"] and p.specials_hand == []
    p.hand, p.orchestras = ["S16"], [MI[0]]
    drive(g, plan_of(action={s: ["concert", "pass", "pass"]},
                     concert_orchestras={s: (MI[0],)}), lambda g: g.month == 2)
    guarneri = [e for e in p5_events(g, s) if e.rule == "SPECIAL.P1"]
    assert [e.data["amount"] for e in guarneri] == [50]


@pytest.mark.rules("P1.4")
def test_single_use_card_is_kept_for_a_special_action():
    g = make_game(players=4, seed=3)
    set_slot(g, "S2")
    s = g.start_player
    drive(g, plan_of(auction={s: ["bid"]}), lambda g: g.phase == "P2")
    p = g.players[s]
    assert p.specials_hand == ["S2"] and p.permanent == []
    advance_to(g, "action", seat=s)
    assert "special" in g.decision.options
    g.answer("special")  # the only usable card is applied at once
    assert p.specials_hand == [] and p.specials_discard == ["S2"]
    assert p.critic_next is True


@pytest.mark.rules("P1.5", "P1.6", "RULING-AUCTION-LAST")
def test_everyone_passes_card_goes_under_the_special_deck():
    g = make_game(players=4, seed=3)
    card, top, size = g.special_slot, g.special_deck[-1], len(g.special_deck)
    seen = []
    drive(g, plan_of(), lambda g: g.phase != "P1", seen)
    assert g.special_deck[0] == card
    assert g.special_slot == top
    assert len(g.special_deck) == size
    assert all(p.money == 1500 and p.specials_bought == 0 for p in g.players)
    assert not events_of(g, "special_bought")
    assert [e.data["card"] for e in events_of(g, "unsold")] == [card]
    assert events_of(g, "special_revealed")[-1].data["card"] == top


@pytest.mark.rules("P1.6")
def test_sold_card_replaced_by_top_of_special_deck():
    g = make_game(players=4, seed=3)
    top, size = g.special_deck[-1], len(g.special_deck)
    s = g.start_player
    drive(g, plan_of(auction={s: ["bid"]}), lambda g: g.phase != "P1")
    assert g.special_slot == top
    assert len(g.special_deck) == size - 1


@pytest.mark.rules("P1.6")
def test_no_auction_when_the_special_deck_is_empty():
    g = at_p2(seed=3)
    g.special_deck = []
    g.special_slot = None
    drive(g, plan_of(), lambda g: g.month == 2)
    money = [p.money for p in g.players]
    seen = []
    drive(g, plan_of(), lambda g: g.phase != "P1", seen)
    assert not [d for m, _, d in seen if d.kind == "auction"]
    assert [e.kind for e in g.events if e.month == 2 and e.phase == "P1"
            and e.kind in ("no_auction", "auction", "bid")] == ["no_auction"]
    assert [p.money for p in g.players] == money


@pytest.mark.rules("P1.7", "SPECIAL.S1")
def test_auctioneer_target_sits_out_next_months_auction():
    g = at_p2(seed=3)
    s = g.start_player
    o = g._order()
    t = o[2]
    g.players[s].specials_hand = ["S1"]
    drive(g, plan_of(action={s: ["special", "pass", "pass"]}, auctioneer={s: t}),
          lambda g: g.month == 2)
    assert g.players[t].banned_now is True
    seen = []
    o2 = g._order()
    others = [x for x in o2 if x != t]
    # the first non-banned player bids; the other two pass: they win at 100
    drive(g, plan_of(auction={others[0]: ["bid"]}), lambda g: g.phase != "P1", seen)
    asked = [d.player for _, _, d in seen if d.kind == "auction"]
    assert t not in asked
    assert [e.player for e in rule_events(g, "P1.7") if e.month == 2] == [t]
    bought = [e for e in events_of(g, "special_bought") if e.month == 2]
    assert len(bought) == 1 and bought[0].player == others[0]
    assert bought[0].data["price"] == 100
    # only that month: the next month t is asked again
    drive(g, plan_of(), lambda g: g.month == 3)
    seen3 = []
    drive(g, plan_of(), lambda g: g.phase != "P1", seen3)
    assert t in [d.player for _, _, d in seen3 if d.kind == "auction"]


@pytest.mark.rules("P1.7", "RULING-AUCTION-LAST")
def test_auctioneer_ban_counts_as_a_pass_for_the_last_player_rule():
    g = at_p2(seed=3)
    s = g.start_player
    t = g._order()[1]
    g.players[s].specials_hand = ["S1"]
    drive(g, plan_of(action={s: ["special", "pass", "pass"]}, auctioneer={s: t}),
          lambda g: g.month == 2)
    o2 = [x for x in g._order() if x != t]
    seen = []
    drive(g, plan_of(), lambda g: g.phase != "P1", seen)
    auction = [d for _, _, d in seen if d.kind == "auction"]
    assert [d.player for d in auction] == o2
    assert auction[-1].rule == "RULING-AUCTION-LAST"  # the others passed: t counts as passed


@pytest.mark.rules("RULING-AUCTION-LAST", "P1.3")
@pytest.mark.parametrize("last_answer", ["bid", "pass"])
def test_auction_last_may_bid(last_answer):
    g = make_game(players=4, seed=3)
    o = g._order()
    card = g.special_slot
    seen = []
    drive(g, plan_of(auction={o[3]: [last_answer]}), lambda g: g.phase != "P1", seen)
    auction = [d for _, _, d in seen if d.kind == "auction"]
    assert [d.player for d in auction] == o
    last = auction[-1]
    assert last.rule == "RULING-AUCTION-LAST"
    assert set(last.options) == {"pass", "bid"} and last.info["bid"] == 100
    p = g.players[o[3]]
    if last_answer == "bid":
        assert p.money == 1400 and p.specials_bought == 1
        assert card in p.permanent + p.specials_hand
    else:
        assert p.money == 1500 and p.specials_bought == 0
        assert g.special_deck[0] == card


@pytest.mark.rules("RULING-AUCTION-LAST", "P1.3")
def test_auction_last_free():
    g = make_game(players=4, seed=3, RULING_AUCTION_LAST="free")
    o = g._order()
    card = g.special_slot
    seen = []
    drive(g, plan_of(), lambda g: g.phase != "P1", seen)
    assert [d.player for _, _, d in seen if d.kind == "auction"] == o[:3]
    p = g.players[o[3]]
    assert p.money == 1500 and p.specials_bought == 1
    assert card in p.permanent + p.specials_hand
    bought = events_of(g, "special_bought")
    assert bought[0].player == o[3] and bought[0].data["price"] == 0


# ---------------------------------------------------------------- P2 media
@pytest.mark.rules("P2.1")
def test_media_bids_are_secret_and_revealed_together():
    g = at_p2(seed=3)
    o = g._order()
    bids = dict(zip(o, [100, 0, 35, 250], strict=True))
    for i, s in enumerate(o):
        d = g.decision
        assert d.kind == "media_bid" and d.player == s and d.space == "amount"
        assert d.lo == 0 and d.hi == g.players[s].money
        if i:
            # a later bidder sees no earlier bid
            hist = g.view(s).history
            assert not [e for e in hist if e.kind == "media_bid" and e.player != s]
            assert not [e for e in hist if e.kind == "media_reveal" and e.month == 1]
        with pytest.raises(IllegalAnswer):
            g.answer(g.players[s].money + 5)
        g.answer(bids[s])
    reveal = [e for e in events_of(g, "media_reveal") if e.month == 1]
    assert len(reveal) == 1 and reveal[0].private is None
    assert reveal[0].data["bids"] == [bids[s] for s in range(4)]


@pytest.mark.rules("P2.2")
def test_highest_media_bid_wins_and_pays():
    g = at_p2(seed=3)
    o = g._order()
    bids = dict(zip(o, [100, 300, 200, 0], strict=True))
    drive(g, plan_of(media_bid=bids), lambda g: g.phase == "P3")
    assert g.media == o[1]
    assert g.players[o[1]].money == 1500 - 300
    assert all(g.players[s].money == 1500 for s in o if s != o[1])


@pytest.mark.rules("P2.2")
def test_media_tie_goes_to_less_fame():
    g = at_p2(seed=3)
    o = g._order()
    g.players[o[0]].fame, g.players[o[2]].fame = 5, 3
    bids = dict(zip(o, [200, 100, 200, 0], strict=True))
    drive(g, plan_of(media_bid=bids), lambda g: g.phase == "P3")
    assert g.media == o[2]
    assert g.players[o[2]].money == 1300 and g.players[o[0]].money == 1500


@pytest.mark.rules("P2.2")
def test_media_tie_on_fame_decided_by_chance():
    winners = Counter()
    for seed in range(24):
        g = at_p2(seed=seed)
        o = g._order()
        for s in o:
            g.players[s].fame = 4
        g.players[o[3]].fame = 2  # less fame but a lower bid: no part in the tie
        bids = dict(zip(o, [0, 150, 150, 100], strict=True))
        drive(g, plan_of(media_bid=bids), lambda g: g.phase == "P3")
        assert g.media in (o[1], o[2])
        winners[o.index(g.media)] += 1
        loser = o[2] if g.media == o[1] else o[1]
        assert g.players[g.media].money == 1350 and g.players[loser].money == 1500
    assert set(winners) == {1, 2}


@pytest.mark.rules("P2.3", "RULING-MEDIA-ZERO")
def test_zero_bids_no_winner_under_the_option():
    g = at_p2(seed=3, RULING_MEDIA_ZERO="no-winner")
    drive(g, plan_of(), lambda g: g.phase == "P3")
    assert g.media is None
    assert [e.rule for e in events_of(g, "no_media")] == ["P2.3"]
    assert all(p.money == 1500 for p in g.players)
    # a 5 G bid beats the zero bids
    g = at_p2(seed=3, RULING_MEDIA_ZERO="no-winner")
    o = g._order()
    drive(g, plan_of(media_bid={o[3]: 5}), lambda g: g.phase == "P3")
    assert g.media == o[3] and g.players[o[3]].money == 1495


@pytest.mark.rules("P2.3", "RULING-MEDIA-ZERO", "P2.2")
def test_zero_bids_can_win_by_default():
    g = at_p2(seed=3)  # revision 2: 游戏者可以在手牌下不放任何纸币 -- a 0 bid is a bid
    o = g._order()
    for s, f in zip(o, [4, 6, 1, 3], strict=True):
        g.players[s].fame = f
    drive(g, plan_of(), lambda g: g.phase == "P3")
    assert g.media == o[2]  # all bid 0: the least famous takes the token for nothing
    assert g.players[o[2]].money == 1500
    assert not events_of(g, "no_media")


@pytest.mark.rules("P2.4", "RATE.MEDIA")
@pytest.mark.parametrize("orchs,base,raised", [
    (MI[:2] + MV[:2], "poor", "fair"),
    (MI[:3] + MV[:2], "fair", "good"),
    (MI[:3] + MV[:3], "good", "good"),
])
def test_media_holder_concert_raised_one_level(orchs, base, raised):
    card = PINNED.music["S13"]
    idx = {"good": 0, "fair": 1, "poor": 2}
    g, s, ev = concert_game("dome", "S13", orchs, media=False)
    assert g.media is None
    assert ev.data["rating"] == base and ev.data["fame"] == card.fame[idx[base]]
    g, s, ev = concert_game("dome", "S13", orchs, media=True)
    assert ev.data["media"] is True
    assert ev.data["rating"] == raised
    assert ev.data["fame"] == card.fame[idx[raised]]
    assert g.players[s].fame == 10 + card.fame[idx[raised]]


@pytest.mark.rules("P2.5", "SPECIAL.S2")
@pytest.mark.parametrize("critic", [True, False])
def test_critic_adds_100_to_next_months_bid(critic):
    g = at_p2(seed=3)
    s = g.start_player
    if critic:
        g.players[s].specials_hand = ["S2"]
        plan = plan_of(action={s: ["special", "pass", "pass"]})
    else:
        plan = plan_of()
    drive(g, plan, lambda g: g.month == 2)
    drive(g, plan_of(), lambda g: g.phase == "P2")
    t = next(x for x in g._order() if x != s)
    before = [p.money for p in g.players]
    drive(g, plan_of(media_bid={s: 20, t: 110}), lambda g: g.phase == "P3")
    if critic:
        assert g.media == s
        assert g.players[s].money == before[s] - 20  # pays only the real bid
        assert g.players[t].money == before[t]
        crit = [e for e in rule_events(g, "P2.5") if e.month == 2]
        assert len(crit) == 1 and crit[0].data["counts"] == 120
    else:
        assert g.media == t
        assert g.players[t].money == before[t] - 110
    # only the next month's P2: in month 3 the bid counts as it is
    drive(g, plan_of(), lambda g: g.month == 3)
    drive(g, plan_of(), lambda g: g.phase == "P2")
    drive(g, plan_of(media_bid={s: 20, t: 110}), lambda g: g.phase == "P3")
    assert g.media == t


@pytest.mark.rules("P2.6", "RULING-MEDIA-STEP")
@pytest.mark.parametrize("step", [5, 50])
def test_media_bids_in_steps(step):
    g = at_p2(seed=3, RULING_MEDIA_STEP=step)
    o = g._order()
    g.players[o[1]].money = 1475
    g.answer(0)
    d = g.decision
    assert d.player == o[1] and d.step == step
    assert d.hi == (1475 if step == 5 else 1450)
    with pytest.raises(IllegalAnswer):
        g.answer(23)
    if step == 50:
        with pytest.raises(IllegalAnswer):
            g.answer(25)
        g.answer(50)
        paid = 50
    else:
        g.answer(25)
        paid = 25
    drive(g, plan_of(), lambda g: g.phase == "P3")
    assert g.media == o[1] and g.players[o[1]].money == 1475 - paid


# ---------------------------------------------------------------- P3 venues
@pytest.mark.rules("P3.1")
def test_each_player_places_one_marker_on_a_free_area():
    g = at_p2(seed=3)
    o = g._order()
    drive(g, plan_of(), lambda g: g.phase == "P3")
    picks = ["opera", "large-academic", "chapel", "small-academic"]
    taken: list[str] = []
    for s, area in zip(o, picks, strict=True):
        d = g.decision
        assert d.kind == "venue" and d.player == s
        assert not set(taken) & set(d.options)
        if taken:
            with pytest.raises(IllegalAnswer):
                g.answer(taken[0])
        g.answer(area)
        taken.append(area)
        assert g.players[s].venue == area
    assert g.venues == dict(zip(picks, o, strict=True))
    assert g.phase == "P4"


@pytest.mark.rules("P3.HALL", "P3.1")
def test_hall_rents_paid_in_p5():
    g = at_p2(seed=3)
    o = g._order()
    halls = ["chapel", "university", "dome", "opera"]
    cards = ["S16", "S20", "S02", "S03"]
    for s, c, orch in zip(o, cards, MI[:4], strict=True):
        g.players[s].hand, g.players[s].orchestras = [c], [orch]
    plan = plan_of(venue=dict(zip(o, halls, strict=True)), action={s: ["concert"] for s in o},
                   concert_orchestras={s: (orch,) for s, orch in zip(o, MI[:4], strict=True)})
    drive(g, plan, lambda g: g.month == 2)
    assert g.chapel_free is None  # everyone on fame 0 at P3: a tie
    for s, hall, c in zip(o, halls, cards, strict=True):
        evs = p5_events(g, s)
        rent = [e.data["amount"] for e in evs if e.kind == "pay" and e.rule == "P5.2"]
        assert rent == [RENT[hall]], hall
        assert money_delta(evs) == PINNED.music[c].income - RENT[hall] - 50, hall


@pytest.mark.rules("P3.HALL", "P3.TOUR", "COMP.6", "P4.CONCERT.2")
@pytest.mark.parametrize("area", list(RENT) + list(TOUR_NAMES))
def test_hall_capacity_and_tours_without_limit(area):
    g = at_p2(seed=3, RULING_COMMERCIAL_FAME="not-required")
    s = g.start_player
    orchs = MI + MV[:2]  # 12 orchestras of 10 musicians
    g.players[s].hand, g.players[s].orchestras = ["S13"], list(orchs)
    drive(g, plan_of(venue={s: area}), lambda g: g.phase == "P4")
    advance_to(g, "action", seat=s)
    g.answer("concert")
    d = g.decision
    assert d.kind == "concert_orchestras"
    cap = CAPACITY_MUSICIANS[area] // 10 if area in RENT else len(orchs)
    assert d.max_size == cap
    if cap < len(orchs):
        with pytest.raises(IllegalAnswer):
            g.answer(tuple(orchs[:cap + 1]))
    g.answer(tuple(orchs[:cap]))
    ev = next(e for e in events_of(g, "concert") if e.player == s)
    assert len(ev.data["orchestras"]) == cap


@pytest.mark.rules("P3.HALL.1")
def test_chapel_free_for_strictly_least_fame():
    g = at_p2(seed=3)
    o = g._order()
    for s, f in zip(o, [2, 1, 0, 3], strict=True):
        g.players[s].fame = f
    venues = dict(zip(o, ["university", "dome", "chapel", "opera"], strict=True))
    drive(g, plan_of(venue=venues), lambda g: g.month == 2)
    evs = p5_events(g, o[2])
    assert not [e for e in evs if e.kind == "pay"]
    assert [e.rule for e in evs if e.kind == "venue_free"] == ["P3.HALL.1"]
    assert money_delta(evs) == 100  # only the P4.4 bonus


@pytest.mark.rules("P3.HALL.1")
def test_chapel_not_free_on_a_tie_for_least_fame():
    g = at_p2(seed=3)
    o = g._order()
    for s, f in zip(o, [2, 0, 0, 3], strict=True):
        g.players[s].fame = f
    venues = dict(zip(o, ["university", "dome", "chapel", "opera"], strict=True))
    drive(g, plan_of(venue=venues), lambda g: g.month == 2)
    evs = p5_events(g, o[2])
    assert not [e for e in evs if e.kind == "venue_free"]
    rent = [e.data["amount"] for e in evs if e.kind == "pay"]
    assert rent == [25]  # half of 50 G: no concert (P4.3)


@pytest.mark.rules("P3.HALL.1")
def test_chapel_free_only_for_the_least_famous_player():
    g = at_p2(seed=3)
    o = g._order()
    for s, f in zip(o, [2, 1, 0, 3], strict=True):
        g.players[s].fame = f
    venues = dict(zip(o, ["chapel", "dome", "university", "opera"], strict=True))
    drive(g, plan_of(venue=venues), lambda g: g.month == 2)
    evs = p5_events(g, o[0])
    assert [e.data["amount"] for e in evs if e.kind == "pay"] == [25]
    assert not [e for e in evs if e.kind == "venue_free"]


@pytest.mark.rules("P3.TOUR", "P3.TOUR.3")
@pytest.mark.parametrize("tour", TOUR_NAMES)
def test_tour_costs_and_multipliers(tour):
    card = PINNED.music["S13"]
    orchs = MI[:3] + MV[:3]
    g, s, ev = concert_game(tour, "S13", orchs, fame=10)
    assert ev.data["rating"] == "good"
    good = card.fame[0]
    evs = p5_events(g, s)
    income = [e.data["amount"] for e in evs if e.kind == "income" and e.rule == "P5.1"]
    venue_pay = [e.data["amount"] for e in evs if e.kind == "pay" and e.rule == "P5.2"]
    venue_fame = [e.data["delta"] for e in evs if e.kind == "fame" and e.rule == "P5.2"]
    mult = {"large-academic": 2, "small-academic": Fraction(3, 2)}
    imult = {"large-commercial": 2, "small-commercial": Fraction(3, 2)}
    if tour in mult:
        assert ev.data["fame"] == toward_zero(good * mult[tour])
        assert ev.data["income"] == 0 and income == []
        assert venue_pay == [TOUR_MONEY[tour]] and venue_fame == []
        assert g.players[s].fame == 10 + toward_zero(good * mult[tour])
    else:
        assert ev.data["fame"] == 0  # fame given up
        want = toward_zero(card.income * imult[tour], 5)
        assert ev.data["income"] == want and income == [want]
        assert venue_fame == [-TOUR_FAME[tour]] and venue_pay == []
        assert g.players[s].fame == 10 - TOUR_FAME[tour]
    assert money_delta(evs) == (income[0] if income else 0) - sum(venue_pay) - 6 * 50


@pytest.mark.rules("P3.TOUR.3")
@pytest.mark.parametrize("tour", ["large-commercial", "small-commercial"])
def test_commercial_tour_still_deducts_negative_fame(tour):
    card = PINNED.music["S13"]
    poor = card.fame[2]
    assert poor < 0
    g, s, ev = concert_game(tour, "S13", MI[:2] + MV[:2], fame=10)
    assert ev.data["rating"] == "poor"
    assert ev.data["fame"] == poor
    concert_fame = [e.data["delta"] for e in g.events if e.kind == "fame"
                    and e.player == s and e.rule == "P4.CONCERT.4"]
    assert concert_fame == [poor]
    imult = {"large-commercial": 2, "small-commercial": Fraction(3, 2)}[tour]
    assert ev.data["income"] == toward_zero(card.income * imult, 5)  # income whatever the rating
    assert g.players[s].fame == 10 + poor - TOUR_FAME[tour]


@pytest.mark.rules("P3.TOUR.4", "RULING-ROUNDING", "COMP.8")
@pytest.mark.parametrize("rounding", ["toward-zero", "away-from-zero"])
def test_tour_rounding(rounding):
    rnd = toward_zero if rounding == "toward-zero" else away_from_zero
    s20, s13 = PINNED.music["S20"], PINNED.music["S13"]
    # fame ×1.5 of an odd fame
    gain = s20.fame[0] * Fraction(3, 2)
    assert gain.denominator != 1
    g, s, ev = concert_game("small-academic", "S20", [MI[0]], RULING_ROUNDING=rounding)
    assert ev.data["rating"] == "good"
    assert ev.data["fame"] == rnd(gain)
    assert g.players[s].fame == 10 + rnd(gain)
    # income ×1.5 to a multiple of 5 G
    money = s20.income * Fraction(3, 2)
    assert (money / 5).denominator != 1
    g, s, ev = concert_game("small-commercial", "S20", [MI[0]], RULING_ROUNDING=rounding)
    assert ev.data["income"] == rnd(money, 5)
    assert ev.data["income"] % 5 == 0
    inc = [e.data["amount"] for e in p5_events(g, s) if e.rule == "P5.1"]
    assert inc == [rnd(money, 5)]
    # a negative fame ×1.5 rounds toward / away from zero too
    loss = s13.fame[2] * Fraction(3, 2)
    assert loss < 0 and loss.denominator != 1
    g, s, ev = concert_game("small-academic", "S13", MI[:2] + MV[:2],
                            RULING_ROUNDING=rounding)
    assert ev.data["rating"] == "poor"
    assert ev.data["fame"] == rnd(loss)
    assert g.players[s].fame == 10 + rnd(loss)
    # expected values differ between the two rulings
    assert toward_zero(gain) != away_from_zero(gain)


@pytest.mark.rules("P3.TOUR.5", "RULING-COMMERCIAL-FAME")
@pytest.mark.parametrize("fame,allowed", [
    (0, set()), (2, set()), (3, {"small-commercial"}), (4, {"small-commercial"}),
    (5, {"small-commercial", "large-commercial"}), (9, {"small-commercial", "large-commercial"}),
])
def test_commercial_tour_needs_fame_by_default(fame, allowed):
    g = at_p2(seed=3)
    s = g.start_player
    g.players[s].fame = fame
    drive(g, plan_of(), lambda g: g.phase == "P3")
    d = g.decision
    assert d.kind == "venue" and d.player == s
    commercial = {a for a in d.options if a in TOUR_FAME}
    assert commercial == allowed
    assert {"large-academic", "small-academic"} <= set(d.options)
    for tour in set(TOUR_FAME) - allowed:
        with pytest.raises(IllegalAnswer):
            g.answer(tour)


@pytest.mark.rules("P3.TOUR.5", "RULING-COMMERCIAL-FAME", "P5.8")
def test_commercial_tour_without_fame_under_the_option():
    g = at_p2(seed=3, RULING_COMMERCIAL_FAME="not-required")
    s = g.start_player
    assert g.players[s].fame == 0
    drive(g, plan_of(), lambda g: g.phase == "P3")
    assert {"large-commercial", "small-commercial"} <= set(g.decision.options)
    g.answer("large-commercial")
    assert g.players[s].venue == "large-commercial"
    drive(g, plan_of(), lambda g: g.month == 2)
    cost = [e for e in p5_events(g, s) if e.kind == "fame"]
    assert len(cost) == 1 and cost[0].data["delta"] < 0
    assert g.players[s].fame == 0  # the fame cost cannot take fame below 0
