"""``musici puzzle``: a rule puzzle in text; answer it, hear whether it was right and why.

Registered by :func:`add_commands` (called from ``musici.cli``); the puzzles are
:func:`musici.analysis.puzzles.bundled_puzzles` (or a file given with ``--file``).

    musici puzzle                   # a puzzle chosen by --seed (default: the first)
    musici puzzle --list            # every puzzle: id, kind, rule, month
    musici puzzle --id venue-4p2001-313 --answer 6     # non-interactive: option 6
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from musici.analysis.puzzles import Puzzle, PuzzleSet


def add_commands(sub: Any) -> None:
    puzzle = sub.add_parser("puzzle", help="a rule puzzle from a strong bots' game: choose the "
                                           "clearly best answer, then see why")
    puzzle.add_argument("--id", default=None, help="the puzzle's id (see --list)")
    puzzle.add_argument("--seed", type=int, default=None,
                        help="pick a puzzle at random with this seed (default: the first, or "
                             "--id)")
    puzzle.add_argument("--list", action="store_true", help="list the puzzles and stop")
    puzzle.add_argument("--answer", default=None,
                        help="answer without asking: an option's number as listed, or the "
                             "answer itself (a card id, an area, an amount)")
    puzzle.add_argument("--file", default=None, help="a puzzle file (default: the bundled set)")
    puzzle.set_defaults(run=_puzzle)


def _set(args: argparse.Namespace) -> PuzzleSet:
    from musici.analysis.puzzles import bundled_puzzles, load_puzzles

    return load_puzzles(args.file) if args.file else bundled_puzzles()


def _choose(args: argparse.Namespace, puzzles: PuzzleSet) -> Puzzle:
    if args.id is not None:
        return puzzles.by_id(args.id)
    if args.seed is not None:
        return random.Random(args.seed).choice(puzzles.puzzles)
    return puzzles[0]


def puzzle_lines(puzzle: Puzzle) -> list[str]:
    """The puzzle as text: where the game stands for the seat, the decision, the options
    numbered from 1."""
    from musici.describe import answer_words

    game = puzzle.position()
    view = game.view(puzzle.seat)
    me = view.me
    cards = game.cards
    lines = [f"Puzzle {puzzle.id} (from a game of {puzzle.source}; rules: "
             f"{', '.join(puzzle.rules_exercised[:6])})",
             puzzle.prompt(),
             f"You (seat {puzzle.seat}): fame {me.fame}, {me.money} G, "
             f"orchestras: {answer_words(cards, me.orchestras) if me.orchestras else 'none'}",
             f"Your hand: {answer_words(cards, view.hand) if view.hand else 'empty'}",
             "Rivals: " + "; ".join(f"seat {p.seat} fame {p.fame}, {p.money} G"
                                    for p in view.players if p.seat != puzzle.seat),
             "Options:"]
    for i, answer in enumerate(listed_answers(puzzle), 1):
        estimate = puzzle.estimate_of(answer)
        note = f" — {estimate.note}" if estimate is not None and estimate.note else ""
        lines.append(f"  {i}. {answer_words(cards, answer)}{note}")
    d = game.decision
    assert d is not None
    if d.space != "choice":
        lines.append(f"  (or any legal answer: {d.describe_legal()})")
    return lines


def listed_answers(puzzle: Puzzle) -> list[Any]:
    """The answers as numbered: a choice's options in the game's own order, otherwise the
    answers compared in a fixed order that does not give the best away."""
    d = puzzle.decision
    if d.space == "choice":
        return list(d.options)
    return sorted((e.answer for e in puzzle.options), key=repr)


def _parse_answer(text: str, puzzle: Puzzle) -> Any:
    """An option's number, or an answer written out (an int for an amount, a comma list
    for a subset)."""
    text = text.strip()
    listed = listed_answers(puzzle)
    if text.isdigit() and 1 <= int(text) <= len(listed):
        return listed[int(text) - 1]
    d = puzzle.decision
    if d.space == "amount" and text.lstrip("-").isdigit():
        return int(text)
    if d.space == "subset":
        return tuple(t.strip() for t in text.split(",") if t.strip())
    return text


def _puzzle(args: argparse.Namespace) -> int:
    from musici.decisions import IllegalAnswer

    puzzles = _set(args)
    out = sys.stdout
    if args.list:
        for p in puzzles:
            print(f"{p.id}  seat {p.seat}, month {p.month}, {p.kind.replace('_', ' ')} "
                  f"[{p.rule}]", file=out)
        print(f"({len(puzzles)} puzzles)", file=out)
        return 0
    puzzle = _choose(args, puzzles)
    for line in puzzle_lines(puzzle):
        print(line, file=out)
    if args.answer is not None:
        text = args.answer
    else:
        try:
            text = input("Your answer (a number): ")
        except EOFError:
            raise ValueError("no answer given (standard input is closed); pass --answer N") from None
    try:
        verdict = puzzle.check(_parse_answer(text, puzzle))
    except IllegalAnswer as exc:
        raise ValueError(str(exc)) from None
    print(verdict.text, file=out)
    if verdict.correct and puzzle.lines:
        print("What it led to in the game:", file=out)
        for text, rule in puzzle.lines:
            print(f"  {text} [{rule}]", file=out)
    return 0 if verdict.correct else 1


__all__ = ["add_commands", "listed_answers", "puzzle_lines"]
