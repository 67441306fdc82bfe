"""Impresario: fame first.

Plays the concert worth most fame (plus a small weight on money) that it can staff and
afford. Its venue biases lean a little towards the big halls (dome +1, opera +1.5
fame-equivalents; chapel -0.5, university -0.3, P3.HALL), strongly towards the academic
tours (+3.5, +4), which multiply a concert's fame by 1.5 or 2 (P3.TOUR), and against the
commercial tours (-4), which give up a concert's fame for money. The hall biases are small
next to the rents (dome 200 G, opera 400 G, against the chapel's 50 G or nothing,
P3.HALL.1), so in play it is mostly a cheap-hall player: in 200 games against the
merchant, the collector and greedy (seed 0, rotated; docs/strategies.md gives the command)
it chose the chapel 46.5 % of the time, the university 17.5 %, the small and large academic
tours 11.4 % and 2.4 %, the dome 9.4 %, the opera 1.6 % and the commercial tours 11.0 %.
Money is only a means: it spends it as it comes with a small cushion, keeps a
six-orchestra band, bids for the media when the upgrade lifts this month's concert a level
(P2.4, RATE.MEDIA), and pays well for the Stradivari (SPECIAL.P2).
"""

from __future__ import annotations

from typing import Final

from musici.decisions import Answer, Decision
from musici.strategies._plans import Planner
from musici.views import PlayerView

AREA_BIAS: Final = {
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


_PLANNER: Final = Impresario()


def impresario_strategy(view: PlayerView, decision: Decision) -> Answer:
    """Answer ``decision`` as the impresario (see the module docstring)."""
    return _PLANNER(view, decision)


__all__ = ["Impresario", "impresario_strategy"]
