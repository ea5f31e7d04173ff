"""rg's line buffer: where each fill of a file read in pieces starts, what it searches, and
what the buffer still holds when the next fill is read.

A file ripgrep reads (rather than memory-maps) passes through a line buffer one fill at a
time, and several of its outputs depend on where those fills fall: binary detection is
decided per fill (the fill holding the first NUL is not searched), ``\\A`` holds where a
buffer starts, and the statistics count the bytes rolled out before the fill a search stopped
in. This module models those fills over a file's whole search stream (:func:`fill_of`,
:func:`fill_starts`, :func:`buffer_starts`), incrementally over chunks of a file never in
memory whole (:class:`FillReads`), and when rg hands each reported line to its printer
(:func:`handed_over`), which decides what the buffer's rolls keep. The searcher asks; nothing
here searches.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator

from shellfree._record import Record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see shellfree/__init__.py)
if TYPE_CHECKING:
    from shellfree.search.searcher import SearchConfig

__all__ = [
    "BOM_SNIFF",
    "FILL",
    "Fill",
    "FillReads",
    "Reads",
    "STDIN",
    "STDIN_BUFFER",
    "STREAMED",
    "buffer_starts",
    "fill_of",
    "fill_ranges",
    "fill_reads",
    "fill_starts",
    "handed_over",
    "handed_over_from",
    "preceding",
]

# rg's line buffer reads 64 KiB at a time; binary detection is decided per fill.
FILL = 64 * 1024

# rg's decoder first reads just enough bytes to sniff a BOM; its line buffer then reads what
# its free space allows.
BOM_SNIFF = 3


def preceding(stream: bytes, floor: int, end: int, lines: int) -> int:
    """Start of the line *lines* lines before the last line of ``stream[floor:end]`` (which
    ends with a newline), never before *floor*."""
    pos = end - 1
    for _ in range(lines + 1):
        newline = stream.rfind(b"\n", floor, pos)
        if newline < 0:
            return floor
        pos = newline
    return pos + 1


class Fill(Record):
    """Where rg's line buffer stood when it read the fill holding a given byte."""

    start: int  # start of the first line that fill searches
    consumed: int  # bytes rolled out of the buffer before that fill (rg's bytes_searched)
    stop: int  # end of the last complete line that fill searches


class Reads(Record):
    """How rg's reads hand a file's search stream to its line buffer (see fill_reads).

    *sniff*: the very first read is only the decoder's 3-byte look for a byte-order mark (a
    fill of its own); a file that has one is read on in the same fill. *ends*: for a file rg
    transcodes (UTF-16), where each read of its transcoder ends in the stream
    (decode.read_stream); () when the reads are limited only by the buffer.
    """

    sniff: bool = True
    ends: tuple = ()
    # Standard input (None: a file): where the stream bytes that Rust's stdin buffer holds
    # when the search starts end (see STDIN_BUFFER); 0 when it holds none yet.
    stdin_held: int | None = None

    def stdin_state(self) -> list[int] | None:
        """The state of the stdin buffer that a walk over the fills updates (fill_reads),
        or None for a file."""
        return None if self.stdin_held is None else [self.stdin_held]


STREAMED = Reads()  # a file with no byte-order mark
STDIN = Reads(stdin_held=0)  # standard input with no byte-order mark

STDIN_BUFFER = 8 * 1024
"""Rust's ``std::io::stdin()`` reads through a buffer of 8 KiB, under rg's decoder. A read
that asks for less while it is empty makes it read 8 KiB and hand over what was asked; a
read while it holds bytes gets at most those; a read of 8 KiB or more while it is empty goes
straight to the file. The decoder's 3-byte BOM sniff is such a small read, so rg's first fill
of standard input ends within its first 8 KiB: ``rg alpha - < f``, where f holds 10,000
lines ``alpha`` and then a NUL, prints the 1,365 lines of the first 8,190 bytes before the
binary notice, where ``rg alpha f`` prints the notice alone (measured). A UTF-16 input's
transcoder reads 8 KiB at a time, through the buffer or past it alike."""


def fill_reads(stream: bytes, capacity: int, pos: int, kept: int, first: bool,
                ends: tuple[int, ...] = (), stdin: list[int] | None = None) -> tuple:
    """The reads of one fill of rg's line buffer, which holds ``stream[kept:pos]`` in
    *capacity* bytes: each reads what the free space allows (the very first read only the
    decoder's 3-byte BOM sniff; from a transcoded file no more than its transcoder's read
    hands over, up to the next of *ends*: see Reads; from standard input no more than its
    buffer holds, *stdin* being Reads.stdin_state, updated here: see STDIN_BUFFER), a full
    buffer grows to three times its size, and the fill reads on until its new bytes hold a
    newline or the stream ends. Returns (capacity, where the reads ended, the last newline
    they read or -1)."""
    size = len(stream)
    while True:
        free = capacity - (pos - kept)
        if free <= 0:
            capacity *= 3
            continue
        asked = min(BOM_SNIFF, free) if first else free
        read_end = pos + asked
        if stdin is not None:
            if pos < stdin[0]:
                read_end = min(read_end, stdin[0])
            elif asked < STDIN_BUFFER:
                stdin[0] = pos + STDIN_BUFFER
        read_end = min(size, read_end)
        if ends:
            read_end = min(read_end, ends[bisect.bisect_right(ends, pos)])
        first = False
        newline = stream.rfind(b"\n", pos, read_end)
        pos = read_end
        if newline >= 0 or pos >= size:
            return capacity, pos, newline


def fill_of(
    stream: bytes,
    offset: int,
    context: int | None = None,
    visited: tuple[tuple[int, int], ...] = (),
    reads: Reads = STREAMED,
) -> Fill:
    """The fill of rg's line buffer that contains byte *offset* (*reads*: see Reads).

    rg decides binary-ness per fill: the fill that holds the first NUL is not searched at all,
    everything before it is (rg-semantics §2.1). A fill reads until its new bytes hold a
    newline; the very first read is only the decoder's 3-byte BOM sniff, so a file whose first
    line is at most 3 bytes has that line searched on its own, and the next fill reads what the
    buffer's free space allows (64 KiB at first). A full buffer grows by twice its size, to
    three times it: with a 70000-byte first line a NUL at offset 150000 is in the first fill.
    Measured against rg 15.1 with NULs in the first fill, in the second, and after short and
    long first lines.

    Before each fill rg rolls searched bytes out of the buffer. With context options on
    (*context* is then the before-context) it keeps the last ``context + 1`` searched lines, but
    not lines up to the end of the last line it handed to the printer (*visited*: (hand-over
    position, end) of the reported lines, ascending): measured with NULs after one- and
    two-line first fills and -A/-B/-C, and after long printed lines. The kept bytes take
    buffer space and, when the search quits at binary data, were never counted as searched.
    """
    size = len(stream)
    capacity = FILL
    pos = 0  # next byte to read
    kept = 0  # start of the bytes the buffer still holds
    line_start = 0  # start of the first line the next fill will search
    first = reads.sniff
    stdin = reads.stdin_state()
    seen = 0  # visited[:seen] were handed over before line_start
    visited_end = 0
    while pos < size:
        fill_start = line_start
        capacity, pos, newline = fill_reads(stream, capacity, pos, kept, first, reads.ends,
                                            stdin)
        first = False
        holds_offset = offset < pos  # the fills before this one ended at or before it
        if newline >= 0:
            line_start = newline + 1
        if holds_offset:
            return Fill(fill_start, kept, line_start if pos < size else size)
        if newline < 0:
            break
        kept, seen, visited_end = _roll(stream, kept, line_start, context, visited, seen,
                                        visited_end)
    return Fill(size, size, size)


def _roll(stream: bytes, kept: int, line_start: int, context: int | None,
          visited: tuple[tuple[int, int], ...], seen: int,
          visited_end: int) -> tuple[int, int, int]:
    """The roll before the fill whose search starts at *line_start*: (where the buffer then
    starts, and the updated *seen* and *visited_end* of :func:`fill_of`'s walk over
    *visited*)."""
    if context is None:
        return line_start, seen, visited_end
    kept = max(kept, preceding(stream, kept, line_start, context))
    while seen < len(visited) and visited[seen][0] < line_start:
        visited_end = max(visited_end, visited[seen][1])
        seen += 1
    return max(kept, visited_end), seen, visited_end


class FillReads:
    """Where the reads of rg's line-buffer fills end, for a file of *size* bytes handed over
    in consecutive chunks (:meth:`feed`), with no context options: the incremental form of
    :func:`fill_of`, for a file searched in pieces that is never in memory whole.

    rg checks everything a fill read for a NUL before it searches the fill's lines, so a
    match is only reported if no NUL lies before the end of the reads of the fill that
    searched its line (:meth:`end_of_fill`).
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._capacity = FILL
        self._pos = 0  # next byte to read
        self._kept = 0  # start of the bytes the buffer still holds
        self._first = True
        self._fill_start = 0  # first byte read by the fill in progress
        self._fills: list[tuple[int, int]] = []  # (first byte read, end of reads) per fill
        # The chunk being fed, and the last newline in the bytes fed before it and not yet
        # read (-1: none). No bytes are kept past a feed: a piece kept alive, or a copy of
        # its end allocated after it, keeps the next piece out of its memory (page faults:
        # 10,000 more over the 200 MB file).
        self._chunk = b""
        self._chunk_start = 0
        self._pending_newline = -1

    def feed(self, data: bytes, start: int) -> None:
        """Hand over ``file[start:start + len(data)]``, which starts where the last chunk
        ended."""
        assert start == self._chunk_start + len(self._chunk)
        self._chunk, self._chunk_start = data, start
        # Only fills ending in this chunk or later can hold a byte asked about from now on.
        self._fills = [fill for fill in self._fills if fill[1] > start]
        self._advance()
        last = data.rfind(b"\n", max(self._pos - start, 0))
        if last >= 0:
            self._pending_newline = start + last
        elif self._pos >= start or self._pending_newline < self._pos:
            self._pending_newline = -1
        self._chunk, self._chunk_start = b"", start + len(data)

    def end_of_fill(self, offset: int) -> int | None:
        """The end of the reads of the fill that read byte *offset* (at or after the start
        of the last chunk fed); None until the chunks fed reach it."""
        for first, end in self._fills:
            if first <= offset < end:
                return end
        return None

    def _newline_before(self, low: int, high: int) -> int:
        """The offset of the last newline in file bytes [low, high) (all fed), or -1."""
        chunk, start = self._chunk, self._chunk_start
        found = chunk.rfind(b"\n", max(low - start, 0), high - start)
        if found >= 0:
            return start + found
        if low < start and self._pending_newline >= low:
            return self._pending_newline
        return -1

    def _advance(self) -> None:
        size = self.size
        available = self._chunk_start + len(self._chunk)
        while self._pos < size:
            free = self._capacity - (self._pos - self._kept)
            if free <= 0:
                self._capacity *= 3
                continue
            read_end = min(size, self._pos + (min(BOM_SNIFF, free) if self._first else free))
            if read_end > available:
                return  # the next read needs bytes not fed yet
            newline = self._newline_before(self._pos, read_end)
            self._first = False
            self._pos = read_end
            if newline < 0 and read_end < size:
                continue  # the fill reads on until its new bytes hold a newline
            self._fills.append((self._fill_start, read_end))
            self._fill_start = read_end
            if newline >= 0:
                self._kept = newline + 1  # the roll: searched lines leave the buffer


def buffer_starts(stream: bytes, reads: Reads = STREAMED, context: int | None = None,
                   visited: tuple[tuple[int, int], ...] = ()) -> frozenset[int]:
    """The offsets at which rg's line buffer starts, for a file read in fills (not
    memory-mapped): 0, and after each fill where its roll leaves the buffer's front (the
    fills of :func:`fill_of`; *context*, *visited* as there). rg's printer re-finds a matching
    line's matches in that buffer, so ``\\A`` holds on a line there. Without context options
    the roll keeps nothing: walked, ``rg --column '\\Alin'`` gives ``a\\nlin\\n``'s second line a
    column (the first read is 3 bytes), and a line across 64 KiB too. With them it keeps the
    last ``context + 1`` lines unless they were printed: walked, ``rg -A1 --json '\\A  '``
    reports the match of the unterminated last line of ``x\\n  \\n  `` (after the printed line
    2) and of ``  \\n  `` (after the printed line 1), not of line 2 of ``x\\n  \\n  \\n``."""
    return frozenset(kept for _, kept in _fills(stream, reads, context, visited))


def fill_starts(stream: bytes, reads: Reads = STREAMED, context: int | None = None,
                 visited: tuple[tuple[int, int], ...] = ()) -> frozenset[int]:
    """Where each fill's search begins: 0, and after each fill the start of the line it left
    incomplete. Without context options that is also where the buffer starts
    (:func:`buffer_starts`); with them (*context*, *visited*: as for :func:`fill_of`) the
    roll keeps lines before it, which take buffer space and so move the later fills."""
    return frozenset(start for start, _ in _fills(stream, reads, context, visited))


def fill_ranges(stream: bytes, reads: Reads, context: int | None,
                visited: tuple[tuple[int, int], ...]) -> list[tuple[int, int, int]]:
    """(where its buffer starts, where its search begins, where it ends) for every fill of
    rg's line buffer (*reads*, *context*, *visited*: as for :func:`fill_of`), the last one
    being the read of nothing that completes an unterminated last line, if any."""
    return [fill[:3] for fill in _fill_walk(stream, reads, context, visited)]


def _fills(stream: bytes, reads: Reads, context: int | None,
           visited: tuple[tuple[int, int], ...]) -> Iterator[tuple[int, int]]:
    """(where the fill's search begins, where its buffer starts) for each fill of rg's line
    buffer: (0, 0), then after each fill's roll (see :func:`fill_of`)."""
    yield 0, 0
    for _, _, end, kept in _fill_walk(stream, reads, context, visited):
        if kept is None:
            return
        yield end, kept


def _fill_walk(stream: bytes, reads: Reads, context: int | None,
               visited: tuple[tuple[int, int], ...]
               ) -> Iterator[tuple[int, int, int | None]]:
    """Each fill of rg's line buffer (*reads*, *context*, *visited*: as for :func:`fill_of`):
    (where its buffer starts, where its search begins, where it ends, where the buffer starts
    after its roll); the read of nothing that completes an unterminated last line comes last,
    with None for the roll, as does a last fill that ends without a newline."""
    size = len(stream)
    capacity = FILL
    pos = kept = line_start = 0
    first = reads.sniff
    stdin = reads.stdin_state()
    seen = visited_end = 0
    while pos < size:
        search_start = line_start
        capacity, pos, newline = fill_reads(stream, capacity, pos, kept, first, reads.ends,
                                            stdin)
        first = False
        if newline < 0:
            yield kept, search_start, size, None
            return
        line_start = newline + 1
        buffer_start = kept
        kept, seen, visited_end = _roll(stream, kept, line_start, context, visited, seen,
                                        visited_end)
        yield buffer_start, search_start, line_start, kept
    if line_start < size:
        yield kept, line_start, size, None


def _handover_positions(lines: list, config: SearchConfig) -> list[int | None]:
    """Per reported line, how far rg had read when it handed the line to the printer.

    rg hands a match and its before-context over when it finds the match, and an
    after-context line when it reaches it; so a before-context line read in an earlier fill
    still comes after the fill of its match (measured: ``printf '\\nxa\\0'`` streamed, ``rg
    -B1 a`` prints nothing). ``None`` stands for a break.
    """
    after = config.after_context
    positions: list[int | None] = []
    since_match = None  # context lines since the last match, within one group
    next_match = None
    for index, line in enumerate(lines):
        if line is None:
            since_match = None
            positions.append(None)
            continue
        if line.kind == "match":
            since_match = 0
            at = line.offset
        elif since_match is not None and since_match < after:
            since_match += 1
            at = line.offset
        else:
            since_match = None
            if next_match is None or next_match < index:
                next_match = next(
                    (i for i in range(index, len(lines))
                     if lines[i] is not None and lines[i].kind == "match"),
                    len(lines),
                )
            at = lines[next_match].offset if next_match < len(lines) else line.offset
        positions.append(at)
    return positions


def handed_over(lines: list, config: SearchConfig) -> tuple[tuple[int, int], ...]:
    """(hand-over position, end) of each reported line, by hand-over position."""
    positions = _handover_positions(lines, config)
    return tuple(sorted(
        (at, line.offset + len(line.text))
        for at, line in zip(positions, lines) if line is not None
    ))


def handed_over_from(lines: list, config: SearchConfig, position: int) -> int:
    """Index of the first of *lines* that rg hands to the printer once it has read past
    *position* (see _handover_positions)."""
    for index, at in enumerate(_handover_positions(lines, config)):
        if at is not None and at >= position:
            return index
    return len(lines)
