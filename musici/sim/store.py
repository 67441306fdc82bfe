"""A batch's result directory on disk: complete or absent, checked when read, one writer at a time.

Layout: ``DIR/manifest.json`` and ``DIR/<frame>/<first game>.parquet`` parts (a partitioned
parquet dataset; the parts of a frame, in file-name order, are its rows in game order).
The manifest names every part with its row count and SHA-256, the batch's config, the game
ranges done, the run's id and ``complete`` (false for a run stopped early, which
``--resume`` finishes).

A writer works in a temporary sibling ``.DIR.tmp-<16 hex>`` and renames it into place at
the end (after fsyncs), so a reader never sees half a result. What may be replaced: an
empty directory or a musici result (its manifest), never a symbolic link nor anything else.
An existing result is only ever replaced by a *complete* one: a run stopped early over an
existing result keeps its partial beside it (a checkpoint in its temp dir) for ``--resume``.
Ctrl-C and SIGTERM are held back while a result is being put in place.

A lock file ``.DIR.lock`` next to it keeps two writers apart and records the id of the last
run started on DIR: ``--resume`` adopts a checkpoint only from that run, only from a temp
dir and file owned by the same user (a planted checkpoint is never adopted).

Readers open the directory once and every part once, through that directory's descriptor,
checksumming the very bytes they parse: a result replaced meanwhile is read whole, old or
new, never mixed.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import hashlib
import json
import os
import re
import secrets
import shutil
import signal
import stat
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from musici.atomic import fsync_dir, fsync_file, write_text

MANIFEST = "manifest.json"
CHECKPOINT = "checkpoint.json"  # inside a writer's temp dir: what a SIGKILLed run had done
MARKER_PREFIX = ".workers-write-"  # inside a writer's temp dir: see ResultWriter.worker_marker
FORMAT = "musici-result"
VERSION = 1
MAX_MANIFEST_BYTES = 64 * 2**20  # a million-game manifest is about 1 MB
READ_ATTEMPTS = 3  # a read that meets a replaced result starts again, this many times at most
MAX_GAMES = 2**40  # more games than any batch could play: a bound for a manifest's numbers
_TEMP_TAIL = re.compile(r"\.tmp-[0-9a-f]{16}")  # after ".DIR": a writer's temp dir, exactly
_PART_FILE = re.compile(r"([a-z]+)/([0-9]{12})\.parquet")  # what write_part names a part
_RUN_ID = re.compile(r"[0-9a-f]{16}")


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
    """An exclusive, non-blocking ``flock`` on ``.DIR.lock`` (released when the process dies).

    The file also records the id of the run that holds it, so a later ``--resume`` knows
    which run's checkpoint is DIR's own. It must be a regular file of this user's.
    """

    def __init__(self, path: Path, target: Path) -> None:
        try:
            self.fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise ResultError(f"{target}: its lock file {path.name} is a symbolic link; "
                                  f"musici does not follow it (remove it)") from None
            raise
        info = os.fstat(self.fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
            os.close(self.fd)
            raise ResultError(f"{target}: its lock file {path} is not a regular file of yours "
                              f"(owner uid {info.st_uid}); remove it if it should not be there")
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(self.fd)
            if exc.errno in (errno.EAGAIN, errno.EACCES):
                raise ResultError(f"{target}: another musici run is writing there "
                                  f"(lock {path.name} is held); wait for it or pick another "
                                  f"directory") from None
            raise

    def recorded(self) -> str:
        """The id of the last run started on DIR ("" if none was recorded)."""
        text = os.pread(self.fd, 64, 0).decode("ascii", "replace").strip()
        return text if _RUN_ID.fullmatch(text) else ""

    def record(self, run_id: str) -> None:
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, run_id.encode("ascii"), 0)
        os.fsync(self.fd)

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


class _HeldSignals:
    """Ctrl-C and SIGTERM held back (noted, not acted on) while a result is put in place."""

    def __init__(self) -> None:
        self.signal: int | None = None
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> _HeldSignals:
        if threading.current_thread() is threading.main_thread():
            for signum in (signal.SIGINT, signal.SIGTERM):
                self._previous[signum] = signal.signal(signum, self._hold)
        return self

    def _hold(self, signum: int, frame: object) -> None:
        if self.signal is None:
            self.signal = signum

    def __exit__(self, *exc: object) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)

    def deliver(self) -> None:
        """Act on a held signal now, as its own handler would have."""
        if self.signal is not None:
            signal.raise_signal(self.signal)


def target_state(target: Path) -> str:
    """What is at a result path: "absent", "empty", "result" (a musici manifest) or "other".

    Raises for what musici never writes through or over: a symbolic link, a non-directory.
    """
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return "absent"
    if stat.S_ISLNK(info.st_mode):
        raise ResultError(f"{target} is a symbolic link; musici does not write through links "
                          f"(name the directory it points to, {os.path.realpath(target)})")
    if not stat.S_ISDIR(info.st_mode):
        raise ResultError(f"{target}: exists and is not a directory")
    if os.path.ismount(target):  # a result is put in place by a rename, which a mount refuses
        raise ResultError(f"{target} is a mount point; musici puts a result in place by "
                          f"renaming a directory, which a mount point cannot be: name a "
                          f"directory inside it")
    with os.scandir(target) as entries:
        if next(entries, None) is None:
            return "empty"
    manifest = target / MANIFEST
    if manifest.is_file() and not manifest.is_symlink():
        try:
            with _open_regular(manifest) as f:
                head = json.loads(f.read(MAX_MANIFEST_BYTES + 1))
        except (OSError, ValueError, RecursionError):
            return "other"
        if isinstance(head, dict) and head.get("format") == FORMAT:
            return "result"
    return "other"


def check_target(target: str | Path, *, overwrite: bool) -> str:
    """Refuse, before any game, an output path a new run may not write; return its state."""
    path = Path(os.path.abspath(target))
    state = target_state(path)
    if state == "result" and not overwrite:
        raise ResultError(f"{path} is not empty; give --overwrite (overwrite=True) to replace it, "
                          f"or --resume to finish a partial run there")
    if state == "other":
        raise ResultError(f"{path} is not empty and is not a musici result (no valid "
                          f"{MANIFEST}); musici replaces only its own results or an empty "
                          f"directory: pick another directory")
    return state


def _temps(parent: Path, name: str) -> Iterator[Path]:
    """The temp dirs of writers to ``parent/name`` (not those of ``name.tmp-1`` or the like)."""
    prefix = f".{name}"
    with os.scandir(parent) as entries:
        for entry in entries:
            if entry.name.startswith(prefix) and _TEMP_TAIL.fullmatch(entry.name[len(prefix):]):
                yield Path(entry.path)


def _owned_dir(path: Path) -> bool:
    """A real directory (not a link) owned by this user."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid()


def _open_regular(path: Path, dir_fd: int | None = None, *, owned: bool = False) -> Any:
    """Open a regular file for reading, never through a link, without blocking on a FIFO."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ResultError(f"{path} is a symbolic link; a result's files never are") from None
        raise
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or (owned and info.st_uid != os.getuid()):
        os.close(fd)
        what = "not a regular file" if not stat.S_ISREG(info.st_mode) else "not yours"
        raise ResultError(f"{path} is {what}")
    return os.fdopen(fd, "rb")


class ResultWriter:
    """Write a result directory through a temporary sibling; see the module docstring.

    ``overwrite`` allows replacing a musici result already in ``directory`` (once the new
    result is complete); ``resume`` goes on from the partial result there, or from the
    checkpoint of DIR's own last run (stopped over an old result, or killed outright).
    """

    def __init__(self, directory: str | Path, config: dict[str, Any] | None, *,
                 overwrite: bool = False, resume: bool = False) -> None:
        if str(directory) == "":
            raise ResultError("the output directory is an empty string; name a directory")
        self.target = Path(os.path.abspath(directory))
        parent, name = self.target.parent, self.target.name
        state = target_state(self.target)
        if not resume:
            check_target(self.target, overwrite=overwrite)
        elif state == "other":
            raise ResultError(f"{self.target} holds no saved simulation ({MANIFEST} is missing "
                              f"or is not a musici manifest)")
        parent.mkdir(parents=True, exist_ok=True)
        self._lock = _Lock(parent / f".{name}.lock", self.target)
        self.temp = Path()  # set below; Path() means none yet
        self.kept_beside = False  # a stopped run left its partial beside an old result
        self.adopted = False  # the temp dir is a stopped or killed run's, kept on abort
        self.held = _HeldSignals()
        try:
            self.config: dict[str, Any] = config or {}  # resume: the run's own config
            self.run_id = secrets.token_hex(8)
            self.chunks: list[list[int]] = []
            self.parts: list[Part] = []
            self.done_before: list[list[int]] = []
            # (game ranges, parts) of each chunk reported since the start or the resume: only
            # what the manifest lists, so a million-game run keeps little per chunk.
            self.done: list[tuple[list[list[int]], list[Part]]] = []
            self.extra: dict[str, Any] = {}  # more fields for the manifest (e.g. counters)
            self.previous: dict[str, Any] = {}  # the manifest a resumed run started from
            if resume:
                self._start_resume(parent, name, state)
            else:
                self._start_new(parent, name, overwrite)
            self._lock.record(self.run_id)
        except BaseException:
            if self.temp != Path() and not self.kept_beside:
                shutil.rmtree(self.temp, ignore_errors=True)
            self._lock.release()
            raise

    def _checkpoints(self, parent: Path, name: str) -> list[tuple[Path, dict[str, Any]]]:
        """DIR's own checkpoints: this user's, of the last run started on DIR (a checkpoint
        with no run id, or with no run recorded in the lock, is nobody's: never adopted)."""
        recorded = self._lock.recorded()
        if not recorded:
            return []
        found = []
        for temp in _temps(parent, name):
            if not _owned_dir(temp):
                continue
            try:
                manifest = _load_manifest(temp / CHECKPOINT, owned=True)
            except (ResultError, OSError):
                continue
            if manifest.get("run", "") == recorded:
                found.append((temp, manifest))
        return found

    def _start_new(self, parent: Path, name: str, overwrite: bool) -> None:
        if not overwrite:
            for temp, manifest in self._checkpoints(parent, name):
                if manifest["games_done"] > 0:
                    raise ResultError(
                        f"{self.target}: a stopped run's {manifest['games_done']} games are kept "
                        f"beside it (in {temp.name}); finish them with --resume {self.target}, "
                        f"or give --overwrite to discard them")
        for stale in _temps(parent, name):  # writers killed or stopped before they finished
            if _owned_dir(stale):
                shutil.rmtree(stale, ignore_errors=True)
        self.temp = self._new_temp(parent, name)

    def _start_resume(self, parent: Path, name: str, state: str) -> None:
        best: tuple[Path, dict[str, Any]] | None = None
        for temp, manifest in self._checkpoints(parent, name):
            if best is None or manifest["games_done"] > best[1]["games_done"]:
                best = (temp, manifest)
        here = read_manifest(self.target) if state == "result" else None
        use_here = here is not None and not here["complete"] and (
            best is None or (here.get("run", "") == best[1].get("run", "")
                             and here["games_done"] >= best[1]["games_done"]))
        if best is None and not use_here:
            if here is not None:
                raise ResultError(f"{self.target} holds a complete run; nothing to resume")
            raise ResultError(f"{self.target}: no partial result and no checkpoint of a run "
                              f"started there; nothing to resume")
        for stale in _temps(parent, name):
            if _owned_dir(stale) and (use_here or best is None or stale != best[0]):
                shutil.rmtree(stale, ignore_errors=True)
        if use_here:
            assert here is not None
            self.temp = self._new_temp(parent, name)
            self._adopt(here)
        else:
            assert best is not None
            self._adopt_checkpoint(*best)

    @staticmethod
    def _new_temp(parent: Path, name: str) -> Path:
        umask = os.umask(0)
        os.umask(umask)
        while True:
            temp = parent / f".{name}.tmp-{secrets.token_hex(8)}"
            try:
                os.mkdir(temp, 0o777 & ~umask)
                return temp
            except FileExistsError:  # pragma: no cover - 64 random bits
                continue

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

    def _adopt_checkpoint(self, temp: Path, manifest: dict[str, Any]) -> None:
        verify_parts(temp, manifest)  # a damaged checkpoint is refused, and left as it is
        self.temp, self.adopted = temp, True
        self.remove_markers()  # the killed run's workers must stop taking this dir for theirs
        self.parts = [Part(**entry) for entry in manifest["parts"]]
        self._take(manifest)

    def _take(self, manifest: dict[str, Any]) -> None:
        self.previous = manifest
        self.config = manifest["config"]
        self.run_id = manifest.get("run") or self.run_id
        self.chunks = [list(c) for c in manifest["chunks"]]
        self.done_before = [list(c) for c in manifest["chunks"]]

    def checkpoint(self) -> None:
        """Record the chunks done so far inside the temp dir, for ``resume`` after a SIGKILL."""
        write_text(self.temp / CHECKPOINT, json.dumps(self._manifest(False), default=str))

    def _adopt(self, manifest: dict[str, Any]) -> None:
        """Start from the partial result in DIR: its parts linked (or copied) into the temp."""
        verify_parts(self.target, manifest)
        src = os.open(self.target, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        try:
            for entry in manifest["parts"]:
                part = Part(**entry)
                (self.temp / part.frame).mkdir(exist_ok=True)
                try:
                    os.link(part.file, self.temp / part.file, src_dir_fd=src,
                            follow_symlinks=False)
                except OSError:  # another file system: a copy, never over an existing file
                    with _open_regular(Path(part.file), src) as f_in, \
                            open(self.temp / part.file, "xb") as f_out:
                        shutil.copyfileobj(f_in, f_out)
                self.parts.append(part)
        finally:
            os.close(src)
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
            "format": FORMAT, "version": VERSION, "complete": complete, "run": self.run_id,
            "games_done": sum(b - a for a, b in chunks), "chunks": chunks,
            "config": self.config,
            "frames": {name: {"rows": sum(p.rows for p in parts if p.frame == name),
                              "columns": COLUMNS[name]} for name in COLUMNS},
            "parts": [{"frame": p.frame, "file": p.file, "rows": p.rows, "sha256": p.sha256}
                      for p in sorted(parts, key=lambda p: p.file)],
            **self.extra,
        }

    def finish(self, *, complete: bool) -> Path:
        """Write the manifest and put the directory in place (replacing any old result).

        A partial result (``complete=False``) never replaces a result already there: it
        stays beside it as a checkpoint for ``--resume`` (``kept_beside``; its path is
        returned). Ctrl-C and SIGTERM wait until the result is in place (see ``held``).
        """
        with self.held:
            try:
                return self._finish(complete)
            finally:
                self.abort()

    def _finish(self, complete: bool) -> Path:
        self.remove_markers()
        manifest = self._manifest(complete)
        if not complete and target_state(self.target) == "result":
            write_text(self.temp / CHECKPOINT, json.dumps(manifest, default=str))
            self.kept_beside = True
            return self.temp
        # All games noted first: a kill from here on leaves them for --resume.
        write_text(self.temp / CHECKPOINT, json.dumps(self._manifest(False), default=str))
        listed = {p["file"] for p in manifest["parts"]}
        for sub in self.temp.iterdir():
            if sub.is_dir() and not sub.is_symlink():
                for path in sub.iterdir():  # parts of chunks never reported (killed mid-way)
                    if f"{sub.name}/{path.name}" not in listed:
                        path.unlink()
                fsync_dir(sub)
        write_text(self.temp / MANIFEST, json.dumps(manifest, indent=1, default=str))
        fsync_dir(self.temp)
        try:
            self._put_in_place()
        except OSError as exc:  # the games stay beside DIR, with their checkpoint
            self.kept_beside = True
            raise ResultError(
                f"{self.target}: the result could not be put in place ({exc.strerror or exc}); "
                f"its {manifest['games_done']} games are kept beside it in {self.temp.name}: "
                f"remove the cause and finish with --resume {self.target}") from None
        with contextlib.suppress(OSError):  # a kill before this leaves it, unread, in DIR
            (self.target / CHECKPOINT).unlink()
        return self.target

    def _put_in_place(self) -> None:
        parent = self.target.parent
        state = target_state(self.target)
        if state == "result":
            if not _exchange(self.temp, self.target):  # not Linux: two renames, a short gap
                old = self._new_temp(parent, self.target.name)
                os.rename(self.target, old / "old")
                os.rename(self.temp, self.target)
                self.temp = old
            self.adopted = False  # self.temp now holds the old result: removed by abort()
        elif state in ("absent", "empty"):
            with contextlib.suppress(FileNotFoundError):
                self.target.rmdir()  # an empty directory (e.g. made by a caller) is replaced
            os.rename(self.temp, self.target)
        else:  # something else appeared there while the run played
            raise ResultError(f"{self.target} is no longer empty nor a musici result; "
                              f"the new result was not put there")
        fsync_dir(parent)

    def abort(self) -> None:
        """Remove the temporary directory (what it held is lost) and release the lock.

        A partial kept beside an old result (``kept_beside``), or an adopted checkpoint
        (a resume refused or failed), stays for the next ``--resume``."""
        keep = self.kept_beside or (self.adopted and (self.temp / CHECKPOINT).is_file())
        if self.temp != Path() and not keep and _owned_dir(self.temp):
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


def _load_manifest(path: Path, dir_fd: int | None = None, *, owned: bool = False,
                   shown: Path | None = None) -> dict[str, Any]:
    """Read and check a manifest (``path`` relative to ``dir_fd`` if given; ``shown`` is
    the path its errors name)."""
    opened, path = path, shown or path
    try:
        with _open_regular(opened, dir_fd, owned=owned) as f:
            data = f.read(MAX_MANIFEST_BYTES + 1)
    except FileNotFoundError:
        raise ResultError(f"{path} is missing") from None
    except OSError as exc:
        raise ResultError(f"{path}: unreadable manifest ({exc.strerror or exc})") from None
    if len(data) > MAX_MANIFEST_BYTES:
        raise ResultError(f"{path}: a manifest of more than {MAX_MANIFEST_BYTES // 2**20} MB; "
                          f"not a musici result manifest")
    from musici.cards import parse_json  # strict: no duplicate keys, NaN or Infinity

    try:
        manifest = parse_json(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise ResultError(f"{path}: unreadable manifest ({reason})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ResultError(f"{path}: not a musici result manifest")
    if type(manifest.get("version")) is not int or manifest.get("version") != VERSION:
        raise ResultError(f"{path}: result version {manifest.get('version')!r} is not supported; "
                          f"this musici reads version {VERSION}")
    check_manifest(manifest, path)
    return manifest


def _is_int(value: Any, low: int = 0) -> bool:
    return type(value) is int and value >= low


def check_manifest(manifest: dict[str, Any], path: Path | str) -> None:
    """Every field a reader or a resume uses has its type and shape; one clear error if not."""
    from musici.sim.frames import COLUMNS

    def bad(what: str) -> ResultError:
        return ResultError(f"{path}: damaged manifest: {what}")

    for key in ("complete", "config", "frames", "parts", "chunks"):
        if key not in manifest:
            raise ResultError(f"{path}: manifest lacks {key!r}")
    if type(manifest["complete"]) is not bool:
        raise bad("'complete' is not true or false")
    if not isinstance(manifest["config"], dict):
        raise bad("'config' is not an object")
    run = manifest.get("run", "")
    if not isinstance(run, str) or (run and not _RUN_ID.fullmatch(run)):
        raise bad("'run' is not a run id")
    chunks = manifest["chunks"]
    games = manifest["config"].get("games")
    most = games if _is_int(games, 1) else MAX_GAMES
    if not isinstance(chunks, list) or not all(
            isinstance(c, list) and len(c) == 2 and _is_int(c[0]) and _is_int(c[1])
            and c[0] < c[1] <= most for c in chunks):
        raise bad(f"'chunks' is not a list of [start, stop] game ranges within 0..{most}")
    manifest.setdefault("games_done", sum(b - a for a, b in chunks))
    if not _is_int(manifest["games_done"]) or manifest["games_done"] > most:
        raise bad(f"'games_done' is not an integer within 0..{most}")
    frames = manifest["frames"]
    if not isinstance(frames, dict) or not all(
            name in COLUMNS and isinstance(info, dict) and _is_int(info.get("rows"))
            and isinstance(info.get("columns"), list)
            and all(isinstance(c, str) for c in info["columns"])
            for name, info in frames.items()):
        raise bad("'frames' is not a map of frame names to rows and columns")
    parts = manifest["parts"]
    if not isinstance(parts, list):
        raise bad("'parts' is not a list")
    seen: set[str] = set()
    for entry in parts:
        if not isinstance(entry, dict) or set(entry) != {"frame", "file", "rows", "sha256"}:
            raise bad(f"a part is not {{frame, file, rows, sha256}}: {str(entry)[:80]!r}")
        file, frame = entry["file"], entry["frame"]
        match = _PART_FILE.fullmatch(file) if isinstance(file, str) else None
        if match is None or match.group(1) != frame or frame not in frames:
            # Confined to DIR/<frame>/<12 digits>.parquet: no "..", no absolute path.
            raise bad(f"part file {str(file)[:80]!r} is not <frame>/<12 digits>.parquet of a "
                      f"listed frame")
        if file in seen:
            raise bad(f"part {file} is listed twice")
        seen.add(file)
        if not _is_int(entry["rows"]) or not (
                isinstance(entry["sha256"], str) and re.fullmatch(r"[0-9a-f]{64}", entry["sha256"])):
            raise bad(f"part {file} has no valid row count or SHA-256")


class _Snapshot:
    """One result directory held open: every file read through its descriptor, once."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        try:
            self.fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError as exc:
            if exc.errno == errno.ENOENT:
                raise ResultError(f"{directory}: no such result directory") from None
            if exc.errno in (errno.ELOOP, errno.ENOTDIR) and directory.is_dir():
                self.fd = os.open(os.path.realpath(directory), os.O_RDONLY | os.O_DIRECTORY)
            elif exc.errno == errno.ENOTDIR:
                raise ResultError(f"{directory}: not a directory") from None
            else:
                raise ResultError(f"{directory}: cannot open ({exc.strerror})") from None
        opened = os.fstat(self.fd)
        self.identity = (opened.st_dev, opened.st_ino)
        self.subdirs: dict[str, int] = {}

    def replaced(self) -> bool:
        """Whether the path now names another directory (an --overwrite put its result in
        place while this read was under way, and then removed the old one)."""
        try:
            now = os.stat(self.directory)
        except OSError:
            return True
        return (now.st_dev, now.st_ino) != self.identity

    def manifest(self) -> dict[str, Any]:
        try:
            os.stat(MANIFEST, dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return read_manifest(self.directory)  # its clear words for what is missing
        return _load_manifest(Path(MANIFEST), self.fd, shown=self.directory / MANIFEST)

    def open_part(self, entry: dict[str, Any]) -> Any:
        frame, name = entry["file"].split("/")
        if frame not in self.subdirs:
            try:
                self.subdirs[frame] = os.open(frame, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW,
                                              dir_fd=self.fd)
            except OSError:
                raise ResultError(f"{self.directory}: part {entry['file']} is missing") from None
        try:
            return _open_regular(Path(name), self.subdirs[frame])
        except FileNotFoundError:
            raise ResultError(f"{self.directory}: part {entry['file']} is missing") from None

    def part_bytes(self, entry: dict[str, Any], verify: bool) -> bytes:
        with self.open_part(entry) as f:
            data: bytes = f.read()
        if verify and hashlib.sha256(data).hexdigest() != entry["sha256"]:
            raise ResultError(f"{self.directory}: part {entry['file']} does not match its "
                              f"checksum (changed or damaged after it was written)")
        return data

    def close(self) -> None:
        for fd in self.subdirs.values():
            os.close(fd)
        os.close(self.fd)

    def __enter__(self) -> _Snapshot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_result(directory: str | Path) -> _Snapshot:
    """Hold a result directory open for one consistent read (see the module docstring)."""
    if str(directory) == "":
        raise ResultError("the result directory is an empty string; name a directory")
    return _Snapshot(Path(directory))


def _check_rows(directory: Path, manifest: dict[str, Any], wanted: set[str] | None) -> None:
    totals: dict[str, int] = {}
    for entry in manifest["parts"]:
        totals[entry["frame"]] = totals.get(entry["frame"], 0) + entry["rows"]
    for name, info in manifest["frames"].items():
        if (wanted is None or name in wanted) and totals.get(name, 0) != info["rows"]:
            raise ResultError(f"{directory}: frame {name} should have {info['rows']} rows, "
                              f"its parts hold {totals.get(name, 0)}")


def verify_parts(directory: Path, manifest: dict[str, Any], frames: Iterable[str] | None = None
                 ) -> None:
    """Every listed part is there with its checksum; the row counts add up."""
    wanted = set(frames) if frames is not None else None
    with open_result(directory) as snap:
        for entry in manifest["parts"]:
            if wanted is None or entry["frame"] in wanted:
                snap.part_bytes(entry, verify=True)
    _check_rows(directory, manifest, wanted)


def read_frames(directory: str | Path, names: Sequence[str],
                columns: dict[str, Sequence[str]] | None = None, *, verify: bool = True
                ) -> tuple[dict[str, Any], dict[str, Any]]:
    """The manifest and the frames ``names`` of one result, read consistently: the manifest
    and every part through one open directory, each part's checksum taken of the bytes read."""
    src = Path(directory)
    for attempt in range(READ_ATTEMPTS):
        with open_result(src) as snap:
            try:
                manifest = snap.manifest()
                if verify:
                    _check_rows(src, manifest, set(names))
                frames = {name: _frame_from(snap, manifest, name, (columns or {}).get(name),
                                            verify) for name in names}
                return manifest, frames
            except ResultError:
                # The old result, held open, was removed under the read once a new one was
                # put in place: read the new one whole instead.
                if attempt + 1 == READ_ATTEMPTS or not snap.replaced():
                    raise
    raise AssertionError("unreachable")  # pragma: no cover


def read_frame(directory: Path, manifest: dict[str, Any], name: str,
               columns: Sequence[str] | None = None) -> Any:
    """One frame as pandas, from its parts in game order, with only ``columns`` if given."""
    with open_result(directory) as snap:
        return _frame_from(snap, manifest, name, columns, verify=False)


def _frame_from(snap: _Snapshot, manifest: dict[str, Any], name: str,
                columns: Sequence[str] | None, verify: bool) -> Any:
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    from musici.sim.frames import COLUMNS

    # A frame added after the result was written reads as empty, with today's columns.
    expected = (manifest["frames"][name]["columns"] if name in manifest["frames"]
                else COLUMNS.get(name, []))
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
    directory = snap.directory
    for p in parts:
        try:
            if verify:
                source: Any = pa.BufferReader(snap.part_bytes(p, verify=True))
                table = pq.read_table(source, columns=columns)
            else:
                with snap.open_part(p) as f:
                    table = pq.read_table(f, columns=columns)
        except (OSError, pa.ArrowException) as exc:
            raise ResultError(f"{directory}: cannot read part {p['file']}: {exc}") from None
        got = table.column_names
        want = list(columns) if columns is not None else expected
        if got != want:
            raise ResultError(f"{directory}: part {p['file']} has columns {got}, expected {want}")
        if table.num_rows != p["rows"]:
            raise ResultError(f"{directory}: part {p['file']} holds {table.num_rows} rows, "
                              f"its manifest says {p['rows']}")
        tables.append(table)
    return pa.concat_tables(tables, promote_options="default").to_pandas()


__all__ = ["MANIFEST", "ChunkDone", "Part", "ResultError", "ResultWriter", "check_manifest",
           "check_target", "open_result", "read_frame", "read_frames", "read_manifest",
           "target_state", "verify_parts", "write_part"]
