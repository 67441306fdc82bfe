"""Strength of the heuristic bots (impresario, merchant, collector).

    PYTHONPATH=. python3 benchmarks/bot_strength.py --games 400 --seed 0

For each bot: 4-player 12-month games against three random bots, the bot's seat rotated
over all four seats (game i puts it in seat i % 4, seed ``--seed + i``). A shared win
counts 1/k. Prints the win rate with a Wilson 95 % interval, the bot's mean final fame,
and seconds per game. Then a round-robin: the three bots and greedy at one table, the
line-up rotated by one seat per game, with each bot's win rate, interval and mean fame.
Not part of the default test run.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from musici import Game
from musici.strategies.collector import collector_strategy
from musici.strategies.greedy import greedy_strategy
from musici.strategies.impresario import impresario_strategy
from musici.strategies.merchant import merchant_strategy
from musici.strategies.random_strategy import random_strategy

BOTS: dict[str, Callable[[Any, Any], Any]] = {
    "impresario": impresario_strategy,
    "merchant": merchant_strategy,
    "collector": collector_strategy,
}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion (fractional wins are fine)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def share(game: Game, seat: int) -> float:
    winners = game.results["winners"]
    return winners.count(seat) / len(winners)


def vs_random(bot: Callable[[Any, Any], Any], games: int, seed: int) -> dict[str, float]:
    wins = fame = 0.0
    start = time.perf_counter()
    for i in range(games):
        seat = i % 4
        lineup: list[Callable[[Any, Any], Any]] = [random_strategy] * 4
        lineup[seat] = bot
        game = Game(players=4, seed=seed + i).play(lineup)
        wins += share(game, seat)
        fame += float(game.results["fame"][seat])
    elapsed = time.perf_counter() - start
    lo, hi = wilson(wins, games)
    return {"rate": wins / games, "lo": lo, "hi": hi, "fame": fame / games,
            "sec": elapsed / games}


def round_robin(names: Sequence[str], strategies: Sequence[Callable[[Any, Any], Any]],
                games: int, seed: int) -> dict[str, dict[str, float]]:
    n = len(names)
    wins = [0.0] * n
    fame = [0.0] * n
    for i in range(games):
        order = [(j + i) % n for j in range(n)]  # seat s holds bot order[s]
        game = Game(players=n, seed=seed + i).play([strategies[b] for b in order])
        for seat, b in enumerate(order):
            wins[b] += share(game, seat)
            fame[b] += float(game.results["fame"][seat])
    out = {}
    for b, name in enumerate(names):
        lo, hi = wilson(wins[b], games)
        out[name] = {"rate": wins[b] / games, "lo": lo, "hi": hi, "fame": fame[b] / games}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400, help="games per measurement")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--skip-random", action="store_true", help="only the round-robin")
    parser.add_argument("--skip-robin", action="store_true", help="only the games vs random")
    args = parser.parse_args()
    if not args.skip_random:
        print(f"vs 3 random bots, {args.games} games each, seats rotated, seeds "
              f"{args.seed}..{args.seed + args.games - 1}")
        print(f"  {'bot':<11} {'win rate':>8}  {'Wilson 95 %':<15} {'mean fame':>9} {'s/game':>7}")
        for name, bot in BOTS.items():
            r = vs_random(bot, args.games, args.seed)
            print(f"  {name:<11} {r['rate']:>8.3f}  [{r['lo']:.3f}, {r['hi']:.3f}]  "
                  f"{r['fame']:>9.1f} {r['sec']:>7.3f}")
    if not args.skip_robin:
        names = [*BOTS, "greedy"]
        strategies = [*BOTS.values(), greedy_strategy]
        start = time.perf_counter()
        table = round_robin(names, strategies, args.games, args.seed)
        sec = (time.perf_counter() - start) / max(args.games, 1)
        print(f"round-robin {', '.join(names)}: {args.games} games, line-up rotated, "
              f"{sec:.3f} s/game")
        print(f"  {'bot':<11} {'win rate':>8}  {'Wilson 95 %':<15} {'mean fame':>9}")
        for name, r in table.items():
            print(f"  {name:<11} {r['rate']:>8.3f}  [{r['lo']:.3f}, {r['hi']:.3f}]  "
                  f"{r['fame']:>9.1f}")


if __name__ == "__main__":
    main()
