"""The engine's inside goes through one small typed surface (issue 22 item 2).

Phase modules emit events, pose decisions and schedule continuations through
``musici.engine.context``, never through ``Game``'s private machinery, and mypy checks each
continuation against its function's signature.
"""

from __future__ import annotations

import re
import sys
import textwrap
from pathlib import Path

from mypy import api as mypy_api

ENGINE = Path(__file__).resolve().parents[1] / "musici" / "engine"


def test_no_module_but_game_py_drives_the_game_through_private_machinery() -> None:
    private = re.compile(r"\b\w+\._(emit|push|ask|pending|stack)\b")
    found = [f"{path.name}:{n}: {line.strip()}"
             for path in sorted(ENGINE.glob("*.py"))
             if path.name not in ("game.py", "context.py", "position.py")
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if private.search(line)]
    assert not found, "\n".join(found)


def test_mypy_refuses_a_continuation_given_the_wrong_arguments(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text(textwrap.dedent("""
        from musici.engine import Game
        from musici.engine.context import push, task
        from musici.engine.p2_media import ask_bid, reveal

        def wrong(g: Game) -> None:
            push(g, ask_bid, "seat 1")       # ask_bid takes a seat number
            task(reveal, [0, 1], "extra")    # reveal takes the order only

        def right(g: Game) -> None:
            push(g, ask_bid, 1)
            task(reveal, [0, 1])
    """))
    limit = sys.getrecursionlimit()
    try:
        out, _, status = mypy_api.run(["--strict", "--follow-imports=silent",
                                       "--no-incremental", str(planted)])
    finally:
        # mypy raises the interpreter's recursion limit for itself; later tests (deeply
        # nested JSON is refused by it) must see the usual one.
        sys.setrecursionlimit(limit)
    assert status == 1, out
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert len(errors) == 2 and all("planted.py:7:" in e or "planted.py:8:" in e
                                    for e in errors), out
