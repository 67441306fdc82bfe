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
"""

from __future__ import annotations

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


def main() -> None:
    rows = [json.loads(line) for line in Path(sys.argv[1]).read_text().splitlines()
            if line.strip()]
    per_arm = int(sys.argv[2])
    for arm in ("ismcts", "heuristic", "random"):
        todo = [(r["seed"], p["step"], p["label"]) for r in rows if r["arm"] == arm
                for p in r["pairs"] if p["label"] in ("mistake", "blunder")][:per_arm]
        for seed, step, label in todo:
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
                              "cpu_s": round(time.process_time() - start, 1)}), flush=True)


if __name__ == "__main__":
    main()
