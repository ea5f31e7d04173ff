"""Random ``-v -m N`` searches with after-context over small files holding NUL bytes.

Past ``-m``'s limit rg goes on reading for the after-context, and under ``-v`` every later line
it reaches is selected: where it stops depends on its line buffer's fills, which the rolls
before each fill move (they keep the lines printed), and a NUL changes what it does with a fill
(a walked file quits there; a file named and read, rg's "convert" mode, gets its NULs turned into
line terminators; a memory-mapped one keeps them; ``-a`` ignores them). Each case writes one
small file (a few short lines of words and NULs, sometimes before or after 7,000 lines that
push it past the first 64 KiB fill) and runs one such search, walked, named (mapped or, with
``--no-mmap``, read) or under ``-a``, comparing it with rg byte for byte (JSON without its
timings), by exit status and by whether stderr is empty.

    python -m benchmarks.parity.inverted_limit_probe --seed 1 --cases 800

prints how many cases agree and lists the others.
"""

from __future__ import annotations

import random

from benchmarks.parity.side_by_side import probe, probe_main

WORDS = [b"a", b"b", b"skill", b"x", b"", b"\0", b"ab\0c", b"zz"]
LONG = b"".join(b"line %05d a\n" % i for i in range(7000))  # 91,000 bytes
LIMITS = ["-m1", "-m2", "-m3"]
CONTEXTS = [["-A1"], ["-A2"], ["-A1", "-B1"], ["-C2"], ["-A3"]]
MODES = [["--json"], ["-n"], ["-c"], ["-o", "-b"], ["--count-matches"], ["-n", "-b"]]
PATTERNS = ["a", "skill", "x|zz", "b", "^$"]
TARGETS = [["--no-mmap", "f"], [], ["f"], ["-a", "f"], ["-a", "--no-mmap", "f"]]


def make_case(rnd: random.Random) -> tuple[bytes, list[str]]:
    """One case: the file's bytes and the search's flags and target."""
    lines = [b" ".join(rnd.choice(WORDS) for _ in range(rnd.randint(0, 3)))
             for _ in range(rnd.randint(1, 9))]
    data = b"\n".join(lines) + rnd.choice([b"", b"\n"])
    if rnd.random() < 0.3:
        data = LONG + data if rnd.random() < 0.5 else data + b"\n" + LONG
    args = ["-v", rnd.choice(LIMITS), *rnd.choice(CONTEXTS), *rnd.choice(MODES),
            "-e", rnd.choice(PATTERNS), *rnd.choice(TARGETS)]
    return data, args


def compare(rg: str, seed: int, cases: int) -> tuple[int, list[tuple[bytes, str]]]:
    """Run *cases* random cases; (cases that agree, the others as (the file's bytes, the
    flags))."""
    return probe(rg, make_case, seed, cases, stderr=True)


def main(argv: list[str] | None = None) -> int:
    return probe_main(argv, "python -m benchmarks.parity.inverted_limit_probe", __doc__, compare,
                      cases=800)


if __name__ == "__main__":
    raise SystemExit(main())
