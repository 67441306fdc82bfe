"""Hints: the search bot's estimate of every legal answer of a pending decision.

As a chess analysis board does, :func:`estimate_options` rates each option of the decision
a seat faces: it samples a few worlds the seat cannot tell from the real one
(``view.resample``), answers each option in each world and lets the search bot's rollout
policy play to the end of the month, then scores the position with
:meth:`musici.strategies.search.SearchBot.value` (the seat's fame plus expected awards,
money and playable hand, minus the best rival's). Every option sees the same worlds, so
the comparison is fair. Cheap on purpose (3 worlds by default, about 20–100 ms).

Only what the seat may see is read (the view), and all chance comes from ``seed``: the same
decision always gets the same hint.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from musici.decisions import Answer, Decision
from musici.strategies.search import SearchBot

if TYPE_CHECKING:
    from musici.views import PlayerView

HINT_WORLDS = 3
MAX_OPTIONS = 12


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


@dataclass(frozen=True, slots=True)
class Estimate:
    """One option's estimate: the mean value over the sampled worlds (higher is better),
    and the seat's mean fame and money where the rollouts stopped (the why of the value)."""

    answer: Answer
    value: float
    fame: float = 0.0
    money: float = 0.0


def candidates(decision: Decision, bot: SearchBot, view: PlayerView) -> list[Answer]:
    """The answers estimated: every option of a choice (at most ``MAX_OPTIONS``), a few
    amounts for an amount; a subset decision only by the bot's own pick."""
    default = bot.fallback(view, decision)
    return bot.candidates(view, decision, default)


def estimate_options(view: PlayerView, decision: Decision, *, seed: int | str = 0,
                     worlds: int = HINT_WORLDS, extra: tuple[Answer, ...] = (),
                     bot: SearchBot | None = None) -> list[Estimate]:
    """Each candidate answer of ``decision`` (plus ``extra`` answers, e.g. the one a player
    gave) with its estimate, best first. ``view`` is the deciding seat's view."""
    if view.seat != decision.player:
        raise ValueError(f"the view is seat {view.seat}'s but seat {decision.player} decides")
    bot = bot or SearchBot(worlds=worlds, max_candidates=MAX_OPTIONS)
    cands = candidates(decision, bot, view)
    for answer in extra:
        answer = decision.normalize(answer)
        if answer not in cands:
            cands.append(answer)
    rng = random.Random(f"hint:{seed}")
    totals = [0.0] * len(cands)
    fames = [0.0] * len(cands)
    moneys = [0.0] * len(cands)
    policies = [bot.rollout] * view.n_players if callable(bot.rollout) else list(bot.rollout)
    stop = view.month + bot.horizon
    for _ in range(worlds):
        world = view.resample(random.Random(rng.getrandbits(64)))
        for i, cand in enumerate(cands):
            game = world.clone(keep_log=False)
            game.answer(cand)
            while game.decision is not None and game.month < stop:
                d = game.decision
                game.answer(policies[d.player](game.view(d.player), d))
            totals[i] += bot.value(game, view.seat)
            me = game.players[view.seat]
            fames[i] += float(game.results["fame"][view.seat]) if game.results else me.fame
            moneys[i] += me.money
    out = [Estimate(c, t / worlds, f / worlds, m / worlds)
           for c, t, f, m in zip(cands, totals, fames, moneys, strict=True)]
    return sorted(out, key=lambda e: -e.value)


__all__ = ["HINT_WORLDS", "Estimate", "estimate_options", "fame_text"]
