"""Sample a full game consistent with what one seat sees (for search bots).

A search bot may not look at hidden information, but it can plan in *possible worlds*:
games that agree with its view and fill in everything it cannot see at random (the
"determinization" of determinized Monte Carlo and information-set MCTS). The engine does
the sampling (:mod:`musici.engine.resample`, ``Game.resample``); this is the bots' door.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from musici.engine import Game
    from musici.views import PlayerView


def determinize(view: PlayerView, rng: random.Random,
                media_bid: Callable[[Game, int], int] | None = None) -> Game:
    """A game that ``view.seat`` cannot tell from the real one, hidden parts drawn with
    ``rng``; ``media_bid(world, seat)`` models the sealed bids already made this P2."""
    return view.resample(rng, media_bid)


__all__ = ["determinize"]
