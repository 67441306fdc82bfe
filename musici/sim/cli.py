"""``musici simulate`` and ``musici strategies``: batch runs from the shell (the analysis
commands built on them are in :mod:`musici.playtest.cli`)."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

import pandas as pd

from musici.rules import RuleSet
from musici.sim.limits import Limits
from musici.sim.simulate import SimulationResult, simulate
from musici.sim.store import check_target
from musici.sim.stream import BatchReport, Stopped, resume, simulate_to
from musici.strategies.registry import names_code

DEFAULT_PLAYERS = "greedy,random,random,random"



def _batch_options(p: argparse.ArgumentParser, *, players: bool = True) -> None:
    if players:
        # None, not the default line-up: --resume must tell whether the user named bots.
        p.add_argument("--players", default=None,
                       help="comma-separated strategy per seat: names (see `musici strategies`), "
                            f"file.py[:name] or package.module:name (default {DEFAULT_PLAYERS}); "
                            "with --resume, the run's own line-up, needed when it names files")
    p.add_argument("--games", type=int, default=200, help="number of games (default 200)")
    p.add_argument("--seed", type=int, default=0, help="batch seed; game i gets a seed derived "
                                                       "from it (default 0)")
    p.add_argument("--months", type=int, default=None, help="RULING-MONTHS (default 12)")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule option, repeatable, e.g. --rule RULING-MEDIA-STEP=50")
    p.add_argument("--cards", default=None, help="a card-set JSON file (default: bundled)")
    p.add_argument("--no-rotate", action="store_true",
                   help="keep every strategy in its seat (default: rotate one seat per game)")
    p.add_argument("--jobs", type=int, default=None,
                   help="local worker processes (default: one per core)")
    p.add_argument("--scheduler", default=None,
                   help="a Dask scheduler address (tcp://host:8786) instead of local processes")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--decision-time", type=float, default=None, metavar="SECONDS",
                   help="stop a game whose bot takes longer than this for one decision "
                        "(default: none for musici's bots, 300 s when a bot is a file or "
                        "module of yours; 0: none)")
    p.add_argument("--game-time", type=float, default=None, metavar="SECONDS",
                   help="stop a game that takes longer than this in all (default: none for "
                        "musici's bots, 3600 s when a bot is yours; 0: none)")
    p.add_argument("--memory-mb", type=int, default=None, metavar="MB",
                   help="memory a worker process may add while playing (a hog's game is stopped)")


def add_commands(sub: Any) -> None:
    sim = sub.add_parser("simulate", help="play many games and print win rates with 95%% intervals")
    _batch_options(sim)
    sim.add_argument("--events", action="store_true", help="also keep every event (large)")
    sim.add_argument("--out", default=None, help="write the frames as parquet into this directory "
                                                 "(a new or empty one, unless --overwrite)")
    sim.add_argument("--overwrite", action="store_true",
                     help="replace the musici result in --out (once the new result is complete; "
                          "a stopped run keeps the old one); never any other directory")
    sim.add_argument("--resume", default=None, metavar="DIR",
                     help="finish the partial run in DIR (left by Ctrl-C or SIGTERM); the batch "
                          "options are then taken from DIR")
    sim.set_defaults(run=_simulate)

    lst = sub.add_parser("strategies", help="list the strategies that can be named")
    lst.set_defaults(run=_strategies)


def _rules(rule_args: list[str], months: int | None, base: list[str] | None = None) -> RuleSet:
    args = [*(base or []), *rule_args]
    if months is not None:
        if any(a.partition("=")[0].strip() == "RULING-MONTHS" for a in rule_args):
            raise ValueError("give the number of months once: --months or --rule RULING-MONTHS=N")
        args.append(f"RULING-MONTHS={months}")
    return RuleSet.parse(args)


def _check_backend(args: argparse.Namespace) -> None:
    if args.scheduler and args.jobs is not None:
        raise ValueError("--jobs sets local worker processes; with --scheduler the Dask "
                         "cluster decides, so give one or the other")
    if args.scheduler is not None:
        from musici.sim.backends import scheduler_address

        scheduler_address(args.scheduler)  # a malformed address: refused before --out is made


def _check_out(out: str | None, overwrite: bool) -> None:
    """Fail before the games, not after, when the output directory cannot be written."""
    if out is None:
        if overwrite:
            raise ValueError("--overwrite needs --out DIR")
        return
    if out == "":
        raise ValueError("--out is an empty string; name a directory")
    check_target(out, overwrite=overwrite)  # a link, a file, a non-result: refused now
    Path(out).parent.mkdir(parents=True, exist_ok=True)


def _lineup(text: str | None) -> list[str]:
    return [n.strip() for n in (text or DEFAULT_PLAYERS).split(",") if n.strip()]


# A bot of the user's that freezes its worker (a regex holding the GIL, SIGSTOP) is only
# caught against a deadline, so the command gives user bots generous ones unless told
# otherwise (0 turns a limit off). musici's own bots get none: they run unwatched, faster.
USER_BOT_DECISION_SECONDS = 300.0
USER_BOT_GAME_SECONDS = 3600.0


def _limits(args: argparse.Namespace) -> Limits:
    from musici.sim.pool import musici_bots_only

    lineups = [_lineup(args.players)]
    if getattr(args, "variant_players", None):
        lineups.append(_lineup(args.variant_players))
    decision, game = args.decision_time, args.game_time
    if not musici_bots_only(lineups):
        decision = USER_BOT_DECISION_SECONDS if decision is None else decision
        game = USER_BOT_GAME_SECONDS if game is None else game
    return Limits(decision or None, game or None, args.memory_mb)


def _run(args: argparse.Namespace) -> SimulationResult:
    _check_backend(args)
    return simulate(_lineup(args.players), args.games, seed=args.seed,
                    rules=_rules(args.rule, args.months), cards=args.cards,
                    rotate=not args.no_rotate, events=getattr(args, "events", False),
                    jobs=args.jobs, scheduler=args.scheduler, progress=not args.quiet,
                    limits=_limits(args))


def _table(frame: pd.DataFrame) -> str:
    with pd.option_context("display.width", 120, "display.max_columns", 20,
                           "display.float_format", "{:.3f}".format):
        return frame.to_string(index=False)


def _summary_table(s: pd.DataFrame) -> str:
    shown = pd.DataFrame({
        "strategy": s.strategy, "seats": s.seats_played,
        "win rate": [f"{r:.1%} [{lo:.1%}, {hi:.1%}]" for r, lo, hi in
                     zip(s.win_rate, s.win_low, s.win_high, strict=True)],
        "mean fame": [f"{m:.2f} [{lo:.2f}, {hi:.2f}]" for m, lo, hi in
                      zip(s.mean_fame, s.fame_low, s.fame_high, strict=True)],
        "mean money": s.mean_money.round(0).astype(int),
    })
    return _table(shown)


def _print_errors(count: int, lines: list[str]) -> None:
    if count:
        print(f"\n{count} games failed and are left out:", file=sys.stderr)
        for line in lines[:10]:
            print(f"  {line}", file=sys.stderr)


def _simulate(args: argparse.Namespace) -> int:
    if args.resume is not None:
        return _resume(args)
    _check_backend(args)
    _check_out(args.out, args.overwrite)
    if args.out is None:  # stream anyway, so memory stays flat; the frames are then dropped
        with tempfile.TemporaryDirectory(prefix="musici-run-") as scratch:
            try:
                report = _stream(args, str(Path(scratch) / "run"))
            except Stopped:
                print("musici: stopped (no --out, so nothing was kept)", file=sys.stderr)
                return 130
            return _report(report, written=False)
    try:
        report = _stream(args, args.out)
    except Stopped as stop:
        return _stopped(stop.report)
    return _report(report)


def _stream(args: argparse.Namespace, out: str) -> BatchReport:
    return simulate_to(out, _lineup(args.players), args.games, seed=args.seed,
                       rules=_rules(args.rule, args.months), cards=args.cards,
                       rotate=not args.no_rotate, events=args.events, jobs=args.jobs,
                       scheduler=args.scheduler, progress=not args.quiet,
                       limits=_limits(args), overwrite=args.overwrite)


def _report(report: BatchReport, written: bool = True) -> int:
    cfg = report.config
    print(f"{report.played} games of {', '.join(cfg['players'])}; seed {cfg['seed']}; "
          f"card set {cfg['cards']!r}; rules {cfg['rules'] or 'as RULES.md'}")
    if report.counts:
        print("win rate and mean fame with 95% intervals (shared wins count as fractions):")
        print(_summary_table(report.summary()))
    _print_errors(report.failed, report.errors)
    if written:
        print(f"frames written to {report.directory}")
    return 1 if report.played == 0 else 0


def _stopped(report: BatchReport) -> int:
    kept = report.played + report.failed
    names = report.config.get("players", [])
    again = f"musici simulate --resume {report.directory}" + (
        f" --players {','.join(names)}" if any(names_code(p) for p in names) else "")
    if report.complete:
        print(f"musici: stopped as the run finished: all {kept} games are in "
              f"{report.directory}, complete", file=sys.stderr)
    elif report.kept_beside is not None:
        print(f"musici: stopped; the result already in {report.directory} is kept; this run's "
              f"{kept} of {report.games} games are kept beside it ({report.kept_beside.name}); "
              f"finish them with: {again} (the old result is replaced once they are complete)",
              file=sys.stderr)
    else:
        print(f"musici: stopped; {kept} of {report.games} games kept in {report.directory} as "
              f"a partial result; finish it with: {again}", file=sys.stderr)
    return 130


def _resume(args: argparse.Namespace) -> int:
    if args.resume == "":
        raise ValueError("--resume is an empty string; name the directory of a partial run")
    if args.out is not None or args.overwrite:
        raise ValueError("--resume DIR finishes the run in DIR; give no --out or --overwrite")
    _check_backend(args)
    try:
        report = resume(args.resume, players=args.players, jobs=args.jobs,
                        scheduler=args.scheduler, progress=not args.quiet)
    except Stopped as stop:
        return _stopped(stop.report)
    return _report(report)


def _strategies(args: argparse.Namespace) -> int:
    from musici.strategies import available_strategies

    for name, text in available_strategies().items():
        print(f"{name:12} {text}")
    return 0


__all__ = ["add_commands"]
