"""Strategies: any callable ``(view, decision) -> answer`` (DESIGN principle 2)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from musici.strategies.greedy import greedy_strategy
from musici.strategies.random_strategy import random_strategy

STRATEGIES: dict[str, Callable[[Any, Any], Any]] = {
    "random": random_strategy,
    "greedy": greedy_strategy,
}


def get_strategy(name: str) -> Callable[[Any, Any], Any]:
    """The registered strategy called ``name``; an unknown name lists the known ones."""
    try:
        return STRATEGIES[name]
    except KeyError:
        known = ", ".join(sorted(STRATEGIES))
        raise ValueError(f"unknown strategy {name!r}; known strategies: {known}") from None


__all__ = ["STRATEGIES", "get_strategy", "greedy_strategy", "random_strategy"]
