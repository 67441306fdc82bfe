"""Fame and money over a game, phase by phase, and fan charts over many games.

:func:`fame_points` replays the event log (fame events carry the new fame, payments and
income the amounts), so it works on a finished game and in the middle of one.
:func:`fame_figure` draws it with the salary-surcharge lines at fame 30 and 50 (P5.4,
COMP.1); :func:`fan_chart` draws medians and quantile bands from a ``simulate()`` frame.

Example::

    from musici import Game
    from musici.strategies import greedy_strategy
    from musici.sim import simulate
    from musici.analysis import fame_figure, fan_chart

    game = Game(4, seed=3).play([greedy_strategy] * 4)
    fame_figure(game, money=True).show()
    result = simulate(["greedy", "random", "random", "random"], games=40, jobs=1)
    fan_chart(result.months, by="strategy", value="fame").show()
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import pandas as pd

from musici import events as ev
from musici.analysis.palette import SEAT_COLOURS, strategy_colour
from musici.economy import START_MONEY, SURCHARGES
from musici.state import PHASES

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from musici.engine import Game

POINT_COLUMNS = ["step", "event", "month", "phase", "x", "seat", "fame", "money",
                 "fame_delta", "money_delta", "text"]
# P5.4 (fame track lines, COMP.1): the salary surcharge starts at these fames.
THRESHOLDS: tuple[tuple[int, str], ...] = tuple(
    (fame, f"fame {fame}: +{amount} G salary surcharge (P5.4, COMP.1)")
    for fame, amount in sorted(SURCHARGES))
_TRACKED = ("fame", "pay", "income", "unpaid", "marker")


def _x(month: int, phase: str) -> float:
    """Time axis: the end of month ``m``'s phase Pk is at m + k/5 (set-up at 1.0)."""
    if phase in PHASES:
        return month + (PHASES.index(phase) + 1) / 5
    return 1.0 if phase == "SETUP" else float(month + 1)


def _note(e: ev.Event) -> str:
    rule = e.rule
    if isinstance(e, ev.Fame):
        return f"fame {e.delta:+d} ({e.reason}) [{rule}]"
    if isinstance(e, ev.Pay):
        to = f" to seat {e.to}" if e.to is not None else ""
        return f"-{e.amount} G{to} ({e.reason}) [{rule}]"
    if isinstance(e, ev.Income):
        return f"+{e.amount} G ({e.reason}) [{rule}]"
    if isinstance(e, ev.Unpaid):
        return f"unpaid {e.amount} G [{rule}]"
    if isinstance(e, ev.Marker):
        return f"marker on {e.orchestra} ({e.reason}) [{rule}]"
    return f"{e.kind} [{rule}]"


def fame_points(game: Game) -> pd.DataFrame:
    """One row per seat per (month, phase) boundary, from set-up to the current phase.

    Columns: step (boundary index, 0 = set-up), event (index of the first event after the
    boundary), month, phase, x (month + k/5 for phase Pk), seat, fame, money, fame_delta,
    money_delta and text (the fame, money and marker events of that phase, for hover).
    Fame is the fame track (END awards are in ``game.results``, not here).
    """
    n = game.n
    fame = [0] * n
    money = [START_MONEY] * n
    notes: list[list[str]] = [[] for _ in range(n)]
    deltas = [[0, 0] for _ in range(n)]
    rows: list[dict[str, Any]] = []
    step = 0

    def close(month: int, phase: str, index: int) -> None:
        nonlocal step
        for s in range(n):
            rows.append({"step": step, "event": index, "month": month, "phase": phase,
                         "x": _x(month, phase), "seat": s, "fame": fame[s], "money": money[s],
                         "fame_delta": deltas[s][0], "money_delta": deltas[s][1],
                         "text": "<br>".join(notes[s])})
            notes[s] = []
            deltas[s] = [0, 0]
        step += 1

    current = (1, "SETUP")
    last_index = 0
    for index, event in enumerate(game.events):
        last_index = index
        here = (event.month, event.phase)
        if event.phase == "END":
            break
        if here != current:
            # close every phase boundary between the previous event and this one
            close(*current, index)
            for month, phase in _between(current, here):
                close(month, phase, index)
            current = here
        s = event.player
        if isinstance(event, ev.Fame) and s is not None:
            deltas[s][0] += event.fame - fame[s]
            fame[s] = event.fame
        elif isinstance(event, ev.Pay) and s is not None:
            money[s] -= event.amount
            deltas[s][1] -= event.amount
            if event.to is not None:
                money[event.to] += event.amount
                deltas[event.to][1] += event.amount
                notes[event.to].append(f"+{event.amount} G from seat {s} ({event.reason}) "
                                       f"[{event.rule}]")
        elif isinstance(event, ev.Income) and s is not None:
            money[s] += event.amount
            deltas[s][1] += event.amount
        if event.kind in _TRACKED and s is not None:
            notes[s].append(_note(event))
    else:
        last_index = len(game.events)
    close(*current, last_index)
    now = (game.month, game.phase)
    if game.phase in PHASES and now != current:  # mid-game: phases begun but with no event yet
        for month, phase in [*_between(current, now), now]:
            close(month, phase, last_index)
    return pd.DataFrame(rows, columns=POINT_COLUMNS)


def _between(a: tuple[int, str], b: tuple[int, str]) -> list[tuple[int, str]]:
    """Phases strictly between ``a`` and ``b`` (none normally: every phase emits events)."""
    order = [(m, p) for m in range(1, 100) for p in PHASES]
    start = order.index(a) + 1 if a in order else 0
    end = order.index(b) if b in order else start
    return order[start:end]


def fame_figure(game: Game, *, money: bool = False, names: Sequence[str] | None = None
                ) -> go.Figure:
    """Every seat's fame by month and phase, hover naming the events; dashed lines at the
    salary surcharge thresholds 30 and 50 (P5.4). ``money=True`` adds money (dotted) on a
    second y axis. A finished game also shows the final fame after END awards."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    points = fame_points(game)
    labels = list(names) if names is not None else [f"seat {s}" for s in range(game.n)]
    fig = make_subplots(specs=[[{"secondary_y": money}]])
    for s in range(game.n):
        rows = points[points.seat == s]
        colour = SEAT_COLOURS[s % len(SEAT_COLOURS)]
        hover = [f"<b>{labels[s]}</b> month {m} {p}: fame {f}, {g} G" + (f"<br>{t}" if t else "")
                 for m, p, f, g, t in zip(rows.month, rows.phase, rows.fame, rows.money,
                                          rows.text, strict=True)]
        fig.add_trace(go.Scatter(x=rows.x, y=rows.fame, mode="lines+markers", name=labels[s],
                                 legendgroup=f"seat{s}", line={"color": colour, "shape": "hv"},
                                 marker={"size": 4}, hovertext=hover, hoverinfo="text"),
                      secondary_y=False)
        if money:
            fig.add_trace(go.Scatter(x=rows.x, y=rows.money, mode="lines",
                                     name=f"{labels[s]} money", legendgroup=f"seat{s}",
                                     line={"color": colour, "dash": "dot", "shape": "hv"},
                                     hovertext=hover, hoverinfo="text"),
                          secondary_y=True)
    months = game.rules.months
    if game.results is not None:
        fames = game.results["fame"]
        awards: dict[int, list[Any]] = {s: [] for s in range(game.n)}
        for a in game.results["awards"]:
            for s in a["winners"]:
                awards[s].append(f"{a['award']} +{a['share']} [{a['rule']}]")
        fig.add_trace(go.Scatter(
            x=[months + 1.2] * game.n, y=[float(Fraction(f)) for f in fames], mode="markers",
            name="final (END)", marker={"symbol": "star", "size": 12,
                                        "color": [SEAT_COLOURS[s % len(SEAT_COLOURS)]
                                                  for s in range(game.n)]},
            hovertext=[f"<b>{labels[s]}</b> final fame {fames[s]}<br>" + "<br>".join(awards[s])
                       for s in range(game.n)], hoverinfo="text"), secondary_y=False)
    for level, text in THRESHOLDS:
        fig.add_hline(y=level, line={"dash": "dash", "color": "#888", "width": 1},
                      annotation_text=text, annotation_position="top left",
                      annotation_font={"size": 10}, secondary_y=False)
    ticks = list(range(1, months + 2))
    fig.update_xaxes(tickvals=[*ticks, months + 1.2],
                     ticktext=[*(f"M{m}" for m in ticks[:-1]), "", "END"],
                     title_text="month (each month: P1 … P5)",
                     range=[0.8, months + 1.4])  # fixed, so the chart stays put while stepping
    fig.update_yaxes(title_text="fame", secondary_y=False, rangemode="tozero")
    if money:
        fig.update_yaxes(title_text="money (G)", secondary_y=True, showgrid=False)
    fig.update_layout(title="Fame by month and phase", template="plotly_white",
                      hovermode="closest", height=480)
    return fig


def fan_chart(months_frame: pd.DataFrame, *, by: str = "strategy", value: str = "fame",
              bands: Sequence[float] = (0.5, 0.9), title: str | None = None) -> go.Figure:
    """Median and central quantile bands of ``value`` by month, one colour per ``by`` group.

    ``months_frame`` is ``simulate(...).months`` (columns month, ``by``, ``value``). Traces
    per group: one band per entry of ``bands`` (named "<group> 90% band", widest first) and
    the median line (named by the group). Grouped by strategy, each strategy has its colour
    of :mod:`musici.analysis.palette`. ``title`` (e.g. the arm's name) leads the title.
    """
    import plotly.graph_objects as go

    for column in ("month", by, value):
        if column not in months_frame.columns:
            raise ValueError(f"the frame has no column {column!r}; columns: "
                             f"{', '.join(map(str, months_frame.columns))}")
    if not all(0 < b < 1 for b in bands):
        raise ValueError(f"bands are central coverages strictly between 0 and 1, got {bands!r}")
    fig = go.Figure()
    order = sorted(bands, reverse=True)
    for i, (group, rows) in enumerate(months_frame.groupby(by, sort=True)):
        colour = (strategy_colour(str(group)) if by == "strategy"
                  else SEAT_COLOURS[i % len(SEAT_COLOURS)])
        by_month = rows.groupby("month")[value]
        months = list(by_month.median().index)
        for b in order:
            low = by_month.quantile((1 - b) / 2)
            high = by_month.quantile(1 - (1 - b) / 2)
            fig.add_trace(go.Scatter(
                x=[*months, *months[::-1]], y=[*high.tolist(), *low.tolist()[::-1]],
                fill="toself", fillcolor=colour, opacity=0.12 + 0.1 * (1 - b), mode="lines",
                line={"width": 0}, name=f"{group} {b:.0%} band", legendgroup=str(group),
                showlegend=False, hoverinfo="skip"))
        median = by_month.median()
        fig.add_trace(go.Scatter(
            x=months, y=median.tolist(), mode="lines+markers", name=str(group),
            legendgroup=str(group), line={"color": colour, "width": 2},
            hovertemplate=f"{group}: month %{{x}}, median {value} %{{y}}<extra></extra>"))
    label = ", ".join(f"{b:.0%}" for b in order)
    head = f"{title}: " if title else ""
    fig.update_layout(title=f"{head}{value} by month<br><sup>median and central {label} bands per "
                            f"{by}</sup>",
                      xaxis_title="month", yaxis_title=value, template="plotly_white",
                      height=460)
    if value == "fame":
        for level, text in THRESHOLDS:
            fig.add_hline(y=level, line={"dash": "dash", "color": "#aaa", "width": 1},
                          annotation_text=text, annotation_position="top left",
                          annotation_font={"size": 10})
    return fig


__all__ = ["THRESHOLDS", "fame_figure", "fame_points", "fan_chart"]
