"""Engine speed on one core: decisions/s, games/s and state copies/s (4 random players).

Run with ``make bench`` (or ``python benchmarks/bench_engine.py --games 200``). Not part of
the test suite: timings on a shared machine are noisy, so report them, never assert them.
"""

from __future__ import annotations

import argparse
import time

from musici import Game
from musici.strategies import random_strategy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    strategies = [random_strategy] * args.players
    start = time.perf_counter()
    decisions = 0
    for seed in range(args.games):
        game = Game(players=args.players, seed=seed).play(strategies)
        decisions += game.step
    elapsed = time.perf_counter() - start
    print(f"{args.games} games, {args.players} random players, 12 months")
    print(f"  decisions per game : {decisions / args.games:.0f}")
    print(f"  decisions per s    : {decisions / elapsed:,.0f}")
    print(f"  games per s        : {args.games / elapsed:.1f}")
    game = Game(players=args.players, seed=1).play(strategies, max_steps=200)
    copies = 20_000
    start = time.perf_counter()
    for _ in range(copies):
        game.clone(keep_log=False)
    print(f"  state copies per s : {copies / (time.perf_counter() - start):,.0f} "
          "(clone of one mid-game state without its event log; generators are shared "
          "until drawn from)")


if __name__ == "__main__":
    main()
