"""Replace-mode patches are byte-faithful, for any file: replacing text that occurs once, within
one line, changes those bytes and no others (line endings, mixed or not, a byte-order mark, a
missing final newline, the encoding: UTF-8, UTF-16 with a mark, cp1252), and text that does
not occur leaves the file as it was (a failure, or an "already applied" no-op). The
example-based cases are in test_patch_replace.py."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, assume, example, given, settings, strategies as st

from shellfree import FileTools
from tests.engine.conftest import WESTERN_LINE, read_as_cp1252

# Letters, digits, punctuation and non-ASCII characters cp1252 encodes too; no newline, no
# tab, nothing a redaction rule takes.
ALPHABET = "abcdefghij KLMN0123()=.,;éüß€"
ENCODINGS = ["cp1252", "utf-16", "utf-8", "utf-8-sig"]

_line = st.text(alphabet=ALPHABET, min_size=0, max_size=30)


@st.composite
def _files(draw):
    lines = draw(st.lists(_line, min_size=1, max_size=8))
    endings = [draw(st.sampled_from(["\n", "\r\n"])) for _ in lines]
    if not draw(st.booleans()):
        endings[-1] = ""  # no final newline
    encoding = draw(st.sampled_from(ENCODINGS))
    if encoding == "cp1252":
        lines.insert(0, WESTERN_LINE)
        endings.insert(0, "\n")
    text = "".join(line + end for line, end in zip(lines, endings))
    # The old text: a piece of one line, three characters at least, not all spaces.
    index = draw(st.integers(0, len(lines) - 1))
    line = lines[index]
    assume(len(line) >= 3)
    start = draw(st.integers(0, len(line) - 3))
    stop = draw(st.integers(start + 3, len(line)))
    old = line[start:stop]
    assume(old.strip() and text.count(old) == 1)
    new = draw(_line)
    assume(new != old)
    return text, encoding, old, new


def _patch(text: str, encoding: str, old: str, new: str) -> tuple[dict, bytes, bytes]:
    data = text.encode(encoding)
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "f.txt").write_bytes(data)
        tools = FileTools(tmp)
        result = json.loads(tools.patch(mode="replace", path="f.txt", old_string=old,
                                        new_string=new))
        return result, data, (Path(tmp) / "f.txt").read_bytes()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.filter_too_much])
@given(case=_files())
# Once verified by a fresh guess of the code page, which the edit turns into mac_latin2.
@example(case=(WESTERN_LINE + "\nK;K", "cp1252", "au l", "ééK"))
def test_a_unique_replacement_changes_those_bytes_and_no_others(case):
    text, encoding, old, new = case
    assume(encoding != "cp1252" or read_as_cp1252(text.encode(encoding)))
    result, before, after = _patch(text, encoding, old, new)
    assert result.get("success") is True, result
    expected = text.replace(old, new, 1).encode(encoding)
    assert after == expected, (before, after)



@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.filter_too_much])
@given(case=_files(), missing=st.text(alphabet="vwxyz", min_size=12, max_size=20))
def test_text_that_does_not_occur_leaves_the_file_as_it_was(case, missing):
    text, encoding, _, new = case
    result, before, after = _patch(text, encoding, missing, new)
    # A failure, or, when the file holds a substantial new text already, an "already
    # applied" no-op.
    assert result.get("success") is not True or result.get("no_change") is True, result
    assert after == before
