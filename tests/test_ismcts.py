"""The information-set search bot: legal, reproducible, blind to hidden information, its
candidate generators legal and distinct, its tree's UCB over availability counts, and
stronger than chance."""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest
from conftest import advance_to, hidden_twin
from test_no_leaks import bot_answer
from test_no_leaks import hidden_twin as deep_twin

from musici.decisions import Decision, Kind
from musici.engine import Game
from musici.rules import RuleSet
from musici.strategies import greedy_strategy, make_strategy, random_strategy
from musici.strategies._ismcts_candidates import (
    amount_candidates,
    appease_candidates,
    candidates,
    lineup_candidates,
    salary_candidates,
)
from musici.strategies._ismcts_halving import sequential_halving
from musici.strategies._ismcts_tree import Node
from musici.strategies.ismcts import ROOTS, ISMCTSBot, make_ismcts_bot
from musici.strategies.merchant import merchant_strategy

SHORT = RuleSet.from_options({"RULING-MONTHS": 3})


def _cheap(**kwargs: Any) -> ISMCTSBot:
    return ISMCTSBot(iterations=kwargs.pop("iterations", 4), max_candidates=4, **kwargs)


def _fingerprint(game: Game) -> tuple:
    """Everything of a game except the seats' own generators (which a bot may draw from)."""
    return (
        tuple((p.fame, p.money, tuple(p.hand), tuple(p.played), tuple(p.orchestras),
               tuple(sorted(p.markers.items())), p.venue, p.actions) for p in game.players),
        tuple(game.score_deck), tuple(game.score_market), tuple(game.orchestra_deck),
        tuple(game.orchestra_market), tuple(game.special_deck), game.special_slot,
        tuple(sorted(game.media_bids.items())), tuple(sorted(game.venues.items())),
        game.month, game.phase, game.round, game.decision, len(game.events),
        tuple(game.answers), len(game._stack), game.rng.getstate(),
    )


def _until(game: Game, seat: int, kind: str, strategies: list[Any], options: int = 3) -> None:
    """Play on until ``seat`` must make a ``kind`` decision (with ``options`` choices or more)."""
    for _ in range(5000):
        d = game.decision
        assert d is not None, f"the game ended before seat {seat} faced a {kind} decision"
        if d.player == seat and d.kind == kind and (d.space != "choice" or len(d.options) >= options):
            return
        game.ask(strategies[d.player])
    pytest.fail(f"no {kind} decision for seat {seat}")


# ---------------------------------------------------------------------------- playing
def test_answers_are_legal_and_games_finish() -> None:
    for seed in (1, 2):
        bots: list[Any] = [_cheap(), greedy_strategy, random_strategy, _cheap()]
        game = Game(4, seed=seed, rules=SHORT).play(bots)  # an illegal answer would raise
        assert game.finished
        for bot in (bots[0], bots[3]):
            assert bot.searched > 0
            # Sequential halving spends at most the budget, and at least one world for two.
            assert 2 * bot.searched <= bot.iterations_run <= 4 * bot.searched
            assert bot.nodes > 0  # the tree grew below the root


def test_same_seed_same_game() -> None:
    def run() -> list[Any]:
        game = Game(4, seed=5, rules=SHORT)
        game.play([_cheap(), merchant_strategy, _cheap(), random_strategy])
        return game.answers

    assert run() == run()


def test_thinking_does_not_change_the_real_game() -> None:
    game = Game(4, seed=3)
    seat = 2
    _until(game, seat, "action", [greedy_strategy] * 4)
    before = _fingerprint(game)
    bot = _cheap(iterations=6)
    answer = bot(game.view(seat), game.decision)
    assert bot.searched == 1 and bot.iterations_run == 6
    assert game.is_legal(answer)
    assert _fingerprint(game) == before


@pytest.mark.parametrize(("seed", "kind"), [(3, "action"), (8, "venue"), (11, "concert_orchestras")])
def test_answer_depends_only_on_the_view(seed: int, kind: str) -> None:
    game = Game(4, seed=seed)
    strategies: list[Any] = [merchant_strategy] * 4
    game.play(strategies, max_steps=60)
    seat = (game.decision.player + 1) % 4
    _until(game, seat, kind, strategies, options=2)
    twin = hidden_twin(game, seat)
    assert [p.hand for p in twin.players] != [p.hand for p in game.players]
    a = ISMCTSBot(iterations=12)(game.view(seat), game.decision)
    b = ISMCTSBot(iterations=12)(twin.view(seat), twin.decision)
    assert a == b


def test_no_leak_over_a_game_with_sealed_bids() -> None:
    """The thorough twin of test_no_leaks (other hands, removals, every deck, others' sealed
    media bids, future chance all changed): the same answer and the same draws from the
    seat's generator, at searched decisions through two months, P2 bids included."""
    game = Game(4, seed=13, rules=RuleSet.from_options({"RULING-MONTHS": 2}))
    spec = functools.partial(ISMCTSBot, iterations=3, max_candidates=3)
    rnd = random.Random(13)
    kinds: set[str] = set()
    sealed = 0
    while (d := game.decision) is not None:
        seat = d.player
        sealed_now = d.kind == Kind.MEDIA_BID and len(game.media_bids) > 0
        if (game.step % 7 == 0 and d.kind in ISMCTSBot(iterations=1).kinds) or sealed_now:
            twin = deep_twin(game, seat, rnd)
            assert bot_answer(twin, seat, spec) == bot_answer(game, seat, spec), (game.step, d.kind)
            kinds.add(d.kind)
            sealed += sealed_now
        game.ask(merchant_strategy)
    assert sealed >= 2 and len(kinds) >= 3


def test_unsearched_and_single_option_decisions_get_the_fallback() -> None:
    game = advance_to(Game(4, seed=4), "action")
    seat = game.decision.player
    view = game.view(seat)
    bot = ISMCTSBot(iterations=3, kinds=())
    assert bot(view, game.decision) == merchant_strategy(game.view(seat), game.decision)
    assert bot.searched == 0 and bot.decisions == 1
    only = Decision(seat, Kind.DISCOVER, "P4.DISCOVER.1", options=("modern",))
    assert ISMCTSBot(iterations=3)(view, only) == "modern"


def test_budget_and_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="needs a budget"):
        ISMCTSBot(iterations=None, seconds=None)
    with pytest.raises(ValueError, match="iterations must be a positive integer"):
        ISMCTSBot(iterations=0)
    with pytest.raises(ValueError, match="horizon"):
        ISMCTSBot(horizon=0)
    assert ISMCTSBot(opponents="greedy").opponents == [greedy_strategy]  # a name, not letters
    bot = ISMCTSBot(iterations=None, seconds=0.001)
    game = Game(4, seed=3)
    _until(game, 0, "action", [greedy_strategy] * 4)
    assert game.is_legal(bot(game.view(0), game.decision))
    assert bot.iterations_run >= 2  # a time budget still tries every candidate once


def test_registered_by_name() -> None:
    first, second = make_strategy("ismcts"), make_strategy("ismcts")
    assert isinstance(first, ISMCTSBot) and first is not second
    assert isinstance(make_ismcts_bot(iterations=2), ISMCTSBot)


def test_beats_random_bots() -> None:
    rules = RuleSet.from_options({"RULING-MONTHS": 4})
    wins = 0.0
    for k in range(4):
        seat = k % 4
        strategies: list[Any] = [random_strategy] * 4
        strategies[seat] = _cheap()
        game = Game(4, seed=200 + k, rules=rules).play(strategies)
        if seat in game.results["winners"]:
            wins += 1 / len(game.results["winners"])
    assert wins >= 3


# ---------------------------------------------------------------------------- candidates
def _distinct_legal(decision: Decision, answers: list[Any]) -> None:
    assert answers, "no candidates"
    for a in answers:
        assert decision.normalize(a) == a
    assert len(set(answers)) == len(answers)


def test_lineup_candidates_are_legal_distinct_and_one_style() -> None:
    game = Game(4, seed=6)
    seat = 1
    _until(game, seat, "concert_orchestras", [merchant_strategy] * 4)
    d = game.decision
    view = game.view(seat)
    raw = lineup_candidates(view, d)
    assert raw and all(len(set(d.groups[d.items.index(i)] for i in line)) == 1 for line in raw)
    cands = candidates(view, d, [merchant_strategy(view, d)], 8)
    _distinct_legal(d, cands)
    assert cands[0] == d.normalize(merchant_strategy(view, d))


def test_salary_candidates_pay_in_different_orders() -> None:
    game = Game(4, seed=1)
    view = game.view(0)
    items = ("a", "b", "c", "d")
    d = Decision(0, Kind.SALARIES, "P5.3", space="subset", items=items, costs=(150, 100, 60, 50),
                 budget=200, min_size=0, max_size=4, maximal=True)
    raw = salary_candidates(view, d)
    assert raw[0] == ("a", "d")  # dearest first: 150, then only the 50 still fits
    assert raw[1] == ("c", "d")  # cheapest first: 50 + 60, then 100 no longer fits
    cands = candidates(view, d, [], 8)
    _distinct_legal(d, cands)
    assert cands == [("a", "d"), ("c", "d")]


def test_appease_and_amount_candidates() -> None:
    game = Game(4, seed=1)
    view = game.view(0)
    d = Decision(0, Kind.APPEASE, "P4.APPEASE.1", space="subset", items=("x", "y"),
                 costs=(100, 60), limits=(2, 1), budget=230, min_size=1, max_size=3)
    raw = appease_candidates(d)
    assert ("x",) in raw and ("y",) in raw
    _distinct_legal(d, candidates(view, d, [], 8))
    bid = Decision(0, Kind.MEDIA_BID, "P2.1", space="amount", lo=0, hi=120, step=10)
    amounts = amount_candidates(bid, [70], 8)
    _distinct_legal(bid, amounts)
    assert amounts[0] == 70 and max(amounts) <= 120 and 0 in amounts


def test_choice_candidates_lead_with_the_given_answers_and_cap() -> None:
    game = advance_to(Game(4, seed=2), "action")
    d = game.decision
    view = game.view(d.player)
    last = d.options[-1]
    cands = candidates(view, d, [last, "no-such-option"], 3)
    assert cands[0] == last and len(cands) == min(3, len(d.options))
    _distinct_legal(d, cands)


# ---------------------------------------------------------------------------- the tree
def test_node_tries_every_answer_then_uses_availability() -> None:
    node = Node()
    seen = []
    for _ in range(3):
        a, expanded = node.select(["a", "b", "c"], 1.0, 1.0)
        assert expanded
        seen.append(a)
        node.update(a, {"a": 0.0, "b": 1.0, "c": 0.5}[a])
    assert seen == ["a", "b", "c"]
    # "d" appears only now: it is untried, so it is expanded first.
    assert node.select(["a", "d"], 1.0, 1.0) == ("d", True)
    node.update("d", 0.2)
    # Availability counts the visits at which an answer was legal, not the node's visits.
    assert [node.stats[k].available for k in "abcd"] == [4, 3, 3, 1]
    a, expanded = node.select(["a", "b", "c", "d"], 0.0, 1.0)  # no exploration: best mean
    assert (a, expanded) == ("b", False)
    node.update("b", 1.0)
    assert node.best(["a", "b", "c", "d"]) == "b"


# ---------------------------------------------------------------------------- sequential halving
def _noisy(means: list[float], seed: int, calls: list[list[int]]) -> Any:
    """A fake evaluator: one shared noise draw per world (common random numbers) plus a
    small own noise per answer; records which answers each world evaluated."""
    rng = random.Random(seed)

    def evaluate(alive: Any) -> list[float]:
        calls.append(list(alive))
        world = rng.gauss(0.0, 5.0)
        return [means[i] + world + rng.gauss(0.0, 0.5) for i in alive]
    return evaluate


def test_halving_keeps_the_best_answer_within_budget() -> None:
    means = [0.0, 0.3, -1.0, 1.0, 0.5, -0.5, 0.2, 0.1]  # answer 3 is best
    for seed in range(5):
        calls: list[list[int]] = []
        best, used = sequential_halving(8, 48, _noisy(means, seed, calls))
        assert best == 3
        assert used == sum(len(c) for c in calls) <= 48
        sizes = [len(c) for c in calls]
        assert sizes[0] == 8 and sizes[-1] == 2 and sorted(set(sizes)) == [2, 4, 8]
        assert sizes == sorted(sizes, reverse=True)  # survivors only shrink


def test_halving_edge_cases() -> None:
    calls: list[list[int]] = []
    assert sequential_halving(8, 5, _noisy([0.0] * 8, 1, calls)) == (0, 0)  # too small a budget
    assert calls == []
    assert sequential_halving(1, 10, _noisy([0.0], 1, calls)) == (0, 0)
    with pytest.raises(ValueError, match="at least one answer"):
        sequential_halving(0, 10, _noisy([], 1, calls))
    # Equal values: the earlier answer (the heuristics' lead) wins.
    assert sequential_halving(4, 16, lambda alive: [1.0] * len(alive))[0] == 0


def test_halving_on_a_time_budget_stops_and_picks_among_the_survivors() -> None:
    means = [0.0, 2.0, 1.0, 0.5, -1.0]
    calls: list[list[int]] = []
    ticks = iter(range(100))
    best, used = sequential_halving(5, None, _noisy(means, 2, calls),
                                    out_of_time=lambda: next(ticks) >= 4)
    # Rounds of 1, 2, 4 worlds for 5, 3, 2 survivors; the deadline cut the third round.
    assert [len(c) for c in calls] == [5, 3, 3, 2, 2] and used == 15
    assert best == 1
    # Without a deadline, rounds of 1, 2, 4, ... worlds run until one answer is left.
    calls.clear()
    assert sequential_halving(4, None, _noisy([0.0, 2.0, 1.0, 3.0], 3, calls))[0] == 3
    assert [len(c) for c in calls] == [4, 2, 2]


def test_root_modes_are_deterministic_and_checked() -> None:
    with pytest.raises(ValueError, match="root must be one of"):
        ISMCTSBot(root="best")
    game = Game(4, seed=3)
    _until(game, 1, "action", [greedy_strategy] * 4)
    for root in ROOTS:
        copies = [game.clone() for _ in range(2)]  # each call draws from the seat's generator
        answers = [ISMCTSBot(iterations=12, root=root)(g.view(1), g.decision) for g in copies]
        assert answers[0] == answers[1] and game.is_legal(answers[0])
