"""musici.widgets, kernel side (no browser): buttons are clicked with ``button.click()``,
widget values are set directly, and assertions read widget state and the shown game."""

from __future__ import annotations

import subprocess
import sys
from html import escape, unescape

import pytest

from musici import Game, IllegalAnswer, standard_cardset
from musici import rating as R
from musici.strategies import greedy_strategy
from musici.widgets import BonusExplorer, GameStepper
from musici.widgets.stepper import TEACHER

BOTS = ("greedy", "greedy", "greedy", "random")
CARDS = standard_cardset()


def state(game: Game) -> tuple:
    return ([e.to_dict() for e in game.events], list(game.answers),
            [(p.fame, p.money, tuple(p.hand), tuple(p.played)) for p in game.players],
            game.month, game.phase, game.decision)


def replay(seed: int, answers: list) -> Game:
    game = Game(4, seed)
    for a in answers:
        game.answer(a)
    return game


def drive_human(stepper: GameStepper, until, limit: int = 2000) -> None:
    """Answer the human seat with the greedy bot (through ``stepper.answer``) until
    ``until(decision)`` holds for the pending human decision."""
    for _ in range(limit):
        d = stepper.game.decision
        assert d is not None, "the game ended before the wanted decision"
        if stepper.humans[d.player]:
            if until(d):
                return
            stepper.answer(greedy_strategy(stepper.game.view(d.player), d))
        else:
            stepper.advance("end")
    pytest.fail("never reached the wanted human decision")


@pytest.fixture(scope="module")
def finished() -> GameStepper:
    stepper = GameStepper(players=BOTS, seed=5)
    stepper.buttons["end"].click()
    return stepper


# ---------------------------------------------------------------------------- stepping
def test_next_phase_changes_timeline_and_fame_chart() -> None:
    stepper = GameStepper(players=BOTS, seed=2)
    assert "Month 1 · P1 auction" in stepper.timeline.value
    chart = stepper.fame.widget
    before = [tuple(chart.data[s].x) for s in range(4)]
    widget_id = id(chart)
    stepper.buttons["phase"].click()
    assert stepper.game.phase == "P2"
    assert "Month 1 · P2 media" in stepper.timeline.value
    after = [tuple(chart.data[s].x) for s in range(4)]
    assert after != before and len(after[0]) > len(before[0])
    for _ in range(6):  # on to month 2: money and fame lines move
        stepper.buttons["phase"].click()
    assert stepper.game.month == 2
    assert "Month 2 · P" in stepper.timeline.value
    assert id(stepper.fame.widget) == widget_id  # updated in place, not rebuilt
    fames = [p.fame for p in stepper.game.players]
    # each seat's line is drawn at its true fame (issue 21: no offset per seat)
    assert [chart.data[s].y[-1] for s in range(4)] == fames


def test_next_month_and_end(finished: GameStepper) -> None:
    game = finished.game
    assert game.finished and "Final scoring" in finished.timeline.value
    assert all(finished.buttons[b].disabled for b in ("decision", "phase", "month", "end"))
    assert len(finished.fame.widget.data[finished.fame._final].y) == 4
    assert finished.slider.max == game.step == finished.history.last


def test_time_travel_reproduces_identical_states() -> None:
    stepper = GameStepper(players=BOTS, seed=5)
    stepper.buttons["end"].click()
    final = state(stepper.game)
    answers = list(stepper.game.answers)
    last = stepper.history.last
    for k in (0, 37, 150, last - 1):
        stepper.slider.value = k
        assert stepper.game.step == k
        assert state(stepper.game) == state(replay(5, answers[:k]))  # replay agrees
        assert f"step {k}" in stepper.timeline.value
    stepper.slider.value = 120
    stepper.buttons["back"].click()
    assert stepper.game.step == 119
    stepper.buttons["decision"].click()
    assert stepper.game.step == 120
    assert state(stepper.game) == state(replay(5, answers[:120]))
    stepper.buttons["end"].click()  # forward along the recorded answers
    assert stepper.game.step == last and state(stepper.game) == final
    assert stepper.history.last == last  # nothing was re-played or dropped


def test_restart_with_a_seed() -> None:
    stepper = GameStepper(players=BOTS, seed=1)
    stepper.buttons["month"].click()
    stepper.seed_input.value = 9
    stepper.buttons["restart"].click()
    assert stepper.game.seed == 9 and stepper.game.step == 0 and stepper.slider.max == 0
    assert "Month 1 · P1 auction" in stepper.timeline.value


# ---------------------------------------------------------------------------- play along
def test_human_decision_appears_as_controls_and_answering_advances() -> None:
    stepper = GameStepper(seed=1)  # seat 0 is "human"
    d = stepper.game.decision
    assert d.player == 0 and d.space == "choice"
    assert stepper.controls.widget.layout.display != "none"
    buttons = stepper.controls.inputs
    assert stepper.controls.options == list(d.options)
    assert all(b.tooltip for b in buttons)  # what each option costs and does, on hover
    assert all("answer-btn" in b._dom_classes for b in buttons)
    assert d.rule in stepper.controls.prompt.value and d.kind in stepper.controls.prompt.value.lower()
    assert all(stepper.buttons[b].disabled for b in ("decision", "phase", "month", "end"))
    buttons[0].click()
    game = stepper.game
    assert game.answers[0] == d.options[0]
    assert game.step >= 1
    # the bots played on until seat 0 must decide again
    assert game.decision is not None and game.decision.player == 0
    assert stepper.controls.decision is game.decision


def test_illegal_amount_shows_error_and_leaves_game_unchanged() -> None:
    stepper = GameStepper(seed=3)
    drive_human(stepper, lambda d: d.space == "amount" and d.step > 1)
    d = stepper.game.decision
    before, last = state(stepper.game), stepper.history.last
    box = stepper.controls.inputs[0]
    assert "amount-input" in box._dom_classes and f"{d.lo}–{d.hi} G" in box.description
    box.value = d.lo + 1  # not a multiple of the step
    stepper.controls.submit_button.click()
    assert "illegal" in stepper.controls.error.value
    assert state(stepper.game) == before and stepper.history.last == last
    assert stepper.controls.submit(d.hi + d.step) is False  # out of range, straight to submit
    assert state(stepper.game) == before
    step = stepper.game.step
    box.value = d.lo + d.step
    stepper.controls.submit_button.click()
    assert stepper.game.step > step
    assert stepper.history.snaps[step + 1].answers[-1] == d.lo + d.step


def test_subset_decision_through_checkboxes() -> None:
    stepper = GameStepper(seed=4)
    drive_human(stepper, lambda d: d.space == "subset"
                and all((d.limits[i] if d.limits else 1) == 1 for i in range(len(d.items))))
    d = stepper.game.decision
    step = stepper.game.step
    boxes = stepper.controls.inputs
    assert len(boxes) == len(d.items)
    assert all("subset-box" in b._dom_classes for b in boxes)
    if d.min_size > 0:  # nothing ticked: illegal, nothing changes
        stepper.controls.submit_button.click()
        assert "illegal" in stepper.controls.error.value and stepper.game.step == step
    wanted = greedy_strategy(stepper.game.view(d.player), d)
    for item, box in zip(d.items, boxes, strict=True):
        box.value = item in wanted
    assert stepper.controls.subset_value() == d.normalize(wanted)
    stepper.controls.submit_button.click()
    assert stepper.history.snaps[step + 1].answers[-1] == d.normalize(wanted)
    assert stepper.game.step > step


def test_past_human_answer_branches_or_keeps_future() -> None:
    stepper = GameStepper(seed=1)
    drive_human(stepper, lambda d: True)  # step 0: seat 0's auction
    stepper.answer(stepper.game.decision.options[0])
    drive_human(stepper, lambda d: stepper.game.month == 2)
    last = stepper.history.last
    stepper.slider.value = 0
    d = stepper.game.decision
    recorded = stepper.history.recorded_answer()
    assert "recorded answer" in stepper.controls.prompt.value
    stepper.controls.submit(recorded)  # the same answer: the future is kept
    assert stepper.history.last == last
    # bots replay the record up to seat 0's next (recorded) decision, and stop there
    assert 0 < stepper.history.pos < last and stepper.game.decision.player == 0
    assert stepper.game.answers == stepper.history.snaps[last].answers[:stepper.history.pos]
    stepper.slider.value = 0
    other = next(o for o in d.options if o != recorded)
    assert stepper.controls.submit(other)
    # a different answer asks first: nothing is dropped until the teacher says yes
    assert stepper.history.last == last and stepper.history.pos == 0
    assert stepper.confirm.layout.display != "none"
    assert f"with its {last} later recorded step(s), is kept" in stepper.confirm_text.value
    stepper.confirm_branch()
    assert stepper.confirm.layout.display == "none"
    assert stepper.history.snaps[1].answers == [other]
    assert "branch" in stepper.status.value
    assert all(g.answers[:1] == [other] for g in stepper.history.snaps[1:])


# ---------------------------------------------------------------------------- views
def test_teacher_toggle_hides_other_hands() -> None:
    stepper = GameStepper(players=BOTS, seed=0)
    game = stepper.game
    public = set(game.score_market) | set(game.orchestra_market)
    secret = next(c for c in game.players[1].hand
                  if c not in public and all(c not in p.hand for p in game.players if p.seat != 1))
    tag = f"[{secret}]"
    stepper.tabs.selected_index = 1  # the table tab (only the shown tab is drawn)
    assert tag in stepper.table.value  # teacher view: all hands
    stepper.view_toggle.value = 2
    assert stepper.seat == 2
    assert tag not in stepper.table.value and tag not in stepper.events.value
    assert f"[{game.players[2].hand[0]}]" in stepper.table.value  # its own hand is shown
    stepper.view_toggle.value = 1
    assert tag in stepper.table.value
    stepper.view_toggle.value = TEACHER
    assert stepper.seat is None and tag in stepper.table.value and tag in stepper.events.value


def test_why_panel_explains_a_concert_with_rate_ids() -> None:
    stepper = GameStepper(players=BOTS, seed=6)
    for _ in range(600):
        concerts = [i for _, i in stepper.why_select.options
                    if stepper.game.events[i].kind == "concert"]
        if concerts:
            break
        stepper.buttons["decision"].click()
    else:
        pytest.fail("no concert in the game")
    stepper.why_select.value = concerts[0]
    assert "RATE" in stepper.why_view.value
    assert "concert" in stepper.why_select.label.lower() or "played" in stepper.why_select.label
    payments = [i for _, i in stepper.why_select.options if stepper.game.events[i].kind == "pay"]
    if payments:
        stepper.why_select.value = payments[0]
        assert stepper.game.events[payments[0]].rule in stepper.why_view.value


def test_events_view_names_rules() -> None:
    stepper = GameStepper(players=BOTS, seed=2)
    stepper.buttons["decision"].click()
    events = stepper.history.step_events()
    assert events and all(e.rule in stepper.events.value for e in events)


# ---------------------------------------------------------------------------- bonus explorer
def test_bonus_explorer_total_is_the_engines() -> None:
    explorer = BonusExplorer()
    explorer.discovery.value = "D06"
    explorer.played.value = ("S02", "S30", "S05")
    expected = R.restoration(CARDS, CARDS.music["D06"], ["S02", "S30", "S05"]).bonus(good=True)
    assert expected > 0
    assert explorer.bonus == expected
    assert f"restoration bonus +{expected}" in explorer.table.value
    assert explorer.figure.layout.meta["bonus"] == expected
    explorer.good.value = False
    assert explorer.bonus == 0 and "restoration bonus +0" in explorer.table.value
    assert "bonus-graph" in explorer.figure._dom_classes
    traces = len(explorer.figure.data)
    explorer.discovery.value = "D01"
    assert len(explorer.figure.data) == traces  # updated in place


def test_bonus_explorer_fills_played_cards_from_a_seat(finished: GameStepper) -> None:
    game = finished.game
    explorer = BonusExplorer(game=game)
    seat = max(range(4), key=lambda s: len(game.players[s].played))
    explorer.seat.value = seat
    disc = explorer.discovery.value
    played = list(game.players[seat].played)
    if disc in played:
        played = played[:played.index(disc)]
    assert list(explorer.played.value) == played
    from musici.analysis import bonus_for_seat

    assert explorer.bonus == bonus_for_seat(game, seat, disc)[1]


# ---------------------------------------------------------------------------- layering
def test_engine_and_analysis_do_not_import_widgets() -> None:
    code = ("import sys, musici, musici.engine, musici.analysis, musici.sim, musici.strategies\n"
            "from musici import Game\n"
            "from musici.analysis import fame_figure\n"
            "fame_figure(Game(4, seed=1))\n"
            "bad = [m for m in ('ipywidgets', 'musici.widgets', 'IPython', 'anywidget') "
            "if m in sys.modules]\n"
            "print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_engine_renders_html_without_the_analysis_layer() -> None:
    code = ("import sys\n"
            "from musici import Game\n"
            "game = Game(4, seed=1)\n"
            "assert '<table' in game._repr_html_() and '<table' in game.view(0)._repr_html_()\n"
            "assert '<table' in game.cards._repr_html_()\n"
            "bad = [m for m in ('pandas', 'plotly', 'musici.analysis', 'musici.sim', 'ipywidgets') "
            "if m in sys.modules]\n"
            "print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_widgets_have_css_classes_and_display() -> None:
    stepper = GameStepper(players=BOTS, seed=0)
    classes = {c for w in _walk(stepper.widget) for c in w._dom_classes}
    for css in ("step-btn", "phase-btn", "month-btn", "end-btn", "back-btn", "restart-btn",
                "time-slider", "phase-timeline", "table-view", "teacher-toggle", "events-view",
                "why-select", "why-view", "fame-chart", "human-controls"):
        assert css in classes, css
    bundle = stepper._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    with pytest.raises(IllegalAnswer):
        GameStepper(seed=0).answer("no such answer")


def _walk(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _walk(child)


# ---------------------------------------------------------------------------- review fixes
def _live_widgets() -> int:
    from ipywidgets.widgets.widget import _instances

    return len(_instances)


def _legal(stepper: GameStepper):
    d = stepper.game.decision
    return greedy_strategy(stepper.game.view(d.player), d)


def test_a_stale_button_does_not_answer_the_next_decision() -> None:
    stepper = GameStepper(players=("human", "greedy", "greedy", "random"), seed=3)
    drive_human(stepper, lambda d: d.kind == "action" and "pass" in d.options)
    [old] = [b for b, o in zip(stepper.controls.inputs, stepper.controls.options, strict=True)
             if o == "pass"]
    old.click()
    d = stepper.game.decision
    assert d.kind == "action" and d.player == 0  # the next round's action
    before, last = state(stepper.game), stepper.history.last
    old.click()  # a double click: the old button must not answer this round too
    assert state(stepper.game) == before and stepper.history.last == last
    assert "ignored" in stepper.controls.note.value
    assert old.comm is None  # the old decision's widgets were closed


def test_live_widgets_stay_bounded_over_a_game() -> None:
    stepper = GameStepper(players=("human", "greedy", "greedy", "random"), seed=3)
    counts = []
    for _ in range(40):
        stepper.advance("end")
        if stepper.game.decision is None:
            break
        stepper.answer(_legal(stepper))
        counts.append(_live_widgets())
    assert len(counts) >= 30
    assert max(counts) - counts[4] < 40, counts  # was about 30 more per answer


def test_an_out_of_range_amount_is_refused_not_clamped() -> None:
    stepper = GameStepper(seed=3)
    drive_human(stepper, lambda d: d.space == "amount")
    d = stepper.game.decision
    before, last = state(stepper.game), stepper.history.last
    box = stepper.controls.inputs[0]
    box.value = d.hi + 1000
    assert box.value == d.hi + 1000  # not clamped by the box
    stepper.controls.submit_button.click()
    assert "illegal" in stepper.controls.error.value
    assert state(stepper.game) == before and stepper.history.last == last


def test_stepper_opens_in_the_first_human_seats_view() -> None:
    stepper = GameStepper(players=("greedy", "human", "greedy", "random"), seed=0)
    assert stepper.seat == 1 and stepper.view_toggle.value == 1
    game = stepper.game
    secret = next(c for c in game.players[2].hand if c not in game.players[1].hand
                  and c not in game.score_market)
    assert f"[{secret}]" not in stepper.table.value
    assert GameStepper(players=BOTS, seed=0).seat is None  # no human: the teacher view
    assert GameStepper(seed=0, seat=None).seat is None  # the teacher view, asked for
    assert GameStepper(seed=0, seat=2).seat == 2
    with pytest.raises(Exception, match="no seat"):
        GameStepper(seed=0, seat=7)


def test_controls_show_only_in_the_teacher_or_the_deciding_seats_view() -> None:
    stepper = GameStepper(seed=1)  # seat 0 is human and decides first
    assert stepper.game.decision.player == 0
    assert stepper.controls.widget.layout.display != "none" and stepper.waiting.value == ""
    stepper.view_toggle.value = 1
    assert stepper.controls.widget.layout.display == "none" and not stepper.controls.inputs
    assert "seat 0 (human) must decide — switch the view to seat 0" in stepper.waiting.value
    stepper.view_toggle.value = TEACHER
    assert stepper.controls.widget.layout.display != "none" and stepper.waiting.value == ""
    stepper.view_toggle.value = 0
    assert stepper.controls.widget.layout.display != "none"


def test_answering_at_a_past_step_plays_on_to_the_next_human_decision() -> None:
    stepper = GameStepper(players=("human", "greedy", "greedy", "random"), seed=3)
    stepper.advance("end")
    first = stepper.game.step
    d = stepper.game.decision
    stepper.answer(d.options[0])
    while stepper.game.month < 3:  # an old "month" press is the last goal set
        stepper.advance("month")
        if stepper.game.decision is not None and stepper.humans[stepper.game.decision.player]:
            stepper.answer(_legal(stepper))
    stepper.go(first)
    stepper.answer(d.options[1])  # a new branch
    now = stepper.game.decision
    assert now is None or now.player == 0, (stepper.game.step - first, now)


def test_a_step_through_p5_shows_the_settlement() -> None:
    stepper = GameStepper(players=BOTS, seed=2)
    for _ in range(12):
        stepper.advance("phase")
        events = stepper.history.step_events()
        if any(e.phase == "P5" for e in events) and stepper.game.phase != "P5":
            break
    else:
        pytest.fail("no step crossed a P5 settlement")
    month = next(e.month for e in events if e.phase == "P5")
    assert f"month {month}: P5 settled" in stepper.timeline.value
    assert f"Month {month} · P5 settlement" in stepper.events.value


def button_card(stepper: GameStepper, i: int) -> str:
    """The HTML of the card drawn above the ``i``-th answer button."""
    row = stepper.controls.widget.children[2]  # prompt, help, then the cards' row
    return row.children[i].children[0].value


def test_choice_buttons_show_card_names_and_keep_the_ids() -> None:
    from types import SimpleNamespace


    stepper = GameStepper(seed=3)
    drive_human(stepper, lambda d: d.space == "choice" and len(d.options) <= 8
                and any(isinstance(o, str) and o in CARDS.orchestras for o in d.options))
    d = stepper.game.decision
    buttons = stepper.controls.inputs
    assert stepper.controls.options == list(d.options)
    for option, button in zip(d.options, buttons, strict=True):
        if option in CARDS.orchestras:  # drawn as a card above a button: "hire O05"
            assert button.description == f"hire {option}"
            picture = button_card(stepper, d.options.index(option))
            assert "<svg" in picture and CARDS.orchestras[option].name in unescape(picture)
    i = next(i for i, o in enumerate(d.options) if o in CARDS.orchestras)
    step = stepper.game.step
    buttons[i].click()
    assert stepper.history.snaps[step + 1].answers[-1] == d.options[i]
    from musici.widgets.controls import option_label

    assert option_label(CARDS, SimpleNamespace(kind="buy"), "player:2") == "buy from seat 2"


def test_bonus_explorer_agrees_with_the_engine_for_a_played_card() -> None:
    from musici.analysis import bonus_for_seat
    from musici.strategies import make_strategy

    game = Game(4, 0).play([make_strategy(s) for s in
                            ("collector", "collector", "impresario", "random")])
    concert = next(e for e in game.events if e.kind == "concert" and e.player == 2
                   and e.data["card"] == "D11")
    explorer = BonusExplorer(game=game, discovery="D11")
    explorer.seat.value = 2
    assert explorer.bonus == concert.data["restoration"]["bonus"] == 0
    assert explorer.bonus == bonus_for_seat(game, 2, "D11")[1]
    assert explorer.good.value is (concert.data["rating"] == "good") is False


def test_count_boxes_refuse_counts_out_of_range_instead_of_clamping() -> None:
    from musici.cards import standard_cardset
    from musici.decisions import Decision
    from musici.widgets import AnswerControls

    # An appease decision (P4.APPEASE.1): O01 carries two markers, so up to 2 may go.
    d = Decision(0, "appease", "P4.APPEASE.1", space="subset", items=("O01", "O02"),
                 limits=(2, 1), min_size=1, max_size=3)
    answered: list[object] = []

    def on_answer(answer: object) -> None:
        answered.append(d.normalize(answer))  # the engine's own check, as the stepper does

    controls = AnswerControls(on_answer)
    controls.show(d, standard_cardset())
    count, box = controls.inputs
    assert "subset-count" in count._dom_classes and "subset-box" in box._dom_classes
    count.value = 5  # above the limit: refused with the engine's message, not clamped to 2
    controls.submit_button.click()
    assert answered == [] and "more than 2" in controls.error.value
    count.value = -1
    controls.submit_button.click()
    assert answered == [] and "counts start at 0" in controls.error.value
    count.value = 2
    controls.submit_button.click()
    assert answered == [("O01", "O01")]


# ---------------------------------------------------------------------------- learn by playing
def test_fame_as_mixed_numbers() -> None:
    from fractions import Fraction

    from musici.analysis.hints import fame_text

    assert [fame_text(v) for v in (35, Fraction(71, 2), "71/2", Fraction(-7, 3), "1/2")] == \
        ["35", "35½", "35½", "-2⅓", "½"]
    from musici.widgets.words import mixed_numbers

    assert mixed_numbers("final fame 71/2; +5/2 fame each; 3") == \
        "final fame 35½; +2½ fame each; 3"


def test_concert_preview_agrees_with_the_engine_for_every_lineup() -> None:
    """The preview of each possible line-up is the rating, fame and income the engine then
    records (the preview calls the engine's own scoring functions)."""
    import itertools
    import re

    stepper = GameStepper(seed=3)
    drive_human(stepper, lambda d: d.kind == "concert_orchestras")
    game, d = stepper.game, stepper.game.decision
    assert "card-requirement" in stepper.controls.help.value  # the card's requirement shown
    checked = 0
    for size in range(1, d.max_size + 1):
        for lineup in itertools.combinations(d.items, size):
            try:
                d.normalize(lineup)
            except IllegalAnswer:
                continue
            for item, box in zip(d.items, stepper.controls.inputs, strict=True):
                box.value = item in lineup  # ticking updates the preview at once
            shown = stepper.controls.preview.value
            clone = game.clone()
            clone.answer(lineup)
            concert = next(e for e in reversed(clone.events) if e.kind == "concert")
            assert f"data-rating='{concert.data['rating']}'" in shown, (lineup, shown)
            fame = re.search(r"fame <b>(-?\d+)</b>", shown)
            assert fame and int(fame[1]) == concert.data["fame"], shown
            assert f"income <b>{concert.data['income']} G</b>" in shown
            checked += 1
    assert checked >= 1


def test_since_panel_shows_the_humans_own_concert_explained() -> None:
    stepper = GameStepper(seed=3)
    drive_human(stepper, lambda d: d.kind == "concert_orchestras")
    d = stepper.game.decision
    stepper.answer(greedy_strategy(stepper.game.view(0), d))
    concert = next(e for e in reversed(stepper.game.events)
                   if e.kind == "concert" and e.player == 0)
    since = stepper.since.value
    assert "Since you last decided" in since and "own-concert" in since
    assert f"): {concert.data['rating']}" in unescape(since)
    assert "<details open>" in since and "RATE" in since  # its explanation is open
    # the next answer starts a new "since": the concert of the earlier answer is gone
    d = stepper.game.decision
    stepper.answer(greedy_strategy(stepper.game.view(0), d))
    assert "own-concert" not in stepper.since.value


def test_rule_ids_carry_their_text_on_hover() -> None:
    from musici.ruletext import rule_text

    stepper = GameStepper(seed=1)
    d = stepper.game.decision
    assert f"title='{escape(rule_text(d.rule), quote=True)}'" in stepper.controls.prompt.value
    assert f"title='{escape(rule_text('P1.2'), quote=True)}'" in \
        stepper.controls.widget.children[2].children[1].value  # pass: P1.2, on hover


def test_venue_options_say_cost_and_room_from_economy() -> None:
    from musici import economy as E

    stepper = GameStepper(seed=3)
    drive_human(stepper, lambda d: d.kind == "venue")
    d = stepper.game.decision
    words = stepper.controls.widget.children[2].children[1].value
    for area in d.options:
        if area in E.HALLS:
            cost = E.venue_cost(area, held_concert=True, rules=stepper.game.rules,
                                hall_rents=stepper.game.cards.hall_rents)
            assert f"rent {cost.money} G, room for {E.HALLS[area][1] * 10} musicians" in words \
                or "free for you" in words
        else:
            assert f"<b>{area}</b>: tour" in words


def test_salaries_and_subsets_in_words() -> None:
    from musici.decisions import Decision
    from musici.widgets.controls import subset_words

    salaries = Decision(0, "salaries", "P5.3", space="subset", items=("O1", "O2"),
                        costs=(50, 100), budget=120, max_size=2, maximal=True)
    assert "choose 0" not in subset_words(salaries)
    assert "pay every salary you can afford" in subset_words(salaries)
    appease = Decision(0, "appease", "P4.APPEASE", space="subset", items=("O1",), max_size=1)
    assert subset_words(appease) == "choose up to 1, or none"


def test_hint_estimates_every_option_the_same_way_twice() -> None:
    stepper = GameStepper(seed=3)
    drive_human(stepper, lambda d: d.kind == "venue")
    d = stepper.game.decision
    first = stepper.hint()
    assert "hint-table" in first
    for option in d.options:
        assert option.replace("-", " ") in first or option in first
    assert stepper.hint() == first  # seeded from the game: the same hint again


def test_review_lists_costliest_decisions_with_a_better_choice() -> None:
    from musici.analysis.review import review_game, review_text
    from musici.rules import RuleSet

    game = Game(4, seed=2, rules=RuleSet.parse(["RULING-MONTHS=2"]))
    bots = [greedy_strategy] * 4
    game.play(bots)
    mistakes = review_game(game, 1, worlds=1)
    assert mistakes and all(m.drop >= 0 for m in mistakes)
    # costliest first: by label (blunder, mistake, inaccuracy, none), then win share lost
    from musici.analysis.review import SEVERITY
    keys = [(SEVERITY[m.label], m.drop) for m in mistakes]
    assert keys == sorted(keys, reverse=True)
    assert all(game.answers[m.step] == m.chosen for m in mistakes)
    text = review_text(game, 1, mistakes, top=3)
    assert text.count("better:") == min(3, len(mistakes)) and "why:" in text


def test_review_command(tmp_path) -> None:
    import argparse
    import contextlib
    import io

    from musici.analysis.cli_review import add_commands
    from musici.rules import RuleSet

    game = Game(4, seed=4, rules=RuleSet.parse(["RULING-MONTHS=1"]))
    game.play([greedy_strategy] * 4)
    path = tmp_path / "game.json"
    game.save(path)
    parser = argparse.ArgumentParser()
    add_commands(parser.add_subparsers(dest="command"))

    def review(*options: str) -> str:
        args = parser.parse_args(["review", str(path), *options])
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert args.run(args) == 0
        return out.getvalue()

    text = review("--seat", "2", "--top", "2", "--worlds", "1")
    assert "Review of seat 2" in text and "better:" in text
    args = parser.parse_args(["review", str(path)])
    with pytest.raises(ValueError, match="--top and --worlds must be at least 1"):
        args.run(parser.parse_args(["review", str(path), "--worlds", "0"]))
    # --lineup: the bots that play each seat out in the measured pairs
    text = review("--worlds", "1", "--lineup", "merchant,impresario,merchant,collector")
    assert "Review of seat 0" in text and "fame points" in text
    with pytest.raises(ValueError, match="one bot per seat"):
        args.run(parser.parse_args(["review", str(path), "--lineup", "merchant,greedy"]))


def test_month_button_replays_recorded_human_answers() -> None:
    stepper = GameStepper(seed=1)
    drive_human(stepper, lambda d: stepper.game.month == 2)
    last = stepper.history.last
    stepper.go(0)
    assert stepper.game.decision.player == 0  # a recorded human decision
    stepper.advance("month")
    assert stepper.game.month == 2 and stepper.history.last == last  # one click, no stop
    assert stepper.game.answers == stepper.history.snaps[last].answers[:stepper.history.pos]


def test_recorded_amount_is_shown_in_the_box() -> None:
    stepper = GameStepper(seed=1)
    drive_human(stepper, lambda d: d.kind == "media_bid")
    d = stepper.game.decision
    step = stepper.history.pos
    bid = d.lo + d.step * 2 if d.lo + d.step * 2 <= d.hi else d.lo
    stepper.answer(bid)
    stepper.go(step)
    assert stepper.controls.inputs[0].value == bid


def test_a_bot_plays_my_seat_and_gives_it_back() -> None:
    stepper = GameStepper(seed=6)
    stepper.buttons["stand_in"].click()
    assert stepper.stand_in[0] and not stepper.humans[0]
    stepper.advance("month")
    assert stepper.game.month == 2  # no stop for seat 0: the bot answered
    stepper.buttons["stand_in"].click()
    assert stepper.humans[0] and stepper.buttons["stand_in"].description == "bot plays my seat"
    stepper.advance("end")
    assert stepper.game.decision is not None and stepper.game.decision.player == 0


def test_end_stars_and_equal_fame_seats_are_distinct(finished: GameStepper) -> None:
    from fractions import Fraction

    from musici.widgets.fame_chart import FINAL

    data = finished.fame.widget.data
    final = next(t for t in data if t.name == FINAL)
    fames = finished.game.results["fame"]
    assert list(final.y) == [float(Fraction(f)) for f in fames]  # at their true place
    # at the start every seat has fame 0: the lines coincide, told apart by dash and marker
    fresh = GameStepper(players=BOTS, seed=5).fame.widget.data
    assert {t.y[0] for t in fresh[:4]} == {0}
    assert len({(t.line.dash, t.marker.symbol) for t in fresh[:4]}) == 4


def test_switching_the_view_keeps_the_why_panel(finished: GameStepper) -> None:
    options = finished.why_select.options
    other = options[-1][1]
    finished.why_select.value = other
    finished.view_toggle.value = 2
    if other in {i for _, i in finished.why_select.options}:
        assert finished.why_select.value == other
    finished.view_toggle.value = TEACHER
    assert finished.why_select.value == other


def test_board_tab_shows_only_what_the_seat_may_see() -> None:
    stepper = GameStepper(players=BOTS, seed=0)
    game = stepper.game
    public = set(game.score_market) | set(game.players[2].hand)
    secrets = [c for c in game.players[1].hand if c not in public]
    assert secrets and stepper.tabs.selected_index == 0 and "musici-board" in stepper.board.value
    assert all(c in stepper.board.value for c in secrets)  # the teacher sees every hand
    stepper.view_toggle.value = 2
    assert "seat 2 (greedy)'s view: other hands hidden" in unescape(stepper.board.value)
    assert not any(c in stepper.board.value for c in secrets)
