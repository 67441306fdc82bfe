"""The result store under a hostile or unlucky user (issue 20: items 1-3, 5-11, 19, 21).

Each test names the item it holds. Interrupted runs are real ``musici simulate`` processes
whose bot signals its own driver at a chosen decision (tests/signal_strategy.py), so the
moment is the same on every run.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from musici.sim import SimulationResult, simulate
from musici.sim.store import MANIFEST, ResultError, ResultWriter

BOT = str(Path(__file__).with_name("signal_strategy.py").resolve())
GAMES, SEED, MONTHS = 24, 3, 1
ENV = "MUSICI_TEST_SIGNAL"


def cli(*args: str, signal_at: str = "", timeout: float = 300) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != ENV}
    if signal_at:
        env[ENV] = signal_at
    return subprocess.run([sys.executable, "-m", "musici", *args], capture_output=True,
                          text=True, timeout=timeout, env=env)


def run_args(out: Path, games: int = GAMES, lineup: str = f"{BOT},{BOT},{BOT}") -> list[str]:
    return ["simulate", "--players", lineup, "--games", str(games), "--seed", str(SEED),
            "--months", str(MONTHS), "--jobs", "1", "--quiet", "--out", str(out)]


def reference(games: int = GAMES) -> SimulationResult:
    os.environ.pop(ENV, None)
    return simulate([BOT] * 3, games, seed=SEED, rules={"RULING-MONTHS": MONTHS}, jobs=1,
                    progress=False)


def same_frames(a: SimulationResult, b: SimulationResult) -> None:
    for name in ("games", "players", "months", "concerts", "venues", "specials", "errors"):
        pd.testing.assert_frame_equal(getattr(a, name).reset_index(drop=True),
                                      getattr(b, name).reset_index(drop=True),
                                      check_dtype=False, obj=name)


def one_line_error(done: subprocess.CompletedProcess, words: str) -> None:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("musici: error:") and words in done.stderr, done.stderr


@pytest.fixture(scope="module")
def old_result(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, SimulationResult]:
    """A complete 6-game result made once; tests copy it."""
    base = tmp_path_factory.mktemp("old") / "run"
    done = cli(*run_args(base, games=6))
    assert done.returncode == 0, done.stderr
    return base, SimulationResult.read_parquet(base)


def copy_result(src: Path, dest: Path) -> Path:
    import shutil

    shutil.copytree(src, dest)
    return dest


def test_item1_ctrl_c_during_overwrite_keeps_the_old_result_and_resume_finishes(
        tmp_path: Path, old_result) -> None:
    out = copy_result(old_result[0], tmp_path / "run")
    stopped = cli(*run_args(out), "--overwrite", signal_at="INT:150")
    assert stopped.returncode == 130, stopped.stderr
    assert "kept beside it" in stopped.stderr, stopped.stderr
    kept = SimulationResult.read_parquet(out)
    assert kept.complete
    same_frames(kept, old_result[1])  # the old complete result, untouched
    done = cli("simulate", "--resume", str(out), "--players", f"{BOT},{BOT},{BOT}", "--quiet",
               "--jobs", "1")
    assert done.returncode == 0, done.stderr
    final = SimulationResult.read_parquet(out)
    assert final.complete and len(final.games) == GAMES
    same_frames(final, reference())
    assert not list(tmp_path.glob(".run.tmp-*"))


def test_item2_a_stop_while_the_result_is_put_in_place_keeps_it_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import signal

    from musici.sim import simulate_to
    from musici.sim.store import ResultWriter as Writer
    from musici.sim.stream import Stopped

    put = Writer._put_in_place

    def interrupted(self: Writer) -> None:
        os.kill(os.getpid(), signal.SIGINT)  # as soon as the manifest is written
        put(self)

    monkeypatch.setattr(Writer, "_put_in_place", interrupted)
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt) as stop:
        simulate_to(out, ["random"] * 3, 6, seed=1, rules={"RULING-MONTHS": 1}, jobs=1,
                    progress=False)
    assert isinstance(stop.value, Stopped) and stop.value.report.complete
    back = SimulationResult.read_parquet(out)
    assert back.complete and len(back.games) == 6
    same_frames(back, simulate(["random"] * 3, 6, seed=1, rules={"RULING-MONTHS": 1}, jobs=1,
                               progress=False))


def test_item2_to_parquet_interrupted_at_the_swap_keeps_the_new_result(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import signal

    from musici.sim.store import ResultWriter as Writer

    small = simulate(["random"] * 3, 3, seed=5, rules={"RULING-MONTHS": 1}, jobs=1,
                     progress=False)
    put = Writer._put_in_place

    def interrupted(self: Writer) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        put(self)

    monkeypatch.setattr(Writer, "_put_in_place", interrupted)
    with pytest.raises(KeyboardInterrupt):
        small.to_parquet(tmp_path / "run")
    same_frames(SimulationResult.read_parquet(tmp_path / "run"), small)


def test_item3_overwrite_never_replaces_a_directory_that_is_no_musici_result(
        tmp_path: Path) -> None:
    from musici.sim import simulate_to

    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.txt").write_text("mine")
    done = cli("simulate", "--players", "random,random,random", "--games", "2", "--months",
               "1", "--jobs", "1", "--quiet", "--out", str(project), "--overwrite")
    one_line_error(done, "not a musici result")
    with pytest.raises(ResultError, match="not a musici result"):
        simulate_to(project, ["random"] * 3, 2, rules={"RULING-MONTHS": 1}, jobs=1,
                    overwrite=True, progress=False)
    small = simulate(["random"] * 3, 2, seed=1, rules={"RULING-MONTHS": 1}, jobs=1,
                     progress=False)
    with pytest.raises(ResultError, match="not a musici result"):
        small.to_parquet(project, overwrite=True)
    assert sorted(p.name for p in project.iterdir()) == ["notes.txt"]
    assert (project / "notes.txt").read_text() == "mine"


def test_item5_a_read_during_a_replacement_is_one_result_never_a_mix(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The directory is swapped for another result between the manifest and the parts."""
    import pyarrow.parquet as pq

    from musici.sim.store import _exchange

    a = simulate(["random"] * 3, 3, seed=5, rules={"RULING-MONTHS": 1}, jobs=1, progress=False)
    b = simulate(["greedy"] * 3, 4, seed=9, rules={"RULING-MONTHS": 1}, jobs=1, progress=False)
    path_a, path_b = a.to_parquet(tmp_path / "a"), b.to_parquet(tmp_path / "b")
    read = pq.read_table
    swapped = []

    def swap_then_read(*args, **kwargs):
        if not swapped:
            assert _exchange(path_a, path_b)  # as an --overwrite run puts its result in place
            swapped.append(True)
        return read(*args, **kwargs)

    monkeypatch.setattr(pq, "read_table", swap_then_read)
    got = SimulationResult.read_parquet(path_a)
    assert swapped
    same_frames(got, a)
    assert got.config == a.config


def _craft_partial(out: Path, small: SimulationResult) -> dict:
    """A partial result on disk (complete false), as a stopped run leaves it."""
    small.to_parquet(out)
    manifest = json.loads((out / MANIFEST).read_text())
    manifest["complete"] = False
    (out / MANIFEST).write_text(json.dumps(manifest))
    return manifest


def test_item6_resume_of_a_crafted_directory_never_writes_outside_it(tmp_path: Path) -> None:
    import hashlib

    small = simulate(["random"] * 3, 3, seed=5, rules={"RULING-MONTHS": 1}, jobs=1,
                     progress=False)
    out = tmp_path / "run"
    manifest = _craft_partial(out, small)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    evil = tmp_path / "evil" / "a" / "b"
    evil.mkdir(parents=True)
    payload = b"planted"
    (tmp_path / "evil" / "victim.txt").write_bytes(payload)
    (out / "evil").symlink_to(evil, target_is_directory=True)
    manifest["parts"].append({"frame": "players", "file": "evil/../../victim.txt", "rows": 0,
                              "sha256": hashlib.sha256(payload).hexdigest()})
    (out / MANIFEST).write_text(json.dumps(manifest))
    done = cli("simulate", "--resume", str(out), "--quiet", "--jobs", "1")
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert victim.read_text() == "precious"
    with pytest.raises(ResultError, match=r"is not <frame>/<12 digits>\.parquet"):
        SimulationResult.read_parquet(out)


def test_item6_a_symlinked_frame_directory_is_not_followed(tmp_path: Path) -> None:
    small = simulate(["random"] * 3, 3, seed=5, rules={"RULING-MONTHS": 1}, jobs=1,
                     progress=False)
    out = small.to_parquet(tmp_path / "run")
    elsewhere = tmp_path / "elsewhere"
    (out / "players").rename(elsewhere)
    (out / "players").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(ResultError, match=r"missing|symbolic link"):
        SimulationResult.read_parquet(out)


def test_item7_a_run_never_deletes_the_temp_dir_of_a_run_to_a_like_named_directory(
        tmp_path: Path) -> None:
    from musici.sim import simulate_to

    other = tmp_path / f".x.tmp-1.tmp-{secrets.token_hex(8)}"  # a run to x.tmp-1, at work
    other.mkdir()
    (other / "part").write_text("theirs")
    simulate_to(tmp_path / "x", ["random"] * 3, 2, rules={"RULING-MONTHS": 1}, jobs=1,
                progress=False)
    assert (other / "part").read_text() == "theirs"


def test_item8_resume_after_a_killed_overwrite_run_finishes_it(tmp_path: Path,
                                                               old_result) -> None:
    out = copy_result(old_result[0], tmp_path / "run")
    killed = cli(*run_args(out), "--overwrite", signal_at="KILL:150")
    assert killed.returncode == -9, killed.stderr
    same_frames(SimulationResult.read_parquet(out), old_result[1])  # still the old one
    done = cli("simulate", "--resume", str(out), "--players", f"{BOT},{BOT},{BOT}", "--quiet",
               "--jobs", "1")
    assert done.returncode == 0, done.stderr
    same_frames(SimulationResult.read_parquet(out), reference())


def test_item9_an_out_link_is_refused_before_any_game(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    for extra in ([], ["--overwrite"]):
        done = cli("simulate", "--players", "random,random,random", "--games", "2",
                   "--months", "1", "--jobs", "1", "--quiet", "--out", str(link), *extra)
        one_line_error(done, "symbolic link")
        assert link.is_symlink() and list(real.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "real"]


def _stopped_partial(tmp_path: Path, bot: str) -> Path:
    out = tmp_path / "run"
    stopped = cli(*run_args(out, lineup=f"{bot},{bot},{bot}"), signal_at="INT:150")
    assert stopped.returncode == 130, stopped.stderr
    assert not SimulationResult.read_parquet(out).complete
    return out


def test_item10_resume_refuses_a_bot_file_changed_since_the_run_started(tmp_path: Path) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text(Path(BOT).read_text())
    out = _stopped_partial(tmp_path, str(bot))
    bot.write_text(Path(BOT).read_text() + "\n# changed\n")
    done = cli("simulate", "--resume", str(out), "--players", f"{bot},{bot},{bot}", "--quiet",
               "--jobs", "1")
    one_line_error(done, "changed since the run started")
    assert not SimulationResult.read_parquet(out).complete
    bot.write_text(Path(BOT).read_text())  # put back: the resume goes on
    done = cli("simulate", "--resume", str(out), "--players", f"{bot},{bot},{bot}", "--quiet",
               "--jobs", "1")
    assert done.returncode == 0, done.stderr


def test_item10_resume_runs_bot_files_only_when_the_user_names_them(tmp_path: Path) -> None:
    out = _stopped_partial(tmp_path, BOT)
    done = cli("simulate", "--resume", str(out), "--quiet", "--jobs", "1")
    one_line_error(done, "musici runs it only when you name it")
    done = cli("simulate", "--resume", str(out), "--players", "random,random,random", "--quiet",
               "--jobs", "1")
    one_line_error(done, "is not the line-up")
    assert not SimulationResult.read_parquet(out).complete


PLANTED_BOT = """
from pathlib import Path
Path(__file__).with_name("pwned").write_text("ran")
def strategy(view, decision):
    return decision.random_answer(view.rng)
"""


def _plant_checkpoint(out: Path, bot: Path, games_done: int) -> Path:
    """What an attacker who can write next to DIR plants: a temp dir whose checkpoint lists
    more games than DIR holds and names the attacker's bot."""
    manifest = json.loads((out / MANIFEST).read_text())
    bot.write_text(PLANTED_BOT)
    planted = out.parent / f".{out.name}.tmp-{secrets.token_hex(8)}"
    planted.mkdir()
    manifest.update(parts=[], chunks=[[0, games_done]], games_done=games_done)
    manifest["config"]["players"] = [str(bot)] * 3
    manifest["frames"] = {k: {**v, "rows": 0} for k, v in manifest["frames"].items()}
    manifest.pop("run", None)
    (planted / "checkpoint.json").write_text(json.dumps(manifest))
    return planted


def test_item11_a_planted_checkpoint_is_never_adopted_nor_its_bot_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    made = cli(*run_args(out, lineup="random,random,random"))
    assert made.returncode == 0  # built-in bots do not signal: the partial is made by hand
    manifest = json.loads((out / MANIFEST).read_text())
    manifest.update(complete=False, chunks=[], games_done=0, parts=[])
    manifest["frames"] = {k: {**v, "rows": 0} for k, v in manifest["frames"].items()}
    (out / MANIFEST).write_text(json.dumps(manifest))
    bot = tmp_path / "planted.py"
    _plant_checkpoint(out, bot, GAMES - 1)
    done = cli("simulate", "--resume", str(out), "--quiet", "--jobs", "1")
    assert not (tmp_path / "pwned").exists(), "the planted bot ran"
    assert done.returncode == 0, done.stderr
    assert SimulationResult.read_parquet(out).complete


@pytest.mark.skipif(os.getuid() != 0, reason="needs root to plant files owned by another user")
def test_item11_another_users_checkpoint_and_lock_are_refused(tmp_path: Path) -> None:
    out = _stopped_partial(tmp_path, BOT)
    bot = tmp_path / "planted.py"
    planted = _plant_checkpoint(out, bot, GAMES - 1)
    lock = out.parent / f".{out.name}.lock"
    recorded = lock.read_text()
    manifest = json.loads((planted / "checkpoint.json").read_text())
    manifest["run"] = recorded  # even with the right run id
    (planted / "checkpoint.json").write_text(json.dumps(manifest))
    for path in (planted, planted / "checkpoint.json", bot):
        os.chown(path, 65534, 65534)
    done = cli("simulate", "--resume", str(out), "--players", f"{BOT},{BOT},{BOT}", "--quiet",
               "--jobs", "1")
    assert not (tmp_path / "pwned").exists(), "the planted bot ran"
    assert done.returncode == 0, done.stderr
    same_frames(SimulationResult.read_parquet(out), reference())
    out2 = tmp_path / "other"
    lock2 = tmp_path / ".other.lock"
    lock2.write_text("")
    os.chown(lock2, 65534, 65534)
    with pytest.raises(ResultError, match="not a regular file of yours"):
        ResultWriter(out2, {"games": 1})


def test_item11_plain_resume_of_builtin_bots_needs_no_players(tmp_path: Path) -> None:
    """The guard is for code named by files: built-in bots resume as before."""
    from musici.sim import resume, simulate_to

    out = tmp_path / "run"
    writer_games = 6
    simulate_to(out, ["random"] * 3, writer_games, seed=2, rules={"RULING-MONTHS": 1}, jobs=1,
                progress=False)
    manifest = json.loads((out / MANIFEST).read_text())
    manifest["complete"] = False
    manifest["chunks"] = [[0, writer_games]]
    (out / MANIFEST).write_text(json.dumps(manifest))
    report = resume(out, jobs=1, progress=False)
    assert report.complete


DAMAGED = {
    "deep": '{"format": "musici-result", "version": 1, "config": ' + "[" * 100000
            + "]" * 100000 + "}",
    "parts_not_list": {"parts": 7},
    "part_missing_keys": {"parts": [{"frame": "players"}]},
    "part_wrong_types": {"parts": [{"frame": 1, "file": 2, "rows": "x", "sha256": None}]},
    "chunks_text": {"chunks": "abc"},
    "frames_wrong": {"frames": {"players": 3}},
    "complete_text": {"complete": "yes"},
    "config_list": {"config": []},
}


@pytest.mark.parametrize("damage", sorted(DAMAGED))
def test_item19_a_malformed_manifest_is_one_line_in_balance_and_resume(
        tmp_path: Path, damage: str, old_result) -> None:
    out = copy_result(old_result[0], tmp_path / "run")
    change = DAMAGED[damage]
    if isinstance(change, str):
        (out / MANIFEST).write_text(change)
    else:
        manifest = json.loads((out / MANIFEST).read_text())
        manifest["complete"] = False
        manifest.update(change)
        (out / MANIFEST).write_text(json.dumps(manifest))
    for args in (["balance", "--from", str(out)],
                 ["simulate", "--resume", str(out), "--quiet", "--jobs", "1"]):
        done = cli(*args)
        one_line_error(done, str(out))


@pytest.mark.parametrize(("key", "value"), [
    ("players", 5), ("players", ["random"]), ("games", "many"), ("seed", -1), ("rules", []),
    ("rotate", "yes"), ("cards_fingerprint", 3), ("limits", {"memory_mb": "lots"}),
])
def test_item19_a_malformed_config_is_one_line_in_resume(tmp_path: Path, key: str, value,
                                                         old_result) -> None:
    out = copy_result(old_result[0], tmp_path / "run")
    manifest = json.loads((out / MANIFEST).read_text())
    manifest["complete"] = False
    manifest["config"][key] = value
    (out / MANIFEST).write_text(json.dumps(manifest))
    done = cli("simulate", "--resume", str(out), "--players", f"{BOT},{BOT},{BOT}", "--quiet",
               "--jobs", "1")
    one_line_error(done, key)


def test_item21_a_run_killed_before_its_first_checkpoint_resumes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    killed = cli(*run_args(out), signal_at="KILL:1")
    assert killed.returncode == -9
    done = cli("simulate", "--resume", str(out), "--players", f"{BOT},{BOT},{BOT}", "--quiet",
               "--jobs", "1")
    assert done.returncode == 0, done.stderr
    same_frames(SimulationResult.read_parquet(out), reference())


def test_a_partial_from_an_older_schema_is_refused_in_one_line(tmp_path: Path,
                                                               old_result) -> None:
    """A partial whose frames have other columns (written before a frame gained columns)
    would read back as a mix of two schemas once finished: resume refuses it, keeping it."""
    out = copy_result(old_result[0], tmp_path / "run")
    manifest = json.loads((out / MANIFEST).read_text())
    manifest["complete"] = False
    manifest["frames"]["players"]["columns"] = manifest["frames"]["players"]["columns"][:-1]
    (out / MANIFEST).write_text(json.dumps(manifest))
    done = cli("simulate", "--resume", str(out), "--players", f"{BOT},{BOT},{BOT}", "--quiet",
               "--jobs", "1")
    one_line_error(done, "another version of musici")
    assert json.loads((out / MANIFEST).read_text()) == manifest


EVIL_BOT = """
from pathlib import Path
Path(__file__).with_name("PWNED").write_text("ran")
def strategy(view, decision):
    return decision.random_answer(view.rng)
"""


def _rename_strategy_in_parts(out: Path, manifest: dict, old: str, new: str) -> None:
    """Rewrite every part's strategy column and its checksum, as a crafted result would."""
    import hashlib

    import pyarrow.parquet as pq

    for part in manifest["parts"]:
        path = out / part["file"]
        table = pq.read_table(path)
        if "strategy" in table.column_names:
            frame = table.to_pandas()
            frame["strategy"] = frame["strategy"].replace(old, new)
            frame.to_parquet(path, index=False)
            part["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()


def test_second_probe_report_never_runs_a_bot_only_the_result_names(tmp_path: Path) -> None:
    """`musici report --ladder/--causal` play more games: with a line-up of files named only
    by the result, it refuses (second probe, break 1)."""
    from musici.sim import simulate_to

    evil = tmp_path / "evil.py"
    evil.write_text(EVIL_BOT)
    out = tmp_path / "run"
    simulate_to(out, ["random"] * 3, 12, seed=1, rules={"RULING-MONTHS": 1}, jobs=1,
                progress=False)
    manifest = json.loads((out / MANIFEST).read_text())
    manifest["config"]["players"] = [str(evil), "random", "random"]
    _rename_strategy_in_parts(out, manifest, "random", str(evil))
    (out / MANIFEST).write_text(json.dumps(manifest))
    (tmp_path / "PWNED").unlink(missing_ok=True)
    for extra in (["--ladder", "1"], ["--causal", "2"]):
        done = cli("report", "--from", str(out), "--out", str(tmp_path / "r.html"), "--quiet",
                   *extra)
        assert not (tmp_path / "PWNED").exists(), f"report {extra} ran the planted bot"
        if extra[0] == "--ladder":
            one_line_error(done, "musici runs it only when you name it")


def test_second_probe_a_mount_point_is_refused_before_any_game(small_disk: Path) -> None:
    """A rename cannot replace a mount point: refused at once, not after every game (break 5)."""
    done = cli("simulate", "--players", "random,random,random", "--games", "2", "--months",
               "1", "--jobs", "1", "--quiet", "--out", str(small_disk))
    one_line_error(done, "is a mount point")


def test_second_probe_a_result_that_cannot_be_put_in_place_keeps_its_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    from musici.sim import resume, simulate_to
    from musici.sim.store import ResultWriter as Writer

    def busy(self: Writer) -> None:
        raise OSError(errno.EBUSY, "Device or resource busy")

    out = tmp_path / "run"
    with monkeypatch.context() as patch:
        patch.setattr(Writer, "_put_in_place", busy)
        with pytest.raises(ResultError, match="6 games are kept beside it"):
            simulate_to(out, ["random"] * 3, 6, seed=1, rules={"RULING-MONTHS": 1}, jobs=1,
                        progress=False)
    assert not out.exists()
    report = resume(out, jobs=1, progress=False)
    assert report.complete
    same_frames(SimulationResult.read_parquet(out),
                simulate(["random"] * 3, 6, seed=1, rules={"RULING-MONTHS": 1}, jobs=1,
                         progress=False))


def test_second_probe_a_read_that_meets_a_replaced_and_removed_result_reads_the_new_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The old result, held open by a reader, is removed once the new one is in place: the
    read starts again and returns the new result whole (break 6)."""
    import shutil

    from musici.sim import store
    from musici.sim.store import _exchange

    a = simulate(["random"] * 3, 3, seed=5, rules={"RULING-MONTHS": 1}, jobs=1, progress=False)
    b = simulate(["greedy"] * 3, 4, seed=9, rules={"RULING-MONTHS": 1}, jobs=1, progress=False)
    path_a, path_b = a.to_parquet(tmp_path / "a"), b.to_parquet(tmp_path / "b")
    opened = store._Snapshot.open_part
    done: list[bool] = []

    def replace_then_open(self, entry):
        if not done:
            done.append(True)
            assert _exchange(path_b, path_a)  # b's result now at a; a's (held open) at b
            shutil.rmtree(path_b)  # ... and removed, as the writer does
        return opened(self, entry)

    monkeypatch.setattr(store._Snapshot, "open_part", replace_then_open)
    got = SimulationResult.read_parquet(path_a)
    assert done
    same_frames(got, b)


@pytest.mark.parametrize("damage", ["duplicate", "version_true", "version_float", "huge_chunk"])
def test_second_probe_manifests_are_read_as_strictly_as_card_files(tmp_path: Path,
                                                                   damage: str) -> None:
    small = simulate(["random"] * 3, 3, seed=5, rules={"RULING-MONTHS": 1}, jobs=1,
                     progress=False)
    out = small.to_parquet(tmp_path / "run")
    text = (out / MANIFEST).read_text()
    manifest = json.loads(text)
    if damage == "duplicate":  # a second "complete" would silently win
        text = text.replace('"complete": true', '"complete": true, "complete": false', 1)
    else:
        if damage == "version_true":
            manifest["version"] = True
        elif damage == "version_float":
            manifest["version"] = 1.0
        else:
            manifest["chunks"] = [[0, 10**18]]
        text = json.dumps(manifest)
    (out / MANIFEST).write_text(text)
    with pytest.raises(ResultError):
        SimulationResult.read_parquet(out)


def test_second_probe_a_batch_that_fails_keeps_the_games_it_played(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure outside the games (not a stop) keeps what was played, as a stop does."""
    from musici.sim import resume, simulate_to, stream

    written = stream.records_to_parts
    calls: list[int] = []

    def fails_at_the_fourth_chunk(*args, **kwargs):
        calls.append(1)
        if len(calls) == 4:
            raise RuntimeError("a bug outside any game")
        return written(*args, **kwargs)

    out = tmp_path / "run"
    with monkeypatch.context() as patch:
        patch.setattr(stream, "records_to_parts", fails_at_the_fourth_chunk)
        with pytest.raises(RuntimeError) as failed:
            simulate_to(out, ["random"] * 3, 12, seed=2, rules={"RULING-MONTHS": 1}, jobs=1,
                        progress=False)
    assert any("kept in" in note for note in failed.value.__notes__)
    partial = SimulationResult.read_parquet(out)
    assert not partial.complete and len(partial.games) == 3
    assert resume(out, jobs=1, progress=False).complete
    same_frames(SimulationResult.read_parquet(out),
                simulate(["random"] * 3, 12, seed=2, rules={"RULING-MONTHS": 1}, jobs=1,
                         progress=False))


def test_second_probe_names_from_a_result_cannot_drive_the_terminal(tmp_path: Path) -> None:
    """A crafted result's strategy names reach stdout escaped (break 7)."""
    from musici.sim import simulate_to

    out = tmp_path / "run"
    simulate_to(out, ["random"] * 3, 6, seed=1, rules={"RULING-MONTHS": 1}, jobs=1,
                progress=False)
    manifest = json.loads((out / MANIFEST).read_text())
    evil = "\x1b]0;PWNED-TITLE\x07\x1b[2J\x1b[31mred"
    _rename_strategy_in_parts(out, manifest, "random", evil)
    (out / MANIFEST).write_text(json.dumps(manifest))
    done = cli("balance", "--from", str(out))
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout
    assert "\\x1b]0;PWNED-TITLE" in done.stdout
