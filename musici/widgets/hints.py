"""HTML for the hint (the search bot's estimate of each option of the pending decision) and
the game review (the costliest decisions); the numbers come from
:mod:`musici.analysis.hints` and :mod:`musici.analysis.review`."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from musici.analysis.hints import Estimate
from musici.analysis.review import Mistake, answer_words, why_text
from musici.decisions import Decision
from musici.describe import PHASE_NAMES
from musici.widgets.words import rule_tag

if TYPE_CHECKING:
    from musici.engine import Game

_HOW = ("estimate = your lead over the best rival at the end of the month (fame, plus awards, "
        "money and playable cards weighed), averaged over {n} worlds the bot samples from what "
        "you can see; higher is better. Your fame and money: where the bots' play-out of the "
        "month left you, on average")


def hint_html(game: Game, decision: Decision, estimates: Sequence[Estimate], worlds: int) -> str:
    """A table of the options, best first (class ``hint-table``)."""
    if len(estimates) <= 1:
        only = answer_words(game, estimates[0].answer) if estimates else "?"
        return (f"<div class='musici-hint'><b>Hint:</b> this kind of decision is not searched; "
                f"the bot would answer <b>{escape(only)}</b></div>")
    best = estimates[0].value
    rows = []
    for i, e in enumerate(estimates):
        style = "background:#e6f4e6;font-weight:bold" if i == 0 else ""
        rows.append(f"<tr style='{style}'><td>{escape(answer_words(game, e.answer))}</td>"
                    f"<td style='text-align:right'>{e.value:+.1f}</td>"
                    f"<td style='text-align:right'>{e.fame:.1f}</td>"
                    f"<td style='text-align:right'>{e.money:.0f} G</td>"
                    f"<td style='text-align:right;color:#888'>"
                    f"{'best' if i == 0 else f'{e.value - best:+.1f}'}</td></tr>")
    return (f"<div class='musici-hint' style='font-size:12px'><b>Hint</b> for "
            f"{escape(decision.kind.replace('_', ' '))} {rule_tag(decision.rule)}: "
            f"<style>.hint-table td, .hint-table th {{padding:1px 10px}}</style>"
            f"<table class='hint-table' style='border-collapse:collapse'>"
            f"<tr><th style='text-align:left'>option</th><th>estimate</th><th>your fame</th>"
            f"<th>your money</th><th>vs best</th></tr>"
            f"{''.join(rows)}</table><div style='color:#666'>{escape(_HOW.format(n=worlds))}"
            f"</div></div>")


def review_html(game: Game, seat: int, mistakes: Sequence[Mistake], top: int = 5) -> str:
    """The costliest decisions of ``seat``, with the better choice and why (class
    ``review-view``)."""
    if not mistakes:
        return "<div class='musici-review'><i>no decision of this seat to review</i></div>"
    items = []
    for m in list(mistakes)[:top]:
        when = f"Month {m.month} · {PHASE_NAMES.get(m.phase, m.phase)} (step {m.step})"
        items.append(
            f"<li style='margin-bottom:4px'><b>{escape(when)}</b>, "
            f"{escape(m.kind.replace('_', ' '))} {rule_tag(m.rule)}: you chose "
            f"<b>{escape(answer_words(game, m.chosen))}</b>; better: <b style='color:#2a7'>"
            f"{escape(answer_words(game, m.best))}</b> (−{m.drop:.1f})<br>"
            f"<span style='color:#555'>{escape(why_text(game, m))}</span></li>")
    return (f"<div class='musici-review' style='font-size:12.5px'><b>Review of seat {seat}: "
            f"the {len(items)} costliest of {len(mistakes)} decisions</b>"
            f"<ol style='padding-left:20px'>{''.join(items)}</ol></div>")


__all__ = ["hint_html", "review_html"]
