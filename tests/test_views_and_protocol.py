"""Player views hide what a player may not see; illegal answers change nothing."""

from __future__ import annotations

import pytest
from conftest import advance_to

from musici import Decision, Game, IllegalAnswer, StrategyError
from musici.strategies import random_strategy


def snapshot(game):
    return game.to_json(), [e.to_dict() for e in game.events], repr(game.decision)


def test_view_hides_other_hands_bids_and_decks():
    game = advance_to(Game(seed=3), "media_bid", when=lambda g: len(g.media_bids) == 1)
    bidder = next(iter(game.media_bids))
    other = game.decision.player
    view = game.view(other)
    assert view.my_media_bid is None  # the first bid is not this seat's
    assert game.view(bidder).my_media_bid == game.media_bids[bidder]
    secret = [e for e in game.events if e.kind == "media_bid"]
    assert secret and all(e not in view.history for e in secret)
    for seat in range(4):
        if seat != other:
            assert view.player(seat).hand_size == len(game.players[seat].hand)
            assert not hasattr(view.player(seat), "hand")
    deals = [e for e in view.history if e.kind == "deal"]
    assert [e.player for e in deals] == [other]
    assert set(view.deck_sizes) == {"scores", "orchestras", "authentic", "modern", "specials"}


def test_views_identical_when_only_hidden_information_differs():
    a = advance_to(Game(seed=5), "action", seat=0)
    b = a.clone()
    # Swap hidden things: another hand and the deck order.
    b.players[1].hand, b.score_deck = b.score_deck[:3], b.players[1].hand + b.score_deck[3:]
    b.score_deck.reverse()
    va, vb = a.view(0), b.view(0)
    for attr in ("hand", "players", "score_market", "orchestra_market", "deck_sizes",
                 "special_slot", "venues", "media", "month", "phase"):
        assert getattr(va, attr) == getattr(vb, attr), attr


def test_view_cannot_change_the_game():
    game = advance_to(Game(seed=6), "action")
    view = game.view(game.decision.player)
    before = snapshot(game)
    hand = view.hand
    with pytest.raises(AttributeError):
        hand.append("S01")  # tuples
    with pytest.raises(AttributeError):
        view.me.money = 10**6  # frozen
    assert snapshot(game) == before


@pytest.mark.parametrize("bad", [None, "teleport", 10**12, -5, 3.5, ["pass"], {"a": 1},
                                 ("pass", "bid"), True])
def test_illegal_answers_leave_the_game_unchanged(bad):
    game = advance_to(Game(seed=7), "action")
    before = snapshot(game)
    with pytest.raises(IllegalAnswer) as info:
        game.answer(bad)
    message = str(info.value)
    assert f"seat {game.decision.player}" in message and "action" in message
    assert "legal:" in message
    assert snapshot(game) == before
    game.answer("pass")  # the game goes on with a legal answer
    assert game.step == len(game.answers)


def test_illegal_amount_and_subset():
    game = advance_to(Game(seed=8), "media_bid")
    money = game.players[game.decision.player].money
    for bad in (money + 5, 3, -5, "10"):
        before = snapshot(game)
        with pytest.raises(IllegalAnswer):
            game.answer(bad)
        assert snapshot(game) == before
    game2 = advance_to(Game(seed=8), "concert_orchestras",
                       when=lambda g: len(set(g.decision.groups)) > 1)
    d = game2.decision
    mixed = (d.items[d.groups.index("modern")], d.items[d.groups.index("authentic")])
    before = snapshot(game2)
    with pytest.raises(IllegalAnswer, match="one style"):
        game2.answer(mixed)
    assert snapshot(game2) == before


def test_decisions_are_frozen_and_keep_their_own_info():
    info = {"card": "S01"}
    d = Decision(2, "auction", "P1.1", options=("pass", "bid"), info=info)
    info["card"] = "S02"  # the caller's dict is copied
    assert d.info == {"card": "S01"} and type(d) is Decision
    with pytest.raises(AttributeError):
        d.player = 0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        d.extra = 0  # type: ignore[attr-defined]  (no __dict__: a value, not a bag)
    with pytest.raises(TypeError):
        d.info["card"] = "S03"  # type: ignore[index]
    assert d == Decision(2, "auction", "P1.1", options=("pass", "bid"))  # info not compared
    assert d._replace(player=1).info == d.info
    assert d != tuple(d) and hash(d) == hash(Decision(2, "auction", "P1.1", options=("pass", "bid")))
    assert Decision(0, "venue", "P3.1").info == {} and Decision(0, "venue", "P3.1").step == 1


def test_strategy_errors_name_seat_decision_and_repro():
    game = advance_to(Game(seed=9), "venue")
    seat = game.decision.player

    def crashing(view, decision):
        raise RuntimeError("boom")

    before = snapshot(game)
    with pytest.raises(StrategyError) as info:
        game.ask(crashing)
    assert f"seat {seat}" in str(info.value) and "venue" in str(info.value)
    assert "seed 9" in str(info.value) and f"step {game.step}" in str(info.value)
    assert snapshot(game) == before
    with pytest.raises(StrategyError, match="illegal answer"):
        game.ask(lambda view, decision: "the moon")
    assert snapshot(game) == before
    game.ask(random_strategy)


def test_stepping_by_phase_and_month():
    game = Game(seed=10)
    strategies = [random_strategy] * 4
    game.play(strategies, until="phase")
    assert (game.month, game.phase) != (1, "P1")
    start_month = game.month
    game.play(strategies, until="month")
    assert game.month == start_month + 1
    steps = game.step
    game.play(strategies, until="decision")
    assert game.step == steps + 1


def test_a_view_cannot_be_turned_into_another_seat():
    game = Game(seed=5)
    view = game.view(0)
    with pytest.raises(AttributeError):
        view.seat = 1  # type: ignore[misc]
    assert view.seat == 0 and view.hand == tuple(game.players[0].hand)


def test_every_bot_handler_answers_a_kind_that_exists():
    # A handler ``on_<kind>`` for a kind the engine never poses would silently never run.
    import inspect

    from musici.decisions import Kind
    from musici.strategies import _plans, collector, impresario, merchant

    kinds = {k.value for k in Kind}
    for module in (_plans, impresario, merchant, collector):
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if not issubclass(cls, _plans.Planner):
                continue
            handlers = {name[3:] for name in dir(cls) if name.startswith("on_")}
            assert handlers, cls
            unknown = handlers - kinds
            assert not unknown, f"{cls.__name__} handles kinds the engine never poses: {unknown}"


def test_the_engine_poses_only_listed_kinds():
    from musici.decisions import Kind
    from musici.strategies import random_strategy

    kinds = {k.value for k in Kind}
    seen: set[str] = set()
    for seed in range(6):
        game = Game(players=3 + seed % 2, seed=seed)
        while game.decision is not None:
            seen.add(game.decision.kind)
            game.ask(random_strategy)
    assert seen <= kinds and len(seen) >= 15, sorted(seen - kinds)


def test_option_codec_round_trips():
    from musici.decisions import deck_option, parse_option, player_option

    assert parse_option(player_option(3)) == ("player", 3)
    assert parse_option(deck_option("modern")) == ("deck", "modern")
    assert parse_option("S05") == ("card", "S05")
    game = advance_to(Game(seed=4), "buy")
    sellers = [parse_option(o) for o in game.decision.options if parse_option(o)[0] == "player"]
    assert sellers and all(0 <= seat < game.n and seat != game.decision.player
                           for _, seat in sellers)


def test_a_public_player_is_its_seats_state_field_by_field():
    """views.player builds PublicPlayer positionally (no class call, issue 23): the order
    must be the fields' own, checked against a keyword-built value for every seat."""
    from musici.strategies import random_strategy
    from musici.views import PublicPlayer

    game = Game(seed=5).play([random_strategy] * 4, max_steps=160)
    view = game.view(0)
    for s, p in enumerate(game.players):
        want = PublicPlayer(
            seat=s, fame=p.fame, money=p.money, hand_size=len(p.hand),
            hand_backs=view.player(s).hand_backs, orchestras=tuple(p.orchestras),
            markers=tuple(p.markers.items()), played=tuple(p.played),
            permanent=tuple(p.permanent), specials_hand=tuple(p.specials_hand),
            specials_used=tuple(p.specials_discard), specials_bought=p.specials_bought,
            venue=p.venue, concert=p.concert is not None, actions=p.actions,
            tour_guide=p.tour_guide)
        got = view.player(s)
        assert type(got) is PublicPlayer and got._asdict() == want._asdict()
        assert sum(n for _, n in got.hand_backs) == len(p.hand)
    with pytest.raises(AttributeError):
        view.me.fame = 99  # an immutable value
