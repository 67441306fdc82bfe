"""Where the games of a batch run: this process, local worker processes, or a Dask cluster.

Every back end takes chunks of :class:`GameTask` lazily (so a batch of any size starts at
once and the driver's memory does not grow with it) and calls ``on_done(chunk, result)``
in the driver for each; callers put results back in game order, so results never depend
on where or in which order games ran.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple

from musici.sim.limits import NO_LIMITS, Limits
from musici.sim.pool import Work, run_pool
from musici.sim.records import GameRecord, GameTask, TaskSource, play_chunk
from musici.strategies.registry import strategy_label

OnDone = Callable[[list[GameTask], Any], None]
OnDied = Callable[[GameTask, str], None]
CONNECT_TIMEOUT = 20.0  # seconds to reach a Dask scheduler before giving up with a clear error


def iter_chunks(tasks: Iterable[GameTask], size: int) -> Iterator[list[GameTask]]:
    """Chunks of at most ``size`` tasks, each of consecutive game indices.

    A resumed run skips the games already kept; a chunk spanning such a gap would write a
    part (named by its first game) that reads back out of game order.
    """
    chunk: list[GameTask] = []
    for task in tasks:
        if chunk and (len(chunk) == size or task.index != chunk[-1].index + 1):
            yield chunk
            chunk = []
        chunk.append(task)
    if chunk:
        yield chunk


def chunk_size(n_tasks: int, workers: int, cap: int = 64) -> int:
    # About eight chunks per worker: even load at the end, few round trips.
    return max(1, min(cap, n_tasks // max(1, workers * 8)))


def died_record(task: GameTask, how: str) -> GameRecord:
    return GameRecord(task.index, task.seed, task.arm,
                      task.labels or tuple(strategy_label(s) for s in task.lineup),
                      error=f"game {task.index} (seed {task.seed}): {how}")


def run_serial(chunks: Iterable[list[GameTask]], work: Work, limits: Limits, on_done: OnDone) -> None:
    for chunk in chunks:
        on_done(chunk, work(chunk, limits))


def run_processes(chunks: Iterable[list[GameTask]], work: Work, jobs: int, limits: Limits,
                  on_done: OnDone, on_died: OnDied) -> None:
    run_pool(chunks, work, jobs, limits, on_done, on_died)


def connect(scheduler: Any, timeout: float = CONNECT_TIMEOUT) -> tuple[Any, bool]:
    """A ``distributed.Client`` for ``scheduler`` (a Client or an address) and whether we own it.

    Connecting runs in a helper thread with a deadline: an address where something other
    than a Dask scheduler answers (an HTTP server, say) would otherwise wait for ever.
    """
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - depends on the installation
        raise ValueError(
            "the Dask back end needs dask.distributed: pip install 'musici[dask]'") from None
    if isinstance(scheduler, Client):
        return scheduler, False
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise ValueError(f"scheduler must be a distributed.Client or an address like "
                         f"tcp://host:8786, got {scheduler!r}")
    _probe(scheduler, timeout)
    box: dict[str, Any] = {}

    def attempt() -> None:
        try:
            box["client"] = Client(scheduler, timeout=f"{timeout}s", set_as_default=False)
        except BaseException as exc:  # reported in the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=attempt, name="musici-dask-connect", daemon=True)
    thread.start()
    thread.join(timeout + 1)
    if "client" in box:
        return box["client"], True
    why = box.get("error")
    detail = f"{type(why).__name__}: {' '.join(str(why).split())[:200]}" if why else "no answer"
    raise ValueError(f"cannot reach a Dask scheduler at {scheduler} within {timeout:g} s ({detail}); "
                     f"is `dask scheduler` running there, and is it the scheduler's port?")


def _probe(address: str, timeout: float) -> None:
    """Fail at once on a refused or unresolvable tcp:// address (Dask would retry until timeout)."""
    if not address.startswith("tcp://"):
        return
    host, _, port = address[len("tcp://"):].rpartition(":")
    try:
        number = int(port)
    except ValueError:
        raise ValueError(f"scheduler address {address}: expected tcp://host:port") from None
    try:
        socket.create_connection((host.strip("[]"), number), timeout=timeout).close()
    except OSError as exc:
        raise ValueError(f"cannot reach a Dask scheduler at {address}: "
                         f"{exc.strerror or type(exc).__name__}; is `dask scheduler` running "
                         f"there?") from None


def run_dask(chunks: Iterable[list[GameTask]], scheduler: Any, work: Work, limits: Limits,
             on_done: OnDone, on_died: OnDied) -> None:
    """Run on a Dask cluster, a bounded number of chunks in flight at a time.

    A cluster left without workers (all died and none came back) is an error after
    ``NO_WORKERS_TIMEOUT`` seconds, not a wait for ever.
    """
    client, own = connect(scheduler)
    capped = False
    try:
        if limits.memory_mb is not None:
            from musici.sim.dask_memory import cap_workers

            cap_workers(client, limits.memory_mb)
            capped = True
        workers = max(1, sum(client.nthreads().values()))
        source = iter(chunks)
        call = _Unpacked(work, limits)
        inflight: dict[Any, list[GameTask]] = {}
        watch = _WorkerWatch(client)

        sent: dict[int, tuple[TaskSource, Any]] = {}  # id -> (source, the future holding it)

        def submit() -> None:
            chunk = next(source, None)
            if chunk is None:
                return
            packed = pack(chunk)
            # pure=False: identical chunks must still run (and the key must not be hashed).
            if isinstance(packed, GameRange):
                # The batch's source goes to the cluster once; a chunk's message then names
                # it and two numbers (the scheduler keeps its recent messages deserialized).
                # A task, not scatter(): if every worker holding it dies, it is made again.
                held = sent.get(id(packed.source))
                if held is None:
                    held = sent[id(packed.source)] = (
                        packed.source, client.submit(_same, packed.source, pure=False))
                future = client.submit(call, held[1], packed.start, packed.stop, pure=False)
            else:
                future = client.submit(call, packed, pure=False)
            inflight[future] = chunk

        for _ in range(workers * 4):
            submit()
        failed: list[GameTask] = []
        while inflight:
            for future in watch.wait(list(inflight)):
                chunk = inflight.pop(future)
                try:
                    result = future.result()
                except Exception:  # KilledWorker and the like: the culprit is not known yet
                    failed.extend(chunk)
                else:
                    on_done(chunk, result)
                submit()
        # A task that shared a dying worker fails too, so the games of failed chunks are
        # replayed one at a time: then a game that fails has only itself to blame.
        for task in failed:
            future = client.submit(call, [task], pure=False)
            watch.wait([future])
            try:
                result = future.result()
            except Exception as exc:
                on_died(task, f"its Dask worker failed: {type(exc).__name__}: {exc}")
            else:
                on_done([task], result)
    finally:
        if capped:
            from musici.sim.dask_memory import uncap_workers

            with contextlib.suppress(Exception):  # a cluster gone already has nothing to undo
                uncap_workers(client)
        if own:
            client.close()


class GameRange(NamedTuple):
    """Games ``start``..``stop-1`` of ``source``: a chunk as a message of a few bytes."""

    source: TaskSource
    start: int
    stop: int

    def tasks(self) -> list[GameTask]:
        return [self.source.task(i) for i in range(self.start, self.stop)]


def pack(chunk: list[GameTask]) -> list[GameTask] | GameRange:
    """A chunk of consecutive games of one batch as a :class:`GameRange`, else as it is.

    Dask's scheduler keeps its last messages to each worker (for debugging); a message that
    held a chunk's tasks kept them alive in the driver, some 0.7 KB a game until a thousand
    chunks were kept.
    """
    first, source = chunk[0], chunk[0].source
    if source is not None and all(t.source is source and t.index == first.index + k
                                  for k, t in enumerate(chunk)):
        return GameRange(source, first.index, first.index + len(chunk))
    return chunk


def _same(value: Any) -> Any:
    return value


class _Unpacked:
    """``work`` on a chunk sent packed (a picklable module-level callable, no closure)."""

    # Dask names a task after its function's __name__ (else its repr, an address): so the
    # dashboard and the scheduler's task groups show "musici-chunk-<id>".
    __name__ = "musici-chunk"

    def __init__(self, work: Work, limits: Limits) -> None:
        self.work, self.limits = work, limits

    def __call__(self, chunk: list[GameTask] | TaskSource, start: int = 0, stop: int = 0) -> Any:
        if isinstance(chunk, TaskSource):  # games start..stop-1 of a source sent once
            chunk = GameRange(chunk, start, stop).tasks()
        return self.work(chunk, self.limits)


NO_WORKERS_TIMEOUT = 60.0


class _WorkerWatch:
    """Wait for futures, checking now and then that the cluster still has workers."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.idle_since: float | None = None

    def wait(self, futures: list[Any]) -> list[Any]:
        import distributed

        while True:
            try:
                done, _ = distributed.wait(futures, timeout=5, return_when="FIRST_COMPLETED")
            except TimeoutError:
                done = set()
            if done:
                self.idle_since = None
                return list(done)
            if self.client.scheduler_info().get("workers"):
                self.idle_since = None
                continue
            now = time.monotonic()
            self.idle_since = self.idle_since or now
            if now - self.idle_since > NO_WORKERS_TIMEOUT:
                raise ValueError(f"the Dask cluster has had no workers for {NO_WORKERS_TIMEOUT:g} s; "
                                 f"start some (`dask worker ADDRESS`) and run the batch again")


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else
               (os.cpu_count() or 1))


def play_records(chunk: list[GameTask], limits: Limits = NO_LIMITS) -> list[GameRecord]:
    return play_chunk(chunk, limits)


__all__ = ["chunk_size", "connect", "default_jobs", "died_record", "iter_chunks", "play_records",
           "run_dask", "run_processes", "run_serial"]
