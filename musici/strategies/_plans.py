"""Shared machinery of the heuristic bots (impresario, merchant, collector).

A :class:`Planner` answers every decision from the seat's :class:`PlayerView` alone and
keeps no state between calls: each answer is recomputed from the view, so the hire or buy
chosen inside an action is the one the action was chosen for. The month is planned as
"which card, at which area, with which orchestras (and up to two hires or a purchase this
month)", scored as ``fame + money_weight * money``. The three bots subclass the planner and
change the weights and a few hooks (area bias, media bids, discovery drive, auction values).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Final, NamedTuple

from musici import economy as E
from musici import rating as R
from musici import scoring
from musici.cards import VIRTUOSOS, MusicCard
from musici.decisions import Answer, Decision
from musici.rules import RuleSet
from musici.views import PlayerView, PublicPlayer

# The order in which the planner tries the two styles: on equal fame the first found wins,
# so "modern" (cheaper orchestras) is a bot preference that breaks ties, not a rule
# (the rules' styles are cards.STYLES).
STYLE_PREFERENCE: Final[tuple[str, ...]] = ("modern", "authentic")
NO_LIMIT: Final = 99  # a tour holds any number of orchestras (P4.CONCERT.2)
HIRE_MARGIN: Final = 50  # G the planner keeps back when it plans hires (a bot preference)
# A lineup is a pure function of its key, which holds every input by value (the card, each
# performer's style, part and markers, the restoration, the rulings a concert reads), so one
# process may play any card sets and rule sets in any order and get the same answers
# (issue 9).
_LINEUPS: Final[dict[tuple[object, ...], Lineup | None]] = {}
_CONCERT_RULINGS: Final = itemgetter(*scoring.CONCERT_RULINGS)
_LINEUPS_MAX: Final = 100_000
_MISS: Final = object()
# The last rule set's concert rulings, by identity (a RuleSet is immutable, and the memo
# holds it, so its id is not reused): one tuple read instead of an itemgetter call per
# lineup lookup, a sixth of a lookup's cost (issue 23). One slot, replaced whole.
_RULINGS_MEMO: Final[list[tuple[object, tuple[object, ...]]]] = [(None, ())]


def _concert_rulings(rules: RuleSet) -> tuple[object, ...]:
    last = _RULINGS_MEMO[0]
    if last[0] is rules:
        return last[1]
    key: tuple[object, ...] = _CONCERT_RULINGS(rules.options)
    _RULINGS_MEMO[0] = (rules, key)
    return key


class Performer(NamedTuple):
    """An orchestra or virtuoso the planner can bring (a tuple: cheap to hash as a cache key)."""

    item: str
    style: str
    part: str
    markers: int
    salary: int


class Lineup(NamedTuple):
    """The orchestras for a card and what :func:`musici.scoring.concert_outcome` gives them
    before any tour (only the two numbers kept: thousands of these are memoised)."""

    items: tuple[str, ...]
    level: str  # the rating (RATE, RULING-STYLE)
    base_fame: int  # card fame plus restoration bonus after the RESTORE.4 cap, before P3.TOUR


@dataclass(frozen=True, slots=True)
class ConcertForecast:
    """A concert as a bot expects the engine to record it (P4.CONCERT.4)."""

    items: tuple[str, ...]
    rating: str
    fame: int  # after the RESTORE.4 cap and P3.TOUR
    income: int  # after P3.TOUR


class Option(NamedTuple):
    """One way to spend this month: a concert (or none) at ``area`` (an immutable named
    tuple: a plan makes one per area and card, thousands a game; :func:`make_option`)."""

    area: str
    card: str | None
    lineup: Lineup | None
    hires: tuple[str, ...]  # market orchestras to hire first (P4.HIRE.1)
    buy: str | None  # market card to buy first (P4.BUY.1)
    fame: int  # fame change: concert after P3.TOUR, minus a commercial tour's cost
    cash: int  # money change this month (income - rent - hires - salaries - buy)
    util: float
    concert_fame: int = 0  # the concert's own fame after P3.TOUR (the concert event's)
    income: int = 0  # the concert's income after P3.TOUR (the concert event's)


def make_option(area: str, card: str | None, lineup: Lineup | None, hires: tuple[str, ...],
                buy: str | None, fame: int, cash: int, util: float, concert_fame: int = 0,
                income: int = 0) -> Option:
    """``Option(...)``, the same value, built without calling the class (a named tuple's
    ``__new__`` is interpreted code in both builds; tests/test_engine_fast_paths.py)."""
    return tuple.__new__(Option, (area, card, lineup, hires, buy, fame, cash, util,
                                  concert_fame, income))


def make_performer(item: str, style: str, part: str, markers: int, salary: int) -> Performer:
    """``Performer(...)`` without the class call (as :func:`make_option`)."""
    return tuple.__new__(Performer, (item, style, part, markers, salary))


def performers(view: PlayerView, extra: Sequence[str] = (),
               me: PublicPlayer | None = None) -> list[Performer]:
    """The seat's orchestras (and ``extra`` ones) as performers; ``me``: ``view.me`` when the
    caller has it already (building it is most of a call's cost)."""
    if me is None:
        me = view.me
    markers = dict(me.markers)
    out = []
    for item in (*me.orchestras, *extra):
        style, part = view.cards.performer(item)
        orch = view.cards.orchestras[item]
        out.append(make_performer(item, style, part, markers.get(item, 0), orch.salary))
    for item in me.permanent:  # SPECIAL.P3/P4: a virtuoso plays as an instrumental orchestra
        if item in VIRTUOSOS:
            style, part = VIRTUOSOS[item]
            out.append(make_performer(item, style, part, 0, 0))
    return out


class Planner:
    """Heuristic player; subclasses tune the ``*_weight`` knobs and the hooks."""

    name = "planner"
    roster_target = 6  # orchestras wanted by mid-game
    max_roster = 8
    cash_cushion = 250  # money kept back after a month's planned spending
    hand_target = 3  # cards wanted in hand after this month's concert
    media_fame_price = 35  # G paid per fame a media upgrade would add (P2.4)
    discover_drive = 0.0  # extra value per discovery action (collector)

    # ------------------------------------------------------------------ weights
    def money_weight(self, view: PlayerView) -> float:
        """Fame one G is worth now; money left at the end only breaks ties (END.WIN)."""
        left = view.months - view.month
        return 0.004 + 0.012 * left / max(view.months, 1)

    def area_bias(self, view: PlayerView, area: str) -> float:
        return 0.0

    def card_bias(self, view: PlayerView, card: MusicCard) -> float:
        return 0.0

    @staticmethod
    def _performer(view: PlayerView, item: str) -> Performer:
        style, part = view.cards.performer(item)
        return make_performer(item, style, part, 0, view.cards.orchestras[item].salary)

    # ------------------------------------------------------------------ ratings
    def _restoration(self, view: PlayerView, card: MusicCard,
                     me: PublicPlayer | None = None) -> R.Restoration | None:
        if card.kind != "discovery":  # RESTORE: only a discovery card (skips building view.me)
            return None
        if me is None:
            me = view.me
        return scoring.restoration(view.cards, view.rules, card, me.played, me.permanent)

    def lineup(self, view: PlayerView, card: MusicCard, pool: Sequence[Performer], capacity: int,
               media: bool, restore: R.Restoration | None = None) -> Lineup | None:
        """The best orchestras for ``card`` (RATE: only totals and the presence of each
        required part count, so any part fills a gap, P4.CONCERT.3 one style only)."""
        capacity = min(capacity, len(pool))
        # the restoration by its matches (named tuples: hashed and compared in C)
        key = (card, capacity, media, tuple(pool), None if restore is None else restore.matches,
               _concert_rulings(view.rules))
        hit = _LINEUPS.get(key, _MISS)
        if hit is not _MISS:
            return hit  # type: ignore[return-value]
        if len(_LINEUPS) > _LINEUPS_MAX:  # the answers are pure: any entry may go
            _LINEUPS.clear()
        line = self._lineup(view, card, pool, capacity, media, restore)
        _LINEUPS[key] = line
        return line

    def _lineup(self, view: PlayerView, card: MusicCard, pool: Sequence[Performer],
                capacity: int, media: bool, restore: R.Restoration | None) -> Lineup | None:
        best: Lineup | None = None
        for style in STYLE_PREFERENCE:
            mine = [p for p in pool if p.style == style]
            if not mine:
                continue
            req = card.requirement(style)
            need = req[0] + req[1]
            clean = sorted((p for p in mine if p.markers == 0), key=lambda p: p.part)
            marked = sorted((p for p in mine if p.markers == 1), key=lambda p: p.part)
            tries: list[list[Performer]] = [self._fill(clean, req, need, capacity)]
            if marked:
                tries.append(self._fill(clean + marked[:1], req, need, capacity))
            if not tries[0] and not marked:
                tries.append([sorted(mine, key=lambda p: p.markers)[0]])
            for chosen in tries:
                if not chosen or len(chosen) > capacity:
                    continue
                brought = (sum(p.part == "instrumental" for p in chosen),
                           sum(p.part == "vocal" for p in chosen))
                marks = sum(p.markers for p in chosen)
                # RATE (RULING-STYLE), RESTORE.1-4: the engine's own arithmetic
                out = scoring.concert_outcome(card, style, brought, marks, rules=view.rules,
                                              venue=None, media=media, restore=restore)
                cand = tuple.__new__(Lineup, (tuple(p.item for p in chosen), out.rating.level,
                                              out.total))  # Lineup(...), no class call
                if best is None or cand.base_fame > best.base_fame:
                    best = cand
        return best

    @staticmethod
    def _fill(cands: list[Performer], req: tuple[int, int], need: int,
              capacity: int) -> list[Performer]:
        """One of each required part first (RATE.POOR.3), then any up to the requirement."""
        chosen: list[Performer] = []
        for part, n in (("instrumental", req[0]), ("vocal", req[1])):
            if n > 0:
                for p in cands:
                    if p.part == part and p not in chosen:
                        chosen.append(p)
                        break
        # Prefer the part the card asks for most; bringing more than needed gains nothing.
        major = "instrumental" if req[0] >= req[1] else "vocal"
        rest = sorted((p for p in cands if p not in chosen), key=lambda p: p.part != major)
        for p in rest:
            if len(chosen) >= min(need, capacity):
                break
            chosen.append(p)
        return chosen[:capacity]

    # ------------------------------------------------------------------ month plan
    def options(self, view: PlayerView, areas: Sequence[str], actions_left: int,
                media: bool, hand: Sequence[str] | None = None) -> list[Option]:
        """Every sensible plan for this month over ``areas``, best first."""
        me = view.me
        lam = self.money_weight(view)
        pool = performers(view, me=me)
        salaries = sum(p.salary for p in pool)
        market_orch = [o for o in view.orchestra_market if o is not None]
        afford = me.money
        cards = list(view.hand if hand is None else hand)
        buyable: list[str] = []
        if actions_left >= 2 and afford >= E.SCORE_PRICE:
            thief = dict(view.thief_marks)
            buyable = [c for c in view.score_market
                       if c is not None and thief.get(c, view.seat) == view.seat]
        rules = view.rules
        pay = [p.salary for p in pool]
        money_now = me.money
        out: list[Option] = []
        last = view.month >= view.months
        left = view.months - view.month
        waste_w = 0.0 if left <= 0 else 0.3 * min(1.0, left / 6)
        n_pool = len(pool)

        def penalty(cash: int, sal: int) -> float:
            return self._penalty(money_now + cash, self.reserve(view, sal, left), last)

        # Per card and hire set: what it costs and who would play (P4.HIRE, P4.BUY).
        variants = []
        for card_id in [*cards, *buyable]:
            buying = card_id not in cards
            card = view.cards.music[card_id]
            room = actions_left - 1 - (1 if buying else 0)
            restore = self._restoration(view, card, me)
            cbias = self.card_bias(view, card)
            for hires in self._hire_sets(view, card, pool, market_orch, room, afford,
                                         len(me.orchestras)):
                extra = [self._performer(view, h) for h in hires]
                hire_cost = sum(view.cards.orchestras[h].price for h in hires)
                hire_sal = sum(E.salary_due(p.salary, True) for p in extra)  # P5.3
                variants.append((card_id, card, buying, restore, cbias, hires, [*pool, *extra],
                                 hire_cost, hire_sal))
        cache: dict[tuple[str, int, tuple[str, ...]], Lineup | None] = {}
        # The month's settlement from the one home of its arithmetic (economy.month_ledger's
        # parts), the surcharge counted at today's fame and no Journalist counted on (a plan's
        # guesses). Only the venue's line depends on the area: the rest is summed once.
        # No concert: half rent and salaries (P4.3), the idle bonus (P4.4). With a concert:
        # the orchestras held; a variant adds its own income and its hires' salaries.
        idle_fixed = (*E.received_lines(held_concert=False, income=0, actions=me.actions,
                                        permanent=me.permanent),
                      *E.due_lines(held_concert=False, salaries=pay, surcharge_fame=me.fame))
        held_fixed = (*E.received_lines(held_concert=True, income=0, actions=me.actions,
                                        permanent=me.permanent),
                      *E.due_lines(held_concert=True, salaries=pay, surcharge_fame=me.fame),
                      *E.fame_lines(held_concert=True, permanent=me.permanent, alone=False))
        idle_fixed_cash = sum(line.money for line in idle_fixed)
        idle_fixed_fame = sum(line.fame for line in idle_fixed)
        held_fixed_cash = sum(line.money for line in held_fixed)
        held_fixed_fame = sum(line.fame for line in held_fixed)
        for area in areas:
            held = view.venue_cost(area, held_concert=True)  # P5.2
            idle = view.venue_cost(area, held_concert=False)  # P4.3: half rent
            capacity = E.capacity(area) or NO_LIMIT
            bias = self.area_bias(view, area)
            idle_line, held_line = E.venue_line(area, idle), E.venue_line(area, held)  # P5.2
            idle_cash, idle_fame = idle_fixed_cash + idle_line.money, idle_fixed_fame + idle_line.fame
            held_cash, held_fame = held_fixed_cash + held_line.money, held_fixed_fame + held_line.fame
            out.append(make_option(area, None, None, (), None, idle_fame, idle_cash,
                              idle_fame + lam * idle_cash + penalty(idle_cash, salaries)
                              + bias * 0.25))
            for card_id, card, buying, restore, cbias, hires, band, hire_cost, hire_sal in variants:
                cap = min(capacity, n_pool + len(hires))
                key = (card_id, cap, hires)
                line = cache.get(key, _MISS)
                if line is _MISS:
                    line = cache[key] = self.lineup(view, card, band, cap, media, restore)
                if line is None:
                    continue
                assert isinstance(line, Lineup)
                total = line.base_fame
                fame, income = scoring.tour_result(total, card.income, area, rules,
                                                   view.cards.tours)  # P3.TOUR
                cash = (income + held_cash - hire_cost - hire_sal
                        - (E.SCORE_PRICE if buying else 0))
                fame_total = fame + held_fame
                # Playing a strong card for little fame wastes it: cards run short late on.
                waste = max(0, card.fame[0] - total) * waste_w
                # Future salaries of a hire are a cost the hire's later use pays back.
                util = (fame_total + lam * (cash + hire_cost * 0.5)
                        + penalty(cash, salaries + hire_sal) + bias + cbias - waste)
                out.append(make_option(area, card_id, line, hires, card_id if buying else None,
                                  fame_total, cash, util, fame, income))
        out.sort(key=lambda o: -o.util)
        return out

    def _penalty(self, after: int, need: int, last: bool) -> float:
        """Running dry means unpaid salaries: markers, poor concerts, END.5 (P5.3)."""
        if last:
            return -0.05 * max(0, -after)
        short = need - after
        return -self.short_penalty * short if short > 0 else 0.0

    short_penalty = 0.04  # fame per G below the reserve
    reserve_months = 2  # salaries kept in hand for the months ahead

    def reserve(self, view: PlayerView, salaries: int, left: int) -> int:
        """Money to keep after this month: a cushion plus the next months' salaries."""
        return self.cash_cushion + salaries * min(self.reserve_months, left)

    def _hire_sets(self, view: PlayerView, card: MusicCard, pool: Sequence[Performer],
                   market: Sequence[str], room: int, money: int,
                   roster: int) -> list[tuple[str, ...]]:
        """No hire, or up to ``room`` market orchestras that help ``card`` (P4.HIRE.1);
        ``roster``: the orchestras the seat holds."""
        sets: list[tuple[str, ...]] = [()]
        slots = min(room, self.max_roster - roster, 2)
        if slots <= 0 or not market:
            return sets
        for style in STYLE_PREFERENCE:
            req = card.requirement(style)
            have = [p for p in pool if p.style == style and p.markers == 0]
            need = req[0] + req[1] - len(have)
            # the parts req asks for that no clean orchestra of this style plays (written
            # out: zip(..., strict=True) is a generic call in the compiled build)
            parts_missing = []
            if req[0] > 0 and not any(p.part == "instrumental" for p in have):
                parts_missing.append("instrumental")
            if req[1] > 0 and not any(p.part == "vocal" for p in have):
                parts_missing.append("vocal")
            if need <= 0 and not parts_missing:
                continue
            cands = sorted((o for o in market if view.cards.orchestras[o].style == style),
                           key=lambda o: (view.cards.orchestras[o].part not in parts_missing, o))
            picked: list[str] = []
            cost = 0
            for o in cands:
                if len(picked) >= min(slots, max(need, len(parts_missing))):
                    break
                price = view.cards.orchestras[o].price
                if cost + price > money - HIRE_MARGIN:
                    continue
                picked.append(o)
                cost += price
                sets.append(tuple(picked))
        return sets

    def actions_left(self, view: PlayerView) -> int:
        return max(1, 4 - max(view.round, 1))

    def concert_plan(self, view: PlayerView) -> Option | None:
        """The best concert at my venue this month (None: hold none)."""
        me = view.me
        if me.concert or me.venue is None:
            return None
        media = view.media == view.seat
        opts = self.options(view, [me.venue], self.actions_left(view), media)
        best = opts[0]
        return best if best.card is not None else None

    # ------------------------------------------------------------------ card values
    def card_value(self, view: PlayerView, card_id: str) -> float:
        """What a card in hand is worth for a later month, with the orchestras we have."""
        card = view.cards.music[card_id]
        me = view.me
        pool = performers(view, me=me)
        line = self.lineup(view, card, pool, NO_LIMIT, False, self._restoration(view, card, me))
        staffed = line.base_fame if line else card.fame[1]
        # Orchestras can still be hired: a strong card is worth keeping even if unstaffed.
        fame = max(staffed, card.fame[0] * 0.7)
        return fame + card.income * 0.004 + self.card_bias(view, card)

    # ------------------------------------------------------------------ the answer
    def __call__(self, view: PlayerView, decision: Decision) -> Answer:
        handler = getattr(self, f"on_{decision.kind}", None)
        if handler is not None:
            answer = handler(view, decision)
            if answer is not None:
                return answer
        return self.fallback(view, decision)

    def fallback(self, view: PlayerView, decision: Decision) -> Answer:
        if decision.space == "choice":
            return decision.options[0]
        if decision.space == "amount":
            return decision.lo
        return decision.random_answer(view.rng)

    # --- P1
    def special_value(self, view: PlayerView, card: str) -> float:
        """G this bot would pay for ``card`` (SPECIAL)."""
        left = view.months - view.month + 1
        values = {
            "P1": 40 * left, "P2": 45 * left, "P3": 100 + 35 * left, "P4": 20 * left,
            "P5": 10 * left, "P6": 5 * left, "P7": 5 * left,
            "S1": 0, "S2": 20, "S3": 150, "S4": 180, "S5": 120, "S6": 40, "S7": 150, "S8": 0,
        }
        # END.4: most special cards bought is worth 2 fame.
        return values.get(card, 0) + 60

    def on_auction(self, view: PlayerView, d: Decision) -> Answer:
        bid = d.info.get("bid", 100)
        value = self.special_value(view, d.info.get("card") or "")
        spare = view.me.money - self.cash_cushion - self._salaries(view) * 2
        if "bid" in d.options and bid <= value and bid <= spare:
            return "bid"
        return "pass"

    def _salaries(self, view: PlayerView) -> int:
        return sum(p.salary for p in performers(view))

    # --- P2
    def media_gain(self, view: PlayerView) -> float:
        """Fame a media upgrade adds to the best plan over all areas (P2.4, RATE.MEDIA)."""
        # A big hall and an academic tour are enough to see what the media would add.
        areas = ["dome", "large-academic"]
        without = self.options(view, areas, 3, False)[0]
        with_media = self.options(view, areas, 3, True)[0]
        return max(0.0, with_media.util - without.util)

    def on_media_bid(self, view: PlayerView, d: Decision) -> Answer:
        if self.media_fame_price <= 0:
            return d.lo
        spare = view.me.money - self.cash_cushion - self._salaries(view)
        if spare < d.step:
            return d.lo
        gain = self.media_gain(view)
        bid = int(gain * self.media_fame_price)
        bid = max(0, min(bid, spare, d.hi))
        return d.lo + (bid - d.lo) // d.step * d.step if bid >= d.lo else d.lo

    # --- P3
    def on_venue(self, view: PlayerView, d: Decision) -> Answer:
        media = view.media == view.seat
        best = self.options(view, d.options, 3, media)[0]
        return best.area

    # --- P4
    def on_action(self, view: PlayerView, d: Decision) -> Answer:
        opts = d.options
        me = view.me
        plan = self.concert_plan(view)  # None once the concert is held (P4.2)
        if plan is not None:
            if plan.buy is not None and "buy" in opts:
                return "buy"
            if plan.hires and "hire" in opts:
                return "hire"
            if "concert" in opts:
                return "concert"
        # No concert (yet): P4.4 pays 100 G for at most one action without a concert.
        holding = me.concert or plan is not None
        if not holding and me.actions >= 1:
            return "pass"
        extra = self.side_action(view, d, holding)
        return extra if extra in opts else "pass"

    def side_action(self, view: PlayerView, d: Decision, holding: bool) -> str:
        """An action for the rest of the month: appease, specials, hire, buy, discover."""
        opts = d.options
        me = view.me
        money = me.money
        reserve = self.cash_cushion + self._salaries(view)
        if "appease" in opts and any(m for _, m in me.markers) and money > reserve + 100:
            return "appease"
        if "special" in opts and self._special_choice(view, me.specials_hand) is not None:
            return "special"
        if "buy" in opts and money > reserve + E.SCORE_PRICE and self._want_card(view):
            return "buy"
        if "discover" in opts and money > reserve + E.DISCOVER_PRICE and (
                self.want_discover(view) or self._short_of_cards(view)):
            return "discover"
        if "hire" in opts and self._want_hire(view) is not None:
            return "hire"
        return "pass"

    def _want_card(self, view: PlayerView) -> bool:
        left = view.months - view.month
        stock = len(view.hand) - (0 if view.me.concert else 1)
        if stock >= min(self.hand_target, left + 1):
            return False
        return self._best_market_card(view) is not None

    def _short_of_cards(self, view: PlayerView) -> bool:
        """Score cards run out when every seat plays monthly: a discovery is a card too
        (P4.DISCOVER.2), worth its price once a played card can restore it (RATE.POOR.5)."""
        left = view.months - view.month
        stock = len(view.hand) - (0 if view.me.concert else 1)
        if stock >= min(2, left) or not view.me.played:
            return False
        return self._best_market_card(view) is None or self._want_card(view)

    def _best_market_card(self, view: PlayerView) -> str | None:
        thief = dict(view.thief_marks)
        cands = [c for c in view.score_market
                 if c is not None and thief.get(c, view.seat) == view.seat]
        if not cands:
            return None
        return max(cands, key=lambda c: (self.card_value(view, c), c))

    def want_discover(self, view: PlayerView) -> bool:
        return False

    def _want_hire(self, view: PlayerView) -> str | None:
        """A market orchestra that grows the roster toward its target."""
        me = view.me
        left = view.months - view.month
        if len(me.orchestras) >= self.roster_goal(view) or left < 1:
            return None
        pool = performers(view)
        salaries = self._salaries(view)
        market = [o for o in view.orchestra_market if o is not None]
        best, best_score = None, 0.0
        for o in market:
            orch = view.cards.orchestras[o]
            if me.money - orch.price < self.reserve(view, salaries + orch.salary, 3):
                continue
            score = self.orchestra_score(view, o, pool)
            if score > best_score:
                best, best_score = o, score
        return best

    def roster_goal(self, view: PlayerView) -> int:
        return self.roster_target

    def orchestra_score(self, view: PlayerView, o: str, pool: Sequence[Performer]) -> float:
        """How much adding orchestra ``o`` helps the cards in hand."""
        orch = view.cards.orchestras[o]
        same = [p for p in pool if p.style == orch.style]
        part_count = sum(p.part == orch.part for p in same)
        score = 1.0 if orch.style == "modern" else 0.3
        if part_count == 0:
            score += 1.0
        # Keep instrumental : vocal near 4 : 3, the mix most modern cards ask for.
        instr = sum(p.part == "instrumental" for p in same)
        vocal = len(same) - instr
        if orch.part == "instrumental" and instr <= vocal + 1:
            score += 0.5
        if orch.part == "vocal" and vocal < instr - 1:
            score += 0.5
        return score

    # --- P4 details
    def on_concert_card(self, view: PlayerView, d: Decision) -> Answer:
        plan = self.plan_for_concert(view)
        if plan is not None and plan.card in d.options:
            return plan.card
        return max(d.options, key=lambda c: (self._card_now(view, c), c))

    def plan_for_concert(self, view: PlayerView) -> Option | None:
        """The concert this bot would give now at its venue with what it holds (no hire, no
        purchase first); its ``concert_fame`` and ``income`` are what it expects the
        concert event to record."""
        me = view.me
        if me.venue is None:
            return None
        media = view.media == view.seat
        for opt in self.options(view, [me.venue], 1, media):
            if opt.card is not None and not opt.hires and opt.buy is None:
                return opt
        return None

    def _card_now(self, view: PlayerView, card_id: str) -> float:
        venue = view.me.venue
        cap = (E.capacity(venue) if venue is not None else None) or NO_LIMIT
        card = view.cards.music[card_id]
        line = self.lineup(view, card, performers(view), cap, view.media == view.seat,
                           self._restoration(view, card))
        return line.base_fame if line else -99

    def predict_concert(self, view: PlayerView, d: Decision) -> ConcertForecast | None:
        """For a ``concert_orchestras`` decision: the orchestras this bot brings and the
        concert it expects (rating, fame and income after P3.TOUR)."""
        card = view.cards.music[d.info["card"]]
        pool = [p for p in performers(view) if p.item in d.items]
        line = self.lineup(view, card, pool, d.max_size, view.media == view.seat,
                           self._restoration(view, card))
        if line is None:
            return None
        fame, income = scoring.tour_result(line.base_fame, card.income, view.me.venue,
                                           view.rules, view.cards.tours)
        return ConcertForecast(line.items, line.level, fame, income)

    def on_concert_orchestras(self, view: PlayerView, d: Decision) -> Answer:
        forecast = self.predict_concert(view, d)
        if forecast is not None:
            try:
                return d.normalize(forecast.items)
            except ValueError:
                pass
        return None

    def on_hire(self, view: PlayerView, d: Decision) -> Answer:
        plan = self.concert_plan(view) if not view.me.concert else None
        if plan is not None:
            for h in plan.hires:
                if h in d.options:
                    return h
        want = self._want_hire(view)
        if want in d.options:
            return want
        market = [o for o in d.options if o in view.orchestra_market]
        pool = performers(view)
        if market:
            return max(market, key=lambda o: (self.orchestra_score(view, o, pool), o))
        return None

    def on_buy(self, view: PlayerView, d: Decision) -> Answer:
        plan = self.concert_plan(view) if not view.me.concert else None
        if plan is not None and plan.buy in d.options:
            return plan.buy
        market = [c for c in d.options if not c.startswith("player:")]
        if market:
            return max(market, key=lambda c: (self.card_value(view, c), c))
        return None

    def on_buy_fallback(self, view: PlayerView, d: Decision) -> Answer:
        return max(d.options, key=lambda c: (self.card_value(view, c), c))

    def on_buy_price(self, view: PlayerView, d: Decision) -> Answer:
        return d.lo

    def on_buy_era(self, view: PlayerView, d: Decision) -> Answer:
        return "any"

    def on_sell(self, view: PlayerView, d: Decision) -> Answer:
        price = d.info.get("price", 0)
        cards = [c for c in d.options if c != "decline"]
        if price >= 250 and cards:  # only a clearly good price for our weakest card
            worst = min(cards, key=lambda c: (self.card_value(view, c), c))
            if self.card_value(view, worst) * 40 < price:
                return worst
        return "decline"

    def on_poach_consent(self, view: PlayerView, d: Decision) -> Answer:
        # An orchestra with 2 markers plays poor (RATE.POOR.4) and costs fame at the end.
        markers = dict(view.me.markers).get(d.info.get("orchestra", ""), 0)
        return "agree" if markers >= 2 else "refuse"

    def on_discover(self, view: PlayerView, d: Decision) -> Answer:
        return max(d.options, key=lambda deck: (self.deck_value(view, deck), deck))

    def deck_value(self, view: PlayerView, deck: str) -> float:
        """Mean fame of the unseen cards of a discovery deck with our orchestras (RESTORE)."""
        seen = set(view.hand)
        for p in view.players:
            seen.update(p.played)
        cards = [c for c in view.cards.discoveries if c.deck == deck and c.id not in seen]
        if not cards:
            return -99.0
        me = view.me
        pool = performers(view, me=me)
        total = 0.0
        for card in cards:
            line = self.lineup(view, card, pool, NO_LIMIT, False,
                               self._restoration(view, card, me))
            total += line.base_fame if line else 0
        return total / len(cards)

    def on_appease(self, view: PlayerView, d: Decision) -> Answer:
        budget = max(0, view.me.money - self.cash_cushion - self._salaries(view))
        chosen: list[str] = []
        spent = 0
        for item, cost, limit in zip(d.items, d.costs, d.limits, strict=True):
            for _ in range(limit):
                if spent + cost <= budget:
                    chosen.append(item)
                    spent += cost
        if not chosen:
            i = min(range(len(d.items)), key=lambda k: d.costs[k])
            chosen = [d.items[i]]
        return d.normalize(tuple(chosen))

    def on_salaries(self, view: PlayerView, d: Decision) -> Answer:
        # P5.3: pay clean orchestras first; a third marker sends an orchestra away (P5.7),
        # which also ends its salary and its END.5 penalty.
        markers = dict(view.me.markers)
        order = sorted(range(len(d.items)),
                       key=lambda i: (markers.get(d.items[i], 0), -d.costs[i]))
        chosen: set[int] = set()
        left = d.budget or 0
        for i in order:
            if d.costs[i] <= left and markers.get(d.items[i], 0) < 2:
                chosen.add(i)
                left -= d.costs[i]
        for i in order:
            if i not in chosen and d.costs[i] <= left:
                chosen.add(i)
                left -= d.costs[i]
        return d.normalize(tuple(d.items[i] for i in sorted(chosen)))

    def _marker_target(self, view: PlayerView, options: Sequence[str]) -> str:
        markers = dict(view.me.markers)
        # A third marker drops an orchestra that plays poor anyway (P5.7, RATE.POOR.4).
        worst = [o for o in options if markers.get(o, 0) >= 2]
        if worst:
            return worst[0]
        pool = performers(view)
        return min(options, key=lambda o: (self.orchestra_score(view, o, pool)
                                           - markers.get(o, 0) * 3, o))

    def on_surcharge_marker(self, view: PlayerView, d: Decision) -> Answer:
        return self._marker_target(view, d.options)

    def on_rumour_marker(self, view: PlayerView, d: Decision) -> Answer:
        return self._marker_target(view, d.options)

    # --- specials
    def _special_choice(self, view: PlayerView, hand: Sequence[str]) -> str | None:
        me = view.me
        for card in hand:
            if card == "S3" and me.venue is not None and me.venue in E.TOURS:  # SPECIAL.S3
                cost = view.venue_cost(me.venue, held_concert=True)
                if cost.money or cost.fame:
                    return card
            if card == "S4" and len(me.orchestras) < self.max_roster and any(view.orchestra_market):
                return card
            if card == "S5" and len(me.orchestras) > 3:
                return card
            if card == "S7" and (any(view.score_market) or any(view.deck_sizes[d] for d in
                                                               ("authentic", "modern"))):
                return card
            if card in ("S1", "S2", "S6", "S8"):
                return card
        return None

    def on_special(self, view: PlayerView, d: Decision) -> Answer:
        choice = self._special_choice(view, [c for c in d.options])
        return choice if choice in d.options else d.options[0]

    def on_auctioneer(self, view: PlayerView, d: Decision) -> Answer:
        return max(d.options, key=lambda s: (view.player(s).fame, view.player(s).money))

    def on_educator(self, view: PlayerView, d: Decision) -> Answer:
        pool = performers(view)
        ranked = sorted(d.items, key=lambda o: (-self.orchestra_score(view, o, pool), o))
        room = max(1, min(d.max_size, self.max_roster - len(view.me.orchestras)))
        return d.normalize(tuple(ranked[:room]))

    def on_collector(self, view: PlayerView, d: Decision) -> Answer:
        def value(option: tuple[str, ...]) -> float:
            total = 0.0
            for item in option:
                if item.startswith("deck:"):
                    total += self.deck_value(view, item[5:]) + self.discover_drive
                else:
                    total += self.card_value(view, item)
            return total
        return max(d.options, key=lambda o: (value(o), o))

    def on_thief(self, view: PlayerView, d: Decision) -> Answer:
        return max(d.options, key=lambda c: (self.card_value(view, c), c))

    def on_advisor(self, view: PlayerView, d: Decision) -> Answer:
        ranked = sorted(d.items, key=lambda o: (-view.cards.orchestras[o].salary, o))
        return d.normalize(tuple(ranked[:d.max_size]))


__all__ = ["STYLE_PREFERENCE", "ConcertForecast", "Lineup", "Option", "Performer", "Planner",
           "performers"]
