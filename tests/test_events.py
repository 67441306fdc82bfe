"""Typed events (issue 22 item 5): one record per kind, today's JSON, no payload read by key."""

from __future__ import annotations

import ast
import copy
import hashlib
import json
import os
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

import musici
from musici import Game, RuleSet
from musici import events as ev
from musici.strategies import make_strategy

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from equivalence import RULE_SETS  # noqa: E402

BOTS = ("random", "greedy", "impresario", "merchant", "collector")

# Records no game of the 50 below emits, and why (each still round-trips, built by hand).
RARE = {
    ev.NoAuction: "P1.6: the special deck runs out only in a game longer than the card set",
    ev.NoMedia: "P2.3: everyone bids 0 under RULING-MEDIA-ZERO=no-winner; the bots bid",
}


def _play(rules: str, n: int, seed: int, bots: tuple[str, ...]) -> Game:
    game = Game(players=n, seed=seed, rules=RuleSet.from_options(RULE_SETS[rules]))
    game.play([make_strategy(b) for b in bots])
    return game


@pytest.fixture(scope="module")
def games() -> list[Game]:
    """50 games over 3 and 4 players, the 3 rule sets of the equivalence guard and 5 bots."""
    names = list(RULE_SETS)
    return [_play(names[s % 3], 3 + s % 2, s, tuple(BOTS[(s + i) % 5] for i in range(3 + s % 2)))
            for s in range(50)]


def _by_shape(games: list[Game]) -> dict[tuple[str, tuple[str, ...]], ev.Event]:
    """One event per record class and payload shape (optional fields present or not)."""
    out: dict[tuple[str, tuple[str, ...]], ev.Event] = {}
    for game in games:
        for e in game.events:
            out.setdefault((type(e).__name__, tuple(e.data)), e)
    return out


# Digests of the event log's JSON (key order included) that the engine wrote before typed
# events (commit 6b4b3d5), for 6 games: the records must write it unchanged.
GOLDEN = [
    ("defaults", 4, 1, ("collector", "merchant", "impresario", "greedy"), "7e93ea634afd17b5"),
    ("defaults", 3, 2, ("random", "collector", "merchant"), "17c4391344bf5d86"),
    ("others", 4, 3, ("random", "random", "collector", "impresario"), "794cf47da861e4e2"),
    ("others", 3, 4, ("merchant", "greedy", "collector"), "3c0f4a87df2a048b"),
    ("short", 4, 5, ("greedy", "collector", "random", "merchant"), "1c61bac96f28df1b"),
    ("short", 3, 6, ("impresario", "collector", "random"), "460db7b4dfcd462b"),
]


@pytest.mark.parametrize("rules,n,seed,bots,digest", GOLDEN)
def test_to_dict_writes_the_json_the_engine_wrote_before(rules, n, seed, bots, digest) -> None:
    game = _play(rules, n, seed, bots)
    text = json.dumps([e.to_dict() for e in game.events])
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == digest


def test_every_kind_pickles_deep_copies_compares_and_round_trips(games) -> None:
    shapes = _by_shape(games)
    for e in [*shapes.values(), *_rare_examples()]:
        d = e.to_dict()
        for twin in (pickle.loads(pickle.dumps(e)), copy.deepcopy(e), ev.Event.from_dict(d),
                     ev.Event.from_dict(json.loads(json.dumps(d)))):
            assert type(twin) is type(e) and twin == e, e
            assert twin.to_dict() == d and json.dumps(twin.to_dict()) == json.dumps(d)
    assert len(shapes) > len(ev.RECORDS)  # optional fields seen both ways


def test_equality_needs_the_same_record_and_fields() -> None:
    a = ev.Bid(1, "P1", "P1.1", 0, 100)
    assert a == ev.Bid(1, "P1", "P1.1", 0, 100)
    assert a != ev.Bid(1, "P1", "P1.1", 0, 200)
    assert a != ev.MediaBid(1, "P1", "P1.1", 0, 100)  # same fields, another kind
    assert a != ev.Bid(1, "P1", "P1.1", 0, 100, private=(0,))
    with pytest.raises(TypeError):
        hash(a)  # like the dict-payload events: not hashable


def _rare_examples() -> list[ev.Event]:
    return [ev.NoAuction(7, "P1", "P1.6", None), ev.NoMedia(2, "P2", "P2.3", None)]


def test_every_declared_record_is_emitted_or_documented_rare(games) -> None:
    seen = {type(e) for game in games for e in game.events}
    assert set(ev.RECORDS) - seen == set(RARE), "emitted by no game and not documented rare"
    assert not seen & set(RARE), "a record documented rare is emitted: drop it from RARE"
    assert {type(e) for e in _rare_examples()} == set(RARE)


def test_from_dict_picks_the_record_by_kind_and_payload(games) -> None:
    shapes = _by_shape(games)
    effects = {e.to_dict()["data"]["card"]: type(e) for e in shapes.values() if e.kind == "effect"}
    assert effects == {card: cls for card, cls in ev.EFFECTS.items()}
    removed = {type(e) for e in shapes.values() if e.kind == "removed"}
    assert removed == {ev.RemovedOrchestras, ev.RemovedCards}


@pytest.mark.parametrize("change,message", [
    (lambda d: d.update(kind="fanfare"), "unknown event kind 'fanfare'"),
    (lambda d: d["data"].pop("amount"), "event 'pay': missing field 'amount'"),
    (lambda d: d["data"].update(tip=5), "event 'pay': unknown field 'tip'"),
    (lambda d: d.pop("rule"), "missing header field 'rule'"),
    (lambda d: d.update(colour="red"), "unknown header field 'colour'"),
    (lambda d: d.update(month="1"), "bad month '1'"),
    (lambda d: d.update(data=[1]), "its data is a JSON object"),
    (lambda d: d.update(private=["0"]), "bad private"),
])
def test_from_dict_refuses_a_bad_event_naming_what_is_wrong(change, message) -> None:
    d = ev.Pay(3, "P4", "P4.HIRE.1", 1, 60, None, "hired O03", 40).to_dict()
    change(d)
    with pytest.raises(ValueError, match=re.escape(message)):
        ev.Event.from_dict(d)


def test_from_dict_refuses_an_effect_of_an_unknown_card_or_shape() -> None:
    d = ev.ThiefPlayed(3, "P4", "SPECIAL.S8", 1, "S8", "S05").to_dict()
    d["data"]["card"] = "S9"
    with pytest.raises(ValueError, match="unknown card 'S9'"):
        ev.Event.from_dict(d)
    d = ev.RemovedCards(1, "SETUP", "SETUP.6", None, 6, 9, ("S01",)).to_dict()
    del d["data"]["scores"]
    with pytest.raises(ValueError, match=r"RemovedOrchestras: .*RemovedCards: missing field 'scores'"):
        ev.Event.from_dict(d)


def test_optional_fields_are_left_out_when_none_and_renamed_fields_keep_their_key() -> None:
    assert ev.Fame(1, "P5", "P5.2", 0, -2, 3, "dome").data == {"delta": -2, "fame": 3,
                                                                 "reason": "dome"}
    assert ev.Pay(1, "P5", "P5.2", 0, 50, None, "x", 0).data["to"] is None  # always written
    assert list(ev.Poach(1, "P4", "P4.HIRE.2", 0, "O01", 2, 40, 1).data) == [
        "orchestra", "from", "price", "markers"]
    assert ev.Month(4, "P1", "MONTH.1", None, 4, 2).data == {"month": 4, "start_player": 2}


def test_records_are_read_only_to_mypy(tmp_path) -> None:
    snippet = tmp_path / "snippet.py"
    snippet.write_text("from musici.events import Pay\n"
                       "p = Pay(1, 'P4', 'P4.1', 0, 5, None, 'x', 0)\n"
                       "p.amount = 6\n"
                       "Pay(1, 'P4', 'P4.1', 0, '5', None, 'x', 0)\n")
    run = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental",
                          "--follow-imports=silent", str(snippet)],
                         capture_output=True, text=True, cwd=ROOT)
    assert 'Property "amount" defined in "Pay" is read-only' in run.stdout, run.stdout
    assert 'Argument 5 to "Pay" has incompatible type "str"' in run.stdout, run.stdout


# What may read an attribute called ``data`` that is not an event's (playtest verdicts,
# plotly figures), by module and receiver.
_NOT_EVENTS = {
    ("musici/playtest/headline.py", "v"), ("musici/playtest/headline.py", "shares[0]"),
    ("musici/playtest/report.py", "v"), ("musici/playtest/verdicts.py", "v"),
    ("musici/playtest/quality.py", "setup"), ("musici/analysis/whatif.py", "fig"),
    ("musici/widgets/review_panel.py", "widget"), ("musici/widgets/review_panel.py", "self.figure"),
    ("musici/widgets/fame_chart.py", "figure"), ("musici/widgets/fame_chart.py", "self.widget"),
    ("musici/widgets/bonus_explorer.py", "fig"), ("musici/widgets/bonus_explorer.py", "widget"),
}
# Events whose payload is written whole as JSON, never read by key.
_JSON_VIEW = {
    ("musici/sim/records.py", "e"),  # EventRow's payload column: json.dumps(e.data)
    ("musici/describe.py", "e"),  # a kind without words: written as its JSON
}


def _payload_reads(rel: str, source: str) -> list[str]:
    """Where ``source`` reads an event's ``data``: any ``x.data`` but the known non-event
    ones, and the JSON views only when indexed or asked ``.get``."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and node.attr == "data"):
            continue
        key = (rel, ast.unparse(node.value))
        up = parents.get(node)
        by_key = ((isinstance(up, ast.Subscript) and up.value is node)
                  or (isinstance(up, ast.Attribute) and up.attr in ("get", "items", "keys", "values")))
        if key in _NOT_EVENTS or (key in _JSON_VIEW and not by_key):
            continue
        found.append(f"{rel}:{node.lineno}: {ast.unparse(up if up is not None else node)}")
    return found


def test_no_module_reads_an_event_payload_by_string_key() -> None:
    """Readers use the records' attributes (mypy checks them), never ``e.data[...]``."""
    found = []
    for path in sorted((ROOT / "musici").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel != "musici/events.py":
            found += _payload_reads(rel, path.read_text(encoding="utf-8"))
    assert not found, "event payloads read by key:\n" + "\n".join(found)


def test_the_scan_flags_payload_reads() -> None:
    src = ("def f(e, v):\n    d = e.data\n    return e.data['amount'] + e.data.get('x', 0) + "
           "v.data['n']\n")
    assert len(_payload_reads("musici/analysis/x.py", src)) == 4
    assert len(_payload_reads("musici/describe.py", "f'{e.data}' + e.data['a']")) == 1
    assert _payload_reads("musici/playtest/report.py", "v.data['ratio']") == []


def test_docs_list_every_record_with_its_fields() -> None:
    table = ev.events_table() if not musici.BUILD.compiled else subprocess.run(
        # a compiled musici.events keeps no annotations nor docstrings (mypyc): the table is
        # read from the same sources loaded as Python
        [sys.executable, "-c", "from musici import events; print(events.events_table(), end='')"],
        env={**os.environ, "MUSICI_PURE": "1"}, capture_output=True, text=True, check=True,
    ).stdout
    text = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    assert table and table in text, "docs/engine.md's event table is stale: paste events_table()"


def test_readers_write_sequences_as_the_json_lists_did() -> None:
    from musici.analysis.explain import explain_event
    from musici.cards import standard_cardset
    award = ev.Award(12, "END", "END.1", None, "baroque", (0, 4, 5), (2,), "4")
    text = explain_event(award, standard_cardset())[0].text
    assert "counts [0, 4, 5] per seat" in text  # a tuple field, shown as the list it was
