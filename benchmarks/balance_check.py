"""A quick balance look at the card set: simulated games with a bot line-up.

    python benchmarks/balance_check.py greedy,greedy,greedy,greedy --games 200

Prints decisions per game, final fame (mean, spread, range), wins by seat, how often each
hall and tour is chosen, concerts per player-month and their ratings. The full balance
report with confidence intervals comes with the simulation work (issue 3).
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter

from musici import Game
from musici.strategies import make_strategy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("lineup", help="comma-separated strategies, one per seat")
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    names = args.lineup.split(",")
    strategies = [make_strategy(n) for n in names]
    fame: list[float] = []
    wins: Counter[int] = Counter()
    venues: Counter[str] = Counter()
    ratings: Counter[str] = Counter()
    steps = []
    for seed in range(args.games):
        game = Game(players=len(strategies), seed=seed).play(strategies)
        steps.append(game.step)
        fame.extend(float(f) for f in game.results["fame"])
        for s in game.results["winners"]:
            wins[s] += 1 / len(game.results["winners"])
        for e in game.events:
            if e.kind == "venue":
                venues[e.data["area"]] += 1
            elif e.kind == "concert":
                ratings[e.data["rating"]] += 1
    player_months = args.games * len(names) * 12
    print(f"{args.games} games, line-up {args.lineup}")
    print(f"  decisions per game   : {statistics.mean(steps):.0f}")
    print(f"  final fame           : mean {statistics.mean(fame):.1f}, "
          f"sd {statistics.pstdev(fame):.1f}, min {min(fame):.1f}, max {max(fame):.1f}")
    print("  wins by seat         : " + ", ".join(
        f"{s} ({names[s]}) {wins[s] / args.games:.0%}" for s in range(len(names))))
    print("  venue share          : " + ", ".join(
        f"{area} {n / player_months:.0%}" for area, n in venues.most_common()))
    concerts = sum(ratings.values())
    print(f"  concerts/player-month: {concerts / player_months:.2f} ("
          + ", ".join(f"{k} {v / concerts:.0%}" for k, v in ratings.most_common()) + ")")


if __name__ == "__main__":
    main()
