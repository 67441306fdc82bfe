"""Stopping a batch: quick, no orphan workers, no temp leftovers, a partial result that resumes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from conftest import alive

from musici.sim import SimulationResult, simulate
from tests.paced_strategy import PACE_ENV

# A paced player keeps the batch running for seconds on any machine (an unpaced one
# finished 800 two-month games in 0.6 s, before the test could interrupt it). Pacing does
# not change a game, so the unpaced reference below must give the same frames.
PLAYER = f"{Path(__file__).with_name('paced_strategy.py')}:paced_random"
LINEUP = ",".join([PLAYER] * 4)
GAMES = 800
CMD = [sys.executable, "-m", "musici", "simulate", "--players", LINEUP, "--games", str(GAMES),
       "--months", "2", "--jobs", "2", "--seed", "4", "--quiet"]
PACED = {**os.environ, PACE_ENV: "0.0002"}  # about 10 s of games in all


# Not a speed check: the partial-result checks show the batch was stopped early; this
# generous bound (for a loaded machine) only catches a stop that hangs.
STOP_BOUND = 20

def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def start_and_wait_for_parts(tmp_path: Path) -> tuple[subprocess.Popen, list[int], Path]:
    out = tmp_path / "run"
    proc = subprocess.Popen([*CMD, "--out", str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=PACED)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        temps = list(tmp_path.glob(".run.tmp-*/games/*.parquet"))
        if temps:
            time.sleep(0.5)  # the driver has it recorded by now (workers write, then report)
            break
        time.sleep(0.05)
    else:
        proc.kill()
        pytest.fail("no chunk was written within 60 s")
    return proc, children(proc.pid), out


def reference() -> SimulationResult:
    return simulate(LINEUP, GAMES, seed=4, rules={"RULING-MONTHS": 2}, jobs=2, progress=False)


def same_frames(a: SimulationResult, b: SimulationResult) -> None:
    for name in SimulationResult.frames:
        fa, fb = getattr(a, name), getattr(b, name)
        if fa is None or fb is None:
            assert fa is None and fb is None, name
            continue
        pd.testing.assert_frame_equal(fa, fb, obj=name)


def stop(proc: subprocess.Popen, signum: int) -> float:
    t0 = time.monotonic()
    proc.send_signal(signum)
    proc.wait(timeout=30)
    return time.monotonic() - t0


def check_clean(tmp_path: Path, workers: list[int]) -> None:
    time.sleep(0.3)
    assert [w for w in workers if alive(w)] == [], "orphan worker processes"
    assert not list(tmp_path.glob(".run.tmp-*")), "temporary directory left behind"


def resume_and_compare(out: Path) -> None:
    partial = SimulationResult.read_parquet(out)
    assert not partial.complete
    assert 0 < len(partial.games) < GAMES
    # The line-up names a bot file: a resume runs it only when the user names it too.
    done = subprocess.run([sys.executable, "-m", "musici", "simulate", "--resume", str(out),
                           "--players", LINEUP, "--quiet", "--jobs", "2"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    final = SimulationResult.read_parquet(out)
    assert final.complete
    same_frames(final, reference())


def test_ctrl_c_stops_quickly_keeps_a_partial_result_and_resumes(tmp_path: Path) -> None:
    proc, workers, out = start_and_wait_for_parts(tmp_path)
    assert len(workers) == 2
    took = stop(proc, signal.SIGINT)
    err = proc.stderr.read()
    assert proc.returncode == 130, err
    assert took < STOP_BOUND
    assert "partial result" in err and "--resume" in err
    check_clean(tmp_path, workers)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] is False
    resume_and_compare(out)


@pytest.mark.parametrize("signum", [pytest.param(signal.SIGTERM, marks=pytest.mark.slow), "twice"])
def test_sigterm_and_a_double_ctrl_c_stop_cleanly(tmp_path: Path, signum) -> None:
    proc, workers, out = start_and_wait_for_parts(tmp_path)
    if signum == "twice":
        proc.send_signal(signal.SIGINT)
        time.sleep(0.02)
        took = stop(proc, signal.SIGINT)
    else:
        took = stop(proc, signum)
    err = proc.stderr.read()
    assert proc.returncode == 130, err  # not -2: the second Ctrl-C must not kill it by signal
    assert took < STOP_BOUND
    check_clean(tmp_path, workers)
    resume_and_compare(out)


@pytest.mark.slow
def test_sigkill_leaves_no_orphans_and_resumes_from_the_checkpoint(tmp_path: Path) -> None:
    proc, workers, out = start_and_wait_for_parts(tmp_path)
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob(".run.tmp-*/checkpoint.json")):
        assert time.monotonic() < deadline, "no checkpoint within 60 s"
        time.sleep(0.1)
    stop(proc, signal.SIGKILL)
    time.sleep(1.5)  # the workers' parent-death signal, or their one-second parent watch
    assert [w for w in workers if alive(w)] == []
    assert not out.exists()  # never a half result in place
    # The line-up names a bot file: a resume runs it only when the user names it too.
    done = subprocess.run([sys.executable, "-m", "musici", "simulate", "--resume", str(out),
                           "--players", LINEUP, "--quiet", "--jobs", "2"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert not list(tmp_path.glob(".run.tmp-*"))
    final = SimulationResult.read_parquet(out)
    assert final.complete
    same_frames(final, reference())
