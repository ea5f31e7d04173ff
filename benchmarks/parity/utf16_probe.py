"""Random searches of UTF-16 files, small and over 8 KiB, against rg.

rg transcodes a file with a UTF-16 byte-order mark to UTF-8 as it reads it, each read of its
transcoder handing over the decoding of at most 8 KiB of the file, so its line buffer's fills
(where ``-m`` stops, what ``--json`` counts as searched, where a buffer starts) follow those
reads. Each case writes one such file (little- or big-endian, sometimes of odd length, some
with 3,000 or 7,000 more lines) and runs one search with or without ``-v``, ``-m``, context
options and ``-U``, named (mapped or, with ``--no-mmap``, read) or walked, comparing it with
rg byte for byte (JSON without its timings), by exit status and by whether stderr is empty.

    python -m benchmarks.parity.utf16_probe --seed 1 --cases 500

prints how many cases agree and lists the others.
"""

from __future__ import annotations

import random

from benchmarks.parity.side_by_side import probe, probe_main

WORDS = ["a", "b", "skill", "x", "", "é", "zz", "日本"]
PATTERNS = ["a", "skill", "x|zz", "^$", "é", "(?s).", "\\w+"]
MODES = [["--json"], ["-n"], ["-c"], ["-o", "-b"], ["--count-matches"], ["-l"]]


def make_case(rnd: random.Random) -> tuple[bytes, list[str]]:
    """One case: the file's bytes and the search's flags and target."""
    lines = [" ".join(rnd.choice(WORDS) for _ in range(rnd.randint(0, 3)))
             for _ in range(rnd.randint(1, 9))]
    text = "\n".join(lines) + rnd.choice(["", "\n"])
    if rnd.random() < 0.3:
        more = "".join("line %05d a\n" % i for i in range(rnd.choice([3000, 7000])))
        text = more + text if rnd.random() < 0.5 else text + "\n" + more
    encoding = rnd.choice(["utf-16-le", "utf-16-be"])
    data = (b"\xff\xfe" if encoding == "utf-16-le" else b"\xfe\xff") + text.encode(encoding)
    if rnd.random() < 0.3:
        data += b"x"  # odd length: rg decodes the last byte to U+FFFD
    args = [*rnd.choice([["-v"], []]), *rnd.choice([["-m1"], ["-m2"], []]),
            *rnd.choice([["-A1"], ["-B1"], ["-C2"], []]), *rnd.choice(MODES),
            *rnd.choice([[], ["-U"]]), "-e", rnd.choice(PATTERNS),
            *rnd.choice([["f"], ["--no-mmap", "f"], []])]
    return data, args


def compare(rg: str, seed: int, cases: int) -> tuple[int, list[tuple[bytes, str]]]:
    """Run *cases* random cases; (cases that agree, the others as (the file's bytes, the
    flags))."""
    return probe(rg, make_case, seed, cases, stderr=True)


def main(argv: list[str] | None = None) -> int:
    return probe_main(argv, "python -m benchmarks.parity.utf16_probe", __doc__, compare,
                      cases=500)


if __name__ == "__main__":
    raise SystemExit(main())
