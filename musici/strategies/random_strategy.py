"""The uniformly random strategy: any legal answer, drawn from the seat's own generator."""

from __future__ import annotations

from typing import Any

from musici import draws
from musici.decisions import Answer, Decision
from musici.views import PlayerView


# The view is typed `PlayerView | Any`: the compiled build then takes any object with an
# `rng` (a test's stand-in, a wrapper), as pure Python does.
def random_strategy(view: PlayerView | Any, decision: Decision) -> Answer:
    """A legal answer chosen at random with ``view.rng`` (seeded from the game's seed)."""
    # Decision.random_answer's draws (musici.draws: random's own, compiled), without its
    # method call for the two spaces of nearly every decision of a random game.
    rng = view.rng
    space = decision.space
    if space == "choice":
        return draws.choice(rng, decision.options)
    if space == "amount":
        return decision.lo + decision.step * draws.randbelow(
            rng, (decision.hi - decision.lo) // decision.step + 1)
    return decision.random_answer(rng)
