"""The value one file read produces, its JSON form, the read limits, and the ``LINE_NUM|CONTENT``
rendering.

:class:`ReadResult` is what the file-ops layer (:mod:`shellfree.engine.read_text`) returns and
the tool layer (:mod:`shellfree.engine.read_file`) post-processes; ``to_dict`` is the single
place it becomes the contract's JSON object (§2.6 step 1). :func:`number_lines` renders a page
(§1.4).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from shellfree.engine import messages
from shellfree.engine.read_tracking import StatKey
from shellfree.engine.text_decoding import CodePage

__all__ = [
    "MAX_LINE_LENGTH",
    "NOT_FOUND_PREFIX",
    "ReadLimits",
    "ReadResult",
    "clamp_line",
    "number_lines",
]

NOT_FOUND_PREFIX = messages.FILE_NOT_FOUND.partition("{")[0].rstrip()
"""``"File not found:"``: the start of the error the negative cache remembers (§2.6 step 2)."""

MAX_LINE_LENGTH = 2000
"""Hermes ``max_line_length``: characters of one line shown before ``... [truncated]`` (§1.2)."""


@dataclass(frozen=True, slots=True)
class ReadResult:
    """One read of a file (or the refusal of it), before the tool layer's extras.

    The fields up to *similar_files* are the contract's ``ReadResult`` (§2.6, §2.7);
    *encoding* is shellfree's addition, set only when the page was not decoded as UTF-8
    (``"cp1252"``, ``"shift_jis"``, ``"utf-16-le"``, …). The fields after *similar_files* never
    reach the JSON: they tell the tool layer what was shown, for the read bookkeeping.

    *path* is the file actually read (a unicode variant of the requested one, §2.5);
    *version* its :data:`~shellfree.engine.read_tracking.StatKey` when it did not change during
    the read (None otherwise); *first_line*..*last_line* the lines shown (``last_line`` is
    ``first_line - 1`` when none were); *reaches_end* whether the page ended at the file's
    last line; *clamped* whether any shown line was cut; *code_page* the legacy code page
    the page was decoded with (None: UTF-8 throughout, or UTF-16).
    """

    content: str = ""
    total_lines: int = 0
    file_size: int = 0
    truncated: bool = False
    truncated_lines: bool | None = None
    hint: str | None = None
    is_binary: bool = False
    is_image: bool = False
    encoding: str | None = None
    error: str | None = None
    similar_files: tuple[str, ...] = ()
    # -- bookkeeping only, never in the JSON -----------------------------------------------
    path: str | None = None
    version: StatKey | None = None
    first_line: int = 1
    last_line: int = 0
    reaches_end: bool = False
    clamped: bool = False
    code_page: CodePage | None = None

    @property
    def not_found(self) -> bool:
        """Whether this is the "File not found" result (§2.5)."""
        return self.error is not None and self.error.startswith(NOT_FOUND_PREFIX)

    def to_dict(self) -> dict[str, Any]:
        """The contract's JSON object: keys in the order ``content``, ``total_lines``,
        ``file_size``, ``truncated``, ``truncated_lines``, ``hint``, ``is_binary``,
        ``is_image``, then shellfree's ``encoding``, then ``error`` and ``similar_files``;
        None and empty-list values are left out, false and zero values kept (§2.6 step 1)."""
        out: dict[str, Any] = {
            "content": self.content,
            "total_lines": self.total_lines,
            "file_size": self.file_size,
            "truncated": self.truncated,
        }
        if self.truncated_lines is not None:
            out["truncated_lines"] = self.truncated_lines
        if self.hint is not None:
            out["hint"] = self.hint
        out["is_binary"] = self.is_binary
        out["is_image"] = self.is_image
        if self.encoding is not None:
            out["encoding"] = self.encoding
        if self.error is not None:
            out["error"] = self.error
        if self.similar_files:
            out["similar_files"] = list(self.similar_files)
        return out


@dataclass(frozen=True, slots=True)
class ReadLimits:
    """read_file's configurable limits (Hermes ``tool_output`` and ``file_read_max_chars``,
    §1.2): *max_lines* caps ``limit``, *max_line_length* clamps each shown line, *max_chars*
    is the page's character budget."""

    max_lines: int = 2000
    max_line_length: int = MAX_LINE_LENGTH
    max_chars: int = 100_000


def clamp_line(line: str, max_length: int = MAX_LINE_LENGTH, cut: bool = False) -> str:
    """*line* cut to *max_length* characters plus ``... [truncated]`` when longer, or when
    *cut* says its bytes were already cut short while reading (§1.4)."""
    if len(line) > max_length or cut:
        return line[:max_length] + messages.LINE_TRUNCATED
    return line


def number_lines(lines: Sequence[str], offset: int, max_length: int = MAX_LINE_LENGTH,
                 cut: frozenset[int] = frozenset()) -> tuple[str, bool]:
    """The page as ``LINE_NUM|CONTENT`` lines joined with ``"\\n"``, numbered from *offset*
    with no padding (§1.4), and whether any line was clamped. *cut* holds the indexes (in
    *lines*) of lines whose bytes were cut short while reading."""
    clamped = False
    out = []
    for index, line in enumerate(lines):
        if len(line) > max_length or index in cut:
            clamped = True
            line = clamp_line(line, max_length, cut=True)
        out.append(f"{offset + index}|{line}")
    return "\n".join(out), clamped
