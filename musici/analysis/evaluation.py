"""One evaluation for advice (DESIGN principle 12): hints, the review, the planner and puzzles.

The value of an answer in a position is its *expected final result* for the deciding seat:
its win share (1 for a sole win, 1/k for a k-way tie, 0 otherwise; END.WIN) and its final
fame, END awards included (END.1-7), estimated by playing the game to its end in sampled
worlds. How:

* **Worlds**: world ``i`` is ``view.resample(Random(f"musici-eval:{seed}:{i}"))``, a game the
  seat cannot tell from the real one (other hands, deck orders, future chance re-drawn;
  sealed media bids of P2.1 re-drawn with the play-out policy, as the search bot does).
  Every candidate is answered in a clone of the *same* world, with the same generators
  (common random numbers), so the difference of two answers is measured world by world
  (a paired difference) and most of the luck cancels.
* **Play-out policy**: ``greedy`` for every seat, the deciding one included, to the END.
  Measured on this machine (4 players, a whole game from January, one core): random 4 ms,
  greedy 16 ms, merchant 63 ms, impresario 74 ms, collector 118 ms, the impresario /
  merchant / collector / greedy mix 74 ms; ``search`` and ``ismcts`` are seconds a game.
  Greedy plays the game properly (it plans and gives a concert every month it can, hires
  what its best card lacks, pays its salaries) and is the only one that leaves, within
  the ~2 s of a hint, enough worlds (about 15-30 per candidate for 8 candidates) to
  separate answers at all; the mix gives 4-5x fewer worlds, intervals twice as wide.
  Its weakness (it underbids and never builds restoration chains) makes the estimate a
  "greedy continuation" value: what the answer is worth if play goes on sensibly.
  ``policies=`` plays each seat with a bot of its own instead (the review plays its pairs
  with the game's line-up when it is known: the rivals by their own bots, about 4x the
  cost of greedy per play-out).
* **Racing** (adaptive worlds): all candidates start with ``min_worlds`` worlds; after each
  round the leader (highest mean win share, then fame) is compared with every other
  candidate by the paired interval of win share; a candidate whose interval lies wholly
  below the leader's by more than ``margin`` drops out (it keeps its estimate); the rest
  get twice the worlds, up to ``max_worlds`` (and ``budget`` seconds, if given);
  ``first_world`` and :func:`merge` add later worlds of the same seed to an evaluation
  without replaying the ones it has. The race
  ends when one candidate is left or the limit is reached, or when the candidates left
  had the same win share in every world so far (no evidence of a difference: a position
  lost, or won, whatever is answered, or equivalent answers; at 8 worlds, a true
  difference of 0.2 passes unseen with chance 0.8^8 = 17 %, and would rarely clear an
  interval at 16 anyway). :meth:`Evaluation.best` then
  names the leader only if every other candidate's paired interval clears ``margin``;
  otherwise it is ``None``: "too close to call".
* **Intervals** (95 %): Student's t on the worlds' values (paired differences for
  :meth:`Evaluation.gap`), the variance floored as if one more world had disagreed by the
  whole range (``range**2 / (4 n)``), so that a handful of identical worlds never looks
  certain. Racing several candidates is several tests; the floor and the doubling keep the
  false "best" rare, not impossible (``tests/test_evaluation.py`` measures it on answers
  that are equivalent).
* **Candidates**: every option of a choice (at most ``MAX_CANDIDATES``, the greedy bot's
  own first); for an amount the greedy bid plus 0, 50, 100, 150, 250 G and the highest;
  for a subset decision (concert line-ups, salary payment orders, appeasement, the
  Advisor's and Educator's picks) the heuristic bots' picks, the largest legal line-up of
  each style and a few seeded legal samples, so every candidate has its own estimate.

Deterministic: with ``budget=None`` the result is a function of the position, the decision
and ``seed`` only. A ``budget`` in seconds makes the number of worlds depend on the machine.
The module is pure (no Jupyter imports).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from musici.decisions import Answer, Decision

if TYPE_CHECKING:
    from musici.engine import Game
    from musici.views import PlayerView

POLICY = "greedy"
MAX_CANDIDATES = 12
MIN_WORLDS = 8
MAX_WORLDS = 64
CONFIDENCE_Z = 1.959963984540054  # 95 %

Strategy = Callable[[Any, Decision], Answer]


def _t(df: int) -> float:
    """Student's t quantile for 95 % two-sided (Cornish-Fisher expansion, < 1 % off for df >= 3)."""
    if df <= 0:
        return math.inf
    if df == 1:
        return 12.706
    if df == 2:
        return 4.303
    z = CONFIDENCE_Z
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


def interval(values: Sequence[float], spread: float | None = None) -> tuple[float, float, float]:
    """Mean and 95 % interval of ``values`` (Student's t). ``spread``: the values' possible
    range; when given, the variance is floored at ``spread**2 / (4 n)`` (as if one more value
    had disagreed), so a few identical values never give a zero-width interval."""
    n = len(values)
    if n == 0:
        return (0.0, -math.inf, math.inf)
    mean = math.fsum(values) / n
    if n == 1:
        return (mean, -math.inf, math.inf)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    if spread is not None:
        var = max(var, spread * spread / (4 * n))
    half = _t(n - 1) * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


@dataclass(frozen=True, slots=True)
class OptionValue:
    """One answer's estimate: mean final win share and fame of the seat over ``worlds``
    sampled worlds, each with its 95 % interval."""

    answer: Answer
    win_share: float
    win_low: float
    win_high: float
    fame: float
    fame_low: float
    fame_high: float
    worlds: int


@dataclass(frozen=True)
class Evaluation:
    """Every candidate answer of ``decision`` with its estimate, best first (module doc)."""

    seat: int
    decision: Decision
    options: tuple[OptionValue, ...]
    worlds: int
    policy: str
    margin: float
    # per answer, its win share and fame in worlds 0, 1, ... (for the paired comparisons)
    wins: Mapping[Answer, tuple[float, ...]] = field(default_factory=dict, repr=False,
                                                     compare=False)
    fames: Mapping[Answer, tuple[float, ...]] = field(default_factory=dict, repr=False,
                                                      compare=False)

    def value_of(self, answer: Answer) -> OptionValue:
        """The estimate of ``answer`` (any legal spelling of it)."""
        key = self._key(answer)
        return next(o for o in self.options if o.answer == key)

    def _key(self, answer: Answer) -> Answer:
        key = self.decision.normalize(answer)
        if key not in self.wins:
            raise ValueError(f"{answer!r} was not evaluated; evaluated: "
                             f"{[o.answer for o in self.options]!r} (pass it in extra=)")
        return key

    def gap(self, a: Answer, b: Answer) -> tuple[float, float, float]:
        """Paired difference of win share ``a`` - ``b`` over the worlds both were played in:
        mean and 95 % interval."""
        wa, wb = self.wins[self._key(a)], self.wins[self._key(b)]
        n = min(len(wa), len(wb))
        return interval([wa[i] - wb[i] for i in range(n)], spread=2.0)

    def fame_gap(self, a: Answer, b: Answer,
                 spread: float | None = None) -> tuple[float, float, float]:
        """Paired difference of final fame ``a`` - ``b``: mean and 95 % interval (its
        variance floored by ``spread`` as in :func:`interval`, when given)."""
        fa, fb = self.fames[self._key(a)], self.fames[self._key(b)]
        n = min(len(fa), len(fb))
        return interval([fa[i] - fb[i] for i in range(n)], spread=spread)

    def best(self) -> OptionValue | None:
        """The leader if its paired interval clears every other answer by ``margin``;
        ``None`` means "too close to call"."""
        if not self.options:
            return None
        top = self.options[0]
        for other in self.options[1:]:
            if self.gap(top.answer, other.answer)[1] <= self.margin:
                return None
        return top

    def runner_up(self) -> OptionValue | None:
        """The second answer (best first), if any."""
        return self.options[1] if len(self.options) > 1 else None

    def verdict(self, words: Callable[[Answer], str] = repr) -> str:
        """In words: ``"<answer> is best (…)"`` or ``"too close to call: …"``."""
        if not self.options:
            return "no answer to evaluate"
        top = self.options[0]
        if len(self.options) == 1:
            return (f"{words(top.answer)} is the only answer considered "
                    f"({_share(top)}, {self.worlds} worlds)")
        best = self.best()
        second = self.options[1]
        mean, low, high = self.gap(top.answer, second.answer)
        if best is not None:
            return (f"{words(top.answer)} is best: {_share(top)} against {_share(second)} for "
                    f"{words(second.answer)}, {mean:+.0%} win share (paired, "
                    f"{low:+.0%} to {high:+.0%}; {self.worlds} worlds, {self.policy} play-outs)")
        return (f"too close to call: {words(top.answer)} {_share(top)}, {words(second.answer)} "
                f"{_share(second)}; the paired difference {mean:+.0%} ({low:+.0%} to "
                f"{high:+.0%}) does not clear {self.margin:.0%} after {self.worlds} worlds")


def _share(o: OptionValue) -> str:
    return f"wins {o.win_share:.0%} ({max(0.0, o.win_low):.0%}-{min(1.0, o.win_high):.0%})"


# ---------------------------------------------------------------------------- play-outs
def _policy() -> Strategy:
    from musici.strategies.greedy import greedy_strategy

    return greedy_strategy


def _outcome(game: Game, seat: int) -> tuple[float, float]:
    """The seat's win share and final fame of a finished game (END.WIN, END awards in)."""
    results = game.results
    assert results is not None
    winners = results["winners"]
    win = 1.0 / len(winners) if seat in winners else 0.0
    return win, float(results["fame"][seat])


def play_out(world: Game, answer: Answer, seat: int,
             policy: Strategy | Sequence[Strategy]) -> tuple[float, float]:
    """Answer ``answer`` in a clone of ``world`` and play every seat with ``policy`` (one
    strategy for all, or one per seat) to the END; the seat's win share and final fame."""
    game = world.clone(keep_log=False)
    game.answer(answer)
    seats = _per_seat(policy, game.n)
    while game.decision is not None:
        d = game.decision
        game.answer(seats[d.player](game.view(d.player), d))
    return _outcome(game, seat)


def _per_seat(policy: Strategy | Sequence[Strategy], n: int) -> list[Strategy]:
    if callable(policy):
        return [policy] * n
    seats = list(policy)
    if len(seats) != n or not all(callable(p) for p in seats):
        raise ValueError(f"policies: one strategy per seat ({n}), got {len(seats)}")
    return seats


# ---------------------------------------------------------------------------- candidates
def _bot_picks(view: PlayerView, decision: Decision) -> list[Answer]:
    from musici.strategies.registry import make_strategy

    picks = []
    for name in ("greedy", "impresario", "merchant", "collector"):
        try:
            picks.append(make_strategy(name)(view, decision))
        except Exception:
            continue
    return picks


def _subset_variants(decision: Decision, rng: random.Random) -> list[Answer]:
    """Line-ups per style (the largest legal one of each group, and one fewer) and a few
    seeded legal samples (e.g. salary payment orders)."""
    out: list[Answer] = []
    groups = sorted(set(decision.groups)) if decision.groups else [None]
    for group in groups:
        items = [it for i, it in enumerate(decision.items)
                 if group is None or decision.groups[i] == group]
        for size in (decision.max_size, decision.max_size - 1, decision.min_size):
            pick = tuple(items[:size])
            if size >= 0:
                out.append(pick)
    for _ in range(6):
        out.append(decision.random_answer(rng))
    return out


def candidate_answers(view: PlayerView, decision: Decision, *, seed: int | str = 0,
               limit: int = MAX_CANDIDATES) -> list[Answer]:
    """The answers evaluated by default (module doc), legal and distinct, at most ``limit``."""
    picks = _bot_picks(view, decision)
    if decision.space == "choice":
        raw: list[Answer] = [*picks, *decision.options]
    elif decision.space == "amount":
        raw = list(picks)
        for v in (0, 50, 100, 150, 250, decision.hi):
            v = min(decision.hi, max(decision.lo, v))
            raw.append(v - (v - decision.lo) % decision.step)
    else:
        raw = [*picks, *_subset_variants(decision, random.Random(f"musici-cands:{seed}"))]
    out: list[Answer] = []
    for answer in raw:
        try:
            answer = decision.normalize(answer)
        except ValueError:
            continue
        if answer not in out:
            out.append(answer)
        if len(out) >= limit:
            break
    return out


# ---------------------------------------------------------------------------- evaluate
def _rank_key(wins: Sequence[float], fames: Sequence[float]) -> tuple[float, float]:
    return (math.fsum(wins) / len(wins), math.fsum(fames) / len(fames))


def evaluate(view: PlayerView, decision: Decision, *, seed: int | str = 0,
             candidates: Sequence[Answer] | None = None, extra: Sequence[Answer] = (),
             min_worlds: int = MIN_WORLDS, max_worlds: int = MAX_WORLDS,
             budget: float | None = None, margin: float = 0.0,
             progress: Callable[[int, int], None] | None = None,
             policies: Sequence[Strategy] | None = None, policy_name: str | None = None,
             first_world: int = 0) -> Evaluation:
    """Estimate every candidate answer of ``decision`` in the same sampled worlds (module
    doc). ``view`` is the deciding seat's view; ``candidates`` replaces the default set,
    ``extra`` adds answers (e.g. the one a player gave); ``progress(worlds, max_worlds)``
    is called after every round. ``policies``: one play-out strategy per seat instead of
    greedy for all (the review plays the rivals with the bots that played them), named
    ``policy_name`` in the result. ``first_world``: play worlds ``first_world``, … of
    ``seed`` (to add worlds to an earlier evaluation: :func:`merge`)."""
    if view.seat != decision.player:
        raise ValueError(f"the view is seat {view.seat}'s but seat {decision.player} decides")
    if type(min_worlds) is not int or type(max_worlds) is not int or min_worlds < 1:
        raise ValueError(f"min_worlds and max_worlds must be positive integers, got "
                         f"{min_worlds!r} and {max_worlds!r}")
    if max_worlds < min_worlds:
        raise ValueError(f"max_worlds ({max_worlds}) is below min_worlds ({min_worlds})")
    if budget is not None and not budget > 0:
        raise ValueError(f"budget must be a positive number of seconds or None, got {budget!r}")
    if not 0.0 <= margin < 1.0:
        raise ValueError(f"margin is a win share from 0 to 1, got {margin!r}")
    if candidates is None:
        cands = candidate_answers(view, decision, seed=seed)
    else:
        cands = [decision.normalize(a) for a in candidates]
    for answer in extra:
        answer = decision.normalize(answer)
        if answer not in cands:
            cands.append(answer)
    if not cands:
        raise ValueError(f"no legal candidate answer for the {decision.kind} decision")
    cands = list(dict.fromkeys(cands))
    if type(first_world) is not int or first_world < 0:
        raise ValueError(f"first_world must be a non-negative integer, got {first_world!r}")
    seats = _per_seat(_policy() if policies is None else policies, view.n_players)
    name = policy_name or (POLICY if policies is None else "per-seat bots")
    from musici.strategies.search import SearchBot

    bid_model = SearchBot._media_bid_model(seats)
    wins: dict[Answer, list[float]] = {c: [] for c in cands}
    fames: dict[Answer, list[float]] = {c: [] for c in cands}
    alive = list(cands)
    start = time.perf_counter()
    n = 0
    target = min_worlds
    while True:
        while n < target:
            world = view.resample(random.Random(f"musici-eval:{seed}:{first_world + n}"),
                                  bid_model)
            for c in alive:
                w, f = play_out(world, c, view.seat, seats)
                wins[c].append(w)
                fames[c].append(f)
            n += 1
            if budget is not None and time.perf_counter() - start > budget and n >= 2:
                break
        if progress is not None:
            progress(n, max_worlds)
        if len(alive) > 1:
            leader = max(alive, key=lambda c: (*_rank_key(wins[c], fames[c]), -cands.index(c)))
            alive = [c for c in alive if c == leader or interval(
                [a - b for a, b in zip(wins[leader], wins[c], strict=True)], 2.0)[1] <= margin]
        out_of_time = budget is not None and time.perf_counter() - start > budget
        # No evidence at all: every answer left had the same result in every world so far
        # (a position lost, or won, whatever is answered; or equivalent answers).
        same = all(wins[c] == wins[alive[0]] for c in alive)
        if len(alive) <= 1 or n >= max_worlds or out_of_time or same:
            break
        target = min(max_worlds, 2 * n)
    return _evaluation(view.seat, decision, cands, alive, wins, fames, n, name, margin)


def _evaluation(seat: int, decision: Decision, cands: Sequence[Answer],
                alive: Sequence[Answer], wins: Mapping[Answer, Sequence[float]],
                fames: Mapping[Answer, Sequence[float]], n: int, policy: str,
                margin: float) -> Evaluation:
    values = []
    for c in cands:
        w, wl, wh = interval(wins[c], 1.0)
        f, fl, fh = interval(fames[c])
        values.append(OptionValue(c, w, max(0.0, wl), min(1.0, wh), f, fl, fh, len(wins[c])))
    # survivors first (they ran longest), each group by win share, then fame, then order
    order = sorted(values, key=lambda o: (o.answer not in alive, -o.win_share, -o.fame,
                                          list(cands).index(o.answer)))
    return Evaluation(seat, decision, tuple(order), n, policy, margin,
                      {c: tuple(v) for c, v in wins.items()},
                      {c: tuple(v) for c, v in fames.items()})


def merge(first: Evaluation, more: Evaluation) -> Evaluation:
    """``first`` with the worlds of ``more`` added (the same answers, ``more`` played on
    later worlds of the same seed: ``evaluate(..., first_world=first.worlds)``), so a
    contested comparison gets more worlds without replaying the ones it has."""
    if set(first.wins) != set(more.wins) or first.decision != more.decision:
        raise ValueError("merge: both evaluations must be of the same decision and answers")
    cands = [o.answer for o in first.options]
    wins = {c: (*first.wins[c], *more.wins[c]) for c in cands}
    fames = {c: (*first.fames[c], *more.fames[c]) for c in cands}
    return _evaluation(first.seat, first.decision, cands, cands, wins, fames,
                       first.worlds + more.worlds, first.policy, first.margin)


__all__ = ["MAX_WORLDS", "MIN_WORLDS", "POLICY", "Evaluation", "OptionValue", "candidate_answers",
           "evaluate", "interval", "merge", "play_out"]
