"""The commonest search, fused: exact literals, lines printed as they are.

An agent's search is most often a literal (or an alternation of literals) with line numbers
and nothing else. For it, every occurrence of a literal is a match, and each matching line is
printed as "lead, line number, line" — so the searcher's line records and the printer's
per-line decisions can be skipped: one pass finds each occurrence, takes its line and formats
it. A pattern with a required literal inside (``\\w+Error``) takes the same pass, with the
regex confirming each line that holds the literal. Measured on a 50,000-file tree printing
193,000 lines, the general path costs about three times as much per printed line.

The caller decides when this applies (:meth:`StandardPrinter.plain_match_lead` for the
printing side; no context, -m, -v, binary data or byte-order mark on the search side). A
line longer than --max-columns needs the printer's stand-in text, so such a file is left to
the general path.
"""

from __future__ import annotations

from typing import Callable

__all__ = ["plain_literal_lines"]


def plain_literal_lines(
    data: bytes,
    literals: tuple[bytes, ...],
    lead: bytes,
    numbered: bool,
    max_columns: int | None = None,
    first_line: int = 1,
    confirm: "Callable[[int, int, bool], bool] | None" = None,
) -> list[bytes] | None:
    """The printed lines of *data* that hold one of *literals* (non-empty), each as
    ``lead [N:] line`` ending in "\\n" (*data*'s first line is number *first_line*); None
    when a line to print is longer than *max_columns*.

    Without *confirm*, every line holding a literal matches (an exact-literal pattern). With
    it, a line holding one is printed when ``confirm(start, end, look_back)`` says the regex
    matches it (a pattern with a required literal inside, ``\\w+Error``); *look_back* is False
    for a line right after a matching one, which rg matches as the start of a haystack
    (searcher._Lines.line_matches).
    """
    out: list[bytes] = []
    append = out.append
    find, rfind, count = data.find, data.rfind, data.count
    end = len(data)
    limit = max_columns or end + 1  # a line's length with its terminator, as the printer counts
    line_no, counted = first_line, 0
    after_match = -1  # where the line after the last matching line starts
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
        line_end = end if stop < 0 else stop
        pos = end if stop < 0 else stop + 1
        if confirm is None or confirm(start, line_end, start != after_match):
            after_match = line_end + 1
            text = data[start:pos]
            if len(text) > limit:  # an unterminated last line is measured as it is, too
                return None
            if stop < 0:
                text += b"\n"
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
