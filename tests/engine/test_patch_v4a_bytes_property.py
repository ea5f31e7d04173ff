"""V4A updates are byte-faithful, for any file: a hunk that replaces one line of a file (UTF-8,
UTF-8 with a mark, UTF-16, cp1252; LF or CRLF; with or without a final newline) by one or two
changes those bytes and no others, the new line break in the file's own line ending. The all-or-nothing property is test_patch_v4a_property.py's."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from shellfree import FileTools
from tests.engine.conftest import WESTERN_LINE, read_as_cp1252

# No "*" (a line "*** …" would be a V4A header) and no "@" (a hunk hint); nothing a redaction
# rule takes.
_line = st.text(alphabet="abcdefghij KLMN0123()=.,;éüß€", min_size=1, max_size=30)
ENCODINGS = ["cp1252", "utf-16", "utf-8", "utf-8-sig"]


@st.composite
def _cases(draw):
    lines = draw(st.lists(_line, min_size=1, max_size=8))
    encoding = draw(st.sampled_from(ENCODINGS))
    if encoding == "cp1252":
        lines.insert(0, WESTERN_LINE)
    index = draw(st.integers(0, len(lines) - 1))
    old = lines[index]
    # A whole, trimmed line whose text occurs nowhere else (hunks are found as text, so "1"
    # is not unique beside a line "01").
    assume(old.strip() == old and "\n".join(lines).count(old) == 1)
    new = draw(st.lists(_line, min_size=1, max_size=2))  # one line for one, or two
    assume(all(line.strip() == line and line not in lines for line in new))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    final = draw(st.booleans())
    return lines, encoding, index, new, newline, final


def _encoded(lines: list[str], encoding: str, newline: str, final: bool) -> bytes:
    return (newline.join(lines) + (newline if final else "")).encode(encoding)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.filter_too_much])
@given(case=_cases())
def test_a_v4a_line_replacement_changes_those_bytes_and_no_others(case):
    lines, encoding, index, new, newline, final = case
    before = _encoded(lines, encoding, newline, final)
    assume(encoding != "cp1252" or read_as_cp1252(before))
    added = "".join(f"+{line}\n" for line in new)
    patch = f"*** Begin Patch\n*** Update File: f.txt\n-{lines[index]}\n{added}*** End Patch"
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "f.txt").write_bytes(before)
        result = json.loads(FileTools(tmp).patch(mode="patch", patch=patch))
        after = (Path(tmp) / "f.txt").read_bytes()
    assert result.get("success") is True, result
    edited = lines[:index] + new + lines[index + 1:]
    if len(lines) == 1 and not final:
        newline = "\n"  # a file without a line break has no line ending to follow
    assert after == _encoded(edited, encoding, newline, final), (before, after)
