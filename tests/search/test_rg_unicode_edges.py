"""Empty matches, word assertions and ``-M`` previews next to multi-byte characters and invalid
UTF-8, against rg 15.1 (parity classes D2, WB, U1, U2 of ``benchmarks/parity/CONTENT.md``).

Each case writes one file, runs the command through shellfree and the reference rg with
``same()`` and, where given, also checks rg's own output against the text recorded from rg
15.1.0, so a changed reference cannot silently move the expectation.
"""

from __future__ import annotations

import random

import sys

import pytest

from tests.conftest import run_rg
from tests.search.test_rg_search import same

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths")


def check(reference_rg, content: bytes, args: list[str], expected: bytes | None = None) -> None:
    with open("a.txt", "wb") as f:
        f.write(content)
    if expected is not None:
        assert run_rg(reference_rg, ["--sort", "path", *args, "a.txt"])[0] == expected
    same(reference_rg, [*args, "a.txt"])


# rg searches again one byte after an empty match; inside a multi-byte character only an
# assertion-free empty match can occur, and it is reported even when the one at the
# character's first byte was skipped for touching the previous match.
EMPTY_MATCHES = [
    (b"x\xc2\xb2y\n", ["-ob", "[a-z]{0,2}"], b"0:x\n2:\n3:y\n"),
    (b"x\xc2\xb2y\n", ["--json", "[a-z]{0,2}"], None),
    (b"x\xb2\xc2\xb2y\n", ["-ob", "[a-z]{0,2}"], b"0:x\n2:\n3:\n4:y\n"),
    (b"ab\xe2\x82\xacc\xf0\x9f\x98\x80\n", ["-ob", "a?"],
     b"0:a\n2:\n3:\n4:\n5:\n6:\n7:\n8:\n9:\n10:\n"),
    (b"ab\xe2\x82\xacc\xf0\x9f\x98\x80\n", ["-o", "--column", "-n", "[a-c]*"],
     b"1:1:ab\n1:4:\n1:5:\n1:6:c\n1:8:\n1:9:\n1:10:\n1:11:\n"),
    (b"Ab\xc3\xa9\n", ["-o", "-b", "-i", "-s", "a?"], None),
    (b"x\xc2\xb2y\nx\xc2\xb2y\n", ["-U", "--json", "[a-z\\n]{0,2}"], None),
]


@pytest.mark.parametrize("content,args,expected", EMPTY_MATCHES,
                         ids=[f"{c!r} {' '.join(a)}" for c, a, _ in EMPTY_MATCHES])
def test_empty_matches_inside_characters(isolated, reference_rg, content, args, expected):
    check(reference_rg, content, args, expected)


# -M previews: with --crlf the "\r" of a "\r\n" terminator is not part of the preview (without
# --crlf it is an ordinary grapheme); -o pieces and -v --column lines have their own texts.
PREVIEWS = [
    (b"\xc7\x86_it\r\nab(\r\n", ["--crlf", "-M5", "--max-columns-preview", "-C1", "\\("],
     b"\xc7\x86_it [... omitted end of long line]\r\nab(\r\n"),
    (b"\xc7\x86_it\r\nab(\r\n", ["-n", "-M5", "--max-columns-preview", "-C1", "\\("],
     b"1-\xc7\x86_it\r [... omitted end of long line]\n2:ab(\r\n"),
    (b"abc\r\nab(\r\n", ["--crlf", "-M4", "--max-columns-preview", "-C1", "--column", "\\("],
     b"1-abc [... omitted end of long line]\r\n2:3:ab( [... 0 more matches]\r\n"),
    (b"(\n\xc3\xa9\r", ["--crlf", "-M2", "--max-columns-preview", "-C1", "\\("],
     b"(\n\xc3\xa9\r [... omitted end of long line]\r\n"),
    (b"x foobar y\n", ["-o", "-M5", "--max-columns-preview", "foobar"],
     b"fooba [... 0 more matches]\n"),
    (b"foo\nbar\n", ["-v", "-M2", "--max-columns-preview", "--column", "foo"],
     b"2:ba [... omitted end of long line]\n"),
    # A matching line whose matches the printer cannot re-find has no per-match detail.
    (b"xx\nHolmes long line here\n", ["--column", "-M5", "--max-columns-preview", "\\AHolmes"],
     b"2:Holme [... omitted end of long line]\n"),
    (b"xx\nHolmes long line here\n", ["--column", "-M5", "-C1", "\\AHolmes"],
     b"1-xx\n2:[Omitted long matching line]\n"),
    # The cut is made on the line with its terminator, a cluster of its own: a cut that takes
    # it in leaves no match after it, not even the empty one at the line's end.
    (b"ss; H\xe2\x82\x82O\n", ["--column", "-M8", "--max-columns-preview", "\\p{Han}*"],
     b"1:1:ss; H\xe2\x82\x82O [... 0 more matches]\n"),
    (b"ss; H\xe2\x82\x82O\n", ["--column", "-M7", "--max-columns-preview", "\\p{Han}*"],
     b"1:1:ss; H\xe2\x82\x82O [... 1 more match]\n"),
    (b"abcd\r\n", ["--column", "-M5", "--max-columns-preview", "x*"],
     b"1:1:abcd\r [... 0 more matches]\n"),
    (b"abcd\r\n", ["--crlf", "--column", "-M5", "--max-columns-preview", "x*"],
     b"1:1:abcd [... 0 more matches]\r\n"),
    (b"abcd\r\n", ["--column", "-M4", "--max-columns-preview", "x*"],
     b"1:1:abcd [... 2 more matches]\n"),
    # Invalid UTF-8 (content parity seed 57002132): each maximal subpart, the bytes one U+FFFD
    # replaces, is one cluster joined to nothing: E0 A5 before "x" is one, ED A0 80 three, and
    # a combining mark or a ZWJ next to one stays apart.
    (b"   \xa7\xe0\xa5\x00\xa8=\n", ["-a", "-M8", "--max-columns-preview", "-v", "baz"],
     b"   \xa7\xe0\xa5\x00\xa8= [... omitted end of long line]\n"),
    (b"\xe0\xa5xabcdefgh\n", ["-M5", "--max-columns-preview", "-v", "baz"],
     b"\xe0\xa5xabc [... omitted end of long line]\n"),
    (b"\xed\xa0\x80abcdefgh\n", ["-M5", "--max-columns-preview", "-v", "baz"],
     b"\xed\xa0\x80ab [... omitted end of long line]\n"),
    (b"\xe0\xa5\xcc\x81abcdefgh\n", ["-M3", "--max-columns-preview", "-v", "baz"],
     b"\xe0\xa5\xcc\x81a [... omitted end of long line]\n"),
    (b"\xf0\x9f\x91\xa8\xe2\x80\x8d\xe0\xa5abcd\n", ["-M2", "--max-columns-preview", "-v",
                                                    "baz"],
     b"\xf0\x9f\x91\xa8\xe2\x80\x8d\xe0\xa5 [... omitted end of long line]\n"),
    (b"\xd8\x80\xe0\xa5\xe0\xa5\xe9abcd\n", ["-M3", "--max-columns-preview", "-v", "baz"],
     None),
]


@pytest.mark.parametrize("content,args,expected", PREVIEWS,
                         ids=[f"{c!r} {' '.join(a)}" for c, a, _ in PREVIEWS])
def test_max_columns_previews(isolated, reference_rg, content, args, expected):
    check(reference_rg, content, args, expected)


# Word assertions after stray UTF-8 continuation bytes: regex-automata steps back over at most
# three of them and decodes the character it lands on, so "a\xb6 " has an "a" before the
# space. rg's printer sees the previous line's "\n" before a line; its searcher, going on after
# a matching line, does not.
WORD = [
    (b" \xb6 \n", ["-w", "-ob", "x?"], b"0:\n2:\n3:\n"),
    (b"a\xb6 \n", ["-ob", "\\b"], b"0:\n1:\n2:\n"),
    (b"a\xb6\xb6\xb6\xb6 \n", ["-ob", "\\b"], b"0:\n1:\n2:\n3:\n4:\n"),
    (b"\xc3\xa9\xb6\xb6\xb6 \n", ["-ob", "\\b"], b"0:\n2:\n3:\n4:\n"),
    (b"\xe2\x82\xac\xb6 \n", ["-ob", "\\B"], b"0:\n4:\n5:\n"),
    (b"\xe2\x82\xac\xb6 \n", ["-ob", "\\b{start-half}"], b"0:\n3:\n4:\n5:\n"),
    (b"\xe4\xb8\x80\xb6\xb6 \n", ["-ob", "\\>"], b"3:\n4:\n"),
    (b"\xff\xb6 \n", ["-ob", "\\B"], b"3:\n"),
    (b"x\n\xb6\xb6\xb6 \n", ["-ob", "\\b{start-half}"], b"0:\n2:\n3:\n4:\n5:\n6:\n"),
    (b"x\n\xb6 \n", ["-c", "\\b{start-half} "], b"1\n"),
    (b"\xb6 \n", ["-c", "\\b{start-half} "], b""),
    (b"a\n\xb6", ["-ob", "-w", ""], b"2:\xb6\n"),
    (b"\xc2\xb2axa\n\xb6", ["-ob", "-w", ""], b"0:\n"),
    (b"\xc2\xb2axa\nb\n\xb6", ["-ob", "-w", ""], b"0:\n8:\xb6\n"),
]


@pytest.mark.parametrize("content,args,expected", WORD,
                         ids=[f"{c!r} {' '.join(a)}" for c, a, _ in WORD])
def test_word_assertions_after_stray_bytes(isolated, reference_rg, content, args, expected):
    check(reference_rg, content, args, expected)


# A walked file is read in fills, and each fill's search starts a new haystack at the first
# line it has not searched: a word assertion there sees nothing before the line, as after a
# matching line. rg's first read is 3 bytes, so line 2 after a line of at most 2 bytes starts
# the second fill; a line left incomplete at 64 KiB starts the next. A memory-mapped file is
# one haystack. Measured with rg 15.1 walked and named, with --mmap and --no-mmap.
STRAY_LINES = b"".join(b"\xb6 line %05d\n" % i for i in range(7000))
# Lines of 3 to 33 bytes: a roll that kept context lines and so read less would move the
# fills' starts, and with them which lines match (rg's do not move).
STRAY_RAGGED = b"".join(b"\xb6 " + b"w" * ((i * 7919) % 31) + b"\n" for i in range(9000))
# Half the lines stray, at random: the last lines of a fill often match nothing and are kept
# by the roll only as before-context.
_MIXED = random.Random(2)
STRAY_MIXED = b"".join((b"\xb6 " if _MIXED.random() < 0.5 else b"") + b"w" * _MIXED.randint(0, 30)
                       + b"\n" for _ in range(12000))
FILL_START = [
    ({"d/a": b"x\n\xb6 \n"}, ["-c", "\\b{start-half} ", "d"], b""),
    ({"d/a": b"x\n\xb6 \n"}, ["-c", "\\b{start-half} ", "d/a"], b"1\n"),
    ({"d/a": b"x\n\xb6 \n"}, ["--no-mmap", "-c", "\\b{start-half} ", "d/a"], b""),
    ({"d/a": b"x\n\xb6 \n"}, ["--mmap", "-c", "\\b{start-half} ", "d"], b"d/a:1\n"),
    ({"d/a": b"x\n\xb6 \n", "d/b": b"a\nx\0y\nabc\n"}, ["--mmap", "-n", "a|\\b{start-half} ", "d"],
     None),
    ({"d/a": b"x\n\xb6 \n\xb6 \n"}, ["-n", "\\b{start-half} ", "d"], b"d/a:3:\xb6 \n"),
    ({"d/a": b"x\n\xb6 \n\xb6 \n"}, ["-o", "-b", "-w", "", "d"], None),
    ({"d/a": b"x\n\xb6 \n\xb6 \n"}, ["-n", "-v", "\\b{end-half}\\B ", "d"], None),
    ({"d/a": b"\n\xb6\xb6 \nab\n\xb6 \n"}, ["-n", "-C1", "\\b{start-half} ", "d"], None),
    ({"d/a": b"x\n\xb6 \n\xb6 \n"}, ["-n", "--column", "\\b{start-half} ", "d"], None),
    ({"d/a": STRAY_LINES}, ["-c", "\\b{start-half} ", "d"], None),
    ({"d/a": STRAY_LINES}, ["-n", "\\b{start-half} ", "d"], None),
    ({"d/a": STRAY_LINES}, ["-n", "-B1", "\\b{start-half} ", "d"], None),
    ({"d/a": STRAY_LINES}, ["-o", "-b", "\\b{end-half}\\B", "d"], None),
    ({"d/a": STRAY_LINES}, ["-c", "-v", "\\b{start-half} ", "d"], None),
    ({"d/a": STRAY_RAGGED}, ["-n", "\\b{start-half} ", "d"], None),
    ({"d/a": STRAY_RAGGED}, ["-n", "-B1", "\\b{start-half} ", "d"], None),
    ({"d/a": STRAY_RAGGED}, ["-n", "-C1", "\\b{start-half} ", "d"], None),
    ({"d/a": STRAY_RAGGED}, ["-o", "-b", "-A2", "\\b{start-half} ", "d"], None),
    ({"d/a": STRAY_MIXED}, ["-n", "-A2", "\\b{start-half} ", "d"], None),
    ({"d/a": STRAY_MIXED}, ["-n", "-A1", "-B1", "\\b{start-half} ", "d"], None),
]


@pytest.mark.parametrize("files,args,expected", FILL_START,
                         ids=[f"{sorted(f)} {' '.join(a)}"[:80] for f, a, _ in FILL_START])
def test_word_assertions_at_the_start_of_a_fill(isolated, reference_rg, files, args, expected):
    for path, data in files.items():
        (isolated / path).parent.mkdir(exist_ok=True)
        (isolated / path).write_bytes(data)
    if expected is not None:
        assert run_rg(reference_rg, ["--sort", "path", *args])[0] == expected
    same(reference_rg, args)


# A pattern with a Unicode word assertion and an inner literal rg's grep layer picks is
# confirmed line by line on the line alone (regex_translate._lines_alone): after a line's
# stray continuation bytes the assertion then sees no character before them. Without such a
# literal (a space, "e" or "t" alone, a set too large), rg runs the regex over its buffer.
STRAY_START = b"\n\xb6(\n\xb6x\n\xb6ab\n\xb6e\n\xb6 \n\xb6K\n\xb6X1\n\xb6xab\n\xb6\xb6t\n\xb6x1K(\n"
INNER_LITERAL = [
    "\\b{start-half}\\(",  # "(": alone
    "\\b{start-half} ",  # a space is too common: the buffer
    "\\b{start-half}e",  # so is "e"
    "\\b{start-half}[(x]",  # a small class: two literals
    "\\b{start-half}(?:x|X|K|\\()",  # four single bytes, no common first byte: the buffer
    "\\b{start-half}(?:x|x1|x2|xab)",  # a common first byte, looked for alone
    "\\b{start-half}(?i:x)",  # x and X
    "\\b{start-half}x(?:ab)?",  # x and xab: a prefix
    "\\b{start-half}(?i:k)",  # k, K and KELVIN SIGN
    "\\B(?:ab|x|\\()",
    "(?i)\\b{start-half}AB",
    "\\b{start-half}(?:x|K|\\(|1){2,}",  # four single bytes, inexact: an unbounded repetition
    "\\b{start-half}(?:x|K|\\(|1){2}",  # is not written out; a bounded one is: 16 pairs
]


@pytest.mark.parametrize("pattern", INNER_LITERAL)
@pytest.mark.parametrize("how", ["named", "walked", "walked -w"])
def test_word_assertions_on_lines_rg_confirms_alone(isolated, reference_rg, pattern, how):
    (isolated / "d").mkdir()
    (isolated / "d" / "a").write_bytes(STRAY_START)
    target = "d/a" if how == "named" else "d"
    flags = ["-w"] if how.endswith("-w") else []
    same(reference_rg, ["-n", *flags, "-e", pattern, target])
    same(reference_rg, ["-c", "-v", *flags, "-e", pattern, target])


def test_the_stray_word_grid_agrees_with_rg(tmp_path, reference_rg):
    from benchmarks.parity.stray_word_grid import compare, write_grid

    names = write_grid(str(tmp_path), 1)
    agree, differ = compare(reference_rg, str(tmp_path), names)
    assert differ == [] and agree == 420


# Past -m's limit rg checks each trailing line on its own (the line alone, nothing before it),
# memory-mapped or not; the printer still re-finds a selected line's matches in its buffer.
PAST_LIMIT = [["-v", "-m1", "-A1", "-n"], ["-v", "-m2", "-A2", "-n"],
              ["-v", "-m1", "-A1", "-o", "-b"], ["-m1", "-A2", "-n"], ["-m1", "-A3", "-o", "-b"],
              ["-v", "-m1", "-A2", "--json"]]


@pytest.mark.parametrize("args", PAST_LIMIT)
@pytest.mark.parametrize("target", [["d/f"], ["d/g"], ["d"], ["--mmap", "d"], ["--no-mmap", "d/f"]])
def test_lines_past_the_limit_are_checked_alone(isolated, reference_rg, args, target):
    (isolated / "d").mkdir()
    (isolated / "d" / "f").write_bytes(b"x\n\xb6 \nq\n\xb6 \n")
    (isolated / "d" / "g").write_bytes(b"abcdefgh\n\xb6 \nq\n\xb6 \nzz\n\xb6 \n")
    same(reference_rg, [*args, "\\b{start-half} ", *target])


# rg's printer re-finds the matches of every line it prints them for (-o, --column, JSON), the
# lines -v selects too: after a line's stray continuation bytes a word assertion can hold there
# and not in the searcher (f, line 4); under context options the rolls move the buffer's
# front, where the printer cannot look back before a line (g, line 2; h, line 3: one "(").
@pytest.mark.parametrize("args", [["-v", "-o"], ["-v", "--column"], ["-v", "--json"],
                                  ["-v", "-o", "-C1"], ["-v", "-o", "-A1"], ["-o", "-C1"]],
                         ids=" ".join)
def test_the_printer_re_finds_the_matches_of_selected_lines(isolated, reference_rg, args):
    (isolated / "d").mkdir()
    (isolated / "d" / "f").write_bytes(b"x\n\xb6 \nq\n\xb6(\n")
    (isolated / "d" / "g").write_bytes(b"x\n\xbd(\n\xbd\xbd\xbd\xbd(ab\n")
    (isolated / "d" / "h").write_bytes(b"(\n\n\xbd( \xbd\xbd(\xbd\xbd\nx\xbd\xbd  \n")
    same(reference_rg, ["--sort", "path", "-n", *args, "\\b{start-half}\\(", "d"])
