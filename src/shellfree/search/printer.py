"""Format search results exactly as ripgrep 15.1 prints them on piped output.

:class:`StandardPrinter` writes matching and context lines (rg's "standard" printer) and
:class:`SummaryPrinter` the per-file summaries (``-c``, ``--count-matches``, ``-l``,
``--files-without-match``). Both take one :class:`~shellfree.search.searcher.FileResult` at a
time and return the bytes to write; neither searches.
"""

from __future__ import annotations

import codecs
import functools
import re

from shellfree._record import Record
from shellfree.search.searcher import FileResult, Line

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see shellfree/__init__.py)
if TYPE_CHECKING:
    from shellfree.search.replace import Replacement

__all__ = ["PrintOptions", "StandardPrinter", "SummaryPrinter"]


class PrintOptions(Record):
    """Output flags, after rg's defaults for piped output have been applied."""

    with_filename: bool = False
    heading: bool = False
    line_number: bool = False
    column: bool = False
    byte_offset: bool = False
    only_matching: bool = False
    max_columns: int | None = None
    max_columns_preview: bool = False
    null: bool = False
    context: bool = False  # any -A/-B/-C: "--" between groups and between files
    context_separator: bytes | None = b"--"
    path_separator: bytes | None = None
    include_zero: bool = False
    # --crlf: every terminator rg adds (after -o pieces, after an unterminated last line)
    # is "\r\n"; lines are otherwise printed verbatim.
    crlf: bool = False
    # -U: with -o, rg prints no empty match (in line mode it prints each as an empty line).
    multiline: bool = False
    # -v: the printed lines hold no match, so no per-match detail exists for them.
    invert: bool = False
    # --vimgrep: a line is printed once per match it holds, each time with that match's
    # column and byte offset.
    per_match: bool = False
    # -r: the lines with matches are printed with them replaced (search/replace.py).
    replace: "Replacement | None" = None
    # --trim: printed lines (and -o's matches) lose their leading ASCII whitespace.
    trim: bool = False
    # --field-match-separator / --field-context-separator: what follows the path, line
    # number, column and offset of a matching line and of a context line.
    field_match: bytes = b":"
    field_context: bytes = b"-"


def _display_path(path: bytes, options: PrintOptions) -> bytes:
    if options.path_separator is not None:
        return path.replace(b"/", options.path_separator)
    return path


def first_graphemes(content: bytes, count: int) -> bytes:
    """The first *count* extended grapheme clusters of *content* (bytes, decoded as UTF-8 with
    invalid bytes kept).

    A preview needs the start of a line that may be megabytes long, and a cluster boundary
    depends only on the characters up to it: so a prefix is segmented, cut before a
    character's continuation bytes, and kept when its last needed cluster ends before the
    prefix does (a cluster reaching the prefix's end might go on). Otherwise a four times
    longer prefix is tried, up to the whole line.

    Invalid UTF-8 is segmented as rg's bstr segments it: each maximal invalid subsequence
    (Unicode's "maximal subpart", the unit one U+FFFD replaces: ``E0 A5`` before an ASCII byte
    is one, ``ED A0 80`` is three) is a cluster of its own, joined to nothing around it.
    """
    size = 8 * count + 64
    while size < len(content):
        cut = size
        while cut > size - 3 and 0x80 <= content[cut] < 0xC0:
            cut -= 1  # content[cut] continues a character begun before it
        head, end, found = _cluster_prefix(content[:cut], count)
        if found == count and end < len(head):
            return head[:end].encode("utf-8", "surrogateescape")
        size *= 4
    text, end, _ = _cluster_prefix(content, count)
    return text[:end].encode("utf-8", "surrogateescape")


def _cluster_prefix(content: bytes, count: int) -> tuple[str, int, int]:
    """(*content* decoded with each invalid byte as a lone surrogate, where its first *count*
    clusters end in that text, how many it has up to *count*)."""
    text = content.decode("utf-8", "surrogateescape")
    if text.isascii() and "\r" not in text:
        # Each ASCII character is a cluster of its own but a "\r" before a "\n" (UAX #29,
        # GB3-GB5): no segmentation needed, which for a preview of 500 clusters cost 1.5 ms.
        found = min(count, len(text))
        return text, found, found
    return _segmented_prefix(text, content, count)


def _segmented_prefix(text: str, content: bytes, count: int) -> tuple[str, int, int]:
    """:func:`_cluster_prefix` by the regex module's segmentation of *text*, the decoded
    *content*."""
    import regex  # loaded only when a preview is asked for

    segmented = text
    if not text.isascii():
        # rg's clusters know no character newer than its Unicode data; the regex module's
        # do, so those are segmented as unassigned ones (U+E000 stands in: Other, as
        # unassigned code points are): `-M 20 --max-columns-preview` over "a\u1acfb ..."
        # counts U+1ACF, new in Unicode 17, as a cluster of its own, as rg does.
        segmented = _newer_characters().sub("\ue000", text)
    continued: frozenset[int] = frozenset()
    if _INVALID_BYTE.search(text) is not None:
        # Each invalid byte is made a control character, a cluster joined to nothing (the
        # regex module lets a lone surrogate take the combining marks after it); one that
        # continues a maximal subpart is counted with the one before it.
        segmented = _INVALID_BYTE.sub("\x00", segmented)
        continued = _subpart_continuations(content)
    end = found = 0
    for match in regex.finditer(r"\X", segmented):
        if match.start() in continued:
            end = match.end()
            continue
        if found == count:
            break
        found += 1
        end = match.end()
    return text, end, found


_INVALID_BYTE = re.compile("[\udc80-\udcff]")
def _subpart_continuations(content: bytes) -> frozenset[int]:
    """Where, in *content* decoded with each invalid byte as one character, the invalid bytes
    stand that continue a maximal subpart begun before them. CPython's UTF-8 decoder reports
    each maximal subpart as one error, as the Unicode standard recommends and bstr does; the
    decode is resumed after each (from a memoryview: no copy of the rest)."""
    view = memoryview(content)
    continued: list[int] = []
    done = chars = 0  # bytes and characters before the next error
    while True:
        try:
            codecs.utf_8_decode(view[done:], "strict", True)
            return frozenset(continued)
        except UnicodeDecodeError as error:
            start, end = done + error.start, done + error.end
        chars += len(content[done:start].decode("utf-8"))  # valid between two errors
        continued.extend(range(chars + 1, chars + end - start))
        chars += end - start
        done = end


@functools.lru_cache(maxsize=1)
def _newer_characters() -> "re.Pattern[str]":
    """The characters the regex module knows and rg 15.1 does not (Unicode 17)."""
    from shellfree.search.regex_unicode_tables import NEW_IN_REGEX

    return re.compile("[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in NEW_IN_REGEX) + "]")


class StandardPrinter:
    """rg's standard printer; ``print_file`` returns a file's output (b"" if none)."""

    def __init__(self, options: PrintOptions) -> None:
        self.options = options
        # rg prints per-match details in "-M" messages when it tracks match positions,
        # which it does on piped output only for --column (and -o, handled per match): for
        # the lines with matches, which under -v are the context lines (`rg -v --column -B1
        # -M10 it` on "  kittenhome\nx": "1-4-[Omitted long line with 1 matches]").
        # So does a search that finds every match to print a line once for each (--vimgrep)
        # or to replace them (-r).
        self._per_match = options.column or options.per_match or options.replace is not None
        self._terminator = b"\r\n" if options.crlf else b"\n"
        # Lines that need neither a column, a byte offset nor a --max-columns stand-in are
        # printed by a short path in print_file (most searches print only such lines).
        self._plain = not (options.column or options.byte_offset or options.per_match
                           or options.replace is not None or options.trim)
        # --trim: rg's ASCII whitespace, but never a byte of the line terminator ("\r" is
        # one under --crlf), so a blank line prints as an empty one.
        self._trimmed = None
        if options.trim:
            self._trimmed = b" \t\x0b\x0c" if options.crlf else b" \t\x0b\x0c\r"
        #: Whether the last printed file counted as matching (see print_file).
        self.last_matched = False
        #: Whether the last printed file's output began with a line (not a binary notice).
        self.last_starts_with_line = False

    def plain_match_lead(self, path: bytes) -> bytes | None:
        """What precedes a matching line's number (or text) when every matching line is
        printed as it is (:mod:`shellfree.search.plain_literal`); None when these options
        print more than that (columns, offsets, -o, a heading, context, --crlf, -U)."""
        opts = self.options
        if not self._plain or opts.only_matching or opts.heading or opts.context:
            return None
        if opts.crlf or opts.multiline or opts.invert or opts.field_match != b":":
            return None
        if not opts.with_filename:
            return b""
        return _display_path(path, opts) + (b"\0" if opts.null else b":")

    def print_file(self, path: bytes, result: FileResult) -> bytes:
        opts = self.options
        out: list[bytes] = []
        # --heading shows a path only where paths are shown: `rg --heading b g` prints no
        # heading for the one file it names, nor `-I --heading` for several.
        shown_path = _display_path(path, opts) if opts.with_filename else None
        # The heading goes before the file's first printed line: a file whose first line to
        # print holds binary data, where the sink stops, prints only the notice (rg 15.1).
        # rg ends the heading as its lines ("\r\n" under --crlf), or with NUL under --null.
        heading_end = b"\0" if opts.null else self._terminator
        heading = shown_path + heading_end if (shown_path is not None and opts.heading) else None
        prefix_path = shown_path if (shown_path is not None and not opts.heading) else None
        # rg's standard sink, once binary data was seen in "convert" mode (explicit files),
        # stops at the next line it is handed: a match still counts (and the notice follows),
        # a context line stops the file silently.
        stop_at = result.binary_after_index
        binary_offset = result.binary_offset
        if result.binary_in_printed_lines and stop_at is None:
            # A memory-mapped file: binary data is seen in the first line about to be printed
            # that holds a NUL.
            found = result.first_nul_in_lines()
            if found is not None:
                stop_at, binary_offset = found
        matched = False
        wrote_line = False
        plain = self._plain
        replace = opts.replace
        # Lines longer than --max-columns take the long path (its omission texts).
        max_columns = opts.max_columns or 0
        # Only -U reports blocks of several lines as one Line.
        single_lines = not opts.multiline
        if plain:
            numbered = opts.line_number
            terminator = self._terminator
            if prefix_path is None:
                match_lead = context_lead = b""
            elif opts.null:
                match_lead = context_lead = prefix_path + b"\0"
            else:
                match_lead = prefix_path + opts.field_match
                context_lead = prefix_path + opts.field_context
            match_number = b"%d" + opts.field_match.replace(b"%", b"%%")
            context_number = b"%d" + opts.field_context.replace(b"%", b"%%")
        for index, line in enumerate(result.lines):
            if line is None:
                if opts.context_separator is not None:
                    out.append(opts.context_separator + self._terminator)
                continue
            if stop_at is not None and index >= stop_at:
                # Convert mode: the match the sink stops at still counts. Quit mode (a walked
                # file mapped under --mmap, whose NUL only a printed line shows): the search
                # ended before that line.
                matched = matched or (line.kind == "match" and not result.binary_quit)
                if result.breaks_after_binary and opts.context_separator is not None:
                    out.append((opts.context_separator + self._terminator)
                               * result.breaks_after_binary)
                break
            if line.kind == "match":
                matched = True
            wrote_line = True
            if heading is not None:
                out.append(heading)
                heading = None
            if replace is not None and line.spans and (line.kind == "match" or opts.invert):
                # rg replaces the matches of the lines it finds matches in: the matching
                # lines, and under -v the context lines. A -U block is replaced whole.
                line = replace.line(line, opts.crlf, opts.multiline and line.kind == "match")
            # -o prints the lines that hold matches as their matches only: the matching lines,
            # or under -v the context lines (they are the ones the regex matches). Under -v only
            # lines the regex matches carry spans.
            if opts.only_matching and line.spans and (line.kind == "match" or opts.invert):
                self._only_matching(out, prefix_path, line)
            elif opts.per_match and line.spans and (line.kind == "match" or opts.invert):
                self._each_match(out, prefix_path, line)
            elif (
                plain
                and (not max_columns or len(line.text) <= max_columns)
                and (single_lines or line.text.find(b"\n", 0, len(line.text) - 1) < 0)
            ):
                # One line (not a multi-line block): what _line would print, inlined.
                text = line.text
                if text[-1:] != b"\n":
                    text += terminator
                if line.kind == "match":
                    lead = match_lead + match_number % line.number if numbered else match_lead
                else:
                    lead = (context_lead + context_number % line.number if numbered
                            else context_lead)
                out.append(lead + text)
            else:
                self._line(out, prefix_path, line)
        self.last_matched = matched
        # rg writes the "--" between files before a file's first *line*; a file whose output
        # is only the binary notice gets none.
        self.last_starts_with_line = wrote_line
        if binary_offset is not None and matched and (stop_at is not None or result.binary_quit):
            out.append(self.binary_notice(path, binary_offset, result.binary_quit))
        return b"".join(out)

    def context_break(self) -> bytes:
        """The line rg writes between two groups of lines that do not meet: "--" or the
        --context-separator (nothing under --no-context-separator)."""
        separator = self.options.context_separator
        return b"" if separator is None else separator + self._terminator

    def binary_notice(self, path: bytes, offset: int, quit: bool = False) -> bytes:
        """The line rg ends a matching file's output with once it has seen binary data at
        *offset*: it stopped there (*quit*, a walked file) or printed no line after it."""
        opts = self.options
        lead = (_display_path(path, opts) + b": ") if opts.with_filename else b""
        text = b"WARNING: stopped searching binary file after match" if quit \
            else b"binary file matches"
        # rg writes this notice with "\n" even under --crlf.
        return lead + text + b' (found "\\0" byte around offset %d)\n' % offset

    def _prelude(
        self,
        out: list[bytes],
        path: bytes | None,
        line: Line,
        column: int | None,
        offset: int,
        number: int,
    ) -> None:
        opts = self.options
        sep = opts.field_match if line.kind == "match" else opts.field_context
        if path is not None:
            out.append(path + (b"\0" if opts.null else sep))
        if opts.line_number:
            out.append(b"%d" % number + sep)
        if column is not None:
            out.append(b"%d" % column + sep)
        if opts.byte_offset:
            out.append(b"%d" % offset + sep)

    def _line(self, out: list[bytes], path: bytes | None, line: Line) -> None:
        opts = self.options
        column = None
        if opts.column and (line.kind == "match" or opts.invert):
            # rg repeats the first match's column on every line of a multi-line block.
            # rg omits the column when its printer re-finds no match in the line; under -v
            # that is every selected line, while the context lines (which the regex matches)
            # carry their first match's column.
            column = (line.spans[0][0] + 1) if line.spans else None
        # rg prints a multi-line match whose matches it tracks (--column) line by line, each
        # without its terminator and then its own: under --crlf a bare "\n" becomes "\r\n".
        # So does -r, which tracks them too.
        retermed = (opts.crlf and opts.multiline and line.kind == "match"
                    and (column is not None or (opts.replace is not None and bool(line.spans))))
        start = 0
        pieces = _split_lines(line.text)
        for number, whole in enumerate(pieces, line.number):
            self._prelude(out, path, line, column, line.offset + start, number)
            text = whole if self._trimmed is None else whole.lstrip(self._trimmed)
            if opts.max_columns and len(text) > opts.max_columns:
                # A line of a multi-line block counts only its own matches in a preview,
                # from where --trim let it start.
                lead = len(whole) - len(text)
                window = ((start + lead, start + len(whole))
                          if len(pieces) > 1 or (lead and opts.multiline) else None)
                out.append(self._omitted(line, text, window) + self._terminator)
            elif retermed and text.endswith(b"\n"):
                out.append(text[: -2 if text.endswith(b"\r\n") else -1] + b"\r\n")
            else:
                out.append(text if text.endswith(b"\n") else text + self._terminator)
            start += len(whole)

    def _each_match(self, out: list[bytes], path: bytes | None, line: Line) -> None:
        """--vimgrep: the line once per match, each with the match's column and offset.
        Under -U a block of matching lines goes by its lines; a -v context line, which rg
        hands to its printer alone, is one line as without -U."""
        if self.options.multiline and line.kind == "match":
            self._each_match_in_block(out, path, line)
            return
        text = line.text if self._trimmed is None else line.text.lstrip(self._trimmed)
        long = bool(self.options.max_columns) and len(text) > self.options.max_columns
        for start, _ in line.spans:
            column = start + 1 if self.options.column else None
            self._prelude(out, path, line, column, line.offset + start, line.number)
            if long:
                out.append(self._omitted(line, text) + self._terminator)
            else:
                out.append(text if text.endswith(b"\n") else text + self._terminator)

    def _each_match_in_block(self, out: list[bytes], path: bytes | None, line: Line) -> None:
        """--vimgrep under -U: each match prints the first line of the block it overlaps, with
        the offset of that line and the column of the match in it (1 if it began on a line
        before). An empty match at a line's start overlaps no line and prints nothing
        (`rg -U --vimgrep '^'` prints nothing), one at its end does (`$`: the line).

        rg measures and prints such a line without its terminator, then ends it as it ends
        every line ("\\r\\n" under --crlf): "abc\\n" is not too long for -M3 here, as it is
        elsewhere. A line too long is replaced by its stand-in and the match goes on to the
        next line it overlaps; a preview counts only the match itself, if it starts past the
        cut and before the line's end."""
        opts = self.options
        pieces = _split_lines(line.text)
        for start, end in line.spans:
            begin = 0
            for number, piece in enumerate(pieces, line.number):
                stop = begin + len(piece)
                if stop <= start:
                    begin = stop
                    continue
                if begin >= end:
                    break
                column = max(start - begin, 0) + 1 if opts.column else None
                self._prelude(out, path, line, column, line.offset + begin, number)
                content = self._content(piece)
                lead = 0
                if self._trimmed is not None:
                    trimmed = content.lstrip(self._trimmed)
                    lead = len(content) - len(trimmed)
                    content = trimmed
                if not (opts.max_columns and len(content) > opts.max_columns):
                    out.append(content + self._terminator)
                    break
                if opts.max_columns_preview:
                    cut = first_graphemes(content, opts.max_columns)
                    first = begin + lead  # where the line starts, after --trim
                    more = 1 if first + len(cut) <= start < first + len(content) else 0
                    noun = b"match" if more == 1 else b"matches"
                    out.append(cut + b" [... %d more %s]" % (more, noun) + self._terminator)
                else:
                    out.append(self._omitted(line, piece) + self._terminator)
                begin = stop

    def _content(self, text: bytes) -> bytes:
        """*text* without its line terminator, which under --crlf includes a "\r" before the
        "\n" (rg's preview of "abc\r\n" is "abc", or "abc\r" without --crlf)."""
        if not text.endswith(b"\n"):
            return text
        if self.options.crlf and text.endswith(b"\r\n"):
            return text[:-2]
        return text[:-1]

    def _preview(self, text: bytes) -> bytes:
        """The first --max-columns grapheme clusters of *text* (without its terminator)."""
        return first_graphemes(self._content(text), self.options.max_columns or 0)

    def _omitted(self, line: Line, text: bytes, window: tuple[int, int] | None = None) -> bytes:
        """rg's stand-in for a line longer than --max-columns; *window* is the span of *text*
        within a multi-line block's text (None for a line of its own)."""
        opts = self.options
        # A matching line whose matches rg's printer cannot re-find (\A past line 1) has no
        # per-match detail: rg words it like a line of a search that tracks none.
        per_match = self._per_match and bool(line.spans)
        if opts.max_columns_preview:
            # rg cuts the line with its terminator, which is a grapheme cluster of its own
            # ("\r\n" one, without --crlf too), and counts the matches after the cut: none
            # when the cut takes in the terminator. It prints the cut without the terminator.
            whole_cut = first_graphemes(text, opts.max_columns or 0)
            cut = self._content(whole_cut)
            if per_match:
                if window is None:
                    # Before the line's end: an empty replacement of a block's last "\n"
                    # (-U -r '') leaves an empty span there, which rg does not count.
                    remaining = sum(1 for s, _ in line.spans if len(whole_cut) <= s < len(text))
                else:
                    first, stop = window[0] + len(whole_cut), window[1]
                    remaining = sum(1 for s, _ in line.spans if first <= s < stop)
                noun = b"match" if remaining == 1 else b"matches"
                return cut + b" [... %d more %s]" % (remaining, noun)
            return cut + b" [... omitted end of long line]"
        if per_match:
            return b"[Omitted long line with %d matches]" % len(line.spans)
        return _omitted_by_kind(line.kind)

    def _only_matching(self, out: list[bytes], path: bytes | None, line: Line) -> None:
        opts = self.options
        text = line.text
        for start, end in line.spans:
            # Under -U an empty match prints nothing, but on a -U -v context line, which rg
            # hands to its printer alone, it prints an empty line (`^`, `$`, `x?`).
            if opts.multiline and start == end and line.kind != "context":
                continue
            # A multi-line match is printed one line piece at a time, each with its own
            # line number.
            first = line.number + text.count(b"\n", 0, start)
            ending = self._terminator
            if line.kind == "context":
                # A -U -v context line, handed to rg's printer alone with its terminator: each
                # match is printed whole, and a line terminator is added only to one that does
                # not end in "\n", so a match of only the "\n" prints an empty line (`rg -U -v
                # -o -B2 '(?s:.){0,2}'` on "ab\nll\nx"), and under --crlf, where rg adds
                # "\r\n", a match ending in a bare "\n" keeps it: "e\n", "ll\r\n" on "e\nll\nx".
                piece = text[start:end]
                if piece.endswith(b"\n"):
                    cut = 2 if opts.crlf and piece.endswith(b"\r\n") else 1
                    piece, ending = piece[:-cut], piece[-cut:]
                pieces = [piece]
            else:
                pieces = text[start:end].split(b"\n")
                if opts.crlf:
                    # rg prints what a match holds of each line with the line's terminator cut
                    # off, which --crlf makes "\r\n": `rg -U -o --crlf 'b\r\nc'` prints b and c,
                    # `[^a-z]` on "a\rb\r\n" the first "\r" only, and on "\r\n" nothing.
                    last = len(pieces) - 1
                    at_line_end = text[end : end + 1] == b"\n"
                    pieces = [p[:-1] if p.endswith(b"\r") and (i < last or at_line_end) else p
                              for i, p in enumerate(pieces)]
            spans_lines = len(pieces) > 1
            if self._trimmed is not None and opts.multiline and line.kind != "context":
                # -U --trim: rg trims each line of the block and prints what of the match
                # lies in what is left; a piece left empty prints nothing.
                pieces = self._trimmed_pieces(text, start, pieces)
                spans_lines = True
            # rg gives every piece the match's own byte offset, and a column counted from the
            # start of the block it was handed, not of the match's line: under -U the matches
            # on consecutive lines form one block, so `rg -U -o --column 'b\n|d'` on
            # "ab\ncd\n" prints d at column 5.
            column = start + 1 if opts.column else None
            for number, piece in enumerate(pieces, first):
                if not piece and (spans_lines or (start != end and line.kind != "context")):
                    # A match prints its non-empty line pieces (rg prints nothing for the bare
                    # line ends of `\n\n`, or a "\r" cut off above); a lone empty match does.
                    continue
                if self._trimmed is not None and not spans_lines:
                    # A line's own match is trimmed itself: one of whitespace alone still
                    # prints its (empty) line.
                    piece = piece.lstrip(self._trimmed)
                self._prelude(out, path, line, column, line.offset + start, number)
                if opts.max_columns and len(piece) > opts.max_columns:
                    if opts.max_columns_preview:
                        cut = self._preview(piece)
                        remaining = 0
                        if not opts.multiline:
                            # rg counts the line's matches starting between the cut and
                            # the piece's end, taken as offsets into the line, not the
                            # piece: `rg -M5 --max-columns-preview -o 'a.*'` on "x->y ab
                            # needle" prints "ab ne [... 1 more match]" (the match at 5).
                            # Under -U none (inside one match).
                            remaining = sum(1 for s, _ in line.spans if len(cut) <= s < len(piece))
                        noun = b"match" if remaining == 1 else b"matches"
                        out.append(cut + b" [... %d more %s]" % (remaining, noun) + self._terminator)
                    else:
                        # A -v context line's matches too: rg names the line by its kind
                        # (`rg -v -o -A1 -M3 0x1F` on "\n0x1F": a context line).
                        out.append(_omitted_by_kind(line.kind) + self._terminator)
                else:
                    out.append(piece + ending)

    def _trimmed_pieces(self, text: bytes, start: int, pieces: list[bytes]) -> list[bytes]:
        """The *pieces* of a -U match at *start* in the block *text*, one per line, each
        without what of it lies in its line's leading whitespace."""
        out = []
        at = start
        for piece in pieces:
            line_start = text.rfind(b"\n", 0, at) + 1
            line_end = text.find(b"\n", at)
            line = text[line_start : len(text) if line_end < 0 else line_end]
            content_start = line_start + len(line) - len(line.lstrip(self._trimmed))
            out.append(piece[max(0, content_start - at):])
            at = line_end + 1 if line_end >= 0 else len(text)  # the next piece's line
        return out


def _omitted_by_kind(kind: str) -> bytes:
    """rg's stand-in for a long line it gives no per-match detail, named by the line's kind."""
    return b"[Omitted long matching line]" if kind == "match" else b"[Omitted long context line]"


def _split_lines(text: bytes) -> list[bytes]:
    """Lines of *text*, each keeping its "\\n" (bytes.splitlines would also split on "\\r")."""
    if text.count(b"\n", 0, len(text) - 1) == 0:
        return [text]
    parts = text.split(b"\n")
    lines = [p + b"\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


class SummaryPrinter:
    """rg's summary printer for -c, --count-matches, -l and --files-without-match."""

    def __init__(self, mode: str, options: PrintOptions) -> None:
        self.mode = mode
        self.options = options

    def print_file(self, path: bytes, result: FileResult) -> bytes:
        opts = self.options
        shown = _display_path(path, opts)
        newline = b"\r\n" if opts.crlf else b"\n"  # rg ends every line it writes so with --crlf
        end = b"\0" if opts.null else newline
        if self.mode == "files_with_matches":
            return shown + end if result.has_match else b""
        if self.mode == "files_without_match":
            return shown + end if not result.has_match else b""
        count = result.matched_lines if self.mode == "count" else result.matches
        if count == 0 and not opts.include_zero:
            return b""
        if opts.with_filename:
            return shown + (b"\0" if opts.null else b":") + b"%d" % count + newline
        return b"%d" % count + newline
