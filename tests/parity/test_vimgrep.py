"""--vimgrep: a matching line printed once per match, with that match's column and byte
offset, paths always, no headings; under -U the line each match overlaps first. Byte for
byte against rg 15.1, the cases from a script of the twenty-eighth session."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.parity.vimgrep_probe import compare
from tests.conftest import run_rg, run_shellfree

FILES = {
    "a.txt": b"foo bar foo\nbaz\nfoo\nx foo y foo z\n",
    "b.txt": b"nothing\n",
    "u.txt": b"ab\ncd\n\nef\n",
    "p.txt": b"abcdefgh x y\nzz\n",
    "q.txt": b"abc\nzz\n",
    "r.txt": b"abc\r\nzz\r\n",
}

CASES = [
    # Paths, line numbers and columns on; -I, -N, --no-column switch them off wherever they
    # stand; --heading is off in any case; summaries get the path too.
    ["foo"], ["foo", "a.txt"], ["-I", "foo", "a.txt"], ["foo", "a.txt", "-I"],
    ["-N", "foo", "a.txt"], ["--no-column", "foo", "a.txt"], ["--heading", "foo"],
    ["-c", "foo", "a.txt"], ["-l", "foo", "a.txt"], ["-I", "-H", "foo", "a.txt"],
    # Each match's byte offset (the line's offset plus the match's), context lines as they
    # are, -o's matches, a line with no match under -v, --null.
    ["-b", "foo", "a.txt"], ["-C1", "foo"], ["-o", "-b", "foo", "a.txt"], ["-v", "foo", "a.txt"],
    ["--null", "foo", "a.txt"],
    # -M: the stand-in once per match, counting the line's matches.
    ["-M5", "foo", "a.txt"], ["-M5", "--max-columns-preview", "foo", "a.txt"],
    # Empty matches, also at the end of the line.
    ["-e", "", "b.txt"], ["x*", "b.txt"],
    # -U: the first line a match overlaps, at that line's offset; none for an empty match at
    # a line's start (^), the line for one at its end ($), the empty line for a "\n".
    ["-U", "-b", "^", "u.txt"], ["-U", "-b", "$", "u.txt"], ["-U", "-b", "\\n", "u.txt"],
    ["-U", "-b", "\\nef", "u.txt"], ["-U", "-b", "(?s)b.*e", "u.txt"],
    ["-U", "-b", "c|d|\\n\\n", "u.txt"], ["-U", "-b", "^|b\\n", "u.txt"],
    # -U with -M: the line measured without its terminator ("abc" fits -M3), a line too long
    # stands in and the match goes on to its next line, a preview counts the match alone.
    ["-U", "-M3", "a|\\n\\n", "q.txt"], ["-U", "-M3", "a|\\n\\n", "r.txt"],
    ["-U", "--crlf", "-M3", "a|\\n\\n", "r.txt"], ["-U", "-M3", "y\\nz|x", "p.txt"],
    ["-U", "-M3", "--max-columns-preview", "b|x|y|\\n\\n", "p.txt"],
    ["-U", "-M2", "--max-columns-preview", "c$|\\n\\n", "q.txt"],
    # A -v context line under -U is printed alone, as without -U.
    ["-U", "-v", "-C1", "--crlf", "$", "r.txt"],
]


@pytest.mark.parametrize("flags", CASES, ids=" ".join)
def test_vimgrep_prints_what_rg_prints(isolated, reference_rg, flags):
    for name, data in FILES.items():
        Path(name).write_bytes(data)
    argv = ["--sort", "path", "--vimgrep", *flags]
    assert run_shellfree(argv) == run_rg(reference_rg.path, argv)


def test_random_vimgrep_searches_agree_with_rg(reference_rg):
    # 300 cases of seed 3 take about 2 s; rg 15.1 panics on none of them.
    agree, differ = compare(reference_rg.path, 3, 300)
    assert not differ, f"{len(differ)} of {agree + len(differ)} differ, e.g. {differ[0][1]}"
