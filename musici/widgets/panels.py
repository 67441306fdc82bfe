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

if TYPE_CHECKING:
    from musici.engine import Game

WHY_KINDS: tuple[str, ...] = ("concert", *PAYMENT_KINDS)
_BOX = ("display:inline-block;padding:3px 10px;margin:0 2px;border-radius:4px;"
        "border:1px solid #bbb;font-size:12px;")
_NOW = "background:#1f77b4;color:white;border-color:#1f77b4;font-weight:bold;"
_DONE = "background:#e8eef6;color:#555;"
_RULE = ("<span style='font-family:monospace;font-size:11px;background:#f2f2f2;padding:0 3px;"
         "border-radius:3px'>{}</span>")


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


def timeline_html(game: Game, step: int | None = None) -> str:
    """The month's five phases as boxes, the current one highlighted, and the month bar."""
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
    waiting = (f" · waiting for seat {d.player}: {escape(d.kind)} {_RULE.format(escape(d.rule))}"
               if d is not None else " · game over")
    step_text = f" · step {step}" if step is not None else ""
    return (f"<div class='musici-timeline'><b>{escape(when_text(game))}</b>{step_text}{waiting}"
            f"<div style='margin:4px 0'>{''.join(boxes)}</div><div>{month_bar}</div></div>")


def visible(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see (all of them in the teacher view, ``seat`` None)."""
    return [e for e in events if seat is None or e.visible_to(seat)]


def events_html(events: Sequence[Event], game: Game, seat: int | None) -> str:
    """The events in words, each with its rule id; private ones only for those who may see."""
    shown = visible(events, seat)
    if not shown:
        return "<div class='musici-events'><i>no events at this step</i></div>"
    items = []
    for e in shown:
        text = describe_event(e, game.cards)
        suffix = f" [{e.rule}]"
        if text.endswith(suffix):
            text = text[: -len(suffix)]
        items.append(f"<li>{escape(text)} {_RULE.format(escape(e.rule))}</li>")
    hidden = len(events) - len(shown)
    more = f"<div style='color:#999'>{hidden} private event(s) hidden</div>" if hidden else ""
    return (f"<div class='musici-events'><b>Events of this step</b>"
            f"<ul style='margin:2px 0;padding-left:18px'>{''.join(items)}</ul>{more}</div>")


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


def lines_html(lines: Sequence[Line]) -> str:
    """An explanation, one line per step, each with its rule id."""
    items = "".join(f"<li>{escape(line.text)} {_RULE.format(escape(line.rule))}</li>"
                    for line in lines)
    return f"<ol class='musici-why' style='margin:2px 0;padding-left:22px'>{items}</ol>"


def why_html(game: Game, index: int | None) -> str:
    if index is None or not 0 <= index < len(game.events):
        return "<i>no concert or payment this month yet</i>"
    event = game.events[index]
    return lines_html(explain_event(event, game.cards, game.rules))


__all__ = ["WHY_KINDS", "events_html", "lines_html", "timeline_html", "visible", "when_text",
           "why_html", "why_options"]
