"""Save to JSON and load back to the identical state; corrupt files fail clearly."""

from __future__ import annotations

import json

import pytest

from musici import Game, RuleSet
from musici.cards import cardset_from_data, standard_cardset_data
from musici.persistence import SaveFileError, dumps, game_to_dict, load, loads
from musici.strategies import random_strategy


def logs(game):
    return [e.to_dict() for e in game.events]


@pytest.mark.parametrize("stop", [0, 1, 57, 300])
def test_round_trip_mid_game_continues_identically(tmp_path, stop):
    rules = RuleSet.from_options({"RULING-MEDIA-ZERO": "zero-can-win"})
    game = Game(players=3, seed=4, rules=rules).play([random_strategy] * 3, max_steps=stop)
    path = tmp_path / "g.json"
    game.save(path)
    back = Game.load(path)
    assert logs(back) == logs(game)
    assert back.rules == game.rules and back.step == game.step
    game.play([random_strategy] * 3)
    back.play([random_strategy] * 3)
    assert logs(back) == logs(game)
    assert back.results == game.results


def test_finished_game_round_trip():
    game = Game(seed=8).play([random_strategy] * 4)
    back = loads(dumps(game))
    assert back.finished and back.standings() == game.standings()


@pytest.fixture
def saved():
    return game_to_dict(Game(seed=2).play([random_strategy] * 4, max_steps=80))


@pytest.mark.parametrize(("label", "mutate", "words"), [
    ("other version", lambda d: d.update(version=99), "version 99"),
    ("not a save", lambda d: d.update(format="chess"), "not a musici saved game"),
    ("missing field", lambda d: d.pop("seed"), "missing field(s): seed"),
    ("extra field", lambda d: d.update(cheat=1), "unknown field(s): cheat"),
    ("bad rule", lambda d: d["rules"].update({"RULING-LINEAGE": "x"}), "RULING-LINEAGE"),
    ("bad players", lambda d: d.update(players=9), "3 or 4 players"),
    ("bad seed", lambda d: d.update(seed="7"), "seed"),
    ("negative seed", lambda d: d.update(seed=-1), "seed"),
    ("tampered answer", lambda d: d["answers"].__setitem__(5, "teleport"), "answer 5"),
    ("wrong answer type", lambda d: d["answers"].__setitem__(3, {"x": 1}), "answer 3"),
    ("answers not list", lambda d: d.update(answers="abc"), "answers"),
    ("too many answers", lambda d: d["answers"].extend(["pass"] * 5000), "cut short or extended"),
    ("card set mismatch", lambda d: d["cardset"].update(fingerprint="0" * 64), "card set"),
    ("bad rng", lambda d: d["seat_rngs"].__setitem__(0, [3, [1, 2], None]), "seat_rngs"),
])
def test_corrupt_saves_fail_clearly(saved, label, mutate, words):
    mutate(saved)
    with pytest.raises(SaveFileError) as info:
        loads(json.dumps(saved), source="save.json")
    assert words in str(info.value)
    assert str(info.value).startswith("save.json")


def test_truncated_and_unreadable(tmp_path, saved):
    text = json.dumps(saved)
    with pytest.raises(SaveFileError, match="not valid JSON"):
        loads(text[: len(text) // 2])
    with pytest.raises(SaveFileError, match="cannot read"):
        load(tmp_path / "nope.json")


def test_loading_with_the_matching_custom_card_set():
    data = standard_cardset_data()
    data["name"] = "variant"
    cards = cardset_from_data(data)
    game = Game(seed=3, cards=cards).play([random_strategy] * 4, max_steps=40)
    with pytest.raises(SaveFileError, match="card set mismatch"):
        loads(dumps(game))
    assert loads(dumps(game), cards=cards).step == 40


# ---------------------------------------------------------------------------- old saves
# Saves written before rules revision 2 (format versions 1 and 2, made with the code of
# commit 3df766d): they record every rule option of their day, but not the options added
# since (RULING-HALF-VENUE, RULING-MISSING-TYPE), and name the card set of their day.
OLD_SAVES = ["save_v1_rev1", "save_v2_rev1"]
DATA = __import__("pathlib").Path(__file__).parent / "data"


def _old(name):
    data = json.loads((DATA / f"{name}.json").read_text("utf-8"))
    expected = json.loads((DATA / f"{name}.expected.json").read_text("utf-8"))
    return data, expected


def _outcome(game):
    return {"players": [[str(p.fame), p.money, p.played, p.orchestras] for p in game.players],
            "events": len(game.events)}


from musici.decisions import IllegalAnswer  # noqa: E402


def _replay(data, rules, cards):
    game = Game(players=data["players"], seed=data["seed"], rules=rules, cards=cards)
    for answer in data["answers"]:
        game.answer(tuple(answer) if isinstance(answer, list) else answer)
    return game


@pytest.mark.parametrize("name", OLD_SAVES)
def test_old_save_replays_exactly_under_the_options_of_its_day(name):
    from musici.cards import bundled_cardset
    data, expected = _old(name)
    assert data["version"] == int(name[6]) and "RULING-HALF-VENUE" not in data["rules"]
    cards = bundled_cardset(data["cardset"]["fingerprint"])
    assert cards is not None and cards.source.endswith("standard_cards_r1.json")
    game = _replay(data, RuleSet.from_saved(data["rules"]), cards)
    assert game.finished and _outcome(game) == expected
    assert game.rules.get("RULING-HALF-VENUE") == "all-venues"


@pytest.mark.parametrize("name", OLD_SAVES)
def test_old_save_would_change_meaning_under_todays_defaults(name):
    # why from_saved exists: today's default halves only hall rent, so the recorded answers
    # stop being legal (or replay to another game)
    from musici.cards import bundled_cardset
    data, expected = _old(name)
    cards = bundled_cardset(data["cardset"]["fingerprint"])
    try:
        game = _replay(data, RuleSet.from_options(data["rules"]), cards)
    except IllegalAnswer:  # one way to differ: a recorded answer is no longer legal
        return
    assert _outcome(game) != expected


@pytest.mark.rules("P2.3", "P4.3", "END.7")
@pytest.mark.parametrize("name", OLD_SAVES)
def test_old_save_loads_as_is(name):
    _, expected = _old(name)
    assert _outcome(load(DATA / f"{name}.json")) == expected
