"""write_file keeps an existing file's stored form, for any content: its byte-order mark (not
doubled), its encoding (UTF-8, UTF-16, cp1252) and, for a CRLF file, CRLF line breaks (CRLF
and lone CR collapse to LF, then LF becomes CRLF; §3.4 step 6); an LF file gets the content's
line breaks as sent. The example-based cases are test_write_atomic.py's TestStoredForm."""

from __future__ import annotations

import codecs
import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from shellfree import FileTools
from tests.engine.conftest import WESTERN_LINE, read_as_cp1252

# Characters cp1252 stores too; nothing a redaction rule or the read-output guard takes.
_text = st.text(alphabet="abc xyz.,()=éüß€\t", max_size=20)
_breaks = st.sampled_from(["\n", "\r\n", "\r"])
# encoding name -> (mark, codec of the text after it)
FORMS = {"utf-8": (b"", "utf-8"), "utf-8-sig": (codecs.BOM_UTF8, "utf-8"),
         "utf-16": (codecs.BOM_UTF16_LE, "utf-16-le"), "cp1252": (b"", "cp1252")}


@st.composite
def _contents(draw) -> str:
    parts = draw(st.lists(st.tuples(_text, _breaks), max_size=6))
    text = "".join(line + end for line, end in parts) + draw(_text)
    return ("\ufeff" if draw(st.booleans()) else "") + text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(form=st.sampled_from(sorted(FORMS)), crlf=st.booleans(), content=_contents())
def test_write_file_keeps_the_stored_form(form, crlf, content):
    mark, codec = FORMS[form]
    newline = "\r\n" if crlf else "\n"
    old = newline.join([WESTERN_LINE, "line two", "end"]) + newline
    original = mark + old.encode(codec)
    assume(form != "cp1252" or read_as_cp1252(original))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "f.txt"
        path.write_bytes(original)
        tools = FileTools(tmp)
        tools.read_file("f.txt")  # an existing file is written only after it was read
        tools.notify_other_tool_call()
        result = json.loads(tools.write_file("f.txt", content))
        written = path.read_bytes()
    if form == "cp1252" and content.startswith("\ufeff"):
        # cp1252 has no U+FEFF: refused, and the file is as it was.
        assert result["error"].startswith("Refusing to write"), result
        assert written == original
        return
    assert "error" not in result, result
    text = content
    if mark and text.startswith("\ufeff"):
        text = text[1:]  # the mark the file has already; not doubled
    if crlf:
        text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\r\n")
    assert written == mark + text.encode(codec), (content, written)
