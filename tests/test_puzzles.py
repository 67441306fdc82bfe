"""Rule puzzles (issue 18 item 5): the bundled set replays against the engine, the loader
refuses malformed files with clear errors, ``musici puzzle`` and the trainer widget judge
answers."""

from __future__ import annotations

import argparse
import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from musici.analysis.cli_puzzle import add_commands, listed_answers
from musici.analysis.puzzles import (
    PUZZLE_FORMAT,
    PuzzleError,
    bundled_puzzles,
    load_puzzles,
    puzzles_from_data,
    verify,
)
from musici.decisions import IllegalAnswer
from musici.engine import Game
from musici.strategies import greedy_strategy

SAMPLE = 15


# ---------------------------------------------------------------------------- a made puzzle
def made_record(seed: int = 5) -> dict[str, Any]:
    """A well-formed puzzle record from a real game (greedy bots to the first venue
    decision), with made-up estimates: for the loader's tests, not a mined puzzle."""
    game = Game(4, seed)
    while game.decision.kind != "venue":
        game.ask(greedy_strategy)
    d = game.decision
    options = []
    for i, area in enumerate(d.options[:4]):
        share = 0.6 - 0.2 * i if i < 3 else 0.0
        options.append({
            "answer": area, "win_share": share, "win_low": max(0.0, share - 0.1),
            "win_high": share + 0.1, "fame": 30.0 - i, "fame_low": 28.0 - i,
            "fame_high": 32.0 - i, "worlds": 64, "note": f"note {i}",
            "win_gap": None if i == 0 else [0.2 * i, 0.2 * i - 0.1, 0.2 * i + 0.1],
            "fame_gap": None if i == 0 else [float(i), i - 0.5, i + 0.5]})
    return {
        "id": f"venue-made-{seed}", "players": 4, "seed": seed, "rules": game.rules.to_dict(),
        "cards": game.cards.fingerprint, "answers": list(game.answers), "seat": d.player,
        "kind": "venue", "rule": d.rule, "month": game.month, "phase": game.phase,
        "best": options[0]["answer"], "options": options,
        "criterion": {"win_margin": 0.05, "fame_margin": 1.0, "level": 0.05},
        "decided_by": "win share", "policy": "greedy", "worlds": 64,
        "rules_exercised": [d.rule], "why": "because", "lines": [["a line", "P3.1"]],
        "source": "greedy,greedy,greedy,greedy",
    }


def made_file(*records: dict[str, Any]) -> dict[str, Any]:
    return {"format": PUZZLE_FORMAT, "version": 1, "mined": {"script": "test"},
            "puzzles": list(records) or [made_record()]}


def test_a_made_puzzle_loads_replays_and_judges() -> None:
    puzzle = puzzles_from_data(made_file())[0]
    game = verify(puzzle)
    assert game.decision.kind == "venue" and game.decision.player == puzzle.seat
    assert puzzle.check(puzzle.best).correct
    other = puzzle.options[1].answer
    verdict = puzzle.check(other)
    assert not verdict.correct and verdict.estimate == puzzle.options[1]
    assert "Not this one" in verdict.text and "wins 40 %" in verdict.text
    with pytest.raises(IllegalAnswer, match="not a legal answer to this venue"):
        puzzle.check("the moon")
    # position() is a fresh game each time: answering it leaves the puzzle as it was
    puzzle.position().answer(other)
    assert puzzle.position().step == len(puzzle.answers)


def _mutate(path: str, value: Any) -> dict[str, Any]:
    record = made_record()
    target: Any = record
    keys = path.split(".")
    for key in keys[:-1]:
        target = target[int(key)] if isinstance(target, list) else target[key]
    last = keys[-1]
    if value is _DELETE:
        del target[last]
    elif isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return made_file(record)


_DELETE = object()


@pytest.mark.parametrize(("path", "value", "message"), [
    ("seed", -1, "field 'seed' must be an integer"),
    ("players", 5, "field 'players' must be an integer from 3 to 4"),
    ("rules", {"RULING-NOPE": 1}, "field 'rules'"),
    ("cards", "0" * 64, "no bundled card set"),
    ("kind", "juggle", "is not a decision kind"),
    ("seat", 7, "field 'seat'"),
    ("best", "opera-x", "the first option must be the best answer"),
    ("options", [], "at least two answers"),
    ("options.1.win_share", 1.5, "'win_share' must be a number"),
    ("options.1.win_low", 0.45, "outside its interval"),
    ("options.1.win_gap", [0.01, -0.05, 0.07], "not clearly worse"),
    ("options.0.win_gap", [0.1, 0.0, 0.2], "must be null"),
    ("options.1.answer", "chapel-x", "first option|listed twice|"),
    ("decided_by", "final fame", "the gaps say otherwise"),
    ("rules_exercised", [], "non-empty list of rule ids"),
    ("lines", [["only text"]], "[text, rule] pairs"),
    ("why", _DELETE, "lacks field(s): why"),
    ("extra", 1, "unknown field(s): extra"),
])
def test_the_loader_says_what_is_wrong(path: str, value: Any, message: str) -> None:
    data = _mutate(path, value)
    if path == "options.1.answer":  # the same answer twice
        data["puzzles"][0]["options"][1]["answer"] = data["puzzles"][0]["best"]
        message = "listed twice"
    with pytest.raises(PuzzleError, match=message.replace("[", r"\[").replace("(", r"\(")
                       .replace(")", r"\)")):
        puzzles_from_data(data, "p.json")


def test_the_loader_refuses_other_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(PuzzleError, match=r"bad\.json: not valid JSON"):
        load_puzzles(bad)
    with pytest.raises(PuzzleError, match="cannot read the puzzle file"):
        load_puzzles(tmp_path / "missing.json")
    for data, message in ((made_file() | {"format": "musici-save"}, "not a musici puzzle file"),
                          (made_file() | {"version": 2}, "version 2 is not supported"),
                          (made_file() | {"puzzles": []}, "non-empty list"),
                          ([], "a JSON object at the top level"),
                          (made_file(made_record(), made_record()), "used twice")):
        with pytest.raises(PuzzleError, match=message):
            puzzles_from_data(data, "p.json")


def test_a_puzzle_that_does_not_replay_to_its_decision_is_refused() -> None:
    record = made_record()
    shorter = copy.deepcopy(record)
    shorter["answers"] = record["answers"][:-1]  # stops at an earlier decision
    with pytest.raises(PuzzleError, match="the replay reaches"):
        verify(puzzles_from_data(made_file(shorter))[0])
    wrong = copy.deepcopy(record)
    wrong["answers"][3] = "no-such-answer"
    with pytest.raises(PuzzleError, match="answer 3 does not replay"):
        verify(puzzles_from_data(made_file(wrong))[0])
    illegal = copy.deepcopy(record)
    illegal["options"][2]["answer"] = "hall-of-mirrors"
    with pytest.raises(PuzzleError, match="is not legal at its decision"):
        verify(puzzles_from_data(made_file(illegal))[0])


# ---------------------------------------------------------------------------- the bundled set
def test_the_bundled_set_has_at_least_100_varied_puzzles() -> None:
    puzzles = bundled_puzzles()
    assert len(puzzles) >= 100
    kinds = {p.kind for p in puzzles}
    assert len(kinds) >= 5, kinds
    assert max(sum(p.kind == k for p in puzzles) for k in kinds) <= 0.3 * len(puzzles)
    for p in puzzles:
        assert p.rules_exercised[0] == p.rule and p.why
        assert len(p.options) >= 2


def test_a_sample_of_the_bundled_puzzles_replays_against_the_engine() -> None:
    puzzles = bundled_puzzles()
    for puzzle in random.Random(18).sample(list(puzzles), SAMPLE):
        game = verify(puzzle)  # reaches the stated seat's decision; every answer legal
        d = game.decision
        assert (d.player, d.kind, d.rule) == (puzzle.seat, puzzle.kind, puzzle.rule)
        assert game.is_legal(puzzle.best)
        assert puzzle.check(puzzle.best).correct, puzzle.id
        for other in puzzle.options[1:]:
            assert not puzzle.check(other.answer).correct


# ---------------------------------------------------------------------------- the command
def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    parser = argparse.ArgumentParser(prog="musici")
    add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    code = args.run(args)
    return code, capsys.readouterr().out


def test_the_command_lists_shows_and_judges(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(made_file()))
    code, out = run_cli(["puzzle", "--file", str(path), "--list"], capsys)
    assert code == 0 and "venue-made-5" in out and "(1 puzzles)" in out
    puzzle = puzzles_from_data(made_file())[0]
    listed = listed_answers(puzzle)
    assert listed == list(puzzle.decision.options)  # the game's order, not best first
    right, wrong = (str(listed.index(a) + 1) for a in (puzzle.best, puzzle.options[1].answer))
    code, out = run_cli(["puzzle", "--file", str(path), "--answer", right], capsys)
    assert code == 0 and "Options:" in out and "  1. " in out and "Right:" in out
    assert "What it led to in the game:" in out and "a line [P3.1]" in out
    code, out = run_cli(["puzzle", "--file", str(path), "--answer", wrong], capsys)
    assert code == 1 and "Not this one" in out
    code, out = run_cli(["puzzle", "--file", str(path), "--answer", str(puzzle.best)], capsys)
    assert code == 0 and "Right:" in out  # the answer written out
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(right + "\n"))
    code, out = run_cli(["puzzle", "--file", str(path), "--id", "venue-made-5"], capsys)
    assert code == 0 and "Right:" in out
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))
    with pytest.raises(ValueError, match="no answer given"):
        run_cli(["puzzle", "--file", str(path)], capsys)
    with pytest.raises(ValueError, match="not a legal answer"):
        run_cli(["puzzle", "--file", str(path), "--answer", "moon"], capsys)
    with pytest.raises(KeyError, match="no puzzle with id"):
        run_cli(["puzzle", "--file", str(path), "--id", "nope"], capsys)


def test_the_command_solves_a_bundled_puzzle(capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = bundled_puzzles()[0]
    number = listed_answers(puzzle).index(puzzle.best) + 1
    code, out = run_cli(["puzzle", "--id", puzzle.id, "--answer", str(number)], capsys)
    assert code == 0 and "Right:" in out


def test_musici_puzzle_is_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    from musici.cli import main

    assert main(["puzzle", "--list"]) == 0
    assert f"({len(bundled_puzzles())} puzzles)" in capsys.readouterr().out


# ---------------------------------------------------------------------------- the widget
def test_the_trainer_tries_tells_explains_and_goes_on() -> None:
    from musici.widgets.puzzle import PuzzleTrainer

    puzzles = puzzles_from_data(made_file(made_record(5), made_record(6)))
    trainer = PuzzleTrainer(puzzles)
    assert "Puzzle 1 of 2" in trainer.header.value and "<svg" in trainer.board.value
    assert trainer.controls.decision.kind == "venue"
    other = trainer.puzzle.options[1].answer
    trainer.controls.submit(other)
    assert "Not this one" in trainer.feedback.value and trainer.why.value == ""
    trainer.controls.submit(trainer.puzzle.best)
    assert "Right" in trainer.feedback.value and "puzzle-why" in trainer.why.value
    assert (trainer.solved, trainer.tried) == (0, 1)  # right only at the second try
    trainer.next()
    assert "Puzzle 2 of 2" in trainer.header.value and trainer.feedback.value == ""
    trainer.controls.submit(trainer.puzzle.best)
    assert (trainer.solved, trainer.tried) == (1, 2)
    trainer.next()
    trainer.reveal()
    assert "clearly best" in trainer.feedback.value and "Rules exercised" in trainer.why.value
    assert "puzzle-estimates" in trainer.why.value
    assert trainer.controls.submit("the moon") is False
    assert "not a legal answer" in trainer.controls.error.value


@pytest.mark.slow
def test_a_sample_of_puzzles_stays_clearly_best_in_fresh_worlds() -> None:
    """The engine's second opinion: a few puzzles evaluated again in worlds the miner never
    used; the stored best answer still leads, and no other answer is clearly better."""
    from musici.analysis.evaluation import evaluate

    for puzzle in random.Random(5).sample(list(bundled_puzzles()), 4):
        game = puzzle.position()
        ev = evaluate(game.view(puzzle.seat), game.decision, seed="fresh-worlds",
                      candidates=[o.answer for o in puzzle.options], min_worlds=32,
                      max_worlds=64)
        for other in puzzle.options[1:]:
            win = ev.gap(puzzle.best, other.answer)
            fame = ev.fame_gap(puzzle.best, other.answer)
            assert win[2] > 0 or fame[2] > 0, (puzzle.id, other.answer, win, fame)


def test_the_trainer_judges_bundled_puzzles_of_every_answer_space() -> None:
    """A choice, a subset (orchestras ticked) and an amount: the controls' answer reaches
    the puzzle's check, the best is right and another compared answer is not."""
    from musici.widgets.puzzle import PuzzleTrainer

    puzzles = bundled_puzzles()
    spaces: dict[str, Any] = {}
    for p in puzzles:
        spaces.setdefault(p.decision.space, p)
    assert set(spaces) == {"choice", "subset", "amount"}, set(spaces)
    for space, puzzle in spaces.items():
        trainer = PuzzleTrainer([puzzle])
        assert trainer.controls.submit(puzzle.options[1].answer), space
        assert "puzzle-wrong" in trainer.feedback.value, space
        assert trainer.controls.submit(puzzle.best), space
        assert "puzzle-right" in trainer.feedback.value, space


def test_a_packed_file_is_read_and_a_packed_bomb_refused(tmp_path, monkeypatch) -> None:
    import gzip

    import musici.analysis.puzzles as P

    text = P.resources.files("musici").joinpath(P.BUNDLED).read_bytes()
    packed = tmp_path / "set.json.gz"
    packed.write_bytes(text)
    assert len(P.load_puzzles(packed)) == len(P.bundled_puzzles())
    monkeypatch.setattr(P, "MAX_PUZZLE_BYTES", 10_000)
    bomb = tmp_path / "bomb.json.gz"
    bomb.write_bytes(gzip.compress(b" " * 200_000))  # 200 kB of spaces, packed to a few hundred
    with pytest.raises(P.PuzzleError, match="unpacks to more than"):
        P.load_puzzles(bomb)
    damaged = tmp_path / "damaged.json.gz"
    damaged.write_bytes(text[:40] + b"\x00" * 40)
    with pytest.raises(P.PuzzleError, match=r"damaged gzip|not valid JSON"):
        P.load_puzzles(damaged)
