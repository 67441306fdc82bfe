"""Composers: nationality, scoring group, era, and the teaching lineage (RESTORE.1–2)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import networkx as nx

ERAS: tuple[str, ...] = ("baroque", "classical", "romantic")
GROUPS: tuple[str, ...] = ("german-austrian", "italian", "french", "other")


@dataclass(frozen=True, slots=True)
class Composer:
    id: str
    name: str
    nationality: str
    group: str
    era: str
    born: int
    died: int
    teachers: tuple[str, ...]


def lineage_graph(composers: Iterable[Composer]) -> nx.DiGraph:
    """Directed graph teacher -> student over the composer table (RESTORE.2).

    Nodes carry the composer's attributes, so the notebook layer can colour and label them.
    """
    graph = nx.DiGraph()
    for c in composers:
        graph.add_node(
            c.id, name=c.name, nationality=c.nationality, group=c.group, era=c.era,
            born=c.born, died=c.died,
        )
    for c in composers:
        for teacher in c.teachers:
            graph.add_edge(teacher, c.id)
    return graph


def lineage_pairs(graph: nx.DiGraph, *, any_depth: bool) -> frozenset[tuple[str, str]]:
    """Unordered composer pairs standing in one lineage, both orders included.

    RULING-LINEAGE: ``any_depth`` follows teacher->student links at any depth (A. Scarlatti
    and Soler, through D. Scarlatti); otherwise only direct teacher and student count.
    """
    pairs: set[tuple[str, str]] = set()
    for node in graph.nodes:
        reached = nx.descendants(graph, node) if any_depth else set(graph.successors(node))
        for other in reached:
            pairs.add((node, other))
            pairs.add((other, node))
    return frozenset(pairs)


def composer_table(composers: Mapping[str, Composer]) -> list[dict[str, object]]:
    """The composer table as plain rows (name, nationality, group, era, years, teachers)."""
    return [
        {
            "id": c.id, "name": c.name, "nationality": c.nationality, "group": c.group,
            "era": c.era, "born": c.born, "died": c.died, "teachers": list(c.teachers),
        }
        for c in composers.values()
    ]
