"""``shellfree rg PATTERN``: output, binary handling, encodings and exit codes against rg 15.1.

Each case runs the same command through shellfree (in-process) and through the reference rg
binary and compares stdout bytes, the exit code and stderr (text where rg's is deterministic).
Cases where the spec states the output also assert that text, so the expectation is checked
against rg rather than copied from our own run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import run_rg, run_shellfree

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths")

SHERLOCK = (
    "For the Doctor Watsons of this world, as opposed to the Sherlock\n"
    "Holmeses, success in the province of detective work must always\n"
    "be, to a very large extent, the result of luck. Sherlock Holmes\n"
    "can extract a clew from a wisp of straw or a flake of cigar ash;\n"
    "but Doctor Watson has to have it taken out for him and dusted,\n"
    "and exhibited clearly, with a label attached.\n"
)


@pytest.fixture
def corpus(isolated):
    files = {
        "sherlock": SHERLOCK.encode(),
        "crlf.txt": SHERLOCK.replace("\n", "\r\n").encode(),
        "bom8.txt": b"\xef\xbb\xbf" + b"test123\nSherlock bom\n",
        "utf16le.txt": "\ufeffСherlock по-русски\nfoo Sherlock\n".encode("utf-16-le"),
        "utf16be.txt": "\ufeffbe Sherlock\n".encode("utf-16-be"),
        "latin1.txt": b"caf\xe9 Sherlock\nna\xefve\n",
        "nul.bin": b"Sherlock\x00binary\nSherlock again\n",
        "noeol.txt": b"first\nlast Sherlock",
        "empty.txt": b"",
        "blank.txt": b"\n\n",
        "tabs.txt": b"\tSherlock\tx\n  Sherlock  \n",
        "sub/deep.txt": b"deep Sherlock\nxyz\n" * 3,
        "long.txt": b"x" * 300 + b" Sherlock " + b"y" * 300 + b"\n",
        "unicode.txt": "Шерлок Холмс\nδσς ΣΣ\nK \u212a k\nſ s S\n".encode(),
    }
    for name, data in files.items():
        if os.path.dirname(name):
            os.makedirs(os.path.dirname(name), exist_ok=True)
        with open(name, "wb") as f:
            f.write(data)
    return isolated


def _normalise_json(out: bytes) -> list:
    messages = []
    for line in out.splitlines():
        message = json.loads(line)
        data = message["data"]
        data.pop("elapsed_total", None)
        data.get("stats", {}).pop("elapsed", None)
        messages.append(message)
    return messages


def same(reference_rg, args, *, compare_stderr=True):
    argv = ["--sort", "path", *args]
    ours = run_shellfree(argv)
    theirs = run_rg(reference_rg, argv)
    if "--json" in args:
        assert _normalise_json(ours[0]) == _normalise_json(theirs[0]), args
    else:
        assert ours[0] == theirs[0], (args, ours[0], theirs[0])
    assert ours[2] == theirs[2], (args, ours, theirs)
    if compare_stderr:
        assert ours[1] == theirs[1], (args, ours[1], theirs[1])
    else:
        assert (ours[1] == b"") == (theirs[1] == b""), (args, ours[1], theirs[1])
    return ours


FLAG_SETS = [
    ["Sherlock"],
    ["-n", "Sherlock"],
    ["-i", "sherlock"],
    ["-S", "sherlock"],
    ["-F", "Sherlock."],
    ["-w", "Sher"],
    ["-x", "first"],
    ["-v", "-n", "Sherlock"],
    ["-c", "Sherlock"],
    ["--count-matches", "o"],
    ["-l", "Sherlock"],
    ["--files-without-match", "Sherlock"],
    ["-o", "-n", "Sher[a-z]+"],
    ["-n", "-C1", "Watson"],
    ["-n", "-A2", "-B1", "luck"],
    ["-m1", "-n", "Sherlock"],
    ["-H", "-n", "--column", "Sherlock"],
    ["-b", "Sherlock"],
    ["--no-filename", "Sherlock"],
    ["-M", "20", "Sherlock"],
    ["-M", "20", "--max-columns-preview", "-n", "Sherlock"],
    ["-M", "20", "--max-columns-preview", "--column", "Sherlock"],
    ["-n", "Sherlock$"],
    ["-n", "Sherlock\\r$"],
    ["-n", "^$"],
    ["-n", ""],
    ["-on", ""],
    ["--json", "Sherlock"],
    # -q with --json: only the summary, with every file searched to its end.
    ["--json", "-q", "Sherlock"],
    ["--json", "-q", "-v", "zzz"],
    ["--json", "-q", "-v", "Sherlock"],
    ["--json", "-q", "-o", "the"],
    # ... where a matching line whose matches the re-find cannot see (\A past the buffer's
    # start) counts one match, as --count-matches counts it.
    ["--json", "-q", "\\A\\w"],
    ["--json", "-q", "\\AHolmes|k"],
    ["--json", "-C1", "-v", "Watson"],
    ["-U", "-n", "Sherlock\\nHolmes"],
    ["-U", "-o", "-n", "of\\n\\w+"],
    ["-U", "-c", "k\\n"],
    ["-U", "--multiline-dotall", "-n", "Watson.+?Sherlock"],
    ["-U", "--json", "the\\s+\\w+"],
    ["-n", "café"],
    ["-n", "caf."],
    ["-i", "-n", "к"],
    ["-n", "\\w+ \\w+"],
    ["zzz-no-match"],
    ["-q", "Sherlock"],
    ["-e", "Watson", "-e", "Holmes", "-n"],
    ["-n", "(?i)k"],
    ["-a", "-n", "binary"],
    ["--crlf", "-n", "Sherlock$"],
    ["--crlf", "-o", "Sherlock"],
    ["--crlf", "-n", "k\\z"],
    ["-n", "\\AHolmes"],
    ["-n", "Sherlock\\z"],
    ["-c", "\\A"],
    # rg's printer re-finds matches from the line's start in the whole buffer: \A fails after
    # line 1, so -o prints the whole line, --column is omitted, JSON has no submatches.
    ["-o", "\\AHolmes"],
    ["--column", "\\AHolmes"],
    ["--json", "\\AHolmes"],
    ["--count-matches", "\\A\\w+"],
    ["-o", "always\\z"],
    ["--crlf", "-on", "S.*k"],
    # Under -v the context lines are the ones the regex matches: they carry a --column, -o
    # prints their matches, and after -m's last selected line further selected lines in the
    # after-context print as matches (rg issue 1380).
    ["-v", "--column", "-n", "-C1", "Sherlock"],
    ["-v", "-o", "-A1", "Sherlock"],
    ["-v", "-m1", "-A2", "-n", "Sherlock"],
    # rg's searcher keeps the after-context under -c/--count-matches, so those trailing matches
    # are counted too.
    ["-c", "-m1", "-A3", "Sherlock"],
    ["--count-matches", "-m1", "-A3", "o"],
    ["-c", "-v", "-m1", "-A2", "Sherlock"],
]


@pytest.mark.parametrize("args", FLAG_SETS, ids=[" ".join(a) for a in FLAG_SETS])
def test_walked_tree(corpus, reference_rg, args):
    same(reference_rg, args)


@pytest.mark.parametrize("args", FLAG_SETS, ids=[" ".join(a) for a in FLAG_SETS])
def test_explicit_files(corpus, reference_rg, args):
    # Explicit files: no filename for a single file, binary "convert" mode, memory-map rules.
    same(reference_rg, [*args, "nul.bin", "crlf.txt", "utf16le.txt", "latin1.txt"])
    same(reference_rg, [*args, "sherlock"])


class TestBinary:
    def test_explicit_binary_notice(self, corpus, reference_rg):
        out = same(reference_rg, ["Sherlock", "nul.bin"])
        assert out[0] == b'binary file matches (found "\\0" byte around offset 8)\n'

    def test_walked_binary_is_invisible(self, corpus, reference_rg):
        out = same(reference_rg, ["binary"])
        assert out[2] == 1 and out[0] == b""

    @pytest.mark.parametrize(
        "args",
        [
            ["-n", "line 00000"],
            ["-n", "line 01500"],
            ["-n", "line 01600"],
            ["-n", "line 02990"],
            ["-c", "line"],
            ["-l", "line 00000"],
            ["--binary", "-n", "line 00000"],
            ["--no-mmap", "-n", "line 00000", "big"],
            ["-n", "line 00000", "big"],
            ["-n", "line 01600", "big"],
            ["-n", "--no-mmap", "line 01600", "big"],
            ["-c", "line", "big"],
            ["-c", "--no-mmap", "line", "big"],
        ],
    )
    def test_fill_boundaries(self, isolated, reference_rg, args):
        # rg decides binary-ness per 64 KiB fill (rg-semantics §2.1): lines in fills before
        # the one holding the NUL are searched, nothing from that fill on.
        lines = [b"line %05d padding text to make it about forty bytes\n" % i for i in range(3000)]
        data = bytearray(b"".join(lines))
        data[100000] = 0
        with open("big", "wb") as f:
            f.write(data)
        same(reference_rg, args)


    @pytest.mark.parametrize("args", [["-n", "-C1", "TODO"], ["-n", "-A1", "TODO"], ["-n", "TODO"]])
    def test_explicit_binary_context_line_stops_silently(self, isolated, reference_rg, args):
        # Found by the search_files parity run: in "convert" mode rg's printer stops at the
        # first line after binary data; a context line stops it without a match (exit 1).
        with open("f.txt", "wb") as f:
            f.write(b"delta\nTODO x\nmore\n\x00tail\n")
        same(reference_rg, [*args, "f.txt"])


class TestErrors:
    def test_glob_error_before_regex_error(self, corpus, reference_rg):
        out = same(reference_rg, ["-g", "[", "+x", "."])
        assert out[1] == b"rg: error parsing glob '[': unclosed character class; missing ']'\n"

    def test_missing_pattern(self, corpus, reference_rg):
        out = same(reference_rg, [])
        assert out[1] == b"rg: ripgrep requires at least one pattern to execute a search\n"

    def test_missing_file_is_an_error_even_with_matches(self, corpus, reference_rg):
        out = same(reference_rg, ["Sherlock", "sherlock", "nope"], compare_stderr=True)
        assert out[2] == 2

    def test_nothing_searched(self, isolated, reference_rg):
        with open(".ignore", "w") as f:
            f.write("*\n")
        out = same(reference_rg, ["x"])
        assert out[2] == 2 and out[1].startswith(b"rg: No files were searched")

    def test_regex_error(self, corpus, reference_rg):
        out = same(reference_rg, ["a{,2}b"])
        assert out[2] == 2


# Under -v rg's printer re-finds a context line's matches in the line alone (its own
# haystack), not in the buffer around it as for a matching line: \A holds at its start and no
# byte before it is looked at (content-parity seed 4000429).
CONTEXT_ALONE = {
    "text-start": (b"a\n*star\nb\n", ["-C1", "-v", "--json", "(?-m)^\\*"]),
    "text-start-only-matching": (b"a\n*star\nb\n", ["-C1", "-v", "-o", "\\A\\*"]),
    "text-start-column": (b"a\n*star\nb\n", ["-C1", "-v", "-n", "--column", "\\A\\*"]),
    "no-look-behind": (b"x\n\xb6 \nb\n", ["-C1", "-v", "--json", "\\b{start-half} "]),
    "no-look-behind-only-matching": (b"x\n\xb6 \nb\n", ["-C1", "-v", "-o", "\\B "]),
    "multiline-text-start": (b"a\nxr\nb\nc\n", ["-U", "-C1", "-v", "--json", "\\Ab|r$"]),
    "multiline-no-look-ahead": (b"a\nxr\nb\nc\n", ["-U", "-C1", "-v", "--json", "r\\nb"]),
}


@pytest.mark.parametrize("name", sorted(CONTEXT_ALONE))
def test_inverted_context_line_is_its_own_haystack(isolated, reference_rg, name):
    data, args = CONTEXT_ALONE[name]
    (isolated / "f.txt").write_bytes(data)
    same(reference_rg, [*args, "f.txt"])


# rg's printer re-finds a matching line's matches in the line buffer it was found in, so \A
# holds on a line at the buffer's start: line 2 after a first line of at most 3 bytes (rg's
# first read is 3 bytes), and a line the first 64 KiB fill left incomplete. Not in a
# memory-mapped file (named on the command line), which is one buffer (content-parity seed
# 3003004).
LINES_11 = b"".join(b"line %05d\n" % i for i in range(7000))  # line 5958 crosses 64 KiB
BUFFER_START = {
    "walked-short-first-line": ({"f.txt": b"a\nlin\nlin\n"}, ["-n", "--column", "\\Alin"]),
    "walked-empty-first-lines": ({"f.txt": b"\n\nlin\nlin\n"}, ["--json", "\\Alin"]),
    "walked-long-first-line": ({"f.txt": b"abcd\nlin\nlin\n"}, ["-o", "-b", "\\Alin"]),
    "mapped-short-first-line": ({"f.txt": b"a\nlin\nlin\n"}, ["-n", "--column", "\\Alin", "f.txt"]),
    "walked-fill-boundary": ({"f.txt": LINES_11}, ["-n", "--column", "\\Aline 0595"]),
    "walked-fill-boundary-count": ({"f.txt": LINES_11}, ["--count-matches", "\\Aline|7$"]),
    # With context options the roll keeps the last lines before each fill unless they were
    # printed, so the buffer starts after the printed ones (content-parity seed 38002192).
    "walked-context-last-line-after-printed": ({"f.txt": b"x\n  \n  "}, ["-A1", "--json", "\\A  "]),
    "walked-context-first-lines-printed": ({"f.txt": b"  \n  \n  "}, ["-B1", "--json", "\\A  "]),
    "walked-context-line-kept": ({"f.txt": b"x\n  \n  \n  \n"}, ["-A1", "--json", "\\A  "]),
    "walked-context-two-kept": ({"f.txt": b"ab\nab\n\nab\nlin"}, ["-A1", "-B2", "--json", "\\A"]),
    "walked-context-fill-boundary": ({"f.txt": LINES_11}, ["-C1", "-n", "--column", "\\Aline 0595"]),
}


@pytest.mark.parametrize("name", sorted(BUFFER_START))
def test_text_start_holds_at_a_line_buffer_start(isolated, reference_rg, name):
    files, args = BUFFER_START[name]
    for path, data in files.items():
        (isolated / path).write_bytes(data)
    same(reference_rg, args)


def test_random_text_anchor_searches_under_context_agree_with_rg(reference_rg):
    from benchmarks.parity.text_anchor_probe import compare

    agree, differ = compare(reference_rg, seed=1, cases=150)
    assert differ == [] and agree == 150


# Past -m's limit rg prints a trailing-context line the regex matches as a match, except when
# the pattern holds \A or \z: then none is, whichever alternative would match (content-parity
# seed 5000542); and, searching line by line, it counts the after-context lines it walked as
# searched (the JSON cases' bytes_searched).
PAST_LIMIT = {
    "text-end": (b"x\nax\nbx", ["-n", "-m1", "-A2", "x\\z"]),
    "text-start-alternative": (b"x\nax\nbx\n", ["-n", "-m1", "-A2", "\\Az|x"]),
    "text-start-json": (b"line 1\nline 2\nline 3\n", ["--json", "-o", "-m1", "-A2", "\\Aline"]),
    "text-start-count": (b"x\nax\nbx\n", ["--count-matches", "-m1", "-A2", "\\Az|x"]),
    "inverted": (b"x\nax\nbx\n", ["-n", "-v", "-m1", "-A2", "\\Ab|a"]),
    "no-anchor": (b"x\r\nax\r\nbx\r\n", ["-n", "--crlf", "-m1", "-A2", "x$"]),
    "searched-after-context": (b"line 1\nfoo\nbar\nbaz\n", ["--json", "-m1", "-A2", "\\Aline"]),
    "searched-after-context-alternative": (b"a\nline 1\nfoo\nline\n", ["--json", "-m1", "-A1", "z\\z|\\Aline"]),
}


@pytest.mark.parametrize("name", sorted(PAST_LIMIT))
def test_text_anchors_never_match_past_the_limit(isolated, reference_rg, name):
    data, args = PAST_LIMIT[name]
    (isolated / "f.txt").write_bytes(data)
    same(reference_rg, [*args, "f.txt"])


# -m N -A M on a memory-mapped file (named): where rg's search position stood, which --json
# reports as bytes_searched (content-parity seeds 4001868, 4003134, 5000687 were this class).
MAPPED_AFTER_CONTEXT = {
    "fewer-lines-than-asked": (b"b\nx\nabcdef\nabcdef\nx\nab\n", ["-m2", "-A3"]),
    "fewer-lines-with-before": (b"xa\n\nb\n", ["-m1", "-A3", "-B1"]),
    "inverted-context-ends": (b"a\na\nx\na\n", ["-v", "-m1", "-A1"]),
    "inverted-selected-after": (b"a\nx\na\nx\na\n", ["-v", "-m1", "-A2"]),
    "inverted-run-end": (b"a\na\na\nx\nx\na\n", ["-v", "-m1", "-A3"]),
    "inverted-selected-in-run": (b"\n\nxa\nxa\nxa\nxa\n", ["-v", "-m1", "-A3"]),
}


@pytest.mark.parametrize("args", [["-q", "-m3", "-A1"], ["-q", "-m3", "-C3"], ["-l", "-m3", "-A1"]])
def test_quiet_stops_before_the_limit_on_a_mapped_file(isolated, reference_rg, args):
    # -q stops at the first match, so -m's after-context rule has no N-th match to start from
    # (content-parity seed 15001767 ended in an AssertionError here).
    (isolated / "f.txt").write_bytes(b"x\ny\nz\n")
    same(reference_rg, [*args, "x", "f.txt"])


@pytest.mark.parametrize("name", sorted(MAPPED_AFTER_CONTEXT))
def test_max_count_after_context_bytes_searched_mapped(isolated, reference_rg, name):
    data, args = MAPPED_AFTER_CONTEXT[name]
    (isolated / "f.txt").write_bytes(data)
    same(reference_rg, ["--json", *args, "x", "f.txt"])


# -v -m N -A M on a file read in fills (walked): once N lines are selected rg stops looking
# for lines the regex matches, so the rest of the fill reads as selected, and the fills
# decide which lines print (the first read is 3 bytes: a first line of 1 or 2 bytes is a fill
# of its own).
LINES_MIXED = b"".join(b"%s\n" % (b"x", b"ab", b"xa", b"b", b"", b"abcdef" * 7)[i * 7 % 6]
                       for i in range(12000))
WALKED_INVERTED = {
    "next-fill-selected": (b"a\nx\na\nx\na\n", ["-n", "-v", "-m1", "-A1", "x"]),
    "next-fill-json": (b"a\na\na\na\n", ["--json", "-v", "-m1", "-A1", "x"]),
    "unterminated": (b"\nxyzxyz\nxyzxyz", ["--json", "-v", "-m2", "-A2", "x"]),
    "before-context-breaks": (b"b\nxa\nb\nx\nx\nxa\n\nb\n", ["-n", "-v", "-m1", "-A3", "-B1", "x"]),
    "several-fills": (LINES_MIXED, ["-n", "-v", "-m3000", "-A2", "-B1", "x"]),
    "several-fills-json": (LINES_MIXED, ["--json", "-v", "-m5000", "-A1", "x"]),
    # A NUL in a later fill: the search stops there, or before it when the count is reached
    # first (content-parity seed 4001868).
    "nul-not-reached": (LINES_MIXED[:70000] + b"\0" + LINES_MIXED[70000:],
                        ["--json", "-v", "-m3", "-A1", "-B3", "x"]),
    "nul-reached": (LINES_MIXED[:70000] + b"\0" + LINES_MIXED[70000:],
                    ["-n", "-v", "-m9000", "-A2", "-B1", "x"]),
    # \A or \z: line by line, and past the limit every line is selected, to the end.
    "text-anchors-to-the-end": (b"b\nxa\n\nab\nx\nb\n", ["-n", "-v", "-m1", "-A1", "\\Ax|a\\z"]),
    "text-anchors-buffer-start": (b"\nx\nxa\nx\nab\nxa\nb\n", ["-n", "--column", "-v", "-m1", "-A1",
                                                           "\\Ax|a\\z"]),
}


@pytest.mark.parametrize("name", sorted(WALKED_INVERTED))
def test_inverted_max_count_after_context_walked(isolated, reference_rg, name):
    data, args = WALKED_INVERTED[name]
    (isolated / "f.txt").write_bytes(data)
    same(reference_rg, args)


def test_inverted_max_count_after_context_text_anchors_mapped(isolated, reference_rg):
    (isolated / "f.txt").write_bytes(b"b\nxa\n\nab\nx\nb\nb\n")
    same(reference_rg, ["--json", "-v", "-m1", "-A1", "\\Ab|a\\z", "f.txt"])


# rg's first read is the decoder's 3-byte look for a byte-order mark, a fill of its own, but
# a file that starts with one is read on in the same fill (content-parity seed 6003739, a
# UTF-16 file); and rg checks a line on its own without its terminator, which under --crlf
# is only "\r\n", so `^$` matches after a bare "\n" (seed 6001604, -x with an empty pattern).
FIRST_READ = {
    "utf8-bom-bytes": (b"\xef\xbb\xbfa\nb\nc\nd\n", ["--json", "-v", "-m1", "zz"]),
    "utf8-bom-after-context": (b"\xef\xbb\xbfa\nb\nc\nd\n", ["--json", "-v", "-m1", "-A1", "zz"]),
    "utf8-bom-text-start": (b"\xef\xbb\xbfa\nb\nc\n", ["-n", "--column", "\\Ab"]),
    "utf16-bytes": ("a\nb\nc\nd\n".encode("utf-16"), ["--json", "-v", "-m1", "zz"]),
    "no-bom-text-start": (b"a\nb\nc\n", ["-n", "--column", "\\Ab"]),
    "crlf-bare-newline-past-limit": (b"a\n\nb\nc\n", ["--crlf", "-n", "-m1", "-A1", "-x", ""]),
    "crlf-bare-newline-inverted": (b"a\n\nb\nc\n", ["--crlf", "-n", "-v", "-m1", "-A2", "a|^$"]),
    # Below the limit the after-context lines are only context (seed 2000690).
    "crlf-bare-newline-below-limit": (b"a\n\nb\nc\n", ["--crlf", "--json", "-m3", "-A2", "-x", ""]),
}


@pytest.mark.parametrize("name", sorted(FIRST_READ))
def test_first_read_and_line_checks_walked(isolated, reference_rg, name):
    data, args = FIRST_READ[name]
    (isolated / "f.txt").write_bytes(data)
    same(reference_rg, args)


# Under --crlf with \z the searcher checks "ab_true\n" with its bare "\n" (no match: -v selects
# it) and the printer re-finds matches in it with the "\n" trimmed, so -o prints "true"
# (content-parity case 50002568).
@pytest.mark.parametrize("args", [
    ["-o", "-n"], ["-n", "--column"], ["-o", "-b"], ["--json"], ["-o", "-C1"], ["-o", "-m1", "-A1"],
    ["--json", "-m1", "-A2"],
], ids=" ".join)
def test_inverted_lines_are_re_found_with_the_printers_trim(isolated, reference_rg, args):
    (isolated / "f.txt").write_bytes(b"ab_true\nx_true\r\nplain\nlast_true")
    same(reference_rg, ["--crlf", "-v", *args, "-e", "true\\z", "f.txt"])
    same(reference_rg, ["--crlf", "-v", *args, "-e", "true\\z"])


# With \A or \z rg searches line by line and checks -m's limit before each line, not after a
# fill: a limit reached on a fill's last line (here the 3-byte first read) reads the next
# fill, and a NUL in it is seen (content-parity seed 12004645). -l stops at once; without the
# anchor the search stops after the fill.
LIMIT_AT_FILL_END = {
    "count": (b"  \nxx\0\nyy\n", ["-c", "-m1", "-e", "^", "-e", "a\\zb"]),
    "lines": (b"ab\nxx\0\nyy\n", ["-n", "-m1", "-e", "\\Aab", "-e", "x\\z"]),
    "json": (b"  \nxx\0\nyy\n", ["--json", "-m1", "-e", "^", "-e", "a\\zb"]),
    "inverted": (b"  \nxx\0\nyy\n", ["-c", "-v", "-m1", "-e", "zz", "-e", "a\\zb"]),
    "files-with-matches": (b"  \nxx\0\nyy\n", ["-l", "-e", "^", "-e", "a\\zb"]),
    "no-anchor": (b"  \nxx\0\nyy\n", ["-c", "-m1", "-e", "^"]),
    "second-line": (b"  \n  \nxx\0\n", ["-c", "-m2", "-e", "^", "-e", "a\\zb"]),
    # The limit reached inside a fill: the NUL two fills on is never seen.
    "limit-inside-a-fill": (
        b"".join(b"line %05d\n" % i for i in range(9000)).replace(b"line 07000", b"line\x0007000"),
        ["-c", "-m1", "-e", "^", "-e", "a\\zb"],
    ),
}


@pytest.mark.parametrize("name", sorted(LIMIT_AT_FILL_END))
def test_text_anchors_limit_at_a_fill_end_reads_the_next_fill(isolated, reference_rg, name):
    data, args = LIMIT_AT_FILL_END[name]
    (isolated / "f.txt").write_bytes(data)
    same(reference_rg, args)  # walked: read in fills


@pytest.mark.parametrize("line", [
    "line 03932 x->y a\u1acfb \U00010d50 needle and more text\n",  # U+1ACF: Unicode 17
    "ab\u1ae0\u1ae1cd \u0301e needle, then more text to cut\n",
])
def test_preview_clusters_of_characters_newer_than_rg(isolated, reference_rg, line):
    """rg's grapheme clusters know no character newer than its Unicode data (content-parity
    seeds 5002554, 6003977, 7004298): such a character is a cluster of its own."""
    (isolated / "f.txt").write_bytes(line.encode())
    same(reference_rg, ["-M", "20", "--max-columns-preview", "needle", "f.txt"])
    same(reference_rg, ["-M", "20", "--max-columns-preview", "-o", ".{24}needle", "f.txt"])


@pytest.mark.parametrize("pattern", ["a.*", "\\w+", "needle", ".{8}needle", "(ab ?)+"])
def test_only_matching_preview_counts_in_line_offsets(isolated, reference_rg, pattern):
    """-o with a preview: rg counts the line's matches that start between the cut and the
    piece's end, as offsets into the line (`a.*` on "x->y ab needle": "ab ne [... 1 more
    match]", the match at 5)."""
    (isolated / "f.txt").write_bytes(b"x->y ab needle\nabcdefghijklm needle needle ab needle\n")
    same(reference_rg, ["-M", "5", "--max-columns-preview", "-o", "-n", pattern, "f.txt"])


@pytest.mark.parametrize("pattern", ["a{4294967295}", "a{4294967295}b", "(?:a{4294967295})?x"])
def test_a_pattern_too_large_to_compile_is_reported_as_rg_does(isolated, reference_rg, pattern):
    (isolated / "f.txt").write_bytes(b"aaa\nx\n")
    same(reference_rg, ["-n", pattern])


@pytest.mark.parametrize(
    "pattern, line",
    [
        ("(a|aa)+$x", b"a" * 1_000_000),
        # One repetition of a body wider than one character backtracks exponentially even on
        # a short line: (?:a|aa)+b took 39 s on 43 characters when only lines over 256 had
        # the budget.
        ("(?:a|aa)+b", b"a" * 80 + b" b"),
        # \w+Error is quadratic in a run of word characters not followed by Error: re, which
        # has no budget, confirms short ASCII lines only. (More occurrences of the literal than
        # the searcher tries the pattern around, _AROUND_TRIES: a single one decides at once.)
        ("\\w+Error", b"a" * 1_000_000 + b" Error" * 20),
    ],
    ids=["long-line", "short-line", "long-ascii-line"],
)
def test_catastrophic_pattern_is_bounded(isolated, pattern, line):
    """A pattern that backtracks catastrophically ends with an error naming the file."""
    (isolated / "f.txt").write_bytes(line + b"\n")
    started = time.monotonic()
    out, err, status = run_shellfree([pattern, "f.txt"])
    assert time.monotonic() - started < 5.0
    assert status == 2, (status, err)
    message = b"f.txt: regex search took longer than 1s; the pattern backtracks catastrophically"
    assert message in err, err


def test_output_file_inside_the_tree_is_not_searched(corpus, reference_rg, tmp_path):
    """rg skips the file its stdout is redirected to (rg-semantics §0, harness fact 5)."""
    import subprocess

    for name, cmd in (("ours.txt", [sys.executable, "-m", "shellfree", "rg"]), ("theirs.txt", [reference_rg])):
        with open(name, "wb") as out:
            # Pre-fill so the file itself would match if it were searched.
            out.write(b"Sherlock\n")
            out.flush()
            subprocess.run([*cmd, "--sort", "path", "-l", "Sherlock"], stdout=out,
                           stdin=subprocess.DEVNULL, check=False)
    ours = Path("ours.txt").read_bytes()
    theirs = Path("theirs.txt").read_bytes()
    assert b"ours.txt" not in ours and b"theirs.txt" not in theirs
    assert ours.replace(b"theirs.txt\n", b"") == theirs.replace(b"ours.txt\n", b"")


# A case-insensitive run emitted as one (?i:…) group may take in only characters without
# case: after (?i:x) a case-sensitive K stays K (it had matched "xk" on lines that are not
# plain ASCII, which the regex module confirms; ASCII lines go to re, which had it right).
INLINE_CASE = ["(?i:x)K", "(?i:x)_-", "(?i:xy)Kz", "(?i)x(?-i:K)", "(?i:é)É", "a(?i:b)C"]


@pytest.mark.parametrize("pattern", INLINE_CASE)
def test_inline_case_group_ends_where_it_ends(isolated, reference_rg, pattern):
    lines = ["xK", "XK", "xk", "Xk", "x_-", "xyKz", "XYkz", "éÉ", "éé", "abC", "aBc", "ABC"]
    (isolated / "f.txt").write_bytes("".join(f"{line} ü\n" for line in lines).encode())
    same(reference_rg, ["-n", pattern, "f.txt"])


# --mmap maps walked files too, not only named ones: one buffer, so NUL bytes past the first
# 64 KiB are noticed only in a printed line, and nothing of a file whose first 64 KiB hold
# one is searched (read in fills, its lines before the NUL's fill would be).
MMAP_WALKED = {
    "d/b": b"a\nx\0y\nabc\n",
    "d/c": b"abc\n",
    "d/big": b"abc\n" + b"x" * 70000 + b"\n" + b"q\0\n" + b"abc\n",
}


@pytest.mark.parametrize("args", [["-n", "a"], ["-c", "a"], ["-l", "a"], ["--json", "a"],
                                  ["-n", "-a", "a"], ["--binary", "-n", "a"], ["-n", "-v", "x"],
                                  ["-o", "-b", "abc"], ["-n", "q"], ["--heading", "-n", "q"],
                                  ["-n", "-C1", "q"], ["--json", "q"], ["--json", "-C1", "q"]])
def test_walked_files_are_memory_mapped_under_mmap(isolated, reference_rg, args):
    for path, data in MMAP_WALKED.items():
        (isolated / path).parent.mkdir(exist_ok=True)
        (isolated / path).write_bytes(data)
    same(reference_rg, ["--mmap", *args, "d"])


@pytest.mark.parametrize("args", [["--heading", "-n", "q"], ["--heading", "-n", "-A1", "q"]])
def test_no_heading_for_a_file_whose_first_printed_line_is_binary(isolated, reference_rg, args):
    # Named (memory-mapped): rg's sink stops at the first line it would print, which holds a
    # NUL past the pre-scanned 64 KiB, and writes only the binary notice, no heading.
    for path, data in MMAP_WALKED.items():
        (isolated / path).parent.mkdir(exist_ok=True)
        (isolated / path).write_bytes(data)
    same(reference_rg, [*args, "d/big", "d/c"])


# Under -U -v rg hands a context line to its printer alone, with its terminator: -o prints each
# match whole, adding a terminator only to one that does not end in "\n", so a match of only
# the "\n" prints an empty line, where a multi-line match's bare line ends print nothing
# (content-parity case 24003488); under --crlf the terminator it adds is "\r\n", and a match
# ending in a bare "\n" keeps it. An empty match prints too, as an empty line, unless it comes
# right after the previous match (`^` and `$` print one per line).
@pytest.mark.parametrize("content", [
    b"e\nll\nx", b"ab\nll\n\xff", b"a\n\nb\nx", b"e\r\nll\r\nx", b"a\r\n\r\nb\nx",
    b"a\rb\r\n\r\nc\n", b"\n\nx\r\n", b"xy\r\r\n",
])
@pytest.mark.parametrize("args", [["-o"], ["-o", "-n", "--column"], ["-o", "-b", "-A1"]])
@pytest.mark.parametrize("crlf", [[], ["--crlf"]], ids=["lf", "crlf"])
def test_multiline_inverted_context_line_prints_each_match_as_handed(isolated, reference_rg,
                                                                     content, args, crlf):
    (isolated / "f.txt").write_bytes(content)
    for pattern in ("\\p{Any}{0,2}", "(?s:.){1,2}", "[a-z\\n]{0,3}", "(?s:.){0,3}", "\\r?\\n",
                    "x?", "^", "$", "\\b"):
        same(reference_rg, ["-U", "-v", "-m2", "-B2", *crlf, *args, pattern, "f.txt"])


@pytest.fixture
def inverted_context_tree(isolated):
    (isolated / "a").write_bytes(b"\n0x1F")
    (isolated / "b").write_bytes(b"a\n0x1F 0x1F\nb\n")
    (isolated / "c").write_bytes(b"q\r\n0x1F\r\nz\r\n")
    return isolated


@pytest.mark.parametrize("extra", [[], ["-U"], ["--crlf"], ["--max-columns-preview"]])
@pytest.mark.parametrize("context", ["-A1", "-B1", "-C1"])
@pytest.mark.parametrize("columns", ["-M3", "-M20"])
def test_a_long_inverted_context_line_under_only_matching_is_omitted_as_context(
        inverted_context_tree, reference_rg, extra, context, columns):
    # -v -o prints a context line's matches; one longer than -M is "[Omitted long context
    # line]" (content parity seed 36, case 36001876, shrunk to "\n0x1F").
    same(reference_rg, ["-o", "-v", context, columns, *extra, "0x1F"])


@pytest.mark.parametrize("extra", [[], ["-U"], ["--crlf"], ["--max-columns-preview"], ["-n"]])
@pytest.mark.parametrize("context", ["-A1", "-B1", "-C1"])
@pytest.mark.parametrize("columns", ["-M3", "-M8", "-M20"])
def test_a_long_inverted_context_line_under_column_counts_its_matches(
        inverted_context_tree, reference_rg, extra, context, columns):
    # --column makes rg find a -v context line's matches: one longer than -M is "[Omitted long
    # line with N matches]", its preview "[... N more matches]" (content parity seed 43, case
    # 43001810, shrunk to a UTF-16 "  kittenhome\n" with -v --column -B1 -M10 it).
    same(reference_rg, ["--column", "-v", context, columns, *extra, "0x1F"])


@pytest.mark.parametrize("args", [
    ["--heading", "-n", "b", "g"],
    ["--heading", "-o", "b", "g"],
    ["--heading", "-n", "-A1", "b", "g"],
    ["-I", "--heading", "-n", "b", "f", "g"],
    ["-I", "--heading", "-n", "-C1", "b", "f", "g"],
    ["-H", "--heading", "-n", "b", "g"],
    ["--heading", "-n", "b", "f", "g"],
])
def test_heading_shows_a_path_only_where_paths_are_shown(isolated, reference_rg, args):
    # rg --heading prints no heading for the one file it names (nor under -I), only the blank
    # line between files (found by a random -U probe of the fourteenth session).
    (isolated / "f").write_bytes(b"b  b\nx\n")
    (isolated / "g").write_bytes(b"x\nb\n")
    same(reference_rg, args)


def test_heading_on_stdin_shows_no_path(isolated, reference_rg):
    argv = ["--heading", "-n", "b", "-"]
    theirs = subprocess.run([reference_rg, "--no-config", *argv], input=b"a\nb\n", capture_output=True)
    ours = subprocess.run([sys.executable, "-m", "shellfree", "rg", "--no-config", *argv],
                          input=b"a\nb\n", capture_output=True)
    assert ours.stdout == theirs.stdout == b"2:b\n"


@pytest.mark.parametrize("args", [
    ["--sort", "path", "--heading", "--null", "-e", "b|zz", "f", "g"],
    ["--sort", "path", "--heading", "--null", "--crlf", "-e", "b|zz", "f", "g"],
    ["--sort", "path", "--heading", "--crlf", "-e", "b|zz", "f", "g"],
    ["--sort", "path", "--heading", "--crlf", "-C1", "-e", "b", "f", "g"],
    ["-j1", "--heading", "--crlf", "-e", "b|zz", "f", "g"],
])
def test_heading_ends_as_rg_ends_it(isolated, reference_rg, args):
    # The heading ends with NUL under --null and "\r\n" under --crlf; the blank line between
    # files with "\r\n" under --crlf when searched single-threaded, as the "--" does.
    (isolated / "f").write_bytes(b"b\nx\n")
    (isolated / "g").write_bytes(b"zz\n")
    theirs = subprocess.run([reference_rg, "--no-config", *args], capture_output=True,
                            stdin=subprocess.DEVNULL)
    ours = subprocess.run([sys.executable, "-m", "shellfree", "rg", "--no-config", *args],
                          capture_output=True, stdin=subprocess.DEVNULL)
    assert (ours.stdout, ours.returncode) == (theirs.stdout, theirs.returncode)


def test_random_output_flag_combinations_agree_with_rg(reference_rg):
    from benchmarks.parity.output_flags_probe import compare

    agree, differ = compare(reference_rg, seed=1, cases=400)
    assert differ == [] and agree == 400


@pytest.mark.parametrize("sort", [["--sortr", "path"], ["--sort", "modified"], ["--sortr", "modified"]])
@pytest.mark.parametrize(
    "args",
    [["-n", "Sherlock"], ["-l", "Sherlock"], ["-c", "Sherlock", "sub", "-", "sherlock", "missing", "."],
     ["--json", "Sherlock"], ["--files-without-match", "-m", "1", "Sherlock"]],
)
def test_a_sorted_search_searches_in_the_sorted_order(corpus, reference_rg, sort, args):
    """A search sorted other than by path, ascending, collects the walk's files, sorts them and
    then searches them (rg's HiArgs::sort), as --files does; shellfree had searched them in the
    walk's order whatever the sort (found by a script of random searches of the session of
    4d6795c). The files' times run against their names' order, with two ties."""
    names = sorted(str(p) for p in Path(".").rglob("*") if p.is_file())
    for i, name in enumerate(reversed(names)):
        seconds = 1_000_000 + 60 * min(i, 5) + 7 * i * (i % 3)
        os.utime(name, (seconds, seconds))
    for tie in names[:2]:
        os.utime(tie, (2_000_000, 2_000_000))
    same(reference_rg, [*sort, *args])


@pytest.mark.parametrize(
    ("flags", "paths"),
    [([], ["a.txt", "bin.dat", "a.txt"]), ([], ["bin.dat", "bin.dat", "a.txt"]),
     (["--binary"], ["d", "a.txt"]), (["--binary"], ["a.txt", "d"]),
     (["--null"], ["a.txt", "bin.dat", "a.txt"]), (["--crlf"], ["a.txt", "bin.dat"])],
)
def test_heading_puts_no_blank_line_before_a_binary_notice(isolated, reference_rg, flags, paths):
    """Under --heading the blank line between files goes before a heading, and a file whose
    output is only the binary notice has none: rg prints the notice right after the previous
    file's lines, and a blank line before the next heading (found by a script of random
    flag sets of the session of 4d6795c; shellfree had put a blank line before the notice)."""
    binary = b"alpha beta\ngamma\nalpha\x00bin\nend alpha\n"
    os.makedirs("d")
    for name, data in {"a.txt": b"alpha\n", "bin.dat": binary, "d/bin.dat": binary}.items():
        Path(name).write_bytes(data)
    same(reference_rg, ["--heading", *flags, "-e", "^alpha", *paths])


@pytest.mark.parametrize(
    "flags",
    [["-a", "--binary"], ["-a", "--no-binary"], ["--binary", "--no-text"], ["-a", "-uuu"],
     ["-uuu", "--no-text"], ["--binary", "-a"], ["-uuu", "-a"], ["--no-binary", "--binary"]],
)
@pytest.mark.parametrize("paths", [[], ["bin.dat", "a.txt"]])
def test_text_and_binary_flags_set_one_mode(isolated, reference_rg, flags, paths):
    """-a/--text, --binary, -uuu and their negations set one binary mode in rg, the last one
    winning (`-a --binary` suppresses a walked binary file's matches behind the notice;
    `--binary --no-text` is the default again); shellfree had kept --text and --binary apart
    (found with the test above)."""
    Path("a.txt").write_bytes(b"bin alpha\n")
    Path("bin.dat").write_bytes(b"alpha beta\nalpha\x00bin\nend alpha\n")
    same(reference_rg, [*flags, "-e", "bin", *paths])


@pytest.mark.parametrize(
    "args",
    [["-f", "empty.pat", "."], ["-f", "empty.pat", "-e", "alpha", "a.txt"],
     ["--files-without-match", "-f", "empty.pat", "."], ["--json", "-f", "empty.pat", "a.txt"],
     ["-f", "empty.pat", "missing"], ["-c", "-f", "empty.pat", "."], ["-v", "-f", "empty.pat", "a.txt"],
     ["-v", "-n", "-f", "empty.pat", "missing", "a.txt"], ["-f", "newline.pat", "a.txt"],
     ["-f", "empty.pat", "-f", "newline.pat", "-c", "a.txt"],
     # With no pattern, -v and a case-insensitive matcher (-i, or -S) rg matches every line
     # (the flag-mix probe's seed 9); -x then every empty line; -S -s is case-sensitive.
     ["-v", "-i", "-f", "empty.pat", "a.txt"], ["-v", "-s", "-S", "-f", "empty.pat", "a.txt"],
     ["-v", "-S", "-s", "-f", "empty.pat", "a.txt"], ["-v", "-i", "-x", "-f", "empty.pat", "a.txt"],
     ["-v", "-i", "--files-without-match", "-f", "empty.pat", "a.txt"]],
)
def test_an_empty_pattern_file_gives_no_pattern(isolated, reference_rg, args):
    """-f of an empty file adds no pattern (one empty line adds the empty one); with no pattern
    at all and no -v, rg searches nothing, prints nothing, not even a missing path's error or
    --json's summary, and exits 1, as under -m 0. shellfree had read the empty file as one
    empty pattern, which matches every line (found by a script of random flag sets of the
    session of 4d6795c)."""
    Path("a.txt").write_bytes(b"alpha\n\nbeta\n")
    Path("empty.pat").write_bytes(b"")
    Path("newline.pat").write_bytes(b"\n")
    same(reference_rg, args)
