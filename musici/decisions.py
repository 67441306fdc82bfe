"""Decisions: every choice of any player, with its legal answers (DESIGN principle 2).

A decision has one of three answer spaces:

* ``choice``: one of ``options`` (a tuple of strings or tuples of strings);
* ``amount``: an integer from ``lo`` to ``hi`` in steps of ``step`` (a media bid, a price);
* ``subset``: a tuple of ``items`` (an item may repeat up to its ``limits`` entry), of size
  ``min_size``..``max_size``, all of one ``groups`` value when groups are given, with a total
  of ``costs`` at most ``budget``, and, when ``maximal``, leaving nothing affordable out.

Validation and random sampling depend only on the decision, so every strategy (a bot, a
widget, a replay) answers through the same door.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from enum import StrEnum
from types import MappingProxyType
from typing import Any, NamedTuple

from mypy_extensions import mypyc_attr

from musici import draws

Answer = Any  # str | int | tuple[str, ...]
_NO_INFO: Mapping[str, Any] = MappingProxyType({})  # shared: read-only and empty
_PLAIN = (str, int)  # the exact types of a choice option's parts


def brief(value: Any, limit: int = 200, *, text: bool = False) -> str:
    """``repr(value)`` (or ``str(value)`` with ``text=True``, as for an exception) for a
    message: one bounded line that never raises (a strategy's answer or a file's value may be
    huge, or an object whose ``__repr__``/``__str__`` fails). The one such helper."""
    try:
        shown = str(value) if text else repr(value)
    except Exception:  # e.g. an int of more than 4300 digits, a broken __repr__
        return f"<{type(value).__name__} object>"
    return shown if len(shown) <= limit else f"{shown[:limit]}… ({type(value).__name__})"


def _plain(answer: Any) -> bool:
    """Whether ``answer`` has the shape of an option (an exact str or int, or a tuple of
    them), so comparing it with one runs no code of the strategy's (a str subclass's __eq__)."""
    kind = type(answer)
    return kind in _PLAIN or (kind is tuple and all(type(a) in _PLAIN for a in answer))


class Kind(StrEnum):
    """Every kind of decision the engine poses (a ``str``: ``Kind.AUCTION == "auction"``).

    A strategy may dispatch on ``decision.kind``; a handler for a kind not listed here is a
    bug (tests check the bots' handlers against this list).
    """

    AUCTION = "auction"
    MEDIA_BID = "media_bid"
    VENUE = "venue"
    ACTION = "action"
    CONCERT_CARD = "concert_card"
    CONCERT_ORCHESTRAS = "concert_orchestras"
    HIRE = "hire"
    POACH_CONSENT = "poach_consent"
    BUY = "buy"
    BUY_PRICE = "buy_price"
    BUY_ERA = "buy_era"
    SELL = "sell"
    BUY_FALLBACK = "buy_fallback"
    DISCOVER = "discover"
    APPEASE = "appease"
    SPECIAL = "special"
    AUCTIONEER = "auctioneer"
    EDUCATOR = "educator"
    COLLECTOR = "collector"
    THIEF = "thief"
    ADVISOR = "advisor"
    SALARIES = "salaries"
    SURCHARGE_MARKER = "surcharge_marker"
    RUMOUR_MARKER = "rumour_marker"


# ---------------------------------------------------------------------------- option codec
# Some choice options stand for something other than a card id: another player (P4.BUY.2:
# "player:2") or a discovery deck (SPECIAL.S7: "deck:modern"). One codec writes and reads
# them, as python-chess's Move.uci() / Move.from_uci() do for moves.
_PLAYER, _DECK = "player:", "deck:"


def player_option(seat: int) -> str:
    """The option naming another player, e.g. a seller to buy from (P4.BUY.2)."""
    return f"{_PLAYER}{seat}"


def deck_option(deck: str) -> str:
    """The option naming the top card of a discovery deck (SPECIAL.S7)."""
    return f"{_DECK}{deck}"


def parse_option(option: str) -> tuple[str, str | int]:
    """``("player", seat)``, ``("deck", name)`` or ``("card", card_id)`` for an option."""
    if option.startswith(_PLAYER):
        return "player", int(option[len(_PLAYER):])
    if option.startswith(_DECK):
        return "deck", option[len(_DECK):]
    return "card", option


class IllegalAnswer(ValueError):
    """An answer that is not legal for the pending decision; the game is left unchanged."""


class _DecisionFields(NamedTuple):
    player: int
    kind: str
    rule: str
    space: str = "choice"
    options: tuple[Any, ...] = ()
    lo: int = 0
    hi: int = 0
    step: int = 1
    items: tuple[str, ...] = ()
    costs: tuple[int, ...] = ()
    groups: tuple[str, ...] = ()
    limits: tuple[int, ...] = ()
    budget: int | None = None
    min_size: int = 0
    max_size: int = 0
    maximal: bool = False
    info: Mapping[str, Any] = _NO_INFO


# A named tuple's subclass stays a Python class in the compiled build (mypyc: native classes
# cannot subclass a tuple); its methods are compiled all the same.
@mypyc_attr(native_class=False)
class Decision(_DecisionFields):
    """One pending choice: who decides, what kind, and which answers are legal.

    An immutable value (a named tuple: cheap to build on the engine's hot path, and
    immutable without per-field checks). ``info`` is public context, read-only and not part
    of equality. Make a changed copy with ``decision._replace(player=1)``.
    """

    __slots__ = ()

    def __new__(cls, player: int, kind: str, rule: str, space: str = "choice",
                options: tuple[Any, ...] = (), lo: int = 0, hi: int = 0, step: int = 1,
                items: tuple[str, ...] = (), costs: tuple[int, ...] = (),
                groups: tuple[str, ...] = (), limits: tuple[int, ...] = (),
                budget: int | None = None, min_size: int = 0, max_size: int = 0,
                maximal: bool = False, info: Mapping[str, Any] = _NO_INFO) -> Decision:
        # Read-only, so a strategy cannot alter what the next one (or the stepper) sees
        # (new_decision, the engine's way, makes the same value).
        if info is not _NO_INFO:
            info = MappingProxyType(dict(info))
        return tuple.__new__(cls, (player, kind, rule, space, options, lo, hi, step, items,
                                   costs, groups, limits, budget, min_size, max_size, maximal,
                                   info))

    def __eq__(self, other: object) -> bool:
        # A decision equals only a decision, and ``info`` (context) is not compared.
        return isinstance(other, Decision) and self[:16] == other[:16]

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self[:16])

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickle and deepcopy (a game mid-play holds its decision): ``info``'s read-only
        # proxy cannot be pickled, its contents can; __new__ wraps them again.
        return (Decision, (*self[:16], dict(self.info)))

    def describe_legal(self) -> str:
        """The legal answers in words, for error messages and teaching."""
        if self.space == "choice":
            return "one of " + ", ".join(repr(o) for o in self.options)
        if self.space == "amount":
            return f"an integer from {self.lo} to {self.hi} in steps of {self.step}"
        parts = [f"a tuple of {self.min_size} to {self.max_size} of {list(self.items)!r}"]
        if self.limits and max(self.limits) > 1:
            parts.append(f"each at most {dict(zip(self.items, self.limits, strict=True))} times")
        if self.groups:
            parts.append("all of one style")
        if self.budget is not None:
            parts.append(f"costing at most {self.budget} G in all "
                         f"({dict(zip(self.items, self.costs, strict=True))})")
        if self.maximal:
            parts.append("leaving out nothing that could still be paid")
        return ", ".join(parts)

    def normalize(self, answer: Answer) -> Answer:
        """The canonical form of a legal ``answer``; raises :class:`IllegalAnswer` otherwise."""
        if self.space == "choice":
            for option in self.options:
                if option is answer:  # the option itself (random_answer, most bots): legal
                    return option
            if isinstance(answer, list):
                answer = tuple(answer)
            if not _plain(answer):
                if type(answer) is tuple:
                    odd = next(type(a).__name__ for a in answer if type(a) not in _PLAIN)
                    raise IllegalAnswer(f"{brief(answer)} is not legal: it holds a {odd}, "
                                        f"not only str and int values")
                raise IllegalAnswer(f"{brief(answer)} is not legal: a {type(answer).__name__} "
                                    f"is not a str, an int or a tuple of them")
            for option in self.options:
                # Same type too: 1.0 or True must not pass for the seat number 1.
                if type(option) is type(answer) and option == answer:
                    return option
            raise IllegalAnswer(f"{brief(answer)} is not legal")
        if self.space == "amount":
            # Exactly int: not bool, and no subclass whose arithmetic could lie to the checks.
            if type(answer) is not int:
                raise IllegalAnswer(f"{brief(answer)} is not an integer "
                                    f"(a {type(answer).__name__}, not an int)")
            if not self.lo <= answer <= self.hi:
                raise IllegalAnswer(f"{brief(answer)} is out of range")
            if (answer - self.lo) % self.step:
                raise IllegalAnswer(f"{answer!r} is not a multiple of the step {self.step}")
            return answer
        return self._normalize_subset(answer)

    def _normalize_subset(self, answer: Answer) -> tuple[str, ...]:
        # Exactly a tuple or list of exact str: a subclass could lie about its length or its
        # items' equality.
        if type(answer) not in (tuple, list):
            raise IllegalAnswer(f"{brief(answer)} is not a tuple of item names "
                                f"(a {type(answer).__name__}, not a tuple or list)")
        index = {item: i for i, item in enumerate(self.items)}
        counts = [0] * len(self.items)
        for item in answer:
            if type(item) is not str:
                raise IllegalAnswer(f"{brief(item)} is not one of the items "
                                    f"(a {type(item).__name__}, not a str)")
            i = index.get(item)
            if i is None:
                raise IllegalAnswer(f"{item!r} is not one of the items")
            counts[i] += 1
            limit = self.limits[i] if self.limits else 1
            if counts[i] > limit:
                raise IllegalAnswer(f"{item!r} chosen more than {limit} time(s)")
        size = sum(counts)
        if not self.min_size <= size <= self.max_size:
            raise IllegalAnswer(f"{size} items chosen")
        if self.groups:
            chosen_groups = {self.groups[i] for i, n in enumerate(counts) if n}
            if len(chosen_groups) > 1:
                raise IllegalAnswer(f"mixes {sorted(chosen_groups)}")
        if self.budget is not None:
            total = sum(self.costs[i] * n for i, n in enumerate(counts))
            if total > self.budget:
                raise IllegalAnswer(f"costs {total} G, more than {self.budget} G")
            if self.maximal and size < self.max_size:
                left = self.budget - total
                for i, n in enumerate(counts):
                    limit = self.limits[i] if self.limits else 1
                    if n < limit and self.costs[i] <= left:
                        raise IllegalAnswer(f"{self.items[i]!r} could still be paid")
        return tuple(item for i, item in enumerate(self.items) for _ in range(counts[i]))

    def random_answer(self, rng: random.Random) -> Answer:
        """A legal answer drawn with ``rng`` (choices uniformly, subsets by random greedy)."""
        if self.space == "choice":
            # choice() draws exactly as options[randrange(len(options))] did, with one call less
            return draws.choice(rng, self.options)
        if self.space == "amount":
            return self.lo + self.step * draws.randbelow(rng, (self.hi - self.lo) // self.step + 1)
        candidates: Sequence[int] = range(len(self.items))
        if self.groups:
            group = draws.choice(rng, sorted(set(self.groups)))
            candidates = [i for i in candidates if self.groups[i] == group]
        pool = [i for i in candidates for _ in range(self.limits[i] if self.limits else 1)]
        draws.shuffle(rng, pool)
        top = min(self.max_size, len(pool))
        target = top if self.maximal else draws.randint(rng, min(self.min_size, top), top)
        counts = [0] * len(self.items)
        total = 0
        chosen = 0
        for i in pool:
            if chosen >= target:
                break
            cost = self.costs[i] if self.costs else 0
            if self.budget is None or total + cost <= self.budget:
                counts[i] += 1
                total += cost
                chosen += 1
        return tuple(item for i, item in enumerate(self.items) for _ in range(counts[i]))


def new_decision(player: int, kind: str, rule: str, space: str = "choice",
                 options: tuple[Any, ...] = (), lo: int = 0, hi: int = 0, step: int = 1,
                 items: tuple[str, ...] = (), costs: tuple[int, ...] = (),
                 groups: tuple[str, ...] = (), limits: tuple[int, ...] = (),
                 budget: int | None = None, min_size: int = 0, max_size: int = 0,
                 maximal: bool = False, info: Mapping[str, Any] = _NO_INFO) -> Decision:
    """``Decision(...)``, the same value, made without calling the class: the engine makes
    one every ply, and in the compiled build calling a class that has its own ``__new__``
    (its arguments parsed by name at run time) cost about as much as the tuple itself."""
    # Read-only, so a strategy cannot alter what the next one (or the stepper) sees.
    if info is not _NO_INFO:
        info = MappingProxyType(dict(info))
    return tuple.__new__(Decision, (player, kind, rule, space, options, lo, hi, step, items,
                                    costs, groups, limits, budget, min_size, max_size, maximal,
                                    info))
