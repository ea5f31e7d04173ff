"""Search one large file in pieces, and in forked workers, each taking a run of whole lines.

rg searches a lone file on one thread at memory speed; pure Python reads, finds and counts
lines at about 1 ns a byte, so a 200 MB log costs a fifth of a second more than rg before any
line is printed. The file's lines are independent when nothing ties one line's output to
another's (no context, no -m, no multi-line match, no binary data), so the command-line
process cuts the file at newlines and searches the ranges in parallel.

Each process reads its range a piece of a few megabytes at a time with ``pread`` and searches
each piece as a file of its own: the allocator hands every piece the memory the previous one
freed, where one read of the whole range would fault in fresh pages (on the 200 MB benchmark
file, per 100 MB: 50 ms to read whole, 7-11 ms in 4 MiB pieces). The count of lines before a
range is the one thing a range cannot know by itself; it is passed down a chain of pipes:
each range's process searches and counts its newlines (in the same pass that numbers its
lines), adds them to the count it receives and forwards the sum, then prints its lines with
their final numbers. The parent searches the first range and writes nothing until every range
has reported; a range that cannot be searched alone (a NUL byte, which makes the whole file
binary; a regex timeout) sends the file back to the serial search, which then gives rg's
exact output for it.

Where no worker may be forked (FileTools in a host process), -j1 asks for one thread or -l
needs only the first match, the file is one range, searched in pieces by the calling process
alone (under -l up to the first piece that matches, under -m up to the one that completes
the count). So is a file searched with context options, whose pieces' lines are merged
before they are printed (_search_context_pieces). So is a large file met in a walk, once
file_read.read_whole has found it large (rgcli/search.py). Windows has no ``pread``: there
a piece is read with a seek and a read, by the one process (nothing forks there).
"""

from __future__ import annotations

import os
import pickle
import stat
import struct
import sys

from shellfree._lines import end_of_lines
from shellfree._record import replace
from shellfree.rgcli.parallel import write_all
from shellfree.search.decode import BOMS
from shellfree.search.line_buffer import FillReads
from shellfree.search.plain_literal import line_texts, print_line_texts
from shellfree.search.searcher import (
    BINARY_NONE,
    FileResult,
    Line,
    SearchTimeout,
    expect_bytes,
    literal_line_spans,
    search_bytes,
)

__all__ = ["SPLIT_MIN_BYTES", "search_split", "split_ranges"]

_HAS_PREAD = hasattr(os, "pread")

#: Files of this size or more are searched in pieces (and in ranges by workers where they may
#: be forked). Below it a file is read whole: a fork and the coordination would cost more than
#: half a search saves, and one read of it costs little memory.
SPLIT_MIN_BYTES = 32 << 20
#: How far past a cut point the next newline may be; a longer line keeps the file whole. Kept
#: at 1 MiB on purpose: a file of megabyte lines (minified code) prints megabytes per matching
#: line, and passing them back from a worker cost more than the split saved (measured on 70 MB
#: of 2 MB lines: 332 ms split, 262 ms whole).
_CUT_WINDOW = 1 << 20
#: The size of the pieces a range is read and searched in: small enough that the allocator
#: reuses one piece's memory for the next, large enough that the per-piece work (a read, a
#: cut, a search call) is lost in the scan (1-16 MiB measured alike, 16 MiB a little slower).
_PIECE_BYTES = 4 << 20
_COUNT = struct.Struct("<Q")
_SPLIT_MODES = ("standard", "count", "count_matches")


def can_split(command, matcher, config, size: int) -> bool:
    """Whether a search's output for one file of *size* bytes is the concatenation of its
    ranges' outputs: every line is printed (or counted) on its own merits; or, under -l,
    whether the file can be searched in pieces, in order, up to the first that matches."""
    first_match = _first_match_only(command, config)
    return (
        size >= SPLIT_MIN_BYTES
        and (command.mode in _SPLIT_MODES or first_match)
        and not (command.standard is not None and command.standard.options.heading)
        and (not (config.before_context or config.after_context)
             or (command.mode == "standard" and config.max_count is None))
        and (not config.stop_at_first or first_match)
        and not matcher.multiline
        and not matcher.can_match_newline
        and not getattr(matcher, "whole_text", False)
        # rg's printer re-finds a matching line's \A only at the start of its buffer: each
        # piece's first line would have it.
        and not getattr(matcher, "text_anchors", False)
    )


def _first_match_only(command, config) -> bool:
    """Whether only a file's first matching line matters (-l, -q): its pieces are searched in
    order, by one process, and the search stops at the first that matches, as rg stops
    reading (-q prints nothing; only whether it matched decides the exit status)."""
    return config.stop_at_first and (command.mode == "files_with_matches" or command.args.quiet)


def split_ranges(fd: int, size: int, parts: int) -> list[tuple[int, int]] | None:
    """(start, end) byte ranges of about ``size / parts`` bytes, each ending just after a
    newline (the last at *size*); None when a cut point has no newline within reach."""
    starts = [0]
    for k in range(1, parts):
        start = _cut_after(fd, max(size * k // parts - 1, 0), size)
        if start is None or start <= starts[-1] or start >= size:
            return None
        starts.append(start)
    return list(zip(starts, starts[1:] + [size]))


def _cut_after(fd: int, at: int, end: int) -> int | None:
    """Where the first line starting after byte *at* (and before *end*) begins whose first
    bytes are not a byte-order mark, which the search of a piece starting there would take
    for its encoding; None when there is none within reach."""
    cut = _next_line(fd, at)
    while cut is not None and cut < end and _read_at(fd, 4, cut).startswith(BOMS):
        cut = _next_line(fd, cut)
    return cut


def _next_line(fd: int, at: int) -> int | None:
    """Where the first line starting after byte *at* begins, looking at most _CUT_WINDOW
    bytes ahead (in growing reads: most lines are short, minified ones megabytes long)."""
    offset, step = at, 1 << 16
    while offset - at < _CUT_WINDOW:
        window = _read_at(fd, min(step, at + _CUT_WINDOW - offset), offset)
        if not window:
            return None
        newline = window.find(b"\n")
        if newline >= 0:
            return offset + newline + 1
        offset += len(window)
        step *= 4
    return None


def _read_at(fd: int, length: int, offset: int) -> bytes:
    """``os.pread``; where there is none (Windows), a seek and a read, which is the same for
    the one process that uses the descriptor (search_split forks no worker there)."""
    if _HAS_PREAD:
        return os.pread(fd, length, offset)
    os.lseek(fd, offset, os.SEEK_SET)
    return os.read(fd, length)


def _pread_all(fd: int, start: int, length: int) -> bytes:
    data = _read_at(fd, length, start)
    if len(data) == length:
        return data
    pieces = [data]  # a short read: Linux returns at most ~2 GiB per call
    got = len(data)
    while got < length:
        piece = _read_at(fd, length - got, start + got)
        if not piece:
            break  # the file shrank under us; search what is there, as a serial read would
        pieces.append(piece)
        got += len(piece)
    return b"".join(pieces)


class _Unsplittable(Exception):
    """This range cannot be searched on its own; the file goes back to the serial search."""


def _load_range(fd: int, start: int, end: int, config) -> bytes:
    """The bytes of a range or piece, if it can be searched on its own (a byte-order mark
    at its start means the file changed since it was cut)."""
    data = _pread_all(fd, start, end - start)
    if config.binary != BINARY_NONE and data.find(b"\0") >= 0:
        raise _Unsplittable("binary data")
    if data.startswith(BOMS):
        raise _Unsplittable("a byte-order mark starts the range")
    return data


def _fused_lead(command, config, shown: bytes) -> bytes | None:
    """The line lead when the ranges' lines are printed by the fused literal search
    (search/plain_literal.py); None when the general search prints them (also under -a, where
    a range may hold NUL bytes the fused search does not print)."""
    if config.binary == BINARY_NONE:
        return None
    return command.plain_lead(shown)


def _pieces(fd: int, start: int, end: int):
    """(start, end) of the runs of whole lines, about _PIECE_BYTES each, that cover the range
    [start, end) (the rest of the range is one piece past a line longer than _CUT_WINDOW)."""
    while end - start > _PIECE_BYTES:
        cut = _cut_after(fd, start + _PIECE_BYTES - 1, end)
        if cut is None or cut >= end:
            break
        yield start, cut
        start = cut
    yield start, end


def _search_or_give_up(matcher, config, data: bytes) -> FileResult:
    """search_bytes, or _Unsplittable when it runs out of time (the serial search reports
    the timeout in rg's words)."""
    try:
        return search_bytes(data, matcher, config)
    except (TimeoutError, SearchTimeout):
        raise _Unsplittable("regex timeout") from None


def _search_general(matcher, config, data: bytes) -> tuple:
    """The general search of a piece: its result, and the number of newlines in the piece
    (the search counted them up to its last line; only the rest is counted here)."""
    result = _search_or_give_up(matcher, config, data)
    if result.lines:
        last = result.lines[-1]
        return result, last.number - 1 + data.count(b"\n", last.offset)
    return result, data.count(b"\n")


def _search_pieces(command, matcher, config, shown: bytes, fd: int, span: tuple[int, int]):
    """Search a range a piece at a time: what each piece found, with the number of newlines
    before it in the range, and the number of newlines in the whole range.

    Nothing here needs the number of lines before the range, so every range searches at once
    and its lines are numbered afterwards (_render). A piece found by the fused search is
    (newlines before it, its line_texts); one found by the general search is (newlines before
    it, its FileResult, its file offset)."""
    lead = _fused_lead(command, config, shown)
    longest = command.standard.options.max_columns if lead is not None else None
    # -l and -m: the one range is the whole file, searched up to its first match or its -m
    # lines. rg reads on to the end of the fill that searched the last of them, and a NUL
    # there changes what it prints (a walked file quits at that fill; a named one prints
    # the binary notice in place of a match): the serial search then says what.
    limited = config.stop_at_first or config.max_count is not None
    fills = FillReads(span[1]) if limited and config.binary != BINARY_NONE else None
    remaining = config.max_count
    parts: list[tuple] = []
    newlines = 0
    for start, end in _pieces(fd, *span):
        piece_config = config if remaining is None else replace(config, max_count=remaining)
        found, counted = _search_piece(matcher, piece_config, lead, longest, fd, start, end,
                                       fills)
        parts.append((newlines, *found))
        newlines += counted
        if len(found) == 2 and found[0].has_match:
            if remaining is not None:
                remaining -= found[0].matched_lines
            if config.stop_at_first or remaining == 0:
                if fills is not None:
                    _no_nul_in_fill(fd, fills, found[0], start, end)
                break  # the rest cannot change the outcome (one range, see search_split)
    return parts, newlines


def _no_nul_in_fill(fd: int, fills: FillReads, result, start: int, end: int) -> None:
    """Raise _Unsplittable when rg's fill that searched the last line the piece [start, end)
    selected read a NUL after the piece (the piece itself held none): rg quits at that fill
    (a walked file) or prints its binary notice (a named one), and the serial search says
    what it prints."""
    selected = [line for line in result.lines if line is not None and line.kind == "match"]
    line = selected[-1] if selected else None
    last_byte = start + line.offset + len(line.text) - 1 if line is not None else end - 1
    pos = end
    while True:
        fill_end = fills.end_of_fill(last_byte)
        if fill_end is not None and fill_end <= pos:
            return
        data = _read_at(fd, _PIECE_BYTES if fill_end is None else fill_end - pos, pos)
        if not data:
            return  # the file shrank: nothing more to read
        if data.find(b"\0") >= 0:
            raise _Unsplittable("binary data in the matching line's fill")
        fills.feed(data, pos)
        pos += len(data)


def _search_piece(matcher, config, lead: bytes | None, longest: int | None, fd: int,
                  start: int, end: int, fills: FillReads | None = None) -> tuple[tuple, int]:
    """What one piece found (without its count of newlines before it) and its number of
    newlines; *fills*, if given, is fed the piece. A function of its own so that the piece's
    bytes are freed on return, before the next piece is read into the same memory (kept one
    piece longer, a 100 MB range read in 4 MiB pieces of slightly different sizes faulted in
    fresh pages again: 29 ms, not 7)."""
    data = _load_range(fd, start, end, config)
    if fills is not None:
        fills.feed(data, start)
    if lead is not None:
        try:
            found = line_texts(data, literal_line_spans(data, matcher, config.timeout, longest),
                               longest)
        except (TimeoutError, SearchTimeout):
            raise _Unsplittable("regex timeout") from None
        if found is not None:
            texts, counted = found
            return (texts,), counted
        # A line longer than --max-columns: the printer's stand-in text, the general way.
    result, counted = _search_general(matcher, config, data)
    return (result, start), counted


def _render(command, config, shown: bytes, parts: list[tuple], base: int) -> tuple:
    """What a range contributes, (matched, printed bytes, matched lines, matches), from the
    pieces of _search_pieces, *base* lines lying before the range."""
    printer = command.standard
    lead = _fused_lead(command, config, shown)
    matched, chunks, matched_lines, matches = False, [], 0, 0
    for part in parts:
        if len(part) == 2:  # the fused search's lines
            before, texts = part
            if texts:
                chunks += print_line_texts(texts, lead, printer.options.line_number,
                                           base + before + 1)
                matched = True
            continue
        before, result, start = part
        if printer is None:
            matched = matched or result.has_match
            matched_lines += result.matched_lines
            matches += result.matches
            continue
        for line in result.lines:
            line.number += base + before
            line.offset += start
        chunks.append(printer.print_file(shown, result))
        matched = matched or (result.has_match and printer.last_matched)
    return (matched, b"".join(chunks), matched_lines, matches)


def _search_and_render(command, matcher, config, shown: bytes, fd: int, span: tuple[int, int],
                       base_in, base_out: int | None) -> tuple | None:
    """One range, from its bytes to what it contributes; *base_in* gives the number of lines
    before it (a callable for the first range, a pipe for the others) and *base_out* takes
    the number before the next one. None when a previous range failed."""
    if config.before_context or config.after_context:
        return _render_context(command, shown, _search_context_pieces(matcher, config, fd, span))
    parts, newlines = _search_pieces(command, matcher, config, shown, fd, span)
    base = _pass_base(base_in, base_out, newlines)
    if base is None:
        return None
    return _render(command, config, shown, parts, base)


def _search_context_pieces(matcher, config, fd: int, span: tuple[int, int]) -> FileResult:
    """A whole file searched with context options, a piece at a time. Each piece is searched
    alone; when it selects a line within the before-context of its start or the
    after-context of its end, the lines around that end are searched again with the lines
    of the neighbouring piece (the before-context lines that end the previous piece, the
    after-context lines that start the next one), so every selected line has all its
    context. A search reports nothing that is not in the file's output, so the lines are
    merged by offset (a line reported twice is the same line, of the same kind) and the
    "--" breaks put back where the merged lines leave gaps. Only printed lines are kept,
    never the file."""
    before, after = config.before_context, config.after_context
    size = span[1]
    merged: dict[int, Line] = {}
    prefix = b""  # the last `before` lines before the piece
    newlines = 0  # lines before the piece
    for start, end in _pieces(fd, *span):
        data = _load_range(fd, start, end, config)
        result, count = _search_general(matcher, config, data)
        near_start, near_end = _near_ends(result, count + (not data.endswith(b"\n")),
                                          before, after)
        _merge(merged, result, start, newlines)  # renumbers the result's lines
        if near_start and prefix:
            if prefix.startswith(BOMS):
                # A before-context line that would start the stream with a byte-order mark,
                # which the search would take for the encoding of it all.
                raise _Unsplittable("a byte-order mark starts the context before a piece")
            head = data[: end_of_lines(data, before)]
            _merge(merged, _search_or_give_up(matcher, config, prefix + head),
                   start - len(prefix), newlines - prefix.count(b"\n"))
        if near_end:
            # No NUL is in the lines after (checked) nor in the piece, so no search here
            # reports binary data.
            suffix = _lines_after(fd, end, size, after, config)
            if suffix:
                tail = _last_lines(data, after)
                if tail.startswith(BOMS):
                    # As for the prefix above: the search would take it for the encoding.
                    raise _Unsplittable("a byte-order mark starts the lines that end a piece")
                _merge(merged, _search_or_give_up(matcher, config, tail + suffix),
                       end - len(tail), newlines + count - tail.count(b"\n"))
        newlines += count
        tail = _last_lines(data, before)
        # A piece of fewer lines than the before-context keeps some of the previous prefix.
        prefix = tail if tail is not data else _last_lines(prefix + data, before)
    result = FileResult()
    previous = None
    for offset in sorted(merged):
        line = merged[offset]
        if previous is not None and line.number != previous.number + 1:
            result.lines.append(None)
        result.lines.append(line)
        previous = line
    selected = [line for line in result.lines if line is not None and line.kind == "match"]
    result.matched_lines = len(selected)
    result.matches = sum(len(line.spans) or 1 for line in selected)
    return result


def _merge(merged: dict, result: FileResult, origin: int, first: int) -> None:
    """Add the lines of a search of the bytes from file offset *origin*, which lie after
    *first* lines, to *merged* (file offset -> line)."""
    for line in result.lines:
        if line is None:
            continue
        line.offset += origin
        line.number += first
        if line.kind == "match" or line.offset not in merged:
            merged[line.offset] = line


def _near_ends(result: FileResult, lines: int, before: int, after: int) -> tuple[bool, bool]:
    """Whether a piece of *lines* lines, searched alone, selected a line whose context
    reaches past its start (within *before* lines of it) and past its end (within *after*
    lines of it)."""
    numbers = [line.number for line in result.lines if line is not None and line.kind == "match"]
    if not numbers:
        return False, False
    return numbers[0] <= before, numbers[-1] > lines - after


def _last_lines(data: bytes, count: int) -> bytes:
    """The last *count* lines of *data*, which ends with a newline (or is empty)."""
    at = len(data) - 1
    for _ in range(count):
        at = data.rfind(b"\n", 0, at)
        if at < 0:
            return data
    return data[at + 1:] if count else b""


def _lines_after(fd: int, at: int, size: int, count: int, config) -> bytes:
    """The *count* lines that start at byte *at* (fewer at the end of the file); raises
    _Unsplittable when they are longer than _CUT_WINDOW."""
    if not count or at >= size:
        return b""
    step = 1 << 16  # growing reads, as _next_line's: most lines are short
    while True:
        window = _read_at(fd, min(step, _CUT_WINDOW, size - at), at)
        stop = -1
        for _ in range(count):
            stop = window.find(b"\n", stop + 1)
            if stop < 0:
                break
        if stop >= 0 or at + len(window) >= size:
            break  # all the lines, or the file ends first
        if len(window) >= _CUT_WINDOW:
            raise _Unsplittable("context lines longer than the cut window")
        step *= 4
    data = window if stop < 0 else window[: stop + 1]
    if config.binary != BINARY_NONE and data.find(b"\0") >= 0:
        raise _Unsplittable("binary data")
    return data


def _render_context(command, shown: bytes, result: FileResult) -> tuple:
    printer = command.standard
    chunk = printer.print_file(shown, result)
    return (result.has_match and printer.last_matched, chunk, result.matched_lines,
            result.matches)


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
        try:
            write_all(base_out, _COUNT.pack(base + newlines))
        except BrokenPipeError:
            # The next range gave up (binary data, a timeout) and left; its missing frame
            # sends the file back to the serial search. Raised on, this would pass for a
            # reader that closed stdout, and the command would end silently.
            pass
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
    try:
        part = _search_and_render(command, matcher, config, shown, fd, span, base_in, base_out)
    except _Unsplittable:
        return
    if part is not None:
        write_all(out, pickle.dumps(part, 5))


def search_split(command, matcher, config, path: str | bytes, shown: bytes, workers: int,
                 skip_identity: tuple[int, int] | None = None):
    """The (matched, printed bytes, matched lines, matches) of searching the regular file at
    *path* under *config* in pieces, its ranges split across *workers* processes (one: this
    process alone, which never forks); None when it is to be read whole and searched as any
    other file (also when it cannot be opened: that search reports it in rg's words).

    One process reading in pieces still beats reading the file whole: no page faults, and
    memory for one piece instead of the whole file (a host of FileTools searching a 2 GB log
    must not grow by 2 GB)."""
    if workers > 1 and (sys.platform == "win32" or not hasattr(os, "fork") or not _HAS_PREAD
                        or _first_match_only(command, config) or config.max_count is not None
                        or config.before_context or config.after_context):
        workers = 1
    try:
        # stat before open: opening a FIFO would block.
        st = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode) or not can_split(command, matcher, config, st.st_size):
        return None
    config = replace(config, whole_stream=False)  # each piece is searched as a stream of its own
    if skip_identity is not None and (st.st_dev, st.st_ino) == skip_identity:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    try:
        size = os.fstat(fd).st_size
        if _read_at(fd, 3, 0).startswith(BOMS):
            return None  # the serial search decodes or strips it
        ranges = split_ranges(fd, size, workers) if workers > 1 else [(0, size)]
        if ranges is None:
            return None
        expect_bytes(matcher, size)  # before the workers fork, so it is done once
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
            part = _search_and_render(command, matcher, config, shown, fd, ranges[0], lambda: 0,
                                      chain)
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
