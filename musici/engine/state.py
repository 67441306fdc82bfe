"""The game's state, declared once (issue 22 item 1).

Everything that decides a game's future is a field of a seat (:data:`SEAT_STATE`, held by
:class:`PlayerState`) or of the table (:data:`TABLE_STATE`, held by the game), each with its
*kind*, which says how it is copied and written as data. ``PlayerState``'s slots,
``Game.clone``'s copy of the table, ``Game.position`` / ``from_position`` and the
invariants' list of card places are all made from these tables, so a field added here is
copied, stored and checked everywhere, and a field added anywhere else fails
``tests/test_exact_positions.py``. ``PlayerState.copy`` is written out (a native class in the
compiled build); ``tests/test_state.py`` holds it to :data:`SEAT_STATE`.

Where the game is (the pending decision, its handler and the task stack) and the random
generators are state too; they have their own codecs
(:mod:`musici.engine.continuations`, :mod:`musici.engine.position`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple


class Field(NamedTuple):
    """One field of the state: its name, its kind and the rule that defines it."""

    name: str
    kind: str
    rule: str


# Kinds: how a value is copied (a list or dict is copied, everything else is shared: a
# concert's outcome is replaced, never edited).
_COPY: dict[str, str] = {
    "int": "{}", "flag": "{}", "area": "{}", "concert": "{}", "seat": "{}", "card": "{}",
    "phase": "{}", "cards": "{}[:]", "slots": "{}[:]", "markers": "dict({})",
    "marks": "dict({})", "venues": "dict({})", "bids": "{}", "decks": "{{k: v[:] for k, v in {}.items()}}",
}

SEAT_STATE: tuple[Field, ...] = (
    Field("money", "int", "SETUP.4"),
    Field("fame", "int", "COMP.1"),
    Field("hand", "cards", "SETUP.2"),  # score and discovery cards, secret
    Field("played", "cards", "P4.CONCERT.1"),  # in the order played (RESTORE.1)
    Field("orchestras", "cards", "P4.HIRE.1"),
    Field("markers", "markers", "P5.7"),  # orchestra -> dissent markers (only when > 0)
    Field("permanent", "cards", "P1.4"),  # permanent special cards in front
    Field("specials_hand", "cards", "P4.SPECIAL.1"),  # single-use cards kept
    Field("specials_discard", "cards", "P4.SPECIAL.1"),
    Field("specials_bought", "int", "END.4"),
    # this month (MONTH.3 resets them)
    Field("venue", "area", "P3.1"),
    Field("actions", "int", "P4.4"),
    Field("concert", "concert", "P4.CONCERT.4"),  # the concert's outcome, for P5
    Field("special_used", "flag", "P4.SPECIAL.1"),
    Field("tour_guide", "flag", "SPECIAL.S3"),
    Field("advisor", "flag", "SPECIAL.S5"),
    Field("rumour", "flag", "SPECIAL.S6"),
    Field("critic_now", "flag", "SPECIAL.S2"),  # active in this month's P2
    Field("critic_next", "flag", "SPECIAL.S2"),
    Field("banned_now", "flag", "SPECIAL.S1"),  # out of this month's P1
    Field("banned_next", "flag", "SPECIAL.S1"),
)

# The table's fields, as the Game holds them (the seats are ``players``).
TABLE_STATE: tuple[Field, ...] = (
    Field("month", "int", "MONTH.1"),
    Field("phase", "phase", "MONTH.1"),
    Field("round", "int", "P4.1"),
    Field("start_player", "seat", "MONTH.2"),
    Field("score_deck", "cards", "SETUP.3"),  # top of a deck = end of its list
    Field("score_market", "slots", "COMP.2"),
    Field("orchestra_deck", "cards", "SETUP.3"),
    Field("orchestra_market", "slots", "COMP.2"),
    Field("discovery_decks", "decks", "COMP.7"),
    Field("special_deck", "cards", "SETUP.5"),
    Field("special_slot", "card", "P1.1"),
    Field("thief_marks", "marks", "P4.BUY.5"),  # face-up score card -> Thief's seat
    Field("out_of_game", "cards", "SETUP.6"),
    Field("venues", "venues", "P3.1"),  # area -> seat, in claiming order
    Field("media", "seat", "P2.4"),
    Field("chapel_free", "seat", "P3.HALL.1"),
    Field("_media_bids", "bids", "P2.1"),  # replaced, never mutated: clones share it
    # Not a rule's: the engine's count of every ply, forced ones included (Game.plies).
    Field("plies", "int", ""),
)

CARD_KINDS = frozenset({"cards", "slots", "decks", "card"})  # fields that hold card ids


def _compile(name: str, fields: tuple[Field, ...], head: list[str], tail: list[str],
             namespace: dict[str, Any]) -> Callable[..., Any]:
    # Generated field by field (no setattr loop): search copies states by the hundred
    # thousand, and straight-line code is about twice as fast.
    body = [f"    new.{f.name} = " + _COPY[f.kind].format(f"self.{f.name}") for f in fields]
    exec("\n".join([*head, *body, *tail]), namespace)
    made: Callable[..., Any] = namespace[name]
    return made


# The seat's slots, in declaration order (tests and saves read them; a compiled class keeps
# no ``__slots__`` attribute).
PLAYER_SLOTS: tuple[str, ...] = ("seat", *(f.name for f in SEAT_STATE))


# A native class in the compiled build (issue 23 item 4): the engine reads a seat's fields at
# every ply, and a native class reads them as struct fields, not through a dict.
class PlayerState:
    """One seat's holdings and this month's flags (:data:`SEAT_STATE`)."""

    __slots__ = PLAYER_SLOTS

    seat: int
    money: int
    fame: int
    hand: list[str]
    played: list[str]
    orchestras: list[str]
    markers: dict[str, int]
    permanent: list[str]
    specials_hand: list[str]
    specials_discard: list[str]
    specials_bought: int
    venue: str | None
    actions: int
    concert: dict[str, Any] | None
    special_used: bool
    tour_guide: bool
    advisor: bool
    rumour: bool
    critic_now: bool
    critic_next: bool
    banned_now: bool
    banned_next: bool

    def __init__(self, seat: int, money: int) -> None:
        self.seat = seat
        self.money = money
        self.fame = 0
        self.hand = []
        self.played = []
        self.orchestras = []
        self.markers = {}
        self.permanent = []
        self.specials_hand = []
        self.specials_discard = []
        self.specials_bought = 0
        self.venue = None
        self.actions = 0
        self.concert = None
        self.special_used = self.tour_guide = self.advisor = self.rumour = False
        self.critic_now = self.critic_next = self.banned_now = self.banned_next = False

    def copy(self) -> PlayerState:
        """An independent copy: lists and dicts copied, the rest shared (SEAT_STATE's kinds;
        tests/test_state.py holds this list to the declaration)."""
        new = PlayerState(self.seat, self.money)
        new.fame = self.fame
        new.hand = self.hand[:]
        new.played = self.played[:]
        new.orchestras = self.orchestras[:]
        new.markers = dict(self.markers)
        new.permanent = self.permanent[:]
        new.specials_hand = self.specials_hand[:]
        new.specials_discard = self.specials_discard[:]
        new.specials_bought = self.specials_bought
        new.venue = self.venue
        new.actions = self.actions
        new.concert = self.concert
        new.special_used = self.special_used
        new.tour_guide = self.tour_guide
        new.advisor = self.advisor
        new.rumour = self.rumour
        new.critic_now = self.critic_now
        new.critic_next = self.critic_next
        new.banned_now = self.banned_now
        new.banned_next = self.banned_next
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickle and deepcopy alike in both builds (a native class has no default reduce).
        return (_rebuild_seat, tuple(getattr(self, name) for name in PLAYER_SLOTS))

    @property
    def marker_count(self) -> int:
        return sum(self.markers.values())


def _rebuild_seat(*values: Any) -> PlayerState:
    p = PlayerState(values[0], values[1])
    for name, value in zip(PLAYER_SLOTS[2:], values[2:], strict=True):
        setattr(p, name, value)
    return p


copy_table: Callable[[Any, Any], None] = _compile(
    "copy_table", TABLE_STATE, ["def copy_table(self, new):"], ["    return None"], {})
"""Copy the table of ``self`` (a game) into ``new`` (its clone): lists and dicts copied,
plain values shared."""


def card_places(game: Any) -> list[list[Any]]:
    """Every list of the state that holds cards (a card is in exactly one of them, COMP.4-7);
    the special card in the auction slot is not in a list."""
    places: list[list[Any]] = []
    for f in TABLE_STATE:
        if f.kind in ("cards", "slots"):
            places.append(getattr(game, f.name))
        elif f.kind == "decks":
            places += getattr(game, f.name).values()
    for p in game.players:
        places += [getattr(p, f.name) for f in SEAT_STATE if f.kind == "cards"]
    return places


__all__ = ["CARD_KINDS", "PLAYER_SLOTS", "SEAT_STATE", "TABLE_STATE", "Field", "PlayerState", "card_places",
           "copy_table"]
