"""An information-set search bot: single-observer ISMCTS (Cowling, Powley and Whitehouse
2012; the structure of OpenSpiel's ``ismcts``). It sees only its
:class:`~musici.views.PlayerView` (DESIGN principle 2).

For each *searched* decision (the kinds of :data:`SEARCHED_KINDS`, with at least two
candidate answers; everything else is answered by the ``fallback`` heuristic):

1. **Determinize**: draw a world with ``view.resample`` (the engine's seam, OpenSpiel's
   ``resample_from_infostate``): other hands, deck orders and future chance re-drawn. Each
   other seat gets a policy drawn from ``opponents`` (by default the impresario, merchant
   and collector heuristics, one at random per seat and world: a thinking player, not a
   greedy one); sealed media bids already made are re-drawn with those policies (P2.1).
2. **Choose at the root** (``root="halving"``, the default): Sequential Halving
   (:mod:`musici.strategies._ismcts_halving`). Every surviving root candidate is played in
   a copy of the same world (common random numbers, as ``search`` does); each round keeps
   the better half and gives the survivors more worlds, so the budget goes to telling the
   best answers apart. ``root="ucb"``: each iteration draws its own world and picks the
   root answer by UCB like the nodes below (the answer is then the most visited).
3. **Below the root**, walk the tree of this seat's information sets (a node is the seat's
   own history of decisions and answers since the root). At a node, the candidate answers
   legal in this world (:mod:`musici.strategies._ismcts_candidates`) are marked
   *available*; an untried one is expanded, else the highest UCB over availability counts
   is taken. Between two of the seat's decisions the other seats play their policies.
4. **Roll out** to the horizon (the end of this month, ``horizon`` months) with the
   opponents' policies and ``fallback`` for this seat, **score** the world from this seat
   (:meth:`SearchBot.value <musici.strategies.search.SearchBot.value>`: fame, END awards as
   if the game ended now, markers, money and cards in hand for the months left, minus the
   best rival's; a finished game: 20 x win share + fame margin) and back it up the path.

The budget is ``iterations`` (rollouts) per searched decision and/or ``seconds`` (whichever
ends first; halving on time alone runs rounds of 1, 2, 4, ... worlds). With an iteration
budget the bot is deterministic: one 64-bit seed per searched decision from ``view.rng``
(the seat's own generator, seeded from the game's seed) and every world, policy draw and
rollout derived from it. A time budget makes the answer depend on the machine. It never
reads the real game behind the view and never changes it.

Cost and strength (12 months, 4 players): measured in docs/strategies.md with
``benchmarks/ismcts_strength.py`` (about 2.8 ms of one core per rollout with the heuristic
opponents, 1.8 ms with greedy ones; the bot searches about 100 of ~125 decisions a game).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from musici.decisions import Answer, Decision, Kind
from musici.engine import Game
from musici.strategies._ismcts_candidates import candidates as make_candidates
from musici.strategies._ismcts_halving import sequential_halving
from musici.strategies._ismcts_tree import Node, Stats
from musici.strategies.search import SearchBot, _named_strategy
from musici.views import PlayerView

Strategy = Callable[[Any, Decision], Answer]

SEARCHED_KINDS: frozenset[str] = frozenset({
    Kind.ACTION, Kind.VENUE, Kind.MEDIA_BID, Kind.AUCTION, Kind.HIRE, Kind.BUY,
    Kind.CONCERT_CARD, Kind.CONCERT_ORCHESTRAS, Kind.DISCOVER, Kind.SALARIES, Kind.APPEASE,
})
OPPONENTS = ("impresario", "merchant", "collector")
ROOTS = ("halving", "ucb")


def _strategy(spec: Strategy | str) -> Strategy:
    return _named_strategy(spec) if isinstance(spec, str) else spec


class ISMCTSBot:
    """Single-observer information-set MCTS (module docstring).

    ``iterations`` / ``seconds``: budget per searched decision (None: no limit of that kind;
    at least one must be set); ``horizon``: rollout length in months (1 = to the end of this
    month); ``opponents``: policies the other seats are drawn from, per seat and world (a
    name or a sequence); ``fallback``: answers the decisions not searched, leads the
    candidates and plays this seat in rollouts; ``kinds``: decision kinds searched;
    ``max_candidates``: answers compared per decision; ``uct_c``: exploration below the root
    (at the root too with ``root="ucb"``), in units of the spread of values seen in this
    search; ``root``: ``"halving"`` (Sequential Halving on common worlds) or ``"ucb"``;
    ``evaluator``: scores a world for a seat (a :class:`~musici.strategies.search.SearchBot`,
    whose value weights apply). ``decisions``, ``searched``, ``iterations_run`` and
    ``nodes`` count the work done (the only state kept).
    """

    def __init__(self, iterations: int | None = 16, seconds: float | None = None,
                 horizon: int = 1, opponents: Sequence[Strategy | str] | str = OPPONENTS,
                 fallback: Strategy | str = "merchant", kinds: Iterable[str] = SEARCHED_KINDS,
                 max_candidates: int = 8, uct_c: float = 0.7,
                 evaluator: SearchBot | None = None, root: str = "halving") -> None:
        if iterations is None and seconds is None:
            raise ValueError("ISMCTSBot needs a budget: iterations=N or seconds=S (or both)")
        if iterations is not None and (type(iterations) is not int or iterations < 1):
            raise ValueError(f"iterations must be a positive integer or None, got {iterations!r}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds must be a positive number or None, got {seconds!r}")
        if type(horizon) is not int or horizon < 1:
            raise ValueError(f"horizon must be a positive integer (months), got {horizon!r}")
        if root not in ROOTS:
            raise ValueError(f"root must be one of {ROOTS}, got {root!r}")
        if not opponents:
            raise ValueError("opponents must name at least one policy, e.g. ('merchant',)")
        self.iterations = iterations
        self.seconds = seconds
        self.horizon = horizon
        if isinstance(opponents, str):  # one name, not a sequence of letters
            opponents = (opponents,)
        self.opponents: list[Strategy] = [_strategy(o) for o in opponents]
        self.fallback: Strategy = _strategy(fallback)
        self.kinds = frozenset(kinds)
        self.max_candidates = max_candidates
        self.uct_c = uct_c
        self.root = root
        self.evaluator = evaluator if evaluator is not None else SearchBot()
        self.decisions = 0
        self.searched = 0
        self.iterations_run = 0
        self.nodes = 0

    # ------------------------------------------------------------------ candidates
    def candidates(self, view: PlayerView, decision: Decision,
                   first: Sequence[Answer] | None = None) -> list[Answer]:
        """The answers compared for ``decision`` (``first``: the fallback's answer)."""
        if first is None:
            first = [self.fallback(view, decision)]
        cands = make_candidates(view, decision, first, self.max_candidates)
        return cands or [decision.random_answer(view.rng)]  # only if every policy erred

    def _root_candidates(self, view: PlayerView, decision: Decision, default: Answer) -> list[Answer]:
        # At the root the opponents' heuristics suggest answers too (they think differently).
        first = [default]
        for policy in self.opponents:
            if decision.space != "choice" or len(first) < 3:
                first.append(policy(view, decision))
        return self.candidates(view, decision, first)

    # ------------------------------------------------------------------ one iteration
    def _media_bid_model(self, policies: list[Strategy]) -> Callable[[Game, int], int]:
        def bid(world: Game, other: int) -> int:
            step = world.rules.options["RULING-MEDIA-STEP"]
            money = world.players[other].money
            decision = Decision(other, Kind.MEDIA_BID, "P2.1", space="amount", lo=0,
                                hi=money - money % step, step=step)
            return int(decision.normalize(policies[other](world.view(other), decision)))
        return bid

    def _advance(self, world: Game, seat: int, policies: list[Strategy],
                 stop: int) -> list[Answer] | None:
        """Play on (the other seats, and this seat where it has no real choice) until this
        seat faces a searched decision with several candidates: those candidates, or None
        once the horizon or the game's end is reached."""
        while (d := world.decision) is not None and world.month < stop:
            if d.player == seat and d.kind in self.kinds:
                cands = self.candidates(world.view(seat), d)
                if len(cands) > 1:
                    return cands
                world.answer(cands[0])
                continue
            world.answer(policies[d.player](world.view(d.player), d))
        return None

    def _policies(self, seat: int, n: int, rng: random.Random) -> list[Strategy]:
        policies = [self.opponents[rng.randrange(len(self.opponents))] for _ in range(n)]
        policies[seat] = self.fallback
        return policies

    def _descend(self, world: Game, seat: int, policies: list[Strategy], node: Node,
                 answer: Answer, expanded: bool, values: list[float]) -> float:
        """Answer ``answer`` at ``node`` in ``world``, walk the tree below it (this seat's
        later decisions of the horizon), roll out, score and back up; the value."""
        stop = world.month + self.horizon
        scale = max(1.0, values[1] - values[0]) if values else 1.0
        path: list[tuple[Node, Answer]] = [(node, answer)]
        world.answer(answer)
        while not expanded:
            nxt = self._advance(world, seat, policies, stop)
            if nxt is None:
                break
            d = world.decision
            assert d is not None
            key: Hashable = (answer, d.kind, d.rule)
            self.nodes += key not in node.children
            node = node.child(key)
            answer, expanded = node.select(nxt, self.uct_c, scale)
            path.append((node, answer))
            world.answer(answer)
        while (d := world.decision) is not None and world.month < stop:
            world.answer(policies[d.player](world.view(d.player), d))
        value = self.evaluator.value(world, seat)
        if values:
            values[0] = min(values[0], value)
            values[1] = max(values[1], value)
        else:
            values.extend((value, value))
        for n, a in path:
            n.update(a, value)
        return value

    def _world(self, view: PlayerView, rng: random.Random) -> tuple[Game, list[Strategy]]:
        policies = self._policies(view.seat, view.n_players, rng)
        world = view.resample(random.Random(rng.getrandbits(64)), self._media_bid_model(policies))
        return world, policies

    def _iterate(self, view: PlayerView, root: Node, root_cands: list[Answer],
                 rng: random.Random, values: list[float]) -> None:
        """One UCB iteration from the root (``root="ucb"``)."""
        world, policies = self._world(view, rng)
        scale = max(1.0, values[1] - values[0]) if values else 1.0
        answer, expanded = root.select(root_cands, self.uct_c, scale)
        self._descend(world, view.seat, policies, root, answer, expanded, values)

    def _halving(self, view: PlayerView, cands: list[Answer], rng: random.Random,
                 deadline: float | None) -> tuple[Answer, int]:
        """Sequential Halving at the root (``root="halving"``): each world is drawn once and
        every surviving candidate is played in a copy of it (common random numbers); below
        the root the tree grows as in ISMCTS."""
        root = Node()
        values: list[float] = []
        for a in cands:
            root.stats[a] = Stats(available=1)

        def evaluate(alive: Sequence[int]) -> list[float]:
            world, policies = self._world(view, random.Random(rng.getrandbits(64)))
            out = []
            for i in alive:
                root.stats[cands[i]].available += 1
                out.append(self._descend(world.clone(keep_log=False), view.seat, policies,
                                         root, cands[i], False, values))
            return out

        def out_of_time() -> bool:
            return deadline is not None and time.perf_counter() >= deadline

        best, used = sequential_halving(len(cands), self.iterations, evaluate, out_of_time)
        return cands[best], used

    # ------------------------------------------------------------------ the strategy
    def __call__(self, view: PlayerView, decision: Decision) -> Answer:
        """Answer ``decision`` from ``view`` alone (the strategy protocol)."""
        self.decisions += 1
        default = self.fallback(view, decision)
        if decision.kind not in self.kinds:
            return default
        cands = self._root_candidates(view, decision, default)
        if len(cands) <= 1:
            return default
        self.searched += 1
        rng = random.Random(view.rng.getrandbits(64))
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        if self.root == "halving":
            answer, done = self._halving(view, cands, rng, deadline)
            self.iterations_run += done
            return answer
        root = Node()
        values: list[float] = []
        done = 0
        while self.iterations is None or done < self.iterations:
            # A time budget still tries every candidate once.
            if deadline is not None and done >= len(cands) and time.perf_counter() >= deadline:
                break
            self._iterate(view, root, cands, random.Random(rng.getrandbits(64)), values)
            done += 1
        self.iterations_run += done
        return root.best(cands)


def make_ismcts_bot(**kwargs: Any) -> ISMCTSBot:
    """A fresh information-set search bot with the default budget unless ``kwargs`` say otherwise."""
    return ISMCTSBot(**kwargs)


__all__ = ["OPPONENTS", "ROOTS", "SEARCHED_KINDS", "ISMCTSBot", "make_ismcts_bot"]
