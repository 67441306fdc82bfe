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
a different human answer at a past step starts a new line (the played line is kept as a
variation: the **lines** menu under the slider goes back to it, exactly as it was).

While replaying recorded answers, **phase**, **month** and **end** follow the record
through the human seats' past decisions (a teacher shows a month in one click); an answer
at a past step that differs from the recorded one asks before starting a new line.
**bot plays my seat** hands the human seats to the search bot (and back).

The panels: "since you last decided" (every event since the last human answer or button
press, the seat's own concert highlighted and explained), the play-along controls with
their costs and the concert preview, a **hint** (the search bot's estimate of each option),
the fame chart, and tabs with the board (:func:`musici.render.board_svg`, only what the
shown seat may see), the table, the "why?" of any concert or payment and, after the game,
the **review** (:mod:`musici.widgets.review_panel`): the human seat's estimated win share
by step as a graph with its inaccuracies, mistakes and blunders marked; a click on a point
or a flagged decision shows that step, and **retry from here** starts a new line there.

Only ``HTML`` widgets and one ``FigureWidget`` are filled, never an ``Output`` widget:
filling Outputs while Voila first runs a notebook can hang it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

import ipywidgets as widgets

from musici.analysis import game_html, results_html
from musici.analysis.hints import HINT_WORLDS, estimate_options
from musici.cards import CardSet
from musici.decisions import Answer, IllegalAnswer
from musici.engine import Game, GameError, StrategyError
from musici.events import Concert, Drew
from musici.render import board_svg
from musici.rules import RuleSet
from musici.strategies.registry import StrategySpec, make_strategy, strategy_label
from musici.widgets.bonus_explorer import BonusExplorer
from musici.widgets.controls import AnswerControls
from musici.widgets.fame_chart import FameChart
from musici.widgets.hints import hint_html
from musici.widgets.history import History
from musici.widgets.panels import events_html, timeline_html, why_html, why_options
from musici.widgets.review_panel import LinesView, ReviewPanel
from musici.widgets.since import since_html
from musici.widgets.summary import summary_html
from musici.widgets.tutorial import TUTORIAL_SEED, Guide, Tutorial, guide_html

HUMAN = "human"
GOALS = ("decision", "phase", "month", "end")
TEACHER = -1  # the teacher toggle's value for "all hands"
AUTO = "auto"  # the default view: the first human seat's, else the teacher's
STAND_IN = "search"  # the bot that plays a human seat on "bot plays my seat"
TABS = ("board", "table", "why?", "review")
BOARD_WIDTH = "100%"  # the board scales to its container (issue 21 item 4: fits 1280×720)


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
    first human seat's view, the teacher's if no seat is human. With a human seat the
    stepper opens at that seat's first decision (the bots before it have played).

    ``tutorial=True``: the guided first month (:mod:`musici.widgets.tutorial`) for seat 0,
    on the tutorial's fixed seed unless ``seed`` is given; then the same stepper plays on.
    """

    def __init__(self, players: Sequence[StrategySpec] = (HUMAN, "greedy", "greedy", "random"),
                 seed: int | None = None, rules: RuleSet | None = None,
                 cards: CardSet | None = None, seat: int | str | None = AUTO,
                 tutorial: bool = False) -> None:
        self.specs: tuple[StrategySpec, ...] = tuple(players)
        self.humans: list[bool] = [spec == HUMAN for spec in self.specs]
        self.rules = rules
        self.cards = cards
        self.tutorial: Tutorial | None = None
        self._guide: Guide | None = None
        if tutorial:
            if not self.humans or not self.humans[0]:
                raise GameError("the guided first month teaches seat 0: players[0] must be "
                                f"'human', got {self.specs[0] if self.specs else None!r}")
            self.tutorial = Tutorial(seat=0)
            seed = TUTORIAL_SEED if seed is None else seed
        self.seed = 0 if seed is None else seed
        self.history = History(Game(len(self.specs), self.seed, rules, cards))
        if seat == AUTO:
            seat = next((s for s, human in enumerate(self.humans) if human), None)
        elif seat in ("teacher", TEACHER):
            seat = None
        if seat is not None and (not isinstance(seat, int) or not 0 <= seat < self.game.n):
            raise GameError(f"no seat {seat!r} in a {self.game.n}-player game")
        self.seat: int | None = seat
        self.strategies = self._make_strategies()
        self._goal: tuple[str, int, str] = ("decision", 1, "SETUP")
        self._follow = False  # phase/month/end: pass through recorded human answers
        self._since = 0  # events index at the last human answer or button press
        self._pending: Answer | None = None  # an answer that would branch, waiting for "yes"
        self.stand_in = [False] * len(self.specs)  # a bot plays this human seat for now
        self._why_game: Game | None = None
        self._quiet = False  # set while the code (not a person) changes widget values
        self._build()
        self._open()

    # ------------------------------------------------------------------ state
    @property
    def game(self) -> Game:
        """The game as shown (a snapshot: treat it as read-only)."""
        return self.history.game

    def labels(self) -> list[str]:
        return [f"seat {s} (you)" if spec == HUMAN else f"seat {s} ({strategy_label(spec)})"
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
        self._follow = goal != "decision"
        self._since = len(game.events)
        self._clear_pending()
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
        self._clear_pending()
        self._since = len(game.events)
        branched = self.history.answer(answer)
        self._goal = ("end", game.month, game.phase)  # "end" stops at a human decision
        self._follow = False
        self.status.value = ("<span style='color:#b60'>a new branch: the played line is kept "
                             "(lines menu under the slider)</span>" if branched else "")
        self._run(1)
        self._redraw()

    def answer_or_ask(self, answer: Answer) -> None:
        """The controls' answer: at a past step, an answer other than the recorded one
        first asks whether to drop the later history (``confirm_branch`` then answers)."""
        d = self.game.decision
        if d is None:
            raise GameError("no decision is waiting for an answer")
        recorded = self.history.recorded_answer()
        try:
            answer = d.normalize(answer)
        except IllegalAnswer:
            self.answer(answer)  # raises the engine's own message, shown by the controls
            return
        if recorded is None or answer == recorded:
            self.answer(answer)
            return
        self._pending = answer
        dropped = self.history.last - self.history.pos
        self.confirm_text.value = (
            f"<div style='color:#b60'><b>Answer differently?</b> The recorded answer was "
            f"{escape(str(recorded))}; answering {escape(str(answer))} starts a new line; the "
            f"played line, with its {dropped} later recorded step(s), is kept (lines menu)."
            f"</div>")
        self.confirm.layout.display = "flex"

    def confirm_branch(self) -> None:
        """Answer with the pending answer: a new line (the played one is kept)."""
        pending = self._pending
        if pending is None:
            return
        self.answer(pending)

    def _clear_pending(self) -> None:
        self._pending = None
        if hasattr(self, "confirm"):
            self.confirm.layout.display = "none"

    def set_stand_in(self, on: bool) -> None:
        """Let the search bot play every human seat (``on``), or give them back."""
        for s, spec in enumerate(self.specs):
            if spec == HUMAN:
                self.stand_in[s] = on
                self.humans[s] = not on
                self.strategies[s] = make_strategy(STAND_IN) if on else _human_seat
        self.buttons["stand_in"].description = ("take my seat back" if on
                                                else "bot plays my seat")
        self._redraw()

    def hint(self) -> str:
        """Each option of the shown human decision with its estimated final win share and
        fame, or "too close to call" (HTML, also shown in the hint panel). The hint panel
        says how far the play-outs are while they run (a hint takes about 2 s)."""
        game = self.game
        d = game.decision
        if d is None or not self.humans[d.player]:
            html = "<i>no decision of yours is waiting</i>"
        else:
            def progress(worlds: int, most: int) -> None:
                self.hints.value = (f"<i class='hint-progress'>estimating: {worlds} of at most "
                                    f"{most} sampled worlds played out to the end…</i>")

            estimates = estimate_options(game.view(d.player), d, seed=f"{game.seed}:{game.step}",
                                         progress=progress)
            html = hint_html(game, d, estimates, HINT_WORLDS)
        self.hints.value = html
        return html

    def review(self, seat: int | None = None) -> str:
        """Review ``seat`` (default: the first human seat, else the shown one) along the
        shown line, in the review tab (in a thread, with a progress bar); returns the
        panel's summary (HTML) as it stands."""
        if seat is None:
            seat = next((s for s, spec in enumerate(self.specs) if spec == HUMAN),
                        self.seat if self.seat is not None else 0)
        # the review panel (issue 18 item 3): graph, flagged decisions, retry from here
        self.tabs.selected_index = TABS.index("review")
        self.review_panel.start(seat)
        return str(self.review_panel.summary.value)

    def go(self, step: int) -> None:
        """Show the game as it was after ``step`` answers."""
        self.history.go(step)
        prev = self.history.previous
        self._since = len(prev.events) if prev is not None else 0
        self._clear_pending()
        self._redraw()

    def back(self) -> None:
        self.go(self.history.pos - 1)

    def restart(self, seed: int | None = None) -> None:
        """A new game (same players, rules and cards), with ``seed`` or the current one."""
        if seed is not None:
            self.seed = seed
        self.history = History(Game(len(self.specs), self.seed, self.rules, self.cards))
        self.strategies = self._make_strategies()
        if any(self.stand_in):
            self.set_stand_in(False)
        self._goal = ("decision", 1, "SETUP")
        self._since = 0
        self._clear_pending()
        self.status.value = ""
        self.review_view.value = ""
        self._open()

    def _open(self) -> None:
        """Show the first human decision (the bots before it play), so a learner starts at
        a decision, not at "waiting for seat 3"; a game of bots only stays at step 0."""
        d = self.game.decision
        if d is not None and any(self.humans) and not self.humans[d.player]:
            self._goal = ("end", self.game.month, self.game.phase)  # stops at a human
            self._run(0)
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
                replaying = self._follow and history.pos < history.last
                if self._reached() or (d is not None and self.humans[d.player]
                                       and not replaying):
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
            "end": _button("end", "end-btn", "forward-step",
                           "to the end (stops for you, except at recorded answers)"),
            "restart": _button("restart", "restart-btn", "refresh", "a new game with the seed"),
            "hint": _button("hint", "hint-btn", "lightbulb-o",
                            "the search bot's estimate of each option of your decision"),
            "stand_in": _button("bot plays my seat", "bot-seat-btn", "android",
                                "let the search bot play your seat (press again to take it back)"),
            "review": _button("review", "review-btn", "search",
                              "a graph of your estimated win share and your inaccuracies, "
                              "mistakes and blunders, with the better choice and why"),
        }
        self.buttons["back"].on_click(lambda _b: self.back())
        for goal in GOALS:
            self.buttons[goal].on_click(lambda _b, g=goal: self.advance(g))
        self.buttons["hint"].on_click(lambda _b: self.hint())
        self.buttons["stand_in"].on_click(lambda _b: self.set_stand_in(not any(self.stand_in)))
        self.buttons["review"].on_click(lambda _b: self.review())
        self.seed_input = widgets.BoundedIntText(value=self.seed, min=0, max=2**31 - 1,
                                                 description="seed",
                                                 layout=widgets.Layout(width="130px"),
                                                 style={"description_width": "32px"})
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
                                            value=TEACHER if self.seat is None else self.seat,
                                            layout=widgets.Layout(width="260px"),
                                            style={"description_width": "36px"})
        self.view_toggle.add_class("teacher-toggle")
        self.view_toggle.observe(self._on_view, names="value")

        self.timeline = widgets.HTML()
        self.timeline.add_class("phase-timeline")
        self.status = widgets.HTML()
        self.status.add_class("status-view")
        # the guided first month's words; full width, so its board close-up can scale
        self.tutorial_view = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.tutorial_view.add_class("tutorial-view")
        self.table = widgets.HTML()
        self.table.add_class("table-view")
        self.events = widgets.HTML()
        self.events.add_class("events-view")
        self.since = widgets.HTML()
        self.since.add_class("since-view")
        self.summary_view = widgets.HTML()  # the month summary, or the score sheet at the end
        self.summary_view.add_class("summary-view")
        self.board = widgets.HTML(layout=widgets.Layout(width="100%"))  # the SVG scales to it
        self.board.add_class("board-view")
        self.hints = widgets.HTML()
        self.hints.add_class("hints-view")
        self.review_view = widgets.HTML()
        self.review_view.add_class("review-view")
        self.review_panel = ReviewPanel(self)  # the review tab (issue 18 item 3)
        self.lines_view = LinesView(self)  # the variation tree's lines menu
        self.why_select = widgets.Dropdown(options=[], description="why?",
                                           layout=widgets.Layout(width="98%"))
        self.why_select.add_class("why-select")
        self.why_select.observe(self._on_why, names="value")
        self.why_view = widgets.HTML()
        self.why_view.add_class("why-view")
        # From a concert or a drawn discovery card to its restoration bonus (RESTORE, issue 21.6).
        self.bonus_button = widgets.Button(
            description="explore its restoration bonus", icon="sitemap",
            tooltip="open the bonus explorer on this card: the composers, lineages, "
                    "nationalities and eras that restore it (RESTORE.1-3)",
            layout=widgets.Layout(width="auto", display="none"))
        self.bonus_button.add_class("bonus-link")
        self.bonus_button.on_click(lambda _b: self.explore_bonus())
        self.bonus_box = widgets.VBox([])
        self.controls = AnswerControls(self.answer_or_ask)
        self.confirm_text = widgets.HTML()
        yes = widgets.Button(description="yes: answer (the played line is kept)",
                             button_style="warning", layout=widgets.Layout(width="auto"))
        yes.add_class("confirm-branch-btn")
        yes.on_click(lambda _b: self.confirm_branch())
        no = widgets.Button(description="cancel", layout=widgets.Layout(width="auto"))
        no.add_class("cancel-branch-btn")
        no.on_click(lambda _b: self._clear_pending())
        self.confirm = widgets.VBox([self.confirm_text, widgets.HBox([yes, no])],
                                    layout=widgets.Layout(display="none"))
        self.confirm.add_class("confirm-branch")
        self.waiting = widgets.HTML()  # a human seat decides, but another seat's view is shown
        self.waiting.add_class("human-waiting")
        self.fame = FameChart(self.game, names=self.labels())

        bar = widgets.HBox([*(self.buttons[k] for k in ("back", "decision", "phase", "month",
                                                         "end", "restart")),
                            self.seed_input, self.view_toggle,
                            *(self.buttons[k] for k in ("hint", "stand_in", "review"))],
                           layout=widgets.Layout(flex_flow="row wrap"))
        since_box = widgets.Box([self.since], layout=widgets.Layout(
            max_height="330px", overflow="auto", border="1px solid #ddd", padding="2px 6px"))
        left = widgets.VBox([self.tutorial_view, self.status, self.controls.note, self.waiting, self.confirm,
                             self.controls.widget, self.hints, self.summary_view, since_box],
                            layout=widgets.Layout(width="52%", min_width="420px"))
        right = widgets.VBox([self.fame.view], layout=widgets.Layout(width="48%",
                                                                       min_width="320px"))
        top = widgets.HBox([left, right], layout=widgets.Layout(flex_flow="row wrap",
                                                                 align_items="flex-start"))
        board_box = widgets.Box([self.board], layout=widgets.Layout(overflow="auto",
                                                                    width="100%"))
        why_box = widgets.VBox([self.events, self.why_select, self.why_view, self.bonus_button,
                                self.bonus_box])
        self.tabs = widgets.Tab(children=[board_box, widgets.Box([self.table], layout=
                                                                   widgets.Layout(overflow="auto")),
                                          why_box, widgets.VBox([self.review_panel.widget,
                                                                 self.review_view])])
        for i, title in enumerate(TABS):
            self.tabs.set_title(i, title)
        self.tabs.add_class("stepper-tabs")
        self.tabs.observe(lambda _c: self._redraw_tab(), names="selected_index")
        self.widget = widgets.VBox([bar, self.slider, self.lines_view.widget, self.timeline,
                                    top, self.tabs])
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
            self._show_bonus_link(self.game, change["new"])

    def _show_bonus_link(self, game: Game, index: int | None) -> None:
        """The bonus link shows for a concert or a drawn discovery card only; a new pick
        closes an explorer opened for the previous one."""
        event = game.events[index] if index is not None and index < len(game.events) else None
        card = event.card if isinstance(event, Concert | Drew) else None
        linked = card is not None and card in game.cards.music
        self.bonus_button.layout.display = "" if linked else "none"
        for child in self.bonus_box.children:
            child.close()
        self.bonus_box.children = ()

    def explore_bonus(self, index: int | None = None) -> BonusExplorer | None:
        """Open the bonus explorer on the card of the chosen concert or discovery (the why?
        tab's pick, or the event at ``index``), from the seat that played or drew it."""
        index = self.why_select.value if index is None else index
        if index is None:
            return None
        explorer = BonusExplorer.from_event(self.game, self.game.events[index])
        self.bonus_box.children = (explorer.widget,)
        return explorer

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
            human = any(spec == HUMAN for spec in self.specs)
            self.since.value = since_html(
                game, min(self._since, len(game.events)), seat,
                title="Since you last decided" if human else "Since the last button press")
            self.summary_view.value = summary_html(
                game, min(self._since, len(game.events)), self.labels())
            self.events.value = events_html(step_events, game, seat)
            self._redraw_why(game, seat, step_events)
        finally:
            self._quiet = False
        self.hints.value = ""
        self.fame.update(game)
        self._guide = (None if self.tutorial is None
                       else self.tutorial.guide(history.snaps, history.pos))
        self.tutorial_view.value = guide_html(self._guide, zoom=self._zoom())
        self.lines_view.update()
        self.review_panel.mark(history.pos)
        self._show_controls()
        self._redraw_tab()
        can = history.can_step(self.humans)
        for goal in GOALS:
            self.buttons[goal].disabled = not can
        self.buttons["back"].disabled = history.pos == 0
        d = game.decision
        self.buttons["hint"].disabled = d is None or not self.humans[d.player]

    def _redraw_why(self, game: Game, seat: int | None, step_events: list[Any]) -> None:
        options = why_options(game, seat)
        keep = self.why_select.value
        if game is self._why_game and keep in {i for _, i in options}:
            pick = keep  # the same step in another view: keep what the learner picked
        else:
            # default: the newest concert of this step, else the newest payment of the month
            first = len(game.events) - len(step_events)
            pick = next((i for _, i in options
                         if i >= first and game.events[i].kind == "concert"),
                        options[0][1] if options else None)
        self._why_game = game
        self.why_select.options = options
        self.why_select.value = pick
        self.why_view.value = why_html(game, pick)
        self._show_bonus_link(game, pick)

    def _redraw_tab(self) -> None:
        """Only the selected tab is drawn (the board costs a few ms; the others are idle)."""
        game, seat = self.game, self.seat
        tab = TABS[self.tabs.selected_index or 0]
        if tab == "board":
            source = game if seat is None else game.view(seat)
            zones = self._guide.zones if self._guide is not None else ()
            self.board.value = str(board_svg(source, names=self.labels(), width=BOARD_WIDTH,
                                             highlight=zones))
        elif tab == "table":
            table = game_html(game, seat)
            if seat is not None and game.finished:
                table += results_html(game)
            self.table.value = table

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
        guide = self._guide if self._guide is not None and self._guide.decision == d else None
        if guide is not None and guide.options is not None:
            d = d._replace(options=guide.options)  # the guide narrows the first choices
        self.controls.show(d, self.game.cards, who=self.labels()[d.player],
                           recorded=self.history.recorded_answer(), step=self.game.step,
                           view=self.game.view(d.player), game=self.game)
        if guide is not None:
            self._mark_pick(guide.pick)

    def _zoom(self) -> str:
        """A close-up of the board part the guide points at (the board tab may be out of
        sight below the decision)."""
        guide = self._guide
        if guide is None or not guide.zones:
            return ""
        source = self.game if self.seat is None else self.game.view(self.seat)
        return str(board_svg(source, names=self.labels(), width="100%",
                             highlight=guide.zones[:1], crop=guide.zones[0]))

    def _mark_pick(self, pick: Answer) -> None:
        """Fill in the guide's suggestion and highlight the button that gives it (class
        ``tutorial-pick``): the learner may follow it or answer otherwise."""
        c = self.controls
        d = c.decision
        if d is None:
            return
        target = c.submit_button
        if d.space == "choice" and target is None:
            target = next((b for b, o in zip(c.inputs, c.options, strict=True) if o == pick),
                          None)
        elif d.space == "choice" and pick in d.options:
            c.inputs[0].value = d.options.index(pick)  # a dropdown
        elif d.space == "amount":
            c.inputs[0].value = pick
        elif d.space == "subset":
            for item, control in zip(d.items, c.inputs, strict=True):
                control.value = (item in pick if isinstance(control.value, bool)
                                 else pick.count(item))
        if target is not None:
            target.add_class("tutorial-pick")
            target.button_style = "success"

    # ------------------------------------------------------------------ display
    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        g = self.game
        return f"<GameStepper seed {g.seed}, step {g.step}/{self.history.last}, month {g.month} {g.phase}>"


__all__ = ["HUMAN", "GameStepper"]
