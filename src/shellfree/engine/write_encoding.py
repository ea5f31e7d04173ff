"""The byte form of an existing text file, so an edit writes it back the way it was stored.

:func:`sniff_format` looks at a file's bytes once and returns a :class:`TextFormat`: its byte-order
mark, its encoding (UTF-8, UTF-16 with a BOM, or a legacy code page for the whole file or for
its stray lines, decided by :func:`~shellfree.engine.text_decoding.code_page_form` as read_file
decides it) and its dominant line ending.
``decode`` turns the bytes into the text the matcher and the agent see; ``encode`` turns new text
back into bytes in the same form, or raises :class:`UnencodableText` instead of silently
changing the file's encoding.
"""

from __future__ import annotations

import codecs
import re
from collections import deque
from dataclasses import dataclass, replace
from functools import partial
from typing import Callable

from shellfree.engine.read_encoding import SNIFF_BYTES as READ_SNIFF_BYTES
from shellfree.engine.read_encoding import classify
from shellfree.engine.text_decoding import (
    CODE_PAGE_WINDOW,
    DETECTION_BYTES,
    CodePage,
    code_page_form,
    legacy_code_page,
)

__all__ = [
    "LINE_ENDING_SAMPLE",
    "NEW_FILE",
    "TextFormat",
    "UnencodableText",
    "dominant_line_ending",
    "normalize_line_endings",
    "sniff_format",
]

LINE_ENDING_SAMPLE = 4096
"""How many leading characters decide the dominant line ending (Hermes §3.4 step 6)."""

SNIFF_BYTES = DETECTION_BYTES
"""How much of a file decides between UTF-8 and a legacy encoding."""

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    # UTF-32 before UTF-16: the UTF-32-LE mark starts with the UTF-16-LE one.
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


_UNICODE_CODECS = ("utf-8", "utf-16", "utf-32")


class UnencodableText(ValueError):
    """New text holds a character the file's encoding cannot store (a cp1252 file and an emoji).

    *char* is the first such character and *encoding* the file's encoding.
    """

    def __init__(self, char: str, encoding: str) -> None:
        super().__init__(f"{char!r} cannot be encoded as {encoding}")
        self.char = char
        self.encoding = encoding


@dataclass(frozen=True, slots=True)
class TextFormat:
    """How a file's text is stored: *bom* bytes (``b""`` for none), *encoding* (a Python codec
    name), *newline* (``"\\r\\n"``, ``"\\n"`` or None when the sample has no line break) and
    *stray_code_page*, the legacy code page of the lines of a UTF-8 file that are not UTF-8.

    With a stray code page the file is decoded line by line, as read_file and search_files
    show it: a line that is valid UTF-8 is UTF-8, any other line is in the code page. So a
    UTF-8 file with one Latin-1 line reads as UTF-8 with that line in Latin-1 (decoding it
    whole in a code page would turn every UTF-8 character into two), and a patch matches the
    text the agent was shown.
    """

    bom: bytes = b""
    encoding: str = "utf-8"
    newline: str | None = None
    stray_code_page: str | None = None

    @property
    def code_page(self) -> str | None:
        """The legacy code page (cp1252, Shift-JIS, …) of the file, or of its stray lines, or
        None: UTF-8, UTF-16 and UTF-32, and any file with a byte-order mark, are read off the
        bytes, not guessed."""
        if self.stray_code_page is not None:
            return self.stray_code_page
        if self.bom:
            return None
        if codecs.lookup(self.encoding).name.startswith(_UNICODE_CODECS):
            return None
        return self.encoding

    @property
    def form(self) -> CodePage | None:
        """How the file uses its legacy code page (whole, or its stray lines), or None."""
        code_page = self.code_page
        if code_page is None:
            return None
        return CodePage(code_page, self.stray_code_page is None)

    def decode(self, data: bytes) -> str:
        """The text of *data* without its BOM. Bytes the encoding cannot decode become lone
        surrogates (``surrogateescape``), so :meth:`encode` gives them back unchanged."""
        body = data[len(self.bom):] if self.bom and data.startswith(self.bom) else data
        text = body.decode(self.encoding, "surrogateescape")
        if self.stray_code_page is None:
            return text
        return _decode_stray_lines(text, self.stray_code_page)

    def encode(self, text: str, original: bytes | None = None) -> bytes:
        """*text* in this format: the BOM first (unless *text* already starts with U+FEFF, which
        then becomes that BOM), then *text* in this encoding. Line endings are the caller's job.

        With a stray code page, line by line: the lines before and after the edited ones keep
        the bytes they have in *original* (the file before the edit), and so does an edited
        line whose text one of the edited lines had, so stray lines stay as they were; any
        other line is UTF-8 (a stray byte the agent kept, in the code page). A file wholly in
        a code page whose *original* bytes do not survive decoding and encoding again (a
        multi-byte code page that maps two byte sequences to one character) is kept the same
        way, its new lines in the code page.

        Raises :class:`UnencodableText` for a character the encoding cannot store.
        """
        if self.bom and text.startswith("\ufeff"):
            text = text[1:]
        stray = self.stray_code_page
        if self.code_page is not None and (original or stray is not None):
            body = original or b""
            if self.bom and body.startswith(self.bom):
                body = body[len(self.bom):]
            old = self.decode(body)
            if stray is not None:
                return self.bom + _encode_lines(
                    text, body, old, partial(_decode_line, code_page=stray),
                    partial(_encode_stray_line, code_page=stray))
            if text == old:
                return body
            if _encode_text(old, self.encoding) != body:
                return _encode_lines(
                    text, body, old,
                    partial(bytes.decode, encoding=self.encoding, errors="surrogateescape"),
                    partial(_encode_text, encoding=self.encoding))
        return self.bom + _encode_text(text, self.encoding)

    def round_trips(self, data: bytes) -> bool:
        """Whether decoding and re-encoding *data* gives the same bytes, so an edit changes only
        the edited region. EDGE CASE: a few multi-byte code pages map two byte sequences to one
        character; such a file cannot be edited byte-faithfully."""
        try:
            return self.encode(self.decode(data), data) == data
        except (UnencodableText, UnicodeError):
            return False


_ESCAPED = re.compile("[\udc80-\udcff]")
"""A byte UTF-8 could not decode, as ``surrogateescape`` keeps it."""


def _decode_line(line: bytes, code_page: str) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        return line.decode(code_page, "surrogateescape")


def _encode_text(text: str, encoding: str) -> bytes:
    try:
        return text.encode(encoding, "surrogateescape")
    except UnicodeEncodeError as error:
        raise UnencodableText(error.object[error.start], encoding) from None


def _decode_stray_lines(text: str, code_page: str) -> str:
    """*text* (UTF-8 decoded with ``surrogateescape``) with each line holding a byte UTF-8
    could not decode decoded again, whole, in *code_page*. Only those lines are visited."""
    parts, done = [], 0
    found = _ESCAPED.search(text)
    while found is not None:
        start = text.rfind("\n", 0, found.start()) + 1
        end = text.find("\n", found.end())
        end = len(text) if end == -1 else end
        line = text[start:end].encode("utf-8", "surrogateescape")  # its bytes, as they were
        parts += [text[done:start], line.decode(code_page, "surrogateescape")]
        done = end
        found = _ESCAPED.search(text, end)
    parts.append(text[done:])
    return "".join(parts)


def _encode_lines(text: str, original: bytes, old: str, decode: Callable[[bytes], str],
                  encode: Callable[[str], bytes]) -> bytes:
    """*text* as bytes, keeping *original*'s (whose text is *old*) as :meth:`TextFormat.encode`
    says; *decode* and *encode* turn one line's bytes into text and back. Only the lines
    between the longest common head and tail are visited one by one."""
    if text == old:
        return original
    # The common head and tail, found on the whole texts (in C), counted in whole lines.
    start = old.rfind("\n", 0, _common_prefix(old, text)) + 1
    head = old.count("\n", 0, start)
    tail = old.count("\n", len(old) - _common_prefix(old[start:][::-1], text[start:][::-1]))
    before = original.split(b"\n") if original else []
    lines = text.split("\n")
    kept: dict[str, deque[bytes]] = {}
    for line in before[head:len(before) - tail]:
        kept.setdefault(decode(line), deque()).append(line)
    middle = []
    for line in lines[head:len(lines) - tail]:
        same = kept.get(line)
        # Equal lines keep their own bytes in order; any more copies take the last's.
        middle.append((same.popleft() if len(same) > 1 else same[0]) if same else encode(line))
    return b"\n".join(before[:head] + middle + before[len(before) - tail:])


def _common_prefix(a: str, b: str) -> int:
    """The length of the longest common start of *a* and *b*, by halving: slices compare in C."""
    low, high = 0, min(len(a), len(b))
    while low < high:  # a[:low] == b[:low]
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _encode_stray_line(line: str, code_page: str) -> bytes:
    """A new line of a UTF-8 file with stray lines in *code_page*: UTF-8, or — for a line
    holding bytes UTF-8 could not decode — the code page."""
    if line.isascii():
        return line.encode("ascii")
    for encoding in ("utf-8", code_page):
        try:
            data = line.encode(encoding, "surrogateescape")
        except UnicodeEncodeError:
            continue
        if _decode_line(data, code_page) == line:
            return data
    raise UnencodableText(next(ch for ch in line if not ch.isascii()), "utf-8")


NEW_FILE = TextFormat()
"""A file that does not exist yet is written as UTF-8 without a BOM, line endings as given."""


def sniff_format(data: bytes, code_page: CodePage | None = None) -> TextFormat:
    """The :class:`TextFormat` of a file whose content (or first megabyte) is *data*.

    A BOM names the encoding; BOM-less UTF-16 is recognised as read_file recognises it; then
    UTF-8 when the sample is valid UTF-8. Otherwise the file has a legacy code page for its
    lines that are not UTF-8, the whole file's or only those lines'
    (:func:`~shellfree.engine.text_decoding.code_page_form`, as read_file finds it); with no
    code page found, UTF-8 with the undecodable bytes kept as they are.

    *code_page* is how the task knows *data* to use a legacy code page (it was shown or wrote
    these bytes so): it is the answer, also for an all-ASCII sample, where UTF-8 and a code
    page read the same bytes but would store new text differently.
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            text = data[len(bom):SNIFF_BYTES].decode(encoding, "surrogateescape")
            stray = None
            if encoding == "utf-8":
                # Its stray lines, if any, read in a code page as in read_file.
                stray = code_page_form(data[:CODE_PAGE_WINDOW], code_page).name
            return TextFormat(bom, encoding, dominant_line_ending(text), stray)
    head = data[:SNIFF_BYTES]
    fmt = _form(head, code_page)
    return replace(fmt, newline=dominant_line_ending(fmt.decode(head[:LINE_ENDING_SAMPLE * 4])))


def _form(head: bytes, code_page: CodePage | None) -> TextFormat:
    """:func:`sniff_format`'s answer for a file without a BOM, line endings aside."""
    # EDGE CASE: BOM-less UTF-16 is valid UTF-8 byte-wise (ASCII plus NULs); ask read_file's
    # classifier, so the file is edited in the encoding read_file showed it in.
    shown = classify(head[:READ_SNIFF_BYTES], lambda: b"")  # only its UTF-16 answer is used
    if shown is not None and shown.utf16 and TextFormat(b"", shown.name).round_trips(head):
        return TextFormat(b"", shown.name)
    # The same question of the same bytes as read_file asks (read_encoding.classify).
    form = code_page_form(head[:CODE_PAGE_WINDOW], code_page)
    if form.name is None:
        # Stray lines past the window, if any, have the code page of the first megabyte's.
        return TextFormat(b"", "utf-8", stray_code_page=legacy_code_page(head))
    if form.whole:
        return TextFormat(b"", form.name)
    return TextFormat(b"", "utf-8", stray_code_page=form.name)


def dominant_line_ending(text: str) -> str | None:
    """``"\\r\\n"`` if a CRLF occurs in the first :data:`LINE_ENDING_SAMPLE` characters, else
    ``"\\n"`` if an LF does, else None (§3.4 step 6)."""
    sample = text[:LINE_ENDING_SAMPLE]
    if "\r\n" in sample:
        return "\r\n"
    if "\n" in sample:
        return "\n"
    return None


def normalize_line_endings(text: str, newline: str | None) -> str:
    """*text* with every line break made *newline*: for CRLF, CRLF and lone CR collapse to LF
    and then every LF becomes CRLF (§3.4 step 6); for LF, CRLF becomes LF. None: unchanged."""
    if newline == "\r\n":
        return text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\r\n")
    if newline == "\n":
        return text.replace("\r\n", "\n")
    return text
