"""The bonus explorer (issue 21 item 6): chips named by composer, search by any part of a
name, and opening it focused on a card (for the stepper's concerts and discovery cards)."""

from __future__ import annotations

import re

import pytest

from musici import Game, standard_cardset
from musici.analysis import bonus_for_seat
from musici.strategies import make_strategy
from musici.widgets import BonusExplorer
from musici.widgets.bonus_explorer import chip_labels, search_cards

CARDS = standard_cardset()


def test_chips_show_composers_not_card_ids() -> None:
    explorer = BonusExplorer(discovery="D06", played=("S02", "S30"))
    chips = list(explorer.played.chips.value)
    assert explorer.played.value == ("S02", "S30")  # the ids stay the model
    for cid, chip in zip(("S02", "S30"), chips, strict=True):
        composer = CARDS.composers[CARDS.music[cid].composer].name
        assert chip.startswith(composer) and not re.search(r"\b[SD]\d\d\b", chip), chip
    labels = chip_labels(CARDS)
    assert len(set(labels.values())) == len(CARDS.music)  # every chip names one card


def test_search_finds_any_part_of_a_name_in_any_case() -> None:
    vivaldi = [c.id for c in CARDS.music.values()
               if CARDS.composers[c.composer].name.endswith("Vivaldi")]
    assert vivaldi and search_cards(CARDS, "vival") == vivaldi
    assert search_cards(CARDS, "  VIVALDI ") == vivaldi
    assert search_cards(CARDS, "s03") == ["S03"]  # an id, exactly
    assert search_cards(CARDS, "zzz") == [] and search_cards(CARDS, "") == []


def test_enter_with_one_match_adds_it_and_otherwise_says_why() -> None:
    explorer = BonusExplorer(discovery="D06")
    one = next(c for c in CARDS.scores
               if len(search_cards(CARDS, CARDS.composers[c.composer].name)) == 1)
    part = CARDS.composers[one.composer].name.split()[-1][:5].lower()
    assert search_cards(CARDS, part) == [one.id], part
    explorer.search.value = part  # what Enter sends (continuous_update is off)
    assert explorer.played.value == (one.id,)
    assert explorer.search.value == "" and "added" in explorer.status.value
    before = explorer.bonus
    explorer.search.value = "no such composer"
    assert "no card matches" in explorer.status.value and explorer.played.value == (one.id,)
    explorer.search.value = "bach"  # several Bachs: listed, none added
    assert "cards match" in explorer.status.value and explorer.played.value == (one.id,)
    assert explorer.search.value == "bach" and explorer.bonus == before
    assert explorer.search.continuous_update is False


def test_focus_on_a_discovery_card_as_a_seat_restores_it() -> None:
    game = Game(4, 0).play([make_strategy(s) for s in
                            ("collector", "collector", "impresario", "random")])
    explorer = BonusExplorer(game=game, focus="D11", seat=2)
    assert explorer.discovery.value == "D11" and explorer.focused == "D11"
    assert explorer.seat.value == 2
    assert explorer.bonus == bonus_for_seat(game, 2, "D11")[1]
    assert "focused on" in explorer.status.value


def test_focus_on_a_score_card_picks_a_discovery_it_adds_to() -> None:
    explorer = BonusExplorer()
    explorer.focus("S03")
    assert "S03" in explorer.played.value
    assert explorer._adds("S03", explorer.discovery.value) > 0
    assert explorer.bonus > 0


def test_focus_refuses_what_it_cannot_show() -> None:
    with pytest.raises(ValueError, match="no music card 'O01'"):
        BonusExplorer(focus="O01")
    with pytest.raises(ValueError, match="a seat needs a game"):
        BonusExplorer(focus="D11", seat=1)
