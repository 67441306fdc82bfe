"""The rating ladder: its cost, and whether its intervals hold their 95 %.

    PYTHONPATH=. python3 benchmarks/ladder.py --bots random,greedy,impresario,merchant,collector \
        --games 200 --jobs 2
    PYTHONPATH=. python3 benchmarks/ladder.py --calibration 200 --games 50 --bootstrap 100

The first form plays a ladder and prints it with the seconds spent playing and rating
(fit plus bootstrap). ``--calibration R`` draws R synthetic ladders from a Plackett–Luce
model with known strengths and counts how often each 95 % interval covers the true value;
a fair 95 % interval covers it in about 95 % of the ladders:

- five bots at every 4-combination (``--games`` per table): the bootstrap interval of every
  **rating gap** (``LadderResult.differences``: one bot's rating minus another's, the
  intervals readers compare ratings with) against the true gap, and, second, the interval
  of each centred rating against the true centred rating;
- three bots with repeats (``a,a,b,c``, ``a,b,b,c``, ``a,b,c,c``: one bot fills two seats of
  a table): the rating gaps again, the win-rate intervals (Wilson on the deal-level
  effective number of seats) against the true win rate per seat, and the pairwise
  "finishes above" intervals against ``λa / (λa + λb)``, each beside plain Wilson over
  seats (the intervals before issue 19), which counts the seats of one game as independent.

Not part of the test run.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
import pandas as pd

from musici.playtest.ladder import SCALE, _fit, _pairwise, ladder, ladder_tables
from musici.sim.stats import wilson_interval


def play(args: argparse.Namespace) -> None:
    start = time.perf_counter()
    result = ladder(args.bots, args.games, seed=args.seed, jobs=args.jobs, bootstrap=0)
    played = time.perf_counter() - start
    start = time.perf_counter()
    ratings, differences = _fit(result.players, result.config["bots"], args.bootstrap,
                                args.seed, 0.95)
    rated = time.perf_counter() - start
    result.ratings, result.differences = ratings, differences
    result.config["bootstrap"] = args.bootstrap
    print(result.to_text())
    n = len(result.games)
    print(f"\n{n} games played in {played:.1f} s ({played / n:.3f} s/game, --jobs {args.jobs}); "
          f"ratings with {args.bootstrap} bootstrap resamples in {rated:.2f} s")


def _synthetic(strengths: np.ndarray, games: int, rng: np.random.Generator) -> pd.DataFrame:
    """A ladder's players frame drawn from Plackett–Luce with these strengths."""
    names = [f"b{i}" for i in range(len(strengths))]
    rows = []
    for t, table in enumerate(ladder_tables(names)):
        bots = [names.index(b) for b in table]
        for g in range(games):
            left, place = list(range(len(bots))), 1
            while left:
                lam = strengths[[bots[s] for s in left]]
                seat = left.pop(int(rng.choice(len(left), p=lam / lam.sum())))
                rows.append({"table": t, "game": g, "seat": seat, "strategy": names[bots[seat]],
                             "rank": place, "win": float(place == 1), "fame": 0.0})
                place += 1
    return pd.DataFrame(rows)


def _true_win_rates(strengths: np.ndarray) -> dict[str, float]:
    """Per bot: the chance a seat of it wins, averaged over its seats at every table."""
    names = [f"b{i}" for i in range(len(strengths))]
    wins = dict.fromkeys(names, 0.0)
    seats = dict.fromkeys(names, 0)
    for table in ladder_tables(names):
        total = sum(strengths[names.index(b)] for b in table)
        for b in table:
            wins[b] += strengths[names.index(b)] / total
            seats[b] += 1
    return {b: wins[b] / seats[b] for b in names}


class Coverage:
    """Counts of intervals that covered the truth, per label."""

    def __init__(self) -> None:
        self.hits: dict[str, list[bool]] = {}

    def add(self, label: str, low: float, high: float, truth: float) -> None:
        self.hits.setdefault(label, []).append(bool(low <= truth <= high))

    def report(self, title: str) -> None:
        print(title)
        for label, hits in sorted(self.hits.items()):
            share = float(np.mean(hits))
            half = 1.96 * math.sqrt(share * (1 - share) / len(hits))
            print(f"  {label}: covers it in {share:.1%} (+/- {half:.1%}) of {len(hits)} ladders")


def _calibrate(strengths: np.ndarray, args: argparse.Namespace, repeats: bool) -> None:
    names = [f"b{i}" for i in range(len(strengths))]
    log = np.log(strengths)
    true_rating = SCALE * (log - log.mean())
    true_win = _true_win_rates(strengths)
    gaps, centred, wins, pairs = Coverage(), Coverage(), Coverage(), Coverage()
    rng = np.random.default_rng(args.seed)
    start = time.perf_counter()
    for r in range(args.calibration):
        frame = _synthetic(strengths, args.games, rng)
        ratings, differences = _fit(frame, names, args.bootstrap, args.seed + r, 0.95)
        for row in differences.itertuples():
            i, j = names.index(row.bot), names.index(row.opponent)
            if i > j:  # the stronger bot first
                gaps.add(f"gap {row.bot} - {row.opponent} (true {SCALE * (log[i] - log[j]):+.0f})",
                         row.low, row.high, SCALE * (log[i] - log[j]))
        for row in ratings.itertuples():
            i = names.index(row.bot)
            centred.add(f"{row.bot} (true centred rating {true_rating[i]:+.0f})", row.low,
                        row.high, true_rating[i])
            if repeats:
                wins.add(f"{row.bot} win rate (true {true_win[row.bot]:.1%}), deal-level",
                         row.win_low, row.win_high, true_win[row.bot])
                part = frame[frame.strategy == row.bot]
                wins.add(f"{row.bot} win rate (true {true_win[row.bot]:.1%}), Wilson over seats",
                         *wilson_interval(float(part.win.sum()), len(part)), true_win[row.bot])
        if repeats:
            for row in _pairwise(frame, 0.95).itertuples():
                i, j = names.index(row.bot), names.index(row.opponent)
                if i < j:
                    truth = strengths[i] / (strengths[i] + strengths[j])
                    label = f"{row.bot} above {row.opponent} (true {truth:.1%})"
                    pairs.add(f"{label}, deal-level", row.low, row.high, truth)
                    pairs.add(f"{label}, Wilson over pairs",
                              *wilson_interval(row.above, row.pairs), truth)
    sec = time.perf_counter() - start
    tables = ladder_tables(names)
    print(f"\n{args.calibration} synthetic ladders, {len(names)} bots, {len(tables)} tables "
          f"({', '.join(''.join(t) for t in tables) if repeats else 'every 4-combination'}), "
          f"{args.games} games per table, {args.bootstrap} bootstrap resamples "
          f"({sec / args.calibration:.2f} s each); strengths {strengths.tolist()}")
    gaps.report("rating gaps (bootstrap interval of the difference):")
    if not repeats:
        centred.report("centred ratings (bootstrap interval):")
    else:
        wins.report("win rates:")
        pairs.report("pairwise shares:")


def calibration(args: argparse.Namespace) -> None:
    _calibrate(np.array([0.5, 1.0, 1.0, 2.0, 4.0]), args, repeats=False)
    _calibrate(np.array([0.5, 1.0, 2.0]), args, repeats=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", default="random,greedy,impresario,merchant,collector")
    parser.add_argument("--games", type=int, default=100, help="games per table")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--bootstrap", type=int, default=200)
    parser.add_argument("--calibration", type=int, default=0,
                        help="instead of playing: this many synthetic ladders of each kind")
    args = parser.parse_args()
    (calibration if args.calibration else play)(args)


if __name__ == "__main__":
    main()
