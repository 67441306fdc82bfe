"""Event records: every effect of the game, with the rule id it applies (DESIGN principle 5).

One record class per event kind, its payload fields declared and typed, so a reader uses
attributes (``e.amount``) that mypy checks, after narrowing with ``isinstance(e, Pay)``.
Every record carries the common header: ``month``, ``phase``, ``kind`` (a class constant),
``rule`` (the rule id that made it happen), ``player`` and ``private`` (the seats that may
see it; ``None``: everyone). The kind ``"effect"`` has one record per special card that
says what it did (``CriticPlayed``, …), and ``"removed"`` one per SETUP.6 removal.

:meth:`Event.to_dict` writes the JSON the engine has always written (same keys, values and
order): payload fields in declaration order, a trailing ``_`` dropped from a field's name
(``from_``: ``"from"``), tuples as lists, and a field declared ``= None`` left out when it
is ``None``. :meth:`Event.from_dict` reads it back and refuses an unknown kind or a missing
or extra field. :attr:`Event.data` is that JSON payload, a fresh dict for notebooks; code in
``musici`` reads attributes (tests/test_events.py scans for it).

Records are immutable to mypy (``frozen``) but plain slots classes at run time: events are
made on the hot path (~800 in a game of 4 random players), and a frozen dataclass's
``__init__`` (one ``object.__setattr__`` per field) costs ~3x a plain one. They pickle, deep-copy and compare
(``==``: same record class and fields) like any slots dataclass, compiled by mypyc or not
(``kind`` is a field with a fixed default, not a ``ClassVar``, which mypyc would drop).
"""

from __future__ import annotations

from dataclasses import field, fields
from typing import TYPE_CHECKING, Any, Literal

from musici._record import record

if TYPE_CHECKING:
    from musici.rating import Restoration as _Found
    from musici.scoring import ConcertOutcome

Seats = tuple[int, ...]
Cards = tuple[str, ...]


@record
class Event:
    """One effect: the common header of every event record (never made itself)."""

    month: int
    phase: str
    rule: str
    player: int | None
    # A class constant in effect (each record sets its default); a field, not a ClassVar,
    # because mypyc drops ClassVar from a dataclass's annotations.
    kind: str = field(default="", init=False, compare=False)
    private: Seats | None = field(default=None, kw_only=True)

    def visible_to(self, seat: int) -> bool:
        return self.private is None or seat in self.private

    @property
    def data(self) -> dict[str, Any]:
        """The payload as JSON (a fresh dict, as ``to_dict()["data"]``): for notebooks;
        code reads the record's attributes."""
        out: dict[str, Any] = {}
        for attr, key, optional in _SPEC[type(self)]:
            value = getattr(self, attr)
            if value is None and optional:
                continue
            out[key] = _json(value)
        return out

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "month": self.month, "phase": self.phase, "kind": self.kind, "rule": self.rule,
            "player": self.player, "data": self.data,
        }
        if self.private is not None:
            out["private"] = list(self.private)
        return out

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Event:
        """The record ``d`` (as :meth:`to_dict` writes it) describes; a ``ValueError`` names
        an unknown kind, or a missing or extra field."""
        if not isinstance(d, dict):
            raise ValueError(f"an event is a JSON object, not {type(d).__name__}")
        extra = set(d) - _HEADER_KEYS
        missing = set(_HEADER_KEYS - {"private"}) - set(d)
        if extra or missing:
            raise ValueError(f"event {d.get('kind')!r}: "
                             + _fields_message(missing, extra, "header field"))
        kind, data = d["kind"], d["data"]
        if kind not in _BY_KIND:
            raise ValueError(f"unknown event kind {kind!r} (known: {', '.join(sorted(_BY_KIND))})")
        if not isinstance(data, dict):
            raise ValueError(f"event {kind!r}: its data is a JSON object, not {type(data).__name__}")
        for name, ok in (("month", type(d["month"]) is int), ("phase", isinstance(d["phase"], str)),
                         ("rule", isinstance(d["rule"], str)),
                         ("player", d["player"] is None or type(d["player"]) is int)):
            if not ok:
                raise ValueError(f"event {kind!r}: bad {name} {d[name]!r}")
        cls = _pick(kind, data)
        args = {attr: _from_json(cls, attr, data[key])
                for attr, key, _ in _SPEC[cls] if key in data}
        private = d.get("private")
        if private is not None:
            if not isinstance(private, list) or any(type(s) is not int for s in private):
                raise ValueError(f"event {kind!r}: bad private {private!r}")
            private = tuple(private)
        return cls(d["month"], d["phase"], d["rule"], d["player"], **args, private=private)

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(m{self.month} {self.phase} {self.kind} [{self.rule}] "
                f"p={self.player} {self.data})")


# --------------------------------------------------------------------------- SETUP, MONTH
@record
class Setup(Event):
    """SETUP.1: the starting money, start player, markets and special card."""

    kind: str = field(default="setup", init=False, compare=False)
    money: int
    start_player: int
    scores: tuple[str | None, ...]
    orchestras: tuple[str | None, ...]
    special: str | None
    months: int


@record
class RemovedOrchestras(Event):
    """SETUP.6, 3 players: orchestras out of the game before shuffling."""

    kind: str = field(default="removed", init=False, compare=False)
    orchestras: Cards


@record
class RemovedCards(Event):
    """SETUP.6, 3 players: scores and discoveries out of the game (the cards are secret)."""

    kind: str = field(default="removed", init=False, compare=False)
    scores: int
    discoveries: int
    cards: Cards


@record
class Deal(Event):
    """SETUP.2: a player's secret starting hand."""

    kind: str = field(default="deal", init=False, compare=False)
    cards: Cards


@record
class Month(Event):
    """MONTH.1: a month begins."""

    kind: str = field(default="month", init=False, compare=False)
    month_: int  # "month" in the JSON payload (the header's month, repeated)
    start_player: int


@record
class MonthEnd(Event):
    """MONTH.3: everyone's fame and money as the month ends."""

    kind: str = field(default="month_end", init=False, compare=False)
    fame: Seats
    money: Seats


# --------------------------------------------------------------------------- P1
@record
class NoAuction(Event):
    """P1.6: no special card left to auction."""

    kind: str = field(default="no_auction", init=False, compare=False)


@record
class AuctionBanned(Event):
    """P1.7, SPECIAL.S1: this player may not bid this month."""

    kind: str = field(default="auction_banned", init=False, compare=False)
    card: str | None
    by: Literal["S1"]


@record
class Auction(Event):
    """P1.1: the special card up for auction."""

    kind: str = field(default="auction", init=False, compare=False)
    card: str | None


@record
class Bid(Event):
    """P1.1: a bid."""

    kind: str = field(default="bid", init=False, compare=False)
    amount: int


@record
class PassAuction(Event):
    """P1.2: a player passes in the auction."""

    kind: str = field(default="pass_auction", init=False, compare=False)


@record
class SpecialBought(Event):
    """P1.3: the auction's winner and price."""

    kind: str = field(default="special_bought", init=False, compare=False)
    card: str
    price: int


@record
class Unsold(Event):
    """P1.5: nobody bid; the card goes under the deck."""

    kind: str = field(default="unsold", init=False, compare=False)
    card: str


@record
class SpecialRevealed(Event):
    """P1.6: the next special card (``None``: the deck is empty)."""

    kind: str = field(default="special_revealed", init=False, compare=False)
    card: str | None


# --------------------------------------------------------------------------- P2
@record
class MediaBid(Event):
    """P2.1: a secret media bid (its bidder alone sees it until the reveal)."""

    kind: str = field(default="media_bid", init=False, compare=False)
    amount: int


@record
class Critic(Event):
    """P2.5, SPECIAL.S2: the critic adds to this player's media bid."""

    kind: str = field(default="critic", init=False, compare=False)
    bid: int
    counts: int
    card: Literal["S2"]


@record
class MediaReveal(Event):
    """P2.1: every seat's bid, and what it counts (with the critic)."""

    kind: str = field(default="media_reveal", init=False, compare=False)
    bids: Seats
    effective: Seats


@record
class NoMedia(Event):
    """P2.3: nobody wins the media (all bids zero)."""

    kind: str = field(default="no_media", init=False, compare=False)


@record
class MediaTie(Event):
    """P2.2: a tie for the media, broken by least fame, then chance."""

    kind: str = field(default="media_tie", init=False, compare=False)
    tied: Seats
    fame: int
    by_chance: bool


@record
class Media(Event):
    """P2.2: the media's winner and the bid it pays."""

    kind: str = field(default="media", init=False, compare=False)
    bid: int


# --------------------------------------------------------------------------- P3
@record
class ChapelFree(Event):
    """P3.HALL.1: the least famous player's hall is free."""

    kind: str = field(default="chapel_free", init=False, compare=False)
    fame: int


@record
class Venue(Event):
    """P3.1: the area a player takes."""

    kind: str = field(default="venue", init=False, compare=False)
    area: str


# --------------------------------------------------------------------------- P4
@record
class PassRound(Event):
    """P4.1: a player passes a round of actions."""

    kind: str = field(default="pass_round", init=False, compare=False)
    round: int


@record
class ActionTaken(Event):
    """P4.2: the action a player takes."""

    kind: str = field(default="action", init=False, compare=False)
    action: str
    round: int


Match = tuple[str, int, int, tuple[str, ...]]  # card, nationality/era, composer/lineage, why


@record
class ConcertRestoration:
    """RESTORE.1-3 at a concert of a discovery: what was found and the bonus it gives."""

    found: bool
    bonus: int
    capped: bool
    matches: tuple[Match, ...]

    @staticmethod
    def of(restore: _Found, out: ConcertOutcome) -> ConcertRestoration:
        return ConcertRestoration(restore.found, out.bonus, out.capped, tuple(
            (m.card, m.nationality_or_era, m.composer_or_lineage, tuple(m.why))
            for m in restore.matches))

    def to_dict(self) -> dict[str, Any]:
        return {"found": self.found, "bonus": self.bonus, "capped": self.capped,
                "matches": _json(self.matches)}


@record
class Concert(Event):
    """P4.CONCERT.1-4: a concert, its rating (RATE.*) and what it earns."""

    kind: str = field(default="concert", init=False, compare=False)
    card: str
    kind_: str  # the card's kind ("kind" in the JSON payload)
    style: str
    orchestras: Cards
    virtuosos: Cards  # SPECIAL.P3/P4
    brought: tuple[int, int]
    required: tuple[int, int]
    markers: int
    media: bool
    venue: str | None
    base_rating: str
    rating: str
    reasons: tuple[str, ...]
    card_fame: int
    restoration: ConcertRestoration | None
    fame: int
    income: int

    @staticmethod
    def of(month: int, phase: str, seat: int, card: str, card_kind: str, chosen: Cards,
           virtuosos: Cards, brought: tuple[int, int], markers: int, media: bool,
           venue: str | None, out: ConcertOutcome) -> Concert:
        """The concert record of scoring's outcome (one home: the engine's and the preview's)."""
        rated, restore = out.rating, out.restoration
        return Concert(
            month, phase, "P4.CONCERT.4", seat, card, card_kind, rated.style, chosen, virtuosos,
            brought, rated.required, markers, media, venue, rated.base_level, rated.level,
            tuple(rated.reasons), out.card_fame,
            None if restore is None else ConcertRestoration.of(restore, out), out.fame,
            out.income)


@record
class Hire(Event):
    """P4.HIRE.1: an orchestra hired from the market, and the card that refills its slot."""

    kind: str = field(default="hire", init=False, compare=False)
    orchestra: str
    refill: str | None


@record
class PoachRefused(Event):
    """P4.HIRE.2: the owner (``player``) keeps its orchestra."""

    kind: str = field(default="poach_refused", init=False, compare=False)
    buyer: int
    orchestra: str


@record
class Poach(Event):
    """P4.HIRE.2: an orchestra hired away from another player."""

    kind: str = field(default="poach", init=False, compare=False)
    orchestra: str
    from_: int  # "from" in the JSON payload
    price: int
    markers: int


@record
class Buy(Event):
    """P4.BUY.1 (or SPECIAL.S8): a score bought from the market."""

    kind: str = field(default="buy", init=False, compare=False)
    card: str
    refill: str | None


@record
class Offer(Event):
    """P4.BUY.2: an offer for a card of ``era`` from a seller's hand."""

    kind: str = field(default="offer", init=False, compare=False)
    seller: int
    price: int
    era: str


@record
class Sold(Event):
    """P4.BUY.2: the seller (``player``) sells."""

    kind: str = field(default="sold", init=False, compare=False)
    buyer: int
    price: int


@record
class CardPassed(Event):
    """P4.BUY.2: the card sold (buyer and seller alone see it)."""

    kind: str = field(default="card_passed", init=False, compare=False)
    buyer: int
    card: str


@record
class Declined(Event):
    """P4.BUY.3: the seller (``player``) declines."""

    kind: str = field(default="declined", init=False, compare=False)
    buyer: int
    price: int


@record
class ActionSpent(Event):
    """P4.BUY.3: the declined offer still costs the buyer its action."""

    kind: str = field(default="action_spent", init=False, compare=False)


@record
class Discover(Event):
    """P4.DISCOVER.1: a discovery drawn from ``deck``."""

    kind: str = field(default="discover", init=False, compare=False)
    deck: str


@record
class Drew(Event):
    """P4.DISCOVER.1, SPECIAL.S7: the card drawn (its drawer alone sees it)."""

    kind: str = field(default="drew", init=False, compare=False)
    card: str
    deck: str | None = None  # SPECIAL.S7 names the deck


@record
class Appease(Event):
    """P4.APPEASE.1: a dissent marker removed."""

    kind: str = field(default="appease", init=False, compare=False)
    orchestra: str
    markers: int


@record
class SpecialPlayed(Event):
    """P4.SPECIAL.1: a special card played (what it did: an ``"effect"`` record)."""

    kind: str = field(default="special", init=False, compare=False)
    card: str


@record
class AuctioneerPlayed(Event):
    """SPECIAL.S1: ``target`` may not bid in ``month``'s auction."""

    kind: str = field(default="effect", init=False, compare=False)
    card: Literal["S1"]
    target: int
    month_: int


@record
class CriticPlayed(Event):
    """SPECIAL.S2: the player's media bid counts ``bonus`` more in ``month``."""

    kind: str = field(default="effect", init=False, compare=False)
    card: Literal["S2"]
    month_: int
    bonus: int


@record
class TourGuidePlayed(Event):
    """SPECIAL.S3: this month's tour costs nothing."""

    kind: str = field(default="effect", init=False, compare=False)
    card: Literal["S3"]
    tour: str | None


@record
class EducatorPlayed(Event):
    """SPECIAL.S4: orchestras taken from the market, and the market after."""

    kind: str = field(default="effect", init=False, compare=False)
    card: Literal["S4"]
    orchestras: Cards
    market: tuple[str | None, ...]


@record
class AdvisorPlayed(Event):
    """SPECIAL.S5: up to ``exempts`` orchestras' salaries waived in P5.3."""

    kind: str = field(default="effect", init=False, compare=False)
    card: Literal["S5"]
    exempts: int


@record
class RumourmongerPlayed(Event):
    """SPECIAL.S6: each of ``targets`` places a marker in P5.6."""

    kind: str = field(default="effect", init=False, compare=False)
    card: Literal["S6"]
    targets: Seats


@record
class CollectorPlayed(Event):
    """SPECIAL.S7: the cards taken, face up and from which decks, and the market after."""

    kind: str = field(default="effect", init=False, compare=False)
    card: Literal["S7"]
    taken: Cards
    face_up: Cards
    decks: Cards
    market: tuple[str | None, ...]


@record
class ThiefPlayed(Event):
    """SPECIAL.S8: the market card marked for the player alone."""

    kind: str = field(default="effect", init=False, compare=False)
    card: Literal["S8"]
    marked: str


# --------------------------------------------------------------------------- P5
@record
class VenueFree(Event):
    """P3.HALL.1 or SPECIAL.S3: the venue costs nothing (S3 says what it saved)."""

    kind: str = field(default="venue_free", init=False, compare=False)
    area: str
    card: str | None = None
    money: int | None = None
    fame: int | None = None


@record
class Unpaid(Event):
    """RULING-UNPAID-VENUE / -SURCHARGE: what could not be paid (and the fame it cost)."""

    kind: str = field(default="unpaid", init=False, compare=False)
    amount: int
    fame: int | None = None  # RULING-UNPAID-VENUE only


@record
class Exempt(Event):
    """SPECIAL.S5: the orchestras whose salaries are waived."""

    kind: str = field(default="exempt", init=False, compare=False)
    card: Literal["S5"]
    orchestras: Cards


@record
class RumourVoid(Event):
    """SPECIAL.S6: a target with no orchestra places no marker."""

    kind: str = field(default="rumour_void", init=False, compare=False)
    card: Literal["S6"]
    owner: int


# --------------------------------------------------------------------------- any phase
@record
class Fame(Event):
    """A change of fame (P5.8: floored at zero when the rule says so)."""

    kind: str = field(default="fame", init=False, compare=False)
    delta: int
    fame: int
    reason: str
    venue: str | None = None  # a hall's or tour's cost
    floored: str | None = None  # "P5.8"
    card: str | None = None  # SPECIAL.P2, P7


@record
class Pay(Event):
    """A payment (``to`` another seat, or the bank when ``None``); ``money``: what is left."""

    kind: str = field(default="pay", init=False, compare=False)
    amount: int
    to: int | None
    reason: str
    money: int
    venue: str | None = None


@record
class Income(Event):
    """Money received (P5.1, P4.4, SPECIAL.P1); ``money``: the total after."""

    kind: str = field(default="income", init=False, compare=False)
    amount: int
    reason: str
    money: int
    card: str | None = None  # SPECIAL.P1


@record
class OrchestraLeaves(Event):
    """P5.7: a third dissent marker sends the orchestra away (``cause``: the marker's rule)."""

    kind: str = field(default="orchestra_leaves", init=False, compare=False)
    orchestra: str
    reason: str
    cause: str
    card: str | None = None  # SPECIAL.S6: the rumour's card and owner
    owner: int | None = None


@record
class Marker(Event):
    """P5.3, P5.7, SPECIAL.S6, RULING-UNPAID-SURCHARGE: a dissent marker (``markers``: now)."""

    kind: str = field(default="marker", init=False, compare=False)
    orchestra: str
    markers: int
    reason: str
    card: str | None = None  # SPECIAL.S6: the rumour's card and owner
    owner: int | None = None


# --------------------------------------------------------------------------- END
@record
class Award(Event):
    """END.1-4, END.6-7: an award, everyone's counts, its winners and each one's share."""

    kind: str = field(default="award", init=False, compare=False)
    award: str
    counts: Seats
    winners: Seats
    share: str  # a fraction, as text ("5/2")


@record
class MarkerPenalty(Event):
    """END.5: one fame lost per dissent marker left."""

    kind: str = field(default="marker_penalty", init=False, compare=False)
    markers: int


@record
class FinalResult(Event):
    """END.WIN: final fame (fractions as text), money, winners and ranks."""

    kind: str = field(default="final", init=False, compare=False)
    fame: tuple[str, ...]
    money: Seats
    winners: Seats
    ranks: Seats


# --------------------------------------------------------------------------- the table
#: Every event record, in the order of a game.
RECORDS: tuple[type[Event], ...] = (
    Setup, RemovedOrchestras, RemovedCards, Deal, Month, MonthEnd,
    NoAuction, AuctionBanned, Auction, Bid, PassAuction, SpecialBought, Unsold, SpecialRevealed,
    MediaBid, Critic, MediaReveal, NoMedia, MediaTie, Media,
    ChapelFree, Venue,
    PassRound, ActionTaken, Concert, Hire, PoachRefused, Poach, Buy, Offer, Sold, CardPassed,
    Declined, ActionSpent, Discover, Drew, Appease, SpecialPlayed,
    AuctioneerPlayed, CriticPlayed, TourGuidePlayed, EducatorPlayed, AdvisorPlayed,
    RumourmongerPlayed, CollectorPlayed, ThiefPlayed,
    VenueFree, Unpaid, Exempt, RumourVoid,
    Fame, Pay, Income, OrchestraLeaves, Marker,
    Award, MarkerPenalty, FinalResult,
)

#: The records of the kind ``"effect"``, by special card.
EFFECTS: dict[str, type[Event]] = {
    "S1": AuctioneerPlayed, "S2": CriticPlayed, "S3": TourGuidePlayed, "S4": EducatorPlayed,
    "S5": AdvisorPlayed, "S6": RumourmongerPlayed, "S7": CollectorPlayed, "S8": ThiefPlayed,
}

#: The records with a ``card`` field (a card id; for ``Drew``, ``Buy``, … the card moved).
WITH_CARD = (AuctionBanned, Auction, SpecialBought, Unsold, SpecialRevealed, Critic, Buy,
             CardPassed, Drew, SpecialPlayed, AuctioneerPlayed, CriticPlayed, TourGuidePlayed,
             EducatorPlayed, AdvisorPlayed, RumourmongerPlayed, CollectorPlayed, ThiefPlayed,
             VenueFree, Exempt, RumourVoid, Fame, Income, OrchestraLeaves, Marker, Concert)


def card_of(event: Event) -> str | None:
    """The ``card`` field of ``event``, if its record has one."""
    return event.card if isinstance(event, WITH_CARD) else None


_HEADER = frozenset(f.name for f in fields(Event))


def _kind_of(cls: type[Event]) -> str:
    """The kind a record class writes (its ``kind`` field's default)."""
    return next(str(f.default) for f in fields(cls) if f.name == "kind")
_HEADER_KEYS = frozenset({"month", "phase", "kind", "rule", "player", "data", "private"})


def payload_fields(cls: type[Event]) -> tuple[tuple[str, str, bool], ...]:
    """``cls``'s payload fields: (attribute, JSON key, left out when ``None``), in order."""
    return tuple((f.name, f.name.removesuffix("_"), f.default is None)
                 for f in fields(cls) if f.name not in _HEADER)


_SPEC: dict[type[Event], tuple[tuple[str, str, bool], ...]] = {
    c: payload_fields(c) for c in RECORDS}
_BY_KIND: dict[str, tuple[type[Event], ...]] = {}
for _c in RECORDS:
    _BY_KIND[_kind_of(_c)] = (*_BY_KIND.get(_kind_of(_c), ()), _c)


def events_table() -> str:
    """The records as a Markdown table (kind, record, payload fields with their types and
    JSON keys, what it says with its rule ids): docs/engine.md holds it, a test checks it."""
    rows = ["| kind | record | payload fields | what (rule ids) |", "|---|---|---|---|"]
    for cls in RECORDS:
        parts = []
        for f in fields(cls):
            if f.name in _HEADER:
                continue
            key = f.name.removesuffix("_")
            name = f.name if key == f.name else f"{f.name} (\"{key}\")"
            default = " = None" if f.default is None else ""
            parts.append(f"{name}: {f.type}{default}".replace("|", "\\|"))
        doc = (cls.__doc__ or "").strip().splitlines()[0].replace("|", "\\|")
        rows.append(f"| {_kind_of(cls)} | {cls.__name__} | {'; '.join(parts) or '-'} | {doc} |")
    return "\n".join(rows) + "\n"


def _json(value: object) -> Any:
    """A payload value as JSON data: tuples as lists (nested too), records as dicts."""
    if type(value) is tuple:
        return [_json(v) for v in value]
    if isinstance(value, ConcertRestoration):
        return value.to_dict()
    return value


def _tuples(value: object) -> Any:
    return tuple(_tuples(v) for v in value) if type(value) is list else value


def _from_json(cls: type[Event], attr: str, value: object) -> Any:
    if cls is Concert and attr == "restoration" and value is not None:
        if not isinstance(value, dict) or set(value) != {"found", "bonus", "capped", "matches"}:
            raise ValueError(f"event 'concert': bad restoration {value!r}")
        return ConcertRestoration(value["found"], value["bonus"], value["capped"],
                                  _tuples(value["matches"]))
    return _tuples(value)


def _fields_message(missing: set[str], extra: set[str], what: str) -> str:
    parts = []
    if missing:
        parts.append(f"missing {what} {', '.join(map(repr, sorted(missing)))}")
    if extra:
        parts.append(f"unknown {what} {', '.join(map(repr, sorted(extra)))}")
    return "; ".join(parts)


def _misfit(cls: type[Event], data: dict[str, Any]) -> str:
    spec = _SPEC[cls]
    required = {key for _, key, optional in spec if not optional}
    return _fields_message(required - set(data), set(data) - {key for _, key, _ in spec},
                           "field")


def _pick(kind: str, data: dict[str, Any]) -> type[Event]:
    """The record of ``kind`` whose fields ``data`` has ("effect": by its card)."""
    if kind == "effect":
        card = data.get("card")
        if card not in EFFECTS:
            raise ValueError(f"event 'effect': unknown card {card!r}")
        candidates: tuple[type[Event], ...] = (EFFECTS[card],)
    else:
        candidates = _BY_KIND[kind]
    problems = []
    for cls in candidates:
        problem = _misfit(cls, data)
        if not problem:
            return cls
        problems.append(f"{cls.__name__}: {problem}" if len(candidates) > 1 else problem)
    raise ValueError(f"event {kind!r}: {' / '.join(problems)}")


__all__ = ["EFFECTS", "RECORDS", "WITH_CARD", "Event", "card_of", "events_table", "payload_fields", "record",
           *(c.__name__ for c in RECORDS), "ConcertRestoration"]
