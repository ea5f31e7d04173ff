"""Random ``-v`` searches with context options over files of several fills holding NULs.

Once rg's printer has seen binary data in a file it reads (named, or standard input: its
"convert" mode), it refuses the next line it is handed; under ``-v`` the search then goes on
fill by fill, and in each later fill the first line handed over may be preceded by a ``--``
(inverted_replay.breaks_after_refusal). Where that happens depends on the fills, so each case
writes a file of 60 to 300 KB (lines of 1 byte to 9 KB, words here and there, one to three
NULs, a last line with or without its newline) and runs one ``-v`` search with ``-A``,
``-B`` or ``-C``, named and read (``--no-mmap``), named and mapped, or walked, and compares
it with rg byte for byte, by exit status and by whether stderr is empty.

    python -m benchmarks.parity.inverted_binary_probe --seed 1 --cases 300

prints how many cases agree and lists the others.
"""

from __future__ import annotations

import random

from benchmarks.parity.side_by_side import probe, probe_main

LINE_LENGTHS = [1, 5, 20, 100, 400, 3000, 9000]
CONTEXTS = [["-A1"], ["-A2"], ["-B1"], ["-B3"], ["-C1"], ["-A1", "-B2"]]
MODES = [["-n"], [], ["--json"], ["-c"], ["-o"], ["-b", "-n"], ["--heading", "-H"]]
PATTERNS = ["beta", "zzz", "y", "^x", "alpha|beta"]
TARGETS = [["--no-mmap", "f"], ["f"], [], ["--no-context-separator", "--no-mmap", "f"]]


def make_case(rnd: random.Random) -> tuple[bytes, list[str]]:
    """One case: the file's bytes and the search's flags and target."""
    size, lines, total = rnd.randint(60_000, 300_000), [], 0
    while total < size:
        line = rnd.choice([b"x", b"y"]) * rnd.choice(LINE_LENGTHS)
        if rnd.random() < 0.2:
            line += rnd.choice([b" alpha", b" beta"])
        lines.append(line)
        total += len(line) + 1
    data = b"\n".join(lines) + rnd.choice([b"", b"\n"])
    for _ in range(rnd.randint(1, 3)):
        at = rnd.randrange(len(data))
        data = data[:at] + b"\0" + data[at + 1:]
    args = ["-v", *rnd.choice(CONTEXTS), *rnd.choice(MODES), "-e", rnd.choice(PATTERNS),
            *rnd.choice(TARGETS)]
    return data, args


def compare(rg: str, seed: int, cases: int) -> tuple[int, list[tuple[bytes, str]]]:
    """Run *cases* random cases; (cases that agree, the others as (the bytes, the flags))."""
    return probe(rg, make_case, seed, cases, stderr=True)


def main(argv: list[str] | None = None) -> int:
    return probe_main(argv, "python -m benchmarks.parity.inverted_binary_probe", __doc__,
                      compare, cases=300)


if __name__ == "__main__":
    raise SystemExit(main())
