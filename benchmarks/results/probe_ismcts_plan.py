"""Probe (issue 18): do the review's flags stand when seat 0 may also be continued by ismcts?

For the first ``per_arm`` flagged decisions (mistake or blunder) of each arm in a
``review_bar.py --plans answer`` run, re-review that step alone, with the same screen and
pair (the same seeds, so the same pair as the run's), redeeming with the plans impresario,
merchant, collector *and* ismcts (default budget), the best answer credited with the same
plans (``best_plans=True``: like against like; crediting only the answer compares an
ismcts-continued answer with a merchant-continued best, which is biased). About 40-160 s
of CPU a decision on the compiled build.

    nice python benchmarks/results/probe_ismcts_plan.py \\
        benchmarks/results/review_bar_20games.jsonl 4 > probe_ismcts_plan.jsonl

Every flag (``per_arm`` 0), the arms interleaved so a stopped run is still balanced, in
``--shards`` processes; decisions already in ``--out`` are skipped, so a stopped run goes on:

    nice python benchmarks/results/probe_ismcts_plan.py \\
        benchmarks/results/review_bar_20games.jsonl 0 --out probe_all.jsonl --shard 0/2 &
    nice python benchmarks/results/probe_ismcts_plan.py \\
        benchmarks/results/review_bar_20games.jsonl 0 --out probe_all.jsonl --shard 1/2
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

from musici.analysis.review import review_game
from musici.engine import Game
from musici.strategies.registry import make_strategy

ARMS = {"random": "random", "heuristic": "impresario", "ismcts": "ismcts"}
RIVALS = ("impresario", "merchant", "collector")
SEAT = {"random": "merchant", "heuristic": "impresario", "ismcts": "merchant"}


def _todo(rows: list[dict], per_arm: int) -> list[tuple[str, int, int, str]]:
    """The flagged decisions (mistake or blunder) to probe, arm by arm in turn."""
    by_arm = [[(arm, r["seed"], p["step"], p["label"]) for r in rows if r["arm"] == arm
               for p in r["pairs"] if p["label"] in ("mistake", "blunder")]
              for arm in ("ismcts", "heuristic", "random")]
    if per_arm:
        by_arm = [todo[:per_arm] for todo in by_arm]
    return [t for turn in itertools.zip_longest(*by_arm) for t in turn if t is not None]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("rows", type=Path, help="a review_bar.py --plans answer run")
    ap.add_argument("per_arm", type=int, help="flags per arm (0: all)")
    ap.add_argument("--out", type=Path, default=None, help="append here (else stdout); "
                    "decisions already there are skipped")
    ap.add_argument("--shard", default="0/1", help="k/n: this process takes every n-th")
    args = ap.parse_args()
    rows = [json.loads(line) for line in args.rows.read_text().splitlines() if line.strip()]
    k, n = (int(x) for x in args.shard.split("/"))
    done = set()
    if args.out and args.out.exists():
        done = {(d["arm"], d["seed"], d["step"]) for d in
                map(json.loads, args.out.read_text().splitlines())}
    sink = args.out.open("a") if args.out else sys.stdout
    for i, (arm, seed, step, label) in enumerate(_todo(rows, args.per_arm)):
        if i % n != k or (arm, seed, step) in done:
            continue
        start = time.process_time()
        players = [make_strategy(ARMS[arm])] + [make_strategy(x) for x in RIVALS]
        game = Game(4, seed).play(players)
        lineup = [make_strategy(SEAT[arm])] + [make_strategy(x) for x in RIVALS]
        others = [b for b in RIVALS if b != SEAT[arm]] + ["ismcts"]
        plans = [[make_strategy(b), *lineup[1:]] for b in others]
        review = review_game(game, 0, worlds=16, min_worlds=4, steps={step},
                             policies=lineup,
                             policy_name=f"seat 0 by {SEAT[arm]}, rivals by their own bots",
                             plans=plans, plan_names=[f"seat 0 by {b}" for b in others],
                             best_plans=True)
        m = next(x for x in review if x.step == step)
        print(json.dumps({"arm": arm, "seed": seed, "step": step, "old": label,
                          "new": m.label, "plan": m.plan, "best_plan": m.best_plan,
                          "drop": round(m.drop, 3), "fame_drop": round(m.fame_drop, 2),
                          "cpu_s": round(time.process_time() - start, 1)}),
              file=sink, flush=True)


if __name__ == "__main__":
    main()
