"""Binary detection and ``--json`` statistics against rg 15.1: where rg's reading stopped.

rg decides a file is binary only if it read the bytes holding the NUL, and its ``bytes_searched``
counts what it consumed. Both depend on how it reads: 64 KiB fills after a 3-byte first read
for a streamed file (the fill holding a NUL is never searched), lines kept back for context
between fills, one whole-file buffer for memory-mapped files and multi-line searches (only the
first 64 KiB pre-scanned, later NULs noticed in the lines handed to the printer), and an early
stop for -m, -l and -q. Every case runs through both rg and shellfree (``same``), so each
expectation is rg's own output.
"""

from __future__ import annotations

import sys

import pytest

from tests.search.test_rg_search import same

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths")


# 10-byte lines with a NUL in the second fill of rg's line buffer, and one in the third.
_LINES = b"".join(b"line %05d\n" % i for i in range(20000))
NUL_2ND_FILL = _LINES[:70000] + b"\0" + _LINES[70000:]
NUL_3RD_FILL = _LINES[:140000] + b"\0" + _LINES[140000:]


def _write(name: str, data: bytes) -> None:
    with open(name, "wb") as f:
        f.write(data)


# UTF-16BE "ab\ncd\ne\n" and one odd byte, which rg decodes to U+FFFD at the end.
_UTF16_ODD = b"\xfe\xff" + "ab\ncd\ne\n".encode("utf-16-be") + b"A"


def _big() -> None:
    # 9000 lines of 11 bytes; the NUL lands inside line 6364, past the first 64 KiB.
    data = bytearray("".join("line %05d\n" % i for i in range(9000)).encode())
    data[70000] = 0
    _write("big.txt", bytes(data))


@pytest.mark.parametrize(
    "data, args",
    [
        # Context options keep the last before-context + 1 lines in the buffer between fills;
        # quitting at binary data leaves them uncounted (rg: "bytes_searched":0 for the first).
        (b"x\nab\x00", ["-B1", "--json", "zzz"]),
        (b"x\nab\x00", ["-A1", "--json", "zzz"]),
        (b"\n\n\nab\x00", ["-B1", "--json", "zzz"]),
        (b"\n\n\nab\x00", ["-A1", "--json", "zzz"]),
        (b"\n\n\nab\x00", ["-B2", "--json", "zzz"]),
        (b"\n\n\nab\x00", ["-A2", "-B1", "--json", "zzz"]),
        (b"a\n\n\nb\n\x00", ["-C3", "--json", "zzz"]),
        # ...but not the lines up to the last one printed.
        (b"x\n\n\nab\x00", ["-A1", "--json", "x"]),
        (b"\nx\n\nab\x00", ["-B1", "--json", "x"]),
        # -m with after-context reads on for the missing context lines, into the NUL's fill.
        (b"xb\nab\n\n\x00", ["-m1", "-A1", "--json", "b"]),
        (b"xb\nab\n\n\nc\n\x00", ["-m1", "-A1", "b"]),
        (b"xb\nab\n\n\x00", ["-m1", "--json", "b"]),
        # Under -v, -m stops after the next line the regex matches, or at the fill's end.
        (b"\n\na\nbaax\n\n\x00\n", ["-v", "-m1", "a"]),
        (b"\n\na\nbaax\n\n\x00\n", ["-v", "-m1", "--json", "a"]),
        (b"\n\na\nbaax\n\nb\na\nb\n", ["-v", "-m3", "--json", "a"]),
        # The read that reaches the end of a file does not know it did: an unterminated last
        # line waits for the next read, which a stop before it never makes.
        (b"abc\ndef", ["-v", "-m1", "--json", "zzz"]),
        (b"abc\ndef\nghi", ["-v", "-m2", "-B1", "--json", "zzz"]),
        (b"abc\nabc\ndef", ["-v", "-m1", "--json", "def"]),
        (b"abc\ndef", ["-v", "-m2", "--json", "zzz"]),  # the last line is selected: read
        (b"abc\ndef\n", ["-v", "-m1", "--json", "zzz"]),
        # The fill that searched a line is the one that read its end: "b\n" after a 3-byte
        # first read "a\nb" is in the second fill.
        (b"a\nb\nc\nd\n", ["-v", "-m2", "--json", "zz"]),
        (b"a\nb\nzz\nd\n", ["-v", "-m2", "--json", "zz"]),
        # \A or \z: line by line, the position is the end of the last selected line.
        (b"a\nb\nc\nd\n", ["-v", "-m2", "--json", "zz\\z"]),
        (b"a\nzz\nc\nd\n", ["-v", "-m2", "--crlf", "--json", "\\Azz"]),
        # -m with after-context: rg reads on for context lines the match's fill lacks, and
        # counts what it rolled out before the fill that completed them (all, when the file
        # ends first); matching context lines move the position on too.
        (b"xa\nb\nc", ["-m1", "-A3", "--json", "a"]),
        (b"xa\nb\nc", ["-m1", "-A2", "--json", "a"]),
        (b"xa\nb\nc\n", ["-m1", "-A2", "--json", "a"]),
        (b"b\nxa\nb\nc\n", ["-m1", "-A2", "--json", "a"]),
        (b"xa\nya\nb\nc\n", ["-m1", "-A1", "--json", "a"]),
        (b"q\nw\nxa\nb\nc\nya", ["-m1", "-C1", "--json", "a"]),
        # The summary printers squash a binary file they read the NUL of: -v -l and -v -q
        # read on, --files-without-match never stops, and a squashed file is "without match"
        # for the exit status while nothing is printed.
        (b"\n\n\n\n\nab\x00", ["-v", "-l", "zzz"]),
        (b"\n\na\nbaax\n\n\x00\n", ["-v", "-q", "a"]),
        # ...unless rg searches line by line (\A or \z): then -v -l and -v -q stop at the first
        # selected line, and a file whose first fill holds one is listed (or found).
        (b"\nabc\nde\x00f\n", ["-v", "-l", "\\Azzz"]),
        (b"\nabc\nde\x00f\n", ["-v", "-l", "zzz\\z"]),
        (b"\nabc\nde\x00f\n", ["-v", "-l", "\\Azzz|q"]),
        (b"\nabc\nde\x00f\n", ["-v", "-q", "\\Azzz"]),
        (b"\nabc\nde\x00f\n", ["-v", "--files-without-match", "\\Azzz"]),
        (b"\nabc\nde\x00f\n", ["-v", "-c", "\\Azzz"]),
        (b"zzz first\nabc\nde\x00f\n", ["-v", "-l", "\\Azzz"]),  # selected in the NUL's fill
        (b"zzz\nabc\nde\x00f\n", ["-v", "-q", "\\Azzz"]),
        # Otherwise -m counts one selected line per fill: the printer's stop ends the fill's
        # inverted scan, not the search, which sinks the next fill's first selected line
        # (content-parity seed 38001811).
        pytest.param(NUL_2ND_FILL, ["-v", "-m1", "-l", "zzz"], id="nul-2nd-fill-m1-l"),
        pytest.param(NUL_2ND_FILL, ["-v", "-m2", "-l", "zzz"], id="nul-2nd-fill-m2-l"),
        pytest.param(NUL_3RD_FILL, ["-v", "-m2", "-l", "zzz"], id="nul-3rd-fill-m2-l"),
        pytest.param(NUL_3RD_FILL, ["-v", "-m3", "-l", "zzz"], id="nul-3rd-fill-m3-l"),
        pytest.param(NUL_3RD_FILL, ["-v", "-m2", "-q", "zzz"], id="nul-3rd-fill-m2-q"),
        pytest.param(NUL_3RD_FILL, ["-v", "-m3", "-q", "zzz"], id="nul-3rd-fill-m3-q"),
        pytest.param(NUL_3RD_FILL, ["-v", "-m3", "--files-without-match", "zzz"], id="nul-3rd-fill-m3--files-without-match"),
        (b"\nO\x9f\x00", ["--files-without-match", "x?"]),
        (b"ab\n\n\x00", ["--files-without-match", "b"]),
        (b"\nabbaab\n\x00", ["--files-without-match", "^$"]),
        # A multi-line search counts its whole buffer as searched, wherever -m stopped it.
        (b"a\nb\na\nb\nc\n", ["-U", "-m1", "--json", "a\\n"]),
        (b"\n\nn", ["-U", "-m2", "--json", "^\\n"]),
        # -U reads the whole file and checks its first 64 KiB before searching.
        (b"\nNo\x00", ["-U", "\\x0A"]),
        (b"\nNo\x00", ["-U", "--json", "\\x0A"]),
        (b"\nNo\x00", ["-U", "-c", "^\\n"]),
        (b"\nNo\x00", ["-U", "-v", "^\\n"]),
        (b"\nNo\x00", ["-U", "--files-without-match", "^\\n"]),
    ],
)
def test_walked(isolated, reference_rg, data, args):
    _write("a.txt", data)
    same(reference_rg, args)


@pytest.mark.parametrize(
    "data, args",
    [
        # A memory-mapped file counts as searched up to where rg stopped, or its NUL if earlier.
        (b"ab\x00b", ["-m1", "--json", "^"]),
        (b"\n\n\x00ab\na\n", ["-m1", "--json", "a|b"]),
        (b"\n\nx\x00bax\n\n\n\nab", ["-m1", "-A1", "--json", "a"]),
        (b"\n\na\nbaax\n\n\x00\n", ["-v", "-m1", "--json", "a"]),
        (b"\n\na\nbaax\n\n\x00\n", ["-v", "-m1", "--json", "--no-mmap", "a"]),
        # A streamed file's before-context line is handed to the printer with its match, so
        # after binary data seen in the match's fill: the printer stops at it, silently.
        (b"\nxa\x00", ["-B1", "a", "--no-mmap"]),
        (b"\nx\na\x00", ["-B2", "a", "--no-mmap"]),
        (b"x\nxa\x00", ["-C1", "x", "--no-mmap"]),
        (b"x\nxa\x00\nb\n", ["-A1", "-m1", "x", "--no-mmap"]),
        # A streamed multi-line search keeps NULs and sees one checked before searching.
        (b"\n\na\n\x00", ["-U", "^", "--no-mmap"]),
        (b"xb\n\n\n\nx\x00\nbababa", ["-U", "^", "--no-mmap"]),
        # A mapped file that needs transcoding is read through rg's decoder in fills, as if
        # streamed: the U+FFFD of a UTF-16 file's odd last byte comes in a read of its own.
        (_UTF16_ODD, ["-v", "-m1", "--json", "zz|a"]),
        (_UTF16_ODD, ["-v", "-m1", "-U", "--json", "zz|a"]),
        (_UTF16_ODD, ["-v", "-m1", "--json", "--no-mmap", "zz|a"]),
        (_UTF16_ODD[:-1], ["-v", "-m1", "--json", "zz|a"]),
        # So is one with a UTF-8 mark, which the reader drops (content-parity seed 43, case
        # 43004569: 3 bytes searched, not 4), its NULs then handled as in a read file.
        (b"\xef\xbb\xbf\n\n\n ", ["-v", "-m3", "--json", "zzz"]),
        (b"\xef\xbb\xbfa\n\x00b\nc\n", ["--json", "b"]),
        (b"\xef\xbb\xbfa\n\x00b\nc\n", ["--count-matches", "^"]),
        (b"\xef\xbb\xbfa\n\x00b\nc\n", ["-U", "--json", "-m1", "b|line"]),
        # -v -m -A on a file named and read (rg's convert mode: NULs become line terminators):
        # past the limit every line the after-context reaches is selected and counted, and
        # rg reports the binary data only if it read the NUL's fill (content-parity seed
        # 40000178, eleven named files, which rg reads rather than maps).
        (b"a\n\x00 x\nb\nskill\n", ["-v", "-m1", "-A1", "-c", "--no-mmap", "a"]),
        (b"a\n\x00 x\nb\nskill\n", ["-v", "-m1", "-A2", "--json", "--no-mmap", "a"]),
        (b"b \x00\nx  \nab\x00c a zz", ["-v", "-m2", "-C2", "-n", "-b", "--no-mmap", "skill"]),
        pytest.param(NUL_2ND_FILL, ["-v", "-m1", "-A2", "--json", "--no-mmap", "zzz"],
                     id="read-nul-2nd-fill"),
        pytest.param(b"b\na\n" * 20000 + b"x\x00\n", ["-v", "-m1", "-A1", "--json", "--no-mmap", "a"],
                     id="read-stops-before-the-nul-fill"),
    ],
)
def test_explicit(isolated, reference_rg, data, args):
    _write("a.txt", data)
    same(reference_rg, [*args, "a.txt"])


@pytest.mark.parametrize(
    "args",
    [
        # A NUL past the pre-scanned 64 KiB, in a line handed to the printer: the JSON printer
        # prints on but reports it ("binary_offset":70000, "bytes_searched":70000).
        ["--json", "-C1", "636", "big.txt"],
        ["--json", "line 06", "big.txt"],
        ["--json", "363", "big.txt"],
        ["-n", "line 06", "big.txt"],
        ["-c", "line 06", "big.txt"],
        # A walked multi-line search quits there; the summary printers then squash the file.
        ["-U", "-n", "62\\nl"],
        ["-U", "--json", "62\\nl"],
        ["-U", "-c", "62\\nl"],
        ["-U", "--files-without-match", "62\\nl"],
        ["-U", "-c", "0\\nl"],
        ["-U", "--json", "-B1", "(?s)06.63"],
        ["-U", "--json", "62\\nl", "--no-mmap", "big.txt"],
        # Where the stop of a walked search falls decides whether the NUL was read.
        ["--files-without-match", "line"],
        ["-v", "-l", "zzz"],
        ["-v", "-m1", "zzz"],
        ["-c", "-m3", "line"],
    ],
)
def test_nul_past_first_fill(isolated, reference_rg, args):
    _big()
    same(reference_rg, args)


@pytest.mark.parametrize(
    "args",
    [
        ["needle"],
        ["-c", "needle"],
        ["--json", "-B2", "needle"],
        ["-n", "needle", "--no-mmap", "a.txt"],
    ],
)
@pytest.mark.parametrize("nul", [150000, 200000])
def test_buffer_growth(isolated, reference_rg, args, nul):
    # A 70000-byte first line does not fit the 64 KiB buffer; rg grows it to three times its
    # size, so the first fill reaches past offset 150000 (the NUL there hides every match)
    # but not 200000.
    data = bytearray(b"a" * 70000 + b"\n" + b"needle\n" * 20000)
    data[nul] = 0
    _write("a.txt", bytes(data))
    same(reference_rg, args)


@pytest.mark.parametrize(
    "args", [["-B3", "--json", "^a"], ["-B3", "-n", "^a"], ["-C3", "--json", "^a"]]
)
def test_context_kept_between_fills(isolated, reference_rg, args):
    # The first fill ends after the 25000-byte "p" line. Rolling it, rg keeps the last four
    # lines for -B3 but drops those up to the printed match, which decides how much the next
    # fill reads: up to the NUL at 90000 here, so "a r" is never searched.
    data = bytearray(
        b"y" * 80 + b"\n" + b"x\n" * 2000 + b"a" + b"b" * 30000 + b"\n" + b"p" * 25000
        + b"\n" + b"q" * 10000 + b"\n" + b"a r\n" + b"e" * 40000 + b"\n"
    )
    data[90000] = 0
    _write("a.txt", bytes(data))
    same(reference_rg, args)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("args", [["-m1", "-A3"], ["-m2", "-A2", "-B1"], ["-m1", "-C2"]])
def test_after_context_across_a_fill(isolated, reference_rg, seed, args):
    # Lines of 6 to 50 bytes; a match (and maybe more after it) in the last lines before a
    # 64 KiB fill ends, its after-context in the same fill or the next.
    import random

    rng = random.Random(seed)
    lines = [b"line %d %s" % (i, b"x" * rng.randrange(40)) for i in range(6000)]
    starts, pos = [], 0
    for line in lines:
        starts.append(pos)
        pos += len(line) + 1
    target = rng.choice([65536, 131072]) + rng.randrange(-120, 40)
    at = max(i for i, start in enumerate(starts) if start <= target)
    for extra in range(rng.randrange(3)):
        lines[at + rng.randrange(4)] += b" aa"
    lines[at] += b" aa"
    _write("a.txt", b"\n".join(lines) + b"\n" * rng.randrange(2))
    same(reference_rg, [*args, "--json", "aa"])


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("pattern", ["zzz", "\\Azzz", "line 1"])
def test_inverted_max_count_across_a_fill(isolated, reference_rg, seed, pattern):
    # -v -m N whose Nth selected line ends around the end of the first 64 KiB fill.
    import random

    rng = random.Random(seed)
    lines = [b"line %d %s" % (i, b"x" * rng.randrange(30)) for i in range(8000)]
    end, count = 0, 0
    while end < 65536 + rng.randrange(-200, 100):
        end += len(lines[count]) + 1
        count += 1
    _write("a.txt", b"\n".join(lines) + b"\n")
    same(reference_rg, ["-v", "-m", str(count + rng.randrange(-1, 3)), "--json", pattern])


def test_random_inverted_limit_searches_agree_with_rg(reference_rg):
    from benchmarks.parity.inverted_limit_probe import compare

    agree, differ = compare(reference_rg, seed=1, cases=200)
    assert differ == [] and agree == 200
