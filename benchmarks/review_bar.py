"""The review's bar (issue 18): it tells strong play from weak.

Over ``--games`` games (seeds ``--seed`` ..), seat 0 is played by ``random``, by a
heuristic bot (``impresario``) and by ``ismcts`` (its default budget); the other seats by
impresario, merchant and collector. Each game is reviewed for seat 0
(:func:`musici.analysis.review.review_game`, ``--worlds`` worlds per decision at most) and
the mean number of mistakes + blunders per game is printed per arm, with a 95 % interval
(Student's t over games) and the inaccuracies. The bar: random > heuristic > ismcts and
random >= 5 x ismcts.

    nice python benchmarks/review_bar.py --games 20 --jobs 2 --out review_bar.jsonl

Each game's counts are appended to ``--out`` as it finishes (JSON lines), and a rerun
with the same ``--out`` skips the games already there, so a stopped run can go on.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ARMS = {"random": "random", "heuristic": "impresario", "ismcts": "ismcts"}
RIVALS = ("impresario", "merchant", "collector")


def one(arm: str, seed: int, worlds: int) -> dict[str, object]:
    from musici.analysis.review import review_game
    from musici.engine import Game
    from musici.strategies.registry import make_strategy

    t0 = time.perf_counter()
    players = [make_strategy(ARMS[arm])] + [make_strategy(r) for r in RIVALS]
    game = Game(4, seed).play(players)
    t1 = time.perf_counter()
    review = review_game(game, 0, worlds=worlds)
    return {"arm": arm, "seed": seed, "mistakes": review.count("mistake"),
            "blunders": review.count("blunder"), "inaccuracies": review.count("inaccuracy"),
            "reviewed": len(review), "won": 0 in game.results["winners"] if game.results else None,
            "play_s": round(t1 - t0, 1), "review_s": round(time.perf_counter() - t1, 1)}


def table(rows: list[dict[str, object]]) -> str:
    from musici.analysis.evaluation import interval

    lines = ["| seat 0 | games | mistakes+blunders / game (95 %) | inaccuracies / game | "
             "decisions reviewed / game |", "|---|---|---|---|---|"]
    means = {}
    for arm in ARMS:
        mine = [r for r in rows if r["arm"] == arm]
        if not mine:
            continue
        err = [float(r["mistakes"]) + float(r["blunders"]) for r in mine]  # type: ignore[arg-type]
        m, lo, hi = interval(err)
        means[arm] = m
        inacc = sum(float(r["inaccuracies"]) for r in mine) / len(mine)  # type: ignore[arg-type]
        rev = sum(float(r["reviewed"]) for r in mine) / len(mine)  # type: ignore[arg-type]
        lines.append(f"| {arm} ({ARMS[arm]}) | {len(mine)} | {m:.2f} ({max(lo, 0):.2f}-{hi:.2f})"
                     f" | {inacc:.2f} | {rev:.0f} |")
    if len(means) == 3:
        ordered = means["random"] > means["heuristic"] > means["ismcts"]
        ratio = means["random"] / means["ismcts"] if means["ismcts"] else float("inf")
        lines.append(f"ordered random > heuristic > ismcts: {ordered}; random / ismcts = "
                     f"{ratio:.1f} (bar: >= 5)")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path("review_bar.jsonl"))
    ap.add_argument("--table", action="store_true", help="only print the table of --out")
    args = ap.parse_args()
    done: list[dict[str, object]] = []
    if args.out.exists():
        done = [json.loads(line) for line in args.out.read_text().splitlines() if line.strip()]
    if args.table:
        print(table(done))
        return
    have = {(r["arm"], r["seed"]) for r in done}
    # interleave the arms so a stopped run has all three
    todo = [(arm, seed) for seed in range(args.seed, args.seed + args.games) for arm in ARMS
            if (arm, seed) not in have]
    with ProcessPoolExecutor(args.jobs) as pool, args.out.open("a") as out:
        futures = [pool.submit(one, arm, seed, args.worlds) for arm, seed in todo]
        for f in futures:
            row = f.result()
            done.append(row)
            out.write(json.dumps(row) + "\n")
            out.flush()
            print(row, flush=True)
    print(table(done))


if __name__ == "__main__":
    main()
