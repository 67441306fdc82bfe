"""The search tree of the information-set search bot: one node per information set of the
searching seat, keyed by its own history of decisions and answers since the root.

Different sampled worlds offer different legal answers at the same node (another card was
drawn, the money differs), so, as single-observer ISMCTS does (Cowling, Powley and
Whitehouse 2012), each answer keeps an *availability* count: how often it was legal when
its node was visited. UCB then weighs an answer against the times it could have been
picked, not against the node's visits.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from musici.decisions import Answer


@dataclass(slots=True)
class Stats:
    """One answer at one node: visits, summed value and availability."""

    visits: int = 0
    total: float = 0.0
    available: int = 0

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


@dataclass(slots=True)
class Node:
    """An information set of the searching seat (its own decisions and answers so far)."""

    stats: dict[Answer, Stats] = field(default_factory=dict)
    children: dict[Hashable, Node] = field(default_factory=dict)

    def child(self, key: Hashable) -> Node:
        node = self.children.get(key)
        if node is None:
            node = self.children[key] = Node()
        return node

    def select(self, answers: Sequence[Answer], c: float, scale: float) -> tuple[Answer, bool]:
        """Mark ``answers`` available and pick one: the first never tried (expansion, True),
        else the highest UCB, ``mean + c * scale * sqrt(ln(available) / visits)``."""
        untried = None
        for a in answers:
            s = self.stats.get(a)
            if s is None:
                s = self.stats[a] = Stats()
            s.available += 1
            if s.visits == 0 and untried is None:
                untried = a
        if untried is not None:
            return untried, True
        best, best_ucb = answers[0], -math.inf
        for a in answers:  # ties: the earlier answer (the heuristics' come first)
            s = self.stats[a]
            ucb = s.mean + c * scale * math.sqrt(math.log(s.available) / s.visits)
            if ucb > best_ucb:
                best, best_ucb = a, ucb
        return best, False

    def update(self, answer: Answer, value: float) -> None:
        s = self.stats[answer]
        s.visits += 1
        s.total += value

    def best(self, answers: Sequence[Answer]) -> Answer:
        """The most visited of ``answers`` (ties: the higher mean, then the earlier)."""
        def key(i: int) -> tuple[int, float, int]:
            s = self.stats.get(answers[i], Stats())
            return (s.visits, s.mean, -i)
        return answers[max(range(len(answers)), key=key)]

    def size(self) -> int:
        """Nodes in this subtree (for reports and tests)."""
        return 1 + sum(child.size() for child in self.children.values())


__all__ = ["Node", "Stats"]
