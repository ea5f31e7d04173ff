"""Random ``--vimgrep`` searches: each line printed once per match it holds.

``--vimgrep`` turns on paths, line numbers and columns (unless ``-I``, ``-N`` or
``--no-column`` say otherwise, wherever they stand) and turns ``--heading`` off, and it
prints a matching line once for every match, each time with that match's column and byte
offset; under ``-U`` only the line a match starts on. Each case writes three small files
(``f``, ``g``, ``d/h``) of short words, multi-byte characters, long lines and CRLF line
ends, picks one flag or none from each group, and compares the output with ``rg --sort
path`` byte for byte, by exit status and by whether stderr is empty.

    python -m benchmarks.parity.vimgrep_probe --seed 1 --cases 1500

prints how many cases agree and lists the others.
"""

from __future__ import annotations

import random

from benchmarks.parity.side_by_side import probe, probe_main, three_files

WORDS = [b"a", b"b", b"ab", b"x", b"", b"zz", b"\xc3\xa9", b"ab" * 12, b"a\r", b"\xe2\x82\xac"]
GROUPS = [
    [["--heading"], ["--no-heading"], []],
    [["--null"], []],
    [["-H"], ["-I"], []],
    [["-n"], ["-N"], ["--column"], ["--no-column"], []],
    [["-A1"], ["-B1"], ["-C1"], []],
    [["-o"], ["-c"], ["-l"], ["-v"], ["-b"], []],
    [["-M8"], ["-M8", "--max-columns-preview"], ["-M3", "--max-columns-preview"], []],
    [["-U"], ["-U", "--multiline-dotall"], []],
    [["-m1"], []],
    [["--crlf"], []],
]
TARGETS = [["f"], ["f", "g"], ["d"], [], ["d/h"]]
PATTERNS = ["a", "b|zz", "^$", "x?", "zzz", "ab", "b\\nx", "a\\n", "(?s)a.b", "^", "$", "\\w+",
            "b\\s*a", "é|€"]


def make_case(rnd: random.Random) -> tuple[dict, list[str]]:
    """One case: the files and the search's flags and targets."""
    files = three_files(rnd, WORDS, 4)
    flags = [flag for group in GROUPS for flag in rnd.choice(group)]
    order = rnd.randrange(len(flags) + 1)  # --vimgrep anywhere among the other flags
    flags[order:order] = ["--vimgrep"]
    return files, [*flags, "-e", rnd.choice(PATTERNS), *rnd.choice(TARGETS)]


def compare(rg: str, seed: int, cases: int) -> tuple[int, list[tuple[dict, str]]]:
    """Run *cases* random cases; (cases that agree, the others as (the files, the flags))."""
    return probe(rg, make_case, seed, cases, stderr=True)


def main(argv: list[str] | None = None) -> int:
    return probe_main(argv, "python -m benchmarks.parity.vimgrep_probe", __doc__, compare,
                      cases=1500)


if __name__ == "__main__":
    raise SystemExit(main())
