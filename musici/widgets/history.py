"""Time travel for one game: a snapshot per decision step, kept as a tree of lines.

Snapshots were chosen over replaying ``Game(seed, rules, cards)`` with the recorded answers:
``Game.clone()`` costs about 0.1 ms (generators are parked as shared immutable states, the
event list is copied by reference), so a 400-step game keeps ~400 small copies (a few MB)
and jumping to any step is O(1) instead of a replay of up to 400 answers. Replay is still
what makes the snapshots trustworthy: every snapshot equals ``Game(...)`` replayed with its
answers (the tests check this), because the engine is deterministic.

**Lines** (a variation tree, as lichess's analysis board keeps one): answering differently
at a past step, or :meth:`History.retry` ("retry from here"), starts a new line from that
step and keeps the line that was played as a variation; :meth:`History.switch` goes back to
any line, exactly as it was. Lines share their common snapshots (the same objects), so a
variation costs only its own steps.

Snapshots are never mutated: advancing clones the current snapshot and answers the clone.
This module has no widget code, so it is easy to test on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from musici.decisions import Answer
from musici.engine import Game

Strategy = Callable[[Any, Any], Answer]
MAIN = 0  # the id of the first line (the game as first played)


@dataclass
class Line:
    """One line of play: ``snaps[k]`` is the game after ``k`` answers along it.

    ``parent`` is the line it was started from (``None`` for the main line) and ``fork`` the
    number of answers it shares with that parent when it was started (its first own answer
    is ``answers[fork]``).
    """

    id: int
    snaps: list[Game]
    parent: int | None = None
    fork: int = 0
    pos: int = 0  # the step last shown on this line (switching back returns there)
    note: str = field(default="")  # why it was started ("retry from step 12", "answered …")

    @property
    def last(self) -> int:
        return len(self.snaps) - 1

    @property
    def own_steps(self) -> int:
        """Steps played on this line beyond its fork (0: nothing of its own yet)."""
        return self.last - self.fork


class History:
    """The shown line's snapshots ``snaps[k]`` (the game after ``k`` answers), the shown step
    ``pos``, and every other line kept as a variation (``lines``).

    ``snaps[pos + 1:]`` is the recorded future of the shown line: stepping forward from a
    past step follows it; a different answer at a past step starts a new line there (the
    old one is kept, see :meth:`switch`).
    """

    def __init__(self, game: Game) -> None:
        self.lines: dict[int, Line] = {MAIN: Line(MAIN, [game])}
        self.current = MAIN
        self._next_id = MAIN + 1

    # ------------------------------------------------------------------ the shown line
    @property
    def line(self) -> Line:
        return self.lines[self.current]

    @property
    def snaps(self) -> list[Game]:
        return self.line.snaps

    @property
    def pos(self) -> int:
        return self.line.pos

    @pos.setter
    def pos(self, step: int) -> None:
        self.line.pos = step

    @property
    def game(self) -> Game:
        return self.snaps[self.pos]

    @property
    def last(self) -> int:
        """Index of the newest recorded step of the shown line."""
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
        known = self._line_answering(self.pos, game.answers[-1])
        if known is not None and self.line.own_steps <= 0:
            # a bot answers a retry as a line already did: follow it (no duplicate line)
            return self.switch(known, self.pos + 1)
        self.snaps.append(game)
        self.pos += 1
        return game

    def answer(self, answer: Answer) -> bool:
        """Answer the shown step's decision. Raises ``IllegalAnswer`` leaving all unchanged.

        The same answer as recorded keeps the future. A different one at a past step goes
        into the line that already answered so from here, if one does, else starts a new
        line (the shown line is kept as a variation); so does a retry line's first answer
        when a line already gave it. Returns whether the shown line changed.
        """
        game = self.game.clone()
        game.answer(answer)  # validates first: an illegal answer raises, nothing recorded
        given = game.answers[-1]
        if self.pos < self.last and self.snaps[self.pos + 1].answers[-1] == given:
            self.pos += 1
            return False
        step = self.pos
        known = self._line_answering(step, given)
        if self.pos == self.last:
            if known is not None and self.line.own_steps <= 0:
                # a retry that gives a known answer follows that line (no duplicate line)
                self.switch(known, step + 1)
                return True
            self.snaps.append(game)
            self.pos += 1
            return False
        if known is not None:
            self.switch(known, step + 1)
            return True
        self._start_line(step, f"answered {given!r} at step {step}")
        self.snaps.append(game)
        self.pos += 1
        return True

    def retry(self, step: int | None = None) -> int:
        """"Retry from here": a new line that shares the shown line up to ``step`` (default:
        the shown step) and has no future yet; the shown line is kept as a variation.
        Returns the new line's id (the shown line's own, when it has no future to keep)."""
        step = self.pos if step is None else max(0, min(int(step), self.last))
        if step == self.last:  # nothing after it to keep: stay on this line
            self.pos = step
            return self.current
        self._start_line(step, f"retry from step {step}")
        return self.current

    def switch(self, line: int, step: int | None = None) -> Game:
        """Show line ``line`` (exactly as it was left) at ``step``; by default where the two
        lines part (the last step they share), or where that line was last shown, whichever
        is earlier. A retry line left without a step of its own is dropped (it is a prefix
        of its parent)."""
        if line not in self.lines:
            raise KeyError(f"no line {line!r}; lines: {sorted(self.lines)}")
        if line == self.current:
            return self.go(self.pos if step is None else step)
        old = self.line
        target = self.lines[line]
        if step is None:
            step = min(self._shared(old, target) - 1, target.pos)
        self.current = line
        if old.id != MAIN and old.own_steps <= 0:
            self._drop(old.id)
        return self.go(step)

    def line_list(self) -> list[Line]:
        """Every line, the main line first, then in the order they were started."""
        return [self.lines[k] for k in sorted(self.lines)]

    def recorded_answer(self) -> Answer | None:
        """The answer recorded for the shown step's decision, if it lies in the past."""
        return self.snaps[self.pos + 1].answers[-1] if self.pos < self.last else None

    def step_events(self) -> list[Any]:
        """The events of the shown step: those the last answer caused (set-up at step 0)."""
        prev = self.previous
        return self.game.events[len(prev.events):] if prev is not None else list(self.game.events)

    # ------------------------------------------------------------------ internals
    def _start_line(self, step: int, note: str) -> None:
        old = self.line
        old.pos = step
        new = Line(self._next_id, old.snaps[:step + 1], parent=old.id, fork=step, pos=step,
                   note=note)
        self._next_id += 1
        self.lines[new.id] = new
        self.current = new.id
        if old.id != MAIN and old.own_steps <= 0:  # an empty retry line is not kept
            self._drop(old.id)

    def _line_answering(self, step: int, given: Answer) -> int | None:
        # Another line through the shown step's very snapshot that answered ``given`` there.
        here = self.snaps[step]
        for other in self.line_list():
            if (other.id != self.current and other.last > step and other.snaps[step] is here
                    and other.snaps[step + 1].answers[-1] == given):
                return other.id
        return None

    @staticmethod
    def _shared(a: Line, b: Line) -> int:
        """How many snapshots two lines share (the same objects from the start)."""
        n = 0
        for x, y in zip(a.snaps, b.snaps, strict=False):
            if x is not y:
                break
            n += 1
        return n

    def _drop(self, line: int) -> None:
        gone = self.lines.pop(line)
        for other in self.lines.values():  # its children hang on its parent instead
            if other.parent == line:
                other.parent = gone.parent


__all__ = ["MAIN", "History", "Line"]
