"""The rating ladder: its cost, and whether its intervals hold their 95 %.

    PYTHONPATH=. python3 benchmarks/ladder.py --bots random,greedy,impresario,merchant,collector \
        --games 200 --jobs 2
    PYTHONPATH=. python3 benchmarks/ladder.py --calibration 200

The first form plays a ladder and prints it with the seconds spent playing and rating
(fit plus bootstrap). ``--calibration R`` draws R synthetic ladders from a Plackett–Luce
model with known strengths (five bots at every 4-combination, ``--games`` per table) and
counts how often each bootstrap interval of a rating gap covers the true gap: a fair 95 %
interval covers it in about 95 % of the ladders. Not part of the test run.
"""

from __future__ import annotations

import argparse
import itertools
import math
import time

import numpy as np
import pandas as pd

from musici.playtest.ladder import SCALE, _ratings, ladder


def play(args: argparse.Namespace) -> None:
    start = time.perf_counter()
    result = ladder(args.bots, args.games, seed=args.seed, jobs=args.jobs, bootstrap=0)
    played = time.perf_counter() - start
    start = time.perf_counter()
    ratings = _ratings(result.players, result.config["bots"], args.bootstrap, args.seed, 0.95)
    rated = time.perf_counter() - start
    result.ratings, result.config["bootstrap"] = ratings, args.bootstrap
    print(result.to_text())
    n = len(result.games)
    print(f"\n{n} games played in {played:.1f} s ({played / n:.3f} s/game, --jobs {args.jobs}); "
          f"ratings with {args.bootstrap} bootstrap resamples in {rated:.2f} s")


def _synthetic(strengths: np.ndarray, games: int, rng: np.random.Generator) -> pd.DataFrame:
    rows = []
    for t, table in enumerate(itertools.combinations(range(len(strengths)), 4)):
        for g in range(games):
            left, place = list(table), 1
            while left:
                lam = strengths[left]
                pick = left.pop(int(rng.choice(len(left), p=lam / lam.sum())))
                rows.append({"table": t, "game": g, "seat": pick, "strategy": f"b{pick}",
                             "rank": place, "win": float(place == 1), "fame": 0.0})
                place += 1
    return pd.DataFrame(rows)


def calibration(args: argparse.Namespace) -> None:
    strengths = np.array([0.5, 1.0, 1.0, 2.0, 4.0])
    names = [f"b{i}" for i in range(len(strengths))]
    true = SCALE * (np.log(strengths) - np.log(strengths).mean())
    rng = np.random.default_rng(args.seed)
    covered = np.zeros(len(strengths))
    start = time.perf_counter()
    for r in range(args.calibration):
        frame = _synthetic(strengths, args.games, rng)
        table = _ratings(frame, names, args.bootstrap, args.seed + r, 0.95).set_index("bot")
        covered += [(table.low[b] <= true[i] <= table.high[b]) for i, b in enumerate(names)]
    sec = time.perf_counter() - start
    print(f"{args.calibration} synthetic ladders, 5 bots, {args.games} games per table, "
          f"{args.bootstrap} bootstrap resamples ({sec / args.calibration:.2f} s each):")
    for i, b in enumerate(names):
        share = covered[i] / args.calibration
        half = 1.96 * math.sqrt(share * (1 - share) / args.calibration)
        print(f"  {b} (true rating {true[i]:+.0f}): 95% interval covers it in {share:.1%} "
              f"(+/- {half:.1%}) of ladders")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", default="random,greedy,impresario,merchant,collector")
    parser.add_argument("--games", type=int, default=100, help="games per table")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--bootstrap", type=int, default=200)
    parser.add_argument("--calibration", type=int, default=0,
                        help="instead of playing: this many synthetic ladders")
    args = parser.parse_args()
    (calibration if args.calibration else play)(args)


if __name__ == "__main__":
    main()
