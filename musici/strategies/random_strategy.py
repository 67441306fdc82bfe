"""The uniformly random strategy: any legal answer, drawn from the seat's own generator."""

from __future__ import annotations

import random
from typing import Any

from musici.decisions import Answer, Decision
from musici.views import PlayerView

# random.choice(seq) draws seq[rng._randbelow(len(seq))], and Decision.random_answer an amount
# as lo + step * rng.randrange(count), which for count > 0 is rng._randbelow(count); for a
# plain Random that is _randbelow_with_getrandbits: getrandbits(n.bit_length()) until below n.
# random_strategy makes the same draws inline (three Python calls fewer a decision: it is
# every decision of a random game); where this Python's Random draws otherwise, it leaves the
# draw to decision.random_answer (tests/test_random_draw.py holds it to random's own draws).
_PLAIN = random.Random
_INLINE = getattr(_PLAIN, "_randbelow", None) is getattr(_PLAIN, "_randbelow_with_getrandbits", 0)


# The view is typed `PlayerView | Any`: the compiled build then takes any object with an
# `rng` (a test's stand-in, a wrapper), as pure Python does.
def random_strategy(view: PlayerView | Any, decision: Decision) -> Answer:
    """A legal answer chosen at random with ``view.rng`` (seeded from the game's seed)."""
    rng = view.rng
    if _INLINE and type(rng) is _PLAIN:
        space = decision.space
        if space == "choice":
            n = len(decision.options)
        elif space == "amount":
            n = (decision.hi - decision.lo) // decision.step + 1
        else:
            n = 0  # a subset: drawn by random_answer
        if n > 0:  # else random_answer raises as random does (an empty choice is no decision)
            getrandbits = rng.getrandbits
            k = n.bit_length()  # as random: not (n - 1), as n may be 1
            r = getrandbits(k)
            while r >= n:
                r = getrandbits(k)
            return decision.options[r] if space == "choice" else decision.lo + decision.step * r
    return decision.random_answer(rng)
