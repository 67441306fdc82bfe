"""Batches that stream to disk: workers write their frames chunk by chunk, the driver counts.

:func:`simulate_to` plays a batch straight into a result directory (:mod:`musici.sim.store`):
each worker builds the frames of its chunk and writes them as parquet parts, and sends the
driver only the parts' names and a few counters per strategy. So the driver's memory does
not grow with the number of games, and a run stopped by Ctrl-C or SIGTERM keeps every
finished chunk as a partial result (``complete: false``) that :func:`resume` finishes, with
the same final frames as an uninterrupted run.
"""

from __future__ import annotations

import math
import os
import signal
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from musici.cards import CardSet
from musici.rules import RuleSet
from musici.sim.backends import chunk_size, default_jobs, died_record, iter_chunks
from musici.sim.frames import build_frames
from musici.sim.limits import Limits
from musici.sim.records import GameRecord, GameTask, play_chunk
from musici.sim.simulate import (
    SimulationError,
    _Bar,
    as_cards,
    as_limits,
    as_rules,
    check_jobs,
    check_lineup,
    dispatch,
    iter_tasks,
    lineup_labels,
)
from musici.sim.stats import wilson_interval
from musici.sim.store import ChunkDone, ResultWriter, merge_ranges, write_part
from musici.strategies.registry import StrategySpec, lineup_named_by_user, spec_fingerprint

STREAM_CHUNK = 256  # games per part up to MAX_CHUNKS chunks: a Ctrl-C loses little
# Beyond 256,000 games, chunks grow instead of multiplying: what the driver keeps per chunk
# (the manifest's parts, Dask's per-message logs, the frames of a chunk being written) then
# stays bounded, so its memory does not grow with the batch (benchmarks/bench_scale.py).
MAX_CHUNKS = 1000
CHECKPOINT_SECONDS = 5.0  # how often a run notes its progress for a resume after SIGKILL


def records_to_parts(records: Sequence[GameRecord], chunk: Sequence[GameTask], root: str,
                     with_events: bool) -> ChunkDone:
    frames = build_frames(records, [t.entry for t in chunk], with_events=with_events)
    first = chunk[0].index
    done = ChunkDone(first, chunk[-1].index + 1, ranges=merge_ranges([[t.index, t.index + 1] for t in chunk]))
    for name, frame in frames.items():
        part = write_part(root, name, first, frame)
        if part is not None:
            done.parts.append(part)
    done.failed = len(frames["errors"])
    done.games = len(frames["games"])
    done.errors = frames["errors"].error.head(10).tolist()
    players = frames["players"]
    if len(players):
        grouped = players.assign(fame2=players.fame * players.fame).groupby("strategy")
        sums = grouped[["win", "fame", "fame2", "money"]].sum()
        sizes = grouped.size()
        for strategy, row in sums.iterrows():
            done.counts[str(strategy)] = [float(sizes[strategy]), float(row.win), float(row.fame),
                                          float(row.fame2), float(row.money)]
    return done


class _WriteChunk:
    """Worker side, a picklable ``work`` for the back ends: play a chunk and write its frames
    as parts under ``root``, returning the counters (:class:`ChunkDone`).

    On Dask (``marker`` given) a worker may be on another machine: it writes only if it sees
    the marker, a file with a random name in the run's directory
    (:meth:`ResultWriter.worker_marker`; a LocalCluster's workers, or a shared file system
    mounted at the same path), looked for once the games are played, so a run that has
    stopped meanwhile (marker gone) gets no more parts. Otherwise, or when it may not write
    there, it returns the records and the driver writes them.
    """

    def __init__(self, root: str, with_events: bool, marker: str | None = None) -> None:
        self.root, self.with_events, self.marker = root, with_events, marker

    def __call__(self, chunk: list[GameTask], limits: Limits) -> ChunkDone | list[GameRecord]:
        records = play_chunk(chunk, limits)
        if self.marker is None:  # a local worker: a disk error is the caller's, as itself
            return records_to_parts(records, chunk, self.root, self.with_events)
        if os.path.exists(self.marker):
            try:
                return records_to_parts(records, chunk, self.root, self.with_events)
            except OSError:  # seen but not writable from here (another uid, read-only, full)
                pass  # the driver writes them, and reports a real disk error as itself
        return records


@dataclass
class BatchReport:
    """What a streamed batch leaves in memory: counters, not frames."""

    directory: Path
    games: int  # asked for
    played: int = 0  # finished without error
    failed: int = 0
    complete: bool = True
    kept_beside: Path | None = None  # stopped over an old result: the partial is kept here
    counts: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)  # the first few
    config: dict[str, Any] = field(default_factory=dict)

    def add(self, done: ChunkDone) -> None:
        self.played += done.games
        self.failed += done.failed
        for strategy, values in done.counts.items():
            mine = self.counts.setdefault(strategy, [0.0] * 5)
            for i, v in enumerate(values):
                mine[i] += v
        if len(self.errors) < 10:
            self.errors.extend(done.errors[:10 - len(self.errors)])

    def summary(self, level: float = 0.95) -> pd.DataFrame:
        """The same table as :meth:`SimulationResult.summary`, from the counters."""
        from statistics import NormalDist

        z = NormalDist().inv_cdf(0.5 + level / 2)
        rows = []
        for strategy in sorted(self.counts):
            n, wins, fame, fame2, money = self.counts[strategy]
            low, high = wilson_interval(wins, int(n), level)
            mean = fame / n
            half = z * math.sqrt(max(0.0, fame2 - n * mean * mean) / (n - 1) / n) if n > 1 else math.nan
            rows.append({"strategy": strategy, "seats_played": int(n), "wins": wins,
                         "win_rate": wins / n, "win_low": low, "win_high": high,
                         "mean_fame": mean, "fame_low": mean - half, "fame_high": mean + half,
                         "mean_money": money / n})
        return pd.DataFrame(rows)


def simulate_to(
    directory: str | Path,
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
    overwrite: bool = False,
) -> BatchReport:
    """:func:`musici.simulate` straight into a result directory, streaming (see the module).

    Read the frames back with :meth:`SimulationResult.read_parquet`. A Ctrl-C (or SIGTERM,
    in the ``musici`` command) leaves a partial result and raises ``KeyboardInterrupt``;
    :func:`resume` finishes it.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SimulationError(f"games must be a positive integer, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise SimulationError(f"seed must be a non-negative integer, got {seed!r}")
    lineup = check_lineup(players)
    rule_set, card_set, limit_set = as_rules(rules), as_cards(cards), as_limits(limits)
    config = {
        "players": list(lineup_labels(lineup)), "games": games, "seed": seed,
        "rules": rule_set.non_default(), "cards": card_set.name,
        "cards_fingerprint": card_set.fingerprint, "rotate": rotate, "events": events,
        "cards_path": os.path.abspath(cards) if isinstance(cards, str | Path) else None,
        "limits": {k: getattr(limit_set, k) for k in ("decision_seconds", "game_seconds",
                                                      "memory_mb")},
        # A resume checks that the bot files it is told to run are the ones that started.
        "players_fingerprints": {p: spec_fingerprint(p) for p in _text_specs(lineup)
                                 if spec_fingerprint(p) is not None},
    }
    writer = ResultWriter(directory, config, overwrite=overwrite)
    return _run(writer, lineup, rule_set, card_set, limit_set, config, jobs=jobs,
                scheduler=scheduler, progress=progress)


def resume(directory: str | Path, *, players: Sequence[str] | str | None = None,
           jobs: int | None = None, scheduler: Any = None,
           progress: bool | None = None) -> BatchReport:
    """Finish a partial result left by a stopped :func:`simulate_to` (same final frames).

    Also after the driver was killed outright (SIGKILL, power cut): the run then goes on from
    the last checkpoint its temporary directory holds (written every few seconds).

    A result directory never decides which code runs: a line-up that names bot files or
    modules is played only when ``players`` names the same line-up (``--players``), and a
    bot file must be unchanged since the run started (its SHA-256, like the card set's).
    Built-in and installed bot names need no ``players``.
    """
    writer = ResultWriter(directory, None, resume=True)
    try:
        _same_columns(writer)
        config = _resume_config(writer)
        lineup = _resume_lineup(config, players, writer.target)
        cards: Any = config.get("cards_path")
        card_set = as_cards(cards)
        if card_set.fingerprint != config["cards_fingerprint"]:
            raise SimulationError(f"the card set {cards} changed since the run started "
                                  f"(fingerprint differs); cannot resume with other cards")
        check_lineup(lineup)
        limits = as_limits({k: v for k, v in config.get("limits", {}).items() if v is not None})
    except BaseException:
        writer.abort()  # keeps a stopped or killed run's checkpoint for a later resume
        raise
    return _run(writer, lineup, as_rules(config["rules"]), card_set, limits, config, jobs=jobs,
                scheduler=scheduler, progress=progress)


def _run(writer: ResultWriter, lineup: Sequence[StrategySpec], rules: RuleSet, cards: CardSet,
         limits: Limits, config: dict[str, Any], *, jobs: int | None, scheduler: Any,
         progress: bool | None) -> BatchReport:
    games, events = config["games"], config["events"]
    report = BatchReport(writer.target, games, config=config)
    try:
        jobs = check_jobs(jobs, scheduler)
        n_before = sum(b - a for a, b in writer.done_before)
        before = writer.previous.get("counters", {})
        report.played, report.failed = before.get("played", 0), before.get("failed", 0)
        report.counts = {k: list(v) for k, v in before.get("counts", {}).items()}
        report.errors = list(before.get("errors", []))
        todo = _missing(writer.done_before, games)
        tasks = iter_tasks(lineup, games, config["seed"], rotate=config["rotate"], rules=rules,
                           cards=cards, events=events, indices=todo)
        workers = max(1, default_jobs() if jobs is None else jobs)
        size = stream_chunk_size(games - n_before, workers)
        bar = _Bar(games - n_before, progress, "musici")
        root = str(writer.temp)
        writer.checkpoint()  # from the start: a run killed at once can still be resumed

        last = [time.monotonic()]

        def on_done(chunk: list[GameTask], done: ChunkDone | list[GameRecord]) -> None:
            if not isinstance(done, ChunkDone):  # a Dask worker elsewhere: records, written here
                done = records_to_parts(done, chunk, root, events)
            writer.add(done)
            report.add(done)
            bar(len(chunk))
            if time.monotonic() - last[0] >= CHECKPOINT_SECONDS:
                _counters(writer, report)
                writer.checkpoint()
                last[0] = time.monotonic()

        def on_died(task: GameTask, how: str) -> None:
            on_done([task], [died_record(task, how)])

        # Local workers write their own parts; so do Dask workers that see the directory.
        work: Any = _WriteChunk(root, events)
        try:
            if scheduler is not None:
                work = _WriteChunk(root, events, str(writer.worker_marker()))
            dispatch(iter_chunks(tasks, size), work, n_games=games,
                     jobs=jobs, scheduler=scheduler, limits=limits, lineups=[lineup],
                     on_done=on_done, on_died=on_died)
        finally:
            writer.remove_markers()  # first: Dask chunks still running must stop writing here
            bar.close()
    except KeyboardInterrupt:
        report.complete = False
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:  # a second Ctrl-C must not cut the partial result's manifest short
            _finish(writer, report)
        finally:
            if main:
                signal.signal(signal.SIGINT, previous)
        raise Stopped(report) from None
    except Exception as exc:
        _keep_partial(writer, report, exc)
        raise
    except BaseException:
        writer.abort()
        raise
    _finish(writer, report)
    if writer.held.signal is not None:  # Ctrl-C while the complete result was put in place
        raise Stopped(report)
    return report


def stream_chunk_size(games: int, workers: int) -> int:
    """Games per chunk of a streamed batch: at most ``STREAM_CHUNK`` (about eight chunks per
    worker) unless that would make more than ``MAX_CHUNKS`` chunks."""
    return max(chunk_size(games, workers, cap=STREAM_CHUNK), -(-games // MAX_CHUNKS))


def _missing(done: list[list[int]], games: int) -> Iterator[int]:
    """The game indices not in the ``done`` ranges, lazily."""
    start = 0
    for a, b in sorted(done):
        yield from range(start, a)
        start = max(start, b)
    yield from range(start, games)


def _counters(writer: ResultWriter, report: BatchReport) -> None:
    writer.extra["counters"] = {"played": report.played, "failed": report.failed,
                                "counts": {k: list(v) for k, v in report.counts.items()},
                                "errors": list(report.errors)}


def _finish(writer: ResultWriter, report: BatchReport) -> None:
    _counters(writer, report)
    where = writer.finish(complete=report.complete)
    if writer.kept_beside:
        report.kept_beside = where


def _keep_partial(writer: ResultWriter, report: BatchReport, exc: Exception) -> None:
    """A batch that failed (not stopped) keeps the games it played as a partial result, as a
    stop does, when there are any and the disk lets it; the error then says so."""
    if report.played + report.failed == 0 or isinstance(exc, OSError):
        writer.abort()  # nothing to keep, or a disk that cannot take a manifest either
        return
    report.complete = False
    try:
        _finish(writer, report)
    except Exception:
        writer.abort()
        return
    where = report.kept_beside or report.directory
    exc.add_note(f"the {report.played + report.failed} games played are kept in {where} as a "
                 f"partial result; finish them with: musici simulate --resume "
                 f"{report.directory}")


def _text_specs(lineup: Sequence[StrategySpec]) -> list[str]:
    return [spec for spec in lineup if isinstance(spec, str)]


def _same_columns(writer: ResultWriter) -> None:
    """A partial written by a musici whose frames had other columns cannot be finished with
    this one's parts: one result would mix two schemas."""
    from musici.sim.frames import COLUMNS

    for name, info in writer.previous.get("frames", {}).items():
        if name in COLUMNS and info["columns"] != COLUMNS[name]:
            raise SimulationError(
                f"{writer.target}: the run was started by another version of musici (its "
                f"{name} frame has columns {', '.join(info['columns'])}; this version writes "
                f"{', '.join(COLUMNS[name])}); finish it with that version, or start the run "
                f"again")


def _resume_config(writer: ResultWriter) -> dict[str, Any]:
    """The run's config, checked field by field: a damaged one is one clear error."""
    config = writer.config
    where = writer.target

    def need(key: str, ok: bool, expected: str) -> None:
        if not ok:
            raise SimulationError(f"{where}: the run's config has no valid {key!r} "
                                  f"(expected {expected}); cannot resume it")

    players = config.get("players")
    need("players", isinstance(players, list) and len(players) in (3, 4)
         and all(isinstance(p, str) for p in players), "3 or 4 strategy names")
    need("games", type(config.get("games")) is int and config["games"] >= 1, "a positive integer")
    need("seed", type(config.get("seed")) is int and config["seed"] >= 0,
         "a non-negative integer")
    need("rules", isinstance(config.get("rules"), dict), "an object of rule options")
    for key in ("rotate", "events"):
        need(key, type(config.get(key)) is bool, "true or false")
    need("cards_fingerprint", isinstance(config.get("cards_fingerprint"), str), "a text")
    need("cards_path", config.get("cards_path") is None or isinstance(config["cards_path"], str),
         "a path or null")
    limits = config.get("limits", {})
    need("limits", isinstance(limits, dict) and set(limits) <= {
        "decision_seconds", "game_seconds", "memory_mb"} and all(
        v is None or (type(v) in (int, float)) for v in limits.values()), "limits or nulls")
    prints = config.get("players_fingerprints", {})
    need("players_fingerprints", isinstance(prints, dict) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in prints.items()), "file hashes")
    return config


def _resume_lineup(config: dict[str, Any], players: Sequence[str] | str | None,
                   where: Path) -> list[str]:
    """The run's own line-up, run only when the user names it if it loads code from files."""
    return lineup_named_by_user(config["players"], players, config.get("players_fingerprints",
                                                                        {}),
                                where=str(where), doing="a resume plays")


class Stopped(KeyboardInterrupt):
    """A streamed batch stopped by Ctrl-C or SIGTERM; ``report`` says what was kept."""

    def __init__(self, report: BatchReport) -> None:
        super().__init__(f"stopped after {report.played + report.failed} of {report.games} games")
        self.report = report


__all__ = ["BatchReport", "Stopped", "resume", "simulate_to"]
