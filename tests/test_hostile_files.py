"""Hostile files: truncated, mistyped, tampered, oversized saved games and card sets.

Each must fail with exactly the documented error (:class:`SaveFileError`,
:class:`CardSetError`): one line that starts with the file's name and says what is wrong,
raised by the loader itself (not a traceback from deep inside, no chained internal
exception). Nothing in a file is ever executed: JSON only.
"""

from __future__ import annotations

import builtins
import copy
import json
import marshal
import os
import pickle
import re
import subprocess
from pathlib import Path

import pytest

from musici import CardSetError, Game, RuleSet, load_cardset
from musici.cards import cardset_from_data, standard_cardset, standard_cardset_data
from musici.invariants import check_invariants
from musici.persistence import SaveFileError, dumps, game_to_dict, load, loads
from musici.strategies import random_strategy

MUSICI = Path(__file__).resolve().parent.parent / "musici"


def raised_by(exc: BaseException) -> str:
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return Path(tb.tb_frame.f_code.co_filename).name if tb else ""


def clean_error(info, kind: type, module: str, source: str) -> str:
    """The checks every failure must pass; returns the message."""
    exc = info.value
    assert type(exc) is kind, f"{type(exc).__name__}: {exc}"
    message = str(exc)
    assert message.startswith(source), message
    assert "\n" not in message and len(message) < 2_000, message[:300]
    assert exc.__cause__ is None, repr(exc.__cause__)
    assert exc.__context__ is None or exc.__suppress_context__, repr(exc.__context__)
    assert raised_by(exc) == module, f"raised in {raised_by(exc)}: {message}"
    return message


def save_fails(text, *words, source="save.json", cards=None) -> str:
    with pytest.raises(SaveFileError) as info:
        loads(text, cards=cards, source=source)
    message = clean_error(info, SaveFileError, "persistence.py", source)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    return message


def cards_fail(tmp_path, raw, *words, name="cards.json") -> str:
    path = tmp_path / name
    path.write_bytes(raw if isinstance(raw, bytes) else raw.encode("utf-8"))
    with pytest.raises(CardSetError) as info:
        load_cardset(path)
    message = clean_error(info, CardSetError, "cards.py", str(path))
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    return message


@pytest.fixture(scope="module")
def game():
    rules = RuleSet.from_options({"RULING-MEDIA-ZERO": "zero-can-win", "RULING-MONTHS": 6})
    return Game(players=3, seed=11, rules=rules).play([random_strategy] * 3, max_steps=120)


@pytest.fixture(scope="module")
def text(game):
    return dumps(game)


@pytest.fixture
def data(text):
    return json.loads(text)


@pytest.fixture(scope="module")
def cards_text():
    return json.dumps(standard_cardset_data(), indent=1, ensure_ascii=False)


# ---------------------------------------------------------------------- saved games
def test_the_real_file_loads(text, game):
    back = loads(text)
    assert back.step == game.step == 120 and dumps(back) == text
    check_invariants(back)


def test_every_prefix_of_a_saved_game_fails_clearly(text):
    assert len(text) > 10_000
    for cut in range(len(text)):
        with pytest.raises(SaveFileError) as info:
            loads(text[:cut], source="cut.json")
        if cut % 997 == 0:  # the full checks on a sample; the type on every prefix
            clean_error(info, SaveFileError, "persistence.py", "cut.json")
        assert type(info.value) is SaveFileError and "not valid JSON" in str(info.value)


def test_truncated_files_on_disk_fail_clearly(tmp_path, text):
    raw = text.encode()
    for cut in (0, 1, 2, len(raw) // 3, len(raw) - 1):
        path = tmp_path / "cut.json"
        path.write_bytes(raw[:cut])
        with pytest.raises(SaveFileError) as info:
            load(path)
        clean_error(info, SaveFileError, "persistence.py", str(path))


@pytest.mark.parametrize(("label", "change", "words"), [
    ("version 0", {"version": 0}, ["version 0", "reads versions 1, 2, 3"]),
    ("version 4", {"version": 4}, ["version 4", "reads versions 1, 2, 3"]),
    ("version True", {"version": True}, ["version True"]),
    ("version 1.0", {"version": 1.0}, ["version 1.0"]),
    ("version '1'", {"version": "1"}, ["version '1'"]),
    ("format of a card set", {"format": "musici-cards"}, ["not a musici saved game",
                                                          "musici-save"]),
    ("format huge", {"format": "x" * 100_000}, ["not a musici saved game"]),
])
def test_other_formats_and_versions(data, label, change, words):
    data.update(change)
    save_fails(json.dumps(data), *words)


BAD_VALUES = [None, True, False, 1.5, -1, 10**100, -(10**100), "", "x" * 10_000, [], [[[]]],
              {}, {"a": {"b": None}}]


@pytest.mark.parametrize("field", ["format", "version", "players", "seed", "rules", "cardset",
                                   "answers", "seat_rngs", "check"])
def test_every_field_with_every_wrong_type(data, field):
    keyword = {"format": "format", "version": "version", "players": "players", "seed": "seed",
               "rules": "rules", "cardset": "card", "answers": "answer",
               "seat_rngs": "seat_rngs", "check": "check"}[field]
    original = data[field]
    tried = 0
    for value in BAD_VALUES:
        if type(value) is type(original) and field not in ("format", "version"):
            continue  # same type, another value: not a type error (see the tamper tests)
        if field == "rules" and value == {}:
            continue
        bad = copy.deepcopy(data)
        bad[field] = value
        message = save_fails(json.dumps(bad))
        assert keyword in message, f"{field}={value!r:.40}: {message}"
        tried += 1
    assert tried >= 8


@pytest.mark.parametrize("field", ["format", "version", "players", "seed", "rules", "cardset",
                                   "answers", "seat_rngs", "check"])
def test_missing_fields(data, field):
    del data[field]
    save_fails(json.dumps(data), field)


def test_extra_fields(data):
    save_fails(json.dumps({**data, "cheat": {"money": 10**6}}), "unknown field(s): cheat")
    save_fails(json.dumps({**data, "__class__": "Game"}), "__class__")


@pytest.mark.parametrize(("label", "edit", "words"), [
    ("players 3.0", lambda d: d.update(players=3.0), ["players", "3.0"]),
    ("players True", lambda d: d.update(players=True), ["players"]),
    ("players 10**100", lambda d: d.update(players=10**100), ["3 or 4 players"]),
    ("seed 1.0", lambda d: d.update(seed=1.0), ["seed"]),
    ("seed negative huge", lambda d: d.update(seed=-(10**100)), ["seed"]),
    ("rule value wrong type", lambda d: d["rules"].update({"RULING-MONTHS": "6.0"}), ["RULING-MONTHS"]),
    ("rule value superscript digit", lambda d: d["rules"].update({"RULING-MONTHS": "²"}),
     ["rules"]),
    ("rule value 5000 digits", lambda d: d["rules"].update({"RULING-MONTHS": "9" * 5000}),
     ["rules"]),
    ("rule value nested", lambda d: d["rules"].update({"RULING-LINEAGE": [[["direct"]]]}),
     ["RULING-LINEAGE"]),
    ("unknown rule", lambda d: d["rules"].update({"RULING-TELEPORT": "yes"}),
     ["RULING-TELEPORT"]),
    ("cardset without fingerprint", lambda d: d["cardset"].pop("fingerprint"), ["cardset"]),
    ("fingerprint not str", lambda d: d["cardset"].update(fingerprint=123), ["cardset"]),
    ("rng version 3.0", lambda d: d["seat_rngs"][0].__setitem__(0, 3.0), ["seat_rngs"]),
    ("rng version 2", lambda d: d["seat_rngs"][0].__setitem__(0, 2), ["seat_rngs"]),
    ("rng word too big", lambda d: d["seat_rngs"][1][1].__setitem__(5, 2**32), ["seat_rngs"]),
    ("rng word negative", lambda d: d["seat_rngs"][1][1].__setitem__(5, -1), ["seat_rngs"]),
    ("rng word float", lambda d: d["seat_rngs"][1][1].__setitem__(5, 5.0), ["seat_rngs"]),
    ("rng position too big", lambda d: d["seat_rngs"][2][1].__setitem__(624, 625), ["seat_rngs"]),
    ("rng gauss str", lambda d: d["seat_rngs"][2].__setitem__(2, "0.5"), ["seat_rngs"]),
    ("rng short", lambda d: d["seat_rngs"][2][1].pop(), ["seat_rngs"]),
    ("one rng missing", lambda d: d["seat_rngs"].pop(), ["seat_rngs"]),
    ("one rng too many", lambda d: d["seat_rngs"].append(d["seat_rngs"][0]), ["seat_rngs"]),
    ("answer huge int", lambda d: d["answers"].__setitem__(4, 10**300), ["answer 4"]),
    ("answer deep", lambda d: d["answers"].__setitem__(4, json.loads("[" * 500 + "]" * 500)),
     ["answer 4"]),
    ("answer object", lambda d: d["answers"].__setitem__(4, {"py/object": "os.system"}),
     ["answer 4"]),
    ("answer float", lambda d: d["answers"].__setitem__(7, 0.0), ["answer 7"]),
    ("answer bool", lambda d: d["answers"].__setitem__(7, True), ["answer 7"]),
    ("answer null", lambda d: d["answers"].__setitem__(7, None), ["answer 7"]),
])
def test_wrong_values(data, label, edit, words):
    edit(data)
    save_fails(json.dumps(data), *words)


def test_huge_numbers_and_deep_nesting(text, data):
    digits = "9" * 5000  # more digits than Python converts: the parser refuses
    save_fails(text.replace('"seed":11', f'"seed":{digits}', 1), "not valid JSON")
    save_fails(text.replace('"seed":11', '"seed":1e999', 1), "seed")  # inf, as a float
    for depth in (100, 2_000, 200_000):
        deep = "[" * depth + "]" * depth
        save_fails(deep)  # top level: not an object
        save_fails(text.replace('"answers":[', f'"answers":[{deep},', 1))
        save_fails('{"a":' * depth + "1" + "}" * depth)


def test_non_utf8_bom_nan_and_duplicate_keys(tmp_path, text):
    path = tmp_path / "bad.json"
    for raw in (text.encode("utf-16"), b"\xff\xfe" + text.encode(), text.encode()[:-1] + b"\xe9",
                text.encode("latin-1")[:50] + b"\xc3"):
        path.write_bytes(raw)
        with pytest.raises(SaveFileError) as info:
            load(path)
        clean_error(info, SaveFileError, "persistence.py", str(path))
    save_fails(text.encode()[:-1] + b"\x80}", "not valid JSON")  # bytes given to loads
    save_fails("\ufeff" + text, "BOM")
    for literal in ("NaN", "Infinity", "-Infinity"):
        save_fails(text.replace('"seed":11', f'"seed":{literal}', 1), literal)
        save_fails(text.replace('null]', f'{literal}]', 1), literal)  # a generator's gauss
    save_fails(text.replace('"seed":11', '"seed":11,"seed":12', 1), "duplicate key 'seed'")
    save_fails(text.replace('"rules":{', '"rules":{"RULING-MONTHS":6,', 1),
               "duplicate key 'RULING-MONTHS'")


def _as_version_1(data):
    """The same save in format version 1 (no check), to reach the replay's own checks."""
    old = {k: v for k, v in data.items()
           if k not in ("check", "revision", "protocol", "position")}
    old["version"] = 1
    return old


def test_tampered_answers(game, data):
    # An illegal answer in the middle: the error names the step it was changed at.
    for step in (0, 17, 60, len(data["answers"]) - 1):
        bad = copy.deepcopy(data)
        bad["answers"][step] = "teleport"
        save_fails(json.dumps(bad), f"answer {step} does not replay")
    # Answers of another seed: version 1 notices when one stops being legal; version 2 always.
    for seed in (1, 12, 10**30):
        bad = _as_version_1(data)
        bad["seed"] = seed
        save_fails(json.dumps(bad), "does not replay")
        bad = copy.deepcopy(data)
        bad["seed"] = seed
        save_fails(json.dumps(bad))
    # Answers past the end of a finished game.
    done = _as_version_1(game_to_dict(Game(players=3, seed=4).play([random_strategy] * 3)))
    done["answers"].append("pass")
    save_fails(json.dumps(done), "comes after the end of the game")


def test_version_1_cannot_tell_answers_cut_short(data):
    """Format version 1 has no check: an answer list cut short replays to an earlier, valid
    position. Still readable, so this is documented here; version 2 refuses it (below)."""
    old = _as_version_1(data)
    old["answers"] = old["answers"][:50]
    back = loads(json.dumps(old))
    assert back.step == 50
    check_invariants(back)


def test_version_2_refuses_answers_cut_short_and_legal_edits(data):
    short = copy.deepcopy(data)
    short["answers"] = short["answers"][:50]
    save_fails(json.dumps(short), "cut short or extended")
    short["check"]["steps"] = 50  # edited consistently: the digest still tells
    save_fails(json.dumps(short), "check digest does not match")
    rules = copy.deepcopy(data)  # another valid value of a ruling that has not mattered yet
    saved = rules["rules"]["RULING-END-CARDS"]
    rules["rules"]["RULING-END-CARDS"] = ("score-and-discovery" if saved == "score-only"
                                          else "score-only")
    save_fails(json.dumps(rules), "check digest does not match")
    engine = copy.deepcopy(data)  # what an engine that now replays differently looks like
    engine["check"]["digest"] = "0" * 64
    save_fails(json.dumps(engine), "replays it differently")


def test_mismatched_card_set_and_rules(data, text):
    data["cardset"]["fingerprint"] = "f" * 64
    save_fails(json.dumps(data), "card set mismatch", "ffffffffffff", standard_cardset().fingerprint[:12])
    variant = standard_cardset_data()
    variant["name"] = "variant"
    other = cardset_from_data(variant)
    save_fails(text, "card set mismatch", "load it with that card set", cards=other)
    save_fails(text.replace('"RULING-MONTHS":6', '"RULING-MONTHS":13', 1), "RULING-MONTHS", "12")


def test_loaders_hold_no_code_execution_paths():
    for module in ("persistence.py", "cards.py", "rules.py", "decisions.py"):
        source = (MUSICI / module).read_text("utf-8")
        for pattern in (r"\bimport pickle\b", r"\bpickle\.load", r"\bmarshal\b", r"\bshelve\b",
                        r"\beval\(", r"\bexec\(", r"\byaml\b", r"\bjsonpickle\b",
                        r"object_hook\s*=", r"__import__", r"import_module", r"spec_from_file",
                        r"\bsubprocess\b",
                        r"os\.system"):
            assert not re.search(pattern, source), f"{module}: {pattern}"


PAYLOADS = [
    {"__reduce__": ["os.system", ["touch PWNED"]]},
    {"py/object": "os.system", "py/reduce": [{"py/function": "os.system"}, ["touch PWNED"]]},
    "cos\nsystem\n(S'touch PWNED'\ntR.",  # a pickle program, as text
    "__import__('os').system('touch PWNED')",
    {"$type": "System.Diagnostics.Process"}, {"!!python/object/apply:os.system": ["touch PWNED"]},
]


def test_payloads_are_only_data(tmp_path, monkeypatch, data, cards_text):
    def forbidden(*args, **kwargs):
        raise AssertionError("a loader tried to execute something")

    for target, name in ((pickle, "loads"), (pickle, "load"), (marshal, "loads"),
                         (builtins, "eval"), (builtins, "exec"), (os, "system"),
                         (subprocess, "Popen")):
        monkeypatch.setattr(target, name, forbidden)
    monkeypatch.chdir(tmp_path)
    for payload in PAYLOADS:
        for edit in (lambda d, p=payload: d["answers"].__setitem__(3, p),
                     lambda d, p=payload: d.update(seed=p),
                     lambda d, p=payload: d["rules"].update({"RULING-LINEAGE": p}),
                     lambda d, p=payload: d["cardset"].update(name=p, fingerprint="0")):
            bad = copy.deepcopy(data)
            edit(bad)
            save_fails(json.dumps(bad))
        cards = json.loads(cards_text)
        cards["scores"][0]["piece"] = payload
        if isinstance(payload, str):  # a str is a fine piece name: loaded as text
            assert load_cardset_text(tmp_path, cards).music["S01"].piece == payload
        else:
            cards_fail(tmp_path, json.dumps(cards), "S01", "piece")
        extra = json.loads(cards_text)
        extra["extension"] = payload  # unknown keys are ignored (docs/cards.md)
        assert load_cardset_text(tmp_path, extra).name == extra["name"]
    assert not (tmp_path / "PWNED").exists()


def load_cardset_text(tmp_path, data):
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return load_cardset(path)


# ---------------------------------------------------------------------- card sets
def test_card_set_prefixes_fail_clearly(tmp_path, cards_text):
    raw = cards_text.encode("utf-8")
    assert len(raw) != len(cards_text)  # non-ASCII names: some cuts split a character
    cuts = sorted({*range(0, 200), *range(200, len(raw), 61), len(raw) - 1})
    for cut in cuts:
        cards_fail(tmp_path, raw[:cut])


@pytest.mark.parametrize(("label", "change", "words"), [
    ("version 2", {"version": 2}, ["version", "must be 1", "got 2"]),
    ("version True", {"version": True}, ["version", "got True"]),
    ("version 1.0", {"version": 1.0}, ["version", "got 1.0"]),
    ("save format", {"format": "musici-save"}, ["format", "musici-cards"]),
    ("no format", {"format": None}, ["format"]),
])
def test_card_set_other_formats(tmp_path, cards_text, label, change, words):
    data = json.loads(cards_text)
    data.update(change)
    cards_fail(tmp_path, json.dumps(data), *words)


SECTIONS = ("composers", "scores", "discoveries", "orchestras", "specials")


@pytest.mark.parametrize("section", SECTIONS)
def test_card_set_missing_and_mistyped_fields(tmp_path, cards_text, section):
    base = json.loads(cards_text)
    tried = 0
    for field in base[section][0]:
        bad = copy.deepcopy(base)
        del bad[section][0][field]
        message = cards_fail(tmp_path, json.dumps(bad))
        assert repr(field) in message or field in message, message
        original = base[section][0][field]
        for value in BAD_VALUES:
            either_null = original is None or value is None
            if type(value) is type(original) or (either_null and field in ("authentic", "modern")):
                continue
            bad = copy.deepcopy(base)
            bad[section][0][field] = value
            message = cards_fail(tmp_path, json.dumps(bad))
            assert field in message, f"{section}.{field}={value!r:.40}: {message}"
            tried += 1
    assert tried >= 20


@pytest.mark.parametrize("field", ["composers", "scores", "discoveries", "orchestras", "specials",
                                   "name"])
def test_card_set_top_level_fields(tmp_path, cards_text, field):
    base = json.loads(cards_text)
    bad = copy.deepcopy(base)
    del bad[field]
    cards_fail(tmp_path, json.dumps(bad), f"missing field {field!r}")
    for value in BAD_VALUES:
        if type(value) is type(base[field]):
            continue
        bad = copy.deepcopy(base)
        bad[field] = value
        cards_fail(tmp_path, json.dumps(bad), field)


def test_card_set_huge_numbers_nesting_encoding_nan_duplicates(tmp_path, cards_text):
    data = json.loads(cards_text)
    for value, words in ((10**100, ["income", "between"]), (-(10**100), ["income"]),
                         (2**63, ["income"]), (1e300, ["income", "integer"])):
        bad = copy.deepcopy(data)
        bad["scores"][0]["income"] = value
        cards_fail(tmp_path, json.dumps(bad), *words)
    digits = "9" * 5000
    cards_fail(tmp_path, cards_text.replace('"income": ', f'"income": {digits}, "x": ', 1),
               "not valid JSON", "4300")
    for depth in (2_000, 100_000):
        cards_fail(tmp_path, "[" * depth + "]" * depth, "not valid JSON")
        cards_fail(tmp_path, cards_text.replace('"scores": [', f'"x": {"[" * depth}{"]" * depth}, '
                                                '"scores": [', 1), "not valid JSON")
        cards_fail(tmp_path, '{"a":' * depth + "1" + "}" * depth, "not valid JSON")
    cards_fail(tmp_path, cards_text.encode("utf-16"), "not UTF-8")
    cards_fail(tmp_path, cards_text.encode("utf-8")[:-2] + b"\xff}", "not UTF-8")
    cards_fail(tmp_path, "\ufeff" + cards_text, "BOM")
    for literal in ("NaN", "Infinity", "-Infinity"):
        cards_fail(tmp_path, cards_text.replace('"income": ', f'"income": {literal}, "x": ', 1),
                   literal)
    cards_fail(tmp_path, cards_text.replace('"name": ', '"name": "a", "name": ', 1),
               "duplicate key 'name'")
    cards_fail(tmp_path, cards_text.replace('"scores": [', '"scores": [], "scores": [', 1),
               "duplicate key 'scores'")


def test_card_set_messages_stay_short(tmp_path, cards_text):
    data = json.loads(cards_text)
    data["scores"][0]["piece"] = list(range(100_000))
    message = cards_fail(tmp_path, json.dumps(data), "piece")
    assert len(message) < 400
    data = json.loads(cards_text)
    data["scores"][0]["composer"] = "z" * 100_000
    message = cards_fail(tmp_path, json.dumps(data), "unknown composer")
    assert len(message) < 400


@pytest.mark.parametrize(("section", "index"), [("scores", 0), ("discoveries", 3), ("orchestras", 5)])
def test_card_ids_may_not_take_a_special_cards_id(tmp_path, cards_text, section, index):
    # Found by tests/test_fuzz_loaders.py: a discovery card with the id "P3" loaded, and a
    # game then held two cards "P3" (the invariants caught it at the end of the game).
    data = json.loads(cards_text)
    data[section][index]["id"] = "P3"
    cards_fail(tmp_path, json.dumps(data), "special card 'P3'", "duplicate card id")


def test_a_directory_or_missing_file(tmp_path):
    for path in (tmp_path, tmp_path / "absent.json"):
        with pytest.raises(SaveFileError) as info:
            load(path)
        clean_error(info, SaveFileError, "persistence.py", str(path))
        assert "cannot read" in str(info.value)
        with pytest.raises(CardSetError) as info:
            load_cardset(path)
        clean_error(info, CardSetError, "cards.py", str(path))
        assert "cannot read" in str(info.value)
