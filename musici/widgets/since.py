"""The "since you last decided" panel: what happened since the last human answer or button
press, grouped by month and phase, one line per event in the player's words.

The LATEST lines are shown (:data:`LATEST`); earlier ones are folded, one click away, so a
long stretch (the "end" button runs a whole game) opens on how it ended, not on month 1.
The shown seat's own concert is highlighted (class ``own-concert``) with its explanation
folded to what decided the outcome (:func:`musici.widgets.panels.lines_html`). Rule ids
carry their text on hover (``title=``). The month summary and the score sheet are
:mod:`musici.widgets.summary`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from musici.analysis import explain_event
from musici.describe import PHASE_NAMES, describe_event
from musici.events import Event
from musici.widgets.panels import lines_html
from musici.widgets.words import FRACTION_KINDS, mixed_numbers, rule_tag, strip_rule

if TYPE_CHECKING:
    from musici.engine import Game

LATEST = 40  # lines shown open: the newest ones
MAX_EVENTS = 400  # at most this many more, folded (a whole game of bots is ~1,500 events)
QUIET_KINDS = frozenset({"month_end", "removed"})
_OWN = ("background:#fff4e0;border-left:4px solid #ff7f0e;padding:3px 6px;margin:3px 0;"
        "list-style:none;margin-left:-18px")


def event_line(e: Event, game: Game) -> str:
    """One event as one line of text (fame fractions as mixed numbers), without its rule id."""
    text = strip_rule(describe_event(e, game.cards), e.rule)
    return mixed_numbers(text) if e.kind in FRACTION_KINDS else text


def _line(e: Event, game: Game) -> str:
    return f"{escape(event_line(e, game))} {rule_tag(e.rule)}"


def _groups(shown: Sequence[tuple[int, Event]], game: Game, seat: int | None,
            latest: int | None) -> str:
    """The events under month and phase headings; ``latest``: the index of the concert
    whose "why" is open in the teacher view."""
    groups: list[tuple[tuple[int, str], list[str]]] = []
    for index, e in shown:
        key = (e.month, e.phase)
        if not groups or groups[-1][0] != key:
            groups.append((key, []))
        own = e.kind == "concert" and (seat is None or e.player == seat)
        if own:
            lines = explain_event(e, game.cards, game.rules, events=game.events[:index + 1])
            groups[-1][1].append(
                f"<li class='since-line own-concert' style='{_OWN}'><b>{_line(e, game)}</b>"
                f"<details{' open' if seat is not None or index == latest else ''}>"
                f"<summary>why</summary>{lines_html(lines)}</details></li>")
        else:
            groups[-1][1].append(f"<li class='since-line'>{_line(e, game)}</li>")
    body = []
    for (month, phase), items in groups:
        when = "Final scoring" if phase == "END" else \
            f"Month {month} · {PHASE_NAMES.get(phase, phase)}"
        body.append(f"<div class='since-group' style='margin-top:3px;color:#1f4e79'>"
                    f"<b>{escape(when)}</b></div>"
                    f"<ul style='margin:1px 0;padding-left:18px'>{''.join(items)}</ul>")
    return "".join(body)


def _span(events: Sequence[tuple[int, Event]]) -> str:
    first, last = events[0][1].month, events[-1][1].month
    return f"month {first}" if first == last else f"months {first}–{last}"


def since_html(game: Game, start: int, seat: int | None, *, title: str = "") -> str:
    """Events ``game.events[start:]`` that ``seat`` may see (all in the teacher view): the
    latest :data:`LATEST` open, earlier ones folded in a closed ``<details>``.

    ``seat``'s concerts are highlighted with their explanation open (in the teacher view
    every concert is highlighted, the latest one's explanation open)."""
    events = game.events[start:]
    shown = [(start + i, e) for i, e in enumerate(events)
             if (seat is None or e.visible_to(seat)) and e.kind not in QUIET_KINDS]
    head = f"<b>{escape(title or 'Since you last decided')}</b>"
    if not shown:
        return (f"<div class='musici-since'>{head} <i>— nothing happened yet</i></div>")
    # In the teacher view every concert is highlighted; only the latest one's "why" is open.
    concert = max((i for i, e in shown if e.kind == "concert"), default=None)
    latest, earlier = shown[-LATEST:], shown[:-LATEST]
    folded = ""
    if earlier:
        lost = max(0, len(earlier) - MAX_EVENTS)
        older = (f"<div class='since-older' style='color:#999'>{lost} older event(s) not "
                 f"shown (the table and the why? tab have them)</div>" if lost else "")
        folded = (f"<details class='since-earlier'><summary style='cursor:pointer;color:#555'>"
                  f"{len(earlier)} earlier event(s), {_span(earlier)}</summary>{older}"
                  f"{_groups(earlier[lost:], game, seat, concert)}</details>")
    return (f"<div class='musici-since' style='font-size:12.5px;line-height:1.35'>{head}"
            f"{folded}{_groups(latest, game, seat, concert)}</div>")


__all__ = ["LATEST", "event_line", "since_html"]
