"""RESTORE.4 under RULING-RESTORE-CAP (rules revision 3), on hand-made edge cards the bundled
set never reaches: a discovery card printing more than 10 fame."""

from __future__ import annotations

import pytest

from musici import RuleSet
from musici.cards import MusicCard
from musici.rating import Restoration, RestoreMatch
from musici.rules import ABSENT_IN_OLD_SAVES, RULE_OPTIONS
from musici.scoring import concert_outcome

# D18 of the stressed card set in the issue: printed 13/12/11, played in a hall.
LOUD = MusicCard("DX", "discovery", "Mozart", "test piece", "classical", (13, 12, 11), 100,
                 (1, 0), None, deck="authentic")
NOTHING = Restoration(())
TWO = Restoration((RestoreMatch("S01", 1, 1, ("era", "same composer")),))


def outcome(restore: Restoration, brought: tuple[int, int], cap: str | None):
    rules = RuleSet.from_options({} if cap is None else {"RULING-RESTORE-CAP": cap})
    return concert_outcome(LOUD, "authentic", brought, 0, rules=rules, venue=None,
                           media=False, restore=restore)


@pytest.mark.rules("RESTORE.4")
def test_an_unrestored_card_keeps_its_printed_fame_by_default() -> None:
    got = outcome(NOTHING, (1, 0), None)  # no restoration: RATE.POOR.5, printed poor fame
    assert got.rating.level == "poor" and got.card_fame == 11
    assert got.bonus == 0 and not got.capped and got.total == 11


@pytest.mark.rules("RESTORE.4")
def test_every_discovery_caps_an_unrestored_card_too() -> None:
    got = outcome(NOTHING, (1, 0), "every-discovery")
    assert got.capped and got.total == 10


@pytest.mark.rules("RESTORE.4")
@pytest.mark.parametrize("cap", [None, "restored", "every-discovery"])
def test_a_card_with_a_restoration_bonus_is_capped_under_both(cap: str | None) -> None:
    got = outcome(TWO, (1, 0), cap)  # restored, rated good: 13 + 2, capped
    assert got.rating.level == "good" and got.bonus == 2
    assert got.capped and got.total == 10


@pytest.mark.rules("RESTORE.4")
def test_a_restored_card_rated_below_good_earns_no_bonus_and_no_cap() -> None:
    got = outcome(TWO, (0, 0), None)  # restored but short of musicians: no bonus (RESTORE.3)
    assert got.bonus == 0
    assert got.total == got.card_fame and not got.capped


def test_old_saves_keep_the_cap_they_were_played_under() -> None:
    assert RULE_OPTIONS["RULING-RESTORE-CAP"].default == "restored"
    assert ABSENT_IN_OLD_SAVES["RULING-RESTORE-CAP"] == "every-discovery"


def test_the_rules_page_states_the_default_the_rule_set_has() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text("utf-8")
    default = RULE_OPTIONS["RULING-RESTORE-CAP"].default
    assert f"(`{default}`, the default" in text
