"""``simulate()``: many seeded games in one call, returned as tidy pandas frames."""

from __future__ import annotations

import pickle
import sys
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import pandas as pd

from musici.cards import CardSet, check_cardset_file, load_cardset, standard_cardset
from musici.rules import RuleSet
from musici.sim.backends import (
    OnDied,
    OnDone,
    chunk_size,
    default_jobs,
    died_record,
    iter_chunks,
    play_records,
    run_dask,
    run_processes,
    run_serial,
)
from musici.sim.frames import COLUMNS, FRAME_NAMES, build_frames
from musici.sim.limits import NO_LIMITS, Limits
from musici.sim.pool import Work
from musici.sim.records import GameRecord, GameTask, TaskSource
from musici.sim.stats import mean_interval, wilson_interval
from musici.sim.store import ResultWriter, read_frames, write_part
from musici.strategies.registry import StrategySpec, make_strategy, strategy_label


class SimulationError(ValueError):
    """Bad arguments to a batch run; raised before any game is played."""


def as_rules(rules: RuleSet | Mapping[str, Any] | None) -> RuleSet:
    if rules is None:
        return RuleSet()
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, Mapping):
        return RuleSet.from_options(rules)
    raise SimulationError(f"rules must be a RuleSet or a mapping of option names, got {rules!r}")


def check_cardset_size(path: str | Path) -> None:
    """Refuse a card set file that is no regular file or is over ``MAX_CARDSET_BYTES``
    (musici.cards, which owns the limit), from its metadata; loading checks it by the bytes."""
    check_cardset_file(path)


def as_cards(cards: CardSet | str | Path | None) -> CardSet:
    if cards is None:
        return standard_cardset()
    if isinstance(cards, CardSet):
        return cards
    if isinstance(cards, str | Path):
        return load_cardset(cards)  # bounded: a regular file of at most MAX_CARDSET_BYTES
    raise SimulationError(f"cards must be a CardSet or a card-set file path, got {cards!r}")


def check_lineup(players: Sequence[StrategySpec]) -> tuple[StrategySpec, ...]:
    if isinstance(players, str):
        players = [p.strip() for p in players.split(",") if p.strip()]
    lineup = tuple(players)
    if len(lineup) not in (3, 4):
        raise SimulationError(f"I Musici is for 3 or 4 players (GOAL.1); got {len(lineup)} "
                              f"strategies: {[strategy_label(s) for s in lineup]}")
    for spec in lineup:
        make_strategy(spec)  # an unknown name or a broken factory fails here, before any game
    return lineup


def lineup_labels(lineup: Sequence[StrategySpec]) -> tuple[str, ...]:
    """Names for the frames; two different objects that would share a name get ``#entry``."""
    names = [strategy_label(s) for s in lineup]
    labels = list(names)
    for i, (name, spec) in enumerate(zip(names, lineup, strict=True)):
        if any(names[j] == name and lineup[j] is not spec and lineup[j] != spec
               for j in range(len(lineup)) if j != i):
            labels[i] = f"{name}#{i}"
    return tuple(labels)


def check_picklable(lineup: Sequence[StrategySpec]) -> None:
    """Worker processes get the line-up pickled; say so clearly instead of failing midway."""
    try:
        pickle.dumps(tuple(lineup))
    except Exception as exc:
        raise SimulationError(
            f"the line-up cannot be sent to worker processes ({type(exc).__name__}: {exc}); "
            "use jobs=1, a module-level function or class, or a 'file.py:name' spec") from None


def iter_tasks(lineup: Sequence[StrategySpec], games: int, seed: int, *, rotate: bool,
               rules: RuleSet, cards: CardSet, events: bool, arm: str = "",
               indices: Iterable[int] | None = None) -> Iterator[GameTask]:
    """The batch's games one at a time (generated lazily: a million tasks are never held)."""
    # None means the bundled set: workers then load it themselves instead of unpickling it.
    card_arg = None if cards is standard_cardset() else cards
    source = TaskSource(tuple(lineup), lineup_labels(lineup), seed, rotate, rules, card_arg,
                        events, arm)
    for i in range(games) if indices is None else indices:
        yield source.task(i)


def make_tasks(lineup: Sequence[StrategySpec], games: int, seed: int, *, rotate: bool,
               rules: RuleSet, cards: CardSet, events: bool, arm: str = ""
               ) -> tuple[list[GameTask], list[tuple[int, ...]]]:
    tasks = list(iter_tasks(lineup, games, seed, rotate=rotate, rules=rules, cards=cards,
                            events=events, arm=arm))
    return tasks, [t.entry for t in tasks]


class _Bar:
    """A tqdm progress bar when wanted, else nothing."""

    def __init__(self, total: int, show: bool | None, label: str) -> None:
        self.bar = None
        if show is None:
            show = total >= 200 and sys.stderr.isatty()
        if show:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=total, desc=label, unit="game")

    def __call__(self, n: int) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def check_jobs(jobs: int | None, scheduler: Any) -> int | None:
    """The number of local workers to use; more than the cores is capped, with a warning."""
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise SimulationError(f"jobs must be a positive integer or None (all cores), got {jobs!r}")
    if scheduler is not None:
        return jobs
    cores = default_jobs()
    if jobs is not None and jobs > cores:
        warnings.warn(f"jobs={jobs} is more than the {cores} cores available; using {cores} "
                      f"(games are CPU-bound: more workers only add memory)", stacklevel=3)
        return cores
    return jobs


def dispatch(chunks: Iterable[list[GameTask]], work: Work, *, n_games: int, jobs: int | None,
             scheduler: Any, limits: Limits, lineups: Sequence[Sequence[StrategySpec]],
             on_done: OnDone, on_died: OnDied) -> None:
    """Run ``chunks`` on the chosen back end.

    Bots run in worker processes, which the driver watches and kills (musici.sim.pool):
    always with limits, also for ``jobs=1`` and tiny batches (one worker then), and always
    for bots that are not musici's own (files, modules, callables), limits or not, so a bot
    calling ``os._exit`` or leaving a thread running cannot end or block the batch. Only a
    batch without limits that needs one process runs in this one: when every bot is
    musici's own (no start-up cost), or when the line-up cannot be pickled (a lambda, say:
    nowhere else to run it).
    """
    from musici.sim.pool import musici_bots_only

    if scheduler is not None:
        run_dask(chunks, scheduler, work, limits, on_done, on_died)
        return
    workers = default_jobs() if jobs is None else jobs
    workers = min(workers, max(1, n_games // 4))  # tiny batches: one worker
    if workers == 1 and not limits.any:
        try:
            for lineup in lineups:
                check_picklable(lineup)
        except SimulationError:
            run_serial(chunks, work, limits, on_done)  # only this process can play it
            return
        if musici_bots_only(lineups):
            run_serial(chunks, work, limits, on_done)
            return
    for lineup in lineups:
        check_picklable(lineup)
    run_processes(chunks, work, workers, limits, on_done, on_died)


def as_limits(limits: Limits | Mapping[str, Any] | None) -> Limits:
    if limits is None:
        return NO_LIMITS
    if isinstance(limits, Limits):
        return limits
    if isinstance(limits, Mapping):
        unknown = set(limits) - {"decision_seconds", "game_seconds", "memory_mb"}
        if unknown:
            raise SimulationError(f"unknown limit(s) {sorted(unknown)}; expected "
                                  f"decision_seconds, game_seconds, memory_mb")
        try:
            return Limits(**limits)
        except ValueError as exc:
            raise SimulationError(str(exc)) from None
    raise SimulationError(f"limits must be a Limits or a mapping, got {limits!r}")


def run_tasks(tasks: Sequence[GameTask], *, jobs: int | None, scheduler: Any,
              progress: bool | None, label: str = "musici", limits: Limits = NO_LIMITS
              ) -> list[GameRecord]:
    """Play ``tasks`` on the chosen back end; records come back in task order."""
    jobs = check_jobs(jobs, scheduler)
    bar = _Bar(len(tasks), progress, label)
    by_index: dict[tuple[str, int], GameRecord] = {}

    def done(chunk: list[GameTask], records: list[GameRecord]) -> None:
        for record in records:
            by_index[(record.arm, record.index)] = record
        bar(len(chunk))

    def died(task: GameTask, how: str) -> None:
        by_index[(task.arm, task.index)] = died_record(task, how)
        bar(1)

    workers = max(1, default_jobs() if jobs is None else jobs)
    size = chunk_size(len(tasks), workers) if scheduler is not None or workers > 1 else 8
    lineups = list({id(t.lineup): t.lineup for t in tasks[:8]}.values())
    try:
        dispatch(iter_chunks(tasks, size), play_records, n_games=len(tasks), jobs=jobs,
                 scheduler=scheduler, limits=limits, lineups=lineups, on_done=done, on_died=died)
    finally:
        bar.close()
    return [by_index[(t.arm, t.index)] for t in tasks]


def _empty(name: str) -> pd.DataFrame:
    return pd.DataFrame(columns=COLUMNS[name])


@dataclass
class SimulationResult:
    """The frames of a batch plus the inputs that made it (enough to run it again)."""

    games: pd.DataFrame
    players: pd.DataFrame
    months: pd.DataFrame
    concerts: pd.DataFrame
    venues: pd.DataFrame
    specials: pd.DataFrame
    errors: pd.DataFrame
    config: dict[str, Any]
    events: pd.DataFrame | None = None
    complete: bool = True  # False: a run stopped early (see ``musici simulate --resume``)
    # Frames added later default to empty, so results built by hand without them still work.
    awards: pd.DataFrame = field(default_factory=lambda: _empty("awards"))
    cards: pd.DataFrame = field(default_factory=lambda: _empty("cards"))
    frames: ClassVar[tuple[str, ...]] = FRAME_NAMES  # the names of the frame attributes

    def summary(self, level: float = 0.95) -> pd.DataFrame:
        """Win rate (Wilson interval) and mean fame (normal interval) per strategy."""
        return strategy_summary(self.players, level=level)

    def to_parquet(self, directory: str | Path, *, overwrite: bool = False) -> Path:
        """Write the frames and config as a checked result directory (:mod:`musici.sim.store`).

        The directory appears complete or not at all; a non-empty one is replaced only with
        ``overwrite=True`` (in one rename, after the new result is on disk).
        """
        config = {**self.config}
        writer = ResultWriter(directory, config, overwrite=overwrite)
        try:
            for name in self.frames:
                frame = getattr(self, name)
                if frame is not None:
                    part = write_part(writer.temp, name, 0, frame)
                    if part is not None:
                        writer.parts.append(part)
            games = int(config.get("games", len(self.games) + len(self.errors)))
            writer.chunks.append([0, games])
            done = writer.finish(complete=self.complete)
        except BaseException:
            writer.abort()
            raise
        writer.held.deliver()  # a Ctrl-C held back while the result was put in place
        return done

    @classmethod
    def read_parquet(cls, directory: str | Path, *, frames: Sequence[str] | None = None,
                     columns: Mapping[str, Sequence[str]] | None = None,
                     verify: bool = True) -> SimulationResult:
        """Read a result directory, checking its manifest, checksums and row counts.

        ``frames`` limits which frames are loaded (the others are left empty) and
        ``columns`` which columns of a frame, e.g. ``{"players": ["strategy", "win"]}``.
        A partial result (a run stopped early) loads with ``complete`` False.
        """
        wanted = list(FRAME_NAMES if frames is None else frames)
        unknown = [f for f in wanted if f not in FRAME_NAMES]
        if unknown:
            raise SimulationError(f"unknown frame(s) {', '.join(unknown)}; "
                                  f"expected some of {', '.join(FRAME_NAMES)}")
        # One consistent read: the manifest and every part through one open directory.
        manifest, read = read_frames(directory, wanted, dict(columns or {}), verify=verify)
        loaded: dict[str, Any] = {}
        for name in FRAME_NAMES:
            if name == "events" and not manifest["config"].get("events", False) and not any(
                    p["frame"] == "events" for p in manifest["parts"]):
                continue
            if name in wanted:
                loaded[name] = read[name]
            elif name != "events":
                loaded[name] = pd.DataFrame(columns=COLUMNS[name])
        return cls(config=manifest["config"], complete=bool(manifest["complete"]), **loaded)

    def __repr__(self) -> str:
        partial = "" if self.complete else f" (partial: of {self.config.get('games')})"
        return (f"<SimulationResult {len(self.games)} games{partial}, {self.config.get('players')}, "
                f"{len(self.errors)} failed>")

    def _repr_html_(self) -> str:
        from musici.html import simulation_html

        return simulation_html(self)


def strategy_summary(players: pd.DataFrame, *, by: str = "strategy", level: float = 0.95
                     ) -> pd.DataFrame:
    rows = []
    for key, group in players.groupby(by, sort=True):
        n = len(group)
        wins = float(group["win"].sum())
        low, high = wilson_interval(wins, n, level)
        mean, f_low, f_high = mean_interval(group["fame"].tolist(), level)
        rows.append({by: key, "seats_played": n, "wins": wins, "win_rate": wins / n,
                     "win_low": low, "win_high": high, "mean_fame": mean,
                     "fame_low": f_low, "fame_high": f_high,
                     "mean_money": float(group["money"].mean())})
    return pd.DataFrame(rows)


def simulate(
    players: Sequence[StrategySpec] | str = ("random", "random", "random", "random"),
    games: int = 100,
    *,
    seed: int = 0,
    rules: RuleSet | Mapping[str, Any] | None = None,
    cards: CardSet | str | Path | None = None,
    rotate: bool = True,
    events: bool = False,
    jobs: int | None = None,
    scheduler: Any = None,
    progress: bool | None = None,
    limits: Limits | Mapping[str, Any] | None = None,
) -> SimulationResult:
    """Play ``games`` seeded games and return them as tidy frames.

    ``players`` gives one strategy spec per seat (names like ``"greedy"``, files, objects;
    see :mod:`musici.strategies.registry`). With ``rotate`` the line-up moves one seat per
    game, so every strategy plays every seat equally often. Game ``i`` gets the seed
    ``game_seed(seed, i)``, whatever the back end: ``jobs`` local processes (``None``: one
    per core) or a Dask cluster (``scheduler``: a ``distributed.Client`` or an address).
    A game that raises is listed in ``errors`` with its seed; the others are kept.
    ``limits`` (a :class:`~musici.sim.limits.Limits` or a dict with ``decision_seconds``,
    ``game_seconds``, ``memory_mb``) stops a game whose bot runs too long or takes too much
    memory, and reports it in ``errors`` with the limit; limits run games in worker processes.

    >>> result = simulate(["greedy", "random", "random", "random"], games=8, jobs=1)
    >>> sorted(result.players.strategy.unique())
    ['greedy', 'random']
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SimulationError(f"games must be a positive integer, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise SimulationError(f"seed must be a non-negative integer, got {seed!r}")
    lineup = check_lineup(players)
    rule_set, card_set = as_rules(rules), as_cards(cards)
    limit_set = as_limits(limits)
    tasks, entries = make_tasks(lineup, games, seed, rotate=rotate, rules=rule_set,
                                cards=card_set, events=events)
    records = run_tasks(tasks, jobs=jobs, scheduler=scheduler, progress=progress,
                        limits=limit_set)
    frames = build_frames(records, entries, with_events=events)
    config = {
        "players": list(lineup_labels(lineup)), "games": games, "seed": seed,
        "rules": rule_set.non_default(), "cards": card_set.name,
        "cards_fingerprint": card_set.fingerprint, "rotate": rotate, "events": events,
    }
    return SimulationResult(config=config, **frames)


__all__ = ["SimulationError", "SimulationResult", "simulate", "strategy_summary"]
