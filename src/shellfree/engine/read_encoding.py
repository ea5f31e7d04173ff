"""How read_file tells text from binary and turns a file's bytes into the text an agent sees.

:func:`classify` looks at the start of a file and answers with a :class:`TextEncoding` (UTF-8,
UTF-16, or a legacy code page found by charset-normalizer, for the whole file or for its lines
that are not UTF-8) or None for binary (§2.4). :class:`LineDecoder` decodes the lines of one
page accordingly, so text never reaches the agent as U+FFFD soup. :func:`binary_kind`
and :func:`format_size` build the binary refusal.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from typing import Callable, Sequence

from shellfree.engine import messages
from shellfree.engine.text_decoding import (
    CODE_PAGE_WINDOW,
    CodePage,
    code_page_form,
    detect_legacy_encoding,
    legacy_code_page,
)
# START_BYTES: the start of a file whose stray lines name the code page of stray lines past
# its first 64 KiB, for read_file as for patch and search_files.
from shellfree.engine.text_decoding import DETECTION_BYTES as START_BYTES

__all__ = [
    "SNIFF_BYTES",
    "START_BYTES",
    "LineDecoder",
    "TextEncoding",
    "UTF8",
    "binary_kind",
    "classify",
    "format_size",
    "looks_binary",
]

SNIFF_BYTES = 1000
"""Bytes of a file's start the binary test looks at (§2.3 step 3)."""

UTF16_SNIFF_BYTES = 512
"""Bytes the BOM-less UTF-16 test counts zero bytes in (§2.4 UTF-16 rescue)."""

DETECTION_BYTES = CODE_PAGE_WINDOW
"""Bytes of a file's start that decide how it uses a legacy code page
(:func:`~shellfree.engine.text_decoding.code_page_form`)."""

CONTROL_SHARE_LIMIT = 0.30
"""Hermes' legacy heuristic: text whose share of C0 controls (other than tab, LF, CR) is
greater than this is binary (30.0% is still text, §2.4)."""

_BOMS = ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))

# Magic prefixes that plain text cannot start with: a non-printable byte, or four or more
# bytes of a signature. Short printable ones ("MZ", "BM", "ID3", "BZh") would condemn legacy
# text that happens to start with those letters.
_BINARY_SIGNATURES = tuple(
    prefix for prefix, _ in messages.BINARY_MAGIC_KINDS
    if len(prefix) >= 4 or any(b < 0x20 or b >= 0x7F for b in prefix)
)


@dataclass(frozen=True, slots=True)
class TextEncoding:
    """How a text file's bytes become text.

    *name* is the codec (``"utf-8"``, ``"utf-16-le"``, ``"cp1252"``, …). *utf16* files are
    decoded as a stream of text (their newlines are two bytes); the others are split into
    lines as bytes, which is safe because no supported legacy code page uses byte 0x0A inside
    a multi-byte character. A legacy code page is the *whole* file's (every line is decoded in
    it) or only that of the lines that are not UTF-8.
    """

    name: str
    utf16: bool = False
    whole: bool = False

    @property
    def is_utf8(self) -> bool:
        """Whether this is plain UTF-8 (lines in a legacy code page may still be found)."""
        return self.name == "utf-8"


UTF8 = TextEncoding("utf-8")


def looks_binary(sample: bytes) -> bool:
    """Hermes ``_is_likely_binary_bytes`` (§2.4): empty is text; a NUL byte is binary; valid
    UTF-8 is text; so is UTF-8 whose first error starts in the last 3 bytes (a character cut
    by the sample's end); anything else is binary."""
    if not sample:
        return False
    if b"\x00" in sample:
        return True
    try:
        sample.decode("utf-8")
    except UnicodeDecodeError as error:
        return error.start < len(sample) - 3
    return False


def utf16_encoding(sample: bytes) -> str | None:
    """``"utf-16-le"``/``"utf-16-be"`` when *sample* starts with a UTF-16 BOM, or (without
    one) when every zero byte of its first 512 sits on one parity and there are at least two;
    else None (§2.4)."""
    for bom, name in _BOMS:
        if sample.startswith(bom):
            return name
    head = sample[:UTF16_SNIFF_BYTES]
    even = head[0::2].count(0)
    odd = head[1::2].count(0)
    if even == 0 and odd >= 2:
        return "utf-16-le"
    if odd == 0 and even >= 2:
        return "utf-16-be"
    return None


def classify(sample: bytes, more: Callable[[], bytes],
             code_page: CodePage | None = None) -> TextEncoding | None:
    """The encoding of a file whose first bytes are *sample*, or None if it is binary.

    *more* returns the start of the file (:data:`DETECTION_BYTES`), whose lines decide whether
    the file is in a legacy code page, whole or for its stray lines only
    (:func:`~shellfree.engine.text_decoding.code_page_form`, which patch asks too). *code_page*
    is how the task already knows these bytes to use a legacy code page (it was shown them, or
    wrote them, so): it is the answer.

    EDGE CASE: Hermes calls every non-UTF-8 file binary (§2.4: "Latin-1 text is binary").
    shellfree shows it when charset-normalizer names an encoding, the sample has no NUL and
    no binary signature, and the decoded text passes Hermes' 30% control-character test.
    """
    for bom, name in _BOMS:
        if sample.startswith(bom):
            return TextEncoding(name, utf16=True)
    starts_as_utf8 = not looks_binary(sample)
    if not starts_as_utf8:
        utf16 = utf16_encoding(sample)
        if utf16 is not None and _plausible_text(
                sample[:UTF16_SNIFF_BYTES].decode(utf16, "replace")):
            # EDGE CASE: Hermes trusts the zero-byte parity alone; shellfree also wants the
            # decoded start to look like text, so binary with zeros on one parity stays binary.
            return TextEncoding(utf16, utf16=True)
        if b"\x00" in sample or sample.startswith(_BINARY_SIGNATURES):
            return None
    data = more()
    form = code_page_form(data, code_page)
    if form.name is None:
        return UTF8 if starts_as_utf8 else None
    if not starts_as_utf8:
        try:
            text = data[:SNIFF_BYTES * 4].decode(form.name, "replace")
        except LookupError:
            return None
        if control_share(text) > CONTROL_SHARE_LIMIT:
            return None
    return TextEncoding(form.name, whole=form.whole)


def _plausible_text(text: str) -> bool:
    # The cut at the sample's end may leave half a character: only a replacement before the
    # last character counts.
    return "\ufffd" not in text[:-1] and control_share(text) <= CONTROL_SHARE_LIMIT


def control_share(text: str) -> float:
    """The share of *text*'s characters that are C0 controls other than tab, LF and CR."""
    if not text:
        return 0.0
    controls = sum(1 for ch in text if ord(ch) < 32 and ch not in "\t\n\r")
    return controls / len(text)


def binary_kind(sample: bytes) -> str:
    """What a binary file is, from its first bytes (the first matching signature, §2.4)."""
    for prefix, kind in messages.BINARY_MAGIC_KINDS:
        if sample.startswith(prefix):
            if prefix == b"\x00\x00\x00" and sample[4:8] != b"ftyp":
                continue
            return kind
    return messages.BINARY_KIND_UNKNOWN


def format_size(size: int) -> str:
    """Hermes' size text: ``"1.5 MB"`` from 1 MiB, ``"2.0 KB"`` from 1 KiB, else ``"N bytes"``."""
    if size >= 1 << 20:
        return f"{size / (1 << 20):.1f} MB"
    if size >= 1 << 10:
        return f"{size / (1 << 10):.1f} KB"
    return f"{size} bytes"


class LineDecoder:
    """Decodes the byte lines of pages of one file.

    In a file whose *whole* text is in a legacy code page, every line is decoded in it.
    Otherwise each line is UTF-8 when it is valid UTF-8, and decoded with the file's legacy
    code page if not — the one :func:`classify` found, or, for a file whose first 64 KiB have
    no such line, the one the stray lines of its first megabyte name (*start* reads it, as
    patch and search_files read it), or else the one the page's own stray lines name.
    :attr:`used` names the legacy code page once a line needed it.
    """

    def __init__(self, encoding: TextEncoding = UTF8,
                 start: Callable[[], bytes] | None = None) -> None:
        self._legacy = None if encoding.is_utf8 else encoding.name
        self._whole = encoding.whole
        self._start = start
        self.used: str | None = None

    def decode(self, lines: Sequence[bytes], cut: frozenset[int] = frozenset()) -> list[str]:
        """The text of *lines*; *cut* holds the indexes of lines whose bytes were cut short
        while reading, whose last character may be incomplete (it is dropped)."""
        if self._whole and self._legacy is not None:
            return self._decode_whole(lines, self._legacy, cut)
        out: list[str] = []
        failed: list[int] = []
        for index, raw in enumerate(lines):
            text = _decode(raw, "utf-8", index in cut)
            if text is None:
                failed.append(index)
                text = ""
            out.append(text)
        if not failed:
            return out
        if self._legacy is None and self._start is not None:
            self._legacy = legacy_code_page(self._start())
            self._start = None
        legacy = self._legacy or detect_legacy_encoding(
            b"".join(lines[i] + b"\n" for i in failed))
        for index in failed:
            text = _decode(lines[index], legacy, index in cut) if legacy else None
            if text is None:
                # Bytes no encoding explains: replaced, as a last resort.
                text = lines[index].decode(legacy or "utf-8", "replace")
            out[index] = text
        if legacy:
            self.used = legacy
        return out

    def _decode_whole(self, lines: Sequence[bytes], legacy: str, cut: frozenset[int]) -> list[str]:
        out = []
        for index, raw in enumerate(lines):
            text = _decode(raw, legacy, index in cut)
            out.append(raw.decode(legacy, "replace") if text is None else text)
            if not raw.isascii():
                self.used = legacy
        return out


def _decode(raw: bytes, encoding: str, cut: bool) -> str | None:
    if encoding != "utf-8" and raw.startswith(codecs.BOM_UTF8):
        # The first line of a UTF-8 file with a byte-order mark, in a code page after it.
        rest = _decode(raw[len(codecs.BOM_UTF8):], encoding, cut)
        return None if rest is None else "\ufeff" + rest
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as error:
        # EDGE CASE: a line cut at the byte clamp can end inside a multi-byte character.
        if cut and error.start >= len(raw) - 3:
            try:
                return raw[:error.start].decode(encoding)
            except UnicodeDecodeError:
                return None
        return None
    except LookupError:
        return None
