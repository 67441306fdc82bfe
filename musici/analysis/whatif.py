"""Pictures and tables of a what-if comparison (``musici.playtest.compare``) and its flags.

:func:`effects_figure` draws the paired effects with their intervals, **one x axis per
metric** (a win share moves by about ±0.3, fame by about ±10: on a shared axis the
win-share intervals would shrink to dots); :func:`flags_table` gives each balance flag
its kind and the stated test that raised it; :func:`combine_results` joins batches
played in chunks (the workbench's progress bar) into one result.

Example::

    from musici.playtest.compare import Setup, compare
    from musici.analysis.whatif import effects_figure

    c = compare(Setup(["greedy"] * 4, name="12 months"),
                Setup(["greedy"] * 4, rules={"RULING-MONTHS": 6}, name="6 months"), games=50)
    effects_figure(c.effects, title="Six months instead of twelve").show()
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import pandas as pd

from musici.analysis.palette import strategy_colour
from musici.sim import SimulationResult

if TYPE_CHECKING:
    import plotly.graph_objects as go

GAME_COLOUR = "#555"
ROW_PX = 30  # per "who" row of one metric's panel
# What each balance flag tests (musici.playtest.balance), keyed by the flag's first word.
FLAG_TESTS: dict[str, str] = {
    "seat": "the seat's win-rate interval excludes 1/n (every seat saw the same strategies)",
    "strategy": "the strategy's per-seat win-rate interval lies above 1.5/n",
    "card": "at least MIN_PLAYS plays and fame per play more than 2 sd above its kind's mean",
    "venue": "chosen in more than half of all venue choices",
    "special": "at least MIN_PLAYS owners, win-rate interval above 1.5/n",
}
FLAG_KINDS = {"seat": "seat", "strategy": "strategy", "owners": "special", "score": "card",
              "discovery": "card"}


def clear_effect(effects: pd.DataFrame) -> pd.Series:
    """Whether each effect's interval excludes 0 (a clear effect at this batch size)."""
    return (effects.low > 0) | (effects.high < 0)


def effects_figure(effects: pd.DataFrame, *, metrics: Sequence[str] | None = None,
                   title: str = "") -> go.Figure:
    """The paired effects (variant − base) with their intervals, one panel and x axis per
    metric. A filled marker is a clear effect (interval excludes 0), an open one is not;
    each line-up entry has its strategy's colour, per-game metrics are grey.

    ``effects`` is ``compare(...).effects`` (columns metric, who, effect, low, high).
    """
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    for column in ("metric", "who", "effect", "low", "high"):
        if column not in effects.columns:
            raise ValueError(f"the effects frame has no column {column!r}; expected the "
                             "effects of musici.playtest.compare")
    chosen = list(dict.fromkeys(effects.metric)) if metrics is None else list(metrics)
    missing = [m for m in chosen if m not in set(effects.metric)]
    if missing or not chosen:
        raise ValueError(f"no effects for metric(s) {missing or chosen}; the frame has "
                         f"{', '.join(dict.fromkeys(effects.metric))}")
    sizes = [int((effects.metric == m).sum()) for m in chosen]
    fig = make_subplots(rows=len(chosen), cols=1, row_heights=[s + 1.5 for s in sizes],
                        vertical_spacing=0.35 / len(chosen),
                        subplot_titles=[f"{m}: effect, 95% interval" for m in chosen])
    for row, metric in enumerate(chosen, start=1):
        part = effects[effects.metric == metric]
        clear = clear_effect(part)
        colours = [GAME_COLOUR if who == "game" else strategy_colour(who) for who in part.who]
        fig.add_trace(go.Scatter(
            x=part.effect, y=part.who, mode="markers", name=metric, meta=metric,
            showlegend=False,
            marker={"size": 11, "color": colours, "symbol": ["circle" if c else "circle-open"
                                                             for c in clear],
                    "line": {"width": 2, "color": colours}},
            error_x={"type": "data", "symmetric": False, "array": part.high - part.effect,
                     "arrayminus": part.effect - part.low, "thickness": 2, "width": 6},
            customdata=list(zip(part.low, part.high, part.base, part.variant, strict=True)),
            hovertemplate=("%{y}<br>effect %{x:.3g} [%{customdata[0]:.3g}, "
                           "%{customdata[1]:.3g}]<br>base %{customdata[2]:.3g} → variant "
                           "%{customdata[3]:.3g}<extra>" + metric + "</extra>")),
            row=row, col=1)
        fig.add_vline(x=0, line={"dash": "dash", "color": "#888", "width": 1}, row=row, col=1)
        fig.update_yaxes(autorange="reversed", row=row, col=1)
        fig.update_xaxes(zeroline=False, row=row, col=1)
    fig.update_layout(title=title or "Effects (variant − base): a filled marker's interval "
                      "excludes 0", template="plotly_white", hovermode="closest",
                      height=int(110 + sum(ROW_PX * s + 70 for s in sizes)),
                      margin={"l": 220, "r": 20, "t": 80, "b": 40})
    return fig


def flags_table(flags: Sequence[str], arm: str = "") -> pd.DataFrame:
    """One row per balance flag: the arm, the flag's kind, the flag (its numbers) and the
    test that raised it (``musici.playtest.balance``)."""
    rows = []
    for flag in flags:
        first = flag.split(" ", 1)[0]
        kind = FLAG_KINDS.get(first) or ("venue" if " is chosen " in flag else "other")
        rows.append({"arm": arm, "kind": kind, "flag": flag,
                     "test": FLAG_TESTS.get(kind, "see musici.playtest.balance")})
    return pd.DataFrame(rows, columns=["arm", "kind", "flag", "test"])


def combine_results(parts: Sequence[SimulationResult], config: dict[str, Any]
                    ) -> SimulationResult:
    """One result from batches played one after another: game numbers of later batches
    are shifted so that every game keeps a distinct number."""
    if not parts:
        raise ValueError("no batches to combine")
    frames: dict[str, list[pd.DataFrame]] = {name: [] for name in SimulationResult.frames}
    offset = 0
    for part in parts:
        for name in SimulationResult.frames:
            frame = getattr(part, name)
            if frame is None:  # e.g. no event log was kept
                continue
            frame = frame.copy()
            if "game" in frame.columns:
                frame["game"] = frame["game"] + offset
            frames[name].append(frame)
        offset += int(part.config.get("games", len(part.games)))
    joined = {name: pd.concat(list_, ignore_index=True) if list_ else None
              for name, list_ in frames.items()}
    return SimulationResult(config=config, **cast(dict[str, Any], joined))


__all__ = ["FLAG_TESTS", "clear_effect", "combine_results", "effects_figure", "flags_table"]
