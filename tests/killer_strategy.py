"""A strategy that kills its own process, importable by Dask workers (test helper)."""

from __future__ import annotations

import os


def dies_in_month_2(view, decision):
    if view.month == 2 and view.seat == 0:
        os._exit(3)  # as a segfault or the OOM killer would
    return decision.random_answer(view.rng)
