"""Random ``-r/--replace`` searches: the matches of each printed line replaced by a template.

Each case writes three small files (``f``, ``g``, ``d/h``) of short words, multi-byte
characters, long lines and CRLF line ends, picks a pattern with capture groups (numbered,
named, optional, repeated, inside ``{0}``), a template (``$1``, ``${name}``, ``$0``,
``$$``, references that do not exist, a bare ``$``, ``$1a``), one flag or none from each
group of output flags, and compares the output with ``rg --sort path`` byte for byte (JSON
without its timings), by exit status and by whether stderr is empty.

    python -m benchmarks.parity.replace_probe --seed 1 --cases 1500

prints how many cases agree and lists the others.
"""

from __future__ import annotations

import random

from benchmarks.parity.side_by_side import probe, probe_main, three_files

WORDS = [b"a", b"b", b"ab", b"x", b"", b"zz", b"\xc3\xa9", b"ab" * 12, b"a\r", b"\xe2\x82\xac",
         b"foo", b"bar=1", b"key: value"]
GROUPS = [
    [["-H"], ["-I"], []],
    [["-n"], ["-N"], ["--column"], []],
    [["-A1"], ["-B1"], ["-C1"], []],
    [["-o"], ["-c"], ["-v"], ["-b"], ["--json"], ["--vimgrep"], []],
    [["-M8"], ["-M8", "--max-columns-preview"], ["-M3", "--max-columns-preview"], []],
    [["-U"], []],
    [["-m1"], []],
    [["--crlf"], []],
    [["-i"], []],
]
TARGETS = [["f"], ["f", "g"], ["d"], []]
PATTERNS = ["(a)(b)?", "(?P<k>\\w+)=(?P<v>\\d)", "(\\w+): (\\w+)", "a|(b)", "(x)?", "(a)+",
            "(z)(z)", "(?:a)(b)", "(a){0}b", "(é|€)", "^", "$", "(?<w>o+)", "b(\\n)?x",
            "(a)\\n", "", "x*"]
TEMPLATES = ["[$0]", "$1", "${1}", "$2-$1", "$k=$v", "${k}", "$$", "$", "$1a", "${1}a", "${0",
             "$9", "", "<$w>", "$00", "-$-", "${}", "X"]


def make_case(rnd: random.Random) -> tuple[dict, list[str]]:
    """One case: the files and the search's flags and targets."""
    files = three_files(rnd, WORDS, 4)
    flags = [flag for group in GROUPS for flag in rnd.choice(group)]
    template = rnd.choice(TEMPLATES)
    replace = ["-r", template] if rnd.random() < 0.7 else [f"--replace={template}"]
    return files, [*flags, *replace, "-e", rnd.choice(PATTERNS), *rnd.choice(TARGETS)]


def compare(rg: str, seed: int, cases: int) -> tuple[int, list[tuple[dict, str]]]:
    """Run *cases* random cases; (cases that agree, the others as (the files, the flags))."""
    return probe(rg, make_case, seed, cases, stderr=True)


def main(argv: list[str] | None = None) -> int:
    return probe_main(argv, "python -m benchmarks.parity.replace_probe", __doc__, compare,
                      cases=1500)


if __name__ == "__main__":
    raise SystemExit(main())
