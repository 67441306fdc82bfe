"""The "since you last decided" panel: everything that happened since the last human
answer or button press, grouped by month and phase, in the player's words.

The shown seat's own concert is highlighted (class ``own-concert``) with its explanation
open (:func:`musici.analysis.explain_event`), so a learner sees the result of a concert
without digging. Rule ids carry their text on hover (``title=``).
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from musici.analysis import explain_event
from musici.describe import PHASE_NAMES, describe_event
from musici.events import Event
from musici.widgets.words import FRACTION_KINDS, mixed_numbers, rule_tag, strip_rule

if TYPE_CHECKING:
    from musici.engine import Game

MAX_EVENTS = 400  # a whole game of bots is ~1,500 events: show the newest ones
QUIET_KINDS = frozenset({"month_end", "removed"})
_OWN = ("background:#fff4e0;border-left:4px solid #ff7f0e;padding:3px 6px;margin:3px 0;"
        "list-style:none;margin-left:-18px")


def _line(e: Event, game: Game) -> str:
    text = strip_rule(describe_event(e, game.cards), e.rule)
    if e.kind in FRACTION_KINDS:
        text = mixed_numbers(text)
    return f"{escape(text)} {rule_tag(e.rule)}"


def since_html(game: Game, start: int, seat: int | None, *, title: str = "") -> str:
    """Events ``game.events[start:]`` that ``seat`` may see (all in the teacher view).

    ``seat``'s concerts (every concert in the teacher view) are highlighted with their
    explanation open."""
    events = game.events[start:]
    shown = [(start + i, e) for i, e in enumerate(events)
             if (seat is None or e.visible_to(seat)) and e.kind not in QUIET_KINDS]
    head = f"<b>{escape(title or 'Since you last decided')}</b>"
    if not shown:
        return (f"<div class='musici-since'>{head} <i>— nothing happened yet</i></div>")
    cut = len(shown) - MAX_EVENTS
    if cut > 0:
        shown = shown[cut:]
    groups: list[tuple[tuple[int, str], list[str]]] = []
    for index, e in shown:
        key = (e.month, e.phase)
        if not groups or groups[-1][0] != key:
            groups.append((key, []))
        own = e.kind == "concert" and (seat is None or e.player == seat)
        if own:
            lines = explain_event(e, game.cards, game.rules, events=game.events[:index + 1])
            why = "".join(f"<li>{escape(line.text)} {rule_tag(line.rule)}</li>" for line in lines)
            groups[-1][1].append(
                f"<li class='own-concert' style='{_OWN}'><b>{_line(e, game)}</b>"
                f"<details open><summary>why</summary><ol style='margin:2px 0;"
                f"padding-left:20px'>{why}</ol></details></li>")
        else:
            groups[-1][1].append(f"<li>{_line(e, game)}</li>")
    body = []
    for (month, phase), items in groups:
        when = "Final scoring" if phase == "END" else \
            f"Month {month} · {PHASE_NAMES.get(phase, phase)}"
        body.append(f"<div class='since-group' style='margin-top:3px;color:#1f4e79'>"
                    f"<b>{escape(when)}</b></div>"
                    f"<ul style='margin:1px 0;padding-left:18px'>{''.join(items)}</ul>")
    more = f"<div style='color:#999'>{cut} earlier event(s) not shown</div>" if cut > 0 else ""
    return (f"<div class='musici-since' style='font-size:12.5px;line-height:1.35'>{head}{more}"
            f"{''.join(body)}</div>")



__all__ = ["since_html"]
