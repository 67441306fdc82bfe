"""The bundled card set, the composer table and lineage, and loading a user's card set."""

from __future__ import annotations

import copy
import json

import pytest

from musici import CardSetError, Game, load_cardset, standard_cardset
from musici.cards import cardset_from_data, standard_cardset_data
from musici.composers import composer_table
from musici.strategies import random_strategy


@pytest.fixture
def data():
    return standard_cardset_data()


def write(tmp_path, data, name="cards.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.rules("COMP.4", "COMP.5", "COMP.6", "COMP.7")
def test_bundled_counts():
    cards = standard_cardset()
    assert len(cards.scores) == 30
    assert len(cards.discoveries) == 20
    assert sum(c.deck == "authentic" for c in cards.discoveries) == 10
    assert len(cards.orchestras) == 32
    assert len(cards.specials) == 15
    assert sum(s.permanent for s in cards.specials.values()) == 7


@pytest.mark.rules("RESTORE.1", "RESTORE.2")
def test_required_composers_and_lineage():
    cards = standard_cardset()
    bach = [c for c in cards.music.values() if c.composer == "js-bach"]
    assert len(bach) >= 2
    names = {c.id: c.name for c in cards.composers.values()}
    assert {"corelli", "geminiani", "a-scarlatti", "d-scarlatti", "soler"} <= set(names)
    assert cards.in_lineage("corelli", "geminiani")
    assert cards.in_lineage("a-scarlatti", "soler")  # depth 2, through D. Scarlatti
    assert not cards.in_lineage("a-scarlatti", "soler", any_depth=False)
    assert cards.in_lineage("d-scarlatti", "soler", any_depth=False)
    graph = cards.lineage_graph()
    assert graph.number_of_edges() >= 8
    used = {c.composer for c in cards.music.values()}
    links_among_used = [(a, b) for a, b in graph.edges if a in used and b in used]
    assert len(links_among_used) >= 6


def test_composer_table_rows_carry_every_field():
    rows = composer_table(standard_cardset().composers)
    assert rows and set(rows[0]) == {"id", "name", "nationality", "group", "era", "born",
                                     "died", "teachers"}
    groups = {r["group"] for r in rows}
    assert {"german-austrian", "italian", "french", "other"} <= groups


def test_custom_file_loads_and_plays(tmp_path, data):
    data["name"] = "my variant"
    data["scores"][0]["fame"] = [12, 6, -3]
    cards = load_cardset(write(tmp_path, data))
    assert cards.name == "my variant"
    assert cards.fingerprint != standard_cardset().fingerprint
    game = Game(seed=1, cards=cards).play([random_strategy] * 4)
    assert game.finished


def _mutations():
    def drop(section, index, field):
        def f(d):
            del d[section][index][field]
        return f

    def set_(section, index, field, value):
        def f(d):
            d[section][index][field] = value
        return f

    return [
        ("missing field", drop("scores", 3, "income"), ["S04", "income"]),
        ("missing era", drop("scores", 0, "era"), ["S01", "era"]),
        ("wrong count", lambda d: d["scores"].pop(), ["30 score cards", "got 29"]),
        ("unknown composer", set_("scores", 5, "composer", "nobody"), ["S06", "nobody"]),
        ("negative requirement", set_("scores", 2, "authentic", [-1, 1]),
         ["S03", "authentic"]),
        ("bad era", set_("discoveries", 1, "era", "medieval"), ["D02", "era", "medieval"]),
        ("income not multiple of 5", set_("scores", 1, "income", 33), ["S02", "income"]),
        ("fame order", set_("scores", 1, "fame", [1, 5, 0]), ["S02", "fame"]),
        ("orchestra count", lambda d: d["orchestras"].pop(), ["orchestras", "COMP.6"]),
        ("bad style", set_("orchestras", 0, "style", "baroque"), ["O01", "style"]),
        ("unknown teacher", lambda d: d["composers"][0]["teachers"].append("ghost"),
         ["teachers", "ghost"]),
        ("discovery deck", set_("discoveries", 0, "deck", "modern"), ["discover", "authentic"]),
        ("no style", lambda d: d["scores"][0].update(authentic=None, modern=None),
         ["S01", "null"]),
        ("wrong type", set_("scores", 0, "piece", 7), ["S01", "piece"]),
        ("special missing", lambda d: d["specials"].pop(), ["S8"]),
    ]


@pytest.mark.parametrize(("label", "mutate", "words"), _mutations(),
                         ids=[m[0] for m in _mutations()])
def test_malformed_file_names_file_card_and_field(tmp_path, data, label, mutate, words):
    bad = copy.deepcopy(data)
    mutate(bad)
    path = write(tmp_path, bad, "broken.json")
    with pytest.raises(CardSetError) as info:
        load_cardset(path)
    message = str(info.value)
    assert "broken.json" in message
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    assert "\n" not in message


def test_not_json_and_missing_file(tmp_path):
    path = tmp_path / "cards.json"
    path.write_text('{"format": "musici-cards",', encoding="utf-8")
    with pytest.raises(CardSetError, match="not valid JSON"):
        load_cardset(path)
    with pytest.raises(CardSetError, match="cannot read"):
        load_cardset(tmp_path / "absent.json")
    with pytest.raises(CardSetError, match="format"):
        cardset_from_data({"format": "other"})


def test_teacher_cycle_is_rejected(data):
    data["composers"][0]["teachers"] = [data["composers"][1]["id"]]
    data["composers"][1]["teachers"] = [data["composers"][0]["id"]]
    with pytest.raises(CardSetError, match="cycle"):
        cardset_from_data(data, "cyc.json")


@pytest.mark.rules("RESTORE.1", "COMP.5", "COMP.7")
def test_every_lineage_composer_of_restore_1_has_a_card():
    # CARDS (revision 2): a card each for Corelli, Geminiani, A. Scarlatti, D. Scarlatti and
    # Soler, so that every example of RESTORE.1 can happen; COMP.5/7 counts kept.
    cards = standard_cardset()
    on_cards = {c.composer for c in cards.music.values()}
    for composer in ("corelli", "geminiani", "a-scarlatti", "d-scarlatti", "soler"):
        assert composer in on_cards, composer
    assert len(cards.scores) == 30 and len(cards.discoveries) == 20


def test_hummel_lists_every_documented_teacher():
    teachers = set(standard_cardset().composers["hummel"].teachers)
    assert teachers == {"mozart", "salieri", "haydn"}
    assert standard_cardset().in_lineage("haydn", "hummel", any_depth=False)


def test_bundled_cards_print_their_composers_era():
    cards = standard_cardset()
    wrong = [c.id for c in cards.music.values() if c.era != cards.composers[c.composer].era]
    assert wrong == []


@pytest.mark.rules("RESTORE.1")
def test_printed_era_differing_from_the_composer_warns_and_restore_compares_printed_eras(data):
    from musici import rating as R
    from musici.cards import CardEraWarning
    # D10 is Haydn (classical): print it baroque, as a hand-made file might
    (d10,) = [c for c in data["discoveries"] if c["id"] == "D10"]
    d10["era"] = "baroque"
    with pytest.warns(CardEraWarning, match=r"D10 .*Haydn.*printed baroque.*composer is classical"):
        cards = cardset_from_data(data, "variant.json")
    # S03 Vivaldi (Italian, baroque), no lineage with Haydn: only the printed era can match
    assert cards.music["S03"].era == "baroque"
    found = R.restoration(cards, cards.music["D10"], ["S03"])
    assert [(m.card, m.why) for m in found.matches] == [("S03", ("era",))]
    # the same pair under the true printing: nothing in common
    assert not R.restoration(standard_cardset(), standard_cardset().music["D10"], ["S03"]).found


def test_past_bundled_card_set_still_found_by_fingerprint():
    from musici.cards import bundled_cardset, past_standard_cardsets
    (r1,) = past_standard_cardsets()
    assert r1.fingerprint != standard_cardset().fingerprint
    assert bundled_cardset(r1.fingerprint) is r1
    assert bundled_cardset(standard_cardset().fingerprint) is standard_cardset()
    assert bundled_cardset("0" * 64) is None


def test_one_era_warning_names_every_card_printed_unlike_its_composer(data):
    from musici.cards import CardEraWarning
    for card in data["scores"][:2]:  # S01, S02: Bach, baroque
        card["era"] = "romantic"
    with pytest.warns(CardEraWarning) as record:
        cardset_from_data(data, "two.json")
    assert len(record) == 1
    text = str(record[0].message)
    assert text.startswith("two.json: ") and "S01" in text and "S02" in text


@pytest.mark.rules("RESTORE.1", "RESTORE.2", "RULING-LINEAGE")
def test_d_scarlatti_card_restores_soler_even_under_direct_lineage():
    from musici import rating as R
    cards = standard_cardset()
    (dsc,) = [c.id for c in cards.scores if c.composer == "d-scarlatti"]
    soler = cards.music["D09"]
    assert soler.composer == "soler"
    for depth in (True, False):
        found = R.restoration(cards, soler, [dsc], lineage_any_depth=depth)
        assert [m.why for m in found.matches] == [("lineage",)]  # Italian baroque vs Spanish classical
    (asc,) = [c.id for c in cards.scores if c.composer == "a-scarlatti"]
    assert R.restoration(cards, soler, [asc], lineage_any_depth=True).found
    assert not R.restoration(cards, soler, [asc], lineage_any_depth=False).found
