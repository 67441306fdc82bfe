"""No exit code 0 without the promised output (issue 20 item 18): a broken pipe inside musici
is an error; only a reader that left stdout (``musici play | head``) ends quietly."""

from __future__ import annotations

import subprocess
import sys

BROKEN_INSIDE = """
import sys
import musici.sim.cli as sim_cli
def broken(*args, **kwargs):
    raise BrokenPipeError(32, "Broken pipe")  # as from a dead worker's pipe
sim_cli.simulate_to = broken
from musici.cli import main
sys.exit(main(["simulate", "--games", "2", "--months", "1", "--jobs", "1", "--quiet",
               "--out", sys.argv[1]]))
"""


def test_a_pipe_broken_inside_musici_is_an_error_not_exit_0(tmp_path) -> None:
    done = subprocess.run([sys.executable, "-c", BROKEN_INSIDE, str(tmp_path / "o")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("musici: error:"), done.stderr
    assert "Broken pipe" in lines[0]


def test_a_reader_that_leaves_still_ends_quietly() -> None:
    play = subprocess.Popen([sys.executable, "-m", "musici", "play", "--seed", "7"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert play.stdout is not None and play.stderr is not None
    play.stdout.readline()
    play.stdout.close()  # as `| head -1` does
    err = play.stderr.read().decode()
    assert play.wait(timeout=120) == 0, err
    assert err == ""


def test_user_bots_get_generous_limits_by_default_and_musicis_own_none(tmp_path) -> None:
    """A bot of the user's that freezes its worker is only caught against a deadline, so the
    command gives one by default (issue 20 item 12); musici's own bots run unwatched."""
    import argparse

    from musici.sim.cli import (
        USER_BOT_DECISION_SECONDS,
        USER_BOT_GAME_SECONDS,
        _batch_options,
        _limits,
    )

    parser = argparse.ArgumentParser()
    _batch_options(parser)
    bot = tmp_path / "bot.py"
    bot.write_text("def strategy(view, decision):\n    return decision.random_answer(view.rng)\n")
    mine = _limits(parser.parse_args(["--players", f"{bot},random,random"]))
    assert (mine.decision_seconds, mine.game_seconds) == (USER_BOT_DECISION_SECONDS,
                                                          USER_BOT_GAME_SECONDS)
    own = _limits(parser.parse_args(["--players", "greedy,random,random"]))
    assert not own.any
    off = _limits(parser.parse_args(["--players", f"{bot},random,random", "--decision-time", "0",
                                     "--game-time", "0"]))
    assert not off.any
    asked = _limits(parser.parse_args(["--players", f"{bot},random,random", "--decision-time",
                                       "2"]))
    assert asked.decision_seconds == 2 and asked.game_seconds == USER_BOT_GAME_SECONDS
