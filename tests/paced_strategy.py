"""A random player that can be slowed down from outside (test helper).

The stop tests need a batch that is still running when they interrupt it, however fast
the machine. Pacing comes from the environment, so the same strategy plays the paced CLI
run and the unpaced in-process reference, and their results must agree.
"""

from __future__ import annotations

import os
import time

PACE_ENV = "MUSICI_TEST_PACE_SECONDS"


def paced_random(view, decision):
    pace = float(os.environ.get(PACE_ENV, "0"))
    if pace:
        time.sleep(pace)
    return decision.random_answer(view.rng)
