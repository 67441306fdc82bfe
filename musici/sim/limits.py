"""Limits for bots in a batch: time per decision, time per game, memory per worker process.

A game that breaks a limit is stopped and reported in ``errors`` with its seed and the
limit; the batch goes on. Time limits are enforced twice:

- a watchdog thread in the process that plays the game raises an exception in the playing
  thread (a signal for the main thread, so that a bot blocked in ``time.sleep`` is woken
  too). The game's limit holds for the whole game (:class:`GameWindow`), also for code
  that runs after a bot returned; a decision's, while the bot is asked. A stop the bot
  swallows still counts: the game is stopped as soon as the bot answers
  (:class:`TimedStrategy`), and a bot that goes on thinking has its worker exit after
  ``GRACE`` seconds;
- the batch driver (:mod:`musici.sim.pool`) reads each worker's :class:`Beacon` (the
  deadline in force, the seed of the game under way, the watchdog's heartbeat) and kills
  the worker's whole process group and session when a deadline has passed and the
  worker's own watchdog did not end it: a bot blocked in C code holding the GIL, or
  stopped by SIGSTOP.

The memory limit caps the worker's address space (``RLIMIT_AS``), so a hog meets a
``MemoryError`` instead of the OOM killer.
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
from typing import Any

from musici.sim.worker_gc import tune_gc

# The largest memory limit accepted: 128 TiB, the whole address space of a 64-bit Linux
# process (above any machine's memory; a larger number would be no limit at all, and past
# 2**63 bytes setrlimit cannot even hold it).
MAX_MEMORY_MB = 2**27


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
        if m is not None and (isinstance(m, bool) or not isinstance(m, int) or m < 50
                              or m > MAX_MEMORY_MB):
            raise ValueError(f"memory_mb must be an integer of at least 50 and at most "
                             f"{MAX_MEMORY_MB} (MB, i.e. 128 TiB, a 64-bit process's whole "
                             f"address space) or None, got {m!r}")

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


class Beacon:
    """What a worker process shows the batch driver in shared memory, needing no message.

    Three 64-bit cells: the deadline in force (microseconds of ``time.monotonic()``, the
    system-wide monotonic clock; positive for a decision's limit, negative for the game's,
    which holds for the whole game, between decisions too; 0 for none), the heartbeat of the
    worker's watchdog thread, and the seed of the game under way (from before its bots are
    made until its end, limits or not; ``NO_SEED`` between games). The driver reads them without
    the worker's help, so it sees a deadline pass even when the worker is frozen (a bot in
    C code holding the GIL, or stopped by SIGSTOP): then the heartbeat is old too.
    """

    DEADLINE, HEARTBEAT, SEED = 0, 1, 2
    NO_SEED = -1
    SEED_MASK = 2**63 - 1  # seeds are 63-bit (musici.sim.seeds); others are compared masked

    def __init__(self, ctx: Any = None) -> None:
        if ctx is None:
            import multiprocessing

            ctx = multiprocessing
        self.cells = ctx.RawArray("q", 3)
        self.cells[self.SEED] = self.NO_SEED

    # In the worker.
    def publish(self, deadline: float, kind: type[LimitExceeded], seed: int | None) -> None:
        cells = self.cells
        cells[self.HEARTBEAT] = int(time.monotonic() * 1e6)
        cells[self.SEED] = self.NO_SEED if seed is None else seed & self.SEED_MASK
        # One store: the driver never reads half a deadline.
        cells[self.DEADLINE] = (max(1, int(deadline * 1e6)) * (-1 if kind is GameTimeLimit else 1)
                                if math.isfinite(deadline) else 0)

    def clear(self) -> None:
        """No deadline (the game, if any, goes on: its seed stays)."""
        self.cells[self.DEADLINE] = 0

    def end(self) -> None:
        """No game under way."""
        self.cells[self.DEADLINE] = 0
        self.cells[self.SEED] = self.NO_SEED

    def beat(self) -> None:
        self.cells[self.HEARTBEAT] = int(time.monotonic() * 1e6)

    # In the driver.
    def read(self) -> tuple[float | None, type[LimitExceeded], int | None, float]:
        """(deadline or None, which limit, the game's seed or None, last heartbeat)."""
        cells = self.cells
        raw, beat, seed = cells[self.DEADLINE], cells[self.HEARTBEAT], cells[self.SEED]
        kind: type[LimitExceeded] = GameTimeLimit if raw < 0 else DecisionTimeLimit
        return (abs(raw) / 1e6 if raw else None, kind, None if seed == self.NO_SEED else seed,
                beat / 1e6)


class _Watchdog:
    """One daemon thread per process raising a timeout in threads whose deadline passed."""

    def __init__(self) -> None:
        self.deadlines: dict[int, tuple[float, type[LimitExceeded]]] = {}
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None
        self.pending: type[LimitExceeded] | None = None  # for the main thread's signal handler
        self.stopped: dict[int, tuple[float, type[LimitExceeded]]] = {}  # stopped, not yet out
        self.hard_exit = False  # in a worker process: exit when a bot ignores the stop
        self.beacon: Beacon | None = None  # in a worker process of musici.sim.pool
        self.games: dict[int, tuple[float, int | None]] = {}  # a game's deadline and seed

    def start_game(self, deadline: float | None, seed: int | None) -> None:
        """A game begins in this thread: its deadline holds until :meth:`end_game`, between
        decisions too (a decision's own is the earlier of its limit and this)."""
        if deadline is None:
            if self.beacon is not None:
                self.beacon.publish(math.inf, GameTimeLimit, seed)
            return
        with self.lock:
            self.games[threading.get_ident()] = (deadline, seed)
        self.arm(deadline, GameTimeLimit, seed)

    def end_game(self) -> type[LimitExceeded] | None:
        """This thread's game is over: no deadline; the limit whose stop was issued, if any."""
        with self.lock:
            had = self.games.pop(threading.get_ident(), None)
        fired = self.disarm() if had is not None else None
        if self.beacon is not None:
            self.beacon.end()
        return fired

    def arm(self, deadline: float, kind: type[LimitExceeded], seed: int | None = None) -> None:
        ident = threading.get_ident()
        with self.lock:
            # A stop still held from an earlier decision (delivered at a moment its thread
            # could not disarm it) is over: this thread is back in play.
            if self.stopped.pop(ident, None) is not None:
                self._withdraw(ident)
            self.deadlines[ident] = (deadline, kind)
            if self.beacon is not None:
                self.beacon.publish(deadline, kind, seed)
            if self.thread is None or not self.thread.is_alive():
                if threading.current_thread() is threading.main_thread():
                    signal.signal(signal.SIGUSR2, self._raise_pending)
                self.thread = threading.Thread(target=self._run, name="musici-limits", daemon=True)
                self.thread.start()

    def disarm(self) -> type[LimitExceeded] | None:
        """End this thread's deadline; the limit that fired, if its stop was issued."""
        ident = threading.get_ident()
        with self.lock:
            self.deadlines.pop(ident, None)
            fired = self.stopped.pop(ident, None)
            if fired is not None:
                self._withdraw(ident)
            game = self.games.get(ident)
            if game is not None and fired is None:  # back to the game's own deadline
                self.deadlines[ident] = (game[0], GameTimeLimit)
                if self.beacon is not None:
                    self.beacon.publish(game[0], GameTimeLimit, game[1])
            elif self.beacon is not None:
                self.beacon.clear()
        return None if fired is None else fired[1]

    def _withdraw(self, ident: int) -> None:
        """Drop a stop not yet delivered, so it cannot go off later outside the game."""
        if ident == threading.main_thread().ident:
            self.pending = None
        else:
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), None)

    def _raise_pending(self, signum: int, frame: object) -> None:
        kind, self.pending = self.pending, None
        # Only while the stop is current: once disarmed, a late signal is no one's business.
        if kind is not None and threading.get_ident() in self.stopped:
            raise kind()

    def _run(self) -> None:
        main = threading.main_thread().ident
        while True:
            time.sleep(0.02)
            if self.beacon is not None:
                self.beacon.beat()
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
                # Delivered under the lock, so a disarm either comes first (and there is no
                # stop) or after (and it withdraws a stop not yet raised).
                for ident, kind in due:
                    if ident == main:
                        self.pending = kind
                        signal.pthread_kill(ident, signal.SIGUSR2)
                    else:
                        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident),
                                                                   ctypes.py_object(kind))


WATCHDOG = _Watchdog()


def _disarm() -> type[LimitExceeded] | None:
    """:meth:`_Watchdog.disarm`, again if the stop itself lands in the middle of it."""
    fired: type[LimitExceeded] | None = None
    for _ in range(3):
        try:
            got = WATCHDOG.disarm()
        except LimitExceeded as exc:  # delivered just now: it fired; disarm for good
            fired = type(exc)
            continue
        return got or fired
    return fired


def _end_game() -> type[LimitExceeded] | None:
    """:meth:`_Watchdog.end_game`, again if the stop itself lands in the middle of it."""
    fired: type[LimitExceeded] | None = None
    for _ in range(3):
        try:
            got = WATCHDOG.end_game()
        except LimitExceeded as exc:
            fired = type(exc)
            continue
        return got or fired
    return fired


class GameWindow:
    """The whole of one game, in the thread that plays it (``with GameWindow(...):``).

    With a ``deadline`` (``time.monotonic()``), the game is stopped when it passes whatever
    runs then: a bot, or code of the game's after a bot returned (the engine calling an
    answer's ``__repr__``, say). A stop the game swallowed still counts: the window raises
    the limit as it closes. In a worker of the batch driver, the beacon shows the game's
    ``seed`` (and its deadline) from start to end, so the driver knows which game a worker
    it kills, or loses, was playing.
    """

    __slots__ = ("deadline", "seed")

    def __init__(self, deadline: float | None, seed: int | None) -> None:
        self.deadline, self.seed = deadline, seed

    def __enter__(self) -> GameWindow:
        try:
            WATCHDOG.start_game(self.deadline, self.seed)
        except BaseException:  # a stop delivered at once (a deadline already past)
            _end_game()
            raise
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: object) -> None:
        fired = _end_game()
        if fired is None or (kind is not None and issubclass(kind, LimitExceeded)):
            return
        if kind is None or issubclass(kind, Exception) or in_worker():
            raise fired() from None  # swallowed, or turned into another error: the limit's


def _seed(view: object) -> int | None:
    seed = getattr(getattr(view, "_game", None), "seed", None)
    return seed if isinstance(seed, int) else None


class TimedStrategy:
    """A strategy that must answer within ``seconds`` (and before the game's deadline).

    A limit whose stop was issued is a breach whatever the bot does with the stop: if it
    swallows it and answers anyway (or raises something else), the answer is thrown away and
    the limit is raised here, so the game is reported as having broken it.
    """

    def __init__(self, strategy: object, seconds: float | None, game_deadline: float | None) -> None:
        self.strategy, self.seconds, self.game_deadline = strategy, seconds, game_deadline

    def __call__(self, view: object, decision: object) -> object:
        now = time.monotonic()
        kind: type[LimitExceeded] = DecisionTimeLimit
        deadline = now + self.seconds if self.seconds is not None else math.inf
        if self.game_deadline is not None and self.game_deadline < deadline:
            deadline, kind = self.game_deadline, GameTimeLimit
        WATCHDOG.arm(deadline, kind, _seed(view))
        try:
            answer = self.strategy(view, decision)  # type: ignore[operator]
        except BaseException:
            fired = _disarm()
            if fired is not None:
                raise fired() from None
            raise
        fired = _disarm()
        if fired is not None:  # the bot caught the stop and answered all the same
            raise fired()
        return answer


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


_IN_WORKER = [False]


def in_worker() -> bool:
    """Whether this is a worker process of the batch driver (set up by :func:`worker_setup`).

    There Ctrl-C is ignored (the driver stops its workers itself), so a ``KeyboardInterrupt``
    can only come from a bot: it costs that bot's game, not the batch.
    """
    return _IN_WORKER[0]


def worker_setup(limits: Limits, beacon: Beacon | None = None) -> None:
    """Initializer of a worker process: die with the parent, leave Ctrl-C to it, set limits,
    tune the garbage collector (:mod:`musici.sim.worker_gc`); with a ``beacon``, show the
    driver each decision's deadline (see :class:`Beacon`)."""
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the driver stops the workers itself
    _IN_WORKER[0] = True
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    WATCHDOG.hard_exit = True
    WATCHDOG.beacon = beacon
    if limits.memory_mb is not None:
        set_memory_limit(limits.memory_mb)
    # This process only plays games: its setup frozen, young objects collected less often
    # (issue 23 item 3). The driver's process (a user's kernel, say) keeps its collector.
    tune_gc()


__all__ = ["GRACE", "HARD_EXIT_CODES", "MAX_MEMORY_MB", "NO_LIMITS", "Beacon", "DecisionTimeLimit",
           "GameTimeLimit", "GameWindow", "LimitExceeded", "Limits", "TimedStrategy", "die_with_parent",
           "in_worker", "set_memory_limit", "worker_setup"]
