"""Refactoring guard: a digest of every game over many seeds, line-ups and rule sets.

Record before a change that must not alter play, check after::

    python benchmarks/equivalence.py record /tmp/before.json --seeds 1000 --jobs 2
    python benchmarks/equivalence.py check /tmp/before.json --jobs 2

Each game is digested from its full event log, its answers and its results; ``check`` lists
every game whose digest changed (rule set, players, seed, line-up), so a change that is
meant to alter some games (a bug fix) can say exactly which ones and why.
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


def lineup(seed: int, players: int, search: bool) -> list[str]:
    names = [BOTS[(seed + i) % len(BOTS)] for i in range(players)]
    if search:
        names[seed % players] = "search"
    return names


def digest(game: Game) -> str:
    h = hashlib.sha256()
    h.update(json.dumps([e.to_dict() for e in game.events], sort_keys=True,
                        default=str).encode())
    h.update(repr(game.answers).encode())
    h.update(repr(game.results).encode())
    return h.hexdigest()[:20]


def play(job: tuple[str, int, int, bool]) -> tuple[str, str]:
    rules_name, players, seed, search = job
    names = lineup(seed, players, search)
    rules = RuleSet.from_options(RULE_SETS[rules_name])
    game = Game(players=players, seed=seed, rules=rules)
    game.play([make_strategy(n) for n in names])
    return f"{rules_name}/{players}p/seed{seed}/{','.join(names)}", digest(game)


def jobs(seeds: int, search_seeds: int) -> list[tuple[str, int, int, bool]]:
    out = []
    for rules_name in RULE_SETS:
        for players in (3, 4):
            out += [(rules_name, players, s, False) for s in range(seeds)]
            out += [(rules_name, players, 10_000 + s, True) for s in range(search_seeds)]
    return out


def run(seeds: int, search_seeds: int, workers: int) -> dict[str, str]:
    todo = jobs(seeds, search_seeds)
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
    args = parser.parse_args()
    if args.mode == "record":
        result = run(args.seeds, args.search_seeds, args.jobs)
        with open(args.file, "w") as f:
            json.dump({"seeds": args.seeds, "search_seeds": args.search_seeds,
                       "games": result}, f, indent=0)
        return 0
    with open(args.file) as f:
        before = json.load(f)
    after = run(before["seeds"], before["search_seeds"], args.jobs)
    changed = sorted(k for k in before["games"] if before["games"][k] != after.get(k))
    print(f"{len(before['games']) - len(changed)} of {len(before['games'])} games identical")
    for key in changed:
        print("changed:", key)
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
