"""A file opened for a patch: its text as the matcher sees it, and a way to edit its own bytes.

:class:`EditableFile` decodes a file in its own form (BOM and encoding, see
:mod:`shellfree.engine.write_encoding`) and offers ``view``: the text with CRLF made LF, which is
what the agent saw through read_file and what the fuzzy matcher searches. Edits found in the
view are applied to the original text with :meth:`EditableFile.apply`, mapping positions back
and writing new line breaks in the file's own ending, so every byte outside the edited region
stays exactly as it was (Hermes instead normalises the whole file, §4.3 step 6).
"""

from __future__ import annotations

import difflib
from bisect import bisect_left
from typing import Iterable

from shellfree.engine.fuzzy_match import Edit
from shellfree.engine.text_decoding import CodePage
from shellfree.engine.write_encoding import TextFormat, sniff_format
from shellfree.engine.write_pipeline import ExistingFile

__all__ = ["EditableFile", "NotRoundTrip", "unified_diff"]


class NotRoundTrip(ValueError):
    """The file's bytes do not survive decoding and encoding again (*encoding* named)."""

    def __init__(self, encoding: str) -> None:
        super().__init__(encoding)
        self.encoding = encoding


class EditableFile:
    """A file's text for editing: *raw* bytes on disk (None for a file a patch creates), their
    :class:`TextFormat`, the decoded *text* (BOM removed, line endings as stored) and ``view``
    (the same text with every CRLF made LF)."""

    __slots__ = ("raw", "format", "text", "view", "_crlf_at")

    def __init__(self, raw: bytes | None, fmt: TextFormat, text: str) -> None:
        self.raw = raw
        self.format = fmt
        self.text = text
        positions, parts, start = [], [], 0
        index = text.find("\r\n")
        while index != -1:
            parts.append(text[start:index])
            positions.append(index - len(positions))  # where its "\n" lands in the view
            start = index + 1  # keep the "\n"
            index = text.find("\r\n", start)
        parts.append(text[start:])
        self.view = "".join(parts)
        self._crlf_at = tuple(positions)

    @classmethod
    def from_bytes(cls, raw: bytes, code_page: CodePage | None = None) -> EditableFile:
        """Decodes *raw* (in *code_page* when the task knows how these bytes use a legacy code
        page, see :func:`~shellfree.engine.write_encoding.sniff_format`); raises
        :class:`NotRoundTrip` when an edit could not keep the rest of the bytes unchanged."""
        fmt = sniff_format(raw, code_page)
        if not fmt.round_trips(raw):
            raise NotRoundTrip(fmt.encoding)
        return cls(raw, fmt, fmt.decode(raw))

    def with_text(self, text: str) -> EditableFile:
        """The same file (same bytes on disk, same form) holding edited *text*."""
        return EditableFile(self.raw, self.format, text)

    @property
    def newline(self) -> str | None:
        """The file's dominant line ending (§3.4 step 6), used for new line breaks."""
        return self.format.newline

    def existing(self) -> ExistingFile:
        """This file as the write pipeline's view of what is on disk."""
        return ExistingFile(self.raw, self.format)

    def _to_text(self, x: int) -> int:
        # A view position maps past every CRLF whose "\n" lies before it; a span starting at a
        # CRLF's "\n" therefore starts at its "\r" and takes the whole line break.
        return x + bisect_left(self._crlf_at, x)

    def replacement(self, text: str) -> str:
        """*text* (LF line breaks) with the file's own line ending."""
        text = text.replace("\r\n", "\n")
        return text.replace("\n", "\r\n") if self.newline == "\r\n" else text

    def apply(self, edits: Iterable[Edit]) -> str:
        """The original text with *edits* (spans of :attr:`view`) applied."""
        text = self.text
        for edit in sorted(edits, key=lambda e: e.start, reverse=True):
            start, end = self._to_text(edit.start), self._to_text(edit.end)
            text = text[:start] + self.replacement(edit.text) + text[end:]
        return text


def unified_diff(old: str, new: str, path: str) -> str:
    """§4.3 step 9: ``difflib.unified_diff`` of the two texts, headers ``a/{path}`` and
    ``b/{path}``, lines joined with nothing."""
    return "".join(difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True),
        fromfile=f"a/{path}", tofile=f"b/{path}"))
