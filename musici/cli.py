"""The ``musici`` command: play a seeded game, or simulate, compare and report on batches."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import stat
import sys
import tempfile
import threading
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from musici.atomic import TEMP_PREFIX, file_kind
from musici.cards import (
    CONTROL_CHARACTERS,
    REFUSED_IN_NAMES,
    CardSetError,
    load_cardset,
    standard_cardset,
)
from musici.decisions import Decision, brief
from musici.describe import PHASE_NAMES, describe_event
from musici.engine import Game, GameError, StrategyError
from musici.rules import RuleOptionError, RuleSet
from musici.strategies import make_strategy
from musici.strategies.registry import StrategySpecError
from musici.views import PlayerView


def version_line() -> str:
    """``musici <version> (<build>)``: the compiled build or pure Python and why."""
    import musici

    return f"musici {musici.__version__} ({musici.BUILD.describe()})"


class _Version(argparse.Action):
    # argparse's own version action wraps the line to the terminal; this prints it whole.
    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(version_line())
        parser.exit()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="musici", description=__doc__)
    # Which build runs: e.g. "musici 0.1.0 (compiled: mypyc 2.4.1, 33 modules)" (musici.build).
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and the "
                        "build (compiled or pure Python, and why) and exit")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play one game with bots and print it, or play a seat "
                                       "yourself in the terminal (--human 0)")
    play.add_argument("--players", default="random,random,random,random",
                      help="comma-separated strategy per seat (3 or 4), e.g. random,random,random; "
                           "'human' for a seat you play in the terminal")
    play.add_argument("--seed", type=int, default=7)
    play.add_argument("--months", type=int, default=None,
                      help="number of months (RULING-MONTHS; default 12)")
    play.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                      help="a rule option, e.g. --rule RULING-MEDIA-ZERO=no-winner")
    play.add_argument("--cards", default=None, help="a card-set JSON file (default: bundled)")
    play.add_argument("--seat", type=int, default=None,
                      help="print only what this seat may see, 0 to players-1 (default: everything)")
    play.add_argument("--brief", action="store_true",
                      help="print only the monthly summaries and the final scoring")
    play.add_argument("--save", default=None, help="write the finished game to this JSON file")
    play.add_argument("--human", type=int, action="append", default=None, metavar="SEAT",
                      help="play this seat yourself: its decisions are asked in the terminal "
                           "(numbered answers, the same previews as the notebook); repeat for "
                           "more seats. The --players entry of that seat is not used")
    play.set_defaults(run=_play)
    from musici.analysis.cli_puzzle import add_commands as add_puzzle_commands
    from musici.analysis.cli_review import add_commands as add_review_commands
    from musici.playtest.cli import add_commands as add_playtest_commands
    from musici.sim.cli import add_commands  # imported here: `musici play` needs no pandas

    add_commands(sub)  # simulate, strategies
    add_playtest_commands(sub)  # compare, balance, ladder, tune
    add_review_commands(sub)
    add_puzzle_commands(sub)  # musici puzzle
    return parser


def _check_save(path: str | None) -> None:
    """Fail before the game, not after it, when the save cannot be written: the target
    must be absent or a regular file (a device, FIFO or socket would be replaced), and a
    file must be creatable beside it (as the atomic write will; root passes ``os.access``
    on ``/proc`` or a read-only mount, and cannot create a file there either)."""
    if path is None:
        return
    if path == "":
        raise ValueError("--save is an empty string; name a JSON file")
    target = Path(path)
    try:
        mode: int | None = os.stat(target).st_mode  # stat, not open: a FIFO would block
    except (FileNotFoundError, NotADirectoryError):
        mode = None
    except OSError as exc:
        raise ValueError(f"--save {path}: cannot look at it: {exc.strerror or exc}") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise ValueError(f"--save {path}: is a directory; name a file")
    if mode is not None and not stat.S_ISREG(mode):
        raise ValueError(f"--save {path}: is a {file_kind(mode)}, not a regular file; saving "
                         f"would replace it")
    parent = target.parent
    if not parent.is_dir():
        raise ValueError(f"--save {path}: the directory {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise ValueError(f"--save {path}: the directory {parent} is not writable")
    try:
        fd, probe = tempfile.mkstemp(prefix=TEMP_PREFIX + target.name + ".", dir=parent)
    except OSError as exc:
        raise ValueError(f"--save {path}: cannot create a file in {parent}: "
                         f"{exc.strerror or exc}") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def _printable(text: str) -> str:
    """``text`` as one line with control characters shown as escapes (ESC as ``\\x1b``),
    so nothing printed can drive the terminal: card names holding them are refused when
    the card set loads, and this is the second line of defence."""
    return CONTROL_CHARACTERS.sub(_escape, text)


class _TerminalSafe:
    """stdout for a command: what it prints may come from files (a result's strategy names,
    a card set's), so characters a terminal would act on are shown as escapes; tab and
    newline, which are layout, pass."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(REFUSED_IN_NAMES.sub(_escape, text))
        return len(text)

    def __getattr__(self, name: str) -> Any:  # flush, fileno, isatty, encoding ...
        return getattr(self._stream, name)


def _one_line(exc: BaseException) -> str:
    """``SystemExit``, ``SystemExit: 3``: what a non-Exception said, on one short line."""
    text = " ".join(brief(exc, 300, text=True).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class _Seat:
    """A seat's strategy, remembering a ``BaseException`` it raised (``sys.exit()``, a
    ``KeyboardInterrupt`` it made itself, ...), which the engine lets through, so the command
    can report it as that bot's failure instead of ending quietly with status 0."""

    __slots__ = ("raised", "strategy")

    def __init__(self, strategy: Callable[[PlayerView, Decision], Any]) -> None:
        self.strategy = strategy
        self.raised: BaseException | None = None

    def __call__(self, view: PlayerView, decision: Decision) -> Any:
        try:
            return self.strategy(view, decision)
        except Exception:
            raise  # the engine reports it (StrategyError)
        except BaseException as exc:
            self.raised = exc
            raise


def _real_stop(args: argparse.Namespace, exc: BaseException) -> bool:
    """Whether ``exc`` is the user's Ctrl-C or SIGTERM (not a bot's own KeyboardInterrupt)."""
    if not isinstance(exc, KeyboardInterrupt):
        return False
    stopping = getattr(args, "stop_requested", None)
    return stopping is None or bool(stopping())  # no handler to tell: take it as the user's


def _strategies(args: argparse.Namespace, names: list[str]) -> list[_Seat]:
    seats = []
    for name in names:
        try:
            seats.append(_Seat(make_strategy(name)))
        except Exception:
            raise
        except BaseException as exc:  # a factory calling sys.exit() (e.g. "sys:exit")
            if _real_stop(args, exc):
                raise
            raise StrategySpecError(f"strategy {name!r} could not be created: it raised "
                                    f"{_one_line(exc)}") from None
    return seats


def _play_game(args: argparse.Namespace, game: Game, seats: list[_Seat], names: list[str],
               run: Callable[[], Any] | None = None) -> None:
    """Play the game to the end (``run``, else ``game.play(seats)``), a bot's
    ``BaseException`` reported as that bot's failure."""
    try:
        if run is not None:
            run()
        else:
            game.play(seats)
    except Exception:
        raise
    except BaseException as exc:
        seat = next((i for i, s in enumerate(seats) if s.raised is exc), None)
        decision = game.decision
        if seat is None or decision is None or _real_stop(args, exc):
            raise
        raise StrategyError(
            f"strategy of seat {seat} ({names[seat]}) raised {_one_line(exc)} while answering "
            f"{decision.kind} ({decision.rule}) at month {game.month} {game.phase} "
            f"(seed {game.seed}, step {game.step}); a strategy must return an answer") from None


def _play(args: argparse.Namespace) -> int:
    names = [n.strip() for n in args.players.split(",") if n.strip()]
    if HUMAN in names:  # --players human,greedy,... is --human 0 with greedy bots
        args.human = sorted({*(args.human or ()), *(s for s, n in enumerate(names) if n == HUMAN)})
        names = ["random" if n == HUMAN else n for n in names]  # never asked: a person plays
    strategies = _strategies(args, names)
    rule_args = list(args.rule)
    if args.months is not None:
        if any(a.partition("=")[0].strip() == "RULING-MONTHS" for a in rule_args):
            raise ValueError("give the number of months once: --months or --rule RULING-MONTHS=N")
        rule_args.append(f"RULING-MONTHS={args.months}")
    rules = RuleSet.parse(rule_args)
    cards = load_cardset(args.cards) if args.cards else standard_cardset()
    if args.seat is not None and not 0 <= args.seat < len(strategies):
        raise ValueError(f"--seat {args.seat}: seats are numbered 0 to {len(strategies) - 1} "
                         f"for {len(strategies)} players")
    _check_save(args.save)
    game = Game(players=len(strategies), seed=args.seed, rules=rules, cards=cards)
    if args.human is not None:
        return _play_human(args, game, strategies, names)
    _play_game(args, game, strategies, names)
    out = sys.stdout

    def say(line: str) -> None:  # one line, nothing in it that a terminal would act on
        print(_printable(line), file=out)

    say(f"I Musici: {len(names)} players ({', '.join(names)}), seed {args.seed}, "
        f"{rules.months} months, card set {cards.name!r}")
    changed = rules.non_default()
    if changed:
        say("rule options: " + ", ".join(f"{k}={v}" for k, v in changed.items()))
    month, phase = None, None
    summary_kinds = {"month_end", "award", "marker_penalty", "final"}
    for event in game.events_for(args.seat):
        if args.brief and event.kind not in summary_kinds:
            continue
        if event.month != month and event.phase != "END":
            month = event.month
            print(file=out)
            say(f"=== Month {month} ===")
        if event.phase != phase:
            phase = event.phase
            if not args.brief or phase == "END":
                say(f"-- {PHASE_NAMES.get(phase, phase)}")
        say("  " + describe_event(event, cards))
    print(file=out)
    say("Final standings (END.WIN: fame, then money):")
    for row in game.standings():
        fame = row["fame"]
        shown = str(fame.numerator)
        if fame.denominator != 1:  # a shared award: 34½ as a player writes it, not 34.50
            from musici.analysis.hints import fame_text  # only then: it loads pandas

            shown = fame_text(fame)
        mark = "  winner" if row["winner"] else ""
        say(f"  {row['rank']}. seat {row['seat']} ({names[row['seat']]}): fame {shown}, "
            f"money {row['money']} G{mark}")
    say(f"({game.step} decisions)")
    if args.save:
        game.save(args.save)
        say(f"saved to {args.save}")
    return 0


HUMAN = "human"  # a --players entry for a seat played in the terminal


def _play_human(args: argparse.Namespace, game: Game, seats: list[_Seat],
                names: list[str]) -> int:
    """``musici play --human SEAT``: the seat's decisions asked in the terminal (stdin)."""
    from musici.terminal import StdinClosed, play_in_terminal

    humans = sorted(set(args.human))
    for seat in humans:
        if not 0 <= seat < len(seats):
            raise ValueError(f"--human {seat}: seats are numbered 0 to {len(seats) - 1} for "
                             f"{len(seats)} players")
    if args.seat is not None or args.brief:
        raise ValueError("--human shows your seat's view as you play; --seat and --brief are "
                         "for a game of bots")
    names = [HUMAN if s in humans else n for s, n in enumerate(names)]
    labels = [f"seat {s} (you)" if s in humans else f"seat {s} ({names[s]})"
              for s in range(len(seats))]
    out = sys.stdout

    def say(line: str) -> None:  # nothing in it that a terminal would act on
        print(_printable(line), file=out, flush=True)

    say(f"I Musici: you play {', '.join(f'seat {s}' for s in humans)}; seed {args.seed}, "
        f"{game.rules.months} months, card set {game.cards.name!r}")
    changed = game.rules.non_default()
    if changed:
        say("rule options: " + ", ".join(f"{k}={v}" for k, v in changed.items()))
    try:
        _play_game(args, game, seats, names, run=lambda: play_in_terminal(
            game, seats, humans, labels, stdin=sys.stdin, stdout=out, say=say))
    except StdinClosed:
        say("")
        say(f"Input ended: the game stops at month {game.month} {game.phase} after "
            f"{game.step} decisions (seed {args.seed}).")
        if args.save:
            game.save(args.save)
            say(f"saved the game so far to {args.save}")
        return 1
    say(f"({game.step} decisions)")
    if args.save:
        game.save(args.save)
        say(f"saved to {args.save}")
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
    args.stop_requested = lambda: guard.stopping
    shown = warnings.showwarning
    warnings.showwarning = _warning
    stdout = sys.stdout
    sys.stdout = _TerminalSafe(stdout)
    try:
        return int(args.run(args))
    except BrokenPipeError as exc:
        if _stdout_gone():  # `musici play | head`: the reader left; nothing more to say
            _quiet_stdout()
            return 0
        # Another pipe broke (a worker that died, say): a failure, never a quiet exit 0.
        print(_printable(f"musici: error: {exc.strerror or exc} (a pipe inside musici "
                         f"broke; stdout is fine)"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("musici: stopped", file=sys.stderr)
        return 130
    except (RuleOptionError, CardSetError, GameError, ValueError, OSError) as exc:
        print(_printable(f"musici: error: {_error_text(exc)}"), file=sys.stderr)
        return 2
    except RuntimeError as exc:
        if type(exc).__module__ != "musici.sim.pool":  # WorkerFailed (not imported: pandas)
            raise
        print(_printable(f"musici: error: {_error_text(exc)}"), file=sys.stderr)
        return 2
    except SystemExit as exc:  # sys.exit() in a bot or plug-in: not a finished command
        print(_printable(f"musici: error: the command was ended by {_one_line(exc)} from "
                         f"inside it (a strategy or plug-in calling sys.exit()?)"), file=sys.stderr)
        return 2
    finally:
        sys.stdout = stdout
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
    # one line, no source location
    print(_printable(f"musici: warning: {' '.join(str(message).splitlines())}"), file=sys.stderr)


def _error_text(exc: BaseException) -> str:
    """An exception and its notes (e.g. where a failed batch's games are kept), one line."""
    text = " ".join([str(exc), *getattr(exc, "__notes__", [])])
    return " ".join(text.split())


def _stdout_gone() -> bool:
    """Whether stdout is a pipe whose reader has left (POLLERR on its write end)."""
    import select

    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))
    except (OSError, ValueError, AttributeError):  # no real descriptor (captured, closed)
        return False


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
