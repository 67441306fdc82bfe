from __future__ import annotations

import json

import pytest

from musici.cli import main


def test_play_prints_months_ratings_and_standings(capsys, tmp_path):
    save = tmp_path / "game.json"
    assert main(["play", "--players", "random,random,random", "--seed", "3", "--months", "4",
                 "--save", str(save)]) == 0
    out = capsys.readouterr().out
    for text in ("=== Month 1 ===", "=== Month 4 ===", "-- P5 settlement", "[P3.1]",
                 "Final standings", "[END.WIN]", "seat 0"):
        assert text in out
    assert "=== Month 5 ===" not in out
    assert json.loads(save.read_text())["rules"]["RULING-MONTHS"] == 4


def test_seat_view_hides_other_hands(capsys):
    main(["play", "--seed", "3", "--months", "1", "--seat", "1"])
    out = capsys.readouterr().out
    dealt = [line for line in out.splitlines() if "dealt" in line]
    assert len(dealt) == 1 and dealt[0].strip().startswith("seat 1:")


def test_bad_options_are_clear_errors(capsys):
    assert main(["play", "--rule", "RULING-NOPE=1"]) == 2
    assert "unknown rule option 'RULING-NOPE'" in capsys.readouterr().err
    assert main(["play", "--players", "random,genius,random"]) == 2
    assert "unknown strategy 'genius'" in capsys.readouterr().err
    assert main(["play", "--players", "random,random"]) == 2
    assert "3 or 4 players" in capsys.readouterr().err
    assert main(["play", "--cards", "/nonexistent.json"]) == 2
    assert "cannot read card set file" in capsys.readouterr().err


def test_help_of_the_command_and_of_every_subcommand_prints():
    # A stray "%" in a help text crashes argparse's --help (it formats help with %).
    import argparse
    import contextlib
    import io

    from musici.cli import _parser

    parser = _parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for argv in ([], *([name] for name in sub.choices)):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as stop:
            parser.parse_args([*argv, "--help"])
        assert stop.value.code == 0 and "usage:" in out.getvalue(), argv


def test_review_plays_the_game_out_with_the_line_up_named(capsys, tmp_path):
    """`musici review --lineup`: each seat by the bot that played it (a person, 'human',
    stood in for by merchant), said in every decision's why; a wrong name is refused."""
    save = tmp_path / "game.json"
    assert main(["play", "--players", "random,greedy,greedy", "--seed", "3", "--months", "1",
                 "--save", str(save)]) == 0
    capsys.readouterr()
    assert main(["review", str(save), "--lineup", "human,greedy,greedy", "--worlds", "2",
                 "--top", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("with seat 0 continued by merchant, the others by their own bots") == 2
    assert main(["review", str(save), "--lineup", "human,genius,greedy"]) == 2
    assert "unknown strategy 'genius'" in capsys.readouterr().err


def test_review_deep_judges_the_flags_again_and_refuses_an_unknown_bot(capsys, tmp_path):
    save = tmp_path / "game.json"
    assert main(["play", "--players", "random,greedy,greedy,greedy", "--seed", "1",
                 "--months", "3", "--save", str(save)]) == 0
    capsys.readouterr()
    assert main(["review", str(save), "--worlds", "4", "--top", "3"]) == 0
    plain = capsys.readouterr().out
    assert main(["review", str(save), "--worlds", "4", "--top", "3", "--deep", "merchant"]) == 0
    deep = capsys.readouterr().out
    # the first line counts the labels: the deep check clears some of them (seed 1)
    assert plain.splitlines()[0] != deep.splitlines()[0], (plain, deep)
    assert main(["review", str(save), "--deep", "genius"]) == 2
    assert "--deep: unknown bot 'genius'" in capsys.readouterr().err
