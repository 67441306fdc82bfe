"""A batch's result directory on disk: complete or absent, checked when read, one writer at a time.

Layout: ``DIR/manifest.json`` and ``DIR/<frame>/<first game>.parquet`` parts (a partitioned
parquet dataset; the parts of a frame, in file-name order, are its rows in game order).
The manifest names every part with its row count and SHA-256, the batch's config, the game
ranges done and ``complete`` (false for a run stopped early, which ``--resume`` finishes).

A writer works in a temporary sibling ``.DIR.tmp-*`` and renames it into place at the end
(after fsyncs), so a reader never sees half a result; an existing DIR is swapped out only
then. A lock file ``.DIR.lock`` next to it keeps two writers apart.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import hashlib
import json
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from musici.atomic import fsync_dir, fsync_file, write_text

MANIFEST = "manifest.json"
CHECKPOINT = "checkpoint.json"  # inside a writer's temp dir: what a SIGKILLed run had done
MARKER_PREFIX = ".workers-write-"  # inside a writer's temp dir: see ResultWriter.worker_marker
FORMAT = "musici-result"
VERSION = 1


class ResultError(ValueError):
    """A result directory that is missing, incomplete, corrupt, locked or in the way."""


@dataclass(frozen=True, slots=True)
class Part:
    """One parquet file of one frame, as listed in the manifest."""

    frame: str
    file: str  # relative to the result directory
    rows: int
    sha256: str


@dataclass
class ChunkDone:
    """What a worker reports after writing a chunk: parts, game range and small counters."""

    start: int
    stop: int
    parts: list[Part] = field(default_factory=list)
    ranges: list[list[int]] = field(default_factory=list)  # the game ranges it holds
    games: int = 0
    failed: int = 0
    # strategy -> [seats, wins, fame sum, fame sum of squares, money sum]
    counts: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)  # the first few error lines


def merge_ranges(ranges: list[list[int]]) -> list[list[int]]:
    """``[start, stop)`` game ranges sorted, touching ones joined: [[0, 5], [5, 9]] is [[0, 9]]."""
    out: list[list[int]] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def file_sha256(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_part(root: str | Path, frame_name: str, first: int, frame: Any) -> Part | None:
    """Write one frame's rows of a chunk as ``root/<frame>/<first>.parquet`` (none if empty)."""
    if len(frame) == 0:
        return None
    import pyarrow as pa
    import pyarrow.parquet as pq

    rel = f"{frame_name}/{first:012d}.parquet"
    path = Path(root) / rel
    path.parent.mkdir(exist_ok=True)
    # A new file renamed into place: never rewrite in place a part a resumed run hard-linked.
    temp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), temp)
    fsync_file(temp)
    os.replace(temp, path)
    return Part(frame_name, rel, len(frame), file_sha256(path))


class _Lock:
    """An exclusive, non-blocking ``flock`` on ``.DIR.lock`` (released when the process dies)."""

    def __init__(self, path: Path, target: Path) -> None:
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(self.fd)
            if exc.errno in (errno.EAGAIN, errno.EACCES):
                raise ResultError(f"{target}: another musici run is writing there "
                                  f"(lock {path.name} is held); wait for it or pick another "
                                  f"directory") from None
            raise

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def _exchange(a: Path, b: Path) -> bool:
    """Swap two directories in one step (Linux renameat2 RENAME_EXCHANGE); False if unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    return renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0


class ResultWriter:
    """Write a result directory through a temporary sibling; see the module docstring.

    ``overwrite`` allows replacing a non-empty ``directory`` (at :meth:`finish`, in one
    rename); ``resume`` starts from the parts of the partial result already there.
    """

    def __init__(self, directory: str | Path, config: dict[str, Any] | None, *,
                 overwrite: bool = False, resume: bool = False) -> None:
        self.target = Path(os.path.abspath(directory))
        if str(directory) == "":
            raise ResultError("the output directory is an empty string; name a directory")
        parent, name = self.target.parent, self.target.name
        if self.target.exists() and not self.target.is_dir():
            raise ResultError(f"{self.target}: exists and is not a directory")
        parent.mkdir(parents=True, exist_ok=True)
        self._lock = _Lock(parent / f".{name}.lock", self.target)
        try:
            self.config: dict[str, Any] = config or {}  # resume: the run's own config
            self.chunks: list[list[int]] = []
            self.parts: list[Part] = []
            self.done_before: list[list[int]] = []
            # (game ranges, parts) of each chunk reported since the start or the resume: only
            # what the manifest lists, so a million-game run keeps little per chunk.
            self.done: list[tuple[list[list[int]], list[Part]]] = []
            self.extra: dict[str, Any] = {}  # more fields for the manifest (e.g. counters)
            self.previous: dict[str, Any] = {}  # the manifest a resumed run started from
            adopt = self._best_checkpoint(parent, name) if resume else None
            for stale in parent.glob(f".{name}.tmp-*"):  # a writer killed before it finished
                if stale != adopt:
                    shutil.rmtree(stale, ignore_errors=True)
            busy = self.target.is_dir() and any(self.target.iterdir())
            if busy and not (overwrite or resume):
                raise ResultError(f"{self.target} is not empty; give --overwrite (overwrite=True) "
                                  f"to replace it, or --resume to finish a partial run there")
            if adopt is not None:  # a run killed outright (SIGKILL): go on from its checkpoint
                self.temp = adopt
                self._adopt_checkpoint()
                return
            self.temp = Path(tempfile.mkdtemp(prefix=f".{name}.tmp-", dir=parent))
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(self.temp, 0o777 & ~umask)  # mkdtemp's 0700 is for secrets, not results
            if resume:
                self._adopt()
        except BaseException:
            if getattr(self, "temp", None) is not None:
                shutil.rmtree(self.temp, ignore_errors=True)
            self._lock.release()
            raise

    def _best_checkpoint(self, parent: Path, name: str) -> Path | None:
        """The killed writer's temp dir with the most games checkpointed, if more than DIR has."""
        best, best_games = None, -1
        if (self.target / MANIFEST).is_file():
            best_games = int(read_manifest(self.target).get("games_done", 0))
        for stale in parent.glob(f".{name}.tmp-*"):
            try:
                games = int(_load_manifest(stale / CHECKPOINT).get("games_done", 0))
            except (ResultError, ValueError, TypeError):
                continue
            if games > best_games:
                best, best_games = stale, games
        return best

    def worker_marker(self) -> Path:
        """A new file with a random name in the temp dir: a worker that sees it may write its
        parts there (a like-named directory on another machine lacks it). The writer removes
        every marker before the result is finished or adopted by a resume."""
        marker = self.temp / f"{MARKER_PREFIX}{secrets.token_hex(8)}"
        marker.touch()
        return marker

    def remove_markers(self) -> None:
        for marker in self.temp.glob(f"{MARKER_PREFIX}*"):
            marker.unlink(missing_ok=True)

    def _adopt_checkpoint(self) -> None:
        self.remove_markers()  # the killed run's workers must stop taking this dir for theirs
        manifest = _load_manifest(self.temp / CHECKPOINT)
        verify_parts(self.temp, manifest)
        self.parts = [Part(**entry) for entry in manifest["parts"]]
        self._take(manifest)

    def _take(self, manifest: dict[str, Any]) -> None:
        self.previous = manifest
        self.config = manifest["config"]
        self.chunks = [list(c) for c in manifest["chunks"]]
        self.done_before = [list(c) for c in manifest["chunks"]]

    def checkpoint(self) -> None:
        """Record the chunks done so far inside the temp dir, for ``resume`` after a SIGKILL."""
        write_text(self.temp / CHECKPOINT, json.dumps(self._manifest(False), default=str))

    def _adopt(self) -> None:
        manifest = read_manifest(self.target)
        if manifest["complete"]:
            raise ResultError(f"{self.target} holds a complete run; nothing to resume")
        verify_parts(self.target, manifest)
        for entry in manifest["parts"]:
            part = Part(**entry)
            dest = self.temp / part.file
            dest.parent.mkdir(exist_ok=True)
            try:
                os.link(self.target / part.file, dest)
            except OSError:
                shutil.copy2(self.target / part.file, dest)
            self.parts.append(part)
        self._take(manifest)

    def add(self, done: ChunkDone) -> None:
        # One append: a Ctrl-C landing here can never record parts without their games.
        self.done.append((done.ranges or [[done.start, done.stop]], done.parts))

    def _manifest(self, complete: bool) -> dict[str, Any]:
        from musici.sim.frames import COLUMNS

        done = list(self.done)
        parts = self.parts + [p for _, chunk_parts in done for p in chunk_parts]
        chunks = merge_ranges(self.chunks + [r for ranges, _ in done for r in ranges])
        return {
            "format": FORMAT, "version": VERSION, "complete": complete,
            "games_done": sum(b - a for a, b in chunks), "chunks": chunks,
            "config": self.config,
            "frames": {name: {"rows": sum(p.rows for p in parts if p.frame == name),
                              "columns": COLUMNS[name]} for name in COLUMNS},
            "parts": [{"frame": p.frame, "file": p.file, "rows": p.rows, "sha256": p.sha256}
                      for p in sorted(parts, key=lambda p: p.file)],
            **self.extra,
        }

    def finish(self, *, complete: bool) -> Path:
        """Write the manifest and put the directory in place (replacing any old one)."""
        try:
            self.remove_markers()
            manifest = self._manifest(complete)
            listed = {p["file"] for p in manifest["parts"]}
            with contextlib.suppress(FileNotFoundError):
                (self.temp / CHECKPOINT).unlink()
            for sub in self.temp.iterdir():
                if sub.is_dir():
                    for path in sub.iterdir():  # parts of chunks never reported (killed mid-way)
                        if f"{sub.name}/{path.name}" not in listed:
                            path.unlink()
                    fsync_dir(sub)
            write_text(self.temp / MANIFEST, json.dumps(manifest, indent=1, default=str))
            fsync_dir(self.temp)
            self._put_in_place()
            return self.target
        finally:
            self.abort()

    def _put_in_place(self) -> None:
        parent = self.target.parent
        if self.target.is_dir() and any(self.target.iterdir()):
            if not _exchange(self.temp, self.target):  # not Linux: two renames, a short gap
                old = Path(tempfile.mkdtemp(prefix=f".{self.target.name}.tmp-", dir=parent))
                os.rename(self.target, old / "old")
                os.rename(self.temp, self.target)
                self.temp = old
        else:
            with contextlib.suppress(FileNotFoundError):
                self.target.rmdir()  # an empty directory (e.g. made by a caller) is replaced
            os.rename(self.temp, self.target)
        fsync_dir(parent)

    def abort(self) -> None:
        """Remove the temporary directory (what it held is lost) and release the lock."""
        if self.temp.exists():
            shutil.rmtree(self.temp, ignore_errors=True)
        self._lock.release()


def read_manifest(directory: str | Path) -> dict[str, Any]:
    src = Path(directory)
    if str(directory) == "":
        raise ResultError("the result directory is an empty string; name a directory")
    path = src / MANIFEST
    if not path.is_file():
        if not src.is_dir():
            raise ResultError(f"{src}: no such result directory")
        if (src / "config.json").is_file():
            raise ResultError(f"{src} has no {MANIFEST}: written by an older musici (or its "
                              f"writing was interrupted); run the batch again")
        raise ResultError(f"{src} holds no saved simulation ({MANIFEST} is missing)")
    return _load_manifest(path)


def _load_manifest(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise ResultError(f"{path} is missing")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ResultError(f"{path}: unreadable manifest ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ResultError(f"{path}: not a musici result manifest")
    if manifest.get("version") != VERSION:
        raise ResultError(f"{path}: result version {manifest.get('version')!r} is not supported; "
                          f"this musici reads version {VERSION}")
    for key in ("complete", "config", "frames", "parts", "chunks"):
        if key not in manifest:
            raise ResultError(f"{path}: manifest lacks {key!r}")
    return manifest


def verify_parts(directory: Path, manifest: dict[str, Any], frames: Iterable[str] | None = None
                 ) -> None:
    """Every listed part is there with its checksum; the row counts add up."""
    wanted = set(frames) if frames is not None else None
    totals: dict[str, int] = {}
    for entry in manifest["parts"]:
        if wanted is not None and entry["frame"] not in wanted:
            continue
        path = directory / entry["file"]
        if not path.is_file():
            raise ResultError(f"{directory}: part {entry['file']} is missing")
        if file_sha256(path) != entry["sha256"]:
            raise ResultError(f"{directory}: part {entry['file']} does not match its checksum "
                              f"(changed or damaged after it was written)")
        totals[entry["frame"]] = totals.get(entry["frame"], 0) + entry["rows"]
    for name, info in manifest["frames"].items():
        if (wanted is None or name in wanted) and totals.get(name, 0) != info["rows"]:
            raise ResultError(f"{directory}: frame {name} should have {info['rows']} rows, "
                              f"its parts hold {totals.get(name, 0)}")


def read_frame(directory: Path, manifest: dict[str, Any], name: str,
               columns: Sequence[str] | None = None) -> Any:
    """One frame as pandas, from its parts in game order, with only ``columns`` if given."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    expected = manifest["frames"][name]["columns"]
    if columns is not None:
        unknown = [c for c in columns if c not in expected]
        if unknown:
            raise ResultError(f"frame {name} has no column(s) {', '.join(unknown)}; "
                              f"it has {', '.join(expected)}")
    parts = [p for p in manifest["parts"] if p["frame"] == name]
    if not parts:
        cols = list(columns) if columns is not None else expected
        return pd.DataFrame({c: pd.Series(dtype="object") for c in cols})
    tables = []
    for p in parts:
        try:
            table = pq.read_table(directory / p["file"], columns=columns)
        except (OSError, pa.ArrowException) as exc:
            raise ResultError(f"{directory}: cannot read part {p['file']}: {exc}") from None
        got = table.column_names
        want = list(columns) if columns is not None else expected
        if got != want:
            raise ResultError(f"{directory}: part {p['file']} has columns {got}, expected {want}")
        tables.append(table)
    return pa.concat_tables(tables, promote_options="default").to_pandas()


__all__ = ["MANIFEST", "ChunkDone", "Part", "ResultError", "ResultWriter", "read_frame",
           "read_manifest", "verify_parts", "write_part"]
