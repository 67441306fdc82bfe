"""Candidate answers for the information-set search bot (:mod:`musici.strategies.ismcts`).

A search can only compare a handful of answers. For a choice those are its options (the
heuristic answers first); for an amount a few round bids; for a subset decision, whose
answer space grows with the roster, a small generator gives the heuristics' answer plus a
few meaningful variants (P4.CONCERT.2 lineups per style, P5.3 payment orders, P4.APPEASE.1
sizes). Every candidate is checked with :meth:`Decision.normalize` and duplicates are
dropped, so what comes out is legal and distinct, the ``first`` answers leading.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from musici.decisions import Answer, Decision, IllegalAnswer, Kind
from musici.strategies._plans import STYLE_PREFERENCE, Planner, performers
from musici.views import PlayerView

AMOUNTS = (0, 50, 100, 150, 250)  # round media bids (P2.1) besides the heuristics' own
_PLANNER = Planner()  # lineup arithmetic only (no weights of a particular bot are used)


def _legal_distinct(decision: Decision, answers: Iterable[Answer]) -> list[Answer]:
    out: list[Answer] = []
    for answer in answers:
        if answer is None:
            continue
        try:
            value = decision.normalize(answer)
        except IllegalAnswer:
            continue
        if value not in out:
            out.append(value)
    return out


def choice_candidates(decision: Decision, first: Sequence[Answer], limit: int) -> list[Answer]:
    """``first`` (the policies' answers), then the other options in order, at most ``limit``."""
    return _legal_distinct(decision, [*first, *decision.options])[: max(limit, 1)]


def amount_candidates(decision: Decision, first: Sequence[Answer], limit: int) -> list[Answer]:
    """``first``, then the round amounts of :data:`AMOUNTS` within the legal range."""
    rounded = []
    for v in AMOUNTS:
        v = min(decision.hi, max(decision.lo, v))
        rounded.append(v - (v - decision.lo) % decision.step)
    return _legal_distinct(decision, [*first, *rounded])[: max(limit, 1)]


def _greedy_pay(decision: Decision, order: Sequence[int]) -> tuple[str, ...]:
    """Pay items in ``order`` while the budget lasts (a maximal answer, P5.3)."""
    left = decision.budget or 0
    chosen = []
    for i in order:
        if decision.costs[i] <= left:
            chosen.append(i)
            left -= decision.costs[i]
    return tuple(decision.items[i] for i in sorted(chosen))  # the decision's item order


def salary_candidates(view: PlayerView, decision: Decision) -> list[tuple[str, ...]]:
    """P5.3 payment orders: most expensive first, cheapest first, the orchestras one marker
    from poor first (RATE.POOR.4), clean ones first."""
    markers = dict(view.me.markers)
    idx = range(len(decision.items))
    cost = decision.costs
    mark = [markers.get(item, 0) for item in decision.items]
    orders = [
        sorted(idx, key=lambda i: (-cost[i], i)),
        sorted(idx, key=lambda i: (cost[i], i)),
        sorted(idx, key=lambda i: (-(mark[i] == 1), -cost[i], i)),
        sorted(idx, key=lambda i: (mark[i], -cost[i], i)),
    ]
    return [_greedy_pay(decision, order) for order in orders]


def lineup_candidates(view: PlayerView, decision: Decision) -> list[tuple[str, ...]]:
    """P4.CONCERT.2 lineups: for each style (P4.CONCERT.3), the best-rated lineup and the
    whole style up to the hall's capacity, clean orchestras first."""
    card = view.cards.music[decision.info["card"]]
    markers = dict(view.me.markers)
    pool = [p for p in performers(view) if p.item in decision.items]
    media = view.media == view.seat
    restore = _PLANNER._restoration(view, card)
    out: list[tuple[str, ...]] = []
    for style in STYLE_PREFERENCE:
        mine = [p for p in pool if p.style == style]
        if not mine:
            continue
        line = _PLANNER.lineup(view, card, mine, decision.max_size, media, restore)
        if line is not None:
            out.append(line.items)
        ranked = sorted(mine, key=lambda p: (markers.get(p.item, 0), p.item))
        out.append(tuple(p.item for p in ranked[: decision.max_size]))
    return out


def appease_candidates(decision: Decision) -> list[tuple[str, ...]]:
    """P4.APPEASE.1: one marker of each orchestra alone, or every marker affordable."""
    budget = decision.budget if decision.budget is not None else 10**9
    singles = [(item,) for item, cost in zip(decision.items, decision.costs, strict=True)
               if cost <= budget]
    every: list[str] = []
    left = budget
    for item, cost, limit in sorted(zip(decision.items, decision.costs, decision.limits,
                                        strict=True), key=lambda t: (-t[2], t[1], t[0])):
        for _ in range(limit):
            if cost <= left:
                every.append(item)
                left -= cost
    return [*singles, tuple(every)]


def subset_candidates(view: PlayerView, decision: Decision, first: Sequence[Answer],
                      limit: int) -> list[Answer]:
    """``first`` plus the variants of the decision's kind (none for the rare kinds)."""
    variants: list[Answer] = []
    if decision.kind == Kind.CONCERT_ORCHESTRAS and "card" in decision.info:
        variants = list(lineup_candidates(view, decision))
    elif decision.kind == Kind.SALARIES and decision.budget is not None:
        variants = list(salary_candidates(view, decision))
    elif decision.kind == Kind.APPEASE:
        variants = list(appease_candidates(decision))
    return _legal_distinct(decision, [*first, *variants])[: max(limit, 1)]


def candidates(view: PlayerView, decision: Decision, first: Sequence[Answer],
               limit: int) -> list[Answer]:
    """The answers a search compares for ``decision``: legal, distinct, ``first`` leading."""
    if decision.space == "choice":
        return choice_candidates(decision, first, limit)
    if decision.space == "amount":
        return amount_candidates(decision, first, limit)
    return subset_candidates(view, decision, first, limit)


__all__ = ["AMOUNTS", "amount_candidates", "appease_candidates", "candidates",
           "choice_candidates", "lineup_candidates", "salary_candidates", "subset_candidates"]
