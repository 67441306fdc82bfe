"""What a seat can reach this month: for each card in its hand, the best concert its
orchestras (and the orchestras it can still hire from this month's market) give at a venue.

This is the planner a learner reads at the venue decision (P3.1), the concert-card decision
(P4.CONCERT.1) and the hire decision (P4.HIRE.1): "University Hall: S11 with your 2
authentic: good, +4 fame, 225 G". Only the seat's view is read (its hand, orchestras,
markers, money, the face-up orchestra market); every rating, fame and income is
:func:`musici.scoring.concert_outcome` of a line-up built by :func:`musici.scoring.lineup`,
with the card set's tour terms, and every price is the card's (``OrchestraCard.price``,
:func:`musici.economy.poach_price`): nothing is re-derived here.

Example::

    from musici import Game
    from musici.analysis.reach import area_reach, reach_words

    game = Game(4, seed=3)
    ...                                  # play to a venue decision of seat 0
    for r in area_reach(game.view(0), "university"):
        print(reach_words(game.view(0), r))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from musici import economy as E
from musici import rating as R
from musici import scoring
from musici.cards import STYLES, VIRTUOSOS, MusicCard

if TYPE_CHECKING:
    from musici.decisions import Decision
    from musici.views import PlayerView

# A rating's rank, for "the best line-up" on equal fame (a good concert over a fair one).
_LEVEL_RANK = {R.POOR: 0, R.FAIR: 1, R.GOOD: 2}


@dataclass(frozen=True, slots=True)
class Reach:
    """The best concert of ``card`` at ``area`` the seat can reach (``outcome`` is ``None``
    when nothing can play it: no orchestra owned or affordable on the market)."""

    card: str
    area: str | None  # None: no venue chosen yet (no tour, no capacity limit)
    style: str | None  # the orchestras' style (P4.CONCERT.3)
    items: tuple[str, ...]  # the seat's own orchestras and virtuosos brought
    hires: tuple[str, ...]  # orchestras hired first this month (P4.HIRE.1 / P4.HIRE.2)
    hire_cost: int  # what those hires cost, G
    outcome: scoring.ConcertOutcome | None
    limits: tuple[str, ...] = ()  # why it is not better, in words (empty when good)
    joining: tuple[str, ...] = ()  # of ``items``: those about to join (``extra``: a hire now)

    @property
    def playable(self) -> bool:
        return self.outcome is not None

    @property
    def rating(self) -> str | None:
        return None if self.outcome is None else self.outcome.rating.level

    @property
    def fame(self) -> int | None:
        """The concert's fame after RESTORE.4 and P3.TOUR (the concert event's ``fame``)."""
        return None if self.outcome is None else self.outcome.fame

    @property
    def income(self) -> int | None:
        """The concert's income after P3.TOUR (the concert event's ``income``)."""
        return None if self.outcome is None else self.outcome.income


class _Pool:
    """The performers one seat can bring, by style and part: its own (fewest markers
    first) and the market's it can afford (cheapest first)."""

    def __init__(self, view: PlayerView, extra: Sequence[tuple[str, int]] = (),
                 market: Sequence[tuple[str, int]] = ()) -> None:
        cards = view.cards
        me = view.me
        marks = dict(me.markers)
        own = [(o, marks.get(o, 0)) for o in me.orchestras]
        own += [(v, 0) for v in me.permanent if v in VIRTUOSOS]  # SPECIAL.P3/P4
        own += list(extra)
        self.own: dict[tuple[str, str], list[tuple[str, int]]] = {}
        for item, m in sorted(own, key=lambda x: x[1]):
            self.own.setdefault(cards.performer(item), []).append((item, m))
        self.market: dict[tuple[str, str], list[tuple[str, int]]] = {}
        for item, price in sorted(market, key=lambda x: x[1]):
            self.market.setdefault(cards.performer(item), []).append((item, price))

    def owned(self, style: str, part: str) -> list[tuple[str, int]]:
        return self.own.get((style, part), [])

    def offered(self, style: str, part: str) -> list[tuple[str, int]]:
        return self.market.get((style, part), [])


def hires_left(view: PlayerView) -> int:
    """Hires the seat can still make before its concert this month after the action under
    way (P4.1: one action a round, three rounds; the concert takes one): two before P4 (at
    the venue decision), then one fewer each round; none once the concert is given."""
    if view.me.concert or view.phase in ("P5", "END"):
        return 0
    if view.phase != "P4":
        return E.ACTION_ROUNDS - 1
    return max(0, E.ACTION_ROUNDS - max(view.round, 1) - 1)


def market_offers(view: PlayerView) -> list[tuple[str, int]]:
    """(orchestra, price) of the face-up orchestras (P4.HIRE.1, the card's price)."""
    cards = view.cards
    return [(o, cards.orchestras[o].price) for o in view.orchestra_market if o is not None]


def card_reach(view: PlayerView, card_id: str, area: str | None, *, hires: int | None = None,
               extra: Sequence[tuple[str, int]] = (), money: int | None = None,
               market: Sequence[tuple[str, int]] | None = None,
               _memo: dict[tuple[Any, ...], scoring.ConcertOutcome] | None = None) -> Reach:
    """The best concert of ``card_id`` at ``area`` (``None``: before a venue, no tour and
    no capacity limit): the seat's orchestras plus up to ``hires`` (default
    :func:`hires_left`) of ``market`` (default the face-up orchestras) within ``money``
    (default the seat's). ``extra``: (orchestra, markers) counted as the seat's own (an
    orchestra it is about to hire). Best: the most fame before the venue (card fame and
    restoration after RESTORE.4), then the better rating (after the media, then before it,
    then fewer RATE conditions holding), then the cheaper hires, then fewer orchestras."""
    cards, rules = view.cards, view.rules
    if card_id not in cards.music:
        raise KeyError(f"{card_id!r} is not a music card of this card set")
    if area is not None and area not in E.AREAS:
        raise ValueError(f"unknown area {area!r}; the areas are {', '.join(E.AREAS)}")
    card = cards.music[card_id]
    me = view.me
    hires = hires_left(view) if hires is None else hires
    money = me.money if money is None else money
    offers = market_offers(view) if market is None else list(market)
    pool = _Pool(view, extra, [o for o in offers if o[1] <= money] if hires else ())
    room = E.capacity(area) if area is not None else None
    restore = scoring.restoration(cards, rules, card, me.played, me.permanent)
    media = view.media == view.seat
    memo = {} if _memo is None else _memo
    best: tuple[tuple[int, ...], str, tuple[str, ...], tuple[str, ...], int] | None
    best = None
    for style in STYLES:
        own_i, own_v = pool.owned(style, "instrumental"), pool.owned(style, "vocal")
        mk_i, mk_v = pool.offered(style, "instrumental"), pool.offered(style, "vocal")
        cost_i = [0, *accumulate(p for _, p in mk_i)]
        cost_v = [0, *accumulate(p for _, p in mk_v)]
        marks_i = [0, *accumulate(m for _, m in own_i)]
        marks_v = [0, *accumulate(m for _, m in own_v)]
        for hi in range(min(hires, len(mk_i)) + 1):
            for hv in range(min(hires - hi, len(mk_v)) + 1):
                cost = cost_i[hi] + cost_v[hv]
                if cost > money:
                    continue
                for oi in range(len(own_i) + 1):
                    for ov in range(len(own_v) + 1):
                        n = oi + ov + hi + hv
                        if n == 0 or (room is not None and n > room):
                            continue
                        brought = (oi + hi, ov + hv)
                        markers = marks_i[oi] + marks_v[ov]
                        key = (card_id, style, brought, markers)
                        out = memo.get(key)
                        if out is None:  # RATE, RESTORE: the engine's own arithmetic
                            out = scoring.concert_outcome(card, style, brought, markers,
                                                          rules=rules, venue=None, media=media,
                                                          restore=restore, tours=cards.tours)
                            memo[key] = out
                        rating = out.rating  # on equal fame: fewer conditions against it
                        rank = (out.total, _LEVEL_RANK[rating.level],
                                _LEVEL_RANK[rating.base_level], -len(rating.reasons), -cost, -n)
                        if best is None or rank > best[0]:
                            items = tuple(i for i, _ in (*own_i[:oi], *own_v[:ov]))
                            hired = tuple(i for i, _ in (*mk_i[:hi], *mk_v[:hv]))
                            best = (rank, style, items, hired, cost)
    if best is None:
        return Reach(card_id, area, None, (), (), 0, None,
                     ("no orchestra to play it: none owned"
                      + (", none on the market you can afford" if hires else
                         ", and no hire left before the concert"),))
    _, style, items, hired, cost = best
    chosen = (*items, *hired)
    # The whole outcome at the venue, from the line-up as the engine would read it.
    marks = dict(me.markers)
    marks.update(dict(extra))
    got_style, brought, markers = scoring.lineup(cards, chosen, marks)
    outcome = scoring.concert_outcome(card, got_style, brought, markers, rules=rules,
                                      venue=area, media=media, restore=restore,
                                      tours=cards.tours)
    limits = () if outcome.rating.level == R.GOOD else _limits(view, card, pool, room, hires,
                                                              outcome)
    joining = tuple(i for i in items if i in dict(extra))
    return Reach(card_id, area, got_style, items, hired, cost, outcome, limits, joining)


def _limits(view: PlayerView, card: MusicCard, pool: _Pool, room: int | None, hires: int,
            outcome: scoring.ConcertOutcome) -> tuple[str, ...]:
    """Why the best line-up is not good: per style the card has, what it needs against
    what the seat owns and can hire; the hall's room; the media's lift (the rating's
    conditions themselves are ``outcome.rating.reasons``)."""
    out = []
    for style in STYLES:
        if not card.has_style(style):
            continue
        need = card.requirement(style)
        own = (len(pool.owned(style, "instrumental")), len(pool.owned(style, "vocal")))
        mk = (len(pool.offered(style, "instrumental")), len(pool.offered(style, "vocal")))
        text = (f"{style} needs {need[0]} instrumental + {need[1]} vocal orchestra(s): "
                f"you own {own[0]} + {own[1]}")
        if hires:
            text += f", the market offers {mk[0]} + {mk[1]} you can afford"
        out.append(text)
    if room is not None:
        out.append(f"room for {room} orchestra(s) here")
    if outcome.rating.level != outcome.rating.base_level:
        out.append(f"the media lifts it from {outcome.rating.base_level}")
    return tuple(out)


def area_reach(view: PlayerView, area: str | None, *, hires: int | None = None,
               extra: Sequence[tuple[str, int]] = (), money: int | None = None,
               hand: Sequence[str] | None = None,
               _memo: dict[tuple[Any, ...], scoring.ConcertOutcome] | None = None
               ) -> list[Reach]:
    """:func:`card_reach` of every card in the seat's hand (or ``hand``) at ``area``, best
    first: the most fame at the venue, then income, then the cheaper hires."""
    memo = {} if _memo is None else _memo
    cards = view.hand if hand is None else hand
    found = [card_reach(view, c, area, hires=hires, extra=extra, money=money, _memo=memo)
             for c in cards]
    return sorted(found, key=_order)


def _order(r: Reach) -> tuple[int, int, int, int]:
    if r.outcome is None:
        return (1, 0, 0, 0)
    return (0, -r.outcome.fame, -r.outcome.income, r.hire_cost)


def venue_reach(view: PlayerView, areas: Sequence[str] | None = None) -> dict[str, list[Reach]]:
    """:func:`area_reach` at every area in ``areas`` (default all eight, P3.1)."""
    memo: dict[tuple[Any, ...], scoring.ConcertOutcome] = {}
    return {a: area_reach(view, a, _memo=memo) for a in (E.AREAS if areas is None else areas)}


def hire_reach(view: PlayerView, orchestra: str) -> list[Reach]:
    """The hand's concerts this month at the seat's venue if it hires ``orchestra`` now
    (paying its price; a poached orchestra keeps its markers unless RULING-POACH-MARKERS
    returns them), with the hires still left after this one."""
    cards = view.cards
    if orchestra not in cards.orchestras:
        raise KeyError(f"{orchestra!r} is not an orchestra card of this card set")
    price = cards.orchestras[orchestra].price
    markers = 0
    if orchestra not in view.orchestra_market:
        owner_marks = [dict(p.markers).get(orchestra, 0) for p in view.players
                       if orchestra in p.orchestras]
        markers = owner_marks[0] if owner_marks else 0
        price = E.poach_price(price, markers)  # P4.HIRE.2
        if view.rules.options["RULING-POACH-MARKERS"] != "stay":
            markers = 0
    left = hires_left(view)  # this hire is the round's action
    market = [o for o in market_offers(view) if o[0] != orchestra]
    memo: dict[tuple[Any, ...], scoring.ConcertOutcome] = {}
    return sorted((card_reach(view, c, view.me.venue, hires=left, extra=[(orchestra, markers)],
                              money=view.me.money - price, market=market, _memo=memo)
                   for c in view.hand), key=_order)


def decision_reach(view: PlayerView, decision: Decision, option: Any) -> list[Reach] | None:
    """The reach behind ``option`` of a planning decision (venue, concert card, hire), best
    first; ``None`` for any other decision."""
    kind = decision.kind
    if kind == "venue" and option in E.AREAS:
        return area_reach(view, option)
    if kind == "concert_card" and isinstance(option, str) and option in view.cards.music:
        return [card_reach(view, option, view.me.venue, hires=0)]
    if kind == "hire" and isinstance(option, str) and option in view.cards.orchestras:
        return hire_reach(view, option)
    return None


def _count_words(cards: Any, items: Sequence[str]) -> str:
    by: dict[tuple[str, str], int] = {}
    for item in items:
        key = cards.performer(item)
        by[key] = by.get(key, 0) + 1
    return " + ".join(f"{n} {style} {part}" for (style, part), n in sorted(by.items()))


def short_name(view: PlayerView, card_id: str) -> str:
    """"S18 (Beethoven)": the card id and its composer's surname, for one-line notes."""
    card = view.cards.music[card_id]
    return f"{card_id} ({view.cards.composers[card.composer].name.split()[-1]})"


def reach_words(view: PlayerView, r: Reach, *, name: bool = True) -> str:
    """One short line: "S11 (Bach) with your 2 authentic instrumental, then hiring 1
    authentic vocal (150 G): good, +4 fame, 225 G" ("with it + your ..." for an orchestra
    about to be hired); or why nothing can play the card."""
    cards = view.cards
    head = short_name(view, r.card) if name else ""
    if r.outcome is None:
        return f"{head}: cannot be played: {r.limits[0]}" if head else \
            f"cannot be played: {r.limits[0]}"
    own = [i for i in r.items if i not in r.joining]
    who = []
    if r.joining:
        who.append("it")
    if own:
        who.append(f"your {_count_words(cards, own)}")
    line = " + ".join(who)
    if r.hires:
        hiring = f"hiring {_count_words(cards, r.hires)} ({r.hire_cost} G)"
        line = f"{line}, then {hiring}" if line else hiring
    out = r.outcome
    line = f"{line}: {out.rating.level}, {out.fame:+d} fame, {out.income} G"
    return f"{head} with {line}" if head else f"with {line}"


__all__ = ["Reach", "area_reach", "card_reach", "decision_reach", "hire_reach", "hires_left",
           "market_offers", "reach_words", "short_name", "venue_reach"]
