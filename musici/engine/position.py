"""Positions: a game's state as plain data, and a game built from such data (like a FEN).

``game.position()`` gives every public and hidden part of the state as JSON-able data;
``Game.from_position(data)`` builds a game from a fresh seeded deal with the given parts
arranged, resuming at a stated point of the month. Tests and lessons use it to set up "seat
2 holds these cards, has 90 G and is about to act in round 2" without touching the engine's
task stack. Cards named anywhere in the data are taken from wherever the deal put them, so
every card stays in exactly one place (COMP.4–7).

Where play resumes (``"at"``):

- ``"P1"`` … ``"P5"``: the start of that phase of ``month``;
- ``{"action": seat, "round": r}``: ``seat``'s P4 action in round ``r`` (1–3), then the
  rest of the round in turn order (MONTH.2), the later rounds, P5;
- ``"end"``: the final scoring.

Resuming in P4 or P5, every seat stands on an area (P3.1): seats whose ``venue`` is not
named take the free areas in board order.

A built position has no history (no events, no answers), so it cannot be saved by replay.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from musici.economy import ACTION_ROUNDS, AREAS
from musici.engine import effects, end, flow, p4_actions

if TYPE_CHECKING:
    from musici.engine.game import Game, Task

# Per-seat fields: name -> (type of the value, whether it holds card ids)
SEAT_FIELDS: Mapping[str, tuple[type, bool]] = {
    "money": (int, False), "fame": (int, False), "hand": (list, True),
    "played": (list, True), "orchestras": (list, True), "markers": (dict, False),
    "permanent": (list, True), "specials_hand": (list, True),
    "specials_discard": (list, True), "specials_bought": (int, False),
    "venue": (str, False), "actions": (int, False),
}
TABLE_FIELDS: tuple[str, ...] = (
    "score_market", "orchestra_market", "special_slot", "score_deck", "orchestra_deck",
    "special_deck", "discovery_decks", "out_of_game", "thief_marks", "media",
)
PHASE_IDS: tuple[str, ...] = tuple(phase.id for phase in flow.MONTH)


class PositionError(ValueError):
    """A position that cannot be built: names the field and what was expected."""


def position(game: Game) -> dict[str, Any]:
    """Every part of ``game``'s state as JSON-able data (hidden parts included)."""
    return {
        "players": game.n, "seed": game.seed, "month": game.month, "phase": game.phase,
        "round": game.round, "start_player": game.start_player,
        "seats": [{
            "money": p.money, "fame": p.fame, "hand": list(p.hand), "played": list(p.played),
            "orchestras": list(p.orchestras), "markers": dict(p.markers),
            "permanent": list(p.permanent), "specials_hand": list(p.specials_hand),
            "specials_discard": list(p.specials_discard), "specials_bought": p.specials_bought,
            "venue": p.venue, "actions": p.actions,
        } for p in game.players],
        "score_market": list(game.score_market), "orchestra_market": list(game.orchestra_market),
        "special_slot": game.special_slot, "score_deck": list(game.score_deck),
        "orchestra_deck": list(game.orchestra_deck), "special_deck": list(game.special_deck),
        "discovery_decks": {k: list(v) for k, v in game.discovery_decks.items()},
        "out_of_game": list(game.out_of_game), "thief_marks": dict(game.thief_marks),
        "media": game.media, "rules": dict(game.rules.options),
    }


def _card_places(game: Game) -> list[list[Any]]:
    """Every list that holds cards (a card is in exactly one of them)."""
    places: list[list[Any]] = [game.score_market, game.orchestra_market, game.score_deck,
                               game.orchestra_deck, game.special_deck, game.out_of_game,
                               *game.discovery_decks.values()]
    for p in game.players:
        places += [p.hand, p.played, p.orchestras, p.permanent, p.specials_hand,
                   p.specials_discard]
    return places


def _take(game: Game, card: str) -> None:
    """Remove ``card`` from wherever it is (a market slot is left empty, refilled later)."""
    if game.special_slot == card:
        game.special_slot = None
        return
    for place in _card_places(game):
        if card in place:
            if place is game.score_market or place is game.orchestra_market:
                place[place.index(card)] = None
            else:
                place.remove(card)
            return
    raise PositionError(f"unknown card {card!r}: not in this game's card set "
                        f"(or removed from a 3-player game, SETUP.6)")


def _return(game: Game, card: str) -> None:
    """Put a displaced card at the bottom of its own deck."""
    cards = game.cards
    if card in cards.music:
        music = cards.music[card]
        deck = game.score_deck if music.kind == "score" else game.discovery_decks[str(music.deck)]
    elif card in cards.orchestras:
        deck = game.orchestra_deck
    else:
        deck = game.special_deck
    deck.insert(0, card)


def _cards(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) or c is None for c in value):
        raise PositionError(f"{where} must be a list of card ids, got {value!r}")
    return [c for c in value if c is not None]


def build(game: Game, data: Mapping[str, Any]) -> None:
    """Arrange ``game`` (a fresh deal of the same players and seed) as ``data`` says."""
    unknown = set(data) - {"players", "seed", "month", "start_player", "seats", "at",
                           "rules", "phase", "round", *TABLE_FIELDS}
    if unknown:
        raise PositionError(f"unknown position fields {sorted(unknown)}; expected "
                            f"players, seed, month, start_player, seats, at, {', '.join(TABLE_FIELDS)}")
    seats = data.get("seats", [])
    if not isinstance(seats, list) or len(seats) > game.n:
        raise PositionError(f"seats must be a list of at most {game.n} seat dicts")
    # Cards named anywhere leave their dealt place first, so none is in two places.
    named: list[str] = []
    for s, seat in enumerate(seats):
        if not isinstance(seat, Mapping):
            raise PositionError(f"seats[{s}] must be a dict of seat fields")
        bad = set(seat) - set(SEAT_FIELDS)
        if bad:
            raise PositionError(f"seats[{s}] has unknown fields {sorted(bad)}; expected "
                                f"{', '.join(SEAT_FIELDS)}")
        for name, (_, holds_cards) in SEAT_FIELDS.items():
            if holds_cards and name in seat:
                named += _cards(seat[name], f"seats[{s}].{name}")
    for name in ("score_market", "orchestra_market", "score_deck", "orchestra_deck",
                 "special_deck", "out_of_game"):
        if name in data:
            named += _cards(data[name], name)
    if data.get("special_slot") is not None:
        named.append(data["special_slot"])
    for deck, cards in dict(data.get("discovery_decks", {})).items():
        named += _cards(cards, f"discovery_decks.{deck}")
    if len(set(named)) != len(named):
        raise PositionError(f"a card is named twice: {sorted({c for c in named if named.count(c) > 1})}")
    for card in named:
        _take(game, card)
    for s, seat in enumerate(seats):
        p = game.players[s]
        for name, (kind, _) in SEAT_FIELDS.items():
            if name not in seat:
                continue
            value = seat[name]
            if name == "venue":
                if value is not None and value not in AREAS:
                    raise PositionError(f"seats[{s}].venue must be one of {', '.join(AREAS)}")
            elif not isinstance(value, kind) or isinstance(value, bool):
                raise PositionError(f"seats[{s}].{name} must be a {kind.__name__}, got {value!r}")
            if kind is list:
                for card in getattr(p, name) if kind is list else ():
                    _return(game, card)  # what the position replaces goes back to its deck
            setattr(p, name, list(value) if kind is list else dict(value) if kind is dict else value)
        if any(o not in p.orchestras or m not in (1, 2) for o, m in p.markers.items()):
            raise PositionError(f"seats[{s}].markers must map the seat's own orchestras to 1 or "
                                f"2 markers (P5.7), got {p.markers!r}")
    for name in ("score_market", "orchestra_market"):
        if name in data:
            slots = list(data[name]) + [None] * (4 - len(data[name]))
            for card in getattr(game, name):
                if card is not None:
                    _return(game, card)
            setattr(game, name, slots[:4])
    for name in ("score_deck", "orchestra_deck", "special_deck", "out_of_game"):
        if name in data:
            getattr(game, name)[:0] = list(data[name])  # under what is left of the deal
    if "special_slot" in data:
        game.special_slot = data["special_slot"]
    for deck, cards in dict(data.get("discovery_decks", {})).items():
        game.discovery_decks[deck][:0] = list(cards)
    effects.refill(game.score_market, game.score_deck)
    effects.refill(game.orchestra_market, game.orchestra_deck)
    game.thief_marks = dict(data.get("thief_marks", {}))
    game.media = data.get("media")
    at = data.get("at", "P1")
    if isinstance(at, Mapping) or at in ("P4", "P5"):
        # P3.1: after P3 every player stands on an area; unnamed ones take the free areas.
        free = [a for a in AREAS if a not in {p.venue for p in game.players}]
        for p in game.players:
            if p.venue is None:
                p.venue = free.pop(0)
    game.venues = {p.venue: p.seat for p in game.players if p.venue is not None}
    if len(game.venues) != sum(p.venue is not None for p in game.players):
        raise PositionError("two seats on one area (P3.1: an area holds at most one marker)")
    game.month = int(data.get("month", game.month))
    if not 1 <= game.month <= game.rules.months:
        raise PositionError(f"month must be 1..{game.rules.months}, got {game.month}")
    game.start_player = int(data.get("start_player", game.start_player)) % game.n
    _resume(game, at)


def _resume(game: Game, at: Any) -> None:
    order = game._order()
    tasks: list[Task] = []
    rest_of_month = [(phase.start,) for phase in flow.MONTH]
    if isinstance(at, str) and at in PHASE_IDS:
        tasks = [*rest_of_month[PHASE_IDS.index(at):], (flow.month_end,)]
    elif isinstance(at, Mapping) and set(at) <= {"action", "round"} and "action" in at:
        seat, rnd = at["action"], at.get("round", 1)
        if not (isinstance(seat, int) and 0 <= seat < game.n and isinstance(rnd, int)
                and 1 <= rnd <= ACTION_ROUNDS):
            raise PositionError(f"at {{'action': seat, 'round': r}} needs a seat of this game and "
                                f"a round 1..{ACTION_ROUNDS}, got {dict(at)!r}")
        game.phase, game.round = "P4", rnd
        tasks = [(p4_actions.ask_action, s) for s in order[order.index(seat):]]
        for r in range(rnd, ACTION_ROUNDS):  # P4.1: the later rounds
            tasks += [(p4_actions.begin_round, r), *[(p4_actions.ask_action, s) for s in order]]
        tasks += [*rest_of_month[PHASE_IDS.index("P5"):], (flow.month_end,)]
    elif at == "end":
        tasks = [(end.score,)]
    else:
        raise PositionError(f"at must be one of {', '.join(PHASE_IDS)}, "
                            f"{{'action': seat, 'round': r}} or 'end', got {at!r}")
    game.decision = None
    game._pending = None
    game._media_bids = {}
    game._stack = []
    game._push(*tasks)
    game.events = []
    game.answers = []
    game.monthly = []
    game.arranged = True
    game._run()
