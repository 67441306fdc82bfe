"""Hints: every candidate answer of a pending decision, estimated by the one evaluation.

:func:`estimate_options` calls :func:`musici.analysis.evaluation.evaluate`: each answer is
played to the END (END awards included) by the greedy play-out policy in the same sampled
worlds (``view.resample``), and each gets its expected final win share and fame with a
95 % interval. The hint names a best answer only when its paired interval clears every
other answer's; otherwise it says "too close to call" (:meth:`Evaluation.best`).

Cost: a play-out to the END costs about 5-20 ms of one core (less late in the game), so a
hint of ``HINT_WORLDS`` (24) worlds for 2-12 candidates takes about 0.3-5 s; racing stops
early when one answer is clearly ahead. ``progress`` reports the worlds played, so a widget
shows it when a hint takes longer than ``HINT_SECONDS``.

Only what the seat may see is read (the view), and all chance comes from ``seed``: the same
decision always gets the same hint.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from musici.analysis.evaluation import Evaluation, OptionValue, evaluate
from musici.decisions import Answer, Decision

if TYPE_CHECKING:
    from musici.views import PlayerView

HINT_WORLDS = 24  # the most worlds a hint plays (racing may stop earlier)
HINT_MIN_WORLDS = 8
HINT_SECONDS = 2.0  # beyond this a widget shows the hint's progress


def fame_text(value: Any) -> str:
    """Fame as a player writes it: ``35``, ``35½``, ``-2⅓``; accepts int, Fraction, float or
    the event log's "71/2" strings."""
    if isinstance(value, str):
        value = Fraction(value)
    frac = Fraction(value).limit_denominator(12)
    sign = "-" if frac < 0 else ""
    frac = abs(frac)
    whole, rest = divmod(frac.numerator, frac.denominator)
    if not rest:
        return f"{sign}{whole}"
    glyph = {(1, 2): "½", (1, 3): "⅓", (2, 3): "⅔", (1, 4): "¼", (3, 4): "¾"}.get(
        (rest, frac.denominator), f" {rest}/{frac.denominator}")
    return f"{sign}{whole}{glyph}" if whole else f"{sign}{glyph.strip()}"


def estimate_options(view: PlayerView, decision: Decision, *, seed: int | str = 0,
                     worlds: int = HINT_WORLDS, extra: Sequence[Answer] = (),
                     progress: Callable[[int, int], None] | None = None) -> Evaluation:
    """The hint's evaluation of ``decision`` from ``view`` (the deciding seat's view): every
    candidate answer (plus ``extra``) with its estimate and interval, best first."""
    return evaluate(view, decision, seed=f"hint:{seed}", extra=extra,
                    min_worlds=min(HINT_MIN_WORLDS, worlds), max_worlds=worlds,
                    progress=progress)


def share_words(o: OptionValue) -> str:
    """"wins 31 % (20-43 %), final fame 15.9 (14.2-17.5)"."""
    return (f"wins {o.win_share:.0%} ({o.win_low:.0%}-{o.win_high:.0%}), final fame "
            f"{o.fame:.1f} ({o.fame_low:.1f}-{o.fame_high:.1f})")


def headline(ev: Evaluation, words: Callable[[Answer], str] = repr) -> str:
    """The hint in one sentence: the best answer and by how much, or "too close to call"
    and, when final fame does separate the leaders, which one scores more fame."""
    if len(ev.options) <= 1:
        only = words(ev.options[0].answer) if ev.options else "?"
        return f"only one answer to consider: {only}"
    top, second = ev.options[0], ev.options[1]
    best = ev.best()
    gap, low, high = ev.gap(top.answer, second.answer)
    if best is not None:
        return (f"Best: {words(top.answer)}: it wins {top.win_share:.0%} of {ev.worlds} sampled "
                f"games, {gap:+.0%} against the next best, {words(second.answer)} (paired "
                f"interval {low:+.0%} to {high:+.0%}).")
    text = (f"Too close to call: {words(top.answer)} wins {top.win_share:.0%} and "
            f"{words(second.answer)} {second.win_share:.0%} of {ev.worlds} sampled games; "
            f"the difference ({low:+.0%} to {high:+.0%}) could be luck.")
    by_fame = max(ev.options, key=lambda o: (o.fame, -ev.options.index(o)))
    others = [o for o in ev.options if o is not by_fame]
    if others and all(ev.fame_gap(by_fame.answer, o.answer)[1] > 0 for o in others):
        text += (f" By final fame {words(by_fame.answer)} is clearly ahead "
                 f"({by_fame.fame:.1f} on average).")
    return text


def hint_lines(ev: Evaluation, words: Callable[[Answer], str] = repr,
               reason: Callable[[Answer], str] | None = None) -> list[str]:
    """The hint as text: the headline, then one line per option (its estimate, its
    interval and ``reason(answer)``, the explanation code's words for it)."""
    lines = [headline(ev, words)]
    for o in ev.options:
        why = reason(o.answer) if reason is not None else ""
        lines.append(f"- {words(o.answer)}: {share_words(o)}" + (f"; {why}" if why else ""))
    lines.append(f"(each answer played to the end of the game by the {ev.policy} bot for "
                 f"every seat, in the same {ev.worlds} worlds sampled from what you can see; "
                 f"intervals 95 %)")
    return lines


__all__ = ["HINT_MIN_WORLDS", "HINT_SECONDS", "HINT_WORLDS", "estimate_options", "fame_text",
           "headline", "hint_lines", "share_words"]
