"""HTML of the month summary (one row per seat: fame and money change and why) and of the
final score sheet (winner, each END award with its rule and who took it, final fame as
mixed numbers), from :mod:`musici.analysis.summary`'s data.

``summary_html(game, start)`` is what the stepper shows: the score sheet once the game is
over, else the summary of the latest month that ended since ``start``.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from musici.analysis.summary import (
    SeatMonth,
    award_label,
    ended_months,
    month_summary,
    score_sheet,
)
from musici.widgets.words import fame_text, reading_html, rule_tag, rule_title

if TYPE_CHECKING:
    from musici.engine import Game

# line-height set here: a notebook's page styles would give each row ~28 px
_TABLE = "border-collapse:collapse;font-size:12.5px;margin:3px 0;line-height:1.25"
_CELL = "padding:1px 5px;border-bottom:1px solid #e4e4e4;text-align:left;vertical-align:top"
_UP, _DOWN = "#2a7", "#c33"
_FIT = "max-width:100%;overflow-x:auto"  # a narrow column (JupyterLab's side panel) scrolls


def _name(seat: int, names: Sequence[str] | None) -> str:
    return names[seat] if names and seat < len(names) else f"seat {seat}"


def _signed(value: int, unit: str = "") -> str:
    colour = _UP if value > 0 else _DOWN if value < 0 else "#888"
    return f"<span style='color:{colour}'>{value:+d}{unit}</span>"


def _row(row: SeatMonth, names: Sequence[str] | None) -> str:
    causes = []
    for c in row.changes:
        parts = [f"{c.fame:+d} fame" if c.fame else "", f"{c.money:+d} G" if c.money else ""]
        amount = ", ".join(p for p in parts if p)
        causes.append(f"<span class='cause' title='{escape(c.rule)}: "
                      f"{escape(rule_title(c.rule), quote=True)}'>{escape(c.text)} "
                      f"{escape(amount)}</span>")
    why = " · ".join(causes) or "<i style='color:#888'>nothing changed</i>"
    return (f"<tr class='summary-row' data-seat='{row.seat}'>"
            f"<td style='{_CELL}'>{escape(_name(row.seat, names))}</td>"
            f"<td style='{_CELL};white-space:nowrap'>{row.fame_after} ({_signed(row.fame_change)})"
            f"</td><td style='{_CELL};white-space:nowrap'>{row.money_after} G "
            f"({_signed(row.money_change, ' G')})</td>"
            f"<td style='{_CELL}'>{why}</td></tr>")


def month_summary_html(game: Game, month: int, names: Sequence[str] | None = None) -> str:
    """The summary of a finished month: each seat's fame and money after it, the change,
    and why (hover a cause for its rule)."""
    rows = month_summary(game, month)
    head = "".join(f"<th style='{_CELL}'>{h}</th>" for h in ("", "fame", "money", "why"))
    return (f"<div class='month-summary' data-month='{month}' style='{_FIT}'><b>Month {month} "
            f"in brief</b> "
            f"{rule_tag('MONTH.3')}<table style='{_TABLE}'><tr>{head}</tr>"
            f"{''.join(_row(r, names) for r in rows)}</table></div>")


def _banner(winners: Sequence[int], tie_break: str | None, fame: str,
            names: Sequence[str] | None) -> str:
    who = " and ".join(escape(_name(s, names)) for s in winners)
    verb = "wins" if len(winners) == 1 else "share the win"
    how = " (tied on fame: more money decides)" if tie_break == "money" and \
        len(winners) == 1 else ""
    return (f"<div class='winner-banner' style='font-size:15px;font-weight:bold;"
            f"background:#fff4d6;border:1px solid #e0b84c;border-radius:6px;padding:4px 10px;"
            f"margin:3px 0'>★ {who} {verb} with {escape(fame)} fame{how} "
            f"{rule_tag('END.WIN')}</div>")


def score_sheet_html(game: Game, names: Sequence[str] | None = None) -> str:
    """The final score sheet: winner banner, each END award with its rule id and who took
    it, and per seat fame before the END, award fame, marker penalty (END.5), final fame
    (mixed numbers), money and rank — the numbers of ``game.results``."""
    sheet = score_sheet(game)
    top = sheet.rows[0]
    seats = range(game.n)
    award_head = "".join(f"<th style='{_CELL}'>{h}</th>" for h in
                         ("award", "rule", *(f"seat {s}" for s in seats), "taken by", "fame each"))
    awards = []
    for a in sheet.awards:
        counts = "".join(f"<td style='{_CELL};text-align:center'>{c}</td>" for c in a.counts)
        taken = " and ".join(escape(_name(s, names)) for s in a.winners) or "nobody"
        awards.append(f"<tr class='award-row' data-rule='{escape(a.rule)}'>"
                      f"<td style='{_CELL}'>{escape(award_label(a))}</td>"
                      f"<td style='{_CELL}'>{rule_tag(a.rule)}</td>{counts}"
                      f"<td style='{_CELL}'>{taken}</td>"
                      f"<td style='{_CELL}' class='award-share'>+{fame_text(a.share)}</td></tr>")
    final_head = "".join(f"<th style='{_CELL}'>{h}</th>" for h in
                         ("rank", "", f"fame after month {game.rules.months}",
                          "awards", "markers", "final fame", "money"))
    rows = []
    for r in sheet.rows:
        style = "font-weight:bold;background:#fff8e6" if r.winner else ""
        rows.append(f"<tr class='sheet-row' data-seat='{r.seat}' style='{style}'>"
                    f"<td style='{_CELL}'>{r.rank}</td>"
                    f"<td style='{_CELL}'>{escape(_name(r.seat, names))}</td>"
                    f"<td style='{_CELL}'>{r.fame_before}</td>"
                    f"<td style='{_CELL}'>+{fame_text(r.awards)}</td>"
                    f"<td style='{_CELL}'>{-r.markers if r.markers else 0}</td>"
                    f"<td style='{_CELL}' class='final-fame'>{fame_text(r.fame)}</td>"
                    f"<td style='{_CELL}' class='final-money'>{r.money} G</td></tr>")
    floor = (f"<div style='color:#666;font-size:11.5px'>"
             f"{reading_html('RULING-FAME-FLOOR', game.rules)}; markers cost 1 fame each "
             f"{rule_tag('END.5')}; "
             f"tied players share an award {rule_tag('END.6')}.</div>")
    return (f"<div class='score-sheet' style='{_FIT}'><b>Final score sheet</b>"
            f"{_banner(sheet.winners, sheet.tie_break, fame_text(top.fame), names)}"
            f"<table class='sheet-table' style='{_TABLE}'><tr>{final_head}</tr>{''.join(rows)}"
            f"</table><details class='sheet-awards' open><summary style='cursor:pointer'>"
            f"<b>The END awards</b> ({len(sheet.awards)})</summary>"
            f"<table class='award-table' style='{_TABLE}'><tr>{award_head}</tr>"
            f"{''.join(awards)}</table></details>{floor}</div>")


def summary_html(game: Game, start: int = 0, names: Sequence[str] | None = None) -> str:
    """What the stepper shows above "since": the score sheet once the game is over (with
    the last month's summary folded, if it ended since ``start``), else the summary of the
    latest month that ended in ``game.events[start:]``, else ""."""
    months = ended_months(game.events[start:])
    if game.finished:  # the last month's summary one click away under the score sheet
        last = (f"<details class='last-month'><summary style='cursor:pointer'>Month "
                f"{months[-1]} in brief</summary>{month_summary_html(game, months[-1], names)}"
                "</details>" if months else "")
        return score_sheet_html(game, names) + last
    return month_summary_html(game, months[-1], names) if months else ""


__all__ = ["month_summary_html", "score_sheet_html", "summary_html"]
