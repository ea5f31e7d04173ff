"""Search one large file in forked workers, each taking a run of whole lines.

rg searches a lone file on one thread at memory speed; pure Python reads, finds and counts
lines at about 1 ns a byte, so a 200 MB log costs a fifth of a second more than rg before any
line is printed. The file's lines are independent when nothing ties one line's output to
another's (no context, no -m, no multi-line match, no binary data), so the command-line
process cuts the file at newlines and searches the ranges in parallel.

Each process reads its own range with ``pread`` and searches it as a file of its own. The
count of lines before a range is the one thing a range cannot know by itself; it is passed down
a chain of pipes: each range's process adds its own newlines to the count it receives and
forwards the sum. A literal search (search/plain_literal.py) prints line numbers as it goes, so
its ranges count their newlines first and search once they know their first line number; the
general search searches first and renumbers its lines afterwards. The parent searches the first
range and writes nothing until every range has reported; a range that cannot be searched alone
(a NUL byte, which makes the whole file binary; a regex timeout; a byte-order mark) sends the
file back to the serial search, which then gives rg's exact output for it.
"""

from __future__ import annotations

import os
import pickle
import stat
import struct
import sys

from shellfree.rgcli.parallel import write_all
from shellfree.search.decode import BOMS
from shellfree.search.plain_literal import plain_lines
from shellfree.search.searcher import BINARY_NONE, SearchTimeout, literal_line_spans, search_bytes

__all__ = ["SPLIT_MIN_BYTES", "search_split", "split_ranges"]

#: Below this size, a fork and the coordination cost more than half a search saves.
SPLIT_MIN_BYTES = 32 << 20
#: How far past a cut point the next newline may be; a longer line keeps the file whole. Kept
#: at 1 MiB on purpose: a file of megabyte lines (minified code) prints megabytes per matching
#: line, and passing them back from a worker cost more than the split saved (measured on 70 MB
#: of 2 MB lines: 332 ms split, 262 ms whole).
_CUT_WINDOW = 1 << 20
_COUNT = struct.Struct("<Q")
_SPLIT_MODES = ("standard", "count", "count_matches")


def can_split(command, matcher, config, size: int, workers: int) -> bool:
    """Whether a search's output for one file of *size* bytes is the concatenation of its
    ranges' outputs: every line is printed (or counted) on its own merits."""
    return (
        workers > 1
        and size >= SPLIT_MIN_BYTES
        and command.mode in _SPLIT_MODES
        and not (command.standard is not None and command.standard.options.heading)
        and not config.before_context
        and not config.after_context
        and config.max_count is None
        and not config.stop_at_first
        and not matcher.multiline
        and not matcher.can_match_newline
        and not getattr(matcher, "whole_text", False)
    )


def split_ranges(fd: int, size: int, parts: int) -> list[tuple[int, int]] | None:
    """(start, end) byte ranges of about ``size / parts`` bytes, each ending just after a
    newline (the last at *size*); None when a cut point has no newline within reach."""
    starts = [0]
    for k in range(1, parts):
        start = _next_line(fd, size * k // parts - 1)
        if start is None or start <= starts[-1] or start >= size:
            return None
        starts.append(start)
    return list(zip(starts, starts[1:] + [size]))


def _next_line(fd: int, at: int) -> int | None:
    """Where the first line starting after byte *at* begins, looking at most _CUT_WINDOW
    bytes ahead (in growing reads: most lines are short, minified ones megabytes long)."""
    offset, step = at, 1 << 16
    while offset - at < _CUT_WINDOW:
        window = os.pread(fd, min(step, at + _CUT_WINDOW - offset), offset)
        if not window:
            return None
        newline = window.find(b"\n")
        if newline >= 0:
            return offset + newline + 1
        offset += len(window)
        step *= 4
    return None


def _pread_all(fd: int, start: int, length: int) -> bytes:
    data = os.pread(fd, length, start)
    if len(data) == length:
        return data
    pieces = [data]  # a short read: Linux returns at most ~2 GiB per call
    got = len(data)
    while got < length:
        piece = os.pread(fd, length - got, start + got)
        if not piece:
            break  # the file shrank under us; search what is there, as a serial read would
        pieces.append(piece)
        got += len(piece)
    return b"".join(pieces)


class _Unsplittable(Exception):
    """This range cannot be searched on its own; the file goes back to the serial search."""


def _load_range(fd: int, start: int, end: int, config) -> bytes:
    """A range's bytes, if the range can be searched on its own."""
    data = _pread_all(fd, start, end - start)
    if config.binary != BINARY_NONE and data.find(b"\0") >= 0:
        raise _Unsplittable("binary data")
    if data.startswith(BOMS):
        raise _Unsplittable("a byte-order mark starts the range")
    return data


def _fused_lead(command, config, shown: bytes) -> bytes | None:
    """The line lead when the ranges' lines are printed by the fused literal search
    (search/plain_literal.py), which needs each range's first line number before it starts;
    None when the general search runs first and its line numbers are shifted afterwards
    (also under -a, where a range may hold NUL bytes the fused search does not print)."""
    if config.binary == BINARY_NONE:
        return None
    return command.plain_lead(shown)


def _search_range(matcher, config, data: bytes) -> tuple:
    """The general search of a range: its result, and the number of newlines in the range
    (the search counted them up to its last line; only the rest is counted here)."""
    try:
        result = search_bytes(data, matcher, config)
    except (TimeoutError, SearchTimeout):
        raise _Unsplittable("regex timeout") from None
    if result.lines:
        last = result.lines[-1]
        return result, last.number - 1 + data.count(b"\n", last.offset)
    return result, data.count(b"\n")


def _render(command, shown: bytes, result, start: int, base: int) -> tuple:
    """What a range's general search result contributes: (matched, printed bytes, matched
    lines, matches), its lines renumbered from *base* lines before the range at *start*."""
    printer = command.standard
    if printer is None:
        return (result.has_match, b"", result.matched_lines, result.matches)
    if start:
        for line in result.lines:
            line.number += base
            line.offset += start
    chunk = printer.print_file(shown, result)
    return (result.has_match and printer.last_matched, chunk, 0, 0)


def _search_and_render(command, matcher, config, shown: bytes, data: bytes, start: int,
                       base_in, base_out: int | None) -> tuple | None:
    """One range, from its bytes to what it contributes; *base_in* gives the number of lines
    before it (a callable for the first range, a pipe for the others) and *base_out* takes
    the number before the next one. None when a previous range failed."""
    lead = _fused_lead(command, config, shown)
    if lead is not None:
        # Count first: the fused search prints line numbers as it goes.
        base = _pass_base(base_in, base_out, data.count(b"\n") if base_out is not None else 0)
        if base is None:
            return None
        options = command.standard.options
        try:
            spans = literal_line_spans(data, matcher, config.timeout, options.max_columns)
            lines = plain_lines(data, spans, lead, options.line_number, options.max_columns,
                                first_line=base + 1)
        except (TimeoutError, SearchTimeout):
            raise _Unsplittable("regex timeout") from None
        if lines is not None:
            return (bool(lines), b"".join(lines), 0, 0)
        result, _ = _search_range(matcher, config, data)  # a long line: the printer's way
        return _render(command, shown, result, start, base)
    # Search first: the previous range is searching meanwhile; renumber afterwards.
    result, newlines = _search_range(matcher, config, data)
    base = _pass_base(base_in, base_out, newlines)
    if base is None:
        return None
    return _render(command, shown, result, start, base)


def _pass_base(base_in, base_out: int | None, newlines: int) -> int | None:
    """The number of lines before this range (from *base_in*), after forwarding the number
    before the next range to *base_out*; None when the chain broke."""
    if callable(base_in):
        base = base_in()
    else:
        record = os.read(base_in, _COUNT.size)
        if len(record) < _COUNT.size:
            return None
        (base,) = _COUNT.unpack(record)
    if base_out is not None:
        write_all(base_out, _COUNT.pack(base + newlines))
    return base


def _read_to_end(fd: int) -> bytes:
    pieces = []
    while True:
        piece = os.read(fd, 1 << 20)
        if not piece:
            return b"".join(pieces)
        pieces.append(piece)


def _child(command, matcher, config, shown: bytes, fd: int, span: tuple[int, int],
           base_in: int, base_out: int | None, out: int) -> None:
    """Body of the worker for one range after the first. Leaving without a frame sends the
    file back to the serial search; exiting closes *base_out*, which ends the chain."""
    start, end = span
    try:
        data = _load_range(fd, start, end, config)
        part = _search_and_render(command, matcher, config, shown, data, start, base_in, base_out)
    except _Unsplittable:
        return
    if part is not None:
        write_all(out, pickle.dumps(part, 5))


def search_split(command, matcher, config, path: str | bytes, shown: bytes, workers: int,
                 skip_identity: tuple[int, int] | None = None):
    """The (matched, printed bytes, matched lines, matches) of searching the regular file at
    *path* under *config*, split across *workers* processes; None when it is to be searched
    serially (also when it cannot be opened: the serial search reports that in rg's words)."""
    if workers < 2 or sys.platform == "win32" or not hasattr(os, "fork"):
        return None
    try:
        # stat before open: opening a FIFO would block.
        st = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode) or not can_split(command, matcher, config, st.st_size, workers):
        return None
    if skip_identity is not None and (st.st_dev, st.st_ino) == skip_identity:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        size = os.fstat(fd).st_size
        if os.pread(fd, 3, 0).startswith(BOMS):
            return None  # the serial search decodes or strips it
        ranges = split_ranges(fd, size, workers)
        if ranges is None:
            return None
        return _run(command, matcher, config, shown, fd, ranges)
    finally:
        os.close(fd)


def _run(command, matcher, config, shown: bytes, fd: int, ranges: list[tuple[int, int]]):
    count = len(ranges)
    # bases[k]: the chain's pipe into range k (k >= 1); outs[k]: range k's frame to the parent.
    bases = {k: os.pipe() for k in range(1, count)}
    outs = {k: os.pipe() for k in range(1, count)}
    pids: list[int] = []
    for k in range(1, count):
        pid = os.fork()
        if pid == 0:  # child
            status = 0
            try:
                keep = {bases[k][0], outs[k][1]}
                if k + 1 < count:
                    keep.add(bases[k + 1][1])
                for pair in (*bases.values(), *outs.values()):
                    for end in pair:
                        if end not in keep:
                            os.close(end)
                _child(command, matcher, config, shown, fd, ranges[k], bases[k][0],
                       bases[k + 1][1] if k + 1 < count else None, outs[k][1])
            except BaseException:
                status = 1
            finally:
                os._exit(status)  # never return into the parent's code or its atexit handlers
        pids.append(pid)
    # The parent keeps the chain's first write end and the frames' read ends.
    for k in range(1, count):
        os.close(bases[k][0])
        os.close(outs[k][1])
        if k > 1:
            os.close(bases[k][1])
    chain = bases[1][1] if count > 1 else None
    try:
        try:
            data = _load_range(fd, *ranges[0], config)
            part = _search_and_render(command, matcher, config, shown, data, 0, lambda: 0, chain)
        except _Unsplittable:
            return None
        if chain is not None:
            os.close(chain)
            chain = None
        parts = [part]
        for k in range(1, count):
            frame = _read_to_end(outs[k][0])
            if not frame:
                return None
            parts.append(pickle.loads(frame))
    finally:
        if chain is not None:
            os.close(chain)
        for k in range(1, count):
            os.close(outs[k][0])
        for pid in pids:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
    return (
        any(part[0] for part in parts),
        b"".join(part[1] for part in parts),
        sum(part[2] for part in parts),
        sum(part[3] for part in parts),
    )
