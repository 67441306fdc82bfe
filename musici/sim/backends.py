"""Where the games of a batch run: this process, local worker processes, or a Dask cluster.

Every back end plays the same :class:`GameTask` list and the records are put back in task
order, so results never depend on where or in which order games ran.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from musici.sim.records import GameRecord, GameTask, play_chunk

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


def run_processes(tasks: Sequence[GameTask], jobs: int, progress: Progress) -> Iterator[GameRecord]:
    chunks = chunked(tasks, chunk_size(len(tasks), jobs))
    with ProcessPoolExecutor(max_workers=jobs, mp_context=_context()) as pool:
        futures = [pool.submit(play_chunk, chunk) for chunk in chunks]
        for future in as_completed(futures):
            records = future.result()
            progress(len(records))
            yield from records


def run_dask(tasks: Sequence[GameTask], scheduler: Any, progress: Progress) -> Iterator[GameRecord]:
    """Run on a Dask cluster: ``scheduler`` is a ``distributed.Client`` or an address."""
    try:
        from distributed import Client
        from distributed import as_completed as dask_completed
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise RuntimeError(
            "the Dask back end needs dask.distributed: pip install 'musici[dask]'") from exc
    own = not isinstance(scheduler, Client)
    client = Client(scheduler) if own else scheduler
    try:
        workers = max(1, sum(client.nthreads().values()))
        chunks = chunked(tasks, chunk_size(len(tasks), workers))
        # pure=False: identical chunks must still run (and the key must not be hashed).
        futures = client.map(play_chunk, chunks, pure=False)
        for future in dask_completed(futures):
            records = future.result()
            progress(len(records))
            yield from records
    finally:
        if own:
            client.close()


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else
               (os.cpu_count() or 1))


__all__ = ["chunk_size", "chunked", "default_jobs", "run_dask", "run_processes", "run_serial"]
