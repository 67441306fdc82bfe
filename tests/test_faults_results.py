"""Result directories: complete or absent, checked when read, never mixed by two writers."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest
from conftest import kill_9_while_writing

from musici.sim import SimulationResult, simulate
from musici.sim.store import MANIFEST, ResultError, ResultWriter


@pytest.fixture(scope="module")
def small() -> SimulationResult:
    return simulate(["random"] * 3, games=3, seed=5, jobs=1, events=True, progress=False)


@pytest.fixture(scope="module")
def other() -> SimulationResult:
    return simulate(["greedy", "random", "random"], games=2, seed=9, jobs=1, progress=False)


def same(a: SimulationResult, b: SimulationResult) -> None:
    for name in SimulationResult.frames:
        fa, fb = getattr(a, name), getattr(b, name)
        assert (fa is None) == (fb is None), name
        if fa is not None:
            pd.testing.assert_frame_equal(fa.reset_index(drop=True), fb.reset_index(drop=True),
                                          check_dtype=False, obj=name)


def test_round_trip_and_manifest(tmp_path: Path, small: SimulationResult) -> None:
    out = small.to_parquet(tmp_path / "run")
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["complete"] is True
    assert manifest["frames"]["players"]["rows"] == len(small.players)
    assert all(len(p["sha256"]) == 64 for p in manifest["parts"])
    back = SimulationResult.read_parquet(out)
    same(small, back)
    assert back.complete


def test_a_non_empty_directory_is_refused_then_replaced_whole(tmp_path: Path, small, other) -> None:
    out = small.to_parquet(tmp_path / "run")
    with pytest.raises(ResultError, match="not empty; give --overwrite"):
        other.to_parquet(out)
    same(SimulationResult.read_parquet(out), small)
    other.to_parquet(out, overwrite=True)
    back = SimulationResult.read_parquet(out)
    same(back, other)
    assert back.events is None  # no stale events from the first run
    assert sorted(p.name for p in tmp_path.iterdir()) == [".run.lock", "run"]


@pytest.mark.parametrize(("damage", "words"), [
    ("flip", "does not match its checksum"),
    ("delete", "is missing"),
    ("manifest", "manifest.json is missing"),
    ("rows", "should have"),
])
def test_damaged_results_fail_clearly(tmp_path: Path, small, damage: str, words: str) -> None:
    out = small.to_parquet(tmp_path / "run")
    part = next((out / "players").iterdir())
    if damage == "flip":
        data = bytearray(part.read_bytes())
        data[len(data) // 2] ^= 0xFF
        part.write_bytes(bytes(data))
    elif damage == "delete":
        part.unlink()
    elif damage == "manifest":
        (out / MANIFEST).unlink()
    else:
        manifest = json.loads((out / MANIFEST).read_text())
        manifest["frames"]["players"]["rows"] += 1
        (out / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(ResultError, match=words):
        SimulationResult.read_parquet(out)


def test_a_wrong_schema_part_is_a_clear_error(tmp_path: Path, small) -> None:
    out = small.to_parquet(tmp_path / "run")
    part = next((out / "players").iterdir())
    pd.DataFrame({"nonsense": [1, 2]}).to_parquet(part, index=False)
    with pytest.raises(ResultError, match="has columns"):
        SimulationResult.read_parquet(out, verify=False)


def test_only_the_needed_frames_and_columns_are_read(tmp_path: Path, small) -> None:
    out = small.to_parquet(tmp_path / "run")
    back = SimulationResult.read_parquet(out, frames=["players"],
                                         columns={"players": ["strategy", "win"]})
    assert list(back.players.columns) == ["strategy", "win"]
    assert len(back.players) == len(small.players) and back.months.empty
    with pytest.raises(ResultError, match="no column"):
        SimulationResult.read_parquet(out, frames=["players"], columns={"players": ["nope"]})


def test_a_second_writer_is_refused_while_the_first_writes(tmp_path: Path, small) -> None:
    first = ResultWriter(tmp_path / "run", {"games": 0})
    try:
        with pytest.raises(ResultError, match="another musici run is writing there"):
            small.to_parquet(tmp_path / "run")
    finally:
        first.abort()
    small.to_parquet(tmp_path / "run")  # free again once the first is gone
    assert not [p for p in tmp_path.iterdir() if ".tmp-" in p.name]


WRITER = textwrap.dedent("""
    import sys
    from musici.sim import simulate
    runs = [simulate(["random"] * 3, games=g, seed=s, jobs=1, events=e, progress=False)
            for g, s, e in ((3, 5, True), (2, 9, False))]
    print("ready", flush=True)
    i = 0
    while True:
        runs[i % 2].to_parquet(sys.argv[1], overwrite=True)
        i += 1
""")


def test_kill_9_during_result_writing_leaves_old_or_new(tmp_path: Path) -> None:
    out = tmp_path / "run"
    expected = [simulate(["random"] * 3, games=g, seed=s, jobs=1, events=e, progress=False)
                for g, s, e in ((3, 5, True), (2, 9, False))]
    rng = random.Random(3)
    for _ in range(3):
        kill_9_while_writing(WRITER, str(out), rng, 0.1, 0.6)
        if not out.exists():  # killed before the first result was in place
            continue
        back = SimulationResult.read_parquet(out)
        match = [e for e in expected if len(e.games) == len(back.games)]
        assert match, "a result of neither run"
        same(back, match[0])
    expected[0].to_parquet(out, overwrite=True)  # the next writer clears a killed one's temp dir
    assert sorted(p.name for p in tmp_path.iterdir()) == [".run.lock", "run"]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_full_disk_keeps_the_old_result_and_leaves_no_temp(small_disk: Path, other, jobs) -> None:
    from musici.sim.stream import simulate_to

    out = other.to_parquet(small_disk / "run")
    with pytest.raises(OSError, match="No space left"):
        simulate_to(out, ["random"] * 4, games=40, seed=1, events=True, jobs=jobs,
                    overwrite=True, progress=False)
    same(SimulationResult.read_parquet(out), other)
    assert sorted(p.name for p in small_disk.iterdir()) == [".run.lock", "run"]


HOLDER = textwrap.dedent("""
    import sys, time
    from musici.sim.store import ResultWriter
    writer = ResultWriter(sys.argv[1], {"games": 0})
    print("ready", flush=True)
    time.sleep(600)
""")


def test_two_writer_processes_never_mix(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from musici.cli import main

    out = tmp_path / "run"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(out)], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout.readline().strip() == "ready"
        args = ["simulate", "--games", "3", "--jobs", "1", "--quiet", "--months", "2",
                "--out", str(out), "--overwrite"]
        assert main(args) == 2
        assert "another musici run is writing there" in capsys.readouterr().err
    finally:
        holder.kill()
        holder.wait()
    assert main(args) == 0  # the lock died with its holder; its temp dir is cleared
    assert sorted(p.name for p in tmp_path.iterdir()) == [".run.lock", "run"]
    assert len(SimulationResult.read_parquet(out).games) == 3


def test_a_resume_over_gaps_reads_back_in_game_order(tmp_path: Path) -> None:
    """Workers finish out of order, so a stopped run can miss ranges between kept ones.

    The resumed run must fill each gap with its own parts: a part spanning a gap is named
    by its first game and read back out of game order.
    """
    from musici.sim import resume, simulate_to

    out = tmp_path / "run"
    simulate_to(out, ["random"] * 3, 200, seed=3, rules={"RULING-MONTHS": 1}, jobs=1,
                progress=False)
    whole = SimulationResult.read_parquet(out)
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["chunks"] == [[0, 200]]  # touching ranges are listed joined
    firsts = sorted({int(Path(p["file"]).stem) for p in manifest["parts"]})  # chunk starts
    size = firsts[1] - firsts[0]
    gaps = [[50, 50 + size], [100, 100 + size]]  # two lost chunks, kept ones between them
    assert 50 in firsts and 100 in firsts and 50 + size < 100, firsts
    lost = {f"{g[0]:012d}.parquet" for g in gaps}
    for part in [p for p in manifest["parts"] if Path(p["file"]).name in lost]:
        (out / part["file"]).unlink()
        manifest["parts"].remove(part)
        manifest["frames"][part["frame"]]["rows"] -= part["rows"]
    manifest["chunks"] = [[0, 50], [50 + size, 100], [100 + size, 200]]
    manifest["games_done"] -= 2 * size
    manifest["complete"] = False
    (out / MANIFEST).write_text(json.dumps(manifest))

    resume(out, jobs=1, progress=False)
    resumed = SimulationResult.read_parquet(out)
    assert resumed.complete
    assert resumed.games["game"].is_monotonic_increasing
    same(resumed, whole)


def test_stream_chunks_grow_instead_of_multiplying() -> None:
    from musici.sim.stream import MAX_CHUNKS, STREAM_CHUNK, stream_chunk_size

    assert stream_chunk_size(10_000, 2) == STREAM_CHUNK
    assert stream_chunk_size(100, 2) == 6  # about eight chunks per worker
    for games in (STREAM_CHUNK * MAX_CHUNKS + 1, 1_000_000, 10**8):
        size = stream_chunk_size(games, 2)
        assert size > STREAM_CHUNK and -(-games // size) <= MAX_CHUNKS


def test_a_batch_past_the_chunk_bound_is_the_same_batch(tmp_path: Path, monkeypatch) -> None:
    """Past MAX_CHUNKS the chunks grow (the driver's per-chunk state stays bounded); the
    frames read back are still those of the in-memory batch, in game order."""
    import musici.sim.stream as stream

    monkeypatch.setattr(stream, "MAX_CHUNKS", 4)
    out = tmp_path / "run"
    stream.simulate_to(out, ["random"] * 3, 90, seed=4, rules={"RULING-MONTHS": 1}, jobs=1,
                       progress=False)
    firsts = {int(Path(p["file"]).stem) for p in json.loads((out / MANIFEST).read_text())["parts"]}
    assert len(firsts) == 4  # 90 games in 4 chunks, not the 9 of about eight per worker
    same(SimulationResult.read_parquet(out),
         simulate(["random"] * 3, 90, seed=4, rules={"RULING-MONTHS": 1}, jobs=1, progress=False))


def test_worker_markers_never_reach_the_result_even_after_a_kill_and_resume(tmp_path: Path) -> None:
    """The marker that lets Dask workers write into a run's temp dir is in its checkpoint's
    dir too: a resume after a SIGKILL removes it (the dead run's workers stop writing there)
    and a finished result never holds one."""
    from musici.sim.store import MARKER_PREFIX

    out = tmp_path / "run"
    killed = ResultWriter(out, {"games": 1})
    marker = killed.worker_marker()
    assert marker.name.startswith(MARKER_PREFIX) and marker.is_file()
    killed.checkpoint()
    killed._lock.release()  # as the kernel does for a SIGKILLed driver
    resumed = ResultWriter(out, None, resume=True)
    assert resumed.temp == killed.temp and not marker.exists()
    resumed.worker_marker()
    resumed.finish(complete=False)
    assert not [p.name for p in out.iterdir() if p.name.startswith(MARKER_PREFIX)]
