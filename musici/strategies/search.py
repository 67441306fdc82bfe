"""A search bot: determinized Monte Carlo over sampled worlds (DESIGN principle 2: it sees
only its :class:`~musici.views.PlayerView`).

Algorithm, for each *searched* decision (auction, media bid, venue, action, hire, buy,
concert card, discovery deck; everything else is answered by the ``fallback`` bot):

1. Candidates: every option of a choice (the fallback's answer first, at most
   ``max_candidates``); for a media bid (an amount) the fallback's answer plus
   0, 50, 100, 150 and 250 G; a subset decision is not searched.
2. Sample ``worlds`` possible worlds with :func:`musici.determinize.determinize` (other
   hands, deck orders and future chance re-drawn); sealed media bids of the seats that
   already bid are re-drawn with the rollout policy instead of uniformly up to their money.
3. In each world, for each candidate: clone the world, answer the candidate, and let the
   ``rollout`` policy play every seat up to the end of the month (``horizon`` months;
   the game's end gives its real result). Every candidate sees the same worlds and the
   same chance (common random numbers), so their comparison is fair.
4. Score the position from the bot's seat: its value minus the best other seat's value,
   where a value is fame + ``award_weight`` x the END awards if the game ended now
   - ``marker_weight`` x dissent markers + ``money_weight`` x money x (share of the year
   left) + ``hand_weight`` x the good fame of the best cards in hand that the months left
   can still play (+ ``orchestra_weight`` x orchestras x share of the year left). A
   finished game scores 20 x win share + fame margin. The candidate with the highest sum
   over the worlds wins (ties: the fallback's answer, then the option order).

Everything is reproducible: the bot draws one 64-bit seed per searched decision from
``view.rng`` (the seat's own generator, seeded from the game's seed) and derives the worlds
from it; it never reads the real game behind the view and never changes it.

Budget and cost (4 players, 12 months, this 2-core machine): a rollout to the end of the
month with the greedy policy costs about 0.2-1.5 ms (less late in the month); a searched
decision costs ``worlds`` x candidates rollouts (2-8 candidates). With the defaults
(3 worlds, horizon 1, up to 8 candidates) a searched decision takes about 17 ms, the bot
searches about 91 of its ~106 decisions a game, and a game costs about 1.5-2.5 s of its
thinking (4 worlds: about 2.7 s). Time grows linearly with ``worlds`` and
``max_candidates`` and roughly with ``horizon``. Measured strength with the defaults,
seat rotated, against one impresario, one merchant and one collector: 67.5 % of 200 games
(Wilson 95 % interval 60.7-73.6 %; chance is 25 %), ``python benchmarks/search_strength.py
--games 200 --seed 1``. More worlds or a 2-month horizon did not play better.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from musici import scoring
from musici.decisions import Answer, Decision
from musici.determinize import determinize
from musici.engine import Game
from musici.strategies.greedy import greedy_strategy
from musici.views import PlayerView

Strategy = Callable[[Any, Decision], Answer]

SEARCHED_KINDS: frozenset[str] = frozenset({
    "action", "venue", "media_bid", "auction", "hire", "buy", "concert_card", "discover",
})


def _award_shares(game: Game) -> list[float]:
    """END.1–4 and END.6–7 awards as if the game ended now: the engine's own END
    arithmetic (:func:`musici.scoring.end_awards`), so RULING-END-CARDS counts."""
    awards = scoring.end_awards(game.cards, game.rules, game.players)
    return [float(f) for f in scoring.award_fame(awards, game.n)]


def _named_strategy(name: str) -> Strategy:
    """A bot by module name (``greedy``, ``impresario``, ...), imported on first use."""
    import importlib

    module = importlib.import_module(f"musici.strategies.{name}")
    strategy: Strategy = getattr(module, f"{name}_strategy")
    return strategy


class SearchBot:
    """Determinized Monte Carlo search over the decisions that matter (module docstring).

    ``worlds``: sampled worlds per searched decision; ``horizon``: rollout length in months
    (1 = to the end of this month); ``rollout``: the policy of every seat in the rollouts (a
    strategy, one per seat, or a bot's module name); ``fallback``: answers the decisions not
    searched and gives the first candidate; ``kinds``: the decision kinds searched;
    ``max_candidates``: options tried per decision; the ``*_weight`` knobs shape the value of
    an unfinished position; ``model_bids``: re-draw already sealed media bids with the
    rollout policy. ``decisions`` and ``searched`` count the calls (the only state kept), so
    one bot may serve several seats and games, and creating one per game and seat is cheap.
    """

    def __init__(self, worlds: int = 3, horizon: int = 1,
                 rollout: Strategy | Sequence[Strategy] | str | None = None,
                 fallback: Strategy | str | None = None, kinds: Iterable[str] = SEARCHED_KINDS,
                 max_candidates: int = 8, money_weight: float = 0.02, hand_weight: float = 0.5,
                 orchestra_weight: float = 0.0, award_weight: float = 0.5, marker_weight: float = 1.0,
                 model_bids: bool = True) -> None:
        self.worlds = worlds
        self.horizon = horizon
        if isinstance(fallback, str):
            fallback = _named_strategy(fallback)
        if isinstance(rollout, str):
            rollout = _named_strategy(rollout)
        self.fallback: Strategy = fallback if fallback is not None else greedy_strategy
        if rollout is None:
            rollout = greedy_strategy
        self.rollout = rollout
        self.kinds = frozenset(kinds)
        self.max_candidates = max_candidates
        self.money_weight = money_weight
        self.hand_weight = hand_weight
        self.orchestra_weight = orchestra_weight
        self.award_weight = award_weight
        self.marker_weight = marker_weight
        self.model_bids = model_bids
        self.searched = 0
        self.decisions = 0

    # ------------------------------------------------------------------ candidates
    def candidates(self, view: PlayerView, decision: Decision, default: Answer) -> list[Answer]:
        """The answers to try, ``default`` (the fallback's) first; one means "do not search"."""
        if decision.space == "choice":
            options = list(decision.options)
            rest = [o for o in options if o != default]
            return [default, *rest][: max(self.max_candidates, 2)]
        if decision.space == "amount":
            values = [default]
            for v in (0, 50, 100, 150, 250):
                v = min(decision.hi, max(decision.lo, v))
                v -= (v - decision.lo) % decision.step
                if v not in values:
                    values.append(v)
            return values[: self.max_candidates]
        return [default]

    # ------------------------------------------------------------------ evaluation
    def value(self, game: Game, seat: int) -> float:
        """How good ``game`` (a sampled world) is for ``seat``: its value minus the best rival's."""
        if game.results is not None:
            fame = game.results["fame"]
            winners = game.results["winners"]
            win = 1.0 / len(winners) if seat in winners else 0.0
            best_other = max(f for s, f in enumerate(fame) if s != seat)
            return 20.0 * win + float(fame[seat] - best_other)
        left = game.rules.months - game.month + 1
        frac = left / game.rules.months
        awards = _award_shares(game)
        music = game.cards.music
        vals = []
        for p in game.players:
            v = p.fame + self.award_weight * awards[p.seat] - self.marker_weight * p.marker_count
            v += self.money_weight * frac * p.money
            if self.hand_weight and p.hand:
                best = sorted((music[c].fame[0] for c in p.hand), reverse=True)[:left]
                v += self.hand_weight * sum(best)
            v += self.orchestra_weight * frac * len(p.orchestras)
            vals.append(v)
        mine = vals[seat]
        best_other = max(v for s, v in enumerate(vals) if s != seat)
        return mine - best_other

    # ------------------------------------------------------------------ search
    def _policies(self, n: int) -> list[Strategy]:
        if callable(self.rollout):
            return [self.rollout] * n
        return list(self.rollout)

    def _simulate(self, game: Game, policies: list[Strategy], stop_month: int) -> None:
        """Play ``game`` on with ``policies`` until ``stop_month`` begins or the game ends."""
        while game.decision is not None and game.month < stop_month:
            d = game.decision
            game.answer(policies[d.player](game.view(d.player), d))

    @staticmethod
    def _media_bid_model(policies: list[Strategy]) -> Callable[[Game, int], int]:
        """Sealed bids of the seats that bid before us, re-drawn with the rollout policy
        (the engine's default draws them uniformly up to each bidder's money, far above what
        bots bid)."""
        def bid(world: Game, other: int) -> int:
            step = world.rules.options["RULING-MEDIA-STEP"]
            money = world.players[other].money
            decision = Decision(other, "media_bid", "P2.1", space="amount", lo=0,
                                hi=money - money % step, step=step)
            return int(decision.normalize(policies[other](world.view(other), decision)))
        return bid

    def __call__(self, view: PlayerView, decision: Decision) -> Answer:
        """Answer ``decision`` from ``view`` alone (the strategy protocol)."""
        self.decisions += 1
        default = self.fallback(view, decision)
        if decision.kind not in self.kinds:
            return default
        cands = self.candidates(view, decision, default)
        if len(cands) <= 1:
            return default
        self.searched += 1
        rng = random.Random(view.rng.getrandbits(64))
        seat = view.seat
        stop = view.month + self.horizon
        policies = self._policies(view.n_players)
        totals = [0.0] * len(cands)
        for _ in range(self.worlds):
            world = determinize(view, random.Random(rng.getrandbits(64)),
                                media_bid=self._media_bid_model(policies) if self.model_bids
                                else None)
            for i, cand in enumerate(cands):
                g = world.clone(keep_log=False)
                g.answer(cand)
                self._simulate(g, policies, stop)
                totals[i] += self.value(g, seat)
        best = max(range(len(cands)), key=lambda i: (totals[i], -i))
        return cands[best]


def make_search_bot(**kwargs: Any) -> SearchBot:
    """A fresh search bot with the default budget unless ``kwargs`` say otherwise."""
    return SearchBot(**kwargs)


# A ready-made instance: it keeps only call counters, so sharing it between seats is safe.
search_strategy = make_search_bot()

__all__ = ["SEARCHED_KINDS", "SearchBot", "make_search_bot", "search_strategy"]
