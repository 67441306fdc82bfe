"""Time travel for one game: a snapshot per decision step, and the recorded future.

Snapshots were chosen over replaying ``Game(seed, rules, cards)`` with the recorded answers:
``Game.clone()`` costs about 0.1 ms (generators are parked as shared immutable states, the
event list is copied by reference), so a 400-step game keeps ~400 small copies (a few MB)
and jumping to any step is O(1) instead of a replay of up to 400 answers. Replay is still
what makes the snapshots trustworthy: every snapshot equals ``Game(...)`` replayed with its
answers (the tests check this), because the engine is deterministic.

Snapshots are never mutated: advancing clones the current snapshot and answers the clone.
This module has no widget code, so it is easy to test on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from musici.decisions import Answer
from musici.engine import Game

Strategy = Callable[[Any, Any], Answer]


class History:
    """The snapshots ``snaps[k]`` (the game after ``k`` answers) and the shown step ``pos``.

    ``snaps[pos + 1:]`` is the recorded future: stepping forward from a past step follows
    it; a different answer at a past step branches and drops it.
    """

    def __init__(self, game: Game) -> None:
        self.snaps: list[Game] = [game]
        self.pos = 0

    @property
    def game(self) -> Game:
        return self.snaps[self.pos]

    @property
    def last(self) -> int:
        """Index of the newest recorded step."""
        return len(self.snaps) - 1

    @property
    def previous(self) -> Game | None:
        return self.snaps[self.pos - 1] if self.pos else None

    def go(self, step: int) -> Game:
        """Show the game as it was after ``step`` answers (clamped to what is recorded)."""
        self.pos = max(0, min(int(step), self.last))
        return self.game

    def can_step(self, humans: Sequence[bool]) -> bool:
        """A step forward is possible along the record, or when a bot must decide."""
        if self.pos < self.last:
            return True
        d = self.game.decision
        return d is not None and not humans[d.player]

    def step(self, strategies: Sequence[Strategy]) -> Game:
        """One step: the recorded one if there is a future, else the deciding bot answers."""
        if self.pos < self.last:
            self.pos += 1
            return self.game
        game = self.game.clone()
        game.ask(strategies[game.decision.player])  # type: ignore[union-attr]
        self.snaps.append(game)
        self.pos += 1
        return game

    def answer(self, answer: Answer) -> bool:
        """Answer the shown step's decision. Raises ``IllegalAnswer`` leaving all unchanged.

        The same answer as recorded keeps the future; a different one branches (the later
        recorded steps are dropped). Returns whether it branched.
        """
        game = self.game.clone()
        game.answer(answer)  # validates first: an illegal answer raises, nothing recorded
        if self.pos < self.last and self.snaps[self.pos + 1].answers[-1] == game.answers[-1]:
            self.pos += 1
            return False
        branched = self.pos < self.last
        del self.snaps[self.pos + 1:]
        self.snaps.append(game)
        self.pos += 1
        return branched

    def recorded_answer(self) -> Answer | None:
        """The answer recorded for the shown step's decision, if it lies in the past."""
        return self.snaps[self.pos + 1].answers[-1] if self.pos < self.last else None

    def step_events(self) -> list[Any]:
        """The events of the shown step: those the last answer caused (set-up at step 0)."""
        prev = self.previous
        return self.game.events[len(prev.events):] if prev is not None else list(self.game.events)


__all__ = ["History"]
