"""Mutation score of the rule core (issue 22 item 8): scoring.py, economy.py, rating.py.

Runs ``mutmut run`` with the ``[tool.mutmut]`` section of pyproject.toml (the three modules,
the direct rule tests), reads every mutant's status (``mutmut results --all true``), leaves
out the mutants documented below as *equivalent* (no input can tell them from the code)
and prints the share of the others that the tests kill. Exits 1 below ``--threshold``
(98 %), 2 when the equivalent list is stale (a listed mutant is gone or changes other code:
mutant names are numbered per function, so an edit to a function renumbers its mutants).

    python benchmarks/mutation_score.py              # run mutmut (about 8 minutes), then score
    python benchmarks/mutation_score.py --no-run     # score the last run's results
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Mutants no test can kill: name -> (a line the mutant's diff adds, why it is equivalent).
EQUIVALENT: dict[str, tuple[str, str]] = {
    "musici.rating.x_best_style_rating__mutmut_7": (
        'card.has_style("authentic") and card.has_style(None)',
        "MusicCard.has_style reads the modern corner for every style but 'authentic'"),
    "musici.rating.x_best_style_rating__mutmut_8": (
        'card.has_style("authentic") and card.has_style("XXmodernXX")',
        "MusicCard.has_style reads the modern corner for every style but 'authentic'"),
    "musici.rating.x_best_style_rating__mutmut_9": (
        'card.has_style("authentic") and card.has_style("MODERN")',
        "MusicCard.has_style reads the modern corner for every style but 'authentic'"),
    "musici.rating.x_scale__mutmut_8": (
        "sign = -1 if amount <= 0 else 1",
        "differs only at amount 0, where the result is 0 whatever the sign"),
    "musici.rating.x_scale__mutmut_9": (
        "sign = -1 if amount < 1 else 1",
        "amounts are ints: differs only at 0, where the result is 0 whatever the sign"),
    "musici.scoring.x_tour_result__mutmut_3": (
        "if (venue is not None) or True else None",
        "looking up venue None in a tour table (keyed by area names) gives None too"),
    "musici.scoring.x_final_scoring__mutmut_59": (
        "ranks = [1] * n",
        "the loop that follows sets every seat's rank, so the initial value is never read"),
}


def mutmut(*args: str) -> str:
    exe = Path(sys.executable).with_name("mutmut")
    cmd = [str(exe) if exe.exists() else "mutmut", *args]
    return subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}).stdout


def statuses() -> dict[str, str]:
    out: dict[str, str] = {}
    for line in mutmut("results", "--all", "true").splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and name.startswith("musici."):
            out[name] = status
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--no-run", action="store_true", help="score the last run's results")
    ap.add_argument("--max-children", type=int, default=2)
    ap.add_argument("--threshold", type=float, default=98.0, help="percent (default 98)")
    ap.add_argument("--show", action="store_true", help="print the surviving mutants' diffs")
    args = ap.parse_args()
    if not args.no_run:
        subprocess.run(["rm", "-rf", "mutants"], cwd=ROOT, check=True)
        exe = Path(sys.executable).with_name("mutmut")
        run = subprocess.run([str(exe) if exe.exists() else "mutmut", "run",
                              "--max-children", str(args.max_children)], cwd=ROOT,
                             stdout=subprocess.DEVNULL)
        if run.returncode:
            print(f"mutmut run failed ({run.returncode})", file=sys.stderr)
            return run.returncode
    status = statuses()
    if not status:
        print("no mutmut results: run without --no-run first", file=sys.stderr)
        return 2
    stale = []
    for name, (added, _why) in EQUIVALENT.items():
        if name not in status or added not in mutmut("show", name):
            stale.append(name)
    if stale:
        print("stale equivalent-mutant list (renumbered or gone), re-classify:",
              *stale, sep="\n  ", file=sys.stderr)
        return 2
    counts = Counter(status.values())
    killed_like = ("killed", "caught by type check", "timeout")
    equivalent = [n for n in EQUIVALENT if status[n] not in killed_like]
    considered = len(status) - counts["skipped"] - len(equivalent)
    killed = sum(counts[s] for s in killed_like)
    left = sorted(n for n, s in status.items()
                  if s not in (*killed_like, "skipped") and n not in EQUIVALENT)
    score = 100.0 * killed / considered if considered else 100.0
    print(f"mutants: {len(status)}  " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print(f"equivalent (documented, not counted): {len(equivalent)}")
    for name in equivalent:
        print(f"  {name}: {EQUIVALENT[name][1]}")
    print(f"not killed, not equivalent: {len(left)}")
    for name in left:
        print(f"  {name}: {status[name]}")
        if args.show:
            print(mutmut("show", name))
    print(f"mutation score: {killed}/{considered} = {score:.1f} % of non-equivalent mutants "
          f"killed (threshold {args.threshold:g} %)")
    return 0 if score >= args.threshold else 1


if __name__ == "__main__":
    sys.exit(main())
