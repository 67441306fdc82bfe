"""From the stepper's concert or discovery to the bonus explorer (issue 21 item 6)."""

from __future__ import annotations

from musici.widgets import GameStepper


def test_a_concert_in_the_why_tab_opens_the_bonus_explorer_on_its_card() -> None:
    stepper = GameStepper(players=("greedy", "greedy", "greedy", "greedy"), seed=3)
    stepper.advance("month")
    game = stepper.game
    concerts = [i for _, i in stepper.why_select.options if game.events[i].kind == "concert"]
    assert concerts, "a month of greedy bots gives a concert"
    stepper.why_select.value = concerts[0]
    assert stepper.bonus_button.layout.display != "none"
    explorer = stepper.explore_bonus()
    event = game.events[concerts[0]]
    assert explorer is not None and explorer.focused == event.data["card"]
    assert stepper.bonus_box.children == (explorer.widget,)
    # Another kind of event: no link, and the open explorer is closed.
    other = next(i for _, i in stepper.why_select.options
                 if game.events[i].kind not in ("concert", "drew"))
    stepper.why_select.value = other
    assert stepper.bonus_button.layout.display == "none" and stepper.bonus_box.children == ()
