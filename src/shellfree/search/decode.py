"""Turn a file's bytes into the stream ripgrep searches, and that stream into text.

rg's default encoding handling is "auto" (rg-semantics §2.2): a UTF-8 BOM is stripped, a
UTF-16 LE/BE BOM makes the whole file be transcoded to UTF-8, and everything else is searched
as raw bytes. Offsets and printed lines refer to that stream, so the stream is what this
module returns. The matcher runs on text decoded with ``surrogateescape``: valid UTF-8 becomes
characters and every invalid byte becomes one escape surrogate (U+DC80–U+DCFF), which encodes
back to exactly the original byte.
"""

from __future__ import annotations

import codecs

__all__ = ["BOMS", "TRANSCODED_BOMS", "search_stream", "read_stream", "to_text", "to_bytes",
           "ByteOffsets"]

_UTF8_BOM = b"\xef\xbb\xbf"
_UTF16LE_BOM = b"\xff\xfe"
_UTF16BE_BOM = b"\xfe\xff"
#: The byte-order marks :func:`search_stream` strips or decodes: a file starting with one is
#: not searched as its raw bytes.
BOMS = (_UTF8_BOM, _UTF16LE_BOM, _UTF16BE_BOM)
#: Those of :data:`BOMS` whose file is searched transcoded, not as its own bytes.
TRANSCODED_BOMS = (_UTF16LE_BOM, _UTF16BE_BOM)


def search_stream(data: bytes) -> bytes:
    """The bytes rg searches for a file whose content is *data*."""
    return read_stream(data)[0]


#: How much of a file rg's transcoder (encoding_rs_io) decodes for one read at most.
TRANSCODER_CHUNK = 8192


def read_stream(data: bytes) -> tuple[bytes, tuple[int, ...]]:
    """:func:`search_stream` of *data*, and for a file rg transcodes (UTF-16 with a byte-order
    mark) where each of its transcoder's reads ends in it (() for any other file).

    rg strips a UTF-8 byte-order mark and transcodes a file with a UTF-16 one (an invalid unit
    becomes U+FFFD, as "replace" does). Each read of its transcoder decodes the next 8 KiB of
    the file (the first one holds the mark), so a read's output ends at the decoding of a
    multiple of 8 KiB; a surrogate pair or code unit cut there comes with the next read, and
    the U+FFFD of an odd last byte in a read of its own at the end. Measured with ``-v -m1
    --json`` on UTF-16 files of 9- to 40-byte lines: rg's first fill ends at the last newline
    within 4,095 bytes, the second within 8,191, the third 12,287.
    """
    if data[:3] == _UTF8_BOM:
        return data[3:], ()
    if data[:2] == _UTF16LE_BOM:
        decoder = codecs.getincrementaldecoder("utf-16-le")("replace")
    elif data[:2] == _UTF16BE_BOM:
        decoder = codecs.getincrementaldecoder("utf-16-be")("replace")
    else:
        return data, ()
    pieces = []
    ends = []
    total = 0
    for start in range(0, len(data), TRANSCODER_CHUNK):
        chunk = data[max(start, 2) : start + TRANSCODER_CHUNK]  # the mark is not decoded
        pieces.append(decoder.decode(chunk).encode("utf-8"))
        total += len(pieces[-1])
        ends.append(total)
    pieces.append(decoder.decode(b"", True).encode("utf-8"))
    if pieces[-1]:
        ends.append(total + len(pieces[-1]))
    return b"".join(pieces), tuple(ends)


def to_text(stream: bytes) -> str:
    """Decode a search stream losslessly (invalid bytes become escape surrogates)."""
    return stream.decode("utf-8", "surrogateescape")


def to_bytes(text: str) -> bytes:
    """The exact bytes a piece of :func:`to_text` output came from."""
    return text.encode("utf-8", "surrogateescape")


class ByteOffsets:
    """Character index in a :func:`to_text` text → byte offset in the stream it came from.

    A cursor: each call encodes only the characters between the previous index and this one,
    so positions asked in (roughly) increasing order cost one pass over the text in all. An
    ASCII text needs no counting.
    """

    __slots__ = ("text", "ascii", "char", "byte")

    def __init__(self, text: str) -> None:
        self.text = text
        self.ascii = text.isascii()  # O(1) for a str
        self.char = 0
        self.byte = 0

    def of(self, index: int) -> int:
        if self.ascii:
            return index
        if index >= self.char:
            self.byte += len(to_bytes(self.text[self.char : index]))
        else:
            self.byte -= len(to_bytes(self.text[index : self.char]))
        self.char = index
        return self.byte
