"""Shared helpers for hand-built game situations.

The usual recipe: play a seeded game with random strategies up to a decision of the kind
under test (:func:`advance_to`), arrange the table by editing plain state (hands, money,
orchestras, markers, venue), then answer the decision and read the events.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import musici
from musici import Game, RuleSet
from musici.events import Event
from musici.strategies import random_strategy


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """A test marked ``pure_python`` patches or wraps musici's own code, which a compiled
    build cannot (native functions are called past a wrapper, native classes refuse a
    patch): there it runs, the same test, in a child pytest on the same sources loaded as
    Python (MUSICI_PURE=1), and fails with the child's output if the child does."""
    if pyfuncitem.get_closest_marker("pure_python") is None or not musici.BUILD.compiled:
        return None
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
         pyfuncitem.nodeid], cwd=root, env={**os.environ, "MUSICI_PURE": "1"},
        capture_output=True, text=True, timeout=600)
    if done.returncode != 0 or not re.search(r"^1 passed", done.stdout, re.MULTILINE):
        pytest.fail(f"on pure Python (MUSICI_PURE=1) {pyfuncitem.nodeid} did not pass:\n"
                    + done.stdout[-4000:] + done.stderr[-2000:], pytrace=False)
    return True


def make_game(players: int = 4, seed: int = 1, **options: object) -> Game:
    """A fresh game; ``options`` are rule options with '_' for '-' (RULING_MONTHS=6)."""
    rules = RuleSet.from_options({k.replace("_", "-"): v for k, v in options.items()})
    return Game(players=players, seed=seed, rules=rules)


def advance_to(game: Game, kind: str, seat: int | None = None,
               when: Callable[[Game], bool] | None = None, limit: int = 20_000) -> Game:
    """Answer randomly until the pending decision is of ``kind`` (for ``seat`` if given,
    and ``when(game)`` holds if given). Fails the test if that never happens."""
    for _ in range(limit):
        d = game.decision
        if d is None:
            break
        if d.kind == kind and (seat is None or d.player == seat) and (when is None or when(game)):
            return game
        game.ask(random_strategy)
    pytest.fail(f"never reached a {kind!r} decision for seat {seat}")


def events_of(game: Game, kind: str, since: int = 0) -> list[Event]:
    return [e for e in game.events[since:] if e.kind == kind]


def rule_events(game: Game, rule: str, since: int = 0) -> list[Event]:
    return [e for e in game.events[since:] if e.rule == rule]


def finish(game: Game) -> Game:
    return game.play([random_strategy] * game.n)


def hidden_twin(game: Game, seat: int) -> Game:
    """The same position as ``seat`` sees it, with hidden parts changed: a score card swapped
    between another hand and the score deck, deck orders reversed, future chance moved on."""
    twin = game.clone()
    cards = twin.cards.music
    victim = next(p for p in twin.players if p.seat != seat and p.hand)
    for i, card in enumerate(victim.hand):
        if cards[card].kind == "score" and twin.score_deck:
            victim.hand[i], twin.score_deck[0] = twin.score_deck[0], card
            break
    twin.score_deck.reverse()
    twin.orchestra_deck.reverse()
    twin.special_deck.reverse()
    twin.discovery_decks["modern"].reverse()
    twin.rng.random()
    return twin


@pytest.fixture
def small_disk(tmp_path):
    """A 200 KB tmpfs (needs root and mount); skipped, saying why, where it cannot be mounted."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.strip() or done.returncode}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (Linux /proc)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def kill_9_while_writing(code: str, target: str, rng: random.Random, low: float,
                         high: float) -> None:
    """Run ``python -c code target`` until it prints "ready", then SIGKILL it after a
    random pause drawn from ``rng`` (seeded by the test, so a failure replays)."""
    proc = subprocess.Popen([sys.executable, "-c", code, target], stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    time.sleep(rng.uniform(low, high))
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
