"""Random combinations of rg's output flags over two named files and a directory.

The printer's choices interact: whether a path is shown (``-H``, ``--no-filename``, one file
or several), how (``--heading``, ``--null``, ``--path-separator``), how lines and the gaps
between them are marked (``-n``, ``--column``, context separators), and which summary mode
replaces them. Each case writes three small files (``f``, ``g``, ``d/h``), picks one flag or
none from each of ten groups, and searches one file, two, the directory or all (walked),
comparing the output with ``rg --sort path`` byte for byte (JSON without its timings), by exit
status and by whether stderr is empty.

    python -m benchmarks.parity.output_flags_probe --seed 1 --cases 1500

prints how many cases agree and lists the others.
"""

from __future__ import annotations

import random

from benchmarks.parity.side_by_side import probe, probe_main

WORDS = [b"a", b"b", b"ab", b"x", b"", b"zz"]
GROUPS = [
    [["--heading"], ["--no-heading"], []],
    [["--null"], []],
    [["-H"], ["--no-filename"], []],
    [["-n"], ["-N"], ["--column"], []],
    [["-A1"], ["-B1"], ["-C1"], []],
    [["--context-separator", "XX"], ["--no-context-separator"], []],
    [["-o"], ["-c"], ["--count-matches"], ["-l"], ["--files-without-match"], ["--json"], ["-v"],
     ["-b"], []],
    [["--path-separator", "#"], []],
    [["--include-zero"], []],
    [["-m1"], []],
    [["--crlf"], []],
]
TARGETS = [["f"], ["f", "g"], ["d"], [], ["d", "f"], ["d/h"]]
PATTERNS = ["a", "b|zz", "^$", "x?", "zzz"]


def make_case(rnd: random.Random) -> tuple[dict, list[str]]:
    """One case: the files and the search's flags and targets."""
    files = {}
    for name in ("f", "g", "d/h"):
        lines = [b" ".join(rnd.choice(WORDS) for _ in range(rnd.randint(0, 3)))
                 for _ in range(rnd.randint(0, 5))]
        files[name] = b"\n".join(lines) + rnd.choice([b"", b"\n"])
    flags = [flag for group in GROUPS for flag in rnd.choice(group)]
    return files, [*flags, "-e", rnd.choice(PATTERNS), *rnd.choice(TARGETS)]


def compare(rg: str, seed: int, cases: int) -> tuple[int, list[tuple[dict, str]]]:
    """Run *cases* random cases; (cases that agree, the others as (the files, the flags))."""
    return probe(rg, make_case, seed, cases, stderr=True)


def main(argv: list[str] | None = None) -> int:
    return probe_main(argv, "python -m benchmarks.parity.output_flags_probe", __doc__, compare,
                      cases=1500)


if __name__ == "__main__":
    raise SystemExit(main())
