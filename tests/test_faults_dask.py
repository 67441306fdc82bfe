"""Dask: a wrong or refused address fails fast and clearly; streaming and limits work there too."""

from __future__ import annotations

import http.server
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from musici.sim import SimulationResult, simulate
from musici.sim.backends import connect
from musici.sim.stream import simulate_to

distributed = pytest.importorskip("distributed")


def test_a_refused_port_fails_at_once() -> None:
    t0 = time.monotonic()
    with pytest.raises(ValueError, match=r"cannot reach a Dask scheduler at tcp://127\.0\.0\.1:1"):
        connect("tcp://127.0.0.1:1", timeout=60)
    # Not a speed check: a refusal must not wait out the timeout (a generous half of it).
    assert time.monotonic() - t0 < 30


def test_a_service_that_is_not_dask_times_out_clearly() -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    address = f"tcp://127.0.0.1:{server.server_address[1]}"
    try:
        with pytest.raises(ValueError, match=r"within 2 s .*is it the scheduler's port"):
            connect(address, timeout=2)
    finally:
        server.shutdown()


def looping(view, decision):
    while view.seat == 0 and view.month == 2:
        pass
    return decision.random_answer(view.rng)


def hog(view, decision):
    blocks = []
    while view.seat == 0 and view.month == 2:
        blocks.append(bytearray(50 * 2**20))
    return decision.random_answer(view.rng)


def address_space_limits(client) -> list[int]:
    import resource

    return sorted(client.run(lambda: resource.getrlimit(resource.RLIMIT_AS)[0]).values())


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        yield client


def test_a_memory_hog_on_dask_costs_only_its_game_and_the_cap_is_lifted_after(client) -> None:
    before = address_space_limits(client)
    result = simulate([hog, "random", "random"], games=3, seed=1, scheduler=client,
                      limits={"memory_mb": 200}, progress=False)
    after = address_space_limits(client)
    assert result.errors.game.tolist() == [0]
    assert "memory limit of 200 MB" in result.errors.error.iloc[0]
    assert sorted(result.games.game) == [1, 2]
    assert after == before  # the workers are the cluster's, not ours: their limit comes back


@pytest.mark.slow
def test_streaming_and_limits_on_a_dask_cluster(tmp_path: Path) -> None:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        report = simulate_to(tmp_path / "run", ["greedy", "random", "random"], games=9, seed=2,
                             scheduler=client, events=True, progress=False)
        limited = simulate([looping, "random", "random"], games=3, seed=1, scheduler=client,
                           limits={"decision_seconds": 0.3}, progress=False)
    local = simulate(["greedy", "random", "random"], games=9, seed=2, jobs=1, events=True,
                     progress=False)
    back = SimulationResult.read_parquet(tmp_path / "run")
    assert report.played == 9 and back.complete
    for name in SimulationResult.frames:
        pd.testing.assert_frame_equal(getattr(back, name), getattr(local, name), obj=name)
    assert limited.errors.game.tolist() == [0]
    assert "0.3 s per decision" in limited.errors.error.iloc[0]


def test_the_driver_keeps_no_game_tasks_after_a_dask_batch(client, tmp_path: Path) -> None:
    """Dask keeps its last messages to each worker: they must not hold the chunks' tasks."""
    import gc

    from musici.sim.records import GameTask

    report = simulate_to(tmp_path / "run", ["random"] * 4, 600, seed=1, scheduler=client,
                         rules={"RULING-MONTHS": 1}, progress=False)
    assert report.played == 600
    gc.collect()
    assert sum(isinstance(o, GameTask) for o in gc.get_objects()) == 0


def test_workers_that_do_not_answer_the_memory_cap_time_out_clearly(client, monkeypatch) -> None:
    from musici.sim import dask_memory

    monkeypatch.setattr(dask_memory, "ANSWER_TIMEOUT", 1e-6)  # no cluster answers that fast
    with pytest.raises(TimeoutError, match=r"did not answer within 0 s .*memory limit of 50 MB"):
        dask_memory.cap_workers(client, 50)


def test_a_hung_plugin_registration_times_out_too(monkeypatch) -> None:
    """Workers that answer the first question and then hang (registering the cap, or lifting
    it after the batch) cost a clear error, not a batch that never ends."""
    from musici.sim import dask_memory

    release = threading.Event()

    class HangingClient:
        def run(self, function):
            return {"tcp://w1": -1}

        def register_plugin(self, plugin, name):
            release.wait()

        def unregister_worker_plugin(self, name):
            release.wait()

    monkeypatch.setattr(dask_memory, "ANSWER_TIMEOUT", 0.2)
    try:
        with pytest.raises(TimeoutError, match="within 0 s when asked to set the memory limit"):
            dask_memory.cap_workers(HangingClient(), 50)
        with pytest.raises(TimeoutError, match="when asked to lift the memory limit"):
            dask_memory.uncap_workers(HangingClient())
    finally:
        release.set()


def test_dask_workers_that_see_the_directory_write_their_own_parts(client, tmp_path: Path,
                                                                  monkeypatch) -> None:
    """On a LocalCluster the workers write the parts; the driver only counts (and the
    marker that told them so is not left in the result)."""
    import musici.sim.stream as stream

    def driver_writes(*args, **kwargs):
        raise AssertionError("the driver wrote a chunk the workers could have written")

    monkeypatch.setattr(stream, "records_to_parts", driver_writes)  # the driver's copy only
    report = simulate_to(tmp_path / "run", ["random"] * 3, 40, seed=5, scheduler=client,
                         rules={"RULING-MONTHS": 1}, progress=False)
    assert report.played == 40
    assert not [p.name for p in (tmp_path / "run").iterdir() if p.name.startswith(".")]
    monkeypatch.undo()
    back = SimulationResult.read_parquet(tmp_path / "run")
    local = simulate(["random"] * 3, 40, seed=5, rules={"RULING-MONTHS": 1}, jobs=1,
                     progress=False)
    for name in SimulationResult.frames:
        mine, theirs = getattr(back, name), getattr(local, name)
        assert (mine is None) == (theirs is None), name  # events: none asked for
        if mine is not None:
            pd.testing.assert_frame_equal(mine, theirs, obj=name)


def test_a_dask_worker_elsewhere_sends_records_for_the_driver_to_write(tmp_path: Path) -> None:
    from musici.cards import standard_cardset
    from musici.rules import RuleSet
    from musici.sim.limits import NO_LIMITS
    from musici.sim.records import GameRecord
    from musici.sim.simulate import iter_tasks
    from musici.sim.store import ChunkDone
    from musici.sim.stream import _WriteChunk

    tasks = list(iter_tasks(["random"] * 3, 4, 0, rotate=True, rules=RuleSet(),
                            cards=standard_cardset(), events=False))
    marker = tmp_path / ".workers-write-test"
    work = _WriteChunk(str(tmp_path), False, str(marker))
    records = work(tasks, NO_LIMITS)  # no marker: another machine
    assert all(isinstance(r, GameRecord) for r in records) and len(records) == 4
    assert not list(tmp_path.iterdir())
    marker.touch()
    done = work(tasks, NO_LIMITS)
    assert isinstance(done, ChunkDone) and done.games == 4
    assert all((tmp_path / part.file).is_file() for part in done.parts)


def test_a_dask_worker_that_sees_the_directory_but_may_not_write_sends_records(
        tmp_path: Path, monkeypatch) -> None:
    """Another uid or a read-only mount: the driver writes the parts instead of every game of
    the chunk becoming an error."""
    import musici.sim.stream as stream
    from musici.cards import standard_cardset
    from musici.rules import RuleSet
    from musici.sim.limits import NO_LIMITS
    from musici.sim.records import GameRecord
    from musici.sim.simulate import iter_tasks

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(stream, "write_part", refuse)
    (tmp_path / ".workers-write-test").touch()
    tasks = list(iter_tasks(["random"] * 3, 3, 0, rotate=True, rules=RuleSet(),
                            cards=standard_cardset(), events=False))
    records = stream._WriteChunk(str(tmp_path), False,
                                 str(tmp_path / ".workers-write-test"))(tasks, NO_LIMITS)
    assert [type(r) for r in records] == [GameRecord] * 3
    assert all(r.error is None for r in records)
