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


class Lineage:
    """RESTORE.2's question, "do composers ``a`` and ``b`` stand in one teaching lineage?",
    in time and memory linear in the composer table.

    ``related(a, b, any_depth=False)``: one taught the other. ``any_depth=True``
    (RULING-LINEAGE): one is reached from the other by teacher->student links at any depth
    (A. Scarlatti and Soler, through D. Scarlatti). No table of all related pairs is built
    (a chain of n composers has n²/2 of them): for the ``focus`` composers (a card set's
    card composers, the only ones a game asks about) each composer gets the bit set of the
    focus composers it reaches, one pass in reverse topological order, and each focus
    composer the set of focus composers related to it (at most focus² pairs, bounded by the
    card set's size); any other pair is answered by a walk from each of the two. Unknown
    names stand in no lineage; a composer is not in a lineage with itself (teacher links
    form no cycle).
    """

    def __init__(self, composers: Iterable[Composer], focus: Iterable[str] = ()) -> None:
        students: dict[str, set[str]] = {}
        for c in composers:
            students.setdefault(c.id, set())
            for teacher in c.teachers:
                students.setdefault(teacher, set()).add(c.id)
        self._students = students
        self._bit = {name: i for i, name in enumerate(dict.fromkeys(f for f in focus
                                                                    if f in students))}
        self._reach: dict[str, int] | None = self._reach_masks() if self._bit else None
        # The focus composers' answers as sets, read off the masks once (at most focus²
        # pairs, about 2,500 for a card set): the planners ask thousands of times a game, and
        # a set lookup is cheaper than shifting the masks, in both builds (issue 23).
        self._related: dict[str, frozenset[str]] = {}
        reach = self._reach
        if reach is not None:
            bit = self._bit
            for a in bit:
                self._related[a] = frozenset(
                    b for b in bit
                    if a != b and ((reach[a] >> bit[b]) & 1 or (reach[b] >> bit[a]) & 1))

    def _reach_masks(self) -> dict[str, int] | None:
        """Each composer's mask of the focus composers it reaches (itself included), or
        ``None`` when the links hold a cycle (then every question is answered by walks)."""
        students = self._students
        waiting = dict.fromkeys(students, 0)  # Kahn's algorithm: teachers not yet placed
        for names in students.values():
            for s in names:
                waiting[s] += 1
        order = [name for name, n in waiting.items() if n == 0]
        for name in order:  # grows while it is read
            for s in students[name]:
                waiting[s] -= 1
                if waiting[s] == 0:
                    order.append(s)
        if len(order) != len(students):
            return None
        reach: dict[str, int] = {}
        bit = self._bit
        for name in reversed(order):  # every student before its teachers
            mask = 1 << bit[name] if name in bit else 0
            for s in students[name]:
                mask |= reach[s]
            reach[name] = mask
        return reach

    def _reaches(self, a: str, b: str) -> bool:
        """Whether ``b`` is a student of ``a`` at some depth (a walk from ``a``)."""
        students = self._students
        seen: set[str] = set()
        todo = [a]
        while todo:
            for s in students[todo.pop()]:
                if s == b:
                    return True
                if s not in seen:
                    seen.add(s)
                    todo.append(s)
        return False

    def related(self, a: str, b: str, *, any_depth: bool) -> bool:
        students = self._students
        if a not in students or b not in students:
            return False
        if not any_depth:
            return b in students[a] or a in students[b]
        related = self._related.get(a)  # both focus composers: read off the masks at init
        if related is not None and b in self._bit:
            return b in related
        return self._reaches(a, b) or self._reaches(b, a)


def composer_table(composers: Mapping[str, Composer]) -> list[dict[str, object]]:
    """The composer table as plain rows (name, nationality, group, era, years, teachers)."""
    return [
        {
            "id": c.id, "name": c.name, "nationality": c.nationality, "group": c.group,
            "era": c.era, "born": c.born, "died": c.died, "teachers": list(c.teachers),
        }
        for c in composers.values()
    ]
