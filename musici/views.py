"""What one player may see (DESIGN principle 3).

A :class:`PlayerView` wraps the game and exposes only what its seat may know: its own hand
and secret bid, the public table, public history and its own private events. It never shows
another hand, a bid before the reveal, or deck order. Everything it returns is immutable
or a copy, so a strategy cannot change the game through its view.

The view guards against accidental cheating, not against a strategy that deliberately
digs into ``view._game``: strategies run in the game's process. Seeds are visible in bug
reports, and a small seed can be found by brute force from public cards, so tournaments
between untrusted bots should use large random seeds (``secrets.randbits(63)``).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from musici.cards import BACKS, CardSet
from musici.economy import VenueCost, venue_cost
from musici.events import Event
from musici.rules import RuleSet

if TYPE_CHECKING:
    from musici.engine import Game

_BACK_INDEX: Final[dict[str, int]] = {back: i for i, back in enumerate(BACKS)}


class PublicPlayer(NamedTuple):
    """What everyone knows about one player (an immutable value; a named tuple, as the
    planners read ``view.me`` thousands of times a game and a tuple is built in one call)."""

    seat: int
    fame: int
    money: int
    hand_size: int
    hand_backs: tuple[tuple[str, int], ...]  # backs are public (COMP.7, P4.DISCOVER.1)
    orchestras: tuple[str, ...]
    markers: tuple[tuple[str, int], ...]  # (orchestra, markers) for those with markers
    played: tuple[str, ...]
    permanent: tuple[str, ...]
    specials_hand: tuple[str, ...]  # bought at a public auction, so public
    specials_used: tuple[str, ...]
    specials_bought: int
    venue: str | None
    concert: bool
    actions: int
    tour_guide: bool = False  # played the Tour guide this month (SPECIAL.S3; played face up)


class PlayerView:
    """The game as seen from ``seat``."""

    __slots__ = ("_game", "_seat")

    def __init__(self, game: Game, seat: int) -> None:
        self._game = game
        self._seat = seat

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickle and deepcopy rebuild the view from its game and seat (a compiled view's
        # blank __new__ would run __init__ without them).
        return (PlayerView, (self._game, self._seat))

    @property
    def seat(self) -> int:
        """Whose view this is (read-only: a strategy cannot turn into another seat)."""
        return self._seat

    @property
    def n_players(self) -> int:
        return self._game.n

    @property
    def month(self) -> int:
        return self._game.month

    @property
    def phase(self) -> str:
        return self._game.phase

    @property
    def round(self) -> int:
        return self._game.round

    @property
    def months(self) -> int:
        return self._game.rules.months

    @property
    def start_player(self) -> int:
        return self._game.start_player

    @property
    def rules(self) -> RuleSet:
        return self._game.rules

    @property
    def cards(self) -> CardSet:
        """Card contents are public knowledge; deck order is not (see the deck sizes)."""
        return self._game.cards

    @property
    def rng(self) -> random.Random:
        """This seat's own generator, seeded from the game's seed (for randomised bots)."""
        # The live generator read directly (a random bot asks at every ply: in the compiled
        # build a Game method's call costs more than the read); a parked one via seat_rng.
        game = self._game
        rng = game._rngs[self._seat + 1]
        return rng if rng is not None else game.seat_rng(self._seat)

    @property
    def hand(self) -> tuple[str, ...]:
        return tuple(self._game.players[self.seat].hand)

    def resample(self, rng: random.Random,
                 media_bid: Callable[[Game, int], int] | None = None) -> Game:
        """A possible world: a game this seat cannot tell from the real one, everything hidden
        from it re-drawn with ``rng`` by the engine (``Game.resample``), for search bots."""
        return self._game.resample(self.seat, rng, media_bid)

    @property
    def my_media_bid(self) -> int | None:
        """This seat's own sealed media bid in P2 (P2.1); others' bids stay hidden."""
        return self._game.media_bids.get(self.seat) if self._game.phase == "P2" else None

    def player(self, seat: int) -> PublicPlayer:
        p = self._game.players[seat]
        # PublicPlayer's fields in order, built without calling the class (its __new__ is
        # interpreted code in both builds): seat, fame, money, hand_size, hand_backs,
        # orchestras, markers, played, permanent, specials_hand, specials_used,
        # specials_bought, venue, concert, actions, tour_guide.
        return tuple.__new__(PublicPlayer, (
            seat, p.fame, p.money, len(p.hand), self._backs(p.hand), tuple(p.orchestras),
            tuple(p.markers.items()), tuple(p.played), tuple(p.permanent),
            tuple(p.specials_hand), tuple(p.specials_discard), p.specials_bought, p.venue,
            p.concert is not None, p.actions, p.tour_guide))

    def _backs(self, hand: list[str]) -> tuple[tuple[str, int], ...]:
        # Counted in a list, not a dict.fromkeys per call: a view builds this for every
        # player() read, thousands of times a game (issue 23's profile).
        back = self._game.cards.backs()
        counts = [0, 0, 0]
        for c in hand:
            counts[_BACK_INDEX[back[c]]] += 1
        return ((BACKS[0], counts[0]), (BACKS[1], counts[1]), (BACKS[2], counts[2]))

    @property
    def players(self) -> tuple[PublicPlayer, ...]:
        return tuple(self.player(s) for s in range(self._game.n))

    @property
    def me(self) -> PublicPlayer:
        return self.player(self.seat)

    @property
    def score_market(self) -> tuple[str | None, ...]:
        return tuple(self._game.score_market)

    @property
    def orchestra_market(self) -> tuple[str | None, ...]:
        return tuple(self._game.orchestra_market)

    @property
    def special_slot(self) -> str | None:
        return self._game.special_slot

    @property
    def thief_marks(self) -> tuple[tuple[str, int], ...]:
        return tuple(self._game.thief_marks.items())

    @property
    def deck_sizes(self) -> dict[str, int]:
        g = self._game
        return {
            "scores": len(g.score_deck), "orchestras": len(g.orchestra_deck),
            "authentic": len(g.discovery_decks["authentic"]),
            "modern": len(g.discovery_decks["modern"]), "specials": len(g.special_deck),
        }

    @property
    def venues(self) -> tuple[tuple[str, int], ...]:
        return tuple(self._game.venues.items())

    @property
    def media(self) -> int | None:
        return self._game.media

    @property
    def chapel_free(self) -> int | None:
        return self._game.chapel_free

    def venue_cost(self, area: str, *, held_concert: bool) -> VenueCost:
        """P5.2 / P4.3: what ``area`` costs this seat this month, as the engine will charge
        it: with this seat's free Chapel (P3.HALL.1), its played Tour guide (SPECIAL.S3, face
        up) and the card set's hall rents and tour terms. Bots and previews price venues
        through this."""
        g = self._game
        return venue_cost(area, held_concert=held_concert, rules=g.rules,
                          hall_rents=g.cards.hall_rents, chapel_free=g.chapel_free == self._seat,
                          tour_guide=g.players[self._seat].tour_guide, tours=g.cards.tours)

    @property
    def history(self) -> tuple[Event, ...]:
        """Public events and this seat's private ones, as copies (the log stays intact)."""
        seat = self.seat
        return copy.deepcopy(
            tuple(e for e in self._game.events if e.private is None or seat in e.private))

    def __repr__(self) -> str:
        return f"<PlayerView seat {self.seat}, month {self.month} {self.phase}>"

    def _repr_html_(self) -> str:
        """Only this seat's view (its own hand, the public table)."""
        from musici.html import view_html

        return view_html(self)
