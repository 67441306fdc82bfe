"""The engine's inside, as a small typed surface: what a phase module may do to a game.

A phase module reads and writes the game's state, and through these functions only:

- :func:`emit` records an event (a typed record of :mod:`musici.events`);
- :func:`ask` poses a decision and names the continuation that takes its answer
  (``then(game, answer, *args)``); a choice with one legal answer is applied at once;
- :func:`push` schedules one continuation to run next, :func:`push_all` several in order,
  :func:`push_each` one continuation per seat.

Continuations are checked by mypy against their functions' signatures (PEP 646): ``push(g,
ask_bid, seat)`` fails to type-check if ``ask_bid`` does not take ``(Game, int)``. Each
continuation must also have a name in :data:`musici.engine.continuations.CONTINUATIONS`, so a
position can store it as data.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVarTuple

from musici.decisions import Decision
from musici.events import Event

if TYPE_CHECKING:
    from musici.engine.game import Game, Task

Ts = TypeVarTuple("Ts")


def emit(g: Game, event: Event) -> None:
    """Record ``event`` (a record of :mod:`musici.events`, made with ``g.month`` and
    ``g.phase``; its ``rule`` id says why it happened)."""
    g.events.append(event)


def ask(g: Game, decision: Decision, then: Callable[[Game, Any, *Ts], None], *args: *Ts) -> None:
    """Pose ``decision``; its answer goes to ``then(g, answer, *args)``. A choice with a
    single legal answer is no choice: it is applied without asking."""
    if decision.space == "choice" and len(decision.options) == 1:
        g.plies += 1  # a forced ply: counted in game.plies, not in game.step
        then(g, decision.options[0], *args)
        return
    g.decision = decision
    g._pending = (then, args)


def task(fn: Callable[[Game, *Ts], None], *args: *Ts) -> Task:
    """One continuation with its arguments, type-checked, for :func:`push_all`."""
    return (fn, *args)


def push(g: Game, fn: Callable[[Game, *Ts], None], *args: *Ts) -> None:
    """Run ``fn(g, *args)`` next, before anything already scheduled."""
    g._stack.append((fn, *args))


def push_all(g: Game, *tasks: Task) -> None:
    """Run ``tasks`` (made by :func:`task`) next, in the given order."""
    g._stack.extend(reversed(tasks))


def push_each(g: Game, fn: Callable[[Game, int], None], seats: Iterable[int]) -> None:
    """Run ``fn(g, seat)`` for each seat in ``seats``, in that order, next."""
    g._stack.extend([(fn, seat) for seat in reversed(list(seats))])


__all__ = ["Ts", "ask", "emit", "push", "push_all", "push_each", "task"]
