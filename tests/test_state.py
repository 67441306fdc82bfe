"""PlayerState.copy: every slot carried over, every container independent (search relies on it)."""

from __future__ import annotations

from musici.state import PLAYER_SLOTS, PlayerState

CONTAINERS = ("hand", "played", "orchestras", "markers", "permanent", "specials_hand",
              "specials_discard")


def _filled() -> PlayerState:
    p = PlayerState(2, 70)
    for i, name in enumerate(PLAYER_SLOTS):
        value = getattr(p, name)
        if name in CONTAINERS:
            if isinstance(value, dict):
                value[f"o{i}"] = i
            else:
                value.append(f"c{i}")
        elif isinstance(value, bool):
            setattr(p, name, True)  # every flag starts False
        elif isinstance(value, int):
            setattr(p, name, 1000 + i)  # a value no default could equal
        elif name == "concert":
            p.concert = {"distinct": i}
        else:
            setattr(p, name, f"distinct-{i}")  # the venue (str | None, compiled: typed)
    return p


def test_copy_carries_every_slot() -> None:
    p = _filled()
    new = p.copy()
    for name in PLAYER_SLOTS:
        assert getattr(new, name) == getattr(p, name), name  # AttributeError if left out


def test_copy_containers_are_independent() -> None:
    p = _filled()
    new = p.copy()
    for name in CONTAINERS:
        assert getattr(new, name) is not getattr(p, name), name
    new.hand.append("x")
    new.markers["y"] = 1
    assert "x" not in p.hand and "y" not in p.markers


def test_every_container_slot_is_listed() -> None:
    # A new list or dict slot must be copied, not shared: keep CONTAINERS in step.
    p = PlayerState(0, 0)
    found = {n for n in PLAYER_SLOTS if isinstance(getattr(p, n), (list, dict))}
    assert found == set(CONTAINERS)
