"""Sequential Halving over a search's root answers (Karnin, Koren and Somekh 2013; in trees,
Cazenave 2014), on common random numbers.

The root decision needs the *best* answer, not a good running average (simple regret, not
UCB's cumulative regret). Each round samples worlds and evaluates every surviving answer in
each of them, keeps the better half (by summed value: all survivors saw the same worlds,
so the sums compare like for like) and gives the next round more worlds per answer.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

# evaluate(alive): sample one world, return each alive answer's value in it (same order).
Evaluate = Callable[[Sequence[int]], Sequence[float]]


def sequential_halving(n: int, budget: int | None, evaluate: Evaluate,
                       out_of_time: Callable[[], bool] = lambda: False) -> tuple[int, int]:
    """The index of the best of ``n`` answers and the evaluations spent.

    ``budget``: evaluations in all (None: no limit, rounds of 1, 2, 4, ... worlds until one
    answer is left or ``out_of_time()``); each round gets an equal share of what is left,
    split evenly over the survivors. ``out_of_time`` is asked after each world. Ties go to
    the earlier answer (the heuristics' come first); a budget below ``n`` evaluates nothing
    and returns 0.
    """
    if n < 1:
        raise ValueError(f"sequential_halving needs at least one answer, got n={n}")
    alive = list(range(n))
    totals = [0.0] * n
    used = 0
    round_no = 0
    stopped = False
    while len(alive) > 1 and not stopped:
        if budget is None:
            worlds = 2 ** round_no
        else:
            left = budget - used
            rounds_left = math.ceil(math.log2(len(alive)))
            worlds = (left // rounds_left) // len(alive) or left // len(alive)
            if worlds < 1:
                break
        for _ in range(worlds):
            for i, v in zip(alive, evaluate(alive), strict=True):
                totals[i] += v
            used += len(alive)
            if out_of_time():
                stopped = True
                break
        alive.sort(key=lambda i: (-totals[i], i))
        if not stopped:
            alive = alive[: (len(alive) + 1) // 2]
        round_no += 1
    return min(alive, key=lambda i: (-totals[i], i)), used


__all__ = ["Evaluate", "sequential_halving"]
