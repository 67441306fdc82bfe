"""The guided first month (issue 21 item 1) and the board that fits (item 4), Python side.

The browser side is tests/test_browser_tutorial.py and tests/test_browser_fit.py.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from musici.analysis.hints import fame_text
from musici.engine import Game, GameError
from musici.render import board_svg
from musici.render.board import _mixed
from musici.ruletext import rule_text
from musici.strategies.registry import make_strategy
from musici.widgets import GameStepper
from musici.widgets.tutorial import NARROWED, TUTORIAL_SEED

_RULE = re.compile(r"data-rule='([^']+)'")


def pick_button(stepper: GameStepper):
    """The one highlighted control (class ``tutorial-pick``) of the shown decision."""
    c = stepper.controls
    buttons = [*c.inputs, *([c.submit_button] if c.submit_button is not None else [])]
    picked = [b for b in buttons if "tutorial-pick" in getattr(b, "_dom_classes", ())]
    assert len(picked) == 1, [getattr(b, "description", b) for b in buttons]
    return picked[0]


def follow_month(stepper: GameStepper) -> tuple[list[str], list[tuple]]:
    """Click only the highlighted control until the guide says the month is over. Returns
    every tutorial panel shown and (decision, offered options) of each decision."""
    panels, asked = [], []
    for _ in range(60):
        panels.append(stepper.tutorial_view.value)
        guide = stepper._guide
        assert guide is not None
        if guide.done:
            return panels, asked
        d = stepper.game.decision
        assert d is not None and d.player == 0
        asked.append((d, tuple(stepper.controls.options) or None))
        pick_button(stepper).click()
    pytest.fail("the guided month never ended")


@pytest.fixture(scope="module")
def guided() -> tuple[GameStepper, list[str], list[tuple]]:
    stepper = GameStepper(tutorial=True)
    panels, asked = follow_month(stepper)
    return stepper, panels, asked


def test_the_guided_month_opens_at_seat_0s_decision_with_what_the_game_is() -> None:
    stepper = GameStepper(tutorial=True)
    assert stepper.game.seed == TUTORIAL_SEED
    d = stepper.game.decision
    assert d is not None and d.player == 0
    panel = stepper.tutorial_view.value
    assert "tutorial-intro" in panel and rule_text("GOAL.2") in panel.replace("&#x27;", "'")
    assert f"data-rule='{d.rule}'" in panel  # the decision's rule is introduced in words
    assert not stepper.buttons["hint"].disabled
    assert "zone-highlight" in stepper.board.value and "data-zone=\"auction\"" in stepper.board.value
    # a close-up of that part in the guide itself (the board tab may be out of sight)
    zoom = panel[panel.index("tutorial-zoom"):]
    assert 'class="zone-highlight" data-zone="auction"' in zoom
    assert 'viewBox="0 0' not in zoom[:zoom.index(">", zoom.index("<svg"))]  # cropped


def test_a_stepper_with_a_human_seat_opens_at_its_first_decision() -> None:
    # Seed 0: seat 1 is not the first to decide, so this fails if the stepper opens at step 0.
    assert Game(4, 0).decision.player != 1
    stepper = GameStepper(players=("greedy", "human", "greedy", "random"), seed=0)
    d = stepper.game.decision
    assert d is not None and d.player == 1 and stepper.game.step > 0
    assert not stepper.buttons["hint"].disabled
    assert stepper.controls.widget.layout.display != "none"
    assert stepper.tutorial_view.value == ""  # no guide outside the tutorial
    bots = GameStepper(players=("greedy", "greedy", "greedy", "random"), seed=0)
    assert bots.game.step == 0  # a game of bots waits for "next"
    # without a seed: seed 0 (the tutorial's own seed only with tutorial=True)
    assert GameStepper(players=("greedy",) * 4).game.seed == 0


def test_following_the_highlights_introduces_every_rule_of_month_1(guided) -> None:
    stepper, panels, asked = guided
    game = stepper.game
    assert game.month == 2 and "tutorial-done" in panels[-1]
    introduced = [r for panel in panels for r in _RULE.findall(panel)]
    assert len(introduced) == len(set(introduced)), "a rule introduced twice"
    fired = {e.rule for e in game.events if e.month == 1 and e.visible_to(0)}
    fired |= {d.rule for d, _ in asked}
    assert fired and fired <= set(introduced), sorted(fired - set(introduced))
    text = " ".join(panels).replace("&#x27;", "'").replace("&quot;", '"').replace("&amp;", "&")
    for rule in fired:  # each in the rules' own words
        assert rule_text(rule)[:60] in text, rule
    kinds = [d.kind for d, _ in asked]
    assert {"auction", "media_bid", "venue", "action", "hire", "concert_card",
            "concert_orchestras"} <= set(kinds)
    assert any(e.kind == "concert" and e.player == 0 and e.month == 1 for e in game.events)


def test_narrowing_offers_only_legal_options(guided) -> None:
    _stepper, _panels, asked = guided
    narrowed = [(d, shown) for d, shown in asked if shown is not None
                and len(shown) < len(d.options)]
    assert len(narrowed) == NARROWED
    for d, shown in narrowed:
        assert len(shown) == 2 and set(shown) <= set(d.options)
    later = [(d, shown) for d, shown in asked[asked.index(narrowed[-1]) + 1:]
             if d.space == "choice"]
    assert later and all(shown == d.options for d, shown in later)


def test_after_the_month_the_same_stepper_plays_freely(guided) -> None:
    stepper, _panels, _asked = guided
    d = stepper.game.decision
    stepper.answer(make_strategy("greedy")(stepper.game.view(0), d))
    assert stepper._guide is None and stepper.tutorial_view.value == ""
    c = stepper.controls
    buttons = [*c.inputs, *([c.submit_button] if c.submit_button is not None else [])]
    assert not any("tutorial-pick" in getattr(b, "_dom_classes", ()) for b in buttons)
    assert "zone-highlight" not in stepper.board.value


def test_stepping_back_shows_the_same_guidance() -> None:
    stepper = GameStepper(tutorial=True)
    for _ in range(4):
        pick_button(stepper).click()
    pos, panel = stepper.history.pos, stepper.tutorial_view.value
    stepper.go(0)
    assert "tutorial-intro" in stepper.tutorial_view.value
    stepper.go(pos)
    assert stepper.tutorial_view.value == panel


def test_the_tutorial_teaches_seat_0_only() -> None:
    with pytest.raises(GameError, match="seat 0"):
        GameStepper(players=("greedy", "human", "greedy", "random"), tutorial=True)


# ------------------------------------------------------------------------- the board
def test_the_board_scales_to_its_container_and_outlines_zones() -> None:
    svg = str(board_svg(Game(4, 1), width="100%", highlight=["halls", "seat-2"]))
    head = svg[:svg.index(">")]
    assert 'width="100%"' in head and "height=" not in head and "viewBox=" in head
    assert re.findall(r'class="zone-highlight" data-zone="([^"]+)"', svg) == ["halls", "seat-2"]
    with pytest.raises(ValueError, match="no board zone"):
        board_svg(Game(4, 1), highlight=["stage"])
    close = str(board_svg(Game(4, 1), crop="halls"))
    x, y, w, h = (float(v) for v in re.search(r'viewBox="([^"]+)"', close)[1].split())
    assert (x, y) != (0, 0) and w < 700 and h < 150  # only the halls
    assert 'data-zone="halls"' in close and 'data-zone="seat-0"' not in close
    assert len(close) < len(str(board_svg(Game(4, 1)))) / 3
    with pytest.raises(ValueError, match="no board zone"):
        board_svg(Game(4, 1), crop="stage")


def test_the_board_at_game_over_shows_the_final_fame() -> None:
    game = Game(4, 5)
    bots = [make_strategy("greedy") for _ in range(4)]
    while game.decision is not None:
        d = game.decision
        game.answer(bots[d.player](game.view(d.player), d))
    fames = game.results["fame"]
    assert [Fraction(p.fame) for p in game.players] != fames  # the END awards moved fame
    shown = re.findall(r'class="seat-numbers">final fame ([^ ]+) ·', str(board_svg(game.view(2))))
    assert shown == [fame_text(f) for f in fames]


def test_a_chart_shown_after_stepping_starts_from_the_game_shown() -> None:
    # The stepper opens at the human decision (bots played before the page shows it) and a
    # notebook may advance a stepper before displaying it: the state a page starts from
    # must be the game shown, END stars included, not the chart as first built.
    stepper = GameStepper(players=("greedy", "greedy", "greedy", "random"), seed=5)
    stepper.advance("end")
    data = stepper.fame.widget._widget_data
    final = next(t for t in data if t["name"] == "final (END)")
    assert final["y"] == [float(Fraction(f)) for f in stepper.game.results["fame"]]
    assert [t["y"] for t in data[:4]] == [list(t.y) for t in stepper.fame.widget.data[:4]]


@pytest.mark.parametrize("value", [Fraction(n, d) for n in (-7, -1, 0, 1, 5, 69, 70)
                                   for d in (1, 2, 3, 4, 5, 6)])
def test_the_boards_mixed_numbers_agree_with_fame_text(value: Fraction) -> None:
    assert _mixed(value) == fame_text(value)
