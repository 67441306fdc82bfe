"""The driver is the watchdog: hung, frozen, stubborn, forking and exiting bots (issue 20, items 12-15, 18).

A bot is user code. Whatever it does (hold the GIL in C, stop itself with SIGSTOP, swallow
the stop and answer anyway, fork, ``os._exit``, leave a thread running), the batch ends,
the game is in ``errors`` with its seed and the limit, the other games are those of a
clean batch, and nothing the batch started is left running.

Tests that could hang on a broken driver run under a deadline (an alarm in this process,
or a timeout on a subprocess that is then killed with its whole session), so they fail
instead of hanging.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from conftest import alive

from musici.sim import game_seed, simulate
from musici.sim.limits import MAX_MEMORY_MB, Limits
from musici.sim.pool import WorkerFailed

MONTHS = {"RULING-MONTHS": 3}


class Hangs(AssertionError):
    pass


@contextlib.contextmanager
def within(seconds: float) -> Iterator[None]:
    """Fail (rather than hang) if the block is still running after ``seconds``."""

    def expire(signum: int, frame: object) -> None:
        # Not TimeoutError: an OSError, which the code under test may take for a broken pipe.
        raise Hangs(f"still running after {seconds:g} s: the batch hangs")

    # The alarm goes to this thread itself: a process-wide one may be taken by any thread
    # (a library's thread pool), and then a read blocked in this one is never interrupted.
    main = threading.get_ident()
    timer = threading.Timer(seconds, signal.pthread_kill, (main, signal.SIGALRM))
    timer.daemon = True
    previous = signal.signal(signal.SIGALRM, expire)
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        signal.signal(signal.SIGALRM, previous)


def run_cli(args: list[str], timeout: float = 40) -> subprocess.CompletedProcess[str]:
    """``musici ARGS`` in a session of its own; on a timeout it is killed with all it started."""
    proc = subprocess.Popen([sys.executable, "-m", "musici", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"musici {' '.join(args)} still running after {timeout:g} s: it hangs")
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _misbehaves(view) -> bool:
    return view.seat == 0 and view.month == 2


def holds_the_gil(view, decision):
    if _misbehaves(view):
        re.match(r"(a+)+$", "a" * 40 + "b")  # catastrophic backtracking, all in C, GIL held
    return decision.random_answer(view.rng)


def stops_itself(view, decision):
    if _misbehaves(view):
        os.kill(os.getpid(), signal.SIGSTOP)
    return decision.random_answer(view.rng)


def swallows_and_answers(view, decision):
    if _misbehaves(view):
        with contextlib.suppress(BaseException):  # the stop: caught, and an answer given anyway
            time.sleep(3)
    return decision.random_answer(view.rng)


def swallows_and_raises(view, decision):
    if _misbehaves(view):
        try:
            time.sleep(3)
        except BaseException:
            raise ValueError("not a timeout, says the bot") from None
    return decision.random_answer(view.rng)


def _survivors_are_a_clean_batch(result, failed: list[int], games: int, seed: int) -> None:
    assert result.errors.game.tolist() == failed
    assert result.errors.seed.tolist() == [game_seed(seed, g) for g in failed]
    clean = simulate(["random", "random", "random"], games=games, seed=seed, jobs=1,
                     rules=MONTHS, progress=False)
    kept = [g for g in range(games) if g not in failed]
    assert result.games.game.tolist() == kept
    for name in ("players", "months"):
        mine = getattr(result, name).drop(columns="strategy").reset_index(drop=True)
        theirs = getattr(clean, name)
        theirs = theirs[theirs.game.isin(kept)].drop(columns="strategy").reset_index(drop=True)
        pd.testing.assert_frame_equal(mine, theirs)


# Item 12: a bot frozen in C code or by SIGSTOP; its worker's own watchdog cannot act.
@pytest.mark.parametrize(("bot", "limits", "words"), [
    (holds_the_gil, {"decision_seconds": 0.5}, "0.5 s per decision"),
    (stops_itself, {"decision_seconds": 0.5}, "0.5 s per decision"),
    (stops_itself, {"game_seconds": 1.0}, "1 s per game"),
])
def test_a_frozen_bot_is_killed_by_the_driver_and_its_game_reported(bot, limits, words) -> None:
    # One worker, one chunk of six games with the bot in seat 0 in games 0 and 3: each
    # freeze costs its own game only; the games around it are played again and kept.
    with within(30):
        result = simulate([bot, "random", "random"], games=6, seed=3, jobs=1, limits=limits,
                          rules=MONTHS, progress=False)
    _survivors_are_a_clean_batch(result, [0, 3], 6, 3)
    assert result.errors.error.str.contains(words, regex=False).all(), result.errors.error.tolist()
    assert result.errors.error.str.contains("killed").all()


GIL_BOT = """
import re

def strategy(view, decision):
    if view.seat == 0 and view.month == 2:
        re.match(r"(a+)+$", "a" * 40 + "b")
    return decision.random_answer(view.rng)
"""


def test_cli_a_bot_holding_the_gil_does_not_hang_the_batch(tmp_path: Path) -> None:
    bot = tmp_path / "regex_bot.py"
    bot.write_text(GIL_BOT)
    done = run_cli(["simulate", "--players", f"{bot}:strategy,random,random", "--games", "3",
                    "--months", "3", "--quiet", "--decision-time", "0.5"])
    assert done.returncode == 0, done.stderr
    assert "1 games failed" in done.stderr
    assert f"game 0 (seed {game_seed(0, 0)}): a bot exceeded the time limit of 0.5 s per decision" \
        in done.stderr


# Item 13: the stop is swallowed; the game is a breach all the same.
@pytest.mark.parametrize("bot", [swallows_and_answers, swallows_and_raises])
def test_a_swallowed_stop_is_still_reported_as_the_breach(bot) -> None:
    with within(30):
        result = simulate([bot, "random", "random"], games=6, seed=3, jobs=2,
                          limits={"decision_seconds": 0.3}, rules=MONTHS, progress=False)
    _survivors_are_a_clean_batch(result, [0, 3], 6, 3)
    assert result.errors.error.str.contains("0.3 s per decision", regex=False).all(), \
        result.errors.error.tolist()


FORKER = """
import os, re, time

def strategy(view, decision):
    if view.seat == 0 and view.month == 2 and not getattr(strategy, "forked", False):
        strategy.forked = True  # once per worker process
        pid = os.fork()
        if pid == 0:
            time.sleep(300)
            os._exit(0)
        with open({pids!r}, "a") as f:
            f.write(f"{{pid}}\\n")
        if {hang!r}:
            re.match(r"(a+)+$", "a" * 40 + "b")
    return decision.random_answer(view.rng)
"""


# Item 14: what a bot forks goes with its worker's process group.
@pytest.mark.parametrize(("hang", "limits"), [(False, None), (True, {"decision_seconds": 0.5})])
def test_a_bots_forked_child_is_gone_after_the_batch(tmp_path: Path, hang, limits) -> None:
    pids_file = tmp_path / "pids"
    bot = tmp_path / "forker.py"
    bot.write_text(FORKER.format(pids=str(pids_file), hang=hang))
    try:
        with within(30):
            result = simulate([f"{bot}:strategy", "random", "random"], games=6, seed=3, jobs=2,
                              limits=limits, rules=MONTHS, progress=False)
        assert len(result.games) + len(result.errors) == 6
        pids = [int(p) for p in pids_file.read_text().split()]
        assert pids
        until = time.monotonic() + 2  # SIGKILL is sent; give the kernel a moment to finish
        while any(alive(p) for p in pids) and time.monotonic() < until:
            time.sleep(0.05)
        assert not [p for p in pids if alive(p)], "a bot's forked child outlived the batch"
    finally:
        for p in [int(p) for p in pids_file.read_text().split()] if pids_file.exists() else []:
            with contextlib.suppress(OSError):
                os.kill(p, signal.SIGKILL)


EXITS = """
import os

def strategy(view, decision):
    if view.seat == 0 and view.month == 2:
        os._exit(3)
    return decision.random_answer(view.rng)
"""

THREAD = """
import threading, time

def strategy(view, decision):
    if view.seat == 0 and view.month == 2 and not getattr(strategy, "started", False):
        strategy.started = True
        threading.Thread(target=time.sleep, args=(10_000,)).start()  # not a daemon
    return decision.random_answer(view.rng)
"""

PID = """
import os

def strategy(view, decision):
    with open({path!r}, "a") as f:
        f.write(f"{{os.getpid()}}\\n")
    return decision.random_answer(view.rng)
"""


# Item 15: tiny batches and --jobs 1, with the CLI's default limits (none), in a worker.
@pytest.mark.parametrize("size", [["--games", "3"], ["--games", "8", "--jobs", "1"]])
def test_cli_os_exit_in_a_small_batch_is_a_reported_game(tmp_path: Path, size) -> None:
    bot = tmp_path / "exits.py"
    bot.write_text(EXITS)
    done = run_cli(["simulate", "--players", f"{bot}:strategy,random,random", *size,
                    "--months", "3", "--quiet"])
    assert done.returncode == 0, done.stderr
    assert f"game 0 (seed {game_seed(0, 0)}): its worker process died while playing it (exit code 3)" \
        in done.stderr


def test_cli_a_bots_thread_does_not_keep_a_small_batch_alive(tmp_path: Path) -> None:
    bot = tmp_path / "thread.py"
    bot.write_text(THREAD)
    done = run_cli(["simulate", "--players", f"{bot}:strategy,random,random", "--games", "3",
                    "--months", "3", "--quiet"], timeout=30)
    assert done.returncode == 0, done.stderr
    assert "3 games of" in done.stdout


@pytest.mark.parametrize("limits", [None, {"decision_seconds": 5.0}])
@pytest.mark.parametrize(("games", "jobs"), [(3, None), (8, 1)])
def test_a_bot_never_runs_in_the_driver(tmp_path: Path, limits, games, jobs) -> None:
    path = tmp_path / "pids"
    bot = tmp_path / "pid.py"
    bot.write_text(PID.format(path=str(path)))
    result = simulate([f"{bot}:strategy", "random", "random"], games=games, jobs=jobs,
                      limits=limits, rules=MONTHS, progress=False)
    assert result.errors.empty and len(result.games) == games
    assert str(os.getpid()) not in path.read_text().split()


def test_musicis_own_bots_without_limits_still_play_in_the_driver() -> None:
    # No start-up cost where there is nothing to guard against; same frames either way.
    here = simulate(["greedy", "random", "random"], games=3, seed=2, jobs=1, rules=MONTHS,
                    progress=False)
    pooled = simulate(["greedy", "random", "random"], games=3, seed=2, jobs=1, rules=MONTHS,
                      limits={"decision_seconds": 30.0, "game_seconds": 300.0}, progress=False)
    for name in here.frames:
        left, right = getattr(here, name), getattr(pooled, name)
        if left is not None:
            pd.testing.assert_frame_equal(left, right)


# Item 18: a memory limit no system can set is refused at once, saying why.
@pytest.mark.parametrize("value", [9_000_000_000_000, MAX_MEMORY_MB + 1])
def test_a_memory_limit_beyond_any_machine_is_refused(value) -> None:
    with pytest.raises(ValueError, match=rf"memory_mb must be an integer of at least 50 and at "
                                         rf"most {MAX_MEMORY_MB} .* got {value}"):
        Limits(memory_mb=value)
    assert Limits(memory_mb=MAX_MEMORY_MB).memory_mb == MAX_MEMORY_MB


def test_cli_a_memory_limit_beyond_any_machine_is_an_error(tmp_path: Path) -> None:
    done = run_cli(["simulate", "--games", "3", "--months", "3", "--quiet", "--memory-mb",
                    "9000000000000", "--out", str(tmp_path / "o")])
    assert done.returncode != 0
    assert "9000000000000" in done.stderr and f"at most {MAX_MEMORY_MB}" in done.stderr


def _refuse(megabytes: int) -> None:
    raise OverflowError("signed integer is greater than maximum")


def test_a_worker_that_cannot_start_is_an_error_not_an_empty_success(monkeypatch) -> None:
    # Workers are forked: the patched limit setter is theirs too.
    monkeypatch.setattr("musici.sim.limits.set_memory_limit", _refuse)
    with within(30), pytest.raises(WorkerFailed, match="could not start: OverflowError"):
        simulate(["random", "random", "random"], games=3, jobs=2, limits={"memory_mb": 100},
                 rules=MONTHS, progress=False)


# Second probe (issue 20), item A: a bot writes on its worker's pipe to the driver. The
# driver never blocks on a pipe: a message too long, not a message, or never finished gets
# its worker killed, and the game under way is reported with its seed.
HALF_MESSAGE = """
import gc, os, struct
from multiprocessing.connection import Connection

def strategy(view, decision):
    if view.seat == 0 and view.month == 2 and not getattr(strategy, "done", False):
        strategy.done = True  # once per worker process
        gc.unfreeze()  # workers freeze what set-up made (sim/worker_gc): the pipe too
        for o in gc.get_objects():
            if isinstance(o, Connection) and not o.closed:
                try:
                    os.write(o.fileno(), {data!r})
                except OSError:
                    pass
    return decision.random_answer(view.rng)
"""


@pytest.mark.parametrize("data", [
    struct.pack("!i", 1 << 30),  # a gigabyte announced: too long, at once
    struct.pack("!i", 1 << 20),  # a megabyte announced, never sent: unfinished
    struct.pack("!i", 8) + b"notapick",  # complete, but not a pickle
], ids=["oversized", "unfinished", "malformed"])
def test_a_bot_writing_on_its_workers_pipe_costs_its_game(tmp_path: Path, monkeypatch, data) -> None:
    monkeypatch.setattr("musici.sim.pool.STALL_SECONDS", 1.0, raising=False)
    bot = tmp_path / "halfmsg.py"
    bot.write_text(HALF_MESSAGE.format(data=data))
    with within(30):  # the driver used to block in recv() for ever
        result = simulate([f"{bot}:strategy", "random", "random"], games=6, seed=3, jobs=1,
                          rules=MONTHS, progress=False)
    # The bot writes once per worker process: in game 0, then in game 3 in the worker that
    # took over (games 1 and 2 are its first, but the bot is in seat 0 in games 0 and 3).
    _survivors_are_a_clean_batch(result, [0, 3], 6, 3)
    assert result.errors.error.str.contains("on its pipe to the driver").all(), \
        result.errors.error.tolist()


def test_cli_a_bot_writing_half_a_message_does_not_freeze_the_driver(tmp_path: Path) -> None:
    bot = tmp_path / "halfmsg.py"
    bot.write_text(HALF_MESSAGE.replace("view.seat == 0 and view.month == 2 and ", "")
                   .format(data=struct.pack("!i", 1 << 30)))
    done = run_cli(["simulate", "--players", f"{bot}:strategy,random,random", "--games", "1",
                    "--months", "1", "--decision-time", "1", "--game-time", "5", "--quiet",
                    "--jobs", "1"], timeout=60)
    assert done.returncode == 1, done.stderr  # it ends: its one game failed
    assert "1 games failed" in done.stderr
    assert f"game 0 (seed {game_seed(0, 0)}): its worker wrote a message announced as " \
        f"{1 << 30} bytes" in done.stderr


# Item D: a bot's child that makes a process group of its own (not a session) is still in
# its worker's session, and goes with it (and what it forked).
SETPGID = """
import os, time

def strategy(view, decision):
    if view.seat == 0 and view.month == 2 and not getattr(strategy, "forked", False):
        strategy.forked = True  # once per worker process
        pid = os.fork()
        if pid == 0:
            os.setpgid(0, 0)
            grandchild = os.fork()
            if grandchild == 0:  # in the child's group
                time.sleep(300)
                os._exit(0)
            with open({pids!r}, "a") as f:
                f.write(f"{{os.getpid()}} {{grandchild}}\\n")
            time.sleep(300)
            os._exit(0)
        until = time.monotonic() + 5  # the child's group is made and its child forked
        while time.monotonic() < until and os.getpgid(pid) != pid:
            time.sleep(0.01)
        time.sleep(0.1)
    return decision.random_answer(view.rng)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="sessions read from /proc")
def test_a_bots_child_in_a_process_group_of_its_own_is_gone_after_the_batch(tmp_path: Path) -> None:
    pids_file = tmp_path / "pids"
    bot = tmp_path / "setpgid.py"
    bot.write_text(SETPGID.format(pids=str(pids_file)))
    try:
        with within(30):
            result = simulate([f"{bot}:strategy", "random", "random"], games=6, seed=3, jobs=2,
                              rules=MONTHS, progress=False)
        assert result.errors.empty and len(result.games) == 6
        pids = [int(p) for p in pids_file.read_text().split()]
        assert len(pids) >= 2  # a child and its child, for each worker that forked
        until = time.monotonic() + 2
        while time.monotonic() < until and any(alive(p) for p in pids):
            time.sleep(0.05)
        assert not [p for p in pids if alive(p)], "a bot's child (own process group) outlived the batch"
    finally:
        for p in [int(p) for p in pids_file.read_text().split()] if pids_file.exists() else []:
            with contextlib.suppress(OSError):
                os.kill(p, signal.SIGKILL)


# Item C: in a worker (which ignores Ctrl-C: the driver stops the batch), a KeyboardInterrupt
# comes from a bot; it costs its game, like SystemExit.
INTERRUPTS = """
def strategy(view, decision):
    if view.seat == 0 and view.month == 2:
        raise KeyboardInterrupt("says the bot")
    return decision.random_answer(view.rng)
"""


def test_a_bot_raising_keyboard_interrupt_costs_only_its_game(tmp_path: Path) -> None:
    bot = tmp_path / "kb.py"
    bot.write_text(INTERRUPTS)
    with within(30):
        result = simulate([f"{bot}:strategy", "random", "random"], games=6, seed=3, jobs=2,
                          rules=MONTHS, progress=False)
    _survivors_are_a_clean_batch(result, [0, 3], 6, 3)
    assert result.errors.error.str.contains("a bot raised KeyboardInterrupt: says the bot").all(), \
        result.errors.error.tolist()


def test_cli_a_bot_raising_keyboard_interrupt_keeps_the_run(tmp_path: Path) -> None:
    bot = tmp_path / "kb.py"
    bot.write_text(INTERRUPTS)
    out = tmp_path / "kbout"
    done = run_cli(["simulate", "--players", f"{bot}:strategy,random,random", "--games", "12",
                    "--months", "3", "--jobs", "2", "--quiet", "--out", str(out)])
    assert done.returncode == 0, done.stderr
    assert "4 games failed" in done.stderr, done.stderr
    assert f"game 3 (seed {game_seed(0, 3)}): a bot raised KeyboardInterrupt" in done.stderr
    assert (out / "manifest.json").exists()


# Item B: the game's limit bounds the whole game, also code that runs after the bot has
# returned (the engine calls repr() on an illegal answer to say what it was). The worker
# stops it (a sleep), or the driver kills it at the game's deadline (a hold on the GIL),
# knowing the game from the beacon: nothing is replayed into the stall.
class _SleepyRepr:
    def __repr__(self) -> str:
        time.sleep(10**6)
        return "never"


class _GreedyRepr:
    def __repr__(self) -> str:
        re.match(r"(a+)+$", "a" * 40 + "b")  # in C, the GIL held: the worker's watchdog is stuck
        return "never"


def sleepy_answer(view, decision):
    return _SleepyRepr() if _misbehaves(view) else decision.random_answer(view.rng)


def greedy_answer(view, decision):
    return _GreedyRepr() if _misbehaves(view) else decision.random_answer(view.rng)


GAME_SECONDS = 2.0


@pytest.mark.parametrize("bot", [sleepy_answer, greedy_answer])
def test_the_game_limit_holds_after_the_bot_returns(bot) -> None:
    # Nine games on one worker, the culprit in seat 0 of games 0, 3 and 6. Each costs at
    # most its game's limit and the driver's grace: with the start-up, well under this
    # bound. Before, the only deadline was the chunk's (9 x (2 + 4) + 30 s), after which
    # every game was replayed alone, each stalling to its own chunk deadline (36 s).
    bound = 3 * (GAME_SECONDS + 4.0) + 10.0
    started = time.monotonic()
    with within(bound):
        result = simulate([bot, "random", "random"], games=9, seed=3, jobs=1, rules=MONTHS,
                          limits={"decision_seconds": 1.0, "game_seconds": GAME_SECONDS},
                          progress=False)
    assert time.monotonic() - started < bound
    _survivors_are_a_clean_batch(result, [0, 3, 6], 9, 3)
    assert result.errors.error.str.contains("2 s per game", regex=False).all(), \
        result.errors.error.tolist()
