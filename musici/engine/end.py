"""END: the final scoring (END.1–END.7, END.WIN), computed by :func:`musici.scoring.final_scoring`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from musici import scoring
from musici.engine.context import emit

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
        emit(g,
            "award",
            a.rule,
            None,
            {"award": a.name, "counts": list(a.counts), "winners": list(a.winners), "share": str(a.share)},
        )
    for p in players:  # END.5
        if p.markers:
            emit(g, "marker_penalty", "END.5", p.seat, {"markers": p.marker_count})
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
    emit(g,
        "final",
        "END.WIN",
        None,
        {
            "fame": [str(f) for f in fame],
            "money": [p.money for p in players],
            "winners": winners,
            "ranks": ranks,
        },
    )
