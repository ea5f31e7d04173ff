"""The byte form of an existing text file, so an edit writes it back the way it was stored.

:func:`sniff_format` looks at a file's bytes once and returns a :class:`TextFormat`: its byte-order
mark, its encoding (UTF-8, UTF-16 with a BOM, or a legacy code page detected with
:func:`~shellfree.engine.text_decoding.detect_legacy_encoding`) and its dominant line ending.
``decode`` turns the bytes into the text the matcher and the agent see; ``encode`` turns new text
back into bytes in the same form, or raises :class:`UnencodableText` instead of silently
changing the file's encoding.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass

from shellfree.engine.read_encoding import SNIFF_BYTES as READ_SNIFF_BYTES
from shellfree.engine.read_encoding import classify
from shellfree.engine.text_decoding import detect_legacy_encoding

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

SNIFF_BYTES = 1 << 20
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
    name) and *newline* (``"\\r\\n"``, ``"\\n"`` or None when the sample has no line break)."""

    bom: bytes = b""
    encoding: str = "utf-8"
    newline: str | None = None

    @property
    def code_page(self) -> str | None:
        """The legacy code page (cp1252, Shift-JIS, …) the file is in, or None for UTF-8,
        UTF-16 and UTF-32, which are read off the bytes rather than guessed."""
        if self.bom or codecs.lookup(self.encoding).name.startswith(_UNICODE_CODECS):
            return None
        return self.encoding

    def decode(self, data: bytes) -> str:
        """The text of *data* without its BOM. Bytes the encoding cannot decode become lone
        surrogates (``surrogateescape``), so :meth:`encode` gives them back unchanged."""
        body = data[len(self.bom):] if self.bom and data.startswith(self.bom) else data
        return body.decode(self.encoding, "surrogateescape")

    def encode(self, text: str) -> bytes:
        """*text* in this format: the BOM first (unless *text* already starts with U+FEFF, which
        then becomes that BOM), then *text* in this encoding. Line endings are the caller's job.

        Raises :class:`UnencodableText` for a character the encoding cannot store.
        """
        if self.bom and text.startswith("\ufeff"):
            text = text[1:]
        try:
            return self.bom + text.encode(self.encoding, "surrogateescape")
        except UnicodeEncodeError as error:
            raise UnencodableText(error.object[error.start], self.encoding) from None

    def round_trips(self, data: bytes) -> bool:
        """Whether decoding and re-encoding *data* gives the same bytes, so an edit changes only
        the edited region. EDGE CASE: a few multi-byte code pages map two byte sequences to one
        character; such a file cannot be edited byte-faithfully."""
        try:
            return self.encode(self.decode(data)) == data
        except (UnencodableText, UnicodeError):
            return False


NEW_FILE = TextFormat()
"""A file that does not exist yet is written as UTF-8 without a BOM, line endings as given."""


def _utf8_prefix_is_valid(head: bytes) -> bool:
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        # final=False: a multi-byte character cut at the sample's end is not an error.
        decoder.decode(head, final=False)
    except UnicodeDecodeError:
        return False
    return True


def sniff_format(data: bytes, code_page: str | None = None) -> TextFormat:
    """The :class:`TextFormat` of a file whose content (or first megabyte) is *data*.

    A BOM names the encoding; BOM-less UTF-16 is recognised as read_file recognises it; then
    UTF-8 when the sample is valid UTF-8, else the detected legacy encoding when it decodes and
    re-encodes the sample unchanged, else UTF-8 with the undecodable bytes kept as they are.

    *code_page* is the legacy code page the task knows *data* to be in (it was shown or wrote
    these bytes in it). It replaces the guess, and decides an all-ASCII sample too, where UTF-8
    and the code page read the same bytes but would store new text differently; a sample that
    is UTF-8 with non-ASCII characters stays UTF-8, as read_file shows such lines.
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            text = data[len(bom):SNIFF_BYTES].decode(encoding, "surrogateescape")
            return TextFormat(bom, encoding, dominant_line_ending(text))
    head = data[:SNIFF_BYTES]
    encoding = "utf-8"
    # EDGE CASE: BOM-less UTF-16 is valid UTF-8 byte-wise (ASCII plus NULs); ask read_file's
    # classifier, so the file is edited in the encoding read_file showed it in.
    shown = classify(head[:READ_SNIFF_BYTES], lambda: b"")  # only its UTF-16 answer is used
    if shown is not None and shown.utf16 and TextFormat(b"", shown.name).round_trips(head):
        encoding = shown.name
    elif code_page is not None and (head.isascii() or not _utf8_prefix_is_valid(head)) and (
            TextFormat(b"", code_page).round_trips(head)):
        encoding = code_page
    elif not _utf8_prefix_is_valid(head):
        legacy = detect_legacy_encoding(head)
        if legacy is not None and TextFormat(b"", legacy).round_trips(head):
            encoding = legacy
    sample = head[:LINE_ENDING_SAMPLE * 4].decode(encoding, "surrogateescape")
    return TextFormat(b"", encoding, dominant_line_ending(sample))


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
