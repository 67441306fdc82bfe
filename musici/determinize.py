"""Sample a full game consistent with what one seat sees (for search bots).

A search bot may not look at hidden information, but it can plan in *possible worlds*:
games that agree with its view and fill in everything it cannot see at random. This is the
"determinization" of determinized Monte Carlo and information-set MCTS.

:func:`determinize` depends only on the view and the generator it is given: every hidden
pool is gathered, sorted into a canonical order and then dealt out with that generator, so
two games that differ only in hidden information give identical samples.

What is re-dealt (the counts in each place stay as the seat sees them):

- other players' hands, the score deck, the two discovery decks and the face-down 3-player
  removals (SETUP.6): score cards may only go to the score deck and the score removals,
  discovery cards only to their own deck and removals; hands take whatever is left;
- the orchestra deck and the special deck (shuffled);
- other players' sealed media bids (P2.1), replaced by random legal bids;
- the game's chance generator and every other seat's generator (fresh seeds).

Approximations, kept because they are cheap and rarely matter: a card a player bought
face up (public) may be dealt elsewhere in the sample, and cards put under a deck (P1.5,
released orchestras) are shuffled with the rest.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from musici.engine import Game
    from musici.views import PlayerView


def _deal_typed(rng: random.Random, pool: list[str], slots: list[list[str]]) -> list[str]:
    """Fill each slot (kept at its length) from ``pool``; return the cards left over."""
    pool = sorted(pool)
    rng.shuffle(pool)
    for slot in slots:
        n = len(slot)
        slot[:] = pool[:n]
        del pool[:n]
    return pool


def determinize(view: PlayerView, rng: random.Random) -> Game:
    """A game that ``view.seat`` cannot tell from the real one, hidden parts drawn with ``rng``.

    The result is an independent game without an event log; play it on with any strategies.
    """
    real = view._game  # trusted: this module belongs to the engine layer
    seat = view.seat
    game = real.clone(keep_log=False)
    cards = game.cards.music
    others = [p for p in game.players if p.seat != seat]

    removed_scores = [c for c in game.out_of_game if c in cards and cards[c].kind == "score"]
    removed_disc = {d: [c for c in game.out_of_game if c in cards and cards[c].deck == d]
                    for d in ("authentic", "modern")}
    removed_other = [c for c in game.out_of_game if c not in cards]
    hidden = [c for p in others for c in p.hand]
    hidden += game.score_deck + removed_scores
    for d in ("authentic", "modern"):
        hidden += game.discovery_decks[d] + removed_disc[d]

    scores = [c for c in hidden if cards[c].kind == "score"]
    leftover = _deal_typed(rng, scores, [game.score_deck, removed_scores])
    for d in ("authentic", "modern"):
        pile = [c for c in hidden if cards[c].kind == "discovery" and cards[c].deck == d]
        leftover += _deal_typed(rng, pile, [game.discovery_decks[d], removed_disc[d]])
    _deal_typed(rng, leftover, [p.hand for p in others])
    game.out_of_game = removed_other + removed_scores + removed_disc["authentic"] + removed_disc["modern"]

    for deck in (game.orchestra_deck, game.special_deck):
        deck.sort()
        rng.shuffle(deck)

    if game.phase == "P2" and game._media_bids:
        step = game.rules.options["RULING-MEDIA-STEP"]
        game._media_bids = {
            other: bid if other == seat
            else rng.randrange(game.players[other].money // step + 1) * step
            for other, bid in game._media_bids.items()
        }

    # Fresh chance: the real game's future draws must not leak into the sample.
    game._rngs = [None] * len(game._rngs)
    game._rng_states = [random.Random(rng.getrandbits(64)).getstate()
                        for _ in range(len(game._rngs))]
    return game


__all__ = ["determinize"]
