"""Flag values as rg parses them: its numbers and the flag names in its messages, compared with
the reference binary (found by a script of odd flag values of the session of 4d6795c)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_rg, run_shellfree

# rg parses counts with Rust's u64::from_str: an optional "+", ASCII digits only, at most
# 2**64 - 1; its messages name the flag as it was typed.
NUMBER_ARGS = [
    ["-C", "+1"], ["-m", "+0"], ["-j", "+2"], ["--max-depth=+1"],
    ["-C", "18446744073709551615"], ["-C", "18446744073709551616"],
    ["-j", "99999999999999999999"], ["-d", "18446744073709551616"],
    ["-C", "\u0661"], ["-C", "1_0"], ["-C", " 1"], ["-C", "+"], ["-C", "-"], ["-C", ""],
    ["-A", "x"], ["-nAx"], ["-B", "x"], ["-M", "x"], ["-m", "-1"], ["--context=x"],
    ["--after-context", "x"], ["-C=3"],
]


@pytest.mark.parametrize("flags", NUMBER_ARGS, ids=lambda f: " ".join(f) or "empty")
def test_counts_parse_as_rg_parses_them(isolated, reference_rg, flags):
    Path("a.txt").write_bytes(b"one alpha\ntwo\nthree alpha\n")
    argv = ["--sort", "path", *flags, "alpha", "a.txt"]
    assert run_shellfree(argv) == run_rg(reference_rg, argv)


# --files is one of rg's modes: a search mode after it wins (`--files -l PAT` searches), and
# --files after one wins (the pattern is then a path); --no-json ends a JSON search only.
MODE_ARGS = [
    ["--files", "-l", "alpha", "."], ["-l", "--files", "alpha", "."], ["--files", "-c", "alpha", "."],
    ["--files", "--count-matches", "alpha", "."], ["--files", "--files-without-match", "alpha", "."],
    ["-c", "--files", "."], ["--files", "-l", "--files", "."], ["--json", "--files", "--no-json", "."],
    ["--files", "--json", "--no-json", "alpha", "."], ["--files", "--no-json", "."],
]


@pytest.mark.parametrize("flags", MODE_ARGS, ids=" ".join)
def test_files_and_the_search_modes_override_each_other(isolated, reference_rg, flags):
    Path("a.txt").write_bytes(b"one alpha\n")
    Path("b.txt").write_bytes(b"beta\n")
    argv = ["--sort", "path", *flags]
    assert run_shellfree(argv) == run_rg(reference_rg, argv)
