"""-v -m N -A M, replayed fill by fill as rg's line searcher runs it.

Under that combination the lines rg prints depend on where its line buffer's fills fall (see
:class:`_InvertedReplay`), so the searcher's usual selection of lines cannot give them;
:func:`replay_inverted` runs rg's search loop over the fills instead. Imported only when a
search needs it.
"""

from __future__ import annotations

from collections.abc import Iterator

from shellfree.search.line_buffer import (
    FILL,
    Reads,
    fill_of,
    fill_ranges,
    fill_reads,
    handed_over,
    handed_over_from,
    preceding,
)
from shellfree.search.searcher import (
    BINARY_QUIT,
    FileResult,
    Line,
    MatcherLike,
    SearchConfig,
    _Lines,
)

__all__ = ["breaks_after_refusal", "replay_converted", "replay_inverted"]


class _InvertedReplay:
    """-v -m N -A M: the lines rg prints and where its search position stood, found by
    running rg's line search fill by fill on a file read in fills (walked or streamed), over
    the one buffer of a memory-mapped one (ripgrep's searcher core,
    `crates/searcher/src/searcher/core.rs`).

    A replay because the fills decide the output. Once rg has counted N selected lines it
    stops looking for lines the regex matches, so the rest of the fill it is in reads as one
    run of selected lines; and a sink of a selected line sets the after-context afresh. A
    limit reached at the end of a fill therefore prints the next fill's first line as
    selected, whatever it holds, and M lines after it: walked, `rg -v -m1 -A1 x` over
    "a\nx\na\nx\na\n" prints lines 1 to 3 as selected (the first read is 3 bytes, so the
    first fill holds line 1 only). A pattern with \\A or \\z is searched line by line, where
    past the limit no line matches at all: under -v every later line is selected, and rg
    prints the rest of the file. Checked against rg 15.1 on 1,700 generated files in six
    output formats, some over several 64 KiB fills or with a NUL, with -B 0-2. Offsets are
    absolute; a line is (start, end after its terminator)."""

    def __init__(self, lines: _Lines, config: SearchConfig) -> None:
        self.lines = lines
        self.data = lines.buf  # the whole stream: reads model the file's size
        # A walked file quits at the fill whose reads hold a NUL, unsearched.
        self.quit_at_nul = config.binary == BINARY_QUIT
        self.binary: int | None = None  # the NUL that fill read
        self.whole = config.mmap  # one buffer, the whole file
        self.buffer_starts = {0}  # where each fill's buffer starts (see _Lines.line_spans)
        # A pattern with \A or \z is searched line by line (rg's slow line search).
        self.slow = lines.text_anchors
        self.limit = config.max_count
        self.after = config.after_context
        self.before = config.before_context
        self.count = 0  # selected lines sunk
        self.pos = 0  # rg's search position
        self.visited = 0  # end of the last line handed to the printer
        self.after_left = 0
        self.sunk = False
        self.events: list[tuple[str, int, int] | None] = []  # (kind, start, end) or a break
        self._matching = lines.matching_lines()  # lines the regex matches, in order
        # The next of them, (start, end after the terminator); (-1, -1): none looked up yet.
        self._next_matching: tuple[int, int] | None = (-1, -1)

    def run(self) -> int:
        """Replay the search; returns the bytes rg counts as searched."""
        data, size = self.data, len(self.data)
        if self.whole:
            self._search(size)
            return self.pos
        capacity, read, kept, first = FILL, 0, 0, self.lines.reads.sniff
        stdin = self.lines.reads.stdin_state()
        start = end = 0  # the fill's buffer
        while True:
            if end > start:
                # The roll: the last `before + 1` lines and what the printer was handed stay.
                kept = max(preceding(data, start, end, self.before), self.visited)
                self.visited = max(self.visited, kept)
            if read >= size:
                if end < size:  # an unterminated last line, handed over by the read of nothing
                    start, end = kept, size
                    self.buffer_starts.add(start)
                    if not self._search(end):
                        return self.pos
                    continue
                return size
            before_reads = read
            capacity, read, newline = fill_reads(data, capacity, read, kept, first,
                                                  self.lines.reads.ends, stdin)
            first = False
            if self.quit_at_nul:
                nul = data.find(b"\0", before_reads, read)
                if nul >= 0:
                    self.binary = nul
                    return kept  # rolled out before this fill: all rg counts as searched
            start, end = kept, (newline + 1 if newline >= 0 else size)
            self.buffer_starts.add(start)
            if not self._search(end):
                return self.pos

    def _lines(self, start: int, stop: int) -> Iterator[tuple[int, int]]:
        data = self.data
        while start < stop:
            newline = data.find(b"\n", start, stop)
            end = stop if newline < 0 else newline + 1
            yield start, end
            start = end

    def _exceeded(self) -> bool:
        return self.count >= self.limit

    def _next_match(self, stop: int) -> tuple[int, int] | None:
        """The first line the regex matches at or after the position, within the fill."""
        if self._exceeded():
            return None
        found = self._next_matching
        while found is not None and found[0] < self.pos:
            span = next(self._matching, None)
            found = None if span is None else (span[0], span[1] + (span[1] < self.lines.end))
        self._next_matching = found
        return found if found is not None and found[0] < stop else None

    def _matches(self, line: tuple[int, int]) -> bool:
        end = line[1] - (self.data[line[1] - 1 : line[1]] == b"\n")
        return self.lines.is_match(line[0], end)

    def _sink(self, kind: str, line: tuple[int, int]) -> None:
        if kind != "after" and self.sunk and self.visited < line[0]:
            self.events.append(None)
        self.events.append(("match" if kind == "match" else "context", *line))
        self.visited = line[1]
        self.sunk = True
        if kind == "match":
            self.after_left = self.after
        elif kind == "after":
            self.after_left -= 1

    def _after_context(self, upto: int) -> None:
        if self.after_left == 0:
            return
        exceeded = self._exceeded()
        for line in self._lines(self.visited, upto):
            if exceeded and not self._matches(line):
                left = self.after_left
                self.pos = line[1]
                self._sink("match", line)
                self.after_left = left - 1
            else:
                self._sink("after", line)
            if self.after_left == 0:
                break

    def _before_context(self, upto: int) -> None:
        if self.before and self.visited < upto:
            first = preceding(self.data, self.visited, upto, self.before - 1)
            for line in self._lines(first, upto):
                self._sink("before", line)

    def _search(self, end: int) -> bool:
        """rg's line search of one fill (up to *end*); False when it stops the search."""
        return self._search_slow(end) if self.slow else self._search_fast(end)

    def _search_slow(self, end: int) -> bool:
        # Line by line. Past the limit no line matches, so under -v every line is selected
        # and sets the after-context afresh: rg prints the rest of the file.
        for line in self._lines(self.pos, end):
            if self._exceeded() and self.after_left == 0:
                return False
            matched = not self._exceeded() and self._matches(line)
            self.pos = line[1]
            if not matched:
                self.count += 1
                self._before_context(line[0])
                self._sink("match", line)
            elif self.after_left >= 1:
                self._sink("after", line)
        return True

    def _search_fast(self, end: int) -> bool:
        # Runs of selected lines between the lines the regex matches.
        while self.pos < end:
            found = self._next_match(end)
            run_start = self.pos
            run_end = end if found is None else found[0]
            self.pos = end if found is None else found[1]
            if run_start == run_end:
                continue
            self._after_context(run_start)
            self._before_context(run_start)
            stopped = False
            for line in self._lines(run_start, run_end):
                self.count += 1
                self._sink("match", line)
                if self._exceeded():
                    stopped = True
                    break
            if stopped:
                break
        self._after_context(end)
        if self._exceeded() and self.after_left == 0:
            return False
        self.pos = end
        return True


def replay_converted(stream: bytes, nul: int, matcher: MatcherLike, config: SearchConfig,
                      result: FileResult, reads: Reads, context: int | None) -> FileResult:
    """:func:`replay_inverted` in rg's convert mode (a file read, not mapped, with a NUL at
    *nul*): its fills hold the NULs turned into line terminators, as *stream* does, and the
    search goes on past them; rg notices the binary data if it read the NUL's fill."""
    replay_inverted(stream, -1, matcher, config, result, reads)
    refill = fill_of(stream, nul, context, handed_over(result.lines, config), reads)
    if result.bytes_searched <= refill.start:
        result.binary_offset = result.binary_after = None
    else:
        result.binary_offset, result.binary_after = nul, refill.start
        result.binary_after_index = handed_over_from(result.lines, config, refill.start)
    return result


def replay_inverted(stream: bytes, nul: int, matcher: MatcherLike, config: SearchConfig,
                     result: FileResult, reads: Reads) -> FileResult:
    """*result* as :class:`_InvertedReplay` finds it for *stream*, whose first NUL is at
    *nul* (-1: none): its lines, counts, bytes searched and binary data seen."""
    # The lines before the NUL's: its fill, which holds the NUL, is never searched.
    end = len(stream) if nul < 0 else stream.rfind(b"\n", 0, nul) + 1
    lines = _Lines(stream, end, matcher, config.timeout, config.crlf)
    lines.reads = reads
    lines.read_as(config)
    replay = _InvertedReplay(lines, config)
    result.bytes_searched = replay.run()
    lines.buffer_starts = frozenset(replay.buffer_starts)
    result.binary_offset = replay.binary
    result.binary_quit = replay.binary is not None
    result.binary_after = None
    buf, count = lines.buf, lines.buf.count
    line_no, counted_to = 1, 0
    result.lines = []
    for event in replay.events:
        if event is None:
            result.lines.append(None)
            continue
        kind, start, end = event
        stop = end - (buf[end - 1 : end] == b"\n")
        spans: tuple = ()
        if config.submatches and (kind == "context" or lines.line_matches(start, stop)):
            # A context line holds matches; so does a line the regex matches that rg took
            # for selected, and the printer finds them.
            spans = lines.line_spans(start, stop, alone=kind == "context")
        elif config.submatches:
            spans = lines.inverted_spans(start, stop)
        line_no += count(b"\n", counted_to, start)
        counted_to = start
        result.lines.append(Line(kind, line_no, start, buf[start:end], spans))
    result.matched_lines = result.matches = sum(
        1 for line in result.lines if line is not None and line.kind == "match")
    return result


def breaks_after_refusal(stream: bytes, lines: _Lines, config: SearchConfig,
                         result: FileResult, reads: Reads, context: int) -> int:
    """How many context separators rg writes after the line its printer refused, under -v
    with context options in convert mode (a file read in fills, NULs turned into line
    terminators; *stream* as converted, *context* the before-context).

    Once it has seen binary data, rg's standard printer refuses the next line it is handed;
    without -v the search stops there, but the fast inverted search leaves only the fill and
    goes on with the next one (ripgrep's searcher core: `match_by_line_fast` breaks out of
    its loop where the other searches stop), unless after-context lines were still due,
    which are refused in turn and stop it. In each later fill the first line it hands over,
    a before-context line or a selected one, is refused again, but not before a separator
    is written if that line lies past the buffer's start: the roll that began the fill
    keeps `context + 1` lines (nothing was visited), and the position of the last line
    visited is reset to the buffer's start. Measured: `-n -B1 -v zzz` on 2 short lines, 700
    lines of 100 bytes and a 9,000-byte line holding a NUL, read, ends with one `--` after
    line 650; after two such fills, two."""
    stop = result.binary_after_index
    shown = [line for line in result.lines[:stop] if line is not None]
    if stop is None or not shown:
        return 0  # nothing refused, or nothing sunk: a separator needs a line before it
    if config.after_context:
        since = 0
        for line in reversed(shown):
            if line.kind == "match":
                break
            since += 1
        if since < config.after_context:
            return 0  # after-context due: refused, and the search stops
    visited = handed_over(result.lines[:stop], config)
    fills = fill_ranges(stream, reads, context, visited)
    refusing = next((i for i, fill in enumerate(fills) if fill[1] == result.binary_after), None)
    if refusing is None:
        return 0
    # The lines the regex matches, as the fast inverted search finds them (its candidate
    # scan): in each later fill, the first line it hands over starts its first run of others.
    matching = lines.matching_lines()
    found = next(matching, None)
    breaks = 0
    for buffer_start, start, end in fills[refusing + 1:]:
        at = start
        while found is not None and found[0] < at:
            found = next(matching, None)
        while found is not None and found[0] == at < end:
            at = found[1] + 1  # past its terminator
            found = next(matching, None)
        if at >= end:
            continue  # every line of the fill matches: nothing handed over
        first = at
        if context and at > buffer_start:
            first = preceding(stream, buffer_start, at, context - 1)
        breaks += first > buffer_start
    return breaks
