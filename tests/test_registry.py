"""The strategy registry: names, classes, factories, files, modules and entry points."""

from __future__ import annotations

import functools
import textwrap
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from musici import Game
from musici.strategies import (
    StrategySpecError,
    available_strategies,
    make_strategy,
    random_strategy,
    register_strategy,
    strategy_factory,
    strategy_label,
)
from musici.strategies import registry as reg


class Counting:
    """Counts the decisions it answered (state that must not leak between games)."""

    def __init__(self) -> None:
        self.answered = 0

    def __call__(self, view, decision):
        self.answered += 1
        return decision.random_answer(view.rng)


def test_a_class_gives_a_fresh_player_per_game() -> None:
    factory = strategy_factory(Counting)
    first, second = factory(), factory()
    assert first is not second
    Game(seed=1).play([first, random_strategy, random_strategy, random_strategy])
    assert first.answered > 0 and second.answered == 0


def test_factories_and_partials_are_called_functions_are_shared() -> None:
    assert make_strategy(random_strategy) is random_strategy
    made = make_strategy(functools.partial(Counting))
    assert isinstance(made, Counting)
    assert strategy_label(functools.partial(Counting)) == "Counting()"
    assert strategy_label("greedy") == "greedy"


def test_register_and_replace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reg, "_REGISTERED", {})
    register_strategy("counting", Counting)
    assert isinstance(make_strategy("counting"), Counting)
    assert available_strategies()["counting"].startswith("Counts the decisions")
    with pytest.raises(StrategySpecError, match="already registered"):
        register_strategy("counting", Counting)
    with pytest.raises(StrategySpecError, match="already registered"):
        register_strategy("random", Counting)
    register_strategy("counting", random_strategy, replace=True)
    assert make_strategy("counting") is random_strategy


@pytest.mark.parametrize(("obj", "message"), [
    (42, "not callable"),
    (lambda a, b, c: None, "takes 3 required arguments"),
])
def test_register_rejects_what_cannot_be_a_strategy(obj: object, message: str) -> None:
    with pytest.raises(StrategySpecError, match=message):
        register_strategy("bad_one", obj)
    assert "bad_one" not in available_strategies()


def test_bad_names_are_rejected() -> None:
    with pytest.raises(StrategySpecError, match="identifier"):
        register_strategy("no spaces", random_strategy)
    with pytest.raises(StrategySpecError, match="cannot import module 'no_such_pkg'"):
        make_strategy("no_such_pkg:thing")
    with pytest.raises(StrategySpecError, match="has no attribute 'nothing'"):
        make_strategy("musici.strategies.greedy:nothing")
    assert make_strategy("musici.strategies.greedy:greedy_strategy").__name__ == "greedy_strategy"


def _write(path: Path, body: str) -> Path:
    path.write_text(textwrap.dedent(body))
    return path


def test_strategy_from_a_python_file(tmp_path: Path) -> None:
    file = _write(tmp_path / "mybot.py", """
        def strategy(view, decision):
            return decision.random_answer(view.rng)

        class Careful:
            def __call__(self, view, decision):
                return decision.options[0] if decision.space == "choice" else \\
                    decision.random_answer(view.rng)
    """)
    plain = make_strategy(str(file))
    careful = make_strategy(f"{file}:Careful")
    game = Game(seed=4).play([plain, careful, random_strategy, random_strategy])
    assert game.finished
    with pytest.raises(StrategySpecError, match="has no attribute 'Missing'"):
        make_strategy(f"{file}:Missing")
    with pytest.raises(StrategySpecError, match="does not exist"):
        make_strategy(str(tmp_path / "absent.py"))


def test_a_file_that_fails_on_import_is_named(tmp_path: Path) -> None:
    file = _write(tmp_path / "broken.py", "raise RuntimeError('half-written bot')\n")
    with pytest.raises(StrategySpecError, match=r"broken\.py.*RuntimeError.*half-written bot"):
        make_strategy(str(file))


def test_entry_point_plugins_are_found(monkeypatch: pytest.MonkeyPatch) -> None:
    ep = EntryPoint(name="plugged", value="musici.strategies.greedy:greedy_strategy",
                    group="musici.strategies")
    monkeypatch.setattr(reg, "_entry_points", lambda: [ep])
    assert "plugged" in available_strategies()
    assert make_strategy("plugged").__name__ == "greedy_strategy"


@pytest.mark.parametrize("name", ["impresario", "merchant", "collector"])
def test_heuristic_bots_are_registered_by_name(name: str) -> None:
    bot = make_strategy(name)
    assert bot.__name__ == f"{name}_strategy"
    assert Game(seed=2).play([bot, random_strategy, random_strategy, random_strategy]).finished


def test_the_search_bot_is_a_fresh_instance_per_game() -> None:
    from musici.strategies.search import SearchBot

    first, second = make_strategy("search"), make_strategy("search")
    assert isinstance(first, SearchBot) and first is not second
