"""The commonest search, fused: matching lines printed as they are, with no line records.

An agent's search is most often a literal (or an alternation of literals) with line numbers
and nothing else. Its matching lines come from the pattern's required literals
(:func:`shellfree.search.searcher.literal_line_spans`, the searcher's own candidate scan, with
the regex confirming each candidate unless the pattern is nothing but literals), and each is
printed as "lead, line number, line" — so the searcher's line records and the printer's
per-line decisions can be skipped. Measured on a 50,000-file tree printing 193,000 lines, the
general path costs about three times as much per printed line.

The caller decides when this applies (:meth:`StandardPrinter.plain_match_lead` for the
printing side; no context, -m, -v, binary data or byte-order mark on the search side). A
line longer than --max-columns needs the printer's stand-in text, so such a file is left to
the general path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from shellfree.search.literal_find import LiteralFinder, jumps_pay

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see shellfree/__init__.py)
if TYPE_CHECKING:
    from shellfree.search.sure_window import SureWindow

__all__ = ["exact_literal_lines", "line_texts", "plain_lines", "print_line_texts"]


def plain_lines(
    data: bytes,
    spans: Iterable[tuple[int, int]],
    lead: bytes,
    numbered: bool,
    max_columns: int | None = None,
) -> list[bytes] | None:
    """The lines ``data[start:end]`` of *spans* (in order, *end* before the terminator), each
    printed as ``lead [N:] line`` ending in "\\n"; None when a line is longer than
    *max_columns*."""
    out: list[bytes] = []
    append = out.append
    count = data.count
    size = len(data)
    limit = max_columns or size + 1  # a line's length with its terminator, as the printer counts
    line_no, counted = 1, 0
    for start, end in spans:
        stop = end + 1 if end < size else end
        text = data[start:stop]
        if len(text) > limit:  # an unterminated last line is measured as it is, too
            return None
        if stop == end:
            text += b"\n"
        if numbered:
            line_no += count(b"\n", counted, start)
            counted = start
            append(b"%s%d:%s" % (lead, line_no, text))
        else:
            append(lead + text)
    return out


def exact_literal_lines(
    data: bytes,
    literal: bytes,
    offset: int,
    lead: bytes,
    numbered: bool,
    max_columns: int | None = None,
    window: SureWindow | None = None,
    confirm: Callable[[int, int], bool] | None = None,
) -> list[bytes] | None:
    """:func:`plain_lines` of the lines of *data* that hold *literal* (non-empty), for a pattern
    every occurrence of which is a match (searcher.exact_literal); *offset*: its rarest byte's.
    With a *window* (searcher.windowed_literal), an occurrence is a match when the window holds
    around it, within its line; a line where it does not at the first occurrence is kept when
    ``confirm(start, end)`` says so (the line ``data[start:end]``, without its terminator).

    One loop from the search to the printed line: the commonest search of all (``-n return``
    prints 193,000 lines over the large benchmark tree) pays a generator turn and the line
    scanner's checks per line otherwise, about a quarter of the per-line cost."""
    if window is not None:
        sure, ahead, width = window.regex.fullmatch, window.before, window.width
    out: list[bytes] = []
    append = out.append
    size = len(data)
    if jumps_pay(literal, offset):
        finder = LiteralFinder(literal, offset).find

        def find(_literal: bytes, pos: int) -> int:
            return finder(data, pos, size)
    else:
        find = data.find
    rfind = data.rfind
    count = data.count
    limit = max_columns or size + 1
    pos, line_no, counted = 0, 1, 0
    while True:
        hit = find(literal, pos)
        if hit < 0:
            return out
        start = rfind(b"\n", 0, hit) + 1
        pos = data.find(b"\n", hit) + 1
        if pos:
            text = data[start:pos]
            if len(text) > limit:
                return None
            end = pos - 1
        else:  # the last line, unterminated: measured as it is (see plain_lines)
            pos = end = size
            text = data[start:]
            if len(text) > limit:
                return None
            text += b"\n"
        # The window's check as _Lines._by_literals makes it, inline: it runs once a line.
        if window is not None and not (
            start <= hit - ahead and hit - ahead + width <= end
            and sure(data, hit - ahead, hit - ahead + width) is not None
        ) and not confirm(start, end):  # type: ignore[misc]
            continue
        # plain_lines' printing, repeated: a call per line would cost what this loop saves.
        if numbered:
            line_no += count(b"\n", counted, start)
            counted = start
            append(b"%s%d:%s" % (lead, line_no, text))
        else:
            append(lead + text)


# plain_lines, in two steps, for lines found before the number of lines above them is known
# (a range of a file split across processes, rgcli/split_file.py), which must also count every
# newline after the last of them. plain_lines stays a loop of its own: it runs once per file
# of a tree, where that count is wasted (a 7 KB file with one match near its start: 2.7 µs
# through these two, 0.6 µs through plain_lines), and under -N it counts nothing at all.
def line_texts(
    data: bytes, spans: Iterable[tuple[int, int]], max_columns: int | None = None
) -> tuple[list[tuple[int, bytes]], int] | None:
    """Each line of *spans* (as in :func:`plain_lines`) as (the number of newlines before it
    in *data*, its text ending in "\\n"), and the number of newlines in all of *data*, counted
    in one pass; None when a line is longer than *max_columns*."""
    out: list[tuple[int, bytes]] = []
    append = out.append
    count = data.count
    size = len(data)
    limit = max_columns or size + 1
    before, counted = 0, 0
    for start, end in spans:
        stop = end + 1 if end < size else end
        text = data[start:stop]
        if len(text) > limit:
            return None
        if stop == end:
            text += b"\n"
        before += count(b"\n", counted, start)
        counted = start
        append((before, text))
    return out, before + count(b"\n", counted)


def print_line_texts(
    texts: Iterable[tuple[int, bytes]], lead: bytes, numbered: bool, first_line: int
) -> list[bytes]:
    """The lines of :func:`line_texts` printed as :func:`plain_lines` prints them, the first
    line of their *data* being number *first_line*."""
    if numbered:
        return [b"%s%d:%s" % (lead, first_line + before, text) for before, text in texts]
    return [lead + text for _, text in texts]
