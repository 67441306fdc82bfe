"""The game stepper: step through a game decision by decision, travel in time, play along.

Example (in a notebook cell)::

    from musici.widgets import GameStepper
    stepper = GameStepper(players=("human", "greedy", "greedy", "random"), seed=3)
    stepper          # shows the widget

Bots answer by themselves; advancing stops when a ``"human"`` seat must decide, and the
controls of that decision appear (in the teacher view or that seat's own view; the stepper
opens in the first human seat's view, so other hands stay hidden while you play along).
After a human answer the bots play on until the next human decision (or the end). Every
step is kept as a snapshot (:class:`musici.widgets.history.History`), so the time slider
can show any earlier step; stepping forward from there follows the recorded answers, and
a different human answer at a past step starts a new branch (the old future is dropped).

Only ``HTML`` widgets and one ``FigureWidget`` are filled, never an ``Output`` widget:
filling Outputs while Voila first runs a notebook can hang it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

import ipywidgets as widgets

from musici.analysis import game_html, results_html
from musici.cards import CardSet
from musici.decisions import Answer
from musici.engine import Game, GameError, StrategyError
from musici.rules import RuleSet
from musici.strategies.registry import StrategySpec, make_strategy, strategy_label
from musici.widgets.controls import AnswerControls
from musici.widgets.fame_chart import FameChart
from musici.widgets.history import History
from musici.widgets.panels import events_html, timeline_html, why_html, why_options

HUMAN = "human"
GOALS = ("decision", "phase", "month", "end")
TEACHER = -1  # the teacher toggle's value for "all hands"
AUTO = "auto"  # the default view: the first human seat's, else the teacher's


def _human_seat(view: Any, decision: Any) -> Answer:
    # Never asked: the stepper stops before a human seat's decision.
    raise GameError(f"seat {decision.player} is played by a person, not a bot")


def _button(description: str, css: str, icon: str, tooltip: str) -> widgets.Button:
    button = widgets.Button(description=description, icon=icon, tooltip=tooltip,
                            layout=widgets.Layout(width="auto"))
    button.add_class(css)
    return button


class GameStepper:
    """Step through one game of I Musici in a notebook; ``"human"`` seats are played here.

    ``players``: one strategy spec per seat (see :func:`musici.strategies.make_strategy`),
    ``"human"`` for a person. ``seat``: whose view is shown: a seat number, ``None`` (or
    ``"teacher"``) for the teacher's view of all hands, or ``"auto"`` (the default): the
    first human seat's view, the teacher's if no seat is human.
    """

    def __init__(self, players: Sequence[StrategySpec] = (HUMAN, "greedy", "greedy", "random"),
                 seed: int = 0, rules: RuleSet | None = None, cards: CardSet | None = None,
                 seat: int | str | None = AUTO) -> None:
        self.specs: tuple[StrategySpec, ...] = tuple(players)
        self.humans: list[bool] = [spec == HUMAN for spec in self.specs]
        self.rules = rules
        self.cards = cards
        self.seed = seed
        self.history = History(Game(len(self.specs), seed, rules, cards))
        if seat == AUTO:
            seat = next((s for s, human in enumerate(self.humans) if human), None)
        elif seat in ("teacher", TEACHER):
            seat = None
        if seat is not None and (not isinstance(seat, int) or not 0 <= seat < self.game.n):
            raise GameError(f"no seat {seat!r} in a {self.game.n}-player game")
        self.seat: int | None = seat
        self.strategies = self._make_strategies()
        self._goal: tuple[str, int, str] = ("decision", 1, "SETUP")
        self._quiet = False  # set while the code (not a person) changes widget values
        self._build()
        self._redraw()

    # ------------------------------------------------------------------ state
    @property
    def game(self) -> Game:
        """The game as shown (a snapshot: treat it as read-only)."""
        return self.history.game

    def labels(self) -> list[str]:
        return [f"seat {s} (you)" if self.humans[s] else f"seat {s} ({strategy_label(spec)})"
                for s, spec in enumerate(self.specs)]

    def _make_strategies(self) -> list[Callable[..., Answer]]:
        # Fresh players for a fresh game (a stateful bot must not remember an old game).
        return [_human_seat if human else make_strategy(spec)
                for spec, human in zip(self.specs, self.humans, strict=True)]

    # ------------------------------------------------------------------ actions
    def advance(self, goal: str = "decision") -> int:
        """Step to the next decision, phase, month or the end; stops at a human decision.
        Returns the number of steps taken."""
        if goal not in GOALS:
            raise ValueError(f"goal must be one of {GOALS}, got {goal!r}")
        game = self.game
        self._goal = (goal, game.month, game.phase)
        steps = self._run(0)
        self._redraw()
        return steps

    def answer(self, answer: Answer) -> None:
        """Answer the shown human decision; bots then play on until the next human
        decision (or the end), whatever goal an earlier button press set.

        Raises ``IllegalAnswer`` (the game and the record unchanged) for an illegal answer.
        """
        game = self.game
        d = game.decision
        if d is None or not self.humans[d.player]:
            raise GameError("no human seat must decide at this step")
        branched = self.history.answer(answer)
        self._goal = ("end", game.month, game.phase)  # "end" stops at a human decision
        self.status.value = ("<span style='color:#b60'>a new branch: the later recorded steps "
                             "were dropped</span>" if branched else "")
        self._run(1)
        self._redraw()

    def go(self, step: int) -> None:
        """Show the game as it was after ``step`` answers."""
        self.history.go(step)
        self._redraw()

    def back(self) -> None:
        self.go(self.history.pos - 1)

    def restart(self, seed: int | None = None) -> None:
        """A new game (same players, rules and cards), with ``seed`` or the current one."""
        if seed is not None:
            self.seed = seed
        self.history = History(Game(len(self.specs), self.seed, self.rules, self.cards))
        self.strategies = self._make_strategies()
        self._goal = ("decision", 1, "SETUP")
        self.status.value = ""
        self._redraw()

    def _reached(self) -> bool:
        goal, month, phase = self._goal
        game = self.game
        if goal == "phase":
            return (game.month, game.phase) != (month, phase)
        if goal == "month":
            return game.month != month
        return False  # "end": only the end, or a human decision, stops it

    def _run(self, done: int) -> int:
        """Step until the goal; ``done`` steps were already taken (a human answer: 1)."""
        history = self.history
        steps = done
        while history.can_step(self.humans):
            if steps:
                d = self.game.decision
                if self._goal[0] == "decision" and not done:
                    break
                if self._reached() or (d is not None and self.humans[d.player]):
                    break
            try:
                history.step(self.strategies)
            except StrategyError as exc:
                self.status.value = f"<span style='color:#b00'>{escape(str(exc))}</span>"
                break
            steps += 1
        return steps - done

    # ------------------------------------------------------------------ widgets
    def _build(self) -> None:
        self.buttons: dict[str, widgets.Button] = {
            "back": _button("back", "back-btn", "step-backward", "back one decision"),
            "decision": _button("next", "step-btn", "step-forward", "next decision"),
            "phase": _button("phase", "phase-btn", "forward", "to the next phase"),
            "month": _button("month", "month-btn", "fast-forward", "to the next month"),
            "end": _button("end", "end-btn", "forward-step", "to the end (stops for you)"),
            "restart": _button("restart", "restart-btn", "refresh", "a new game with the seed"),
        }
        self.buttons["back"].on_click(lambda _b: self.back())
        for goal in GOALS:
            self.buttons[goal].on_click(lambda _b, g=goal: self.advance(g))
        self.seed_input = widgets.BoundedIntText(value=self.seed, min=0, max=2**31 - 1,
                                                 description="seed",
                                                 layout=widgets.Layout(width="150px"))
        self.seed_input.add_class("seed-input")
        self.buttons["restart"].on_click(lambda _b: self.restart(int(self.seed_input.value)))

        self.slider = widgets.IntSlider(value=0, min=0, max=0, description="step",
                                        continuous_update=False,
                                        layout=widgets.Layout(width="98%"))
        self.slider.add_class("time-slider")
        self.slider.observe(self._on_slider, names="value")

        views = [("teacher (all hands)", TEACHER)]
        views += [(label, s) for s, label in enumerate(self.labels())]
        self.view_toggle = widgets.Dropdown(options=views, description="view",
                                            value=TEACHER if self.seat is None else self.seat)
        self.view_toggle.add_class("teacher-toggle")
        self.view_toggle.observe(self._on_view, names="value")

        self.timeline = widgets.HTML()
        self.timeline.add_class("phase-timeline")
        self.status = widgets.HTML()
        self.status.add_class("status-view")
        self.table = widgets.HTML()
        self.table.add_class("table-view")
        self.events = widgets.HTML()
        self.events.add_class("events-view")
        self.why_select = widgets.Dropdown(options=[], description="why?",
                                           layout=widgets.Layout(width="98%"))
        self.why_select.add_class("why-select")
        self.why_select.observe(self._on_why, names="value")
        self.why_view = widgets.HTML()
        self.why_view.add_class("why-view")
        self.controls = AnswerControls(self.answer)
        self.waiting = widgets.HTML()  # a human seat decides, but another seat's view is shown
        self.waiting.add_class("human-waiting")
        self.fame = FameChart(self.game, names=self.labels())

        bar = widgets.HBox([*(self.buttons[k] for k in ("back", "decision", "phase", "month",
                                                         "end", "restart")),
                            self.seed_input, self.view_toggle],
                           layout=widgets.Layout(flex_flow="row wrap"))
        side = widgets.VBox([self.events, self.why_select, self.why_view],
                            layout=widgets.Layout(width="40%", padding="0 0 0 8px"))
        middle = widgets.HBox([widgets.Box([self.table], layout=widgets.Layout(width="60%",
                                                                               overflow="auto")),
                               side])
        self.widget = widgets.VBox([bar, self.slider, self.timeline, self.status,
                                    self.controls.note, self.waiting, self.controls.widget,
                                    middle, self.fame.widget])
        self.widget.add_class("game-stepper")

    def _on_slider(self, change: dict[str, Any]) -> None:
        if not self._quiet:
            self.go(change["new"])

    def _on_view(self, change: dict[str, Any]) -> None:
        if not self._quiet:
            self.seat = None if change["new"] == TEACHER else int(change["new"])
            self._redraw()

    def _on_why(self, change: dict[str, Any]) -> None:
        if not self._quiet:
            self.why_view.value = why_html(self.game, change["new"])

    def _redraw(self) -> None:
        """Show ``self.game`` in every panel (the only place widget values are set)."""
        history, game, seat = self.history, self.game, self.seat
        self._quiet = True
        try:
            # max first when growing, value first when shrinking: value must stay <= max
            if history.last >= self.slider.max:
                self.slider.max = history.last
                self.slider.value = history.pos
            else:
                self.slider.value = history.pos
                self.slider.max = history.last
            step_events = history.step_events()
            self.timeline.value = timeline_html(game, history.pos, step_events)
            table = game_html(game, seat)
            if seat is not None and game.finished:
                table += results_html(game)
            self.table.value = table
            self.events.value = events_html(step_events, game, seat)
            options = why_options(game, seat)
            # default: the newest concert of this step, else the newest payment of the month
            first = len(game.events) - len(step_events)
            pick = next((i for _, i in options if i >= first and game.events[i].kind == "concert"),
                        options[0][1] if options else None)
            self.why_select.options = options
            self.why_select.value = pick
            self.why_view.value = why_html(game, pick)
        finally:
            self._quiet = False
        self.fame.update(game)
        self._show_controls()
        can = history.can_step(self.humans)
        for goal in GOALS:
            self.buttons[goal].disabled = not can
        self.buttons["back"].disabled = history.pos == 0

    def _show_controls(self) -> None:
        """The human seat's controls, in the teacher view or in that seat's own view only
        (another seat's view must not show that seat's hand through the controls)."""
        d = self.game.decision
        self.waiting.value = ""
        if d is None or not self.humans[d.player]:
            self.controls.hide()
            return
        if self.seat is not None and self.seat != d.player:
            self.controls.hide()
            self.waiting.value = (f"<div style='color:#b60'>seat {d.player} (human) must decide "
                                  f"— switch the view to seat {d.player}</div>")
            return
        self.controls.show(d, self.game.cards, who=self.labels()[d.player],
                           recorded=self.history.recorded_answer(), step=self.game.step)

    # ------------------------------------------------------------------ display
    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        g = self.game
        return f"<GameStepper seed {g.seed}, step {g.step}/{self.history.last}, month {g.month} {g.phase}>"


__all__ = ["HUMAN", "GameStepper"]
