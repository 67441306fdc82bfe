"""HTML for the stepper's text panels: the phase timeline, the step's events, the "why".

Plain functions returning escaped HTML strings (shown in ``widgets.HTML``), so they can be
tested and timed without a front end.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import TYPE_CHECKING

from musici.analysis import PAYMENT_KINDS, Line, explain_event
from musici.describe import PHASE_NAMES, describe_event
from musici.events import Event
from musici.state import PHASES
from musici.widgets.words import FRACTION_KINDS, mixed_numbers, rule_tag

if TYPE_CHECKING:
    from musici.engine import Game

WHY_KINDS: tuple[str, ...] = ("concert", *PAYMENT_KINDS)
_BOX = ("display:inline-block;padding:3px 10px;margin:0 2px;border-radius:4px;"
        "border:1px solid #bbb;font-size:12px;")
_NOW = "background:#1f77b4;color:white;border-color:#1f77b4;font-weight:bold;"
_DONE = "background:#e8eef6;color:#555;"


def when_text(game: Game) -> str:
    """"Month 3 · P4 actions" (with the P4 round), "Set-up" or "Final scoring"."""
    if game.phase == "SETUP":
        return f"Month {game.month} · Set-up"
    if game.phase == "END" or game.finished:
        return f"Month {game.rules.months} · Final scoring"
    text = f"Month {game.month} · {PHASE_NAMES.get(game.phase, game.phase)}"
    if game.phase == "P4" and game.round:
        text += f" · round {game.round}"
    return text


def settled_months(events: Iterable[Event], game: Game) -> list[int]:
    """Months whose P5 settlement happened in ``events`` (a step's) and is over now."""
    months = sorted({e.month for e in events if e.phase == "P5"})
    return [m for m in months if (game.month, game.phase) != (m, "P5")]


def timeline_html(game: Game, step: int | None = None,
                  step_events: Sequence[Event] = ()) -> str:
    """The month's five phases as boxes, the current one highlighted, and the month bar.
    A step that went through a P5 settlement (P5 seldom asks anything, so the stepper
    rarely stops in it) is marked "P5 settled" with the month (class ``p5-settled``)."""
    months = game.rules.months
    done = game.phase == "END" or game.finished
    index = PHASES.index(game.phase) if game.phase in PHASES else (5 if done else -1)
    boxes = []
    for i, phase in enumerate(PHASES):
        style = _BOX + (_NOW if i == index else _DONE if i < index else "")
        boxes.append(f"<span class='phase-box' style='{style}'>{escape(PHASE_NAMES[phase])}</span>")
    month_bar = "".join(
        f"<span title='month {m}' style='display:inline-block;width:14px;height:6px;margin:0 1px;"
        f"background:{'#1f77b4' if m < game.month or done else '#9ecae1' if m == game.month else '#eee'}'>"
        "</span>" for m in range(1, months + 1))
    d = game.decision
    waiting = (f" · waiting for seat {d.player}: {escape(d.kind.replace('_', ' '))} "
               f"{rule_tag(d.rule)}"
               if d is not None else " · game over")
    step_text = f" · step {step}" if step is not None else ""
    settled = "".join(
        f"<span class='p5-settled' style='{_BOX}background:#e6f4e6;border-color:#5a5'>"
        f"month {m}: P5 settled</span>" for m in settled_months(step_events, game))
    return (f"<div class='musici-timeline'><b>{escape(when_text(game))}</b>{step_text}{waiting}"
            f"<div style='margin:4px 0'>{''.join(boxes)}{settled}</div><div>{month_bar}</div>"
            "</div>")


def visible(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see (all of them in the teacher view, ``seat`` None)."""
    return [e for e in events if seat is None or e.visible_to(seat)]


def events_html(events: Sequence[Event], game: Game, seat: int | None) -> str:
    """The events in words, each with its rule id; private ones only for those who may see."""
    shown = visible(events, seat)
    if not shown:
        return "<div class='musici-events'><i>no events at this step</i></div>"
    # One list per (month, phase): a step that crosses phases (a bot's last answer of P4
    # runs the whole P5 settlement) shows each phase's events under its own heading.
    groups: list[tuple[tuple[int, str], list[str]]] = []
    for e in shown:
        text = describe_event(e, game.cards)
        suffix = f" [{e.rule}]"
        if text.endswith(suffix):
            text = text[: -len(suffix)]
        if e.kind in FRACTION_KINDS:
            text = mixed_numbers(text)
        if not groups or groups[-1][0] != (e.month, e.phase):
            groups.append(((e.month, e.phase), []))
        groups[-1][1].append(f"<li>{escape(text)} {rule_tag(e.rule)}</li>")
    body = []
    for (month, phase), items in groups:
        if len(groups) > 1:
            body.append(f"<div class='events-phase' style='margin-top:3px'><i>Month {month} · "
                        f"{escape(PHASE_NAMES.get(phase, phase))}</i></div>")
        body.append(f"<ul style='margin:2px 0;padding-left:18px'>{''.join(items)}</ul>")
    hidden = len(events) - len(shown)
    more = f"<div style='color:#999'>{hidden} private event(s) hidden</div>" if hidden else ""
    return (f"<div class='musici-events'><b>Events of this step</b>{''.join(body)}{more}"
            "</div>")


def why_options(game: Game, seat: int | None, limit: int = 60) -> list[tuple[str, int]]:
    """(label, event index) for this and last month's concerts and payments, newest first
    (last month's too, so the settlement stays explainable after a new month begins)."""
    out: list[tuple[str, int]] = []
    events = game.events
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if e.month < game.month - 1 and e.phase != "END":
            break
        if e.kind in WHY_KINDS and (seat is None or e.visible_to(seat)):
            label = f"M{e.month} {e.phase} · {describe_event(e, game.cards)}"
            out.append((label if len(label) <= 110 else label[:107] + "…", i))
            if len(out) >= limit:
                break
    return out


_FAILED = ("does not hold", "not checked")  # explain_concert's words for a condition not met


def split_lines(lines: Sequence[Line]) -> tuple[list[Line], list[Line]]:
    """(what decided the outcome, the conditions that did not hold or were not checked)."""
    decided = [line for line in lines if not line.text.startswith(_FAILED)]
    failed = [line for line in lines if line.text.startswith(_FAILED)]
    return decided, failed


def _items(lines: Sequence[Line]) -> str:
    # a condition that held decided the rating: in bold
    return "".join(f"<li>{'<b>' if line.text.startswith('holds:') else ''}{escape(line.text)}"
                   f"{'</b>' if line.text.startswith('holds:') else ''} {rule_tag(line.rule)}</li>"
                   for line in lines)


def lines_html(lines: Sequence[Line]) -> str:
    """An explanation folded to what decided the outcome, each line with its rule id; the
    conditions that did not hold are one click away (a closed ``<details>``)."""
    decided, failed = split_lines(lines)
    html = (f"<ol class='musici-why' style='margin:2px 0;padding-left:22px'>{_items(decided)}"
            "</ol>")
    if failed:
        html += (f"<details class='why-failed' style='margin:2px 0 2px 8px'><summary "
                 f"style='cursor:pointer;color:#555'>{len(failed)} condition(s) that did not "
                 f"hold</summary><ul style='margin:2px 0;padding-left:22px;color:#666'>"
                 f"{_items(failed)}</ul></details>")
    return html


def why_html(game: Game, index: int | None) -> str:
    if index is None or not 0 <= index < len(game.events):
        return "<i>no concert or payment this month yet</i>"
    event = game.events[index]
    return lines_html(explain_event(event, game.cards, game.rules, events=game.events))


__all__ = ["WHY_KINDS", "events_html", "lines_html", "settled_months", "split_lines",
           "timeline_html", "visible", "when_text", "why_html", "why_options"]
