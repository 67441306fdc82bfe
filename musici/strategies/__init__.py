"""Strategies: any callable ``(view, decision) -> answer`` (DESIGN principle 2)."""

from musici.strategies.random_strategy import random_strategy

__all__ = ["random_strategy"]
