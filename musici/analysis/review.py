"""A game review, as a chess analysis board gives one: a seat's costliest decisions.

:func:`review_game` replays a finished (or unfinished) game from its seed and recorded
answers; at each decision of the reviewed seat that the search bot searches, it estimates
every option from that seat's view (:func:`musici.analysis.hints.estimate_options`, a few
sampled worlds) and records the drop from the best option's estimate to the answer given.
The largest drops are the costliest decisions; each comes with the better choice and why
(the two estimates, in the words of the decision and its rule).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from musici.analysis.hints import HINT_WORLDS, estimate_options
from musici.decisions import Answer
from musici.describe import PHASE_NAMES, card_name
from musici.engine import Game
from musici.ruletext import rule_text
from musici.strategies.search import SEARCHED_KINDS

TOP = 5


@dataclass(frozen=True, slots=True)
class Mistake:
    """One reviewed decision: what was answered, the best option found, and the drop."""

    step: int  # the game step (answers before it)
    month: int
    phase: str
    kind: str
    rule: str
    chosen: Answer
    best: Answer
    chosen_value: float
    best_value: float
    options: int  # options estimated
    chosen_fame: float = 0.0  # the seat's mean fame and money where the rollouts stopped
    best_fame: float = 0.0
    chosen_money: float = 0.0
    best_money: float = 0.0

    @property
    def drop(self) -> float:
        return self.best_value - self.chosen_value


def answer_words(game: Game, answer: Answer) -> str:
    """An answer in words: card names for card ids, "seat 2" for ``player:2``."""
    if isinstance(answer, tuple):
        return " + ".join(answer_words(game, a) for a in answer) or "nothing"
    if isinstance(answer, int):
        return f"{answer} G"
    if isinstance(answer, str) and answer.startswith("player:"):
        return f"seat {answer.split(':', 1)[1]}"
    if isinstance(answer, str) and answer.startswith("deck:"):
        return f"the {answer.split(':', 1)[1]} discovery deck"
    name = card_name(game.cards, answer)
    return name.replace("-", " ") if name == answer else name


def _replay_start(game: Game) -> Game:
    return Game(game.n, game.seed, game.rules, game.cards)


def review_game(game: Game, seat: int, *, worlds: int = HINT_WORLDS,
                kinds: Sequence[str] = tuple(SEARCHED_KINDS)) -> list[Mistake]:
    """Every searched decision of ``seat`` in ``game``, costliest first (largest drop)."""
    if not 0 <= seat < game.n:
        raise ValueError(f"no seat {seat} in a {game.n}-player game")
    replay = _replay_start(game)
    out: list[Mistake] = []
    for step, answer in enumerate(game.answers):
        d = replay.decision
        if d is None:
            break
        if d.player == seat and d.kind in kinds and (d.space != "choice" or len(d.options) > 1):
            view = replay.view(seat)
            estimates = estimate_options(view, d, seed=f"{game.seed}:{step}", worlds=worlds,
                                         extra=(answer,))
            chosen = d.normalize(answer)
            mine = next(e for e in estimates if e.answer == chosen)
            best = estimates[0]
            out.append(Mistake(step, replay.month, replay.phase, d.kind, d.rule, chosen,
                               best.answer, mine.value, best.value, len(estimates),
                               mine.fame, best.fame, mine.money, best.money))
        replay.answer(answer)
    return sorted(out, key=lambda m: (-m.drop, m.step))


def why_text(game: Game, m: Mistake) -> str:
    """The better choice and why, in a player's words."""
    rule = rule_text(m.rule)
    rule = rule if len(rule) <= 140 else rule[:137] + "…"
    end = "at the end of the month" if m.month < game.rules.months else "at the end"
    return (f"{end}, {answer_words(game, m.best)} led on average to fame {m.best_fame:.1f} "
            f"and {m.best_money:.0f} G, {answer_words(game, m.chosen)} to fame "
            f"{m.chosen_fame:.1f} and {m.chosen_money:.0f} G; estimated {m.best_value:+.1f} "
            f"against {m.chosen_value:+.1f} (your lead over the best rival, counting expected "
            f"awards, money and playable cards; {m.options} options tried on sampled worlds). "
            f"Rule {m.rule}: {rule}")


def review_text(game: Game, seat: int, mistakes: Sequence[Mistake], top: int = TOP) -> str:
    """The review as plain text (the ``musici review`` command)."""
    lines = [f"Review of seat {seat} (seed {game.seed}): {len(mistakes)} decisions estimated; "
             f"the {min(top, len(mistakes))} costliest:"]
    for i, m in enumerate(mistakes[:top], 1):
        when = f"month {m.month} · {PHASE_NAMES.get(m.phase, m.phase)}"
        lines.append(f"{i}. step {m.step}, {when}, {m.kind.replace('_', ' ')}: you chose "
                     f"{answer_words(game, m.chosen)}; better: {answer_words(game, m.best)} "
                     f"(−{m.drop:.1f})")
        lines.append(f"   why: {why_text(game, m)}")
    if not mistakes:
        lines.append("no searched decision of this seat was found")
    return "\n".join(lines)


__all__ = ["Mistake", "answer_words", "review_game", "review_text", "why_text"]
