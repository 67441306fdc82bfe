"""The game of I Musici as a resumable sequence of decisions.

The engine keeps a stack of small tasks (plain functions with arguments, so a state copy is
a list copy). It runs tasks until one needs a player's choice, then stops with
:attr:`Game.decision` set. :meth:`Game.answer` validates an answer against that decision
before touching anything (an illegal answer leaves the game unchanged), applies it, and
runs on to the next decision. Every random draw comes from the game's own generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from musici import economy as E
from musici import scoring
from musici.cards import VIRTUOSOS, CardSet, standard_cardset
from musici.decisions import Answer, Decision, IllegalAnswer, brief
from musici.economy import (
    AREAS,
    AUCTION_STEP,
    CRITIC_BONUS,
    DISCOVER_PRICE,
    GUARNERI_BONUS,
    HALLS,
    IDLE_BONUS,
    SCORE_PRICE,
    START_MONEY,
    TOURS,
)
from musici.events import Event
from musici.rules import RuleSet
from musici.state import PlayerState
from musici.views import PlayerView

Strategy = Callable[[Any, Decision], Answer]
Task = tuple[Any, ...]


class GameError(RuntimeError):
    """Misuse of a game: answering a finished game, an unknown seat, and the like."""


class StrategyError(IllegalAnswer):
    """A strategy gave an illegal answer or raised; names seat, decision and repro."""


def _text(exc: BaseException) -> str:
    """``str(exc)`` for a message, bounded, even when the exception's ``__str__`` fails."""
    try:
        text = str(exc)
    except Exception:
        return "<unprintable>"
    return text if len(text) <= 500 else text[:500] + "…"


class Game:
    """One game of I Musici for 3 or 4 players.

    >>> from musici.strategies import random_strategy
    >>> game = Game(players=4, seed=7)
    >>> game.play([random_strategy] * 4).finished
    True
    """

    _asking: int | None = None  # id(self) while ask() waits for a strategy (see ask)

    def __init__(self, players: int = 4, seed: int = 0, rules: RuleSet | None = None,
                 cards: CardSet | None = None) -> None:
        if type(players) is not int or players not in (3, 4):  # not True, not 3.0
            raise GameError(f"I Musici is for 3 or 4 players (GOAL.1), got {players!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise GameError(f"seed must be a non-negative integer, got {seed!r}")
        self.n = players
        self.seed = seed
        self.rules = rules if rules is not None else RuleSet()
        self.cards = cards if cards is not None else standard_cardset()
        # Generator 0 is the game's chance; 1 + seat is that seat's own (for its bots).
        # A generator may be parked as a state tuple until used, so clones stay cheap.
        self._rngs: list[random.Random | None] = [
            random.Random(seed),
            *(random.Random(f"musici-seat:{seed}:{s}") for s in range(players)),
        ]
        self._rng_states: list[Any] = [None] * (players + 1)
        self.players = [PlayerState(s, START_MONEY) for s in range(players)]
        self.month = 1
        self.phase = "SETUP"
        self.round = 0
        self.start_player = 0
        self.score_deck: list[str] = []  # top of a deck = end of its list
        self.score_market: list[str | None] = [None] * 4
        self.orchestra_deck: list[str] = []
        self.orchestra_market: list[str | None] = [None] * 4
        self.discovery_decks: dict[str, list[str]] = {"authentic": [], "modern": []}
        self.special_deck: list[str] = []
        self.special_slot: str | None = None
        self.thief_marks: dict[str, int] = {}  # face-up score card -> Thief's seat (P4.BUY.5)
        self.out_of_game: list[str] = []  # SETUP.6
        self.venues: dict[str, int] = {}  # area -> seat (P3.1)
        self.media: int | None = None
        self.chapel_free: int | None = None  # P3.HALL.1
        self.events: list[Event] = []
        self.answers: list[Answer] = []
        self.results: dict[str, Any] | None = None
        # Fame and money after every month (not to be confused with a view's event history).
        self.monthly: list[dict[str, Any]] = []
        self.decision: Decision | None = None
        self._media_bids: dict[int, int] = {}  # replaced, never mutated: clones share it
        self._pending: tuple[Any, tuple[Any, ...]] | None = None
        self._stack: list[Task] = [(Game._t_setup,)]
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
        """Number of answers given so far."""
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
                    f"must return its answer (seed {self.seed}, step {self.step})")
            raise GameError("the game is finished; there is no decision to answer")
        try:
            value = decision.normalize(answer)
        except IllegalAnswer as exc:
            raise IllegalAnswer(
                f"illegal answer {brief(answer)} from seat {decision.player} to {decision.kind} "
                f"({decision.rule}, month {self.month} {self.phase}, step {self.step}): {exc}; "
                f"legal: {decision.describe_legal()}"
            ) from None
        handler, ctx = self._pending
        self.decision = None
        self._pending = None
        self.answers.append(value)
        handler(self, value, *ctx)
        self._run()

    def play(self, strategies: Sequence[Strategy], *, until: str | None = None,
             max_steps: int | None = None) -> Game:
        """Let ``strategies`` (one per seat) answer until the end, or ``until`` the next
        "decision", "phase" or "month" starts, or ``max_steps`` answers were given."""
        if len(strategies) != self.n:
            raise GameError(f"need {self.n} strategies, one per seat, got {len(strategies)}")
        if until not in (None, "decision", "phase", "month"):
            raise GameError(f"until must be decision, phase, month or None, got {until!r}")
        start = (self.month, self.phase)
        steps = 0
        while (decision := self.decision) is not None:
            if max_steps is not None and steps >= max_steps:
                break
            if steps and until is not None and (
                    until == "decision"
                    or (until == "phase" and (self.month, self.phase) != start)
                    or (until == "month" and self.month != start[0])):
                break
            self.ask(strategies[decision.player])
            steps += 1
        return self

    def ask(self, strategy: Strategy) -> Answer:
        """Ask ``strategy`` for the pending decision's answer and apply it."""
        decision = self.decision
        if decision is None:
            raise GameError("the game is finished; there is no decision to answer")
        seat = decision.player
        step = len(self.answers)  # the repro text is built only on error
        if self._asking == id(self):
            raise GameError(f"game.ask() called from inside a strategy (seed {self.seed}, "
                            f"step {step}); a strategy must return its answer")
        # While the strategy runs, this game refuses answer() and ask() (a strategy that holds
        # the game must not answer for itself); clones made meanwhile (search) carry another id.
        self._asking = id(self)
        try:
            answer = strategy(PlayerView(self, seat), decision)
        except Exception as exc:
            raise StrategyError(
                f"strategy of seat {seat} raised {type(exc).__name__}: {_text(exc)} while "
                f"answering {decision.kind} ({decision.rule}) at month {self.month} {self.phase} "
                f"(seed {self.seed}, step {step})"
            ) from exc
        finally:
            self._asking = None
        try:
            self.answer(answer)
        except IllegalAnswer as exc:
            raise StrategyError(f"{exc} (seed {self.seed}, step {step})") from None
        return answer

    def clone(self, *, keep_log: bool = True) -> Game:
        """An independent copy (for search); ``keep_log=False`` drops events and answers."""
        new = Game.__new__(Game)
        new.__dict__.update(self.__dict__)
        # Park every generator as an (immutable) state shared by both games; each game
        # rebuilds a generator only when it next draws from it.
        for i, rng in enumerate(self._rngs):
            if rng is not None:
                self._rng_states[i] = rng.getstate()
                self._rngs[i] = None
        new._rngs = [None] * len(self._rngs)
        new._rng_states = self._rng_states[:]
        new.players = [p.copy() for p in self.players]
        new.score_deck = self.score_deck[:]
        new.score_market = self.score_market[:]
        new.orchestra_deck = self.orchestra_deck[:]
        new.orchestra_market = self.orchestra_market[:]
        new.discovery_decks = {k: v[:] for k, v in self.discovery_decks.items()}
        new.special_deck = self.special_deck[:]
        new.thief_marks = dict(self.thief_marks)
        new.out_of_game = self.out_of_game[:]
        new.venues = dict(self.venues)
        new.events = self.events[:] if keep_log else []
        new.answers = self.answers[:] if keep_log else []
        new.monthly = [dict(h) for h in self.monthly]
        new._stack = self._stack[:]
        new._asking = None  # a copy made while a strategy thinks is free to be played
        return new

    # ------------------------------------------------------------------ machinery
    def _run(self) -> None:
        stack = self._stack
        while self.decision is None and stack:
            task = stack.pop()
            task[0](self, *task[1:])

    def _push(self, *tasks: Task) -> None:
        """Schedule ``tasks`` to run in the given order (before anything already queued)."""
        self._stack.extend(reversed(tasks))

    def _ask(self, decision: Decision, handler: Callable[..., None], *ctx: Any) -> None:
        # A choice with a single legal answer is no choice: apply it without asking.
        if decision.space == "choice" and len(decision.options) == 1:
            handler(self, decision.options[0], *ctx)
            return
        self.decision = decision
        self._pending = (handler, ctx)

    def _emit(self, kind: str, rule: str, player: int | None, data: dict[str, Any],
              private: tuple[int, ...] | None = None) -> None:
        self.events.append(Event(self.month, self.phase, kind, rule, player, data, private))

    def _order(self) -> list[int]:
        """MONTH.2: start player first, then clockwise."""
        s, n = self.start_player, self.n
        return [(s + i) % n for i in range(n)]

    def _change_fame(self, p: PlayerState, delta: int, rule: str, reason: str,
                     venue: str | None = None) -> None:
        before = p.fame
        after = before + delta
        floored = False
        if after < 0 and self.rules.options["RULING-FAME-FLOOR"] == "zero":
            after, floored = 0, True  # P5.8
        p.fame = after
        data = {"delta": delta, "fame": after, "reason": reason}
        if venue is not None:  # a hall's or tour's cost: lets analyses net it against returns
            data["venue"] = venue
        if floored:
            data["floored"] = "P5.8"
        self._emit("fame", rule, p.seat, data)

    def _pay(self, p: PlayerState, amount: int, rule: str, reason: str,
             to: int | None = None, venue: str | None = None) -> None:
        p.money -= amount
        if to is not None:
            self.players[to].money += amount
        data = {"amount": amount, "to": to, "reason": reason, "money": p.money}
        if venue is not None:
            data["venue"] = venue
        self._emit("pay", rule, p.seat, data)

    def _receive(self, p: PlayerState, amount: int, rule: str, reason: str) -> None:
        p.money += amount
        self._emit("income", rule, p.seat, {"amount": amount, "reason": reason,
                                            "money": p.money})

    def _add_marker(self, p: PlayerState, orch: str, rule: str, reason: str) -> None:
        count = p.markers.get(orch, 0) + 1
        if count > 2:  # P5.7: a third marker sends the orchestra away
            del p.markers[orch]
            p.orchestras.remove(orch)
            self.orchestra_deck.insert(0, orch)
            self._emit("orchestra_leaves", "P5.7", p.seat,
                       {"orchestra": orch, "reason": reason, "cause": rule})
            # Slots left empty by an exhausted deck fill again now that it holds a card.
            self._refill(self.orchestra_market, self.orchestra_deck)
            return
        p.markers[orch] = count
        self._emit("marker", rule, p.seat, {"orchestra": orch, "markers": count,
                                            "reason": reason})

    # ------------------------------------------------------------------ setup
    def _t_setup(self) -> None:
        cards, rng = self.cards, self.rng
        orchestras = list(cards.orchestras)
        if self.n == 3:  # SETUP.6: before shuffling, remove 2+2+1+1 orchestras
            removed: list[str] = []
            for (style, part), k in (
                (("modern", "instrumental"), 2), (("modern", "vocal"), 2),
                (("authentic", "instrumental"), 1), (("authentic", "vocal"), 1),
            ):
                kind = [o for o in orchestras if cards.orchestras[o].style == style
                        and cards.orchestras[o].part == part]
                removed.extend(kind[-k:])
            orchestras = [o for o in orchestras if o not in removed]
            self.out_of_game.extend(removed)
            self._emit("removed", "SETUP.6", None, {"orchestras": removed})
        scores = [c.id for c in cards.scores]
        rng.shuffle(scores)  # SETUP.2
        rng.shuffle(orchestras)  # SETUP.3
        specials = list(cards.specials)
        rng.shuffle(specials)
        for deck in ("authentic", "modern"):
            pile = [c.id for c in cards.discoveries if c.deck == deck]
            rng.shuffle(pile)
            self.discovery_decks[deck] = pile
        if self.n == 3:  # SETUP.6: after shuffling, 6 scores and 3 of each discovery deck
            hidden = [scores.pop() for _ in range(6)]
            for deck in ("authentic", "modern"):
                hidden.extend(self.discovery_decks[deck].pop() for _ in range(3))
            self.out_of_game.extend(hidden)
            self._emit("removed", "SETUP.6", None, {"scores": 6, "discoveries": 6,
                                                    "cards": hidden}, private=())
        for p in self.players:  # SETUP.2: 3 secret cards each
            p.hand = [scores.pop() for _ in range(3)]
            self._emit("deal", "SETUP.2", p.seat, {"cards": p.hand[:]}, private=(p.seat,))
        self.score_market = [scores.pop() for _ in range(4)]
        self.score_deck = scores
        self.orchestra_market = [orchestras.pop() for _ in range(4)]  # SETUP.3
        self.orchestra_deck = orchestras
        self.special_slot = specials.pop()
        self.special_deck = specials
        if self.rules.options["RULING-START-PLAYER"] == "random":  # SETUP.5
            self.start_player = rng.randrange(self.n)
        self._emit("setup", "SETUP.1", None, {
            "money": START_MONEY, "start_player": self.start_player,
            "scores": list(self.score_market), "orchestras": list(self.orchestra_market),
            "special": self.special_slot, "months": self.rules.months,
        })
        self._push((Game._t_month,))

    # ------------------------------------------------------------------ month
    def _t_month(self) -> None:
        if self.month > 1:  # MONTH.3: the start-player marker passes clockwise
            self.start_player = (self.start_player + 1) % self.n
        for p in self.players:
            p.critic_now, p.critic_next = p.critic_next, False
            p.banned_now, p.banned_next = p.banned_next, False
        self.phase = "P1"
        self._emit("month", "MONTH.1", None, {"month": self.month,
                                              "start_player": self.start_player})
        self._push((Game._t_p1,), (Game._t_p2,), (Game._t_p3,), (Game._t_p4,),
                   (Game._t_p5,), (Game._t_month_end,))

    def _t_month_end(self) -> None:
        self.monthly.append({
            "month": self.month,
            "fame": [p.fame for p in self.players],
            "money": [p.money for p in self.players],
        })
        self._emit("month_end", "MONTH.3", None, {
            "fame": [p.fame for p in self.players], "money": [p.money for p in self.players],
        })
        # MONTH.3: location markers and the media token come back.
        self.venues = {}
        self.media = None
        self.chapel_free = None
        for p in self.players:
            p.venue = None
            p.concert = None
            p.actions = 0
            p.special_used = p.tour_guide = p.advisor = p.rumour = False
        if self.month >= self.rules.months:
            self._push((Game._t_end,))
        else:
            self.month += 1
            self._push((Game._t_month,))

    # ------------------------------------------------------------------ P1 auction
    def _t_p1(self) -> None:
        self.phase = "P1"
        if self.special_slot is None:  # P1.6: empty special deck, no auction
            self._emit("no_auction", "P1.6", None, {})
            return
        passed = [p.banned_now for p in self.players]  # P1.7
        for p in self.players:
            if p.banned_now:
                self._emit("auction_banned", "P1.7", p.seat, {"card": self.special_slot})
        order = self._order()
        self._emit("auction", "P1.1", None, {"card": self.special_slot})
        self._push((Game._t_auction_turn, order, 0, passed, 0, None))

    def _t_auction_turn(self, order: list[int], i: int, passed: list[bool], high: int,
                        leader: int | None) -> None:
        remaining = [s for s in order if not passed[s]]
        if len(remaining) <= 1:  # P1.3: one player left
            if leader is not None:
                self._auction_win(leader, high)
            elif remaining and self.rules.options["RULING-AUCTION-LAST"] == "free":
                self._auction_win(remaining[0], 0)
            elif remaining:  # RULING-AUCTION-LAST: the last player may still bid or pass
                self._auction_offer(remaining[0], order, passed, high, leader,
                                    "RULING-AUCTION-LAST")
            else:
                self._auction_unsold()
            return
        while passed[order[i % self.n]]:
            i += 1
        self._auction_offer(order[i % self.n], order, passed, high, leader, "P1.1")

    def _auction_offer(self, seat: int, order: list[int], passed: list[bool], high: int,
                       leader: int | None, rule: str) -> None:
        bid = high + AUCTION_STEP
        options = ("pass", "bid") if self.players[seat].money >= bid else ("pass",)  # P1.2
        self._ask(Decision(seat, "auction", rule, options=options,
                           info={"card": self.special_slot, "bid": bid, "high": high,
                                 "leader": leader}),
                  Game._h_auction, seat, order, passed, high, leader)

    def _h_auction(self, answer: str, seat: int, order: list[int], passed: list[bool],
                   high: int, leader: int | None) -> None:
        if answer == "bid":
            high += AUCTION_STEP
            leader = seat
            self._emit("bid", "P1.1", seat, {"amount": high})
        else:
            passed = passed[:]
            passed[seat] = True
            self._emit("pass_auction", "P1.2", seat, {})
        self._push((Game._t_auction_turn, order, order.index(seat) + 1, passed, high, leader))

    def _auction_win(self, seat: int, price: int) -> None:
        p = self.players[seat]
        card = self.special_slot
        assert card is not None
        if price:
            self._pay(p, price, "P1.3", f"won the auction for {card}")
        p.specials_bought += 1
        if self.cards.specials[card].permanent:
            p.permanent.append(card)  # P1.4: works at once
        else:
            p.specials_hand.append(card)
        self._emit("special_bought", "P1.3", seat, {"card": card, "price": price})
        self._reveal_special()

    def _auction_unsold(self) -> None:
        card = self.special_slot
        assert card is not None
        self.special_deck.insert(0, card)  # P1.5: face down under the special deck
        self._emit("unsold", "P1.5", None, {"card": card})
        self._reveal_special()

    def _reveal_special(self) -> None:
        self.special_slot = self.special_deck.pop() if self.special_deck else None  # P1.6
        self._emit("special_revealed", "P1.6", None, {"card": self.special_slot})

    # ------------------------------------------------------------------ P2 media
    def _t_p2(self) -> None:
        self.phase = "P2"
        order = self._order()
        self._media_bids = {}
        self._push(*[(Game._t_media_ask, s) for s in order], (Game._t_media_reveal, order))

    def _t_media_ask(self, seat: int) -> None:
        step = self.rules.options["RULING-MEDIA-STEP"]
        money = self.players[seat].money
        self._ask(Decision(seat, "media_bid", "P2.1", space="amount", lo=0,
                           hi=money - money % step, step=step),
                  Game._h_media_bid, seat)

    def _h_media_bid(self, amount: int, seat: int) -> None:
        self._media_bids = {**self._media_bids, seat: amount}
        self._emit("media_bid", "P2.1", seat, {"amount": amount}, private=(seat,))

    def _t_media_reveal(self, order: list[int]) -> None:
        bids = self._media_bids
        effective = {s: bids[s] + (CRITIC_BONUS if self.players[s].critic_now else 0)
                     for s in order}
        for s in order:
            if self.players[s].critic_now:
                self._emit("critic", "P2.5", s, {"bid": bids[s], "counts": effective[s]})
        self._emit("media_reveal", "P2.1", None,
                   {"bids": [bids[s] for s in range(self.n)],
                    "effective": [effective[s] for s in range(self.n)]})
        top = max(effective.values())
        if top == 0 and self.rules.options["RULING-MEDIA-ZERO"] == "no-winner":
            self._emit("no_media", "P2.3", None, {})
            return
        tied = [s for s in order if effective[s] == top]
        if len(tied) > 1:  # P2.2: less fame wins, then chance
            least = min(self.players[s].fame for s in tied)
            tied_bids = tied
            tied = [s for s in tied if self.players[s].fame == least]
            by_chance = len(tied) > 1
            if by_chance:
                tied = [tied[self.rng.randrange(len(tied))]]
            self._emit("media_tie", "P2.2", tied[0], {"tied": tied_bids, "fame": least,
                                                      "by_chance": by_chance})
        winner = tied[0]
        self.media = winner
        if bids[winner]:
            self._pay(self.players[winner], bids[winner], "P2.2", "won the media")
        self._emit("media", "P2.2", winner, {"bid": bids[winner]})

    # ------------------------------------------------------------------ P3 venues
    def _t_p3(self) -> None:
        self.phase = "P3"
        fames = [p.fame for p in self.players]
        least = min(fames)
        if fames.count(least) == 1:  # P3.HALL.1: strictly the least fame
            self.chapel_free = fames.index(least)
            self._emit("chapel_free", "P3.HALL.1", self.chapel_free, {"fame": least})
        self._push(*[(Game._t_venue_ask, s) for s in self._order()])

    def _t_venue_ask(self, seat: int) -> None:
        p = self.players[seat]
        options = tuple(a for a in AREAS  # P3.1, P3.TOUR.5
                        if a not in self.venues and E.may_choose_area(a, p.fame, self.rules))
        self._ask(Decision(seat, "venue", "P3.1", options=options), Game._h_venue, seat)

    def _h_venue(self, area: str, seat: int) -> None:
        self.venues[area] = seat
        self.players[seat].venue = area
        self._emit("venue", "P3.1", seat, {"area": area})

    # ------------------------------------------------------------------ P4 actions
    def _t_p4(self) -> None:
        self.phase = "P4"
        tasks: list[Task] = []
        for r in range(3):  # P4.1: three rounds in turn order
            tasks.append((Game._t_round, r))
            tasks.extend((Game._t_action_ask, s) for s in self._order())
        self._push(*tasks)

    def _t_round(self, r: int) -> None:
        self.round = r + 1

    def _t_action_ask(self, seat: int) -> None:
        p = self.players[seat]
        options = ["pass"]
        if self._can_concert(p):
            options.append("concert")
        if self._can_hire(p):
            options.append("hire")
        if self._can_buy(p):
            options.append("buy")
        if p.money >= DISCOVER_PRICE and any(self.discovery_decks.values()):
            options.append("discover")
        if any(p.money >= self.cards.orchestras[o].salary for o in p.markers):
            options.append("appease")
        if not p.special_used and self._usable_specials(p):
            options.append("special")
        self._ask(Decision(seat, "action", "P4.1", options=tuple(options),
                           info={"round": self.round}), Game._h_action, seat)

    def _h_action(self, action: str, seat: int) -> None:
        p = self.players[seat]
        if action == "pass":
            self._emit("pass_round", "P4.1", seat, {"round": self.round})
            return
        p.actions += 1
        self._emit("action", "P4.2", seat, {"action": action, "round": self.round})
        getattr(self, f"_start_{action}")(p)

    # --- concert (P4.CONCERT)
    def _can_concert(self, p: PlayerState) -> bool:
        # P4.2: at most one concert a month; needs a card and someone to play it.
        return (p.concert is None and bool(p.hand)
                and bool(p.orchestras or self._virtuosos(p)))

    def _virtuosos(self, p: PlayerState) -> list[str]:
        return [c for c in p.permanent if c in VIRTUOSOS]

    def _start_concert(self, p: PlayerState) -> None:
        self._ask(Decision(p.seat, "concert_card", "P4.CONCERT.1", options=tuple(p.hand)),
                  Game._h_concert_card, p.seat)

    def _h_concert_card(self, card: str, seat: int) -> None:
        p = self.players[seat]
        items = [*p.orchestras, *self._virtuosos(p)]
        groups = [self.cards.performer(i)[0] for i in items]
        venue = p.venue
        capacity = E.capacity(venue) if venue is not None else None  # P4.CONCERT.2
        if capacity is None:
            capacity = len(items)
        self._ask(Decision(seat, "concert_orchestras", "P4.CONCERT.2", space="subset",
                           items=tuple(items), groups=tuple(groups), min_size=1,
                           max_size=min(capacity, len(items)),
                           info={"card": card, "venue": venue, "capacity": capacity}),
                  Game._h_concert_orchestras, seat, card)

    def _h_concert_orchestras(self, chosen: tuple[str, ...], seat: int, card_id: str) -> None:
        p = self.players[seat]
        card = self.cards.music[card_id]
        # P4.CONCERT.3 RULING-STYLE: the orchestras' style; virtuosos count (SPECIAL.P3/P4)
        style, brought, markers = scoring.lineup(self.cards, chosen, p.markers)
        restore = scoring.restoration(self.cards, self.rules, card, p.played, p.permanent)
        p.hand.remove(card_id)
        p.played.append(card_id)  # P4.CONCERT.1: stays in front of the player
        media = self.media == seat
        venue = p.venue
        out = scoring.concert_outcome(card, style, brought, markers, rules=self.rules,
                                      venue=venue, media=media, restore=restore)
        rated, fame, income = out.rating, out.fame, out.income
        p.concert = {"card": card_id, "income": income, "fame": fame}
        self._emit("concert", "P4.CONCERT.4", seat, {
            "card": card_id, "kind": card.kind, "style": rated.style,
            "orchestras": list(chosen), "brought": list(brought),
            "required": list(rated.required), "markers": markers, "media": media,
            "venue": venue, "base_rating": rated.base_level, "rating": rated.level,
            "reasons": list(rated.reasons), "card_fame": out.card_fame,
            "restoration": None if restore is None else {
                "found": restore.found, "bonus": out.bonus, "capped": out.capped,
                "matches": [[m.card, m.nationality_or_era, m.composer_or_lineage, list(m.why)]
                            for m in restore.matches],
            },
            "fame": fame, "income": income,
        })
        if fame:
            self._change_fame(p, fame, "P4.CONCERT.4", f"concert of {card_id}")

    # --- hire (P4.HIRE)
    def _iter_hire_targets(self, p: PlayerState) -> Iterator[str]:
        # A generator, so the action menu can ask "any?" without building the list.
        money, orchestras = p.money, self.cards.orchestras
        for o in self.orchestra_market:
            if o is not None and money >= orchestras[o].price:
                yield o
        for other in self.players:
            if other is not p:
                for o, m in other.markers.items():  # P4.HIRE.2: only with a marker
                    if money >= self._poach_price(o, m):
                        yield o

    def _hire_targets(self, p: PlayerState) -> list[str]:
        return list(self._iter_hire_targets(p))

    def _can_hire(self, p: PlayerState) -> bool:
        return next(self._iter_hire_targets(p), None) is not None

    def _poach_price(self, orch: str, markers: int) -> int:
        return E.poach_price(self.cards.orchestras[orch].price, markers)  # P4.HIRE.2

    def _start_hire(self, p: PlayerState) -> None:
        self._ask(Decision(p.seat, "hire", "P4.HIRE.1", options=tuple(self._hire_targets(p))),
                  Game._h_hire, p.seat)

    def _owner_of(self, orch: str) -> PlayerState | None:
        for q in self.players:
            if orch in q.orchestras:
                return q
        return None

    def _h_hire(self, orch: str, seat: int) -> None:
        p = self.players[seat]
        if orch in self.orchestra_market:
            slot = self.orchestra_market.index(orch)
            self._pay(p, self.cards.orchestras[orch].price, "P4.HIRE.1", f"hired {orch}")
            p.orchestras.append(orch)
            self.orchestra_market[slot] = self.orchestra_deck.pop() if self.orchestra_deck else None
            self._emit("hire", "P4.HIRE.1", seat, {"orchestra": orch,
                                                   "refill": self.orchestra_market[slot]})
            return
        owner = self._owner_of(orch)
        assert owner is not None
        price = self._poach_price(orch, owner.markers[orch])
        self._ask(Decision(owner.seat, "poach_consent", "P4.HIRE.2", options=("agree", "refuse"),
                           info={"buyer": seat, "orchestra": orch, "price": price}),
                  Game._h_poach, seat, orch, price)

    def _h_poach(self, answer: str, seat: int, orch: str, price: int) -> None:
        p = self.players[seat]
        owner = self._owner_of(orch)
        assert owner is not None
        if answer == "refuse":
            self._emit("poach_refused", "P4.HIRE.2", owner.seat, {"buyer": seat,
                                                                  "orchestra": orch})
            return
        self._pay(p, price, "P4.HIRE.2", f"hired {orch} away", to=owner.seat)
        markers = owner.markers.pop(orch)
        owner.orchestras.remove(orch)
        p.orchestras.append(orch)
        if self.rules.options["RULING-POACH-MARKERS"] == "stay":
            p.markers[orch] = markers
        self._emit("poach", "P4.HIRE.2", seat, {"orchestra": orch, "from": owner.seat,
                                                "price": price, "markers": markers})

    # --- buy (P4.BUY)
    def _iter_market_buys(self, p: PlayerState) -> Iterator[str]:
        if p.money >= SCORE_PRICE:
            seat, marks = p.seat, self.thief_marks
            for c in self.score_market:
                if c is not None and marks.get(c, seat) == seat:  # P4.BUY.5
                    yield c

    def _iter_buy_targets(self, p: PlayerState) -> Iterator[str]:
        yield from self._iter_market_buys(p)
        for q in self.players:
            if q is not p and q.hand:
                yield f"player:{q.seat}"

    def _market_buys(self, p: PlayerState) -> list[str]:
        return list(self._iter_market_buys(p))

    def _buy_targets(self, p: PlayerState) -> list[str]:
        return list(self._iter_buy_targets(p))

    def _can_buy(self, p: PlayerState) -> bool:
        return next(self._iter_buy_targets(p), None) is not None

    def _start_buy(self, p: PlayerState) -> None:
        self._ask(Decision(p.seat, "buy", "P4.BUY.1", options=tuple(self._buy_targets(p))),
                  Game._h_buy, p.seat)

    def _h_buy(self, target: str, seat: int) -> None:
        p = self.players[seat]
        if not target.startswith("player:"):
            self._buy_face_up(p, target, "P4.BUY.1")
            return
        seller = int(target.split(":")[1])
        self._ask(Decision(seat, "buy_price", "P4.BUY.2", space="amount", lo=0,
                           hi=p.money - p.money % 5, step=5, info={"seller": seller}),
                  Game._h_buy_price, seat, seller)

    def _buy_face_up(self, p: PlayerState, card: str, rule: str) -> None:
        slot = self.score_market.index(card)
        self._pay(p, SCORE_PRICE, rule, f"bought {card}")
        p.hand.append(card)
        self.thief_marks.pop(card, None)
        self.score_market[slot] = self.score_deck.pop() if self.score_deck else None
        self._emit("buy", rule, p.seat, {"card": card, "refill": self.score_market[slot]})

    def _h_buy_price(self, price: int, seat: int, seller: int) -> None:
        if self.rules.options["RULING-NEGOTIATION"] == "blind":
            self._h_buy_era("any", seat, seller, price)
            return
        self._ask(Decision(seat, "buy_era", "RULING-NEGOTIATION",
                           options=("any", "baroque", "classical", "romantic"),
                           info={"seller": seller, "price": price}),
                  Game._h_buy_era, seat, seller, price)

    def _h_buy_era(self, era: str, seat: int, seller: int, price: int) -> None:
        q = self.players[seller]
        self._emit("offer", "P4.BUY.2", seat, {"seller": seller, "price": price, "era": era})
        cards = [c for c in q.hand if era == "any" or self.cards.music[c].era == era]
        self._ask(Decision(seller, "sell", "RULING-NEGOTIATION", options=("decline", *cards),
                           info={"buyer": seat, "price": price, "era": era}),
                  Game._h_sell, seat, seller, price)

    def _h_sell(self, answer: str, seat: int, seller: int, price: int) -> None:
        p, q = self.players[seat], self.players[seller]
        if answer != "decline":
            q.hand.remove(answer)
            p.hand.append(answer)
            if price:
                self._pay(p, price, "P4.BUY.2", "bought a card by negotiation", to=seller)
            self._emit("sold", "P4.BUY.2", seller, {"buyer": seat, "price": price})
            self._emit("card_passed", "P4.BUY.2", seller, {"buyer": seat, "card": answer},
                       private=(seat, seller))
            return
        self._emit("declined", "P4.BUY.3", seller, {"buyer": seat, "price": price})
        fallback = self._market_buys(p)  # P4.BUY.3: must buy a face-up card if possible
        if not fallback:
            self._emit("action_spent", "P4.BUY.3", seat, {})
            return
        self._ask(Decision(seat, "buy_fallback", "P4.BUY.3", options=tuple(fallback)),
                  Game._h_buy_fallback, seat)

    def _h_buy_fallback(self, card: str, seat: int) -> None:
        self._buy_face_up(self.players[seat], card, "P4.BUY.3")

    # --- discover (P4.DISCOVER)
    def _start_discover(self, p: PlayerState) -> None:
        options = tuple(d for d in ("authentic", "modern") if self.discovery_decks[d])
        self._ask(Decision(p.seat, "discover", "P4.DISCOVER.1", options=options),
                  Game._h_discover, p.seat)

    def _h_discover(self, deck: str, seat: int) -> None:
        p = self.players[seat]
        self._pay(p, DISCOVER_PRICE, "P4.DISCOVER.1", f"searched the {deck} discovery deck")
        card = self.discovery_decks[deck].pop()
        p.hand.append(card)
        self._emit("discover", "P4.DISCOVER.1", seat, {"deck": deck})
        self._emit("drew", "P4.DISCOVER.1", seat, {"card": card}, private=(seat,))

    # --- appease (P4.APPEASE)
    def _start_appease(self, p: PlayerState) -> None:
        items = tuple(p.markers)
        self._ask(Decision(p.seat, "appease", "P4.APPEASE.1", space="subset", items=items,
                           costs=tuple(self.cards.orchestras[o].salary for o in items),
                           limits=tuple(p.markers[o] for o in items), budget=p.money,
                           min_size=1, max_size=sum(p.markers.values())),
                  Game._h_appease, p.seat)

    def _h_appease(self, chosen: tuple[str, ...], seat: int) -> None:
        p = self.players[seat]
        for orch in chosen:
            self._pay(p, self.cards.orchestras[orch].salary, "P4.APPEASE.1", f"appeased {orch}")
            left = p.markers[orch] - 1
            if left:
                p.markers[orch] = left
            else:
                del p.markers[orch]
            self._emit("appease", "P4.APPEASE.1", seat, {"orchestra": orch, "markers": left})

    # --- special cards (P4.SPECIAL, SPECIAL.S1–S8)
    def _usable_specials(self, p: PlayerState) -> list[str]:
        usable = []
        for card in p.specials_hand:
            if card == "S3" and p.venue not in TOURS:
                continue
            if card == "S4" and not any(self.orchestra_market):
                continue
            if card == "S7" and not (any(self.score_market) or any(self.discovery_decks.values())):
                continue
            if card == "S8" and not any(c is not None and c not in self.thief_marks
                                        for c in self.score_market):
                continue
            if card not in usable:
                usable.append(card)
        return usable

    def _start_special(self, p: PlayerState) -> None:
        self._ask(Decision(p.seat, "special", "P4.SPECIAL.1",
                           options=tuple(self._usable_specials(p))),
                  Game._h_special, p.seat)

    def _h_special(self, card: str, seat: int) -> None:
        p = self.players[seat]
        p.specials_hand.remove(card)
        p.specials_discard.append(card)
        p.special_used = True
        self._emit("special", "P4.SPECIAL.1", seat, {"card": card})
        if card == "S1":
            others = tuple(s for s in self._order() if s != seat)
            self._ask(Decision(seat, "auctioneer", "SPECIAL.S1", options=others),
                      Game._h_auctioneer, seat)
        elif card == "S2":
            p.critic_next = True
            self._emit("effect", "SPECIAL.S2", seat, {"card": card})
        elif card == "S3":
            p.tour_guide = True
            self._emit("effect", "SPECIAL.S3", seat, {"card": card, "tour": p.venue})
        elif card == "S4":
            items = tuple(o for o in self.orchestra_market if o is not None)
            self._ask(Decision(seat, "educator", "SPECIAL.S4", space="subset", items=items,
                               min_size=1, max_size=min(2, len(items))),
                      Game._h_educator, seat)
        elif card == "S5":
            p.advisor = True
            self._emit("effect", "SPECIAL.S5", seat, {"card": card})
        elif card == "S6":
            p.rumour = True
            self._emit("effect", "SPECIAL.S6", seat, {"card": card})
        elif card == "S7":
            self._ask(Decision(seat, "collector", "SPECIAL.S7", options=self._collector_options()),
                      Game._h_collector, seat)
        elif card == "S8":
            options = tuple(c for c in self.score_market
                            if c is not None and c not in self.thief_marks)
            self._ask(Decision(seat, "thief", "SPECIAL.S8", options=options),
                      Game._h_thief, seat)

    def _h_auctioneer(self, target: int, seat: int) -> None:
        self.players[target].banned_next = True
        self._emit("effect", "SPECIAL.S1", seat, {"card": "S1", "target": target})

    def _h_educator(self, chosen: tuple[str, ...], seat: int) -> None:
        p = self.players[seat]
        for orch in chosen:
            self.orchestra_market[self.orchestra_market.index(orch)] = None
            p.orchestras.append(orch)
        self._refill(self.orchestra_market, self.orchestra_deck)
        self._emit("effect", "SPECIAL.S4", seat, {"card": "S4", "orchestras": list(chosen),
                                                  "market": list(self.orchestra_market)})

    def _collector_options(self) -> tuple[tuple[str, ...], ...]:
        face_up = [c for c in self.score_market if c is not None]
        decks = [f"deck:{d}" for d in ("authentic", "modern") if self.discovery_decks[d]]
        options: list[tuple[str, ...]] = [(c,) for c in face_up]
        options += [(a, b) for i, a in enumerate(face_up) for b in face_up[i + 1:]]
        options += [(c, d) for c in face_up for d in decks]
        if not face_up:
            options += [(d,) for d in decks]
        return tuple(options)

    def _h_collector(self, chosen: tuple[str, ...], seat: int) -> None:
        p = self.players[seat]
        taken: list[str] = []
        for item in chosen:
            if item.startswith("deck:"):
                card = self.discovery_decks[item[5:]].pop()
                p.hand.append(card)
                self._emit("drew", "SPECIAL.S7", seat, {"card": card}, private=(seat,))
                taken.append(item)
            else:
                self.score_market[self.score_market.index(item)] = None
                self.thief_marks.pop(item, None)
                p.hand.append(item)
                taken.append(item)
        self._refill(self.score_market, self.score_deck)
        self._emit("effect", "SPECIAL.S7", seat, {"card": "S7", "taken": taken,
                                                  "market": list(self.score_market)})

    def _h_thief(self, card: str, seat: int) -> None:
        self.thief_marks[card] = seat
        self._emit("effect", "SPECIAL.S8", seat, {"card": "S8", "marked": card})

    @staticmethod
    def _refill(market: list[str | None], deck: list[str]) -> None:
        for i, c in enumerate(market):
            if c is None and deck:
                market[i] = deck.pop()

    # ------------------------------------------------------------------ P5 settlement
    def _t_p5(self) -> None:
        self.phase = "P5"
        self.round = 0
        tasks: list[Task] = [(Game._t_settle, s) for s in self._order()]
        tasks.append((Game._t_rumours,))
        self._push(*tasks)

    def _t_settle(self, seat: int) -> None:
        p = self.players[seat]
        held = p.concert is not None
        # P5.1: income, then the P4.4 bonus and Guarneri
        if held and p.concert["income"]:
            self._receive(p, p.concert["income"], "P5.1", "concert income")
        if E.idle_bonus(held, p.actions):
            self._receive(p, IDLE_BONUS, "P4.4", "at most one action and no concert")
        if held and "P1" in p.permanent:
            self._receive(p, GUARNERI_BONUS, "SPECIAL.P1", "Guarneri violin")
        self._pay_venue(p, held)
        # P5.3: salaries (SPECIAL.S5 first exempts up to 3)
        if p.advisor and len(p.orchestras) > 3:
            self._ask(Decision(seat, "advisor", "SPECIAL.S5", space="subset",
                               items=tuple(p.orchestras), min_size=3, max_size=3),
                      Game._h_advisor, seat)
        else:
            self._h_advisor(tuple(p.orchestras) if p.advisor else (), seat)

    def _pay_venue(self, p: PlayerState, held: bool) -> None:
        venue = p.venue
        assert venue is not None
        opts = self.rules.options
        cost = E.venue_cost(venue, held_concert=held, rules=self.rules,
                            chapel_free=self.chapel_free == p.seat, tour_guide=p.tour_guide)
        if cost.free:  # P3.HALL.1, SPECIAL.S3
            self._emit("venue_free", cost.rule, p.seat, {"area": venue})
            return
        rule, money, fame_cost = cost.rule, cost.money, cost.fame
        if fame_cost:
            self._change_fame(p, -fame_cost, rule, f"{venue} costs {fame_cost} fame", venue=venue)
            return
        paid = min(money, p.money)
        if paid:
            self._pay(p, paid, rule, f"{venue}", venue=venue)
        unpaid = money - paid
        if unpaid:
            if opts["RULING-UNPAID-VENUE"] == "fame-per-50":
                lost = E.unpaid_venue_fame(unpaid)
                self._emit("unpaid", "RULING-UNPAID-VENUE", p.seat,
                           {"amount": unpaid, "fame": lost})
                self._change_fame(p, -lost, "RULING-UNPAID-VENUE", f"{unpaid} G venue unpaid",
                                  venue=venue)
            else:
                self._emit("unpaid", "RULING-UNPAID-VENUE", p.seat, {"amount": unpaid, "fame": 0})

    def _salary(self, p: PlayerState, orch: str) -> int:
        return E.salary_due(self.cards.orchestras[orch].salary, p.concert is not None)  # P4.3

    def _h_advisor(self, exempt: tuple[str, ...], seat: int) -> None:
        p = self.players[seat]
        if exempt:
            self._emit("exempt", "SPECIAL.S5", seat, {"orchestras": list(exempt)})
        due = [o for o in p.orchestras if o not in exempt]
        total = sum(self._salary(p, o) for o in due)
        if total <= p.money:
            self._h_salaries(tuple(due), seat, tuple(due))
            return
        if all(self._salary(p, o) > p.money for o in due):  # nothing payable: no choice
            self._h_salaries((), seat, tuple(due))
            return
        self._ask(Decision(seat, "salaries", "P5.3", space="subset", items=tuple(due),
                           costs=tuple(self._salary(p, o) for o in due), budget=p.money,
                           min_size=0, max_size=len(due), maximal=True),
                  Game._h_salaries, seat, tuple(due))

    def _h_salaries(self, paid: tuple[str, ...], seat: int, due: tuple[str, ...]) -> None:
        p = self.players[seat]
        rule = "P5.3" if p.concert is not None else "P4.3"
        total = sum(self._salary(p, o) for o in paid)
        if total:
            self._pay(p, total, rule, f"salaries of {len(paid)} orchestra(s)")
        for orch in due:
            if orch not in paid:
                self._add_marker(p, orch, "P5.3", "salary unpaid")
        # P5.4: the fame surcharge
        surcharge = E.surcharge(p.fame)
        if surcharge:
            if p.money >= surcharge:
                self._pay(p, surcharge, "P5.4", f"salary surcharge at fame {p.fame}")
            elif self.rules.options["RULING-UNPAID-SURCHARGE"] == "marker" and p.orchestras:
                self._ask(Decision(seat, "surcharge_marker", "RULING-UNPAID-SURCHARGE",
                                   options=tuple(p.orchestras)),
                          Game._h_surcharge_marker, seat)
                return
            else:
                self._emit("unpaid", "RULING-UNPAID-SURCHARGE", seat, {"amount": surcharge})
        self._t_fame_cards(seat)

    def _h_surcharge_marker(self, orch: str, seat: int) -> None:
        self._add_marker(self.players[seat], orch, "RULING-UNPAID-SURCHARGE",
                         "salary surcharge unpaid")
        self._t_fame_cards(seat)

    def _t_fame_cards(self, seat: int) -> None:
        p = self.players[seat]
        if p.concert is None:
            return
        if "P2" in p.permanent:  # P5.5
            self._change_fame(p, E.STRADIVARI_FAME, "SPECIAL.P2", "Stradivari cello")
        if "P7" in p.permanent:
            kind = TOURS if p.venue in TOURS else HALLS
            alone = all(s == seat for a, s in self.venues.items() if a in kind)
            if alone:
                self._change_fame(p, E.JOURNALIST_FAME, "SPECIAL.P7",
                                  "Journalist: alone in a hall/on a tour")

    def _t_rumours(self) -> None:
        # P5.6: at the very end of P5 the Rumourmonger's markers are placed.
        for owner in self._order():
            if self.players[owner].rumour:
                targets = [s for s in self._order() if s != owner]
                self._push(*[(Game._t_rumour_ask, s, owner) for s in targets])

    def _t_rumour_ask(self, seat: int, owner: int) -> None:
        p = self.players[seat]
        if not p.orchestras:
            self._emit("rumour_void", "SPECIAL.S6", seat, {"owner": owner})
            return
        self._ask(Decision(seat, "rumour_marker", "SPECIAL.S6", options=tuple(p.orchestras),
                           info={"owner": owner}),
                  Game._h_rumour, seat, owner)

    def _h_rumour(self, orch: str, seat: int, owner: int) -> None:
        self._add_marker(self.players[seat], orch, "SPECIAL.S6", f"rumour from seat {owner}")

    # ------------------------------------------------------------------ END
    def _t_end(self) -> None:
        self.phase = "END"
        players = self.players
        score = scoring.final_scoring(
            self.cards, self.rules, players, [p.fame for p in players],
            [p.money for p in players], [p.marker_count for p in players])
        for a in score.awards:  # END.1–4, END.6–7
            self._emit("award", a.rule, None, {"award": a.name, "counts": list(a.counts),
                                               "winners": list(a.winners), "share": str(a.share)})
        for p in players:  # END.5
            if p.markers:
                self._emit("marker_penalty", "END.5", p.seat, {"markers": p.marker_count})
        fame, ranks, winners = list(score.fame), list(score.ranks), list(score.winners)
        self.results = {
            "fame": fame, "money": [p.money for p in players],
            "awards": [{"award": a.name, "rule": a.rule, "counts": list(a.counts),
                        "winners": list(a.winners), "share": a.share} for a in score.awards],
            "winners": winners, "ranks": ranks, "tie_break": score.tie_break,
        }
        self._emit("final", "END.WIN", None, {
            "fame": [str(f) for f in fame], "money": [p.money for p in players],
            "winners": winners, "ranks": ranks,
        })

    # ------------------------------------------------------------------ queries
    def standings(self) -> list[dict[str, Any]]:
        """Final standings as plain rows (seat, rank, fame as a Fraction, money, winner)."""
        if self.results is None:
            raise GameError("the game is not finished")
        res = self.results
        return sorted(
            ({"seat": s, "rank": res["ranks"][s], "fame": res["fame"][s],
              "money": res["money"][s], "winner": s in res["winners"]} for s in range(self.n)),
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

        return dumps(self)

    def save(self, path: Any) -> None:
        from musici.persistence import save

        save(self, path)

    @classmethod
    def load(cls, path: Any, cards: CardSet | None = None) -> Game:
        from musici.persistence import load

        return load(path, cards)

    def _repr_html_(self) -> str:
        from musici.html import game_html

        return game_html(self)
