"""Local worker processes that stop cleanly: no orphans, no hang, a dead worker costs one game.

Each worker has its own pipe, so a worker that dies (``os._exit`` in a bot, a crash in C
code, a limit's hard stop) loses only the chunk it held: that chunk's games are played
again one per call, and a game that kills its worker alone is reported with its seed.
Workers die with the driver (``PR_SET_PDEATHSIG`` and a parent watch, see
:func:`musici.sim.limits.die_with_parent`) and ignore Ctrl-C: the driver kills them
itself, at once, and a second Ctrl-C meanwhile is ignored rather than left to hang.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any

from musici.sim.limits import HARD_EXIT_CODES, Limits, worker_setup
from musici.sim.records import GameTask

Work = Callable[[list[GameTask], Limits], Any]  # a module-level function: runs in the workers


def _context() -> multiprocessing.context.BaseContext:
    # fork starts fast and carries strategies registered at run time (e.g. in a notebook).
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _worker_main(conn: Connection, work: Work, limits: Limits) -> None:
    worker_setup(limits)
    while True:
        try:
            chunk = conn.recv()
        except (EOFError, OSError):
            os._exit(0)
        if chunk is None:
            os._exit(0)
        try:
            result: tuple[Any, ...] = ("ok", work(chunk, limits))
        except OSError as exc:  # a full disk, say: the driver raises it as it is
            result = ("oserror", exc.errno, exc.strerror, exc.filename)
        except BaseException as exc:  # a bug outside any one game: report it, do not hang
            result = ("fail", "".join(traceback.format_exception_only(type(exc), exc)).strip())
        conn.send(result)


class _Worker:
    def __init__(self, ctx: Any, work: Work, limits: Limits) -> None:
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_worker_main, args=(child, work, limits), daemon=True)
        self.process.start()
        child.close()
        self.chunk: list[GameTask] | None = None

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()


class WorkerFailed(RuntimeError):
    """A chunk failed outside its games (a bug in musici, not in a bot)."""


def run_pool(chunks: Iterable[list[GameTask]], work: Work, jobs: int, limits: Limits,
             on_done: Callable[[list[GameTask], Any], None],
             on_died: Callable[[GameTask, str], None]) -> None:
    """Play ``chunks`` on ``jobs`` workers; ``on_done(chunk, work's result)`` in the driver.

    Chunks are taken from the iterable only as workers free up, so a lazy iterable keeps
    the driver's memory flat however long the batch.
    """
    ctx = _context()
    source: Iterator[list[GameTask]] = iter(chunks)
    retry: deque[list[GameTask]] = deque()  # games of a chunk whose worker died, one by one
    workers = [_Worker(ctx, work, limits) for _ in range(jobs)]
    exhausted = False
    try:
        while True:
            for w in workers:
                if w.chunk is not None:
                    continue
                if retry:
                    w.chunk = retry.popleft()
                elif not exhausted:
                    w.chunk = next(source, None)
                    exhausted = w.chunk is None
                if w.chunk is not None:
                    w.conn.send(w.chunk)
            busy = [w for w in workers if w.chunk is not None]
            if not busy:
                return
            ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy],
                             timeout=1.0))
            for i, w in enumerate(workers):
                if w.chunk is None:
                    continue
                result = None
                if w.conn in ready:
                    with contextlib.suppress(EOFError, OSError):
                        result = w.conn.recv()
                elif w.process.sentinel not in ready:
                    continue
                chunk, w.chunk = w.chunk, None
                if result is not None:
                    if result[0] == "oserror":
                        raise OSError(*result[1:])
                    if result[0] == "fail":
                        raise WorkerFailed(f"a worker failed outside any game: {result[1]}")
                    on_done(chunk, result[1])
                    continue
                w.kill()  # it died: replace it, and find the game that killed it
                workers[i] = _Worker(ctx, work, limits)
                if len(chunk) > 1:
                    retry.extend([t] for t in chunk)
                else:
                    on_died(chunk[0], _death(w.process.exitcode, limits))
    except BaseException:
        # Ctrl-C (or SIGTERM turned into it) lands here: stop every worker now; a second
        # Ctrl-C during these few milliseconds is ignored instead of interrupting the kill.
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            for w in workers:
                w.kill()
        finally:
            signal.signal(signal.SIGINT, previous)
        raise
    finally:
        for w in workers:
            if w.process.is_alive():
                with contextlib.suppress(OSError):
                    w.conn.send(None)
        for w in workers:
            w.process.join(timeout=2)
            if w.process.is_alive():
                w.kill()


def _death(exitcode: int | None, limits: Limits) -> str:
    reason = HARD_EXIT_CODES.get(exitcode or 0)
    if reason is not None:
        return f"{limits.describe(reason())} (the bot ignored the stop; its worker was killed)"
    return f"its worker process died while playing it (exit code {exitcode})"


__all__ = ["WorkerFailed", "run_pool"]
