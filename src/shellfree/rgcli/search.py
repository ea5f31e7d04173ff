"""``shellfree rg PATTERN [PATH…]``: content search, printed as rg prints it when piped."""

from __future__ import annotations

import os
import stat
import sys
import time
from typing import BinaryIO

from shellfree.rgcli.flags import RgArgs
from shellfree.rgcli.run import Invocation, is_one_file, walk_options
from shellfree.search.errors import GlobError, os_error_text
from shellfree.search.json_printer import JsonPrinter
from shellfree.search.printer import PrintOptions, StandardPrinter, SummaryPrinter
from shellfree.search.searcher import (
    BINARY_CONVERT,
    BINARY_NONE,
    BINARY_QUIT,
    SearchConfig,
    SearchTimeout,
    search_bytes,
)
from shellfree.search.walk import Haystack, WalkMessage, Walker

__all__ = ["run_search", "NOTHING_SEARCHED"]

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
    lines = data.split(b"\n")
    if data.endswith(b"\n"):
        lines.pop()
    out = []
    for i, line in enumerate(lines):
        # rg strips "\r" before "\n", but keeps a lone "\r" at the very end of the file.
        if line.endswith(b"\r") and (i < len(lines) - 1 or data.endswith(b"\n")):
            line = line[:-1]
        out.append(os.fsdecode(line))
    return out


def _patterns(args: RgArgs, stdin: BinaryIO | None, fs) -> tuple[list[str], list[bytes]]:
    """The patterns and the paths, following rg's positional rules."""
    paths = list(args.positional)
    patterns = list(args.patterns)
    for path in args.pattern_files:
        patterns.extend(_read_pattern_file(path, stdin, fs))
    if not args.patterns and not args.pattern_files:
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


def _read(path: bytes, is_stdin: bool, stdin: BinaryIO | None) -> bytes:
    if is_stdin:
        return stdin.read() if stdin is not None else b""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _mode(args: RgArgs) -> str:
    mode = args.mode
    if mode == "count" and args.only_matching and not args.invert:
        return "count_matches"  # rg: -o -c counts matches
    if mode == "count_matches" and args.invert:
        return "count"  # rg: -v --count-matches counts lines
    return mode


def run_search(args: RgArgs, out: "Invocation", stdin: BinaryIO | None) -> int:
    """Run a search; *out* carries the streams, the error flag and the working directory."""
    from shellfree.search.pattern import PatternOptions, compile_patterns
    from shellfree.search.errors import PatternError

    try:
        patterns, paths = _patterns(args, stdin, out.fs)
    except _Fatal as err:
        out.message(str(err), error=True)
        return 2
    except OSError as err:
        out.message(f"{os.fsdecode(args.pattern_files[0])}: {os_error_text(err)}", error=True)
        return 2
    use_stdin = not paths and _stdin_is_readable(stdin)
    opts = walk_options(args, paths or ([b"-"] if use_stdin else []), out)
    try:
        walker = Walker(opts, cwd=out.cwd)
    except GlobError as err:
        out.message(str(err), error=True)
        return 2
    # rg builds the -g globs before the regex, so a bad glob is reported first.
    try:
        matcher = compile_patterns(
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
    except PatternError as err:
        out.message(str(err), error=True)
        return 2

    mode = _mode(args)
    one_file = is_one_file(paths, out) or use_stdin
    with_filename = args.with_filename if args.with_filename is not None else not one_file
    context = mode in ("standard", "json")
    before = args.before_context if args.before_context is not None else (args.context or 0)
    after = args.after_context if args.after_context is not None else (args.context or 0)
    if not context:
        before = after = 0
    print_options = PrintOptions(
        with_filename=with_filename,
        heading=bool(args.heading),
        line_number=args.line_number if args.line_number is not None else args.column,
        column=args.column,
        byte_offset=args.byte_offset,
        only_matching=args.only_matching,
        max_columns=args.max_columns,
        max_columns_preview=args.max_columns_preview,
        null=args.null,
        context=bool(before or after),
        context_separator=args.context_separator,
        path_separator=args.path_separator,
        include_zero=args.include_zero,
        crlf=args.crlf,
    )
    json_printer = None
    if mode == "standard":
        printer = StandardPrinter(print_options)
    elif mode == "json":
        # rg turns line numbers on for JSON unless -N was given.
        json_printer = JsonPrinter(line_number=args.line_number is not False)
    else:
        printer = SummaryPrinter(mode, print_options)
    started = time.perf_counter()

    # rg memory-maps explicit files when every path argument is a file and there are at most
    # ten of them; a mapped file keeps its NUL bytes and only its first 64 KiB are pre-scanned.
    auto_mmap = bool(paths) and len(paths) <= 10 and all(
        p != b"-" and os.path.isfile(out.fs(p)) for p in paths
    ) and sys.platform != "darwin"
    mmap = auto_mmap if args.mmap is None else (args.mmap and bool(paths))

    quit_early = args.quiet or mode in ("files_with_matches",)
    stop_at_first = quit_early and not args.invert
    base_config = dict(
        invert=args.invert,
        max_count=args.max_count,
        before_context=before,
        after_context=after,
        submatches=args.only_matching or args.column or mode in ("count_matches", "json"),
        stop_at_first=stop_at_first,
        timeout=REGEX_TIMEOUT_SECONDS,
    )
    matched_any = False
    searched_any = False
    printed_before = False
    file_separator = args.context_separator if (before or after) and not args.heading else None
    if args.max_count == 0:
        return 1

    roots = paths if paths else ([b"-"] if use_stdin else None)
    for event in walker.walk(roots):
        if isinstance(event, WalkMessage):
            out.message(event.text, error=event.is_error)
            continue
        haystack: Haystack = event
        is_stdin = haystack.explicit and haystack.path == b"-"
        shown = b"<stdin>" if is_stdin else haystack.path
        try:
            data = _read(out.fs(haystack.path), is_stdin, stdin)
        except OSError as err:
            out.message(f"{os.fsdecode(shown)}: {os_error_text(err)}", error=True)
            continue
        searched_any = True
        if args.text:
            binary = BINARY_NONE
        elif haystack.explicit or args.binary:
            binary = BINARY_CONVERT
        else:
            binary = BINARY_QUIT
        config = SearchConfig(
            binary=binary,
            mmap=mmap and haystack.explicit and not is_stdin,
            crlf=args.crlf,
            **base_config,
        )
        file_started = time.perf_counter()
        try:
            result = search_bytes(data, matcher, config)
        except (TimeoutError, SearchTimeout):
            out.message(
                f"{os.fsdecode(shown)}: regex search took longer than "
                f"{REGEX_TIMEOUT_SECONDS:g}s; the pattern backtracks catastrophically",
                error=True,
            )
            continue
        walked_binary = binary == BINARY_QUIT and result.binary_offset is not None
        if json_printer is not None:
            matched_any = matched_any or result.has_match
            if not args.quiet:
                elapsed = time.perf_counter() - file_started
                out.stdout.write(json_printer.print_file(shown, result, elapsed))
            continue
        if mode == "files_without_match":
            file_matched = not result.has_match
            if walked_binary and file_matched:
                # rg quirk: not printed, yet it counts as "without match" for the exit status.
                matched_any = True
                continue
        elif walked_binary and mode in ("count", "count_matches"):
            continue  # rg squashes the count of a walked binary file to nothing
        else:
            file_matched = result.has_match
        if walked_binary and not result.has_match:
            continue  # a walked binary file with no match before its NUL is invisible
        if args.quiet:
            if file_matched:
                matched_any = True
                break
            continue
        chunk = printer.print_file(shown, result)
        if mode == "standard" and file_matched and not printer.last_matched:
            # The standard printer stopped at binary data before any match (rg then reports
            # the file as not matching).
            file_matched = False
        if file_matched:
            matched_any = True
        if chunk:
            if printed_before and file_separator is not None:
                out.stdout.write(file_separator + b"\n")
            elif printed_before and args.heading and mode == "standard":
                out.stdout.write(b"\n")
            out.stdout.write(chunk)
            printed_before = True
    if json_printer is not None and not args.quiet:
        out.stdout.write(json_printer.summary(time.perf_counter() - started))
    if not searched_any and not paths and not use_stdin:
        out.message(NOTHING_SEARCHED, error=True)
    if out.errored and not (args.quiet and matched_any):
        return 2
    return 0 if matched_any else 1
