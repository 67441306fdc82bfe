"""The review's bar (issue 18): it tells strong play from weak, and its labels hold up.

Over ``--games`` games (seeds ``--seed`` ..), seat 0 is played by ``random``, by a
heuristic bot (``impresario``) and by ``ismcts`` (its default budget); the other seats by
impresario, merchant and collector. Each game is reviewed for seat 0
(:func:`musici.analysis.review.review_game`: ``--screen`` worlds screen every answer,
``--worlds`` fresh worlds measure the pair, raced up to 4x while contested, all played out
by the game's line-up: the rivals by their own bots, seat 0 by the bot that played it when
it fits (impresario), else by merchant, the strongest heuristic bot; 4 screening worlds
by default, as these play-outs cost about 4x greedy's)
and the mean
number of mistakes + blunders per game is printed per arm, with a 95 % interval
(Student's t over games), the inaccuracies and how many labels came from the fame scale
(saturated win share). The bar: random > heuristic > ismcts and random >= 5 x ismcts.

Label precision (the honesty check): in each game up to ``--checks`` flagged decisions
(mistakes and blunders first, then inaccuracies; a seeded sample) are played out again,
the flagged answer and the review's best, in ``--check-worlds`` fresh common worlds (seeded
apart from the review's, 48 by default where the review's pair had 16-64) with the same
line-up, and the drop is measured on the label's scale.
"Real": the fresh 95 % interval's lower end is above 0 (the flagged answer is worse);
"at label": the fresh mean reaches the label's threshold.

    nice python benchmarks/review_bar.py --games 20 --jobs 1 --out review_bar.jsonl
    python benchmarks/review_bar.py --table --out review_bar.jsonl

``--plans answer`` (or ``both``): a flag stands only if no plan redeems it
(:func:`musici.analysis.review.measure_plans`: seat 0 continued by impresario, merchant or
collector after the flagged answer, or after both answers); each row keeps the labels
without plans too (``old_mistakes``, ``old_blunders``: the same run, the same worlds) and
``live``, the decisions where some screened answer changed seat 0's outcome in some world
(a bankrupt seat at fame 0 has none left: no answer of it can be flagged).

    nice python benchmarks/review_bar.py --games 4 --checks 0 --plans answer --out plans.jsonl

Each game's counts are appended to ``--out`` as it finishes (JSON lines), and a rerun
with the same ``--out`` skips the games already there, so a stopped run can go on.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ARMS = {"random": "random", "heuristic": "impresario", "ismcts": "ismcts"}
RIVALS = ("impresario", "merchant", "collector")
# Seat 0's play-out bot in the review and the checks (review.lineup_options): the bot that
# played it when it fits (impresario: an answer is judged with the plan that follows it;
# with merchant continuing, impresario's seed-2 game, which it won, drew 7 blunders in
# months 9-11, judged by merchant's plans, not its own), else merchant, the strongest
# heuristic bot (random is no plan to continue; ismcts takes seconds a play-out).


def one(arm: str, seed: int, worlds: int, screen: int, checks: int,
        check_worlds: int, plans: str = "none", deep: bool = False) -> dict[str, Any]:
    from musici.analysis.review import (
        SEVERITY,
        check_label,
        deep_check,
        lineup_options,
        review_game,
        seat_play_out,
    )
    from musici.engine import Game
    from musici.strategies.registry import make_strategy

    t0 = time.perf_counter()
    players = [make_strategy(ARMS[arm])] + [make_strategy(r) for r in RIVALS]
    game = Game(4, seed).play(players)
    t1 = time.perf_counter()
    # every stage is played with the line-up that played the game (review.lineup_options,
    # as the stepper's review tab does): the rivals by their own bots, seat 0 as above
    # (greedy wins 0 % against the three heuristic bots, so a greedy-continued seat is lost
    # whatever it answers and nothing can be measured); --plans: the other PLAN_BOTS
    options = lineup_options([ARMS[arm], *RIVALS], 0)
    lineup, policy_name = options["policies"], options["policy_name"]
    if plans == "none":
        options.pop("plans"), options.pop("plan_names")
    review = review_game(game, 0, worlds=worlds, min_worlds=screen, **options,
                         best_plans=plans == "both")
    before_deep = (review.count("mistake"), review.count("blunder"))
    if deep:  # each mistake and blunder judged again with ismcts among the plans
        review = deep_check(game, 0, review, worlds=worlds, min_worlds=screen, **options)
    t2 = time.perf_counter()
    flagged = sorted(review.flagged, key=lambda m: m.step)
    rng = random.Random(f"review-bar-check:{arm}:{seed}")
    rng.shuffle(flagged)
    flagged.sort(key=lambda m: -min(SEVERITY[m.label], 2))  # mistakes and blunders first
    done = []
    for m in flagged[:checks]:
        c = check_label(game, 0, m, worlds=check_worlds, seed="review-bar-check",
                        policies=lineup, policy_name=policy_name)
        done.append({"step": m.step, "label": m.label, "scale": m.scale,
                     "review_drop": round(m.fame_drop if m.scale == "fame" else m.drop, 3),
                     "drop": round(c.drop, 3), "low": round(c.low, 3), "high": round(c.high, 3),
                     "real": c.real, "at_label": c.at_label, "worlds": c.worlds})
    pairs = [{"step": m.step, "month": m.month, "kind": str(m.kind), "label": m.label,
              "scale": m.scale, "drop": round(m.drop, 3), "low": round(m.drop_low, 3),
              "fame_drop": round(m.fame_drop, 2), "fame_low": round(m.fame_low, 2),
              "chosen_win": round(m.chosen_value, 3), "best_win": round(m.best_value, 3),
              "worlds": m.estimates.worlds, "unredeemed": m.unredeemed, "plan": m.plan,
              "best_plan": m.best_plan}
             for m in sorted(review, key=lambda m: m.step) if m.best != m.chosen]
    results = game.results or {}
    live = [m for m in review if m.live]
    return {"arm": arm, "seed": seed, "seat_policy": seat_play_out(ARMS[arm]), "plans": plans,
            "deep": deep, "before_deep": before_deep,
            # the labels the screen's line-up alone gives (today's review, same run)
            "old_mistakes": sum(m.unredeemed == "mistake" for m in review),
            "old_blunders": sum(m.unredeemed == "blunder" for m in review),
            # decisions where some answer changed the outcome in the screen's worlds, and
            # the month of the last one (after it no answer matters: cause 1, bankruptcy)
            "live": len(live), "last_live_month": max((m.month for m in live), default=0),
            "mistakes": review.count("mistake"),
            "blunders": review.count("blunder"), "inaccuracies": review.count("inaccuracy"),
            "fame_labels": sum(1 for m in review.flagged if m.scale == "fame"),
            "reviewed": len(review), "won": 0 in results.get("winners", ()),
            "fame": [float(f) for f in results.get("fame", ())],
            "play_s": round(t1 - t0, 1), "review_s": round(t2 - t1, 1),
            "check_s": round(time.perf_counter() - t2, 1), "checks": done, "pairs": pairs,
            "curve": [(p.step, p.month, round(p.win_share, 3)) for p in review.curve]}


def _relabel(p: dict[str, Any], fame_t: tuple[float, float, float]) -> int:
    """A stored pair's severity (0-3) under other fame thresholds (review.judge's rule)."""
    from musici.analysis.review import LABELS, SATURATED

    win = sum(1 for _, t in LABELS if p["low"] >= t)
    if min(p["chosen_win"], p["best_win"]) >= 1 - SATURATED:
        return win
    return max(win, sum(1 for t in fame_t if p["fame_low"] >= t))


def _errors(row: dict[str, Any]) -> float:
    return float(row["mistakes"]) + float(row["blunders"])


def verdicts(rows: list[dict[str, Any]]) -> list[str]:
    """Each ordering of the bar as a verdict: the arms paired by seed (the same deal and
    rivals), the mean difference of mistakes+blunders per game with its 95 % interval
    (Student's t over seeds), "too close to call" when the interval holds 0; and the
    counts per 100 live decisions (decisions where some answer changed the outcome), with a
    95 % bootstrap interval over games (seeded, so the table is the same every time)."""
    from musici.analysis.evaluation import interval

    by = {(r["arm"], r["seed"]): r for r in rows}
    out = []
    for a, b in (("random", "heuristic"), ("heuristic", "ismcts"), ("random", "ismcts")):
        seeds = sorted(s for (arm, s) in by if arm == a and (b, s) in by)
        if len(seeds) < 2:
            continue
        m, lo, hi = interval([_errors(by[a, s]) - _errors(by[b, s]) for s in seeds])
        word = (f"{a} more" if lo > 0 else f"{b} more" if hi < 0 else "too close to call")
        out.append(f"{a} - {b}, paired by seed ({len(seeds)} seeds): {m:+.2f} per game "
                   f"({lo:+.2f} to {hi:+.2f}, 95 %): {word}")
    rng = random.Random(0)
    rates = []
    for arm in ARMS:
        mine = [r for r in rows if r["arm"] == arm and "live" in r]
        if not mine or not sum(r["live"] for r in mine):
            continue
        boot = sorted(_rate([rng.choice(mine) for _ in mine]) for _ in range(2000))
        rates.append(f"{arm} {_rate(mine):.2f} ({boot[49]:.2f}-{boot[1949]:.2f})")
    if rates:
        out.append("mistakes+blunders per 100 live decisions (95 % bootstrap over games): "
                   + ", ".join(rates))
    out.extend(_paired_rates(by))
    return out


def _rate(sample: list[dict[str, Any]]) -> float:
    """Mistakes+blunders per 100 live decisions, pooled over ``sample``'s games."""
    live = sum(r["live"] for r in sample)
    return 100 * sum(_errors(r) for r in sample) / live if live else 0.0


def _paired_rates(by: dict[tuple[str, int], dict[str, Any]]) -> list[str]:
    """The per-live-decision orderings and the random / ismcts ratio (per game and per live
    decision) as verdicts: a bootstrap over seeds, the arms' games resampled together
    (paired: the same deals and rivals), 95 % percentile intervals; "too close to call"
    when an interval holds 0 (a difference) or 5 (the bar's ratio)."""
    seeds = sorted(s for (arm, s) in by if arm == "random" and all(
        (a, s) in by and "live" in by[a, s] for a in ARMS))
    if len(seeds) < 2:
        return []
    rng = random.Random(1)
    draws = [[rng.choice(seeds) for _ in seeds] for _ in range(2000)]

    def boot(stat: Any) -> tuple[float, float, float]:
        values = sorted(stat(d) for d in draws)
        return stat(seeds), values[49], values[1949]

    def rate(arm: str) -> Any:
        return lambda ss: _rate([by[arm, s] for s in ss])

    def per_game(arm: str) -> Any:
        return lambda ss: sum(_errors(by[arm, s]) for s in ss) / len(ss)

    out = []
    for a, b in (("random", "heuristic"), ("heuristic", "ismcts"), ("random", "ismcts")):
        m, lo, hi = boot(lambda ss, a=a, b=b: rate(a)(ss) - rate(b)(ss))
        word = (f"{a} more" if lo > 0 else f"{b} more" if hi < 0 else "too close to call")
        out.append(f"{a} - {b} per 100 live decisions, paired bootstrap over {len(seeds)} "
                   f"seeds: {m:+.2f} ({lo:+.2f} to {hi:+.2f}, 95 %): {word}")
    for name, stat in (("per game", per_game), ("per 100 live decisions", rate)):
        def ratio(ss: list[int], stat: Any = stat) -> float:
            num, den = stat("random")(ss), stat("ismcts")(ss)
            return num / den if den else float("inf") if num else float("nan")
        m, lo, hi = boot(ratio)  # nan (no flags in either arm) sorts anywhere: refuse it
        if any(math.isnan(x) for x in (m, lo, hi)):
            out.append(f"random / ismcts {name}: no flags in either arm in some resamples: "
                       f"too close to call (bar: >= 5)")
            continue
        word = ("at least 5x" if lo >= 5 else "below 5x" if hi < 5 else "too close to call")
        out.append(f"random / ismcts {name}: {m:.1f}x ({lo:.1f} to {hi:.1f}, 95 % paired "
                   f"bootstrap): {word} (bar: >= 5)")
    return out


def relabel(rows: list[dict[str, Any]], probe: list[dict[str, Any]]) -> tuple[int, int]:
    """Apply a probe's labels (``results/probe_ismcts_plan.py``: each flagged mistake or
    blunder judged again with ismcts among the plans, both answers credited) to ``rows``
    in place: a pair's label becomes the probe's and the row's counts follow. Returns
    (flags relabelled, mistakes+blunders that were in ``rows``)."""
    new = {(d["arm"], d["seed"], d["step"]): d["new"] for d in probe}
    done = total = 0
    for r in rows:
        for p in r.get("pairs", ()):
            if p["label"] not in ("mistake", "blunder"):
                continue
            total += 1
            key = (r["arm"], r["seed"], p["step"])
            if key in new:
                done += 1
                p["label"] = new[key]
        for name in ("mistake", "blunder", "inaccuracy"):
            r[f"{name}s" if name != "inaccuracy" else "inaccuracies"] = sum(
                1 for p in r.get("pairs", ()) if p["label"] == name)
    return done, total


def table(rows: list[dict[str, Any]]) -> str:
    from musici.analysis.evaluation import interval

    lines = ["| seat 0 | games | won | mistakes+blunders / game (95 %) | inaccuracies / game | "
             "labels by fame / game | decisions reviewed / game | without plans: "
             "mistakes+blunders / game | live decisions / game |",
             "|---|---|---|---|---|---|---|---|---|"]
    means = {}
    for arm in ARMS:
        mine = [r for r in rows if r["arm"] == arm]
        if not mine:
            continue
        err = [float(r["mistakes"]) + float(r["blunders"]) for r in mine]
        m, lo, hi = interval(err)
        means[arm] = m
        k = len(mine)
        inacc = sum(float(r["inaccuracies"]) for r in mine) / k
        fame = sum(float(r.get("fame_labels", 0)) for r in mine) / k
        rev = sum(float(r["reviewed"]) for r in mine) / k
        won = sum(1 for r in mine if r["won"])
        # rows from before --plans: the labels were the screen's line-up's alone
        old = sum(float(r.get("old_mistakes", r["mistakes"]))
                  + float(r.get("old_blunders", r["blunders"])) for r in mine) / k
        live = [float(r["live"]) for r in mine if "live" in r]
        live_s = f"{sum(live) / len(live):.1f}" if live else "-"
        lines.append(f"| {arm} ({ARMS[arm]}) | {k} | {won} | {m:.2f} ({max(lo, 0):.2f}-"
                     f"{hi:.2f}) | {inacc:.2f} | {fame:.2f} | {rev:.0f} | {old:.2f} | "
                     f"{live_s} |")
    if len(means) == 3:
        ordered = means["random"] > means["heuristic"] > means["ismcts"]
        ratio = means["random"] / means["ismcts"] if means["ismcts"] else float("inf")
        lines.append(f"ordered random > heuristic > ismcts: {ordered}; random / ismcts = "
                     f"{ratio:.1f} (bar: >= 5)")
        lines.extend(verdicts(rows))
    # the exchange rate of fame for win share on contested pairs (the fame thresholds'
    # basis): a least-squares slope through 0 of win-share drop on fame drop
    pairs = [p for r in rows for p in r.get("pairs", ()) if p["worlds"] > 8
             and 0.1 < (p["chosen_win"] + p["best_win"]) / 2 < 0.9]
    sxx = sum(p["fame_drop"] ** 2 for p in pairs)
    if pairs and sxx > 0:
        rate = sum(p["fame_drop"] * p["drop"] for p in pairs) / sxx
        lines.append(f"exchange rate on {len(pairs)} contested pairs: {rate:.3f} win share per "
                     f"fame point (so 0.05 / 0.10 / 0.20 of win share ~ {0.05 / rate:.1f} / "
                     f"{0.10 / rate:.1f} / {0.20 / rate:.1f} fame)" if rate > 0 else
                     f"exchange rate on {len(pairs)} contested pairs: {rate:.3f} (not positive)")
    # sensitivity: the same pairs relabelled with other fame thresholds (approximate: the
    # race stopped where the review's own thresholds said)
    for fame_t in ((2.5, 5.0, 10.0), (1.0, 2.0, 4.0)):
        per = {}
        for arm in ARMS:
            mine = [r for r in rows if r["arm"] == arm]
            if mine:
                per[arm] = sum(_relabel(p, fame_t) >= 2 for r in mine
                               for p in r.get("pairs", ())) / len(mine)
        lines.append(f"with fame thresholds {fame_t[0]:g} / {fame_t[1]:g} / {fame_t[2]:g}: "
                     "mistakes+blunders / game " + ", ".join(f"{a} {v:.2f}"
                                                            for a, v in per.items()))
    checks = [c for r in rows for c in r.get("checks", ())]
    if checks:
        lines.append("")
        lines.append("label precision (flagged answer vs the review's best, fresh worlds, "
                     "rivals by their own bots):")
        lines.append("| labels | checked | real (fresh interval above 0) | at label (fresh mean "
                     ">= threshold) |")
        lines.append("|---|---|---|---|")
        groups = {"mistake+blunder": [c for c in checks if c["label"] != "inaccuracy"],
                  "inaccuracy": [c for c in checks if c["label"] == "inaccuracy"],
                  "all": checks}
        for name, cs in groups.items():
            if cs:
                real = sum(1 for c in cs if c["real"])
                at = sum(1 for c in cs if c["at_label"])
                lines.append(f"| {name} | {len(cs)} | {real} ({real / len(cs):.0%}) | "
                             f"{at} ({at / len(cs):.0%}) |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--worlds", type=int, default=16, help="pair worlds (raced up to 4x)")
    ap.add_argument("--screen", type=int, default=4, help="worlds screening every answer")
    ap.add_argument("--checks", type=int, default=2, help="flags checked per game")
    ap.add_argument("--check-worlds", type=int, default=48)
    ap.add_argument("--arms", default=",".join(ARMS), help="comma-separated arms to run")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path("review_bar.jsonl"))
    ap.add_argument("--table", action="store_true", help="only print the table of --out")
    ap.add_argument("--plans", choices=("none", "answer", "both"), default="none",
                    help="redeem flags with other plans for seat 0 (review.measure_plans): "
                         "for the answer given, or for both answers")
    ap.add_argument("--deep", action="store_true",
                    help="with --plans: judge each mistake and blunder again with ismcts among "
                         "the plans, both answers credited (review.deep_check; 20-150 s of "
                         "CPU a flag); the counts before it are kept as before_deep")
    ap.add_argument("--relabel", type=Path, default=None,
                    help="with --table: a probe_ismcts_plan.py output whose labels replace "
                         "the flagged pairs' (ismcts among the plans)")
    args = ap.parse_args()
    done: list[dict[str, Any]] = []
    if args.out.exists():
        done = [json.loads(line) for line in args.out.read_text().splitlines() if line.strip()]
    if args.table:
        if args.relabel is not None:
            probe = [json.loads(line) for line in args.relabel.read_text().splitlines()
                     if line.strip()]
            k, n = relabel(done, probe)
            print(f"relabelled by {args.relabel}: {k} of the {n} mistakes+blunders "
                  f"({n - k} not probed keep their label)")
        print(table(done))
        return
    if args.deep and args.plans == "none":
        raise SystemExit("--deep judges the flags the plans left again: give --plans answer "
                         "(or both)")
    arms = [a for a in args.arms.split(",") if a]
    if not set(arms) <= set(ARMS):
        raise SystemExit(f"--arms: choose from {', '.join(ARMS)}")
    have = {(r["arm"], r["seed"]) for r in done}
    # interleave the arms so a stopped run has all three
    todo = [(arm, seed) for seed in range(args.seed, args.seed + args.games) for arm in arms
            if (arm, seed) not in have]
    with ProcessPoolExecutor(args.jobs) as pool, args.out.open("a") as out:
        futures = [pool.submit(one, arm, seed, args.worlds, args.screen, args.checks,
                               args.check_worlds, args.plans, args.deep) for arm, seed in todo]
        for f in futures:
            row = f.result()
            done.append(row)
            out.write(json.dumps(row) + "\n")
            out.flush()
            print({k: v for k, v in row.items() if k not in ("pairs", "checks", "curve")},
                  flush=True)
    print(table(done))


if __name__ == "__main__":
    main()
