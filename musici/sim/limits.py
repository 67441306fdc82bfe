"""Limits for bots in a batch: time per decision, time per game, memory per worker process.

A game that breaks a limit is stopped and reported in ``errors`` with its seed and the
limit; the batch goes on. Time limits are enforced by a watchdog thread in the process
that plays the game: it raises an exception in the playing thread (a signal for the main
thread, so that a bot blocked in ``time.sleep`` is woken too). A bot that swallows even
that, or hangs inside C code, is killed with its worker process by the batch driver
(see :mod:`musici.sim.pool`). The memory limit caps the worker's address space
(``RLIMIT_AS``), so a hog meets a ``MemoryError`` instead of the OOM killer.
"""

from __future__ import annotations

import ctypes
import math
import os
import resource
import signal
import sys
import threading
import time
from dataclasses import dataclass


class LimitExceeded(BaseException):  # BaseException: a bot's ``except Exception`` cannot eat it
    """Raised in a game's thread when it runs past a time limit."""


class DecisionTimeLimit(LimitExceeded):
    pass


class GameTimeLimit(LimitExceeded):
    pass


@dataclass(frozen=True)
class Limits:
    """Per-decision and per-game seconds, and megabytes of memory per worker (None: no limit)."""

    decision_seconds: float | None = None
    game_seconds: float | None = None
    memory_mb: int | None = None

    def __post_init__(self) -> None:
        for name in ("decision_seconds", "game_seconds"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)
                                      or not math.isfinite(value) or value <= 0):
                raise ValueError(f"{name} must be a positive number of seconds or None, got {value!r}")
        m = self.memory_mb
        if m is not None and (isinstance(m, bool) or not isinstance(m, int) or m < 50):
            raise ValueError(f"memory_mb must be an integer of at least 50 (MB) or None, got {m!r}")

    @property
    def any(self) -> bool:
        return any(v is not None for v in (self.decision_seconds, self.game_seconds, self.memory_mb))

    def describe(self, exc: BaseException) -> str:
        if isinstance(exc, DecisionTimeLimit):
            return f"a bot exceeded the time limit of {self.decision_seconds:g} s per decision"
        if isinstance(exc, GameTimeLimit):
            return f"the game exceeded the time limit of {self.game_seconds:g} s per game"
        return f"exceeded the memory limit of {self.memory_mb} MB per worker"


NO_LIMITS = Limits()
GRACE = 3.0  # seconds a stopped bot has to let go before its worker process is killed
HARD_EXIT_CODES: dict[int, type[LimitExceeded]] = {71: DecisionTimeLimit, 72: GameTimeLimit}


class _Watchdog:
    """One daemon thread per process raising a timeout in threads whose deadline passed."""

    def __init__(self) -> None:
        self.deadlines: dict[int, tuple[float, type[LimitExceeded]]] = {}
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None
        self.pending: type[LimitExceeded] | None = None  # for the main thread's signal handler
        self.stopped: dict[int, tuple[float, type[LimitExceeded]]] = {}  # stopped, not yet out
        self.hard_exit = False  # in a worker process: exit when a bot ignores the stop

    def arm(self, deadline: float, kind: type[LimitExceeded]) -> None:
        with self.lock:
            self.deadlines[threading.get_ident()] = (deadline, kind)
            if self.thread is None or not self.thread.is_alive():
                if threading.current_thread() is threading.main_thread():
                    signal.signal(signal.SIGUSR2, self._raise_pending)
                self.thread = threading.Thread(target=self._run, name="musici-limits", daemon=True)
                self.thread.start()

    def disarm(self) -> None:
        ident = threading.get_ident()
        with self.lock:
            self.deadlines.pop(ident, None)
            if self.stopped.pop(ident, None) is not None:
                # The bot answered just as time ran out: drop a stop not yet delivered, so it
                # cannot go off later outside the game.
                if ident == threading.main_thread().ident:
                    self.pending = None
                else:
                    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), None)

    def _raise_pending(self, signum: int, frame: object) -> None:
        kind, self.pending = self.pending, None
        if kind is not None:
            raise kind()

    def _run(self) -> None:
        main = threading.main_thread().ident
        while True:
            time.sleep(0.02)
            now = time.monotonic()
            with self.lock:
                due = [(t, k) for t, (d, k) in self.deadlines.items() if d <= now]
                for t, k in due:
                    del self.deadlines[t]
                    self.stopped[t] = (now + GRACE, k)
                ignored = [k for d, k in self.stopped.values() if d <= now]
            if ignored and self.hard_exit:
                code = {v: c for c, v in HARD_EXIT_CODES.items()}[ignored[0]]
                os._exit(code)
            for ident, kind in due:
                if ident == main:
                    self.pending = kind
                    signal.pthread_kill(ident, signal.SIGUSR2)
                else:
                    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident),
                                                               ctypes.py_object(kind))


WATCHDOG = _Watchdog()


class TimedStrategy:
    """A strategy that must answer within ``seconds`` (and before the game's deadline)."""

    def __init__(self, strategy: object, seconds: float | None, game_deadline: float | None) -> None:
        self.strategy, self.seconds, self.game_deadline = strategy, seconds, game_deadline

    def __call__(self, view: object, decision: object) -> object:
        now = time.monotonic()
        kind: type[LimitExceeded] = DecisionTimeLimit
        deadline = now + self.seconds if self.seconds is not None else math.inf
        if self.game_deadline is not None and self.game_deadline < deadline:
            deadline, kind = self.game_deadline, GameTimeLimit
        WATCHDOG.arm(deadline, kind)
        try:
            return self.strategy(view, decision)  # type: ignore[operator]
        finally:
            WATCHDOG.disarm()


def set_memory_limit(megabytes: int) -> None:
    """Cap this process's address space at its current size plus ``megabytes``."""
    current = 0
    try:
        with open("/proc/self/statm") as f:
            current = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):  # not Linux: count from zero
        pass
    limit = current + megabytes * 1024 * 1024
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when its parent dies (no orphan workers)."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            pr_set_pdeathsig = 1
            libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - a libc without prctl
            pass
    parent = os.getppid()
    if parent == 1:  # the parent died before prctl took effect
        os._exit(1)

    def watch() -> None:  # elsewhere (and as a back-up): poll the parent
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="musici-parent-watch", daemon=True).start()


def worker_setup(limits: Limits) -> None:
    """Initializer of a worker process: die with the parent, leave Ctrl-C to it, set limits."""
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the driver stops the workers itself
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    WATCHDOG.hard_exit = True
    if limits.memory_mb is not None:
        set_memory_limit(limits.memory_mb)


__all__ = ["HARD_EXIT_CODES", "NO_LIMITS", "DecisionTimeLimit", "GameTimeLimit", "LimitExceeded", "Limits",
           "TimedStrategy", "die_with_parent", "set_memory_limit", "worker_setup"]
