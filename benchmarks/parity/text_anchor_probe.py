"""Random ``\\A`` and ``\\z`` searches of small walked files under context options.

A pattern with ``\\A`` or ``\\z`` makes rg search line by line, each line its own haystack,
and its printer then re-finds a matching line's matches in the line buffer the line was found
in: ``\\A`` holds there only on a line at the buffer's front. Where the buffer starts depends
on how rg read the file (a 3-byte first read, 64 KiB fills, an unterminated last line handed
over by a read of nothing) and, under context options, on the lines each roll keeps (the last
ones searched, unless they were printed). Each case writes one small walked file (a few short
lines, sometimes after 14,000 lines that push it past the first fill) and runs one search in
one output mode, comparing it with rg byte for byte (JSON without its timings) and by exit
status.

    python -m benchmarks.parity.text_anchor_probe --seed 1 --cases 300

prints how many cases agree and lists the others.
"""

from __future__ import annotations

import random

from benchmarks.parity.side_by_side import probe, probe_main

LINES = ["  ", "x", "", "  y", "ab", "  \t", "lin"]
PATTERNS = [r"\A  ", r"\A", r"\Ax|\A  ", r"(?-m)^ ", r"\Al|y\z", r"\A.", r"(?-m)^\s"]
CONTEXTS = [["-A1"], ["-B1"], ["-C1"], ["-A2"], ["-B2"], ["-A1", "-B2"], []]
MODES = [["--json"], ["-o", "-b"], ["-n", "--column"], ["--count-matches"], ["-o", "-m2"],
         ["--json", "-m1"]]
LONG_PREFIX = b"line\n" * 14000  # 70,000 bytes: past the first 64 KiB fill


def make_case(rnd: random.Random) -> tuple[bytes, list[str]]:
    """One case: the file's bytes and the search's flags (ending in ``-e PATTERN``)."""
    data = "\n".join(rnd.choice(LINES) for _ in range(rnd.randint(1, 7))).encode()
    if rnd.random() < 0.5:
        data += b"\n"
    if rnd.random() < 0.1:
        data = LONG_PREFIX + data
    args = [*rnd.choice(CONTEXTS), *rnd.choice(MODES), "-e", rnd.choice(PATTERNS)]
    return data, args


def compare(rg: str, seed: int, cases: int) -> tuple[int, list[tuple[bytes, str]]]:
    """Run *cases* random cases; (cases that agree, the others as (the file's bytes, the
    flags))."""
    return probe(rg, make_case, seed, cases, name="a.txt")


def main(argv: list[str] | None = None) -> int:
    return probe_main(argv, "python -m benchmarks.parity.text_anchor_probe", __doc__, compare,
                      cases=300)


if __name__ == "__main__":
    raise SystemExit(main())
