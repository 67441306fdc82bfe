"""How long drawing takes: every card, the board (teacher and seat views), a hand.

    python benchmarks/bench_render.py --repeat 20

The stepper redraws the board on each click (median click budget 0.3 s), so the board's
time is the number to watch. Prints the median of ``--repeat`` runs in milliseconds and
the SVG sizes in kB.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from musici import Game, standard_cardset
from musici.render import board_svg, card_svg, hand_svg
from musici.strategies import make_strategy


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    cards = standard_cardset()
    every = [*cards.music, *cards.orchestras, *cards.specials]
    game = Game(4, seed=3)
    bots = [make_strategy(n) for n in ("impresario", "merchant", "collector", "greedy")]
    while not (game.month == 6 and game.phase == "P4"):
        game.play(bots, until="decision")
    view = game.view(0)
    rows = [
        (f"all {len(every)} cards", lambda: [card_svg(c, cards) for c in every]),
        ("board, teacher", lambda: board_svg(game)),
        ("board, seat 0", lambda: board_svg(view)),
        ("hand, seat 0", lambda: hand_svg(view.hand, cards)),
    ]
    for name, fn in rows:
        size = sum(len(s) for s in fn()) if name.startswith("all") else len(fn())  # type: ignore[arg-type]
        print(f"{name:<18} {median_ms(fn, args.repeat):7.1f} ms  {size / 1000:7.1f} kB")


if __name__ == "__main__":
    main()
