"""The uniformly random strategy: any legal answer, drawn from the seat's own generator."""

from __future__ import annotations

from musici.decisions import Answer, Decision
from musici.views import PlayerView


def random_strategy(view: PlayerView, decision: Decision) -> Answer:
    """A legal answer chosen at random with ``view.rng`` (seeded from the game's seed)."""
    return decision.random_answer(view.rng)
