"""HTML for the hint (every candidate answer of the pending decision, estimated by the one
evaluation, :mod:`musici.analysis.evaluation`) and the game review (each decision labelled
inaccuracy / mistake / blunder by the win share it lost); the numbers come from
:mod:`musici.analysis.hints` and :mod:`musici.analysis.review`, the reasons from the
explanation code the controls use (:func:`musici.widgets.preview.option_note`, the
concert preview's :func:`~musici.widgets.preview.concert_outcome_for`)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from musici.analysis.evaluation import Evaluation
from musici.analysis.hints import headline, share_words
from musici.analysis.review import (
    Mistake,
    Review,
    answer_words,
    curve_summary,
    label_count,
    settled_words,
    why_text,
)
from musici.decisions import Answer, Decision
from musici.describe import PHASE_NAMES
from musici.widgets.words import rule_tag

if TYPE_CHECKING:
    from musici.engine import Game
    from musici.views import PlayerView

_HOW = ("Each answer was played to the end of the game (END awards included) by the {policy} "
        "bot for every seat, in the same {n} worlds sampled from what you can see; wins = the "
        "share of those games you win, with its 95 % interval. A best answer is named only "
        "when its interval clears every other answer's.")

_LABEL_COLOURS = {"blunder": "#c0392b", "mistake": "#e67e22", "inaccuracy": "#b7950b"}


def option_reason(view: PlayerView, decision: Decision, answer: Answer) -> str:
    """What ``answer`` does, in the words of the controls' notes and the concert preview
    ("S11 at the university …: good, +4 fame, 225 G"); "" when there are none."""
    from musici.widgets.preview import concert_outcome_for, option_note

    try:
        if decision.kind == "concert_orchestras" and answer:
            out = concert_outcome_for(view, decision, answer)
            return f"{out.rating.level}, {out.fame:+} fame, {out.income} G"
        if decision.space == "choice":
            return option_note(view, decision, answer)[0]
        if decision.space == "amount":
            return f"{answer} G of your {view.me.money} G"
    except (KeyError, ValueError):  # a note that does not apply to this option: no reason
        return ""
    return ""


def hint_html(game: Game, decision: Decision, estimates: Evaluation,
              worlds: int | None = None) -> str:
    """The hint: its headline (best or "too close to call") and a table of the answers,
    best first (class ``hint-table``), each with its estimate, interval and reason."""
    ev = estimates
    words = lambda a: answer_words(game, a)  # noqa: E731
    if len(ev.options) <= 1:
        only = words(ev.options[0].answer) if ev.options else "?"
        return (f"<div class='musici-hint'><b>Hint:</b> only one answer to consider here: "
                f"<b>{escape(only)}</b></div>")
    view = game.view(decision.player)
    best = ev.best()
    top = ev.options[0]
    rows = []
    for o in ev.options:
        is_best = best is not None and o.answer == best.answer
        style = "background:#e6f4e6;font-weight:bold" if is_best else ""
        if o.answer == top.answer:
            vs = "best" if is_best else "leader"
        else:
            mean, low, high = ev.gap(o.answer, top.answer)
            vs = f"{mean:+.0%} ({low:+.0%} to {high:+.0%})"
        reason = option_reason(view, decision, o.answer)
        rows.append(f"<tr style='{style}'><td>{escape(words(o.answer))}</td>"
                    f"<td style='text-align:right;white-space:nowrap'>{o.win_share:.0%} "
                    f"<span style='color:#888'>({o.win_low:.0%}–{o.win_high:.0%})</span></td>"
                    f"<td style='text-align:right;white-space:nowrap'>{o.fame:.1f} "
                    f"<span style='color:#888'>({o.fame_low:.1f}–{o.fame_high:.1f})</span></td>"
                    f"<td style='text-align:right;color:#666;white-space:nowrap'>{escape(vs)}</td>"
                    f"<td style='color:#555'>{escape(reason)}</td></tr>")
    verdict = "best" if best is not None else "too-close"
    return (f"<div class='musici-hint' data-verdict='{verdict}' style='font-size:12px'>"
            f"<b>Hint</b> for {escape(decision.kind.replace('_', ' '))} "
            f"{rule_tag(decision.rule)}: <span class='hint-headline'>"
            f"{escape(headline(ev, words))}</span>"
            f"<style>.hint-table td, .hint-table th {{padding:1px 8px}}</style>"
            f"<table class='hint-table' style='border-collapse:collapse'>"
            f"<tr><th style='text-align:left'>answer</th><th>you win</th><th>final fame</th>"
            f"<th>vs leader</th><th style='text-align:left'>what it does</th></tr>"
            f"{''.join(rows)}</table><div style='color:#666'>"
            f"{escape(_HOW.format(policy=ev.policy, n=ev.worlds))}</div></div>")


def hint_text(game: Game, decision: Decision, ev: Evaluation) -> list[str]:
    """The hint in plain lines (headline, then one line per answer with its reason)."""
    view = game.view(decision.player)
    lines = [headline(ev, lambda a: answer_words(game, a))]
    for o in ev.options:
        why = option_reason(view, decision, o.answer)
        lines.append(f"{answer_words(game, o.answer)}: {share_words(o)}"
                     + (f"; {why}" if why else ""))
    return lines


def review_html(game: Game, seat: int, mistakes: Sequence[Mistake], top: int = 5) -> str:
    """The labelled decisions of ``seat`` (the costliest first), the better choice and why,
    and the evaluation curve in words (class ``review-view``)."""
    if not mistakes:
        return "<div class='musici-review'><i>no decision of this seat to review</i></div>"
    flagged = [m for m in mistakes if m.label is not None]
    shown = (flagged or list(mistakes))[:top]
    items = []
    for m in shown:
        when = f"Month {m.month} · {PHASE_NAMES.get(m.phase, m.phase)} (step {m.step})"
        label = (f"<b style='color:{_LABEL_COLOURS[m.label]}'>{m.label}</b> "
                 if m.label else "")
        better = (escape(answer_words(game, m.best)) if m.label else "none clearly")
        items.append(
            f"<li style='margin-bottom:4px' data-step='{m.step}' data-label='{m.label or ''}'>"
            f"{label}<b>{escape(when)}</b>, "
            f"{escape(m.kind.replace('_', ' '))} {rule_tag(m.rule)}: you chose "
            f"<b>{escape(answer_words(game, m.chosen))}</b>; better: <b style='color:#2a7'>"
            f"{better}</b> ({escape(m.cost_words)})<br>"
            f"<span style='color:#555'>{escape(why_text(game, m))}</span></li>")
    counts = ""
    curve = ""
    if isinstance(mistakes, Review):
        counts = ", ".join(label_count(mistakes.count(n), n)
                           for n in ("blunder", "mistake", "inaccuracy"))
        curve = f"<div style='color:#555'>{escape(curve_summary(mistakes))}</div>"
        if settled := settled_words(mistakes):
            curve += f"<div class='review-settled' style='color:#555'>{escape(settled)}</div>"
    title = (f"the {len(items)} labelled" if flagged else
             f"nothing clearly lost; the {len(items)} costliest")
    return (f"<div class='musici-review' style='font-size:12.5px'><b>Review of seat {seat}: "
            f"{title} of {len(mistakes)} decisions</b>"
            + (f" <span>({escape(counts)})</span>" if counts else "") + curve
            + f"<ol style='padding-left:20px'>{''.join(items)}</ol></div>")


__all__ = ["hint_html", "hint_text", "option_reason", "review_html"]
