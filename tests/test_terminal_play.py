"""Play in the terminal (issue 21 item 7): ``musici play --human 0`` asks seat 0's decisions
on stdin with numbered legal answers, re-asks an illegal one, prints the month summaries and
the final score sheet (its numbers equal ``game.results``), and ends cleanly when the input
ends (``--save`` still writes the game so far)."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from typing import Any

import pytest

from musici import Game
from musici.analysis.hints import fame_text
from musici.decisions import Decision
from musici.rules import RuleSet
from musici.strategies import make_strategy
from musici.terminal import StdinClosed, TerminalPlayer, play_in_terminal, text_of

BOTS = "random,random,random,random"


def typed(decision: Decision, answer: Any) -> str:
    """What a person types for ``answer``: a choice's number, an amount, item numbers."""
    if decision.space == "choice":
        return str(decision.options.index(answer) + 1)
    if decision.space == "amount":
        return str(answer)
    numbers = [str(decision.items.index(item) + 1) for item in answer]
    return " ".join(numbers) or "-"


def script(n: int, seed: int, bot: str = "random", months: int | None = None
           ) -> tuple[list[str], Game]:
    """Seat 0 played by ``bot`` in-process; its answers as the lines a person would type,
    and the finished game they lead to."""
    rules = RuleSet.from_options({"RULING-MONTHS": months}) if months else None
    game = Game(n, seed=seed, rules=rules)
    lines: list[str] = []
    bots = [make_strategy(bot) for _ in range(n)]

    def seat0(view: Any, decision: Decision) -> Any:
        answer = bots[0](view, decision)
        lines.append(typed(decision, decision.normalize(answer)))
        return answer

    game.play([seat0, *bots[1:]])
    return lines, game


def run(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "musici", "play", *args], input=stdin,
                          capture_output=True, text=True, timeout=180)


def sheet_rows(out: str) -> dict[int, tuple[str, int, bool]]:
    """seat -> (final fame, money, winner) read from the printed score sheet."""
    rows = re.findall(r"^\s+\d+\. seat (\d+)[^:]*: .*= fame (.+?), money (-?\d+) G( +winner)?$",
                      out, re.M)
    return {int(s): (fame, int(money), bool(w)) for s, fame, money, w in rows}


@pytest.mark.parametrize(("n", "seed"), [(4, 3), (3, 8)])
def test_a_whole_game_from_a_script_of_answers(n: int, seed: int) -> None:
    lines, game = script(n, seed)
    players = ",".join(["random"] * n)
    # two wrong answers first: re-asked with a clear message, then the script goes on
    done = run(["--human", "0", "--players", players, "--seed", str(seed)],
               "\n".join(["nonsense", "0", "²", *lines]) + "\n")
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert out.count("not an answer: 'nonsense'") == 1 and "not an answer: '0'" in out
    assert "not an answer: '²'" in out
    assert f"({game.step} decisions)" in out
    assert out.count(">>> seat 0 (you), your decision:") == len(lines)
    res = game.results
    assert res is not None
    rows = sheet_rows(out)
    assert sorted(rows) == list(range(n))
    for s, (fame, money, winner) in rows.items():
        assert fame == fame_text(res["fame"][s]) and money == res["money"][s]
        assert winner == (s in res["winners"])
    sheet = out[out.index("Final score sheet"):]
    for award in res["awards"]:  # every END award with its rule id and who took it
        taken = " and ".join(f"seat {s}" + (" (you)" if s == 0 else " (random)")
                             for s in award["winners"])
        assert re.search(rf"\[{re.escape(award['rule'])}\] .*: {re.escape(taken)} "
                         rf"\+{re.escape(fame_text(award['share']))} fame each", sheet), award
    assert len(re.findall(r"^    \[END\.\d\] ", sheet, re.M)) == len(res["awards"])
    assert out.count("in brief [MONTH.3]:") == game.rules.months  # a summary every month
    assert "Fraction(" not in out and "['" not in out


def main_with_stdin(args: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch,
                    capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``musici play ARGS`` in this process (no interpreter start-up), ``stdin`` as input."""
    from musici.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["play", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_eof_ends_cleanly_and_save_still_works(tmp_path, monkeypatch, capsys) -> None:
    lines, _ = script(4, 3)
    save = tmp_path / "part.json"
    code, out, err = main_with_stdin(
        ["--human", "0", "--players", BOTS, "--seed", "3", "--save", str(save)],
        "\n".join(lines[:10]) + "\n", monkeypatch, capsys)
    assert code == 1, err
    assert "Input ended: the game stops at month" in out
    assert f"saved the game so far to {save}" in out
    stopped = re.search(r"after (\d+) decisions", out)
    loaded = Game.load(save)
    assert stopped and loaded.step == int(stopped[1]) and not loaded.finished
    assert out.count(">>> seat 0 (you), your decision:") == 11  # 10 answered, 1 not


def test_amounts_and_sets_are_asked_again_until_legal() -> None:
    game = Game(4, seed=3)
    bots = [make_strategy("random") for _ in range(4)]
    # run to seat 0's first media bid (an amount)
    while not (game.decision.player == 0 and game.decision.space == "amount"):
        game.play(bots, max_steps=1)
    d = game.decision
    wrong = d.lo + 1 if d.step > 1 else d.hi + 1
    out = io.StringIO()
    player = TerminalPlayer(game, [0], [f"seat {s}" for s in range(4)],
                            stdin=io.StringIO(f"lots\n{wrong}\n²\n{'9' * 5000}\n{d.lo}\n"),
                            stdout=out)
    assert player.ask(d) == d.lo
    assert out.getvalue().count("not an answer") == 4
    with pytest.raises(StdinClosed):
        TerminalPlayer(game, [0], ["a", "b", "c", "d"], stdin=io.StringIO(""),
                       stdout=io.StringIO()).ask(d)


def test_concert_preview_in_text_before_answering() -> None:
    game = Game(4, seed=3)
    bots = [make_strategy("greedy") for _ in range(4)]
    for _ in range(3000):
        d = game.decision
        assert d is not None, "no concert for seat 0"
        if d.player == 0 and d.kind == "concert_orchestras":
            break
        game.play(bots, max_steps=1)
    answer = d.normalize(bots[0](game.view(0), d))
    numbers = typed(d, answer)
    out = io.StringIO()
    player = TerminalPlayer(game, [0], [f"seat {s}" for s in range(4)],
                            stdin=io.StringIO(f"? {numbers}\n{numbers}\n"), stdout=out)
    assert player.ask(d) == answer
    clone = game.clone()
    clone.answer(answer)
    concert = next(e for e in reversed(clone.events) if e.kind == "concert")
    text = out.getvalue()
    assert re.search(rf"Preview: {concert.data['rating']} with ", text), text
    assert "<" not in text.replace("<=", "")  # no HTML left


def test_text_of_strips_html_and_keeps_rule_ids() -> None:
    markup = ("<div>a &amp; b <span class='rule-id' title='x'>P4.1</span><ul><li>one</li>"
              "<li>two</li></ul></div>")
    assert text_of(markup) == "a & b [P4.1]\n  - one\n  - two"
    table = "<b>Reach</b>:<table><tr><td><i>no hire</i></td><td>S20: good</td></tr></table>"
    assert text_of(table) == "Reach:\n    no hire S20: good"


def test_bad_seat_is_refused(monkeypatch, capsys) -> None:
    code, _, err = main_with_stdin(["--human", "4", "--players", BOTS], "", monkeypatch, capsys)
    assert code == 2 and "--human 4: seats are numbered 0 to 3" in err


def test_in_process_game_matches_the_bot_game() -> None:
    lines, game = script(4, 11, "greedy")
    again = Game(4, seed=11)
    bots = [make_strategy("greedy") for _ in range(4)]
    out = io.StringIO()
    play_in_terminal(again, bots, [0], [f"seat {s}" for s in range(4)],
                     stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out)
    assert again.results == game.results
    assert "Final score sheet" in out.getvalue()


def test_human_in_players_is_played_in_the_terminal(monkeypatch, capsys) -> None:
    lines, game = script(3, 2, months=2)
    code, out, err = main_with_stdin(["--players", "human,random,random", "--months", "2",
                                      "--seed", "2"], "\n".join(lines) + "\n", monkeypatch, capsys)
    assert code == 0, err
    assert out.count(">>> seat 0 (you), your decision:") == len(lines)
    res = game.results
    assert res is not None
    assert {s: r[0] for s, r in sheet_rows(out).items()} == \
        {s: fame_text(f) for s, f in enumerate(res["fame"])}


def test_the_log_shows_only_what_the_person_may_see() -> None:
    game = Game(4, seed=3)

    def log(humans: list[int]) -> str:
        out = io.StringIO()
        TerminalPlayer(game, humans, [f"seat {s}" for s in range(4)], stdin=io.StringIO(),
                       stdout=out).show_events()
        return out.getvalue()

    alone = log([0])
    assert "seat 0: dealt" in alone and "seat 1: dealt" not in alone
    assert "dealt" not in log([0, 1])  # hot seat: nobody's hand in the shared log
