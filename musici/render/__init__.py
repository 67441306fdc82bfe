"""Cards and the board drawn as SVG (standard library only, like ``chess.svg``).

Pure functions that return SVG strings (:class:`Svg`, which a notebook displays); card
records display themselves the same way (``_repr_svg_``).

Example::

    from musici import Game, standard_cardset
    from musici.render import board_svg, card_svg, hand_svg
    cards = standard_cardset()
    card_svg(cards.music["S01"])          # a score card
    game = Game(4, seed=1)
    board_svg(game)                       # the teacher's view: everything
    board_svg(game.view(2))               # what seat 2 may see: other hands as backs
"""

from musici.render.board import board_svg, hand_svg
from musici.render.cards import (
    card_back_svg,
    card_svg,
    orchestra_svg,
    special_effect,
    special_svg,
)
from musici.render.svg import Svg

__all__ = [
    "Svg", "board_svg", "card_back_svg", "card_svg", "hand_svg", "orchestra_svg",
    "special_effect", "special_svg",
]
