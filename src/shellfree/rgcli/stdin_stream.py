"""Search standard input as it arrives, one fill of rg's line buffer at a time.

rg reads standard input through its line buffer like any file it does not map, so it prints
the lines of ``tail -f log | rg ERROR`` as they come and holds at most a few fills of a
stream of any length. The whole-file search (searcher.search_bytes) needs every byte first:
over a pipe that never ends it would print nothing, and a 5 GB stream would cost 5 GB. When
each line's output depends on that line alone (the standard printer, no context, no -m, no
multi-line pattern, no ``\\A``/``\\z``, no --heading), this module reads as rg reads and
searches each run of whole lines as soon as it is read, with the line numbers and offsets of
the lines before it.

Binary data is where the fills show: rg checks each fill's new bytes for a NUL, and once one
is seen its printer refuses the next line it is handed, printing the notice at the end if the
input matched at all (before the NUL's fill, or in a line it refused). So this module reads
fill by fill as rg does (the sniff of a byte-order mark, Rust's 8 KiB stdin buffer: see
line_buffer.STDIN_BUFFER; from a pipe a read returns what has been written, as rg's does),
prints the fills before the NUL's, and then only looks for a match. Input that starts with a
byte-order mark goes to the whole-file search, which transcodes it.
"""

from __future__ import annotations

import io
import os
from typing import BinaryIO

from shellfree._record import replace
from shellfree.search.errors import os_error_text
from shellfree.search.line_buffer import FILL, STDIN_BUFFER
from shellfree.search.searcher import BINARY_NONE, search_bytes

__all__ = ["search_stdin_stream", "streamable"]

_BOM_STARTS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")
_SNIFF = 3  # the decoder's look for a byte-order mark: rg's first read
_BATCH = 4 << 20  # fills searched together when they arrive at once (a file, a fast writer)


def streamable(command, args) -> bool:
    """Whether *command*'s search of standard input may print it a fill at a time."""
    config, matcher = command.config, command.matcher
    return (command.mode == "standard" and command.standard is not None
            and not args.quiet and not args.heading
            and not config.before_context and not config.after_context
            and config.max_count is None
            and not matcher.can_match_newline and not getattr(matcher, "whole_text", False)
            and not getattr(matcher, "text_anchors", False))


class _StdinReads:
    """rg's reads of standard input: each asks for what its buffer's free space allows, and
    Rust's stdin buffer serves a request smaller than 8 KiB from one 8 KiB read of its own."""

    def __init__(self, stdin: BinaryIO) -> None:
        try:
            self._fd: int | None = stdin.fileno()
        except (OSError, AttributeError, io.UnsupportedOperation):
            self._fd = None
        self._stdin = stdin
        self._held = b""  # what the stdin buffer holds
        self.waited = False  # the last raw read returned less than it asked for (a pipe)

    def _raw(self, size: int) -> bytes:
        data = os.read(self._fd, size) if self._fd is not None else self._stdin.read(size)
        self.waited = 0 < len(data) < size
        return data

    def head(self) -> bytes:
        """The first bytes, held for the reads that follow: at least the three a byte-order
        mark takes, unless the input is shorter."""
        while len(self._held) < _SNIFF:
            data = self._raw(STDIN_BUFFER)
            if not data:
                break
            self._held += data
        return self._held

    def read(self, size: int) -> bytes:
        if self._held:
            data, self._held = self._held[:size], self._held[size:]
            return data
        if size >= STDIN_BUFFER:
            return self._raw(size)
        self._held = self._raw(STDIN_BUFFER)
        data, self._held = self._held[:size], self._held[size:]
        return data

    def rest(self) -> bytes:
        """Everything not read yet."""
        chunks = [self._held]
        self._held = b""
        while True:
            data = self._raw(1 << 20)
            if not data:
                return b"".join(chunks)
            chunks.append(data)


class _Replayed(io.RawIOBase):
    """Standard input for the whole-file search after its head was read here."""

    def __init__(self, data: bytes) -> None:
        self._data = data

    def read(self, size: int = -1) -> bytes:  # type: ignore[override]
        data, self._data = self._data, b""
        return data


def search_stdin_stream(command, stdin: BinaryIO) -> BinaryIO | None:
    """Search standard input for *command* (see :func:`streamable`), emitting what rg prints
    as it goes; returns None when done, or, for input with a byte-order mark, a stand-in for
    standard input (what was read, then the rest) for the whole-file search."""
    try:
        return _search(command, _StdinReads(stdin))
    except OSError as err:
        # A read that fails ends the search of stdin, as it ends rg's, with its error.
        command.emit(_outcome(errors=(f"<stdin>: {os_error_text(err)}",)))
        return None


def _search(command, reads: _StdinReads) -> BinaryIO | None:
    if reads.head().startswith(_BOM_STARTS):
        return _Replayed(reads.rest())
    shown = b"<stdin>"
    config = replace(command._config(command.binary_mode(True), False, True), whole_stream=False)
    check_nul = config.binary != BINARY_NONE
    capacity, first = FILL, True
    pending = b""  # the line the last fill left incomplete
    batch: list[bytes] = []  # whole lines read and not yet searched
    batched = 0
    offset = lines_before = 0  # of the batch's first byte
    while True:
        new, got, eof = [], 0, False
        while True:  # one fill: reads until the new bytes hold a newline
            free = capacity - len(pending) - got
            if free <= 0:
                capacity *= 3
                continue
            data = reads.read(min(_SNIFF, free) if first else free)
            first = False
            if not data:
                eof = True
                break
            new.append(data)
            got += len(data)
            if data.find(b"\n") >= 0:
                break
        fresh = b"".join(new)
        nul = fresh.find(b"\0") if check_nul else -1
        if nul >= 0:
            offset, lines_before = _search_batch(command, config, shown, batch, offset,
                                                 lines_before)
            _after_binary(command, config, shown, reads, pending + fresh,
                          offset + len(pending) + nul, capacity, eof)
            return None
        data = pending + fresh
        cut = len(data) if eof else data.rfind(b"\n") + 1
        if cut:
            batch.append(data[:cut])
            batched += cut
        pending = data[cut:]
        if eof or reads.waited or batched >= _BATCH:
            # Print what was read before a read that may wait for the writer.
            offset, lines_before = _search_batch(command, config, shown, batch, offset,
                                                 lines_before)
            batched = 0
        if eof:
            command.emit(_outcome(searched=True))
            return None


def _search_batch(command, config, shown: bytes, batch: list[bytes], offset: int,
                  lines_before: int) -> tuple[int, int]:
    """Search and emit the whole lines in *batch* (emptied), which start at stream *offset*
    after *lines_before* lines; returns the offset and line count after them."""
    if not batch:
        return offset, lines_before
    data = b"".join(batch)
    batch.clear()
    result = search_bytes(data, command.matcher, config)
    if result.lines:
        for line in result.lines:
            if line is not None:
                line.number += lines_before
                line.offset += offset
        chunk = command.standard.print_file(shown, result)
        command.emit(_outcome(searched=True, matched=command.standard.last_matched,
                              chunk=chunk))
        if command.args.buffering != "block":
            # A stream's lines are out before the next read waits for more (rg: under
            # --line-buffered, or to a terminal; shellfree into a pipe as well).
            command.out.stdout.flush()
    return offset + len(data), lines_before + data.count(b"\n")


def _after_binary(command, config, shown: bytes, reads: _StdinReads, data: bytes,
                  nul: int, capacity: int, eof: bool) -> None:
    """The NUL at stream offset *nul* came in the fill that holds *data* (the line the fill
    before left incomplete, then what it read): rg's printer refuses the next line it is
    handed, so nothing more is printed but the notice, at the end, if the input matched at
    all. NULs from here on count as line terminators (rg's "convert" mode)."""
    plain = replace(config, binary=BINARY_NONE, stop_at_first=True)
    pending = b""
    matched = command.matched_any
    while not matched:
        data = (pending + data).replace(b"\0", b"\n")
        cut = len(data) if eof else data.rfind(b"\n") + 1
        matched = search_bytes(data[:cut], command.matcher, plain).has_match
        pending = data[cut:]
        if eof or matched:
            break
        new, got = [], 0
        while True:
            free = capacity - len(pending) - got
            if free <= 0:
                capacity *= 3
                continue
            chunk = reads.read(free)
            if not chunk:
                eof = True
                break
            new.append(chunk)
            got += len(chunk)
            if chunk.find(b"\n") >= 0 or chunk.find(b"\0") >= 0:
                break
        data = b"".join(new)
    notice = command.standard.binary_notice(shown, nul) if matched else b""
    command.emit(_outcome(searched=True, matched=matched, chunk=notice,
                          starts_with_line=False))


def _outcome(**fields):
    from shellfree.rgcli.search import Outcome  # the module that imports this one

    return Outcome(**fields)
