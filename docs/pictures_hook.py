"""MkDocs hook: fill docs/pictures.md and docs/rules.md with cards and a board drawn by
musici.render.

The page holds the prose and placeholders (``<!-- pictures:NAME -->``); the drawings are
made at build time, so the page never goes stale and no generated SVG is committed. An
unknown placeholder stops the build. (MkDocs skips this file: ``exclude_docs: *.py``.)
"""

from __future__ import annotations

import re
from collections.abc import Callable

from musici import Game, standard_cardset
from musici.render import board_svg, card_back_svg, card_svg, orchestra_svg
from musici.strategies.registry import make_strategy

PAGE = "pictures.md"
PAGES = (PAGE, "rules.md")  # the pages whose placeholders this hook fills
PLACEHOLDER = re.compile(r"<!-- pictures:([a-z-]+) -->")
BOTS = ("impresario", "merchant", "collector", "greedy")
NAMES = ["Ann (impresario)", "Ben (merchant)", "Cleo (collector)", "Dan (greedy)"]
SEAT = 2  # whose view the second board shows (the page names Cleo)


def row(*svgs: str) -> str:
    return ('<div class="musici-pictures" style="display:flex;flex-wrap:wrap;gap:8px">'
            + "".join(svgs) + "</div>")


def mid_game() -> Game:
    """Seed 3, the bots above, month 6 in the middle of the actions (P4, round 2)."""
    game = Game(4, seed=3)
    bots = [make_strategy(name) for name in BOTS]
    while not (game.month == 6 and game.phase == "P4" and game.round >= 2):
        game.play(bots, until="decision")
    return game


def score_cards() -> str:
    per_era: dict[str, str] = {}
    for card in standard_cardset().scores:  # one per era, with both corners where there is one
        if (card.authentic and card.modern) or card.era == "romantic":
            per_era.setdefault(card.era, card.id)
    return row(*(card_svg(cid) for cid in per_era.values()))


def discovery_cards() -> str:
    card = next(c for c in standard_cardset().discoveries if c.deck == "authentic")
    return row(card_svg(card), *(card_back_svg(b) for b in ("score", "authentic", "modern")))


PICTURES: dict[str, Callable[[], str]] = {
    "score-cards": score_cards,
    "discovery-cards": discovery_cards,
    "orchestras": lambda: row(orchestra_svg("O27"), orchestra_svg("O05", markers=1),
                              orchestra_svg("O14", markers=2)),
    "specials": lambda: row(*(card_svg(s) for s in ("P2", "P3", "S3", "S7"))),
    "board-teacher": lambda: row(board_svg(mid_game(), names=NAMES, width=1100)),
    "board-seat": lambda: row(board_svg(mid_game().view(SEAT), names=NAMES, width=1100)),
}


def fill(markdown: str) -> str:
    def picture(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in PICTURES:
            raise ValueError(f"{PAGE}: unknown picture {name!r}; expected one of "
                             f"{', '.join(PICTURES)}")
        return PICTURES[name]()

    return PLACEHOLDER.sub(picture, markdown)


def on_page_markdown(markdown: str, page, config, files) -> str:
    return fill(markdown) if page.file.src_uri in PAGES else markdown
