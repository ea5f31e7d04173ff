"""Where rg's search position stood when -m, -l or -q stopped a search: its statistics
(``--stats``, the JSON summary's ``bytes_searched``) count the bytes up to there.

:func:`stop_position` takes the searcher's lines of a file and the lines it reported; it
depends on the fills of rg's line buffer (:mod:`~shellfree.search.line_buffer`) for a file
read in pieces, and on rg's walk over the after-context for one searched as a single buffer.
"""

from __future__ import annotations


from shellfree.search.line_buffer import Fill, fill_of, handed_over

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see shellfree/__init__.py)
if TYPE_CHECKING:
    from shellfree.search.searcher import FileResult, SearchConfig, _Lines

__all__ = ["after_context_cut", "stop_position"]


def after_context_cut(config: SearchConfig, result: FileResult) -> bool:
    """Whether the after-context of the match -m stopped at has fewer lines than asked for
    (in quit mode only the end of the searched fills can cut it)."""
    if not config.after_context or config.max_count is None:
        return False
    index = _last_counted(config, result)
    return index is not None and len(result.lines) - index - 1 < config.after_context


def _last_counted(config: SearchConfig, result: FileResult) -> int | None:
    """The index in ``result.lines`` of the match line -m stopped at (its max_count-th)."""
    seen = 0
    for index, line in enumerate(result.lines):
        if line is not None and line.kind == "match":
            seen += 1
            if seen == config.max_count:
                return index
    return None


def _after_context_stop(lines: _Lines, config: SearchConfig, result: FileResult,
                        stop: int) -> int:
    """Where -m N -A M left rg's search position on a streamed file (*stop*: the end of the
    last match line printed, the answer when the fill that found the Nth match also held its
    after-context).

    Otherwise rg rolls that fill out of its buffer and reads on until the after-context is
    complete, and counts what it rolled out before the fill that completed it; the end of
    the file when none did. The unterminated last line of a file is a fill of its own (the
    read that reaches the end does not know it did). Measured against rg 15.1 with -m1 and
    -A1..3 on files whose match is one, two or three lines from their end, terminated or
    not, and across a 64 KiB fill.
    """
    buf, end = lines.buf, lines.end
    index = _last_counted(config, result)
    if index is None:
        return stop
    if len(result.lines) - index - 1 < config.after_context:
        return end  # the file ended first: rg read it to its end
    line = result.lines[index]
    context = result.lines[index + config.after_context]
    if context is None:
        return stop
    last_byte = context.offset + len(context.text) - 1
    tail = buf.rfind(b"\n", 0, end) + 1  # where an unterminated last line starts
    if tail < end and last_byte >= tail:
        # In the last line's own fill: everything before it was rolled out.
        return stop if line.offset >= tail else max(stop, tail)
    # The fills with context options on: the buffer keeps lines across them.
    visited = handed_over(result.lines, config)

    def fill(offset: int) -> Fill:
        return fill_of(buf, offset, config.before_context, visited, lines.reads)

    # The fill that searched the match: the one that read its line's last byte.
    if last_byte < fill(line.offset + len(line.text) - 1).stop:
        return stop
    # Matching lines of the after-context move the position on too.
    return max(stop, fill(last_byte).consumed)


def _whole_after_context_stop(lines: _Lines, config: SearchConfig, result: FileResult) -> int:
    """Where -m N -A M left rg's search position in a file searched as one buffer
    (memory-mapped). After the Nth selected line rg walks the after-context lines, moving
    the position to the end of each selected line among them (a match; under -v a line the
    regex does not match), and to the end of the buffer when the file ends before M of them.
    With none selected the position is where the Nth left it: its end, or under -v the end
    of the line the regex matches that ended the run of selected lines holding it (the end
    of the buffer when there is none). Checked against rg 15.1 on 300 generated files (-m
    1-3, -A 1-3, some with -B1, with and without -v)."""
    end = lines.end
    index = _last_counted(config, result)
    if index is None:
        # -q stopped at the first match, before -m's limit: nothing after it was walked.
        last = [line for line in result.lines if line is not None and line.kind == "match"][-1]
        return last.offset + len(last.text)
    after = [line for line in result.lines[index + 1 :] if line is not None]
    if len(after) < config.after_context:
        return end
    selected = [line for line in after if line.kind == "match"]
    last = selected[-1] if selected else result.lines[index]
    pos = last.offset + len(last.text)
    if selected or not config.invert:
        return pos
    return _after_next_match(lines, pos, end)


def _after_next_match(lines: _Lines, pos: int, stop: int) -> int:
    """Where the first line at or after *pos* that the regex matches ends (with its
    terminator), not past *stop*; *stop* when there is none before it: how far rg's search
    for the next matching line had gone under -v."""
    buf = lines.buf
    while pos < stop:
        newline = buf.find(b"\n", pos, stop)
        line_end = stop if newline < 0 else newline
        if lines.line_matches(pos, line_end):
            return min(line_end + 1, stop)
        pos = line_end + 1
    return stop


def stop_position(lines: _Lines, config: SearchConfig, result: FileResult, whole: bool) -> int:
    """Where rg's search position stood when -m, -l or -q stopped it: its statistics count the
    bytes up to there.

    Without -v that is the end of the last match line printed (after-context matches
    included), unless after-context lines lay past the match's fill
    (:func:`_after_context_stop`). Under -v rg looks for the next line the regex matches
    before it hands the selected lines before it over, so the position is that line's end, or
    the end of the buffer when there is none in it: of the whole file when it is
    memory-mapped (*whole*), of the fill holding the last selected line otherwise (measured
    with -v -m1 on walked, streamed and mapped files); with \\A or \\z in the pattern rg
    searches line by line, and the position is the end of the last selected line.
    """
    matches = [l for l in result.lines if l is not None and l.kind == "match"]
    last = matches[-1]
    if not config.invert:
        stop = last.offset + len(last.text)
        if lines.text_anchors and config.after_context:
            # \A or \z: rg searches line by line, and the after-context lines it walked
            # count (`rg --json -m1 -A2 '\Aline'` on "line 1\nfoo\nbar\n": 15 bytes).
            printed = [line for line in result.lines if line is not None][-1]
            return printed.offset + len(printed.text)
        if config.after_context and config.max_count is not None:
            if whole:
                return _whole_after_context_stop(lines, config, result)
            return _after_context_stop(lines, config, result, stop)
        return stop
    buf, end = lines.buf, lines.end
    pos = last.offset + len(last.text)
    if lines.text_anchors:
        return pos  # \A or \z: rg searches line by line and stops after the last one selected
    if whole and config.after_context and config.max_count is not None:
        return _whole_after_context_stop(lines, config, result)
    if whole:
        stop = end
    else:
        # The fill that searched the last selected line: the one that read its last byte.
        stop = fill_of(buf, pos - 1, reads=lines.reads).stop
        if stop == len(buf) and not buf.endswith(b"\n") and not config.after_context:
            # The read that reached the end of the file does not know it did: its searcher
            # gets the complete lines, and the unterminated last one waits for the read that
            # returns nothing, which a stop before it never makes (-v -m1 on walked
            # "abc\ndef": 4 bytes searched). Pending after-context lines read on: that case
            # is one of the known differences (README).
            complete = buf.rfind(b"\n", 0, stop) + 1
            if complete >= pos:
                stop = complete
    return _after_next_match(lines, pos, stop)
