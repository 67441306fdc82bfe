"""Fuzz both loaders (saved games, card sets) with Hypothesis, for a bounded time.

Inputs are valid documents mutated two ways: structure-aware (a value replaced by a random
JSON value, a key or element deleted or inserted, a value's type changed, answers swapped
for plausible ones) and byte-level on the serialized text (flips, deletions, insertions,
duplicated and truncated spans). The ONLY allowed outcomes are success with a valid result
(a game that passes check_invariants and plays on to a valid end; a card set a game can be
played with) or exactly the documented error type.

The default slice is derandomized (a fixed seed: a failure reproduces on every run) and
takes well under 30 s; ``pytest -m slow tests/test_fuzz_loaders.py`` runs a longer, randomized
campaign. Each test checks how many inputs it fuzzed (``COUNTS``).
"""

from __future__ import annotations

import copy
import json
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from musici import CardSetError, Game, RuleSet, load_cardset
from musici.cards import CardSet, cardset_from_data, standard_cardset_data
from musici.invariants import check_invariants
from musici.persistence import SaveFileError, dumps, game_from_dict, loads
from musici.strategies import random_strategy

COUNTS: Counter[str] = Counter()
FAST = {"saves_tree": 1200, "saves_bytes": 1500, "cards_tree": 600, "cards_bytes": 800}
SLOW_FACTOR = 20


def _save() -> dict[str, Any]:
    rules = RuleSet.from_options({"RULING-MONTHS": 3, "RULING-NEGOTIATION": "blind"})
    game = Game(players=3, seed=21, rules=rules).play([random_strategy] * 3, max_steps=70)
    return json.loads(dumps(game))


SAVE = _save()
SAVE_TEXT = json.dumps(SAVE)
CARDS = standard_cardset_data()
CARDS_TEXT = json.dumps(CARDS, ensure_ascii=False)
TMP = Path(tempfile.mkdtemp(prefix="musici-fuzz-"))

# Leaves that look like real answers and values, so mutations also reach deep code.
VOCAB = ["pass", "bid", "concert", "hire", "buy", "discover", "appease", "special", "agree",
         "refuse", "decline", "any", "baroque", "opera", "chapel", "dome", "university",
         "large-academic", "small-commercial", "S01", "S17", "D03", "O01", "O17", "P3", "S8",
         "authentic", "modern", "vocal", "instrumental", "js-bach", 0, 1, 2, 3, 4, 5, 100, 150]
leaves = (st.none() | st.booleans() | st.sampled_from(VOCAB)
          | st.integers(min_value=-(2**70), max_value=2**70)
          | st.sampled_from([10**100, -(10**100), 2**32, 2**63, -1, 624, 625])
          | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12))
json_values = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=8,
)


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out.extend(_paths(value, (*prefix, key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.extend(_paths(value, (*prefix, i)))
    return out


def _get(doc: Any, path: tuple) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def _change_type(value: Any, pick: int) -> Any:
    options = [str(value)[:40], [value], {"value": value}, None, bool(value) if value is not None
               else True]
    if isinstance(value, int) and not isinstance(value, bool):
        options += [float(value), -value, value * 10**30]
    if isinstance(value, str):
        options += [value.encode("utf-8", "surrogatepass").hex(), value.upper(), value + "\x00"]
    return options[pick % len(options)]


@st.composite
def mutated_tree(draw, original: dict[str, Any]) -> Any:
    """The document with 1-3 structure-aware mutations."""
    doc = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, 3))):
        if not isinstance(doc, dict) or not doc:
            doc = draw(json_values)
            continue
        # A top-level field first, then a node inside it: the big generator states do not
        # drown out the small fields.
        top = draw(st.sampled_from(sorted(doc)))
        path = draw(st.sampled_from(_paths(doc[top], (top,))))
        parent, key = _get(doc, path[:-1]), path[-1]
        op = draw(st.sampled_from(["replace", "delete", "insert", "retype", "swap"]))
        if op == "replace":
            parent[key] = draw(json_values)
        elif op == "delete":
            del parent[key]
        elif op == "retype":
            parent[key] = _change_type(parent[key], draw(st.integers(0, 20)))
        elif op == "swap":  # a plausible value of the vocabulary
            parent[key] = draw(st.sampled_from(VOCAB))
        else:
            target = parent[key]
            if isinstance(target, dict):
                target[draw(st.text(max_size=6) | st.sampled_from(sorted(target) or ["x"]))] = \
                    draw(json_values)
            elif isinstance(target, list):
                target.insert(draw(st.integers(0, len(target))), draw(json_values))
            else:
                parent[key] = draw(json_values)
    return doc


@st.composite
def mutated_bytes(draw, text: str) -> bytes:
    """The serialized document with 1-4 byte-level mutations."""
    raw = bytearray(text.encode("utf-8"))
    for _ in range(draw(st.integers(1, 4))):
        if not raw:
            raw += draw(st.binary(max_size=8))
            continue
        i = draw(st.integers(0, len(raw) - 1))
        op = draw(st.sampled_from(["flip", "delete", "insert", "duplicate", "truncate",
                                   "replace"]))
        if op == "flip":
            raw[i] ^= 1 << draw(st.integers(0, 7))
        elif op == "delete":
            del raw[i:i + draw(st.integers(1, 64))]
        elif op == "insert":
            raw[i:i] = draw(st.binary(min_size=1, max_size=16) | st.sampled_from(
                [b"NaN", b"-Infinity", b"[", b"{", b"}", b",", b'"', b"\\", b"\xef\xbb\xbf",
                 b"9" * 5000, b"1e999", b'"a":1,', b"\xff"]))
        elif op == "duplicate":
            j = min(len(raw), i + draw(st.integers(1, 200)))
            raw[j:j] = raw[i:j]
        elif op == "truncate":
            del raw[i:]
        else:  # a digit or letter for another
            raw[i] = draw(st.sampled_from(b"0123456789-.,:eEtfn\"[]{}"))
    return bytes(raw)


# ---------------------------------------------------------------------- outcome checks
def _check_game(game: Game) -> None:
    COUNTS["games loaded"] += 1
    check_invariants(game)
    assert loads(dumps(game)).step == game.step
    game.play([random_strategy] * game.n)  # it also goes on to a valid end
    check_invariants(game)


def _check_cards(cards: CardSet) -> None:
    COUNTS["card sets loaded"] += 1
    assert isinstance(cards, CardSet) and len(cards.fingerprint) == 64
    game = Game(players=3, seed=5, cards=cards).play([random_strategy] * 3)
    check_invariants(game)
    assert game.finished


def _load_save_tree(doc: Any) -> None:
    COUNTS["saves_tree"] += 1
    for attempt in ("dict", "text"):
        try:
            game = game_from_dict(doc) if attempt == "dict" else loads(json.dumps(doc))
        except SaveFileError as exc:
            assert type(exc) is SaveFileError and "\n" not in str(exc)
            continue
        _check_game(game)


def _load_save_bytes(raw: bytes) -> None:
    COUNTS["saves_bytes"] += 1
    try:
        game = loads(raw)
    except SaveFileError as exc:
        assert type(exc) is SaveFileError and "\n" not in str(exc)
        return
    _check_game(game)


def _load_cards_tree(doc: Any) -> None:
    COUNTS["cards_tree"] += 1
    try:
        cards = cardset_from_data(doc, "fuzz.json")
    except CardSetError as exc:
        assert type(exc) is CardSetError and "\n" not in str(exc)
    else:
        _check_cards(cards)
    # And the same document through the file loader (strict JSON: NaN is refused there).
    _load_cards_file(json.dumps(doc).encode("utf-8", "surrogatepass"))


def _load_cards_bytes(raw: bytes) -> None:
    COUNTS["cards_bytes"] += 1
    _load_cards_file(raw)


def _load_cards_file(raw: bytes) -> None:
    path = TMP / "cards.json"
    path.write_bytes(raw)
    try:
        cards = load_cardset(path)
    except CardSetError as exc:
        assert type(exc) is CardSetError and "\n" not in str(exc)
        return
    _check_cards(cards)


# ---------------------------------------------------------------------- the campaigns
def _run(name: str, strategy: st.SearchStrategy, check, examples: int, *, slow: bool) -> None:
    config = settings(
        max_examples=examples, derandomize=not slow, database=None, deadline=None,
        suppress_health_check=list(HealthCheck), print_blob=True,
    )
    before = COUNTS[name]
    config(given(strategy)(check))()
    fuzzed = COUNTS[name] - before
    print(f"\n{name}: {fuzzed} inputs fuzzed; so far {dict(COUNTS)}")
    assert fuzzed >= examples // 2, f"only {fuzzed} inputs for {name}"


CAMPAIGNS = {
    "saves_tree": (mutated_tree(SAVE), _load_save_tree),
    "saves_bytes": (mutated_bytes(SAVE_TEXT), _load_save_bytes),
    "cards_tree": (mutated_tree(CARDS), _load_cards_tree),
    "cards_bytes": (mutated_bytes(CARDS_TEXT), _load_cards_bytes),
}


@pytest.mark.parametrize("name", list(CAMPAIGNS))
def test_fuzz(name):
    strategy, check = CAMPAIGNS[name]
    _run(name, strategy, check, FAST[name], slow=False)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CAMPAIGNS))
def test_fuzz_long(name):
    strategy, check = CAMPAIGNS[name]
    _run(name, strategy, check, FAST[name] * SLOW_FACTOR, slow=True)


def test_the_unmutated_documents_load():
    """The fuzzers start from valid documents (else every mutation 'fails' trivially)."""
    _check_game(loads(SAVE_TEXT))
    _check_cards(cardset_from_data(CARDS))
    path = TMP / "plain.json"
    path.write_text(CARDS_TEXT, encoding="utf-8")
    _check_cards(load_cardset(path))
