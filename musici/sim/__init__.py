"""Batch simulation: many seeded games, streamed to checked result directories, on local
processes or a Dask cluster, with limits for untrusted bots.

The designer's analysis of those batches (comparisons, balance, quality, ladder, tuner)
lives in :mod:`musici.playtest`, which builds on this package; this package never imports
it. The analysis names long documented here (``musici.sim.ladder``, ``musici.sim.tune``,
``musici.sim.compare`` ...) still resolve, lazily, to their new home.
"""

from typing import Any

from musici.sim.limits import Limits
from musici.sim.seeds import game_seed
from musici.sim.simulate import SimulationError, SimulationResult, simulate, strategy_summary
from musici.sim.stats import mean_interval, wilson_interval
from musici.sim.store import ResultError
from musici.sim.stream import BatchReport, Stopped, resume, simulate_to

# name -> module of musici.playtest that holds it now (imported only when asked for)
_MOVED = {"LadderResult": "ladder", "ladder": "ladder", "quality_measures": "quality",
          "quality_table": "quality", "tune": "tuning"}


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        import importlib

        return getattr(importlib.import_module(f"musici.playtest.{_MOVED[name]}"), name)
    raise AttributeError(f"module 'musici.sim' has no attribute {name!r}")


__all__ = [
    "BatchReport", "Limits", "ResultError", "SimulationError", "SimulationResult", "Stopped",
    "game_seed", "mean_interval", "resume", "simulate", "simulate_to", "strategy_summary",
    "wilson_interval",
]
