"""The composer graph and the restoration bonus (RESTORE.1–5), computed by the engine.

:func:`bonus_breakdown` lists what every played card adds to a discovery card's
restoration, using :func:`musici.rating.restoration` and :meth:`Restoration.bonus`
themselves; :func:`bonus_figure` draws the composers (x: birth year, y: nationality group,
colour: era, symbol: group, arrows: teacher → student) and highlights who adds to a bonus.

Example::

    from musici import standard_cardset
    from musici.analysis import bonus_breakdown, bonus_figure

    cards = standard_cardset()
    table = bonus_breakdown(cards, "D06", ["S02", "S30"])
    table.attrs["bonus"]                      # the engine's Restoration.bonus
    bonus_figure(cards, "D06", ["S02", "S30"]).show()
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import networkx as nx
import pandas as pd

from musici import rating as R
from musici.cards import SPECIAL_NAMES, CardSet
from musici.composers import ERAS, GROUPS
from musici.describe import card_name

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from musici.engine import Game

ERA_COLOURS: dict[str, str] = {"baroque": "#2ca02c", "classical": "#1f77b4", "romantic": "#d62728"}
GROUP_SYMBOLS: dict[str, str] = {"german-austrian": "circle", "italian": "square",
                                 "french": "diamond", "other": "triangle-up"}
BREAKDOWN_COLUMNS = ["card", "name", "composer", "nationality_or_era", "composer_or_lineage",
                     "why", "points"]
PIONEERS = ("P5", "P6")


def composer_graph(cards: CardSet) -> nx.DiGraph:
    """Every composer of ``cards`` as a node, teacher → student edges (RESTORE.2).

    Node attributes: name, nationality, group, era, born, died, dates ("1685–1750"),
    cards (ids of the card set's music by that composer) and n_cards.
    """
    graph = cards.lineage_graph()
    by_composer: dict[str, list[str]] = {c: [] for c in cards.composers}
    for card in cards.music.values():
        by_composer.setdefault(card.composer, []).append(card.id)
    for cid, data in graph.nodes(data=True):
        data["dates"] = f"{data['born']}–{data['died']}"
        data["cards"] = tuple(by_composer.get(cid, ()))
        data["n_cards"] = len(data["cards"])
    return graph


def _discovery(cards: CardSet, discovery_id: str) -> Any:
    if discovery_id not in cards.music:
        raise KeyError(f"no music card {discovery_id!r} in the card set {cards.name!r}")
    card = cards.music[discovery_id]
    if card.kind != "discovery":
        raise ValueError(f"{discovery_id} is a {card.kind} card; restoration (RESTORE.1) is for "
                         "discovery cards")
    return card


def bonus_breakdown(cards: CardSet, discovery_id: str, played: Sequence[str], *,
                    pioneer: bool = False, lineage_any_depth: bool = True, good: bool = True,
                    lineage_only_needs_good: bool = False) -> pd.DataFrame:
    """One row per played card (and one for a pioneer special card, RESTORE.5): what it adds
    to the restoration of ``discovery_id``.

    Columns: card, name, composer, nationality_or_era (0/1), composer_or_lineage (0/1), why,
    points. The total, :meth:`musici.rating.Restoration.bonus` of the engine's
    :func:`musici.rating.restoration`, is ``frame.attrs["bonus"]``; ``attrs["found"]`` says
    whether anything was found (else RATE.POOR.5). ``good`` is whether the concert is rated
    good (RESTORE.3). The bonus is before the RESTORE.4 cap of 10 fame for the whole card.
    """
    card = _discovery(cards, discovery_id)
    played = list(played)
    restoration = R.restoration(cards, card, played, pioneer=pioneer,
                                lineage_any_depth=lineage_any_depth)
    bonus = restoration.bonus(good=good, lineage_only_needs_good=lineage_only_needs_good)
    found = {m.card: m for m in restoration.matches}
    rows: list[dict[str, Any]] = []
    for card_id in [*played, *(m.card for m in restoration.matches if m.card in PIONEERS)]:
        m = found.get(card_id)
        first = m.nationality_or_era if m else 0
        second = m.composer_or_lineage if m else 0
        if card_id in PIONEERS:
            name, composer = f"{SPECIAL_NAMES[card_id]} [{card_id}]", ""
        else:
            name, composer = card_name(cards, card_id), cards.composer_of(card_id).name
        # RESTORE.3 per card, as Restoration.bonus sums it
        points = (first + second) if good else (first if lineage_only_needs_good else 0)
        rows.append({"card": card_id, "name": name, "composer": composer,
                     "nationality_or_era": first, "composer_or_lineage": second,
                     "why": ", ".join(m.why) if m else "", "points": points})
    frame = pd.DataFrame(rows, columns=BREAKDOWN_COLUMNS)
    frame.attrs.update({
        "discovery": discovery_id, "bonus": bonus, "found": restoration.found,
        "good": good, "pioneer": pioneer, "lineage_any_depth": lineage_any_depth,
        "lineage_only_needs_good": lineage_only_needs_good,
    })
    return frame


def _played_before(game: Game, seat: int, discovery_id: str) -> tuple[list[str], Any]:
    """The seat's cards played before ``discovery_id`` (all, if it is not played yet),
    and that concert's event if it was played."""
    played = list(game.players[seat].played)
    if discovery_id not in played:
        return played, None
    event = next((e for e in game.events if e.kind == "concert" and e.player == seat
                  and e.data["card"] == discovery_id), None)
    return played[:played.index(discovery_id)], event


def bonus_for_seat(game: Game, seat: int, discovery_id: str, *, good: bool | None = None
                   ) -> tuple[pd.DataFrame, int]:
    """The breakdown and bonus of ``discovery_id`` for ``seat`` now: its played cards, the
    game's RULING-LINEAGE and RULING-RESTORE-GOOD, and its pioneer card (SPECIAL.P5/P6).

    If the seat already played the card, its earlier cards, pioneer and rating at that
    concert are used, so the bonus equals the one the concert recorded. Otherwise ``good``
    (default True: "if the concert is good") decides RESTORE.3.
    """
    if not 0 <= seat < game.n:
        raise ValueError(f"no seat {seat!r} in a {game.n}-player game")
    card = _discovery(game.cards, discovery_id)
    opts = game.rules.options
    played, event = _played_before(game, seat, discovery_id)
    pioneer_card = "P5" if card.deck == "modern" else "P6"
    if event is not None:
        matches = event.data["restoration"]["matches"]
        pioneer = any(m[0] == pioneer_card for m in matches)
        if good is None:
            good = event.data["rating"] == R.GOOD
    else:
        pioneer = pioneer_card in game.players[seat].permanent
    frame = bonus_breakdown(
        game.cards, discovery_id, played, pioneer=pioneer,
        lineage_any_depth=opts["RULING-LINEAGE"] == "any-depth",
        good=True if good is None else good,
        lineage_only_needs_good=opts["RULING-RESTORE-GOOD"] == "lineage-good-only")
    frame.attrs["seat"] = seat
    return frame, int(frame.attrs["bonus"])


# ---------------------------------------------------------------------------- figure
def composer_positions(graph: nx.DiGraph) -> dict[str, tuple[float, float]]:
    """A fixed layout: x = birth year, y = nationality group lane (GROUPS from the top),
    composers of one lane born close together stacked in sub-rows."""
    positions: dict[str, tuple[float, float]] = {}
    lanes = {g: len(GROUPS) - 1 - i for i, g in enumerate(GROUPS)}
    for group in GROUPS:
        members = sorted((n for n, d in graph.nodes(data=True) if d["group"] == group),
                         key=lambda n: (graph.nodes[n]["born"], n))
        last: list[int] = []  # last birth year placed in each sub-row
        for node in members:
            born = graph.nodes[node]["born"]
            row = next((i for i, year in enumerate(last) if born - year >= 14), None)
            if row is None:
                row = len(last)
                last.append(born)
            last[row] = born
            positions[node] = (float(born), lanes[group] + 0.22 * row)
    for node, data in graph.nodes(data=True):  # an unknown group: its own lane below
        positions.setdefault(node, (float(data["born"]), -1.0))
    return positions


def _hover(cards: CardSet, graph: nx.DiGraph, node: str) -> str:
    d = graph.nodes[node]
    works = "<br>".join(f"  {c}: {cards.music[c].piece}" for c in d["cards"]) or "  (no card)"
    teachers = ", ".join(graph.nodes[t]["name"] for t in graph.predecessors(node))
    text = (f"<b>{d['name']}</b><br>{d['nationality']} ({d['group']}), {d['era']}, "
            f"{d['dates']}<br>cards:<br>{works}")
    if teachers:
        text += f"<br>taught by {teachers}"
    return text


def bonus_figure(cards: CardSet, discovery_id: str | None = None, played: Sequence[str] = (),
                 **options: Any) -> go.Figure:
    """The composer graph; with a discovery card and played cards, the restoration.

    ``options`` go to :func:`bonus_breakdown` (pioneer, lineage_any_depth, good,
    lineage_only_needs_good). Traces: one per era (every composer once), one legend entry per
    nationality group, "lineage" lines, and with a discovery: "discovery" (its composer),
    "adds to the bonus" and "played, adds nothing". ``fig.layout.meta`` holds the bonus and
    the highlighted composer ids.
    """
    import plotly.graph_objects as go

    graph = composer_graph(cards)
    pos = composer_positions(graph)
    fig = go.Figure()

    # lineage edges: one line trace plus an arrow annotation per edge
    ex: list[float | None] = []
    ey: list[float | None] = []
    for a, b in graph.edges:
        ex += [pos[a][0], pos[b][0], None]
        ey += [pos[a][1], pos[b][1], None]
        fig.add_annotation(x=pos[b][0], y=pos[b][1], ax=pos[a][0], ay=pos[a][1], xref="x",
                           yref="y", axref="x", ayref="y", showarrow=True, arrowhead=2,
                           arrowsize=1.2, arrowwidth=1, arrowcolor="#999", standoff=8, text="")
    fig.add_trace(go.Scatter(x=ex, y=ey, mode="lines", name="lineage (teacher → student)",
                             line={"color": "#bbb", "width": 1}, hoverinfo="skip"))

    for era in ERAS:
        nodes = [n for n, d in graph.nodes(data=True) if d["era"] == era]
        fig.add_trace(go.Scatter(
            x=[pos[n][0] for n in nodes], y=[pos[n][1] for n in nodes], mode="markers+text",
            name=era, legendgroup="era", legendgrouptitle_text="era",
            marker={"color": ERA_COLOURS.get(era, "#777"), "size": 12,
                    "symbol": [GROUP_SYMBOLS.get(graph.nodes[n]["group"], "circle")
                               for n in nodes], "line": {"color": "white", "width": 1}},
            text=[graph.nodes[n]["name"].split()[-1] for n in nodes], textposition="top center",
            textfont={"size": 9}, customdata=nodes,
            hovertext=[_hover(cards, graph, n) for n in nodes], hoverinfo="text"))
    for group in GROUPS:  # legend entries for the symbols
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=group,
                                 legendgroup="group", legendgrouptitle_text="nationality group",
                                 marker={"symbol": GROUP_SYMBOLS[group], "color": "#666",
                                         "size": 10}))

    meta: dict[str, Any] = {"bonus": None, "discovery_composer": None, "adds": [], "no_bonus": []}
    title = "Composers and teaching lineage (RESTORE.1–2)"
    if discovery_id is not None:
        frame = bonus_breakdown(cards, discovery_id, played, **options)
        card = cards.music[discovery_id]
        me = card.composer
        adds: dict[str, list[str]] = {}
        nothing: dict[str, list[str]] = {}
        for row in frame.itertuples():
            if row.card in PIONEERS:
                continue
            composer = cards.music[row.card].composer
            found = row.nationality_or_era + row.composer_or_lineage
            target = adds if found else nothing
            target.setdefault(composer, []).append(
                f"{row.card}: {row.why or 'no match'} (+{row.points})")
        path_x: list[float | None] = []
        path_y: list[float | None] = []
        for composer, notes in adds.items():
            if any("lineage" in n for n in notes):
                for src, dst in ((composer, me), (me, composer)):
                    if nx.has_path(graph, src, dst):
                        path = nx.shortest_path(graph, src, dst)
                        for a, b in pairwise(path):
                            path_x += [pos[a][0], pos[b][0], None]
                            path_y += [pos[a][1], pos[b][1], None]
                        break
        if path_x:
            fig.add_trace(go.Scatter(x=path_x, y=path_y, mode="lines", name="lineage used",
                                     line={"color": "#ff7f0e", "width": 3}, hoverinfo="skip"))
        for name, found_map, colour in (("adds to the bonus", adds, "#ff7f0e"),
                                        ("played, adds nothing", nothing, "#888")):
            nodes = list(found_map)
            fig.add_trace(go.Scatter(
                x=[pos[n][0] for n in nodes], y=[pos[n][1] for n in nodes], mode="markers",
                name=name, customdata=nodes,
                marker={"size": 24, "symbol": "circle-open", "color": colour,
                        "line": {"width": 3}},
                hovertext=[f"<b>{graph.nodes[n]['name']}</b><br>" + "<br>".join(found_map[n])
                           for n in nodes], hoverinfo="text"))
        fig.add_trace(go.Scatter(
            x=[pos[me][0]], y=[pos[me][1]], mode="markers", name="discovery", customdata=[me],
            marker={"size": 30, "symbol": "star-open", "color": "gold", "line": {"width": 3}},
            hovertext=[f"<b>{card_name(cards, discovery_id)}</b><br>restoration +"
                       f"{frame.attrs['bonus']}"], hoverinfo="text"))
        bonus = int(frame.attrs["bonus"])
        pioneer_rows = frame[frame.card.isin(PIONEERS)]
        extra = "".join(f", {c} +{p}" for c, p in zip(pioneer_rows.card, pioneer_rows.points,
                                                       strict=True))
        title = (f"Restoring {card_name(cards, discovery_id)}: bonus +{bonus} "
                 f"({len(adds)} composer(s) add{extra}; musici.rating.restoration)")
        meta = {"bonus": bonus, "discovery_composer": me, "adds": sorted(adds),
                "no_bonus": sorted(nothing)}

    lanes = {g: len(GROUPS) - 1 - i for i, g in enumerate(GROUPS)}
    fig.update_layout(
        title={"text": title, "font": {"size": 14}}, meta=meta, template="plotly_white",
        height=560, hovermode="closest",
        xaxis={"title": "born", "zeroline": False},
        yaxis={"title": "nationality group", "tickvals": list(lanes.values()),
               "ticktext": list(lanes), "zeroline": False, "showgrid": False,
               "range": [-0.5, len(GROUPS) + 0.1]},
        legend={"groupclick": "toggleitem"})
    return fig


__all__ = ["bonus_breakdown", "bonus_figure", "bonus_for_seat", "composer_graph",
           "composer_positions"]
