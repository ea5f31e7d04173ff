"""Opening a file the write tools are about to replace, without waiting on a FIFO.

``open()`` of a FIFO waits for a writer, forever if none comes, and a path that ``stat`` found
regular can be a FIFO by the time it is opened. Every read the write tools make of an existing
file (write_file's probe, patch's read and its check after writing, the V4A plan and its check
before applying, the hash that verifies a write), and search_files' read of a matched file's
start for its code page, opens it here: with ``O_NONBLOCK``, which
changes nothing for a regular file, and refused after ``fstat`` unless it is one. Windows has
no FIFO in its file namespace and no ``O_NONBLOCK``; there the flag is simply absent.
"""

from __future__ import annotations

import os
import stat
from typing import BinaryIO

__all__ = ["READ_FLAGS", "NotRegularFile", "open_regular", "special_kind"]

READ_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
              | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
"""``os.open`` flags for a file that may have become a FIFO since it was checked: opening it does
not wait for a writer (the ``fstat`` after opening then refuses it). O_NONBLOCK stays set for
the reads: it changes nothing for a file on disk, and a procfs file that would block
(``/proc/kmsg``) fails instead."""


def special_kind(mode: int) -> str | None:
    """Which kind of special file *mode* describes (a key of ``messages.SPECIAL_FILE_KINDS``),
    or None for a regular file or a directory."""
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode):
        return "char"
    if stat.S_ISBLK(mode):
        return "block"
    return "other"


class NotRegularFile(OSError):
    """The path names a FIFO, socket or device; *kind* says which (see :func:`special_kind`)."""

    def __init__(self, path: str, kind: str) -> None:
        super().__init__(f"not a regular file: {path}")
        self.kind = kind


def open_regular(path: str) -> BinaryIO:
    """The regular file at *path* (through symlinks), open for binary reading.

    Raises FileNotFoundError and the other errors of opening it, IsADirectoryError for a
    directory, and :class:`NotRegularFile` for anything else that is not a regular file."""
    fd = os.open(path, READ_FLAGS)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(f"Is a directory: '{path}'")
        kind = special_kind(mode)
        if kind is not None:
            raise NotRegularFile(path, kind)
        return open(fd, "rb", closefd=True)
    except BaseException:
        os.close(fd)
        raise
