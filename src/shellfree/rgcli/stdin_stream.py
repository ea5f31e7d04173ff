"""Search standard input as it arrives, one fill of rg's line buffer at a time.

rg reads standard input through its line buffer like any file it does not map, so it prints
the lines of ``tail -f log | rg --line-buffered ERROR`` as they come, ``rg -q`` returns at
the first match of a stream still being written, and a stream of any length costs a few
fills. The whole-file search (searcher.search_bytes) needs every byte first: over a pipe
that never ends it would print nothing, and a 5 GB stream would cost 5 GB. For the standard
printer (without --heading), or where only a summary is printed (-c, --count-matches, -l,
--files-without-match, -q), and with no multi-line pattern or ``\\A``/``\\z``, this module
reads as rg reads and searches each run of whole lines as soon as it is read, with the line
numbers and offsets of the lines before it; with -m it stops reading where rg stops (``tail
-f log | rg -m1 ERROR`` returns at the first match). Context lines (``tail -f log | rg -C2
ERROR``) are searched with the lines before the run that they may need (_Place).

Binary data is where the fills show: rg checks each fill's new bytes for a NUL, and once one
is seen its standard printer refuses the next line it is handed, printing the notice at the
end if the input matched at all (before the NUL's fill, or in a line it refused); its
summaries count on, the NULs turned into line terminators. So this module reads fill by
fill as rg does (the sniff of a byte-order mark, Rust's 8 KiB stdin buffer: see
line_buffer.STDIN_BUFFER; from a pipe a read returns what has been written, as rg's does).
Input that starts with a byte-order mark goes to the whole-file search, which transcodes it.
"""

from __future__ import annotations

import io
import os
from typing import BinaryIO

from shellfree._record import replace
from shellfree.search.decode import BOMS
from shellfree.search.errors import os_error_text
from shellfree.search.line_buffer import BOM_SNIFF, FILL, STDIN_BUFFER, preceding
from shellfree.search.searcher import BINARY_NONE, FileResult, search_bytes

__all__ = ["search_stdin_stream", "streamable"]

_BATCH = 4 << 20  # fills searched together when they arrive at once (a file, a fast writer)


def streamable(command, args) -> bool:
    """Whether *command*'s search of standard input may go a fill at a time: the standard
    printer's lines, or only a summary (a count, the name, the exit status)."""
    config, matcher = command.config, command.matcher
    if (command.json is not None or matcher.can_match_newline
            or getattr(matcher, "whole_text", False) or getattr(matcher, "text_anchors", False)):
        return False
    # -m counts selected lines across the batches; not where context lines move the count
    # (-c keeps -A's lines under -m: searcher) or where -v counts one line per fill (-l, -q).
    context = config.before_context or config.after_context
    if config.max_count is not None and (context or config.first_per_fill):
        return False
    # Nor -v with context lines: after binary data rg writes breaks of its own there
    # (inverted_replay.breaks_after_refusal), which the whole-file search reproduces.
    if config.invert and context and command.mode == "standard" and not args.quiet:
        return False
    if command.mode != "standard" or args.quiet:
        return True
    return command.standard is not None and not args.heading


class _StdinReads:
    """rg's reads of standard input: each asks for what its buffer's free space allows, and
    Rust's stdin buffer serves a request smaller than 8 KiB from one 8 KiB read of its own
    (the rule line_buffer.fill_reads models over a stream read whole)."""

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
        while len(self._held) < BOM_SNIFF:
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
    if reads.head().startswith(BOMS):
        return _Replayed(reads.rest())
    # Standard input is named on the command line: NULs are binary data in rg's "convert"
    # mode (turned into line terminators), unless -a.
    binary = command.binary_mode(True)
    config = replace(command.config_for(binary, False, True), whole_stream=False)
    lines = _LineBuffer(reads)
    if command.mode != "standard" or command.args.quiet:
        _summarise(command, config, lines, binary != BINARY_NONE)
    else:
        _print_lines(command, config, lines, binary != BINARY_NONE)
    return None


class _LineBuffer:
    """rg's line buffer over standard input: each fill reads until its new bytes hold a line
    terminator or the input ends, a full buffer growing threefold (line_buffer.fill_reads
    models the same fills over a stream read whole; here they are real reads)."""

    def __init__(self, reads: _StdinReads) -> None:
        self.reads = reads
        self.capacity = FILL
        self.first = True  # the first read is the 3-byte sniff for a byte-order mark
        self.pending = b""  # the line the last fill left incomplete
        self.offset = 0  # the stream offset of its first byte
        # Bytes before it the buffer still holds: with context lines rg's roll keeps lines
        # already searched (line_buffer._roll), which take buffer space from the next fill.
        self.held = 0
        self.eof = False

    def fill(self, convert: bool) -> tuple[bytes, bytes, int]:
        """One fill: (its new bytes, the whole lines it completes, their stream offset); at
        the end of the input the last line counts as whole. *convert*: NULs read become
        line terminators."""
        new, got = [], 0
        while True:
            free = self.capacity - self.held - len(self.pending) - got
            if free <= 0:
                self.capacity *= 3
                continue
            data = self.reads.read(min(BOM_SNIFF, free) if self.first else free)
            self.first = False
            if not data:
                self.eof = True
                break
            if convert:
                data = data.replace(b"\0", b"\n")
            new.append(data)
            got += len(data)
            if data.find(b"\n") >= 0:
                break
        fresh = b"".join(new)
        data = self.pending + fresh
        cut = len(data) if self.eof else data.rfind(b"\n") + 1
        whole, start = data[:cut], self.offset
        self.pending, self.offset = data[cut:], start + cut
        return fresh, whole, start


def _print_lines(command, config, lines: _LineBuffer, check_nul: bool) -> None:
    """The standard printer's lines, a batch of fills at a time; at the first NUL, what rg
    prints once it has seen binary data (_after_binary). With -m, reading ends at the fill
    that holds the last line it allows, so a NUL past it is never seen."""
    shown = b"<stdin>"
    place = _Place(config.max_count, config.before_context, config.after_context)
    # Where rg's fills fall decides what is printed before binary data; with context lines
    # they depend on what each fill's search printed (the roll), so each is searched alone.
    rolling = check_nul and (place.before or place.after)
    batch: list[bytes] = []  # whole lines read and not yet searched
    batched = 0
    while place.left != 0:
        fresh, whole, _ = lines.fill(False)
        nul = fresh.find(b"\0") if check_nul else -1
        if nul >= 0:
            _search_batch(command, config, shown, batch, place)
            if place.left == 0:
                break
            at = lines.offset + len(lines.pending) - len(fresh) + nul
            if place.before or place.after:
                _after_binary_in_context(command, config, shown, lines, whole, at, place)
            else:
                _after_binary(command, config, shown, lines, whole, at)
            return
        if whole:
            batch.append(whole)
            batched += len(whole)
        if lines.eof or lines.reads.waited or batched >= _BATCH or rolling:
            # Print what was read before a read that may wait for the writer.
            _search_batch(command, config, shown, batch, place)
            batched = 0
            if rolling:
                lines.held = lines.offset - place.kept
        if lines.eof:
            break
    command.emit(_outcome(searched=True))


class _Place:
    """Where the next batch starts in the stream (offset, lines before it), how many lines -m
    still allows (None: no limit), and, with context lines, what of the stream before the
    batch its search needs again.

    A batch's before-context may reach back into the lines before it, and a match near the
    end of the last batch owes after-context lines to this one. So a batch is searched after
    the *tail*, the last lines before it that either may need (at most -B lines, and the lines
    from the last selected one on while its -A lines are not all there), and lines already
    printed are dropped from its result: printing is in line order, so they are the ones
    numbered up to *printed_up_to*. Where the first line kept does not follow the last one
    printed, rg's "--" goes before it, as between any two groups."""

    def __init__(self, left: int | None, before: int = 0, after: int = 0) -> None:
        self.offset = 0
        self.line_count = 0
        self.left = left
        self.before = before
        self.after = after
        self.tail = b""
        self.tail_lines = 0
        self.printed = False  # a line was printed
        self.printed_up_to = 0  # the number of the last one
        self.last_match = 0  # the number of the last selected line printed; 0: none
        self.kept = 0  # where rg's buffer starts after the roll that follows the batch


def _search_batch(command, config, shown: bytes, batch: list[bytes], place: _Place) -> None:
    """Search and emit the whole lines in *batch* (emptied), which start at *place*; move
    *place* past them."""
    if not batch:
        return
    data = b"".join(batch)
    batch.clear()
    if place.left is not None:
        config = replace(config, max_count=place.left)
    tail, tail_lines = place.tail, place.tail_lines
    searched = tail + data if tail else data
    data_lines = data.count(b"\n")
    result = search_bytes(searched, command.matcher, config)
    if place.before or place.after:
        _keep_tail(place, searched, tail_lines + data_lines, result)
        _drop_printed(result, place.printed_up_to - (place.line_count - tail_lines))
    if result.lines:
        for line in result.lines:
            if line is not None:
                line.number += place.line_count - tail_lines
                line.offset += place.offset - len(tail)
        first = not place.printed
        _break_before(result, place)
        printer = command.standard
        chunk = printer.print_file(shown, result)
        # rg's "--" between inputs goes before the stream's first line only.
        command.emit(_outcome(searched=True, matched=printer.last_matched, chunk=chunk,
                              starts_with_line=first and printer.last_starts_with_line))
        if command.args.buffering != "block":
            # A stream's lines are out before the next read waits for more (rg: under
            # --line-buffered, or to a terminal; shellfree into a pipe as well).
            command.out.stdout.flush()
    place.offset += len(data)
    place.line_count += data_lines
    if place.left is not None:
        place.left -= result.matched_lines


def _drop_printed(result: FileResult, printed: int) -> None:
    """Drop from *result* (of the tail and a batch, numbered from the tail's first line) the
    lines up to number *printed*, printed already, and the breaks before the first line kept."""
    kept: list = []
    for line in result.lines:
        if line is None:
            if kept:
                kept.append(None)
        elif line.number > printed:
            kept.append(line)
    result.lines = kept


def _keep_tail(place: _Place, whole: bytes, ends: int, result: FileResult) -> None:
    """Keep as the next batch's tail the last lines of *whole* (the tail and the batch, *ends*
    lines, whose search gave *result*) it may need: the last -B, and those from the last
    selected line on while that line's -A lines are not all read. Note where the roll leaves
    rg's buffer (line_buffer._roll): at the start of the last -B + 1 lines (the batch adds at
    least one line to the -B kept), or past the last line handed to the printer, or where it
    was."""
    keep = place.before
    for line in reversed(result.lines):
        if line is not None and line.kind == "match":
            if line.number + place.after > ends:
                keep = max(keep, ends - line.number + 1)
            break
    base = place.offset - len(place.tail)  # the stream offset of whole
    roll = base + preceding(whole, 0, len(whole), place.before) if whole else base
    last = next((line for line in reversed(result.lines) if line is not None), None)
    handed = base + last.offset + len(last.text) if last is not None else 0
    place.kept = max(place.kept, roll, handed)
    place.tail = whole[preceding(whole, 0, len(whole), keep - 1):]
    place.tail_lines = min(keep, ends)


def _break_before(result: FileResult, place: _Place) -> None:
    """rg's "--" before the batch's first line (it has one) when that does not follow the last
    line printed; then note the last line printed."""
    lines = result.lines
    first = lines[0]
    if place.printed and first.number > place.printed_up_to + 1 and (place.before or place.after):
        lines.insert(0, None)
    place.printed = True
    place.printed_up_to = next(line for line in reversed(lines) if line is not None).number
    place.last_match = next((line.number for line in reversed(lines)
                             if line is not None and line.kind == "match"), place.last_match)


def _after_binary(command, config, shown: bytes, lines: _LineBuffer, whole: bytes,
                  nul: int) -> None:
    """rg saw a NUL at stream offset *nul* in the fill that completed *whole*: its printer
    refuses the next line it is handed, so nothing more is printed but the notice, at the
    end, if the input matched at all (before, or in the line refused). From that fill on,
    NULs are line terminators."""
    plain = replace(config, binary=BINARY_NONE, stop_at_first=True)
    matched = (command.matched_any
               or search_bytes(_converted(lines, whole), command.matcher, plain).has_match)
    while not matched and not lines.eof:
        _, whole, _ = lines.fill(True)
        matched = search_bytes(whole, command.matcher, plain).has_match
    notice = command.standard.binary_notice(shown, nul) if matched else b""
    command.emit(_outcome(searched=True, matched=matched, chunk=notice,
                          starts_with_line=False))


def _converted(lines: _LineBuffer, whole: bytes) -> bytes:
    """The whole lines of the NUL's fill (*whole*, with what it left incomplete) once rg has
    seen binary data: its NULs are line terminators, so the line the fill left incomplete may
    end in it; what still lacks a terminator stays pending."""
    data = (whole + lines.pending).replace(b"\0", b"\n")
    cut = len(data) if lines.eof else data.rfind(b"\n") + 1
    lines.pending = data[cut:]
    return data[:cut]


def _after_binary_in_context(command, config, shown: bytes, lines: _LineBuffer, whole: bytes,
                             nul: int, place: _Place) -> None:
    """:func:`_after_binary` with context lines. rg's printer refuses the first line it is
    handed after the NUL's fill, a context line as a match: a refused match counts (the
    notice follows), a refused context line ends the output silently, and the notice then
    follows only if a match was printed before. That first line is the one after the last
    printed while that match's -A lines are owed; otherwise the first of the next match's -B
    lines not printed yet (held from before the fill), or the match itself. rg writes the "--"
    before it, where it does not follow the last line printed."""
    plain = replace(config, binary=BINARY_NONE, max_count=1, before_context=0,
                    after_context=0)
    rest, first_line = _converted(lines, whole), place.line_count + 1  # the fill's lines
    owed = place.last_match > 0 and place.last_match + place.after >= first_line
    while True:
        found = search_bytes(rest, command.matcher, plain)
        if found.lines or owed or lines.eof:
            break
        # Only the next match matters, and the -B lines before it, which a fill not searched
        # yet holds unless they lie in the last ones.
        first_line += rest.count(b"\n")
        keep = rest[preceding(rest, 0, len(rest), place.before - 1):]
        first_line -= keep.count(b"\n")
        _, more, _ = lines.fill(True)
        rest = keep + more
    if owed:
        handed = place.printed_up_to + 1
        is_match = bool(found.lines) and found.lines[0].number + first_line - 1 == handed
    elif found.lines:
        match = found.lines[0].number + first_line - 1
        handed = max(match - place.before, place.printed_up_to + 1)
        is_match = handed == match
    else:
        handed, is_match = 0, False  # no line is handed: the notice if a match was printed
    chunk = b""
    if handed and place.printed and handed > place.printed_up_to + 1:
        chunk = command.standard.context_break()
    matched = is_match or place.last_match > 0
    if matched:
        chunk += command.standard.binary_notice(shown, nul)
    command.emit(_outcome(searched=True, matched=matched, chunk=chunk, starts_with_line=False))


def _summarise(command, config, lines: _LineBuffer, convert: bool) -> None:
    """A count, the name or only the exit status (-c, --count-matches, -l,
    --files-without-match, -q), the lines searched a batch of fills at a time. rg's summary
    counts the matches past binary data too, its NULs turned into line terminators; -l and
    -q stop at the first match."""
    plain = replace(config, binary=BINARY_NONE)
    left = config.max_count  # -m: the lines it still allows
    total = FileResult()
    batch: list[bytes] = []
    batched = 0
    while not lines.eof and left != 0:
        _, whole, _ = lines.fill(convert)
        batch.append(whole)
        batched += len(whole)
        if lines.eof or lines.reads.waited or batched >= _BATCH:
            if left is not None:
                plain = replace(plain, max_count=left)
            result = search_bytes(b"".join(batch), command.matcher, plain)
            batch.clear()
            batched = 0
            total.matched_lines += result.matched_lines
            total.matches += result.matches
            if left is not None:
                left -= result.matched_lines
            if plain.stop_at_first and total.has_match:
                break
    if command.mode == "files_without_match":
        matched = not total.has_match
    else:
        matched = total.has_match
    if command.args.quiet:
        command.emit(_outcome(searched=True, matched=matched))
        return
    command.emit(_outcome(searched=True, matched=matched,
                          chunk=command.summary.print_file(b"<stdin>", total)))


def _outcome(**fields):
    from shellfree.rgcli.search import Outcome  # the module that imports this one

    return Outcome(**fields)
