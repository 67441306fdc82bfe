"""A game review, as lichess gives one: each decision of a seat labelled by what it cost.

:func:`review_game` replays a game (finished or not) from its seed and recorded answers; at
each decision of the reviewed seat with more than one candidate answer it calls the one
evaluation (:func:`musici.analysis.evaluation.evaluate`) from that seat's view in stages:

1. The *screen* plays every candidate answer, the answer given included, in the same 8
   sampled worlds (common random numbers) and finds the leader (win share, then fame).
2. When the leader is not the answer given and leads it by at least half the smallest
   label on either scale (0.025 of win share or 1 fame point, point estimate), the *pair*
   of them is played in ``worlds`` fresh worlds, again both in the same worlds: fresh,
   because the leader of several noisy estimates is biased upward (the winner's curse),
   and only two answers, because a review must measure one difference well.
3. *Race*: while the pair is contested (its point drop earns a label its interval's lower
   end does not clear yet) it gets more fresh worlds, doubling, up to ``RACE_FACTOR`` x
   ``worlds``; the worlds played are kept (:func:`musici.analysis.evaluation.merge`).

Labels, given only when the paired 95 % interval's *lower* bound clears the threshold, so
luck of the sampled worlds is not called a mistake:

* by **win share** (the chance of winning the game, END.WIN): inaccuracy 0.05, mistake
  0.10, blunder 0.20;
* by **final fame**, END awards included (the game's score: most fame wins, GOAL.2):
  inaccuracy 2, mistake 4, blunder 8 fame points.

The more severe of the two labels counts (``Mistake.scale`` says which decided). Why fame
too: win share is a 0/1 outcome per world, its paired standard deviation about 0.45, so a
drop of 0.10 needs about 350 worlds to clear; the fame difference is measured about ten
times more cheaply, and converts into win share at the exchange rate measured on contested
pairs (0.02-0.04 win share per fame point over the benchmark's runs, so 2 / 4 / 8 fame sit
near 0.05 / 0.10 / 0.20); and where the win share is saturated at 0 (a seat lost in month 1, as
``random``'s is) fame is all a bad answer can still lose, as chess reviews fall back on
centipawns. Two exceptions, where fame lost is not a cost in the game played: the game is
won whatever is answered (both answers' win share within ``SATURATED``, 0.10, of 1), and
the answer given clearly wins more (the win-share interval below 0: its fame bought win
share). Fame is floored at 0 (P5.8), so a seat ending at 0 whatever it answers loses
nothing on either scale.

*Plans* (``plans=``, optional): an answer is a mistake only if no plan redeems it. A
labelled answer is played again in the pair's worlds with each further line-up (the seat
continued by another bot, e.g. impresario, merchant, collector; the rivals by their own)
and credited with the plan of highest mean; the best answer keeps the screen's line-up
(``best_plans=`` gives it the same maximum). An answer that fits one bot's plan but not the
continuing bot's no longer looks bad; plans only clear labels, never add one. Measured
(``benchmarks/results/review_bar_plans_*.jsonl``, seeds 1-4, mistakes+blunders per game,
without plans / answer credited / both credited): ismcts 2.25 / 0.25 / 0.50, impresario
4.25 / 1.50 / 2.75, random 2.50 / 1.25 / 1.50.

*Deep check* (:func:`deep_check`): each mistake and blunder judged again in the same
worlds with the strongest bot, ismcts, continuing the seat as one more plan, both answers
credited; it only softens or clears. On the review bar's 20 games per arm it brought
mistakes+blunders per game to random 1.10, impresario 0.40, ismcts 0.15 (from 1.60 / 3.40 /
0.90): impresario's flags were mostly its own weak follow-up, not the answer.
:func:`lineup_options` builds the line-up and plans of a game whose bots are known (the
review tab, ``musici review --lineup``); ``Review.settled_from`` says from where nothing the
seat answered changed its result.

A decision whose interval does not clear a threshold is not labelled (it may still have
cost something; more worlds would tell). ``curve`` is the seat's estimated win share after
each reviewed decision (the played answer's estimate), for an evaluation graph.
:func:`check_label` replays a flagged decision in fresh worlds, optionally with the
rivals' own bots, to check that the flag holds up (``benchmarks/review_bar.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, overload

from musici.analysis.evaluation import Evaluation, Strategy, _evaluation, evaluate, merge
from musici.analysis.hints import share_words
from musici.decisions import Answer, Decision
from musici.describe import PHASE_NAMES
from musici.describe import answer_words as describe_answer
from musici.engine import Game
from musici.ruletext import rule_text
from musici.views import PlayerView

TOP = 5
REVIEW_WORLDS = 32  # fresh worlds measuring the drop from the screen's leader to the answer
REVIEW_MIN_WORLDS = 8  # worlds screening every answer
RACE_FACTOR = 4  # a contested pair is raced up to this many times REVIEW_WORLDS
INACCURACY, MISTAKE, BLUNDER = 0.05, 0.10, 0.20
LABELS: tuple[tuple[str, float], ...] = (("blunder", BLUNDER), ("mistake", MISTAKE),
                                         ("inaccuracy", INACCURACY))
# Fame points: final fame is the game's score (GOAL.2, END.WIN: most fame wins). The
# exchange rate measured on the benchmark's contested pairs is 0.02-0.04 win share per
# fame point (0.020 on 23 pairs, 0.036 on 48), so 2 / 4 / 8 fame points sit near where
# 0.05 / 0.10 / 0.20 of win share do; the benchmark's order of the arms is the same with
# 1 / 2 / 4 and 2.5 / 5 / 10 (docs/strategies.md).
FAME_INACCURACY, FAME_MISTAKE, FAME_BLUNDER = 2.0, 4.0, 8.0
FAME_LABELS: tuple[tuple[str, float], ...] = (("blunder", FAME_BLUNDER),
                                              ("mistake", FAME_MISTAKE),
                                              ("inaccuracy", FAME_INACCURACY))
# Both answers' win share within this of 1: the game is won whatever is answered, and fame
# beyond a sure win is moot (no fame label); within it of 0 both: lost whatever, the fame
# scale alone can label (no win-share drop could reach a mistake).
SATURATED = MISTAKE
# The paired fame interval's variance is floored as if one more world had disagreed by this
# many fame points (as the win share's is by its whole range), so that a few identical
# worlds never look certain.
FAME_SPREAD = FAME_BLUNDER
SEVERITY = {"blunder": 3, "mistake": 2, "inaccuracy": 1, None: 0}


def label_for(drop_low: float, scale: str = "win share") -> str | None:
    """The label a drop earns when the lower bound of its interval is ``drop_low``, on
    ``scale`` ("win share", thresholds 0.05/0.10/0.20, or "fame", 2/4/8 fame points)."""
    if scale not in ("win share", "fame"):
        raise ValueError(f"scale is 'win share' or 'fame', got {scale!r}")
    for name, threshold in (LABELS if scale == "win share" else FAME_LABELS):
        if drop_low >= threshold:
            return name
    return None


def saturated(ev: Evaluation, a: Answer, b: Answer) -> bool:
    """Whether the seat's win share is saturated for both answers: both within
    ``SATURATED`` of 0, or both within it of 1, so that no win-share drop can reach a
    mistake."""
    wa, wb = ev.value_of(a).win_share, ev.value_of(b).win_share
    return (wa <= SATURATED and wb <= SATURATED) or won(ev, a, b)


def won(ev: Evaluation, a: Answer, b: Answer) -> bool:
    """Whether the game is won whatever of ``a`` and ``b`` is answered (both within
    ``SATURATED`` of a win share of 1)."""
    return min(ev.value_of(a).win_share, ev.value_of(b).win_share) >= 1 - SATURATED


def drop_on(ev: Evaluation, best: Answer, chosen: Answer,
            scale: str) -> tuple[float, float, float]:
    """The paired drop ``best`` - ``chosen`` on ``scale``: mean and 95 % interval."""
    if scale == "fame":
        return ev.fame_gap(best, chosen, spread=FAME_SPREAD)
    return ev.gap(best, chosen)


def judge(ev: Evaluation, best: Answer, chosen: Answer,
          at: int = 1) -> tuple[str, str | None]:
    """The scale and label of ``chosen`` against ``best`` in ``ev``'s worlds (module doc):
    the more severe of the win-share label and the fame label; no fame label when the game
    is won whatever is answered, or when ``chosen`` clearly wins more (its fame bought win
    share). ``at``: 1 judges the intervals' lower ends (the label), 0 the means (what the
    label would be with the point estimates, to tell a contested pair)."""
    win_gap = ev.gap(best, chosen)
    win = label_for(win_gap[at], "win share")
    if won(ev, best, chosen) or win_gap[2] < 0:
        return "win share", win
    fame = label_for(drop_on(ev, best, chosen, "fame")[at], "fame")
    if SEVERITY[fame] > SEVERITY[win] or (win is None and saturated(ev, best, chosen)):
        return "fame", fame
    return "win share", win


@dataclass(frozen=True, slots=True)
class Mistake:
    """One reviewed decision: what was answered, the best answer found, the drop in win
    share (paired, with its interval), the drop in final fame, the scale that decided and
    the label it earns (``None``: not clearly worse)."""

    step: int  # the game step (answers before it)
    month: int
    phase: str
    kind: str
    rule: str
    chosen: Answer
    best: Answer  # the leader of the evaluation (== chosen when nothing beat it)
    label: str | None
    estimates: Evaluation
    drop: float  # win share, best - chosen, paired over the same worlds (at least 0)
    drop_low: float
    drop_high: float
    screen: Evaluation | None = None  # every answer on the first worlds (None: as estimates)
    scale: str = "win share"  # the scale that decided the label: "win share" or "fame"
    fame_drop: float = 0.0  # final fame, best - chosen, paired, with its interval
    fame_low: float = 0.0
    fame_high: float = 0.0
    # with plans (review_game's plans=): the label with the screen's line-up alone (today's
    # review), and the plans crediting the answer given and the best answer
    unredeemed: str | None = None
    plan: str = ""
    best_plan: str = ""

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

    @property
    def live(self) -> bool:
        """Whether some screened answer had another outcome (win share or final fame) than
        the answer given in some sampled world: only then could the answer cost anything.
        A seat at fame 0 with no chance of winning whatever it answers (P5.8's floor) has
        no live decision left."""
        return outcome_varies(self.screen or self.estimates, self.chosen)

    @property
    def cost_words(self) -> str:
        """What the answer lost, on the label's scale: "−12% win share" or "−3.1 fame"."""
        if self.scale == "fame":
            return f"−{self.fame_drop:.1f} fame"
        return f"−{self.drop:.0%} win share"


def outcome_varies(ev: Evaluation, chosen: Answer) -> bool:
    """Whether any answer in ``ev`` had another win or final fame than ``chosen`` in some
    of its sampled worlds (all were played in the same worlds)."""
    mine = (ev.wins[chosen], ev.fames[chosen])
    return any((ev.wins[a], ev.fames[a]) != mine for a in ev.wins)


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """The seat's estimated final win share after its answer at ``step`` (95 % interval)."""

    step: int
    month: int
    win_share: float
    low: float
    high: float


HOW = (f"Labels by the win share lost against the best answer found ({INACCURACY:.2f} / "
       f"{MISTAKE:.2f} / {BLUNDER:.2f}) or by the final fame lost ({FAME_INACCURACY:g} / "
       f"{FAME_MISTAKE:g} / {FAME_BLUNDER:g} fame points), the more severe; only when the "
       f"paired 95 % interval's lower end clears the threshold; no fame label when the game "
       f"is won whatever is answered (win share within {SATURATED:.2f} of 1).")


@dataclass(frozen=True)
class Review(Sequence[Mistake]):
    """The reviewed decisions of ``seat``, costliest first (a sequence of :class:`Mistake`),
    and ``curve``, the seat's estimated win share by step."""

    seat: int
    seed: int
    decisions: tuple[Mistake, ...]
    curve: tuple[CurvePoint, ...]
    worlds: int  # the most worlds per decision
    how: str = HOW  # how the labels are decided, in words

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

    @property
    def live(self) -> int:
        """How many reviewed decisions could still change the seat's result
        (:attr:`Mistake.live`)."""
        return sum(1 for m in self.decisions if m.live)

    @property
    def settled_from(self) -> Mistake | None:
        """The first of the seat's last reviewed decisions none of which changed its result
        in any sampled world (:attr:`Mistake.live`): from there on the game was settled
        for this seat and nothing can be labelled. ``None`` when its last reviewed
        decision could still change the result."""
        by_step = sorted(self.decisions, key=lambda m: m.step)
        first = None
        for m in reversed(by_step):
            if m.live:
                break
            first = m
        return first


# Playing a reviewed game out as it was played (review_game's policies and plans, as
# benchmarks/review_bar.py measures the review): each seat by its own bot when that bot
# plays a game out in about 0.1 s (the search bots take seconds), else by STAND_IN, the
# strongest of the quick ones; the reviewed seat by STAND_IN when its bot is random (no plan
# to continue) or unknown (a person), and its flags redeemed by PLAN_BOTS' plans.
QUICK_BOTS: Final = ("random", "greedy", "impresario", "merchant", "collector")
STAND_IN: Final = "merchant"
PLAN_BOTS: Final = ("impresario", "merchant", "collector")


def seat_play_out(bot: str | None) -> str:
    """The bot that continues the reviewed seat after each answer: its own when it is a
    quick bot other than random (no plan to continue), else ``STAND_IN``."""
    return bot if bot in QUICK_BOTS and bot != "random" else STAND_IN


def lineup_options(bots: Sequence[str | None], seat: int) -> dict[str, Any]:
    """:func:`review_game` keyword arguments for a game whose seats were played by ``bots``
    (registered names; ``None`` for a person or an unknown player) reviewed for ``seat``:
    ``policies`` (each seat by its own bot when it is quick, else by ``STAND_IN``; the
    reviewed seat by ``STAND_IN`` unless its own bot is a quick one other than random),
    ``policy_name`` saying so, and ``plans``: the reviewed seat continued by each other
    of ``PLAN_BOTS`` (a flag stands only if none redeems the answer)."""
    from musici.strategies.registry import make_strategy

    if not 0 <= seat < len(bots):
        raise ValueError(f"no seat {seat} among {len(bots)} bots")
    names = [b if b in QUICK_BOTS else STAND_IN for b in bots]
    names[seat] = seat_play_out(bots[seat])
    stood_in = [f"seat {s}'s {bots[s] or 'player'} by {n}" for s, n in enumerate(names)
                if s != seat and n != bots[s]]
    others = "the others by their own bots" + (f" ({', '.join(stood_in)} standing in)"
                                              if stood_in else "")
    plans = [b for b in PLAN_BOTS if b != names[seat]]
    return {"policies": [make_strategy(n) for n in names],
            "policy_name": f"seat {seat} continued by {names[seat]}, {others}",
            "plans": [[make_strategy(n if s != seat else b) for s, n in enumerate(names)]
                      for b in plans],
            "plan_names": [f"seat {seat} continued by {b}" for b in plans]}


def answer_words(game: Game, answer: Answer) -> str:
    """An answer in words (:func:`musici.describe.answer_words` with the game's cards)."""
    return describe_answer(game.cards, answer)


def _replay_start(game: Game) -> Game:
    return Game(game.n, game.seed, game.rules, game.cards)


def _worth_a_pair(screen: Evaluation, best: Answer, chosen: Answer) -> bool:
    """Whether the screen's point drop is at least half the smallest label on either
    scale (cheaper than pairing every decision; a smaller drop would need far more worlds
    than a pair gets to clear its threshold)."""
    return (screen.gap(best, chosen)[0] >= INACCURACY / 2
            or screen.fame_gap(best, chosen)[0] >= FAME_INACCURACY / 2)


def measure_pair(view: PlayerView, decision: Decision, best: Answer, chosen: Answer, *,
                 seed: str, worlds: int, race_worlds: int,
                 policies: Sequence[Strategy] | None = None,
                 policy_name: str | None = None) -> tuple[Evaluation, str, str | None]:
    """``best`` and ``chosen`` in ``worlds`` common worlds of ``seed``, raced while
    contested: while the point drop earns a label its interval's lower end does not yet
    clear, the worlds double (each round on new worlds, the old ones kept), up to
    ``race_worlds``. The evaluation, the scale and the label."""
    ev = evaluate(view, decision, seed=seed, candidates=(best, chosen), min_worlds=worlds,
                  max_worlds=worlds, policies=policies, policy_name=policy_name)
    scale, label = judge(ev, best, chosen)
    while ev.worlds < race_worlds and SEVERITY[judge(ev, best, chosen, at=0)[1]] > SEVERITY[label]:
        more = min(ev.worlds, race_worlds - ev.worlds)
        ev = merge(ev, evaluate(view, decision, seed=seed, candidates=(best, chosen),
                                min_worlds=more, max_worlds=more, first_world=ev.worlds,
                                policies=policies, policy_name=policy_name))
        scale, label = judge(ev, best, chosen)
    return ev, scale, label


def _plan_choice(wins: Sequence[Sequence[float]],
                 fames: Sequence[Sequence[float]]) -> int:
    """The plan with the highest mean win share, then fame (the first on a tie: the
    screen's line-up)."""
    return max(range(len(wins)), key=lambda k: (sum(wins[k]) / len(wins[k]),
                                                sum(fames[k]) / len(fames[k]), -k))


def measure_plans(view: PlayerView, decision: Decision, best: Answer, chosen: Answer,
                  pair: Evaluation, *, seed: str, race_worlds: int,
                  policies: Sequence[Strategy] | None,
                  plans: Sequence[Sequence[Strategy]], names: Sequence[str],
                  best_plans: bool = False) -> tuple[Evaluation, str, str | None, str, str]:
    """Redemption (an answer is a mistake only if no plan redeems it): ``pair`` (``best``
    and ``chosen`` played with ``policies``, the screen's line-up) and ``chosen`` played in
    the same worlds with each line-up of ``plans`` (the seat continued by another bot, the
    rivals by their own); ``chosen`` is credited with the plan of highest mean (win share,
    then fame), chosen on the very worlds measured: that maximum of noisy means is biased
    up, which only clears flags. ``best`` keeps the screen's line-up unless ``best_plans``
    (then it gets the same maximum: symmetric, but its upward bias makes drops, i.e. false
    flags, the winner's curse again). Raced while contested as :func:`measure_pair`.
    ``names``: the screen's line-up's name, then each plan's. The evaluation of the pair
    as credited, its scale and label, and the plans credited to ``chosen`` and ``best``."""
    lineups: list[Sequence[Strategy] | None] = [policies, *plans]
    n = pair.worlds
    # per line-up k and answer: the worlds' win shares and fames (k = 0: the pair's own)
    wins: list[dict[Answer, list[float]]] = [{a: list(pair.wins[a]) for a in (best, chosen)}]
    fames: list[dict[Answer, list[float]]] = [{a: list(pair.fames[a]) for a in (best, chosen)}]
    answers = (best, chosen) if best_plans else (chosen,)

    def play(k: int, first: int, more: int) -> None:
        cands = (best, chosen) if k == 0 else answers
        ev = evaluate(view, decision, seed=seed, candidates=cands, min_worlds=more,
                      max_worlds=more, first_world=first, policies=lineups[k],
                      policy_name=names[k])
        for a in cands:
            wins[k].setdefault(a, []).extend(ev.wins[a])
            fames[k].setdefault(a, []).extend(ev.fames[a])

    for k in range(1, len(lineups)):
        wins.append({})
        fames.append({})
        play(k, 0, n)

    def credited() -> tuple[Evaluation, str, str | None, int, int]:
        ks = {}
        for a in (best, chosen):
            have = [k for k in range(len(lineups)) if a in wins[k]]
            ks[a] = have[_plan_choice([wins[k][a] for k in have], [fames[k][a] for k in have])]
        w = {a: wins[ks[a]][a] for a in (best, chosen)}
        f = {a: fames[ks[a]][a] for a in (best, chosen)}
        ev = _evaluation(pair.seat, decision, (best, chosen), (best, chosen), w, f, n,
                         pair.policy + (f"; the answer given by its best plan "
                                        f"({names[ks[chosen]]})" if ks[chosen] else "")
                         + (f"; the better answer by its best plan ({names[ks[best]]})"
                            if ks[best] else ""),
                         pair.margin)
        scale, label = judge(ev, best, chosen)
        return ev, scale, label, ks[chosen], ks[best]

    ev, scale, label, kc, kb = credited()
    while n < race_worlds and SEVERITY[judge(ev, best, chosen, at=0)[1]] > SEVERITY[label]:
        more = min(n, race_worlds - n)
        for k in range(len(lineups)):
            play(k, n, more)
        n += more
        ev, scale, label, kc, kb = credited()
    return ev, scale, label, names[kc], names[kb]


def _costliest_first(decisions: Sequence[Mistake]) -> tuple[Mistake, ...]:
    """A review's order: the most severe label first, then the larger drops, then by step."""
    return tuple(sorted(decisions,
                        key=lambda m: (-SEVERITY[m.label], -m.drop, -m.fame_drop, m.step)))


def review_game(game: Game, seat: int, *, worlds: int = REVIEW_WORLDS,
                min_worlds: int = REVIEW_MIN_WORLDS, kinds: Sequence[str] | None = None,
                steps: Container[int] | None = None,
                progress: Callable[[int, int], None] | None = None,
                race_worlds: int | None = None,
                policies: Sequence[Strategy] | None = None,
                policy_name: str | None = None,
                plans: Sequence[Sequence[Strategy]] | None = None,
                plan_names: Sequence[str] | None = None,
                best_plans: bool = False) -> Review:
    """Every decision of ``seat`` in ``game`` with more than one candidate answer (of
    ``kinds``, default all; at ``steps``, default every step), evaluated and labelled
    (module doc): ``min_worlds`` worlds screen every answer, ``worlds`` fresh worlds
    measure the drop from the screen's leader to the answer given, raced up to
    ``race_worlds`` (default ``RACE_FACTOR * worlds``) while contested. ``policies``:
    one play-out strategy per seat for every stage, instead of greedy for all (e.g. the
    rivals' own bots when the line-up is known, named ``policy_name``): the screen must
    see the game as the pair does (with greedy rivals, a random seat's pass that cost it
    0.42 -> 0.08 of win share against the real rivals looked harmless).
    ``plans``: further line-ups (one strategy per seat, e.g. the seat continued by
    another bot), named ``plan_names``: a labelled answer is played in the pair's worlds
    with each and credited with the best one's mean (:func:`measure_plans`; an answer is a
    mistake only if no plan redeems it), ``best_plans`` the best answer too. Plans only
    clear labels (never raise one): a flag needs the screen's line-up's evidence too.
    ``progress(done, total)`` after each step replayed."""
    if not 0 <= seat < game.n:
        raise ValueError(f"no seat {seat} in a {game.n}-player game")
    if type(worlds) is not int or worlds < 1:
        raise ValueError(f"worlds must be a positive integer, got {worlds!r}")
    if type(min_worlds) is not int or min_worlds < 1:
        raise ValueError(f"min_worlds must be a positive integer, got {min_worlds!r}")
    if race_worlds is None:
        race_worlds = RACE_FACTOR * worlds
    if type(race_worlds) is not int or race_worlds < worlds:
        raise ValueError(f"race_worlds must be an integer of at least worlds ({worlds}), "
                         f"got {race_worlds!r}")
    if plans is not None:
        plans = [list(p) for p in plans]
        if any(len(p) != game.n for p in plans):
            raise ValueError(f"plans: one strategy per seat ({game.n}) in each line-up")
        if plan_names is None:
            plan_names = [f"plan {k + 1}" for k in range(len(plans))]
        if len(plan_names) != len(plans):
            raise ValueError(f"plan_names: one per plan ({len(plans)}), got {len(plan_names)}")
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
                              min_worlds=screen_worlds, max_worlds=screen_worlds,
                              policies=policies, policy_name=policy_name)
            if len(screen.options) > 1:
                chosen = d.normalize(answer)
                best = screen.options[0].answer
                ev = screen
                scale, label = "win share", None
                unredeemed, plan, best_plan = None, "", ""
                drop, low, high = (0.0, 0.0, 0.0)
                fame = (0.0, 0.0, 0.0)
                if best != chosen and _worth_a_pair(screen, best, chosen):
                    # Fresh worlds for the pair: the screen's leader is the best of several
                    # noisy estimates (biased up); new worlds measure its drop fairly.
                    ev, scale, label = measure_pair(
                        view, d, best, chosen, seed=f"review-pair:{game.seed}:{step}",
                        worlds=worlds, race_worlds=race_worlds, policies=policies,
                        policy_name=policy_name)
                    unredeemed = label
                    if plans and label is not None:
                        # only a flag needs redeeming: a plan can only raise the answer's
                        # credit (the screen's line-up is one of the plans)
                        pev, pscale, plabel, plan, best_plan = measure_plans(
                            view, d, best, chosen, ev, seed=f"review-pair:{game.seed}:{step}",
                            race_worlds=race_worlds, policies=policies, plans=plans,
                            names=[policy_name or "the screen's line-up", *(plan_names or ())],
                            best_plans=best_plans)
                        if SEVERITY[plabel] <= SEVERITY[label]:
                            ev, scale, label = pev, pscale, plabel
                    drop, low, high = ev.gap(best, chosen)
                    fame = ev.fame_gap(best, chosen, spread=FAME_SPREAD)
                    if (drop, fame[0])[scale == "fame"] < 0:
                        # the fresh worlds disagree with the screen: no drop
                        best, drop, low, high, label = chosen, 0.0, 0.0, 0.0, None
                        fame = (0.0, 0.0, 0.0)
                    # judged by fame: a win-share drop below 0 not clear of 0 is noise,
                    # "no win share lost" (its interval kept)
                    drop = max(drop, 0.0)
                out.append(Mistake(step, replay.month, replay.phase, d.kind, d.rule, chosen,
                                   best, label, ev, drop, low, high, screen, scale, *fame,
                                   unredeemed, plan, best_plan))
                mine = ev.value_of(chosen)
                curve.append(CurvePoint(step, replay.month, mine.win_share, mine.win_low,
                                        mine.win_high))
        if progress is not None:
            progress(step + 1, total)
        replay.answer(answer)
    return Review(seat, game.seed, _costliest_first(out), tuple(curve), worlds)


DEEP_BOT: Final = "ismcts"  # the strongest bot: the deep check's further plan


def deep_check(game: Game, seat: int, review: Review, *, bot: str = DEEP_BOT,
               progress: Callable[[int, int], None] | None = None,
               **options: Any) -> Review:
    """``review`` (made by ``review_game(game, seat, **options)``) with each mistake and
    blunder judged again with one more plan, the seat continued by ``bot`` (ismcts by
    default, the rivals as in ``options``' play-outs), and *both* answers credited with
    their best plan (``best_plans``: like against like). The same seeds, so the same screen,
    pair and worlds: only the plans differ. A flag is only ever softened or cleared (the
    less severe of the two labels stands): an answer is a mistake only if no plan, the
    strongest bot's included, redeems it. Measured on the review bar's 20 games per arm
    (``docs/strategies.md``): it cleared 60 of impresario's 68 mistakes and blunders, 15 of
    ismcts's 18 and 10 of random's 32; 20-150 s of CPU a flag with ismcts."""
    from musici.analysis.evaluation import _policy
    from musici.strategies.registry import make_strategy

    if seat != review.seat:
        raise ValueError(f"deep_check: the review is of seat {review.seat}, not seat {seat}")
    steps = {m.step for m in review if m.label in ("mistake", "blunder")}
    if not steps:
        return review
    policies = options.get("policies")
    line = list(policies) if policies is not None else [_policy()] * game.n
    deep_line = [make_strategy(bot) if s == seat else p for s, p in enumerate(line)]
    plans = [*(options.get("plans") or ()), deep_line]
    names = list(options.get("plan_names") or
                 [f"plan {k + 1}" for k in range(len(plans) - 1)])
    again = review_game(game, seat, **{**options, "steps": steps, "progress": progress,
                                       "plans": plans,
                                       "plan_names": [*names, f"seat {seat} continued by {bot}"],
                                       "best_plans": True})
    first = {m.step: m for m in review}
    # only the same comparison may soften a label: the same best answer and the same label
    # before plans (else the options differ from the review's: refused, not mixed)
    for m in again:
        o = first[m.step]
        if (m.best, m.unredeemed) != (o.best, o.unredeemed):
            raise ValueError(
                f"deep_check: step {m.step} measured another comparison than the review's "
                f"({answer_words(game, m.best)} / {m.unredeemed} against "
                f"{answer_words(game, o.best)} / {o.unredeemed}): pass the options the "
                f"review was made with")
    redone = {m.step: m for m in again if SEVERITY[m.label] < SEVERITY[first[m.step].label]}
    decisions = [redone.get(m.step, m) for m in review]
    # the curve stays the review's: its points are all the line-up's own play-outs
    return Review(review.seat, review.seed, _costliest_first(decisions), review.curve,
                  review.worlds, review.how)


@dataclass(frozen=True, slots=True)
class Check:
    """A flagged decision replayed in fresh worlds (the label-precision check): the paired
    drop of the flagged answer against the review's best on the label's scale."""

    step: int
    label: str
    scale: str
    drop: float
    low: float
    high: float
    worlds: int
    policy: str

    @property
    def real(self) -> bool:
        """The fresh interval's lower end is above 0: the flagged answer is worse."""
        return self.low > 0

    @property
    def at_label(self) -> bool:
        """The fresh mean drop reaches the label's threshold."""
        threshold = dict(LABELS if self.scale == "win share" else FAME_LABELS)[self.label]
        return self.drop >= threshold


def check_label(game: Game, seat: int, m: Mistake, *, worlds: int = 64, seed: str = "check",
                policies: Sequence[Strategy] | None = None,
                policy_name: str | None = None) -> Check:
    """Play the flagged answer and the review's best answer of ``m`` out again in
    ``worlds`` fresh common worlds (seeded apart from the review's), with ``policies``
    (one strategy per seat; e.g. the game's own line-up for the rivals), and measure the
    drop on the label's scale: does the flag hold up in play-outs it did not see?"""
    if m.label is None:
        raise ValueError(f"step {m.step} carries no label to check")
    replay = _replay_start(game)
    for answer in game.answers[:m.step]:
        replay.answer(answer)
    d = replay.decision
    if d is None or d.player != seat:
        raise ValueError(f"step {m.step} is not a decision of seat {seat}")
    ev = evaluate(replay.view(seat), d, seed=f"{seed}:{game.seed}:{m.step}",
                  candidates=(m.best, m.chosen), min_worlds=worlds, max_worlds=worlds,
                  policies=policies, policy_name=policy_name)
    drop, low, high = drop_on(ev, m.best, m.chosen, m.scale)
    return Check(m.step, m.label, m.scale, drop, low, high, ev.worlds, ev.policy)


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
                f"paired difference {m.drop:+.0%} win share ({m.drop_low:+.0%} to "
                f"{m.drop_high:+.0%}), {m.fame_drop:+.1f} fame ({m.fame_low:+.1f} to "
                f"{m.fame_high:+.1f})")
        if m.scale == "fame":
            head += "; the final fame lost decides the label"
    who = (f"by the {ev.policy} bot" if " " not in ev.policy else f"with {ev.policy},")
    return (f"{head} (played to the end {who} in the same {ev.worlds} sampled worlds, "
            f"{m.options} answers). Rule {m.rule}: {rule}")


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


def settled_words(review: Review) -> str:
    """From where the seat's result was out of its hands, in words ("" when its last
    reviewed decision still mattered): why a seat that ruined itself early shows few
    labels after that."""
    first = review.settled_from
    if first is None:
        return ""
    by_step = sorted(review.decisions, key=lambda m: m.step)
    dead = len(by_step) - by_step.index(first)
    before = [m for m in by_step if m.step < first.step and m.live]
    where = f"month {first.month} (step {first.step})"
    v = (first.screen or first.estimates).value_of(first.chosen)
    outcome = f"win share {v.win_share:.0%}, final fame {v.fame:.1f}"
    last = ""
    if before:
        m = before[-1]
        last = (f"; the last decision that still mattered was step {m.step} (month "
                f"{m.month}, {m.kind.replace('_', ' ')}"
                + (f", {m.label}" if m.label else "") + ")")
    which = (f"none of the seat's last {dead} reviewed decisions changed" if dead > 1 else
             "the seat's last reviewed decision did not change")
    # "out of the seat's hands", not "decided": the result may still be open (a win share
    # of 75 % whatever it answers: the rivals and the deal decide the rest)
    return (f"out of the seat's hands from {where} on: {which} its win share or final fame "
            f"in any sampled world ({outcome} whichever screened answer it gave), so "
            f"nothing from there can be labelled{last}")


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
        lines[0] += f"; {_counts(mistakes)}"
        lines.append(mistakes.how)
        lines.append(curve_summary(mistakes))
        if settled := settled_words(mistakes):
            lines.append(settled[0].upper() + settled[1:] + ".")
    lines.append(f"the {min(top, len(mistakes))} costliest:")
    for i, m in enumerate(list(mistakes)[:top], 1):
        when = f"month {m.month} · {PHASE_NAMES.get(m.phase, m.phase)}"
        label = f" [{m.label}]" if m.label else ""
        better = ("none clearly (too close to call)" if m.best == m.chosen or m.label is None
                  else answer_words(game, m.best))
        lines.append(f"{i}. step {m.step}, {when}, {m.kind.replace('_', ' ')}{label}: you chose "
                     f"{answer_words(game, m.chosen)}; better: {better} "
                     f"({m.cost_words})")
        lines.append(f"   why: {why_text(game, m)}")
    if not mistakes:
        lines.append("no decision of this seat with more than one answer was found")
    return "\n".join(lines)


__all__ = ["BLUNDER", "DEEP_BOT", "FAME_BLUNDER", "FAME_INACCURACY", "FAME_LABELS", "FAME_MISTAKE",
           "INACCURACY", "LABELS", "MISTAKE", "PLAN_BOTS", "QUICK_BOTS", "REVIEW_WORLDS",
           "SATURATED", "STAND_IN", "Check", "CurvePoint", "Mistake", "Review", "answer_words",
           "check_label", "curve_summary", "deep_check", "drop_on", "judge", "label_count", "label_for",
           "lineup_options", "measure_pair", "measure_plans", "outcome_varies", "review_game",
           "review_text", "saturated", "seat_play_out", "settled_words", "why_text"]
