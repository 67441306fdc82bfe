"""A simple greedy bot: plans this month's concert and answers everything else cheaply.

Plan: keep a card in hand whose requirement its orchestras can meet, rent the cheapest hall
that holds them, hire the orchestras the best card still lacks, and play the concert that
rates best. It bids little for the media and for special cards. It is a baseline for
balance checks and the rollouts of the search bot, not a strong player (impresario, merchant
and collector are).
"""

from __future__ import annotations

from typing import Final

from musici import draws, scoring
from musici import economy as E
from musici.cards import STYLES, VIRTUOSOS, MusicCard
from musici.decisions import Answer, Decision
from musici.strategies._plans import NO_LIMIT, STYLE_PREFERENCE, ConcertForecast
from musici.views import PlayerView

MAX_ORCHESTRAS: Final = 6
NO_CONCERT: Final = -99  # the value of "no playable lineup", below any card's fame


def _style_of(view: PlayerView, item: str) -> str:
    return view.cards.performer(item)[0]


def _part_of(view: PlayerView, item: str) -> str:
    return view.cards.performer(item)[1]


def _pick(view: PlayerView, card: MusicCard, items: list[str], style: str,
          capacity: int) -> tuple[list[str], scoring.ConcertOutcome | None]:
    """Orchestras of ``style`` to bring for ``card`` and the engine's outcome for them at
    this seat's venue (RATE under RULING-STYLE, RESTORE, the RESTORE.4 cap, P3.TOUR)."""
    me = view.me
    markers = dict(me.markers)
    need_i, need_v = card.requirement(style)
    pool = sorted((i for i in items if _style_of(view, i) == style),
                  key=lambda i: markers.get(i, 0))
    chosen: list[str] = []
    for part, need in (("instrumental", need_i), ("vocal", need_v)):
        for item in [i for i in pool if _part_of(view, i) == part][:need]:
            if len(chosen) < capacity and markers.get(item, 0) == 0:
                chosen.append(item)
    if not chosen:
        chosen = pool[:1]
    if not chosen:
        return [], None
    _, brought, marks = scoring.lineup(view.cards, chosen, markers)
    restore = scoring.restoration(view.cards, view.rules, card, me.played, me.permanent)
    out = scoring.concert_outcome(card, style, brought, marks, rules=view.rules, venue=me.venue,
                                  media=view.media == view.seat, restore=restore,
                                  tours=view.cards.tours)
    return chosen, out


def _value(out: scoring.ConcertOutcome | None) -> int:
    """What the greedy bot ranks concerts by: card fame plus restoration, before any tour."""
    return NO_CONCERT if out is None else out.total


def _best_concert(view: PlayerView, capacity: int) -> tuple[str | None, list[str], int]:
    me = view.me
    items = [*me.orchestras, *(c for c in me.permanent if c in VIRTUOSOS)]
    best: tuple[str | None, list[str], int] = (None, [], NO_CONCERT)
    for card_id in view.hand:
        card = view.cards.music[card_id]
        for style in STYLES:
            chosen, out = _pick(view, card, items, style, capacity)
            if chosen and _value(out) > best[2]:
                best = (card_id, chosen, _value(out))
    return best


def _capacity(view: PlayerView) -> int:
    venue = view.me.venue
    return (E.capacity(venue) if venue is not None else None) or NO_LIMIT


def greedy_forecast(view: PlayerView, decision: Decision) -> ConcertForecast | None:
    """For a ``concert_orchestras`` decision: the orchestras the greedy bot brings and the
    concert it expects the engine to record (rating, fame and income after P3.TOUR)."""
    card = view.cards.music[decision.info["card"]]
    best: tuple[list[str], scoring.ConcertOutcome | None] = ([], None)
    for style in sorted(set(decision.groups)):
        chosen, out = _pick(view, card, list(decision.items), style, decision.max_size)
        if chosen and _value(out) > _value(best[1]):
            best = (chosen, out)
    chosen, out = best
    if out is None:
        return None
    return ConcertForecast(tuple(chosen), out.rating.level, out.fame, out.income)


def _target(view: PlayerView) -> tuple[MusicCard, str] | None:
    """The card in hand worth staffing, with the style to play it in."""
    best: tuple[float, MusicCard, str] | None = None
    for card_id in view.hand:
        card = view.cards.music[card_id]
        for style in STYLE_PREFERENCE:
            if not card.has_style(style):
                continue
            need = sum(card.requirement(style))
            # Fame per G of monthly salary (P4.HIRE.3): authentic players cost more.
            score = card.fame[0] / (need * E.SALARY[style])
            if best is None or score > best[0]:
                best = (score, card, style)
    return None if best is None else (best[1], best[2])


def _wanted_orchestra(view: PlayerView) -> tuple[str, str] | None:
    """(style, part) the target card still lacks."""
    target = _target(view)
    if target is None:
        return None
    card, style = target
    have: dict[str, int] = {"instrumental": 0, "vocal": 0}
    for o in view.me.orchestras:
        if _style_of(view, o) == style:
            have[_part_of(view, o)] += 1
    for part, n in zip(("instrumental", "vocal"), card.requirement(style), strict=True):
        if have[part] < n:
            return style, part
    return None


def greedy_strategy(view: PlayerView, decision: Decision) -> Answer:
    """Answer ``decision`` greedily (see the module docstring)."""
    kind, rng, me = decision.kind, view.rng, view.me
    if kind == "auction":
        cheap = decision.info.get("bid", 999) <= 200 and me.money >= 900
        return "bid" if cheap and "bid" in decision.options else "pass"
    if kind == "media_bid":
        return min(decision.hi, decision.step * draws.randbelow(rng, 8))
    if kind == "venue":
        if me.money < 250:
            for tour in ("large-commercial", "small-commercial"):
                if tour in decision.options:
                    return tour
        target = _target(view)
        need = sum(target[0].requirement(target[1])) if target else 1
        need = min(need, len(me.orchestras) + 2)
        for hall in E.HALLS:  # P3.HALL: smallest first
            if hall in decision.options and (E.capacity(hall) or NO_LIMIT) >= need:
                return hall
        return decision.options[0]
    if kind == "action":
        options = decision.options
        card, _, fame = _best_concert(view, _capacity(view))
        last_round = decision.info.get("round") == 3
        if not view.hand and "buy" in options:
            return "buy"
        if "concert" in options and card and (fame >= 3 or (last_round and fame > 0)):
            return "concert"
        want = _wanted_orchestra(view)
        matching = want is not None and any(
            o is not None and (_style_of(view, o), _part_of(view, o)) == want
            for o in view.orchestra_market)
        if "hire" in options and len(me.orchestras) < MAX_ORCHESTRAS and (
                (matching and me.money >= 400) or (len(me.orchestras) < 2 and me.money >= 250)):
            return "hire"
        if "appease" in options and me.money > 400:
            return "appease"
        if "special" in options:
            return "special"
        if len(view.hand) < 2 and "buy" in options and me.money >= 300:
            return "buy"
        if "discover" in options and me.money >= 900 and len(me.played) >= 2:
            return "discover"
        return "pass"
    if kind == "concert_card":
        card, _, _ = _best_concert(view, _capacity(view))
        return card if card in decision.options else decision.options[0]
    if kind == "concert_orchestras":
        forecast = greedy_forecast(view, decision)
        return forecast.items if forecast is not None else decision.random_answer(rng)
    if kind == "hire":
        want = _wanted_orchestra(view)
        market = [o for o in decision.options if o in view.orchestra_market]
        for o in market:
            if want and (_style_of(view, o), _part_of(view, o)) == want:
                return o
        for o in market:  # the right part in the cheaper (modern) style
            if want and (_style_of(view, o), _part_of(view, o)) == ("modern", want[1]):
                return o
        return min(market, key=lambda o: view.cards.orchestras[o].price) if market \
            else decision.options[0]
    if kind == "buy":
        market = [c for c in decision.options if not c.startswith("player:")]
        if market:
            return max(market, key=lambda c: view.cards.music[c].fame[0])
        return decision.options[0]
    if kind == "buy_price":
        return min(decision.hi, 100)
    if kind == "sell":
        return "decline"
    if kind == "poach_consent":
        return "agree"
    if kind == "salaries":
        return decision.random_answer(rng)
    return decision.random_answer(rng)


__all__ = ["greedy_forecast", "greedy_strategy"]
