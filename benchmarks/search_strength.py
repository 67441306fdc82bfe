"""How strong is the search bot? Its win rate against three heuristic bots.

Plays ``--games`` 4-player games; the search bot's seat rotates over all four seats
(game ``k`` seats it at ``k % 4``) and the three heuristic bots (impresario, merchant,
collector, or three greedy bots with ``--opponents greedy``) fill the other seats in a
rotating order. A shared win counts 1/k. Prints the win rate with a Wilson 95 % interval,
the mean final fame of each seat type, and seconds per game and per search decision.

    PYTHONPATH=. python3 benchmarks/search_strength.py --games 200 --seed 1
"""

from __future__ import annotations

import argparse
import importlib
import math
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from musici.engine import Game
from musici.strategies.search import SearchBot

Strategy = Callable[[Any, Any], Any]


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion (``successes`` may be fractional)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


MODULES = {"random": "random_strategy"}


def opponents(kind: str) -> list[tuple[str, Strategy]]:
    """``heuristic`` (impresario, merchant, collector) or a comma list of bot names (one or three)."""
    names = ["impresario", "merchant", "collector"] if kind == "heuristic" else kind.split(",")
    if len(names) == 1:
        names *= 3
    out = []
    for name in names:
        module = importlib.import_module(f"musici.strategies.{MODULES.get(name, name)}")
        out.append((name, getattr(module, f"{name}_strategy")))
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1, help="first game seed (games use seed..seed+games-1)")
    ap.add_argument("--months", type=int, default=12)
    ap.add_argument("--opponents", default="heuristic",
                    help="heuristic (impresario, merchant, collector), or one or three bot names, "
                         "comma-separated (greedy, random, impresario, ...)")
    ap.add_argument("--worlds", type=int, default=None, help="sampled worlds per searched decision")
    ap.add_argument("--horizon", type=int, default=None, help="rollout horizon in months")
    ap.add_argument("--max-candidates", type=int, default=None)
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="any other SearchBot keyword (a number or a word), repeatable")
    ap.add_argument("--quiet", action="store_true", help="no per-game lines")
    args = ap.parse_args(argv)

    from musici.rules import RuleSet

    rules = RuleSet.from_options({"RULING-MONTHS": args.months})
    kwargs: dict[str, Any] = {}
    if args.worlds is not None:
        kwargs["worlds"] = args.worlds
    if args.horizon is not None:
        kwargs["horizon"] = args.horizon
    if args.max_candidates is not None:
        kwargs["max_candidates"] = args.max_candidates
    for item in args.param:
        name, _, value = item.partition("=")
        try:
            kwargs[name] = int(value)
        except ValueError:
            try:
                kwargs[name] = float(value)
            except ValueError:
                kwargs[name] = {"true": True, "false": False}.get(value.lower(), value)
    opps = opponents(args.opponents)

    wins = 0.0
    fame: dict[str, list[float]] = defaultdict(list)
    wins_by: dict[str, float] = defaultdict(float)
    seconds = thinking = 0.0
    decisions = searched = 0
    margins: list[float] = []
    for k in range(args.games):
        seed = args.seed + k
        seat = k % 4
        bot = SearchBot(**kwargs)
        clock = [0.0]

        def timed(view: Any, decision: Any, bot: SearchBot = bot, clock: list[float] = clock) -> Any:
            t = time.perf_counter()
            answer = bot(view, decision)
            clock[0] += time.perf_counter() - t
            return answer
        order = [opps[(k // 4 + j) % 3] for j in range(3)]
        names: list[str] = []
        strategies: list[Strategy] = []
        it = iter(order)
        for s in range(4):
            if s == seat:
                names.append("search")
                strategies.append(timed)
            else:
                name, strat = next(it)
                names.append(name)
                strategies.append(strat)
        game = Game(4, seed=seed, rules=rules)
        t0 = time.perf_counter()
        game.play(strategies)
        seconds += time.perf_counter() - t0
        thinking += clock[0]
        decisions += bot.decisions
        searched += bot.searched
        res = game.results
        assert res is not None
        for s in range(4):
            fame[names[s]].append(float(res["fame"][s]))
            if s in res["winners"]:
                wins_by[names[s]] += 1 / len(res["winners"])
        if seat in res["winners"]:
            wins += 1 / len(res["winners"])
        margins.append(float(res["fame"][seat] - max(res["fame"][s] for s in range(4) if s != seat)))
        if not args.quiet:
            print(f"game {k + 1:4d} seed {seed} seat {seat}: fame "
                  + " ".join(f"{names[s]}={float(res['fame'][s]):.1f}" for s in range(4))
                  + f"  search win rate so far {wins / (k + 1):.3f}", flush=True)
    n = args.games
    lo, hi = wilson(wins, n)
    print(f"\nsearch bot vs {args.opponents}: {n} games, {args.months} months, "
          f"seeds {args.seed}..{args.seed + n - 1}, bot {kwargs or 'defaults'}")
    print(f"win rate {wins / n:.3f} ({wins:.1f}/{n}), Wilson 95% [{lo:.3f}, {hi:.3f}]  (chance 0.25)")
    print(f"mean fame margin over the best other seat {sum(margins) / n:+.2f}")
    for name, values in sorted(fame.items()):
        print(f"  {name:11s} mean fame {sum(values) / len(values):6.2f}  wins {wins_by[name]:6.1f} "
              f"over {len(values)} seats")
    print(f"seconds per game {seconds / n:.3f} (all four seats), of which the search bot {thinking / n:.3f}")
    print(f"search bot: {decisions / n:.0f} decisions a game ({searched / n:.0f} searched), "
          f"{thinking / max(decisions, 1) * 1e3:.2f} ms per decision, "
          f"{thinking / max(searched, 1) * 1e3:.2f} ms per searched decision")


if __name__ == "__main__":
    main()
