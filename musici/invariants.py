"""Checks that nothing impossible happened: used by tests and available to analysts."""

from __future__ import annotations

from collections import Counter

from musici.engine import Game


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
