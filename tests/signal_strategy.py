"""A random player that signals the batch's driver at a chosen decision (test helper).

``MUSICI_TEST_SIGNAL=INT:40`` sends SIGINT to the driver at this process's 40th decision
(``KILL:1`` a SIGKILL at once): the driver is the parent when the bot plays in a worker
process, else the bot's own process. Unset, it is a plain random player, so the same spec
plays the interrupted run, its resume and the uninterrupted reference.
"""

from __future__ import annotations

import multiprocessing
import os
import signal

SIGNAL_ENV = "MUSICI_TEST_SIGNAL"
_count = [0]


def strategy(view, decision):
    armed = os.environ.get(SIGNAL_ENV, "")
    if armed:
        name, at = armed.split(":")
        _count[0] += 1
        if _count[0] == int(at):
            parent = multiprocessing.parent_process()
            driver = parent.pid if parent is not None else os.getpid()
            os.kill(driver, getattr(signal, f"SIG{name}"))
    return decision.random_answer(view.rng)
