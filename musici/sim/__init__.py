"""Batch simulation, comparisons and balance reports (the analytic half of musici)."""

from musici.sim.ladder import LadderResult, ladder
from musici.sim.quality import quality_measures, quality_table
from musici.sim.seeds import game_seed
from musici.sim.simulate import SimulationError, SimulationResult, simulate, strategy_summary
from musici.sim.stats import mean_interval, wilson_interval
from musici.sim.tuning import tune

__all__ = [
    "LadderResult", "SimulationError", "SimulationResult", "game_seed", "ladder",
    "mean_interval", "quality_measures", "quality_table", "simulate", "strategy_summary",
    "tune", "wilson_interval",
]
