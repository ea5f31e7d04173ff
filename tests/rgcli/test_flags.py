"""Flag values as rg parses them: its numbers and the flag names in its messages, compared with
the reference binary (found by a script of odd flag values of the session of 4d6795c)."""

from __future__ import annotations

import os
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


# -e and -f patterns keep their command-line order (the first alternative to match at a
# place wins under -o); a missing pattern file is named as itself; a fourth -u is refused;
# under a sort that collects the files, rg walks (and reports a missing root) before it
# builds the regex, so a bad pattern's error comes after the walk's.
ORDER_ARGS = [
    ["-o", "-f", "newline.pat", "-e", "^alpha", "a.txt"],
    ["-o", "-e", "^alpha", "-f", "newline.pat", "a.txt"],
    ["-f", "words.pat", "-f", "missing.pat", "a.txt"],
    ["-uuuu", "alpha"], ["-uu", "-uu", "alpha"], ["-uuu", "--unrestricted", "alpha"],
    ["--sortr", "path", "-e", "a\\nb", "missing", "."],
    ["--sort", "modified", "-e", "[", "missing", "."],
    ["--sort", "path", "-e", "[", "missing", "."],
    ["--sortr", "path", "-e", "\\x00", "missing", "."],
]


@pytest.mark.parametrize("flags", ORDER_ARGS, ids=" ".join)
def test_patterns_and_errors_come_in_rgs_order(isolated, reference_rg, flags):
    Path("a.txt").write_bytes(b"alpha beta\n\nalpha\n")
    Path("newline.pat").write_bytes(b"\n")
    Path("words.pat").write_bytes(b"alpha\nbeta\n")
    argv = ["--sort", "path", *flags]
    assert run_shellfree(argv) == run_rg(reference_rg, argv)


# --color never and auto print what rg prints into a pipe (the flag was refused as unknown
# before, though agents' commands often carry --color=never); its value errors are rg's.
COLOR_ARGS = [
    ["--color=never", "alpha", "."], ["--color", "auto", "-n", "alpha", "."],
    ["--color", "always", "--color=never", "alpha", "."], ["--color=never", "-c", "alpha"],
    ["--color=never", "--files"], ["--color"], ["--color="], ["--color=NEVER", "alpha"],
    ["--color", "alpha", "."], ["--color=never", "--color"],
]


@pytest.mark.parametrize("flags", COLOR_ARGS, ids=" ".join)
def test_color_never_and_auto_print_rgs_piped_output(isolated, reference_rg, flags):
    Path("a.txt").write_bytes(b"one alpha\ntwo\n")
    argv = ["--sort", "path", *flags]
    assert run_shellfree(argv) == run_rg(reference_rg, argv)


@pytest.mark.parametrize("value", ["always", "ansi"])
def test_color_that_rg_would_print_is_refused_clearly(isolated, value):
    # shellfree never colours: rather than print uncoloured lines where rg prints coloured
    # ones, it says so and prints nothing (exit 2, as for a flag it does not know).
    Path("a.txt").write_bytes(b"one alpha\n")
    out, err, status = run_shellfree(["--color", value, "alpha", "a.txt"])
    assert (status, out) == (2, b"")
    assert err == (f"rg: --color {value}: shellfree prints no colours; use --color never or"
                   f" auto (rg's output into a pipe)\n").encode()


# --line-buffered and --block-buffered only decide when output is flushed (the last wins,
# their negations restore rg's choice): the bytes are rg's.
BUFFERING_ARGS = [
    ["--line-buffered", "alpha", "."], ["--block-buffered", "-n", "alpha", "."],
    ["--line-buffered", "--no-line-buffered", "alpha", "."], ["--no-block-buffered", "alpha"],
    ["--line-buffered=yes", "alpha"], ["--block-buffered", "--files"],
]


@pytest.mark.parametrize("flags", BUFFERING_ARGS, ids=" ".join)
def test_buffering_flags_are_accepted_as_rg_accepts_them(isolated, reference_rg, flags):
    Path("a.txt").write_bytes(b"one alpha\ntwo\n")
    argv = ["--sort", "path", *flags]
    assert run_shellfree(argv) == run_rg(reference_rg, argv)


# -f files: a line that is not UTF-8 is refused with rg's message (its bytes escaped as rg
# escapes them), where shellfree searched for it; a NUL read from the file is searched for
# when every pattern is a plain case-sensitive literal (rg then skips its regex checks), and
# refused otherwise; stdin is read once; a directory's read error has rg's spacing.
PATTERN_FILE_ARGS = [
    ["-f", "invalid.pat", "a.txt"], ["-F", "-f", "invalid.pat", "a.txt"],
    ["-f", "escapes.pat", "a.txt"], ["-f", "utf16.pat", "a.txt"],
    ["-f", "invalid.pat", "-f", "missing.pat", "a.txt"],
    ["-f", "nul.pat", "nul.txt"], ["-f", "nul.pat", "-e", "alpha", "a.txt"],
    ["-a", "-o", "-f", "nul.pat", "nul.txt"], ["-w", "-c", "-f", "nul.pat", "nul.txt"],
    ["-i", "-f", "nul.pat", "nul.txt"], ["-S", "-f", "nul.pat", "nul.txt"],
    ["-f", "nul.pat", "-e", "a.pha", "a.txt"], ["-f", "nulclass.pat", "nul.txt"],
    ["-F", "-f", "nulclass.pat", "nul.txt"], ["-f", "nuldash.pat", "nul.txt"],
    ["-f", "-", "-f", "-", "a.txt"], ["-f", "-", "-f", "words.pat", "-f", "-", "a.txt"],
    ["-f", "dir", "a.txt"],
]


@pytest.mark.parametrize("flags", PATTERN_FILE_ARGS, ids=" ".join)
def test_pattern_files_are_read_as_rg_reads_them(isolated, reference_rg, flags):
    Path("a.txt").write_bytes(b"alpha beta\n\nalpha\n")
    Path("nul.txt").write_bytes(b"xx hel\0lo yy\na\0b\nab\n")
    Path("words.pat").write_bytes(b"alpha\n")
    Path("invalid.pat").write_bytes(b"alpha\r\na\xffb\nbeta\n")
    Path("escapes.pat").write_bytes("é".encode() + b" \xff~\\\x7f\"\x00\t\x01\n")
    Path("utf16.pat").write_bytes(b"\xff\xfeh\x00\n\x00")
    Path("nul.pat").write_bytes(b"hel\0lo\n")
    Path("nulclass.pat").write_bytes(b"a[\0]b\n")
    Path("nuldash.pat").write_bytes(b"a-\0\n")
    Path("dir").mkdir()
    argv = ["--sort", "path", *flags]
    assert run_shellfree(argv) == run_rg(reference_rg, argv)


# The negations rg has of -v and of features shellfree lacks (refused as unknown before).
NEGATION_ARGS = [
    ["-v", "--no-invert-match", "alpha", "a.txt"], ["--no-invert-match", "-v", "alpha", "a.txt"],
    ["--no-pcre2-unicode", "-o", "\\w+", "u.txt"],
    ["--no-pcre2-unicode", "--pcre2-unicode", "-o", "\\w+", "u.txt"],
    ["--no-pcre2", "--no-auto-hybrid-regex", "--no-pre", "--no-search-zip", "--no-encoding",
     "--no-stats", "alpha", "a.txt"],
]


@pytest.mark.parametrize("flags", NEGATION_ARGS, ids=" ".join)
def test_negations_rg_accepts(isolated, reference_rg, flags):
    Path("a.txt").write_bytes(b"alpha beta\n\nalpha\n")
    Path("u.txt").write_bytes("naïve café\n".encode())
    argv = ["--sort", "path", *flags]
    assert run_shellfree(argv) == run_rg(reference_rg, argv)


# A value that is not UTF-8: rg refuses it for every flag but the path-valued ones (-f,
# --ignore-file), a separator in words of its own; and it writes a path that is not UTF-8
# in a message with U+FFFD for what is not UTF-8 (Path::display). shellfree searched for
# such a pattern, printed such a separator, and wrote the path's raw bytes.
NOT_UTF8 = os.fsdecode(b"a\xffb")
BAD_VALUE_ARGS = [
    [flag, NOT_UTF8, "-C1", "alpha", "a.txt"] for flag in (
        "-e", "--regexp", "-r", "--replace", "-g", "--iglob", "--context-separator",
        "--field-match-separator", "--field-context-separator", "--path-separator", "--sort",
        "-m", "--max-filesize", "--color", "-M", "-A", "-j")
] + [["-e" + NOT_UTF8, "a.txt"], ["--regexp=" + NOT_UTF8, "a.txt"], ["-nge" + NOT_UTF8]]
LOSSY_PATH_ARGS = [
    ["alpha", os.fsdecode(path)] for path in (b"a\xffb", b"a\xf0\x9f\x98b", b"x\xed\xa0\x80y")
] + [["--files", os.fsdecode(b"\xc3")], ["-f", NOT_UTF8, "a.txt"],
     ["--ignore-file", NOT_UTF8, "alpha", "a.txt"]]


@pytest.mark.skipif(os.name == "nt", reason="a path that is not UTF-8 is POSIX's")
@pytest.mark.parametrize("flags", BAD_VALUE_ARGS + LOSSY_PATH_ARGS, ids=ascii)
def test_values_and_paths_that_are_not_utf8(isolated, reference_rg, flags):
    Path("a.txt").write_bytes(b"alpha beta\n")
    argv = ["--sort", "path", *flags]
    assert run_shellfree(argv) == run_rg(reference_rg, argv)


# An unknown long flag gets rg's "similar flags that are available" line (its flag table, the
# three-character pieces' Jaccard index at 0.4); an rg flag shellfree refuses gets none.
def _misspellings(count: int) -> list[str]:
    import random

    from shellfree.rgcli.flag_names import RG_FLAG_NAMES

    names = [name for names in RG_FLAG_NAMES for name in names]
    rnd = random.Random(29)
    out = ["hiden", "count-match", "no-ignor", "context-sep", "max-count5", "xo-filename",
           "pce2-unicode", "enncoding", "Hidden", "HIDEN", "colour", "hiden=1"]
    while len(out) < count:
        name = list(rnd.choice(names))
        for _ in range(rnd.randint(1, 3)):
            at = rnd.randrange(len(name))
            choice = rnd.random()
            if choice < 0.4 and len(name) > 3:
                del name[at]
            elif choice < 0.7:
                name.insert(at, rnd.choice("abcdefghijklmnopqrstuvwxyz-"))
            else:
                name[at] = rnd.choice("abcdefghijklmnopqrstuvwxyz-")
        text = "".join(name).strip("-")
        if text and text not in names:
            out.append(text)
    return out


@pytest.mark.parametrize("name", _misspellings(120))
def test_an_unknown_flag_gets_rgs_suggestions(isolated, reference_rg, name):
    Path("a.txt").write_bytes(b"alpha\n")
    argv = ["--" + name, "alpha", "a.txt"]
    assert run_shellfree(argv) == run_rg(reference_rg, argv)


def test_a_refused_rg_flag_gets_no_suggestions(isolated):
    Path("a.txt").write_bytes(b"alpha\n")
    assert run_shellfree(["--type", "py", "alpha", "a.txt"]) == (
        b"", b"rg: unrecognized flag --type\n", 2)
