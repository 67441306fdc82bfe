"""Where the games of a batch run: this process, local worker processes, or a Dask cluster.

Every back end plays the same :class:`GameTask` list and the records are put back in task
order, so results never depend on where or in which order games ran.
"""

from __future__ import annotations

import multiprocessing
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from musici.sim.records import GameRecord, GameTask, play_chunk
from musici.strategies.registry import strategy_label

Progress = Callable[[int], None]  # called with the number of games just finished


def chunked(tasks: Sequence[GameTask], size: int) -> list[list[GameTask]]:
    return [list(tasks[i:i + size]) for i in range(0, len(tasks), size)]


def chunk_size(n_tasks: int, workers: int) -> int:
    # About eight chunks per worker: even load at the end, few round trips.
    return max(1, min(64, n_tasks // max(1, workers * 8)))


def run_serial(tasks: Sequence[GameTask], progress: Progress) -> Iterator[GameRecord]:
    for chunk in chunked(tasks, 8):
        yield from play_chunk(chunk)
        progress(len(chunk))


def _context() -> multiprocessing.context.BaseContext:
    # fork starts fast and carries strategies registered at run time (e.g. in a notebook).
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _died(task: GameTask, how: str) -> GameRecord:
    return GameRecord(task.index, task.seed, task.arm,
                      tuple(strategy_label(s) for s in task.lineup),
                      error=f"game {task.index} (seed {task.seed}): {how}")


def play_chunk_tracked(tasks: list[GameTask], track_dir: str) -> list[GameRecord]:
    """:func:`play_chunk` that notes in ``track_dir/<pid>`` which game this worker is on, so
    that after a worker dies the games it may have caused can be told from the others."""
    note = os.path.join(track_dir, str(os.getpid()))
    records = []
    for task in tasks:
        with open(note, "w") as f:
            f.write(f"{task.arm}\t{task.index}")
        records.append(play_chunk([task])[0])
    with open(note, "w"):
        pass
    return records


def _in_progress(track_dir: str) -> set[tuple[str, int]]:
    found = set()
    for name in os.listdir(track_dir):
        with open(os.path.join(track_dir, name)) as f:
            arm, sep, index = f.read().partition("\t")
        if sep:
            found.add((arm, int(index)))
    return found


def run_processes(tasks: Sequence[GameTask], jobs: int, progress: Progress) -> Iterator[GameRecord]:
    """Local worker processes. A worker that dies (``os._exit`` in a strategy, a crash in C
    code, the OOM killer) breaks the whole pool: the games that were being played then are
    each re-run alone, a game that kills its worker alone too is reported as failed with its
    seed, and every other game is simply played again. No finished result is lost."""
    queue = chunked(tasks, chunk_size(len(tasks), jobs))
    suspects: list[GameTask] = []
    with tempfile.TemporaryDirectory(prefix="musici-workers-") as track_dir:
        while queue or suspects:
            alone = [suspects.pop(0)] if suspects else None
            batch = [alone] if alone else queue
            broken: list[GameTask] = []
            for name in os.listdir(track_dir):
                os.remove(os.path.join(track_dir, name))
            workers = 1 if alone else jobs
            with ProcessPoolExecutor(max_workers=workers, mp_context=_context()) as pool:
                futures = {pool.submit(play_chunk_tracked, chunk, track_dir): chunk
                           for chunk in batch}
                for future in as_completed(futures):
                    try:
                        records = future.result()
                    except BrokenProcessPool:
                        broken.extend(futures[future])
                        continue
                    progress(len(records))
                    yield from records
            if alone:
                if broken:
                    progress(1)
                    yield _died(alone[0], "its worker process died while playing it")
                continue
            queue = []
            if broken:
                running = _in_progress(track_dir)
                caught = [t for t in broken if (t.arm, t.index) in running] or broken
                suspects.extend(caught)
                caught_ids = {id(t) for t in caught}
                rest = [t for t in broken if id(t) not in caught_ids]
                queue = chunked(rest, chunk_size(len(rest), jobs))


def run_dask(tasks: Sequence[GameTask], scheduler: Any, progress: Progress) -> Iterator[GameRecord]:
    """Run on a Dask cluster: ``scheduler`` is a ``distributed.Client`` or an address."""
    try:
        from distributed import Client
        from distributed import as_completed as dask_completed
    except ImportError:  # pragma: no cover - depends on the installation
        raise ValueError(
            "the Dask back end needs dask.distributed: pip install 'musici[dask]'") from None
    own = not isinstance(scheduler, Client)
    client = Client(scheduler) if own else scheduler
    try:
        workers = max(1, sum(client.nthreads().values()))
        chunks = chunked(tasks, chunk_size(len(tasks), workers))
        # pure=False: identical chunks must still run (and the key must not be hashed).
        futures = client.map(play_chunk, chunks, pure=False)
        chunk_of = {future.key: chunk for future, chunk in zip(futures, chunks, strict=True)}
        failed: list[GameTask] = []
        for future in dask_completed(futures):
            try:
                records = future.result()
            except Exception:  # KilledWorker and the like: the culprit is not known yet
                failed.extend(chunk_of[future.key])
                continue
            progress(len(records))
            yield from records
        # A task that shared a dying worker fails too, so the games of failed chunks are
        # replayed one at a time: then a game that fails has only itself to blame.
        for task in failed:
            try:
                records = client.submit(play_chunk, [task], pure=False).result()
            except Exception as exc:
                records = [_died(task, f"its Dask worker failed: {type(exc).__name__}: {exc}")]
            progress(1)
            yield from records
    finally:
        if own:
            client.close()


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else
               (os.cpu_count() or 1))


__all__ = ["chunk_size", "chunked", "default_jobs", "run_dask", "run_processes", "run_serial"]
