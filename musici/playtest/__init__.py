"""The designer's analysis: what-if comparisons, balance reports, game-quality measures, the
rating ladder and the card tuner.

Built on :mod:`musici.sim` for batches (it plays and stores the games); ``musici.sim``
never imports this package, so each floor has one job: ``sim`` runs batches, ``playtest``
judges the game from them.
"""

from musici.playtest.balance import BalanceReport, balance_report
from musici.playtest.compare import Comparison, Setup, compare
from musici.playtest.ladder import LadderResult, ladder
from musici.playtest.quality import quality_measures, quality_table
from musici.playtest.tuning import tune

__all__ = [
    "BalanceReport", "Comparison", "LadderResult", "Setup", "balance_report", "compare",
    "ladder", "quality_measures", "quality_table", "tune",
]
