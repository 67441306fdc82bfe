"""The month's money as a ledger (issue 22 item 6): ``economy.month_ledger`` is what P5 does.

At every settlement of many games (3 and 4 players, mixed bots, rulings drawn), the lines
the engine settles from (``p5_settlement.ledger``) are recorded; where the seat could pay
everything (no unpaid venue or salary, no Advisor exemption), its money and fame change in
P5 equal the lines' sums, line for line in the payment events.
"""

from __future__ import annotations

import random

import pytest

from musici import Game, RuleSet
from musici import economy as E
from musici.engine import p5_settlement
from musici.rules import RULE_OPTIONS
from musici.strategies import make_strategy

BOTS = ("random", "greedy", "impresario", "merchant", "collector")


@pytest.mark.rules("P5.1", "P5.2", "P5.3", "P5.4", "P5.5", "P4.3", "P4.4", "SPECIAL.P1",
                   "SPECIAL.P2", "SPECIAL.P7")
def test_the_ledger_is_what_the_settlement_pays(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[Game, int, int, tuple[E.LedgerLine, ...], int, int, int]] = []
    real = p5_settlement.settle

    def settle(g: Game, seat: int) -> None:
        p = g.players[seat]
        seen.append((g, g.month, seat, p5_settlement.ledger(g, p), p.money, p.fame, len(g.events)))
        real(g, seat)

    monkeypatch.setattr(p5_settlement, "settle", settle)
    checked = 0
    for index in range(24):
        rng = random.Random(f"ledger:{index}")
        n = rng.choice((3, 4))
        rules = RuleSet.from_options({k: rng.choice(o.choices) for k, o in RULE_OPTIONS.items()
                                      if k != "RULING-MONTHS"}) if index % 2 else RuleSet()
        game = Game(n, seed=index, rules=rules)
        game.play([make_strategy(rng.choice(BOTS)) for _ in range(n)])
        month_ends = [e for e in game.events if e.kind == "month_end"]
        for _g, month, seat, lines, money, fame, start in [s for s in seen if s[0] is game]:
            stop = next(i for i in range(start, len(game.events))
                        if game.events[i].kind in ("month_end",))
            mine = [e for e in game.events[start:stop] if e.player == seat]
            if any(e.kind in ("unpaid", "exempt")
                   or e.data.get("reason") in ("salary unpaid", "salary surcharge unpaid")
                   for e in mine):
                continue  # the seat could not pay it all: it chose what to leave (P5.3)
            end = month_ends[month - 1]
            got_money = end.data["money"][seat] - money
            got_fame = end.data["fame"][seat] - fame
            floor = rules.options["RULING-FAME-FLOOR"] != "none" and fame + sum(
                line.fame for line in lines) < 0
            assert got_money == sum(line.money for line in lines), (index, month, seat, lines, mine)
            if not floor:
                assert got_fame == sum(line.fame for line in lines), (index, month, seat, lines)
            paid = [e for e in mine if e.kind in ("pay", "income")]
            money_lines = [line for line in lines if line.money]
            assert [abs(e.data["amount"]) for e in paid] == [abs(line.money) for line in money_lines]
            checked += 1
    assert checked > 500


def test_a_ledger_line_per_payment_rule() -> None:
    cost = E.VenueCost(120, 0, "P5.2")
    lines = E.month_ledger(held_concert=True, income=300, actions=2, permanent=("P1", "P2", "P7"),
                           venue="opera", venue_cost=cost, salaries=[100, 50],
                           surcharge_fame=31, alone=True)
    assert [line.rule for line in lines] == ["P5.1", "SPECIAL.P1", "P5.2", "P5.3", "P5.4",
                                             "SPECIAL.P2", "SPECIAL.P7"]
    assert sum(line.money for line in lines) == 300 + E.GUARNERI_BONUS - 120 - 150 - 50
    assert lines == (
        E.LedgerLine(300, 0, "concert income", "P5.1"),
        E.LedgerLine(E.GUARNERI_BONUS, 0, "Guarneri violin", "SPECIAL.P1"),
        E.LedgerLine(-120, 0, "opera", "P5.2"),
        E.LedgerLine(-150, 0, "salaries", "P5.3"),
        E.LedgerLine(-E.surcharge(31), 0, "salary surcharge", "P5.4"),
        E.LedgerLine(0, E.STRADIVARI_FAME, "Stradivari cello", "SPECIAL.P2"),
        E.LedgerLine(0, E.JOURNALIST_FAME, "Journalist: alone in a hall/on a tour", "SPECIAL.P7"))
    # The parts the engine settles from are the ledger's first and last lines.
    assert E.received_lines(held_concert=True, income=300, actions=2,
                            permanent=("P1", "P2", "P7")) == lines[:2]
    assert E.fame_lines(held_concert=True, permanent=("P1", "P2", "P7"), alone=True) == lines[-2:]
    assert E.fame_lines(held_concert=True, permanent=("P7",), alone=False) == ()
    assert E.fame_lines(held_concert=False, permanent=("P2", "P7"), alone=True) == ()
    assert E.received_lines(held_concert=True, income=0, actions=0, permanent=()) == ()
    idle = E.month_ledger(held_concert=False, income=0, actions=1, permanent=("P1", "P2"),
                          venue="opera", venue_cost=E.VenueCost(60, 0, "P4.3", True),
                          salaries=[100, 55], surcharge_fame=0)
    assert [(line.money, line.rule) for line in idle] == [(E.IDLE_BONUS, "P4.4"), (-60, "P4.3"),
                                                         (-(50 + 27), "P4.3")]


