"""musici and catanatron 3.2.1 side by side: plies per CPU second, 4 random players each.

    pip install 'musici[bench]'          # catanatron==3.2.1
    python benchmarks/vs_catanatron.py --repeats 7

Both engines are counted the same way, every ply (docs/simulation.md, "Counting plies"):

- catanatron: every tick of ``Game.play``'s loop (``play_tick``: the current player's
  ``decide`` over ``state.playable_actions``, then ``apply_action``, which appends exactly one
  action to ``state.actions``), so a game's plies are ``len(game.state.actions)``. About 63 %
  of its ticks have a single playable action (a dice roll, an end of turn), asked all the same.
  Its games are not the same from one process to the next even with the same seed (seed 1:
  1,110 ticks in one process, 912 in another), so plies per game vary between repeats; the
  rate is per ply, and each process plays many games.
- musici: ``game.plies``, the decisions put to strategies (``game.step``) plus the forced
  ones, a choice with one legal answer applied without asking. The decisions-only rate is
  printed too, but the comparison uses plies.

Each measurement is a fresh process (``--child``) timing its games with
``time.process_time`` (CPU time of that process; imports and start-up excluded). Repeats
alternate the engines' order; the table gives min and median over repeats and the ratio of
the medians. Every process gets the same garbage-collector setting (``--gc``: ``tuned``, as a
musici batch worker, :func:`musici.sim.worker_gc.tune_gc`; or ``default``). Where a compiled
build of musici is installed, both builds are measured: the compiled one as installed and
the pure one with ``MUSICI_PURE=1``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

CATANATRON_VERSION = "3.2.1"
TUNED_THRESHOLD = (50_000, 10, 10)  # musici.sim.worker_gc.WORKER_GC_THRESHOLD (checked below)


def set_gc(mode: str) -> None:
    if mode == "tuned":  # as musici's batch workers; the same for catanatron, so both fair
        gc.collect()
        gc.freeze()
        gc.set_threshold(*TUNED_THRESHOLD)


def child_catanatron(games: int, seed0: int, gc_mode: str) -> dict[str, Any]:
    from importlib.metadata import version

    from catanatron import Color, Game, RandomPlayer

    set_gc(gc_mode)
    plies = 0
    start = time.process_time()
    for seed in range(seed0, seed0 + games):  # seed 0 would mean "unseeded" to catanatron
        game = Game([RandomPlayer(c) for c in Color], seed=seed)
        game.play()
        plies += len(game.state.actions)  # one action appended per tick (apply_action)
    cpu = time.process_time() - start
    return {"engine": f"catanatron {version('catanatron')}", "games": games, "cpu": cpu,
            "plies": plies, "decisions": plies}


def child_catanatron_share(games: int, seed0: int, gc_mode: str) -> dict[str, Any]:
    """Ticks per game and the share of ticks with one playable action; untimed."""
    from catanatron import Color, Game, RandomPlayer

    ticks = single = 0

    def counting(player: Any, game: Any, actions: Any) -> Any:
        nonlocal ticks, single
        ticks += 1
        single += len(actions) == 1
        return player.decide(game, actions)  # the same draw as play() makes

    for seed in range(seed0, seed0 + games):
        Game([RandomPlayer(c) for c in Color], seed=seed).play(decide_fn=counting)
    return {"ticks_per_game": ticks / games, "single": single / ticks}


def child_musici(games: int, seed0: int, gc_mode: str) -> dict[str, Any]:
    import musici
    from musici import Game
    from musici.sim.worker_gc import WORKER_GC_THRESHOLD
    from musici.strategies import random_strategy

    assert WORKER_GC_THRESHOLD == TUNED_THRESHOLD, "update TUNED_THRESHOLD"
    build = getattr(musici, "BUILD", None)
    kind = build.kind if build is not None else "pure"
    label = build.describe() if build is not None else "pure Python"
    set_gc(gc_mode)
    strategies = [random_strategy] * 4
    plies = decisions = 0
    start = time.process_time()
    for seed in range(seed0, seed0 + games):
        game = Game(players=4, seed=seed).play(strategies)
        plies += game.plies
        decisions += game.step
    cpu = time.process_time() - start
    return {"engine": f"musici ({kind})", "build": label, "kind": kind, "games": games,
            "cpu": cpu, "plies": plies, "decisions": decisions}


def run_child(side: str, games: int, seed0: int, gc_mode: str, env: dict[str, str]) -> dict[str, Any]:
    cmd = [sys.executable, os.path.abspath(__file__), "--child", side, "--games", str(games),
           "--seed0", str(seed0), "--gc", gc_mode]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if out.returncode:
        raise SystemExit(f"{side} child failed:\n{out.stderr}")
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


CHILDREN = {"catanatron": child_catanatron, "catanatron-share": child_catanatron_share,
            "musici": child_musici}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--musici-games", type=int, default=200)
    parser.add_argument("--catanatron-games", type=int, default=30)
    parser.add_argument("--seed0", type=int, default=1)
    parser.add_argument("--gc", choices=("tuned", "default"), default="tuned")
    parser.add_argument("--builds", choices=("auto", "pure"), default="auto",
                        help="auto: the compiled build too where one is installed")
    parser.add_argument("--child", choices=tuple(CHILDREN), help=argparse.SUPPRESS)
    parser.add_argument("--games", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(CHILDREN[args.child](args.games, args.seed0, args.gc)))
        return

    pure_env = {**os.environ, "MUSICI_PURE": "1"}
    sides: list[tuple[str, str, int, dict[str, str]]] = [
        ("catanatron", "catanatron", args.catanatron_games, dict(os.environ))]
    probe = run_child("musici", 1, args.seed0, args.gc, dict(os.environ))
    if probe["kind"] == "compiled" and args.builds == "auto":
        sides.append(("musici compiled", "musici", args.musici_games, dict(os.environ)))
    sides.append(("musici pure", "musici", args.musici_games, pure_env))

    results: dict[str, list[dict[str, Any]]] = {name: [] for name, *_ in sides}
    for r in range(args.repeats):
        order = sides[r % len(sides):] + sides[:r % len(sides)]  # each side leads in turn
        if r % 2:
            order.reverse()
        for name, side, games, env in order:
            got = run_child(side, games, args.seed0, args.gc, env)
            if side == "musici" and got["kind"] != name.split()[-1]:
                # a build changed under the run (rebuilt, or a source edited: stale, so pure)
                raise SystemExit(f"{name}: this repeat ran {got['build']}; run again")
            results[name].append(got)
            print(f"  repeat {r + 1}/{args.repeats}: {name} {results[name][-1]['cpu']:.2f} s CPU",
                  file=sys.stderr, flush=True)

    counted = run_child("catanatron-share", args.catanatron_games, args.seed0, args.gc,
                        dict(os.environ))
    rate = {name: [x["plies"] / x["cpu"] for x in runs] for name, runs in results.items()}
    base = statistics.median(rate["catanatron"])
    print(f"4 random players, CPU time per process (time.process_time), {args.repeats} repeats "
          f"alternating, GC {args.gc}; every ply counted on both sides")
    print()
    print("| engine | games | plies/game | plies/s best (min CPU) | plies/s median | decisions/s median "
          "(musici: asked only) | games/s median | vs catanatron (plies/s, medians) |")
    print("|---|---|---|---|---|---|---|---|")
    for name, runs in results.items():
        first = runs[0]
        per_game = sum(x["plies"] for x in runs) / sum(x["games"] for x in runs)
        dec = statistics.median(x["decisions"] / x["cpu"] for x in runs)
        gps = statistics.median(x["games"] / x["cpu"] for x in runs)
        label = first["engine"] if name == "catanatron" else f"{name} ({first['build']})"
        print(f"| {label} | {first['games']} | {per_game:.0f} | "
              f"{max(rate[name]):,.0f} | {statistics.median(rate[name]):,.0f} | {dec:,.0f} | "
              f"{gps:.1f} | {statistics.median(rate[name]) / base:.2f}x |")
    print()
    musici_runs = results["musici pure"][0]
    forced = 1 - musici_runs["decisions"] / musici_runs["plies"]
    musici_per_game = musici_runs["plies"] / musici_runs["games"]
    print(f"catanatron: {counted['ticks_per_game']:.0f} ticks per game, {counted['single']:.0%} "
          f"with a single playable action (asked all the same); musici: {musici_per_game:.0f} "
          f"plies per game, {forced:.0%} forced (applied without asking). The bar (issue 23): "
          f">= 10x in plies/s.")


if __name__ == "__main__":
    main()
