"""Search one haystack's bytes and report matching and context lines, as ripgrep does.

:func:`search_bytes` takes a file's bytes, a compiled pattern and a :class:`SearchConfig`, and
returns a :class:`FileResult`: the lines to print (matches, context, breaks), the counts, and
what binary detection saw. It never formats output; the printers do.

How the search runs (perf-study §5): positions are byte offsets into the search stream. A pattern
with required literals finds candidate lines with ``bytes.find`` and decodes and confirms only
those lines; otherwise the stream is decoded once and the regex scans it, restarting after each
matched line. Line numbers are counted (``bytes.count``) only up to the lines that are reported.
There is no per-line Python loop over the file, except for the rare patterns anchored to a line's
own text (``\\A``/``\\z``), which rg itself runs line by line.
"""

from __future__ import annotations

import re
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
    """What the searcher needs from a compiled pattern (search/pattern.py's CompiledPattern)."""

    regex: object
    source: str
    can_match_newline: bool
    matches_nothing: bool
    required_literals: tuple[str, ...] | None
    crlf_line_by_line: bool
    text_anchors: bool

    def iter_spans(self, text: str, pos: int, endpos: int, timeout: float | None) -> Iterator:
        """(start, end) character spans of the matches, in rg's order and number."""

    def iter_byte_spans(self, text: str, pos: int, endpos: int, timeout: float | None) -> Iterator:
        """The same matches as UTF-8 byte offsets into *text*'s bytes."""


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
    crlf: bool = False  # --crlf: "\r\n" is a line terminator for printing matches
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
    # A memory-mapped file whose first NUL lies past the pre-scanned 64 KiB: binary data counts
    # as seen at the first printed line that holds a NUL.
    binary_in_printed_lines: bool = False
    bytes_searched: int = 0

    @property
    def has_match(self) -> bool:
        return self.matched_lines > 0


# rg's decoder first reads just enough bytes to sniff a BOM; its line buffer then reads what
# its free space allows.
_BOM_SNIFF = 3


def _fill_start_of(stream: bytes, offset: int) -> int:
    """Where rg's line buffer starts searching the fill that contains byte *offset*.

    rg decides binary-ness per fill: the fill that holds the first NUL is not searched at all,
    everything before it is (rg-semantics §2.1). A fill reads until its new bytes hold a
    newline; the very first read is only the decoder's 3-byte BOM sniff, so a file whose first
    line is at most 3 bytes has that line searched on its own, and the next fill reads up to
    64 KiB minus the incomplete line carried over (the buffer doubles when a line is longer).
    Measured against rg 15.1 with NULs in the first fill, in the second, and after short and
    long first lines. The result is the start of the first line of the NUL's fill.
    """
    size = len(stream)
    capacity = _FILL
    pos = 0  # next byte to read
    line_start = 0  # start of the first line the next fill will search
    first = True
    while pos < size:
        fill_start = line_start
        while True:
            free = capacity - (pos - line_start)
            if free <= 0:
                capacity *= 2
                continue
            read_end = min(size, pos + (min(_BOM_SNIFF, free) if first else free))
            first = False
            if offset < read_end:
                return fill_start
            newline = stream.rfind(b"\n", pos, read_end)
            pos = read_end
            if newline >= 0 or pos >= size:
                break
        if newline >= 0:
            line_start = newline + 1
    return size


class _Offsets:
    """Character positions in a decoded text → byte offsets, for positions asked in order."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.ascii = text.isascii()  # O(1) for an ASCII str
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


# A pattern with at most this many unbounded repetitions backtracks at most polynomially; on a
# line of at most _SHORT_LINE characters a regex call then needs no time budget, and skipping the
# budget matters: the regex module's timeout costs ~8 µs per call (it reads the CPU clock).
_SHORT_LINE = 256
_REPEAT = re.compile(r"(?<!\\)(?:[*+]|\{\d+,\})")


def _needs_budget_on_short_lines(source: str) -> bool:
    # Counting quantifier characters in the translated source over-counts (escaped characters,
    # class members), which only errs towards using the budget.
    return len(_REPEAT.findall(source)) > 1


@dataclass(frozen=True)
class _Prepared:
    """What the searcher derives from a matcher once, not once per file."""

    literals: tuple[bytes, ...] | None
    text_anchors: bool
    crlf_strip: bool
    budget_short: bool


_PREPARED: dict[int, tuple[MatcherLike, _Prepared]] = {}


def _prepare(matcher: MatcherLike) -> _Prepared:
    entry = _PREPARED.get(id(matcher))
    if entry is not None and entry[0] is matcher:
        return entry[1]
    literals = matcher.required_literals
    prepared = _Prepared(
        literals=tuple(to_bytes(lit) for lit in literals) if literals else None,
        text_anchors=getattr(matcher, "text_anchors", False),
        crlf_strip=getattr(matcher, "crlf_line_by_line", False),
        budget_short=_needs_budget_on_short_lines(getattr(matcher, "source", "")),
    )
    if len(_PREPARED) > 64:
        _PREPARED.clear()
    # The matcher is kept alive by the entry, so its id cannot be reused while cached.
    _PREPARED[id(matcher)] = (matcher, prepared)
    return prepared


class _Lines:
    """Line-mode matching over a search stream ``buf[:end]``, in byte positions.

    rg runs the regex on each line's own text (without its terminator). Candidate lines come
    from the pattern's required literals (``bytes.find``), or from one regex scan over the
    decoded stream; only candidate lines are decoded and confirmed.
    """

    def __init__(
        self,
        buf: bytes,
        end: int,
        matcher: MatcherLike,
        timeout: float | None,
        crlf: bool = False,
    ):
        prepared = _prepare(matcher)
        self.buf = buf
        self.end = end
        self.matcher = matcher
        self.crlf = crlf
        self.literals = prepared.literals
        self.text_anchors = prepared.text_anchors
        self.search = matcher.regex.search
        self.timeout = timeout
        self.budget_short = prepared.budget_short
        self.crlf_strip = prepared.crlf_strip

    def line_text(self, ls: int, le: int) -> str:
        if self.crlf_strip:
            # rg (--crlf with \A/\z): only a "\r\n" ending is taken off; a bare "\n" stays.
            stop = le + 1 if le < self.end else le
            return self.matcher.line_text(to_text(self.buf[ls:stop]))
        return to_text(self.buf[ls:le])

    def _timeout_for(self, length: int) -> float | None:
        if length > _SHORT_LINE or self.budget_short:
            return self.timeout
        return None

    def _stray_lead(self, ls: int) -> int:
        """1 when the line at *ls* is to be matched with the previous line's "\n" in front.

        rg matches a line inside its buffer, so a word assertion can look back past the line's
        start; that only changes a result after UTF-8 continuation bytes at the line's start
        (see regex_translate._Emitter._behind): ``rg -c '\b{start-half} '`` finds line 2 of
        ``x\n\xb6 \n``, not a file's first line ``\xb6 ``.
        """
        return 1 if ls > 0 and b"\x80" <= self.buf[ls : ls + 1] <= b"\xbf" else 0

    def line_matches(self, ls: int, le: int, look_back: bool = True) -> bool:
        """Whether the regex matches the line; *look_back* False matches it as the start of
        a haystack (rg's searcher goes on after a matching line with the rest of its buffer)."""
        lead = 0 if self.text_anchors or not look_back else self._stray_lead(ls)
        text = self.line_text(ls - lead, le)
        return self.search(text, lead, timeout=self._timeout_for(len(text))) is not None

    def line_spans(self, ls: int, le: int) -> tuple[tuple[int, int], ...]:
        """Byte spans (relative to ``ls``) of the matches in one line, as rg's printer finds them.

        rg's printer re-finds a matching line's matches in the buffer from the line's start to
        its end, terminator trimmed (with ``--crlf`` the ``\\r`` too): ``\\A`` then holds only
        on the first line, so ``rg -o '\\AHolmes'`` finds nothing on line 2 and prints the whole
        line, which the printer reproduces from an empty span list.
        """
        buf = self.buf
        stop = le
        if self.crlf and le > ls and buf[le - 1 : le] == b"\r":
            stop = le - 1
        lead = 1 if (ls > 0 and self.text_anchors) else self._stray_lead(ls)
        text = to_text(buf[ls - lead : stop])
        # rg reports no empty match at the very end of a file whose last line is unterminated.
        at_eof = le == self.end and (self.end == 0 or buf[self.end - 1 : self.end] != b"\n")
        tail = stop - ls + lead
        spans = []
        for s, e in self.matcher.iter_byte_spans(text, lead, len(text), self._timeout_for(len(text))):
            if at_eof and s == e == tail:
                continue
            spans.append((s - lead, e - lead))
        return tuple(spans)

    def bounds(self, pos: int) -> tuple[int, int]:
        """(start, end without terminator) of the line holding byte *pos*."""
        buf = self.buf
        start = buf.rfind(b"\n", 0, pos) + 1
        stop = buf.find(b"\n", pos, self.end)
        return start, (self.end if stop < 0 else stop)

    def matching_lines(self) -> Iterator[tuple[int, int]]:
        if self.literals:
            return self._by_literals(self.literals)
        if self.text_anchors:
            return self._each_line()
        return self._by_scan()

    def _by_literals(self, literals: tuple[bytes, ...]) -> Iterator[tuple[int, int]]:
        buf, end = self.buf, self.end
        pos = 0
        after_match = -1  # where the line after the last matching line starts
        while pos < end:
            best = -1
            for lit in literals:
                i = buf.find(lit, pos, end)
                if i >= 0 and (best < 0 or i < best):
                    best = i
            if best < 0:
                return
            ls, le = self.bounds(best)
            if self.line_matches(ls, le, look_back=ls != after_match):
                yield ls, le
                after_match = le + 1
            pos = le + 1

    def _each_line(self) -> Iterator[tuple[int, int]]:
        # \A or \z anchor to each line's own text: no scan over the whole stream can stand in.
        buf, end = self.buf, self.end
        pos = 0
        while pos < end:
            stop = buf.find(b"\n", pos, end)
            le = end if stop < 0 else stop
            if self.line_matches(pos, le):
                yield pos, le
            pos = le + 1

    def _by_scan(self) -> Iterator[tuple[int, int]]:
        buf, end = self.buf, self.end
        text = to_text(buf[:end])
        tend = len(text)
        offsets = _Offsets(text)
        search, timeout = self.search, self.timeout
        pos = 0
        while pos <= tend:
            m = search(text, pos, tend, timeout=timeout)
            if m is None:
                return
            s = m.start()
            if s == tend and (tend == 0 or text[tend - 1] == "\n"):
                return  # rg: no phantom empty line after the final newline
            cls = text.rfind("\n", 0, s) + 1
            cle = text.find("\n", s, tend)
            cle = tend if cle < 0 else cle
            ls = offsets.at(cls)
            stop = buf.find(b"\n", ls, end)
            yield ls, (end if stop < 0 else stop)
            pos = cle + 1
            # rg searches on with the rest of its buffer as a new haystack, so a word
            # assertion cannot look back past the next line's start; only a line starting
            # with UTF-8 continuation bytes notices (see _stray_lead). Such a line is decided
            # on its own; if it does not match, scanning resumes after it.
            while pos < tend and "\udc80" <= text[pos] <= "\udcbf":
                ls = offsets.at(pos)
                stop = buf.find(b"\n", ls, end)
                le = end if stop < 0 else stop
                nxt = text.find("\n", pos, tend)
                pos = tend + 1 if nxt < 0 else nxt + 1
                if not self.line_matches(ls, le, look_back=False):
                    break
                yield ls, le


def _all_lines_except(
    buf: bytes, end: int, matched: list[tuple[int, int]]
) -> Iterator[tuple[int, int]]:
    """The lines of buf[:end] not in *matched* (for -v)."""
    pos = 0
    it = iter(matched)
    nxt = next(it, None)
    while pos < end:
        stop = buf.find(b"\n", pos, end)
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
    end = len(stream)
    if nul >= 0:
        result.binary_offset = nul
        if config.binary == BINARY_QUIT:
            result.binary_quit = True
            end = _fill_start_of(stream, nul)
        elif config.mmap:
            # rg pre-scans only the first 64 KiB of a memory-mapped file; past that it notices a
            # NUL only in a line it is about to print (see FileResult.binary_in_printed_lines).
            if nul < _FILL:
                result.binary_after = 0
            else:
                result.binary_offset = None
                result.binary_in_printed_lines = True
        else:
            result.binary_after = _fill_start_of(stream, nul)
            stream = stream.replace(b"\0", b"\n")
    result.bytes_searched = end
    if config.mmap and result.binary_offset is not None:
        # rg reports a memory-mapped binary file as searched up to its first NUL.
        result.bytes_searched = result.binary_offset
    if matcher.matches_nothing and not config.invert:
        return result
    if not config.invert and not matcher.can_match_newline:
        literals = _prepare(matcher).literals
        if literals and not any(stream.find(lit, 0, end) >= 0 for lit in literals):
            return result  # the literal prefilter: no candidate line anywhere
    lines = _Lines(stream, end, matcher, config.timeout, config.crlf)
    if matcher.can_match_newline or getattr(matcher, "whole_text", False):
        _search_multiline(lines, config, result)
    else:
        _search_lines(lines, config, result)
    stopped = _stopped_early(config, result)
    if stopped:
        # rg's statistics count the bytes it consumed: up to the end of the match it stopped at.
        last_match = max(
            (l.offset + len(l.text) for l in result.lines if l is not None and l.kind == "match"),
            default=None,
        )
        if last_match is not None:
            result.bytes_searched = last_match
    if result.binary_offset is not None and stopped:
        # rg stops reading at -m's last match or -l's first one; if that came before the fill
        # holding the NUL, it never saw binary data (no warning, no notice).
        threshold = result.binary_after if result.binary_after is not None else end
        last = max((line.offset for line in result.lines if line is not None), default=-1)
        if last < threshold and not (config.mmap and result.binary_after == 0):
            result.binary_offset = None
            result.binary_after = None
            result.binary_quit = False
    return result


def _stopped_early(config: SearchConfig, result: FileResult) -> bool:
    if config.invert:
        return False
    if config.stop_at_first and result.matched_lines > 0:
        return True
    return config.max_count is not None and result.matched_lines >= config.max_count


def _search_lines(lines: _Lines, config: SearchConfig, result: FileResult) -> None:
    limit = config.max_count
    hits: Iterator[tuple[int, int]]
    hits = iter(()) if lines.matcher.matches_nothing else lines.matching_lines()
    if config.invert:
        hits = _all_lines_except(lines.buf, lines.end, list(hits))
    selected: list[tuple[int, int]] = []
    for span in hits:
        if limit is not None and len(selected) >= limit:
            break
        selected.append(span)
        if config.stop_at_first:
            break
    result.matched_lines = len(selected)
    if config.submatches and not config.invert:
        # A matching line whose matches the printer cannot re-find (\A past line 1) still
        # counts once, as in rg.
        result.matches = sum(len(lines.line_spans(ls, le)) or 1 for ls, le in selected)
    else:
        result.matches = result.matched_lines
    _emit(lines, selected, config, result)


def _emit(lines: _Lines, selected, config, result, block_spans=None, multiline=False) -> None:
    """Turn selected (start, end) byte spans into reported lines, with context and breaks.

    A selected span covers one line, or in multiline mode a block of lines; *block_spans* then
    gives, per block, the byte spans of its matches relative to the block's start.
    """
    buf, end = lines.buf, lines.end
    before, after = config.before_context, config.after_context
    line_no = 1
    counted_to = 0
    last_printed_end = -1  # position just after the last printed line's terminator

    def number_at(pos: int) -> int:
        nonlocal line_no, counted_to
        line_no += buf.count(b"\n", counted_to, pos)
        counted_to = pos
        return line_no

    def add(kind: str, ls: int, le: int, spans=None) -> None:
        nonlocal last_printed_end
        if spans is None:
            spans = ()
            if config.submatches and (kind == "match") != config.invert:
                spans = lines.line_spans(ls, le)
        stop = le + 1 if le < end else le
        result.lines.append(Line(kind, number_at(ls), ls, buf[ls:stop], spans))
        last_printed_end = le + 1

    def next_line(pos: int) -> tuple[int, int] | None:
        if pos >= end:
            return None
        stop = buf.find(b"\n", pos, end)
        return pos, (end if stop < 0 else stop)

    selected_starts = {ls for ls, _ in selected}
    for idx, (ls, le) in enumerate(selected):
        if before or after:
            # Leading context: up to `before` lines, never re-printing a printed line.
            ctx_start = ls
            for _ in range(before):
                if ctx_start == 0 or ctx_start <= last_printed_end:
                    break
                prev_start = buf.rfind(b"\n", 0, ctx_start - 1) + 1
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
            kind, spans = "context", None
            # rg (r1380): after the last counted match, trailing context may contain matching
            # lines (under -v: lines the regex does not match); they are printed as matches and
            # counted (-c, --count-matches; the JSON printer counts its own lines). Multi-line
            # search prints them as context.
            if next_selected is None and config.max_count is not None and not multiline:
                if lines.line_matches(*span) != config.invert:
                    kind = "match"
                elif config.invert and not config.mmap and span[1] == end:
                    # Measured, not derived: when rg 15.1 streams a file, an unterminated last
                    # line in that context is selected under -v even if the regex matches it
                    # (memory-mapped files print it as context), and printed with its matches.
                    kind = "match"
                    spans = lines.line_spans(*span) if config.submatches else ()
                if kind == "match":
                    if spans is None and config.submatches and not config.invert:
                        spans = lines.line_spans(*span)
                    result.matched_lines += 1
                    result.matches += 1 if config.invert or not spans else len(spans)
            add(kind, *span, spans)
            pos = span[1] + 1
            count += 1


def _search_multiline(lines: _Lines, config: SearchConfig, result: FileResult) -> None:
    """-U with a pattern that can match "\\n" (or that rg cannot prove never does): a match may
    span lines. Every line a match touches is a matching line; matches on overlapping or
    adjacent lines form one block (one JSON message, printed line by line)."""
    buf, end = lines.buf, lines.end
    text = to_text(buf[:end])
    tend = len(text)
    blocks: list[list] = []  # [first line start, last line end, [match char spans]] (chars)
    for s, e in lines.matcher.iter_spans(text, 0, tend, config.timeout):
        if s == e == tend and (tend == 0 or text[tend - 1] == "\n"):
            break  # rg: no phantom empty line after the final newline
        ls = text.rfind("\n", 0, s) + 1
        # A match ending with its "\n" ends on that line, not the next.
        last = e - 1 if e > s and text[e - 1] == "\n" else e
        stop = text.find("\n", max(last, s), tend)
        le = tend if stop < 0 else stop
        # rg merges a match into the previous block when their lines overlap or are merely
        # adjacent (glue.rs, issue 1311), so consecutive matching lines form one block.
        if blocks and ls <= blocks[-1][1] + 1:
            blocks[-1][1] = max(blocks[-1][1], le)
            blocks[-1][2].append((s, e))
        else:
            if config.max_count is not None and len(blocks) >= config.max_count:
                break
            blocks.append([ls, le, [(s, e)]])
        if config.stop_at_first:
            break
    offsets = _Offsets(text)
    byte_blocks = []
    spans_per_block = []
    total = 0
    for ls, le, _ in blocks:
        bls, ble = offsets.at(ls), offsets.at(le)
        byte_blocks.append((bls, ble))
        # rg's printer re-finds a block's matches in the block's own text (terminator included)
        # and never reports an empty match at its very end; a block whose matches it cannot
        # re-find still counts once (rg -U -c '$' on "ab\ncd" is 1, on "ab" is 1).
        block = text[ls : le + 1 if le < tend else le]
        tail = offsets.at(le + 1 if le < tend else le) - bls
        found = tuple(
            span for span in lines.matcher.iter_byte_spans(block, 0, len(block), config.timeout)
            if not span[0] == span[1] == tail
        )
        total += len(found) or 1
        spans_per_block.append(found)
    if config.invert:
        covered = []
        for bls, ble in byte_blocks:
            pos = bls
            while pos <= ble:
                stop = buf.find(b"\n", pos, ble)
                line_end = ble if stop < 0 else stop
                covered.append((pos, line_end))
                pos = line_end + 1
        inverted = list(_all_lines_except(buf, end, covered))
        if config.max_count is not None:
            inverted = inverted[: config.max_count]
        result.matched_lines = result.matches = len(inverted)
        _emit(lines, inverted, config, result, multiline=True)
        return
    # rg counts matches, not lines, for -c when the pattern can match a newline.
    result.matched_lines = result.matches = total
    _emit(lines, byte_blocks, config, result, block_spans=spans_per_block, multiline=True)
