"""The nine ways patch looks for ``old_string`` in a file, tried in the contract's order (§4.4.2).

Each strategy takes the file content and the pattern and returns the spans ``(start, end)`` it
matched, in the ORIGINAL content, in order; the first strategy with a match wins
(:data:`STRATEGIES`). Line strategies compare every window of as many lines as the pattern has
and span whole lines (without the last line's newline): their windows may overlap (``x\nx``
in three lines ``x`` is two windows), which Hermes counts as two matches, so a pattern that
fits twice is refused as ambiguous. Exact search advances past each occurrence ("aa" in "aaaa"
is two), as Hermes' does; the matcher keeps non-overlapping spans for replace_all.

EDGE CASE, a deliberate change: similarity is difflib's ratio without its *autojunk* heuristic.
Hermes keeps the default, under which every character that makes up more than 1 % of a string
of 200 or more is junk, so the score of two long texts depends on how repetitive they are, not
only on how they differ: the seven lines ``value_i = compute(value_{i-1}, factor=i)`` (286
characters) with one digit changed score 0.89 there and 0.997 here. block_anchor's thresholds
(0.50, 0.70) are applied to the plain ratio.
"""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import Callable, Sequence

from shellfree.engine.fuzzy_normalize import (
    NormalizedText, collapse_whitespace, normalize_unicode, unicode_ascii)

__all__ = [
    "APPROXIMATE_STRATEGIES",
    "BLOCK_ANCHOR_MIN_ONE",
    "BLOCK_ANCHOR_MIN_SEVERAL",
    "CONTEXT_LINE_MIN",
    "STRATEGIES",
    "Span",
]

Span = tuple[int, int]
Strategy = Callable[[str, str], list[Span]]

BLOCK_ANCHOR_MIN_ONE = 0.50
"""block_anchor: middle-line similarity needed when exactly one window has both anchors."""
BLOCK_ANCHOR_MIN_SEVERAL = 0.70
"""block_anchor: the similarity needed when several windows do."""
CONTEXT_LINE_MIN = 0.80
"""context_aware: similarity every non-blank pattern line needs with its window line."""

APPROXIMATE_STRATEGIES = frozenset({"block_anchor", "context_aware"})
"""Similarity strategies: refused under replace_all when they match more than once."""


def _similarity(a: str, b: str) -> float:
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


class _LikeLine:
    """Similarity of many lines to one fixed line: difflib analyses the fixed line once
    (``set_seq2``) and each candidate is tried against the cheap upper bounds first."""

    def __init__(self, fixed: str) -> None:
        self._matcher = SequenceMatcher(None, autojunk=False)
        self._matcher.set_seq2(fixed)

    def at_least(self, line: str, threshold: float) -> bool:
        """``_similarity(line, fixed) >= threshold``."""
        matcher = self._matcher
        matcher.set_seq1(line)
        return (matcher.real_quick_ratio() >= threshold and matcher.quick_ratio() >= threshold
                and matcher.ratio() >= threshold)


class _Lines:
    """A text split on ``\\n`` with each line's start offset."""

    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")
        self.starts: list[int] = []
        position = 0
        for line in self.lines:
            self.starts.append(position)
            position += len(line) + 1

    def span(self, first: int, count: int) -> Span:
        last = first + count - 1
        return self.starts[first], self.starts[last] + len(self.lines[last])


def _windows(content: str, pattern: str,
             same: Callable[[Sequence[str], int, Sequence[str]], bool]) -> list[Span]:
    """Every window of *content*'s lines for which ``same(lines, i, plines)``."""
    text, plines = _Lines(content), pattern.split("\n")
    count = len(plines)
    return [text.span(i, count) for i in range(len(text.lines) - count + 1)
            if same(text.lines, i, plines)]


def exact(content: str, pattern: str) -> list[Span]:
    """1. Every non-overlapping occurrence ("aa" in "aaaa" is found twice)."""
    spans, start = [], content.find(pattern)
    while start != -1:
        spans.append((start, start + len(pattern)))
        start = content.find(pattern, start + len(pattern))
    return spans


def _per_line(transform: Callable[[str], str]) -> Strategy:
    def strategy(content: str, pattern: str) -> list[Span]:
        wanted = [transform(p) for p in pattern.split("\n")]
        cache: dict[int, str] = {}

        def line(lines: Sequence[str], j: int) -> str:
            if j not in cache:
                cache[j] = transform(lines[j])
            return cache[j]

        return _windows(content, pattern, lambda lines, i, _p: all(
            line(lines, i + k) == w for k, w in enumerate(wanted)))

    return strategy


line_trimmed = _per_line(str.strip)
line_trimmed.__doc__ = "2. Lines equal once each is stripped."
indentation_flexible = _per_line(str.lstrip)
indentation_flexible.__doc__ = "4. Lines equal once leading whitespace is removed."


def _mapped_search(normal: NormalizedText, pattern: str) -> list[Span]:
    return [(normal.start(s), normal.end(e)) for s, e in exact(normal.text, pattern)]


def whitespace_normalized(content: str, pattern: str) -> list[Span]:
    """3. Runs of spaces/tabs collapsed to one space on both sides. EDGE CASE (#52491): the
    span's end covers the file's trailing whitespace only when the normalised match itself
    ended in a space, so a word-boundary space is not eaten."""
    wanted = collapse_whitespace(pattern).text
    return _mapped_search(collapse_whitespace(content), wanted)


_ESCAPES = {"\\n": "\n", "\\t": "\t", "\\r": "\r"}


def escape_normalized(content: str, pattern: str) -> list[Span]:
    """5. Only for a pattern holding literal ``\\n``/``\\t``/``\\r``: those made real."""
    if not any(seq in pattern for seq in _ESCAPES):
        return []
    for seq, char in _ESCAPES.items():
        pattern = pattern.replace(seq, char)
    return exact(content, pattern)


def trimmed_boundary(content: str, pattern: str) -> list[Span]:
    """6. Only the first and last lines stripped; the middle must match exactly."""
    plines = pattern.split("\n")
    first, last = plines[0].strip(), plines[-1].strip()
    middle = plines[1:-1]

    def same(lines: Sequence[str], i: int, _p: Sequence[str]) -> bool:
        n = len(plines)
        if lines[i].strip() != first or lines[i + n - 1].strip() != last:
            return False
        return n < 3 or list(lines[i + 1:i + n - 1]) == middle

    return _windows(content, pattern, same)


def unicode_normalized(content: str, pattern: str) -> list[Span]:
    """7. Typographic characters made ASCII on both sides (skipped when neither has any):
    exact, then line_trimmed, on the copies."""
    normal, wanted = normalize_unicode(content), normalize_unicode(pattern)
    if not normal.changed and not wanted.changed:
        return []
    spans = exact(normal.text, wanted.text) or line_trimmed(normal.text, wanted.text)
    return [(normal.start(s), normal.end(e)) for s, e in spans]


def _anchor_lines(pattern: str) -> list[str]:
    return [unicode_ascii(p).strip() for p in pattern.split("\n")]


def block_anchor(content: str, pattern: str) -> list[Span]:
    """8. First and last lines equal (stripped, unicode-normalised), the middle similar enough:
    0.50 when one window has both anchors, 0.70 when several do. Needs 2+ pattern lines."""
    plines = _anchor_lines(pattern)
    count = len(plines)
    if count < 2:
        return []
    text = _Lines(content)
    lines = [unicode_ascii(line).strip() for line in text.lines]
    candidates = [i for i in range(len(lines) - count + 1)
                  if lines[i] == plines[0] and lines[i + count - 1] == plines[-1]]
    if not candidates:
        return []
    threshold = BLOCK_ANCHOR_MIN_ONE if len(candidates) == 1 else BLOCK_ANCHOR_MIN_SEVERAL
    wanted_middle = "\n".join(plines[1:-1])
    return [text.span(i, count) for i in candidates
            if count <= 2 or _similarity("\n".join(lines[i + 1:i + count - 1]), wanted_middle)
            >= threshold]


def context_aware(content: str, pattern: str) -> list[Span]:
    """9. First and last lines at least 80 % similar, and so is every non-blank pattern line to
    its window line. EDGE CASE: shellfree requires 2+ pattern lines, like block_anchor — one
    80 %-similar line (``x = 1`` against ``x = 2``) is a different line, not a fuzzy match."""
    plines = [p.strip() for p in pattern.split("\n")]
    count = len(plines)
    if count < 2:
        return []
    text = _Lines(content)
    lines = [line.strip() for line in text.lines]
    like = [_LikeLine(p) for p in plines]

    def same(_lines: Sequence[str], i: int, _p: Sequence[str]) -> bool:
        if not (like[0].at_least(lines[i], CONTEXT_LINE_MIN)
                and like[-1].at_least(lines[i + count - 1], CONTEXT_LINE_MIN)):
            return False
        return all(like[k].at_least(lines[i + k], CONTEXT_LINE_MIN)
                   for k, p in enumerate(plines) if p)

    return _windows(content, pattern, same)


STRATEGIES: tuple[tuple[str, Strategy], ...] = (
    ("exact", exact),
    ("line_trimmed", line_trimmed),
    ("whitespace_normalized", whitespace_normalized),
    ("indentation_flexible", indentation_flexible),
    ("escape_normalized", escape_normalized),
    ("trimmed_boundary", trimmed_boundary),
    ("unicode_normalized", unicode_normalized),
    ("block_anchor", block_anchor),
    ("context_aware", context_aware),
)
"""The strategies in Hermes' order; the first that matches at least once wins."""
