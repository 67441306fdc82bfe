"""Engine speed on one core: decisions/s, games/s and state copies/s (4 random players).

Run with ``make bench`` (or ``python benchmarks/bench_engine.py --games 200``). Not part of
the test suite: timings on a shared machine are noisy, so report them, never assert them
(``--repeat 5`` keeps the best of five runs). ``--profile`` shows where the time goes.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from musici import Game
from musici.rules import ABSENT_IN_OLD_SAVES, RuleSet
from musici.strategies import random_strategy

# The readings the engine had before rules revision 2 (options that existed then, and the
# two added since, at the value old saves played): with --old-rulings, this engine plays
# near the same games as a tree from before the revision, so their speeds compare.
OLD_RULINGS = {"RULING-MEDIA-ZERO": "no-winner", "RULING-POACH-MARKERS": "return",
               "RULING-END-CARDS": "score-and-discovery", **ABSENT_IN_OLD_SAVES}


def play_games(games: int, players: int, rules: RuleSet | None = None) -> int:
    """Play seeds 0..games-1 with random strategies; the number of decisions answered."""
    strategies = [random_strategy] * players
    decisions = 0
    for seed in range(games):
        decisions += Game(players=players, seed=seed, rules=rules).play(strategies).step
    return decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=1,
                        help="run the timings this many times and report the best")
    parser.add_argument("--profile", action="store_true",
                        help="profile the games with cProfile instead of timing them")
    parser.add_argument("--old-rulings", action="store_true",
                        help="play the rulings of the engine before rules revision 2, to time "
                             "this engine against an older tree on near-equal games")
    args = parser.parse_args()
    rules = RuleSet.from_options(OLD_RULINGS) if args.old_rulings else None
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(play_games, args.games, args.players, rules)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(30)
        return
    elapsed = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        decisions = play_games(args.games, args.players, rules)
        elapsed = min(elapsed, time.perf_counter() - start)
    print(f"{args.games} games, {args.players} random players, 12 months")
    print(f"  decisions per game : {decisions / args.games:.0f}")
    print(f"  decisions per s    : {decisions / elapsed:,.0f}")
    print(f"  games per s        : {args.games / elapsed:.1f}")
    game = Game(players=args.players, seed=1).play([random_strategy] * args.players,
                                                   max_steps=200)
    copies = 20_000
    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        for _ in range(copies):
            game.clone(keep_log=False)
        best = min(best, time.perf_counter() - start)
    print(f"  state copies per s : {copies / best:,.0f} "
          "(clone of one mid-game state without its event log; generators are shared "
          "until drawn from)")


if __name__ == "__main__":
    main()
