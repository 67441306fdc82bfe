"""Local worker processes watched by the driver: no orphans, no hang, a bad game costs itself.

Each worker has its own pipe and its own session (so its own process group):

- a worker that dies (``os._exit`` in a bot, a crash in C code, a limit's hard stop) loses
  only the chunk it held: the game being played, when known, is reported, and the chunk's
  other games are played again (one per call when the game is not known); a game that
  kills its worker alone is reported with its seed;
- the driver is the watchdog of the time limits. It reads the deadline in force (the
  decision's, or the game's, which holds for the whole game) and the game under way from
  the worker's :class:`~musici.sim.limits.Beacon`, and keeps a deadline for every chunk it
  hands out (with a per-game limit) as a back-up. A worker past a deadline by more than
  the grace its own watchdog has, or frozen past it (a bot blocked in C code holding the
  GIL, or stopped with SIGSTOP: its watchdog's heartbeat stops too), is killed with SIGKILL
  to its whole process group, processes the bot forked included; the game is reported in
  ``errors`` with its seed and the limit, and a fresh worker takes over;
- when the batch ends, or stops, every worker's process group is killed, and every process
  of its session (a bot's child that made a process group of its own, too), so nothing a
  bot started is left running (short of a bot that makes a session of its own: limits are
  not a sandbox, see docs/simulation.md);
- the driver never blocks on a worker's pipe (:class:`_Channel`): a worker that writes
  what is not a message there (a bot writing on the pipe: too long, not a pickle, or left
  unfinished) is killed like a frozen one, and the game under way is reported;
- a worker that cannot start (a limit the system refuses, say) is an error,
  :class:`WorkerFailed`, never a batch that quietly played nothing.

Workers die with the driver (``PR_SET_PDEATHSIG`` and a parent watch, see
:func:`musici.sim.limits.die_with_parent`) and ignore Ctrl-C: the driver kills them
itself, at once, and a second Ctrl-C meanwhile is ignored rather than left to hang.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import os
import pickle
import select
import signal
import struct
import sys
import threading
import time
import traceback
import weakref
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.reduction import ForkingPickler
from typing import Any

from musici.sim.limits import (
    GRACE,
    HARD_EXIT_CODES,
    Beacon,
    GameTimeLimit,
    LimitExceeded,
    Limits,
    worker_setup,
)
from musici.sim.records import GameTask

Work = Callable[[list[GameTask], Limits], Any]  # a module-level function: runs in the workers

TICK = 0.1  # seconds between the driver's looks at its workers
KILL_AFTER = GRACE + 1.0  # past a deadline: the worker's own watchdog had GRACE to end it
FROZEN_AFTER = 1.0  # past a deadline with a heartbeat this old: frozen, killed at once
START_SECONDS = 120.0  # a worker not ready by then is an error
CHUNK_SLACK = 30.0  # a chunk's deadline (with a game limit): its games' limits, grace, and this
MAX_MESSAGE = 1 << 28  # bytes: a worker's message announcing more is garbage (a result is < 5 MB)
STALL_SECONDS = 5.0  # a message begun but not finished, no byte coming for this long: garbage
SEND_SECONDS = 5.0  # a worker that does not take its chunk within this is replaced
MESSAGES = frozenset(("ready", "startup", "ok", "oserror", "fail"))  # what a worker sends

# The driver's ends of the workers' pipes. A forked worker inherits them all: it closes them
# first thing, so a bot cannot write into another worker's (or its own) incoming messages.
_DRIVER_ENDS: weakref.WeakSet[Connection] = weakref.WeakSet()


def _context() -> multiprocessing.context.BaseContext:
    # fork starts fast and carries strategies registered at run time (e.g. in a notebook).
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _exit(code: int) -> None:
    for stream in (sys.stdout, sys.stderr):  # what bots printed, before os._exit drops it
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)


def _worker_main(conn: Connection, work: Work, limits: Limits, beacon: Beacon) -> None:
    with contextlib.suppress(OSError):
        os.setsid()  # a process group of its own: the driver kills it with all it started
    for end in list(_DRIVER_ENDS):  # inherited from the driver (fork): not this process's
        with contextlib.suppress(OSError):
            end.close()
    try:
        worker_setup(limits, beacon)
    except BaseException as exc:  # the driver says so and stops the batch
        with contextlib.suppress(Exception):
            conn.send(("startup", _one_line(exc)))
        _exit(1)
    try:
        conn.send(("ready",))
    except (OSError, ValueError):
        _exit(0)
    while True:
        try:
            chunk = conn.recv()
        except (EOFError, OSError):
            _exit(0)
        if chunk is None:
            _exit(0)
        try:
            result: tuple[Any, ...] = ("ok", work(chunk, limits))
        except OSError as exc:  # a full disk, say: the driver raises it as it is
            result = ("oserror", exc.errno, exc.strerror, exc.filename)
        except BaseException as exc:  # a bug outside any one game: report it, do not hang
            result = ("fail", _one_line(exc))
        conn.send(result)


def _one_line(exc: BaseException) -> str:
    return "".join(traceback.format_exception_only(type(exc), exc)).strip()


class Garbled(Exception):
    """What a worker wrote to the driver is not a message: too long, not a pickle, or left
    unfinished (a bot that wrote on its worker's pipe)."""


class _Channel:
    """The driver's end of a worker's pipe: reads and writes that never block.

    The framing is that of :class:`multiprocessing.connection.Connection` (the worker keeps
    its plain ``Connection``): a 4-byte signed big-endian length (-1: an 8-byte length
    follows), then a pickle. The driver reads whatever bytes are there and keeps the rest of
    an unfinished message for its next look, so a bot that writes half a message (or a
    length of a gigabyte) on the pipe cannot block it: the message is :class:`Garbled`.
    """

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.fd = conn.fileno()
        os.set_blocking(self.fd, False)
        self.buffer = bytearray()
        self.eof = False
        self.last = 0.0  # when the last byte of an unfinished message came
        self.seed: int | None = None  # the game under way when the unfinished message began

    def read(self, beacon: Beacon) -> list[tuple[Any, ...]]:
        """The messages complete so far; raises :class:`Garbled` (and then at every call)."""
        got = False
        while not self.eof:
            try:
                data = os.read(self.fd, 1 << 20)
            except BlockingIOError:
                break
            except OSError:
                self.eof = True
                break
            if not data:
                self.eof = True
                break
            if not self.buffer:  # a message begins: the game it may belong to, if it is garbage
                self.seed = beacon.read()[2]
            self.buffer += data
            got = True
        messages: list[tuple[Any, ...]] = []
        buffer = self.buffer
        while len(buffer) >= 4:
            (size,) = struct.unpack_from("!i", buffer)
            start = 4
            if size == -1:
                if len(buffer) < 12:
                    break
                (size,) = struct.unpack_from("!Q", buffer, 4)
                start = 12
            if size < 0 or size > MAX_MESSAGE:
                raise Garbled(f"a message announced as {size} bytes (at most {MAX_MESSAGE} are "
                              f"taken)")
            if len(buffer) < start + size:
                break
            body = bytes(buffer[start:start + size])
            del buffer[:start + size]
            try:
                message = pickle.loads(body)
            except Exception as exc:
                raise Garbled(f"{size} bytes that are not a message ({type(exc).__name__})") from None
            if not (isinstance(message, tuple) and message and message[0] in MESSAGES):
                raise Garbled(f"an unknown message of {size} bytes")
            messages.append(message)
            if buffer:
                self.seed = beacon.read()[2]
        now = time.monotonic()
        if got:
            self.last = now
        if buffer and now - self.last > STALL_SECONDS:
            raise Garbled(f"a message left unfinished ({len(buffer)} bytes, none for "
                          f"{STALL_SECONDS:g} s)")
        if buffer and self.eof:
            raise Garbled(f"a message cut short ({len(buffer)} bytes)")
        return messages

    def send(self, obj: Any, timeout: float = SEND_SECONDS) -> bool:
        """Write ``obj`` as one message within ``timeout`` seconds; whether it was."""
        body = ForkingPickler.dumps(obj)
        size = len(body)
        header = struct.pack("!i", size) if size <= 0x7FFFFFFF else struct.pack("!iQ", -1, size)
        data = memoryview(header + bytes(body))
        until = time.monotonic() + timeout
        while data:
            try:
                data = data[os.write(self.fd, data):]
            except BlockingIOError:
                left = until - time.monotonic()
                if left <= 0:
                    return False
                with contextlib.suppress(OSError):
                    select.select([], [self.fd], [], min(left, TICK))
            except OSError:  # the worker is gone: the next look finds it
                return False
        return True


class _Worker:
    def __init__(self, ctx: Any, work: Work, limits: Limits) -> None:
        self.beacon = Beacon(ctx)
        self.conn, child = ctx.Pipe()
        _DRIVER_ENDS.add(self.conn)
        self.process = ctx.Process(target=_worker_main, args=(child, work, limits, self.beacon),
                                   daemon=True)
        self.process.start()
        child.close()
        self.channel = _Channel(self.conn)
        self.pid: int = self.process.pid
        self.started = time.monotonic()
        self.ready = False  # it said so: its start-up is done
        self.broken = False  # its pipe ended while it lived: it can report nothing more
        self.garbled: Garbled | None = None  # it wrote something that is not a message
        self.gone = False  # killed and reaped
        self.chunk: list[GameTask] | None = None
        self.deadline = math.inf  # the chunk's, on the driver's clock

    def give(self, chunk: list[GameTask], limits: Limits) -> bool:
        """Hand ``chunk`` over; False if the worker did not take it (then it is no use)."""
        self.chunk = chunk
        self.deadline = (time.monotonic() + len(chunk) * (limits.game_seconds + KILL_AFTER) + CHUNK_SLACK
                         if limits.game_seconds is not None else math.inf)
        if self.channel.send(chunk):
            return True
        self.chunk = None
        return False

    def receive(self) -> list[tuple[Any, ...]]:
        if self.garbled is not None:
            return []
        try:
            messages = self.channel.read(self.beacon)
        except Garbled as exc:
            self.garbled = exc
            return []
        if self.channel.eof:
            self.broken = True
        return messages

    def exited(self) -> bool:
        """Whether the worker has ended (without reaping it: its pid still names its group)."""
        if not hasattr(os, "waitid"):  # pragma: no cover - platforms without waitid
            return self.process.exitcode is not None
        try:
            flags = os.WEXITED | os.WNOHANG | os.WNOWAIT
            return os.waitid(os.P_PID, self.pid, flags) is not None
        except ChildProcessError:
            return True

    def kill(self, sessions: bool = True) -> None:
        """SIGKILL the worker's process group and session (what a bot forked, too), then
        reap it; ``sessions=False`` leaves the session to the caller (:func:`_kill_sessions`)."""
        if self.gone:
            return
        self.gone = True
        # Not reaped yet, so the pid still names this worker (and its group) and no other.
        with contextlib.suppress(OSError):
            os.killpg(self.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            self.process.kill()  # not yet in a group of its own: the worker alone
        if sessions:
            _kill_sessions({self.pid})
        self.process.join(timeout=5)
        self.conn.close()


class WorkerFailed(RuntimeError):
    """A chunk failed outside its games (a bug in musici, not in a bot), or a worker could
    not start."""


def run_pool(chunks: Iterable[list[GameTask]], work: Work, jobs: int, limits: Limits,
             on_done: Callable[[list[GameTask], Any], None],
             on_died: Callable[[GameTask, str], None]) -> None:
    """Play ``chunks`` on ``jobs`` workers; ``on_done(chunk, work's result)`` in the driver,
    ``on_died(game, how)`` for a game that broke a limit the driver enforced or killed its
    worker.

    Chunks are taken from the iterable only as workers free up, so a lazy iterable keeps
    the driver's memory flat however long the batch.
    """
    ctx = _context()
    source: Iterator[list[GameTask]] = iter(chunks)
    retry: deque[list[GameTask]] = deque()  # games of a chunk whose worker was lost
    workers: list[_Worker] = []
    exhausted = False
    try:
        workers.extend(_Worker(ctx, work, limits) for _ in range(jobs))
        while True:
            for i, w in enumerate(workers):
                if w.chunk is not None:
                    continue
                if _lost_while_idle(w):  # a bot's thread ended it after its chunk, say
                    workers[i] = w = _Worker(ctx, work, limits)
                chunk = None
                if retry:
                    chunk = retry.popleft()
                elif not exhausted:
                    chunk = next(source, None)
                    exhausted = chunk is None
                if chunk is not None and not w.give(chunk, limits):
                    # It does not read its pipe (a bot's thread froze it between chunks):
                    # a fresh worker takes the chunk, whose games are not to blame.
                    w.kill()
                    workers[i] = _Worker(ctx, work, limits)
                    retry.appendleft(chunk)
            busy = [w for w in workers if w.chunk is not None]
            if not busy:
                return
            wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout=TICK)
            for i, w in enumerate(workers):
                if w.chunk is None:
                    continue
                result = _look(w, limits)
                if result is None:
                    continue  # still playing
                chunk, w.chunk = w.chunk, None
                if result[0] == "ok":
                    on_done(chunk, result[1])
                    continue
                if result[0] == "oserror":
                    raise OSError(*result[1:])
                if result[0] == "fail":
                    raise WorkerFailed(f"a worker failed outside any game: {result[1]}")
                # Lost ("died" or "overrun"): kill what is left of it, find the game, go on.
                w.kill()
                if not w.ready:
                    raise WorkerFailed(f"a worker process died while starting (exit code "
                                       f"{w.process.exitcode}); no game was played")
                workers[i] = _Worker(ctx, work, limits)
                how, seed = result[1], result[2]
                if result[0] == "died" and how is None:
                    how = _death(w.process.exitcode, limits)
                _settle(chunk, seed, how, retry, on_died)
    except BaseException:
        # Ctrl-C (or SIGTERM turned into it) lands here: stop every worker now; a second
        # Ctrl-C during these few milliseconds is ignored instead of interrupting the kill.
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            live = {w.pid for w in workers if not w.gone}
            for w in workers:
                w.kill(sessions=False)
            _kill_sessions(live)
        finally:
            if previous is not None:
                signal.signal(signal.SIGINT, previous)
        raise
    finally:
        _stop(workers)


def _lost_while_idle(w: _Worker) -> bool:
    """Whether an idle worker has ended (then it is reaped); one that never started is an error."""
    for message in w.receive():
        if message[0] == "ready":
            w.ready = True
        elif message[0] == "startup":
            raise WorkerFailed(f"a worker process could not start: {message[1]}")
    if not (w.broken or w.garbled or w.exited()):
        return False
    w.kill()
    if not w.ready:
        raise WorkerFailed(f"a worker process died while starting (exit code {w.process.exitcode})")
    return True


def _look(w: _Worker, limits: Limits) -> tuple[Any, ...] | None:
    """What became of a busy worker: its result, ``("died" | "overrun", how, seed)``, or None.

    ``how`` is the reason to report (None: from the exit code), ``seed`` the seed of the
    game it was playing when known.
    """
    for message in w.receive():
        if message[0] == "ready":
            w.ready = True
        elif message[0] == "startup":
            raise WorkerFailed(f"a worker process could not start: {message[1]}")
        else:
            return message
    now = time.monotonic()
    deadline, kind, seed, beat = w.beacon.read()
    if w.garbled is not None:  # a bot wrote on the pipe: during the game under way then
        return "overrun", (f"its worker wrote {w.garbled} on its pipe to the driver (a bot "
                           f"writing there?); the driver killed it"), w.channel.seed
    if w.broken or w.exited():
        # Died in a game (a hard stop, os._exit in a bot): that game (the beacon shows it).
        return "died", None, seed
    if not w.ready and now - w.started > START_SECONDS:
        raise WorkerFailed(f"a worker process was not ready {START_SECONDS:g} s after it started")
    if deadline is not None and now > deadline + FROZEN_AFTER:
        if now - beat > FROZEN_AFTER:  # its watchdog has stopped too: nothing inside can act
            return "overrun", (f"{limits.describe(kind())} (its worker froze: the bot blocked it, "
                               f"in C code or stopped; the driver killed it)"), seed
        if now > deadline + KILL_AFTER:
            return "overrun", (f"{limits.describe(kind())} (the bot ignored the stop; its worker "
                               f"was killed)"), seed
    if now > w.deadline:  # past every game's limit and grace (a back-up: each game has one)
        return "overrun", (f"{limits.describe(GameTimeLimit())} (its worker was still busy "
                           f"past the chunk's time and was killed)"), seed
    return None


def _settle(chunk: list[GameTask], seed: int | None, how: str, retry: deque[list[GameTask]],
            on_died: Callable[[GameTask, str], None]) -> None:
    """Report the game that lost its worker; the chunk's other games go round again."""
    culprits = [k for k, t in enumerate(chunk) if seed is not None and (t.seed & Beacon.SEED_MASK) == seed]
    if len(culprits) == 1:
        k = culprits[0]
        on_died(chunk[k], how)
        retry.extend(part for part in (chunk[:k], chunk[k + 1:]) if part)
    elif len(chunk) > 1:  # which game it was is not known: each alone, so it shows
        retry.extend([t] for t in chunk)
    else:
        on_died(chunk[0], how)


def _stop(workers: Sequence[_Worker]) -> None:
    """End the workers: ask them to exit, then kill every process group and session,
    stragglers and all."""
    for w in workers:
        if not w.gone:
            w.channel.send(None, timeout=0.1)
    until = time.monotonic() + 1.0
    while time.monotonic() < until and not all(w.gone or w.exited() for w in workers):
        time.sleep(0.01)
    live = {w.pid for w in workers if not w.gone}
    for w in workers:
        w.kill(sessions=False)
    _kill_sessions(live)  # one look at /proc for them all


def _session_members(sessions: set[int]) -> list[int]:
    """The live processes (not zombies) whose session id is in ``sessions`` (Linux: /proc)."""
    members = []
    try:
        names = os.listdir("/proc")
    except OSError:  # pragma: no cover - no /proc: the process-group kill is all there is
        return []
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:  # ended meanwhile
            continue
        # After the command's name (in parentheses, and it may hold anything): the state
        # (field 3), ppid, process group, session (field 6).
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 3 and fields[0] != b"Z" and int(fields[3]) in sessions:
            members.append(int(name))
    return members


def _kill_sessions(sessions: set[int]) -> None:
    """SIGKILL every process of the workers' ``sessions`` (their pids: each worker leads one).

    A bot's child that made a process group of its own (``os.setpgid(0, 0)``) escapes the
    process-group kill but stays in its worker's session. Safe however late: Linux does
    not give a pid to a new process while it still names a session with members. A
    process that makes a session of its own (``os.setsid``) is out of reach (documented).
    """
    if not sessions or not sys.platform.startswith("linux"):
        return
    until = time.monotonic() + 2.0
    while True:
        members = _session_members(sessions)
        if not members:
            return
        for pid in members:  # again while they fork: each round kills what the last one made
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        if time.monotonic() > until:
            return
        time.sleep(0.002)


def _death(exitcode: int | None, limits: Limits) -> str:
    reason: type[LimitExceeded] | None = HARD_EXIT_CODES.get(exitcode or 0)
    if reason is not None:
        return f"{limits.describe(reason())} (the bot ignored the stop; its worker was killed)"
    return f"its worker process died while playing it (exit code {exitcode})"


def musici_bots_only(lineups: Iterable[Sequence[Any]]) -> bool:
    """Whether every strategy of ``lineups`` is one of musici's own bots (by name, or an
    object defined in musici): only such line-ups may run in the driver's own process."""
    from musici.strategies import registry

    for lineup in lineups:
        for spec in lineup:
            if isinstance(spec, str):
                name = spec.strip()
                if name not in registry._BUILTIN or name in registry._REGISTERED:
                    return False
            else:
                module = getattr(spec, "__module__", None)
                if not isinstance(module, str) or not (module == "musici" or module.startswith("musici.")):
                    return False
    return True


__all__ = ["WorkerFailed", "musici_bots_only", "run_pool"]
