"""The stepper's review tab (issue 18 item 3): an evaluation graph of the game, the flagged
decisions, click to jump, and "retry from here" that keeps the played line.

* **Graph**: the reviewed seat's estimated win share by step (a plotly ``FigureWidget``,
  every trace made before wrapping, updated in place), the 95 % band around it, and the
  flagged decisions marked on the curve as lichess marks them: inaccuracy ``?!``, mistake
  ``?``, blunder ``??``. Clicking any point jumps the stepper to that step.
* **Flagged decisions**: one row each (what was played, the best answer, the drop in win
  share with its interval), with **go to step** and **retry from here**. Retry starts a new
  line at that step (:meth:`musici.widgets.history.History.retry`); the played line stays in
  the lines menu (:class:`LinesView`), exactly as it was.
* **Progress**: the review plays many worlds per decision (seconds to minutes), so it runs
  in a thread with a progress bar and the stepper stays usable; a newer review makes an
  older one's result stale (dropped, never shown). ``background=False`` runs it in the
  calling thread (tests, scripts).

The numbers come from :func:`musici.analysis.review.review_game` (its ``Review``: labelled
decisions and the ``curve``); this module only shows them. :func:`review_points` and
:func:`flagged` read a review into plain rows, so a test can feed any review-like object.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
import plotly.graph_objects as go

from musici.describe import PHASE_NAMES

if TYPE_CHECKING:
    from musici.engine import Game
    from musici.widgets.history import History

LABELS = ("inaccuracy", "mistake", "blunder")
SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
COLOURS = {"inaccuracy": "#d9a400", "mistake": "#e06b00", "blunder": "#c8102e"}
CURVE = "win share"  # trace names (the browser test finds the curve's points by them)
BAND_HIGH, BAND_LOW, FLAGS, NOW = "interval high", "interval low", "flagged", "shown step"

ReviewFn = Callable[..., Any]


# ---------------------------------------------------------------------------- reading a review
@dataclass(frozen=True, slots=True)
class Point:
    """One point of the evaluation graph: the seat's estimated win share at ``step``."""

    step: int
    win_share: float
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True, slots=True)
class Flag:
    """One flagged decision, in the panel's words."""

    step: int
    label: str  # one of LABELS
    played: Any
    best: Any
    drop: float | None  # win share lost against the best answer (positive), and its interval
    low: float | None
    high: float | None
    month: int | None = None
    phase: str | None = None
    kind: str | None = None
    rule: str | None = None
    why: str = ""
    source: Any = None  # the review's own record of the decision


def _get(obj: Any, *names: str, default: Any = None) -> Any:
    """The first of ``names`` that ``obj`` has (attribute or mapping key)."""
    for name in names:
        if isinstance(obj, Mapping) and name in obj:
            return obj[name]
        value = getattr(obj, name, None)
        if value is not None:
            return value
    return default


def review_points(review: Any) -> list[Point]:
    """The review's ``curve`` as points, by step: items may be ``(step, win_share)``,
    ``(step, win_share, low, high)`` or objects with ``step`` and ``win_share`` (and
    ``win_low``/``win_high``); a mapping step -> value works too."""
    curve = _get(review, "curve", default=())
    if isinstance(curve, Mapping):
        curve = list(curve.items())
    points = []
    for item in curve:
        if isinstance(item, tuple | list):
            step, value, *band = item
            low, high = [*band, None, None][:2] if band else (None, None)
            if isinstance(value, tuple | list):  # (step, (mean, low, high))
                value, low, high = [*value, None, None][:3]
        else:
            step = _get(item, "step")
            value = _get(item, "win_share", "value", "mean")
            low, high = _get(item, "win_low", "low"), _get(item, "win_high", "high")
        points.append(Point(int(step), float(value), None if low is None else float(low),
                            None if high is None else float(high)))
    return sorted(points, key=lambda p: p.step)


def flagged(review: Any) -> list[Flag]:
    """The review's labelled decisions (inaccuracy, mistake, blunder), by step."""
    items: Iterable[Any] = _get(review, "flagged", "decisions", default=())
    if callable(items):
        items = items()
    out = []
    for d in items:
        label = _get(d, "label")
        if label not in LABELS:
            continue
        drop, low, high = _get(d, "drop"), _get(d, "drop_low"), _get(d, "drop_high")
        gap = _get(d, "gap")
        if isinstance(gap, tuple | list) and len(gap) == 3:
            drop, low, high = gap
        out.append(Flag(step=int(_get(d, "step")), label=label,
                        played=_get(d, "played", "chosen", "answer"),
                        best=_get(d, "best", "better"),
                        drop=None if drop is None else float(drop),
                        low=None if low is None else float(low),
                        high=None if high is None else float(high),
                        month=_get(d, "month"), phase=_get(d, "phase"), kind=_get(d, "kind"),
                        rule=_get(d, "rule"), why=str(_get(d, "why", "text", default="") or ""),
                        source=d))
    return sorted(out, key=lambda f: f.step)


def _words(game: Game | None, answer: Any) -> str:
    if game is None:
        return str(answer)
    try:
        from musici.analysis.review import answer_words
    except ImportError:  # the review module without its word helper: the raw answer
        return str(answer)
    return answer_words(game, answer)


def why_words(game: Game | None, flag: Flag) -> str:
    """Why the better answer is better: the flag's own text, else the review's words."""
    if flag.why or game is None or flag.source is None:
        return flag.why
    try:
        from musici.analysis.review import why_text
        return str(why_text(game, flag.source))
    except Exception:  # a review-like record the review's words cannot read: no words
        return ""


def flag_text(game: Game | None, flag: Flag) -> str:
    """One flagged decision in words (plain text)."""
    when = f"step {flag.step}"
    if flag.month is not None:
        when += f", month {flag.month}"
    if flag.phase:
        when += f" · {PHASE_NAMES.get(flag.phase, flag.phase)}"
    what = f"{flag.kind.replace('_', ' ')}: " if flag.kind else ""
    text = (f"{SYMBOLS[flag.label]} {flag.label} ({when}) {what}you chose "
            f"{_words(game, flag.played)}; better: {_words(game, flag.best)}")
    src = flag.source
    # The interval is of the amount lost, so it is given as a loss, without the sign the
    # cost carries ("−4.0 fame; 2.0 to 6.0 lost", not "−4.0, interval 2.0–6.0").
    if getattr(src, "scale", "") == "fame":  # labelled by fame lost (win share saturated)
        text += (f" ({src.cost_words}; {src.fame_low:.1f} to {src.fame_high:.1f} fame lost, "
                 f"95 % interval)")
    elif flag.drop is not None:
        text += f" (−{abs(flag.drop):.2f} win share"
        if flag.low is not None and flag.high is not None:
            lo, hi = sorted((abs(flag.low), abs(flag.high)))
            text += f"; {lo:.2f} to {hi:.2f} lost, 95 % interval"
        text += ")"
    return text


# ---------------------------------------------------------------------------- the panel
def _default_review(game: Game, seat: int, progress: Callable[[int, int], None] | None,
                    options: Mapping[str, Any]) -> Any:
    from musici.analysis.review import review_game

    kwargs = dict(options)
    if progress is not None and "progress" in inspect.signature(review_game).parameters:
        kwargs["progress"] = progress
    return review_game(game, seat, **kwargs)


class ReviewPanel:
    """The review tab's content (``.widget``, class ``review-panel``).

    ``stepper``: the :class:`~musici.widgets.stepper.GameStepper` it jumps (``go``) and
    retries in (its ``history``). ``review_fn(game, seat, progress, options)``: returns the
    review (default: :func:`musici.analysis.review.review_game` with ``options`` as keyword
    arguments, e.g. ``{"max_worlds": 8}`` for a quick look).
    """

    def __init__(self, stepper: Any, review_fn: ReviewFn | None = None, *,
                 background: bool = True, options: Mapping[str, Any] | None = None) -> None:
        self.stepper = stepper
        self.review_fn: ReviewFn = review_fn or self._lineup_review
        self.background = background
        self.options: dict[str, Any] = dict(options or {})
        self.review: Any = None
        self.game: Game | None = None  # the game reviewed (the last snapshot of its line)
        self.line: int | None = None  # the history line it belongs to
        self.seat: int | None = None
        self.points: list[Point] = []
        self.settled_step: int | None = None  # the review's settled_from step, if any
        self.flags: list[Flag] = []
        self._run = 0  # a newer review makes an older one's result stale
        self._history: History | None = None  # the history the review belongs to
        self._thread: threading.Thread | None = None
        self._build()

    # ------------------------------------------------------------------ building
    def _build(self) -> None:
        self.summary = widgets.HTML()
        self.summary.add_class("review-summary")
        self.progress = widgets.IntProgress(value=0, min=0, max=1, description="reviewing",
                                            layout=widgets.Layout(width="60%", display="none"))
        self.progress.add_class("review-progress")
        # No figure until a review is there; each review gets a new FigureWidget made with
        # its data (a FigureWidget's view made later, e.g. in a tab, shows the data it was
        # made with, not later updates: seen in Voila with plotly 7.1)
        self.figure: go.FigureWidget | None = None
        self.caption = widgets.HTML()
        self.caption.add_class("review-caption")
        self.graph = widgets.VBox([self.caption], layout=widgets.Layout(display="none",
                                                                        width="100%"))
        self.rows = widgets.VBox()
        self.rows.add_class("review-flags")
        self.retry_shown = widgets.Button(
            description="retry from the shown step", icon="code-fork",
            layout=widgets.Layout(width="auto", align_self="flex-start"),
            tooltip="answer again from the step the stepper shows; the played line is kept "
                    "in the lines menu")
        self.retry_shown.add_class("review-retry-shown-btn")
        self.retry_shown.on_click(lambda _b: self.retry(self.stepper.history.pos,
                                                        reviewed_line=False))
        self.prev_flag = widgets.Button(description="previous flagged", icon="step-backward",
                                        layout=widgets.Layout(width="auto"),
                                        tooltip="the flagged decision before the shown step")
        self.prev_flag.add_class("review-prev-btn")
        self.prev_flag.on_click(lambda _b: self.to_flag(-1))
        self.next_flag = widgets.Button(description="next flagged", icon="step-forward",
                                        layout=widgets.Layout(width="auto"),
                                        tooltip="the flagged decision after the shown step")
        self.next_flag.add_class("review-next-btn")
        self.next_flag.on_click(lambda _b: self.to_flag(+1))
        self.tools = widgets.HBox([self.prev_flag, self.next_flag, self.retry_shown],
                                  layout=widgets.Layout(display="none"))
        from musici.analysis.review import DEEP_BOT

        self.deep = widgets.Checkbox(
            value=False, indent=False, layout=widgets.Layout(width="auto"),
            description=f"deep check: judge each mistake and blunder again with {DEEP_BOT} "
                        f"playing on (slower: minutes)")
        self.deep.add_class("review-deep")
        self.widget = widgets.VBox([self.deep, self.summary, self.progress, self.graph,
                                    self.tools, self.rows])
        self.widget.add_class("review-panel")

    # ------------------------------------------------------------------ running
    def bots(self) -> list[str | None]:
        """The stepper's players as bot names (``None`` for a person or a bot given as
        code): the review plays the game out with them (:func:`lineup_options`)."""
        specs = getattr(self.stepper, "specs", ())
        return [s if isinstance(s, str) and s != "human" else None for s in specs]

    def _lineup_review(self, game: Game, seat: int,
                       progress: Callable[[int, int], None] | None,
                       options: Mapping[str, Any]) -> Any:
        """The default review: the game played out as it was played (each rival by its own
        bot, the seat by merchant or its own quick bot, flags redeemed by the other
        heuristic bots' plans), ``options`` overriding any of it; with the deep box ticked
        (or ``options["deep"]``: True or a bot's name) each mistake and blunder judged
        again with ismcts playing on (:func:`~musici.analysis.review.deep_check`)."""
        from musici.analysis.review import DEEP_BOT, deep_check, lineup_options

        bots = self.bots()
        # options naming any of the play-out take it over whole: never half a line-up
        own = options.keys() & {"policies", "policy_name", "plans", "plan_names"}
        base = lineup_options(bots, seat) if len(bots) == game.n and not own else {}
        merged = {**base, **options}
        deep = merged.pop("deep", self.deep.value)  # True, or a bot's name
        review = _default_review(game, seat, progress, merged)
        if not deep:
            return review
        merged.pop("progress", None)
        return deep_check(game, seat, review, bot=DEEP_BOT if deep is True else str(deep),
                          progress=progress, **merged)

    def start(self, seat: int, game: Game | None = None) -> None:
        """Review ``seat`` in ``game`` (default: the whole line shown, to its newest step),
        in a thread when ``background``; the result is shown when it is ready."""
        history: History = self.stepper.history
        if game is None:
            game = history.snaps[history.last]
        line = history.current
        self._run += 1
        run = self._run
        self.progress.value, self.progress.max = 0, 1
        self.progress.layout.display = "flex"
        self.summary.value = (f"<i>reviewing seat {seat}'s decisions in {game.step} steps: "
                              f"every answer is played out in sampled worlds…</i>")

        def progress(done: int, total: int) -> None:
            if run == self._run:
                self.progress.max = max(1, int(total))
                self.progress.value = min(int(done), self.progress.max)

        def work() -> None:
            try:
                review = self.review_fn(game, seat, progress, self.options)
            except Exception as exc:  # shown in the panel: a review must not kill the stepper
                if run == self._run:
                    self.progress.layout.display = "none"
                    self.summary.value = (f"<span style='color:#b00'>the review failed: "
                                          f"{escape(type(exc).__name__)}: {escape(str(exc))}"
                                          f"</span>")
                if not self.background:
                    raise
                return
            if run == self._run and self.stepper.history is history:  # not a new game
                self.show(review, game, seat, line)
            elif run == self._run:
                self.clear()

        if self.background:
            self._thread = threading.Thread(target=work, name="musici-review", daemon=True)
            self._thread.start()
        else:
            work()

    def wait(self, timeout: float | None = None) -> None:
        """Wait for a background review to finish (scripts and tests)."""
        if self._thread is not None:
            self._thread.join(timeout)

    # ------------------------------------------------------------------ showing
    def show(self, review: Any, game: Game, seat: int, line: int | None = None) -> None:
        """Show ``review`` of ``seat`` in ``game`` (on history line ``line``)."""
        self.review, self.game, self.seat = review, game, seat
        self._history = self.stepper.history
        self.line = self.stepper.history.current if line is None else line
        self.points, self.flags = review_points(review), flagged(review)
        self.settled_step, settled = self._settled(review)
        head, _, rest = settled.partition(" on:")  # "out of the seat's hands from month M (step K)", the why
        settled_html = (f"<div class='review-settled' style='margin-top:3px'><b>"
                        f"{escape(head[:1].upper() + head[1:])} on:</b>{escape(rest)}.</div>"
                        if settled else "")
        self.progress.layout.display = "none"
        self._draw_graph()
        self._draw_rows()
        counts = {label: sum(f.label == label for f in self.flags) for label in LABELS}
        words = ", ".join(f"{n} {label if n == 1 else PLURALS[label]}"
                          for label, n in counts.items())
        decisions = _get(review, "decisions", default=())
        evaluated = len(decisions) if isinstance(decisions, tuple | list) else len(self.points)
        how = _get(review, "how", "method", default="")
        self.summary.value = (
            f"<div style='font-size:12.5px'><b>Review of seat {seat}</b> (seed {game.seed}, "
            f"{evaluated} decisions estimated): {escape(words)}. A decision is flagged only "
            f"when the interval of its drop in estimated win share or final fame against "
            f"the best answer clears the threshold; the curve is the seat's estimated win share after each "
            f"of its decisions, the band its 95 % interval."
            + (f" <span style='color:#666'>{escape(str(how))}</span>" if how else "")
            + settled_html
            + "</div>")
        self.mark(self.stepper.history.pos)

    @staticmethod
    def _settled(review: Any) -> tuple[int | None, str]:
        """The step from which the seat's game was settled and the words for it (a
        :class:`~musici.analysis.review.Review`'s; ``(None, "")`` for other review-like
        objects or a game open to the end)."""
        from musici.analysis.review import Review, settled_words

        first = review.settled_from if isinstance(review, Review) else None
        return (None, "") if first is None else (first.step, settled_words(review))

    def _figure(self, pts: list[Point], flags: list[Flag]) -> go.FigureWidget:
        """The evaluation graph of ``pts`` with ``flags`` marked, as a new FigureWidget whose
        every point jumps the stepper when clicked."""
        by_step = {p.step: p for p in pts}
        banded = [p for p in pts if p.low is not None and p.high is not None]
        figure = go.Figure()
        figure.add_scatter(x=[p.step for p in banded],
                           y=[min(1.0, p.high) for p in banded],  # type: ignore[type-var]
                           mode="lines", name=BAND_HIGH, hoverinfo="skip",
                           line={"width": 0}, showlegend=False)
        figure.add_scatter(x=[p.step for p in banded],
                           y=[max(0.0, p.low) for p in banded],  # type: ignore[type-var]
                           mode="lines", name=BAND_LOW, hoverinfo="skip", line={"width": 0},
                           fill="tonexty", fillcolor="rgba(70,110,200,0.15)", showlegend=False)
        figure.add_scatter(x=[p.step for p in pts], y=[p.win_share for p in pts],
                           hovertext=[self._hover(p) for p in pts], mode="lines+markers",
                           name=CURVE, hoverinfo="text", line={"color": "#3a5fb0", "width": 2},
                           marker={"size": 7})
        figure.add_scatter(x=[f.step for f in flags],
                           y=[by_step[f.step].win_share if f.step in by_step else 0.5
                              for f in flags],
                           text=[SYMBOLS[f.label] for f in flags],
                           hovertext=[escape(flag_text(self.game, f)) for f in flags],
                           mode="markers+text", name=FLAGS, hoverinfo="text",
                           textposition="top center", textfont={"size": 15},
                           marker={"size": 13, "line": {"width": 1, "color": "#333"},
                                   "color": [COLOURS[f.label] for f in flags]})
        figure.add_scatter(x=[], y=[], mode="markers", name=NOW, hoverinfo="skip",
                           marker={"size": 16, "symbol": "circle-open", "color": "#222",
                                   "line": {"width": 2, "color": "#222"}}, showlegend=False)
        if self.settled_step is not None and pts:
            # the settled stretch greyed: no answer there changed the result (review.settled_from)
            figure.add_vrect(x0=self.settled_step - 0.5, x1=pts[-1].step + 0.5, line_width=0,
                             fillcolor="#777", opacity=0.13, layer="below",
                             annotation_text="out of the seat's hands: no answer changed the result",
                             annotation_position="top left",
                             annotation_font={"size": 11, "color": "#555"})
        figure.update_layout(height=280, width=None, autosize=True,
                             margin={"t": 12, "b": 40, "l": 55, "r": 10},
                             xaxis={"title": "step (click a point to go there)"},
                             yaxis={"title": "estimated win share", "range": [-0.05, 1.12]},
                             showlegend=False, hovermode="closest", clickmode="event")
        widget = go.FigureWidget(figure)
        widget.add_class("review-graph")
        self._trace = {t.name: i for i, t in enumerate(widget.data)}
        for trace in widget.data:
            trace.on_click(self._on_click)
        return widget

    def _draw_graph(self) -> None:
        old, self.figure = self.figure, self._figure(self.points, self.flags)
        self.caption.value = (
            f"<div style='font-size:12.5px'><b>Seat {self.seat}'s estimated win share by "
            f"step</b> (its chance to win the game after each of its decisions, the band its "
            f"95 % interval). Marks: " + " · ".join(
                f"<b style='color:{COLOURS[k]}'>{escape(SYMBOLS[k])}</b> {k}" for k in LABELS)
            + "; the ring is the step shown. Click a point to go there.</div>")
        self.graph.children = [self.caption, self.figure]
        if old is not None:
            old.close()
        self.graph.layout.display = "flex"
        self.tools.layout.display = "flex"
        self.prev_flag.disabled = self.next_flag.disabled = not self.flags

    def _hover(self, p: Point) -> str:
        band = (f" [{p.low:.2f}, {p.high:.2f}]" if p.low is not None and p.high is not None
                else "")
        return f"step {p.step}: win share {p.win_share:.2f}{band}"

    def _draw_rows(self) -> None:
        rows = []
        for f in self.flags:
            words = flag_text(self.game, f)[len(SYMBOLS[f.label]) + 1:]
            text = widgets.HTML(
                f"<span style='color:{COLOURS[f.label]};font-weight:bold'>"
                f"{escape(SYMBOLS[f.label])}</span> {escape(words)}"
                + (f"<br><span style='color:#555;font-size:11.5px'>{escape(why)}</span>"
                   if (why := why_words(self.game, f)) else ""),
                layout=widgets.Layout(width="70%"))
            goto = widgets.Button(description="go to step", icon="crosshairs",
                                  layout=widgets.Layout(width="auto"))
            goto.add_class("review-goto-btn")
            goto.on_click(lambda _b, s=f.step: self.jump(s))
            retry = widgets.Button(description="retry from here", icon="code-fork",
                                   button_style="info", layout=widgets.Layout(width="auto"),
                                   tooltip="answer again from this step; the played line "
                                           "is kept in the lines menu")
            retry.add_class("review-retry-btn")
            retry.on_click(lambda _b, s=f.step: self.retry(s))
            row = widgets.HBox([text, goto, retry],
                               layout=widgets.Layout(align_items="center",
                                                     border_bottom="1px solid #eee"))
            row.add_class("review-flag")
            row.add_class(f"review-{f.label}")
            rows.append(row)
        if not rows and self.review is not None:
            rows.append(widgets.HTML("<i>no inaccuracy, mistake or blunder was flagged: no "
                                     "drop's interval cleared its threshold with the worlds "
                                     "played (more worlds narrow the intervals)</i>"))
        self.rows.children = rows

    def mark(self, step: int) -> None:
        """Circle the shown step on the curve (if the shown line is the one reviewed)."""
        if self.figure is None:
            return
        history: History = self.stepper.history
        if history is not self._history:  # restarted: another game
            self.clear()
            return
        now = self.figure.data[self._trace[NOW]]
        on_line = self.line is None or self.line == history.current
        shown = [p for p in self.points if p.step == step] if on_line else []
        if not shown and on_line and self.points and self.points[0].step <= step:
            # between two of the seat's decisions: the estimate of the one before
            shown = [max((p for p in self.points if p.step <= step), key=lambda p: p.step)]
        with self.figure.batch_update():
            now.x = [shown[0].step] if shown else []
            now.y = [shown[0].win_share] if shown else []

    def clear(self) -> None:
        """Forget the review shown (and drop a running one's result): a new game."""
        self._run += 1
        self.review = self.game = self.seat = self.line = self._history = None
        self.points, self.flags, self.settled_step = [], [], None
        if self.figure is not None:
            self.figure.close()
            self.figure = None
        self.graph.children = [self.caption]
        self.graph.layout.display = "none"
        self.tools.layout.display = "none"
        self.progress.layout.display = "none"
        self.rows.children = []
        self.summary.value = ""

    # ------------------------------------------------------------------ actions
    def _on_click(self, _trace: Any, points: Any, _state: Any) -> None:
        if points.xs:
            self.jump(round(points.xs[0]))

    def _to_line(self, step: int) -> None:
        history: History = self.stepper.history
        if self.line is not None and self.line in history.lines and self.line != history.current:
            history.switch(self.line, step)

    def jump(self, step: int) -> None:
        """Show the reviewed line at ``step`` in the stepper."""
        if self.stepper.history is not self._history:
            self.clear()
            return
        self._to_line(step)
        self.stepper.go(step)
        self.mark(step)

    def to_flag(self, direction: int) -> int | None:
        """Jump to the flagged decision after (``+1``) or before (``-1``) the shown step
        (lichess's "next mistake"); returns its step, ``None`` when there is none."""
        history: History = self.stepper.history
        pos = history.pos if self.line in (None, history.current) else -1
        steps = [f.step for f in self.flags]
        later = [s for s in steps if s > pos] if direction > 0 else \
            [s for s in reversed(steps) if s < pos]
        if not later:
            return None
        self.jump(later[0])
        return later[0]

    def retry(self, step: int, reviewed_line: bool = True) -> None:
        """"Retry from here": a new line from ``step`` of the reviewed line (of the shown
        line if not ``reviewed_line``); the played line is kept as a variation."""
        if reviewed_line:
            self._to_line(step)
        history: History = self.stepper.history
        history.go(step)
        history.retry(step)
        self.stepper.go(step)
        self.mark(step)
        status = getattr(self.stepper, "status", None)
        if status is not None:
            d = history.game.decision
            humans = getattr(self.stepper, "humans", ())
            who = ("" if d is None else " — answer again above" if d.player < len(humans)
                   and humans[d.player] else f" — seat {d.player} is a bot here: it answers "
                   f"as before, so its line is followed")
            status.value = (f"<span style='color:#256'>retrying from step {step}{who}; the "
                            f"played line is kept (lines menu above the timeline)</span>")


# ---------------------------------------------------------------------------- the lines menu
def line_label(history: History, line_id: int) -> str:
    """A line in words: the main line, or where a variation leaves its parent."""
    line = history.lines[line_id]
    if line.parent is None:
        return f"main line · steps 0–{line.last}"
    own = line.own_steps
    start = f"line {line_id}: from step {line.fork}"
    if line.parent is not None and history.lines[line.parent].parent is not None:
        start += f" of line {line.parent}"  # a variation of a variation
    if own <= 0:
        return f"{start} · nothing played yet"
    after = line.snaps[line.fork + 1]
    return (f"{start}, {_words(after, after.answers[-1])} · {own} step{'s' if own != 1 else ''} "
            f"of its own")


class LinesView:
    """The history's lines as a menu (class ``lines-select``): pick one to show it where it
    parts from the shown one. Hidden while there is only the main line."""

    def __init__(self, stepper: Any) -> None:
        self.stepper = stepper
        self._quiet = False
        self.select = widgets.Dropdown(options=[], description="lines",
                                       layout=widgets.Layout(width="auto", min_width="340px"),
                                       style={"description_width": "36px"})
        self.select.add_class("lines-select")
        self.select.observe(self._on_pick, names="value")
        self.note = widgets.HTML()
        self.note.add_class("lines-note")
        self.widget = widgets.HBox([self.select, self.note],
                                   layout=widgets.Layout(display="none", align_items="center"))
        self.widget.add_class("lines-view")
        self.update()

    def update(self) -> None:
        history: History = self.stepper.history
        lines = history.line_list()
        self._quiet = True
        try:
            self.select.options = [(line_label(history, line.id), line.id) for line in lines]
            self.select.value = history.current
        finally:
            self._quiet = False
        self.widget.layout.display = "flex" if len(lines) > 1 else "none"
        kept = len(lines) - 1
        self.note.value = (f"<span style='color:#666;font-size:12px'>{kept} variation"
                           f"{'s' if kept != 1 else ''} kept: pick a line to go back to it"
                           f"</span>" if kept else "")

    def _on_pick(self, change: dict[str, Any]) -> None:
        if self._quiet or change["new"] is None:
            return
        history: History = self.stepper.history
        history.switch(int(change["new"]))
        self.stepper.go(history.pos)


__all__ = ["COLOURS", "LABELS", "SYMBOLS", "Flag", "LinesView", "Point", "ReviewPanel",
           "flag_text", "flagged", "line_label", "review_points", "why_words"]
