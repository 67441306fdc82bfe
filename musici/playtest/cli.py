"""``musici compare``, ``balance``, ``ladder`` and ``tune``: the designer's analysis from the
shell, on batches played by :mod:`musici.sim`."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from musici.playtest.balance import balance_report
from musici.playtest.compare import Setup, compare
from musici.sim.cli import _batch_options, _check_backend, _limits, _lineup, _table
from musici.sim.cli import _rules as batch_rules
from musici.sim.cli import _run as run_batch
from musici.sim.simulate import SimulationResult

# Every frame the balance report's measures read (the months frame: lead changes, comebacks
# and "decided by END"); never the events.
BALANCE_FRAMES = ("games", "players", "months", "concerts", "venues", "specials")


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=0, help="batch seed (default 0)")
    p.add_argument("--months", type=int, default=None, help="RULING-MONTHS (default 12)")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule option, repeatable")
    p.add_argument("--cards", default=None, help="a card-set JSON file (default: bundled)")
    p.add_argument("--jobs", type=int, default=None, help="local worker processes")
    p.add_argument("--scheduler", default=None, help="a Dask scheduler address instead")
    p.add_argument("--quiet", action="store_true", help="no progress bars")


def add_commands(sub: Any) -> None:
    cmp = sub.add_parser("compare", help="a what-if: two setups on the same seeds, paired effects")
    _batch_options(cmp)
    cmp.add_argument("--variant-players", default=None, help="the variant's line-up (default: same)")
    cmp.add_argument("--variant-rule", action="append", default=[], metavar="NAME=VALUE",
                     help="a rule option of the variant, on top of the base's")
    cmp.add_argument("--variant-months", type=int, default=None)
    cmp.add_argument("--variant-cards", default=None, help="the variant's card-set file")
    cmp.set_defaults(run=_compare)

    bal = sub.add_parser("balance", help="a balance report over a batch (or a saved one)")
    _batch_options(bal)
    bal.add_argument("--from", dest="source", default=None,
                     help="report on a batch saved by `musici simulate --out DIR` "
                          "(the batch options are then not used)")
    bal.set_defaults(run=_balance)

    rep = sub.add_parser("report", help="the designer's playtest report: one self-contained "
                                        "HTML page, verdicts first (issue 19)")
    _batch_options(rep)
    rep.add_argument("--from", dest="source", default=None,
                     help="report on a batch saved by `musici simulate --out DIR` "
                          "(the batch options are then not used)")
    rep.add_argument("--out", default="report.html",
                     help="the HTML file to write (default report.html)")
    rep.add_argument("--causal", type=int, default=0, metavar="N",
                     help="neutralise each flagged card (its fame set to its kind's mean) on N "
                          "paired games of the batch's seed and report the effect on win shares")
    rep.add_argument("--ladder", type=int, default=0, metavar="N",
                     help="also rate the batch's bots on a round robin of N games per table "
                          "(default: the ratings documented in docs/playtesting.md)")
    rep.set_defaults(run=_report)

    lad = sub.add_parser("ladder", help="round-robin tables among bots: Plackett-Luce ratings "
                                        "with intervals and the pairwise win matrix")
    lad.add_argument("--bots", default="random,greedy,impresario,merchant,collector",
                     help="comma-separated bots (names, files, module:name)")
    lad.add_argument("--games", type=int, default=100, help="games per table (default 100; "
                                                            "a multiple of 4 rotates evenly)")
    lad.add_argument("--players", type=int, default=4, help="seats per table (3 or 4)")
    lad.add_argument("--bootstrap", type=int, default=200,
                     help="bootstrap resamples for the rating intervals (default 200)")
    lad.add_argument("--quality", action="store_true",
                     help="also print the game-quality measures of every table")
    lad.add_argument("--out", default=None, help="write the ladder frames as parquet here")
    _common(lad)
    lad.set_defaults(run=_ladder)

    tune = sub.add_parser("tune", help="card-tuning workbench: per-card effects, sensitivity "
                                       "runs, and an automatic tuner verified with compare()")
    tune.add_argument("--players", default="impresario,merchant,collector,greedy",
                      help="the table the targets are measured at")
    tune.add_argument("--games", type=int, default=200, help="games per evaluation (default 200)")
    tune.add_argument("--verify-games", type=int, default=None,
                      help="games of the final compare() (default: 2 x --games)")
    tune.add_argument("--max-win", type=float, default=0.35,
                      help="target: no strategy wins more than this share (default 0.35)")
    tune.add_argument("--max-sd", type=float, default=1.5,
                      help="target: no card's fame per play more than this many sd above its "
                           "kind's mean (default 1.5)")
    tune.add_argument("--rounds", type=int, default=3, help="tuning rounds (default 3)")
    tune.add_argument("--candidates", type=int, default=6,
                      help="candidate changes tried per round (default 6)")
    tune.add_argument("--alpha", type=float, default=0.05,
                      help="family-wise level of the verification's paired test, "
                           "Bonferroni-corrected over the candidates tried (default 0.05)")
    tune.add_argument("--effects", action="store_true",
                      help="only print every card's, special card's and venue's effect")
    tune.add_argument("--sensitivity", action="append", default=[], metavar="CHANGE",
                      help="only run this change against the base on common random numbers, "
                           "e.g. S07:fame=-1, D03:income=+50, opera:rent=+50, "
                           "TOUR:large-commercial:fame=+1, "
                           "TOUR:small-academic:fame_multiplier=-0.5, END:END.2=-1 or "
                           "SPECIAL:P1:price=+50 (repeatable: applied together)")
    tune.add_argument("--out", default=None,
                      help="directory for the report, and the tuned card file when a change "
                           "clears the test (default: print)")
    _common(tune)
    tune.set_defaults(run=_tune)


def _rules(args: argparse.Namespace) -> Any:
    return batch_rules(args.rule, args.months)


def _compare(args: argparse.Namespace) -> int:
    base_rules = batch_rules(args.rule, args.months)
    variant_rules = batch_rules(args.variant_rule, args.variant_months, base=args.rule + (
        [f"RULING-MONTHS={args.months}"] if args.months is not None else []))
    base = Setup(_lineup(args.players), base_rules, args.cards, "base")
    variant = Setup(_lineup(args.variant_players or args.players), variant_rules,
                    args.variant_cards or args.cards, "variant")
    _check_backend(args)
    result = compare(base, variant, args.games, seed=args.seed, rotate=not args.no_rotate,
                     jobs=args.jobs, scheduler=args.scheduler, progress=not args.quiet,
                     limits=_limits(args))
    print(f"{args.games} paired games (same seeds and seats), seed {args.seed}")
    for arm in (result.base, result.variant):
        c = arm.config
        print(f"  {c['name']}: {', '.join(c['players'])}; rules {c['rules'] or 'as RULES.md'}; "
              f"cards {c['cards']!r}")
    print("effect = variant - base, with 95% intervals on the paired differences:")
    print(_table(result.effects))
    return 0


def _balance(args: argparse.Namespace) -> int:
    if args.source == "":
        raise ValueError("--from is an empty string; name a directory written by "
                         "`musici simulate --out DIR`")
    result = (SimulationResult.read_parquet(args.source, frames=BALANCE_FRAMES)
              if args.source is not None else run_batch(args))
    if not result.complete:
        print(f"note: {args.source} is a partial run ({len(result.games)} of "
              f"{result.config.get('games')} games)", file=sys.stderr)
    print(balance_report(result).to_text())
    return 0


def _report(args: argparse.Namespace) -> int:
    import time

    from musici.playtest.report import playtest_report
    from musici.playtest.verdicts import headline_summary
    from musici.sim.frames import FRAME_NAMES

    if args.source == "":
        raise ValueError("--from is an empty string; name a directory written by "
                         "`musici simulate --out DIR`")
    if not args.out:
        raise ValueError("--out is an empty string; name the HTML file to write")
    for name in ("causal", "ladder"):
        if getattr(args, name) < 0:
            raise ValueError(f"--{name} takes a number of games (0: not run), got "
                             f"{getattr(args, name)}")
    start = time.perf_counter()
    frames = [f for f in FRAME_NAMES if f != "events"]
    result = (SimulationResult.read_parquet(args.source, frames=frames)
              if args.source is not None else run_batch(args))
    if not result.complete:
        print(f"note: {args.source} is a partial run ({len(result.games)} of "
              f"{result.config.get('games')} games)", file=sys.stderr)
    report = playtest_report(result, causal=args.causal, ladder=args.ladder,
                             players=args.players,  # what the user named runs, nothing else
                             source=args.source, jobs=args.jobs, progress=not args.quiet)
    path = report.save(args.out)
    print(f"{len(report.stated)} verdicts stated of {report.tests} tests (Holm-Bonferroni); "
          f"{len(report.figures)} figures; {time.perf_counter() - start:.1f} s")
    said = 0
    for text, _, is_stated in headline_summary(report.verdicts):
        print(f"- {text}")
        said += is_stated
    for verdict in (v for v in report.verdicts if v.flagged):
        print(f"- flagged: {verdict.text}")
        said += 1
    if len(report.stated) > said:
        print(f"  ... and {len(report.stated) - said} more verdicts on the page")
    for note in report.notes:
        print(f"note: the batch lacks {note}", file=sys.stderr)
    print(f"report written to {path}")
    return 0


def _backend(args: argparse.Namespace) -> dict[str, Any]:
    if args.scheduler and args.jobs is not None:
        raise ValueError("--jobs sets local worker processes; with --scheduler the Dask "
                         "cluster decides, so give one or the other")
    return {"jobs": args.jobs, "scheduler": args.scheduler, "progress": not args.quiet}


def _ladder(args: argparse.Namespace) -> int:
    import pandas as pd

    from musici.playtest.ladder import ladder
    from musici.playtest.quality import format_quality, quality_table

    result = ladder(args.bots, args.games, seed=args.seed, players=args.players,
                    rules=_rules(args), cards=args.cards, bootstrap=args.bootstrap,
                    **_backend(args))
    print(result.to_text())
    if result.config["failed_games"]:
        print(f"\n{result.config['failed_games']} games failed and are left out")
    if args.quality:
        with pd.option_context("display.width", 160, "display.max_colwidth", 70):
            print("\ngame quality per table (95% intervals):")
            print(format_quality(quality_table(result.results)).to_string(index=False))
    if args.out:
        print(f"frames written to {result.to_parquet(args.out)}")
    return 0


def _stderr(line: str) -> None:
    print(f"musici tune: {line}", file=sys.stderr, flush=True)


def _tune(args: argparse.Namespace) -> int:
    from musici.playtest import tuning

    players = [p.strip() for p in args.players.split(",") if p.strip()]
    common = {"seed": args.seed, "rules": _rules(args), **_backend(args)}
    if args.effects:
        print(tuning.effects_text(tuning.card_effects(
            players, args.games, cards=args.cards, **common)))
        return 0
    if args.sensitivity:
        changes = [tuning.parse_change(text) for text in args.sensitivity]
        run = tuning.sensitivity(players, changes, args.games, cards=args.cards, **common)
        print(run.to_text())
        return 0
    target = tuning.Target(max_win=args.max_win, max_sd=args.max_sd)
    result = tuning.tune(players, target, games=args.games, verify_games=args.verify_games,
                         rounds=args.rounds, candidates=args.candidates, cards=args.cards,
                         alpha=args.alpha,
                         log=None if args.quiet else _stderr, **common)
    print(result.report())
    if args.out:
        for path in result.write(args.out):
            print(f"written: {path}")
    return 0


__all__ = ["add_commands"]
