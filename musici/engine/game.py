"""The game of I Musici as a resumable sequence of decisions: the :class:`Game` facade.

The engine keeps a stack of small tasks (plain functions with arguments, so a state copy is
a list copy); phase modules schedule them, emit events and pose decisions through the small
typed surface of :mod:`musici.engine.context`. It runs tasks until one needs a player's
choice, then stops with :attr:`Game.decision` set. :meth:`Game.answer` validates an answer
against that decision before touching anything (an illegal answer leaves the game
unchanged), applies it, and runs on to the next decision. Every random draw comes from the
game's own generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from mypy_extensions import mypyc_attr

from musici.build import caused  # raise ... from, in both builds
from musici.cards import CardSet, standard_cardset
from musici.decisions import Answer, Decision, IllegalAnswer, brief
from musici.economy import START_MONEY
from musici.engine import setup
from musici.engine.protocols import CURRENT_PROTOCOL, check_protocol
from musici.engine.state import TABLE_STATE, PlayerState, copy_table
from musici.events import Event
from musici.rules import RuleSet
from musici.views import PlayerView

Strategy = Callable[[Any, Decision], Answer]
Task = tuple[Any, ...]


@mypyc_attr(native_class=False)  # mypyc: a native class cannot subclass RuntimeError
class GameError(RuntimeError):
    """Misuse of a game: answering a finished game, an unknown seat, and the like."""


class StrategyError(IllegalAnswer):
    """A strategy gave an illegal answer or raised; names seat, decision and repro."""


# Every attribute of a game: the declared table (engine/state.py) and the rest. A native
# class in the compiled build (issue 23 item 4: the engine reads the table at every ply, a
# native class as struct fields, a Python class through its dict); __slots__ in pure Python,
# so an attribute not named here fails in both builds, and clone and pickle copy these.
GAME_SLOTS: tuple[str, ...] = (
    "n", "seed", "rules", "cards", "protocol", "load_note", "_asking", "_rngs", "_rng_states",
    "players", *(f.name for f in TABLE_STATE), "events", "answers", "results", "monthly",
    "decision", "_pending", "_stack", "arranged",
)
_BLANK: Any = object()  # Game(_BLANK): an empty shell for clone and unpickling to fill


class Game:
    """One game of I Musici for 3 or 4 players.

    >>> from musici.strategies import random_strategy
    >>> game = Game(players=4, seed=7)
    >>> game.play([random_strategy] * 4).finished
    True
    """

    __slots__ = GAME_SLOTS

    n: int
    seed: int
    rules: RuleSet
    cards: CardSet
    protocol: int  # which decisions are asked (musici.engine.protocols)
    load_note: str | None  # why a loaded save stopped early (musici.persistence)
    _asking: int | None  # id(self) while ask() waits for a strategy (see ask)
    _rngs: list[random.Random | None]
    _rng_states: list[Any]
    players: list[PlayerState]
    month: int
    phase: str
    round: int
    start_player: int
    score_deck: list[str]
    score_market: list[str | None]
    orchestra_deck: list[str]
    orchestra_market: list[str | None]
    discovery_decks: dict[str, list[str]]
    special_deck: list[str]
    special_slot: str | None
    thief_marks: dict[str, int]
    out_of_game: list[str]
    venues: dict[str, int]
    media: int | None
    chapel_free: int | None
    _media_bids: dict[int, int]
    plies: int
    events: list[Event]
    answers: list[Answer]
    results: dict[str, Any] | None
    monthly: list[dict[str, Any]]
    decision: Decision | None
    _pending: tuple[Any, tuple[Any, ...]] | None
    _stack: list[Task]
    arranged: bool

    # players, seed and protocol are ints; typed ``int | Any`` so the compiled build lets any
    # value reach the checks below (a GameError in both builds, not mypyc's TypeError).
    def __init__(
        self, players: int | Any = 4, seed: int | Any = 0, rules: RuleSet | None = None,
        cards: CardSet | None = None, *, protocol: int | Any = CURRENT_PROTOCOL,
    ) -> None:
        if players is _BLANK:  # clone and unpickling fill every slot themselves
            return
        if type(players) is not int or players not in (3, 4):  # not True, not 3.0
            raise GameError(f"I Musici is for 3 or 4 players (GOAL.1), got {players!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise GameError(f"seed must be a non-negative integer, got {seed!r}")
        self.n = players
        self.seed = seed
        self.rules = rules if rules is not None else RuleSet()
        self.cards = cards if cards is not None else standard_cardset()
        # Which decisions are asked (musici.engine.protocols); older ones only to replay saves.
        try:
            self.protocol = check_protocol(protocol)
        except ValueError as exc:
            raise caused(GameError(str(exc)), None) from None
        self.load_note = None
        self._asking = None
        # Generator 0 is the game's chance; 1 + seat is that seat's own (for its bots).
        # A generator may be parked as a state tuple until used, so clones stay cheap.
        self._rngs = [
            random.Random(seed),
            *(random.Random(f"musici-seat:{seed}:{s}") for s in range(players)),
        ]
        self._rng_states = [None] * (players + 1)
        self.players = [PlayerState(s, START_MONEY) for s in range(players)]
        self.month = 1
        self.phase = "SETUP"
        self.round = 0
        self.start_player = 0
        self.score_deck = []  # top of a deck = end of its list
        self.score_market = [None] * 4
        self.orchestra_deck = []
        self.orchestra_market = [None] * 4
        self.discovery_decks = {"authentic": [], "modern": []}
        self.special_deck = []
        self.special_slot = None
        self.thief_marks = {}  # face-up score card -> Thief's seat (P4.BUY.5)
        self.out_of_game = []  # SETUP.6
        self.venues = {}  # area -> seat (P3.1)
        self.media = None
        self.chapel_free = None  # P3.HALL.1
        self.events = []
        self.answers = []
        # Every ply: the decisions asked (step) and the single-option ones applied unasked
        # (context.ask); kept with the state (engine/state.py), so a clone or position keeps it.
        self.plies = 0
        self.results = None
        # Fame and money after every month (not to be confused with a view's event history).
        self.monthly = []
        self.decision = None
        self._media_bids = {}  # replaced, never mutated: clones share it
        self._pending = None
        self._stack = [(setup.deal,)]
        self.arranged = False  # built by from_position: no history to replay (see save)
        self._run()

    # ------------------------------------------------------------------ public API
    def _random(self, index: int) -> random.Random:
        rng = self._rngs[index]
        if rng is None:
            rng = random.Random()
            rng.setstate(self._rng_states[index])
            self._rngs[index] = rng
            self._rng_states[index] = None
        return rng

    @property
    def rng(self) -> random.Random:
        """The game's own generator: shuffles, the start player, media ties."""
        return self._random(0)

    def seat_rng(self, seat: int) -> random.Random:
        """The generator of ``seat``'s strategy, seeded from the game's seed."""
        rng = self._rngs[seat + 1]
        return rng if rng is not None else self._random(seat + 1)

    @property
    def seat_rngs(self) -> list[random.Random]:
        return [self._random(s + 1) for s in range(self.n)]

    @property
    def finished(self) -> bool:
        return self.results is not None

    @property
    def step(self) -> int:
        """Number of answers given so far (decisions put to strategies); :attr:`plies`
        also counts the forced ones, a choice with one legal answer applied unasked."""
        return len(self.answers)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see."""
        if not 0 <= seat < self.n:
            raise GameError(f"no seat {seat!r} in a {self.n}-player game")
        return PlayerView(self, seat)

    def is_legal(self, answer: Answer) -> bool:
        if self.decision is None:
            return False
        try:
            self.decision.normalize(answer)
        except IllegalAnswer:
            return False
        return True

    def answer(self, answer: Answer) -> None:
        """Answer the pending decision and run on to the next one."""
        decision = self.decision
        if decision is None or self._pending is None or self._asking == id(self):
            if self._asking == id(self) and decision is not None:
                raise GameError(
                    f"game.answer() called from inside the strategy of seat {decision.player} "
                    f"while it is being asked for {decision.kind} ({decision.rule}); a strategy "
                    f"must return its answer (seed {self.seed}, step {self.step})"
                )
            raise GameError("the game is finished; there is no decision to answer")
        self._apply(decision, answer)

    def _apply(self, decision: Decision, answer: Answer) -> None:
        _apply_answer(self, decision, answer)

    def play(
        self, strategies: Sequence[Strategy], *, until: str | None = None, max_steps: int | None = None
    ) -> Game:
        """Let ``strategies`` (one per seat) answer until the end, or ``until`` the next
        "decision", "phase" or "month" starts, or ``max_steps`` answers were given."""
        if len(strategies) != self.n:
            raise GameError(f"need {self.n} strategies, one per seat, got {len(strategies)}")
        if until not in (None, "decision", "phase", "month"):
            raise GameError(f"until must be decision, phase, month or None, got {until!r}")
        start = (self.month, self.phase)
        steps = 0
        # One view per seat for the whole call (a view reads the live game); kept local, as a
        # view stored on the game would make each game a reference cycle left to the GC.
        views = tuple(PlayerView(self, s) for s in range(self.n))
        while (decision := self.decision) is not None:
            if max_steps is not None and steps >= max_steps:
                break
            if (
                steps
                and until is not None
                and (
                    until == "decision"
                    or (until == "phase" and (self.month, self.phase) != start)
                    or (until == "month" and self.month != start[0])
                )
            ):
                break
            seat = decision.player
            _ask_and_apply(self, strategies[seat], views[seat])
            steps += 1
        return self

    def ask(self, strategy: Strategy) -> Answer:
        """Ask ``strategy`` for the pending decision's answer and apply it."""
        decision = self.decision
        if decision is None:
            raise GameError("the game is finished; there is no decision to answer")
        return _ask_and_apply(self, strategy, PlayerView(self, decision.player))

    def clone(self, *, keep_log: bool = True) -> Game:
        """An independent copy (for search); ``keep_log=False`` drops events and answers."""
        new = Game(_BLANK)
        new.n = self.n
        new.seed = self.seed
        new.rules = self.rules
        new.cards = self.cards
        new.protocol = self.protocol
        new.load_note = self.load_note
        new._asking = None  # a copy made while a strategy thinks is free to be played
        # Park every generator as an (immutable) state shared by both games; each game
        # rebuilds a generator only when it next draws from it.
        for i, rng in enumerate(self._rngs):
            if rng is not None:
                self._rng_states[i] = rng.getstate()
                self._rngs[i] = None
        new._rngs = [None] * len(self._rngs)
        new._rng_states = self._rng_states[:]
        new.players = [p.copy() for p in self.players]
        copy_table(self, new)  # the declared table (engine/state.py), its lists and dicts copied
        new.events = self.events[:] if keep_log else []
        new.answers = self.answers[:] if keep_log else []
        new.results = self.results
        new.monthly = [dict(h) for h in self.monthly]
        new.decision = self.decision  # immutable values: shared
        new._pending = self._pending
        new._stack = self._stack[:]
        new.arranged = self.arranged
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickle and deepcopy alike in both builds (a native class has no default reduce).
        return (_rebuild_game, (tuple(getattr(self, name) for name in GAME_SLOTS),))

    @property
    def media_bids(self) -> Mapping[int, int]:
        """This P2's sealed media bids so far, seat -> G (P2.1). Sealed: a seat's view shows
        only its own bid (``PlayerView.my_media_bid``) until all are revealed together."""
        return MappingProxyType(self._media_bids)

    def resample(
        self, seat: int, rng: random.Random, media_bid: Callable[[Game, int], int] | None = None
    ) -> Game:
        """A game ``seat`` cannot tell from this one: everything hidden from it re-drawn with
        ``rng`` (:mod:`musici.engine.resample`; OpenSpiel's ``resample_from_infostate``)."""
        from musici.engine.resample import resample

        if not 0 <= seat < self.n:
            raise GameError(f"no seat {seat!r} in a {self.n}-player game")
        return resample(self, seat, rng, media_bid)

    # ------------------------------------------------------------------ positions
    def position(self) -> dict[str, Any]:
        """The whole state as JSON-able data, hidden parts included (:mod:`~musici.engine.position`)."""
        from musici.engine.position import position

        return position(self)

    @classmethod
    def from_position(cls, data: Mapping[str, Any], *, rules: RuleSet | None = None,
                      cards: CardSet | None = None) -> Game:
        """A game arranged as ``data`` says, resuming at ``data["at"]`` (like a FEN).

        Start from a seeded deal (``players``, ``seed``) and name only what matters:

        >>> g = Game.from_position({"seed": 3, "month": 5, "seats": [{"money": 90}],
        ...                         "at": {"action": 0, "round": 2}})
        >>> (g.month, g.phase, g.round, g.players[0].money, g.decision.player)
        (5, 'P4', 2, 90, 0)

        See :mod:`musici.engine.position` for the fields; a position has no history, so it
        cannot be saved by replay.
        """
        from musici.engine.position import build

        players, seed = data.get("players", 4), data.get("seed", 0)
        if rules is None and "rules" in data:
            rules = RuleSet.from_options(data["rules"])
        game = cls(players=players, seed=seed, rules=rules, cards=cards)
        build(game, data)
        return game

    def resume_at(self, point: str, seat: int | None = None) -> None:
        """Play on from the state as it stands, at ``point`` of the current month.

        A test or a lesson may arrange a position by editing the state (money, hands,
        venues, markers) while a decision is pending; the pending decision was computed from
        the old state. ``resume_at`` drops it and asks again from the arranged state:

        - ``"action"``: ``seat``'s P4 action of this round (P4.1); the rest of the month
          follows as it was queued;
        - ``"auction"``: this month's auction from its first turn (P1.1), the rest of the
          month as queued;
        - ``"end"``: the final scoring now (END), skipping what is left of the game.
        """
        from musici.engine import end, p1_auction, p4_actions

        task: Task
        if point == "action":
            if self.phase != "P4" or seat is None or not 0 <= seat < self.n:
                raise GameError(
                    f"resume_at('action') needs phase P4 and a seat, got phase {self.phase} and seat {seat!r}"
                )
            task = (p4_actions.ask_action, seat)
        elif point == "auction":
            if self.phase != "P1" or self.special_slot is None:
                raise GameError(
                    f"resume_at('auction') needs phase P1 with a card in the "
                    f"auction slot, got phase {self.phase}"
                )
            task = (p1_auction.turn, self._order(), 0, [p.banned_now for p in self.players], 0, None)
        elif point == "end":
            self._stack.clear()
            task = (end.score,)
        else:
            raise GameError(f"unknown resume point {point!r}; expected one of 'action', 'auction', 'end'")
        self.decision = None
        self._pending = None
        self._stack.append(task)
        self._run()

    # ------------------------------------------------------------------ machinery
    def _run(self) -> None:
        _run_tasks(self)

    def _order(self) -> list[int]:
        """MONTH.2: start player first, then clockwise."""
        s, n = self.start_player, self.n
        return [(s + i) % n for i in range(n)]

    # ------------------------------------------------------------------ queries
    def standings(self) -> list[dict[str, Any]]:
        """Final standings as plain rows (seat, rank, fame as a Fraction, money, winner)."""
        if self.results is None:
            raise GameError("the game is not finished")
        res = self.results
        return sorted(
            (
                {
                    "seat": s,
                    "rank": res["ranks"][s],
                    "fame": res["fame"][s],
                    "money": res["money"][s],
                    "winner": s in res["winners"],
                }
                for s in range(self.n)
            ),
            key=lambda row: (row["rank"], row["seat"]),
        )

    def events_for(self, seat: int | None = None) -> Iterable[Event]:
        """All events, or only those ``seat`` may see."""
        if seat is None:
            return iter(self.events)
        return (e for e in self.events if e.private is None or seat in e.private)

    # ------------------------------------------------------------------ save / load
    def to_json(self) -> str:
        """The game as a JSON save (``musici.persistence``)."""
        from musici.persistence import dumps

        self._refuse_arranged()
        return dumps(self)

    def save(self, path: Any) -> None:
        from musici.persistence import save

        self._refuse_arranged()
        save(self, path)

    def _refuse_arranged(self) -> None:
        if self.arranged:
            raise GameError("a game built by from_position has no history to replay, so it "
                            "cannot be saved; save game.position() as data instead")

    @classmethod
    def load(cls, path: Any, cards: CardSet | None = None) -> Game:
        from musici.persistence import load

        return load(path, cards)

    def _repr_html_(self) -> str:
        from musici.html import game_html

        return game_html(self)


def _rebuild_game(values: tuple[Any, ...]) -> Game:
    game = Game(_BLANK)
    for name, value in zip(GAME_SLOTS, values, strict=True):
        setattr(game, name, value)
    return game


# The play loop's machinery as module functions: the compiled build calls them directly (a
# method of Game, a Python class in both builds, is looked up and bound at every call: three
# calls a ply; issue 23 item 4). Game._apply and Game._run call them.
def _ask_and_apply(g: Game, strategy: Strategy, view: PlayerView) -> Answer:
    # ask() with the pending decision's seat's view made (play() keeps one per seat).
    decision = g.decision
    assert decision is not None
    seat = decision.player
    step = len(g.answers)  # the repro text is built only on error
    me = id(g)
    if g._asking == me:
        raise GameError(
            f"game.ask() called from inside a strategy (seed {g.seed}, "
            f"step {step}); a strategy must return its answer"
        )
    # While the strategy runs, this game refuses answer() and ask() (a strategy that holds
    # the game must not answer for itself); clones made meanwhile (search) carry another id.
    g._asking = me
    try:
        answer = strategy(view, decision)
    except Exception as exc:
        raise caused(StrategyError(
            f"strategy of seat {seat} raised {type(exc).__name__}: {brief(exc, 500, text=True)} while "
            f"answering {decision.kind} ({decision.rule}) at month {g.month} {g.phase} "
            f"(seed {g.seed}, step {step})"
        ), exc) from exc
    finally:
        g._asking = None
    try:
        _apply_answer(g, decision, answer)
    except IllegalAnswer as exc:
        raise caused(StrategyError(f"{exc} (seed {g.seed}, step {step})"), None) from None
    return answer


def _apply_answer(g: Game, decision: Decision, answer: Answer) -> None:
    # answer() after its checks; ask() comes here directly (it made the same checks).
    try:
        value = decision.normalize(answer)
    except IllegalAnswer as exc:
        raise caused(IllegalAnswer(
            f"illegal answer {brief(answer)} from seat {decision.player} to {decision.kind} "
            f"({decision.rule}, month {g.month} {g.phase}, step {g.step}): {exc}; "
            f"legal: {decision.describe_legal()}"
        ), None) from None
    handler, ctx = g._pending  # type: ignore[misc]  # set together with g.decision
    g.decision = None
    g._pending = None
    g.answers.append(value)
    g.plies += 1
    if len(ctx) == 1:  # most answers go with one argument (a seat): no tuple to build
        handler(g, value, ctx[0])
    else:
        handler(g, value, *ctx)
    _run_tasks(g)


def _run_tasks(g: Game) -> None:
    stack = g._stack
    while g.decision is None and stack:
        task = stack.pop()
        if len(task) == 2:  # most tasks carry one argument (a seat): no slice to build
            task[0](g, task[1])
        else:
            task[0](g, *task[1:])
