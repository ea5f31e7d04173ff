"""Search one haystack's bytes and report matching and context lines, as ripgrep does.

:func:`search_bytes` takes a file's bytes, a compiled pattern and a :class:`SearchConfig`, and
returns a :class:`FileResult`: the lines to print (matches, context, breaks), the counts, and
what binary detection saw. It never formats output; the printers do.

How the search runs (perf-study §5): the whole stream is decoded once; a pattern with required
literals finds candidate lines with ``str.find`` and confirms each with the regex bounded to that
line; otherwise the regex scans the whole text, restarting after each matched line. Line numbers
are counted only up to the lines that are reported. There is no per-line loop over the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Protocol

from shellfree.search.decode import search_stream, to_bytes, to_text

__all__ = [
    "BINARY_QUIT",
    "BINARY_CONVERT",
    "BINARY_NONE",
    "SearchConfig",
    "Line",
    "FileResult",
    "MatcherLike",
    "search_bytes",
    "SearchTimeout",
]

BINARY_QUIT = "quit"  # walked files: stop at the fill that holds a NUL
BINARY_CONVERT = "convert"  # explicit files: NUL → "\n", printer stops at a later match
BINARY_NONE = "none"  # -a/--text

# rg's line buffer reads 64 KiB at a time; binary detection is decided per fill.
_FILL = 64 * 1024


class SearchTimeout(Exception):
    """The regex ran past its time budget on one file (a catastrophic pattern)."""


class MatcherLike(Protocol):
    """What the searcher needs from a compiled pattern (see search/pattern.py)."""

    regex: object
    can_match_newline: bool
    matches_nothing: bool
    required_literals: tuple[str, ...] | None

    def iter_spans(self, text: str, pos: int, endpos: int, timeout: float | None) -> Iterator:
        """(start, end) character spans of the matches, in rg's order and number."""


@dataclass(frozen=True)
class SearchConfig:
    """How to search one file; built once per command from the flags."""

    invert: bool = False
    max_count: int | None = None
    before_context: int = 0
    after_context: int = 0
    submatches: bool = False  # report every match's byte span (for -o, JSON, counts, columns)
    stop_at_first: bool = False  # -l / -q: the first matching line is enough
    binary: str = BINARY_QUIT
    mmap: bool = False  # explicit files rg would memory-map: NULs stay, only 64 KiB pre-scanned
    timeout: float | None = None


@dataclass(frozen=True)
class Line:
    """A line to report: ``kind`` is "match" or "context"; ``text`` keeps its terminator."""

    kind: str
    number: int
    offset: int  # absolute byte offset of the line's start in the search stream
    text: bytes
    spans: tuple[tuple[int, int], ...] = ()  # match byte spans within ``text``


@dataclass
class FileResult:
    """Everything a printer needs about one file. ``lines`` holds ``None`` for a "--" break."""

    lines: list[Line | None] = field(default_factory=list)
    matched_lines: int = 0
    matches: int = 0
    binary_offset: int | None = None
    # Lines at or after this stream offset were searched after binary data had been seen:
    # rg's standard printer replaces the first such match with the binary notice.
    binary_after: int | None = None
    # The file was cut short because of binary data (walked files).
    binary_quit: bool = False
    bytes_searched: int = 0

    @property
    def has_match(self) -> bool:
        return self.matched_lines > 0


def _fill_start_of(stream: bytes, offset: int) -> int:
    """Where rg's line buffer starts searching the fill that contains byte *offset*.

    Each fill reads 64 KiB minus the incomplete line carried over, and keeps reading while the
    new bytes hold no newline. The result is the start of the first line of that fill.
    """
    capacity = _FILL
    line_start = 0  # first byte not yet part of a searched line
    end = 0
    size = len(stream)
    while True:
        carried = end - line_start
        if carried >= capacity:
            capacity *= 2
        read_to = min(size, end + capacity - carried)
        while True:
            if read_to > offset:
                return line_start
            newline = stream.rfind(b"\n", end, read_to)
            if newline >= 0 or read_to >= size:
                break
            capacity *= 2
            end, read_to = read_to, min(size, read_to + capacity // 2)
        end = read_to
        line_start = newline + 1 if newline >= 0 else line_start
        if end >= size:
            return size


class _Offsets:
    """Character positions → byte offsets of the stream, for positions asked in order."""

    def __init__(self, text: str, ascii_only: bool) -> None:
        self.text = text
        self.ascii = ascii_only
        self.char = 0
        self.byte = 0

    def at(self, pos: int) -> int:
        if self.ascii:
            return pos
        if pos < self.char:
            return len(to_bytes(self.text[:pos]))
        self.byte += len(to_bytes(self.text[self.char : pos]))
        self.char = pos
        return self.byte


class _LineSearch:
    """Finds the lines of *text* that match, in order, in line mode."""

    def __init__(self, matcher: MatcherLike, text: str, end: int, timeout: float | None):
        self.regex = matcher.regex
        self.text = text
        self.end = end
        self.timeout = timeout
        self.literals = matcher.required_literals

    def matching_lines(self) -> Iterator[tuple[int, int]]:
        """Yield (line start, line end without terminator) of each matching line."""
        if self.literals:
            yield from self._by_literals()
        else:
            yield from self._by_regex()

    def _line_bounds(self, pos: int) -> tuple[int, int]:
        text = self.text
        start = text.rfind("\n", 0, pos) + 1
        stop = text.find("\n", pos, self.end)
        return start, (self.end if stop < 0 else stop)

    def _by_regex(self) -> Iterator[tuple[int, int]]:
        text, end, regex, timeout = self.text, self.end, self.regex, self.timeout
        pos = 0
        while pos <= end:
            m = regex.search(text, pos, end, timeout=timeout)
            if m is None:
                return
            s = m.start()
            if s == end and (end == 0 or text[end - 1] == "\n"):
                return  # rg: no phantom empty line after the final newline
            ls, le = self._line_bounds(s)
            yield ls, le
            pos = le + 1

    def _by_literals(self) -> Iterator[tuple[int, int]]:
        text, end, regex, timeout = self.text, self.end, self.regex, self.timeout
        literals = self.literals
        pos = 0
        while pos < end:
            best = -1
            for lit in literals:
                i = text.find(lit, pos, end)
                if i >= 0 and (best < 0 or i < best):
                    best = i
            if best < 0:
                return
            ls, le = self._line_bounds(best)
            if regex.search(text, ls, le, timeout=timeout) is not None:
                yield ls, le
            pos = le + 1


def _all_lines_except(text: str, end: int, matched: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """The lines of text[:end] not in *matched* (for -v)."""
    pos = 0
    it = iter(matched)
    nxt = next(it, None)
    while pos < end:
        stop = text.find("\n", pos, end)
        le = end if stop < 0 else stop
        if nxt is not None and nxt[0] == pos:
            nxt = next(it, None)
        else:
            yield pos, le
        pos = le + 1


def search_bytes(data: bytes, matcher: MatcherLike, config: SearchConfig) -> FileResult:
    """Search a file's bytes; see the module docstring."""
    result = FileResult()
    stream = search_stream(data)
    nul = stream.find(b"\0") if config.binary != BINARY_NONE else -1
    end_bytes = len(stream)
    if nul >= 0:
        result.binary_offset = nul
        if config.binary == BINARY_QUIT:
            fill_start = _fill_start_of(stream, nul)
            result.binary_quit = True
            end_bytes = fill_start
        elif config.mmap:
            # rg pre-scans only the first 64 KiB of a memory-mapped file.
            result.binary_after = 0 if nul < _FILL else None
            if nul >= _FILL:
                result.binary_offset = None
        else:
            result.binary_after = _fill_start_of(stream, nul)
            stream = stream.replace(b"\0", b"\n")
    searched = stream[:end_bytes]
    result.bytes_searched = len(searched)
    if config.mmap and result.binary_offset is not None:
        # rg reports a memory-mapped binary file as searched up to its first NUL.
        result.bytes_searched = result.binary_offset
    if matcher.matches_nothing and not config.invert:
        return result
    text = to_text(searched)
    end = len(text)
    offsets = _Offsets(text, searched.isascii())
    if matcher.can_match_newline:
        _search_multiline(text, end, matcher, config, result, offsets)
    else:
        _search_lines(text, end, matcher, config, result, offsets)
    return result


def _search_lines(text, end, matcher, config, result, offsets) -> None:
    finder = _LineSearch(matcher, text, end, config.timeout)
    limit = config.max_count
    if matcher.matches_nothing:
        hits: Iterator[tuple[int, int]] = iter(())
    else:
        hits = finder.matching_lines()
    if config.invert:
        hits = _all_lines_except(text, end, list(hits))
    selected: list[tuple[int, int]] = []
    for span in hits:
        if limit is not None and len(selected) >= limit:
            break
        selected.append(span)
        if config.stop_at_first:
            break
    result.matched_lines = len(selected)
    if config.submatches and not config.invert:
        counts = []
        for ls, le in selected:
            counts.append(sum(1 for _ in _line_matches_iter(matcher, text, ls, le, end, config.timeout)))
        result.matches = sum(counts)
    else:
        result.matches = result.matched_lines
    _emit(text, end, selected, matcher, config, result, offsets)


def _emit(text, end, selected, matcher, config, result, offsets, block_spans=None) -> None:
    """Turn selected (start, end) spans into reported lines, with context and breaks.

    A selected span covers one line, or in multiline mode a block of lines; *block_spans*
    then gives, per block, the absolute character spans of the matches inside it.
    """
    before, after = config.before_context, config.after_context
    line_no = 1
    counted_to = 0
    last_printed_end = -1  # char position just after the last printed line's terminator

    def number_at(pos: int) -> int:
        nonlocal line_no, counted_to
        line_no += text.count("\n", counted_to, pos)
        counted_to = pos
        return line_no

    def add(kind: str, ls: int, le: int, char_spans=None) -> None:
        nonlocal last_printed_end
        spans: tuple = ()
        if char_spans is not None:
            spans = _byte_spans(text, ls, le, char_spans)
        elif config.submatches and (kind == "match") != config.invert:
            spans = _spans(matcher, text, ls, le, config.timeout)
        stop = le + 1 if le < end else le
        result.lines.append(
            Line(kind, number_at(ls), offsets.at(ls), to_bytes(text[ls:stop]), spans)
        )
        last_printed_end = le + 1

    def next_line(pos: int) -> tuple[int, int] | None:
        if pos >= end:
            return None
        stop = text.find("\n", pos, end)
        return pos, (end if stop < 0 else stop)

    selected_starts = {ls for ls, _ in selected}
    for idx, (ls, le) in enumerate(selected):
        if before or after:
            # Leading context: up to `before` lines, never re-printing a printed line.
            ctx_start = ls
            for _ in range(before):
                if ctx_start == 0 or ctx_start <= last_printed_end:
                    break
                prev_start = text.rfind("\n", 0, ctx_start - 1) + 1
                if prev_start < last_printed_end:
                    break
                ctx_start = prev_start
            if last_printed_end >= 0 and ctx_start > last_printed_end:
                result.lines.append(None)
            pos = ctx_start
            while pos < ls:
                span = next_line(pos)
                assert span is not None
                add("context", *span)
                pos = span[1] + 1
        add("match", ls, le, None if block_spans is None else block_spans[idx])
        if not after:
            continue
        # Trailing context, stopping at the next selected line.
        pos = le + 1
        next_selected = selected[idx + 1][0] if idx + 1 < len(selected) else None
        count = 0
        while count < after:
            span = next_line(pos)
            if span is None or (next_selected is not None and span[0] >= next_selected):
                break
            if span[0] in selected_starts:
                break
            kind = "context"
            # rg (r1380): after the last counted match, trailing context may contain matching
            # lines; they are printed as matches.
            if next_selected is None and config.max_count is not None and not config.invert:
                if _line_matches(matcher, text, *span, config.timeout):
                    kind = "match"
            add(kind, *span)
            pos = span[1] + 1
            count += 1


def _byte_spans(text: str, ls: int, le: int, char_spans) -> tuple[tuple[int, int], ...]:
    """Absolute character spans → byte spans relative to the line or block at *ls*."""
    block = text[ls : le + 1]
    if block.isascii():
        return tuple((s - ls, e - ls) for s, e in char_spans)
    return tuple(
        (len(to_bytes(block[: s - ls])), len(to_bytes(block[: e - ls]))) for s, e in char_spans
    )


def _line_matches(matcher, text, ls, le, timeout) -> bool:
    return matcher.regex.search(text, ls, le, timeout=timeout) is not None


def _line_matches_iter(matcher, text: str, ls: int, le: int, end: int, timeout) -> Iterator:
    """The match spans of one line. rg reports no empty match at the very end of a file whose
    last line has no terminator (``rg -o ''`` prints L, not L+1, lines for it)."""
    for span in matcher.iter_spans(text, ls, le, timeout):
        if span[0] == span[1] == end and le == end and (end == 0 or text[end - 1] != "\n"):
            continue
        yield span


def _spans(matcher, text: str, ls: int, le: int, timeout) -> tuple[tuple[int, int], ...]:
    line = text[ls:le]
    ascii_line = line.isascii()
    spans = []
    for start, stop in _line_matches_iter(matcher, text, ls, le, len(text), timeout):
        s, e = start - ls, stop - ls
        if not ascii_line:
            s, e = len(to_bytes(line[:s])), len(to_bytes(line[:e]))
        spans.append((s, e))
    return tuple(spans)


def _search_multiline(text, end, matcher, config, result, offsets) -> None:
    """-U with a pattern that can match "\\n": a match may span lines. Every line a match
    touches is a matching line; matches on overlapping or adjacent lines form one block (one
    JSON message, printed line by line)."""
    blocks: list[list] = []  # [first line start, last line end, [match char spans]]
    total = 0
    for s, e in matcher.iter_spans(text, 0, end, config.timeout):
        if s == end and (end == 0 or text[end - 1] == "\n"):
            break
        ls = text.rfind("\n", 0, s) + 1
        # A match ending with its "\n" ends on that line, not the next.
        last = e - 1 if e > s and text[e - 1] == "\n" else e
        stop = text.find("\n", max(last, s), end)
        le = end if stop < 0 else stop
        # rg merges a match into the previous block when their lines overlap or are merely
        # adjacent (glue.rs, issue 1311), so consecutive matching lines form one block.
        if blocks and ls <= blocks[-1][1] + 1:
            blocks[-1][1] = max(blocks[-1][1], le)
            blocks[-1][2].append((s, e))
        else:
            if config.max_count is not None and len(blocks) >= config.max_count:
                break
            blocks.append([ls, le, [(s, e)]])
        total += 1
        if config.stop_at_first:
            break
    if config.invert:
        covered = []
        for ls, le, _ in blocks:
            pos = ls
            while pos <= le:
                stop = text.find("\n", pos, le)
                line_end = le if stop < 0 else stop
                covered.append((pos, line_end))
                pos = line_end + 1
        inverted = list(_all_lines_except(text, end, covered))
        if config.max_count is not None:
            inverted = inverted[: config.max_count]
        result.matched_lines = result.matches = len(inverted)
        _emit(text, end, inverted, matcher, config, result, offsets)
        return
    # rg counts matches, not lines, for -c when the pattern can match a newline.
    result.matched_lines = result.matches = total
    _emit(
        text,
        end,
        [(ls, le) for ls, le, _ in blocks],
        matcher,
        config,
        result,
        offsets,
        block_spans=[spans for _, _, spans in blocks],
    )
