"""Looping, slow, sleeping, stubborn and memory-hungry bots: the batch finishes, each is reported."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from musici.cli import main
from musici.playtest.compare import compare
from musici.sim import game_seed, simulate
from musici.sim.limits import Limits


def _misbehaves(view) -> bool:
    return view.seat == 0 and view.month == 2


def looping(view, decision):
    while _misbehaves(view):
        pass
    return decision.random_answer(view.rng)


def slow(view, decision):
    if _misbehaves(view):
        time.sleep(0.5)
    return decision.random_answer(view.rng)


def sleeping(view, decision):
    if _misbehaves(view):
        time.sleep(10_000)
    return decision.random_answer(view.rng)


def stubborn(view, decision):
    """Swallows every stop and goes on looping: only killing its worker ends it."""
    while _misbehaves(view):
        try:
            while True:
                pass
        except BaseException:
            pass
    return decision.random_answer(view.rng)


def hog(view, decision):
    blocks = []
    while _misbehaves(view):
        blocks.append(bytearray(50 * 2**20))
    return decision.random_answer(view.rng)


@pytest.mark.parametrize(("bot", "limits", "words"), [
    (looping, {"decision_seconds": 0.2}, "0.2 s per decision"),
    (slow, {"decision_seconds": 0.2}, "0.2 s per decision"),
    (sleeping, {"game_seconds": 1.0}, "1 s per game"),
    (stubborn, {"decision_seconds": 0.2}, "ignored the stop"),
    (hog, {"memory_mb": 200}, "memory limit of 200 MB"),
])
def test_a_bot_breaking_a_limit_costs_only_its_game(bot, limits, words) -> None:
    result = simulate([bot, "random", "random"], games=6, seed=3, jobs=2, limits=limits,
                      progress=False)
    # Entry 0 sits in seat 0 in games 0 and 3 (rotation by one seat per game).
    assert result.errors.game.tolist() == [0, 3]
    assert result.errors.seed.tolist() == [game_seed(3, 0), game_seed(3, 3)]
    assert result.errors.error.str.contains(words, regex=False).all(), result.errors.error.tolist()
    assert sorted(result.games.game) == [1, 2, 4, 5]


def test_limits_on_one_job_still_use_a_worker_process() -> None:
    result = simulate([looping, "random", "random"], games=3, seed=1, jobs=1,
                      limits={"decision_seconds": 0.2}, progress=False)
    assert result.errors.game.tolist() == [0]


def test_compare_applies_limits_to_both_arms() -> None:
    c = compare({"players": [looping, "random", "random"]},
                {"players": ["random", "random", "random"]}, games=3, jobs=2,
                limits={"decision_seconds": 0.2}, progress=False)
    assert c.base.errors.game.tolist() == [0]
    assert c.variant.errors.empty


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"decision_seconds": 0}, "decision_seconds must be a positive number"),
    ({"game_seconds": float("nan")}, "game_seconds must be a positive number"),
    ({"memory_mb": 10}, "memory_mb must be an integer of at least 50"),
])
def test_bad_limits_are_refused(kwargs, words) -> None:
    with pytest.raises(ValueError, match=words):
        Limits(**kwargs)


BOT_FILE = """
def strategy(view, decision):
    while view.seat == 0 and view.month == 2:
        pass
    return decision.random_answer(view.rng)
"""


def test_cli_time_limit_reports_the_game(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    bot = tmp_path / "looper.py"
    bot.write_text(BOT_FILE)
    code = main(["simulate", "--players", f"{bot}:strategy,random,random", "--games", "3",
                 "--jobs", "1", "--quiet", "--decision-time", "0.2"])
    captured = capsys.readouterr()
    assert code == 0
    assert "1 games failed" in captured.err and "0.2 s per decision" in captured.err
    assert main(["simulate", "--games", "3", "--decision-time", "-1", "--quiet"]) == 2
    assert "decision_seconds must be a positive number" in capsys.readouterr().err
