"""Atomic file writes: a reader sees the old file or the new one, never a mix or nothing.

The new contents go to a temporary file in the same directory (so the rename cannot cross
file systems), which is flushed to disk, renamed over the target, and then the directory
itself is flushed so the rename survives a power cut. A full disk or a crash at any point
leaves the previous file untouched; the temporary file is removed on any error.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

TEMP_PREFIX = ".musici-tmp-"  # temporary siblings carry this prefix, so leftovers are recognisable


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
    """Replace ``path`` by ``data`` atomically (see the module docstring)."""
    target = Path(path)
    directory = target.parent
    fd, temp = tempfile.mkstemp(prefix=TEMP_PREFIX + target.name + ".", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        with contextlib.suppress(OSError):  # the umask-honouring mode an ordinary open gives
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temp, 0o666 & ~umask)
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


__all__ = ["TEMP_PREFIX", "fsync_dir", "fsync_file", "write_bytes", "write_text"]
