"""A memory cap on Dask workers for the length of one batch (``Limits.memory_mb``).

Local workers cap their own address space when they start (:func:`worker_setup`); Dask
workers are long-lived and shared, so the cap is a worker plugin: each worker caps its
address space at its size when the batch starts plus ``memory_mb``, and the old limit is
put back when the batch ends (the plugin's teardown). A hog then meets a ``MemoryError``,
reported as its game's error like on local workers, instead of the OOM killer or the
nanny restarting the worker. Workers running as threads of the driver's own process are
left alone: capping them would cap the driver.
"""

from __future__ import annotations

import os
import resource
import threading
import warnings
from collections.abc import Callable
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin

from musici.sim.limits import set_memory_limit

PLUGIN_NAME = "musici-memory-cap"
ANSWER_TIMEOUT = 30.0  # seconds the workers have to report their process ids


class MemoryCap(WorkerPlugin):
    """Caps each worker process's address space at its current size plus ``megabytes``."""

    name = PLUGIN_NAME

    def __init__(self, megabytes: int, driver_pid: int) -> None:
        self.megabytes = megabytes
        self.driver_pid = driver_pid
        self.before: tuple[int, int] | None = None

    def setup(self, worker: Any) -> None:
        if os.getpid() == self.driver_pid:
            return
        self.before = resource.getrlimit(resource.RLIMIT_AS)
        set_memory_limit(self.megabytes)

    def teardown(self, worker: Any) -> None:
        if self.before is not None:
            resource.setrlimit(resource.RLIMIT_AS, self.before)
            self.before = None


def _answered(call: Callable[[], Any], what: str) -> Any:
    """``call()``, or a ``TimeoutError`` after ``ANSWER_TIMEOUT`` seconds: a worker alive but
    hung must not stall the batch (the call is left to end in a daemon thread)."""
    outcome: list[tuple[bool, Any]] = []

    def run() -> None:
        try:
            outcome.append((True, call()))
        except BaseException as exc:  # handed to the caller below
            outcome.append((False, exc))

    thread = threading.Thread(target=run, name="musici-dask-memory-cap", daemon=True)
    thread.start()
    thread.join(ANSWER_TIMEOUT)
    if not outcome:
        raise TimeoutError(f"the Dask workers did not answer within {ANSWER_TIMEOUT:.0f} s "
                           f"{what}")
    ok, value = outcome[0]
    if not ok:
        raise value
    return value


def cap_workers(client: Any, megabytes: int) -> None:
    """Register the cap on every worker of ``client``'s cluster (and on workers joining)."""
    what = f"when asked to set the memory limit of {megabytes} MB"
    pids = _answered(lambda: client.run(os.getpid), what)
    if os.getpid() in pids.values():
        warnings.warn(f"the memory limit of {megabytes} MB is not enforced on Dask workers that "
                      f"are threads of this process (a LocalCluster with processes=False)",
                      RuntimeWarning, stacklevel=3)
    _answered(lambda: client.register_plugin(MemoryCap(megabytes, os.getpid()),
                                             name=PLUGIN_NAME), what)


def uncap_workers(client: Any) -> None:
    _answered(lambda: client.unregister_worker_plugin(PLUGIN_NAME),
              "when asked to lift the memory limit")


__all__ = ["MemoryCap", "cap_workers", "uncap_workers"]
