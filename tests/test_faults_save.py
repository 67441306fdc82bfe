"""Saves survive a full disk and a kill -9 mid-write: the old save or the new one, never a mix."""

from __future__ import annotations

import random
import textwrap

import pytest
from conftest import kill_9_while_writing

from musici import Game
from musici.atomic import TEMP_PREFIX, write_bytes
from musici.persistence import dumps, load
from musici.strategies import random_strategy


def fill(directory):
    with open(directory / "filler", "wb", buffering=0) as f, pytest.raises(OSError):
        while True:
            f.write(b"x" * 4096)
            f.flush()


def test_full_disk_keeps_the_previous_save(small_disk):
    first = Game(seed=1).play([random_strategy] * 4, max_steps=40)
    path = small_disk / "game.json"
    first.save(path)
    fill(small_disk)
    second = Game(seed=2).play([random_strategy] * 4)
    with pytest.raises(OSError):
        second.save(path)
    assert dumps(load(path)) == dumps(first)
    assert [p.name for p in small_disk.iterdir() if p.name.startswith(TEMP_PREFIX)] == []


def test_failed_write_removes_its_temporary_file(tmp_path):
    target = tmp_path / "x.bin"
    target.write_bytes(b"old")
    with pytest.raises(TypeError):
        write_bytes(target, object())  # type: ignore[arg-type]  # fails mid-write
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.bin"]


SAVER = textwrap.dedent("""
    import sys
    from musici import Game
    from musici.strategies import random_strategy
    games = [Game(seed=s).play([random_strategy] * 4) for s in (1, 2)]
    print("ready", flush=True)
    i = 0
    while True:
        games[i % 2].save(sys.argv[1])
        i += 1
""")


def test_kill_9_during_saves_leaves_a_whole_save(tmp_path):
    path = tmp_path / "game.json"
    expected = {dumps(Game(seed=s).play([random_strategy] * 4)) for s in (1, 2)}
    rng = random.Random(13)
    for _ in range(4):
        kill_9_while_writing(SAVER, str(path), rng, 0.05, 0.4)
        assert dumps(load(path)) in expected
