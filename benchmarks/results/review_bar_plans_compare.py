"""Old vs plans=answer vs plans=both, per arm and seed (branch h18, review.measure_plans):

    python benchmarks/results/review_bar_plans_compare.py
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent
ARMS = ("random", "heuristic", "ismcts")


def main() -> None:
    rows = {}
    for name in ("answer", "both"):
        for line in (HERE / f"review_bar_plans_{name}.jsonl").read_text().splitlines():
            r = json.loads(line)
            rows[(name, r["arm"], r["seed"])] = r
    print("| arm | seed | won | old m+b | plans=answer m+b | plans=both m+b | "
          "live/reviewed (last live month) | review s (answer, both) |")
    print("|---|---|---|---|---|---|---|---|")
    tot: dict[tuple[str, str], list[int]] = {}
    for arm in ARMS:
        for seed in range(1, 5):
            a, b = rows[("answer", arm, seed)], rows[("both", arm, seed)]
            counts = {"old": a["old_mistakes"] + a["old_blunders"],
                      "answer": a["mistakes"] + a["blunders"],
                      "both": b["mistakes"] + b["blunders"]}
            for k, v in counts.items():
                tot.setdefault((arm, k), []).append(v)
            print(f"| {arm} | {seed} | {a['won']} | {counts['old']} | {counts['answer']} | "
                  f"{counts['both']} | {a['live']}/{a['reviewed']} (m{a['last_live_month']}) | "
                  f"{a['review_s']:.0f}, {b['review_s']:.0f} |")
    for arm in ARMS:
        print(arm, ", ".join(f"{k} {sum(v) / len(v):.2f}" for (a2, k), v in tot.items()
                             if a2 == arm))


if __name__ == "__main__":
    main()
