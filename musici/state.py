"""Mutable game state: plain slotted objects with cheap, explicit copies (for search bots)."""

from __future__ import annotations

from typing import Any

from musici.economy import AREAS, HALLS, TOURS  # noqa: F401  (re-exported: P3 areas)

PHASES: tuple[str, ...] = ("P1", "P2", "P3", "P4", "P5")


class PlayerState:
    """One player's holdings and this month's flags."""

    __slots__ = (
        "actions", "advisor", "banned_next", "banned_now", "concert", "critic_next",
        "critic_now", "fame", "hand", "markers", "money", "orchestras", "permanent",
        "played", "rumour", "seat", "special_used", "specials_bought", "specials_discard",
        "specials_hand", "tour_guide", "venue",
    )

    def __init__(self, seat: int, money: int) -> None:
        self.seat = seat
        self.money = money
        self.fame = 0
        self.hand: list[str] = []  # score and discovery cards, secret
        self.played: list[str] = []  # cards played in concerts, in order (P4.CONCERT.1)
        self.orchestras: list[str] = []
        self.markers: dict[str, int] = {}  # orchestra -> dissent markers (only when > 0)
        self.permanent: list[str] = []  # permanent special cards in front (P1.4)
        self.specials_hand: list[str] = []  # single-use cards kept for P4.SPECIAL
        self.specials_discard: list[str] = []
        self.specials_bought = 0  # END.4
        # this month
        self.venue: str | None = None
        self.concert: dict[str, Any] | None = None  # the concert's outcome, for P5
        self.actions = 0
        self.special_used = False
        self.tour_guide = False  # SPECIAL.S3
        self.advisor = False  # SPECIAL.S5
        self.rumour = False  # SPECIAL.S6
        self.critic_now = False  # SPECIAL.S2, active in this month's P2
        self.critic_next = False
        self.banned_now = False  # SPECIAL.S1, out of this month's P1
        self.banned_next = False

    def copy(self) -> PlayerState:
        # Field by field, not a setattr loop over __slots__: search clones states by the
        # hundred thousand, and this is twice as fast (tests/test_state.py checks every slot).
        new = PlayerState.__new__(PlayerState)
        new.seat = self.seat
        new.money = self.money
        new.fame = self.fame
        new.specials_bought = self.specials_bought
        new.venue = self.venue
        new.concert = self.concert  # shared: a month's outcome is replaced, never edited
        new.actions = self.actions
        new.special_used = self.special_used
        new.tour_guide = self.tour_guide
        new.advisor = self.advisor
        new.rumour = self.rumour
        new.critic_now = self.critic_now
        new.critic_next = self.critic_next
        new.banned_now = self.banned_now
        new.banned_next = self.banned_next
        new.hand = self.hand[:]
        new.played = self.played[:]
        new.orchestras = self.orchestras[:]
        new.markers = dict(self.markers)
        new.permanent = self.permanent[:]
        new.specials_hand = self.specials_hand[:]
        new.specials_discard = self.specials_discard[:]
        return new

    @property
    def marker_count(self) -> int:
        return sum(self.markers.values())
