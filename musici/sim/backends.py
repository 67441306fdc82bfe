"""Where the games of a batch run: this process, local worker processes, or a Dask cluster.

Every back end takes chunks of :class:`GameTask` lazily (so a batch of any size starts at
once and the driver's memory does not grow with it) and calls ``on_done(chunk, result)``
in the driver for each; callers put results back in game order, so results never depend
on where or in which order games ran.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
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
CONNECT_TIMEOUT = 5.0  # seconds for a Dask scheduler to accept and to answer, then a clear error
EXPECTED_ADDRESS = "tcp://HOST:PORT or a distributed.Client"
SOCKET_SCHEMES = ("tcp", "tls", "ws", "wss")  # Dask protocols over TCP: probed with a socket first


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

    An address is checked before any ``Client`` is made, each failure a one-line
    :class:`~musici.sim.simulate.SimulationError`: a malformed address at once (one without
    a scheme is taken as ``tcp://``, as Dask's own commands do), a refused or unresolvable
    one at once, and one where nothing answers, or something other than a Dask scheduler,
    after ``timeout`` seconds. Left to Dask, a bad address is retried until its timeout, a
    service that is not Dask is waited on for ever, and the half-made client prints a
    traceback from its ``__del__``. The client made here is not made the process's default
    client: the back end passes it, or its futures, to everything that needs it.
    """
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - depends on the installation
        raise _error("the Dask back end needs dask.distributed: pip install 'musici[dask]'") from None
    if isinstance(scheduler, Client):
        return scheduler, False
    address = scheduler_address(scheduler)
    _probe(address, timeout)
    _identify(address, timeout)
    box: dict[str, Any] = {}

    def attempt() -> None:
        try:
            box["client"] = Client(address, timeout=f"{timeout}s", set_as_default=False)
        except BaseException as exc:  # reported in the caller's thread
            box["error"] = exc

    # In a helper thread with a deadline: the scheduler answered a moment ago, but a client
    # that cannot finish connecting must not hang the batch.
    thread = threading.Thread(target=attempt, name="musici-dask-connect", daemon=True)
    thread.start()
    thread.join(timeout + 1)
    if "client" in box:
        return box["client"], True
    raise _unreachable(address, timeout, box.get("error"))


def _error(message: str) -> ValueError:
    from musici.sim.simulate import SimulationError  # here: musici.sim.simulate imports us

    return SimulationError(message)


def _unreachable(address: str, timeout: float, why: BaseException | None) -> ValueError:
    """The one line for an address where no Dask scheduler answered; ``why`` None: nothing
    answered within ``timeout`` seconds."""
    if why is None or isinstance(why, TimeoutError):
        detail = f"no answer within {timeout:g} s of connecting"
    elif isinstance(why, MemoryError):  # a frame length read from bytes that are not Dask's
        detail = "what answered does not speak Dask's protocol"
    else:
        detail = f"{type(why).__name__}: {' '.join(str(why).split())[:200]}"
    return _error(f"cannot reach a Dask scheduler at {address}: {detail}; "
                  f"is `dask scheduler` running there, and is it the scheduler's port?")


def scheduler_address(scheduler: Any) -> str:
    """``scheduler`` as a full Dask address, ``tcp://`` assumed when it names no scheme.

    A malformed address is a :class:`~musici.sim.simulate.SimulationError` naming what is
    wrong and what was expected, raised without touching the network.
    """
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise _error(f"scheduler must be a distributed.Client or an address like "
                     f"tcp://host:8786, got {scheduler!r}")
    from distributed.comm import parse_host_port
    from distributed.comm.registry import get_backend

    text = scheduler.strip()
    scheme, sep, location = text.partition("://")
    if not sep:
        scheme, location = "tcp", text

    def bad(why: str) -> ValueError:
        return _error(f"scheduler address {text!r} is not a Dask address ({why}); "
                      f"expected {EXPECTED_ADDRESS}")

    try:
        get_backend(scheme)
    except ValueError:
        raise bad(f"{scheme}:// is not a Dask protocol") from None
    if scheme == "inproc":  # a scheduler in this very process (LocalCluster(processes=False))
        return f"{scheme}://{location}"
    try:
        host, port = parse_host_port(location)
    except ValueError as exc:
        text_of = str(exc)
        why = ("IPv6 hosts need brackets, like [::1]:8786" if "brackets" in text_of else
               "no port number" if "missing port" in text_of else
               f"the port {location.rpartition(':')[2]!r} is not a number")
        raise bad(why) from None
    if not host:
        raise bad("no host")
    if not 0 < port < 65536:
        raise bad(f"the port {port} is not between 1 and 65535")
    return f"{scheme}://{location}"


def _probe(address: str, timeout: float) -> None:
    """Fail at once on a refused or unresolvable address (Dask would retry until its
    timeout), and after ``timeout`` seconds on one where nothing answers."""
    from distributed.comm import parse_address, parse_host_port

    scheme, location = parse_address(address)
    if scheme not in SOCKET_SCHEMES:
        return
    host, port = parse_host_port(location)
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except TimeoutError:
        raise _error(f"cannot reach a Dask scheduler at {address}: no answer within {timeout:g} s "
                     f"(a machine that is down, or a firewall?); is `dask scheduler` running "
                     f"there?") from None
    except OSError as exc:
        raise _error(f"cannot reach a Dask scheduler at {address}: "
                     f"{exc.strerror or type(exc).__name__}; is `dask scheduler` running "
                     f"there?") from None


def _identify(address: str, timeout: float) -> None:
    """Ask what answers at ``address`` (Dask's ``identity`` message) before making a Client.

    Within ``timeout`` seconds, in a helper thread with its own event loop (the caller may
    be a notebook with one running): a service that is not Dask, or that never answers, is
    then a clear error and leaves no connection attempt behind; so is a worker's address.
    """
    box: dict[str, Any] = {}

    async def ask() -> Any:
        from distributed.comm import connect as open_comm
        from distributed.security import Security

        comm = await open_comm(address, timeout=timeout,
                               **Security().get_connection_args("client"))
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    def run() -> None:
        try:
            box["reply"] = asyncio.run(asyncio.wait_for(ask(), timeout))
        except BaseException as exc:  # reported in the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=run, name="musici-dask-identify", daemon=True)
    thread.start()
    thread.join(timeout + 1)
    reply = box.get("reply")
    kind = reply.get("type") if isinstance(reply, dict) else None
    if kind == "Scheduler":
        return
    if kind in ("Worker", "Nanny"):
        raise _error(f"{address} is a Dask {kind.lower()}, not the scheduler; give the address "
                     f"the scheduler prints (`dask scheduler`: \"Scheduler at: tcp://...\")")
    why = box.get("error")
    if "reply" in box:
        why = ValueError(f"what answered does not say it is a Dask scheduler: {str(reply)[:80]!r}")
    raise _unreachable(address, timeout, why)


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
            watch.add(future)

        for _ in range(workers * 4):
            submit()
        failed: list[GameTask] = []
        while inflight:
            for future in watch.wait():
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
            watch.add(future)
            watch.wait()
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
    """Wait for futures, checking now and then that the cluster still has workers.

    Finished futures are reported by their own callbacks, which run on their own client:
    ``distributed.wait`` and ``as_completed`` without a loop would look for the process's
    default client, and a client made here for an address is not one ("No clients found").
    """

    def __init__(self, client: Any) -> None:
        self.client = client
        self.finished: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.idle_since: float | None = None

    def add(self, future: Any) -> None:
        """Report ``future`` from :meth:`wait` once it has finished (done, failed or cancelled)."""
        future.add_done_callback(self.finished.put)

    def wait(self) -> list[Any]:
        """The added futures that have finished since the last call: at least one."""
        while True:
            try:
                done = [self.finished.get(timeout=5)]
            except queue.Empty:
                done = []
            if done:
                self.idle_since = None
                while not self.finished.empty():
                    done.append(self.finished.get_nowait())
                return done
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
           "run_dask", "run_processes", "run_serial", "scheduler_address"]
