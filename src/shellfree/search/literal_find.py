"""Find a literal in a byte buffer by its rarest byte.

``bytes.find`` runs CPython's general substring search, about 0.35-0.45 ns a byte for the short
needles people grep for, while ``bytes.find`` of one byte is ``memchr``, ten times faster. So,
like the rare-byte prefilter rg's literal searches use, :class:`LiteralFinder` jumps from one
occurrence of the literal's rarest byte to the next and checks the literal around each: over
50 MB of text, ``FIXME`` is found in 0.036 ns a byte instead of 0.357. Each false hit costs a
Python loop turn (about as much as 300 bytes of ``bytes.find``), so when the byte turns out to be
common in a buffer, the finder switches to ``bytes.find`` for the rest of that buffer.

No library offers this: the ``re`` and ``regex`` modules scan slower than ``bytes.find``.
"""

from __future__ import annotations

from shellfree.search.byte_ranks import RANKS

# The finder gives up on the rare byte once it has had more than _FREE_MISSES false hits and
# more than one per _MISS_SPACING bytes scanned: beyond that density bytes.find is cheaper.
_FREE_MISSES = 16
_MISS_SPACING = 256
# A rarest byte ranked above this is too common to start with: in the standard library that
# ranks are drawn from, rank 200 ('L') comes once in 391 bytes and rank 225 ('b', and 'E' of
# Error at 224) once in 147, where the jumps already cost more than bytes.find
# (``return``: 85 ms against 80 on the medium tree).
_RARE_RANK = 200


def rarest_byte(literal: bytes) -> int:
    """The offset in *literal* (non-empty) of its rarest byte, by :data:`RANKS`."""
    return min(range(len(literal)), key=lambda i: RANKS[literal[i]])


def jumps_pay(literal: bytes, offset: int) -> bool:
    """Whether jumping between occurrences of ``literal[offset]`` should beat ``bytes.find``:
    not for a one-byte literal (``bytes.find`` runs memchr for it already) nor for a byte that
    is common in text."""
    return len(literal) > 1 and RANKS[literal[offset]] <= _RARE_RANK


class LiteralFinder:
    """Finds one non-empty literal in one buffer, leftmost first, like ``buf.find``.

    Make one per buffer: the switch to ``bytes.find`` holds for the buffer it was made on.
    """

    __slots__ = ("literal", "rare", "offset", "plain", "misses", "start")

    def __init__(self, literal: bytes, offset: int | None = None) -> None:
        self.literal = literal
        self.offset = rarest_byte(literal) if offset is None else offset
        self.rare = literal[self.offset : self.offset + 1]
        self.plain = not jumps_pay(literal, self.offset)
        self.misses = 0
        self.start = -1

    def find(self, buf: bytes, pos: int, end: int) -> int:
        """The first offset >= *pos* where the literal lies wholly before *end*, or -1."""
        literal = self.literal
        if self.plain:
            return buf.find(literal, pos, end)
        k, rare = self.offset, self.rare
        if self.start < 0:
            self.start = pos
        # An occurrence at s has its rare byte at s + k: the rare bytes come in the order of
        # the occurrences, so the first one that checks out is the leftmost.
        i = buf.find(rare, pos + k, end)
        while i >= 0:
            s = i - k
            if buf.startswith(literal, s, end):
                return s
            self.misses += 1
            if self.misses > _FREE_MISSES and self.misses * _MISS_SPACING > i - self.start:
                self.plain = True
                return buf.find(literal, s + 1, end)
            i = buf.find(rare, i + 1, end)
        return -1

    def present(self, buf: bytes) -> bool:
        """Whether the literal occurs anywhere in *buf*."""
        return self.find(buf, 0, len(buf)) >= 0


def any_present(buf: bytes, pairs: tuple[tuple[bytes, int], ...], byte: bytes) -> bool:
    """Whether *buf* holds one of the literals of *pairs*, each ``(literal, offset)`` with the
    same rarest byte *byte* at that offset (``FIXME`` and ``XXX`` of ``TODO|FIXME|XXX|HACK``
    both have ``X``): one pass over that byte's occurrences checks them all, where a
    :class:`LiteralFinder` each would make a pass of its own. Like a LiteralFinder, it goes
    over to ``bytes.find`` when the byte turns out to be common in *buf*."""
    misses = 0
    i = buf.find(byte)
    while i >= 0:
        for literal, k in pairs:
            # i < k gives a negative start, which counts from the end of buf: what it finds
            # there is an occurrence too.
            if buf.startswith(literal, i - k):
                return True
        misses += 1
        if misses > _FREE_MISSES and misses * _MISS_SPACING > i:
            # Every occurrence with its byte at or before i has been ruled out.
            return any(buf.find(literal, max(i - k + 1, 0)) >= 0 for literal, k in pairs)
        i = buf.find(byte, i + 1)
    return False
