"""How strong is the information-set search bot (``ismcts``)?

Two matches, 4-player games on seeds ``seed..seed+games-1``:

- ``--match heuristic``: one ``ismcts`` seat against an impresario, a merchant and a
  collector; the bot's seat rotates (game ``k`` seats it at ``k % 4``) and the heuristics
  fill the other seats in a rotating order. Chance is 25 %.
- ``--match search``: two ``ismcts`` seats against two ``search`` seats; the pattern
  (I, I, S, S) is rotated by ``k % 4``, so each side sits in every seat and order. The win
  rate is the share of each game won by the ``ismcts`` seats (a shared win counts 1/k);
  chance is 50 %. ``--search-worlds`` sets the search bot's worlds so both think for about
  the same time (the report prints both).

Prints the win rate with a Wilson 95 % interval, mean fame per seat type, and the thinking
time per searched decision in CPU seconds (``time.process_time``: this is one process, so
it is the bot's own core time, not inflated by other load on a shared machine) and in wall
seconds.

    PYTHONPATH=. python3 benchmarks/ismcts_strength.py --match heuristic --games 40 --seed 1
    PYTHONPATH=. python3 benchmarks/ismcts_strength.py --match search --games 200 --seed 1001 \\
        --iterations 24 --search-worlds 6 --param opponents=greedy,

``--param NAME=VALUE`` passes another ISMCTSBot keyword (``root=ucb``); a value with a comma
is a list of names (``opponents=greedy,`` or ``opponents=greedy,merchant``).
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from benchmarks.search_strength import opponents, wilson
from musici.engine import Game
from musici.rules import RuleSet
from musici.strategies.ismcts import ISMCTSBot
from musici.strategies.search import SearchBot

Strategy = Callable[[Any, Any], Any]


class Timed:
    """Wraps a bot and adds up its CPU and wall time."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.cpu = 0.0
        self.wall = 0.0

    def __call__(self, view: Any, decision: Any) -> Any:
        c, w = time.process_time(), time.perf_counter()
        answer = self.bot(view, decision)
        self.cpu += time.process_time() - c
        self.wall += time.perf_counter() - w
        return answer


def _kwargs(items: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        name, _, value = item.partition("=")
        if "," in value:  # a list of names, e.g. opponents=greedy,merchant
            out[name] = tuple(v for v in value.split(",") if v)
            continue
        try:
            out[name] = int(value)
        except ValueError:
            try:
                out[name] = float(value)
            except ValueError:
                out[name] = {"true": True, "false": False, "none": None}.get(value.lower(), value)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--match", choices=("heuristic", "search"), default="heuristic")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--months", type=int, default=12)
    ap.add_argument("--iterations", type=int, default=None, help="ismcts iterations per decision")
    ap.add_argument("--seconds", type=float, default=None, help="ismcts seconds per decision")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="another ISMCTSBot keyword, repeatable")
    ap.add_argument("--search-worlds", type=int, default=None, help="search bot worlds")
    ap.add_argument("--report-every", type=int, default=10, help="print the summary every N games")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)

    rules = RuleSet.from_options({"RULING-MONTHS": args.months})
    kwargs = _kwargs(args.param)
    if args.iterations is not None:
        kwargs["iterations"] = args.iterations
    if args.seconds is not None:
        kwargs["seconds"] = args.seconds
        kwargs.setdefault("iterations", None)
    search_kwargs = {} if args.search_worlds is None else {"worlds": args.search_worlds}
    heur = opponents("heuristic")

    wins = 0.0
    fame: dict[str, list[float]] = defaultdict(list)
    wins_by: dict[str, float] = defaultdict(float)
    cpu: dict[str, float] = defaultdict(float)
    wall: dict[str, float] = defaultdict(float)
    searched: dict[str, int] = defaultdict(int)
    decisions: dict[str, int] = defaultdict(int)
    iterations = 0
    def report(n: int) -> None:
        """The summary over the first ``n`` games (printed as the run goes, so a run stopped
        early still says what it measured)."""
        lo, hi = wilson(wins, n)
        chance = 0.25 if args.match == "heuristic" else 0.5
        print(f"\nismcts vs {args.match}: {n} games, {args.months} months, seeds "
              f"{args.seed}..{args.seed + n - 1}, ismcts {kwargs or 'defaults'}"
              + (f", search {search_kwargs or 'defaults'}" if args.match == "search" else ""))
        print(f"ismcts win share {wins / n:.3f} ({wins:.1f}/{n}), Wilson 95% [{lo:.3f}, {hi:.3f}]"
              f"  (chance {chance})")
        for name, values in sorted(fame.items()):
            print(f"  {name:11s} mean fame {sum(values) / len(values):6.2f}  wins {wins_by[name]:6.1f} "
                  f"over {len(values)} seats")
        for name in sorted(cpu):
            m = max(searched[name], 1)
            print(f"{name}: {decisions[name] / n:.0f} decisions per seat-game summed "
                  f"({searched[name] / n:.0f} searched); per searched decision "
                  f"{cpu[name] / m * 1e3:.0f} ms CPU, {wall[name] / m * 1e3:.0f} ms wall")
        if searched["ismcts"]:
            print(f"ismcts: {iterations / searched['ismcts']:.1f} iterations per searched decision")


    for k in range(args.games):
        seed = args.seed + k
        names: list[str] = []
        strategies: list[Strategy] = []
        timed: list[tuple[str, Timed]] = []
        if args.match == "heuristic":
            order = iter([heur[(k // 4 + j) % 3] for j in range(3)])
            for s in range(4):
                if s == k % 4:
                    t = Timed(ISMCTSBot(**kwargs))
                    timed.append(("ismcts", t))
                    names.append("ismcts")
                    strategies.append(t)
                else:
                    name, strat = next(order)
                    names.append(name)
                    strategies.append(strat)
        else:
            pattern = ["ismcts", "ismcts", "search", "search"]
            for s in range(4):
                name = pattern[(s - k) % 4]
                bot = ISMCTSBot(**kwargs) if name == "ismcts" else SearchBot(**search_kwargs)
                t = Timed(bot)
                timed.append((name, t))
                names.append(name)
                strategies.append(t)
        game = Game(4, seed=seed, rules=rules).play(strategies)
        res = game.results
        assert res is not None
        for name, t in timed:
            cpu[name] += t.cpu
            wall[name] += t.wall
            searched[name] += t.bot.searched
            decisions[name] += t.bot.decisions
            iterations += getattr(t.bot, "iterations_run", 0)
        share = 0.0
        for s in range(4):
            fame[names[s]].append(float(res["fame"][s]))
            if s in res["winners"]:
                wins_by[names[s]] += 1 / len(res["winners"])
                if names[s] == "ismcts":
                    share += 1 / len(res["winners"])
        wins += share
        if not args.quiet:
            print(f"game {k + 1:4d} seed {seed}: "
                  + " ".join(f"{names[s]}={float(res['fame'][s]):.1f}" for s in range(4))
                  + f"  ismcts share {share:.2f}, so far {wins / (k + 1):.3f}", flush=True)
        if (k + 1) % args.report_every == 0 or k + 1 == args.games:
            report(k + 1)


if __name__ == "__main__":
    main()
