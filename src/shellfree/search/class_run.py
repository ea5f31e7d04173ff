"""The run of bytes from one small set that every match of a pattern holds: a prefilter for
patterns with no literal to look for.

``[a-z]{14,}`` or ``[0-9a-f]{32}`` give ``bytes.find`` nothing to look for, and a scan of the
whole text with the regex costs about 30 ns a byte (``re``, 428 ms over the 14 MB medium
benchmark tree). But every match of ``[a-z]{14,}`` is a run of 14 bytes of a-z: with the text
translated so that each byte of the set becomes :data:`MARK` and every other byte something
else (``bytes.translate``, about 1 ns a byte), the run is a literal, ``MARK * 14``, which
``bytes.find`` looks for (43 ms over the same tree, translation included). Only the lines
holding it are confirmed by the regex, and none when the pattern is the run itself.

Byte level is sound for any text: a character of a class is an ASCII byte of the set or, when
the class holds any non-ASCII character, a sequence of bytes >= 0x80, which then all count as
members; every character takes at least one byte, so a match of n characters from the set is a
run of at least n member bytes. No library offers this; the regex engines scan position by
position.
"""

from __future__ import annotations

import math

from shellfree._record import Record
from shellfree.search import regex_translate as T
from shellfree.search.byte_ranks import SHARES

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see shellfree/__init__.py)
if TYPE_CHECKING:
    from typing import Optional

__all__ = ["ClassRun", "required_run", "ascii_members", "MARK"]

# What a member byte becomes. The space is the commonest byte in source code (byte_ranks), so
# the literal finder looks for the run with bytes.find rather than jumping between marks, which
# are dense in translated text.
MARK = 0x20
_OTHER = 0x00

_ASCII = (1 << 128) - 1

# A run that is not the whole pattern is worth looking for when it is at least _MIN_LENGTH bytes
# long and carries at least _MIN_BITS bits: its length times -log2 of the share of text bytes
# in its set (byte_ranks.SHARES; the set's share capped at _MAX_SHARE, since the bytes of a run
# are far from independent: lines of 80 bytes are common where 0.97 ** 80 says otherwise).
# Measured on the medium benchmark tree against the scan (best of three CLI runs): \w{10,} (7.5
# bits) 0.62 s against 0.96, \S{30,} 0.37 against 1.21, .{120,} 0.31 against 3.24,
# [A-Z_]{4,} 0.25 against 0.34; a run almost every line holds loses, up to 0.6 µs a line to
# confirm it: [A-Z][a-z]+[A-Z] (a run of 3 letters, 2.8 bits) 0.48 s against 0.28.
_MIN_LENGTH = 3
_MIN_BITS = 4.0
_MAX_SHARE = 0.9


class ClassRun(Record):
    """Every match holds *length* consecutive bytes each of which *table* maps to :data:`MARK`.

    ``table`` is a ``bytes.translate`` table; ``exact``: the pattern is that run and nothing
    else (a repetition of one ASCII class), so a line holding it matches. ``sure``: for a
    repetition of one class with non-ASCII members too (``\\w{12,}``, ``.{40,}``), the table of
    its ASCII members alone: a run of *length* of those is a match (each is a character of the
    class), so only a line whose runs all take in bytes >= 0x80 needs the regex; else None."""

    table: bytes
    length: int
    exact: bool
    sure: Optional[bytes] = None

    @property
    def needle(self) -> bytes:
        return bytes((MARK,)) * self.length


class _Span(Record):
    """What any match of a node is made of: ASCII bytes of *mask* (bit i: byte i), bytes >=
    0x80 when *high*, at least *least* of them."""

    mask: int
    high: bool
    least: int


def required_run(hir, literals: Optional[tuple] = None) -> Optional[ClassRun]:
    """The most selective run every match of the translated pattern *hir* holds, or None when
    none is worth looking for (see _MIN_BITS): the pattern itself when it is a repetition of
    one ASCII class, any run being a match then.

    *literals*: the pattern's required literals, one of which every match holds. A literal of
    one ASCII character is a poor needle (``_`` of ``[A-Z]{2,}_[A-Z]{2,}`` is in most lines of
    Python, ``.`` of ``\\d+\\.\\d+`` in many): a run that carries more bits than they
    together do is looked for instead; longer literals are always better needles."""
    floor = 0.0
    if literals:
        if not all(len(lit) == 1 and lit.isascii() for lit in literals):
            return None
        share = min(sum(SHARES[ord(lit)] for lit in literals) / 1e6, _MAX_SHARE)
        floor = -math.log2(share) if share else math.inf
    top = _uncaptured(hir)
    whole = _span(top)
    repeats_class = _repeats_class(top)
    if repeats_class and not whole.high and whole.mask and not literals:
        return ClassRun(_table(whole), whole.least, True)
    items = top.items if isinstance(top, T.HConcat) else (top,)
    spans = [_span(item) for item in items]
    best: Optional[_Span] = None
    best_bits = 0.0
    # Any consecutive items of the top concatenation match consecutive bytes.
    for i in range(len(spans)):
        mask, high, least = 0, False, 0
        for span in spans[i:]:
            mask |= span.mask
            high = high or span.high
            least += span.least
            bits = _bits(mask, high, least)
            if least >= _MIN_LENGTH and bits > best_bits:
                best, best_bits = _Span(mask, high, least), bits
    if best is None or best_bits < max(_MIN_BITS, floor):
        return None
    sure = None
    if repeats_class and whole.mask and not literals:  # then best is whole: top is one item
        sure = _table(_Span(whole.mask, False, whole.least))
    return ClassRun(_table(best), best.least, False, sure)


def _table(span: _Span) -> bytes:
    return bytes(
        MARK if (b < 0x80 and span.mask >> b & 1) or (b >= 0x80 and span.high) else _OTHER
        for b in range(256)
    )


def _bits(mask: int, high: bool, least: int) -> float:
    share = sum(SHARES[b] for b in range(128) if mask >> b & 1)
    if high:
        share += sum(SHARES[0x80:])
    share = min(share / 1e6, _MAX_SHARE)
    return least * -math.log2(share) if share else 0.0


def _uncaptured(h):
    while isinstance(h, T.HCap):
        h = h.sub
    return h


def _span(h) -> _Span:
    if isinstance(h, T.HLit):
        mask = 0
        for c in h.text:
            if ord(c) < 0x80:
                mask |= 1 << ord(c)
        return _Span(mask, not h.text.isascii(), len(h.text))
    if isinstance(h, T.HClass):
        return _class_span(h.cls)
    if isinstance(h, T.HLook):
        return _Span(0, False, 0)
    if isinstance(h, T.HCap):
        return _span(h.sub)
    if isinstance(h, T.HRep):
        sub = _span(h.sub)
        return _Span(sub.mask, sub.high, sub.least * h.min)
    if isinstance(h, T.HConcat):
        parts = [_span(item) for item in h.items]
        return _Span(_union(parts), any(p.high for p in parts), sum(p.least for p in parts))
    if isinstance(h, T.HAlt):
        parts = [_span(item) for item in h.items]
        return _Span(_union(parts), any(p.high for p in parts), min(p.least for p in parts))
    return _Span(_ASCII, True, 0)


def _union(parts: list) -> int:
    mask = 0
    for p in parts:
        mask |= p.mask
    return mask


def ascii_members(cls) -> int:
    """The ASCII members of the class *cls* (bit i: character i)."""
    return _class_span(cls).mask


def _class_span(cls) -> _Span:
    exact = T.U.materialize(cls)
    if exact is None:
        # Built on a Unicode property: its ASCII members one by one, and non-ASCII ones assumed.
        mask = 0
        for b in range(128):
            if T.U.contains(cls, b):
                mask |= 1 << b
        return _Span(mask, True, 1)
    mask = 0
    high = False
    for lo, hi in exact.ranges:
        if hi >= 0x80:
            high = True
        for b in range(lo, min(hi, 0x7F) + 1):
            mask |= 1 << b
    return _Span(mask, high, 1)


def _repeats_class(top) -> bool:
    """Whether *top* repeats one class at least once: then a run of its ASCII members as long
    as its minimum is a match of it (a longer run holds a match of any upper bound)."""
    return (isinstance(top, T.HRep) and top.min >= 1
            and isinstance(_uncaptured(top.sub), T.HClass))
