"""The hint says how far its play-outs are while they run (issue 18 item 2)."""

from __future__ import annotations

from musici.widgets import GameStepper


def test_the_hint_panel_shows_progress_then_the_hint() -> None:
    stepper = GameStepper(players=("human", "greedy", "greedy", "greedy"), seed=7)
    assert stepper.game.decision is not None and stepper.humans[stepper.game.decision.player]
    shown: list[str] = []
    stepper.hints.observe(lambda change: shown.append(change["new"]), names="value")
    html = stepper.hint()
    progress = [v for v in shown if "hint-progress" in v]
    assert progress and "sampled worlds" in progress[0]
    assert shown[-1] == html and "hint-progress" not in html
