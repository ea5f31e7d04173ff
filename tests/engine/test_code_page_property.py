"""read_file and the editing tools agree on any file whose lines are each UTF-8 or cp1252, with
or without a UTF-8 byte-order mark: a line copied from read_file's page is found by patch (in
replace mode and as a V4A hunk); replacing it — or writing back the text read with that line
changed — changes that line's bytes and no other line's; and the next read shows the new line
and every other line as before. The example-based cases are in test_code_page_lines.py."""

from __future__ import annotations

import codecs
import json
import tempfile
from pathlib import Path
from typing import Callable

from hypothesis import HealthCheck, assume, event, given, settings, strategies as st

from shellfree import FileTools
from tests.engine.conftest import WESTERN_LINE

# Letters, digits, punctuation and Western characters cp1252 stores too; no newline, no tab,
# nothing a redaction rule takes. "ß€" (DF 80 in cp1252) is valid UTF-8 on its own.
ALPHABET = "abcK 0123().,;éüß€Ö"

_line = st.text(alphabet=ALPHABET, min_size=0, max_size=20)


@st.composite
def _files(draw):
    lines = [WESTERN_LINE] + draw(st.lists(_line, min_size=1, max_size=8))
    encodings = draw(st.lists(st.sampled_from(["utf-8", "cp1252"]), min_size=len(lines),
                              max_size=len(lines)))
    index = draw(st.integers(0, len(lines) - 1))
    new = draw(_line)
    bom = draw(st.booleans())
    return lines, encodings, index, new, bom


def _read(tools: FileTools) -> tuple[list[str], dict]:
    out = json.loads(tools.read_file("f.txt"))
    if "content" not in out or out.get("is_binary"):
        return [], out
    return [row.split("|", 1)[1] for row in out["content"].split("\n")], out


def _replace(tools: FileTools, shown: list[str], index: int, new: str) -> dict:
    return json.loads(tools.patch(path="f.txt", old_string=shown[index], new_string=new))


def _v4a(tools: FileTools, shown: list[str], index: int, new: str) -> dict:
    # A V4A line is taken as written, edges included; keep to lines without edge spaces.
    assume(shown[index].strip() == shown[index] and new.strip() == new)
    text = f"*** Begin Patch\n*** Update File: f.txt\n-{shown[index]}\n+{new}\n*** End Patch"
    return json.loads(tools.patch(mode="patch", patch=text))


def _write(tools: FileTools, shown: list[str], index: int, new: str) -> dict:
    content = "".join(line + "\n" for line in shown[:index] + [new] + shown[index + 1:])
    result = json.loads(tools.write_file("f.txt", content))
    return {"success": "error" not in result, **result}


SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.filter_too_much])


@SETTINGS
@given(case=_files())
def test_a_line_read_is_a_line_patch_finds_and_replaces_alone(case):
    _check(case, _replace)


@SETTINGS
@given(case=_files())
def test_a_line_read_is_a_line_a_v4a_patch_replaces_alone(case):
    _check(case, _v4a)


@SETTINGS
@given(case=_files())
def test_write_file_of_the_text_read_with_one_line_changed_changes_that_line_alone(case):
    _check(case, _write)


def _check(case, edit: Callable[[FileTools, list[str], int, str], dict]) -> None:
    lines, encodings, index, new, bom = case
    data = (codecs.BOM_UTF8 if bom else b"") + b"".join(
        line.encode(enc) + b"\n" for line, enc in zip(lines, encodings))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "f.txt"
        path.write_bytes(data)
        tools = FileTools(tmp)
        shown, page = _read(tools)
        assert not page.get("is_binary"), page
        assert len(shown) == len(lines)
        assume("\ufffd" not in "".join(shown))  # bytes no code page explains: not this property
        old = shown[index]
        view = "\n".join(shown) + "\n"
        assume(old.strip() and view.count(old) == 1 and new != old)
        result = edit(tools, shown, index, new)
        event(f"shown in {page.get('encoding')}, {len(set(encodings))} encoding(s), "
              f"success={result.get('success')}")
        if not result.get("success"):
            # Only a whole-file code page may lack a character of the new line.
            assert "cannot represent" in result.get("error", ""), result
            assert path.read_bytes() == data
            return
        after = path.read_bytes().split(b"\n")
        before = data.split(b"\n")
        if index == 0:  # the mark stays, before the new first line
            assert after[0].startswith(codecs.BOM_UTF8) == bom
            after[0] = before[0] = b""
        assert after[:index] + after[index + 1:] == before[:index] + before[index + 1:], (
            data, path.read_bytes(), page.get("encoding"))
        shown_after, _ = _read(tools)
        assert shown_after == shown[:index] + [new] + shown[index + 1:]
