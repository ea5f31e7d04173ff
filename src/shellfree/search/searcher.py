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

Where rg's line buffer puts its fills decides binary detection and ``\\A`` for a file it reads
in pieces; :mod:`~shellfree.search.line_buffer` models them, :mod:`~shellfree.search.stop_position`
gives the bytes counted as searched when a search stops early, and
:mod:`~shellfree.search.inverted_replay` replays ``-v -m N -A M``, whose output the fills decide.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator

from shellfree._record import Record, replace
from shellfree.search.char_kinds import stand_in_text
from shellfree.search.decode import (
    BOMS,
    TRANSCODED_BOMS,
    ByteOffsets,
    read_stream,
    to_bytes,
    to_text,
)
from shellfree.search.line_buffer import (
    BOM_SNIFF,
    FILL,
    STDIN,
    STDIN_BUFFER,
    STREAMED,
    Reads,
    buffer_starts,
    fill_of,
    fill_starts,
    handed_over,
    handed_over_from,
)
from shellfree.search.literal_find import LiteralFinder, any_present, jumps_pay, rarest_byte
from shellfree.search.stop_position import after_context_cut, stop_position

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see shellfree/__init__.py)
if TYPE_CHECKING:
    from typing import Protocol
else:
    Protocol = object  # MatcherLike is a protocol for type checkers only

__all__ = [
    "BINARY_QUIT",
    "BINARY_CONVERT",
    "BINARY_NONE",
    "SearchConfig",
    "Line",
    "FileResult",
    "MatcherLike",
    "quits_within",
    "search_bytes",
    "SearchTimeout",
]

BINARY_QUIT = "quit"  # walked files: stop at the fill that holds a NUL
BINARY_CONVERT = "convert"  # explicit files: NUL → "\n", printer stops at a later match
BINARY_NONE = "none"  # -a/--text


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


class SearchConfig(Record):
    """How to search one file; built once per command from the flags."""

    invert: bool = False
    max_count: int | None = None
    before_context: int = 0
    after_context: int = 0
    submatches: bool = False  # report every match's byte span (for -o, JSON, counts, columns)
    stop_at_first: bool = False  # -l / -q: the first matching line is enough
    # -l / -q under -v in the line searcher: the printer stops at the first selected line of
    # each fill, the search goes on with the next fill (see rgcli/search.py).
    first_per_fill: bool = False
    binary: str = BINARY_QUIT
    crlf: bool = False  # --crlf: "\r\n" is a line terminator for printing matches
    mmap: bool = False  # explicit files rg would memory-map: NULs stay, only 64 KiB pre-scanned
    stdin: bool = False  # standard input, which rg reads through an 8 KiB buffer (STDIN_BUFFER)
    timeout: float | None = None
    # The bytes are a whole file (or stdin) that rg reads in line-buffer fills from its start
    # (unless mmap); False for one piece of a large file searched in pieces, whose fills are
    # not modelled (see _Lines.haystack_starts).
    whole_stream: bool = True


class Line:
    """A line to report: ``kind`` is "match" or "context"; ``text`` keeps its terminator.

    A plain slotted class rather than a dataclass: one is made per printed line, and a frozen
    dataclass's ``__init__`` (one ``object.__setattr__`` per field) cost a fifth of a search
    that prints many lines.
    """

    __slots__ = ("kind", "number", "offset", "text", "spans")

    def __init__(
        self,
        kind: str,
        number: int,
        offset: int,  # absolute byte offset of the line's start in the search stream
        text: bytes,
        spans: tuple[tuple[int, int], ...] = (),  # match byte spans within ``text``
    ) -> None:
        self.kind = kind
        self.number = number
        self.offset = offset
        self.text = text
        self.spans = spans

    def __repr__(self) -> str:
        return (f"Line({self.kind!r}, {self.number}, {self.offset}, {self.text!r}, "
                f"{self.spans!r})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Line):
            return NotImplemented
        return (self.kind, self.number, self.offset, self.text, self.spans) == (
            other.kind, other.number, other.offset, other.text, other.spans)

    __hash__ = None  # type: ignore[assignment]  # mutable in principle, like a dataclass


class FileResult:
    """Everything a printer needs about one file. ``lines`` holds ``None`` for a "--" break.

    The annotated class attributes are the defaults; an instance stores only what a search
    sets (one is made per file, so its constructor does no more than that).
    """

    lines: list[Line | None]
    matched_lines: int = 0
    matches: int = 0
    binary_offset: int | None = None
    # Lines at or after this stream offset were searched after binary data had been seen:
    # rg's standard printer replaces the first such match with the binary notice.
    binary_after: int | None = None
    # Index in ``lines`` of the first line rg hands to the printer after it saw the binary data
    # at ``binary_after`` (a before-context line is handed over with the match that follows).
    binary_after_index: int | None = None
    # Context separators rg writes after that line and before the notice (convert mode under
    # -v with context options: inverted_replay.breaks_after_refusal).
    breaks_after_binary: int = 0
    # The file was cut short because of binary data (walked files).
    binary_quit: bool = False
    # A memory-mapped file whose first NUL lies past the pre-scanned 64 KiB: binary data counts
    # as seen at the first printed line that holds a NUL.
    binary_in_printed_lines: bool = False
    bytes_searched: int = 0

    def __init__(self) -> None:
        self.lines = []

    @property
    def has_match(self) -> bool:
        return self.matched_lines > 0

    def first_nul_in_lines(self) -> tuple[int, int] | None:
        """(index in ``lines``, stream offset) of the first NUL in a reported line."""
        for index, line in enumerate(self.lines):
            if line is not None:
                at = line.text.find(b"\0")
                if at >= 0:
                    return index, line.offset + at
        return None


# On a line of at most _SHORT_LINE characters a pattern the translator judged safe
# (CompiledPattern.short_lines_safe) is run with no time budget, and skipping the budget
# matters: the regex module's timeout costs ~8 µs per call (it reads the CPU clock).
_SHORT_LINE = 256


# How many occurrences of its literal a long line is tried at (_Lines._around_literal) before
# the line is searched from its start.
_AROUND_TRIES = 16


class _Prepared(Record, mutable=True):
    """What the searcher derives from a matcher once, not once per file (and, for one folded
    literal, the faster scan once it pays: :meth:`charge_folded`)."""

    literals: tuple[bytes, ...] | None
    rare_offsets: tuple[int, ...]  # each literal's rarest byte (literal_find.rarest_byte)
    text_anchors: bool
    crlf_strip: bool
    budget_short: bool
    exact: bool  # every occurrence of a literal (or a folded one) is a match
    # Case-insensitive patterns: lowercase byte strings every candidate line holds one of up
    # to ASCII case (CompiledPattern.folded_prefilter), looked for in the bytes.lower() of
    # the text, and the offset of each one's rarest byte.
    folded: tuple[bytes, ...] | None
    folded_offsets: tuple[int, ...]
    # One folded literal: the regex module's case-insensitive search for it (see
    # _folded_scan) once the module is loaded or the bytes scanned pay for loading it; None
    # before that, and for several literals.
    folded_scan: object
    re_regex: object  # the pattern on ``re``, for scans, when re and rg agree on it
    ascii_search: object  # ``re`` search of a short ASCII line (CompiledPattern.ascii_regex)
    ascii_kinds: bool  # ... and of any short line's stand-ins (CompiledPattern.ascii_kinds)
    # (the one required literal as text, CompiledPattern.around_literal) or None
    around: tuple[str, object] | None
    # No literal: (translate table, needle, sure table) of CompiledPattern.class_run, the needle
    # looked for in the text translated by the table (and a line holding it in the text
    # translated by the sure table, if any, a match); None when the pattern has none.
    run: tuple[bytes, bytes, bytes | None] | None
    # The bytes around an occurrence of the one required literal that make its line a match
    # (CompiledPattern.sure_window), or None.
    sure: object
    # (bytes, their translation by the run's table) that the absence test found the run in,
    # for the search of the same bytes that follows it (_Lines._by_run); None once taken.
    translated: tuple[bytes, bytes] | None = None

    def charge_folded(self, size: int) -> None:
        """Count *size* bytes scanned for the one folded literal with bytes.lower() and find;
        once this process's searches have scanned more than :data:`_FOLDED_SCAN_PAYS_AFTER`
        so, load the regex module for the faster folded_scan."""
        global _folded_bytes_scanned
        _folded_bytes_scanned += size  # racing threads may lose a charge: it only comes later
        if _folded_bytes_scanned > _FOLDED_SCAN_PAYS_AFTER and self.folded_scan is None:
            self.folded_scan = _folded_scan(self.folded)


_PREPARED: dict[int, tuple[MatcherLike, _Prepared]] = {}


def _prepare(matcher: MatcherLike) -> _Prepared:
    entry = _PREPARED.get(id(matcher))
    if entry is not None and entry[0] is matcher:
        return entry[1]
    # A class run is chosen over one-character literals (class_run.required_run).
    run = getattr(matcher, "class_run", None)
    literals = () if run else tuple(to_bytes(lit) for lit in matcher.required_literals or ())
    ascii_regex = getattr(matcher, "ascii_regex", None)
    around = getattr(matcher, "around_literal", None)
    folded = None if literals or run else getattr(matcher, "folded_prefilter", None)
    prepared = _Prepared(
        literals=literals or None,
        rare_offsets=tuple(rarest_byte(lit) if lit else 0 for lit in literals),
        text_anchors=getattr(matcher, "text_anchors", False),
        crlf_strip=getattr(matcher, "crlf_line_by_line", False),
        budget_short=not getattr(matcher, "short_lines_safe", False),
        exact=(bool(literals) and getattr(matcher, "exact_literals", False))
        or (bool(folded) and getattr(matcher, "folded_exact", False))
        or (run is not None and run.exact),
        folded=folded,
        folded_offsets=tuple(rarest_byte(lit) for lit in folded or ()),
        folded_scan=_folded_scan(folded) if _regex_loaded() else None,
        re_regex=getattr(matcher, "re_regex", None),
        ascii_search=None if ascii_regex is None else ascii_regex.search,
        ascii_kinds=getattr(matcher, "ascii_kinds", False),
        around=(matcher.required_literals[0], around) if around is not None else None,
        run=None if run is None else (run.table, run.needle, run.sure),
        sure=getattr(matcher, "sure_window", None) if literals else None,
    )
    if len(_PREPARED) > 64:
        _PREPARED.clear()
    # The matcher is kept alive by the entry, so its id cannot be reused while cached.
    _PREPARED[id(matcher)] = (matcher, prepared)
    return prepared


def quits_within(head: bytes, matcher: MatcherLike, config: SearchConfig) -> bool:
    """Whether the search of any file whose content starts with *head* ends inside *head*, so
    that ``search_bytes(head)`` gives the whole file's result: *head* holds a NUL, and rg
    quits at the fill of its line buffer that holds the first one (binary "quit" mode: a
    walked file). That fill's start is all the search needs, and the fills before it end
    before the NUL, so what follows *head* cannot move it; with context too, whose kept and
    printed lines, which move the fills, all lie before it. A file of gigabytes with a NUL
    near its start is then read no further, as rg reads it.

    Not with a byte-order mark (UTF-16 is transcoded whole), a memory map (named files) or a
    multi-line matcher (which reads the whole file)."""
    if (config.binary != BINARY_QUIT or config.mmap or matcher.can_match_newline
            or getattr(matcher, "whole_text", False) or head.startswith(BOMS)):
        return False
    return head.find(b"\0") >= 0


def absence_test(matcher: MatcherLike) -> "Callable[[bytes], bool] | None":
    """A test that proves from a file's raw bytes alone that no line of it can match, or None
    when the pattern has no required literal to look for.

    Most files of a tree hold none of a pattern's literals; for them this one ``find`` (or
    one case-folded scan) replaces a whole :func:`search_bytes` and its result. UTF-16 files
    are never proven empty: their literals are looked for after transcoding.
    """
    if matcher.matches_nothing:
        return None
    prepared = _prepare(matcher)
    literals, folded, run = prepared.literals, prepared.folded, prepared.run
    if run is not None:
        table, needle, _ = run

        def absent_run(data: bytes) -> bool:
            hay = data.translate(table)
            if hay.find(needle) >= 0:
                if len(data) <= _KEEP_TRANSLATION_BELOW:
                    prepared.translated = (data, hay)
                return False
            return not data.startswith(TRANSCODED_BOMS)

        # The translation it keeps is the last file's: a caller testing many files before
        # searching any would have each translated twice (rgcli/search.py _Search.lane_run).
        absent_run.keeps_translation = True  # type: ignore[attr-defined]
        return absent_run
    if literals and all(literals):  # an empty literal is in every file: nothing to prove
        specs = _find_specs(literals, prepared.rare_offsets)

        def absent(data: bytes) -> bool:
            return not _holds_one(data, specs) and not data.startswith(TRANSCODED_BOMS)

        return absent
    if folded is not None:
        folded_specs = _find_specs(folded, prepared.folded_offsets)
        single = len(folded) == 1

        def absent_folded(data: bytes) -> bool:
            search = prepared.folded_scan
            if search is not None:
                return search(data) is None and not data.startswith(TRANSCODED_BOMS)
            if single:
                prepared.charge_folded(len(data))
            # bytes.lower() folds ASCII letters and nothing else.
            return (not _holds_one(data.lower(), folded_specs)
                    and not data.startswith(TRANSCODED_BOMS))

        return absent_folded
    return None


_FOLDED_SCAN_PAYS_AFTER = 24 << 20
"""Bytes scanned for one folded literal with bytes.lower() and find before the regex module
is loaded for :func:`_folded_scan`, unless it is loaded already: its import (6 ms) costs what
the faster scan saves over some 26 MB (3.2 ms per 14 MB), so a one-shot search of a small tree
is faster without it, and one of a large tree or a long-lived process gets it. The bytes are
counted for the process (:data:`_folded_bytes_scanned`), not for one search: each of
``FileTools``' searches makes a matcher of its own, and counted per matcher, a host searching a
14 MB tree with ``-i`` again and again never got the faster scan."""

_folded_bytes_scanned = 0
"""Bytes this process's searches have scanned, or are about to (:func:`expect_bytes`), for one
folded literal with bytes.lower() and find (_Prepared.charge_folded)."""


def _regex_loaded() -> bool:
    """Whether the regex module is imported already (then a folded scan costs nothing more)."""
    return "regex" in sys.modules


def expect_bytes(matcher: MatcherLike, size: int) -> None:
    """Tell the searcher that *size* bytes are about to be searched with *matcher* (a large
    file about to be split among workers): a one-time cost that pays over them, loading the
    regex module for a folded scan, is paid now, once, rather than in each worker."""
    if not matcher.matches_nothing:
        prepared = _prepare(matcher)
        if prepared.folded is not None and len(prepared.folded) == 1:
            prepared.charge_folded(size)


def _folded_scan(folded: tuple[bytes, ...] | None):
    """The regex module's search for one folded literal in any ASCII case, or None.

    Its case-insensitive scan of one byte literal (which folds ASCII letters only) beats
    bytes.lower() and a find: over the 14 MB medium tree 4.1 against 6.8 ms for "error", 6.9
    against 10.1 for "unicode". Of several literals it is slower: 104 against 46 ms for
    those of -i TODO|FIXME|XXX|HACK, which are looked for in bytes.lower(). It is used once
    the bytes scanned pay for the import (:data:`_FOLDED_SCAN_PAYS_AFTER`).
    """
    if folded is None or len(folded) != 1:
        return None
    import regex

    return regex.compile(b"(?i)" + regex.escape(folded[0])).search


def _find_specs(literals: tuple[bytes, ...], offsets: tuple[int, ...]) -> tuple:
    # Each literal with its rarest byte: a file lacking that byte lacks the literal, and one
    # memchr says so; otherwise the literal is looked for by that byte too
    # (literal_find.LiteralFinder). A literal whose rarest byte is common is looked for with
    # bytes.find at once: its memchr would find the byte in nearly every file. Literals whose
    # rarest byte is the same share one pass over it (_SHARED: the pairs, the byte).
    specs: list[tuple] = []
    sharing: dict[bytes, int] = {}  # a rare byte -> the index of its spec
    for literal, k in zip(literals, offsets):
        if not jumps_pay(literal, k):
            specs.append((literal, k, False))
            continue
        byte = literal[k : k + 1]
        at = sharing.get(byte)
        if at is None:
            sharing[byte] = len(specs)
            specs.append((literal, k, True))
            continue
        first, first_k, kind = specs[at]
        pairs = first if kind == _SHARED else ((first, first_k),)
        specs[at] = (pairs + ((literal, k),), byte, _SHARED)
    return tuple(specs)


_SHARED = 2
"""A spec of literals sharing their rarest byte (see _find_specs)."""


def _holds_one(data: bytes, specs: tuple) -> bool:
    """Whether *data* holds one of the literals of :func:`_find_specs`'s *specs*."""
    for literal, k, jumps in specs:
        if not jumps:
            if data.find(literal) >= 0:
                return True
        elif jumps is True:
            if data.find(literal[k : k + 1]) >= 0 and LiteralFinder(literal, k).present(data):
                return True
        elif any_present(data, literal, k):  # _SHARED: the pairs and their byte
            return True
    return False


_KEEP_TRANSLATION_BELOW = 1 << 18
"""The largest file whose translation the absence test keeps for the search (_Prepared.translated):
a search that ends before it takes it (binary data, a NUL in the head) leaves it with the
prepared matcher, of which up to 64 are kept, so what may linger is bounded; over this size the
second translation costs little beside the rest of the search."""


def fusable(matcher: MatcherLike) -> bool:
    """Whether :func:`literal_line_spans` finds the matching lines of a line-by-line pattern:
    from its required non-empty literals, or from the run of bytes every match holds
    (CompiledPattern.class_run), the regex confirming each candidate unless the pattern is
    nothing but them. Not a pattern without either, nor one with ``\\A``/``\\z``, which
    anchor to each line's own text, so every line is searched."""
    if matcher.matches_nothing or matcher.can_match_newline or getattr(matcher, "whole_text", False):
        return False
    prepared = _prepare(matcher)
    if prepared.text_anchors:
        return False
    return prepared.run is not None or (bool(prepared.literals) and all(prepared.literals))


def exact_literal(matcher: MatcherLike) -> tuple[bytes, int] | None:
    """(literal, offset of its rarest byte) when a :func:`fusable` pattern's matching lines are
    exactly the lines holding its one required literal, every occurrence a match (``return``,
    ``TODO``); None otherwise. Such lines need no candidate scan of their own
    (plain_literal.exact_literal_lines)."""
    prepared = _prepare(matcher)
    literals = prepared.literals  # none when the pattern has a class run (_prepare)
    if prepared.exact and literals and len(literals) == 1:
        return literals[0], prepared.rare_offsets[0]
    return None


def windowed_literal(matcher: MatcherLike) -> tuple[bytes, int, object] | None:
    """(literal, offset of its rarest byte, CompiledPattern.sure_window) when a
    :func:`fusable` pattern's matching lines are the lines holding its one required literal
    that either have the window around an occurrence or are confirmed by the regex
    (plain_literal.exact_literal_lines with a window, and :func:`line_confirmer`)."""
    prepared = _prepare(matcher)
    literals = prepared.literals
    if prepared.sure is not None and not prepared.exact and literals and len(literals) == 1:
        return literals[0], prepared.rare_offsets[0], prepared.sure
    return None


def line_confirmer(
    data: bytes, matcher: MatcherLike, timeout: float | None, in_fills: bool = False,
    reads: Reads = STREAMED,
) -> Callable[[int, int], bool]:
    """``confirm(start, end)``: whether the pattern matches the line ``data[start:end]`` as
    :func:`literal_line_spans` confirms one (*in_fills*, *reads* as there). The line scanner
    is built on the first call: a file whose every line is decided otherwise never needs one.
    May raise SearchTimeout."""
    lines = None

    def confirm(start: int, end: int) -> bool:
        nonlocal lines
        if lines is None:
            lines = _Lines(data, len(data), matcher, timeout)
            lines.in_fills = in_fills
            lines.reads = reads
        return lines.line_matches(start, end)

    return confirm


def literal_line_spans(
    data: bytes, matcher: MatcherLike, timeout: float | None, longest: int | None = None,
    in_fills: bool = False, reads: Reads = STREAMED,
) -> Iterator[tuple[int, int]]:
    """(start, end before the terminator) of each line of *data* the pattern matches, for a
    :func:`fusable` pattern: the searcher's own candidate scan (_Lines). May
    raise SearchTimeout.

    A candidate line longer than *longest* bytes (terminator included) is yielded without
    being confirmed: the fused printer gives up on such a line (--max-columns) and the file
    goes to the general path, which would confirm it a second time. *in_fills*: *data* is a
    whole file rg reads in fills, without context options (see _Lines.haystack_starts), the
    fills *reads* make (standard input's are not a file's)."""
    lines = _Lines(data, len(data), matcher, timeout, longest=longest)
    lines.in_fills = in_fills
    lines.reads = reads
    prepared = _prepare(matcher)
    if prepared.literals:
        return lines._by_literals(prepared.literals, prepared.rare_offsets)
    return lines._by_run(*prepared.run)


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
        longest: int | None = None,
        lowered: bytes | None = None,
    ):
        prepared = _prepare(matcher)
        self.prepared = prepared
        self.buf = buf
        # buf.lower(), where the caller made it already (see matching_lines).
        self.lowered = lowered
        self.end = end
        self.matcher = matcher
        self.crlf = crlf
        self.literals = prepared.literals
        self.rare_offsets = prepared.rare_offsets
        self.text_anchors = prepared.text_anchors
        # rg confirms each candidate line on its own (CompiledPattern.lines_alone).
        self.lines_alone = getattr(matcher, "lines_alone", False)
        self.timeout = timeout
        self.budget_short = prepared.budget_short
        self.crlf_strip = prepared.crlf_strip
        self.exact = prepared.exact
        self.folded = prepared.folded
        self.folded_offsets = prepared.folded_offsets
        self.folded_scan = prepared.folded_scan
        self.re_regex = prepared.re_regex
        self.ascii_search = prepared.ascii_search
        self.ascii_kinds = prepared.ascii_kinds
        self.around = prepared.around
        self.run = prepared.run
        # --crlf, (?m) anchors: the matcher for a text whose end is its haystack's end after
        # a "\r" (CompiledPattern.text_end); None when the pattern needs none.
        text_end = getattr(matcher, "text_end", None)
        self.at_text_end = None if text_end is None else replace(matcher, regex=text_end)
        # A candidate line longer than this (terminator included) is not confirmed (see
        # literal_line_spans); rg's --max-columns 0 is no limit.
        self.longest = longest or end + 1
        # Offsets where rg's line buffer starts (see buffer_starts), where the printer
        # re-finding a line's matches sees nothing before the line: for \A patterns, and under
        # context options for any (a word assertion at stray continuation bytes); empty
        # otherwise.
        self.buffer_starts: frozenset[int] = frozenset()
        # How rg's reads hand the stream to its line buffer (see Reads).
        self.reads = STREAMED
        # Read in rg's line-buffer fills (not memory-mapped, not a piece of a file), and the
        # before-context its rolls keep (None: no context option): see _stray_lead.
        self.in_fills = False
        self.fill_context: int | None = None
        self._haystack_starts: frozenset[int] | None = None
        self.haystack_starts_used = False  # whether a line's result depended on them

    def read_as(self, config: SearchConfig) -> None:
        """Take from *config* how rg reads the stream: in fills (a whole file not
        memory-mapped) and under which context options (see _stray_lead)."""
        self.in_fills = config.whole_stream and not config.mmap
        if config.before_context or config.after_context:
            self.fill_context = config.before_context

    @property
    def search(self):
        # Looked up when a line is confirmed, not up front: an exact-literal matcher's regex is
        # compiled on first use (pattern.LazyRegex), and the fused literal path never needs it.
        return self.matcher.regex.search

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

    def _stray_lead(self, ls: int, printer: bool = False) -> int:
        r"""1 when the line at *ls* is to be matched with the previous line's "\n" in front.

        rg matches a line inside its buffer, so a word assertion can look back past the line's
        start; that only changes a result after UTF-8 continuation bytes at the line's start
        (see regex_translate._Emitter._behind): memory-mapped, ``rg -c '\b{start-half} '``
        finds line 2 of ``x\n\xb6 \n``, not a file's first line ``\xb6 ``. Read in fills,
        neither: a line that starts a fill's search starts its haystack (haystack_starts),
        and, without context options, the buffer its matches are re-found in (*printer*).
        """
        if ls == 0 or not b"\x80" <= self.buf[ls : ls + 1] <= b"\xbf":
            return 0
        if self.in_fills and not (printer and self.fill_context is not None):
            return 0 if ls in self.haystack_starts() else 1
        return 1

    def haystack_starts(self) -> frozenset[int]:
        r"""Where the searches of rg's fills begin, for a stream read in fills: each fill's
        search runs on ``buffer[pos..]`` from the first line it has not searched, so nothing
        before that line is looked at (``x\n\xb6 \n`` walked: the 3-byte first read ends in
        line 2, which then starts the second fill's haystack, and ``\b{start-half} `` does not
        find it; memory-mapped it does). Measured against rg 15.1 on small walked files and
        with --mmap/--no-mmap. These are the starts without context options; with them the
        rolls keep lines, which moves the starts, and search_bytes searches again with those
        of :func:`fill_starts`."""
        if self._haystack_starts is None:
            self._haystack_starts = buffer_starts(self.buf, self.reads)
        self.haystack_starts_used = True
        return self._haystack_starts

    def line_matches(self, ls: int, le: int, look_back: bool = True) -> bool:
        """Whether the regex matches the line; *look_back* False matches it as the start of
        a haystack (rg's searcher goes on after a matching line with the rest of its buffer)."""
        lead = 0 if self.text_anchors or not look_back or self.lines_alone else self._stray_lead(ls)
        text = self.line_text(ls - lead, le)
        if (self.at_text_end is not None and text.endswith("\r")
                and (le == self.end or self.crlf_strip)):
            # The file's unterminated last line, or a line searched alone without its "\r\n"
            # (\A, \z): its end is the haystack's (CompiledPattern.text_end).
            found = self.at_text_end.regex.search(text, lead, timeout=self._timeout_for(len(text)))
            return found is not None
        if self.ascii_search is not None and len(text) <= _SHORT_LINE:
            if text.isascii():
                return self.ascii_search(text, lead) is not None
            if self.ascii_kinds:
                stand_ins = stand_in_text(text)
                if stand_ins is not None:
                    return self.ascii_search(stand_ins, lead) is not None
        if self.around is not None and not lead and len(text) > _SHORT_LINE:
            found = self._around_literal(text)
            if found is not None:
                return found
        return self.search(text, lead, timeout=self._timeout_for(len(text))) is not None

    def matches_past_limit(self, ls: int, le: int) -> bool:
        """Whether rg counts a trailing-context line past -m's limit as a regex match. With
        ``\\A`` or ``\\z`` in the pattern it never does, whatever the other alternatives:
        ``rg -m1 -A2 '\\Az|x'`` on "x", "ax", "bx" prints the last two as context, and under
        -v as matches (measured, walked and named files)."""
        return not self.text_anchors and self.is_match(ls, le)

    def is_match(self, ls: int, le: int) -> bool:
        """Whether the regex matches the line as rg's searcher checks one line on its own
        (after -m's limit, and line by line): without its terminator, which under --crlf
        is only a "\\r\\n", so a bare "\\n" stays and `^$`, which matches after it, matches
        (`rg --crlf -m1 -A1 -x ''` prints the line after an empty one as a match). On its
        own, nothing before the line is looked at: named ``x\\n\\xb6 \\n``, ``rg -v -m1 -A1
        '\\b{start-half} '`` selects line 2, which the buffer's search would not."""
        if self.crlf and le < self.end and self.buf[le - 1 : le] != b"\r":
            text = to_text(self.buf[ls : le + 1])
            return self.search(text, 0, timeout=self._timeout_for(len(text))) is not None
        return self.line_matches(ls, le, look_back=False)

    def _around_literal(self, text: str) -> bool | None:
        """Whether a long line matches, decided at the first occurrences of the pattern's
        literal (CompiledPattern.around_literal); None, for the search from the line's start
        to decide, after _AROUND_TRIES occurrences that are no match, or when the tries run
        out of their share of the time budget (a backwards match can cost what a forward
        search would not)."""
        literal, regex = self.around
        timeout = None if self.timeout is None else self.timeout / _AROUND_TRIES
        at = text.find(literal)
        for _ in range(_AROUND_TRIES):
            if at < 0:
                return False  # every occurrence tried
            try:
                if regex.match(text, at, timeout=timeout) is not None:
                    return True
            except TimeoutError:
                return None
            at = text.find(literal, at + 1)
        return None

    def line_spans(self, ls: int, le: int, alone: bool = False) -> tuple[tuple[int, int], ...]:
        """Byte spans (relative to ``ls``) of the matches in one line, as rg's printer finds them.

        rg's printer re-finds a matching line's matches in the buffer from the line's start to
        its end, terminator trimmed (with ``--crlf`` the ``\\r`` too): ``\\A`` then holds only
        on the first line, so ``rg -o '\\AHolmes'`` finds nothing on line 2 and prints the whole
        line, which the printer reproduces from an empty span list.

        A context line under -v is handed to the printer *alone*, as its own haystack: ``\\A``
        holds at its start and nothing before it is looked at (``rg -v -C1 --json '\\A\\*'``
        reports the ``*`` of a context line ``*star``). So does a line at the start of rg's
        line buffer (:attr:`buffer_starts`), which is the start of the buffer it is found in.
        """
        buf = self.buf
        stop = le
        # Only a terminated line loses its "\r": rg trims the "\r" of a "\r\n", and the last
        # line of `x\r` keeps it (`rg -U --crlf --json '\r'` reports it there, not on "x\r\n").
        if self.crlf and ls < le < self.end and buf[le - 1 : le] == b"\r":
            stop = le - 1
        if alone or ls in self.buffer_starts:
            lead = 0
        else:
            lead = 1 if (ls > 0 and self.text_anchors) else self._stray_lead(ls, printer=True)
        text = to_text(buf[ls - lead : stop])
        matcher = self.matcher
        if self.at_text_end is not None and text.endswith("\r") and (stop < le or le == self.end):
            # The text ends a "\r\r\n" line before its "\r\n", or the file: the haystack's
            # end, after a "\r" (CompiledPattern.text_end).
            matcher = self.at_text_end
        # rg reports no empty match at the very end of a file whose last line is unterminated.
        at_eof = le == self.end and (self.end == 0 or buf[self.end - 1 : self.end] != b"\n")
        tail = stop - ls + lead
        spans = []
        for s, e in matcher.iter_byte_spans(text, lead, len(text), self._timeout_for(len(text))):
            if at_eof and s == e == tail:
                continue
            spans.append((s - lead, e - lead))
        return tuple(spans)

    def inverted_spans(self, ls: int, le: int) -> tuple[tuple[int, int], ...]:
        """:meth:`line_spans` of a line selected under -v, which the searcher found no match in.

        rg's printer re-finds matches in every line it is handed (-o, --column, JSON), -v's
        too. It mostly finds none, but it sees a line otherwise than the searcher did in two
        ways: under --crlf with \\A or \\z (searched line by line) the searcher takes only
        a "\\r\\n" off, the printer a bare "\\n" as well, so ``rg --crlf -v -o 'true\\z'``
        prints the "true" of "ab_true\\n" (content-parity case 50002568); and a word
        assertion after UTF-8 continuation bytes at the line's start looks back past it in one
        and not in the other (:meth:`_stray_lead`): ``rg -v -o '\\b{start-half}\\('``
        prints the "(" of a line "\\xbd(" it selected. A line without the pattern's
        required literals holds no match for either, and is not searched again."""
        literals = self.literals
        if literals and not any(self.buf.find(literal, ls, le) >= 0 for literal in literals):
            return ()
        return self.line_spans(ls, le)

    def bounds(self, pos: int) -> tuple[int, int]:
        """(start, end without terminator) of the line holding byte *pos*."""
        buf = self.buf
        start = buf.rfind(b"\n", 0, pos) + 1
        stop = buf.find(b"\n", pos, self.end)
        return start, (self.end if stop < 0 else stop)

    def matching_lines(self) -> Iterator[tuple[int, int]]:
        found = self._matching_lines()
        if self.at_text_end is not None and self.buf[self.end - 1 : self.end] == b"\r":
            return self._last_line_at_text_end(found)
        return found

    def _last_line_at_text_end(self, found: Iterator[tuple[int, int]]) -> Iterator[tuple[int, int]]:
        # A scan of the whole text runs the line regex, which takes the end of the last line
        # as followed by a "\n": line_matches decides that line (see CompiledPattern.text_end).
        last = self.buf.rfind(b"\n", 0, self.end) + 1
        for ls, le in found:
            if ls >= last:
                break
            yield ls, le
        if self.line_matches(last, self.end):
            yield last, self.end

    def _matching_lines(self) -> Iterator[tuple[int, int]]:
        if self.literals:
            return self._by_literals(self.literals, self.rare_offsets)
        if self.text_anchors:
            return self._each_line()
        if self.folded_scan is not None:
            return self._by_folded_scan(self.folded_scan)
        if self.folded is not None:
            # Case-insensitive: the folded literals, looked for in the text with its ASCII
            # letters lowered (which keeps every byte where it was).
            lowered = self.lowered if self.lowered is not None else self.buf.lower()
            return self._by_literals(self.folded, self.folded_offsets, lowered)
        if self.run is not None:
            return self._by_run(*self.run)
        return self._by_scan()

    def _by_run(
        self, table: bytes, needle: bytes, sure: bytes | None
    ) -> Iterator[tuple[int, int]]:
        # The run every match holds is a literal of the translated text, which keeps every
        # byte where it was (see class_run); the needle's byte is common, so it is looked
        # for with bytes.find (offset 0 of LiteralFinder never jumps for it). The absence
        # test may have translated these very bytes (a whole slice is the bytes object).
        text = self.buf[: self.end]
        kept = self.prepared.translated
        self.prepared.translated = None
        hay = kept[1] if kept is not None and kept[0] is text else text.translate(table)
        # A line holding the run in ASCII members alone matches: it is not confirmed, which
        # costs a few microseconds a line (\w{12,} over the large benchmark tree: 4 million).
        sure_hay = None if sure is None else text.translate(sure)
        return self._by_literals((needle,), (0,), hay, sure_hay)

    def _by_folded_scan(self, search) -> Iterator[tuple[int, int]]:
        # As _by_literals, the candidates found by the regex module's folded scan.
        end = self.end
        pos = 0
        after_match = -1
        while pos < end:
            m = search(self.buf, pos, end)
            if m is None:
                return
            ls, le = self.bounds(m.start())
            if (self.exact or le + (le < end) - ls > self.longest
                    or self.line_matches(ls, le, look_back=ls != after_match)):
                yield ls, le
                after_match = le + 1
            pos = le + 1

    def _by_literals(
        self, literals: tuple[bytes, ...], offsets: tuple[int, ...], hay: bytes | None = None,
        sure_hay: bytes | None = None,
    ) -> Iterator[tuple[int, int]]:
        """Lines holding one of *literals* in *hay* (default: the text itself, of which *hay*
        must keep every byte's position), confirmed unless every occurrence is a match or the
        line holds the one literal in *sure_hay* too (another translation of the text, in
        which any occurrence is a match)."""
        buf, end = self.buf, self.end
        # The sure window is the literal's in the text, not in another haystack.
        window = self.prepared.sure if hay is None and len(literals) == 1 else None
        if hay is None:
            hay = buf
        # after_match: where the line after the last matching line starts. rg's searcher goes
        # on from there with the rest of its buffer, so a line starting with stray UTF-8
        # continuation bytes sees no character before it (see line_matches).
        after_match = -1
        if len(literals) == 1:
            needle = literals[0]
            find = LiteralFinder(needle, offsets[0]).find
            if window is not None:
                sure, ahead, width = window.regex.fullmatch, window.before, window.width
            pos = 0
            while pos < end:
                best = find(hay, pos, end)
                if best < 0:
                    return
                # self.bounds(best), inlined: this loop runs once per matching line.
                ls = buf.rfind(b"\n", 0, best) + 1
                le = buf.find(b"\n", best, end)
                if le < 0:
                    le = end
                if (self.exact or le + (le < end) - ls > self.longest
                        or (sure_hay is not None and sure_hay.find(needle, best, le) >= 0)
                        or (window is not None and ls <= best - ahead
                            and best - ahead + width <= le
                            and sure(buf, best - ahead, best - ahead + width) is not None)
                        or self.line_matches(ls, le, look_back=ls != after_match)):
                    yield ls, le
                    after_match = le + 1
                pos = le + 1
            return
        # Each literal's next occurrence is remembered until the search passes it, so every
        # literal is scanned once over the buffer; searching all of them again after each
        # candidate would rescan a rare one's whole remaining buffer every time.
        finders = [LiteralFinder(lit, k).find for lit, k in zip(literals, offsets)]
        nexts = [find(hay, 0, end) for find in finders]
        while True:
            best = min((n for n in nexts if n >= 0), default=-1)
            if best < 0:
                return
            ls, le = self.bounds(best)
            if (self.exact or le + (le < end) - ls > self.longest
                    or self.line_matches(ls, le, look_back=ls != after_match)):
                yield ls, le
                after_match = le + 1
            pos = le + 1
            if pos >= end:
                return
            for i, n in enumerate(nexts):
                if 0 <= n < pos:
                    nexts[i] = finders[i](hay, pos, end)

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
        offsets = ByteOffsets(text)
        re_regex = self.re_regex
        if re_regex is not None:
            # A pattern re runs faster and can run without a time budget (pattern.py).
            def search(text, pos, end, timeout=None, _search=re_regex.search):
                return _search(text, pos, end)
        else:
            search = self.search
        timeout = self.timeout
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
            ls = offsets.of(cls)
            stop = buf.find(b"\n", ls, end)
            le = end if stop < 0 else stop
            pos = cle + 1
            # The scan saw the "\n" before the line; a line rg matches alone (lines_alone) or
            # that starts a fill's haystack, whose matching can then only lose (see
            # _stray_lead), is decided as rg sees it.
            if (cls and "\udc80" <= text[cls : cls + 1] <= "\udcbf"
                    and (self.lines_alone or (self.in_fills and ls in self.haystack_starts()))
                    and not self.line_matches(ls, le)):
                continue
            yield ls, le
            # rg searches on with the rest of its buffer as a new haystack, so a word
            # assertion cannot look back past the next line's start; only a line starting
            # with UTF-8 continuation bytes notices (see _stray_lead). Such a line is decided
            # on its own; if it does not match, scanning resumes after it.
            while pos < tend and "\udc80" <= text[pos] <= "\udcbf":
                ls = offsets.of(pos)
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


def _reads(data: bytes, read_ends: tuple[int, ...], stdin: bool) -> Reads:
    """How rg's reads hand *data*'s search stream (decode.read_stream, which gave
    *read_ends*) to its line buffer; *stdin*: *data* is standard input."""
    if not data.startswith(BOMS):
        return STDIN if stdin else STREAMED
    if stdin and not data.startswith(TRANSCODED_BOMS):
        # A UTF-8 mark, stripped from the stream: the sniff that read it left the rest of the
        # stdin buffer's first 8 KiB held. (A UTF-16 input's transcoder reads 8 KiB at a time
        # through the buffer or past it: its reads end where a file's do.)
        return Reads(False, (), STDIN_BUFFER - BOM_SNIFF)
    return Reads(False, read_ends)


def search_bytes(data: bytes, matcher: MatcherLike, config: SearchConfig) -> FileResult:
    """Search a file's bytes; see the module docstring."""
    if config.mmap and data.startswith(BOMS):
        # rg hands a memory-mapped file with a byte-order mark to its reader (to transcode
        # it, or to drop a UTF-8 mark), which fills its buffer as for a streamed file: where
        # -v -m stops in a UTF-16 file of odd length, the U+FFFD of its last byte, decoded only
        # at the end, lies past the last fill (`-v -m1 --json 'zz|a'` on a mapped UTF-16
        # "ab\ncd\ne\n" + one byte: 8 bytes searched, as when it is streamed), and a mapped
        # UTF-8 "\ufeff\n\n\n " counts 3 bytes searched under -v -m3, as streamed, not 4.
        config = replace(config, mmap=False)
    if matcher.can_match_newline or getattr(matcher, "whole_text", False):
        from shellfree.search.multiline import search_multiline  # only -U needs it

        return search_multiline(data, matcher, config)
    result = FileResult()
    stream, read_ends = read_stream(data)
    reads = _reads(data, read_ends, config.stdin)
    nul = stream.find(b"\0") if config.binary != BINARY_NONE else -1
    end = len(stream)
    context = config.before_context if (config.before_context or config.after_context) else None
    fill = None
    if nul >= 0:
        result.binary_offset = nul
        if config.mmap:
            # One buffer holds the whole file (memory-mapped; multiline.py handles the other
            # whole-file buffer, -U's): no 3-byte first read, and NULs stay. rg pre-scans only
            # its first 64 KiB; past that it notices a NUL only in a line it is about to print
            # (see FileResult.binary_in_printed_lines).
            quit = config.binary == BINARY_QUIT
            result.binary_quit = quit
            if nul >= FILL:
                result.binary_offset = None
                result.binary_in_printed_lines = True
            elif quit:
                end = 0
            else:
                result.binary_after = 0
        elif config.binary == BINARY_QUIT:
            result.binary_quit = True
            fill = fill_of(stream, nul, context, reads=reads)
            end = fill.start
        else:
            result.binary_after = fill_of(stream, nul, context, reads=reads).start
            stream = stream.replace(b"\0", b"\n")  # rg's "convert" mode
    result.bytes_searched = end if fill is None else fill.consumed
    if config.mmap and result.binary_offset is not None:
        result.bytes_searched = min(end, result.binary_offset)
    lines = _search(stream, end, matcher, config, result, reads)
    if lines is None:
        return result
    if (config.invert and config.max_count is not None and config.after_context
            and (nul < 0 or not config.mmap)):
        from shellfree.search.inverted_replay import replay_converted, replay_inverted

        if nul >= 0 and config.binary != BINARY_QUIT:
            return replay_converted(stream, nul, matcher, config, result, reads, context)
        return replay_inverted(stream, nul, matcher, config, result, reads)
    if context is not None and lines.haystack_starts_used:
        # A line starting a fill decided a result, and the fills' starts depend on the lines
        # the rolls keep, the printed ones among them (see fill_of), so search again until
        # the two agree, as for a NUL below. Measured on files of 12,000 lines, half of them
        # starting with a stray continuation byte, under -A1 to -A4 and -B0 to -B3.
        for _ in range(4):
            starts = fill_starts(stream, reads, context, handed_over(result.lines, config))
            if starts == lines.haystack_starts():
                break
            lines = _search(stream, end, matcher, config, result, reads, starts)
            assert lines is not None
    if context is not None and nul >= 0 and not config.mmap:
        # The buffer's rolls also drop the lines handed to the printer so far, which leaves
        # more room for the next fill: where the NUL's fill starts depends on what was printed
        # before it, so search again until the two agree.
        for _ in range(4):
            refill = fill_of(stream, nul, context, handed_over(result.lines, config), reads)
            if fill is None or refill.start == end:
                break
            end = refill.start
            lines = _search(stream, end, matcher, config, result, reads)
            assert lines is not None
        if fill is None:
            result.binary_after = refill.start
        else:
            result.bytes_searched = refill.consumed
    if (context is not None and config.submatches and not config.mmap
            and (lines.text_anchors or _stray_match_line(stream, result.lines))):
        # The rolls keep the lines printed before each fill out of the buffer, so where a
        # buffer starts (where \A holds, and where a word assertion at a line's stray
        # continuation bytes cannot look back, when the printer re-finds a line's matches)
        # depends on what was printed; printing depends only on which lines match: one
        # search more.
        starts = buffer_starts(stream, reads, context, handed_over(result.lines, config))
        if any(line is not None and line.kind == "match" and line.offset in starts
               and line.offset > 0 for line in result.lines):
            lines = _search(stream, end, matcher, config, result, reads,
                            lines._haystack_starts, starts)
            assert lines is not None
    stopped = _stopped_early(config, result)
    if stopped:
        result.bytes_searched = stop_position(lines, config, result, config.mmap)
    if config.mmap and result.binary_offset is not None:
        # rg reports a whole-buffer binary file as searched up to its first NUL at most.
        result.bytes_searched = min(result.bytes_searched, result.binary_offset)
    if result.binary_offset is not None and stopped:
        # rg stops reading at -m's last match or -l's first one; if that came before the fill
        # holding the NUL, it never saw binary data (no warning, no notice).
        threshold = result.binary_after if result.binary_after is not None else end
        last = max((line.offset for line in result.lines if line is not None), default=-1)
        if result.binary_quit and after_context_cut(config, result):
            last = end  # rg read on for the missing after-context lines: into the NUL's fill
        elif (lines.text_anchors and not config.stop_at_first and not config.mmap
              and config.max_count is not None and result.matched_lines >= config.max_count):
            # \A or \z: rg searches line by line and checks -m's limit before each line, so
            # a limit reached on a fill's last line reads the next fill (walked, -m1 -e '^'
            # -e 'a\zb' over "  \nx\0\n": the NUL after the 3-byte first fill is seen).
            shown = [line for line in result.lines if line is not None][-1]
            line_end = shown.offset + len(shown.text)
            if line_end == fill_of(stream, line_end - 1, context, reads=reads).stop:
                last = line_end
        if last < threshold and not (config.mmap and result.binary_after == 0):
            result.binary_offset = None
            result.binary_after = None
            result.binary_quit = False
    if result.binary_after is not None:
        result.binary_after_index = handed_over_from(result.lines, config, result.binary_after)
        if (config.invert and context is not None and not config.mmap
                and config.max_count is None and not lines.text_anchors):
            from shellfree.search.inverted_replay import breaks_after_refusal

            result.breaks_after_binary = breaks_after_refusal(stream, lines, config, result,
                                                              reads, context)
    return result


def _stray_match_line(stream: bytes, lines: list) -> bool:
    """Whether a selected line past the first starts with a UTF-8 continuation byte (see
    _Lines._stray_lead)."""
    return any(line is not None and line.kind == "match" and line.offset > 0
               and b"\x80" <= stream[line.offset : line.offset + 1] <= b"\xbf" for line in lines)


def _search(
    stream: bytes, end: int, matcher: MatcherLike, config: SearchConfig, result: FileResult,
    reads: Reads = STREAMED, haystack_starts: frozenset[int] | None = None,
    rolled_starts: frozenset[int] | None = None,
) -> _Lines | None:
    """Search ``stream[:end]`` into *result* (its lines and counts start afresh); None when
    nothing can match. *reads*: see Reads; *rolled_starts*: under context options, where rg's
    line buffer starts (see line_buffer.buffer_starts), which the lines printed decide."""
    result.lines = []
    result.matched_lines = result.matches = 0
    if matcher.matches_nothing and not config.invert:
        return None
    lowered = None  # the stream's bytes.lower(), once made for the folded literals
    if not config.invert:
        prepared = _prepare(matcher)
        literals = prepared.literals
        if literals and not any(LiteralFinder(lit, k).find(stream, 0, end) >= 0
                                for lit, k in zip(literals, prepared.rare_offsets)):
            return None  # the literal prefilter: no candidate line anywhere
        if prepared.folded_scan is not None:
            if prepared.folded_scan(stream, 0, end) is None:
                return None
        elif prepared.folded is not None:
            if len(prepared.folded) == 1:
                prepared.charge_folded(end)
            lowered = stream.lower()
            if not any(LiteralFinder(lit, k).find(lowered, 0, end) >= 0
                       for lit, k in zip(prepared.folded, prepared.folded_offsets)):
                return None
    lines = _Lines(stream, end, matcher, config.timeout, config.crlf, lowered=lowered)
    lines.reads = reads
    lines.read_as(config)
    lines._haystack_starts = haystack_starts
    if config.submatches and not config.mmap:
        if config.before_context or config.after_context:
            if rolled_starts is not None:  # what the rolls left, given by search_bytes
                lines.buffer_starts = rolled_starts
        elif lines.text_anchors:
            lines.buffer_starts = buffer_starts(stream, reads)
    _search_lines(lines, config, result)
    return lines


def _stopped_early(config: SearchConfig, result: FileResult) -> bool:
    # Under -v, stop_at_first is set only where rg's searcher does stop at the first selected
    # line (line by line, for \A or \z; see rgcli/search.py).
    if config.stop_at_first and result.matched_lines > 0:
        return True
    return config.max_count is not None and result.matched_lines >= config.max_count


def _first_per_fill(hits: Iterator[tuple[int, int]], lines: _Lines) -> Iterator[tuple[int, int]]:
    """The first of *hits* in each fill of rg's line buffer (one buffer when memory-mapped).

    Under -v with -l or -q, rg's printer asks to stop at the first selected line; the line
    searcher leaves its inverted scan of the buffer but reads the next fill, whose first
    selected line is sunk again. So -m counts one line per fill: a walked file of 10-byte
    lines with a NUL at 70,000 (the second fill) is listed by ``-v -m1 -l zzz``, not by
    ``-m2``; with the NUL at 140,000, by ``-m2`` and not ``-m3`` (rg 15.1)."""
    starts = sorted(fill_starts(lines.buf, lines.reads)) if lines.in_fills else [0]
    index = 0
    taken = -1  # the fill whose first hit was taken
    for span in hits:
        while index + 1 < len(starts) and starts[index + 1] <= span[0]:
            index += 1
        if index != taken:
            taken = index
            yield span


def _search_lines(lines: _Lines, config: SearchConfig, result: FileResult) -> None:
    limit = config.max_count
    hits: Iterator[tuple[int, int]]
    hits = iter(()) if lines.matcher.matches_nothing else lines.matching_lines()
    if config.invert:
        hits = _all_lines_except(lines.buf, lines.end, list(hits))
        if config.first_per_fill:
            hits = _first_per_fill(hits, lines)
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


def _emit(lines: _Lines, selected, config, result) -> None:
    """Turn selected (start, end) byte spans of lines into reported lines, with context and
    breaks."""
    buf, end = lines.buf, lines.end
    before, after = config.before_context, config.after_context
    if not before and not after:
        # No context: every selected span is printed as it is, in order. This is the common
        # case and runs once per printed line, so it avoids the closures below.
        append, count = result.lines.append, buf.count
        want_spans = config.submatches and not config.invert
        inverted_spans = lines.inverted_spans if config.submatches and config.invert else None
        line_no, counted_to = 1, 0
        for ls, le in selected:
            line_no += count(b"\n", counted_to, ls)
            counted_to = ls
            if want_spans:
                spans = lines.line_spans(ls, le)
            else:
                spans = () if inverted_spans is None else inverted_spans(ls, le)
            append(Line("match", line_no, ls, buf[ls : le + 1 if le < end else le], spans))
        return
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
                spans = lines.line_spans(ls, le, alone=kind == "context")
            elif config.submatches and kind == "match":
                spans = lines.inverted_spans(ls, le)
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
        add("match", ls, le)
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
            # counted (-c, --count-matches; the JSON printer counts its own lines).
            if next_selected is None and config.max_count is not None \
                    and len(selected) >= config.max_count:
                if lines.matches_past_limit(*span) != config.invert:
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
