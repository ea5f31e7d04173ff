"""Reading a file whole for a search: one ``read`` of a known size, a head first when the rest
may not be needed, and walked files opened without blocking.

The searcher reads every file through :func:`read_whole` (the tree cache too, on a miss), and a
walked file without a cache through :func:`read_walked`. Apart from the tree cache, so that a
command-line search, which keeps no cache, does not import it and its locks (threading,
weakref and heapq: 2-3 ms of a start-up of some 35).
"""

from __future__ import annotations

import os
import stat as stat_module
from collections.abc import Callable

__all__ = ["HEAD_BYTES", "SHORT_READ", "LargeFile", "read_walked", "read_whole"]

HEAD_BYTES = 1 << 20
"""How much of a large file :func:`read_whole` reads first when its caller may not need the
rest (a walked binary file: rg quits at its first NUL's buffer fill, 64 KiB at first)."""

_O_READ = os.O_RDONLY | getattr(os, "O_BINARY", 0)
# A walked file is opened without blocking: listed as a regular file, it may have become a FIFO
# since, and opening a FIFO to read waits for a writer, forever if none comes (rg's would). On a
# regular file the flag changes nothing; Windows has none, nor FIFOs a walk can meet.
_O_READ_WALKED = _O_READ | getattr(os, "O_NONBLOCK", 0)


class LargeFile(Exception):
    """Raised by :func:`read_whole` for a file its caller would rather not read whole; *st* is
    the file's ``fstat``."""

    def __init__(self, st: os.stat_result) -> None:
        super().__init__(st.st_size)
        self.st = st


SHORT_READ = 1 << 16
"""What :func:`read_walked` asks of the first read: a file shorter than this is read whole by it."""


def read_walked(
    path: bytes,
    enough: Callable[[bytes], bool] | None = None,
    large: Callable[[os.stat_result], bool] | None = None,
) -> bytes:
    """:func:`read_whole`'s bytes of a file the walk listed as a regular file, for a caller
    that keeps no ``fstat``: a first read asks for SHORT_READ bytes, and when the answer is
    shorter the file is read on to a read of nothing, as rg reads it, so a small file costs no
    ``fstat``. Over the 50,000 files of the large benchmark tree, open, read, read and close
    took 495 ms, open, ``fstat``, read and close 671 (medians of seven). A longer file is read
    again from its start by :func:`read_whole`'s rules.

    Not for a path named on the command line, which may be a FIFO or a device."""
    fd = os.open(path, _O_READ_WALKED)
    try:
        first = os.read(fd, SHORT_READ)
        if len(first) < SHORT_READ:
            # A regular file reads short only at its end, mostly: one of /proc answers a page
            # at a time, a FUSE one as its server likes.
            more = os.read(fd, SHORT_READ)
            return _read_on(fd, [first, more]) if more else first
        os.lseek(fd, 0, os.SEEK_SET)
        return _read_open(fd, enough, large)[0]
    finally:
        os.close(fd)


def read_whole(
    path: bytes,
    enough: Callable[[bytes], bool] | None = None,
    large: Callable[[os.stat_result], bool] | None = None,
    walked: bool = False,
) -> tuple[bytes, os.stat_result | None]:
    """The file's bytes, and its ``fstat`` when it is a regular file read in one piece (the
    only case worth caching: a file that grew meanwhile, a FIFO or a device is not).
    *walked*: the walk listed it as a regular file (it is opened without blocking, see
    _O_READ_WALKED).

    One read of the whole file when its size is known (perf-study §5.3); anything else is
    read to its end in chunks. The searcher reads every file through this, cache or not (a
    walked one without the cache through :func:`read_walked`).

    With *enough*, a regular file of more than HEAD_BYTES is read a head first, and when
    ``enough(head)`` says the search needs no more (a binary file rg quits early), only the
    head is returned, with no ``fstat``: it is not the file's content, and is not cached.
    Otherwise, when ``large(fstat)`` says so (a text file to search in pieces), LargeFile is
    raised and nothing more is read."""
    fd = os.open(path, _O_READ_WALKED if walked else _O_READ)
    try:
        return _read_open(fd, enough, large)
    finally:
        os.close(fd)


def _read_open(
    fd: int,
    enough: Callable[[bytes], bool] | None,
    large: Callable[[os.stat_result], bool] | None,
) -> tuple[bytes, os.stat_result | None]:
    """:func:`read_whole` of the file open as *fd*, read from its start."""
    st = os.fstat(fd)
    size = st.st_size
    if (enough or large) and size > HEAD_BYTES and stat_module.S_ISREG(st.st_mode):
        if enough is not None:
            head = os.read(fd, HEAD_BYTES)
            if len(head) == HEAD_BYTES and enough(head):
                return head, None
            os.lseek(fd, 0, os.SEEK_SET)
        if large is not None and large(st):
            raise LargeFile(st)
    first = os.read(fd, size + 1 if size else 1 << 16)
    if len(first) == size and stat_module.S_ISREG(st.st_mode):
        return first, st
    return _read_on(fd, [first]), None


def _read_on(fd: int, chunks: list[bytes]) -> bytes:
    """*chunks*, what was read of the open file *fd* so far, and the rest of it to its end."""
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
