"""The standard library's random draws, made on the same stream but compiled (issue 23 item 4).

``random.Random``'s ``choice``, ``randrange``, ``randint`` and ``shuffle`` are Python code
calling ``_randbelow``, which for a plain ``Random`` is ``_randbelow_with_getrandbits``:
``getrandbits(n.bit_length())`` until the result is below ``n``. In the compiled build the
engine's shuffles and the random bot's draws spent about a quarter of a random game's time
in that interpreted code. These functions make exactly the same draws (the same values, the
generator left in the same state: ``tests/test_random_draw.py``), natively where the build
is compiled; for any other generator (a subclass, ``SystemRandom``, a Python whose
``Random`` draws otherwise) they call the generator's own method, so its own rules apply.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

_T = TypeVar("_T")
_PLAIN = random.Random
# Whether this Python's Random draws below n with getrandbits (CPython 3.11-3.13 do).
FAST: bool = getattr(_PLAIN, "_randbelow", None) is getattr(_PLAIN,
                                                           "_randbelow_with_getrandbits", 0)


def _below(rng: random.Random, n: int) -> int:
    # _randbelow_with_getrandbits, for n > 0 (as random: n.bit_length(), not (n - 1)'s)
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)``: an int in ``[0, n)``; ``n`` must be positive."""
    if FAST and type(rng) is _PLAIN and n > 0:
        return _below(rng, n)
    return rng.randrange(n)


def choice(rng: random.Random, seq: Sequence[_T]) -> _T:
    """``rng.choice(seq)``."""
    n = len(seq)
    if FAST and type(rng) is _PLAIN and n > 0:
        return seq[_below(rng, n)]
    return rng.choice(seq)


def randint(rng: random.Random, a: int, b: int) -> int:
    """``rng.randint(a, b)``: an int in ``[a, b]``."""
    if FAST and type(rng) is _PLAIN and b >= a:
        return a + _below(rng, b - a + 1)
    return rng.randint(a, b)


def shuffle(rng: random.Random, x: list[Any]) -> None:
    """``rng.shuffle(x)``: ``x`` shuffled in place."""
    if not (FAST and type(rng) is _PLAIN):
        rng.shuffle(x)
        return
    for i in range(len(x) - 1, 0, -1):
        j = _below(rng, i + 1)
        x[i], x[j] = x[j], x[i]


__all__ = ["FAST", "choice", "randbelow", "randint", "shuffle"]
