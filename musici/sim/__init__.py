"""Batch simulation, comparisons and balance reports (the analytic half of musici)."""

from musici.sim.seeds import game_seed
from musici.sim.simulate import SimulationError, SimulationResult, simulate, strategy_summary
from musici.sim.stats import mean_interval, wilson_interval

__all__ = [
    "SimulationError", "SimulationResult", "game_seed", "mean_interval", "simulate",
    "strategy_summary", "wilson_interval",
]
