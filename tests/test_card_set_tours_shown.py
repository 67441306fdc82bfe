"""The board, the venue preview and the concert explanation show a card set's own tour terms
(P3.TOUR), as the engine charges and scores them, not the rules' defaults."""

from __future__ import annotations

import json

from musici import Game
from musici.cards import cardset_from_data, standard_cardset_data
from musici.render.board import board_svg


def custom_tours():
    data = standard_cardset_data()
    data["tours"] = {"large-commercial": {"money": 120, "fame": 3},
                     "large-academic": {"fame_multiplier": 1.75}}
    return cardset_from_data(json.loads(json.dumps(data)))


def test_the_board_prints_the_card_sets_tour_terms() -> None:
    svg = str(board_svg(Game(players=4, seed=1, cards=custom_tours())))
    assert "costs 120 G and 3 fame" in svg
    assert "×7/4" in svg or "×1.75" in svg


def test_the_concert_explanation_multiplies_by_the_card_sets_terms() -> None:
    from musici.analysis.explain import _explain_tour

    cards = custom_tours()
    card = next(c for c in cards.music.values() if c.kind == "score")
    from musici.events import Concert
    concert = Concert(1, "P4", "P4.CONCERT.4", 0, card.id, "score", "authentic", (), (), (0, 0),
                      (0, 0), 0, False, "large-academic", "good", "good", (), 4, None, 7, 0)
    lines = _explain_tour(concert, card, 4, {"RULING-ROUNDING": "toward-zero"}, cards)
    assert "×1.75 = 7" in lines[0].text
