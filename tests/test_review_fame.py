"""The review where the win share is saturated (issue 18's bar): labels by fame lost,
contested pairs raced with more worlds, and the label-precision check.

The labelling logic is tested on play-outs whose results the test controls (``play_out``
and ``view.resample`` replaced: world ``i`` of a seed gives the results the test sets), so
it is exact and fast; the engine-backed tests use real positions with few worlds.
"""

from __future__ import annotations

import random

import pytest

from musici.analysis import evaluation as EV
from musici.analysis import review as R
from musici.analysis.evaluation import evaluate, merge
from musici.engine import Game
from musici.rules import RuleSet
from musici.strategies.greedy import greedy_strategy
from musici.strategies.registry import make_strategy


def _venue_game(seat: int = 0) -> Game:
    game = Game(4, 5)
    while not (game.decision.player == seat and game.decision.kind == "venue"):
        d = game.decision
        game.answer(greedy_strategy(game.view(d.player), d))
    return game


class _World:
    def __init__(self, i: int) -> None:
        self.index = i


@pytest.fixture
def controlled(monkeypatch):
    """A position (seat 0's venue decision, seed 5) whose play-outs give
    ``results(answer, world_index) -> (win, fame)``: the world index is the one the review
    asked for (its seed and ``first_world``). Returns the game and ``install(results)``."""
    game = _venue_game()
    seen: dict[float, int] = {}
    for step in range(len(game.answers) + 1):
        for stage in ("review", "review-pair"):
            for i in range(600):
                seen[random.Random(f"musici-eval:{stage}:{game.seed}:{step}:{i}").random()] = i

    def resample(self, rng, media_bid=None):
        return _World(seen[rng.random()])

    monkeypatch.setattr(type(game.view(0)), "resample", resample)

    def install(results):
        monkeypatch.setattr(EV, "play_out",
                            lambda world, answer, seat, policy: results(answer, world.index))
    return game, install


def _review_venue(game: Game, chosen: str, **kwargs):
    game.answer(chosen)
    return R.review_game(game, 0, kinds=("venue",), **kwargs)


def test_label_for_fame_points_and_a_bad_scale() -> None:
    assert R.label_for(1.9, "fame") is None
    assert R.label_for(R.FAME_INACCURACY, "fame") == "inaccuracy"
    assert R.label_for(5.0, "fame") == "mistake"
    assert R.label_for(9.0, "fame") == "blunder"
    with pytest.raises(ValueError, match="scale"):
        R.label_for(1.0, "points")


def test_a_lost_seat_that_throws_away_fame_is_flagged_by_fame(controlled) -> None:
    """Both answers lose in every world (win share 0): the old review had nothing to
    measure. The answer given ends with 10 fame less in every world, give or take: a
    blunder on the fame scale, its paired interval clear of 8 fame points."""
    game, install = controlled
    options = game.decision.options
    best, chosen = options[0], options[-1]
    install(lambda answer, i: (0.0, (20.0 if answer == best else 10.0) + (i % 3)
                               + (answer == best) * (i % 2)))
    review = _review_venue(game, chosen, worlds=16)
    (m,) = review
    assert m.best == best and m.chosen == chosen
    assert m.scale == "fame" and m.label == "blunder", (m.fame_drop, m.fame_low)
    assert m.fame_drop == pytest.approx(10.5) and m.fame_low >= R.FAME_BLUNDER
    assert m.drop == 0.0 and m.cost_words == "−10.5 fame"
    assert review.errors == 1 and "fame points" in review.how
    # the words say the scale: the CLI's text, the review tab's row and the HTML view
    from musici.widgets.hints import review_html
    from musici.widgets.review_panel import flag_text, flagged
    assert "(−10.5 fame)" in R.review_text(game, 0, review) and review.how in R.review_text(
        game, 0, review)
    assert "the final fame lost decides the label" in R.why_text(game, m)
    (flag,) = flagged(review)
    words = flag_text(game, flag)  # the interval given as a loss, as the cost is
    assert f"−10.5 fame; {m.fame_low:.1f} to {m.fame_high:.1f} fame lost, 95 % interval" in words
    assert "−10.5 fame" in review_html(game, 0, review) and "win share)" not in review_html(
        game, 0, review)


@pytest.mark.parametrize(("wins", "label", "scale"), [
    # contested (win share 0.5 for both): the fame lost is a cost in the game's score
    (lambda best, i: (float(i % 2), float(i % 2)), "blunder", "fame"),
    # won whatever is answered: fame beyond a sure win is moot
    (lambda best, i: (1.0, 1.0), None, "win share"),
    # the answer given clearly wins more: its fame bought win share
    (lambda best, i: (float(i % 4 == 0), 1.0), None, "win share"),
])
def test_fame_labels_only_where_fame_is_a_cost(controlled, wins, label, scale) -> None:
    game, install = controlled
    options = game.decision.options
    best, chosen = options[0], options[-1]

    def results(answer, i):
        w_best, w_chosen = wins(best, i)
        return (w_best if answer == best else w_chosen,
                (20.0 if answer == best else 10.0) + (i % 3))
    install(results)
    (m,) = _review_venue(game, chosen, worlds=16)
    assert m.label == label and m.scale == scale, (m.drop, m.drop_high, m.fame_low)
    if m.best == best:  # else the fresh worlds found the answer given better: no drop
        assert m.fame_drop == pytest.approx(10.0)


def test_a_contested_pair_is_raced_with_more_worlds(controlled) -> None:
    """A true drop of 0.25 win share: 16 worlds leave the interval short of any label
    while the point estimate earns a blunder, so the pair gets more worlds (the ones
    played kept), up to 4x, and its interval clears a mistake; without racing the same
    pair is not labelled."""
    game, install = controlled
    options = game.decision.options
    best, chosen = options[0], options[-1]
    plays: list[tuple[str, int]] = []

    def results(answer, i):
        plays.append((answer, i))
        # best wins 1 world in 4, chosen none; fame level
        return float(answer == best and i % 4 == 0), 10.0
    install(results)
    start = game.clone()
    (m,) = _review_venue(game, chosen, worlds=16)
    assert m.estimates.worlds == R.RACE_FACTOR * 16
    assert m.label == "mistake" and m.drop == pytest.approx(0.25)
    pair = plays[-2 * m.estimates.worlds:]
    assert len(set(pair)) == len(pair) == 2 * m.estimates.worlds  # no world played twice
    (m2,) = _review_venue(start, chosen, worlds=16, race_worlds=16)
    assert m2.label is None and m2.estimates.worlds == 16


def test_merge_adds_later_worlds_of_the_same_seed() -> None:
    game = _venue_game()
    view, d = game.view(0), game.decision
    cands = list(d.options[:2])
    whole = evaluate(view, d, seed=9, candidates=cands, min_worlds=6, max_worlds=6)
    first = evaluate(view, d, seed=9, candidates=cands, min_worlds=4, max_worlds=4)
    more = evaluate(view, d, seed=9, candidates=cands, min_worlds=2, max_worlds=2,
                    first_world=4)
    both = merge(first, more)
    assert both.worlds == 6
    assert both.wins == whole.wins and both.fames == whole.fames
    other = evaluate(view, d, seed=9, candidates=cands[:1], min_worlds=2, max_worlds=2)
    with pytest.raises(ValueError, match="same decision and answers"):
        merge(first, other)
    with pytest.raises(ValueError, match="first_world"):
        evaluate(view, d, candidates=cands, min_worlds=1, max_worlds=1, first_world=-1)


def test_play_outs_take_one_policy_per_seat() -> None:
    game = _venue_game()
    view, d = game.view(0), game.decision
    cands = list(d.options[:2])
    rivals = [greedy_strategy] + [make_strategy(r) for r in ("impresario", "merchant",
                                                             "collector")]
    ev = evaluate(view, d, seed=1, candidates=cands, min_worlds=2, max_worlds=2,
                  policies=rivals, policy_name="rivals' own bots")
    plain = evaluate(view, d, seed=1, candidates=cands, min_worlds=2, max_worlds=2)
    assert ev.policy == "rivals' own bots" and plain.policy == "greedy"
    assert ev.fames != plain.fames  # the rivals play differently
    with pytest.raises(ValueError, match="one strategy per seat"):
        evaluate(view, d, candidates=cands, min_worlds=1, max_worlds=1,
                 policies=[greedy_strategy] * 3)


def test_check_label_replays_a_flag_in_fresh_worlds() -> None:
    game = Game(4, 2, rules=RuleSet.parse(["RULING-MONTHS=1"]))
    game.play([greedy_strategy] * 4)
    review = R.review_game(game, 0, worlds=2, kinds=("venue",))
    (m,) = review
    assert m.label is None
    with pytest.raises(ValueError, match="no label"):
        R.check_label(game, 0, m)
    other = next(o for o in m.screen.options if o.answer != m.chosen).answer
    flagged = R.Mistake(m.step, m.month, m.phase, m.kind, m.rule, m.chosen, other,
                        "mistake", m.estimates, 0.2, 0.15, 0.25, m.screen, "fame", 5.0, 4.5,
                        5.5)
    c = R.check_label(game, 0, flagged, worlds=3)
    assert c.step == m.step and c.scale == "fame" and c.worlds == 3
    assert c.low <= c.drop <= c.high and c.real == (c.low > 0)
    assert c.at_label == (c.drop >= R.FAME_MISTAKE)
    with pytest.raises(ValueError, match="not a decision of seat 1"):
        R.check_label(game, 1, flagged, worlds=1)



def _plan_a(view, decision):  # stand-ins for two bots: the controlled play-outs tell them
    raise AssertionError("apart and never call them")


def _plan_b(view, decision):
    raise AssertionError("the controlled play-outs never call a strategy")


@pytest.mark.parametrize(("b_fame", "best_plans", "label"), [
    # plan B fits the answer given: it ends as well as the best answer, nothing lost
    (20.0, False, None),
    # no plan redeems it: B ends 1 fame better than A, still 9 below the best answer
    (11.0, False, "blunder"),
    # the best answer credited with its best plan too (B: 30 fame) stays 10 ahead
    (20.0, True, "blunder"),
])
def test_a_flag_stands_only_if_no_plan_redeems_the_answer(controlled, monkeypatch, b_fame,
                                                          best_plans, label) -> None:
    """Lost whatever is answered (win share 0): with plan A continuing the seat (the
    screen's line-up) the answer given ends 10 fame below the best one, a blunder by fame,
    as the review without plans says; with plan B continuing, it ends with ``b_fame`` and
    the best answer with 30. An answer is a mistake only if no plan redeems it."""
    game, _ = controlled
    options = game.decision.options
    best, chosen = options[0], options[-1]
    a_lineup = [_plan_a, greedy_strategy, greedy_strategy, greedy_strategy]
    b_lineup = [_plan_b, *a_lineup[1:]]
    seen: set[object] = set()

    def results(world, answer, seat, policy):
        seen.add(policy[0])
        noise = float(world.index % 3)
        if policy[0] is _plan_a:
            return 0.0, (20.0 if answer == best else 10.0) + noise
        return 0.0, (30.0 if answer == best else b_fame) + noise
    monkeypatch.setattr(EV, "play_out", results)
    start = game.clone()
    (old,) = _review_venue(start.clone(), chosen, worlds=16, policies=a_lineup,
                           policy_name="A")
    assert old.label == old.unredeemed == "blunder" and old.plan == "" and seen == {_plan_a}
    (m,) = _review_venue(start, chosen, worlds=16, policies=a_lineup, policy_name="A",
                         plans=[b_lineup], plan_names=["B"], best_plans=best_plans)
    assert m.unredeemed == "blunder"  # the screen's line-up alone: today's label
    assert m.label == label, (m.fame_drop, m.fame_low)
    assert m.plan == "B" and m.best_plan == ("B" if best_plans else "A")
    # redeemed: the answer given by plan B ends as the best answer by plan A
    assert m.fame_drop == pytest.approx({None: 0.0, "blunder": 10.0 if best_plans else 9.0}[
        label])
    with pytest.raises(ValueError, match="one strategy per seat"):
        _review_venue(game.clone(), chosen, policies=a_lineup, plans=[b_lineup[:3]])
