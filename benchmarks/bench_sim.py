"""Batch simulation costs: frames on top of the games, and the speed-up of worker processes.

    python benchmarks/bench_sim.py --games 600

Prints, for 4 random players and 12 months:
- the games alone (``Game.play`` in a loop, one core);
- ``simulate(jobs=1)``: the same games plus records and frames, and the overhead in %;
- ``simulate(jobs=2)`` and its speed-up over ``jobs=1``.
Each timing is the best of ``--repeat`` runs (the machine is shared; the minimum is the
least disturbed). Not part of the tests: timings are reported, never asserted.
"""

from __future__ import annotations

import argparse
import time

from musici import Game
from musici.sim import game_seed, simulate
from musici.strategies import random_strategy


def best_of(repeat: int, fn) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    lineup = ["random"] * 4
    n = args.games

    def plain() -> None:
        for i in range(n):
            Game(seed=game_seed(args.seed, i)).play([random_strategy] * 4)

    def batch(jobs: int) -> None:
        simulate(lineup, n, seed=args.seed, jobs=jobs, progress=False)

    t_plain = best_of(args.repeat, plain)
    t_one = best_of(args.repeat, lambda: batch(1))
    t_two = best_of(args.repeat, lambda: batch(2))
    print(f"{n} games, 4 random players, 12 months, best of {args.repeat}")
    print(f"  games alone        : {t_plain:6.2f} s  ({n / t_plain:6.1f} games/s)")
    print(f"  simulate(jobs=1)   : {t_one:6.2f} s  frames overhead {100 * (t_one / t_plain - 1):+.1f} %")
    print(f"  simulate(jobs=2)   : {t_two:6.2f} s  speed-up {t_one / t_two:.2f}x over jobs=1")


if __name__ == "__main__":
    main()
