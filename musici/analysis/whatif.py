"""Pictures, tables and arms of a what-if study (``musici.playtest.compare``) and its flags.

:func:`effects_figure` draws the paired effects with their intervals, **one x axis per
metric** (a win share moves by about ±0.3, fame by about ±10: on a shared axis the
win-share intervals would shrink to dots), one row per line-up entry and arm;
:func:`flags_table` gives each balance flag its kind and the stated test that raised it,
and :func:`flags_compared` lays the flags of several arms side by side (one row per flag,
one column per arm, the arm's own number where it raised no flag); :func:`combine_results`
joins batches played in chunks (the workbench's progress bar) into one result.

Arms: an :class:`ArmSpec` states what an arm changes from the base (rulings, line-up, card
file, a card's numbers, :func:`edit_cards`); :func:`arm_setups` turns the base and its arms
into setups and :func:`play_arms` plays them all on the same seeds and seats, so every arm
pairs with the base game by game (:func:`arm_comparisons`). :func:`fame_through_end`
draws an arm's fame by month **and** after the END awards, the last point "END";
:func:`card_plays` gives one card's fame per play in every arm.

Example::

    from musici.playtest.compare import Setup, compare
    from musici.analysis.whatif import effects_figure

    c = compare(Setup(["greedy"] * 4, name="12 months"),
                Setup(["greedy"] * 4, rules={"RULING-MONTHS": 6}, name="6 months"), games=50)
    effects_figure(c.effects, title="Six months instead of twelve").show()
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import pandas as pd

from musici.analysis.palette import strategy_colour
from musici.sim import SimulationResult
from musici.sim.stats import mean_interval

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from musici.cards import CardSet
    from musici.playtest.balance import BalanceReport
    from musici.playtest.compare import Comparison, Setup

GAME_COLOUR = "#555"
ROW_PX = 30  # per "who" row of one metric's panel
ARM_SYMBOLS = ("circle", "diamond", "square", "triangle-up", "star", "hexagon")
# What each balance flag tests (musici.playtest.balance), keyed by the flag's first word.
FLAG_TESTS: dict[str, str] = {
    "seat": "the seat's win-rate interval excludes 1/n (every seat saw the same strategies)",
    "turn": "the turn position's win-rate interval excludes what its strategies win",
    "strategy": "the strategy's per-seat win-rate interval lies above 1.5/n",
    "card": "at least MIN_PLAYS plays and fame per play more than 2 sd above its kind's mean",
    "venue": "chosen in more than half of all venue choices",
    "special": "at least MIN_PLAYS owners, win-rate interval above 1.5/n",
}
FLAG_KINDS = {"seat": "seat", "turn": "turn", "strategy": "strategy", "owners": "special",
              "score": "card", "discovery": "card"}
EDIT_FIELDS = ("fame", "income", "authentic", "modern")  # a card's numbers the editor sets


def clear_effect(effects: pd.DataFrame) -> pd.Series:
    """Whether each effect's interval excludes 0 (a clear effect at this batch size)."""
    return (effects.low > 0) | (effects.high < 0)


def effects_figure(effects: pd.DataFrame, *, metrics: Sequence[str] | None = None,
                   title: str = "") -> go.Figure:
    """The paired effects (arm − base) with their intervals, one panel and x axis per
    metric. A filled marker is a clear effect (interval excludes 0), an open one is not;
    each line-up entry has its strategy's colour, per-game metrics are grey.

    ``effects`` is ``compare(...).effects`` (columns metric, who, effect, low, high); with
    an ``arm`` column naming more than one arm, each row is "who · arm" and each arm has
    its own marker shape (circle, diamond, square, ...).
    """
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    for column in ("metric", "who", "effect", "low", "high"):
        if column not in effects.columns:
            raise ValueError(f"the effects frame has no column {column!r}; expected the "
                             "effects of musici.playtest.compare")
    chosen = list(dict.fromkeys(effects.metric)) if metrics is None else list(metrics)
    missing = [m for m in chosen if m not in set(effects.metric)]
    if missing or not chosen:
        raise ValueError(f"no effects for metric(s) {missing or chosen}; the frame has "
                         f"{', '.join(dict.fromkeys(effects.metric))}")
    arms = list(dict.fromkeys(effects.arm)) if "arm" in effects.columns else []
    many = len(arms) > 1
    sizes = [int((effects.metric == m).sum()) for m in chosen]
    fig = make_subplots(rows=len(chosen), cols=1, row_heights=[s + 1.5 for s in sizes],
                        vertical_spacing=0.35 / len(chosen),
                        subplot_titles=[f"{m}: effect, 95% interval" for m in chosen])
    for row, metric in enumerate(chosen, start=1):
        part = effects[effects.metric == metric]
        if many:  # the arms of one entry next to each other
            part = part.assign(_who=pd.Categorical(part.who, list(dict.fromkeys(part.who))))
            part = part.sort_values(["_who", "arm"], kind="stable",
                                    key=lambda s: s.map({a: i for i, a in enumerate(arms)})
                                    if s.name == "arm" else s)
        clear = clear_effect(part)
        colours = [GAME_COLOUR if who == "game" else strategy_colour(who) for who in part.who]
        shapes = ([ARM_SYMBOLS[arms.index(a) % len(ARM_SYMBOLS)] for a in part.arm] if many
                  else ["circle"] * len(part))
        labels = ([f"{w} · {a}" for w, a in zip(part.who, part.arm, strict=True)] if many
                  else list(part.who))
        base = part.base if "base" in part.columns else part.effect * math.nan
        variant = part.variant if "variant" in part.columns else part.effect * math.nan
        fig.add_trace(go.Scatter(
            x=part.effect, y=labels, mode="markers", name=metric, meta=metric,
            showlegend=False,
            marker={"size": 11, "color": colours,
                    "symbol": [s if c else f"{s}-open" for s, c in zip(shapes, clear,
                                                                        strict=True)],
                    "line": {"width": 2, "color": colours}},
            error_x={"type": "data", "symmetric": False, "array": part.high - part.effect,
                     "arrayminus": part.effect - part.low, "thickness": 2, "width": 6},
            customdata=list(zip(part.low, part.high, base, variant, strict=True)),
            hovertemplate=("%{y}<br>effect %{x:.3g} [%{customdata[0]:.3g}, "
                           "%{customdata[1]:.3g}]<br>base %{customdata[2]:.3g} → arm "
                           "%{customdata[3]:.3g}<extra>" + metric + "</extra>")),
            row=row, col=1)
        fig.add_vline(x=0, line={"dash": "dash", "color": "#888", "width": 1}, row=row, col=1)
        fig.update_yaxes(autorange="reversed", row=row, col=1)
        fig.update_xaxes(zeroline=False, row=row, col=1)
    fig.update_layout(title=title or "Effects (arm − base): a filled marker's interval "
                      "excludes 0", template="plotly_white", hovermode="closest",
                      height=int(110 + sum(ROW_PX * s + 70 for s in sizes)),
                      margin={"l": 300 if many else 220, "r": 20,
                              "t": 105 if "<br>" in title else 80, "b": 40})
    return fig


def flag_kind(flag: str) -> str:
    """A balance flag's kind (seat, turn, strategy, card, venue, special, other)."""
    first = flag.split(" ", 1)[0]
    return FLAG_KINDS.get(first) or ("venue" if " is chosen " in flag else "other")


def flags_table(flags: Sequence[str], arm: str = "") -> pd.DataFrame:
    """One row per balance flag: the arm, the flag's kind, the flag (its numbers) and the
    test that raised it (``musici.playtest.balance``)."""
    rows = []
    for flag in flags:
        kind = flag_kind(flag)
        rows.append({"arm": arm, "kind": kind, "flag": flag,
                     "test": FLAG_TESTS.get(kind, "see musici.playtest.balance")})
    return pd.DataFrame(rows, columns=["arm", "kind", "flag", "test"])


# What a flag is about, read from its sentence (musici.playtest.balance's wording).
_SUBJECT = [
    ("seat", re.compile(r"^seat (\S+) wins")),
    ("turn", re.compile(r"^turn position (\S+) wins")),
    ("strategy", re.compile(r"^strategy (\S+) wins")),
    ("card", re.compile(r"^(?:score|discovery) card (\S+) gives")),
    ("special", re.compile(r"^owners of special card (\S+) win")),
    ("venue", re.compile(r"^(\S+) is chosen")),
]
_WHAT = {"seat": "seat {}", "turn": "turn position {}", "strategy": "strategy {}",
         "card": "card {}", "special": "owners of special card {}", "venue": "venue {}"}


def flag_subject(flag: str) -> tuple[str, str]:
    """(kind, subject) of a balance flag: ``("strategy", "merchant")``, ``("card", "S07")``;
    ``("other", flag)`` for a sentence of another shape."""
    for kind, pattern in _SUBJECT:
        match = pattern.match(flag)
        if match:
            return kind, match.group(1)
    return "other", flag


def _flag_rest(flag: str) -> str:
    """The flag's sentence after its subject: "wins 45.0% of its seats (95% CI ...) ..."."""
    for _, pattern in _SUBJECT:
        match = pattern.match(flag)
        if match:
            return flag[match.end(1):].strip()
    return flag


def _pct(x: float) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.1%}"


def _measure(report: BalanceReport, kind: str, subject: str) -> str:
    """What the arm measures for a flag's subject when it raised no flag there."""
    def row(table: pd.DataFrame | None, column: str) -> Any:
        if table is None or table.empty or column not in table.columns:
            return None
        hit = table[table[column].astype(str) == subject]
        return None if hit.empty else hit.iloc[0]

    found: Any
    if kind in ("seat", "turn", "strategy"):
        table = {"seat": report.by_seat, "turn": report.by_turn,
                 "strategy": report.by_strategy}[kind]
        found = row(table, kind)
        if found is not None:
            return (f"wins {_pct(found.win_rate)} (95% CI {_pct(found.win_low)}-"
                    f"{_pct(found.win_high)})")
    elif kind == "card":
        found = row(report.cards, "card")
        if found is not None:
            return f"{found.fame_per_play:.1f} fame per play ({int(found.plays)} plays)"
    elif kind == "special":
        found = row(report.specials, "card")
        if found is not None:
            return (f"owners win {_pct(found.owner_win_rate)} (95% CI "
                    f"{_pct(found.owner_win_low)}-{_pct(found.owner_win_high)})")
    elif kind == "venue":
        found = row(report.venues, "area")
        if found is not None:
            return f"chosen {found.share:.0%} of the time"
    return "not measured in this arm"


def flags_compared(reports: Mapping[str, BalanceReport]) -> pd.DataFrame:
    """The balance flags of several arms as one table: one row per thing flagged in any
    arm (kind, what, the test), one column per arm (in the order given) holding that arm's
    flag, "⚑ " and the flag's words after its subject, or, where the arm raised no flag, the arm's own number
    for the same thing, so that a flag is compared across arms, not repeated per arm."""
    keys: dict[tuple[str, str], dict[str, str]] = {}
    for arm, report in reports.items():
        for flag in report.flags:
            keys.setdefault(flag_subject(flag), {})[arm] = flag
    rows = []
    for (kind, subject), flagged in keys.items():
        what = _WHAT.get(kind, "{}").format(subject)
        row: dict[str, Any] = {"kind": kind, "what": what}
        for arm, report in reports.items():
            row[arm] = ("⚑ " + _flag_rest(flagged[arm])) if arm in flagged else (
                "no flag: " + _measure(report, kind, subject))
        row["test"] = FLAG_TESTS.get(kind, "see musici.playtest.balance")
        rows.append(row)
    return pd.DataFrame(rows, columns=["kind", "what", *reports, "test"])


def combine_results(parts: Sequence[SimulationResult], config: dict[str, Any]
                    ) -> SimulationResult:
    """One result from batches played one after another: game numbers of later batches
    are shifted so that every game keeps a distinct number."""
    if not parts:
        raise ValueError("no batches to combine")
    frames: dict[str, list[pd.DataFrame]] = {name: [] for name in SimulationResult.frames}
    offset = 0
    for part in parts:
        for name in SimulationResult.frames:
            frame = getattr(part, name, None)
            if frame is None:  # e.g. no event log was kept
                continue
            frame = frame.copy()
            if "game" in frame.columns:
                frame["game"] = frame["game"] + offset
            frames[name].append(frame)
        offset += int(part.config.get("games", len(part.games)))
    joined = {name: pd.concat(list_, ignore_index=True) if list_ else None
              for name, list_ in frames.items()}
    joined = {k: v for k, v in joined.items() if v is not None or k == "events"}
    return SimulationResult(config=config, **cast(dict[str, Any], joined))


# ---------------------------------------------------------------- arms
@dataclass
class ArmSpec:
    """One arm as the designer states it: what it changes from the base.

    For the base itself every field is its own: ``rules`` the rulings that differ from the
    rules as written, ``players`` the line-up, ``cards`` a card-set file ("" the bundled
    set), ``card_edits`` card id -> its numbers (``fame`` [good, fair, poor], ``income``,
    ``authentic`` and ``modern`` [instrumental, vocal] or None). For any other arm they are
    the changes: its rulings override the base's, an empty line-up or card file means the
    base's, and its card edits apply after the base's.
    """

    name: str
    rules: dict[str, Any] = field(default_factory=dict)
    players: list[str] = field(default_factory=list)
    cards: str = ""
    card_edits: dict[str, dict[str, Any]] = field(default_factory=dict)


def card_numbers(cards: CardSet, card_id: str) -> dict[str, Any]:
    """A score or discovery card's numbers as the editor shows them."""
    if card_id not in cards.music:
        raise ValueError(f"no score or discovery card {card_id!r} in the card set "
                         f"{cards.name!r}")
    card = cards.music[card_id]
    return {"fame": list(card.fame), "income": card.income,
            "authentic": list(card.authentic) if card.authentic is not None else None,
            "modern": list(card.modern) if card.modern is not None else None}


def card_label(cards: CardSet, card_id: str) -> str:
    """"S07 A. Scarlatti: Cain, overo Il primo omicidio" style label of a card."""
    card = cards.music[card_id]
    composer = cards.composers[card.composer].name if card.composer in cards.composers \
        else card.composer
    piece = card.piece.split(" (")[0]
    return f"{card_id} {composer}: {piece}"


def _pair(value: Any) -> str:
    return "–" if value is None else f"{value[0]}+{value[1]}"


def describe_edit(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """The edited numbers in words: ``"fame 5/2/-1 → 9/6/3, income 360 → 400"``."""
    bits = []
    for name in EDIT_FIELDS:
        if name not in after or after[name] == before.get(name):
            continue
        if name == "fame":
            bits.append("fame " + "/".join(map(str, before["fame"])) + " → "
                        + "/".join(map(str, after["fame"])))
        elif name == "income":
            bits.append(f"income {before['income']} → {after['income']}")
        else:
            bits.append(f"{name} {_pair(before.get(name))} → {_pair(after[name])}")
    return ", ".join(bits) or "unchanged"


def edit_cards(base: CardSet | str | None, edits: Mapping[str, Mapping[str, Any]], *,
               name: str | None = None) -> CardSet:
    """A validated card set: ``base`` (a CardSet, a card-set file, None for the bundled
    set) with each edited card's numbers set (absolute values, see :class:`ArmSpec`). The
    loader checks every number (good >= fair >= poor, income a multiple of 5, ...) and
    names the card in its error."""
    from musici.cards import cardset_from_data
    from musici.playtest.tuning import card_document

    data = card_document(base or None)
    records = {c["id"]: c for section in ("scores", "discoveries") for c in data[section]}
    for card_id, numbers in edits.items():
        if card_id not in records:
            raise ValueError(f"no score or discovery card {card_id!r} in the card set")
        unknown = set(numbers) - set(EDIT_FIELDS)
        if unknown:
            raise ValueError(f"a card edit sets {', '.join(EDIT_FIELDS)}; got {sorted(unknown)}")
        for key, value in numbers.items():
            records[card_id][key] = list(value) if isinstance(value, (list, tuple)) else value
    if name is not None:
        data["name"] = name
    return cardset_from_data(data, name or "<edited>")


def _merged_edits(base: ArmSpec, arm: ArmSpec | None) -> dict[str, dict[str, Any]]:
    """The card edits an arm plays with: the base's, then the arm's own (per field)."""
    edits = {k: dict(v) for k, v in base.card_edits.items()}
    for card_id, numbers in (arm.card_edits if arm is not None else {}).items():
        edits[card_id] = {**edits.get(card_id, {}), **numbers}
    return edits


def _card_source(base: ArmSpec, arm: ArmSpec | None) -> str:
    return ((arm.cards.strip() if arm is not None else "") or base.cards.strip())


def _unedited(base: ArmSpec, arm: ArmSpec | None) -> CardSet:
    """The card set an arm's own edits start from: its file (or the base's, or the bundled
    set) with the base's edits, for an arm; the file alone for the base."""
    from musici.cards import load_cardset, standard_cardset

    source = _card_source(base, arm)
    cards = load_cardset(source) if source else standard_cardset()
    return edit_cards(cards, base.card_edits) if arm is not None and base.card_edits else cards


def arm_cards(base: ArmSpec, arm: ArmSpec | None = None, *, own: bool = True) -> CardSet:
    """The card set an arm plays with (``arm=None``: the base's); ``own=False``: before
    the arm's own card edits (what the card editor starts from)."""
    cards = _unedited(base, arm)
    edits = (base.card_edits if arm is None else arm.card_edits) if own else {}
    return edit_cards(cards, edits) if edits else cards


def arm_changes(base: ArmSpec, arm: ArmSpec | None = None) -> list[str]:
    """What an arm changes from the base (or, for ``arm=None``, what the base changes from
    the rules as written and the bundled cards), in short words for names and verdicts:
    ``["RULING-MEDIA-STEP=100", "S07 fame 5/2/-1 → 9/6/3"]``."""
    spec = base if arm is None else arm
    out = [f"{k}={v}" for k, v in spec.rules.items() if arm is None or base.rules.get(k) != v]
    if arm is not None and arm.players and list(arm.players) != list(base.players):
        out.append("line-up " + ",".join(arm.players))
    if spec.cards.strip() and (arm is None or spec.cards.strip() != base.cards.strip()):
        out.append(f"cards {spec.cards.strip().replace(chr(92), '/').rsplit('/', 1)[-1]}")
    if spec.card_edits:
        before = _unedited(base, arm)
        for card_id, numbers in spec.card_edits.items():
            out.append(f"{card_id} {describe_edit(card_numbers(before, card_id), numbers)}")
    return out


def arm_setups(base: ArmSpec, arms: Sequence[ArmSpec]) -> list[Setup]:
    """The base and each arm as ``compare`` takes them: an arm's rulings over the base's,
    its line-up and card file or the base's, the base's card edits and then its own.
    Names say what differs: ``"arm 1: RULING-MEDIA-STEP=100; S07 fame 5/2/-1 → 9/6/3"``;
    the base's: ``"base (rules as written)"`` or ``"base: RULING-MONTHS=6"``."""
    from musici.cards import load_cardset
    from musici.playtest.compare import Setup
    from musici.rules import RuleSet

    names = [base.name, *(a.name for a in arms)]
    if len(set(names)) != len(names) or not all(names):
        raise ValueError(f"every arm needs its own name; got {names}")
    if not 3 <= len(base.players) <= 4:
        raise ValueError(f"the base line-up needs 3 or 4 players, got {len(base.players)}")
    setups = []
    for arm in (None, *arms):
        spec = base if arm is None else arm
        rules = {**base.rules, **(arm.rules if arm is not None else {})}
        RuleSet.from_options(rules)  # a clear error for a bad ruling or value
        players = list(spec.players or base.players)
        if len(players) != len(base.players):
            raise ValueError(f"every arm needs as many players as the base to pair its games "
                             f"({spec.name}: {len(players)}, base: {len(base.players)})")
        source = _card_source(base, arm)
        cards: CardSet | None = load_cardset(source) if source else None
        edits = _merged_edits(base, arm)
        if edits:
            shown = getattr(cards, "name", "standard")
            cards = edit_cards(cards, edits, name=f"{shown} ({', '.join(edits)} edited)")
        changes = arm_changes(base, arm)
        if arm is None:
            name = f"{base.name}: " + "; ".join(changes) if changes else \
                f"{base.name} (rules as written)"
        else:
            name = f"{arm.name}: " + ("; ".join(changes) or "the same setup as the base")
        setups.append(Setup(players, rules=rules, cards=cards, name=name))
    return setups


def play_arms(setups: Sequence[Setup], games: int, *, seed: int = 0, rotate: bool = True,
              jobs: int | None = None, progress: bool | None = False,
              limits: Any = None) -> list[SimulationResult]:
    """Play every setup on the same seeds and seats, all in one batch of tasks, as
    ``compare`` plays its two arms (:func:`musici.playtest.compare.play_arms`); one result
    per setup, in order. The first is the base of :func:`arm_comparisons`."""
    from musici.playtest.compare import play_arms as play

    return play(setups, games, seed=seed, rotate=rotate, jobs=jobs, progress=progress,
                limits=limits, label="musici what-if")


def arm_comparisons(results: Sequence[SimulationResult], names: Sequence[str],
                    config: Mapping[str, Any] | None = None) -> list[Comparison]:
    """Each arm after the first against the first (the base), paired game by game."""
    from musici.playtest.compare import Comparison, paired_effects

    if len(results) != len(names) or len(results) < 2:
        raise ValueError("one name per result and at least two results are needed")
    return [Comparison(results[0], result, paired_effects(results[0], result),
                       (names[0], name), dict(config or {}))
            for result, name in zip(results[1:], names[1:], strict=True)]


def effects_of(comparisons: Sequence[Comparison]) -> pd.DataFrame:
    """The effects of every comparison in one frame, with an ``arm`` column first."""
    frames = [c.effects.assign(arm=c.names[1].split(":", 1)[0]) for c in comparisons]
    table = pd.concat(frames, ignore_index=True)
    return table[["arm", *[c for c in table.columns if c != "arm"]]]


# ---------------------------------------------------------------- fame through END
def months_through_end(result: SimulationResult) -> pd.DataFrame:
    """The months frame plus one more "month" per game and seat: the final fame and money
    after the END awards (players frame), at month ``last + 1``."""
    months = result.months
    last = int(months.month.max()) if not months.empty else 0
    final = result.players[["game", "seat", "strategy", "fame", "money"]].copy()
    final["month"] = last + 1
    final = final[[c for c in months.columns if c in final.columns]]
    return pd.concat([months, final], ignore_index=True)


def fame_through_end(result: SimulationResult, *, title: str | None = None,
                     y_range: Sequence[float] | None = None, by: str = "strategy") -> go.Figure:
    """The fan chart of fame by month with a last point "END": the final fame after the
    END awards (END.1-END.4), which can decide a game (the merchant's tours pay there).
    The awards' mean per player is shown in the hover of the END point."""
    from musici.analysis.trajectories import fan_chart

    frame = months_through_end(result)
    last = int(frame.month.max())
    fig = fan_chart(frame, by=by, value="fame", title=title)
    awards = result.players.groupby(by).award_fame.mean() if "award_fame" in \
        result.players.columns else pd.Series(dtype=float)
    for trace in fig.data:
        if trace.mode == "lines+markers" and trace.name in awards.index:
            trace.hovertemplate = (f"{trace.name}: %{{x}}, median fame %{{y}}<br>END awards: "
                                   f"{awards[trace.name]:.1f} fame per player on average"
                                   "<extra></extra>")
    ticks = list(range(1, last + 1))
    fig.update_xaxes(tickvals=ticks, ticktext=[*(str(m) for m in ticks[:-1]), "END"],
                     title_text="month; END: final fame after the END awards")
    fig.add_vrect(x0=last - 0.5, x1=last + 0.3, fillcolor="#f3e6c4", opacity=0.45,
                  line_width=0, layer="below", annotation_text="END awards",
                  annotation_position="top left", annotation_font={"size": 10})
    fig.update_layout(legend={"orientation": "h", "yanchor": "top", "y": -0.22,
                              "x": 0, "xanchor": "left"},
                      margin={"l": 60, "r": 20, "t": 80, "b": 110})
    if y_range is not None:
        fig.update_yaxes(range=list(y_range))
    return fig


def fame_range(results: Sequence[SimulationResult]) -> tuple[float, float]:
    """One y range for every arm's chart (0 to a little above the highest 95th centile)."""
    top = 0.0
    for result in results:
        frame = months_through_end(result)
        if not frame.empty:
            top = max(top, float(frame.groupby("month").fame.quantile(0.95).max()))
    return (0.0, max(10.0, top * 1.08))


# ---------------------------------------------------------------- a card in every arm
def card_plays(results: Mapping[str, SimulationResult], cards: Mapping[str, CardSet | None],
               card_ids: Sequence[str], level: float = 0.95) -> pd.DataFrame:
    """One row per card and arm: the card's numbers in that arm, its plays, its fame per
    play (after tours and restoration, with a 95 % interval), its printed fame and bonus
    per play, its income per play and the share of good ratings."""
    from musici.cards import standard_cardset

    rows = []
    for card_id in card_ids:
        for arm, result in results.items():
            cardset = cards.get(arm) or standard_cardset()
            numbers = card_numbers(cardset, card_id) if card_id in cardset.music else None
            plays = result.concerts[result.concerts.card == card_id]
            mean, low, high = mean_interval(plays.fame.astype(float).tolist(), level)
            rows.append({
                "card": card_id, "arm": arm,
                "fame (good/fair/poor)": "/".join(map(str, numbers["fame"])) if numbers else "–",
                "income": numbers["income"] if numbers else math.nan,
                "plays": len(plays),
                "fame per play": mean, "low": low, "high": high,
                "printed fame per play": float(plays.card_fame.mean()) if len(plays) else math.nan,
                "bonus per play": float(plays.bonus.mean()) if len(plays) else math.nan,
                "income per play": float(plays.income.mean()) if len(plays) else math.nan,
                "good": float((plays.rating == "good").mean()) if len(plays) else math.nan,
            })
    return pd.DataFrame(rows)


__all__ = ["FLAG_TESTS", "ArmSpec", "arm_cards", "arm_changes", "arm_comparisons", "arm_setups",
           "card_label", "card_numbers", "card_plays", "clear_effect", "combine_results",
           "describe_edit", "edit_cards", "effects_figure", "effects_of", "fame_range",
           "fame_through_end", "flag_subject", "flags_compared", "flags_table",
           "months_through_end", "play_arms"]
