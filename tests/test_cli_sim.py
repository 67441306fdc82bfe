"""The batch commands: musici simulate, compare, balance and strategies."""

from __future__ import annotations

from pathlib import Path

import pytest

from musici.cli import main
from musici.sim import SimulationResult


def test_simulate_prints_intervals_and_writes_parquet(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "batch"
    code = main(["simulate", "--players", "greedy,random,random", "--games", "9", "--jobs", "1",
                 "--months", "4", "--rule", "RULING-MEDIA-STEP=50", "--quiet", "--out", str(out)])
    text = capsys.readouterr().out
    assert code == 0
    assert "9 games of greedy, random, random" in text
    assert "RULING-MONTHS': 4" in text and "RULING-MEDIA-STEP': 50" in text
    assert "%" in text and "[" in text  # rates with intervals
    saved = SimulationResult.read_parquet(out)
    assert len(saved.games) == 9 and saved.months.month.max() == 4
    assert main(["balance", "--from", str(out)]) == 0
    assert "Balance report over 9 games" in capsys.readouterr().out


def test_compare_prints_paired_effects(capsys: pytest.CaptureFixture) -> None:
    code = main(["compare", "--games", "6", "--jobs", "1", "--quiet",
                 "--variant-players", "random,random,random,random"])
    text = capsys.readouterr().out
    assert code == 0
    assert "6 paired games" in text and "entry 0: greedy -> random" in text


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "--players", "random,nope,random"], "unknown strategy 'nope'"),
    (["simulate", "--rule", "RULING-NOPE=1"], "RULING-NOPE"),
    (["simulate", "--games", "0"], "games must be a positive integer"),
    (["simulate", "--cards", "/no/such/cards.json"], "cannot read card set file"),
    (["balance", "--from", "/no/such/dir"], "no such result directory"),
])
def test_bad_batch_arguments_give_one_line_errors(args: list[str], message: str,
                                                  capsys: pytest.CaptureFixture) -> None:
    assert main([*args, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("musici: error:") and message in err


def test_strategies_lists_the_builtin_bots(capsys: pytest.CaptureFixture) -> None:
    assert main(["strategies"]) == 0
    names = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert {"random", "greedy"} <= set(names)


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "--months", "3", "--rule", "RULING-MONTHS=5"], "give the number of months once"),
    (["simulate", "--jobs", "2", "--scheduler", "tcp://127.0.0.1:1"], "one or the other"),
])
def test_conflicting_options_are_refused(args: list[str], message: str,
                                         capsys: pytest.CaptureFixture) -> None:
    assert main([*args, "--quiet"]) == 2
    assert message in capsys.readouterr().err


def test_an_unwritable_output_fails_before_the_games(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["simulate", "--games", "100000", "--out", str(blocker), "--quiet"]) == 2
    assert "is not a directory" in capsys.readouterr().err


def test_out_is_refused_when_not_empty_unless_overwrite(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "batch"
    base = ["simulate", "--players", "random,random,random", "--jobs", "1", "--quiet",
            "--months", "2", "--out", str(out)]
    assert main([*base, "--games", "4", "--events"]) == 0
    assert main([*base, "--games", "3"]) == 2
    assert "is not empty; give --overwrite" in capsys.readouterr().err
    assert main([*base, "--games", "3", "--overwrite"]) == 0
    saved = SimulationResult.read_parquet(out)
    assert len(saved.games) == 3 and saved.events is None  # nothing stale from the first run


def test_a_huge_card_file_is_refused_before_reading(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture) -> None:
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:
        f.truncate(9 * 2**20)  # sparse: nothing is written
    assert main(["simulate", "--cards", str(huge), "--games", "2", "--quiet"]) == 2
    assert "card set file of 9 MB" in capsys.readouterr().err
    assert main(["play", "--cards", str(huge)]) == 2
    assert "card set file of 9 MB" in capsys.readouterr().err


@pytest.mark.parametrize(("args", "message"), [
    (["play", "--seat", "9"], "seats are numbered 0 to 3"),
    (["play", "--months", "5", "--rule", "RULING-MONTHS=6"], "give the number of months once"),
    (["play", "--save", "/no/such/dir/game.json"], "does not exist"),
    (["balance", "--from", ""], "--from is an empty string"),
    (["simulate", "--out", ""], "--out is an empty string"),
    (["simulate", "--resume", ""], "--resume is an empty string"),
    (["simulate", "--overwrite"], "--overwrite needs --out"),
])
def test_cli_oddities_are_clear_errors(args: list[str], message: str,
                                       capsys: pytest.CaptureFixture) -> None:
    assert main(args) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.out == ""  # checked before the game, not after


def test_play_into_a_closed_pipe_exits_quietly() -> None:
    import fcntl
    import os
    import subprocess
    import sys

    read, write = os.pipe()
    fcntl.fcntl(write, 1031, 4096)  # F_SETPIPE_SZ: a small pipe, so the game outgrows it
    proc = subprocess.Popen([sys.executable, "-m", "musici", "play"], stdout=write,
                            stderr=subprocess.PIPE)
    os.close(write)
    with os.fdopen(read, "rb") as reader:
        reader.readline()  # then leave, like `| head -1`
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0
    assert "Broken pipe" not in err and "Traceback" not in err


def test_a_wrong_schema_parquet_is_a_clear_error(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture) -> None:
    import pandas as pd

    out = tmp_path / "batch"
    assert main(["simulate", "--games", "3", "--jobs", "1", "--quiet", "--months", "2",
                 "--out", str(out)]) == 0
    capsys.readouterr()
    part = next((out / "players").iterdir())
    pd.DataFrame({"x": [1]}).to_parquet(part)
    assert main(["balance", "--from", str(out)]) == 2
    assert "does not match its checksum" in capsys.readouterr().err


def test_too_many_jobs_are_capped_with_a_one_line_warning(capsys: pytest.CaptureFixture) -> None:
    from musici.sim.backends import default_jobs

    assert main(["simulate", "--games", "2", "--months", "2", "--jobs", "999", "--quiet"]) == 0
    err = capsys.readouterr().err
    assert f"musici: warning: jobs=999 is more than the {default_jobs()} cores" in err
