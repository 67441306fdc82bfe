"""Explore the restoration bonus (RESTORE.1–5): pick a discovery card and played cards.

The bonus is always the engine's own (:func:`musici.rating.restoration` and
``Restoration.bonus``, through :func:`musici.analysis.bonus_breakdown`), so what the
explorer shows is what a concert would score before the RESTORE.4 cap.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

import ipywidgets as widgets
import pandas as pd
import plotly.graph_objects as go

from musici.analysis import bonus_breakdown, bonus_figure, bonus_for_seat
from musici.cards import CardSet, standard_cardset
from musici.describe import card_name
from musici.engine import Game

# bonus_figure's traces that depend on the selection; the others (composers, lineage) don't
SLOTS: tuple[str, ...] = ("lineage used", "adds to the bonus", "played, adds nothing", "discovery")
NO_SEAT = -1


class BonusExplorer:
    """``.widget``: discovery dropdown, played-card selection, graph and breakdown table.

    With a ``game``, a seat dropdown fills the played cards (those before the discovery
    card if the seat played it), the pioneer card and, for a card already played, the
    concert's rating from that seat (:func:`musici.analysis.bonus_for_seat`), and the
    game's rulings (RULING-LINEAGE, RULING-RESTORE-GOOD) apply.
    """

    def __init__(self, cards: CardSet | None = None, game: Game | None = None,
                 discovery: str | None = None, played: Sequence[str] = ()) -> None:
        self.game = game
        self.cards = game.cards if game is not None else cards or standard_cardset()
        opts = game.rules.options if game is not None else {}
        self.lineage_any_depth = opts.get("RULING-LINEAGE", "any-depth") == "any-depth"
        self.lineage_only_needs_good = opts.get("RULING-RESTORE-GOOD") == "lineage-good-only"
        music = list(self.cards.music.values())
        discoveries = [(card_name(self.cards, c.id), c.id) for c in music if c.kind == "discovery"]
        if not discoveries:
            raise ValueError(f"the card set {self.cards.name!r} has no discovery cards")
        self.discovery = widgets.Dropdown(options=discoveries, description="discovery",
                                          value=discovery or discoveries[0][1],
                                          layout=widgets.Layout(width="460px"))
        self.discovery.add_class("discovery-select")
        self.played = widgets.SelectMultiple(
            options=[(card_name(self.cards, c.id), c.id) for c in music], value=tuple(played),
            description="played", rows=10, layout=widgets.Layout(width="460px"))
        self.played.add_class("played-select")
        self.good = widgets.Checkbox(value=True, description="concert rated good (RESTORE.3)",
                                     indent=False)
        self.good.add_class("good-box")
        self.pioneer = widgets.Checkbox(value=False, indent=False,
                                        description="owns the matching pioneer card (RESTORE.5)")
        self.pioneer.add_class("pioneer-box")
        seats = [("choose cards by hand", NO_SEAT)]
        if game is not None:
            seats += [(f"seat {s}", s) for s in range(game.n)]
        self.seat = widgets.Dropdown(options=seats, description="from", value=NO_SEAT)
        self.seat.add_class("seat-select")
        self.seat.layout.display = "flex" if game is not None else "none"

        self.table = widgets.HTML()
        self.table.add_class("bonus-table")
        self.frame: pd.DataFrame = pd.DataFrame()
        self.bonus = 0
        self.figure = go.FigureWidget(bonus_figure(self.cards, self.discovery.value,
                                                   self._played(), **self._options()))
        self.figure.layout.height = 480
        names = [t.name for t in self.figure.data]
        for slot in SLOTS:  # every slot exists from the start, so updates never add traces
            if slot not in names:
                self.figure.add_scatter(x=[], y=[], mode="markers", name=slot, showlegend=False)
        self.figure.add_class("bonus-graph")

        self._quiet = False
        for control in (self.discovery, self.played, self.good, self.pioneer):
            control.observe(self._on_change, names="value")
        self.seat.observe(self._on_seat, names="value")
        self.widget = widgets.VBox([
            widgets.HBox([widgets.VBox([self.discovery, self.seat, self.good, self.pioneer]),
                          self.played]),
            self.table, self.figure])
        self.widget.add_class("bonus-explorer")
        self.update(figure=False)  # the figure was just built for this selection

    def _on_change(self, change: dict[str, Any]) -> None:
        if self._quiet:
            return
        if change["owner"] is self.discovery and self.seat.value != NO_SEAT:
            self.fill_from_seat(int(self.seat.value))  # the cards before this discovery
        else:
            self.update()

    def _played(self) -> list[str]:
        return [c for c in self.played.value if c != self.discovery.value]

    def _options(self) -> dict[str, bool]:
        return {"pioneer": self.pioneer.value, "lineage_any_depth": self.lineage_any_depth,
                "good": self.good.value, "lineage_only_needs_good": self.lineage_only_needs_good}

    def _on_seat(self, change: dict[str, Any]) -> None:
        if change["new"] != NO_SEAT:
            self.fill_from_seat(int(change["new"]))

    def fill_from_seat(self, seat: int) -> None:
        """Take played cards, pioneer card and rating from ``seat`` of the game, as the
        engine does (:func:`musici.analysis.bonus_for_seat`): for a discovery card the seat
        already played, the cards played before it, the pioneer card then and that
        concert's rating; otherwise all its played cards, its pioneer card now and "rated
        good" ticked (RESTORE.3's "if the concert is good"). The boxes can be changed after."""
        if self.game is None:
            raise ValueError("no game to take a seat's cards from")
        frame, _ = bonus_for_seat(self.game, seat, self.discovery.value)
        played = [c for c in frame["card"] if c in self.cards.music]
        self._quiet = True
        try:
            self.played.value = tuple(played)
            self.pioneer.value = bool(frame.attrs["pioneer"])
            self.good.value = bool(frame.attrs["good"])
        finally:
            self._quiet = False
        self.update()

    def update(self, figure: bool = True) -> None:
        """Recompute the breakdown (engine's restoration) and refresh table and graph."""
        disc, played, options = self.discovery.value, self._played(), self._options()
        self.frame = bonus_breakdown(self.cards, disc, played, **options)
        self.bonus = int(self.frame.attrs["bonus"])
        self.table.value = self._table_html()
        if figure:
            self._update_figure(bonus_figure(self.cards, disc, played, **options))

    def _table_html(self) -> str:
        frame = self.frame
        body = (frame.to_html(index=False, escape=True) if len(frame)
                else "<i>no played cards</i>")
        capped = " (a concert caps the card's fame at 10, RESTORE.4)" if self.bonus else ""
        found = "" if frame.attrs["found"] else " — nothing found: a poor rating (RATE.POOR.5)"
        return (f"<div class='musici'>{body}<div><b>restoration bonus +{self.bonus}</b> for "
                f"{escape(card_name(self.cards, frame.attrs['discovery']))}{escape(capped)}"
                f"{escape(found)}</div></div>")

    def _update_figure(self, fig: go.Figure) -> None:
        new = {t.name: t for t in fig.data}
        with self.figure.batch_update():
            for trace in self.figure.data:
                if trace.name not in SLOTS:
                    continue
                source = new.get(trace.name)
                if source is None:
                    trace.x, trace.y, trace.hovertext, trace.customdata = [], [], [], []
                    continue
                props = source.to_plotly_json()
                props.pop("type", None)
                trace.update(props)
            self.figure.layout.title = fig.layout.title
            self.figure.layout.meta = fig.layout.meta

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


__all__ = ["BonusExplorer"]
