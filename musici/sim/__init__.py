"""Batch simulation, comparisons and balance reports (the analytic half of musici)."""

from musici.sim.ladder import LadderResult, ladder
from musici.sim.limits import Limits
from musici.sim.quality import quality_measures, quality_table
from musici.sim.seeds import game_seed
from musici.sim.simulate import SimulationError, SimulationResult, simulate, strategy_summary
from musici.sim.stats import mean_interval, wilson_interval
from musici.sim.store import ResultError
from musici.sim.stream import BatchReport, Stopped, resume, simulate_to
from musici.sim.tuning import tune

__all__ = [
    "BatchReport", "LadderResult", "Limits", "ResultError", "SimulationError",
    "SimulationResult", "Stopped", "game_seed", "ladder", "mean_interval", "quality_measures",
    "quality_table", "resume", "simulate", "simulate_to", "strategy_summary", "tune",
    "wilson_interval",
]
