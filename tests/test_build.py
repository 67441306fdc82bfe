"""The compiled build and its fallback (issue 23 item 2): which build runs and why, a stale
compiled module never shadowing an edited source, and what both builds must keep alike
(pickling, deep copies, saves). Runs on whichever build is installed; ``make test-pure`` and
``make test-compiled`` run the suite on each."""

from __future__ import annotations

import copy
import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import musici
from musici import Game, RuleSet, build
from musici.cli import main
from musici.state import PLAYER_SLOTS
from musici.strategies import make_strategy

PACKAGE = Path(musici.__file__).parent
SUFFIX = build.importlib.machinery.EXTENSION_SUFFIXES[0]


def _copy_package(tmp_path: Path) -> Path:
    """musici's sources in ``tmp_path/musici`` (no compiled files, no caches)."""
    target = tmp_path / "musici"
    shutil.copytree(PACKAGE, target, ignore=shutil.ignore_patterns(
        "__pycache__", "*.so", "*.pyd", build.INFO_FILE))
    return target


def _plant_build(package: Path, modules: tuple[str, ...] = build.COMPILED) -> None:
    """A compiled build's record with its hashes, and a garbage 'extension' per module: a
    module loaded from one fails to import, so a test sees which file was used."""
    (package / build.INFO_FILE).write_text(json.dumps(
        build.record(str(package), "mypyc test", modules)))
    for module in modules:
        Path(build.source_path(str(package), module)[:-3] + SUFFIX).write_bytes(b"not an ELF")


def test_decide_compiled_stale_pure_and_forced(tmp_path: Path) -> None:
    package = _copy_package(tmp_path)
    info, stale = build.decide(str(package), {})
    assert (info.kind, stale) == ("pure", []) and "not built" in info.reason
    _plant_build(package)
    info, stale = build.decide(str(package), {})
    assert info.compiled and stale == [] and info.modules == tuple(sorted(build.COMPILED))
    assert info.describe() == f"compiled: mypyc test, {len(build.COMPILED)} modules"
    info, _ = build.decide(str(package), {"MUSICI_PURE": "1"})
    assert info.describe() == "pure Python: MUSICI_PURE=1"
    assert build.decide(str(package), {"MUSICI_PURE": "0"})[0].compiled
    # An edited source: pure for all, and the stale module named.
    source = package / "engine" / "p2_media.py"
    source.write_text(source.read_text() + "\n# edited\n")
    info, stale = build.decide(str(package), {})
    assert not info.compiled and stale == ["musici.engine.p2_media"]
    assert "edited since the build: musici.engine.p2_media" in info.reason


def test_decide_refuses_a_partial_or_foreign_build(tmp_path: Path) -> None:
    package = _copy_package(tmp_path)
    _plant_build(package)
    Path(build.source_path(str(package), "musici.rating")[:-3] + SUFFIX).unlink()
    assert build.decide(str(package), {})[0].reason == "compiled module missing: musici.rating"
    record = json.loads((package / build.INFO_FILE).read_text())
    record["ext_suffix"] = ".cpython-399-x86_64-linux-gnu.so"
    (package / build.INFO_FILE).write_text(json.dumps(record))
    assert "another Python" in build.decide(str(package), {})[0].reason
    (package / build.INFO_FILE).write_text(json.dumps(build.pure_record("CC=false: no compiler")))
    assert build.decide(str(package), {})[0].describe() == "pure Python: CC=false: no compiler"
    (package / build.INFO_FILE).write_text("{not json")
    assert "unreadable" in build.decide(str(package), {})[0].reason


def _import_in(tmp_path: Path, env_extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = ("import musici, musici.engine.game as g, musici.strategies.greedy as s; "
            "print(musici.BUILD.describe()); print(g.__file__); print(s.__file__)")
    env = {**os.environ, "PYTHONPATH": str(tmp_path), **env_extra}
    env.pop("MUSICI_PURE", None) if "MUSICI_PURE" not in env_extra else None
    return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)


def test_an_edited_source_is_never_shadowed_by_a_stale_compiled_module(tmp_path: Path) -> None:
    package = _copy_package(tmp_path)
    _plant_build(package)
    # Up to date: the compiled files are used (here garbage, so the import fails: the
    # check below can tell which file was loaded).
    fresh = _import_in(tmp_path, {})
    assert fresh.returncode != 0 and "ImportError" in fresh.stderr, fresh.stderr[-500:]
    # MUSICI_PURE=1: every musici module from its source, silently.
    forced = _import_in(tmp_path, {"MUSICI_PURE": "1"})
    assert forced.returncode == 0, forced.stderr[-2000:]
    assert forced.stdout.splitlines() == [
        "pure Python: MUSICI_PURE=1", str(package / "engine" / "game.py"),
        str(package / "strategies" / "greedy.py")]
    assert "RuntimeWarning" not in forced.stderr
    # One module edited: all from source (they call each other natively), with one warning
    # that says how to rebuild.
    source = package / "rating.py"
    source.write_text(source.read_text() + "\n# edited after the build\n")
    stale = _import_in(tmp_path, {})
    assert stale.returncode == 0, stale.stderr[-2000:]
    lines = stale.stdout.splitlines()
    assert lines[0] == "pure Python: 1 compiled module(s) edited since the build: musici.rating"
    assert lines[1:] == [str(package / "engine" / "game.py"), str(package / "strategies" / "greedy.py")]
    assert stale.stderr.count("RuntimeWarning") == 1 and "make install" in stale.stderr


def test_version_names_the_build(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"musici {musici.__version__} ({musici.BUILD.describe()})"
    assert musici.BUILD.describe().startswith(("compiled: mypyc", "pure Python: "))


def test_the_running_build_is_what_it_says() -> None:
    """Compiled means the engine's modules really are extensions (and pure that none is)."""
    import musici.engine.game as game_module
    import musici.strategies._plans as plans

    loaded = {game_module.__file__.endswith(SUFFIX), plans.__file__.endswith(SUFFIX)}
    assert loaded == {musici.BUILD.compiled}


def _midgame() -> Game:
    game = Game(players=4, seed=11, rules=RuleSet.from_options({"RULING-MONTHS": 6}))
    bots = [make_strategy(n) for n in ("impresario", "greedy", "random", "collector")]
    while not game.finished and game.month < 3:
        game.ask(bots[game.decision.player])
    return game


def test_games_events_and_decisions_pickle_and_deep_copy_alike() -> None:
    """A game mid-play, its events, its decision, views, rules and cards survive pickle
    and deepcopy, and the copies play on exactly as the original does."""
    game = _midgame()
    assert game.decision is not None and game.events
    for clone in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert clone.position() == game.position()
        assert clone.events == game.events and clone.decision == game.decision
        assert clone.answers == game.answers and clone.plies == game.plies
    for thing in (game.events[0], game.events[-1], game.decision, game.rules, game.cards,
                  game.players[0], game.view(1)):
        for again in (pickle.loads(pickle.dumps(thing)), copy.deepcopy(thing), copy.copy(thing)):
            assert type(again) is type(thing)
            if thing is game.players[0]:
                assert [getattr(again, s) for s in PLAYER_SLOTS] == [
                    getattr(thing, s) for s in PLAYER_SLOTS]
            else:
                assert repr(again) == repr(thing)
    # Played on: the original, its pickle and its deep copy finish the same game.
    finished = []
    for g in (game, pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        g.play([make_strategy(n) for n in ("impresario", "greedy", "random", "collector")])
        finished.append((json.dumps([e.to_dict() for e in g.events], default=str), g.results))
    assert finished[0] == finished[1] == finished[2]


_SAVE_SCRIPT = """
import json, sys
from tests.test_build import _midgame
game = _midgame()
print(json.dumps({"build": __import__("musici").BUILD.kind, "save": game.to_json(),
                  "clone": game.clone().to_json()}))
"""


def test_a_save_is_the_same_text_in_both_builds() -> None:
    """The running build saves a game (and its clone) to the same text as pure Python does
    in a separate process (with MUSICI_PURE=1); on a pure install both sides are pure."""
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "MUSICI_PURE": "1"}
    done = subprocess.run([sys.executable, "-c", _SAVE_SCRIPT], cwd=root, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    pure = json.loads(done.stdout)
    assert pure["build"] == "pure"
    game = _midgame()
    assert game.to_json() == pure["save"] == game.clone().to_json() == pure["clone"]


def test_a_pure_build_over_old_compiled_files_loads_the_sources(tmp_path: Path) -> None:
    """A pure rebuild (say MUSICI_PURE_BUILD=1) that left a compiled build's files behind:
    Python would prefer an extension to a .py; the finder does not let it."""
    package = _copy_package(tmp_path)
    _plant_build(package)
    (package / f"_native__mypyc{SUFFIX}").write_bytes(b"not an ELF")
    (package / build.INFO_FILE).write_text(json.dumps(build.pure_record("MUSICI_PURE_BUILD=1")))
    done = _import_in(tmp_path, {})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[0] == "pure Python: MUSICI_PURE_BUILD=1"
    assert done.stdout.splitlines()[1] == str(package / "engine" / "game.py")
