"""read_file pages partition a text file, for any page size: the pages of a file (offset 1,
1 + limit, …) hold its lines once each, numbered from 1, as stored (a "\\r" of a CRLF kept,
a UTF-8 mark dropped from line 1 only, a U+FEFF starting a later line kept), with the same
``total_lines`` on each page, and a hint naming the next offset on every page but the last
(§1.3, §1.4)."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from shellfree import FileTools

# A line may start with U+FEFF, which only as the file's first character is a mark (§2.3).
_line = st.builds(lambda mark, text: mark + text, st.sampled_from(["", "", "", "\ufeff"]),
                  st.text(alphabet="abc xyz.,()=é€😀\t", max_size=40))


@st.composite
def _texts(draw) -> bytes:
    lines = draw(st.lists(_line, min_size=1, max_size=25))
    endings = [draw(st.sampled_from(["\n", "\r\n"])) for _ in lines]
    if draw(st.booleans()):
        endings[-1] = ""
    data = "".join(line + end for line, end in zip(lines, endings)).encode()
    return (b"\xef\xbb\xbf" if draw(st.booleans()) else b"") + data


def _expected_lines(data: bytes) -> list[str]:
    lines = data.decode().split("\n")
    if lines[-1] == "":
        lines.pop()  # a final newline ends the last line; it opens no other
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]  # a file of a mark alone still has one (empty) line
    return lines


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=_texts(), limit=st.integers(1, 8))
def test_pages_partition_a_text_file(data, limit):
    expected = _expected_lines(data)
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "f.txt").write_bytes(data)
        tools = FileTools(tmp)
        shown, offset = [], 1
        while True:
            page = json.loads(tools.read_file("f.txt", offset=offset, limit=limit))
            tools.notify_other_tool_call()  # pages of one file are not a loop
            assert page["total_lines"] == len(expected), page
            rows = page["content"].split("\n") if page["content"] else []
            shown.extend(rows)
            offset += len(rows)
            if offset > len(expected):
                assert not page.get("truncated"), page
                break
            assert page["truncated"] is True and rows, page
            assert re.search(rf"\boffset={offset}\b", page["hint"]), page["hint"]
    assert shown == [f"{n}|{line}" for n, line in enumerate(expected, 1)]
