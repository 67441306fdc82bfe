"""Merchant: money first, fame bought late.

For most of the year it values money highly: it takes commercial tours, which double or
multiply by 1.5 a concert's income for a few fame (P3.TOUR, P3.TOUR.3), plays in the cheap
halls (chapel, university), keeps a small orchestra and a cash cushion, and never bids for
the media. In the last months money loses its worth (it only breaks ties, END.WIN), so it
turns the savings into fame: academic tours, big halls, the media, extra orchestras for
the END.4 award.
"""

from __future__ import annotations

from typing import Final

from musici.decisions import Answer, Decision
from musici.strategies._plans import Planner
from musici.views import PlayerView

EARLY_BIAS: Final = {
    "chapel": 0.5, "university": 0.5, "large-commercial": 2.0, "small-commercial": 1.2,
    "dome": -0.8, "opera": -1.5, "large-academic": -1.5, "small-academic": -1.0,
}
LATE_BIAS: Final = {"opera": 1.5, "dome": 1.0, "large-academic": -1.0, "small-academic": -1.0,
             "large-commercial": -3.0, "small-commercial": -2.0}
LATE_MONTHS: Final = 3  # the months in which savings are turned into fame


class Merchant(Planner):
    name = "merchant"
    roster_target = 5
    max_roster = 8
    cash_cushion = 400
    hand_target = 4  # money buys cards before the others take them

    def _late(self, view: PlayerView) -> bool:
        return view.months - view.month < LATE_MONTHS

    def money_weight(self, view: PlayerView) -> float:
        if self._late(view):
            return 0.002 + 0.004 * (view.months - view.month) / LATE_MONTHS
        return 0.014

    def area_bias(self, view: PlayerView, area: str) -> float:
        return (LATE_BIAS if self._late(view) else EARLY_BIAS).get(area, 0.0)

    @property
    def media_fame_price(self) -> int:  # type: ignore[override]
        return 0

    def on_media_bid(self, view: PlayerView, decision: Decision) -> Answer:
        if not self._late(view):
            return decision.lo
        gain = self.media_gain(view)
        bid = min(int(gain * 60), view.me.money - self._salaries(view) - 100, decision.hi)
        if bid < decision.step:
            return decision.lo
        return bid - bid % decision.step

    def roster_goal(self, view: PlayerView) -> int:
        # Late savings buy a bigger band: bigger concerts and the END.4 award.
        return self.roster_target + (3 if self._late(view) else 0)

    def special_value(self, view: PlayerView, card: str) -> float:
        left = view.months - view.month + 1
        if card == "P1":  # +50 G at every concert (SPECIAL.P1)
            return 50 * left + 60
        if card == "S3":  # a free tour (SPECIAL.S3)
            return 250
        return super().special_value(view, card) * (0.7 if not self._late(view) else 1.0)


_PLANNER: Final = Merchant()


def merchant_strategy(view: PlayerView, decision: Decision) -> Answer:
    """Answer ``decision`` as the merchant (see the module docstring)."""
    return _PLANNER(view, decision)


__all__ = ["Merchant", "merchant_strategy"]
