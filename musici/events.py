"""Event records: every effect of the game, with the rule id it applies (DESIGN principle 5).

Events are cheap records made on the hot path; they become words only when someone looks
(:func:`musici.describe.describe_event`).
"""

from __future__ import annotations

from typing import Any


class Event:
    """One effect. ``private`` names the seats that may see it (``None``: everyone)."""

    __slots__ = ("data", "kind", "month", "phase", "player", "private", "rule")

    def __init__(self, month: int, phase: str, kind: str, rule: str, player: int | None,
                 data: dict[str, Any], private: tuple[int, ...] | None = None) -> None:
        self.month = month
        self.phase = phase
        self.kind = kind
        self.rule = rule
        self.player = player
        self.data = data
        self.private = private

    def visible_to(self, seat: int) -> bool:
        return self.private is None or seat in self.private

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "month": self.month, "phase": self.phase, "kind": self.kind, "rule": self.rule,
            "player": self.player, "data": self.data,
        }
        if self.private is not None:
            out["private"] = list(self.private)
        return out

    def __repr__(self) -> str:
        return (f"Event(m{self.month} {self.phase} {self.kind} [{self.rule}] "
                f"p={self.player} {self.data})")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]
