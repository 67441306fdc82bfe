from __future__ import annotations

import pytest

from musici import RuleOptionError, RuleSet
from musici.rules import RULE_OPTIONS


@pytest.mark.rules("MONTH.4", "RULING-MONTHS")
def test_defaults_and_overrides():
    rules = RuleSet()
    assert rules.months == 12
    assert rules.get("RULING-MEDIA-ZERO") == "zero-can-win"  # revision 2
    short = RuleSet.from_options({"RULING-MONTHS": 6})
    assert short.months == 6
    assert short.non_default() == {"RULING-MONTHS": 6}
    assert RuleSet.parse(["RULING-MONTHS=4"]).months == 4


def test_every_ruling_of_rules_md_is_an_option():
    import re
    from pathlib import Path

    import musici

    # Every ruling RULES.md names (the bundled copy: tests/test_ruletext.py keeps it the
    # authoritative one's), so a ruling added by a revision fails here until it is an option.
    text = (Path(musici.__file__).parent / "data" / "RULES.md").read_text(encoding="utf-8")
    expected = set(re.findall(r"RULING-[A-Z]+(?:-[A-Z]+)*", text))
    assert "RULING-RESTORE-CAP" in expected  # rules revision 3
    assert set(RULE_OPTIONS) == expected
    for option in RULE_OPTIONS.values():
        assert option.default in option.choices and len(option.choices) >= 2


def test_unknown_name_lists_valid_ones():
    with pytest.raises(RuleOptionError) as info:
        RuleSet.from_options({"RULING-MEDIA-ZER0": "no-winner"})
    assert "RULING-MEDIA-ZERO" in str(info.value) and "RULING-LINEAGE" in str(info.value)


def test_invalid_value_lists_valid_ones():
    with pytest.raises(RuleOptionError) as info:
        RuleSet.from_options({"RULING-LINEAGE": "sideways"})
    assert "'any-depth'" in str(info.value) and "'direct'" in str(info.value)
    with pytest.raises(RuleOptionError):
        RuleSet.from_options({"RULING-MONTHS": 13})
    with pytest.raises(RuleOptionError):
        RuleSet.parse(["RULING-MONTHS"])


@pytest.mark.parametrize("value", ["²", "9" * 5000, "1.0", "", "-"])
def test_odd_command_line_values_get_the_usual_error(value: str) -> None:
    with pytest.raises(RuleOptionError, match=r"invalid value .* for rule option RULING-MONTHS") as info:
        RuleSet.parse([f"RULING-MONTHS={value}"])
    assert len(str(info.value)) < 300


@pytest.mark.parametrize("players", [3.0, True, "4", None])
def test_game_refuses_player_counts_that_are_not_the_integers_3_or_4(players: object) -> None:
    from musici import Game, GameError

    with pytest.raises(GameError, match="3 or 4 players"):
        Game(players=players)  # type: ignore[arg-type]
