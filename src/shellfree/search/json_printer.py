"""rg's ``--json`` output: JSON Lines with begin/match/context/end messages and a summary.

The message shapes, field order and statistics are rg 15.1's (rg-semantics §4.4). Text that
is not valid UTF-8 is sent as ``{"bytes": BASE64}``. Timings are real, as in rg; parity
comparisons drop ``elapsed`` and ``elapsed_total``.
"""

from __future__ import annotations

import base64
import json

from shellfree._record import Record
from shellfree.search.searcher import FileResult

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see shellfree/__init__.py)
if TYPE_CHECKING:
    from shellfree.search.replace import Replacement

__all__ = ["JsonStats", "JsonPrinter"]


def _data(raw: bytes) -> dict:
    try:
        return {"text": raw.decode("utf-8")}
    except UnicodeDecodeError:
        return {"bytes": base64.b64encode(raw).decode("ascii")}


def _dumps(value: object) -> bytes:
    # serde_json's compact form: no spaces, non-ASCII kept, control characters escaped.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _elapsed(seconds: float, sorted_keys: bool = False) -> dict:
    nanos_total = int(seconds * 1e9)
    secs, nanos = divmod(nanos_total, 1_000_000_000)
    human = f"{seconds:.6f}s"
    if sorted_keys:
        return {"human": human, "nanos": nanos, "secs": secs}
    return {"secs": secs, "nanos": nanos, "human": human}


class JsonStats(Record, mutable=True):
    """Totals over all files, for the summary message."""

    elapsed: float = 0.0
    searches: int = 0
    searches_with_match: int = 0
    bytes_searched: int = 0
    bytes_printed: int = 0
    matched_lines: int = 0
    matches: int = 0


class JsonPrinter:
    """Writes one file's messages; ``summary`` writes the final line.

    *quiet* (rg ``--json -q``): no per-file messages, only the statistics for the summary,
    which then come from rg's searcher rather than its printer: nothing counts as printed,
    under *invert* every selected line counts as a match, and a matching line whose matches
    cannot be re-found in the buffer (``\\A`` past its start) counts one, as
    ``--count-matches`` counts it: ``rg --json -q '\\Ax'`` over "xa\\nxb\\n" counts 2 matches,
    ``rg --json`` 1 (measured).
    """

    def __init__(self, line_number: bool = True, quiet: bool = False, invert: bool = False,
                 replace: "Replacement | None" = None, crlf: bool = False,
                 multiline: bool = False) -> None:
        self.line_number = line_number
        self.quiet = quiet
        self.invert = invert
        # -r: each submatch also gives its replacement (the lines stay as they are).
        self.replace = replace
        self.crlf = crlf
        self.multiline = multiline
        self.stats = JsonStats()
        self.last_matched = False  # whether the last file printed counts as matching

    def print_file(self, path: bytes, result: FileResult, elapsed: float) -> bytes:
        stats = self.stats
        lines = result.lines
        binary_offset = result.binary_offset
        bytes_searched = result.bytes_searched
        has_match = result.has_match
        if result.binary_in_printed_lines:
            # rg notices a NUL past the pre-scanned 64 KiB in a line it hands to the printer.
            # In "convert" mode the JSON printer prints on (the standard one stops there);
            # in "quit" mode the search ends before that line. The statistics count the bytes
            # up to the NUL.
            found = result.first_nul_in_lines()
            if found is not None:
                index, binary_offset = found
                bytes_searched = min(bytes_searched, binary_offset)
                if result.binary_quit:
                    lines = lines[:index]
                    has_match = any(line is not None and line.kind == "match" for line in lines)
        stats.searches += 1
        stats.bytes_searched += bytes_searched
        stats.elapsed += elapsed
        # Whether the file counts as matching (the exit status): not when the match was the
        # line a quit-mode search stopped at.
        self.last_matched = has_match
        # A file with lines but no match: rg's multi-line searcher printing the before-context
        # of an empty match after the final newline (begin, context, end). No lines at all:
        # nothing, also when a quit-mode search stopped at its first line to print.
        if not lines:
            return b""
        stats.searches_with_match += has_match
        if self.quiet:
            for line in lines:
                if line is not None and line.kind == "match":
                    counted = _line_count(line.text)
                    stats.matched_lines += counted
                    stats.matches += counted if self.invert else (len(line.spans) or 1)
            return b""
        path_data = _data(path)
        out = [_dumps({"type": "begin", "data": {"path": path_data}}) + b"\n"]
        matched_lines = 0
        matches = 0
        for line in lines:
            if line is None:
                continue
            if self.replace is not None and line.spans:
                whole = self.multiline and line.kind == "match"
                submatches = [
                    {"match": _data(line.text[s:e]), "replacement": _data(piece),
                     "start": s, "end": e}
                    for (s, e), piece in zip(line.spans,
                                             self.replace.pieces(line, self.crlf, whole))
                ]
            else:
                submatches = [
                    {"match": _data(line.text[s:e]), "start": s, "end": e}
                    for s, e in line.spans
                ]
            if line.kind == "match":
                matched_lines += _line_count(line.text)
                matches += len(submatches)
            message = {
                "type": line.kind,
                "data": {
                    "path": path_data,
                    "lines": _data(line.text),
                    "line_number": line.number if self.line_number else None,
                    "absolute_offset": line.offset,
                    "submatches": submatches,
                },
            }
            out.append(_dumps(message) + b"\n")
        printed = sum(len(chunk) for chunk in out)
        stats.bytes_printed += printed
        stats.matched_lines += matched_lines
        stats.matches += matches
        end = {
            "type": "end",
            "data": {
                "path": path_data,
                "binary_offset": binary_offset,
                "stats": {
                    "elapsed": _elapsed(elapsed),
                    "searches": 1,
                    "searches_with_match": int(has_match),
                    "bytes_searched": bytes_searched,
                    "bytes_printed": printed,
                    "matched_lines": matched_lines,
                    "matches": matches,
                },
            },
        }
        out.append(_dumps(end) + b"\n")
        return b"".join(out)

    def summary(self, elapsed_total: float) -> bytes:
        s = self.stats
        message = {
            "data": {
                "elapsed_total": _elapsed(elapsed_total, sorted_keys=True),
                "stats": {
                    "bytes_printed": s.bytes_printed,
                    "bytes_searched": s.bytes_searched,
                    "elapsed": _elapsed(s.elapsed, sorted_keys=True),
                    "matched_lines": s.matched_lines,
                    "matches": s.matches,
                    "searches": s.searches,
                    "searches_with_match": s.searches_with_match,
                },
            },
            "type": "summary",
        }
        return _dumps(message) + b"\n"


def _line_count(text: bytes) -> int:
    # A multi-line block counts each of its lines.
    return text.count(b"\n") + (not text.endswith(b"\n"))
