"""``shellfree rg PATTERN [PATH…]``: content search, printed as rg prints it when piped."""

from __future__ import annotations

import errno
import io
import os
import stat
import sys
import time
from itertools import chain, compress
from operator import itemgetter

from shellfree._record import replace
from shellfree.rgcli.flags import RgArgs
from shellfree.rgcli.run import (
    Invocation,
    file_split_workers,
    in_sort_order,
    is_one_file,
    walk_options,
    walk_order_is_sorted,
    worker_count,
)
from shellfree.search.decode import BOMS
from shellfree.search.errors import GlobError, os_error_text
from shellfree.search.plain_literal import exact_literal_lines, plain_lines
from shellfree.search.printer import PrintOptions, StandardPrinter, SummaryPrinter
from shellfree.search.searcher import (
    BINARY_CONVERT,
    BINARY_NONE,
    BINARY_QUIT,
    FileResult,
    SearchConfig,
    SearchTimeout,
    absence_test,
    exact_literal,
    fusable,
    line_confirmer,
    literal_line_spans,
    quits_within,
    search_bytes,
    windowed_literal,
)
from shellfree.search.file_read import LargeFile, read_walked, read_whole
from shellfree.search.line_buffer import STDIN, STREAMED, Reads
from shellfree.search.walk import Haystack, ReplayedRun, WalkMessage, WalkOptions, Walker

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see shellfree/__init__.py)
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from typing import BinaryIO

__all__ = ["NOTHING_SEARCHED", "open_search", "run_search"]

NOTHING_SEARCHED = (
    "No files were searched, which means ripgrep probably applied a filter you didn't expect.\n"
    "Running with --debug will show why files are being skipped."
)

#: CPU seconds one regex call may take (the regex module counts CPU time, not wall time)
#: before the file is abandoned with an error naming it: a catastrophic pattern must not hang.
REGEX_TIMEOUT_SECONDS = 1.0


def _stdin_is_readable(stdin: BinaryIO | None) -> bool:
    # rg: with no path, stdin is searched if it is a file, a FIFO or a socket.
    if stdin is None:
        return False
    try:
        mode = os.fstat(stdin.fileno()).st_mode
    except (OSError, ValueError, AttributeError):
        return False
    return stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def _read_pattern_file(path: bytes, stdin: BinaryIO | None, fs) -> list[str]:
    if path == b"-":
        data = stdin.read() if stdin is not None else b""
    else:
        with open(fs(path), "rb") as handle:
            data = handle.read()
    if not data:
        return []  # rg: an empty file gives no pattern (one empty line gives the empty one)
    lines = data.split(b"\n")
    if data.endswith(b"\n"):
        lines.pop()
    out = []
    for i, line in enumerate(lines):
        # rg strips "\r" before "\n", but keeps a lone "\r" at the very end of the file.
        if line.endswith(b"\r") and (i < len(lines) - 1 or data.endswith(b"\n")):
            line = line[:-1]
        try:
            out.append(line.decode("utf-8"))
        except UnicodeDecodeError as err:
            name = "<stdin>" if path == b"-" else os.fsdecode(path)
            raise _Fatal(
                f"{name}:{i + 1}: found invalid UTF-8 in pattern at byte offset {err.start}: "
                f"{_escape_bytes(line)} (disable Unicode mode and use hex escape sequences to "
                "match arbitrary bytes in a pattern, e.g., '(?-u)\\xFF')") from None
    return out


def _escape_bytes(data: bytes) -> str:
    """rg's (grep-cli's) escape of bytes for a message: printable ASCII as itself but for
    the backslash, \\0 \\t \\n \\r, other ASCII and the bytes of invalid UTF-8 as \\xHH, other
    characters as themselves."""
    out = []
    for char in data.decode("utf-8", "surrogateescape"):
        code = ord(char)
        if 0xDC80 <= code <= 0xDCFF:
            code -= 0xDC00  # a byte of invalid UTF-8
        elif code >= 0x80:
            out.append(char)
            continue
        if 0x21 <= code <= 0x7E and code != 0x5C:
            out.append(chr(code))
        else:
            out.append(_NAMED_ESCAPES.get(code) or f"\\x{code:02X}")
    return "".join(out)


_NAMED_ESCAPES = {0x00: "\\0", 0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r", 0x5C: "\\\\"}


def _patterns(args: RgArgs, stdin: BinaryIO | None, fs) -> tuple[list[str], list[bytes]]:
    """The patterns and the paths, following rg's positional rules."""
    paths = list(args.positional)
    patterns: list[str] = []
    stdin_read = False
    for is_file, source in args.pattern_sources:
        if not is_file:
            patterns.append(source)
            continue
        if source == b"-":
            if stdin_read:
                raise _Fatal("error reading -f/--file from stdin: stdin has already been consumed")
            stdin_read = True
        try:
            patterns.extend(_read_pattern_file(source, stdin, fs))
        except OSError as err:
            # rg opens a directory and fails to read it, and writes a failed read with no
            # space after the colon (rg 15.1: "rg: pdir:Is a directory (os error 21)").
            colon = ":" if err.errno == errno.EISDIR else ": "
            raise _Fatal(f"{os.fsdecode(source)}{colon}{os_error_text(err)}") from None
    if not args.pattern_sources:
        if not paths:
            raise _Fatal("ripgrep requires at least one pattern to execute a search")
        raw = paths.pop(0)
        try:
            patterns = [raw.decode("utf-8")]
        except UnicodeDecodeError:
            raise _Fatal("pattern given is not valid UTF-8") from None
    return patterns, paths


class _Fatal(Exception):
    """An error that stops rg before any search (exit 2)."""


def _is_terminal(stream: BinaryIO) -> bool:
    try:
        return os.isatty(stream.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return False


def _in_pieces(st: os.stat_result) -> bool:
    """Whether a file is large enough to be searched in pieces (rgcli/split_file.py, imported
    only when a file is larger than file_read.HEAD_BYTES)."""
    from shellfree.rgcli.split_file import SPLIT_MIN_BYTES

    return st.st_size >= SPLIT_MIN_BYTES


def _mode(args: RgArgs) -> str:
    mode = args.mode
    if mode == "count" and args.only_matching and not args.invert:
        return "count_matches"  # rg: -o -c counts matches
    if mode == "count_matches" and args.invert:
        return "count"  # rg: -v --count-matches counts lines
    return mode


def _compile(args: RgArgs, patterns: list[str]):
    """The matcher for *patterns* under the flags (raises PatternError with rg's text)."""
    from shellfree.search.pattern import PatternOptions, compile_patterns

    return compile_patterns(
        patterns,
        PatternOptions(
            fixed_strings=args.fixed_strings,
            case=args.case,
            word=args.boundary == "word",
            line=args.boundary == "line",
            multiline=args.multiline,
            dotall=args.multiline_dotall,
            crlf=args.crlf,
            binary_detection=not args.text,
            unicode=not args.no_unicode,
        ),
    )


def _replacement(template: bytes, matcher):
    from shellfree.search.replace import Replacement  # loaded only for -r

    return Replacement(template, matcher)


def _stdout_identity(stream: BinaryIO) -> tuple[int, int] | None:
    """(device, inode) of stdout when it is a regular file: rg never searches the file its
    own output goes to (``rg foo >> out.txt`` inside the tree)."""
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISREG(st.st_mode) else None


class Outcome:
    """What searching one file produced: its output, and what it means for the exit status.

    *starts_with_line*: whether the chunk begins with a line (default: whether there is a
    chunk); rg's "--" between files precedes a line only, and a line printed empty counts (-o
    prints nothing of a match that is all line terminators, yet rg writes the "--" before it).
    Written out rather than a Record: one is made per file.
    """

    __slots__ = ("searched", "matched", "chunk", "starts_with_line", "json", "errors")

    def __init__(
        self,
        searched: bool = False,
        matched: bool = False,
        chunk: bytes = b"",
        starts_with_line: bool | None = None,
        json: bytes = b"",
        errors: tuple[str, ...] = (),
    ) -> None:
        self.searched = searched
        self.matched = matched
        self.chunk = chunk
        self.starts_with_line = bool(chunk) if starts_with_line is None else starts_with_line
        self.json = json
        self.errors = errors

    def _values(self) -> tuple:
        return (self.searched, self.matched, self.chunk, self.starts_with_line, self.json,
                self.errors)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Outcome):
            return NotImplemented
        return self._values() == other._values()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "Outcome(searched=%r, matched=%r, chunk=%r, starts_with_line=%r, json=%r, errors=%r)" % self._values()


_SKIPPED = Outcome()


class _Search:
    """One search command: the decisions rg takes once per run, then one file at a time."""

    def __init__(
        self,
        args: RgArgs,
        out: "Invocation",
        paths: list[bytes],
        use_stdin: bool,
        matcher,
        walk: WalkOptions | None = None,
    ):
        self.args = args
        self.matcher = matcher
        multiline = matcher.multiline
        self.out = out
        #: Under a sort that collects the files (not the walk's own order), the haystacks in
        #: that order, collected by open_search before the regex was built, as rg does.
        self.sorted_files: list[Haystack] | None = None
        self.mode = _mode(args)
        context = self.mode in ("standard", "json")
        before = args.before_context if args.before_context is not None else (args.context or 0)
        after = args.after_context if args.after_context is not None else (args.context or 0)
        if not context:
            before = 0
            # rg's searcher keeps the after-context under -c/--count-matches: with -m, matching
            # lines in the trailing context of the last counted line are counted too (r1380).
            if not (self.mode in ("count", "count_matches") and args.max_count is not None):
                after = 0
        one_file = is_one_file(paths, out) or use_stdin
        options = PrintOptions(
            with_filename=(args.with_filename if args.with_filename is not None
                           else args.vimgrep or not one_file),
            heading=bool(args.heading),
            line_number=(args.line_number if args.line_number is not None
                         else args.column or args.vimgrep),
            column=args.column,
            per_match=args.vimgrep,
            trim=args.trim,
            field_match=args.field_match_separator,
            field_context=args.field_context_separator,
            replace=None if args.replace is None else _replacement(args.replace, matcher),
            byte_offset=args.byte_offset,
            only_matching=args.only_matching,
            max_columns=args.max_columns,
            max_columns_preview=args.max_columns_preview,
            null=args.null,
            context=context and bool(before or after),
            context_separator=args.context_separator,
            path_separator=args.path_separator,
            include_zero=args.include_zero,
            crlf=args.crlf,
            # rg's multi-line searcher, not -U itself: -U with a pattern that cannot match a
            # newline and has no anchor searches line by line (`rg -o -U ''` prints empty lines).
            multiline=multiline,
            invert=args.invert,
        )
        self.json = None
        self.standard = None
        self.summary = None
        if self.mode == "standard":
            self.standard = StandardPrinter(options)
        elif self.mode == "json":
            from shellfree.search.json_printer import JsonPrinter  # json is loaded only here

            # rg turns line numbers on for JSON unless -N was given.
            self.json = JsonPrinter(
                line_number=args.line_number is not False, quiet=args.quiet, invert=args.invert,
                replace=options.replace, crlf=args.crlf, multiline=multiline,
            )
        else:
            self.summary = SummaryPrinter(self.mode, options)
        # rg memory-maps explicit files when every path argument is a file and there are at
        # most ten of them; a mapped file keeps its NUL bytes and only its first 64 KiB are
        # pre-scanned.
        auto_mmap = (
            bool(paths)
            and len(paths) <= 10
            and all(p != b"-" and os.path.isfile(out.fs(p)) for p in paths)
            and sys.platform != "darwin"
        )
        self.mmap = auto_mmap if args.mmap is None else args.mmap
        # --mmap maps every file rg searches, walked ones too (stdin cannot be mapped): walked
        # with --mmap, `rg -c '\b{start-half} '` finds line 2 of "x\n\xb6 \n", as in a
        # named file, and read in fills it does not (see searcher._Lines.haystack_starts).
        self.mmap_walked = args.mmap is True
        first_enough = (args.quiet and self.mode != "json") or self.mode == "files_with_matches"
        self.config = SearchConfig(
            invert=args.invert,
            max_count=args.max_count,
            before_context=before,
            after_context=after,
            submatches=(args.only_matching or args.column or args.vimgrep
                        or args.replace is not None or self.mode in ("count_matches", "json")),
            # rg --json -q still reads every file for its summary's statistics. Under -v the
            # line searcher goes on past the first selected line (it leaves its inverted scan
            # of a buffer without stopping the search), the multi-line one does not: a walked
            # file with a NUL past its first 64 KiB is listed by -U -l -v, not by -l -v. Nor
            # does it when it searches line by line, as it does a pattern with \A or \z: a
            # walked "\nabc\nde\0f\n", whose first line the 3-byte first read holds, is listed
            # by -l -v '\Azzz' and found by -q -v '\Azzz', not by -l -v 'zzz' (rg 15.1).
            stop_at_first=first_enough and (
                not args.invert or multiline or getattr(matcher, "text_anchors", False)),
            first_per_fill=first_enough and args.invert and not multiline
            and not getattr(matcher, "text_anchors", False),
            crlf=args.crlf,
            timeout=REGEX_TIMEOUT_SECONDS,
        )
        self.file_separator = (
            args.context_separator if context and (before or after) and not args.heading else None
        )
        # rg's single-threaded search ends the "--" between files like its other lines (so
        # "\r\n" under --crlf); its parallel one always with "\n".
        single = walk.single_threaded if walk is not None else True
        self.file_separator_end = b"\r\n" if (args.crlf and single) else b"\n"
        self._configs: dict[tuple[str, bool], SearchConfig] = {}
        # Files that cannot be searched in pieces (small, binary, ...; see
        # split_file.search_split): read whole without trying again.
        self._read_whole: set[bytes] = set()
        self.skip_identity = _stdout_identity(out.stdout)
        # Forked workers would fill copies of the cache that die with them.
        self.contents = out.cache if not out.may_fork else None
        # The per-file outcomes of this search kept in the cache; set by run_search, which
        # knows the patterns (--json's are not kept: its statistics time every file). Empty
        # (a search not run before, or forgotten), it is not looked up file by file; what this
        # run computes is stored at its end, under one lock (remember_outcomes).
        self.outcomes: dict | None = None
        self.outcome_key = None  # tree_cache.outcome_key, set with outcomes
        self.outcomes_empty = False
        # A file's key and the entry its table keeps, flat (see TreeCache.remember): the
        # entry is made here, where the table is filled with it as it is.
        self.to_remember: list = []
        self.vouch_start: tuple | None = None
        # Walked files whose cached content the lane found vouched for (by the watch or by a
        # ``stat``) but did not prove empty: path -> (content, signature, the watch's vouch,
        # whether the absence test ran), taken by evaluate instead of a second lookup or stat.
        self._checked: dict[bytes, tuple[bytes, object, tuple | None, bool]] = {}
        # Modes where a file without a match prints nothing and counts for nothing (not -L,
        # not --json's statistics, not --include-zero's zero counts, not -v's other lines).
        absence_proves_nothing = not args.invert and (
            self.mode in ("standard", "files_with_matches")
            or (self.mode in ("count", "count_matches") and not args.include_zero)
        )
        # A file holding none of the pattern's required literals is proven empty by one scan.
        self.absent = absence_test(matcher) if absence_proves_nothing else None
        # The test a lane runs over many files before any is searched: not one that keeps its
        # work for the search that follows (a translation), which would then be done twice.
        self._bulk_absent = (None if getattr(self.absent, "keeps_translation", False)
                             else self.absent)
        # A walked file rg quits at its first NUL is read no further than that NUL's buffer
        # fill (search/searcher.py quits_within): a large binary file costs a head, not a
        # read of it all.
        walked = self.config_for(self.binary_mode(False), False, False)
        self._quits_early = (
            (lambda head: quits_within(head, matcher, walked))
            if walked.binary == BINARY_QUIT else None
        )
        # The fused literal search (search/plain_literal.py) needs a pattern with required
        # literals or a run of bytes (search/class_run.py) and a search whose lines are
        # independent and all printed; the printer has its own conditions (plain_match_lead).
        plain_search = (
            self.standard is not None
            and not (before or after or args.invert or args.max_count is not None)
            and not self.config.stop_at_first
        )
        self.plain_fused = plain_search and fusable(matcher)
        # (literal, rarest byte's offset) when the fused search needs no line scanner either.
        self.plain_exact = exact_literal(matcher) if self.plain_fused else None
        # (literal, offset, window) when its lines are those with the window around the
        # literal, or confirmed (search/sure_window.py): the same loop, no line scanner.
        self.plain_window = (windowed_literal(matcher)
                             if self.plain_fused and self.plain_exact is None else None)
        self.matched_any = False
        self.searched_any = False
        self.printed_before = False
        # rg flushes every line under --line-buffered, and by default when stdout is a terminal.
        self.line_buffered = args.buffering == "line" or (args.buffering is None
                                                           and _is_terminal(out.stdout))
        self.started = time.perf_counter()

    def config_for(self, binary: str, mmap: bool, stdin: bool) -> SearchConfig:
        """The search's configuration for a file searched in *binary* mode, memory-mapped
        or not, standard input or not (made once per combination)."""
        key = (binary, mmap, stdin)
        config = self._configs.get(key)
        if config is None:
            config = self._configs[key] = replace(self.config, binary=binary, mmap=mmap,
                                                  stdin=stdin)
        return config

    def _mapped(self, explicit: bool, is_stdin: bool) -> bool:
        """Whether rg memory-maps the file it searches (one buffer, not fills)."""
        return self.mmap and (explicit or self.mmap_walked) and not is_stdin

    def binary_mode(self, explicit: bool) -> str:
        if self.args.text:
            return BINARY_NONE
        if explicit or self.args.binary:
            return BINARY_CONVERT
        return BINARY_QUIT

    def evaluate(self, haystack: Haystack, stdin: BinaryIO | None) -> Outcome:
        """Search one file and render what rg prints for it, without writing anything.

        Pure with respect to the run's state (except --json statistics), so forked workers can
        evaluate files and the parent emits the outcomes in walk order. With a tree cache, the
        outcome of a file whose content is unchanged since the same search last met it is
        reused (see TreeCache.outcomes).
        """
        is_stdin = haystack.explicit and haystack.path == b"-"
        shown = b"<stdin>" if is_stdin else haystack.path
        path = self.out.fs(haystack.path)
        table = self.outcomes
        key = None if table is None else self.outcome_key(path, haystack.explicit)
        st = None
        recall = False
        recall_vouch = None
        if table is not None and not is_stdin and not self.outcomes_empty:
            kept, recall_vouch, recall = self.contents.kept(table, key)
            if kept is not None and self.skip_identity is None:
                return _restored(kept)  # the tree watch vouches for it
        # A named file is stat'ed anyway: its size decides whether it is searched in pieces.
        if (recall or self.skip_identity is not None or (table is not None and haystack.explicit)) \
                and not is_stdin:
            try:
                st = os.stat(path)
            except OSError:
                pass  # reading it will report the error in rg's words
            else:
                if self.skip_identity is not None and (st.st_dev, st.st_ino) == self.skip_identity:
                    return _SKIPPED
                if recall:
                    kept = self.contents.recall(table, key, st, recall_vouch)
                    if kept is not None:
                        return _restored(kept)
        if haystack.explicit and not is_stdin and path not in self._read_whole:
            in_pieces = self._evaluate_in_pieces(haystack, path, table, st)
            if in_pieces is not None:
                return in_pieces
        signature = None
        vouch = None  # the tree watch's, for the outcome remembered below
        # A walked file is read a head first when it is large: a binary one may be searched
        # from its head alone, a text one in pieces (never read whole into memory).
        enough = large = None
        if not haystack.explicit and (not self._read_whole or path not in self._read_whole):
            enough, large = self._quits_early, _in_pieces
        checked = None
        tested = False  # whether the lane's absence test ran on the content it handed over
        if self._checked and not haystack.explicit:
            checked = self._checked.pop(path, None)
        try:
            if checked is not None:
                data, signature, vouch, tested = checked
            elif self.contents is not None and not is_stdin:
                data, signature, vouch = self.contents.read_signed(
                    path, st, enough, large, walked=not haystack.explicit)
            elif is_stdin:
                data = stdin.read() if stdin is not None else b""
            elif haystack.explicit:
                data = read_whole(path, enough, large)[0]
            else:
                data = read_walked(path, enough, large)
        except LargeFile as found:
            in_pieces = self._evaluate_in_pieces(haystack, path, table, found.st)
            if in_pieces is not None:
                return in_pieces
            self._read_whole.add(path)
            return self.evaluate(haystack, stdin)  # read whole this time
        except OSError as err:
            return Outcome(errors=(f"{os.fsdecode(shown)}: {os_error_text(err)}",))
        outcome = self._judge(haystack, shown, data, tested)
        if table is not None and not is_stdin:
            # Stamped with the epoch this run began in when the watch's vouch is the one it
            # began with (see TreeCache.remember); the common outcome, nothing printed, is
            # stored as ().
            vouched = vouch is not None and vouch == self.vouch_start
            self.to_remember.extend((key, (
                None if outcome.errors else signature, _stored(outcome),
                len(outcome.chunk) + len(outcome.json), self.vouch_start[0] if vouched else 0,
            )))
        return outcome

    def _judge(self, haystack: Haystack, shown: bytes, data: bytes,
               absence_tested: bool = False) -> Outcome:
        """What rg prints for a file of content *data*, shown as *shown*; *absence_tested*:
        the absence test ran on *data* already (in the lane) and proved nothing."""
        args = self.args
        matcher = self.matcher
        is_stdin = haystack.explicit and haystack.path == b"-"
        if self.absent is not None and not absence_tested and self.absent(data):
            return _SEARCHED_NOTHING
        if self.plain_fused:
            try:
                outcome = self._plain_outcome(shown, data,
                                              not self._mapped(haystack.explicit, is_stdin),
                                              STDIN if is_stdin else STREAMED)
            except (TimeoutError, SearchTimeout):
                return _timed_out(shown)
            if outcome is not None:
                return outcome
        binary = self.binary_mode(haystack.explicit)
        config = self.config_for(binary, self._mapped(haystack.explicit, is_stdin), is_stdin)
        file_started = time.perf_counter()
        try:
            result = search_bytes(data, matcher, config)
        except (TimeoutError, SearchTimeout):
            return _timed_out(shown)
        if self.json is not None:
            elapsed = time.perf_counter() - file_started
            chunk = self.json.print_file(shown, result, elapsed)
            return Outcome(searched=True, matched=self.json.last_matched, json=chunk)
        walked_binary = binary == BINARY_QUIT and (
            result.binary_offset is not None
            or (result.binary_in_printed_lines and result.first_nul_in_lines() is not None)
        )
        if walked_binary and (args.quiet or self.mode != "standard"):
            # rg's summary printer squashes a walked binary file's match count to zero and
            # prints nothing for it. It only saw the NUL if it read on to its fill: -l and -q
            # stop at the first match, but not under -v, and --files-without-match never stops.
            # A zero count is "without match" for the exit status, though nothing is printed.
            return Outcome(searched=True, matched=self.mode == "files_without_match")
        if self.mode == "files_without_match":
            file_matched = not result.has_match
        else:
            file_matched = result.has_match
        if walked_binary and not result.has_match:
            return Outcome(searched=True)  # invisible: no match before its NUL
        if args.quiet:
            return Outcome(searched=True, matched=file_matched)
        starts_with_line = True
        if self.standard is not None:
            if not result.lines and result.binary_offset is None:
                return _SEARCHED_NOTHING  # most files of a tree: nothing to print
            chunk = self.standard.print_file(shown, result)
            # The printer stops at binary data in "convert" mode; if it stopped before any
            # match, rg reports the file as not matching.
            file_matched = file_matched and self.standard.last_matched
            starts_with_line = self.standard.last_starts_with_line
        else:
            chunk = self.summary.print_file(shown, result)
        return Outcome(
            searched=True, matched=file_matched, chunk=chunk, starts_with_line=starts_with_line
        )

    def plain_lead(self, shown: bytes) -> bytes | None:
        """What precedes each printed line of the file shown as *shown* when its lines are
        printed by the fused literal search (search/plain_literal.py); None when they are not."""
        if not self.plain_fused:
            return None
        assert self.standard is not None
        return self.standard.plain_match_lead(shown)

    def _plain_outcome(self, shown: bytes, data: bytes, in_fills: bool,
                       reads: Reads) -> Outcome | None:
        """A file's outcome through the fused literal search, or None when it takes the
        general path (binary data, a BOM, a long line, options the printer adds to).
        *in_fills*: rg reads the file in fills (not memory-mapped), as *reads* hand it over
        (standard input's are not a file's)."""
        lead = self.plain_lead(shown)
        if lead is None or data.find(b"\0") >= 0 or data.startswith(BOMS):
            return None
        assert self.standard is not None
        options = self.standard.options
        if self.plain_exact is not None:
            lines = exact_literal_lines(data, *self.plain_exact, lead, options.line_number,
                                        options.max_columns)
        elif self.plain_window is not None:
            literal, offset, window = self.plain_window
            lines = exact_literal_lines(
                data, literal, offset, lead, options.line_number, options.max_columns, window,
                line_confirmer(data, self.matcher, self.config.timeout, in_fills, reads),
            )
        else:
            lines = plain_lines(
                data, literal_line_spans(data, self.matcher, self.config.timeout,
                                         options.max_columns, in_fills, reads),
                lead, options.line_number, options.max_columns,
            )
        if lines is None:
            return None
        if not lines:
            return _SEARCHED_NOTHING
        return Outcome(searched=True, matched=True, chunk=b"".join(lines))

    def _evaluate_in_pieces(self, haystack: Haystack, path: bytes, table,
                            st: os.stat_result | None) -> Outcome | None:
        """:meth:`evaluate_split` in this process alone (*st*: the file's ``stat``, if taken);
        its outcome is remembered in *table* like any other."""
        if st is not None and not _in_pieces(st):
            return None
        explicit = haystack.explicit
        if table is None:
            return self.evaluate_split(haystack.path, 1, explicit)
        outcome, signature = self.contents.read_elsewhere(
            path, lambda: self.evaluate_split(haystack.path, 1, explicit)
        )
        if outcome is not None:
            self.to_remember.extend((self.outcome_key(path, explicit), (
                signature, _stored(outcome), len(outcome.chunk) + len(outcome.json), 0)))
        return outcome

    def evaluate_split(self, path_arg: bytes, workers: int, explicit: bool = True) -> Outcome | None:
        """The outcome of one large file searched in pieces, its ranges by *workers* processes
        (:mod:`shellfree.rgcli.split_file`), or None when it is read whole and searched as any
        other file (which it then is, without a second try). *explicit*: named on the command
        line, not met in a walk (rg treats binary data and memory maps differently)."""
        from shellfree.rgcli.split_file import search_split

        config = self.config_for(self.binary_mode(explicit), self._mapped(explicit, False), False)
        path = self.out.fs(path_arg)
        found = search_split(
            self, self.matcher, config, path, path_arg, workers, self.skip_identity
        )
        if found is None:
            self._read_whole.add(path)
            return None
        matched, chunk, matched_lines, matches = found
        if self.summary is not None:
            counts = FileResult()
            counts.matched_lines, counts.matches = matched_lines, matches
            chunk = self.summary.print_file(path_arg, counts)
            matched = counts.has_match
        return Outcome(searched=True, matched=matched, chunk=chunk)

    def emit(self, outcome: Outcome) -> bool:
        """Write one file's outcome; returns False when the whole search should stop (-q)."""
        out, args = self.out, self.args
        for text in outcome.errors:
            out.message(text, error=True)
        self.searched_any = self.searched_any or outcome.searched
        if outcome.matched:
            self.matched_any = True
        if outcome.json:
            out.stdout.write(outcome.json)
        if args.quiet and outcome.matched and self.json is None:
            return False
        if outcome.chunk or outcome.starts_with_line:
            if self.printed_before and self.file_separator is not None and outcome.starts_with_line:
                out.stdout.write(self.file_separator + self.file_separator_end)
            elif (self.printed_before and args.heading and self.standard is not None
                  and outcome.starts_with_line):
                # The blank line between files goes before a heading, which only a line brings:
                # a file whose output is only the binary notice gets none (rg 15.1), though the
                # next heading after it does. It ends as the "--" one does (file_separator_end).
                out.stdout.write(self.file_separator_end)
            if outcome.chunk:
                out.stdout.write(outcome.chunk)
                self.printed_before = True
                if self.line_buffered:
                    out.stdout.flush()
        return True

    def lane(self) -> Callable[[bytes], bool] | None:
        """For a new search over a tree cache, the lean way of its commonest file: a walked
        file whose cached content the watch vouches for (or, with no watch, its ``stat``) and
        the absence test proves empty. ``lane(path)`` (a walked file's path) is True when the
        file was that one and is done, its outcome (searched, nothing printed) remembered as
        :meth:`evaluate` would; False sends it to :meth:`evaluate`. None when no file can take
        it. A cached content vouched for that the test did not prove empty (or every one, for
        a search with no absence test) is handed to :meth:`evaluate` (``_checked``), which
        searches it with no second lookup, ``stat`` or absence test.

        Over the large benchmark tree, watched, the 37,000 cached files of 50,000 take it on a
        new search for a rare literal; without it, evaluate's way for them (its checks, the
        general read, _judge, _stored) made the search 466 instead of 425 ms.
        """
        if not self._lane_open():
            return None
        contents = self.contents
        table = self.outcomes
        absent = self.absent
        fs = self.out.fs
        outcome_key = self.outcome_key
        since = self.vouch_start
        to_remember = self.to_remember
        checked = self._checked
        if contents.watching:
            if absent is None:
                return None
            content_of = contents.watched_content
        else:
            content_of = contents.checked_content

        def lane(walked: bytes) -> bool:
            path = fs(walked)
            found = content_of(path)
            if found is None:
                return False
            data, signature, vouch = found
            if absent is None or not absent(data):
                checked[path] = (data, signature, vouch, absent is not None)
                return False
            if table is not None:
                to_remember.extend((outcome_key(path, False), (
                    signature, (), 0, since[0] if vouch == since else 0)))
            return True

        return lane

    def _lane_open(self) -> bool:
        """Whether files can take the lane: a new search (or one whose outcomes are not kept)
        over a tree cache, printing to no file it might search (the watched lane also needs
        an absence test)."""
        return (self.contents is not None and self.skip_identity is None
                and (self.outcomes is None or self.outcomes_empty))

    def lane_run(self, run: ReplayedRun) -> Iterable[int]:
        """:meth:`lane` for all the files of *run* at once (call it only when ``lane()`` is
        not None): the indices of the events of ``run.events`` it leaves to the caller, in
        order (messages, and the files lane would send to :meth:`evaluate`); the others are
        done, their outcomes remembered as lane remembers each. Without a watch the files
        are taken a part at a time, as the caller consumes the indices (``_stat_lane_run``).

        The absence test is what lane makes per file; the walk's per-file events, the path
        each file's key is made from, and the bookkeeping of each use are made for the run as
        a whole (with map and compress, and the keys kept with the run). Over the large
        benchmark tree, watched, a new search for a rare literal took 536 ms with a lane call
        per file and 425 ms so."""
        contents = self.contents
        events = run.events
        base = self.out.cwd
        keys = run.derived.get(base)
        if keys is None:
            # The same key objects for every search of the run: none is made or hashed again,
            # and the outcome tables of several searches share them.
            fs = self.out.fs
            keys = run.derived[base] = contents.own_keys(
                [fs(event) if event.__class__ is bytes else None for event in events])
        if not contents.watching:
            return self._stat_lane_run(run, keys)
        if self._bulk_absent is None:
            return range(len(events))  # each file is tested as it is searched (_bulk_absent)
        cached, at, vouch, token = contents.watched_contents(keys)
        held = list(map(cached.__getitem__, at))
        proven = bytearray(map(self._bulk_absent, map(_DATA_OF, held)))
        done_at = list(compress(at, proven))
        done_keys = list(map(keys.__getitem__, done_at))
        gone = contents.used(done_keys, list(compress(held, proven)), token)
        if gone is not None:  # dropped meanwhile: searched as any other file
            proven_at = list(compress(range(len(held)), proven))
            for i in gone:
                proven[proven_at[i]] = 0
            done_at = list(compress(at, proven))
            done_keys = list(map(keys.__getitem__, done_at))
        if not done_at:
            return list(range(len(events)))
        self.searched_any = True
        if self.outcomes is not None:
            stamp = self.vouch_start[0] if vouch == self.vouch_start else 0
            # The remembered outcome of each held file, made once for the same held files and
            # stamp (a new query over an unchanged tree): 37,000 new tuples per search cost the
            # large tree a collection of the young generation's survivors.
            known = run.derived.get((base, "outcomes"))
            if known is None or known[0] is not at or known[1] != stamp:
                known = (at, stamp, [(c[1] if c[2] else None, (), 0, stamp) for c in held])
                run.derived[(base, "outcomes")] = known
            outcomes = compress(known[2], proven)
            self.to_remember.extend(chain.from_iterable(zip(done_keys, outcomes)))
        left = bytearray(b"\1") * len(events)
        for i in done_at:
            left[i] = 0
        return list(compress(range(len(events)), left))

    def _stat_lane_run(self, run: ReplayedRun, keys: list) -> Iterator[int]:
        """:meth:`lane_run` for a tree cache without a watch (see :meth:`_stat_lane`), made
        _STAT_LANE_PART files at a time as the caller takes the indices: a file is ``stat``-ed
        at most that many files before it is searched (a change made meanwhile is seen as a
        search that met the file then would see it), a search that stops early (``-q``, the
        output cap) has not ``stat``-ed the rest of the run, and what the lane hands to
        evaluate is at most a part's contents."""
        events = run.events
        for start in range(0, len(events), _STAT_LANE_PART):
            stop = min(start + _STAT_LANE_PART, len(events))
            left = bytearray(b"\1") * (stop - start)
            for i in self._stat_lane(keys[start:stop]):
                left[i] = 0
            yield from compress(range(start, stop), left)

    def stat_lane_batch(self, walked: list) -> bytearray | None:
        """For a pool helper's batch of files (walked paths, and 1-tuples for named ones), when
        the lane is the ``stat`` one (a new search, a cache without a watch): 1 for each file
        it settled, as ``lane(path)`` would have one by one; None otherwise."""
        if not self._lane_open() or self.contents.watching:
            return None
        fs = self.out.fs
        keys = [None if path.__class__ is tuple else fs(path) for path in walked]
        settled = bytearray(len(walked))
        for i in self._stat_lane(keys):
            settled[i] = 1
        return settled

    def _stat_lane(self, keys: list) -> list[int]:
        """The ``stat`` lane for the files of *keys* (None for no walked file) at once: each
        cached file's ``stat`` vouches for its content (TreeCache.checked_contents); the
        indices of those the absence test proves empty come back, done and their outcomes
        remembered; the others that were vouched for are handed to :meth:`evaluate` through
        ``_checked`` (all of them, untested, when ``_bulk_absent`` is None). It saves
        read_signed's per-file steps: a new search of the benchmark's 5,000-file tree for a
        rare literal took 59–110 ms through them, 53–69 ms so (README, *The same lane without
        the watch*)."""
        contents = self.contents
        cached, at, token = contents.checked_contents(keys)
        held = list(map(cached.__getitem__, at))
        held_keys = list(map(keys.__getitem__, at))
        gone = contents.used(held_keys, held, token)
        if gone is not None:  # dropped or replaced meanwhile: read again by evaluate
            for i in reversed(gone):
                del at[i], held[i], held_keys[i]
        absent = self._bulk_absent
        if absent is None:  # none, or one each file's search must follow (_bulk_absent)
            self._checked.update(
                (key, (content[0], content[1], None, False))
                for key, content in zip(held_keys, held))
            return []
        proven = bytearray(map(absent, map(_DATA_OF, held)))
        self._checked.update(
            (key, (content[0], content[1], None, True))
            for key, content, empty in zip(held_keys, held, proven) if not empty)
        done_at = list(compress(at, proven))
        if done_at:
            self.searched_any = True
            if self.outcomes is not None:
                self.to_remember.extend(chain.from_iterable(
                    (key, (content[1], (), 0, 0))
                    for key, content in zip(compress(held_keys, proven), compress(held, proven))))
        return done_at

    def remember_outcomes(self) -> None:
        """Store in the cache the outcomes this run computed (see ``outcomes``)."""
        if self.to_remember and self.outcomes is not None and self.contents is not None:
            self.contents.remember(self.outcomes, self.to_remember, self.vouch_start)
        self.to_remember = []

    def finish(self, implicit_root: bool) -> int:
        out, args = self.out, self.args
        if self.json is not None:
            out.stdout.write(self.json.summary(time.perf_counter() - self.started))
        if not self.searched_any and implicit_root:
            out.message(NOTHING_SEARCHED, error=True)
        if out.errored and not (args.quiet and self.matched_any):
            return 2
        return 0 if self.matched_any else 1


def run_search(args: RgArgs, out: "Invocation", stdin: BinaryIO | None) -> int:
    """Run a search; *out* carries the streams, the error flag and the working directory."""
    opened = open_search(args, out, stdin)
    if isinstance(opened, int):
        return opened
    command, walker, paths, use_stdin = opened
    try:
        return _search_roots(command, args, out, paths, use_stdin, walker, stdin)
    finally:
        # Also when the caller stops the search (search_files' output cap raises into it):
        # each outcome is a whole file's.
        command.remember_outcomes()


def open_search(
    args: RgArgs, out: "Invocation", stdin: BinaryIO | None
) -> "tuple[_Search, Walker, list[bytes], bool] | int":
    """Everything a search decides before its first file: (the command, its walker, the
    paths, whether it reads stdin), or the exit status of a search that ends before one (a bad
    pattern or glob, ``-m 0``). A pool helper (pool_helper.py) opens the same search as its
    parent from the same arguments."""
    from shellfree.search.errors import PatternError

    try:
        patterns, paths = _patterns(args, stdin, out.fs)
    except _Fatal as err:
        return out.fatal(str(err))
    # -f - takes standard input for patterns: rg then never searches it, and with no path
    # searches the working directory.
    patterns_from_stdin = (True, b"-") in args.pattern_sources
    if patterns_from_stdin and b"-" in paths:
        return out.fatal(
            "error: attempted to read patterns from stdin while also searching stdin")
    use_stdin = not paths and not patterns_from_stdin and _stdin_is_readable(stdin)
    options = walk_options(args, paths or ([b"-"] if use_stdin else []), out)
    try:
        walker = Walker(options, cwd=out.cwd, cache=out.cache)
    except GlobError as err:
        return out.fatal(str(err))
    if args.max_count == 0 or (not patterns and not args.invert):
        # rg: no match is possible (-m 0, or no pattern at all, as -f of an empty file
        # gives, unless -v): it searches nothing, prints nothing, and never builds the regex.
        return 1
    if not patterns and args.case != "sensitive":
        # rg 15.1: with no pattern (an empty -f file) under -v, a case-insensitive matcher,
        # -i or -S, is built as the empty pattern and matches every line (-x: every empty
        # line); a case-sensitive one matches none.
        patterns = [""]
    sorted_files = None
    if not walk_order_is_sorted(args):
        # rg's sort collects the walk's files, printing its messages, before it builds the
        # regex: a bad pattern is reported after them.
        roots = paths if paths else ([b"-"] if use_stdin else None)
        sorted_files = list(in_sort_order(walker.walk(roots), args, out))
    # rg builds the -g globs before the regex, so a bad glob is reported first.
    try:
        matcher = _compile(args, patterns)
    except PatternError as err:
        return out.fatal(str(err))
    command = _Search(args, out, paths, use_stdin, matcher, options)
    command.sorted_files = sorted_files
    if command.contents is not None and command.json is None:
        from shellfree.search.tree_cache import outcome_key  # loaded with the cache

        command.outcome_key = outcome_key
        # Everything besides a file's content that decides what this search prints for it.
        search_key = (out.cwd, repr(args), tuple(patterns), command.skip_identity)
        command.outcomes = command.contents.outcomes(search_key)
        command.outcomes_empty = not command.outcomes
        command.vouch_start = command.contents.vouch_now()
    return command, walker, paths, use_stdin


def _search_roots(command: "_Search", args: RgArgs, out: "Invocation", paths: list[bytes],
                  use_stdin: bool, walker: Walker, stdin: BinaryIO | None) -> int:
    """Search every file of the walk (in forked workers where allowed), print what rg
    prints, and return the exit status."""
    roots = paths if paths else ([b"-"] if use_stdin else None)
    if roots == [b"-"] and stdin is not None:
        from shellfree.rgcli.stdin_stream import search_stdin_stream, streamable

        if streamable(command, args):
            # As rg: printed as it is read, never held whole (`tail -f log | rg ERROR`).
            stdin = search_stdin_stream(command, stdin)
            if stdin is None:
                return command.finish(implicit_root=not paths)
    pool = getattr(out.cache, "pool", None)
    if pool is not None and _poolable(command, args, paths, use_stdin):
        lane = command.lane()
        evaluate_batch = None
        if lane is None:
            def evaluate(haystack: Haystack) -> tuple:
                return _stored(command.evaluate(haystack, None))
        else:
            def evaluate(haystack: Haystack) -> tuple:
                if not haystack.explicit and lane(haystack.path):
                    return ()
                return _stored(command.evaluate(haystack, None))

            if not command.contents.watching:
                # Without a watch the lane takes the owner's files a batch at a time, as a
                # helper's (stat_lane_batch, which then never declines: the lane is open, and a
                # watch does not start during a search); a watched file needs no stat.
                def evaluate_batch(haystacks: list[Haystack]) -> list[tuple]:
                    settled = command.stat_lane_batch(
                        [(h.path,) if h.explicit else h.path for h in haystacks])
                    return [() if done else _stored(command.evaluate(haystack, None))
                            for haystack, done in zip(haystacks, settled)]
        results = pool.search(out.argv, out.cwd, walker, roots, evaluate, evaluate_batch)
        if results is not None:
            try:
                for result in results:
                    if result.__class__ is not tuple:
                        out.message(result.text, error=result.is_error)
                    elif result:
                        command.emit(_restored(result))
                    else:  # the common outcome (see _stored): searched, nothing printed
                        command.searched_any = True
            finally:
                results.close()  # stopped early (the output cap): the helpers give up too
            return command.finish(implicit_root=not paths)
    workers = worker_count(args, paths, use_stdin, out)
    if workers > 1:
        from shellfree.rgcli.parallel import walk_in_workers

        out.stdout.flush()  # nothing buffered may be duplicated into the workers
        results = walk_in_workers(
            walker, roots, workers, lambda h: _stored(command.evaluate(h, None))
        )
        if results is not None:
            for result in results:
                if result.__class__ is not tuple:
                    out.message(result.text, error=result.is_error)
                elif result:
                    command.emit(_restored(result))
                else:  # the common outcome (see _stored): searched, nothing printed
                    command.searched_any = True
            return command.finish(implicit_root=not paths and not use_stdin)
    if len(paths) == 1 and paths[0] != b"-" and not use_stdin:
        split_workers = file_split_workers(args, out)
        if split_workers > 1:
            out.stdout.flush()  # nothing buffered may be duplicated into the workers
            outcome = command.evaluate_split(paths[0], split_workers)
            if outcome is not None:
                command.emit(outcome)
                return command.finish(implicit_root=False)
    lane = command.lane()
    if command.sorted_files is not None:
        events = command.sorted_files
    else:
        events = walker.walk(roots, runs=lane is not None)
    if lane is not None:
        events = _past_lane(events, command, lane)
    for event in events:
        if isinstance(event, WalkMessage):
            out.message(event.text, error=event.is_error)
            continue
        outcome = command.evaluate(event, stdin)
        if outcome is _SEARCHED_NOTHING:  # the common outcome: nothing to write
            command.searched_any = True
        elif not command.emit(outcome):
            break
    return command.finish(implicit_root=not paths and not use_stdin)


def _past_lane(events: Iterable, command: "_Search", lane: Callable[[bytes], bool]) -> Iterator:
    """*events* (the walk's, with replayed runs, or the sorted files) without the walked files
    that *lane*, ``command.lane()``, or :meth:`_Search.lane_run` settles."""
    for event in events:
        if event.__class__ is ReplayedRun:
            run = event.events
            for i in command.lane_run(event):
                found = run[i]
                yield Haystack(found, False) if found.__class__ is bytes else found
        elif event.__class__ is Haystack and not event.explicit and lane(event.path):
            command.searched_any = True
        else:
            yield event


_DATA_OF = itemgetter(0)
# Files of a replayed walk the stat lane takes at once (_Search._stat_lane_run).
_STAT_LANE_PART = 256


def _poolable(command: "_Search", args: RgArgs, paths: list[bytes], use_stdin: bool) -> bool:
    """Whether a tree cache's helper processes may share this search (rgcli/pool.py): a walk
    (not stdin or one file), whose outcomes are each a file's alone (not --json's statistics)
    and that goes to the end (not -q), printing to no file it might search (skip_identity),
    in the walk's order (not a sort that collects the files first)."""
    return (
        walk_order_is_sorted(args)
        and not use_stdin
        and not is_one_file(paths, command.out)
        and command.json is None
        and not args.quiet
        and command.skip_identity is None
        and command.out.argv is not None
    )


_SEARCHED_NOTHING = Outcome(searched=True)


def _timed_out(shown: bytes) -> Outcome:
    return Outcome(
        searched=True,
        errors=(
            f"{os.fsdecode(shown)}: regex search took longer than "
            f"{REGEX_TIMEOUT_SECONDS:g}s; the pattern backtracks catastrophically",
        ),
    )


def _stored(outcome: Outcome) -> tuple:
    """*outcome* as plain values, the form in which a forked worker sends it back
    (parallel.py) and the tree cache keeps it: Python's cyclic garbage collector stops
    tracking such a tuple after one look (an Outcome stays tracked: four remembered searches
    of the large benchmark tree kept 200,000 tracked entries, and every full collection in the
    host visited them). ``()`` for the most common one, a file searched with nothing printed
    (identity first: evaluate returns the shared instance for most of them, and comparing
    fields costs a tuple per file); else its fields, in the order ``Outcome`` takes them."""
    if outcome is _SEARCHED_NOTHING or outcome == _SEARCHED_NOTHING:
        return ()
    return (outcome.searched, outcome.matched, outcome.chunk, outcome.starts_with_line,
            outcome.json, outcome.errors)


def _restored(stored: tuple) -> Outcome:
    """The outcome :func:`_stored` made *stored* from."""
    return Outcome(*stored) if stored else _SEARCHED_NOTHING
