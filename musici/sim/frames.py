"""Tidy pandas frames from game records, built once after the games (DESIGN principle 7)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from musici.sim.records import GameRecord

GAME_COLUMNS = ["game", "seed", "players", "decisions", "events", "winners", "n_winners",
                "winning_strategy", "top_fame"]
PLAYER_COLUMNS = ["game", "seat", "entry", "strategy", "fame", "money", "rank", "win",
                  "award_fame", "marker_penalty", "concerts", "cards_played", "specials_bought"]
MONTH_COLUMNS = ["game", "seat", "strategy", "month", "fame", "money"]
CONCERT_COLUMNS = ["game", "month", "seat", "strategy", "card", "kind", "venue", "rating",
                   "card_fame", "bonus", "fame", "income"]
VENUE_COLUMNS = ["game", "month", "seat", "strategy", "area", "cost_money", "cost_fame"]
SPECIAL_COLUMNS = ["game", "month", "seat", "strategy", "card", "price"]
EVENT_COLUMNS = ["game", "index", "month", "phase", "kind", "rule", "player", "private", "data"]
ERROR_COLUMNS = ["game", "seed", "strategies", "error"]
COLUMNS: dict[str, list[str]] = {
    "games": GAME_COLUMNS, "players": PLAYER_COLUMNS, "months": MONTH_COLUMNS,
    "concerts": CONCERT_COLUMNS, "venues": VENUE_COLUMNS, "specials": SPECIAL_COLUMNS,
    "events": EVENT_COLUMNS, "errors": ERROR_COLUMNS,
}
FRAME_NAMES: tuple[str, ...] = tuple(COLUMNS)


def _frame(rows: list[tuple], columns: list[str], arms: list[str] | None) -> pd.DataFrame:
    frame = pd.DataFrame.from_records(rows, columns=columns) if rows else pd.DataFrame(
        {c: pd.Series(dtype="object") for c in columns})
    if arms is not None:
        frame.insert(0, "arm", arms)
    return frame


def build_frames(records: Sequence[GameRecord], entries: Sequence[Sequence[int]], *,
                 with_arm: bool = False, with_events: bool = False) -> dict[str, pd.DataFrame]:
    """Frames keyed by name; ``entries[i][seat]`` is the lineup position seated there."""
    rows: dict[str, list[tuple]] = {k: [] for k in FRAME_NAMES}
    arms: dict[str, list[str]] = {k: [] for k in rows}
    for rec, entry in zip(records, entries, strict=True):
        g, names, arm = rec.index, rec.strategies, rec.arm
        if rec.error is not None:
            rows["errors"].append((g, rec.seed, ",".join(names), rec.error))
            arms["errors"].append(arm)
            continue
        top = max(p.fame for p in rec.players)
        win_names = {names[s] for s in rec.winners}
        rows["games"].append((
            g, rec.seed, len(names), rec.decisions, rec.n_events,
            ",".join(map(str, rec.winners)), len(rec.winners),
            win_names.pop() if len(win_names) == 1 else "tie", top))
        arms["games"].append(arm)
        for p in rec.players:
            rows["players"].append((g, p.seat, entry[p.seat], names[p.seat], *p[1:]))
        rows["months"].extend((g, m.seat, names[m.seat], m.month, m.fame, m.money)
                              for m in rec.months)
        rows["concerts"].extend((g, c.month, c.seat, names[c.seat], *c[2:]) for c in rec.concerts)
        rows["venues"].extend((g, v.month, v.seat, names[v.seat], *v[2:]) for v in rec.venues)
        rows["specials"].extend((g, s.month, s.seat, names[s.seat], s.card, s.price)
                                for s in rec.specials)
        if with_events and rec.events is not None:
            rows["events"].extend((g, *e) for e in rec.events)
        for key, count in (("players", len(rec.players)), ("months", len(rec.months)),
                           ("concerts", len(rec.concerts)), ("venues", len(rec.venues)),
                           ("specials", len(rec.specials)),
                           ("events", len(rec.events) if with_events and rec.events else 0)):
            arms[key].extend([arm] * count)
    frames = {name: _frame(rows[name], COLUMNS[name], arms[name] if with_arm else None)
              for name in FRAME_NAMES if name != "events" or with_events}
    return frames


__all__ = ["COLUMNS", "FRAME_NAMES", "build_frames"]
