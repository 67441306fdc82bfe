"""A game review, as lichess gives one: each decision of a seat labelled by what it cost.

:func:`review_game` replays a game (finished or not) from its seed and recorded answers; at
each decision of the reviewed seat with more than one candidate answer it calls the one
evaluation (:func:`musici.analysis.evaluation.evaluate`) from that seat's view in two
stages. The *screen* plays every candidate answer, the answer given included, in the same
8 sampled worlds (common random numbers) and finds the leader. When the leader is not the
answer given and leads it, the *pair* of them is played in 32 fresh worlds, again both in
the same worlds: fresh, because the leader of several noisy estimates is biased upward
(the winner's curse), and only two answers, because a review must measure one difference
well rather than all of them roughly. The drop is the paired difference of final win
share, leader minus answer given, with its 95 % interval.

Labels (of win share, the chance of winning the game, END.WIN), given only when the
interval's *lower* bound clears the threshold, so luck of the sampled worlds is not
called a mistake:

* inaccuracy: the drop is at least ``INACCURACY`` (0.05) for sure,
* mistake: at least ``MISTAKE`` (0.10),
* blunder: at least ``BLUNDER`` (0.20).

A decision whose interval does not clear 0.05 is not labelled (it may still have cost
something; more worlds would tell). ``curve`` is the seat's estimated win share after each
reviewed decision (the played answer's estimate), for an evaluation graph.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterator, Sequence
from dataclasses import dataclass
from typing import overload

from musici.analysis.evaluation import Evaluation, evaluate
from musici.analysis.hints import share_words
from musici.decisions import Answer
from musici.describe import PHASE_NAMES
from musici.describe import answer_words as describe_answer
from musici.engine import Game
from musici.ruletext import rule_text

TOP = 5
REVIEW_WORLDS = 32  # fresh worlds measuring the drop from the screen's leader to the answer
REVIEW_MIN_WORLDS = 8  # worlds screening every answer
INACCURACY, MISTAKE, BLUNDER = 0.05, 0.10, 0.20
LABELS: tuple[tuple[str, float], ...] = (("blunder", BLUNDER), ("mistake", MISTAKE),
                                         ("inaccuracy", INACCURACY))


def label_for(drop_low: float) -> str | None:
    """The label a drop earns when the lower bound of its interval is ``drop_low``."""
    for name, threshold in LABELS:
        if drop_low >= threshold:
            return name
    return None


@dataclass(frozen=True, slots=True)
class Mistake:
    """One reviewed decision: what was answered, the best answer found, the drop in win
    share (paired, with its interval) and the label it earns (``None``: not clearly worse)."""

    step: int  # the game step (answers before it)
    month: int
    phase: str
    kind: str
    rule: str
    chosen: Answer
    best: Answer  # the leader of the evaluation (== chosen when nothing beat it)
    label: str | None
    estimates: Evaluation
    drop: float  # win share, best - chosen, paired over the same worlds
    drop_low: float
    drop_high: float
    screen: Evaluation | None = None  # every answer on the first worlds (None: as estimates)

    @property
    def chosen_value(self) -> float:
        return self.estimates.value_of(self.chosen).win_share

    @property
    def best_value(self) -> float:
        return self.estimates.value_of(self.best).win_share

    @property
    def chosen_fame(self) -> float:
        return self.estimates.value_of(self.chosen).fame

    @property
    def best_fame(self) -> float:
        return self.estimates.value_of(self.best).fame

    @property
    def options(self) -> int:
        return len((self.screen or self.estimates).options)


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """The seat's estimated final win share after its answer at ``step`` (95 % interval)."""

    step: int
    month: int
    win_share: float
    low: float
    high: float


@dataclass(frozen=True)
class Review(Sequence[Mistake]):
    """The reviewed decisions of ``seat``, costliest first (a sequence of :class:`Mistake`),
    and ``curve``, the seat's estimated win share by step."""

    seat: int
    seed: int
    decisions: tuple[Mistake, ...]
    curve: tuple[CurvePoint, ...]
    worlds: int  # the most worlds per decision

    @overload
    def __getitem__(self, i: int) -> Mistake: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Mistake]: ...
    def __getitem__(self, i: int | slice) -> Mistake | Sequence[Mistake]:
        return self.decisions[i]

    def __len__(self) -> int:
        return len(self.decisions)

    def __iter__(self) -> Iterator[Mistake]:
        return iter(self.decisions)

    @property
    def flagged(self) -> tuple[Mistake, ...]:
        """The labelled decisions, costliest first."""
        return tuple(m for m in self.decisions if m.label is not None)

    def count(self, label: object) -> int:
        """How many decisions carry ``label`` ("inaccuracy", "mistake", "blunder")."""
        return sum(1 for m in self.decisions if m.label == label)

    @property
    def errors(self) -> int:
        """Mistakes plus blunders (the review bar's count)."""
        return self.count("mistake") + self.count("blunder")


def answer_words(game: Game, answer: Answer) -> str:
    """An answer in words (:func:`musici.describe.answer_words` with the game's cards)."""
    return describe_answer(game.cards, answer)


def _replay_start(game: Game) -> Game:
    return Game(game.n, game.seed, game.rules, game.cards)


def review_game(game: Game, seat: int, *, worlds: int = REVIEW_WORLDS,
                min_worlds: int = REVIEW_MIN_WORLDS, kinds: Sequence[str] | None = None,
                steps: Container[int] | None = None,
                progress: Callable[[int, int], None] | None = None) -> Review:
    """Every decision of ``seat`` in ``game`` with more than one candidate answer (of
    ``kinds``, default all; at ``steps``, default every step), evaluated and labelled
    (module doc): ``min_worlds`` worlds screen every answer, ``worlds`` fresh worlds
    measure the drop from the screen's leader to the answer given.
    ``progress(done, total)`` after each step replayed."""
    if not 0 <= seat < game.n:
        raise ValueError(f"no seat {seat} in a {game.n}-player game")
    if type(worlds) is not int or worlds < 1:
        raise ValueError(f"worlds must be a positive integer, got {worlds!r}")
    if type(min_worlds) is not int or min_worlds < 1:
        raise ValueError(f"min_worlds must be a positive integer, got {min_worlds!r}")
    screen_worlds = min(min_worlds, worlds)
    replay = _replay_start(game)
    total = sum(1 for _ in game.answers)
    out: list[Mistake] = []
    curve: list[CurvePoint] = []
    for step, answer in enumerate(game.answers):
        d = replay.decision
        if d is None:
            break
        if d.player == seat and (kinds is None or d.kind in kinds) and (
                steps is None or step in steps) and (
                d.space != "choice" or len(d.options) > 1):
            view = replay.view(seat)
            screen = evaluate(view, d, seed=f"review:{game.seed}:{step}", extra=(answer,),
                              min_worlds=screen_worlds, max_worlds=screen_worlds)
            if len(screen.options) > 1:
                chosen = d.normalize(answer)
                best = screen.options[0].answer
                ev = screen
                drop, low, high = (0.0, 0.0, 0.0)
                if best != chosen and screen.gap(best, chosen)[0] > 0:
                    # Fresh worlds for the pair: the screen's leader is the best of several
                    # noisy estimates (biased up); new worlds measure its drop fairly.
                    ev = evaluate(view, d, seed=f"review-pair:{game.seed}:{step}",
                                  candidates=(best, chosen), min_worlds=worlds,
                                  max_worlds=worlds)
                    drop, low, high = ev.gap(best, chosen)
                    if drop < 0:  # the fresh worlds disagree with the screen: no drop
                        best, drop, low, high = chosen, 0.0, 0.0, 0.0
                out.append(Mistake(step, replay.month, replay.phase, d.kind, d.rule, chosen,
                                   best, label_for(low), ev, drop, low, high, screen))
                mine = ev.value_of(chosen)
                curve.append(CurvePoint(step, replay.month, mine.win_share, mine.win_low,
                                        mine.win_high))
        if progress is not None:
            progress(step + 1, total)
        replay.answer(answer)
    ranked = sorted(out, key=lambda m: (-m.drop, m.step))
    return Review(seat, game.seed, tuple(ranked), tuple(curve), worlds)


def why_text(game: Game, m: Mistake) -> str:
    """The better choice and why, in a player's words: both estimates and the rule."""
    rule = rule_text(m.rule)
    rule = rule if len(rule) <= 140 else rule[:137] + "…"
    ev = m.estimates
    if m.best == m.chosen:
        head = (f"{answer_words(game, m.chosen)} was the leader: "
                f"{share_words(ev.value_of(m.chosen))}")
    else:
        head = (f"{answer_words(game, m.best)} {share_words(ev.value_of(m.best))}; "
                f"{answer_words(game, m.chosen)} {share_words(ev.value_of(m.chosen))}; "
                f"paired difference {m.drop:+.0%} ({m.drop_low:+.0%} to {m.drop_high:+.0%})")
    return (f"{head} (played to the end by the {ev.policy} bot in the same {ev.worlds} "
            f"sampled worlds, {m.options} answers). Rule {m.rule}: {rule}")


def curve_summary(review: Review) -> str:
    """The evaluation graph in one line: the estimated win share at the first reviewed
    decision of each month."""
    seen: dict[int, CurvePoint] = {}
    for p in sorted(review.curve, key=lambda p: p.step):
        seen.setdefault(p.month, p)
    if not seen:
        return "estimated win share: no decision reviewed"
    return "estimated win share by month: " + ", ".join(
        f"m{m} {p.win_share:.0%}" for m, p in sorted(seen.items()))


def _counts(review: Review) -> str:
    return ", ".join(label_count(review.count(name), name) for name, _ in LABELS)


def label_count(k: int, label: str) -> str:
    """"1 blunder", "2 mistakes", "0 inaccuracies"."""
    if k == 1:
        return f"1 {label}"
    return f"{k} {label[:-1]}ies" if label.endswith("y") else f"{k} {label}s"


def review_text(game: Game, seat: int, mistakes: Sequence[Mistake], top: int = TOP) -> str:
    """The review as plain text (the ``musici review`` command)."""
    lines = [f"Review of seat {seat} (seed {game.seed}): {len(mistakes)} decisions estimated"]
    if isinstance(mistakes, Review):
        lines[0] += (f"; {_counts(mistakes)} (win share lost, the 95 % interval clearing "
                     f"{INACCURACY:.0%} / {MISTAKE:.0%} / {BLUNDER:.0%})")
        lines.append(curve_summary(mistakes))
    lines.append(f"the {min(top, len(mistakes))} costliest:")
    for i, m in enumerate(list(mistakes)[:top], 1):
        when = f"month {m.month} · {PHASE_NAMES.get(m.phase, m.phase)}"
        label = f" [{m.label}]" if m.label else ""
        better = ("none clearly (too close to call)" if m.best == m.chosen or m.label is None
                  else answer_words(game, m.best))
        lines.append(f"{i}. step {m.step}, {when}, {m.kind.replace('_', ' ')}{label}: you chose "
                     f"{answer_words(game, m.chosen)}; better: {better} "
                     f"(−{m.drop:.0%} win share)")
        lines.append(f"   why: {why_text(game, m)}")
    if not mistakes:
        lines.append("no decision of this seat with more than one answer was found")
    return "\n".join(lines)


__all__ = ["BLUNDER", "INACCURACY", "LABELS", "MISTAKE", "REVIEW_WORLDS", "CurvePoint",
           "Mistake", "Review", "answer_words", "curve_summary", "label_count", "label_for", "review_game",
           "review_text", "why_text"]
