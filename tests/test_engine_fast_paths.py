"""The engine's hot-path shortcuts (issue 23 item 4) make exactly what the plain ways make."""

from __future__ import annotations

import copy
import pickle
from types import MappingProxyType

import pytest

from musici.decisions import Decision, Kind, new_decision

CASES = [
    dict(player=0, kind=Kind.ACTION, rule="P4.1", options=("pass", "buy"), info={"round": 2}),
    dict(player=3, kind=Kind.MEDIA_BID, rule="P2.1", space="amount", lo=0, hi=40, step=5),
    dict(player=1, kind=Kind.CONCERT_ORCHESTRAS, rule="P4.CONCERT.2", space="subset",
         items=("a", "b"), groups=("x", "y"), costs=(1, 2), limits=(1, 2), budget=3,
         min_size=1, max_size=2, maximal=True, info={"card": "c"}),
    dict(player=2, kind="venue", rule="P3.1"),
]


@pytest.mark.parametrize("fields", CASES)
def test_new_decision_is_the_class_call(fields: dict) -> None:
    made, plain = new_decision(**fields), Decision(**fields)
    assert type(made) is Decision
    assert tuple(made) == tuple(plain)  # info too (equality leaves it out)
    assert made == plain and hash(made) == hash(plain)
    assert isinstance(made.info, MappingProxyType)
    assert pickle.loads(pickle.dumps(made)) == made
    assert copy.deepcopy(made).info == made.info


def test_new_decision_copies_info() -> None:
    info = {"round": 1}
    made = new_decision(0, Kind.ACTION, "P4.1", options=("pass",), info=info)
    info["round"] = 9
    assert made.info == {"round": 1}
    with pytest.raises(TypeError):
        made.info["round"] = 2  # type: ignore[index]


def test_the_planners_values_built_without_a_class_call_are_the_class_calls() -> None:
    """make_option / make_performer put each argument in its own field (distinct values:
    a swapped pair would show), and make the same value as calling the class."""
    from musici.strategies._plans import Lineup, Option, Performer, make_option, make_performer

    line = Lineup(("O1", "O2"), "good", 7)
    args = dict(area="opera", card="S03", lineup=line, hires=("O9",), buy="S03", fame=5,
                cash=-120, util=4.25, concert_fame=6, income=300)
    made = make_option(**args)
    assert type(made) is Option and made == Option(**args)
    assert made._asdict() == args
    short = {k: v for k, v in args.items() if k not in ("concert_fame", "income")}
    assert make_option(**short) == Option(**short)  # the defaults
    p = dict(item="O4", style="modern", part="vocal", markers=1, salary=50)
    assert make_performer(**p)._asdict() == Performer(**p)._asdict() == p


def test_ratings_and_restore_matches_built_without_a_class_call_are_the_class_calls() -> None:
    from musici.rating import Rating, RestoreMatch, make_match, make_rating

    r = dict(level="good", base_level="fair", style="modern", required=(2, 1), brought=(3, 0),
             markers=1, reasons=("RATE.GOOD.1",), media=True)
    assert make_rating(**r) == Rating(**r) and make_rating(**r)._asdict() == r
    m = dict(card="S07", nationality_or_era=1, composer_or_lineage=0, why=("era",))
    assert make_match(**m) == RestoreMatch(**m) and make_match(**m)._asdict() == m


@pytest.mark.parametrize(("held", "want"), [
    (True, dict(money=300, fame=0, rule="P5.2", halved=False)),
    (False, dict(money=150, fame=0, rule="P4.3", halved=True))])
def test_a_venue_cost_built_without_a_class_call_is_the_class_call(held: bool, want: dict) -> None:
    from musici.economy import HALLS, VenueCost, venue_cost
    from musici.rules import RuleSet

    rents = {area: rent for area, (rent, _capacity) in HALLS.items()}
    rents["opera"] = 300
    cost = venue_cost("opera", held_concert=held, rules=RuleSet(), hall_rents=rents)
    assert cost == VenueCost(**want) and cost._asdict() == want


def _heuristic_digest(rules, seed: int) -> str:
    import hashlib
    import json

    from musici import Game
    from musici.strategies import make_strategy

    bots = [make_strategy(n) for n in ("impresario", "merchant", "collector")]
    game = Game(players=3, seed=seed, rules=rules).play(bots)
    return hashlib.sha256(json.dumps([e.to_dict() for e in game.events]).encode()).hexdigest()


def test_the_planners_rulings_memo_follows_the_rule_set_it_is_given() -> None:
    """The planner keeps the last rule set's concert rulings (issue 23): another rule set,
    and the first one again, get their own rulings, and games played in turns under two rule
    sets are the games each plays first in a fresh cache."""
    from musici.rules import RuleSet
    from musici.scoring import CONCERT_RULINGS
    from musici.strategies import _plans

    plain = RuleSet()
    other = RuleSet.from_options({"RULING-STYLE": "best-of-card", "RULING-LINEAGE": "direct",
                                  "RULING-RESTORE-GOOD": "lineage-good-only"})
    for rules in (plain, other, plain, RuleSet(), other):
        assert _plans._concert_rulings(rules) == tuple(rules.options[n] for n in CONCERT_RULINGS)
    _plans._LINEUPS.clear()
    first = _heuristic_digest(other, 5)
    _plans._LINEUPS.clear()
    assert _heuristic_digest(plain, 5) != first  # the rulings change this game
    assert _heuristic_digest(other, 5) == first
