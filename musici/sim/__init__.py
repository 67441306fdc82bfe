"""Batch simulation, comparisons and balance reports (the analytic half of musici)."""

from musici.sim.limits import Limits
from musici.sim.seeds import game_seed
from musici.sim.simulate import SimulationError, SimulationResult, simulate, strategy_summary
from musici.sim.stats import mean_interval, wilson_interval
from musici.sim.store import ResultError
from musici.sim.stream import BatchReport, Stopped, resume, simulate_to

__all__ = [
    "BatchReport", "Limits", "ResultError", "SimulationError", "SimulationResult", "Stopped",
    "game_seed", "mean_interval", "resume", "simulate", "simulate_to", "strategy_summary",
    "wilson_interval",
]
