"""The GC setting of issue 23 item 3 is set in batch worker processes only: importing musici
or running a batch in the caller's process leaves the caller's collector as it was."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from musici.decisions import Answer, Decision
from musici.sim import simulate
from musici.sim.worker_gc import WORKER_GC_THRESHOLD
from musici.strategies import random_strategy

PROBE = "MUSICI_TEST_GC_PROBE"


def gc_probe(view: Any, decision: Decision) -> Answer:
    """A bot (not one of musici's, so the batch runs it in a worker process) that writes its
    process's collector settings where the test reads them."""
    Path(os.environ[PROBE]).write_text(json.dumps(
        {"pid": os.getpid(), "threshold": gc.get_threshold(), "frozen": gc.get_freeze_count()}))
    return random_strategy(view, decision)


def test_importing_musici_leaves_the_collector_alone() -> None:
    code = ("import gc; before = gc.get_threshold()\n"
            "import musici, musici.sim, musici.strategies, musici.sim.worker_gc, musici.sim.pool\n"
            "print(before == gc.get_threshold(), gc.get_freeze_count())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["True", "0"]


def test_a_batch_in_this_process_leaves_the_collector_alone() -> None:
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    result = simulate(["random"] * 4, games=6, seed=1, jobs=1)  # musici's bots: in-process
    assert len(result.games) == 6
    assert (gc.get_threshold(), gc.get_freeze_count()) == (before, frozen)


def test_a_worker_process_freezes_its_setup_and_raises_the_threshold(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    probe = tmp_path / "gc.json"
    monkeypatch.setenv(PROBE, str(probe))
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    result = simulate([gc_probe, "random", "random"], games=2, seed=3, jobs=1)
    assert len(result.games) == 2 and result.errors.empty
    seen = json.loads(probe.read_text())
    assert seen["pid"] != os.getpid()  # played in a worker
    assert tuple(seen["threshold"]) == WORKER_GC_THRESHOLD != before
    assert seen["frozen"] > 1000  # the worker's setup: musici, pandas and all
    assert (gc.get_threshold(), gc.get_freeze_count()) == (before, frozen)  # the driver's own
