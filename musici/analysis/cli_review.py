"""``musici review game.json``: a saved game's costliest decisions for one seat.

Registered by :func:`add_commands` (called from ``musici.cli``); the work is
:func:`musici.analysis.review.review_game`.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_commands(sub: Any) -> None:
    review = sub.add_parser("review", help="a saved game's costliest decisions of one seat, "
                                           "with the better choice and why")
    review.add_argument("game", help="a game saved by `musici play --save FILE`")
    review.add_argument("--seat", type=int, default=0, help="the seat reviewed (default 0)")
    review.add_argument("--top", type=int, default=5, help="how many decisions to list")
    review.add_argument("--worlds", type=int, default=3,
                        help="sampled worlds per decision (more: slower, steadier)")
    review.set_defaults(run=_review)


def _review(args: argparse.Namespace) -> int:
    from musici.analysis.review import review_game, review_text
    from musici.persistence import load

    if args.top < 1 or args.worlds < 1:
        raise ValueError(f"--top and --worlds must be at least 1, got {args.top} and "
                         f"{args.worlds}")
    game = load(args.game)
    mistakes = review_game(game, args.seat, worlds=args.worlds)
    print(review_text(game, args.seat, mistakes, top=args.top), file=sys.stdout)
    return 0


__all__ = ["add_commands"]
