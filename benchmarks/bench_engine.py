"""Engine speed on one core: plies/s, decisions/s, games/s and state copies/s (4 random players).

Run with ``make bench`` (or ``python benchmarks/bench_engine.py --games 200``). Not part of
the test suite: timings on a shared machine are noisy, so report them, never assert them
(``--repeat 5`` keeps the best of five runs). Times are CPU time (``time.process_time``).
``--profile`` shows where the time goes; ``--wins`` measures the process-wide wins of issue 23
item 3 paired, on and off in alternation.

Two counts (docs/simulation.md, "Counting plies"): a *ply* is every decision the game
applies, forced ones included (``game.plies``; a choice with one legal answer is applied
without asking); a *decision* is one put to a strategy (``game.step``). A comparison with
another engine that counts every tick (catanatron) uses plies.

Like a batch worker, the benchmark freezes its setup and raises the GC threshold
(:func:`musici.sim.worker_gc.tune_gc`); ``--default-gc`` leaves CPython's collector as it is.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from musici import Game
from musici.decisions import Answer, Decision
from musici.rules import ABSENT_IN_OLD_SAVES, RuleSet
from musici.sim.worker_gc import WORKER_GC_THRESHOLD, tune_gc
from musici.strategies import random_strategy

# The readings the engine had before rules revision 2 (options that existed then, and the
# two added since, at the value old saves played): with --old-rulings, this engine plays
# near the same games as a tree from before the revision, so their speeds compare.
OLD_RULINGS = {"RULING-MEDIA-ZERO": "no-winner", "RULING-POACH-MARKERS": "return",
               "RULING-END-CARDS": "score-and-discovery", **ABSENT_IN_OLD_SAVES}
DEFAULT_GC = (700, 10, 10)  # CPython's


def play_games(games: int, players: int, rules: RuleSet | None = None,
               strategy: Callable[[Any, Decision], Answer] = random_strategy) -> tuple[int, int]:
    """Play seeds 0..games-1 with ``strategy`` at every seat; (decisions asked, plies)."""
    strategies = [strategy] * players
    decisions = plies = 0
    for seed in range(games):
        game = Game(players=players, seed=seed, rules=rules).play(strategies)
        decisions += game.step
        plies += game.plies
    return decisions, plies


def cpu(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def random_answer_strategy(view: Any, decision: Decision) -> Answer:
    """The random bot before issue 23: every draw through Decision.random_answer
    (random.choice); the same answers as random_strategy, drawn with more calls."""
    return decision.random_answer(view.rng)


def gc_default() -> None:
    gc.unfreeze()
    gc.set_threshold(*DEFAULT_GC)


def gc_tuned() -> None:
    gc.unfreeze()
    tune_gc()


def paired(name: str, off: Callable[[], None], on: Callable[[], None],
           run: Callable[[], object], repeats: int) -> str:
    """Time ``run`` with ``off`` and ``on`` set up, alternating (ABBA), CPU time; a table row."""
    times: dict[str, list[float]] = {"off": [], "on": []}
    for r in range(repeats):
        order: Sequence[tuple[str, Callable[[], None]]] = (
            (("off", off), ("on", on)) if r % 2 == 0 else (("on", on), ("off", off)))
        for label, setup in order:
            setup()
            times[label].append(cpu(run))
    ratios = [a / b for a, b in zip(times["off"], times["on"], strict=True)]
    return (f"| {name} | {min(times['off']):.3f} / {statistics.median(times['off']):.3f} | "
            f"{min(times['on']):.3f} / {statistics.median(times['on']):.3f} | "
            f"{statistics.median(ratios):.3f}x | {min(ratios):.3f}-{max(ratios):.3f} |")


def wins(games: int, players: int, repeats: int) -> None:
    """Each win of issue 23 item 3, on and off in one process, alternating."""
    import musici.sim  # noqa: F401  # a worker has pandas and the batch code loaded: so here

    print(f"Paired, CPU s for {games} games of {players} random players, {repeats} repeats each "
          f"(ABBA order); speed-up = off/on per pair, median and range")
    print()
    print("| win | off: min / median s | on: min / median s | speed-up | range |")
    print("|---|---|---|---|---|")

    def games_with_bot() -> object:
        return play_games(games, players, strategy=_STRATEGY[0])

    def both_off() -> None:
        gc_default()
        _use(random_answer_strategy)

    def both_on() -> None:
        gc_tuned()
        _use(random_strategy)

    gc_tuned()
    print(paired("random bot's inline draw (GC tuned)", lambda: _use(random_answer_strategy),
                 lambda: _use(random_strategy), games_with_bot, repeats))
    _use(random_strategy)
    print(paired(f"GC: freeze + threshold {WORKER_GC_THRESHOLD}", gc_default, gc_tuned,
                 lambda: play_games(games, players), repeats))
    print(paired("both", both_off, both_on, games_with_bot, repeats))
    gc_default()


_STRATEGY: list[Callable[[Any, Decision], Answer]] = [random_strategy]


def _use(strategy: Callable[[Any, Decision], Answer]) -> None:
    _STRATEGY[0] = strategy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=1,
                        help="run the timings this many times and report the best")
    parser.add_argument("--profile", action="store_true",
                        help="profile the games with cProfile instead of timing them")
    parser.add_argument("--old-rulings", action="store_true",
                        help="play the rulings of the engine before rules revision 2, to time "
                             "this engine against an older tree on near-equal games")
    parser.add_argument("--default-gc", action="store_true",
                        help="leave CPython's garbage collector as it is (no freeze, threshold "
                             "700) instead of tuning it as a batch worker does")
    parser.add_argument("--wins", action="store_true",
                        help="measure issue 23's process-wide wins (GC setting, the random "
                             "bot's draw) paired, on and off alternating, and print a table")
    args = parser.parse_args()
    if args.wins:
        wins(args.games, args.players, max(args.repeat, 2))
        return
    rules = RuleSet.from_options(OLD_RULINGS) if args.old_rulings else None
    if not args.default_gc:
        tune_gc()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(play_games, args.games, args.players, rules)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(30)
        return
    elapsed = float("inf")
    for _ in range(args.repeat):
        start = time.process_time()
        decisions, plies = play_games(args.games, args.players, rules)
        elapsed = min(elapsed, time.process_time() - start)
    gc_note = "CPython's default GC" if args.default_gc else \
        f"GC as a batch worker: freeze, threshold {WORKER_GC_THRESHOLD}"
    print(f"{args.games} games, {args.players} random players, 12 months, CPU time ({gc_note})")
    print(f"  plies per game     : {plies / args.games:.0f} (every ply: "
          f"{decisions / args.games:.0f} decisions asked + {(plies - decisions) / args.games:.0f} "
          f"forced)")
    print(f"  plies per s        : {plies / elapsed:,.0f}")
    print(f"  decisions per s    : {decisions / elapsed:,.0f} (asked only)")
    print(f"  games per s        : {args.games / elapsed:.1f} (random line-up)")
    game = Game(players=args.players, seed=1).play([random_strategy] * args.players,
                                                   max_steps=200)
    copies = 20_000
    best = float("inf")
    for _ in range(args.repeat):
        start = time.process_time()
        for _ in range(copies):
            game.clone(keep_log=False)
        best = min(best, time.process_time() - start)
    print(f"  state copies per s : {copies / best:,.0f} "
          "(clone of one mid-game state without its event log; generators are shared "
          "until drawn from)")


if __name__ == "__main__":
    main()
