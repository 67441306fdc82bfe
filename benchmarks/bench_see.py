"""What the pictures cost: composer graph, explorer update, and the workbench's chunked run
against one ``compare`` call of the same size.

Run with ``python benchmarks/bench_see.py`` (``--games 50 --jobs 2``). Timings on a shared
machine are noisy: report them, never assert them (best of ``--repeat`` runs).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from musici import standard_cardset
from musici.analysis import bonus_figure, lineage_figure
from musici.playtest.compare import Setup, compare
from musici.widgets import BonusExplorer, Workbench

LINEUP = ["impresario", "merchant", "collector", "greedy"]


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    cards = standard_cardset()
    played = ["S01", "S22", "S06", "S25"]
    for name, draw in (("bonus_figure", bonus_figure), ("lineage_figure", lineage_figure)):
        seconds = best(lambda draw=draw: draw(cards, "D01", played), args.repeat)
        print(f"{name + ':':20} {seconds * 1e3:7.1f} ms")
    explorer = BonusExplorer(cards, discovery="D01", played=played)

    def toggle() -> None:
        explorer.good.value = not explorer.good.value

    print(f"explorer update:     {best(toggle, args.repeat) * 1e3:7.1f} ms (table and both views)")
    rules = {"RULING-MONTHS": 6}

    def single() -> None:
        compare(Setup(LINEUP, name="a"), Setup(LINEUP, rules=rules, name="b"), games=args.games,
                jobs=args.jobs, progress=False)

    def chunked() -> None:
        bench = Workbench(LINEUP, rules=rules, games=args.games, jobs=args.jobs)
        assert bench.run() is not None, bench.error

    print(f"compare, one call:   {best(single, 1):7.1f} s ({args.games} games per arm, "
          f"{args.jobs} jobs)")
    print(f"workbench, chunked:  {best(chunked, 1):7.1f} s (same games, progress after each chunk)")


if __name__ == "__main__":
    main()
