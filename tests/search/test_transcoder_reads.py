"""decode.read_stream: where each read of rg's UTF-16 transcoder ends in the search
stream, and the fills rg builds from those reads (against the binary)."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shellfree.search.decode import TRANSCODER_CHUNK, read_stream, search_stream
from tests.search.test_rg_search import same

LE, BE = b"\xff\xfe", b"\xfe\xff"


def transcoder_read_ends(data: bytes) -> tuple[int, ...]:
    return read_stream(data)[1]


def test_a_read_decodes_the_next_8_kib_of_the_file():
    text = "".join("%09d\n" % i for i in range(9000))  # ASCII: one byte per two of the file
    data = LE + text.encode("utf-16-le")
    ends = transcoder_read_ends(data)
    # The first 8 KiB hold the mark and 4,095 units; every later read 4,096 more.
    assert ends[:3] == (4095, 8191, 12287)
    assert len(ends) == -(-len(data) // TRANSCODER_CHUNK)
    assert ends[-1] == len(search_stream(data)) == len(text)


def test_a_surrogate_pair_cut_by_a_read_comes_with_the_next():
    # The pair's high half is the last unit of the first 8 KiB: nothing of it comes before.
    head = "a" * ((TRANSCODER_CHUNK - len(LE)) // 2 - 1)
    data = LE + (head + "\U0001F600" + "b").encode("utf-16-le")
    assert transcoder_read_ends(data) == (len(head), len(head) + 4 + 1)


def test_the_odd_last_byte_is_a_read_of_its_own():
    data = BE + "ab\n".encode("utf-16-be") + b"x"
    assert transcoder_read_ends(data) == (3, 6)  # then U+FFFD, three bytes of UTF-8
    assert search_stream(data) == b"ab\n\xef\xbf\xbd"


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=3 * TRANSCODER_CHUNK), st.sampled_from(["utf-16-le", "utf-16-be"]))
def test_the_reads_decode_the_file_as_one_decoding_does(body, encoding):
    # Invalid units, lone surrogates, pairs and odd lengths across the 8 KiB reads.
    stream, ends = read_stream((LE if encoding == "utf-16-le" else BE) + body)
    assert stream == body.decode(encoding, "replace").encode("utf-8")
    assert list(ends) == sorted(ends) and (ends[-1] if ends else 0) == len(stream)


def test_a_file_rg_does_not_transcode_has_no_such_reads():
    assert transcoder_read_ends(b"plain\n") == ()
    assert transcoder_read_ends(b"\xef\xbb\xbfutf-8 with a mark\n") == ()


def _utf16(text: str, encoding: str = "utf-16-le") -> bytes:
    return (LE if encoding == "utf-16-le" else BE) + text.encode(encoding)


_LINES = "".join("%09d\n" % i for i in range(9000))
_LATER = "zz\n" * 3000 + _LINES  # no selected line under -v zz before the third read


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths")
@pytest.mark.parametrize(
    "data, args",
    [
        # -v -m1 stops in the first fill, which is the transcoder's first read (rg: 4,090
        # bytes searched, the last line end in its 4,095 bytes).
        pytest.param(_utf16(_LINES), ["-v", "-m1", "--json", "zz"], id="first-read"),
        pytest.param(_utf16(_LINES, "utf-16-be"), ["-v", "-m1", "--json", "zz"],
                     id="first-read-be"),
        pytest.param(_utf16(_LATER), ["-v", "-m1", "--json", "zz"], id="third-read"),
        pytest.param(_utf16("é日本\U0001F600 line\n" * 3000), ["-v", "-m2", "--json", "zz"],
                     id="non-ascii"),
        pytest.param(_utf16(_LINES) + b"x", ["-v", "-m1", "-A2", "--json", "zz"],
                     id="odd-length"),
    ],
)
@pytest.mark.parametrize("target", [["a.txt"], ["--no-mmap", "a.txt"], []])
def test_fills_follow_the_transcoder_reads(isolated, reference_rg, data, args, target):
    (isolated / "a.txt").write_bytes(data)
    same(reference_rg, [*args, *target])
