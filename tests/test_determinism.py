"""Same (rules, cards, seed, answers) → the same game, in any process and hash seed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from musici import Game
from musici.strategies import random_strategy

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = """
import json, sys
from musici import Game, RuleSet
from musici.strategies import random_strategy
out = []
for players, seed in ((4, 11), (3, 12)):
    g = Game(players=players, seed=seed)
    g.play([random_strategy] * players)
    out.append([e.to_dict() for e in g.events])
    out.append(g.answers)
sys.stdout.write(json.dumps(out, sort_keys=True, default=str))
"""


def _run(hashseed: str) -> bytes:
    env = {**os.environ, "PYTHONHASHSEED": hashseed, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", SCRIPT], env=env, check=True,
                          capture_output=True).stdout


def test_event_logs_identical_across_processes_and_hash_seeds():
    first, second = _run("1"), _run("4242")
    assert first == second
    assert len(json.loads(first)[0]) > 100


def test_same_seed_same_game_and_different_seed_different_game():
    a = Game(seed=5).play([random_strategy] * 4)
    b = Game(seed=5).play([random_strategy] * 4)
    c = Game(seed=6).play([random_strategy] * 4)
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]
    assert [e.to_dict() for e in a.events] != [e.to_dict() for e in c.events]


def test_replaying_answers_rebuilds_the_game():
    a = Game(seed=9).play([random_strategy] * 4)
    b = Game(seed=9)
    for answer in a.answers:
        b.answer(answer)
    assert b.finished
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]


def test_clone_is_independent_and_continues_identically():
    g = Game(seed=21)
    g.play([random_strategy] * 4, max_steps=150)
    c = g.clone()
    g.play([random_strategy] * 4)
    c.play([random_strategy] * 4)
    assert [e.to_dict() for e in g.events] == [e.to_dict() for e in c.events]
    d = Game(seed=21)
    d.play([random_strategy] * 4, max_steps=150)
    e = d.clone()
    e.players[0].money += 5
    e.players[0].hand.append("X")
    assert d.players[0].money + 5 == e.players[0].money
    assert "X" not in d.players[0].hand
