"""The commonest search, fused: exact literals, lines printed as they are.

An agent's search is most often a literal (or an alternation of literals) with line numbers
and nothing else. For it, every occurrence of a literal is a match, and each matching line is
printed as "lead, line number, line" — so the searcher's line records and the printer's
per-line decisions can be skipped: one pass finds each occurrence, takes its line and formats
it. Measured on a 50,000-file tree printing 193,000 lines, the general path costs about three
times as much per printed line.

The caller decides when this applies (:meth:`StandardPrinter.plain_match_lead` for the
printing side; no context, -m, -v, binary data or byte-order mark on the search side). A
line longer than --max-columns needs the printer's stand-in text, so such a file is left to
the general path.
"""

from __future__ import annotations

__all__ = ["plain_literal_lines"]


def plain_literal_lines(
    data: bytes,
    literals: tuple[bytes, ...],
    lead: bytes,
    numbered: bool,
    max_columns: int | None = None,
    first_line: int = 1,
) -> list[bytes] | None:
    """The printed lines of *data* that hold one of *literals* (non-empty), each as
    ``lead [N:] line`` ending in "\\n" (*data*'s first line is number *first_line*); None
    when a line is longer than *max_columns*."""
    out: list[bytes] = []
    append = out.append
    find, rfind, count = data.find, data.rfind, data.count
    end = len(data)
    limit = max_columns or end + 1  # a line's length with its terminator, as the printer counts
    line_no, counted = first_line, 0
    single = len(literals) == 1
    literal = literals[0]
    # Each literal's next occurrence is remembered until the scan passes it (see
    # searcher._Lines._by_literals): every literal is scanned once over the file.
    nexts = None if single else [find(lit) for lit in literals]
    pos = 0
    while pos < end:
        if single:
            hit = find(literal, pos)
        else:
            hit = min((n for n in nexts if n >= 0), default=-1)  # type: ignore[union-attr]
        if hit < 0:
            break
        start = rfind(b"\n", 0, hit) + 1
        stop = find(b"\n", hit)
        if stop < 0:
            text, pos = data[start:], end
            if len(text) > limit:  # the printer measures an unterminated line as it is
                return None
            text += b"\n"
        else:
            pos = stop + 1
            text = data[start:pos]
            if len(text) > limit:
                return None
        if numbered:
            line_no += count(b"\n", counted, start)
            counted = start
            append(b"%s%d:%s" % (lead, line_no, text))
        else:
            append(lead + text)
        if not single:
            for i, n in enumerate(nexts):  # type: ignore[arg-type]
                if 0 <= n < pos:
                    nexts[i] = find(literals[i], pos)  # type: ignore[index]
    return out
