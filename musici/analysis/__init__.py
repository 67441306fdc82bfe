"""Analysis for notebooks: explanations, the restoration graph, trajectories and HTML.

A pure layer over the engine: it imports plotly (lazily, inside the figure functions),
networkx and pandas, never ipywidgets or IPython; widgets are built on top of it.

Example::

    from musici import Game
    from musici.strategies import greedy_strategy
    from musici import analysis as A

    game = Game(4, seed=3).play([greedy_strategy] * 4)
    concert = next(e for e in game.events if e.kind == "concert")
    A.explain_event(concert, game.cards, game.rules)   # list of Line(text, rule)
    A.fame_figure(game).show()
"""

from musici.analysis.bonus_graph import (
    bonus_breakdown,
    bonus_figure,
    bonus_for_seat,
    composer_graph,
    composer_labels,
    composer_layout,
    composer_positions,
    lineage_figure,
)
from musici.analysis.explain import PAYMENT_KINDS, Line, explain_concert, explain_event, explain_payment
from musici.analysis.trajectories import THRESHOLDS, fame_figure, fame_points, fan_chart
from musici.html import cardset_html, game_html, results_html, simulation_html, view_html

__all__ = [
    "PAYMENT_KINDS", "THRESHOLDS", "Line", "bonus_breakdown", "bonus_figure", "bonus_for_seat",
    "cardset_html", "composer_graph", "composer_labels", "composer_layout", "composer_positions",
    "explain_concert", "explain_event", "explain_payment", "fame_figure", "fame_points",
    "fan_chart", "game_html", "lineage_figure", "results_html", "simulation_html", "view_html",
]
