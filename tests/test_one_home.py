"""One home for the numbers of RULES.md (issue 9): ``musici/economy.py``.

Every price, salary, bonus, threshold, award and the hall/tour table is written once, in
economy.py; the engine, the bots, search and the explanations read it from there. These
tests scan the source of ``musici/`` (an AST scan, so comments do not count) for a second
copy: a module-level name that economy defines, a table keyed by area names with numbers,
a distinctive amount (1500, 150, 400) as a literal, or a money amount of the rules written
into a message ("150 G"). What is legitimately not a rule number is allow-listed with its
reason. The engine files are excluded while the lead splits them into a package.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from musici import economy as E
from musici import scoring

ROOT = Path(__file__).resolve().parents[1] / "musici"
HOME = "musici/economy.py"
RULE_FUNCTIONS = {"economy": E, "scoring": scoring}
# Where the rule functions live: economy (payments), scoring (concert, END) and rating (the
# RATE and RESTORE primitives scoring applies under a rule set).
FUNCTION_HOMES = frozenset({"musici/scoring.py", "musici/rating.py"})


def _excluded(rel: str) -> bool:
    return rel == HOME


def _sources() -> list[tuple[str, ast.Module]]:
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT.parent).as_posix()
        if not _excluded(rel):
            out.append((rel, ast.parse(path.read_text(encoding="utf-8"), rel)))
    return out


SOURCES = _sources()
ECONOMY_NAMES = frozenset(n for n in vars(E) if n.isupper() and not n.startswith("_"))
RULE_FUNCTION_NAMES = frozenset(
    name for mod in RULE_FUNCTIONS.values() for name, value in vars(mod).items()
    if callable(value) and not name.startswith("_") and getattr(value, "__module__", "")
    == mod.__name__ and not isinstance(value, type))
# The amounts that identify a rule at a glance: the start money, the authentic orchestra's
# price, the opera's rent and the large academic tour's cost.
DISTINCTIVE = frozenset({E.START_MONEY, E.HIRE_PRICE["authentic"], E.HALLS["opera"][0],
                         E.TOURS["large-academic"][0]})
# Every money amount of the rules: written as "<n> G" in a message it is a second copy.
MONEY_AMOUNTS = frozenset({
    E.START_MONEY, E.MONEY_UNIT, E.AUCTION_STEP, E.CRITIC_BONUS, E.UNPAID_VENUE_STEP,
    E.SCORE_PRICE, E.DISCOVER_PRICE, E.IDLE_BONUS, E.POACH_DISCOUNT, E.GUARNERI_BONUS,
    *E.HIRE_PRICE.values(), *E.SALARY.values(), *(rent for rent, _ in E.HALLS.values()),
    *(tour[0] for tour in E.TOURS.values() if tour[0]), *(a for _, a in E.SURCHARGES),
})
MONEY_TEXT = re.compile(r"(?<![\d.])(\d+) ?G\b")

# (file, scope, value) -> why this literal is not a rule number.
NOT_RULE_NUMBERS: dict[tuple[str, str, int], str] = {
    ("musici/strategies/_plans.py", "Planner.special_value", 150):
        "the planner's valuation of a special card in G (a bot preference, not a price)",
    ("musici/strategies/greedy.py", "greedy_strategy", 400):
        "money the greedy bot wants in hand before hiring or appeasing (a bot threshold)",
    ("musici/strategies/merchant.py", "Merchant", 400):
        "the merchant's cash cushion (a bot preference)",
    ("musici/strategies/search.py", "SearchBot.candidates", 150):
        "a media bid the search bot tries (a search candidate, not a price)",
    ("musici/render/board.py", "_areas", 150): "pixel geometry of the board's area tiles",
    ("musici/render/board.py", "board_svg", 150): "pixel geometry of the board's panels",
    ("musici/render/cards.py", "back_element", 150): "pixel geometry of a card back",
    ("musici/widgets/preview.py", "_short_rule", 150): "a text length in characters",
    ("musici/analysis/evaluation.py", "candidate_answers", 150):
        "a bid the evaluation tries among its candidates (not a price)",
    ("musici/analysis/puzzles.py", "puzzle_from_dict", 400):
        "the longest note a puzzle file may hold, in characters",
    ("musici/strategies/_ismcts_candidates.py", "<module>", 150):
        "a media bid the ismcts bot tries (a search candidate, not a price)",
    ("musici/widgets/since.py", "<module>", 400): "how many events the panel shows",
    ("musici/playtest/ladder.py", "<module>", 400):
        "the rating scale (400 points = a factor of 10 in strength, as Elo), not G",
    ("musici/playtest/report.py", "rerun_command", 400):
        "a number of games in a suggested command line, not G",
    ("musici/playtest/report.py", "_fame_section", 400): "a figure's height in pixels",
}
# Rule amounts still written in text in files outside this change (issue 9): each is to move
# to economy by the file's owner; the test fails once one is gone, so the list only shrinks.
PENDING: dict[tuple[str, str, int], str] = {}


def _walk(tree: ast.Module) -> Iterator[tuple[str, ast.AST]]:
    """Every node with its scope: "<module>", "func", "Class" or "Class.method"."""
    def visit(node: ast.AST, scope: str) -> Iterator[tuple[str, ast.AST]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                inner = child.name if scope == "<module>" else f"{scope}.{child.name}"
                yield inner, child
                yield from visit(child, inner)
            else:
                yield scope, child
                yield from visit(child, scope)
    yield from visit(tree, "<module>")


def _docstrings(tree: ast.Module) -> set[int]:
    """ids of string constants that are statements (docstrings and bare strings)."""
    return {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}


def _int_values(node: ast.AST) -> list[int]:
    return [n.value for n in ast.walk(node)
            if isinstance(n, ast.Constant) and type(n.value) is int]


def test_scan_sees_the_bots_and_the_analysis():
    files = {rel for rel, _ in SOURCES}
    assert {"musici/strategies/_plans.py", "musici/analysis/explain.py"} <= files
    assert HOME not in files and "musici/engine/p5_settlement.py" in files
    assert {"START_MONEY", "HALLS", "SCORE_PRICE"} <= ECONOMY_NAMES
    assert {"surcharge", "venue_cost", "concert_outcome", "end_awards"} <= RULE_FUNCTION_NAMES


@pytest.mark.rules("P4.BUY.1", "P4.DISCOVER.1", "P4.4", "P5.4", "P3.HALL", "P3.TOUR")
def test_no_module_redefines_a_rule_constant_or_function():
    found = []
    for rel, tree in SOURCES:
        for node in tree.body:
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AnnAssign):
                targets = [node.target]
            names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            found += [f"{rel}:{node.lineno} assigns {n}" for n in names if n in ECONOMY_NAMES]
            if (isinstance(node, ast.FunctionDef) and node.name in RULE_FUNCTION_NAMES
                    and rel not in FUNCTION_HOMES):
                found.append(f"{rel}:{node.lineno} defines {node.name}()")
    assert not found, "rule constants and functions live in economy/scoring:\n" + "\n".join(found)


@pytest.mark.rules("P3.HALL", "P3.TOUR")
def test_no_table_keyed_by_area_with_numbers_outside_economy():
    """Rents, capacities, tour costs and multipliers are ints keyed by area; a bot's float
    weights per area (impresario's AREA_BIAS) are preferences and are allowed."""
    areas = set(E.AREAS)
    found = []
    for rel, tree in SOURCES:
        for node in ast.walk(tree):
            if not isinstance(node, ast.Dict):
                continue
            keyed = any(isinstance(k, ast.Constant) and k.value in areas for k in node.keys)
            if keyed and any(_int_values(v) for v in node.values):
                found.append(f"{rel}:{node.lineno}")
    assert not found, "a table of area numbers outside economy.py: " + ", ".join(found)


def _distinctive_literals() -> dict[tuple[str, str, int], list[int]]:
    hits: dict[tuple[str, str, int], list[int]] = {}
    for rel, tree in SOURCES:
        for scope, node in _walk(tree):
            if (isinstance(node, ast.Constant) and type(node.value) is int
                    and node.value in DISTINCTIVE):
                hits.setdefault((rel, scope, node.value), []).append(node.lineno)
    return hits


def _money_in_text() -> dict[tuple[str, str, int], list[int]]:
    hits: dict[tuple[str, str, int], list[int]] = {}
    for rel, tree in SOURCES:
        docs = _docstrings(tree)
        for scope, node in _walk(tree):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) \
                    or id(node) in docs:
                continue
            for m in MONEY_TEXT.finditer(node.value):
                if int(m.group(1)) in MONEY_AMOUNTS:
                    hits.setdefault((rel, scope, int(m.group(1))), []).append(node.lineno)
    return hits


@pytest.mark.rules("SETUP.4", "P4.HIRE.1", "P3.HALL", "P3.TOUR")
def test_distinctive_amounts_are_literals_only_in_economy():
    hits = _distinctive_literals()
    unexplained = {k: v for k, v in hits.items() if k not in NOT_RULE_NUMBERS}
    assert not unexplained, "a rule amount written outside economy.py: " + ", ".join(
        f"{rel}:{lines[0]} ({scope}) {value}" for (rel, scope, value), lines in unexplained.items())
    stale = [k for k in NOT_RULE_NUMBERS if k not in hits]
    assert not stale, f"allow-list entries that match nothing any more: {stale}"


@pytest.mark.rules("P4.HIRE.1", "P4.HIRE.3", "P4.BUY.1", "P4.4", "P5.4", "SPECIAL.P1")
def test_money_amounts_are_not_written_into_messages():
    """A message that says "150 G" goes stale when the price changes: format it from
    economy. Docstrings are documentation and are not scanned."""
    hits = _money_in_text()
    unexplained = {k: v for k, v in hits.items() if k not in PENDING}
    assert not unexplained, "a rule amount written into text: " + ", ".join(
        f"{rel}:{lines[0]} ({scope}) '{value} G'" for (rel, scope, value), lines
        in unexplained.items())
    stale = [k for k in PENDING if k not in hits]
    assert not stale, f"moved to economy (remove from PENDING): {stale}"


def test_the_scan_finds_a_copied_price(tmp_path):
    """The scanners see what they are meant to (a planted copy is found)."""
    tree = ast.parse('SCORE_PRICE = 100\nT = {"opera": (400, 10)}\n'
                     'def f():\n    return f"hire for {x}: 150 G", 1500\n')
    assert [n.targets[0].id for n in tree.body[:1]] == ["SCORE_PRICE"]
    assert "SCORE_PRICE" in ECONOMY_NAMES
    dicts = [n for n in ast.walk(tree) if isinstance(n, ast.Dict)]
    assert dicts and _int_values(dicts[0].values[0]) == [400, 10]
    scoped = [(s, n.value) for s, n in _walk(tree)
              if isinstance(n, ast.Constant) and n.value in DISTINCTIVE]
    assert ("f", 1500) in scoped
    texts = [n.value for _, n in _walk(tree)
             if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    assert any(int(m.group(1)) in MONEY_AMOUNTS for t in texts for m in MONEY_TEXT.finditer(t))


def _names_read(tree: ast.AST) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            out.add(node.id)
        elif isinstance(node, ast.Attribute):
            out.add(node.attr)
        elif isinstance(node, ast.alias):
            out.add(node.name)
    return out


def test_every_rule_constant_is_read_somewhere() -> None:
    """A rule constant nothing reads is a second, dead copy of the rule (issue 22 item 8):
    the engine then writes the number elsewhere. Read means: by another module, or by a
    function of economy.py."""
    home = ast.parse((ROOT / "economy.py").read_text(encoding="utf-8"))
    read = set().union(*(_names_read(tree) for _, tree in SOURCES))
    for node in home.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            read |= _names_read(node)
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            read |= _names_read(node.value)  # a table built from other constants reads them
    unused = sorted(name for name in ECONOMY_NAMES if name not in read
                    and not isinstance(getattr(E, name), type))
    assert not unused, f"rule constants nothing reads: {unused}"
