"""Resampling hidden information: a full game consistent with what one seat sees.

The engine owns this (as OpenSpiel's ``resample_from_infostate``): it alone knows what is
hidden, and it alone writes the generators and sealed bids of the sample.

A search bot may not look at hidden information, but it can plan in *possible worlds*:
games that agree with its view and fill in everything it cannot see at random. This is the
"determinization" of determinized Monte Carlo and information-set MCTS.

:func:`resample` depends only on the view and the generator it is given: every hidden
pool is gathered, sorted into a canonical order and then dealt out with that generator, so
two games that differ only in hidden information give identical samples.

What is re-dealt (the counts in each place stay as the seat sees them):

- other players' hands, the score deck, the two discovery decks and the face-down 3-player
  removals (SETUP.6): every hidden card keeps its back (score, authentic or modern, which
  everyone can see, COMP.7 and P4.DISCOVER.1) and gets a front drawn from the hidden cards
  with that back;
- the orchestra deck and the special deck (shuffled);
- other players' sealed media bids (P2.1), replaced by random legal bids;
- the game's chance generator and every other seat's generator (fresh seeds).

Approximations, kept because they are cheap and rarely matter: a card a player bought
face up (so its front is known) may be dealt elsewhere in the sample, and cards put under a
deck (P1.5, released orchestras) are shuffled with the rest.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from musici import draws
from musici.cards import BACKS

if TYPE_CHECKING:
    from musici.engine.game import Game


def resample(
    real: Game, seat: int, rng: random.Random, media_bid: Callable[[Game, int], int] | None = None
) -> Game:
    """A game that ``seat`` cannot tell from ``real``, hidden parts drawn with ``rng``.

    ``media_bid(world, other)`` models the sealed bid of a seat that bid before ``seat`` in
    this P2 (default: a uniformly random legal bid). The result is an independent game
    without an event log; play it on with any strategies.
    """
    game = real.clone(keep_log=False)
    cards = game.cards.music
    others = [p for p in game.players if p.seat != seat]

    back = game.cards.back  # public (COMP.7, P4.DISCOVER.1)
    removed_other = [c for c in game.out_of_game if c not in cards]
    removed = {b: [c for c in game.out_of_game if c in cards and back(c) == b] for b in BACKS}
    decks = {"score": game.score_deck, **game.discovery_decks}
    # Each hidden place keeps its size and its backs; only the fronts are re-dealt. Hands are
    # rebuilt in back order, since the order of a hand's backs could hint at which card went.
    counts = [[sum(back(c) == b for c in p.hand) for b in BACKS] for p in others]
    new_hands: list[list[str]] = [[] for _ in others]
    for k, b in enumerate(BACKS):
        pool = decks[b] + removed[b] + [c for p in others for c in p.hand if back(c) == b]
        pool.sort()
        draws.shuffle(rng, pool)
        n_deck, n_removed = len(decks[b]), len(removed[b])
        decks[b][:] = pool[:n_deck]
        removed[b][:] = pool[n_deck : n_deck + n_removed]
        start = n_deck + n_removed
        for hand, count in zip(new_hands, counts, strict=True):
            hand.extend(pool[start : start + count[k]])
            start += count[k]
    for p, hand in zip(others, new_hands, strict=True):
        p.hand = hand
    game.out_of_game = removed_other + removed["score"] + removed["authentic"] + removed["modern"]

    for deck in (game.orchestra_deck, game.special_deck):
        deck.sort()
        draws.shuffle(rng, deck)

    if game.phase == "P2" and game._media_bids:
        step = game.rules.options["RULING-MEDIA-STEP"]
        game._media_bids = {
            other: (bid if other == seat
                    else draws.randbelow(rng, game.players[other].money // step + 1) * step)
            for other, bid in game._media_bids.items()
        }

    # Fresh chance: the real game's future draws must not leak into the sample.
    game._rngs = [None] * len(game._rngs)
    game._rng_states = [random.Random(rng.getrandbits(64)).getstate() for _ in range(len(game._rngs))]
    if media_bid is not None and game.phase == "P2":
        # The model sees the finished sample (its chance drawn), as a rollout would.
        step = game.rules.options["RULING-MEDIA-STEP"]
        bids = dict(game._media_bids)
        for other in bids:
            if other == seat:
                continue
            bid = media_bid(game, other)
            if type(bid) is not int or not 0 <= bid <= game.players[other].money or bid % step:
                raise ValueError(
                    f"media_bid model gave {bid!r} for seat {other}: not a legal "
                    f"sealed bid (0..{game.players[other].money} in steps of "
                    f"{step}; P2.1, P2.6)"
                )
            bids[other] = bid
        game._media_bids = bids
    return game
