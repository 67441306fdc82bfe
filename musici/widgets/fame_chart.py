"""The fame chart as a ``FigureWidget`` that is built once and updated in place.

``fame_figure`` styles the chart (axes, thresholds at fame 30 and 50, colours) but takes
~0.3 s, so it runs once; each step then replaces only the traces' data from
:func:`musici.analysis.fame_points` (~5 ms) inside ``batch_update()``, which the front end
applies as one message (and Voila never needs an ``Output`` widget for it).

Every trace exists before the figure is wrapped in the ``FigureWidget``: with plotly 7.1 a
trace added to the widget afterwards (``add_scatter``) never reaches the page, which once
hid the END stars (issue 11).

Seats with equal fame would hide each other's lines, so seat ``s`` is drawn ``s × 0.25``
fame higher and every second seat dashed; the hover text gives the real fame.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

import plotly.graph_objects as go

from musici.analysis import fame_figure, fame_points
from musici.analysis.hints import fame_text
from musici.analysis.trajectories import SEAT_COLOURS

if TYPE_CHECKING:
    from musici.engine import Game

FINAL = "final (END)"
OFFSET = 0.25  # fame units between seats' lines, so equal fame stays visible
DASHES = ("solid", "dash", "dot", "dashdot")


class FameChart:
    """``.widget`` (class ``fame-chart``) shows every seat's fame up to the game shown."""

    def __init__(self, game: Game, names: list[str] | None = None) -> None:
        self.names = names or [f"seat {s}" for s in range(game.n)]
        figure = fame_figure(game, names=self.names)
        if not any(t.name == FINAL for t in figure.data):
            # A slot for the END awards, added BEFORE wrapping (see the module docstring).
            figure.add_scatter(
                x=[], y=[], mode="markers", name=FINAL, hoverinfo="text",
                marker={"symbol": "star", "size": 14, "line": {"width": 1, "color": "#333"},
                        "color": [SEAT_COLOURS[s % len(SEAT_COLOURS)] for s in range(game.n)]})
        for s in range(game.n):
            figure.data[s].line.dash = DASHES[s % len(DASHES)]
        figure.update_layout(height=330, margin={"t": 36, "b": 36, "l": 50, "r": 10},
                             legend={"orientation": "h", "y": -0.18, "x": 0})
        self.widget = go.FigureWidget(figure)
        self._final = next(i for i, t in enumerate(self.widget.data) if t.name == FINAL)
        self.widget.add_class("fame-chart")
        self._shown: Game | None = None
        self.update(game)

    def update(self, game: Game) -> None:
        """Replace the seats' data (and the final stars) with ``game``'s; no new traces."""
        if game is self._shown:  # snapshots never change, so the same object is up to date
            return
        self._shown = game
        points = fame_points(game)
        data = self.widget.data
        months = game.rules.months
        with self.widget.batch_update():
            for s in range(game.n):
                rows = points[points.seat == s]
                hover = [f"<b>{self.names[s]}</b> month {m} {p}: fame {f}, {g} G"
                         + (f"<br>{t}" if t else "")
                         for m, p, f, g, t in zip(rows.month, rows.phase, rows.fame, rows.money,
                                                  rows.text, strict=True)]
                data[s].x = rows.x.tolist()
                data[s].y = [f + s * OFFSET for f in rows.fame.tolist()]
                data[s].hovertext = hover
            final = data[self._final]
            if game.results is None:
                final.x, final.y, final.hovertext = [], [], []
            else:
                fames = game.results["fame"]
                final.x = [months + 1.2] * game.n
                final.y = [float(Fraction(f)) + s * OFFSET for s, f in enumerate(fames)]
                final.hovertext = [f"<b>{self.names[s]}</b> final fame {fame_text(fames[s])}"
                                   for s in range(game.n)]


__all__ = ["FameChart"]
