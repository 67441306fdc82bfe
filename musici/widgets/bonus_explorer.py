"""Explore the restoration bonus (RESTORE.1–5): pick a discovery card and played cards.

The bonus is always the engine's own (:func:`musici.rating.restoration` and
``Restoration.bonus``, through :func:`musici.analysis.bonus_breakdown`), so what the
explorer shows is what a concert would score before the RESTORE.4 cap.

The played cards show as chips named by composer and piece; the search box finds a card
by any part of its name (composer, piece or id, any case: "vival" finds Vivaldi), and
Enter adds the one card that matches or says why it did not. ``BonusExplorer(focus=...)``
or :meth:`BonusExplorer.focus` opens it on one card, for a concert or a discovery card in
the stepper::

    BonusExplorer(game=game, focus="D11", seat=2)   # D11 as seat 2 would restore it
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

import ipywidgets as widgets
import pandas as pd
import plotly.graph_objects as go

from musici.analysis import bonus_breakdown, bonus_figure, bonus_for_seat, lineage_figure
from musici.analysis.bonus_graph import LABELS_TRACE
from musici.cards import CardSet, standard_cardset
from musici.describe import card_name
from musici.engine import Game
from musici.events import Concert, Drew, Event

# the traces (by meta) that depend on the selection; the others never change
SLOTS: tuple[str, ...] = ("lineage used", "adds to the bonus", "played, adds nothing", "discovery",
                          LABELS_TRACE)
NO_SEAT = -1
VIEWS = (("time line, by country", "timeline"), ("teaching lineages", "tree"))
FIGURE_WIDTH = 900  # with the table beside it, the explorer fits a 1400 px page
MAX_MATCHES = 8  # buttons offered when a search matches several cards
CHIP_PIECE = 26  # characters of the piece a chip shows after the composer
HEADERS = {"card": "card", "name": "played card", "composer": "composer",
           "nationality_or_era": "country or era +1", "composer_or_lineage": "composer or lineage +1",
           "why": "why", "points": "points"}


def chip_labels(cards: CardSet) -> dict[str, str]:
    """A short, unique chip label for every music card: "Vivaldi · Gloria in D"."""
    labels: dict[str, str] = {}
    for c in cards.music.values():
        piece = c.piece if len(c.piece) <= CHIP_PIECE else c.piece[:CHIP_PIECE - 1].rstrip() + "…"
        label = f"{cards.composers[c.composer].name} · {piece}"
        if label in labels.values():  # two cards alike in their first words
            label += f" ({c.id})"
        labels[c.id] = label
    return labels


def search_cards(cards: CardSet, text: str) -> list[str]:
    """The music cards whose name, composer, piece or id contains ``text`` (any case); an
    exact full name or id first and alone."""
    needle = " ".join(text.split()).casefold()
    if not needle:
        return []
    names = {cid: card_name(cards, cid) for cid in cards.music}
    exact = [cid for cid, name in names.items()
             if needle in (name.casefold(), cid.casefold())]
    if exact:
        return exact[:1]
    return [cid for cid, name in names.items() if needle in name.casefold()]


class PlayedCards:
    """The played cards: ``.value`` as card ids, shown as chips named by composer
    (``.chips``, a TagsInput of :func:`chip_labels`)."""

    def __init__(self, labels: dict[str, str], played: Sequence[str]) -> None:
        self.labels = labels
        self.ids = {label: cid for cid, label in labels.items()}
        self.chips = widgets.TagsInput(value=[labels[c] for c in played],
                                       allowed_tags=list(labels.values()),
                                       allow_duplicates=False,
                                       placeholder="or type a composer here",
                                       description="played", style={"description_width": "90px"},
                                       layout=widgets.Layout(width="640px"))

    @property
    def value(self) -> tuple[str, ...]:
        return tuple(self.ids[t] for t in self.chips.value if t in self.ids)

    @value.setter
    def value(self, ids: Sequence[str]) -> None:
        unknown = [c for c in ids if c not in self.labels]
        if unknown:
            raise ValueError(f"not music cards of this card set: {unknown}")
        self.chips.value = [self.labels[c] for c in ids]


def breakdown_html(frame: pd.DataFrame, cards: CardSet, bonus: int) -> str:
    """The breakdown as a table with readable headers and the total under it."""
    if len(frame):
        shown = frame.drop(columns=["name"]).rename(columns=HEADERS)
        body = shown.to_html(index=False, escape=True, border=0)
    else:
        body = "<i>no played cards: pick some above</i>"
    capped = " (a concert caps the card's fame at 10, RESTORE.4)" if bonus else ""
    found = "" if frame.attrs["found"] else " — nothing found: a poor rating (RATE.POOR.5)"
    return (f"<div class='musici'>{body}<div style='margin-top:6px'><b>restoration bonus "
            f"+{bonus}</b> for {escape(card_name(cards, frame.attrs['discovery']))}"
            f"{escape(capped)}{escape(found)}</div></div>")


class BonusExplorer:
    """``.widget``: discovery card, played cards (chips, and a search box by composer or
    piece), the composer graph (time line by country, or the teaching lineages) and the
    breakdown table beside it.

    With a ``game``, a seat dropdown fills the played cards (those before the discovery
    card if the seat played it), the pioneer card and, for a card already played, the
    concert's rating from that seat (:func:`musici.analysis.bonus_for_seat`), and the
    game's rulings (RULING-LINEAGE, RULING-RESTORE-GOOD) apply.
    """

    def __init__(self, cards: CardSet | None = None, game: Game | None = None,
                 discovery: str | None = None, played: Sequence[str] = (), *,
                 focus: str | None = None, seat: int | None = None) -> None:
        self.game = game
        self.cards = game.cards if game is not None else cards or standard_cardset()
        opts = game.rules.options if game is not None else {}
        self.lineage_any_depth = opts.get("RULING-LINEAGE", "any-depth") == "any-depth"
        self.lineage_only_needs_good = opts.get("RULING-RESTORE-GOOD") == "lineage-good-only"
        music = list(self.cards.music.values())
        discoveries = [(card_name(self.cards, c.id), c.id) for c in music if c.kind == "discovery"]
        if not discoveries:
            raise ValueError(f"the card set {self.cards.name!r} has no discovery cards")
        unknown = [c for c in played if c not in self.cards.music]
        if unknown:
            raise ValueError(f"played cards {unknown} are not music cards of {self.cards.name!r}")
        wide = {"description_width": "90px"}
        self.discovery = widgets.Dropdown(options=discoveries, description="discovery",
                                          value=discovery or discoveries[0][1], style=wide,
                                          layout=widgets.Layout(width="640px"))
        self.discovery.add_class("discovery-select")
        self.labels = {c.id: card_name(self.cards, c.id) for c in music}
        self.played = PlayedCards(chip_labels(self.cards), played)
        self.played.chips.add_class("played-select")
        # continuous_update off: the text arrives when Enter is pressed (or the box is left)
        self.search = widgets.Combobox(
            options=list(self.labels.values()), ensure_option=False, style=wide,
            description="add card", continuous_update=False,
            placeholder="any part of a composer or piece, e.g. vival, then Enter",
            layout=widgets.Layout(width="640px"))
        self.search.add_class("played-search")
        self.status = widgets.HTML()
        self.status.add_class("search-status")
        # several matches: one button each, a click adds that card
        self.matches = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.matches.add_class("search-matches")
        self.focused: str | None = None
        auto = widgets.Layout(width="auto")
        self.good = widgets.Checkbox(value=True, description="concert rated good (RESTORE.3)",
                                     indent=False, layout=auto)
        self.good.add_class("good-box")
        self.pioneer = widgets.Checkbox(value=False, indent=False, layout=auto,
                                        description="owns the matching pioneer card (RESTORE.5)")
        self.pioneer.add_class("pioneer-box")
        seats = [("choose cards by hand", NO_SEAT)]
        if game is not None:
            seats += [(f"seat {s}", s) for s in range(game.n)]
        self.seat = widgets.Dropdown(options=seats, description="from", value=NO_SEAT, style=wide)
        self.seat.add_class("seat-select")
        self.seat.layout.display = "flex" if game is not None else "none"
        self.view = widgets.ToggleButtons(options=VIEWS, value="timeline")
        self.view.add_class("graph-view")

        self.table = widgets.HTML(layout=widgets.Layout(width="440px"))
        self.table.add_class("bonus-table")
        self.frame: pd.DataFrame = pd.DataFrame()
        self.bonus = 0
        # Every trace exists in the figures from the start (the selection traces are empty
        # without a selection): they are updated in place, never added after wrapping.
        self.figures = {
            "timeline": go.FigureWidget(self._figure("timeline")),
            "tree": go.FigureWidget(self._figure("tree")),
        }
        self.figure = self.figures["timeline"]
        self.figure.add_class("bonus-graph")
        self.figures["tree"].add_class("lineage-graph")

        self._quiet = False
        for control in (self.discovery, self.played.chips, self.good, self.pioneer):
            control.observe(self._on_change, names="value")
        self.seat.observe(self._on_seat, names="value")
        self.search.observe(self._on_search, names="value")
        self.view.observe(self._on_view, names="value")
        # both views live in the page from the start (a FigureWidget first shown later failed
        # to initialise in anywidget); the toggle hides the other one's box
        self.views = {name: widgets.Box([fig]) for name, fig in self.figures.items()}
        self.views["tree"].layout.display = "none"
        self.graphs = widgets.VBox(list(self.views.values()))
        choose = widgets.VBox([self.discovery, self.search, self.status, self.matches,
                               self.played.chips,
                               widgets.HBox([self.seat, self.good, self.pioneer])])
        self.widget = widgets.VBox([
            choose, self.view,
            widgets.HBox([self.graphs, self.table],
                         layout=widgets.Layout(align_items="flex-start"))])
        self.widget.add_class("bonus-explorer")
        self.update(figure=False)  # the figures were just built for this selection
        if seat is not None and focus is None:
            if game is None:
                raise ValueError("a seat needs a game: BonusExplorer(game=..., seat=...)")
            self.seat.value = seat  # fills the played cards from the game
        if focus is not None:
            self.focus(focus, seat=seat)

    # ------------------------------------------------------------------ events
    def _on_change(self, change: dict[str, Any]) -> None:
        if self._quiet:
            return
        if change["owner"] is self.discovery and self.seat.value != NO_SEAT:
            self.fill_from_seat(int(self.seat.value))  # the cards before this discovery
        else:
            self.update()

    def _on_search(self, change: dict[str, Any]) -> None:
        """Enter in the search box: add the one card matching any part of its name, or say
        why nothing was added (no match, or several: they are listed)."""
        self.add_by_name(str(change["new"]))

    def add_by_name(self, text: str) -> str | None:
        """Add the one music card whose name contains ``text`` (:func:`search_cards`) to
        the played cards and return its id; with no match or several, say so in
        ``.status`` (class ``search-status``) and return None."""
        text = text.strip()
        if not text:
            return None
        found = search_cards(self.cards, text)
        self._show_matches(found if len(found) > 1 else [])
        if len(found) != 1:
            if found:
                more = (f" (the first {MAX_MATCHES} shown)" if len(found) > MAX_MATCHES
                        else "")
                words = (f"{len(found)} cards match “{escape(text)}”{more}: click one to "
                         f"add it, or type more of the name")
            else:
                words = (f"no card matches “{escape(text)}”: type part of a composer, a "
                         f"piece or an id such as S07")
            self.status.value = f"<span style='color:#a60;font-size:13px'>{words}</span>"
            return None
        picked = found[0]
        if picked == self.discovery.value:
            self.status.value = (f"<span style='color:#a60;font-size:13px'>"
                                 f"{escape(self.played.labels[picked])} is the discovery card "
                                 f"itself</span>")
            return None
        if picked not in self.played.value:
            self.played.value = [*self.played.value, picked]
        self.status.value = (f"<span style='color:#2a7;font-size:13px'>added "
                             f"{escape(self.labels[picked])}</span>")
        self.search.value = ""
        return picked

    @classmethod
    def from_event(cls, game: Game, event: Event) -> BonusExplorer:
        """The explorer focused on the card of a ``concert`` event (P4.CONCERT.4) or of a
        discovery (``drew``, P4.DISCOVER.1), from the seat that played or drew it: the link
        from the stepper's events to the restoration bonus."""
        card = event.card if isinstance(event, Concert | Drew) else None
        if card is None or card not in game.cards.music:
            raise ValueError(f"a {event.kind!r} event names no score or discovery card to "
                             "explore (expected a concert or a drawn discovery card)")
        return cls(game=game, focus=str(card), seat=event.player)

    def _show_matches(self, found: Sequence[str]) -> None:
        """One button per matching card (class ``search-match``); the old ones closed."""
        for old in self.matches.children:
            old.close()
        buttons = []
        for cid in found[:MAX_MATCHES]:
            button = widgets.Button(description=f"add {self.played.labels[cid]}", icon="plus",
                                    button_style="info", tooltip=self.labels[cid],
                                    layout=widgets.Layout(width="auto"))
            button.add_class("search-match")
            button.on_click(lambda _b, c=cid: self.add_by_name(c))
            buttons.append(button)
        self.matches.children = tuple(buttons)

    def focus(self, card_id: str, seat: int | None = None) -> None:
        """Open on ``card_id``: a discovery card becomes the one restored (with ``seat``,
        from that seat's played cards); a score card joins the played cards, and the
        discovery card it adds most to is chosen (RESTORE.1)."""
        if card_id not in self.cards.music:
            raise ValueError(f"no music card {card_id!r} in {self.cards.name!r} (a score or "
                             "discovery card id, such as S07 or D11)")
        if seat is not None and self.game is None:
            raise ValueError("a seat needs a game: BonusExplorer(game=..., seat=...)")
        if seat is not None and self.seat.value != seat:
            self.seat.value = seat
        self.focused = card_id
        card = self.cards.music[card_id]
        if card.kind == "discovery":
            self.discovery.value = card_id
        else:
            if card_id not in self.played.value:
                self.played.value = [*self.played.value, card_id]
            adds = {cid: self._adds(card_id, cid) for _, cid in self.discovery.options}
            best = max(adds, key=lambda cid: adds[cid])  # the first of the best
            if adds[best] > adds.get(self.discovery.value, 0):
                self.discovery.value = best
        self.status.value = (f"<span style='font-size:13px'>focused on "
                             f"<b>{escape(self.labels[card_id])}</b></span>")

    def _adds(self, card_id: str, discovery: str) -> int:
        """The points ``card_id`` adds to ``discovery``'s restoration (the engine's)."""
        frame = bonus_breakdown(self.cards, discovery, [card_id], **self._options())
        return int(frame.loc[frame["card"] == card_id, "points"].sum())

    def _on_view(self, change: dict[str, Any]) -> None:
        for name, box in self.views.items():
            box.layout.display = "flex" if name == change["new"] else "none"

    def _played(self) -> list[str]:
        return [c for c in self.played.value if c != self.discovery.value]

    def _options(self) -> dict[str, bool]:
        return {"pioneer": self.pioneer.value, "lineage_any_depth": self.lineage_any_depth,
                "good": self.good.value, "lineage_only_needs_good": self.lineage_only_needs_good}

    def _figure(self, view: str) -> go.Figure:
        draw = bonus_figure if view == "timeline" else lineage_figure
        return draw(self.cards, self.discovery.value, self._played(), width=FIGURE_WIDTH,
                    **self._options())

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
            self.played.value = list(played)
            self.pioneer.value = bool(frame.attrs["pioneer"])
            self.good.value = bool(frame.attrs["good"])
        finally:
            self._quiet = False
        self.update()

    # ------------------------------------------------------------------ drawing
    def update(self, figure: bool = True) -> None:
        """Recompute the breakdown (engine's restoration) and refresh table and graphs."""
        self.frame = bonus_breakdown(self.cards, self.discovery.value, self._played(),
                                     **self._options())
        self.bonus = int(self.frame.attrs["bonus"])
        self.table.value = breakdown_html(self.frame, self.cards, self.bonus)
        if figure:
            for view, widget in self.figures.items():
                self._update_figure(widget, self._figure(view))

    @staticmethod
    def _update_figure(widget: go.FigureWidget, fig: go.Figure) -> None:
        new = {t.meta: t for t in fig.data}
        with widget.batch_update():
            for trace in widget.data:
                if trace.meta not in SLOTS:
                    continue
                props = new[trace.meta].to_plotly_json()
                props.pop("type", None)
                trace.update(props, overwrite=True)
            widget.layout.title = fig.layout.title
            widget.layout.meta = fig.layout.meta

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/html"] = self.static_html()  # a page without a kernel (the docs)
        return bundle

    def static_html(self) -> str:
        """The graph and table as plain HTML (plotly.js expected on the page)."""
        fig = self._figure(self.view.value)
        return ("<div class='bonus-explorer-static' style='display:flex;gap:12px;"
                "align-items:flex-start;overflow-x:auto'>"
                f"<div>{fig.to_html(include_plotlyjs=False, full_html=False)}</div>"
                f"<div style='max-width:440px'>{self.table.value}</div></div>")


__all__ = ["BonusExplorer", "PlayedCards", "breakdown_html", "chip_labels", "search_cards"]
