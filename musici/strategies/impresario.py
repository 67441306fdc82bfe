"""Impresario: fame first.

Plays the strongest concert it can staff, in the big halls (dome, opera: room for six and
ten orchestras, P3.HALL) or, from the first months on, on academic tours, which double or
multiply by 1.5 a concert's fame (P3.TOUR). Money is only a means: it spends it as it
comes with a small cushion, keeps a six-orchestra band, bids for the media when the
upgrade lifts this month's concert a level (P2.4, RATE.MEDIA), and pays well for the
Stradivari (SPECIAL.P2). It takes a commercial tour, which gives up a concert's fame, only
when short of money.
"""

from __future__ import annotations

from musici.decisions import Answer, Decision
from musici.strategies._plans import Planner
from musici.views import PlayerView

AREA_BIAS = {
    "dome": 1.0, "opera": 1.5, "large-academic": 4.0, "small-academic": 3.5,
    "chapel": -0.5, "university": -0.3, "large-commercial": -4.0, "small-commercial": -4.0,
}


class Impresario(Planner):
    name = "impresario"
    roster_target = 6  # six modern orchestras fill the dome and play most cards well
    max_roster = 9
    cash_cushion = 200
    media_fame_price = 45

    def area_bias(self, view: PlayerView, area: str) -> float:
        return AREA_BIAS.get(area, 0.0)

    def special_value(self, view: PlayerView, card: str) -> float:
        left = view.months - view.month + 1
        if card == "P2":  # +1 fame at every concert (SPECIAL.P2)
            return 60 * left + 60
        return super().special_value(view, card)


_PLANNER = Impresario()


def impresario_strategy(view: PlayerView, decision: Decision) -> Answer:
    """Answer ``decision`` as the impresario (see the module docstring)."""
    return _PLANNER(view, decision)


__all__ = ["Impresario", "impresario_strategy"]
