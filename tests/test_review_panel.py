"""The stepper's review tab (issue 18 item 3), kernel side: the evaluation graph, the flagged
decisions, a click on the graph or a flag jumps the stepper, "retry from here" keeps the
played line as a variation, and the review runs with a progress bar.

The review is a stand-in here (``fake_review``: labels and a curve at the seat's real
decision steps), so these tests are fast and check the panel, not the estimates."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Any

import pytest

from musici.analysis.review import Review, lineup_options, review_game, why_text
from musici.rules import RuleSet
from musici.widgets import GameStepper
from musici.widgets.history import MAIN
from musici.widgets.review_panel import (
    CURVE,
    FLAGS,
    SYMBOLS,
    LinesView,
    ReviewPanel,
    flagged,
    review_points,
    why_words,
)

BOTS = ("greedy", "greedy", "random", "greedy")
SEAT = 0
SHORT = RuleSet.from_options({"RULING-MONTHS": 4})  # a short game keeps these tests quick


@pytest.fixture
def stepper() -> GameStepper:
    stepper = GameStepper(players=BOTS, seed=3, rules=SHORT)
    stepper.advance("end")
    assert stepper.game.finished
    stepper.review_panel.background = False
    return stepper


def seat_steps(stepper: GameStepper, seat: int = SEAT, several: bool = True) -> list[int]:
    """Steps where ``seat`` decided (with several options when ``several``)."""
    out = []
    for k, g in enumerate(stepper.history.snaps[:-1]):
        d = g.decision
        if d is not None and d.player == seat and (
                not several or (d.space == "choice" and len(d.options) > 1)):
            out.append(k)
    return out


def fake_review(stepper: GameStepper, labels: dict[int, str] | None = None) -> Any:
    """A review-like object: a curve at each of the seat's decisions, some labelled."""
    steps = seat_steps(stepper, several=False)
    choices = seat_steps(stepper)
    labels = labels if labels is not None else {choices[1]: "inaccuracy", choices[3]: "mistake",
                                                choices[5]: "blunder"}
    snaps = stepper.history.snaps
    decisions = []
    for k in steps:
        d = snaps[k].decision
        played = snaps[k + 1].answers[-1]
        best = next((o for o in d.options if o != played), played) if d.space == "choice" else played
        decisions.append(SimpleNamespace(step=k, label=labels.get(k), played=played, best=best,
                                         drop=0.2 if k in labels else 0.0, drop_low=0.1,
                                         drop_high=0.3, month=snaps[k].month,
                                         phase=snaps[k].phase, kind=d.kind, rule=d.rule))
    curve = [(k, 0.25 + 0.5 * i / len(steps), 0.1 + 0.5 * i / len(steps),
              0.4 + 0.5 * i / len(steps)) for i, k in enumerate(steps)]
    return SimpleNamespace(decisions=tuple(decisions), curve=tuple(curve))


def use(stepper: GameStepper, review: Any, calls: list | None = None) -> None:
    def fn(game, seat, progress, options):
        if calls is not None:
            calls.append((game.step, seat, dict(options)))
        for i in range(4):
            progress(i + 1, 4)
        return review
    stepper.review_panel.review_fn = fn


def click(fig: Any, trace_name: str, index: int) -> None:
    """What the page sends when a point of ``trace_name`` is clicked."""
    trace = next(i for i, t in enumerate(fig.data) if t.name == trace_name)
    fig._js2py_pointsCallback = {
        "event_type": "plotly_click",
        "points": {"xs": [fig.data[trace].x[index]], "ys": [fig.data[trace].y[index]],
                   "point_indexes": [index], "trace_indexes": [trace]},
        "device_state": None, "selector": None}


def test_review_button_draws_the_graph_and_the_flags(stepper: GameStepper) -> None:
    review = fake_review(stepper)
    calls: list = []
    use(stepper, review, calls)
    stepper.review_panel.options = {"max_worlds": 4}
    stepper.buttons["review"].click()
    panel = stepper.review_panel
    assert calls == [(stepper.history.last, SEAT, {"max_worlds": 4})]  # the whole line
    assert stepper.tabs.selected_index == 3
    fig = panel.figure
    curve = next(t for t in fig.data if t.name == CURVE)
    assert list(curve.x) == [p.step for p in review_points(review)] == seat_steps(stepper, several=False)
    marks = next(t for t in fig.data if t.name == FLAGS)
    assert list(marks.text) == ["?!", "?", "??"]
    assert len(panel.rows.children) == 3
    texts = [row.children[0].value for row in panel.rows.children]
    assert "inaccuracy" in texts[0] and "mistake" in texts[1] and "blunder" in texts[2]
    assert all("better:" in t and "0.10 to 0.30 lost" in t for t in texts)
    assert "1 inaccuracy, 1 mistake, 1 blunder" in panel.summary.value
    assert panel.progress.layout.display == "none"  # done


def test_clicking_a_point_jumps_the_stepper(stepper: GameStepper) -> None:
    use(stepper, fake_review(stepper))
    stepper.review()
    fig = stepper.review_panel.figure
    curve = next(t for t in fig.data if t.name == CURVE)
    target = curve.x[2]
    assert stepper.history.pos != target
    click(fig, CURVE, 2)
    assert stepper.history.pos == target and stepper.slider.value == target
    now = next(t for t in fig.data if t.name == "shown step")
    assert list(now.x) == [target]
    # a flag's marker and its "go to step" button jump too
    flag = flagged(stepper.review_panel.review)[1]
    click(fig, FLAGS, 1)
    assert stepper.history.pos == flag.step
    stepper.go(0)
    stepper.review_panel.rows.children[2].children[1].click()
    assert stepper.history.pos == flagged(stepper.review_panel.review)[2].step


def test_retry_from_here_keeps_the_played_line(stepper: GameStepper) -> None:
    use(stepper, fake_review(stepper))
    stepper.review()
    played = list(stepper.history.snaps[-1].answers)
    last = stepper.history.last
    flag = flagged(stepper.review_panel.review)[1]
    assert stepper.lines_view.widget.layout.display != "flex"  # one line: hidden
    stepper.review_panel.rows.children[1].children[2].click()  # retry from here
    history = stepper.history
    assert history.current != MAIN and history.pos == flag.step == history.last
    assert history.lines[MAIN].last == last and history.lines[MAIN].snaps[-1].answers == played
    assert "retrying from step" in stepper.status.value
    assert "is a bot here" in stepper.status.value  # BOTS: seat 0 is not played here
    lines = stepper.lines_view
    assert lines.widget.layout.display == "flex" and len(lines.select.options) == 2
    assert lines.select.options[0][0].startswith("main line")
    assert lines.select.value == history.current
    # the seat answers differently on the new line and the bots play on
    d = stepper.game.decision
    other = next(o for o in d.options if o != played[flag.step])
    stepper.set_stand_in(False)
    stepper.humans[SEAT] = True  # the reviewed seat is played here, as a learner would
    stepper.answer(other)
    assert history.snaps[flag.step + 1].answers[-1] == other
    assert "1 step" in lines.select.options[1][0] or "steps of its own" in lines.select.options[1][0]
    # switching back through the lines menu shows the played line, exactly
    lines.select.value = MAIN
    assert history.current == MAIN and history.pos == flag.step
    assert history.snaps[-1].answers == played and history.last == last
    stepper.go(last)
    assert stepper.game.answers == played and stepper.game.finished


def test_clicking_the_graph_after_a_retry_goes_back_to_the_reviewed_line(
        stepper: GameStepper) -> None:
    use(stepper, fake_review(stepper))
    stepper.review()
    flag = flagged(stepper.review_panel.review)[0]
    stepper.review_panel.retry(flag.step)
    d = stepper.game.decision
    stepper.history.answer(flag.best)  # seat 0 answers otherwise (fake_review's "best")
    assert flag.best != flag.played and d.normalize(flag.best) == flag.best
    stepper.advance("end")  # the bots (seat 0 included) play the new line on
    new = stepper.history.current
    assert new != MAIN
    fig = stepper.review_panel.figure
    curve = next(t for t in fig.data if t.name == CURVE)
    click(fig, CURVE, len(curve.x) - 1)
    assert stepper.history.current == MAIN and stepper.history.pos == curve.x[-1]
    assert new in stepper.history.lines  # the retry line is kept as a variation


def test_progress_and_a_stale_review(stepper: GameStepper) -> None:
    panel = stepper.review_panel
    seen = []

    def slow(game, seat, progress, options):
        for i in range(3):
            progress(i, 3)
            seen.append((panel.progress.value, panel.progress.max,
                         panel.progress.layout.display))
        return fake_review(stepper, labels={})

    panel.review_fn = slow
    stepper.review()
    assert seen == [(0, 3, "flex"), (1, 3, "flex"), (2, 3, "flex")]
    assert panel.progress.layout.display == "none"
    assert "no inaccuracy, mistake or blunder was flagged" in panel.rows.children[0].value
    # a result that comes back after a newer review started is dropped
    panel.review_fn = lambda game, seat, progress, options: fake_review(stepper)
    panel.background = True
    old_run = panel._run
    panel._run += 5  # as if the user pressed review again while this one ran
    panel.start(SEAT)
    panel.wait(30)
    assert panel._run == old_run + 6 and panel.flags  # the newest run is shown


def test_background_review_keeps_the_stepper_usable_and_shows_errors(
        stepper: GameStepper) -> None:
    panel = stepper.review_panel
    panel.background = True

    def broken(game, seat, progress, options):
        raise ValueError("no worlds left")

    panel.review_fn = broken
    stepper.review()
    panel.wait(30)
    assert "the review failed: ValueError: no worlds left" in panel.summary.value
    stepper.go(5)  # still usable
    assert stepper.history.pos == 5


def test_review_points_reads_every_curve_spelling() -> None:
    objs = [SimpleNamespace(step=3, win_share=0.5, win_low=0.4, win_high=0.6)]
    assert review_points(SimpleNamespace(curve=objs))[0].high == 0.6
    assert review_points(SimpleNamespace(curve=[(2, 0.3)]))[0].low is None
    assert review_points(SimpleNamespace(curve=[(2, (0.3, 0.2, 0.4))]))[0].low == 0.2
    assert [p.step for p in review_points(SimpleNamespace(curve={9: 0.1, 4: 0.2}))] == [4, 9]


def test_lines_view_alone(stepper: GameStepper) -> None:
    view = LinesView(stepper)
    assert view.widget.layout.display == "none"
    stepper.history.retry(10)
    view.update()
    assert [v for _, v in view.select.options] == [MAIN, stepper.history.current]
    assert "nothing played yet" in view.select.options[1][0]
    assert SYMBOLS == {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def test_panel_without_a_stepper_history_is_refused() -> None:
    with pytest.raises(AttributeError):
        ReviewPanel(object(), background=False).start(0)


def test_the_real_review_in_the_panel(stepper: GameStepper) -> None:
    """musici.analysis.review.review_game (the one evaluation) read by the panel: a curve
    point per reviewed decision, the review's labels and words, progress to the end."""
    steps = set(seat_steps(stepper)[:4])
    panel = stepper.review_panel
    panel.options = {"worlds": 2, "min_worlds": 2, "steps": steps}
    seen: list[tuple[int, int]] = []
    panel.progress.observe(lambda c: seen.append((c["new"], panel.progress.max)), names="value")
    stepper.review(SEAT)
    review = panel.review
    assert isinstance(review, Review) and review.seat == SEAT
    assert [p.step for p in panel.points] == sorted(p.step for p in review.curve)
    assert {p.step for p in panel.points} <= steps and panel.points
    assert [(f.step, f.label) for f in panel.flags] == sorted(
        (m.step, m.label) for m in review.flagged)
    assert seen and seen[-1] == (stepper.history.last, stepper.history.last)
    curve = next(t for t in panel.figure.data if t.name == CURVE)
    assert list(curve.y) == [p.win_share for p in sorted(review.curve, key=lambda p: p.step)]
    # the same review, its words: a flag row says why in the review's own text
    m = review.decisions[0]
    # played out as the game was played (the panel's default): the stepper's own bots
    assert panel.bots() == list(BOTS)
    direct = review_game(stepper.game, SEAT, worlds=2, min_worlds=2, steps=steps,
                         **lineup_options(BOTS, SEAT))
    assert [(d.step, d.drop) for d in direct.decisions] == [(d.step, d.drop)
                                                           for d in review.decisions]
    labelled = dataclasses.replace(m, label="mistake")
    flag = flagged(SimpleNamespace(decisions=[labelled]))[0]
    assert flag.played == m.chosen and flag.best == m.best and flag.drop == m.drop
    assert why_words(stepper.game, flag) == why_text(stepper.game, labelled) != ""


def test_a_new_game_clears_the_review(stepper: GameStepper) -> None:
    use(stepper, fake_review(stepper))
    stepper.review()
    panel = stepper.review_panel
    assert panel.figure is not None and panel.rows.children
    stepper.restart(seed=4)
    assert panel.review is None and panel.figure is None and not panel.rows.children
    assert panel.graph.layout.display == "none" and panel.summary.value == ""


def test_a_variation_of_a_variation_names_its_parent(stepper: GameStepper) -> None:
    history = stepper.history

    def answer_otherwise(step: int) -> int:
        for k in range(step, history.last):
            d = history.snaps[k].decision
            if d.space == "choice" and len(d.options) > 1:
                history.go(k)
                played = history.snaps[k + 1].answers[-1]
                history.answer(next(o for o in d.options if o != played))
                for _ in range(15):
                    history.step(stepper.strategies)
                return k
        pytest.fail("no choice left")

    k1 = answer_otherwise(10)
    first = history.current
    k2 = answer_otherwise(k1 + 3)
    second = history.current
    stepper.lines_view.update()
    labels = {v: k for k, v in stepper.lines_view.select.options}
    assert labels[first].startswith(f"line {first}: from step {k1}, ")
    assert "of line" not in labels[first]
    assert labels[second].startswith(f"line {second}: from step {k2} of line {first}, ")
    assert history.lines[second].parent == first


def test_a_review_that_ends_after_a_new_game_is_not_shown(stepper: GameStepper) -> None:
    panel = stepper.review_panel
    review = fake_review(stepper)

    def restarting(game, seat, progress, options):
        stepper.restart(seed=4)  # the learner starts a new game while the review runs
        return review

    panel.review_fn = restarting
    stepper.review()
    assert panel.review is None and panel.figure is None and not panel.rows.children
    assert panel.progress.layout.display == "none"


def test_a_learner_retries_a_flagged_decision_and_keeps_the_game_played() -> None:
    """Seat 0 played by a person (here: greedy answers through the stepper), reviewed;
    "retry from here" on a flagged decision shows that decision's controls again."""
    from musici.strategies import greedy_strategy

    stepper = GameStepper(players=("human", "greedy", "random", "greedy"), seed=5,
                          rules=SHORT)
    stepper.review_panel.background = False
    while not stepper.game.finished:
        d = stepper.game.decision
        if stepper.humans[d.player]:
            stepper.answer(greedy_strategy(stepper.game.view(d.player), d))
        else:
            stepper.advance("end")
    played = list(stepper.game.answers)
    use(stepper, fake_review(stepper))
    stepper.review()
    flag = flagged(stepper.review_panel.review)[2]
    stepper.review_panel.rows.children[2].children[2].click()  # retry from here
    assert stepper.history.pos == flag.step and stepper.game.decision.player == SEAT
    assert stepper.controls.widget.layout.display == "flex"  # seat 0 answers again
    assert "answer again above" in stepper.status.value
    stepper.answer(flag.best)
    assert stepper.history.current != MAIN
    assert stepper.history.snaps[flag.step + 1].answers[-1] == flag.best
    assert stepper.history.lines[MAIN].snaps[-1].answers == played
    assert len(stepper.lines_view.select.options) == 2


def test_next_and_previous_flagged_decision(stepper: GameStepper) -> None:
    use(stepper, fake_review(stepper))
    stepper.review()
    panel = stepper.review_panel
    steps = [f.step for f in panel.flags]
    stepper.go(0)
    for step in steps:
        panel.next_flag.click()
        assert stepper.history.pos == step
    assert panel.to_flag(+1) is None and stepper.history.pos == steps[-1]  # none after
    panel.prev_flag.click()
    assert stepper.history.pos == steps[-2]
    assert panel.tools.layout.display == "flex" and not panel.next_flag.disabled


def test_the_deep_check_box_judges_the_flags_again(stepper: GameStepper, monkeypatch) -> None:
    """The panel's deep box: the line-up review is handed to review.deep_check with the
    same options (the line-up, its plans, the worlds) and what it returns is shown;
    options["deep"] names the bot, the ticked box asks for ismcts."""
    from musici.analysis import review as R

    panel = stepper.review_panel
    assert not panel.deep.value  # off by default: minutes, not seconds
    opts = {"worlds": 4, "min_worlds": 2}
    asked: list[tuple[str, Any, dict]] = []

    def deep_check(game, seat, review, bot, **kw):
        asked.append((bot, review, kw))
        return dataclasses.replace(review, decisions=review.decisions[:1])

    monkeypatch.setattr(R, "deep_check", deep_check)
    panel.options = {**opts, "deep": "merchant"}
    stepper.review(SEAT)
    (bot, plain, kw), = asked
    assert bot == "merchant" and panel.review.decisions == plain.decisions[:1]
    expected = review_game(stepper.game, SEAT, **opts, **lineup_options(BOTS, SEAT))
    assert [(m.step, m.label) for m in plain] == [(m.step, m.label) for m in expected]
    assert kw["worlds"] == 4 and kw["policy_name"] == lineup_options(BOTS, SEAT)["policy_name"]
    assert kw["plan_names"] == lineup_options(BOTS, SEAT)["plan_names"] and "deep" not in kw
    panel.options = opts
    panel.deep.value = True
    stepper.review(SEAT)
    assert [a[0] for a in asked] == ["merchant", R.DEEP_BOT]
    panel.deep.value = False
    stepper.review(SEAT)
    assert len(asked) == 2  # unticked: no deep check


def test_options_naming_the_play_out_take_it_over_whole(stepper: GameStepper) -> None:
    """review_panel.options with policies (or plans) replace the line-up, never half of
    it: no line-up name on other bots' play-outs, no line-up plans beside them."""
    from musici.strategies.greedy import greedy_strategy

    panel = stepper.review_panel
    steps = set(seat_steps(stepper)[:3])
    panel.options = {"worlds": 2, "min_worlds": 2, "steps": steps,
                     "policies": [greedy_strategy] * 4}
    stepper.review(SEAT)
    assert panel.review is not None and len(panel.review) == len(steps)
    assert {m.estimates.policy.split(";")[0] for m in panel.review} == {"per-seat bots"}
    panel.options = {"worlds": 2, "min_worlds": 2, "steps": steps, "plans": []}
    stepper.review(SEAT)  # no plans at all: it used to fail on the line-up's plan_names
    assert panel.review is not None and not any(m.plan for m in panel.review)
