"""FillReads, the incremental form of line_buffer's model of rg's line-buffer fills, must
find the fills fill_of finds (which tests/search/test_rg_binary_stats.py checks against rg)
whatever the chunks the file is handed over in."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shellfree.search import line_buffer


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    lines=st.lists(st.integers(min_value=0, max_value=300), min_size=1, max_size=60),
    final_newline=st.booleans(),
    cuts=st.lists(st.floats(min_value=0, max_value=1), max_size=8),
    probe=st.floats(min_value=0, max_value=1),
)
def test_fill_reads_end_where_fill_of_says(monkeypatch, lines, final_newline, cuts, probe):
    # 64-byte fills, so that 300-byte lines make the buffer grow (x3) as rg's does.
    monkeypatch.setattr(line_buffer, "FILL", 64)
    stream = b"\n".join(b"x" * n for n in lines) + (b"\n" if final_newline else b"")
    if not stream:
        return
    size = len(stream)
    bounds = sorted({0, size, *(int(c * size) for c in cuts)})
    chunks = list(zip(bounds, bounds[1:]))
    offset = min(int(probe * size), size - 1)
    fills = line_buffer.FillReads(size)
    end = None
    for start, stop in chunks:
        fills.feed(stream[start:stop], start)
        if stop > offset:  # asked once the chunk holding the byte is in, as split_file does
            end = fills.end_of_fill(offset)
            if end is not None:
                break
    assert end is not None
    fill = line_buffer.fill_of(stream, offset)
    # The fill's reads end at `end`: its last byte is in the same fill, the next byte starts
    # the next one, and the fill searches the lines up to the last newline it read.
    assert line_buffer.fill_of(stream, end - 1) == fill
    if end < size:
        assert line_buffer.fill_of(stream, end).start == fill.stop
        assert fill.stop == stream.rfind(b"\n", 0, end) + 1
    else:
        assert fill.stop == size
