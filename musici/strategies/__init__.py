"""Strategies: any callable ``(view, decision) -> answer`` (DESIGN principle 2).

Find one by name with :func:`make_strategy`; see :mod:`musici.strategies.registry` for
plug-ins, files and stateful bots.
"""

from __future__ import annotations

from musici.strategies.greedy import greedy_strategy
from musici.strategies.random_strategy import random_strategy
from musici.strategies.registry import (
    ENTRY_POINT_GROUP,
    Strategy,
    StrategySpec,
    StrategySpecError,
    available_strategies,
    make_strategy,
    register_strategy,
    strategy_factory,
    strategy_label,
)

__all__ = [
    "ENTRY_POINT_GROUP", "Strategy", "StrategySpec", "StrategySpecError", "available_strategies",
    "greedy_strategy", "make_strategy", "random_strategy", "register_strategy", "strategy_factory",
    "strategy_label",
]
