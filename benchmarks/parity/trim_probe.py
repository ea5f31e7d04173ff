"""Random ``--trim`` searches: printed lines without their leading ASCII whitespace.

rg trims spaces, tabs, vertical tabs, form feeds and carriage returns (never a byte of the
line terminator, which under ``--crlf`` includes ``\\r``) from the lines it prints, context
lines and ``-o``'s matches too, after it has taken columns and byte offsets from the whole
line and before ``-M`` measures it. Each case writes three small files (``f``, ``g``,
``d/h``) whose lines start with runs of that whitespace, multi-byte characters and CRLF
line ends, picks one flag or none from each group of output flags, and compares the output
with ``rg --sort path`` byte for byte (JSON without its timings), by exit status and by
whether stderr is empty.

    python -m benchmarks.parity.trim_probe --seed 1 --cases 1500

prints how many cases agree and lists the others.
"""

from __future__ import annotations

import random

from benchmarks.parity.side_by_side import probe, probe_main, three_files

LEADS = [b"", b" ", b"  ", b"\t", b" \t ", b"\x0b", b"\x0c", b"\r", b" \r ", b"\xc2\xa0"]
WORDS = [b"a", b"b", b"ab", b"x", b"", b"zz", b"\xc3\xa9", b"ab" * 12, b"a\r", b"  a"]
GROUPS = [
    [["-H"], ["-I"], []],
    [["-n"], ["-N"], ["--column"], []],
    [["-A1"], ["-B1"], ["-C1"], []],
    [["-o"], ["-c"], ["-v"], ["-b"], ["--json"], ["--vimgrep"], ["-r", "<$0>"], []],
    [["-M4"], ["-M8", "--max-columns-preview"], ["-M3", "--max-columns-preview"], []],
    [["-U"], []],
    [["-m1"], []],
    [["--crlf"], []],
    [["--no-trim"], []],
]
TARGETS = [["f"], ["f", "g"], ["d"], []]
PATTERNS = ["a", "b|zz", "^$", "x?", "ab", "b\\nx", "a\\n", "^\\s+a", "\\s", "$", "é", " a"]


def make_case(rnd: random.Random) -> tuple[dict, list[str]]:
    """One case: the files and the search's flags and targets."""
    files = three_files(rnd, WORDS, 3, LEADS)
    flags = [flag for group in GROUPS for flag in rnd.choice(group)]
    order = rnd.randrange(len(flags) + 1)  # --trim anywhere among the other flags
    flags[order:order] = ["--trim"]
    return files, [*flags, "-e", rnd.choice(PATTERNS), *rnd.choice(TARGETS)]


def compare(rg: str, seed: int, cases: int) -> tuple[int, list[tuple[dict, str]]]:
    """Run *cases* random cases; (cases that agree, the others as (the files, the flags))."""
    return probe(rg, make_case, seed, cases, stderr=True)


def main(argv: list[str] | None = None) -> int:
    return probe_main(argv, "python -m benchmarks.parity.trim_probe", __doc__, compare,
                      cases=1500)


if __name__ == "__main__":
    raise SystemExit(main())
