"""The bonus explorer (issue 21 item 6): chips named by composer, search by any part of a
name, and opening it focused on a card (for the stepper's concerts and discovery cards)."""

from __future__ import annotations

import re

import pytest
import test_browser as tb

from musici import Game, standard_cardset
from musici.analysis import bonus_for_seat
from musici.strategies import make_strategy
from musici.widgets import BonusExplorer
from musici.widgets.bonus_explorer import chip_labels, search_cards

CARDS = standard_cardset()
# test_browser.py's fixtures: the same tool checks and one module-scoped Chromium
browser_deps = tb.browser_deps
chromium = tb.browser


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
    explorer.search.value = "bach"  # several Bachs: offered as buttons, none added
    assert "cards match" in explorer.status.value and explorer.played.value == (one.id,)
    assert explorer.search.value == "bach" and explorer.bonus == before
    assert explorer.search.continuous_update is False
    offered = explorer.matches.children
    assert [b.description for b in offered] == [f"add {explorer.played.labels[c]}"
                                                for c in search_cards(CARDS, "bach")]
    offered[0].click()  # a click on one adds it
    assert explorer.played.value == (one.id, search_cards(CARDS, "bach")[0])
    assert explorer.matches.children == ()


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


# ------------------------------------------------------------------ in a real browser
# Voila serves a small notebook (marked slow: about a minute on a loaded machine): the
# decision box at a concert-card decision, at a hire with orchestras that may not be hired
# (greyed), at a venue at fame 0 and at a choice of orchestras, and the explorer.
# Screenshots go to artifacts/ (cards-decision.png, cards-anatomy.png, cards-greyed.png,
# venues-greyed.png, cards-orchestras.png, bonus-explorer.png, bonus-explorer-matches.png).
NOTEBOOK_CELLS = [
    '''import random
from musici import Game
from musici.widgets import AnswerControls, BonusExplorer


def at(seed, step):
    """The game of seed ``seed`` after ``step`` seeded random answers."""
    game = Game(4, seed=seed)
    rng = random.Random(seed)
    while game.step < step:
        game.answer(game.decision.random_answer(rng))
    return game


def box(game):
    controls = AnswerControls(lambda answer: None)
    d = game.decision
    controls.show(d, game.cards, who=f"seat {d.player}", view=game.view(d.player), game=game)
    controls.widget.add_class(f"box-{d.kind}")
    controls.widget.layout.width = "620px"  # the stepper's left column at 1280 px
    return controls.widget''',
    "box(at(3, 20))",
    "box(at(3, 33))",
    "box(at(3, 10))",
    "box(at(3, 77))",
    "BonusExplorer(discovery='D06')",
]
# the on-screen size of the smallest text of each card, in px (the piece's title left out:
# one over-long title may go below)
SMALLEST_TEXT = """el => Math.min(...[...el.querySelectorAll('svg.musici-card text')]
    .filter(t => !(t.getAttribute('class') || '').includes('piece'))
    .map(t => parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a))"""


@pytest.fixture(scope="module")
def served(browser_deps: None, tmp_path_factory: pytest.TempPathFactory):
    import nbformat

    home = tmp_path_factory.mktemp("voila-cards")
    folder = home / "notebooks"
    folder.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in NOTEBOOK_CELLS]
    nbformat.write(nb, folder / "cards.ipynb")
    with tb.serve_voila(folder, folder, home, "voila/render/") as server:
        yield server


@pytest.fixture(scope="module")
def page(served, chromium):
    from test_browser_see import open_page

    page = open_page(chromium, served, "cards.ipynb",
                     [".box-concert_card .answer-card svg", ".box-hire .answer-unavailable",
                      ".box-venue .unavailable-notes", ".box-concert_orchestras .concert-card",
                      ".bonus-explorer .played-search input"])
    page.set_viewport_size({"width": 1280, "height": 720})
    yield page
    page.context.close()


def _artifact(locator, name: str) -> None:
    """A screenshot of ``locator`` at 1280 px wide (Voila scrolls inside a container and
    paints only what the viewport holds: the viewport is made as tall as the element)."""
    from test_browser_see import shot

    page = locator.page
    box = locator.bounding_box()
    page.set_viewport_size({"width": 1280, "height": max(720, int(box["height"]) + 60)})
    locator.evaluate("e => e.scrollIntoView({block: 'start'})")
    shot(locator, name)
    page.set_viewport_size({"width": 1280, "height": 720})


@pytest.mark.slow
@pytest.mark.browser
def test_decision_box_cards_read_at_11px_and_explain_themselves(page) -> None:
    from musici.widgets.controls import CARD_WIDTH

    box = page.locator(".box-concert_card")
    cards = box.locator(".answer-card svg")
    assert cards.count() >= 3
    for i in range(cards.count()):
        width = cards.nth(i).bounding_box()["width"]
        assert abs(width - CARD_WIDTH) < 1, width
    assert box.evaluate(SMALLEST_TEXT) >= 10.95
    _artifact(box, "cards-decision.png")
    anatomy = box.locator(".card-anatomy")
    assert anatomy.count() == 0 or not anatomy.is_visible()
    box.locator(".card-anatomy-btn").click()  # one click from the cards
    anatomy.wait_for(state="visible")
    assert "singers" in anatomy.inner_text() and "income" in anatomy.inner_text()
    _artifact(box, "cards-anatomy.png")


@pytest.mark.slow
@pytest.mark.browser
def test_options_not_allowed_are_greyed_with_their_rule(page) -> None:
    from musici.ruletext import rule_texts

    box = page.locator(".box-hire")
    greyed = box.locator(".answer-unavailable")
    assert greyed.count() >= 2
    for i in range(greyed.count()):
        tile = greyed.nth(i)
        rule = tile.get_attribute("data-rule")
        assert rule in rule_texts() and rule in tile.inner_text()
        assert "not allowed" in tile.inner_text()
    # greyed tiles carry no answer button: only the offered options answer
    assert greyed.locator("button").count() == 0
    _artifact(box, "cards-greyed.png")


@pytest.mark.slow
@pytest.mark.browser
def test_venues_not_allowed_are_disabled_buttons_with_their_rule(page) -> None:
    box = page.locator(".box-venue")
    greyed = box.locator(".answer-btn-unavailable button, button.answer-btn-unavailable")
    names = sorted(b.inner_text().strip() for b in greyed.all())
    assert names == ["large-commercial", "small-commercial", "university"], names
    assert all(b.is_disabled() for b in greyed.all())
    notes = box.locator(".unavailable-notes").inner_text()
    assert "P3.TOUR.5" in notes and "P3.1" in notes and "you have 0" in notes
    _artifact(box, "venues-greyed.png")


@pytest.mark.slow
@pytest.mark.browser
def test_choosing_orchestras_beside_the_card_played(page) -> None:
    box = page.locator(".box-concert_orchestras")
    card = box.locator(".concert-card svg")
    assert card.count() == 1 and card.get_attribute("data-card") == "S30"
    assert box.evaluate(SMALLEST_TEXT) >= 10.95
    _artifact(box, "cards-orchestras.png")


@pytest.mark.slow
@pytest.mark.browser
def test_explorer_search_by_part_of_a_name_in_the_page(page) -> None:
    explorer = page.locator(".bonus-explorer")
    chips = explorer.locator(".played-select .jupyter-widget-tag:not(.jupyter-widget-taginput)")
    status = explorer.locator(".search-status")
    search = explorer.locator(".played-search input")

    def state() -> str:
        return f"chips {[c.inner_text() for c in chips.all()]}, status {status.inner_text()!r}"

    def until(ok, what: str) -> None:
        for _ in range(150):
            if ok():
                return
            page.wait_for_timeout(200)
        pytest.fail(f"{what} not seen within 30 s: {state()}")

    search.fill("glu")  # one card: Enter adds it
    search.press("Enter")
    until(lambda: chips.count() == 1, "a chip for 'glu'")
    until(lambda: "added" in status.inner_text(), "'added'")
    search.fill("vival")  # two Vivaldi cards: offered as buttons
    search.press("Enter")
    until(lambda: "2 cards match" in status.inner_text(), "'2 cards match'")
    offered = explorer.locator(".search-matches .search-match")
    assert [b.inner_text() for b in offered.all()] and all(
        "Vivaldi" in b.inner_text() for b in offered.all())
    _artifact(explorer, "bonus-explorer-matches.png")
    offered.first.click()
    until(lambda: chips.count() == 2, "a chip for the Vivaldi clicked")
    texts = [c.inner_text().strip() for c in chips.all()]
    assert "Gluck" in texts[0] and "Vivaldi" in texts[1], texts
    # the table follows (the graph's in-place update is test_browser_see's to check)
    table = explorer.locator(".bonus-table")
    until(lambda: "S03" in table.inner_text(), "Vivaldi's S03 in the breakdown table")
    assert not [t for t in texts if re.search(r"\b[SD]\d\d\b", t)], texts
    search.fill("nobody")
    search.press("Enter")
    until(lambda: "no card matches" in status.inner_text(), "'no card matches'")
    search.fill("purc")  # typed, not sent: the screenshot shows a learner's next search
    _artifact(explorer, "bonus-explorer.png")


def test_from_a_concert_event_of_the_game() -> None:
    game = Game(4, 0).play([make_strategy(s) for s in
                            ("collector", "collector", "impresario", "random")])
    concert = next(e for e in game.events if e.kind == "concert" and e.data["card"] == "D11")
    explorer = BonusExplorer.from_event(game, concert)
    assert explorer.focused == "D11" and explorer.discovery.value == "D11"
    assert explorer.seat.value == concert.player
    assert explorer.bonus == concert.data["restoration"]["bonus"]
    with pytest.raises(ValueError, match="names no score or discovery card"):
        BonusExplorer.from_event(game, next(e for e in game.events if e.kind == "venue"))
