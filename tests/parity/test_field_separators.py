"""--field-match-separator and --field-context-separator: what follows the path, line number,
column and byte offset of matching and context lines (escapes as in --context-separator,
summaries and --null's NUL untouched), byte for byte against rg 15.1. opencode's grep tool,
for one, runs `rg -nH --field-match-separator=| ...`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_rg, run_shellfree

SEPARATORS = ["--field-match-separator=|", "--field-context-separator=#",
              "--field-match-separator=\\t", "--field-match-separator=",
              "--field-match-separator=%d", "--field-context-separator=\\x00"]
FLAGS = [["-n", "-C1", "--column", "-b"], ["-c"], ["--vimgrep"], ["-o", "--null"],
         ["-M3", "-n"], ["-n"], ["-n", "--heading"], [], ["-nH", "--hidden"]]


@pytest.mark.parametrize("flags", FLAGS, ids=" ".join)
@pytest.mark.parametrize("separator", SEPARATORS)
def test_field_separators_print_what_rg_prints(isolated, reference_rg, separator, flags):
    Path("a.txt").write_bytes(b"foo bar foo\nbaz\nfoo\nx foo y foo z\n")
    Path("b.txt").write_bytes(b"nothing\n")
    argv = ["--sort", "path", separator, *flags, "foo", "a.txt", "b.txt"]
    assert run_shellfree(argv) == run_rg(reference_rg.path, argv)
