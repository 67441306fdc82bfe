"""The game review (issue 18 item 3): labels only where the interval clears them, the
played answer re-evaluated in the same worlds, and the learner's case of the issue."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from musici.analysis import review as R
from musici.analysis.evaluation import Evaluation, OptionValue
from musici.decisions import Decision
from musici.engine import Game
from musici.persistence import load
from musici.rules import RuleSet
from musici.strategies.greedy import greedy_strategy

LEARNER = Path(__file__).parent / "data" / "learner_two_authentic_hires.json"


def test_labels_need_the_interval_to_clear_the_threshold() -> None:
    assert R.label_for(0.04) is None
    assert R.label_for(R.INACCURACY) == "inaccuracy"
    assert R.label_for(0.12) == "mistake"
    assert R.label_for(0.25) == "blunder"
    assert R.label_for(-0.5) is None


def _crafted(chosen_wins: tuple[float, ...], best_wins: tuple[float, ...]) -> Evaluation:
    d = Decision(0, "venue", "P3.1", options=("chapel", "dome"))
    n = len(chosen_wins)
    wins = {"dome": best_wins, "chapel": chosen_wins}
    fames = {"dome": (10.0,) * n, "chapel": (8.0,) * n}
    opts = tuple(OptionValue(a, sum(w) / n, 0, 1, 0, 0, 0, n) for a, w in
                 sorted(wins.items(), key=lambda kv: -sum(kv[1])))
    return Evaluation(0, d, opts, n, "greedy", 0.0, wins, fames)


@pytest.mark.parametrize(("chosen", "best", "label"), [
    ((0.0,) * 3, (1.0,) * 3, None),  # three worlds cannot clear a threshold (the floor)
    ((0.0,) * 32, (1.0,) * 32, "blunder"),
    ((0.0,) * 28 + (1.0,) * 4, (1.0,) * 4 + (0.0,) * 28, None),  # equal means: no drop
])
def test_review_labels_by_the_paired_interval(monkeypatch, chosen, best, label) -> None:
    """The review's label is the paired interval's, not the point estimate's: the same
    mean drop of 100 % is no label after 3 worlds and a blunder after 32."""
    ev = _crafted(chosen, best)
    monkeypatch.setattr(R, "evaluate", lambda *a, **k: ev)
    game = Game(4, 1)
    while not (game.decision.player == 0 and game.decision.kind == "venue"):
        d = game.decision
        game.answer(greedy_strategy(game.view(d.player), d))
    game.answer("chapel")
    # as many worlds as the crafted evaluation has, and no racing (it ignores the worlds
    # asked for)
    n = len(chosen)
    review = R.review_game(game, 0, kinds=("venue",), worlds=n, race_worlds=n)
    assert len(review) == 1
    m = review[0]
    assert m.chosen == "chapel" and m.label == label
    if sum(best) > sum(chosen):
        assert m.best == "dome" and m.drop == 1.0
    else:
        assert m.drop == 0.0


def test_the_played_answer_is_evaluated_in_the_same_worlds_as_the_alternatives() -> None:
    game = Game(4, 2, rules=RuleSet.parse(["RULING-MONTHS=2"]))
    game.play([greedy_strategy] * 4)
    review = R.review_game(game, 1, worlds=2, kinds=("venue", "hire"))
    assert review and review.curve
    for m in review:
        assert game.answers[m.step] == m.chosen
        ev = m.estimates
        assert ev.value_of(m.chosen).worlds == ev.value_of(m.best).worlds == ev.worlds
        assert m.drop == pytest.approx(ev.gap(m.best, m.chosen)[0]) or m.best == m.chosen
        assert m.drop >= 0
    assert [p.step for p in review.curve] == sorted(p.step for p in review.curve)


def test_the_learners_good_concert_hire_is_not_flagged() -> None:
    """Issue 18: seat 0 hires two authentic orchestras in month 1 and gives S11 at the
    university, good, +4 fame, 225 G. The old review (3 worlds, played to the month's end)
    ranked that hire as the costliest decision (-6.5, "fame 0.0"); played to the END in
    the same worlds as the alternatives it is not a mistake nor a blunder."""
    game = load(LEARNER)
    concert = next(e for e in game.events if e.kind == "concert" and e.player == 0)
    assert concert.month == 1 and concert.data["rating"] == "good" and concert.data["fame"] == 4
    assert concert.data["card"] == "S11" and concert.data["income"] == 225
    hires = [e for e in game.events if e.kind == "hire" and e.player == 0 and e.month == 1]
    assert [game.cards.performer(e.data["orchestra"])[0] for e in hires] == ["authentic"] * 2
    at = [i for i, e in enumerate(game.answers) if e in {h.data["orchestra"] for h in hires}]
    review = R.review_game(game, 0, kinds=("hire",), steps=at)
    month1 = [m for m in review if m.month == 1]
    assert len(month1) == 2 == len(review)
    assert all(m.label not in ("mistake", "blunder") for m in month1), \
        [(m.step, m.label, m.drop_low) for m in month1]
    text = R.review_text(game, 0, review)
    assert "blunders" in text and "estimated win share by month" in text


def test_review_html_shows_labels_and_the_curve() -> None:
    from musici.widgets.hints import review_html

    game = Game(4, 2, rules=RuleSet.parse(["RULING-MONTHS=1"]))
    game.play([greedy_strategy] * 4)
    review = R.review_game(game, 0, worlds=2, kinds=("venue", "action"))
    html = review_html(game, 0, review)
    assert "musici-review" in html and "estimated win share" in html and "data-step=" in html


@pytest.mark.slow
def test_the_learners_whole_review_flags_no_month_one_hire() -> None:
    """The whole review of the learner's two months (every decision, default worlds)."""
    game = load(LEARNER)
    review = R.review_game(game, 0)
    for m in review:
        if m.month == 1 and m.kind in ("hire", "action"):
            assert m.label not in ("mistake", "blunder"), (m.step, m.kind, m.drop_low)


@pytest.fixture(scope="module")
def ruined() -> tuple[Game, R.Review]:
    """A random seat against the three heuristic bots: at fame 0 by the end (P5.8's floor),
    reviewed cheaply (2 worlds, greedy play-outs)."""
    from musici.strategies.registry import make_strategy

    game = Game(4, 3).play([make_strategy(n)
                            for n in ("random", "impresario", "merchant", "collector")])
    assert game.results is not None and game.results["fame"][0] == 0
    return game, R.review_game(game, 0, worlds=2, min_worlds=2)


def test_a_ruined_seat_is_settled_where_its_answers_stop_mattering(ruined) -> None:
    """From ``settled_from`` on, no answer changed the seat's win or final fame in any
    sampled world (checked here on the worlds themselves), nothing there is labelled, the
    decision before it still mattered, and the words name both."""
    game, review = ruined
    first = review.settled_from
    assert first is not None
    by_step = sorted(review, key=lambda m: m.step)
    tail = [m for m in by_step if m.step >= first.step]
    before = [m for m in by_step if m.step < first.step]
    for m in tail:
        ev = m.screen or m.estimates
        assert len({(ev.wins[a], ev.fames[a]) for a in ev.wins}) == 1, m.step
        assert m.label is None and not m.live
    assert before and before[-1].live
    assert all(m.live for m in review.flagged)  # a label needs an answer that mattered
    assert review.live == sum(1 for m in by_step if m.live) < len(by_step)
    words = R.settled_words(review)
    assert (f"month {first.month} (step {first.step})" in words
            and f"last {len(tail)} reviewed decisions" in words
            and f"step {before[-1].step} (month {before[-1].month}" in words), words
    assert "Out of the seat's hands from" in R.review_text(game, 0, review)


def test_a_seat_whose_last_decision_mattered_is_not_settled(ruined) -> None:
    import dataclasses

    game, review = ruined
    first = review.settled_from
    assert first is not None
    open_end = dataclasses.replace(
        review, decisions=tuple(m for m in review if m.step < first.step))
    assert open_end.settled_from is None and R.settled_words(open_end) == ""
    one_dead = dataclasses.replace(
        review, decisions=tuple(m for m in review if m.step <= first.step))
    assert one_dead.settled_from == first
    assert "the seat's last reviewed decision did not change its win share" in (
        R.settled_words(one_dead))
    assert "Out of the seat's hands" not in R.review_text(game, 0, open_end)


def test_the_review_tab_says_where_the_game_was_settled(ruined) -> None:
    import dataclasses

    from musici.widgets import GameStepper
    from musici.widgets.hints import review_html

    game, review = ruined
    stepper = GameStepper(players=("random", "impresario", "merchant", "collector"), seed=3)
    stepper.advance("end")
    assert stepper.game.answers == game.answers
    stepper.review_panel.show(review, stepper.game, 0)
    step = review.settled_from.step
    panel = stepper.review_panel
    assert "review-settled" in panel.summary.value and f"(step {step})" in panel.summary.value
    # the graph greys the settled stretch, from that step to the last point
    (shade,) = panel.figure.layout.shapes
    assert shade.x0 == step - 0.5 and shade.x1 == panel.points[-1].step + 0.5
    stepper.review_panel.show(dataclasses.replace(
        review, decisions=tuple(m for m in review if m.step < step)), stepper.game, 0)
    assert "review-settled" not in panel.summary.value and not panel.figure.layout.shapes
    html = review_html(game, 0, review)
    assert "review-settled" in html and f"from month {review.settled_from.month} (step {step})" in html


def test_lineup_options_play_the_game_out_as_it_was_played() -> None:
    """Each seat by its own quick bot, a slow bot or a person stood in for by merchant, the
    reviewed seat never continued by random, its flags redeemed by the other heuristic
    bots (the review bar's line-up, benchmarks/review_bar.py)."""
    from musici.strategies.registry import make_strategy

    opts = R.lineup_options(["random", "ismcts", None, "greedy"], 0)
    assert opts["policy_name"] == ("seat 0 continued by merchant, the others by their own "
                                   "bots (seat 1's ismcts by merchant, seat 2's player by "
                                   "merchant standing in)")
    assert opts["plan_names"] == ["seat 0 continued by impresario",
                                  "seat 0 continued by collector"]
    assert len(opts["policies"]) == 4 and all(len(p) == 4 for p in opts["plans"])
    # the same strategies as the registry's: play one game with each line-up and compare
    def digest(line):
        return Game(4, 11).play(line).answers
    assert digest(opts["policies"]) == digest(
        [make_strategy(n) for n in ("merchant", "merchant", "merchant", "greedy")])
    assert digest(opts["plans"][0]) == digest(
        [make_strategy(n) for n in ("impresario", "merchant", "merchant", "greedy")])
    # a rival random keeps its own bot; a reviewed impresario continues as itself
    opts = R.lineup_options(["impresario", "random", "merchant"], 0)
    assert opts["policy_name"] == "seat 0 continued by impresario, the others by their own bots"
    assert opts["plan_names"] == ["seat 0 continued by merchant", "seat 0 continued by collector"]
    assert [R.seat_play_out(b) for b in ("random", "impresario", "ismcts", None)] == [
        "merchant", "impresario", "merchant", "merchant"]
    with pytest.raises(ValueError, match="no seat 3 among 3 bots"):
        R.lineup_options(["greedy"] * 3, 3)


@settings(max_examples=8, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10_000), players=st.sampled_from([3, 4]),
       bots=st.lists(st.sampled_from(["random", "greedy", "merchant"]), min_size=4,
                     max_size=4))
def test_settled_and_live_agree_with_the_worlds_in_generated_games(seed, players,
                                                                   bots) -> None:
    """Over generated short games: a labelled decision is live; every decision from
    ``settled_from`` on had one outcome per world whatever was answered, and the one before
    it did not (else ``settled_from`` is None and the last reviewed decision is live)."""
    from musici.strategies.registry import make_strategy

    game = Game(players, seed, rules=RuleSet.from_options({"RULING-MONTHS": 3}))
    game.play([make_strategy(b) for b in bots[:players]])
    review = R.review_game(game, 0, worlds=2, min_worlds=2)
    by_step = sorted(review, key=lambda m: m.step)

    def varies(m: R.Mistake) -> bool:
        ev = m.screen or m.estimates
        return len({(ev.wins[a], ev.fames[a]) for a in ev.wins}) > 1

    assert all(m.live == varies(m) for m in by_step)
    assert all(m.live for m in review.flagged)
    first = review.settled_from
    if first is None:
        assert not by_step or by_step[-1].live
    else:
        k = by_step.index(first)
        assert not any(m.live for m in by_step[k:]) and (k == 0 or by_step[k - 1].live)


def test_deep_check_only_softens_the_mistakes_and_blunders_it_judges_again() -> None:
    """deep_check: each mistake and blunder judged again in the same worlds with one more
    plan (here merchant continuing the seat, cheap), both answers credited; other
    decisions untouched; a label never rises; a softened decision is exactly what
    review_game gives with that plan and best_plans at that step."""
    from musici.strategies.greedy import greedy_strategy
    from musici.strategies.registry import make_strategy

    game = Game(4, 1, rules=RuleSet.from_options({"RULING-MONTHS": 3}))
    game.play([make_strategy(n) for n in ("random", "greedy", "greedy", "greedy")])
    review = R.review_game(game, 0, worlds=4, min_worlds=2)
    deep = R.deep_check(game, 0, review, bot="merchant", worlds=4, min_worlds=2)
    before = {m.step: m for m in review}
    after = {m.step: m for m in deep}
    assert before.keys() == after.keys() and len(deep.curve) == len(review.curve)
    judged = {s for s, m in before.items() if m.label in ("mistake", "blunder")}
    softened = {s for s in judged if after[s] is not before[s]}
    assert softened and all(after[s] is before[s] for s in before.keys() - judged)
    assert all(R.SEVERITY[after[s].label] <= R.SEVERITY[before[s].label] for s in before)
    deep_line = [make_strategy("merchant")] + [greedy_strategy] * 3
    for s in softened:
        alone = R.review_game(game, 0, worlds=4, min_worlds=2, steps={s}, plans=[deep_line],
                              plan_names=["seat 0 continued by merchant"], best_plans=True)
        assert (alone[0].label, alone[0].drop, alone[0].plan) == (
            after[s].label, after[s].drop, after[s].plan)
        assert R.SEVERITY[after[s].label] < R.SEVERITY[before[s].label]
    assert deep.errors < review.errors
    with pytest.raises(ValueError, match="the review is of seat 0, not seat 1"):
        R.deep_check(game, 1, review, bot="merchant", worlds=4, min_worlds=2)
    quiet = dataclasses.replace(review, decisions=tuple(
        m for m in review if m.label not in ("mistake", "blunder")))
    assert R.deep_check(game, 0, quiet, bot="merchant", worlds=4, min_worlds=2) is quiet
