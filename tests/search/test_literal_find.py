"""LiteralFinder finds what bytes.find finds, before and after it gives up on the rare byte."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from shellfree.search.byte_ranks import RANKS
from shellfree.search.literal_find import LiteralFinder, any_present, rarest_byte

# A small alphabet holding rare bytes (X, K, _) and common ones, so literals recur, overlap
# and share their rare byte with near misses.
ALPHABET = b"XK_ex\n"


def occurrences(find, buf: bytes, pos: int, end: int) -> list[int]:
    """Every offset *find* (``find(buf, pos, end)``, like ``bytes.find``) reports, in order."""
    found = []
    while (at := find(buf, pos, end)) >= 0:
        found.append(at)
        pos = at + 1
    return found


def plain(literal: bytes):
    return lambda buf, pos, end: buf.find(literal, pos, end)


@settings(max_examples=500, deadline=None)
@given(
    literal=st.binary(min_size=1, max_size=5).map(lambda b: bytes(ALPHABET[x % 6] for x in b)),
    buf=st.binary(max_size=3000).map(lambda b: bytes(ALPHABET[x % 6] for x in b)),
    pos=st.integers(0, 3000),
    cut=st.integers(0, 3000),
)
def test_every_occurrence_is_found_in_order_as_by_bytes_find(literal, buf, pos, cut):
    end = max(len(buf) - cut, 0)
    ours = occurrences(LiteralFinder(literal).find, buf, pos, end)
    assert ours == occurrences(plain(literal), buf, pos, end)


def test_a_common_rare_byte_makes_it_fall_back_and_still_find_the_rest():
    # K is the literal's rarest byte but fills this buffer: after the free misses the finder
    # switches to bytes.find, and the occurrences before and after the switch are all found.
    literal = b"XKX_"
    buf = b"K" * 5000 + literal + b"K" * 5000 + literal + b"xx" + literal
    finder = LiteralFinder(literal)
    assert rarest_byte(literal) == 1 and not finder.plain
    ours = occurrences(finder.find, buf, 0, len(buf))
    assert ours == occurrences(plain(literal), buf, 0, len(buf))
    assert finder.plain


def test_a_rarely_seen_byte_keeps_the_jumps_and_a_common_one_uses_bytes_find():
    assert RANKS[ord("X")] < RANKS[ord("O")] < RANKS[ord("e")]
    assert rarest_byte(b"FIXME") == 2  # X
    assert not LiteralFinder(b"FIXME").plain
    assert LiteralFinder(b"return").plain  # its rarest byte, u, is common in code
    assert LiteralFinder(b"X").plain  # one byte: bytes.find is memchr already


def test_present_answers_for_the_whole_buffer():
    assert LiteralFinder(b"XXX").present(b"a\nXX\nXXX")
    assert not LiteralFinder(b"XXX").present(b"a\nXX\nXX")
    assert not LiteralFinder(b"XXX").present(b"")


@settings(max_examples=500, deadline=None)
@given(
    literals=st.lists(st.binary(min_size=1, max_size=5).map(
        lambda b: bytes(ALPHABET[x % 6] for x in b)), min_size=1, max_size=4),
    spots=st.lists(st.integers(0, 5), min_size=4, max_size=4),
    buf=st.binary(max_size=3000).map(lambda b: bytes(ALPHABET[x % 6] for x in b)),
)
def test_literals_sharing_a_byte_are_found_as_by_bytes_find(literals, spots, buf):
    # Each literal gets an X at a spot of its own (its "rarest byte" at that offset), so the
    # literals share X at different offsets; buffers full of X make the pass fall back.
    pairs = []
    for literal, spot in zip(literals, spots):
        k = spot % (len(literal) + 1)
        pairs.append((literal[:k] + b"X" + literal[k:], k))
    expected = any(literal in buf for literal, _ in pairs)
    assert any_present(buf, tuple(pairs), b"X") == expected


def test_the_fall_back_to_finds_starts_at_the_first_occurrence_not_ruled_out():
    # "XaX" by its second X: 16 misses on "Xb", then the X at 32 is the 17th, which makes the
    # pass fall back, and the occurrence that begins at that very X must still be found.
    assert any_present(b"Xb" * 16 + b"XaX", ((b"XaX", 2),), b"X")
    assert not any_present(b"Xb" * 16 + b"XbX", ((b"XaX", 2),), b"X")
    # "XX" by its second X: the one that begins one byte after i - k is not ruled out either.
    assert any_present(b"Xb" * 16 + b"XX", ((b"XX", 1),), b"X")
