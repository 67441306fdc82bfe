"""The garbage collector of a process that only plays games (issue 23 item 3).

A game makes many small objects that live to its end (events, decisions, tasks) and few
reference cycles. With CPython's default gen-0 threshold (700 allocations) the collector
runs every few plies and promotes the game's live objects until a full collection walks
every object of the process, pandas' and numpy's modules included. A batch worker or a
benchmark moves what setup made (modules, card sets) to the permanent generation
(:func:`gc.freeze`) and collects young objects less often.

Only for processes musici starts itself: the batch driver's worker processes
(:func:`musici.sim.limits.worker_setup`) and the benchmarks. Importing musici, or a batch run
in the caller's own process (``jobs=1``, a notebook's kernel), leaves the collector as it is.
"""

from __future__ import annotations

import gc

# Gen-0 threshold raised from 700; gens 1 and 2 as CPython's defaults (10, 10). Measured
# paired on/off: `python benchmarks/bench_engine.py --wins` (docs/simulation.md).
WORKER_GC_THRESHOLD: tuple[int, int, int] = (50_000, 10, 10)


def tune_gc(threshold: tuple[int, int, int] = WORKER_GC_THRESHOLD) -> None:
    """Freeze what exists now into the permanent generation and set ``threshold``; for a
    process that only plays games (a worker, a benchmark), never a user's kernel."""
    gc.collect()  # what setup left as garbage is freed, not frozen
    gc.freeze()
    gc.set_threshold(*threshold)


__all__ = ["WORKER_GC_THRESHOLD", "tune_gc"]
