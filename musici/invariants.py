"""Checks that nothing impossible happened: used by tests and available to analysts."""

from __future__ import annotations

from collections import Counter
from typing import Any

from musici import events as ev
from musici.cards import (
    DISCOVERY_COUNT_PER_DECK,
    ORCHESTRA_COUNTS,
    PERMANENT_SPECIALS,
    SCORE_COUNT,
    SPECIAL_NAMES,
    STYLES,
)
from musici.economy import MONEY_UNIT, SETUP6_DISCOVERIES_PER_DECK, SETUP6_ORCHESTRAS, SETUP6_SCORES
from musici.engine import Game
from musici.engine.state import card_places
from musici.state import AREAS, PHASES

PHASE_ORDER = {"SETUP": 0, **{ph: i + 1 for i, ph in enumerate(PHASES)}, "END": len(PHASES) + 1}


class InvariantError(AssertionError):
    pass


def check_invariants(game: Game) -> None:
    """Raise :class:`InvariantError` naming the first broken invariant of ``game``'s state."""
    where = f"(seed {game.seed}, step {game.step}, month {game.month} {game.phase})"

    def fail(message: str) -> None:
        raise InvariantError(f"{message} {where}")

    cards = game.cards
    places: Counter[str] = Counter()
    for p in game.players:
        if p.money < 0:
            fail(f"seat {p.seat} has negative money {p.money}")
        if p.money % 5:
            fail(f"seat {p.seat} has {p.money} G, not a multiple of 5 (COMP.8)")
        if p.fame < 0 and game.rules.options["RULING-FAME-FLOOR"] == "zero":
            fail(f"seat {p.seat} has negative fame {p.fame} (P5.8)")
        for orch, m in p.markers.items():
            if not 1 <= m <= 2:
                fail(f"orchestra {orch} of seat {p.seat} holds {m} markers (P5.7)")
            if orch not in p.orchestras:
                fail(f"markers on {orch}, which seat {p.seat} does not employ")
        places.update(p.hand)
        places.update(p.played)
        places.update(p.orchestras)
        places.update(p.permanent)
        places.update(p.specials_hand)
        places.update(p.specials_discard)
    places.update(c for c in game.score_market if c is not None)
    places.update(c for c in game.orchestra_market if c is not None)
    places.update(game.score_deck)
    places.update(game.orchestra_deck)
    for deck in game.discovery_decks.values():
        places.update(deck)
    places.update(game.special_deck)
    if game.special_slot is not None:
        places.update([game.special_slot])
    places.update(game.out_of_game)
    every = [*cards.music, *cards.orchestras, *cards.specials]
    for card in every:
        if places[card] != 1:
            fail(f"card {card} is in {places[card]} places")
    extra = set(places) - set(every)
    if extra:
        fail(f"unknown cards in play: {sorted(extra)}")
    for card, seat in game.thief_marks.items():
        if card not in game.score_market:
            fail(f"Thief mark on {card}, which is not face up (P4.BUY.5)")
        if not 0 <= seat < game.n:
            fail(f"Thief mark by unknown seat {seat}")
    if not 1 <= game.month <= game.rules.months:
        fail(f"month {game.month} outside 1..{game.rules.months}")
    _check_places(game, fail)
    _check_table(game, fail)


def _kind(game: Game, card: str) -> str:
    """'score', 'discovery:<deck>', 'orchestra:<style>:<part>', 'permanent' or 'single-use'."""
    cards = game.cards
    if card in cards.music:
        music = cards.music[card]
        return "score" if music.kind == "score" else f"discovery:{music.deck}"
    if card in cards.orchestras:
        o = cards.orchestras[card]
        return f"orchestra:{o.style}:{o.part}"
    return "permanent" if card in PERMANENT_SPECIALS else "single-use"


def _check_places(game: Game, fail: Any) -> None:
    """COMP.4–7 counts, SETUP.6 removals, and every place holding only its kind of card."""
    cards = game.cards
    kinds = Counter(_kind(game, c) for c in [*cards.music, *cards.orchestras, *cards.specials])
    expected = Counter({"score": SCORE_COUNT, "permanent": len(PERMANENT_SPECIALS),
                        "single-use": len(SPECIAL_NAMES) - len(PERMANENT_SPECIALS)})
    for deck in STYLES:
        expected[f"discovery:{deck}"] = DISCOVERY_COUNT_PER_DECK
    for (style, part), count in ORCHESTRA_COUNTS.items():
        expected[f"orchestra:{style}:{part}"] = count
    if kinds != expected:
        fail(f"card set counts {dict(kinds)} differ from COMP.4-7 {dict(expected)}")
    removed = Counter(_kind(game, c) for c in game.out_of_game)
    should: Counter[str] = Counter()
    if game.n == 3:  # SETUP.6
        should["score"] = SETUP6_SCORES
        for deck in STYLES:
            should[f"discovery:{deck}"] = SETUP6_DISCOVERIES_PER_DECK
        for (style, part), count in SETUP6_ORCHESTRAS.items():
            should[f"orchestra:{style}:{part}"] = count
    if removed != should:
        fail(f"out of the game: {dict(removed)}, SETUP.6 removes {dict(should)} "
             f"with {game.n} players")
    in_play = expected - should
    held = Counter(_kind(game, c) for c in _in_play(game))
    if held != in_play:
        fail(f"cards in play by kind {dict(held)}, expected {dict(in_play)}")

    def only(where: str, items: Any, allowed: set[str]) -> None:
        for c in items:
            if c is not None and _kind(game, c) not in allowed:
                fail(f"{where} holds {c} ({_kind(game, c)})")

    music = {"score", *(f"discovery:{d}" for d in STYLES)}
    orchestras = {f"orchestra:{s}:{p}" for s, p in ORCHESTRA_COUNTS}
    specials = {"permanent", "single-use"}
    for p in game.players:
        only(f"hand of seat {p.seat}", p.hand, music)
        only(f"played cards of seat {p.seat}", p.played, music)
        only(f"orchestras of seat {p.seat}", p.orchestras, orchestras)
        only(f"permanent specials of seat {p.seat}", p.permanent, {"permanent"})
        only(f"special hand of seat {p.seat}", p.specials_hand, {"single-use"})
        only(f"special discard of seat {p.seat}", p.specials_discard, {"single-use"})
        bought = len(p.permanent) + len(p.specials_hand) + len(p.specials_discard)
        if p.specials_bought != bought:
            fail(f"seat {p.seat} bought {p.specials_bought} special cards but holds {bought}")
    only("the score market", game.score_market, {"score"})
    only("the score deck", game.score_deck, {"score"})
    only("the orchestra market", game.orchestra_market, orchestras)
    only("the orchestra deck", game.orchestra_deck, orchestras)
    for deck, pile in game.discovery_decks.items():
        only(f"the {deck} discovery deck", pile, {f"discovery:{deck}"})
    only("the special deck", [*game.special_deck, game.special_slot], specials)
    if len(game.score_market) != 4 or len(game.orchestra_market) != 4:
        fail("a market does not have 4 slots (COMP.2)")
    if game.score_deck and None in game.score_market:
        fail("an empty score slot while the score deck holds cards (P4.BUY.1)")
    if game.orchestra_deck and None in game.orchestra_market:
        fail("an empty orchestra slot while the orchestra deck holds cards (P4.HIRE.1)")
    if game.special_slot is None and game.special_deck:
        fail("no special card in the auction slot while the special deck holds cards (P1.6)")


def _in_play(game: Game) -> list[str]:
    """Every card in the game's declared card places (engine/state.py), the auction slot
    included, except those out of the game (SETUP.6)."""
    out = [c for place in card_places(game) if place is not game.out_of_game
           for c in place if c is not None]
    if game.special_slot is not None:
        out.append(game.special_slot)
    return out


def _check_table(game: Game, fail: Any) -> None:
    """Phase, round, venues, media, bids and this month's flags."""
    if game.phase not in PHASE_ORDER:
        fail(f"unknown phase {game.phase!r}")
    if not 0 <= game.round <= 3:
        fail(f"P4 round {game.round} outside 0..3 (P4.1)")
    if not 0 <= game.start_player < game.n:
        fail(f"start player {game.start_player} is not a seat")
    if game.decision is None and not game.finished:
        fail("no decision pending in an unfinished game")
    if game.decision is not None and not 0 <= game.decision.player < game.n:
        fail(f"decision for unknown seat {game.decision.player}")
    venues = {p.venue: p.seat for p in game.players if p.venue is not None}
    if venues != game.venues:
        fail(f"venues {game.venues} disagree with the players' location markers {venues} (P3.1)")
    if any(area not in AREAS for area in venues):
        fail(f"unknown area among {sorted(venues)}")
    for name, seat in (("media holder", game.media), ("free chapel", game.chapel_free)):
        if seat is not None and not 0 <= seat < game.n:
            fail(f"{name} {seat} is not a seat")
    for p in game.players:
        if p.actions > 3 or (game.phase == "P4" and p.actions > game.round):
            fail(f"seat {p.seat} performed {p.actions} actions by round {game.round} (P4.1)")
        if p.concert is not None and (p.concert["card"] not in p.played or p.venue is None):
            fail(f"seat {p.seat} holds a concert without a played card or a venue (P4.CONCERT.1)")
        if len(set(p.orchestras)) != len(p.orchestras):
            fail(f"seat {p.seat} employs an orchestra twice")
    if game.phase == "P2" and game.decision is not None and game.decision.kind == "media_bid":
        step = game.rules.options["RULING-MEDIA-STEP"]
        for seat, bid in game.media_bids.items():
            if not 0 <= bid <= game.players[seat].money or bid % step:
                fail(f"sealed media bid {bid} of seat {seat} is not legal (P2.1, P2.6)")
    if game.finished:
        res = game.results
        assert res is not None
        if res["fame"] and game.rules.options["RULING-FAME-FLOOR"] == "zero" \
                and min(res["fame"]) < 0:
            fail(f"negative final fame {res['fame']} (P5.8)")
        if not res["winners"]:
            fail("a finished game without a winner (END.WIN)")


def check_events(game: Game, since: int = 0, last: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    """Check the events from index ``since``: (month, phase) never goes back (MONTH.1), the
    amounts they report stay legal (money >= 0, fame >= 0 under P5.8, markers 1..2) and
    private events name real seats. Returns the last (month, phase order) for the next call."""
    floor = game.rules.options["RULING-FAME-FLOOR"] == "zero"
    months = game.rules.months
    for index in range(since, len(game.events)):
        e = game.events[index]

        def fail(message: str, e: Any = e, index: int = index) -> None:
            raise InvariantError(f"{message} (seed {game.seed}, event {index}: {e!r})")

        if e.phase not in PHASE_ORDER:
            fail(f"unknown phase {e.phase!r}")
        if not 1 <= e.month <= months:
            fail(f"month {e.month} outside 1..{months}")
        order = (e.month, PHASE_ORDER[e.phase])
        if order < last:
            fail(f"event out of order after {last} (MONTH.1)")
        last = order
        if e.player is not None and not 0 <= e.player < game.n:
            fail("event of an unknown seat")
        if e.private is not None and any(not 0 <= s < game.n for s in e.private):
            fail("private event for an unknown seat")
        if isinstance(e, ev.Pay | ev.Income):
            if e.money < 0 or e.amount < 0 or e.amount % MONEY_UNIT:
                fail(f"payment leaves negative money or is not a multiple of {MONEY_UNIT} G (COMP.8)")
        elif isinstance(e, ev.Fame) and floor and e.fame < 0:
            fail("fame below 0 (P5.8)")
        elif isinstance(e, ev.Marker) and not 1 <= e.markers <= 2:
            fail("an orchestra with more than 2 markers (P5.7)")
    return last


def check_replay(game: Game) -> None:
    """Every recorded answer was legal: a fresh game with the same inputs accepts each one as
    it stands (``decision.normalize`` returns it unchanged) and ends with the same events."""
    fresh = Game(players=game.n, seed=game.seed, rules=game.rules, cards=game.cards)
    for step, answer in enumerate(game.answers):
        decision = fresh.decision
        if decision is None:
            raise InvariantError(f"answer {step} of seed {game.seed} comes after the end")
        value = decision.normalize(answer)  # raises IllegalAnswer
        if value != answer or type(value) is not type(answer):
            raise InvariantError(f"answer {step} of seed {game.seed} was recorded as {answer!r}, "
                                 f"not in its canonical form {value!r}")
        fresh.answer(answer)
    if [e.to_dict() for e in fresh.events] != [e.to_dict() for e in game.events]:
        raise InvariantError(f"replaying the answers of seed {game.seed} gives other events")
