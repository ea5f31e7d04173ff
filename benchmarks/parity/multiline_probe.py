"""Random ``-U`` searches of small files, some over the first 64 KiB, against rg.

The multi-line searcher has its own reading model (the whole file in one buffer, its first
64 KiB checked for NULs), its own printing of match blocks, and, under ``-v``, ``-m`` and
context options, rg 15.1's own panics. Each case writes one small file (words, empty lines,
NULs, UTF-8) and runs one ``-U`` search with or without ``-v``, ``-m``, context options and
``--heading``, named (mapped or read), walked or under ``-a``, comparing it with rg byte for
byte (JSON without its timings), by exit status and by whether stderr is empty. Cases where rg
panicked (a known rg 15.1 bug: README, Known gaps) are listed as such.

    python -m benchmarks.parity.multiline_probe --seed 1 --cases 1000

prints how many cases agree and lists the others.
"""

from __future__ import annotations

import random

from benchmarks.parity.side_by_side import probe, probe_main

WORDS = [b"a", b"b", b"ab", b"x", b"", "é".encode(), b"zz", b"\0"]
LONG = b"".join(b"line %05d a\n" % i for i in range(7000))
PATTERNS = ["a\\n", "\\nb", "a|b\\n", "^$", "(?s)a.b", "\\n\\n", "[^a]+", "x?"]
MODES = [["--json"], ["-n"], ["-c"], ["-o", "-b"], ["--count-matches"], ["-l"],
         ["--heading", "-n"]]


def make_case(rnd: random.Random) -> tuple[bytes, list[str]]:
    """One case: the file's bytes and the search's flags and target."""
    lines = [b" ".join(rnd.choice(WORDS) for _ in range(rnd.randint(0, 3)))
             for _ in range(rnd.randint(1, 10))]
    data = b"\n".join(lines) + rnd.choice([b"", b"\n"])
    if rnd.random() < 0.2:
        data = LONG + data if rnd.random() < 0.5 else data + b"\n" + LONG
    args = ["-U", *rnd.choice([[], ["-v"]]), *rnd.choice([["-m1"], ["-m2"], []]),
            *rnd.choice([["-A1"], ["-B1"], ["-C2"], []]), *rnd.choice(MODES),
            "-e", rnd.choice(PATTERNS), *rnd.choice([["f"], ["--no-mmap", "f"], [], ["-a", "f"]])]
    return data, args


def compare(rg: str, seed: int, cases: int) -> tuple[int, list[tuple[bytes, str]]]:
    """Run *cases* random cases; (cases that agree, the others as (the file's bytes, the
    flags))."""
    return probe(rg, make_case, seed, cases, stderr=True)


def main(argv: list[str] | None = None) -> int:
    return probe_main(argv, "python -m benchmarks.parity.multiline_probe", __doc__, compare,
                      cases=1000)


if __name__ == "__main__":
    raise SystemExit(main())
