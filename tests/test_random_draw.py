"""The random bot draws as ``random.choice`` does (issue 23 item 3): its cheaper inline draw
gives the same answers and leaves the generator in the same state, for every length."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from musici import Game, RuleSet
from musici.decisions import Answer, Decision
from musici.strategies import random_strategy

LENGTHS = [*range(1, 130), 255, 256, 257, 1000, 1023, 1024, 1025, 4095, 4096, 4097]


def draws(strategy: Any, rng: random.Random, decision: Decision, times: int) -> list[Answer]:
    view = SimpleNamespace(rng=rng)
    return [strategy(view, decision) for _ in range(times)]


@pytest.mark.parametrize("seed", [0, 1, 12345])
def test_the_draw_is_random_choice_for_every_length(seed: int) -> None:
    for n in LENGTHS:
        decision = Decision(0, "action", "P4.1", options=tuple(f"o{i}" for i in range(n)))
        mine, theirs = random.Random(f"{seed}:{n}"), random.Random(f"{seed}:{n}")
        got = draws(random_strategy, mine, decision, 60)
        want = [theirs.choice(decision.options) for _ in range(60)]
        assert got == want, n
        assert mine.getstate() == theirs.getstate(), n


def test_a_long_stream_of_mixed_lengths_matches() -> None:
    mine, theirs = random.Random(7), random.Random(7)
    lengths = random.Random(8)
    for _ in range(20_000):
        n = lengths.randint(1, 40)
        decision = Decision(1, "action", "P4.1", options=tuple(range(n)))
        view: Any = SimpleNamespace(rng=mine)  # all the random bot reads of a view
        assert random_strategy(view, decision) == theirs.choice(decision.options)
    assert mine.getstate() == theirs.getstate()


@pytest.mark.parametrize("lo, hi, step", [(0, 0, 1), (0, 1, 1), (0, 30, 1), (5, 200, 5),
                                          (0, 95, 25), (3, 3, 7), (0, 1023, 1), (0, 1024, 1),
                                          (10, 4106, 4)])
def test_an_amount_is_drawn_as_random_answer_draws_it(lo: int, hi: int, step: int) -> None:
    """Decision.random_answer: lo + step * rng.randrange(count)."""
    decision = Decision(2, "media_bid", "P2.1", space="amount", lo=lo, hi=hi, step=step)
    mine, theirs = random.Random(f"amount:{lo}:{hi}"), random.Random(f"amount:{lo}:{hi}")
    got = draws(random_strategy, mine, decision, 300)
    want = [lo + step * theirs.randrange((hi - lo) // step + 1) for _ in range(300)]
    assert got == want
    assert mine.getstate() == theirs.getstate()


def test_an_empty_range_or_choice_fails_as_random_does() -> None:
    view: Any = SimpleNamespace(rng=random.Random(1))
    with pytest.raises(ValueError):
        random_strategy(view, Decision(0, "media_bid", "P2.1", space="amount", lo=5, hi=0))
    with pytest.raises(IndexError):
        random_strategy(view, Decision(0, "action", "P4.1", options=()))


class Shifted(random.Random):
    """A generator of its own kind (random() overridden: random.choice then draws otherwise)."""

    def random(self) -> float:
        return (super().random() + 0.5) % 1.0


def test_a_generator_of_another_kind_keeps_its_own_choice() -> None:
    decision = Decision(0, "action", "P4.1", options=tuple(range(37)))
    got = draws(random_strategy, Shifted(3), decision, 200)
    theirs = Shifted(3)
    want = [theirs.choice(decision.options) for _ in range(200)]
    assert got == want


def before(view: Any, decision: Decision) -> Answer:
    """The random bot as it was: every answer from Decision.random_answer."""
    return decision.random_answer(view.rng)


@pytest.mark.parametrize("players, options", [(4, {}), (3, {"RULING-NEGOTIATION": "blind"})])
def test_whole_games_are_unchanged(players: int, options: dict[str, Any]) -> None:
    rules = RuleSet.from_options(options)
    for seed in range(6):
        a = Game(players, seed=seed, rules=rules).play([random_strategy] * players)
        b = Game(players, seed=seed, rules=rules).play([before] * players)
        assert a.answers == b.answers and a.results == b.results, seed


# ---------------------------------------------------------------- musici.draws (issue 23)
class _Subclass(random.Random):
    """A generator that draws otherwise: musici.draws must leave it to its own methods."""

    def random(self) -> float:
        return super().random() / 2


DRAW_SIZES = [*range(1, 70), 127, 128, 129, 255, 256, 257, 1023, 1024, 1025]


@pytest.mark.parametrize("kind", [random.Random, _Subclass])
def test_the_compiled_draws_are_randoms_own(kind: type[random.Random]) -> None:
    from musici import draws

    mine, theirs = kind(f"draws:{kind.__name__}"), kind(f"draws:{kind.__name__}")
    for n in DRAW_SIZES:
        seq = list(range(n))
        assert draws.randbelow(mine, n) == theirs.randrange(n), n
        assert draws.choice(mine, seq) == theirs.choice(seq), n
        assert draws.randint(mine, -3, n) == theirs.randint(-3, n), n
        a, b = seq[:], seq[:]
        draws.shuffle(mine, a)
        theirs.shuffle(b)
        assert a == b, n
    assert mine.getstate() == theirs.getstate()


def test_the_compiled_draws_fail_as_random_does() -> None:
    from musici import draws

    for call in (lambda r: draws.randbelow(r, 0), lambda r: draws.randint(r, 3, 2)):
        with pytest.raises(ValueError):
            call(random.Random(1))
    with pytest.raises(IndexError):
        draws.choice(random.Random(1), [])
    empty: list[int] = []
    draws.shuffle(random.Random(1), empty)  # nothing to shuffle, as random
    assert empty == []
