"""The teaching notebooks in notebooks/: stored clean, and each runs headless without an error.

"Clean" means valid nbformat, the "python3" kernel, and no outputs, execution counts or
saved widget state, so an executed notebook committed by mistake fails here. Every notebook
is then run top to bottom with nbclient in a fresh "python3" kernel (jupyter_client starts
that kernel with this interpreter, so the venv's musici is the one tested). The walkthrough
gets extra cells appended that click its stepper's buttons kernel-side (no browser).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import ipykernel  # noqa: F401  (the kernel the notebooks run in; part of the test extra)
import nbclient
import nbformat
import pytest

NOTEBOOKS_DIR = Path(__file__).resolve().parent.parent / "notebooks"
EXPECTED = ("walkthrough", "rules", "play", "what_if", "balance")
NOTEBOOKS = sorted(NOTEBOOKS_DIR.glob("*.ipynb"))
CELL_TIMEOUT = 300  # seconds per cell; whole notebooks take a few seconds to ~25 s

# Appended to walkthrough.ipynb: the first stepper, as the browser test drives it.
STEPPER_CHECKS = [
    f"""
import sys
assert sys.prefix == {sys.prefix!r}, (sys.executable, sys.prefix)  # the venv's interpreter
""",
    """
start = (stepper.game.month, stepper.game.phase)
assert start == (1, "P1")
assert "phase-btn" in stepper.buttons["phase"]._dom_classes
# A stepper with a human seat opens at that seat's first decision (the auction); the
# bots before it have played. Answer it through the controls: the phase moves on.
d = stepper.game.decision
assert d is not None and stepper.humans[d.player] and d.kind == "auction"
assert stepper.controls.widget.layout.display != "none"
[pass_button] = [b for b in stepper.controls.inputs if b.description == "pass"]
pass_button.click()
assert (stepper.game.month, stepper.game.phase) != start, stepper.game.phase
assert stepper.game.phase == "P2" and "Month 1 · P2 media" in stepper.timeline.value
print("phase changed:", start, "->", (stepper.game.month, stepper.game.phase))
""",
]

_runs: dict[str, tuple[object, int, float]] = {}


def _run(path: Path) -> tuple[object, int, float]:
    """Execute ``path`` once per test session (walkthrough with its stepper checks).

    Returns the executed notebook, the number of its own cells and the seconds it took.
    Errors are kept in the outputs (``allow_errors``) so each test can report its own.
    """
    if path.stem not in _runs:
        nb = nbformat.read(path, as_version=4)
        own = len(nb.cells)
        if path.stem == "walkthrough":
            nb.cells += [nbformat.v4.new_code_cell(src.strip()) for src in STEPPER_CHECKS]
        client = nbclient.NotebookClient(
            nb, timeout=CELL_TIMEOUT, kernel_name="python3", allow_errors=True,
            resources={"metadata": {"path": str(NOTEBOOKS_DIR)}})
        start = time.perf_counter()
        client.execute()
        _runs[path.stem] = (nb, own, time.perf_counter() - start)
    return _runs[path.stem]


def _errors(cells: list) -> list[str]:
    found = []
    for cell in cells:
        for out in cell.get("outputs", []):
            if out.output_type == "error":
                trace = "\n".join(out.traceback)
                found.append(f"cell {cell.get('id')}:\n{cell.source}\n--> {out.ename}: "
                             f"{out.evalue}\n{trace[-3000:]}")
    return found


def test_the_notebooks_are_there() -> None:
    assert sorted(p.stem for p in NOTEBOOKS) == sorted(EXPECTED)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_stored_clean(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata.kernelspec.name == "python3"
    assert "widgets" not in nb.metadata, "saved widget state: store the notebook without outputs"
    dirty = [cell.get("id") for cell in nb.cells if cell.cell_type == "code"
             and (cell.outputs or cell.execution_count is not None)]
    assert not dirty, f"{path.name} is stored with outputs in cells {dirty}: clear them"
    assert nb.cells[0].cell_type == "markdown" and nb.cells[0].source.startswith("# ")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_without_errors(path: Path) -> None:
    nb, own, seconds = _run(path)
    errors = _errors(nb.cells[:own])
    assert not errors, f"{path.name} ({seconds:.1f} s):\n" + "\n\n".join(errors)
    ran = [c for c in nb.cells[:own] if c.cell_type == "code"]
    assert ran and all(c.execution_count is not None for c in ran)
    print(f"{path.name}: {seconds:.1f} s")


def test_walkthrough_stepper_phase_button_changes_the_phase() -> None:
    nb, own, _ = _run(NOTEBOOKS_DIR / "walkthrough.ipynb")
    # the stepper is the first widget the walkthrough shows (the browser test relies on it)
    widgets = [i for i, c in enumerate(nb.cells[:own]) for o in c.get("outputs", [])
               if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert widgets and "GameStepper(" in nb.cells[widgets[0]].source
    extra = nb.cells[own:]
    errors = _errors(extra)
    assert not errors, "\n\n".join(errors)
    text = "".join(o.get("text", "") for o in extra[-1].outputs)
    assert "phase changed: (1, 'P1') -> (1, 'P2')" in text


def test_notebook_texts_state_the_rules_and_the_default_view() -> None:
    text = " ".join(" ".join(c.source.split()) for p in NOTEBOOKS
                    for c in nbformat.read(p, as_version=4).cells)
    # P4.4: "If you hold no concert and did at most one action this month"
    assert "held no concert and did at most one action" in text
    assert "with at most one action gets 100 G" not in text
    # the stepper opens in the first human seat's view, not the teacher's
    assert "opens in your seat's view" in text
    assert "In the teacher view (`practice.seat is None`) the table shows every hand" not in text
