"""The compiled build against pure Python, paired in one run (issue 23's bar).

Each measurement runs in a child process, once with ``MUSICI_PURE=1`` (pure Python, every
musici module from source) and once on the installed compiled build, alternating (ABBA)
for ``--repeat`` pairs; times are the child's CPU time (``time.process_time``) around the
measured work only (imports and set-up excluded). The table gives min / median seconds per
unit for each build and the speed-up, pure / compiled, of the medians and per pair.

Tasks (each the same work in both builds, its answers identical: see equivalence.py):

- ``engine``: games of 4 random players (plies per s);
- ``heuristic``: games of impresario, merchant, collector, greedy as ``musici compare``
  plays them (its play_arms, in the child's process: games per s);
- ``search`` / ``ismcts``: the bot's own time per decision at its default budget, seat 0
  of a game against three random players, its first ``--decisions`` decisions.

Run with ``make bench-builds`` (``python benchmarks/bench_builds.py --repeat 5``). Report,
never assert: a shared machine is noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

TASKS = ("engine", "heuristic", "search", "ismcts")


def child(task: str, size: int, default_gc: bool = False) -> dict[str, Any]:
    """Run one measurement in this process; its CPU seconds and units of work."""
    import gc

    import musici
    from musici import Game
    from musici.strategies import make_strategy

    if task == "heuristic":
        import musici.playtest.compare  # loaded before the GC freezes what exists
    gc.collect()
    if not default_gc:  # as a batch worker does (musici.sim.worker_gc), in both builds
        from musici.sim.worker_gc import tune_gc

        tune_gc()
    if task == "engine":
        bots = [make_strategy("random") for _ in range(4)]
        start = time.process_time()
        plies = 0
        for seed in range(size):
            plies += Game(players=4, seed=seed).play(bots).plies
        cpu = time.process_time() - start
        return {"build": musici.BUILD.describe(), "cpu": cpu, "units": size, "plies": plies}
    if task == "heuristic":
        from musici.playtest.compare import Setup, play_arms

        lineup = ("impresario", "merchant", "collector", "greedy")
        arms = [Setup(players=lineup, name="base"), Setup(players=lineup, name="variant")]
        before = os.times()  # a worker process's time too, should the batch start one
        play_arms(arms, size, seed=0, jobs=1, progress=False)
        after = os.times()
        cpu = sum(after[:4]) - sum(before[:4])
        return {"build": musici.BUILD.describe(), "cpu": cpu, "units": 2 * size}
    if task in ("search", "ismcts"):
        bot = make_strategy(task)
        spent = [0.0]
        asked = [0]

        def timed(view: Any, decision: Any) -> Any:
            start = time.process_time()
            answer = bot(view, decision)
            spent[0] += time.process_time() - start
            asked[0] += 1
            return answer

        others = [make_strategy("random") for _ in range(3)]
        game = Game(players=4, seed=3)
        while not game.finished and asked[0] < size:
            seat = game.decision.player if game.decision is not None else 0
            game.ask(timed if seat == 0 else others[seat - 1])
        return {"build": musici.BUILD.describe(), "cpu": spent[0], "units": asked[0]}
    raise SystemExit(f"unknown task {task!r}")


def run_child(task: str, size: int, pure: bool, default_gc: bool) -> dict[str, Any]:
    env = dict(os.environ)
    env.pop("MUSICI_PURE", None)
    if pure:
        env["MUSICI_PURE"] = "1"
    argv = [sys.executable, __file__, "--child", task, "--size", str(size)]
    done = subprocess.run(argv + (["--default-gc"] if default_gc else []),
                          env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{task} ({'pure' if pure else 'compiled'}) failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", choices=TASKS, help=argparse.SUPPRESS)
    parser.add_argument("--size", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--tasks", default=",".join(TASKS))
    parser.add_argument("--repeat", type=int, default=3, help="pairs per task (ABBA)")
    parser.add_argument("--games", type=int, default=100, help="random games per engine run")
    parser.add_argument("--heuristic-games", type=int, default=12)
    parser.add_argument("--decisions", type=int, default=30,
                        help="search/ismcts decisions timed per run")
    parser.add_argument("--default-gc", action="store_true",
                        help="leave CPython's collector as it is (default: tuned as a batch "
                             "worker tunes it, freeze + a higher threshold, in both builds)")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.size, args.default_gc)))
        return 0
    import musici

    if not musici.BUILD.compiled:
        print(f"the installed build is {musici.BUILD.describe()}: nothing compiled to compare "
              f"(make install where a C compiler works)", file=sys.stderr)
        return 1
    sizes = {"engine": args.games, "heuristic": args.heuristic_games,
             "search": args.decisions, "ismcts": args.decisions}
    units = {"engine": "game", "heuristic": "game", "search": "decision", "ismcts": "decision"}
    print(f"musici {musici.__version__}, {musici.BUILD.describe()}; Python "
          f"{sys.version.split()[0]}; CPU s per unit, {args.repeat} pairs alternating (ABBA); "
          f"GC {'as CPython sets it' if args.default_gc else 'tuned as a batch worker'}")
    print()
    print("| task | unit | pure: min / median | compiled: min / median | speed-up (medians) "
          "| per pair | compiled / pure time |")
    print("|---|---|---|---|---|---|---|")
    for task in args.tasks.split(","):
        per: dict[bool, list[float]] = {True: [], False: []}
        extra = ""
        for r in range(args.repeat):
            for pure in ((True, False) if r % 2 == 0 else (False, True)):
                got = run_child(task, sizes[task], pure, args.default_gc)
                want = "pure Python: MUSICI_PURE=1" if pure else musici.BUILD.describe()
                if got["build"] != want:
                    raise SystemExit(f"{task}: the child ran {got['build']!r}, not {want!r}")
                per[pure].append(got["cpu"] / max(got["units"], 1))
                if task == "engine":
                    extra = f" ({got['plies'] / got['units']:.0f} plies)"
        ratios = [p / c for p, c in zip(per[True], per[False], strict=True)]
        pm, cm = statistics.median(per[True]), statistics.median(per[False])
        print(f"| {task} | {units[task]}{extra} | {min(per[True]):.4f} / {pm:.4f} | "
              f"{min(per[False]):.4f} / {cm:.4f} | {pm / cm:.2f}x | "
              f"{min(ratios):.2f}-{max(ratios):.2f}x | {cm / pm:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
