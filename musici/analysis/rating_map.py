"""The rating map (RATE): rating and fame of one card for every mix of orchestras on stage.

Each cell is the engine's own :func:`musici.rating.rate_concert`; the text names the
rating and the rule that decided it, so the map shows RATE.POOR.2/3, RATE.FAIR.1/2 and
RATE.GOOD at a glance. One panel per style (the card's own and the other one).

Example::

    from musici import standard_cardset
    from musici.analysis.rating_map import rating_heatmap
    rating_heatmap(standard_cardset(), "S04").show()     # Handel's Messiah
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from musici.cards import CardSet
from musici.describe import card_name
from musici.rating import FAME_INDEX, rate_concert

if TYPE_CHECKING:
    import plotly.graph_objects as go

STYLES: tuple[str, ...] = ("authentic", "modern")


def _decided_by(reasons: Sequence[str], level: str) -> str:
    """The rules that set the level before the media: the POOR reasons, else the FAIR
    ones, else GOOD ("POOR.2+3" when two hold)."""
    for prefix in ("RATE.POOR.", "RATE.FAIR."):
        found = [r.removeprefix(prefix) for r in reasons if r.startswith(prefix)]
        if found:
            return prefix.removeprefix("RATE.") + "+".join(found)
    return "GOOD" if level == "good" else level.upper()


def rating_heatmap(cards: CardSet, card_id: str, *, styles: Sequence[str] = STYLES,
                   markers: int = 0, media: bool = False, most: int = 5) -> go.Figure:
    """Rating and fame of ``card_id`` for 0..``most`` instrumental (x) and vocal (y)
    orchestras, one panel per style; colour is the fame the card gives (RATE.FAME)."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    if card_id not in cards.music:
        raise KeyError(f"no music card {card_id!r} in the card set {cards.name!r}")
    unknown = [s for s in styles if s not in STYLES]
    if unknown or not styles:
        raise ValueError(f"styles must be among {STYLES}, got {list(styles)}")
    card = cards.music[card_id]
    size = list(range(most + 1))
    titles = []
    for style in styles:
        need = card.requirement(style)
        own = "its own style" if card.has_style(style) else "not its style"
        titles.append(f"{style} orchestras ({own}; asks {need[0]} + {need[1]})")
    fig = make_subplots(rows=1, cols=len(styles), subplot_titles=titles, horizontal_spacing=0.08)
    low, high = min(card.fame), max(card.fame)
    for col, style in enumerate(styles, start=1):
        fame, text, hover = [], [], []
        for vocal in size:
            row_f, row_t, row_h = [], [], []
            for inst in size:
                r = rate_concert(card, style, (inst, vocal), markers, media=media)
                value = card.fame[FAME_INDEX[r.level]]
                rule = _decided_by(r.reasons, r.base_level)
                row_f.append(value)
                row_t.append(r.level if rule == "GOOD" else f"{r.level}<br>{rule}")
                row_h.append(f"{inst} instrumental + {vocal} vocal: {r.level}, fame {value}"
                             f"<br>{', '.join(r.reasons) or 'RATE.GOOD'}")
            fame.append(row_f)
            text.append(row_t)
            hover.append(row_h)
        fig.add_trace(go.Heatmap(
            z=fame, x=size, y=size, text=text, texttemplate="%{text}", textfont={"size": 9},
            hovertext=hover, hoverinfo="text", colorscale="RdYlGn", zmin=low, zmax=high,
            showscale=col == len(styles), colorbar={"title": "fame"}, xgap=2, ygap=2),
            row=1, col=col)
        fig.update_xaxes(title_text="instrumental orchestras", tickvals=size, row=1, col=col)
        fig.update_yaxes(title_text="vocal orchestras" if col == 1 else None, tickvals=size,
                         row=1, col=col)
    extra = (f", {markers} dissent marker(s)" if markers else "") + (", holding the media"
                                                                      if media else "")
    fig.update_layout(
        title=f"Rating map of {card_name(cards, card_id)}{extra} (RATE; fame {card.fame})",
        template="plotly_white", height=470, width=1000, margin={"t": 90})
    return fig


__all__ = ["STYLES", "rating_heatmap"]
