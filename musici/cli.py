"""The ``musici`` command: play a seeded game, or simulate, compare and report on batches."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
import warnings
from collections.abc import Sequence
from pathlib import Path

from musici.cards import CardSetError, load_cardset, standard_cardset
from musici.describe import PHASE_NAMES, describe_event
from musici.engine import Game, GameError
from musici.rules import RuleOptionError, RuleSet
from musici.strategies import make_strategy


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="musici", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play one game with bots and print it")
    play.add_argument("--players", default="random,random,random,random",
                      help="comma-separated strategy per seat (3 or 4), e.g. random,random,random")
    play.add_argument("--seed", type=int, default=7)
    play.add_argument("--months", type=int, default=None,
                      help="number of months (RULING-MONTHS; default 12)")
    play.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                      help="a rule option, e.g. --rule RULING-MEDIA-ZERO=zero-can-win")
    play.add_argument("--cards", default=None, help="a card-set JSON file (default: bundled)")
    play.add_argument("--seat", type=int, default=None,
                      help="print only what this seat may see, 0 to players-1 (default: everything)")
    play.add_argument("--brief", action="store_true",
                      help="print only the monthly summaries and the final scoring")
    play.add_argument("--save", default=None, help="write the finished game to this JSON file")
    play.set_defaults(run=_play)
    from musici.analysis.cli_review import add_commands as add_review_commands
    from musici.sim.cli import add_commands  # imported here: `musici play` needs no pandas

    add_commands(sub)
    add_review_commands(sub)
    return parser


def _check_save(path: str | None) -> None:
    """Fail before the game, not after it, when the save cannot be written."""
    if path is None:
        return
    if path == "":
        raise ValueError("--save is an empty string; name a JSON file")
    target = Path(path)
    if target.is_dir():
        raise ValueError(f"--save {path}: is a directory; name a file")
    parent = target.parent
    if not parent.is_dir():
        raise ValueError(f"--save {path}: the directory {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise ValueError(f"--save {path}: the directory {parent} is not writable")


def _play(args: argparse.Namespace) -> int:
    names = [n.strip() for n in args.players.split(",") if n.strip()]
    strategies = [make_strategy(n) for n in names]
    rule_args = list(args.rule)
    if args.months is not None:
        if any(a.partition("=")[0].strip() == "RULING-MONTHS" for a in rule_args):
            raise ValueError("give the number of months once: --months or --rule RULING-MONTHS=N")
        rule_args.append(f"RULING-MONTHS={args.months}")
    rules = RuleSet.parse(rule_args)
    if args.cards:
        from musici.sim.simulate import check_cardset_size

        check_cardset_size(args.cards)
    cards = load_cardset(args.cards) if args.cards else standard_cardset()
    if args.seat is not None and not 0 <= args.seat < len(strategies):
        raise ValueError(f"--seat {args.seat}: seats are numbered 0 to {len(strategies) - 1} "
                         f"for {len(strategies)} players")
    _check_save(args.save)
    game = Game(players=len(strategies), seed=args.seed, rules=rules, cards=cards)
    game.play(strategies)
    out = sys.stdout
    print(f"I Musici: {len(names)} players ({', '.join(names)}), seed {args.seed}, "
          f"{rules.months} months, card set {cards.name!r}", file=out)
    changed = rules.non_default()
    if changed:
        print("rule options: " + ", ".join(f"{k}={v}" for k, v in changed.items()), file=out)
    month, phase = None, None
    summary_kinds = {"month_end", "award", "marker_penalty", "final"}
    for event in game.events_for(args.seat):
        if args.brief and event.kind not in summary_kinds:
            continue
        if event.month != month and event.phase != "END":
            month = event.month
            print(f"\n=== Month {month} ===", file=out)
        if event.phase != phase:
            phase = event.phase
            if not args.brief or phase == "END":
                print(f"-- {PHASE_NAMES.get(phase, phase)}", file=out)
        print("  " + describe_event(event, cards), file=out)
    print("\nFinal standings (END.WIN: fame, then money):", file=out)
    for row in game.standings():
        fame = row["fame"]
        shown = f"{float(fame):.2f}" if fame.denominator != 1 else str(fame.numerator)
        mark = "  winner" if row["winner"] else ""
        print(f"  {row['rank']}. seat {row['seat']} ({names[row['seat']]}): fame {shown}, "
              f"money {row['money']} G{mark}", file=out)
    print(f"({game.step} decisions)", file=out)
    if args.save:
        game.save(args.save)
        print(f"saved to {args.save}", file=out)
    return 0


class _StopOnce:
    """The first Ctrl-C or SIGTERM stops the run; later ones are ignored.

    One clean stop (workers killed, temp removed, partial result written) must not be cut
    short by a second Ctrl-C, nor turned into death by signal on the way out.
    """

    def __init__(self) -> None:
        self.stopping = False

    def __call__(self, signum: int, frame: object) -> None:
        if self.stopping:
            return
        self.stopping = True
        raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None, *, as_program: bool = False) -> int:
    """Run the ``musici`` command with ``argv``; return its exit code.

    ``as_program=True`` (the installed command) keeps ignoring Ctrl-C after a stop until the
    process exits; called as a function, the previous signal handlers are put back.
    """
    args = _parser().parse_args(argv)
    main_thread = threading.current_thread() is threading.main_thread()
    guard = _StopOnce()
    previous = ((signal.signal(signal.SIGINT, guard), signal.signal(signal.SIGTERM, guard))
                if main_thread else None)
    shown = warnings.showwarning
    warnings.showwarning = _warning
    try:
        return int(args.run(args))
    except BrokenPipeError:  # `musici play | head`: the reader left; nothing more to say
        _quiet_stdout()
        return 0
    except KeyboardInterrupt:
        print("musici: stopped", file=sys.stderr)
        return 130
    except (RuleOptionError, CardSetError, GameError, ValueError, OSError) as exc:
        print(f"musici: error: {exc}", file=sys.stderr)
        return 2
    finally:
        warnings.showwarning = shown
        if previous is not None:
            # The command, once stopping, keeps ignoring signals until it exits: at
            # interpreter shutdown Python handlers revert to the default (death by
            # signal), SIG_IGN does not.
            keep = as_program and guard.stopping
            signal.signal(signal.SIGINT, signal.SIG_IGN if keep else previous[0])
            signal.signal(signal.SIGTERM, signal.SIG_IGN if keep else previous[1])


def program() -> int:
    """The installed ``musici`` command."""
    return main(as_program=True)


def _warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: object = None, line: str | None = None) -> None:
    print(f"musici: warning: {message}", file=sys.stderr)  # one line, no source location


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
