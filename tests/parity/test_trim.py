"""--trim: printed lines without their leading ASCII whitespace, byte for byte against rg
15.1 (the cases from a script of the twenty-eighth session)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.parity.trim_probe import compare
from tests.conftest import run_rg, run_shellfree

FILES = {
    # Spaces, tabs, a vertical tab and a form feed are trimmed; a blank line prints empty.
    "a.txt": b"  foo bar\n\t\tfoo\nfoo\n   \n \x0bfoo\n\x0c foo\n",
    # "\r" is trimmed, but not under --crlf, where it belongs to the line terminator.
    "c.txt": b"\r foo\r\n  \r\n\t foo a\r\n",
    # A block under -U, lines led by whitespace.
    "u.txt": b"x\n\t  a    a\n  b a\n",
    "v.txt": b"x\n\t  a    a\nzz\n",
}

CASES = [
    ["-n", "foo"], ["-n", "--crlf", "foo"], ["-n", "foo", "c.txt"], ["--no-trim", "-n", "foo"],
    # Columns and byte offsets come from the whole line.
    ["-b", "--column", "foo"], ["-o", "-b", "--column", "foo"], ["--vimgrep", "foo"],
    # Context lines too; a whitespace-only line prints empty.
    ["-C1", "-n", "bar"], ["-v", "-n", "zzz"],
    # -M measures the trimmed line, previews cut it, counting matches from its start.
    ["-M3", "foo"], ["-M5", "--max-columns-preview", "foo"],
    ["-M4", "--max-columns-preview", "--column", "o"],
    # -o trims a match itself: one of whitespace alone prints an empty line.
    ["-o", "-n", "\\s+"], ["-o", "-n", "--crlf", "\\s+", "c.txt"],
    # -U: each line of a block is trimmed, and -o prints what of a match is left in it.
    ["-U", "-n", "a\\n\\s+b", "u.txt"], ["-U", "-o", "-n", "\\s+a", "u.txt"],
    ["-U", "--column", "-M3", "--max-columns-preview", "a\\n", "u.txt"],
    ["-U", "--column", "-M3", "--max-columns-preview", "a\\n", "v.txt"],
    # --json and the summaries print no lines to trim.
    ["--json", "-c", "foo"],
]


@pytest.mark.parametrize("flags", CASES, ids=" ".join)
def test_trim_prints_what_rg_prints(isolated, reference_rg, flags):
    for name, data in FILES.items():
        Path(name).write_bytes(data)
    argv = ["--sort", "path", "--trim", *flags]
    assert run_shellfree(argv) == run_rg(reference_rg.path, argv)


def test_random_trimmed_searches_agree_with_rg(reference_rg):
    # 300 cases of seed 5 take about 2 s.
    agree, differ = compare(reference_rg.path, 5, 300)
    assert not differ, f"{len(differ)} of {agree + len(differ)} differ, e.g. {differ[0][1]}"
