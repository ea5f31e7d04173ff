"""-r/--replace: the matches of each printed line replaced by a template of their captures,
byte for byte against rg 15.1 (the cases from a script of the twenty-eighth session)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.parity.replace_probe import compare
from tests.conftest import run_rg, run_shellfree

FILES = {
    "a.txt": b"foo bar foo\nbaz\nfoo\nx foo y foo z\n",
    "k.txt": b"key=1 other=2\r\nname: value\r\n",
    "u.txt": "fooé\nab\ncd\n".encode(),
    "lf.txt": b"zz x\na bar=1\na key: value bar=1 b\n\n",
    "p.txt": "abababababab € foo\nkey: value bar=1 a\n".encode(),
}

# The template's syntax, taken as given: $$, $n, ${n}, $name, a name that is not a group
# (`$1a` is the group named "1a"), numbers too large for a u32, `$00`, and a "$" that starts
# no reference (`${0`, `$-`, `${}`, a trailing `$`); no escapes (`\t` stays two bytes).
TEMPLATES = ["[$0]", "$1-${2}-$$-$x", "${0", "$", "a$", "$-$0", "${}", "$99999999999",
             "$00", "$1a", "${1}a", "\\t", "", "$k", "${k}<$v>"]


@pytest.mark.parametrize("template", TEMPLATES)
def test_templates_expand_as_rgs(isolated, reference_rg, template):
    for name, data in FILES.items():
        Path(name).write_bytes(data)
    argv = ["--sort", "path", "-r", template, "(fo)(o)|(?P<k>\\w+)=(?P<v>\\d)"]
    assert run_shellfree(argv) == run_rg(reference_rg.path, argv)


CASES = [
    # The last -r wins; = and clustered values.
    ["-r", "X", "-r", "Y", "foo"], ["--replace=[$0]", "foo"], ["-rX", "foo"],
    # Empty matches between the bytes of a character get the template too (the match only).
    ["-r", "[$0]", "x*", "u.txt"],
    # -o prints the replacements; --column and -b their places in the replaced line.
    ["-o", "-r", "", "foo"], ["-o", "-b", "--column", "-r", "<$0>", "o+"],
    # --json adds each submatch's replacement and keeps the line; -c ignores -r.
    ["--json", "-r", "X$1", "(o)"], ["-c", "-r", "X", "foo"],
    # -M measures the replaced line and counts its replacements.
    ["-M10", "-r", "QQQQQQ", "foo"], ["-M10", "--max-columns-preview", "-r", "Q", "o"],
    # Under -v the context lines, the ones with matches, are replaced.
    ["-v", "-C1", "-r", "[$0]", "o"],
    # --crlf keeps "\r\n" out of the match; -U replaces across lines and renumbers nothing.
    ["--crlf", "-r", "<$0>", "\\w+$", "k.txt"], ["-U", "-r", "X", "foo\\nbaz"],
    ["-U", "-n", "--crlf", "-r", "", "(?m)$", "k.txt"],
    # -U --crlf: a line with replacements is printed without its terminator and then "\r\n"
    # (-v's selected lines too); an empty replacement of a block's last "\n" leaves an empty
    # span at its end, which a preview does not count.
    ["-C1", "-v", "-U", "-m1", "--crlf", "-r", "Q", "$", "lf.txt"],
    ["-N", "-b", "-M3", "--max-columns-preview", "-U", "--crlf", "-r", "", "(a)\n", "p.txt"],
    # --vimgrep prints the replaced line once per replacement.
    ["--vimgrep", "-r", "<$0>", "foo"],
]


@pytest.mark.parametrize("flags", CASES, ids=" ".join)
def test_replace_prints_what_rg_prints(isolated, reference_rg, flags):
    for name, data in FILES.items():
        Path(name).write_bytes(data)
    argv = ["--sort", "path", *flags]
    ours, theirs = run_shellfree(argv), run_rg(reference_rg.path, argv)
    if "--json" in flags:  # rg's timings
        import re

        timings = re.compile(rb'"elapsed(?:_total)?":\{[^{}]*\},?')
        ours = (timings.sub(b"", ours[0]),) + ours[1:]
        theirs = (timings.sub(b"", theirs[0]),) + theirs[1:]
    assert ours == theirs


def test_random_replacements_agree_with_rg(reference_rg):
    # 300 cases of seed 4 take about 2 s.
    agree, differ = compare(reference_rg.path, 4, 300)
    assert not differ, f"{len(differ)} of {agree + len(differ)} differ, e.g. {differ[0][1]}"
