"""Refactoring guard: a digest of every game over many seeds, line-ups and rule sets.

Record before a change that must not alter play, check after::

    python benchmarks/equivalence.py record /tmp/before.json --seeds 1000 --jobs 2
    python benchmarks/equivalence.py check /tmp/before.json --jobs 2

Each game is digested from its full event log, its answers and its results; ``check`` lists
every game whose digest changed (rule set, players, seed, line-up), so a change that is
meant to alter some games (a bug fix) can say exactly which ones and why.

Between the builds (issue 23): record with pure Python, check with the compiled build::

    MUSICI_PURE=1 python benchmarks/equivalence.py record /tmp/pure.json --ismcts-seeds 8 \\
        --expect-build pure
    python benchmarks/equivalence.py check /tmp/pure.json --expect-build compiled

(``MUSICI_PURE=1`` loads every musici module from source; it must be set before the
process starts, so workers inherit it). The file keeps the build that recorded it.
``--small-seeds N`` adds N games per rule set and player count with a ``search`` seat and
N with an ``ismcts`` seat at a small budget (``SMALL``: the same code, fewer play-outs;
about 0.13 s a game compiled, so 1,000 seeds are about 27 min compiled and an hour pure).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from musici import Game, RuleSet
from musici.strategies import make_strategy

BOTS = ("random", "greedy", "impresario", "merchant", "collector", "random")
# Explicit options, so the guard does not move when a default changes.
RULE_SETS: dict[str, dict[str, Any]] = {
    "defaults": {},
    "others": {
        "RULING-START-PLAYER": "seat0", "RULING-AUCTION-LAST": "free",
        "RULING-MEDIA-ZERO": "zero-can-win", "RULING-MEDIA-STEP": 25,
        "RULING-ROUNDING": "away-from-zero", "RULING-COMMERCIAL-FAME": "not-required",
        "RULING-STYLE": "best-of-card", "RULING-POACH-MARKERS": "stay",
        "RULING-NEGOTIATION": "blind", "RULING-LINEAGE": "direct",
        "RULING-RESTORE-GOOD": "lineage-good-only", "RULING-HALF-FAME": "down",
        "RULING-UNPAID-VENUE": "forgiven", "RULING-UNPAID-SURCHARGE": "forgiven",
        "RULING-FAME-FLOOR": "none", "RULING-END-CARDS": "score-only",
    },
    "short": {"RULING-MONTHS": 6, "RULING-STYLE": "best-of-card",
              "RULING-END-CARDS": "score-only", "RULING-MEDIA-ZERO": "zero-can-win"},
}


# The search bots at a small budget (--small-seeds): the same code as their defaults (the
# same search, determinization and play-outs, fewer of them), so a thousand seeds each fit
# in about an hour of CPU for both builds, where the defaults would take about nine.
SMALL: dict[str, tuple[str, dict[str, Any]]] = {
    "search-small": ("search", {"worlds": 1, "max_candidates": 2}),
    "ismcts-small": ("ismcts", {"iterations": 2, "max_candidates": 2}),
}


def _strategy(name: str) -> Any:
    if name in SMALL:
        from musici.strategies.ismcts import ISMCTSBot
        from musici.strategies.search import SearchBot

        bot, kwargs = SMALL[name]
        return (SearchBot if bot == "search" else ISMCTSBot)(**kwargs)
    return make_strategy(name)


def lineup(seed: int, players: int, search: str | None) -> list[str]:
    names = [BOTS[(seed + i) % len(BOTS)] for i in range(players)]
    if search:
        names[seed % players] = search
    return names


def digest(game: Game) -> str:
    h = hashlib.sha256()
    h.update(json.dumps([e.to_dict() for e in game.events], sort_keys=True,
                        default=str).encode())
    h.update(repr(game.answers).encode())
    h.update(repr(game.results).encode())
    return h.hexdigest()[:20]


def play(job: tuple[str, int, int, str | None]) -> tuple[str, str]:
    rules_name, players, seed, search = job
    names = lineup(seed, players, search)
    rules = RuleSet.from_options(RULE_SETS[rules_name])
    game = Game(players=players, seed=seed, rules=rules)
    game.play([_strategy(n) for n in names])
    return f"{rules_name}/{players}p/seed{seed}/{','.join(names)}", digest(game)


def jobs(seeds: int, search_seeds: int, ismcts_seeds: int = 0, small_seeds: int = 0
         ) -> list[tuple[str, int, int, str | None]]:
    out: list[tuple[str, int, int, str | None]] = []
    for rules_name in RULE_SETS:
        for players in (3, 4):
            out += [(rules_name, players, s, None) for s in range(seeds)]
            out += [(rules_name, players, 10_000 + s, "search") for s in range(search_seeds)]
            out += [(rules_name, players, 20_000 + s, "ismcts") for s in range(ismcts_seeds)]
            for k, small in enumerate(SMALL):
                out += [(rules_name, players, 30_000 + 10_000 * k + s, small)
                        for s in range(small_seeds)]
    return out


def run(seeds: int, search_seeds: int, workers: int, ismcts_seeds: int = 0,
        small_seeds: int = 0) -> dict[str, str]:
    todo = jobs(seeds, search_seeds, ismcts_seeds, small_seeds)
    start = time.time()
    with ProcessPoolExecutor(workers) as pool:
        out = dict(pool.map(play, todo, chunksize=8))
    print(f"{len(out)} games in {time.time() - start:.0f} s", file=sys.stderr)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("record", "check"))
    parser.add_argument("file")
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--search-seeds", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--ismcts-seeds", type=int, default=0,
                        help="games per rule set and player count with an ismcts seat")
    parser.add_argument("--small-seeds", type=int, default=0,
                        help="games per rule set and player count with a search, and with an "
                             "ismcts, seat at a small budget (SMALL)")
    parser.add_argument("--expect-build", choices=("any", "pure", "compiled"), default="any",
                        help="refuse to run on another build than this one (musici.BUILD)")
    args = parser.parse_args()
    import musici

    build = musici.BUILD.describe()
    if args.expect_build != "any" and musici.BUILD.kind != args.expect_build:
        print(f"expected the {args.expect_build} build, running {build}", file=sys.stderr)
        return 2
    if args.mode == "record":
        result = run(args.seeds, args.search_seeds, args.jobs, args.ismcts_seeds,
                     args.small_seeds)
        with open(args.file, "w") as f:
            json.dump({"seeds": args.seeds, "search_seeds": args.search_seeds,
                       "ismcts_seeds": args.ismcts_seeds, "small_seeds": args.small_seeds,
                       "build": build, "games": result},
                      f, indent=0)
        return 0
    with open(args.file) as f:
        before = json.load(f)
    print(f"recorded on {before.get('build', 'an unnamed build')}; checking on {build}")
    after = run(before["seeds"], before["search_seeds"], args.jobs, before.get("ismcts_seeds", 0),
                before.get("small_seeds", 0))
    changed = sorted(k for k in before["games"] if before["games"][k] != after.get(k))
    print(f"{len(before['games']) - len(changed)} of {len(before['games'])} games identical")
    for key in changed:
        print("changed:", key)
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
