"""The composer graph and the restoration bonus (RESTORE.1–5), computed by the engine.

:func:`bonus_breakdown` lists what every played card adds to a discovery card's
restoration, using :func:`musici.rating.restoration` and :meth:`Restoration.bonus`
themselves; :func:`bonus_figure` draws the composers (x: birth year, y: one lane per
country, as RESTORE.1 compares it; colour: era; labels placed so that none overlap) and
rings who adds to a bonus; :func:`lineage_figure` draws the teaching lineages (RESTORE.2)
as family trees.

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
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import networkx as nx
import pandas as pd

from musici import events as ev
from musici import rating as R
from musici.analysis.palette import ERA_COLOURS
from musici.cards import SPECIAL_NAMES, CardSet
from musici.composers import ERAS, GROUPS
from musici.describe import card_name

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from musici.engine import Game

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


def _played_before(game: Game, seat: int, discovery_id: str
                   ) -> tuple[list[str], ev.Concert | None]:
    """The seat's cards played before ``discovery_id`` (all, if it is not played yet),
    and that concert's event if it was played."""
    played = list(game.players[seat].played)
    if discovery_id not in played:
        return played, None
    event = next((e for e in game.events if isinstance(e, ev.Concert) and e.player == seat
                  and e.card == discovery_id), None)
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
        matches = event.restoration.matches if event.restoration is not None else ()
        pioneer = any(m[0] == pioneer_card for m in matches)
        if good is None:
            good = event.rating == R.GOOD
    else:
        pioneer = pioneer_card in game.players[seat].permanent
    frame = bonus_breakdown(
        game.cards, discovery_id, played, pioneer=pioneer,
        lineage_any_depth=opts["RULING-LINEAGE"] == "any-depth",
        good=True if good is None else good,
        lineage_only_needs_good=opts["RULING-RESTORE-GOOD"] == "lineage-good-only")
    frame.attrs["seat"] = seat
    return frame, int(frame.attrs["bonus"])


# ---------------------------------------------------------------------------- layout
# Sizes in page pixels: labels are placed so that no two overlap in the drawn figure.
FONT_SIZE = 11
CHAR_PX = 7.0  # a generous mean glyph width at FONT_SIZE (bold included)
LABEL_GAP_PX = 15  # from a composer's centre to its label: clear of the rings (radius <= 13)
ROW_PX = 24  # one sub-row of a country lane
MARGIN = {"l": 120, "r": 20, "t": 110, "b": 50}
WIDTH = 900  # fits a docs page and a notebook; labels are packed for the width used


def composer_labels(graph: nx.DiGraph) -> dict[str, str]:
    """Surnames, or full names where two composers share the surname (both Bachs,
    both Scarlattis), so no two labels read the same."""
    surname = {n: d["name"].split()[-1] for n, d in graph.nodes(data=True)}
    counts: dict[str, int] = {}
    for name in surname.values():
        counts[name] = counts.get(name, 0) + 1
    return {n: graph.nodes[n]["name"] if counts[s] > 1 else s for n, s in surname.items()}


def country_lanes(graph: nx.DiGraph) -> list[str]:
    """Countries top to bottom: the scoring groups' countries first (GROUPS order), then
    by number of composers. RESTORE.1 compares the country, not the scoring group."""
    count: dict[str, int] = {}
    group_of: dict[str, str] = {}
    for _, d in graph.nodes(data=True):
        count[d["nationality"]] = count.get(d["nationality"], 0) + 1
        group_of.setdefault(d["nationality"], d["group"])
    rank = {g: i for i, g in enumerate(GROUPS)}
    return sorted(count, key=lambda c: (rank.get(group_of[c], len(GROUPS)), -count[c], c))


def _label_px(label: str) -> float:
    return CHAR_PX * len(label) + 4


@dataclass(frozen=True)
class ComposerLayout:
    """Where :func:`bonus_figure` draws each composer, and the size it needs.

    ``positions``: node -> (birth year, y); ``label_x``: where each label starts (years);
    ``lanes``: country -> (top y, bottom y, centre y); ``x_range``, ``height``, ``width``
    are the figure's, for which the labels were checked not to overlap.
    """

    positions: dict[str, tuple[float, float]]
    label_x: dict[str, float]
    labels: dict[str, str]
    lanes: dict[str, tuple[float, float, float]]
    x_range: tuple[float, float]
    width: int
    height: int


def composer_layout(graph: nx.DiGraph, width: int = WIDTH) -> ComposerLayout:
    """x = birth year, one lane per country; inside a lane, composers whose labels would
    touch go to sub-rows (greedy interval packing in page pixels)."""
    if graph.number_of_nodes() == 0:
        raise ValueError("the card set has no composers to draw")
    labels = composer_labels(graph)
    born = {n: float(d["born"]) for n, d in graph.nodes(data=True)}
    plot_px = width - MARGIN["l"] - MARGIN["r"]
    lo = min(born.values()) - 6
    hi = max(born.values()) + 10
    for _ in range(20):  # widen the x range until the rightmost label fits
        scale = plot_px / (hi - lo)
        need = max(born[n] + (LABEL_GAP_PX + _label_px(labels[n]) + 6) / scale for n in born)
        if need <= hi:
            break
        hi = need
    scale = plot_px / (hi - lo)
    positions: dict[str, tuple[float, float]] = {}
    lanes: dict[str, tuple[float, float, float]] = {}
    row = 0  # global sub-row counter, top row is 0; y = -row
    for country in country_lanes(graph):
        members = sorted((n for n, d in graph.nodes(data=True) if d["nationality"] == country),
                         key=lambda n: (born[n], n))
        ends: list[float] = []  # right end (px) of the last label in each sub-row
        for node in members:
            x_px = (born[node] - lo) * scale
            left, right = x_px - 12, x_px + LABEL_GAP_PX + _label_px(labels[node])
            sub = next((i for i, end in enumerate(ends) if end + 6 <= left), None)
            if sub is None:
                sub = len(ends)
                ends.append(right)
            ends[sub] = right
            positions[node] = (born[node], -float(row + sub))
        top, bottom = -float(row), -float(row + len(ends) - 1)
        lanes[country] = (top, bottom, (top + bottom) / 2)
        row += len(ends)
    label_x = {n: born[n] + LABEL_GAP_PX / scale for n in born}
    height = MARGIN["t"] + MARGIN["b"] + ROW_PX * (row + 1)
    return ComposerLayout(positions, label_x, labels, lanes, (lo, hi), width, int(height))


def composer_positions(graph: nx.DiGraph) -> dict[str, tuple[float, float]]:
    """x = birth year, y = country lane (sub-rows where labels would collide); see
    :func:`composer_layout`."""
    return composer_layout(graph).positions


# ---------------------------------------------------------------------------- selection
@dataclass(frozen=True)
class _Selection:
    frame: pd.DataFrame
    me: str  # the discovery card's composer
    adds: dict[str, list[str]]
    nothing: dict[str, list[str]]
    paths: list[list[str]]  # teacher -> student chains that link an adding composer and me


def _selection(cards: CardSet, graph: nx.DiGraph, discovery_id: str, played: Sequence[str],
               options: dict[str, Any]) -> _Selection:
    frame = bonus_breakdown(cards, discovery_id, played, **options)
    me = cards.music[discovery_id].composer
    adds: dict[str, list[str]] = {}
    nothing: dict[str, list[str]] = {}
    for row in frame.itertuples():
        if row.card in PIONEERS:
            continue
        composer = cards.music[row.card].composer
        target = adds if row.nationality_or_era + row.composer_or_lineage else nothing
        target.setdefault(composer, []).append(
            f"{row.card}: {row.why or 'no match'} (+{row.points})")
    paths = []
    for composer, notes in adds.items():
        if composer != me and any("lineage" in n for n in notes):
            for src, dst in ((composer, me), (me, composer)):
                if nx.has_path(graph, src, dst):
                    paths.append(nx.shortest_path(graph, src, dst))
                    break
    return _Selection(frame, me, adds, nothing, paths)


def _title(cards: CardSet, discovery_id: str, sel: _Selection) -> str:
    bonus = int(sel.frame.attrs["bonus"])
    pioneer = sel.frame[sel.frame.card.isin(PIONEERS)]
    extra = "".join(f", {c} +{p}" for c, p in zip(pioneer.card, pioneer.points, strict=True))
    return (f"Restoring {card_name(cards, discovery_id)}: bonus +{bonus}<br><sup>"
            f"{len(sel.adds)} composer(s) add{extra} (RESTORE.1–5; before the RESTORE.4 cap)"
            "</sup>")


def _meta(sel: _Selection | None) -> dict[str, Any]:
    if sel is None:
        return {"bonus": None, "discovery_composer": None, "adds": [], "no_bonus": []}
    return {"bonus": int(sel.frame.attrs["bonus"]), "discovery_composer": sel.me,
            "adds": sorted(sel.adds), "no_bonus": sorted(sel.nothing)}


def _highlight_traces(cards: CardSet, graph: nx.DiGraph, discovery_id: str | None,
                      sel: _Selection | None, pos: dict[str, tuple[float, float]]) -> list[Any]:
    """The selection traces, always all four (empty without a selection), so a widget can
    update them in place: "lineage used", "adds to the bonus", "played, adds nothing",
    "discovery"."""
    import plotly.graph_objects as go

    px: list[float | None] = []
    py: list[float | None] = []
    hover: list[str] = []
    for path in sel.paths if sel else []:
        chain = " → ".join(graph.nodes[n]["name"] for n in path)
        for a, b in pairwise(path):
            px += [pos[a][0], pos[b][0], None]
            py += [pos[a][1], pos[b][1], None]
            hover += [chain, chain, ""]
    traces = [go.Scatter(x=px, y=py, mode="lines", name="lineage used (RESTORE.2)",
                         line={"color": "#ff7f0e", "width": 3}, opacity=0.7, hovertext=hover,
                         hoverinfo="text", meta="lineage used")]
    for name, found, colour in (("adds to the bonus", sel.adds if sel else {}, "#ff7f0e"),
                                ("played, adds nothing", sel.nothing if sel else {}, "#888")):
        nodes = list(found)
        traces.append(go.Scatter(
            x=[pos[n][0] for n in nodes], y=[pos[n][1] for n in nodes], mode="markers",
            name=name, meta=name, customdata=nodes,
            marker={"size": 20, "symbol": "circle-open", "color": colour, "line": {"width": 3}},
            hovertext=[f"<b>{graph.nodes[n]['name']}</b><br>" + "<br>".join(found[n])
                       for n in nodes], hoverinfo="text"))
    me = [sel.me] if sel else []
    hover_me = ([f"<b>{card_name(cards, discovery_id)}</b><br>restoration +"
                 f"{sel.frame.attrs['bonus']}"] if sel and discovery_id else [])
    traces.append(go.Scatter(
        x=[pos[n][0] for n in me], y=[pos[n][1] for n in me], mode="markers", name="discovery",
        meta="discovery", customdata=me, hovertext=hover_me, hoverinfo="text",
        marker={"size": 22, "symbol": "star-open", "color": "#d4a000", "line": {"width": 3}}))
    return traces


def _label_colours(graph: nx.DiGraph, sel: _Selection | None) -> list[str]:
    colours = []
    for n in graph.nodes:
        if sel is not None and n == sel.me:
            colours.append("#8a6d00")
        elif sel is not None and n in sel.adds:
            colours.append("#c25400")
        else:
            colours.append("#333")
    return colours


def _label_texts(graph: nx.DiGraph, labels: dict[str, str], sel: _Selection | None) -> list[str]:
    marked = {sel.me, *sel.adds} if sel else set()
    return [f"<b>{labels[n]}</b>" if n in marked else labels[n] for n in graph.nodes]


# ---------------------------------------------------------------------------- figures
LABELS_TRACE = "composer names"


def bonus_figure(cards: CardSet, discovery_id: str | None = None, played: Sequence[str] = (),
                 *, width: int = WIDTH, **options: Any) -> go.Figure:
    """The composers on a time line, one lane per country; with a discovery card and
    played cards, the restoration.

    ``options`` go to :func:`bonus_breakdown` (pioneer, lineage_any_depth, good,
    lineage_only_needs_good). Traces (by ``meta``): one per era (every composer once),
    "composer names" (the labels, placed by :func:`composer_layout` so none overlap),
    "teaching links" (all, hidden until picked in the legend), and always the selection
    traces "lineage used", "adds to the bonus", "played, adds nothing", "discovery" (empty
    without a discovery). ``fig.layout.meta`` holds the bonus and the highlighted ids.
    """
    import plotly.graph_objects as go

    graph = composer_graph(cards)
    layout = composer_layout(graph, width)
    pos = layout.positions
    sel = _selection(cards, graph, discovery_id, played, options) if discovery_id else None

    ex: list[float | None] = []
    ey: list[float | None] = []
    for a, b in graph.edges:
        ex += [pos[a][0], pos[b][0], None]
        ey += [pos[a][1], pos[b][1], None]
    highlights = _highlight_traces(cards, graph, discovery_id, sel, pos)
    traces: list[Any] = [go.Scatter(
        x=ex, y=ey, mode="lines", name="all teaching links", meta="teaching links",
        visible="legendonly", line={"color": "#bbb", "width": 1}, hoverinfo="skip"),
        highlights[0]]
    for era in ERAS:
        nodes = [n for n, d in graph.nodes(data=True) if d["era"] == era]
        traces.append(go.Scatter(
            x=[pos[n][0] for n in nodes], y=[pos[n][1] for n in nodes], mode="markers",
            name=f"{era} era", meta=era,
            marker={"color": ERA_COLOURS.get(era, "#777"), "size": 10,
                    "line": {"color": "white", "width": 1}},
            customdata=nodes, hovertext=[_hover(cards, graph, n) for n in nodes],
            hoverinfo="text"))
    nodes = list(graph.nodes)
    traces.append(go.Scatter(
        x=[layout.label_x[n] for n in nodes], y=[pos[n][1] for n in nodes], mode="text",
        name=LABELS_TRACE, meta=LABELS_TRACE, customdata=nodes, showlegend=False,
        text=_label_texts(graph, layout.labels, sel), textposition="middle right",
        textfont={"size": FONT_SIZE, "color": _label_colours(graph, sel)}, hoverinfo="skip"))
    traces += highlights[1:]

    shapes = []
    for i, (top, bottom, _) in enumerate(layout.lanes.values()):
        if i % 2 == 0:
            shapes.append({"type": "rect", "xref": "paper", "x0": 0, "x1": 1, "yref": "y",
                           "y0": bottom - 0.5, "y1": top + 0.5, "fillcolor": "#f3f3f3",
                           "line": {"width": 0}, "layer": "below"})
    title = (_title(cards, discovery_id, sel) if sel and discovery_id
             else "Composers by birth year and country (RESTORE.1); teachers in the hover")
    fig = go.Figure(data=traces)
    lowest = min(bottom for _, bottom, _ in layout.lanes.values())
    fig.update_layout(
        title={"text": title, "font": {"size": 14}, "y": 0.985, "yanchor": "top",
               "yref": "container"},
        meta=_meta(sel), template="plotly_white", width=layout.width, height=layout.height,
        margin=MARGIN, hovermode="closest",
        shapes=shapes, showlegend=True,
        legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0, "font": {"size": 11}},
        xaxis={"title": "born", "zeroline": False, "range": list(layout.x_range),
               "fixedrange": True},
        yaxis={"title": "country (RESTORE.1 compares it)",
               "tickvals": [c for _, _, c in layout.lanes.values()],
               "ticktext": list(layout.lanes), "zeroline": False, "showgrid": False,
               "range": [lowest - 0.6, 0.6], "fixedrange": True})
    return fig


TREE_ROW_PX = 64  # a composer, its two-line label above it, and some air
TREE_LABEL_UP = 0.45  # the label's centre above its composer, in rows


def lineage_tree_layout(graph: nx.DiGraph) -> dict[str, tuple[float, float]]:
    """The teaching lineages as family trees: only composers with a teacher or a student;
    x = generation (``nx.topological_generations`` of each tree), trees stacked top to
    bottom by their eldest member; inside a generation, pupils sit near the mean row of
    their teachers (one barycentre pass), one row per composer."""
    linked = graph.subgraph([n for n in graph.nodes if graph.degree(n) > 0])
    trees = sorted(nx.weakly_connected_components(linked),
                   key=lambda c: min(graph.nodes[n]["born"] for n in c))
    positions: dict[str, tuple[float, float]] = {}
    top = 0.0
    for members in trees:
        tree = linked.subgraph(members)
        generations = [sorted(g, key=lambda n: (graph.nodes[n]["born"], n))
                       for g in nx.topological_generations(tree)]
        rows: dict[str, float] = {}
        for depth, generation in enumerate(generations):
            if depth:
                generation.sort(key=lambda n: (sum(rows[t] for t in tree.predecessors(n))
                                               / max(1, tree.in_degree(n)), n))
            for i, node in enumerate(generation):
                rows[node] = float(i)
                positions[node] = (float(depth), top - i)
        top -= max(len(g) for g in generations)
    return positions


def _elbows(graph: nx.DiGraph, pos: dict[str, tuple[float, float]]
            ) -> tuple[list[float | None], list[float | None]]:
    """Teacher -> pupil as elbow lines: along the teacher's row to just before the pupil's
    column, then down or up, then in. Labels sit above the rows, centred on their column,
    so no line crosses a label."""
    xs: list[float | None] = []
    ys: list[float | None] = []
    for a, b in graph.edges:
        (x0, y0), (x1, y1) = pos[a], pos[b]
        turn = x1 - 0.5
        xs += [x0, turn, turn, x1, None]
        ys += [y0, y0, y1, y1, None]
    return xs, ys


def lineage_figure(cards: CardSet, discovery_id: str | None = None, played: Sequence[str] = (),
                   *, width: int = WIDTH, **options: Any) -> go.Figure:
    """The teaching lineages (RESTORE.2) as family trees, teacher left of pupil, with the
    same selection traces as :func:`bonus_figure`. Composers without a teacher or pupil in
    the card set are left out (they can only add through country, era or the same
    composer)."""
    import plotly.graph_objects as go

    graph = composer_graph(cards)
    pos = lineage_tree_layout(graph)
    if not pos:
        raise ValueError(f"the card set {cards.name!r} has no teaching links to draw")
    sel = _selection(cards, graph, discovery_id, played, options) if discovery_id else None
    sub = graph.subgraph(pos)
    ex, ey = _elbows(sub, pos)
    nodes = list(sub.nodes)
    if sel is not None:  # a composer outside the trees cannot be ringed here
        sel = _Selection(sel.frame, sel.me, {k: v for k, v in sel.adds.items() if k in pos},
                         {k: v for k, v in sel.nothing.items() if k in pos}, sel.paths)
    ringed = dict(pos)
    if sel is not None and sel.me not in pos:
        ringed[sel.me] = (float("nan"), float("nan"))
    highlights = _highlight_traces(cards, graph, discovery_id, sel, ringed)
    traces: list[Any] = [go.Scatter(x=ex, y=ey, mode="lines", name="teacher → pupil",
                                    meta="teaching links", line={"color": "#aaa", "width": 1.5},
                                    hoverinfo="skip"), highlights[0]]
    for era in ERAS:
        members = [n for n in nodes if graph.nodes[n]["era"] == era]
        traces.append(go.Scatter(
            x=[pos[n][0] for n in members], y=[pos[n][1] for n in members], mode="markers",
            name=f"{era} era", meta=era, customdata=members,
            marker={"color": ERA_COLOURS.get(era, "#777"), "size": 12},
            hovertext=[_hover(cards, graph, n) for n in members], hoverinfo="text"))
    marked = {sel.me, *sel.adds} if sel else set()
    traces.append(go.Scatter(
        x=[pos[n][0] for n in nodes], y=[pos[n][1] + TREE_LABEL_UP for n in nodes],
        mode="text", name=LABELS_TRACE, meta=LABELS_TRACE, customdata=nodes, showlegend=False,
        text=[(f"<b>{graph.nodes[n]['name']}</b>" if n in marked else graph.nodes[n]["name"])
              + f"<br>{graph.nodes[n]['nationality']}, {graph.nodes[n]['born']}" for n in nodes],
        textposition="middle center", textfont={"size": FONT_SIZE - 1}, hoverinfo="skip"))
    traces += highlights[1:]
    depth = int(max(x for x, _ in pos.values())) + 1
    rows = -min(y for _, y in pos.values()) + 1
    fig = go.Figure(data=traces)
    fig.update_layout(
        title={"text": "Teaching lineages as family trees (RESTORE.2; RULING-LINEAGE: any "
                       "depth counts)", "font": {"size": 14}, "y": 0.985, "yanchor": "top",
               "yref": "container"},
        meta=_meta(sel), template="plotly_white", width=width,
        height=int(MARGIN["t"] + MARGIN["b"] + TREE_ROW_PX * (rows + 0.6)),
        margin={**MARGIN, "l": 20}, showlegend=True,
        legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0},
        xaxis={"title": "generation of teachers and pupils", "tickvals": list(range(depth)),
               "ticktext": [f"{i + 1}" for i in range(depth)], "range": [-0.5, depth - 0.5],
               "zeroline": False, "showgrid": False, "fixedrange": True},
        yaxis={"visible": False, "range": [-rows + 0.6, 1.0], "fixedrange": True})
    return fig


def _hover(cards: CardSet, graph: nx.DiGraph, node: str) -> str:
    d = graph.nodes[node]
    works = "<br>".join(f"  {c}: {cards.music[c].piece}" for c in d["cards"]) or "  (no card)"
    teachers = ", ".join(graph.nodes[t]["name"] for t in graph.predecessors(node))
    pupils = ", ".join(graph.nodes[t]["name"] for t in graph.successors(node))
    text = (f"<b>{d['name']}</b><br>{d['nationality']}, {d['era']}, {d['dates']}"
            f"<br>cards:<br>{works}")
    if teachers:
        text += f"<br>taught by {teachers}"
    if pupils:
        text += f"<br>taught {pupils}"
    return text


__all__ = ["LABELS_TRACE", "ComposerLayout", "bonus_breakdown", "bonus_figure", "bonus_for_seat",
           "composer_graph", "composer_labels", "composer_layout", "composer_positions",
           "country_lanes", "lineage_figure", "lineage_tree_layout"]
