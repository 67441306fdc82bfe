"""The puzzle trainer: try a puzzle, get told, see why, next (lichess's puzzle page).

Example (in a notebook cell)::

    from musici.widgets.puzzle import PuzzleTrainer
    PuzzleTrainer()                  # the bundled puzzles, the first one shown
    PuzzleTrainer(seed=3)            # in an order shuffled by the seed

Each puzzle shows the board from the deciding seat's view (:func:`musici.render.board_svg`:
other hands hidden) and the decision as the stepper's play-along controls
(:class:`~musici.widgets.controls.AnswerControls`: cards drawn as cards, each option's cost
and effect). An answer is judged by :meth:`musici.analysis.puzzles.Puzzle.check`: right, or
not and what it wins; a wrong answer may be tried again. **see why** shows every answer
compared with its estimate and interval, the explanation, what the best answer led to in
the game and the rules the puzzle exercises; **next** goes on to the next puzzle.

Only ``HTML`` widgets and buttons are filled, never an ``Output`` widget (Voila).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from html import escape

import ipywidgets as widgets

from musici.analysis.puzzles import Check, Puzzle, bundled_puzzles
from musici.decisions import Answer
from musici.describe import answer_words
from musici.render import board_svg, hand_svg
from musici.views import PlayerView
from musici.widgets.controls import AnswerControls
from musici.widgets.words import rule_tag


def _button(description: str, css: str, tooltip: str, style: str = "") -> widgets.Button:
    button = widgets.Button(description=description, tooltip=tooltip, button_style=style,
                            layout=widgets.Layout(width="auto"))
    button.add_class(css)
    return button


def _pct(x: float) -> str:
    return f"{100 * max(0.0, min(1.0, x)):.0f} %"


def criterion_words(puzzle: Puzzle) -> str:
    """What "clearly best" meant for this puzzle, in words."""
    c = puzzle.criterion
    if puzzle.decided_by == "win share":
        return (f"the best wins more often than every other answer by more than "
                f"{100 * c.win_margin:.0f} points (paired 95 % interval)")
    return (f"the best wins as often as the others (or more) and ends with more than "
            f"{c.fame_margin:g} fame more than each of them (paired 95 % intervals)")


def estimates_html(puzzle: Puzzle, given: Answer | None = None) -> str:
    """Every answer compared, best first: win share with its interval and final fame
    (class ``puzzle-estimates``); the answer given is marked."""
    cards = puzzle.cardset()
    rows = []
    for i, e in enumerate(puzzle.options):
        mark = []
        if i == 0:
            mark.append("best")
        if given is not None and e.answer == given:
            mark.append("yours")
        style = "background:#e6f4e6;font-weight:bold" if i == 0 else (
            "background:#fbe9e7" if mark else "")
        rows.append(f"<tr style='{style}'><td>{escape(answer_words(cards, e.answer))}</td>"
                    f"<td style='text-align:right'>{_pct(e.win_share)}</td>"
                    f"<td style='color:#666'>[{_pct(e.win_low)}, {_pct(e.win_high)}]</td>"
                    f"<td style='text-align:right'>{e.fame:.1f}</td>"
                    f"<td style='color:#666'>{escape(', '.join(mark))}</td></tr>")
    return (f"<table class='puzzle-estimates' style='border-collapse:collapse;font-size:12px'>"
            f"<style>.puzzle-estimates td, .puzzle-estimates th {{padding:1px 8px}}</style>"
            f"<tr><th style='text-align:left'>answer</th><th>wins</th><th>95 % interval</th>"
            f"<th>final fame</th><th></th></tr>{''.join(rows)}</table>"
            f"<div style='color:#666;font-size:11.5px'>each answer played out to the end in the "
            f"same {puzzle.options[0].worlds} sampled worlds ({escape(puzzle.policy)} play-outs);"
            f" {escape(criterion_words(puzzle))}</div>")


def why_html(puzzle: Puzzle, given: Answer | None = None) -> str:
    """The explanation: estimates, why, what the best answer led to, the rules exercised
    (class ``puzzle-why``)."""
    led = "".join(f"<li>{escape(text)} {rule_tag(rule)}</li>" for text, rule in puzzle.lines)
    led_html = (f"<div><b>What it led to in the game</b> (the bots playing on to the end of "
                f"the month):<ul style='margin:2px 0'>{led}</ul></div>" if led else "")
    rules = " ".join(rule_tag(r) for r in puzzle.rules_exercised)
    return (f"<div class='puzzle-why' style='font-size:12.5px'>"
            f"<div><b>Why:</b> {escape(puzzle.why)}</div>{estimates_html(puzzle, given)}"
            f"{led_html}<div><b>Rules exercised:</b> {rules}</div></div>")


def hand_html(view: PlayerView) -> str:
    """The deciding seat's hand and orchestras as cards, with its fame and money."""
    me = view.me
    markers = dict(me.markers)
    hand = str(hand_svg(view.hand, view.cards, width=76, per_row=12)) if view.hand else (
        "<i>empty</i>")
    orchestras = (str(hand_svg(me.orchestras, view.cards, markers=markers, width=76,
                               per_row=12)) if me.orchestras else "<i>none</i>")
    return (f"<div style='font-size:12px;margin:4px 0'>Seat {view.seat}: fame {me.fame}, "
            f"{me.money} G · month {view.month} of {view.months}</div>"
            f"<div style='display:flex;gap:18px;flex-wrap:wrap;font-size:12px'>"
            f"<div><b>Your hand</b><br>{hand}</div><div><b>Your orchestras</b><br>"
            f"{orchestras}</div></div>")


class PuzzleTrainer:
    """Rule puzzles in a notebook: try, get told, see why, next.

    ``puzzles``: the puzzles (default: :func:`bundled_puzzles`); ``seed``: shuffle their
    order with this seed (default: in order); ``start``: the index or id of the first one.
    """

    def __init__(self, puzzles: Sequence[Puzzle] | None = None, *, seed: int | None = None,
                 start: int | str = 0) -> None:
        self.puzzles: list[Puzzle] = list(puzzles if puzzles is not None else bundled_puzzles())
        if not self.puzzles:
            raise ValueError("no puzzles to show")
        if seed is not None:
            random.Random(seed).shuffle(self.puzzles)
        if isinstance(start, str):
            ids = [p.id for p in self.puzzles]
            if start not in ids:
                raise ValueError(f"no puzzle with id {start!r}")
            start = ids.index(start)
        if not 0 <= start < len(self.puzzles):
            raise ValueError(f"start must be 0 to {len(self.puzzles) - 1}, got {start}")
        self.index = start
        self.solved = 0
        self.tried = 0
        self.last: Check | None = None
        self._answered = False  # the shown puzzle was judged right or revealed
        self._build()
        self.show(start)

    # ------------------------------------------------------------------ state
    @property
    def puzzle(self) -> Puzzle:
        return self.puzzles[self.index]

    def show(self, index: int) -> None:
        """Show the puzzle at ``index`` (wrapping around)."""
        self.index = index % len(self.puzzles)
        self.last = None
        self._answered = False
        # The last verdict goes first: the page updates widget by widget, in this order, and
        # must never show the new puzzle under the old one's "Right".
        self.feedback.value = ""
        self.why.value = ""
        p = self.puzzle
        game = p.position()
        view = game.view(p.seat)
        self._header()
        self.hand.value = hand_html(view)
        self.board.value = (f"<div style='font-size:12px;color:#555;margin-top:6px'><b>The "
                            f"board</b> as seat {p.seat} sees it</div>"
                            + str(board_svg(view, width="100%")))
        decision = game.decision
        assert decision is not None
        self.controls.show(decision, game.cards, who=f"seat {p.seat} (you)", view=view,
                           step=game.step)
        self.why_button.disabled = False

    def _header(self) -> None:
        p = self.puzzle
        self.header.value = (
            f"<div class='puzzle-header'><b>Puzzle {self.index + 1} of {len(self.puzzles)}</b> "
            f"· <span class='puzzle-id'>{escape(p.id)}</span> · month {p.month} · "
            f"{escape(p.kind.replace('_', ' '))} {rule_tag(p.rule)} · from a game of "
            f"{escape(p.source.replace(',', ', '))} · <span class='puzzle-score'>solved "
            f"{self.solved} of {self.tried} tried</span><br>"
            f"<b>Find the clearly best answer for seat {p.seat}.</b></div>")

    def try_answer(self, answer: Answer) -> Check:
        """Judge ``answer``; raises ``IllegalAnswer`` for an illegal one (nothing changes)."""
        verdict = self.puzzle.check(answer)
        if not self._answered:
            self.tried += 1 if self.last is None else 0
            if verdict.correct:
                self.solved += 1 if self.last is None else 0
        self.last = verdict
        cards = self.puzzle.cardset()
        words = escape(answer_words(cards, verdict.answer))
        if verdict.correct:
            self._answered = True
            self.feedback.value = (f"<div class='puzzle-feedback puzzle-right' style='color:#1a7a"
                                   f"1a;font-weight:bold'>Right: {words} is clearly best.</div>")
            self.why.value = why_html(self.puzzle, verdict.answer)
            self._header()
        else:
            e = verdict.estimate
            what = (f"it wins {_pct(e.win_share)} [{_pct(e.win_low)}, {_pct(e.win_high)}] of "
                    f"the sampled games" if e is not None else
                    "it was not among the answers compared")
            self.feedback.value = (f"<div class='puzzle-feedback puzzle-wrong' style='color:#b3"
                                   f"2a1a'><b>Not this one:</b> {words}: {escape(what)}. Try "
                                   f"again, or press <i>see why</i>.</div>")
            self._header()
        return verdict

    def _answer(self, answer: Answer) -> None:
        self.try_answer(answer)

    def reveal(self) -> None:
        """Show the best answer and why (counts as not solved)."""
        if not self._answered:
            self.tried += 1 if self.last is None else 0
            self._answered = True
        given = self.last.answer if self.last is not None else None
        words = escape(answer_words(self.puzzle.cardset(), self.puzzle.best))
        self.feedback.value = (f"<div class='puzzle-feedback puzzle-revealed'><b>The clearly best "
                               f"answer:</b> {words}</div>")
        self.why.value = why_html(self.puzzle, given)
        self._header()

    def next(self) -> None:
        self.show(self.index + 1)

    # ------------------------------------------------------------------ widgets
    def _build(self) -> None:
        self.header = widgets.HTML()
        self.header.add_class("puzzle-header-view")
        self.hand = widgets.HTML()
        self.hand.add_class("puzzle-hand")
        self.board = widgets.HTML(layout=widgets.Layout(width="100%", max_width="1100px"))
        self.board.add_class("puzzle-board")
        self.controls = AnswerControls(self._answer)
        self.feedback = widgets.HTML()
        self.feedback.add_class("puzzle-feedback-view")
        self.why = widgets.HTML()
        self.why.add_class("puzzle-why-view")
        self.why_button = _button("see why", "puzzle-why-btn", "show the best answer, every "
                                  "answer's estimate and the rules", "info")
        self.why_button.on_click(lambda _b: self.reveal())
        self.next_button = _button("next", "puzzle-next-btn", "the next puzzle", "success")
        self.next_button.on_click(lambda _b: self.next())
        buttons = widgets.HBox([self.why_button, self.next_button])
        self.widget = widgets.VBox([self.header, self.hand, self.controls.widget, self.controls.note,
                                    self.feedback, buttons, self.why, self.board])
        self.widget.add_class("puzzle-trainer")

    def _repr_mimebundle_(self, **kwargs: object) -> object:
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        return f"<PuzzleTrainer puzzle {self.index + 1} of {len(self.puzzles)}: {self.puzzle.id}>"


__all__ = ["PuzzleTrainer", "criterion_words", "estimates_html", "hand_html", "why_html"]
