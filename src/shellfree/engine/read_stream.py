"""Stream a file once, counting its lines and keeping only one page of them, in bounded memory.

:func:`stream_bytes_window` reads a binary file object in :data:`CHUNK_SIZE` chunks;
:func:`stream_text_window` does the same through an incremental decoder (UTF-16, whose
newlines are two bytes). Both feed a :class:`WindowCollector`, which counts every newline
but keeps only the lines ``offset..end_line``, each cut to a bounded length. Memory is one
chunk plus one page, however large the file (§2.3 step 4).
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

__all__ = ["CHUNK_SIZE", "Window", "WindowCollector", "stream_bytes_window", "stream_text_window"]

CHUNK_SIZE = 1 << 20
"""Bytes read at a time (Hermes streams in 1 MiB chunks, §2.3 step 4)."""

AnyStr_ = TypeVar("AnyStr_", bytes, str)


class Readable(Protocol):
    """What the streaming functions need of a file: ``read(size)`` returning bytes."""

    def read(self, size: int) -> bytes: ...


@dataclass(frozen=True, slots=True)
class Window(Generic[AnyStr_]):
    """One page of a file and what streaming it learned about the whole file.

    *lines* are the page's lines without their newline, each at most the collector's clamp
    long; *cut* holds the indexes of lines that were longer. *total_lines* counts every line,
    a final line without a newline included. *size* is the bytes read; *ends_with_newline*
    says whether the last byte (or character) was a newline.
    """

    lines: tuple[AnyStr_, ...]
    cut: frozenset[int]
    total_lines: int
    size: int
    ends_with_newline: bool


class WindowCollector(Generic[AnyStr_]):
    """Counts the lines of a stream fed piece by piece and keeps lines *offset*..*end_line*.

    *newline* is ``b"\\n"`` or ``"\\n"`` and fixes the kind of pieces. A kept line longer
    than *clamp* units keeps its first *clamp* and is marked as cut.
    """

    def __init__(self, offset: int, end_line: int, clamp: int, newline: AnyStr_) -> None:
        self._offset = offset
        self._end_line = end_line
        self._clamp = clamp
        self._newline = newline
        self._empty = newline[:0]
        self._newlines = 0
        self._size = 0
        self._last = self._empty
        self._lines: list[AnyStr_] = []
        self._cut: set[int] = set()
        self._parts: list[AnyStr_] = []
        self._length = 0
        self._overflow = False

    def feed(self, piece: AnyStr_, size: int | None = None) -> None:
        """Takes the next *piece* of the stream; *size* is the bytes it came from (default:
        its length)."""
        if not piece:
            if size:
                self._size += size
            return
        first_line = self._newlines + 1
        count = piece.count(self._newline)
        self._newlines += count
        self._size += len(piece) if size is None else size
        self._last = piece[-1:]
        if first_line + count < self._offset or first_line > self._end_line:
            return  # no line of the page starts, continues or ends in this piece
        position = 0
        line = first_line
        while line < self._offset:
            position = piece.index(self._newline, position) + 1
            line += 1
        newline = self._newline
        while line <= self._end_line:
            end = piece.find(newline, position)
            if end < 0:
                self._append(piece[position:])
                return
            self._append(piece[position:end])
            self._close_line()
            position = end + 1
            line += 1

    def finish(self) -> Window[AnyStr_]:
        """The page and the counts, once the whole stream was fed."""
        partial = self._length > 0 or self._overflow
        if partial:
            self._close_line()  # a final line without a newline, inside the page
        ends_with_newline = self._last == self._newline
        total = self._newlines + (1 if self._size and not ends_with_newline else 0)
        return Window(tuple(self._lines), frozenset(self._cut), total, self._size,
                      ends_with_newline)

    def _append(self, segment: AnyStr_) -> None:
        room = self._clamp - self._length
        if len(segment) > room:
            segment = segment[:room]
            self._overflow = True
        if segment:
            self._parts.append(segment)
            self._length += len(segment)

    def _close_line(self) -> None:
        if self._overflow:
            self._cut.add(len(self._lines))
        self._lines.append(self._empty.join(self._parts))
        self._parts = []
        self._length = 0
        self._overflow = False


def stream_bytes_window(handle: Readable, offset: int, end_line: int, clamp: int,
                        chunk_size: int = CHUNK_SIZE) -> Window[bytes]:
    """Streams *handle* to its end and returns lines *offset*..*end_line* as bytes, each cut
    to *clamp* bytes."""
    collector: WindowCollector[bytes] = WindowCollector(offset, end_line, clamp, b"\n")
    while True:
        chunk = handle.read(chunk_size)
        if not chunk:
            break
        collector.feed(chunk)
    return collector.finish()


def stream_text_window(handle: Readable, encoding: str, offset: int, end_line: int,
                       clamp: int, chunk_size: int = CHUNK_SIZE) -> Window[str]:
    """Streams *handle* through an incremental *encoding* decoder (undecodable bytes
    replaced) and returns lines *offset*..*end_line* as text, each cut to *clamp*
    characters. CRLF becomes LF, as Hermes' UTF-16 rescue does (§2.4)."""
    decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
    collector: WindowCollector[str] = WindowCollector(offset, end_line, clamp, "\n")
    held_cr = ""  # a "\r" ending one piece may pair with a "\n" starting the next
    while True:
        chunk = handle.read(chunk_size)
        final = not chunk
        text = held_cr + decoder.decode(chunk, final=final)
        held_cr = ""
        if not final and text.endswith("\r"):
            text, held_cr = text[:-1], "\r"
        # The piece's byte size is only known per chunk: count it with the piece it came in.
        collector.feed(text.replace("\r\n", "\n"), size=len(chunk))
        if final:
            break
    return collector.finish()
