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

**Exact positions.** ``game.position()`` also records everything else that decides the
game's future: this month's flags of every seat (its concert, Tour guide, Advisor, Rumour,
Critic and Auctioneer marks, special used), the free Chapel, the sealed media bids, the
state of every random generator, and *where the game is*: the pending decision, its answer
handler and the task stack, each continuation named from
:data:`musici.engine.continuations.CONTINUATIONS`. Given such a position (its ``"where"``
field), ``Game.from_position`` resumes exactly: the same decision, the same options, the
same view for every seat (history aside), and, answered the same way, the same events and
results to the end. The cards are checked first: every card of the set in exactly one
place, as a deal of this many players puts them (SETUP, COMP.4–7).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from musici.build import caused  # raise ... from, in both builds
from musici.economy import ACTION_ROUNDS, AREAS
from musici.engine import context, continuations, effects, end, flow, p4_actions
from musici.engine.protocols import CURRENT_PROTOCOL, check_protocol
from musici.engine.state import SEAT_STATE, card_places

if TYPE_CHECKING:
    from musici.engine.game import Game, Task

# Per-seat fields from the declaration (engine/state.py): name -> (type, holds card ids).
_KIND_TYPE: Mapping[str, type] = {"int": int, "cards": list, "markers": dict, "area": str}
SEAT_FIELDS: Mapping[str, tuple[type, bool]] = {
    f.name: (_KIND_TYPE[f.kind], f.kind == "cards") for f in SEAT_STATE if f.kind in _KIND_TYPE}
TABLE_FIELDS: tuple[str, ...] = (
    "score_market", "orchestra_market", "special_slot", "score_deck", "orchestra_deck",
    "special_deck", "discovery_decks", "out_of_game", "thief_marks", "media",
    "plies",  # every ply so far, forced ones included (Game.plies): 0 if not given
)
PHASE_IDS: tuple[str, ...] = tuple(phase.id for phase in flow.MONTH)
# This month's flags of a seat (reset at MONTH.3); only an exact position carries them.
MONTH_FLAGS: Mapping[str, type] = {f.name: bool for f in SEAT_STATE if f.kind == "flag"}
EXACT_FIELDS: tuple[str, ...] = ("protocol", "venues", "chapel_free", "media_bids", "rngs", "results",
                                 "where")
FORMAT = "musici-position/2"


class PositionError(ValueError):
    """A position that cannot be built: names the field and what was expected."""


def position(game: Game) -> dict[str, Any]:
    """Every part of ``game``'s state as JSON-able data (hidden parts included)."""
    return {
        "players": game.n, "seed": game.seed, "month": game.month, "phase": game.phase,
        "round": game.round, "start_player": game.start_player,
        "seats": [{f.name: _SEAT_ENCODE[f.kind](getattr(p, f.name)) for f in SEAT_STATE}
                  for p in game.players],
        "score_market": list(game.score_market), "orchestra_market": list(game.orchestra_market),
        "special_slot": game.special_slot, "score_deck": list(game.score_deck),
        "orchestra_deck": list(game.orchestra_deck), "special_deck": list(game.special_deck),
        "discovery_decks": {k: list(v) for k, v in game.discovery_decks.items()},
        "out_of_game": list(game.out_of_game), "thief_marks": dict(game.thief_marks),
        "media": game.media, "rules": dict(game.rules.options),
        "format": FORMAT,
        "protocol": game.protocol,
        "venues": [[area, seat] for area, seat in game.venues.items()],  # in claiming order
        "chapel_free": game.chapel_free,
        "media_bids": {str(s): bid for s, bid in game.media_bids.items()},
        "rngs": [_rng_state(game, i) for i in range(game.n + 1)],
        "results": continuations.encode(game.results),
        "where": _where(game),
        "plies": game.plies,
    }


def _rng_state(game: Game, index: int) -> list[Any]:
    version, internal, gauss = game._random(index).getstate()
    return [version, list(internal), gauss]


def _where(game: Game) -> dict[str, Any]:
    """The pending decision, its handler and the task stack (bottom first), as data."""
    pending = game._pending
    return {
        "decision": None if game.decision is None else continuations.encode_decision(game.decision),
        "handler": None if pending is None else {
            "task": continuations.name_of(pending[0]),
            "args": [continuations.encode(a) for a in pending[1]]},
        "stack": [continuations.encode_task(task) for task in game._stack],
    }


# How each kind of seat field is written as data (engine/state.py declares the kinds).
_SEAT_ENCODE: Mapping[str, Any] = {
    "int": int, "flag": bool, "area": lambda v: v, "cards": list, "markers": dict,
    "concert": continuations.encode,
}


def _card_places(game: Game) -> list[list[Any]]:
    """Every list that holds cards (a card is in exactly one of them)."""
    return card_places(game)


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
    if "where" in data and "at" not in data:
        restore(game, data)
        return
    # Arranged: resume at "at"; where an exact position's own fields say the game was is
    # replaced by "at" (its seats' month flags still apply).
    dropped = {*EXACT_FIELDS, "format"}  # a set display: mypyc cannot compile `in (*a, b)`
    data = {k: v for k, v in data.items() if k not in dropped}
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
        bad = set(seat) - {*SEAT_FIELDS, *MONTH_FLAGS, "concert"}
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
        for flag in MONTH_FLAGS:
            if flag in seat:
                setattr(p, flag, _need(seat, flag, bool, f"seats[{s}]."))
        if seat.get("concert") is not None:
            concert = continuations.decode(seat["concert"])
            if not (isinstance(concert, dict) and set(concert) == {"card", "income", "fame"}):
                raise PositionError(f"seats[{s}].concert must be None or {{card, income, fame}}")
            p.concert = concert
    for name in ("score_market", "orchestra_market"):
        if name in data:
            slots = list(data[name]) + [None] * (4 - len(data[name]))
            # `held`, not `card` (a str above): compiled code checks a variable's one type.
            for held in getattr(game, name):
                if held is not None:
                    _return(game, held)
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
    _resume(game, at, _plies(data))


def _resume(game: Game, at: Any, plies: int = 0) -> None:
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
    context.push_all(game, *tasks)
    game.events = []
    game.answers = []
    game.plies = plies  # the plies so far as the position says (0: counted from here)
    game.monthly = []
    game.arranged = True
    game._run()


# ---------------------------------------------------------------------------- exact positions
_EXACT_KEYS = frozenset({"players", "seed", "month", "phase", "round", "start_player", "seats",
                         "rules", "format", *TABLE_FIELDS, *EXACT_FIELDS})
_PHASES = ("SETUP", *PHASE_IDS, "END")


def _plies(data: Mapping[str, Any]) -> int:
    """The position's ``plies`` (absent from positions written before it was kept: 0)."""
    plies = data.get("plies", 0)
    if type(plies) is not int or plies < 0:
        raise PositionError(f"plies must be a non-negative integer, got {plies!r}")
    return plies


def _need(data: Mapping[str, Any], name: str, kind: type | tuple[type, ...], where: str = "") -> Any:
    if name not in data:
        raise PositionError(f"an exact position needs {where}{name}")
    value = data[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise PositionError(f"{where}{name} must be a {expected}, got {value!r}")
    return value


def restore(game: Game, data: Mapping[str, Any]) -> None:
    """Make ``game`` (a fresh deal of the same players, seed, rules and cards) exactly the
    game ``data`` (from :func:`position`) records. Raises :class:`PositionError` naming the
    first field that is missing or impossible; ``game`` is then not to be used."""
    unknown = set(data) - _EXACT_KEYS
    if unknown:
        raise PositionError(f"unknown position fields {sorted(unknown)}; expected "
                            f"{', '.join(sorted(_EXACT_KEYS))}")
    if data.get("format", FORMAT) != FORMAT:
        raise PositionError(f"format must be {FORMAT!r}, got {data.get('format')!r}")
    fresh = [list(place) for place in _card_places(game)] + [[game.special_slot]]
    try:
        game.protocol = check_protocol(data.get("protocol", CURRENT_PROTOCOL))
    except ValueError as exc:
        raise caused(PositionError(str(exc)), None) from None
    seats = _need(data, "seats", list)
    if len(seats) != game.n:
        raise PositionError(f"seats must list all {game.n} seats, got {len(seats)}")
    for s, seat in enumerate(seats):
        where = f"seats[{s}]."
        if not isinstance(seat, Mapping):
            raise PositionError(f"seats[{s}] must be a dict of seat fields")
        extra = set(seat) - {*SEAT_FIELDS, *MONTH_FLAGS, "concert"}
        if extra:
            raise PositionError(f"seats[{s}] has unknown fields {sorted(extra)}")
        p = game.players[s]
        for name, (kind, holds_cards) in SEAT_FIELDS.items():
            value: Any
            if name == "venue":
                value = seat.get("venue")
                if value is not None and value not in AREAS:
                    raise PositionError(f"{where}venue must be None or one of {', '.join(AREAS)}")
            else:
                value = _need(seat, name, kind, where)
            if holds_cards:
                value = _cards(value, where + name)
            elif kind is dict:
                if not all(isinstance(k, str) and type(v) is int for k, v in value.items()):
                    raise PositionError(f"{where}{name} must map card ids to integers")
                value = dict(value)
            setattr(p, name, list(value) if kind is list else value)
        for flag in MONTH_FLAGS:
            setattr(p, flag, _need(seat, flag, bool, where))
        try:
            concert = continuations.decode(seat.get("concert"))
        except continuations.ContinuationError as exc:
            raise caused(PositionError(f"{where}concert: {exc}"), None) from None
        if concert is not None and not (isinstance(concert, dict)
                                        and set(concert) == {"card", "income", "fame"}):
            raise PositionError(f"{where}concert must be None or {{card, income, fame}}, "
                                f"got {concert!r}")
        p.concert = concert
        if p.money < 0:
            raise PositionError(f"{where}money must not be negative (P5.4), got {p.money}")
        if any(o not in p.orchestras or m not in (1, 2) for o, m in p.markers.items()):
            raise PositionError(f"{where}markers must map the seat's own orchestras to 1 or "
                                f"2 markers (P5.7), got {p.markers!r}")
    for name in ("score_market", "orchestra_market"):
        slots = _need(data, name, list)
        if len(slots) != 4 or not all(c is None or isinstance(c, str) for c in slots):
            raise PositionError(f"{name} must list its 4 slots (card ids or None)")
        setattr(game, name, list(slots))
    for name in ("score_deck", "orchestra_deck", "special_deck", "out_of_game"):
        setattr(game, name, _cards(_need(data, name, list), name))
    decks = _need(data, "discovery_decks", dict)
    if set(decks) != set(game.discovery_decks):
        raise PositionError(f"discovery_decks must have the decks {sorted(game.discovery_decks)}")
    game.discovery_decks = {k: _cards(v, f"discovery_decks.{k}") for k, v in decks.items()}
    slot = data.get("special_slot")
    if slot is not None and not isinstance(slot, str):
        raise PositionError(f"special_slot must be a card id or None, got {slot!r}")
    game.special_slot = slot
    _check_cards(game, fresh)
    marks = _need(data, "thief_marks", dict)
    if not all(isinstance(c, str) and type(t) is int and 0 <= t < game.n for c, t in marks.items()):
        raise PositionError("thief_marks must map face-up score cards to a seat (P4.BUY.5)")
    game.thief_marks = dict(marks)
    for name in ("media", "chapel_free"):
        value = data.get(name)
        if value is not None and not (type(value) is int and 0 <= value < game.n):
            raise PositionError(f"{name} must be None or a seat 0..{game.n - 1}, got {value!r}")
        setattr(game, name, value)
    venues = _need(data, "venues", list)
    claimed = {p.venue: p.seat for p in game.players if p.venue is not None}
    if len(claimed) != sum(p.venue is not None for p in game.players):
        raise PositionError("two seats on one area (P3.1: an area holds at most one marker)")
    if not all(isinstance(v, list) and len(v) == 2 for v in venues) \
            or {a: s for a, s in venues} != claimed or len(venues) != len(claimed):
        raise PositionError(f"venues must list [area, seat] for each seat's venue (P3.1), "
                            f"got {venues!r}")
    game.venues = {a: s for a, s in venues}
    bids = _need(data, "media_bids", dict)
    try:
        game._media_bids = {int(s): b for s, b in bids.items()}
    except ValueError:
        raise caused(PositionError(f"media_bids must map seats to bids, got {bids!r}"), None) from None
    if not all(0 <= s < game.n and type(b) is int and b >= 0 for s, b in game._media_bids.items()):
        raise PositionError(f"media_bids must map seats to non-negative bids, got {bids!r}")
    game.month = _need(data, "month", int)
    if not 1 <= game.month <= game.rules.months:
        raise PositionError(f"month must be 1..{game.rules.months}, got {game.month}")
    game.phase = _need(data, "phase", str)
    if game.phase not in _PHASES:
        raise PositionError(f"phase must be one of {', '.join(_PHASES)}, got {game.phase!r}")
    game.round = _need(data, "round", int)
    game.start_player = _need(data, "start_player", int)
    if not 0 <= game.start_player < game.n:
        raise PositionError(f"start_player must be a seat 0..{game.n - 1}")
    game.plies = _plies(data)
    _restore_rngs(game, _need(data, "rngs", list))
    _restore_where(game, _need(data, "where", dict))
    try:
        game.results = continuations.decode(data.get("results"))
    except continuations.ContinuationError as exc:
        raise caused(PositionError(f"results: {exc}"), None) from None
    if (game.results is None) != (game.decision is not None or bool(game._stack)):
        raise PositionError("results must be given exactly when the game is over "
                            "(no decision pending, no task left)")
    game.events = []
    game.answers = []
    game.monthly = []
    game.arranged = True


def _check_cards(game: Game, fresh: list[list[Any]]) -> None:
    """COMP.4–7, SETUP: every card of the set in exactly one place, as a deal puts them."""
    from collections import Counter

    want = Counter(c for place in fresh for c in place if c is not None)
    have = Counter(c for place in [*_card_places(game), [game.special_slot]]
                   for c in place if c is not None)
    if have != want:
        missing = sorted((want - have).elements())
        extra = sorted((have - want).elements())
        raise PositionError(f"every card must be in exactly one place (COMP.4-7, SETUP): "
                            f"missing {missing[:8]}{'…' if len(missing) > 8 else ''}, "
                            f"extra or twice {extra[:8]}{'…' if len(extra) > 8 else ''}")


def _restore_rngs(game: Game, states: list[Any]) -> None:
    if len(states) != game.n + 1:
        raise PositionError(f"rngs must hold {game.n + 1} generator states (the game's and "
                            f"one per seat), got {len(states)}")
    for i, state in enumerate(states):
        ok = (isinstance(state, list) and len(state) == 3 and isinstance(state[1], list)
              and len(state[1]) == 625 and all(type(x) is int for x in state[1]))
        if not ok:
            raise PositionError(f"rngs[{i}] must be a generator state [version, 625 ints, "
                                f"gauss], as position() writes it")
        rng = game._random(i)
        try:
            rng.setstate((state[0], tuple(state[1]), state[2]))
        except (TypeError, ValueError, OverflowError) as exc:
            raise caused(PositionError(f"rngs[{i}] is not a generator state: {exc}"), None) from None


def _restore_where(game: Game, where: Mapping[str, Any]) -> None:
    if set(where) != {"decision", "handler", "stack"}:
        raise PositionError("where must have decision, handler and stack")
    try:
        stack = [continuations.decode_task(t) for t in _need(where, "stack", list, "where.")]
        decision = where["decision"]
        handler = where["handler"]
        if (decision is None) != (handler is None):
            raise PositionError("where.decision and where.handler come together")
        game.decision = None if decision is None else continuations.decode_decision(decision)
        game._pending = None if handler is None else (
            continuations.decode_task(handler)[0],
            tuple(continuations.decode_task(handler)[1:]))
    except continuations.ContinuationError as exc:
        raise caused(PositionError(f"where: {exc}"), None) from None
    d = game.decision
    if d is not None and not 0 <= d.player < game.n:
        raise PositionError(f"where.decision names seat {d.player}, not a seat of this game")
    game._stack = stack
