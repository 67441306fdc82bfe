"""The fame chart as a ``FigureWidget`` that is built once and updated in place.

``fame_figure`` styles the chart (axes, thresholds at fame 30 and 50, colours) but takes
~0.3 s, so it runs once; each step then replaces only the traces' data from
:func:`musici.analysis.fame_points` (~5 ms) inside ``batch_update()``, which the front end
applies as one message (and Voila never needs an ``Output`` widget for it).

Every trace exists before the figure is wrapped in the ``FigureWidget``: with plotly 7.1 a
trace added to the widget afterwards (``add_scatter``) never reaches the page, which once
hid the END stars (issue 11).

Every value is drawn at its true place (issue 21: a seat drawn a quarter higher read as
21¼). Seats with equal fame share a line, so each seat has its own colour, dash and marker
symbol; the hover text gives the seat and its fame. The chart fills its container's width
(autosize) and keeps its legend inside the figure, so it fits a narrow page.
"""

from __future__ import annotations

from copy import deepcopy
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import anywidget
import ipywidgets as widgets
import plotly.graph_objects as go
import traitlets

from musici.analysis import fame_figure, fame_points
from musici.analysis.hints import fame_text
from musici.analysis.trajectories import SEAT_COLOURS

if TYPE_CHECKING:
    from musici.engine import Game

FINAL = "final (END)"
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
SYMBOLS = ("circle", "square", "diamond", "triangle-up", "cross", "x")


class Resizer(anywidget.AnyWidget):
    """Keeps the chart as wide as its box. Plotly's FigureWidget (an anywidget) sizes an
    autosized figure once, when it is drawn: in JupyterLab a figure drawn before its output
    was laid out (a cell run off screen) took plotly's default 700 px and was cut off in a
    narrower column, and it never followed the column's width after that. This widget, in
    the chart's box (class ``fame-box``), lets the chart shrink with the box and reports
    the box's width (``seen``) whenever the drawn plot differs from it, on a resize of the
    box or when it comes into sight; :class:`FameChart` then sets the figure's width."""

    seen = traitlets.Dict().tag(sync=True)  # {"width": px, "at": ms}: each report is new
    _esm = traitlets.Unicode("""
    function render({ model, el }) {
      let box = null;
      const check = () => {
        const plot = box && box.querySelector(".fame-chart .main-svg");
        const width = box ? Math.floor(box.getBoundingClientRect().width) : 0;
        if (plot && width > 0 && Math.abs(plot.getBoundingClientRect().width - width) > 2) {
          model.set("seen", { width, at: Date.now() });
          model.save_changes();
        }
      };
      const resized = new ResizeObserver(check);
      const shown = new IntersectionObserver(entries => {
        if (entries.some(e => e.isIntersecting)) check();
      });
      requestAnimationFrame(() => {
        box = el.closest(".fame-box") ?? el.parentElement;
        for (const chart of box.querySelectorAll(".fame-chart")) {
          chart.style.width = "100%";
          chart.style.minWidth = "0";
        }
        resized.observe(box);
        shown.observe(box);
      });
      return () => { resized.disconnect(); shown.disconnect(); };
    }
    export default { render };
    """).tag(sync=True)


MIN_WIDTH = 240  # px: narrower than this, the chart keeps this width (its box scrolls)


class FameChart:
    """``.widget`` (class ``fame-chart``) shows every seat's fame up to the game shown;
    ``.view`` (class ``fame-box``) is the widget to place: the chart and its resizer."""

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
            figure.data[s].marker.symbol = SYMBOLS[s % len(SYMBOLS)]
            figure.data[s].marker.size = 6
        # No fixed width: the figure takes its container's width; the legend is a row (or
        # two) under the plot, inside the figure and clear of the title and the threshold
        # notes, so nothing is cut off on a narrow page.
        figure.update_layout(height=380, width=None, autosize=True,
                             title={"x": 0.01, "font": {"size": 14}},
                             margin={"t": 36, "b": 30, "l": 44, "r": 8},
                             legend={"orientation": "h", "x": 0, "y": -0.16, "xanchor": "left",
                                     "yanchor": "top", "font": {"size": 10}})
        # Room right of the END stars, and a star at fame 0 drawn whole, not cut by the axis.
        figure.update_xaxes(range=[0.8, game.rules.months + 1.6])
        figure.data[next(i for i, t in enumerate(figure.data) if t.name == FINAL)].cliponaxis = False
        self.widget = go.FigureWidget(figure)
        self._final = next(i for i, t in enumerate(self.widget.data) if t.name == FINAL)
        self.widget.add_class("fame-chart")
        self.resizer = Resizer()
        self.resizer.observe(self._fit, names="seen")
        self.view = widgets.VBox([self.widget, self.resizer],
                                 layout=widgets.Layout(width="100%"))
        self.view.add_class("fame-box")
        self._shown: Game | None = None
        self.update(game)

    def _fit(self, change: dict[str, Any]) -> None:
        """The page saw the chart's box at this width: draw the figure that wide."""
        width = change["new"].get("width")
        if isinstance(width, int) and width > 0:
            self.widget.layout.width = max(MIN_WIDTH, width)

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
                data[s].y = rows.fame.tolist()
                data[s].hovertext = hover
            final = data[self._final]
            if game.results is None:
                final.x, final.y, final.hovertext = [], [], []
            else:
                fames = game.results["fame"]
                final.x = [months + 1.2] * game.n
                final.y = [float(Fraction(f)) for f in fames]
                final.hovertext = [f"<b>{self.names[s]}</b> final fame {fame_text(fames[s])}"
                                   for s in range(game.n)]
        # A view that connects later (a stepper advanced before it is shown, a reloaded page)
        # starts from ``_widget_data``, which plotly sets only when built or displayed on its
        # own, not as a child of a box: the updates above would be lost to it.
        self.widget._widget_data = deepcopy(self.widget._data)


__all__ = ["FameChart", "Resizer"]
