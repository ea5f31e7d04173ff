"""rg's multi-line searcher: ``-U`` with a pattern that can match a newline or holds an anchor.

:func:`search_multiline` takes the same arguments as :func:`~shellfree.search.searcher.search_bytes`
and returns the same :class:`~shellfree.search.searcher.FileResult`; ``search_bytes`` hands every
multi-line search to it.

The rules, each measured against rg 15.1:

* The regex runs on the rest of the file after each match, as if that rest were the whole
  haystack: ``\\A`` and ``^`` hold where the previous match ended (``rg -U -n '\\Ax\\n'`` on
  ``x\\nx\\nx\\n`` prints all three lines). After an empty match the search moves one position on.
* Each match is widened to whole lines; a match whose first line is the last line of the pending
  block, or the line right after it, joins that block. A block is one JSON message and one
  "match" line (printed line by line).
* ``-m N`` stops the search after N regex matches (not lines, not blocks): ``rg -U -m2
  'a|b|c\\n'`` on ``ba\\na\\n`` prints ``ba``. Under ``-v`` the matches that split the inverted
  blocks count the same way, so after N of them the rest of the file is selected.
* After the limit, lines in the trailing context that the regex matches on their own (without
  their terminator) print and count as matches, one block each (``-U -m1 -A2 'foo|x\\n'``).
* An empty match right after the final newline is no match, but the before-context it asks for
  is printed (``rg -U -B1 '^$'`` on `` \\n`` prints `` \\n``, exit 1).
* The file is read whole and never converted: only NULs in the first 64 KiB make it binary up
  front (a walked file is then not searched); a later NUL counts once a reported line holds it.
* The printer re-finds a block's matches (for -o, --column, JSON submatches and counts) from the
  block's start in the whole buffer, seeing at most 128 bytes past the block, and drops matches
  starting at or after the block's end; a block with none still counts once.
"""

from __future__ import annotations

from shellfree.search.decode import ByteOffsets, search_stream, to_bytes, to_text
from shellfree.search.line_buffer import FILL
from shellfree.search.searcher import (
    BINARY_NONE,
    BINARY_QUIT,
    FileResult,
    Line,
    MatcherLike,
    SearchConfig,
    _Lines,
)

__all__ = ["search_multiline"]

# rg's printer lets the regex look this many bytes past a block when it re-finds its matches.
_LOOK_AHEAD = 128


def search_multiline(data: bytes, matcher: MatcherLike, config: SearchConfig) -> FileResult:
    """Search a file's bytes with rg's multi-line searcher; see the module docstring."""
    result = FileResult()
    buf = search_stream(data)
    late_nul = False
    if config.binary != BINARY_NONE:
        nul = buf.find(b"\0", 0, FILL)
        if nul >= 0:
            result.binary_offset = nul
            if config.binary == BINARY_QUIT:
                result.binary_quit = True
                return result  # rg searches nothing (bytes_searched stays 0)
            result.binary_after = 0
            result.binary_after_index = 0  # the printer stops at the first line it is handed
        elif buf.find(b"\0", FILL) >= 0:
            late_nul = True
            if config.binary != BINARY_QUIT:
                result.binary_in_printed_lines = True
    _MultiLine(buf, matcher, config, result, late_nul).run()
    return result


class _MultiLine:
    """One multi-line search; the state is rg's searcher core (positions are bytes unless
    named ``*_char``)."""

    def __init__(
        self,
        buf: bytes,
        matcher: MatcherLike,
        config: SearchConfig,
        result: FileResult,
        late_nul: bool,
    ) -> None:
        self.buf = buf
        self.end = len(buf)
        self.text = to_text(buf)
        self.tend = len(self.text)
        self.positions = ByteOffsets(self.text)
        self.matcher = matcher
        self.regex = getattr(matcher, "slice_regex", None) or matcher.regex
        self.lines = _Lines(buf, self.end, matcher, config.timeout, config.crlf)
        self.config = config
        self.result = result
        self.check_nul = late_nul
        self.any_context = bool(config.before_context or config.after_context)
        self.pos_char = 0  # where the next search starts
        self.pos_set: int | None = None  # a later byte position set by the trailing context
        self.count = 0  # regex matches found: what -m limits
        self.empty_before_invalid: bool | None = None  # see _inside_character
        self.last_visited = 0  # end of the last reported line
        self.after_left = 0
        self.has_sunk = False
        self.line_no = 1
        self.counted_to = 0

    # -- the search ---------------------------------------------------------------------------
    def run(self) -> None:
        if self.config.invert:
            going = True
            while going and self.pos_char < self.tend:
                going = self._inverted_step()
        else:
            going = self._blocks()
        if going:
            self._after_context(self.end)
        pos = self.pos_set if self.pos_set is not None else self.positions.of(self.pos_char)
        offset = self.result.binary_offset
        self.result.bytes_searched = offset if offset is not None and offset < pos else pos

    def _find(self) -> tuple[int, int] | None:
        limit = self.config.max_count
        if limit is not None and self.count >= limit:
            return None
        m = self.regex.search(self.text, self.pos_char, self.tend, timeout=self.config.timeout)
        if m is None:
            return None
        self.count += 1
        return m.span()

    def _advance(self, start: int, end: int) -> None:
        self.pos_char = end
        if start == end and end < self.tend:
            self.pos_char += 1

    def _inside_character(self, start: int, end: int) -> bool:
        """rg moves one *byte* on after an empty match: before a multi-byte character it
        searches from each of its continuation bytes, as the start of a haystack that begins
        with invalid UTF-8. A pattern that matches the empty string there (`x*`, `^`) finds one
        more empty match on the same line each time, which counts towards -m (`rg -U -m3
        'x*\n?'` on "中\nb\n" prints only line 1). False when -m then stops the search."""
        if start != end or end >= self.tend or self.empty_before_invalid is False:
            return True
        extra = len(to_bytes(self.text[end])) - 1
        if extra == 0:
            return True
        if self.empty_before_invalid is None:
            m = self.regex.match("\udc80", timeout=self.config.timeout)
            self.empty_before_invalid = m is not None and m.end() == 0
            if not self.empty_before_invalid:
                return True
        limit = self.config.max_count
        for _ in range(extra):
            if limit is not None and self.count >= limit:
                return False
            self.count += 1
        return True

    def _locate(self, start: int, end: int) -> tuple[int, int]:
        """The whole lines (terminators included) a match touches, in characters."""
        text = self.text
        line_start = text.rfind("\n", 0, start) + 1
        if end > line_start and text[end - 1] == "\n":
            return line_start, end
        stop = text.find("\n", end)
        return line_start, (self.tend if stop < 0 else stop + 1)

    def _blocks(self) -> bool:
        pending: tuple[int, int] | None = None
        while self.pos_char < self.tend:
            span = self._find()
            if span is None:
                self.pos_char = self.tend
                break
            self._advance(*span)
            line = self._locate(*span)
            if pending is None:
                pending = line
            elif pending[1] >= line[0]:
                pending = (pending[0], line[1])
            else:
                block, pending = pending, line
                if not self._block(block):
                    return False
            if not self._inside_character(*span):
                self.pos_char = self.tend
                break
        if pending is not None:
            self._block(pending)  # rg goes on to the trailing context whatever this returns
        return True

    def _block(self, block: tuple[int, int]) -> bool:
        start = self.positions.of(block[0])
        end = self.positions.of(block[1])
        if not self._context_before(start):
            return False
        if start == end:
            # An empty match after the final newline: its context is printed, it is not.
            return False
        return self._matched(start, end)

    def _inverted_step(self) -> bool:
        span = self._find()
        start = self.positions.of(self.pos_char)
        if span is None:
            self.pos_char = self.tend
            end = self.end
        else:
            line = self._locate(*span)
            end = self.positions.of(line[0])
            self._advance(*line)
        if start >= end:
            return True
        if not self._context_before(start):
            return False
        pos = start
        while pos < end:
            stop = self.buf.find(b"\n", pos, end)
            line_end = end if stop < 0 else stop + 1
            if not self._matched(pos, line_end):
                return False
            pos = line_end
        return True

    # -- reporting lines ----------------------------------------------------------------------
    def _number_at(self, pos: int) -> int:
        self.line_no += self.buf.count(b"\n", self.counted_to, pos)
        self.counted_to = pos
        return self.line_no

    def _binary_stop(self, start: int, end: int) -> bool:
        """rg checks every line it reports for a NUL it has not seen yet; a walked file then
        stops before that line."""
        if not self.check_nul:
            return False
        nul = self.buf.find(b"\0", start, end)
        if nul < 0:
            return False
        self.check_nul = False
        self.result.binary_offset = nul
        if self.config.binary == BINARY_QUIT:
            self.result.binary_quit = True
            return True
        return False

    def _break(self, start: int) -> None:
        if self.any_context and self.has_sunk and self.last_visited < start:
            self.result.lines.append(None)

    def _matched(self, start: int, end: int) -> bool:
        if self._binary_stop(start, end):
            return False
        self._break(start)
        result = self.result
        # Under -v too the printers re-find the regex's matches in what they are handed (for
        # -o, --column, JSON and counts): `rg -U -v -c 'a|b\n'` counts "baba" twice.
        spans = self._refind(start, end)
        found = len(spans) or 1
        result.lines.append(Line("match", self._number_at(start), start, self.buf[start:end], spans))
        result.matched_lines += found
        result.matches += found
        self.last_visited = end
        self.after_left = self.config.after_context
        self.has_sunk = True
        return not self.config.stop_at_first

    def _context(self, start: int, end: int) -> bool:
        if self._binary_stop(start, end):
            return False
        # Under -v the context lines are the ones the regex matches: -o and --column use them.
        # rg hands each to its printer as a haystack of its own (see _refind).
        spans = (self._refind(start, end, alone=True)
                 if self.config.invert and self.config.submatches else ())
        line = Line("context", self._number_at(start), start, self.buf[start:end], spans)
        self.result.lines.append(line)
        self.last_visited = end
        self.has_sunk = True
        return True

    def _context_before(self, upto: int) -> bool:
        """rg's context ahead of a block: what is left of the trailing context, then the
        leading context."""
        if not self._after_context(upto):
            return False
        before = self.config.before_context
        floor = self.last_visited
        if before == 0 or floor >= upto:
            return True
        start = upto
        for _ in range(before):
            if start <= floor:
                break
            prev = self.buf.rfind(b"\n", floor, start - 1)
            start = floor if prev < 0 else prev + 1
        while start < upto:
            stop = self.buf.find(b"\n", start, upto)
            line_end = upto if stop < 0 else stop + 1
            self._break(start)
            if not self._context(start, line_end):
                return False
            start = line_end
        return True

    def _after_context(self, upto: int) -> bool:
        if self.after_left == 0:
            return True
        limit = self.config.max_count
        exceeded = limit is not None and self.count >= limit
        pos = self.last_visited
        while pos < upto:
            stop = self.buf.find(b"\n", pos, upto)
            line_end = upto if stop < 0 else stop + 1
            if exceeded and self._line_matches(pos, line_end) != self.config.invert:
                left = self.after_left
                self.pos_set = line_end
                if not self._matched(pos, line_end):
                    return False
                self.after_left = left - 1
            else:
                if not self._context(pos, line_end):
                    return False
                self.after_left -= 1
            if self.after_left == 0:
                break
            pos = line_end
        return True

    def _line_matches(self, start: int, end: int) -> bool:
        """Whether the regex matches the line on its own, without its terminator (under
        --crlf only a "\r\n" is one: a bare "\n" stays, so `-U --crlf '\n'` matches it)."""
        term = b"\r\n" if self.config.crlf else b"\n"
        stop = end - len(term) if self.buf.endswith(term, start, end) else end
        return self.lines.line_matches(start, stop)

    def _refind(self, start: int, end: int, alone: bool = False) -> tuple[tuple[int, int], ...]:
        """Byte spans, relative to *start*, of the matches rg's printer finds in [start, end):
        in the buffer around it, or with *alone* in those bytes only, as rg re-finds the
        matches of a context line under -v (``\\A`` holds at its start, and ``r\\nb`` is not
        found in a line ``xr`` followed by ``b``)."""
        buf = self.buf
        if alone:
            lead, cap = start, end
        else:
            # One character of look-behind (a block starts after a newline), and \A then fails.
            lead = start - 1 if start > 0 else start
            cap = min(self.end, end + _LOOK_AHEAD)
        text = to_text(buf[lead:cap])
        head = len(to_text(buf[lead:start]))  # in characters; start - lead in bytes
        found = []
        # Byte offsets from the text's start, empty matches inside a character included.
        for s, e in self.matcher.iter_byte_spans(text, head, len(text), self.config.timeout):
            if s >= end - lead:
                break
            found.append((s - (start - lead), e - (start - lead)))
        return tuple(found)
