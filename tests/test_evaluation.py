"""The one evaluation for advice (issue 18 item 1) and the hints built on it (item 2).

Racing, intervals and "too close to call" are tested on play-outs whose results the test
controls (``play_out`` replaced), so the logic is exact and fast; the engine-backed tests
use positions of real games with few worlds. Heavier checks are marked slow.
"""

from __future__ import annotations

import random

import pytest

from musici.analysis import evaluation as EV
from musici.analysis.evaluation import Evaluation, OptionValue, evaluate, interval
from musici.analysis.hints import estimate_options, headline, hint_lines
from musici.decisions import Decision
from musici.engine import Game
from musici.strategies.greedy import greedy_strategy


def _until(seed: int, want, strategy=greedy_strategy) -> Game:
    """A greedy game of ``seed`` played until ``want(game, decision)`` holds."""
    game = Game(4, seed)
    while game.decision is not None and not want(game, game.decision):
        d = game.decision
        game.answer(strategy(game.view(d.player), d))
    assert game.decision is not None, "the position wanted never came"
    return game


def _venue_game() -> Game:
    return _until(5, lambda g, d: d.player == 0 and d.kind == "venue")


def _fake_play_out(results):
    """A ``play_out`` whose (win, fame) is ``results(answer, world_index)``; the world index
    is read from the resampled world's rng seed the evaluation gives it (recorded by a
    patched ``view.resample``)."""
    calls: list[tuple[object, object]] = []

    def play_out(world, answer, seat, policy):
        calls.append((world, answer))
        return results(answer, world.test_world_index)
    return play_out, calls


@pytest.fixture
def fake_worlds(monkeypatch):
    """Evaluation with controlled outcomes: returns a function installing ``results``."""
    game = _venue_game()
    view = game.view(0)
    decision = game.decision
    counter = {"n": 0}

    class World:
        def __init__(self, i: int) -> None:
            self.test_world_index = i

    def resample(self, rng, media_bid=None):
        counter["n"] += 1
        return World(counter["n"] - 1)

    monkeypatch.setattr(type(view), "resample", resample)

    def install(results):
        fake, calls = _fake_play_out(results)
        monkeypatch.setattr(EV, "play_out", fake)
        counter["n"] = 0
        return view, decision, calls
    return install


def test_interval_is_never_certain_from_a_few_identical_worlds() -> None:
    mean, low, _ = interval([1.0, 1.0, 1.0], spread=2.0)
    assert mean == 1.0 and low < 0.0  # three agreeing worlds do not separate two answers
    mean, low, _high = interval([1.0] * 16, spread=2.0)
    assert low > 0.5  # sixteen do
    assert interval([]) [1] == float("-inf") and interval([0.3])[2] == float("inf")


def test_equivalent_answers_are_too_close_to_call(fake_worlds) -> None:
    """Two answers with the same result in every world: no best, whatever the worlds."""
    view, decision, _calls = fake_worlds(
        lambda answer, i: (1.0 if random.Random(i).random() < 0.3 else 0.0, 10.0))
    a, b = decision.options[:2]
    ev = evaluate(view, decision, candidates=[a, b], min_worlds=4, max_worlds=64)
    assert ev.best() is None and ev.worlds == 4  # no evidence of a difference: stopped
    assert ev.verdict().startswith("too close to call")
    assert headline(ev).startswith("Too close to call")
    assert ev.gap(a, b)[0] == 0.0


def test_a_clearly_better_answer_is_named_and_the_rest_dropped_early(fake_worlds) -> None:
    view, decision, _calls = fake_worlds(
        lambda answer, i: ((1.0 if answer == decision.options[1] else 0.0), 5.0))
    opts = decision.options
    ev = evaluate(view, decision, candidates=list(opts), min_worlds=4, max_worlds=64)
    best = ev.best()
    assert best is not None and best.answer == opts[1]
    assert ev.options[0].answer == opts[1] and ev.worlds < 64  # racing stopped early
    assert ev.verdict().startswith(f"{opts[1]!r} is best")
    # a margin larger than the separation reached turns the verdict back to too close
    strict = evaluate(view, decision, candidates=list(opts), min_worlds=4, max_worlds=8,
                      margin=0.9)
    assert strict.best() is None


def test_every_candidate_is_played_in_the_same_worlds(fake_worlds) -> None:
    """Common random numbers: each candidate meets world 0, 1, 2, ... in that order, the
    same world object the others met (so differences are paired)."""
    view, decision, calls = fake_worlds(lambda answer, i: (float(i % 2), float(i)))
    opts = list(decision.options)
    ev = evaluate(view, decision, candidates=opts, min_worlds=8, max_worlds=8)
    per_answer: dict[object, list[int]] = {}
    for world, answer in calls:
        per_answer.setdefault(answer, []).append(world.test_world_index)
    assert set(per_answer) == set(opts)
    assert all(seen == list(range(8)) for seen in per_answer.values())
    assert all(ev.wins[a] == ev.wins[opts[0]] for a in opts)


def test_same_seed_same_evaluation_and_the_seed_draws_the_worlds() -> None:
    game = _venue_game()
    view, d = game.view(0), game.decision
    cands = list(d.options[:2])
    first = evaluate(view, d, seed=3, candidates=cands, min_worlds=3, max_worlds=3)
    again = evaluate(view, d, seed=3, candidates=cands, min_worlds=3, max_worlds=3)
    assert first == again and first.wins == again.wins and first.fames == again.fames
    other = evaluate(view, d, seed=4, candidates=cands, min_worlds=3, max_worlds=3)
    assert other.fames != first.fames  # other worlds
    assert game.decision == d and game.step == _venue_game().step  # the game is untouched


def test_equivalent_answers_of_a_real_game_are_too_close_to_call() -> None:
    """Buying from seat 1 or seat 2 when neither sells anything (P4.BUY.2) changes nothing
    in any world: the paired difference is exactly zero, so no best is named."""
    game = _until(5, lambda g, d: d.player == 0 and d.kind == "buy")
    d = game.decision
    assert {"player:1", "player:2"} <= set(d.options)
    ev = evaluate(game.view(0), d, candidates=["player:1", "player:2"], min_worlds=4,
                  max_worlds=4)
    assert ev.wins["player:1"] == ev.wins["player:2"]
    assert ev.best() is None and "too close to call" in ev.verdict()


def test_subset_decisions_get_an_estimate_per_candidate_line_up() -> None:
    """A concert line-up decision is not answered by the bot's pick alone: line-ups per
    style and count each get their own estimate."""
    game = Game(4, 11)
    found = None
    while game.decision is not None:
        d = game.decision
        if d.kind == "concert_orchestras" and len(set(d.groups)) > 1:
            found = d
            break
        game.answer(greedy_strategy(game.view(d.player), d))
    assert found is not None
    cands = EV.candidate_answers(game.view(found.player), found)
    assert len(cands) >= 3 and len({found.groups[found.items.index(c[0])] for c in cands}) == 2
    assert all(found.normalize(c) == c for c in cands)


def test_extra_answers_are_evaluated_and_unknown_ones_are_refused() -> None:
    game = _venue_game()
    d = game.decision
    ev = evaluate(game.view(0), d, candidates=[d.options[0]], extra=[d.options[-1]],
                  min_worlds=2, max_worlds=2)
    assert {o.answer for o in ev.options} == {d.options[0], d.options[-1]}
    assert ev.value_of(d.options[-1]).worlds == 2
    if len(d.options) > 2:
        with pytest.raises(ValueError, match="not evaluated"):
            ev.value_of(d.options[1])


def test_bad_input_is_refused_clearly() -> None:
    game = _venue_game()
    d = game.decision
    with pytest.raises(ValueError, match="seat 1's but seat 0 decides"):
        evaluate(game.view(1), d)
    with pytest.raises(ValueError, match="max_worlds"):
        evaluate(game.view(0), d, min_worlds=4, max_worlds=2)
    with pytest.raises(ValueError, match="budget"):
        evaluate(game.view(0), d, budget=0)


def _random_evaluation(rng: random.Random) -> Evaluation:
    d = Decision(0, "venue", "P3.1", options=("a", "b", "c"))
    n = rng.choice([2, 5, 10, 30])
    wins = {o: tuple(float(rng.random() < p) for _ in range(n))
            for o, p in zip(d.options, [rng.random() for _ in d.options], strict=True)}
    fames = {o: tuple(rng.uniform(0, 30) for _ in range(n)) for o in d.options}
    values = []
    for o in d.options:
        w, wl, wh = interval(wins[o], 1.0)
        f, fl, fh = interval(fames[o])
        values.append(OptionValue(o, w, max(0, wl), min(1, wh), f, fl, fh, n))
    values.sort(key=lambda v: -v.win_share)
    return Evaluation(0, d, tuple(values), n, "greedy", 0.0, wins, fames)


def test_a_hint_never_names_a_best_answer_whose_interval_overlaps_the_runner_up() -> None:
    """Over many evaluations: whenever the hint says "Best", the paired interval of the
    leader against every other answer lies above zero; otherwise it says too close."""
    rng = random.Random(0)
    named = close = 0
    for _ in range(400):
        ev = _random_evaluation(rng)
        text = headline(ev)
        overlaps = any(ev.gap(ev.options[0].answer, o.answer)[1] <= ev.margin
                       for o in ev.options[1:])
        if overlaps:
            assert text.startswith("Too close to call") and ev.best() is None
            close += 1
        else:
            assert text.startswith("Best:") and ev.best() is ev.options[0]
            named += 1
    assert named and close  # both branches were met


def test_hint_in_words_and_html_give_estimates_intervals_and_reasons() -> None:
    from musici.analysis.review import answer_words
    from musici.widgets.hints import hint_html

    game = _venue_game()
    d = game.decision
    ev = estimate_options(game.view(0), d, seed=1, worlds=3)
    lines = hint_lines(ev, lambda a: answer_words(game, a))
    assert len(lines) == len(ev.options) + 2 and "%" in lines[1] and "final fame" in lines[1]
    html = hint_html(game, d, ev)
    assert "hint-table" in html and "you win" in html
    assert ("data-verdict='too-close'" in html) == (ev.best() is None)
    assert "hall" in html.lower() or "tour" in html.lower()  # the options' notes as reasons


@pytest.mark.slow
def test_false_best_is_rare_on_equivalent_real_answers() -> None:
    """Equivalent answers of real play-outs (the same result in every world) never get a
    best; measured over several seeds of worlds."""
    game = _until(5, lambda g, d: d.player == 0 and d.kind == "buy")
    d = game.decision
    for seed in range(5):
        ev = evaluate(game.view(0), d, seed=seed, candidates=["player:1", "player:3"],
                      max_worlds=32)
        assert ev.best() is None


def test_a_clearly_better_answer_of_a_real_game_is_found() -> None:
    """Seed 3, greedy game, month 12, step 350: seat 0's action. Found by a search over
    month-12 decisions: hiring wins (nearly) every sampled world, giving the concert far
    fewer; the evaluation names the hire best after few worlds."""
    game = Game(4, 3)
    while game.step < 350:
        d = game.decision
        game.answer(greedy_strategy(game.view(d.player), d))
    d = game.decision
    assert d.player == 0 and d.kind == "action" and game.month == 12
    ev = evaluate(game.view(0), d, seed=0, max_worlds=16)
    best = ev.best()
    assert best is not None and best.answer == "hire", ev.verdict()
    assert ev.gap("hire", "concert")[1] > 0.2


def test_equal_but_different_answers_race_to_the_limit_and_stay_too_close(fake_worlds) -> None:
    """Answers that win equally often but in different worlds: evidence keeps coming, so
    the race goes to ``max_worlds``, and still names no best."""
    view, decision, _calls = fake_worlds(
        lambda answer, i: (float(i % 4 == decision.options.index(answer)), 1.0))
    a, b = decision.options[:2]
    ev = evaluate(view, decision, candidates=[a, b], min_worlds=4, max_worlds=64)
    assert ev.worlds == 64 and ev.best() is None
