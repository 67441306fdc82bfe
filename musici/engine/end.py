"""END: the final scoring (END.1–END.7, END.WIN), computed by :func:`musici.scoring.final_scoring`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from musici import scoring
from musici.engine.context import emit
from musici.events import Award, FinalResult, MarkerPenalty

if TYPE_CHECKING:
    from musici.engine.game import Game


def score(g: Game) -> None:
    g.phase = "END"
    players = g.players
    score = scoring.final_scoring(
        g.cards,
        g.rules,
        players,
        [p.fame for p in players],
        [p.money for p in players],
        [p.marker_count for p in players],
    )
    for a in score.awards:  # END.1–4, END.6–7
        emit(g, Award(g.month, g.phase, a.rule, None, a.name, a.counts, a.winners, str(a.share)))
    for p in players:  # END.5
        if p.markers:
            emit(g, MarkerPenalty(g.month, g.phase, "END.5", p.seat, p.marker_count))
    fame, ranks, winners = list(score.fame), list(score.ranks), list(score.winners)
    g.results = {
        "fame": fame,
        "money": [p.money for p in players],
        "awards": [
            {
                "award": a.name,
                "rule": a.rule,
                "counts": list(a.counts),
                "winners": list(a.winners),
                "share": a.share,
            }
            for a in score.awards
        ],
        "winners": winners,
        "ranks": ranks,
        "tie_break": score.tie_break,
    }
    emit(g, FinalResult(g.month, g.phase, "END.WIN", None, tuple(str(f) for f in fame),
                        tuple(p.money for p in players), score.winners, score.ranks))
