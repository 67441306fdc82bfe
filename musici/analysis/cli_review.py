"""``musici review game.json``: a saved game's decisions of one seat, labelled inaccuracy /
mistake / blunder by the win share they lost, with the better choice and why.

Registered by :func:`add_commands` (called from ``musici.cli``); the work is
:func:`musici.analysis.review.review_game` (the one evaluation, in the same sampled worlds
for the answer given and the alternatives).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from musici.analysis.review import REVIEW_WORLDS


def add_commands(sub: Any) -> None:
    review = sub.add_parser("review", help="a saved game's decisions of one seat, labelled "
                                           "inaccuracy / mistake / blunder, with the better "
                                           "choice and why")
    review.add_argument("game", help="a game saved by `musici play --save FILE`")
    review.add_argument("--seat", type=int, default=0, help="the seat reviewed (default 0)")
    review.add_argument("--top", type=int, default=5, help="how many decisions to list")
    review.add_argument("--worlds", type=int, default=REVIEW_WORLDS,
                        help=f"most sampled worlds per decision (default {REVIEW_WORLDS}; "
                             f"more: slower, narrower intervals)")
    review.add_argument("--lineup", default=None,
                        help="the bots that played the game, one per seat, comma-separated "
                             "('human' for a person), e.g. human,impresario,merchant,collector: "
                             "the game is then played out as it was played (each rival by its "
                             "own bot, a person or a search bot stood in for by merchant; "
                             "musici.analysis.review.lineup_options); default greedy for all")
    review.add_argument("--deep", nargs="?", const="ismcts", default=None, metavar="BOT",
                        help="judge each mistake and blunder again with BOT (default ismcts, "
                             "the strongest) continuing the seat as one more plan, both "
                             "answers credited; a flag stays only if no plan redeems it "
                             "(20-150 s of CPU a flag with ismcts)")
    review.set_defaults(run=_review)


def _review(args: argparse.Namespace) -> int:
    from musici.analysis.review import review_game, review_text
    from musici.persistence import load

    if args.top < 1 or args.worlds < 1:
        raise ValueError(f"--top and --worlds must be at least 1, got {args.top} and "
                         f"{args.worlds}")
    game = load(args.game)
    options: dict[str, Any] = {}
    if args.lineup:
        from musici.analysis.review import lineup_options
        from musici.strategies.registry import make_strategy

        names = [n.strip() for n in args.lineup.split(",")]
        if len(names) != game.n:
            raise ValueError(f"--lineup names one bot per seat ({game.n}), got {len(names)}: "
                             f"{args.lineup!r}")
        for name in names:  # any spec the bots accept; an unknown one is a clear error
            if name != "human":
                make_strategy(name)
        options = lineup_options([None if n == "human" else n for n in names], args.seat)
    review = review_game(game, args.seat, worlds=args.worlds, **options)
    if args.deep:
        from musici.analysis.review import deep_check
        from musici.strategies.registry import available_strategies

        if args.deep not in available_strategies():
            raise ValueError(f"--deep: unknown bot {args.deep!r}; expected one of "
                             f"{', '.join(available_strategies())}")
        review = deep_check(game, args.seat, review, bot=args.deep, worlds=args.worlds,
                            **options)
    print(review_text(game, args.seat, review, top=args.top), file=sys.stdout)
    return 0


__all__ = ["add_commands"]
