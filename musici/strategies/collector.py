"""Collector: builds restoration chains.

A discovery card earns +1 fame for every card played before it that shares its composer's
nationality or era, and +1 more for the same composer or a teaching lineage (RESTORE.1–2),
on a good rating (RESTORE.3), up to 10 (RESTORE.4). So the collector searches the discovery
decks (P4.DISCOVER), choosing the deck whose unseen cards its orchestras and played cards
serve best, first plays the score cards related to the discoveries it holds, and keeps each
discovery until its bonus has grown, preferably playing it on an academic tour, which
multiplies the capped total (P3.TOUR). It pays for the pioneer cards (SPECIAL.P5/P6) and
the Collector (SPECIAL.S7).
"""

from __future__ import annotations

from typing import Final

from musici import economy as E
from musici import scoring
from musici.cards import MusicCard
from musici.decisions import Answer, Decision
from musici.strategies._plans import Planner
from musici.views import PlayerView

MAX_HELD: Final = 3  # discovery cards held at once
RIPE_BONUS: Final = 4  # a restoration bonus worth cashing in before the last months


class Collector(Planner):
    name = "collector"
    roster_target = 6
    max_roster = 8
    cash_cushion = 200
    media_fame_price = 25
    discover_drive = 2.0

    def area_bias(self, view: PlayerView, area: str) -> float:
        return {"large-commercial": -1.5, "small-commercial": -1.0}.get(area, 0.0)

    def _related(self, view: PlayerView, a: MusicCard, b: MusicCard) -> int:
        """RESTORE.1-2 points card ``a`` played before discovery ``b`` would give (the
        engine's restoration of ``b`` by ``a`` alone, RULING-LINEAGE included)."""
        restore = scoring.restoration(view.cards, view.rules, b, (a.id,), ())
        if restore is None:
            return 0
        return sum(m.nationality_or_era + m.composer_or_lineage for m in restore.matches)

    def card_bias(self, view: PlayerView, card: MusicCard) -> float:
        left = view.months - view.month
        held = [view.cards.music[c] for c in view.hand]
        if card.kind == "discovery":
            restore = self._restoration(view, card)
            bonus = restore.bonus(good=True) if restore is not None else 0
            if left >= 2 and bonus < RIPE_BONUS:
                return -0.7 * (RIPE_BONUS - bonus)  # let the chain grow first
            return 0.3 * min(bonus, E.RESTORE_CAP - card.fame[0])
        # A score card played now raises the bonus of every related discovery we hold.
        related = sum(self._related(view, card, d) for d in held if d.kind == "discovery")
        return 0.6 * related

    def want_discover(self, view: PlayerView) -> bool:
        left = view.months - view.month
        held = sum(view.cards.music[c].kind == "discovery" for c in view.hand)
        if held >= MAX_HELD or left < 1:
            return False
        best = max(self.deck_value(view, d) for d in ("authentic", "modern")
                   if view.deck_sizes[d]) if any(
            view.deck_sizes[d] for d in ("authentic", "modern")) else -99.0
        return best + self.discover_drive >= 4.0 and view.me.money > E.DISCOVER_PRICE

    def side_action(self, view: PlayerView, d: Decision, holding: bool) -> str:
        # Searching comes before buying: the chain is the plan (P4.DISCOVER).
        me = view.me
        if ("discover" in d.options and self.want_discover(view)
                and me.money > self.reserve(view, self._salaries(view), 2) + E.DISCOVER_PRICE):
            return "discover"
        return super().side_action(view, d, holding)

    def special_value(self, view: PlayerView, card: str) -> float:
        left = view.months - view.month + 1
        if card in ("P5", "P6"):  # +1 in every restoration of that style (RESTORE.5)
            return 30 * left + 60
        if card == "S7":  # free cards, or the top of a discovery deck (SPECIAL.S7)
            return 250
        return super().special_value(view, card)


_PLANNER: Final = Collector()


def collector_strategy(view: PlayerView, decision: Decision) -> Answer:
    """Answer ``decision`` as the collector (see the module docstring)."""
    return _PLANNER(view, decision)


__all__ = ["Collector", "collector_strategy"]
