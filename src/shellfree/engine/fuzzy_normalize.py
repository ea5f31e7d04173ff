"""Normalised copies of a text that remember where each character came from.

:class:`NormalizedText` replaces every match of a pattern (a run of spaces and tabs, a smart
quote, an em dash) and maps positions in the copy back to the original, so a match found in the
copy edits exactly the right characters of the file (§4.4.2 strategies 3 and 7).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Callable

__all__ = ["NormalizedText", "collapse_whitespace", "normalize_unicode", "UNICODE_MAP"]

UNICODE_MAP: dict[str, str] = {
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"',   # smart double quotes
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'",   # smart single quotes
    "\u2014": "--",                                                # em dash
    "\u2013": "-",                                                 # en dash
    "\u2026": "...",                                               # ellipsis
    "\u00a0": " ",                                                 # no-break space
    "\u2212": "-",                                                 # minus sign
    **{chr(c): " " for c in range(0x2000, 0x200B)},                # en quad … hair space
    "\u202f": " ", "\u205f": " ", "\u3000": " ",                   # narrow, math, ideographic
}
"""Typographic characters and their ASCII stand-ins (§4.4.2 strategy 7)."""

_UNICODE_PATTERN = re.compile("[" + "".join(re.escape(c) for c in UNICODE_MAP) + "]")
_WHITESPACE_RUN = re.compile(r"[ \t]+")


class NormalizedText:
    """*original* with every match of *pattern* replaced by ``replace(match)``.

    ``text`` is the copy. Each replacement is a *change* (its position in the copy, its length
    there, its position and length in the original). A position in the copy that falls strictly
    inside a change has no exact counterpart in the original (:meth:`is_boundary` is False).
    """

    def __init__(self, original: str, pattern: re.Pattern[str],
                 replace: Callable[[str], str]) -> None:
        self.original = original
        pieces: list[str] = []
        self._copy_at: list[int] = []
        self._copy_len: list[int] = []
        self._orig_at: list[int] = []
        self._orig_len: list[int] = []
        self._shift: list[int] = []  # copy minus original length, through change k
        last = shift = 0
        for found in pattern.finditer(original):
            replacement = replace(found.group())
            if replacement == found.group():
                continue
            pieces.append(original[last:found.start()])
            pieces.append(replacement)
            self._copy_at.append(found.start() + shift)
            self._copy_len.append(len(replacement))
            self._orig_at.append(found.start())
            self._orig_len.append(found.end() - found.start())
            shift += len(replacement) - (found.end() - found.start())
            self._shift.append(shift)
            last = found.end()
        pieces.append(original[last:])
        self.text = "".join(pieces)

    @property
    def changed(self) -> bool:
        return bool(self._copy_at)

    def _change_at(self, x: int) -> int:
        """The index of the last change starting at or before copy position *x* (or -1)."""
        return bisect_right(self._copy_at, x) - 1

    def is_boundary(self, x: int) -> bool:
        """Whether copy position *x* is not strictly inside a replacement."""
        k = self._change_at(x)
        return k < 0 or not (self._copy_at[k] < x < self._copy_at[k] + self._copy_len[k])

    def start(self, x: int) -> int:
        """The original position where a span starting at copy position *x* starts."""
        k = self._change_at(x)
        if k >= 0 and x < self._copy_at[k] + self._copy_len[k]:
            return self._orig_at[k]
        return x - (self._shift[k] if k >= 0 else 0)

    def end(self, x: int) -> int:
        """The original position where a span ending at copy position *x* ends; a span
        ending inside or at the end of a replacement takes the whole original run."""
        if x <= 0:
            return 0
        k = self._change_at(x - 1)
        if k >= 0 and x - 1 < self._copy_at[k] + self._copy_len[k]:
            return self._orig_at[k] + self._orig_len[k]
        return x - (self._shift[k] if k >= 0 else 0)

    def to_copy(self, p: int) -> int | None:
        """The copy position of original position *p*, or None if *p* is inside a change."""
        k = bisect_right(self._orig_at, p) - 1
        if k >= 0 and self._orig_at[k] < p < self._orig_at[k] + self._orig_len[k]:
            return None
        if k >= 0 and p == self._orig_at[k]:
            return self._copy_at[k]
        return p + (self._shift[k] if k >= 0 else 0)


def collapse_whitespace(text: str) -> NormalizedText:
    """*text* with each run of spaces and tabs made one space (strategy 3)."""
    return NormalizedText(text, _WHITESPACE_RUN, lambda run: " ")


def normalize_unicode(text: str) -> NormalizedText:
    """*text* with typographic characters made ASCII (strategy 7)."""
    return NormalizedText(text, _UNICODE_PATTERN, lambda char: UNICODE_MAP[char])


def unicode_ascii(text: str) -> str:
    """Just the ASCII copy of *text* (for line-by-line comparisons)."""
    if not _UNICODE_PATTERN.search(text):
        return text
    return _UNICODE_PATTERN.sub(lambda m: UNICODE_MAP[m.group()], text)
