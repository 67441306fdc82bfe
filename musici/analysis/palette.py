"""One colour per strategy (and per seat, per era), the same in every chart and notebook.

A strategy keeps its colour whatever its seat, line-up entry or arm, so "the impresario"
is the same blue in a fan chart, a win-rate bar and the workbench's effect plot. Names
not listed here (a strategy of your own, a file) get a colour from a stable hash of the
name, so they too keep it from one chart and one run to the next.

Example::

    from musici.analysis.palette import strategy_colour
    strategy_colour("impresario")              # '#1f77b4'
    strategy_colour("entry 2: collector")      # '#2ca02c' (the strategy named in a label)
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

STRATEGY_COLOURS: dict[str, str] = {
    "impresario": "#1f77b4",  # blue
    "merchant": "#ff7f0e",  # orange
    "collector": "#2ca02c",  # green
    "greedy": "#9467bd",  # purple
    "random": "#7f7f7f",  # grey: the baseline
    "search": "#d62728",  # red
    "human": "#17becf",  # teal
}
# Colours for other names, picked by a stable hash (never Python's salted hash()).
EXTRA_COLOURS: tuple[str, ...] = ("#8c564b", "#e377c2", "#bcbd22", "#393b79", "#637939",
                                  "#843c39", "#7b4173", "#3182bd")
SEAT_COLOURS: tuple[str, ...] = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
ERA_COLOURS: dict[str, str] = {"baroque": "#2ca02c", "classical": "#1f77b4", "romantic": "#d62728"}
ARM_DASH: tuple[str, ...] = ("solid", "dash")  # base arm, variant arm

# "entry 1: greedy -> impresario", "greedy(depth=2)", "search:32" -> the last strategy's name
_LABEL = re.compile(r"^(?:entry \d+:\s*)?(?:.*->\s*)?([A-Za-z_][\w.-]*)")


def strategy_name(label: str) -> str:
    """The strategy's name in a label: ``"entry 1: greedy -> impresario"`` gives
    ``"impresario"`` (the arm's strategy after the change), ``"search(rollouts=8)"``
    gives ``"search"``."""
    match = _LABEL.match(str(label).strip())
    return match.group(1).lower() if match else str(label)


def strategy_colour(label: str) -> str:
    """The colour of the strategy named by ``label`` (a name or a line-up label)."""
    name = strategy_name(label)
    if name in STRATEGY_COLOURS:
        return STRATEGY_COLOURS[name]
    digest = hashlib.sha256(name.encode("utf-8")).digest()
    return EXTRA_COLOURS[digest[0] % len(EXTRA_COLOURS)]


def strategy_colours(labels: Iterable[str]) -> list[str]:
    """:func:`strategy_colour` of every label, in order."""
    return [strategy_colour(label) for label in labels]


def seat_colour(seat: int) -> str:
    """The colour of a seat (charts of one game, where seats matter more than strategies)."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


__all__ = ["ARM_DASH", "ERA_COLOURS", "EXTRA_COLOURS", "SEAT_COLOURS", "STRATEGY_COLOURS",
           "seat_colour", "strategy_colour", "strategy_colours", "strategy_name"]
