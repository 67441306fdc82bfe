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
