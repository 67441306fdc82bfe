"""Saves that outlive rule changes (issue 22 item 4).

The files in ``tests/data/pre_revision_2`` were written by the engine as it was before rules
revision 2 (commit 3df766d), played by the bundled bots named in each file name, 3 and 4
players; ``manifest.json`` records each game's results as that engine computed them. Of 120
such games, 81 replay under the current protocol, 29 more only under protocol 1 (a seller
holding only discovery cards was asked and declined; revision 2 makes that decline forced),
and 10 sell a discovery card, which revision 2 forbids (P4.BUY.2). The fixtures hold each
kind.
"""

from __future__ import annotations

import gzip
import json
import warnings
from pathlib import Path

import pytest

from musici import Game
from musici.persistence import SaveFileError, SaveReplayWarning, load, loads

DATA = Path(__file__).parent / "data" / "pre_revision_2"
MANIFEST = json.loads((DATA / "manifest.json").read_text())["saves"]


def _unpack(name: str, tmp_path: Path) -> Path:
    path = tmp_path / name
    path.write_bytes(gzip.decompress((DATA / f"{name}.gz").read_bytes()))
    return path


def test_the_fixtures_hold_every_case_and_both_table_sizes() -> None:
    kinds = {entry["kind"] for entry in MANIFEST.values()}
    assert kinds == {"clean", "decline", "sale"}
    assert {"-3p-" in name for name in MANIFEST} == {True, False}


@pytest.mark.rules("P4.BUY.2", "P4.BUY.3")
@pytest.mark.parametrize("name", [n for n, e in MANIFEST.items() if e["kind"] != "sale"])
def test_a_save_legal_under_revision_2_replays_to_its_recorded_results(name: str,
                                                                        tmp_path: Path) -> None:
    expected = MANIFEST[name]["old_engine"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", SaveReplayWarning)
        game = load(_unpack(name, tmp_path))
    assert game.load_note is None and game.finished
    assert game.step == expected["steps"]
    assert [str(f) for f in game.results["fame"]] == expected["fame"]
    assert game.results["money"] == expected["money"]
    assert game.results["winners"] == expected["winners"]
    assert game.protocol == (1 if MANIFEST[name]["kind"] == "decline" else game.protocol)


@pytest.mark.rules("P4.BUY.2")
@pytest.mark.parametrize("name", [n for n, e in MANIFEST.items() if e["kind"] == "sale"])
def test_a_save_selling_a_discovery_card_opens_at_that_step_with_a_note(name: str,
                                                                       tmp_path: Path) -> None:
    with pytest.warns(SaveReplayWarning, match="P4.BUY.2"):
        game = load(_unpack(name, tmp_path))
    note = game.load_note
    assert note is not None and "discovery card" in note and "P4.BUY.2" in note
    assert f"step {game.step} " in note  # the step it names is where the game stands
    assert game.decision is not None and game.decision.kind == "sell"
    assert not game.finished
    # The game goes on from there under the current rules: the sale is no longer offered.
    card = note.split("discovery card ")[1].split(",")[0]
    assert card not in game.decision.options or game.protocol == 1


def test_a_new_save_records_revision_protocol_and_final_position() -> None:
    from musici.engine.protocols import CURRENT_PROTOCOL
    from musici.rules import RULES_REVISION
    from musici.strategies import make_strategy

    game = Game(3, seed=4).play([make_strategy("greedy")] * 3)
    data = json.loads(game.to_json())
    assert (data["version"], data["revision"], data["protocol"]) == (3, RULES_REVISION,
                                                                     CURRENT_PROTOCOL)
    assert data["position"] == json.loads(json.dumps(game.position()))
    assert loads(game.to_json()).results == game.results


def test_a_replay_that_misses_the_stored_position_is_refused() -> None:
    from musici.persistence import _digest, game_to_dict
    from musici.strategies import make_strategy

    game = Game(3, seed=4).play([make_strategy("greedy")] * 3)
    data = game_to_dict(game)
    data["position"]["seats"][0]["money"] += 10
    data["check"]["digest"] = _digest(data, game)  # a consistent file, a wrong position
    with pytest.raises(SaveFileError, match="does not reach the stored position"):
        loads(json.dumps(data))


def test_an_illegal_answer_that_no_revision_explains_is_still_refused(tmp_path: Path) -> None:
    name = next(n for n, e in MANIFEST.items() if e["kind"] == "clean")
    data = json.loads(_unpack(name, tmp_path).read_text())
    data["answers"][5] = "no-such-answer"
    with pytest.raises(SaveFileError, match="answer 5 does not replay"):
        loads(json.dumps(data))
