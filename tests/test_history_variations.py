"""The stepper's history as a variation tree (issue 18 item 3): "retry from here" and a
different answer at a past step keep the played line; switching back restores it exactly.

Pure Python (no widgets): ``musici.widgets.history.History`` driven with bots."""

from __future__ import annotations

import pytest

from musici import Game, IllegalAnswer
from musici.strategies import greedy_strategy, make_strategy
from musici.widgets.history import MAIN, History

SEED = 4


def state(game: Game) -> tuple:
    return ([e.to_dict() for e in game.events], list(game.answers),
            [(p.fame, p.money, tuple(p.hand), tuple(p.played)) for p in game.players],
            game.month, game.phase, game.decision)


def replay(seed: int, answers: list) -> Game:
    game = Game(4, seed)
    for a in answers:
        game.answer(a)
    return game


def bots() -> list:
    return [greedy_strategy, make_strategy("random"), greedy_strategy, greedy_strategy]


def played(steps: int, seed: int = SEED) -> History:
    history = History(Game(4, seed))
    strategies = bots()
    for _ in range(steps):
        history.step(strategies)
    return history


def choice_step(history: History, start: int = 0) -> int:
    """The first recorded step from ``start`` on whose decision offers several options."""
    for k in range(start, history.last):
        d = history.snaps[k].decision
        if d is not None and d.space == "choice" and len(d.options) > 1:
            return k
    pytest.fail("no choice with several options was recorded")


def other_option(history: History, step: int):
    d = history.snaps[step].decision
    return next(o for o in d.options if o != d.normalize(history.snaps[step + 1].answers[-1]))


def test_retry_keeps_the_played_line_and_its_answers() -> None:
    history = played(60)
    k = choice_step(history, 10)
    main_answers = list(history.snaps[-1].answers)
    main_last = history.last
    history.go(k)
    new = history.retry()
    assert new != MAIN and history.current == new
    assert history.pos == k == history.last  # the new line has no future yet
    assert history.game is history.lines[MAIN].snaps[k]  # shared, not copied
    # the played line is untouched
    main = history.lines[MAIN]
    assert main.last == main_last and main.snaps[-1].answers == main_answers
    # answering differently grows the new line only
    d = history.game.decision
    other = next(o for o in d.options if o != d.normalize(main_answers[k]))
    assert history.answer(other) is False  # at the new line's end: no further line
    strategies = bots()
    for _ in range(20):
        history.step(strategies)
    assert history.snaps[k + 1].answers[-1] == other
    assert history.snaps[-1].answers[:k] == main_answers[:k]
    assert main.snaps[-1].answers == main_answers and main.last == main_last
    assert [line.id for line in history.line_list()] == [MAIN, new]
    assert history.line.parent == MAIN and history.line.fork == k


def test_switching_back_restores_the_exact_game() -> None:
    history = played(60)
    k = choice_step(history, 5)
    before = [state(g) for g in history.snaps]
    history.go(k)
    history.retry()
    d = history.game.decision
    history.answer(next(o for o in d.options if o != d.normalize(history.lines[MAIN]
                                                                  .snaps[k + 1].answers[-1])))
    strategies = bots()
    for _ in range(15):
        history.step(strategies)
    variation = history.current
    var_state = state(history.game)
    var_pos = history.pos
    game = history.switch(MAIN)
    assert history.current == MAIN and history.pos == k  # where the two lines part
    assert [state(g) for g in history.snaps] == before
    assert game is history.lines[MAIN].snaps[k]
    history.go(history.last)
    assert state(history.game) == before[-1]
    # every snapshot of both lines equals the game replayed from its seed and answers
    for g in history.snaps[::7] + history.lines[variation].snaps[::7]:
        assert state(replay(SEED, g.answers)) == state(g)
    # and the variation is where it was left (its own steps kept)
    history.switch(variation, var_pos)
    assert state(history.game) == var_state


def test_a_different_answer_at_a_past_step_keeps_the_old_line() -> None:
    history = played(50)
    k = choice_step(history, 3)
    old_answers = list(history.snaps[-1].answers)
    history.go(k)
    other = other_option(history, k)
    assert history.answer(other) is True
    assert history.current != MAIN and history.snaps[k + 1].answers[-1] == other
    assert history.lines[MAIN].snaps[-1].answers == old_answers
    # answering the old answer from the same step again goes back into the old line
    history.go(k)
    recorded_there = old_answers[k]
    assert history.answer(recorded_there) is True
    assert history.current == MAIN and history.pos == k + 1
    assert len(history.lines) == 2  # no third line for a known answer
    # the same answer as recorded never starts a line
    history.go(k)
    assert history.answer(recorded_there) is False and history.current == MAIN


def test_an_illegal_answer_changes_nothing() -> None:
    history = played(30)
    history.go(choice_step(history))
    lines, pos = dict(history.lines), history.pos
    with pytest.raises(IllegalAnswer):
        history.answer("no such option")
    assert history.lines == lines and history.pos == pos and history.current == MAIN


def test_an_empty_retry_line_is_not_kept() -> None:
    history = played(30)
    history.go(10)
    line = history.retry()
    assert line in history.lines
    history.switch(MAIN)
    assert line not in history.lines and list(history.lines) == [MAIN]
    history.go(history.last)
    assert history.retry() == MAIN  # at the end there is no future to keep


def test_switch_to_an_unknown_line_says_which_exist() -> None:
    history = played(5)
    with pytest.raises(KeyError, match=r"no line 7; lines: \[0\]"):
        history.switch(7)


def test_variations_are_deterministic() -> None:
    def run() -> list:
        history = played(40, seed=9)
        k = choice_step(history, 8)
        history.go(k)
        history.retry()
        d = history.game.decision
        history.answer(d.options[-1] if d.options[-1] != history.lines[MAIN].snaps[k + 1]
                       .answers[-1] else d.options[0])
        strategies = bots()
        for _ in range(30):
            history.step(strategies)
        return [(line.id, line.parent, line.fork, [state(g) for g in line.snaps[::5]])
                for line in history.line_list()]

    assert run() == run()


def test_a_retry_answered_as_played_follows_the_played_line() -> None:
    history = played(40)
    k = choice_step(history, 4)
    main_answers = list(history.snaps[-1].answers)
    history.go(k)
    retry_line = history.retry()
    assert history.answer(main_answers[k]) is True  # the played answer: back on its line
    assert history.current == MAIN and history.pos == k + 1
    assert retry_line not in history.lines and list(history.lines) == [MAIN]
    assert history.snaps[-1].answers == main_answers


def test_a_bot_answering_a_retry_as_played_follows_the_played_line() -> None:
    history = played(40)
    main_answers = list(history.snaps[-1].answers)
    history.go(12)
    line = history.retry()
    history.step(bots())  # the same bot in the same position answers as it did
    assert history.current == MAIN and history.pos == 13 and line not in history.lines
    assert history.snaps[-1].answers == main_answers
