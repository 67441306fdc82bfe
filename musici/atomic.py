"""Safe file access: atomic writes, and reads bounded by what is read.

Writes: the new contents go to a temporary file in the same directory (so the rename cannot
cross file systems), which is flushed to disk, renamed over the target, and then the
directory itself is flushed so the rename survives a power cut. A full disk or a crash at
any point leaves the previous file untouched; the temporary file is removed on any error.
A target that exists and is not a regular file (a device such as ``/dev/null``, a FIFO, a
socket, a directory) is refused: renaming over it would replace the device node itself.

Reads (:func:`read_bounded`): only regular files, and at most a stated number of bytes,
counted while reading (``st_size`` says 0 for ``/proc`` files and nothing useful for
``/dev/zero``); a FIFO is refused without waiting for a writer.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

TEMP_PREFIX = ".musici-tmp-"  # temporary siblings carry this prefix, so leftovers are recognisable
_CHUNK = 1 << 16


class NotRegularFileError(OSError):
    """A path that exists but is not a regular file, where musici reads or replaces a file."""


class FileTooLargeError(ValueError):
    """A file holding more bytes than its kind may (see :func:`read_bounded`)."""

    def __init__(self, message: str, size: int | None) -> None:
        super().__init__(message)
        self.size = size  # the file's st_size when it shows the excess, else None


def file_kind(mode: int) -> str:
    """What a file is, in words, from its ``st_mode``."""
    for test, name in ((stat.S_ISREG, "regular file"), (stat.S_ISDIR, "directory"),
                       (stat.S_ISCHR, "character device"), (stat.S_ISBLK, "block device"),
                       (stat.S_ISFIFO, "FIFO (named pipe)"), (stat.S_ISSOCK, "socket"),
                       (stat.S_ISLNK, "symbolic link")):
        if test(mode):
            return name
    return "special file"


def show_bytes(n: int) -> str:
    """A byte count for a message: ``20 KB``, ``9 MB``."""
    if n >= 2**20:
        return f"{n / 2**20:.0f} MB"
    if n >= 2**10:
        return f"{n / 2**10:.0f} KB"
    return f"{n} bytes"


def check_replaceable(path: str | Path) -> None:
    """Raise :class:`NotRegularFileError` when ``path`` exists and is not a regular file
    (followed through symbolic links). Opens nothing, so a FIFO cannot block it."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return  # absent (or a dangling link): a new file is made
    if not stat.S_ISREG(mode):
        raise NotRegularFileError(f"{path}: is a {file_kind(mode)}, not a regular file; "
                                  f"refusing to replace it")


def _umask() -> int:
    """The process's umask, read without changing it where the system allows."""
    with (contextlib.suppress(OSError, ValueError, IndexError),
          open("/proc/self/status", encoding="ascii", errors="replace") as f):
        for line in f:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o077)  # the only portable way; briefly the stricter mask, never a looser
    os.umask(mask)
    return mask


def _renamed(exc: OSError, message: str) -> OSError:
    """``exc``'s kind (PermissionError, ...) and errno with ``message`` as its text."""
    try:
        out = type(exc)(message)
    except TypeError:  # pragma: no cover - an OSError subclass with another signature
        out = OSError(message)
    out.errno = exc.errno
    return out


def fsync_dir(directory: str | Path) -> None:
    """Flush a directory's entries (new, renamed or removed names) to disk."""
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # pragma: no cover - platforms whose directories cannot be opened
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some file systems refuse fsync on directories
        pass
    finally:
        os.close(fd)


def write_bytes(path: str | Path, data: bytes) -> None:
    """Replace ``path`` by ``data`` atomically (see the module docstring).

    A new file gets the mode an ordinary ``open(path, "w")`` would (0666 less the umask),
    not ``mkstemp``'s 0600; a replaced file keeps its mode; a symbolic link is written
    through (its target replaced, the link kept). Raises :class:`NotRegularFileError` (an ``OSError``)
    when ``path`` is a device, FIFO, socket or directory, and an ``OSError`` naming ``path``
    when no temporary file can be made beside it.
    """
    target = Path(path)
    if target.is_symlink():  # written through, as an editor does: the link stays a link
        target = Path(os.path.realpath(target))
    directory = target.parent
    check_replaceable(target)
    try:  # a file replaced keeps its mode (a 0600 save stays private)
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mode = 0o666 & ~_umask()
    try:
        fd, temp = tempfile.mkstemp(prefix=TEMP_PREFIX + target.name + ".", dir=directory)
    except OSError as exc:  # name the target, not the temporary file it was to be
        raise _renamed(exc, f"{target}: cannot write: cannot create a file in {directory}: "
                            f"{exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        with contextlib.suppress(OSError):  # the old file's, or what an ordinary open gives
            os.chmod(temp, mode)
        check_replaceable(target)  # made a device or FIFO meanwhile: still not ours to replace
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    fsync_dir(directory)


def write_text(path: str | Path, text: str, encoding: str = "utf-8") -> None:
    write_bytes(path, text.encode(encoding))


def fsync_file(path: str | Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def read_bounded(path: str | Path, limit: int) -> bytes:
    """The bytes of the regular file ``path``, of which there may be at most ``limit``.

    Raises :class:`NotRegularFileError` for a directory, device, FIFO or socket (a FIFO is
    opened without blocking, and nothing is read from it), :class:`FileTooLargeError` when
    the file holds more than ``limit`` bytes (at most ``limit + 1`` are read to tell), and
    ``OSError`` when it cannot be opened or read. Callers put these in their own words.
    """
    flags = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
             | getattr(os, "O_CLOEXEC", 0))
    try:  # refuse what is plainly not a file before opening it (opening a device can act)
        mode = os.stat(path).st_mode
    except OSError:
        mode = stat.S_IFREG  # open() below says why
    if not stat.S_ISREG(mode):
        raise NotRegularFileError(f"is a {file_kind(mode)}, not a regular file")
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)  # what was opened: the path may have been swapped meanwhile
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFileError(f"is a {file_kind(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise FileTooLargeError(f"holds {info.st_size} bytes", info.st_size)
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise FileTooLargeError(f"holds more than {limit} bytes", None)
        return b"".join(chunks)
    finally:
        os.close(fd)


__all__ = ["TEMP_PREFIX", "FileTooLargeError", "NotRegularFileError", "check_replaceable",
           "file_kind", "fsync_dir", "fsync_file", "read_bounded", "show_bytes", "write_bytes",
           "write_text"]
