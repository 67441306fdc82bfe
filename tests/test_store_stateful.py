"""The result store as a state machine (issue 20): random sequences of run, stop at a random
point, kill at a random point, resume, overwrite, read, tamper, a planted checkpoint and a
second writer. After every step:

- a complete result in DIR reads back equal to an uninterrupted run of its own config;
- a partial result reads back as a subset of that run, game for game;
- a stop or kill over a complete result keeps it (the old result, or the new complete one);
- nothing outside DIR and its own ``.DIR.*`` siblings changed, and no planted bot ran.

A "kill" is simulated in process: an exception no code catches is raised at the n-th
store write, fsync, directory swap or chunk, and the writer's clean-up is reduced to what
the kernel does for a SIGKILLed process (its lock is released, its files stay).

The default run takes a few hundred steps; ``make test-slow`` runs more than 2,000.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import tempfile
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

import musici.sim.store as store
import musici.sim.stream as stream
from musici.sim import SimulationResult, resume, simulate, simulate_to
from musici.sim.store import MANIFEST, ResultError, ResultWriter
from musici.sim.stream import Stopped

LINEUP = ["random"] * 3
RULES = {"RULING-MONTHS": 1}
BATCHES = [(4, 1), (7, 2), (10, 3)]  # (games, seed)
FRAMES = ("games", "players", "months", "concerts", "venues", "specials", "errors")
_references: dict[tuple[int, int], SimulationResult] = {}


def reference(games: int, seed: int) -> SimulationResult:
    if (games, seed) not in _references:
        _references[(games, seed)] = simulate(LINEUP, games, seed=seed, rules=RULES, jobs=1,
                                              progress=False)
    return _references[(games, seed)]


class Killed(BaseException):
    """The process died here (nothing catches it; see the module docstring)."""


class Faults:
    """Patches the store so the n-th watched call stops (SIGINT) or kills the run."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.mp = monkeypatch
        self.left = -1
        self.how = ""
        self.after = False
        originals = {
            (store, "write_text"): store.write_text,
            (store, "fsync_dir"): store.fsync_dir,
            (store, "_exchange"): store._exchange,
            (stream, "records_to_parts"): stream.records_to_parts,
        }
        for (module, name), original in originals.items():
            monkeypatch.setattr(module, name, self._watch(original))
        self.abort = ResultWriter.abort

    def _watch(self, original):
        def watched(*args, **kwargs):
            if not self.after:
                self._tick()
            result = original(*args, **kwargs)
            if self.after:
                self._tick()
            return result
        return watched

    def _tick(self) -> None:
        if self.left < 0:
            return
        if self.left == 0:
            self.left = -1
            if self.how == "stop":
                os.kill(os.getpid(), signal.SIGINT)
            else:
                raise Killed
        else:
            self.left -= 1

    def arm(self, how: str, at: int, after: bool) -> None:
        self.how, self.left, self.after = how, at, after
        if how == "kill":  # the kernel's clean-up: the lock goes, the files stay
            self.mp.setattr(ResultWriter, "abort", lambda w: w._lock.release())

    def disarm(self) -> None:
        self.left = -1
        self.mp.setattr(ResultWriter, "abort", self.abort)


def same_frames(got: SimulationResult, want: SimulationResult) -> None:
    for name in FRAMES:
        pd.testing.assert_frame_equal(getattr(got, name).reset_index(drop=True),
                                      getattr(want, name).reset_index(drop=True),
                                      check_dtype=False, obj=name)


def subset_of(got: SimulationResult, want: SimulationResult) -> None:
    games = set(got.games.game) | set(got.errors.game)
    for name in FRAMES:
        mine = getattr(got, name).reset_index(drop=True)
        theirs = getattr(want, name)
        theirs = theirs[theirs.game.isin(games)].reset_index(drop=True)
        pd.testing.assert_frame_equal(mine, theirs, check_dtype=False, obj=name)


PLANTED_BOT = """
from pathlib import Path
Path(__file__).with_name("PWNED").write_text("ran")
def strategy(view, decision):
    return decision.random_answer(view.rng)
"""


class StoreMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.root = Path(tempfile.mkdtemp(prefix="musici-store-machine-"))
        self.parent = self.root / "work"
        self.parent.mkdir()
        self.target = self.parent / "run"
        self.faults: Faults = MACHINE_FAULTS[0]
        # Things that are not DIR's: a neighbour, and the temp dir of a run to "run.tmp-1".
        (self.parent / "neighbour.txt").write_text("keep me")
        self.other = self.parent / f".run.tmp-1.tmp-{secrets.token_hex(8)}"
        self.other.mkdir()
        (self.other / "part").write_text("theirs")
        self.complete: tuple[int, int] | None = None  # the batch a complete DIR must hold

    def teardown(self) -> None:
        self.faults.disarm()
        shutil.rmtree(self.root, ignore_errors=True)

    @initialize()
    def start(self) -> None:
        self.faults.disarm()

    # -- steps ------------------------------------------------------------------------
    @rule(batch=st.sampled_from(BATCHES), overwrite=st.booleans())
    def run(self, batch: tuple[int, int], overwrite: bool) -> None:
        try:
            simulate_to(self.target, LINEUP, batch[0], seed=batch[1], rules=RULES, jobs=1,
                        progress=False, overwrite=overwrite)
        except ResultError:
            return  # refused: DIR holds a result (no overwrite) or a stopped run's games
        self.complete = batch

    # A run makes about 25 watched calls (a chunk per game, then the finish's writes).
    @rule(batch=st.sampled_from(BATCHES), overwrite=st.booleans(), at=st.integers(0, 30),
          after=st.booleans())
    def stopped_run(self, batch: tuple[int, int], overwrite: bool, at: int, after: bool
                    ) -> None:
        self.interrupted_run(batch, overwrite, "stop", at, after)

    @rule(batch=st.sampled_from(BATCHES), overwrite=st.booleans(), at=st.integers(0, 30),
          after=st.booleans())
    def killed_run(self, batch: tuple[int, int], overwrite: bool, at: int, after: bool
                   ) -> None:
        self.interrupted_run(batch, overwrite, "kill", at, after)

    def interrupted_run(self, batch: tuple[int, int], overwrite: bool, how: str, at: int,
                        after: bool) -> None:
        before = self.complete
        self.faults.arm(how, at, after)
        try:
            simulate_to(self.target, LINEUP, batch[0], seed=batch[1], rules=RULES, jobs=1,
                        progress=False, overwrite=overwrite)
            self.complete = batch  # the fault point lay beyond the run's end
        except ResultError:
            pass
        except Stopped as stop:
            if stop.report.complete:
                self.complete = batch
        except (Killed, KeyboardInterrupt):
            pass  # a stop before the run began to stream is plain KeyboardInterrupt
        finally:
            self.faults.disarm()
        self._after_interruption(before, batch)

    def _after_interruption(self, before: tuple[int, int] | None, batch: tuple[int, int]
                            ) -> None:
        """Old result or new complete one, never neither; a partial only where none was."""
        state = store.target_state(self.target)
        if before is not None:
            assert state == "result", "an interrupted run lost the result that was there"
            back = SimulationResult.read_parquet(self.target)
            assert back.complete, "a partial replaced a complete result"
            key = (back.config["games"], back.config["seed"])
            assert key in (before, batch)
            self.complete = key
        elif state == "result" and SimulationResult.read_parquet(self.target).complete:
            self.complete = batch

    @rule()
    def resume_run(self) -> None:
        lock = self.parent / ".run.lock"
        try:
            report = resume(self.target, jobs=1, progress=False)
        except ResultError:
            return  # nothing to resume, or a refusal
        assert report.complete
        back = SimulationResult.read_parquet(self.target)
        self.complete = (back.config["games"], back.config["seed"])
        assert lock.exists()

    @rule(how=st.sampled_from(["flip", "manifest"]))
    def tamper_and_read(self, how: str) -> None:
        if store.target_state(self.target) != "result":
            return
        saved = self.root / "saved"
        shutil.copytree(self.target, saved, dirs_exist_ok=False)
        try:
            if how == "flip":
                parts = sorted((self.target / "players").glob("*.parquet"))
                if not parts:
                    return
                data = bytearray(parts[0].read_bytes())
                data[len(data) // 2] ^= 0xFF
                parts[0].write_bytes(bytes(data))
            else:
                manifest = json.loads((self.target / MANIFEST).read_text())
                if not manifest["parts"]:
                    return  # a partial of no games: no part to point elsewhere
                manifest["parts"] = [{**p, "file": "../../escape.parquet"}
                                     for p in manifest["parts"]]
                (self.target / MANIFEST).write_text(json.dumps(manifest))
            with pytest.raises(ResultError):
                SimulationResult.read_parquet(self.target)
        finally:
            shutil.rmtree(self.target)
            saved.rename(self.target)

    @rule(games=st.integers(1, 20), with_run=st.booleans())
    def plant_a_checkpoint(self, games: int, with_run: bool) -> None:
        """A temp dir an attacker could write: a checkpoint naming the attacker's bot."""
        bot = self.root / "planted.py"
        bot.write_text(PLANTED_BOT)
        planted = self.parent / f".run.tmp-{secrets.token_hex(8)}"
        planted.mkdir()
        manifest = {"format": "musici-result", "version": 1, "complete": False,
                    "run": secrets.token_hex(8) if with_run else "", "games_done": games,
                    "chunks": [[0, games]],
                    "config": {"players": [str(bot)] * 3, "games": 20, "seed": 0, "rules": {},
                               "rotate": True, "events": False, "cards": "x",
                               "cards_fingerprint": "x", "cards_path": None},
                    "frames": {}, "parts": []}
        (planted / "checkpoint.json").write_text(json.dumps(manifest))

    @rule()
    def a_second_writer_is_refused(self) -> None:
        import fcntl

        lock = self.parent / ".run.lock"
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # another process, writing
            with pytest.raises(ResultError, match="another musici run is writing there"):
                simulate_to(self.target, LINEUP, 4, rules=RULES, jobs=1, progress=False,
                            overwrite=True)
            with pytest.raises(ResultError, match="another musici run is writing there"):
                resume(self.target, jobs=1, progress=False)
        finally:
            os.close(fd)

    @rule()
    def read(self) -> None:
        if store.target_state(self.target) != "result":
            return
        back = SimulationResult.read_parquet(self.target)
        want = reference(back.config["games"], back.config["seed"])
        if back.complete:
            same_frames(back, want)
        else:
            subset_of(back, want)

    # -- after every step ---------------------------------------------------------------
    @invariant()
    def complete_results_equal_an_uninterrupted_run(self) -> None:
        if store.target_state(self.target) == "result":
            back = SimulationResult.read_parquet(self.target)
            want = reference(back.config["games"], back.config["seed"])
            (same_frames if back.complete else subset_of)(back, want)
            if back.complete and self.complete is not None:
                assert (back.config["games"], back.config["seed"]) == self.complete

    @invariant()
    def count(self) -> None:
        STEPS[0] += 1  # invariants are checked after every step

    @invariant()
    def nothing_outside_changed(self) -> None:
        assert (self.parent / "neighbour.txt").read_text() == "keep me"
        assert (self.other / "part").read_text() == "theirs"
        assert not (self.root / "PWNED").exists(), "a planted bot ran"
        for path in self.parent.iterdir():
            assert path.name in {"run", ".run.lock", "neighbour.txt", "side", ".side.lock",
                                 self.other.name} or path.name.startswith(".run.tmp-"), path


MACHINE_FAULTS: list[Faults] = []
STEPS = [0]


def run_machine(monkeypatch: pytest.MonkeyPatch, examples: int, steps: int) -> int:
    MACHINE_FAULTS[:] = [Faults(monkeypatch)]
    STEPS[0] = 0
    run_state_machine_as_test(StoreMachine, settings=settings(
        max_examples=examples, stateful_step_count=steps, deadline=None, derandomize=True,
        suppress_health_check=list(HealthCheck)))
    return STEPS[0]


def test_the_store_keeps_its_promises_over_random_sequences(monkeypatch) -> None:
    assert run_machine(monkeypatch, examples=12, steps=25) >= 100


@pytest.mark.slow
def test_the_store_keeps_its_promises_over_2000_steps(monkeypatch) -> None:
    steps = run_machine(monkeypatch, examples=75, steps=40)
    print(f"store machine: {steps} steps")
    assert steps >= 2000
