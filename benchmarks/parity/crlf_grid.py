"""A grid of ``--crlf`` searches over small files that mix ``\\r\\n``, bare ``\\n`` and bare ``\\r``.

Under ``--crlf`` rg treats ``\\r\\n`` as a line terminator in three places that the random
content cases seldom bring together: the regex (``$`` and ``^`` in CRLF mode, and outside
``-U`` the ``\\r`` and ``\\n`` taken out of every class, a class left with one of them being
an error), the printer's re-find of a line's matches (the line's ``\\r\\n`` trimmed first, an
unterminated last line keeping its ``\\r``) and ``-o``, which cuts each line a match covers at
its terminator. This grid searches seven files, each with 14 patterns in 7 output modes, with
and without ``-U``, and compares every command with rg byte for byte (JSON without its
timings) and by exit status and whether stderr is empty.

    python -m benchmarks.parity.crlf_grid

prints how many of the 1,372 commands agree and lists the others. ``--probe N --seed S`` runs N
random cases instead: a small file of ``a``, ``b``, ``\\r``, ``\\n``, ``\\r\\n`` and
``\\r\\r\\n`` pieces, searched walked or named with a pattern built around ``$``/``^`` (and
``\\A``, ``\\z``) in one output mode, with or without ``-U``.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile

from benchmarks.parity.reference import find_reference_rg
from benchmarks.parity import side_by_side
from benchmarks.parity.side_by_side import agrees

FILES = {
    "f1": b"\r\n",
    "f2": b"a\rb\r\n",
    "f3": b"x\r\ny\r\n\r\n",
    "f4": b"ab\r\ncd\r\n\r\nx\r",
    "f5": b"a\r\r\nb\rc\r",
    "f6": b"\r",
    "f7": b"b\r\nb\n\rb\r\r\n",
}
PATTERNS = ["[^a-z]", "[^a-z]+?", "[^a-z]+", "(?s:.)", r"\r", r"b\r", r"\r\n", r"x\r", r"\r$",
            ".", r"\r?$", "(?m:$)", r"[\r\n]+", "b"]
MODES = [["-o"], ["--json"], ["-o", "-b"], ["-n", "--column", "-o"], ["-c"], ["--count-matches"],
         ["-n"]]

def write_grid(root: str) -> list[str]:
    """Write the grid's files under *root*; returns their names."""
    for name, data in FILES.items():
        with open(os.path.join(root, name), "wb") as handle:
            handle.write(data)
    return list(FILES)


def grid_commands() -> list[list[str]]:
    """Every (multi-line or not, output mode, pattern) as flags ending in ``-e PATTERN``."""
    return [["--crlf", *multiline, *mode, "-e", pattern]
            for multiline in ([], ["-U"]) for mode in MODES for pattern in PATTERNS]


PROBE_PIECES = [b"a", b"b", b"\r", b"\n", b"\r\n", b"\r\r\n"]
PROBE_PATTERNS = ["(?m:$)", "(?m:^)", "(?m:^$)", "b(?m:$)", "(?m:^)b", ".(?m:$)", "(?m:$)|x",
                  "[^x](?m:$)", "(?m:^)[^x]", "(?m:^)(?m:$)", "a?(?m:$)", "(?m:^).*", ".*(?m:$)",
                  "(?m:^[ab]*$)", "$", "^", "^$", r"(?m:\b$)", r"\A", r"(?m:$)\z", r"b\z",
                  r"\Ab|a\z"]
# Under -v the printer re-finds matches in each selected line too, after its own trim of the
# line's terminator (-o, --column, -b, JSON): searcher.inverted_spans.
PROBE_MODES = [["-o"], ["--json"], ["-c"], ["--count-matches"], ["-n", "-v"], ["-o", "-b"],
               ["-n", "-A1"], ["-x", "-c"], ["-v", "-o"], ["-v", "--json"],
               ["-v", "-n", "--column"], ["-v", "-o", "-b", "-A1"]]


def probe_case(rnd: random.Random) -> tuple[bytes, list[str]]:
    """One random case (see the module docstring): the file's bytes, the flags and target."""
    data = b"".join(rnd.choice(PROBE_PIECES) for _ in range(rnd.randint(1, 12)))
    args = ["--crlf", *rnd.choice([[], ["-U"]]), *rnd.choice(PROBE_MODES),
            "-e", rnd.choice(PROBE_PATTERNS), *rnd.choice([[], ["f"]])]
    return data, args


def probe(rg: str, seed: int, cases: int) -> tuple[int, list[tuple[bytes, str]]]:
    """*cases* random cases; (cases that agree, the others as (the file's bytes, the flags))."""
    return side_by_side.probe(rg, probe_case, seed, cases, stderr=True)


def compare(rg: str, root: str, names: list[str]) -> tuple[int, list[tuple[str, str]]]:
    """Run every grid command on each file; (commands that agree, the others as (file, the
    command))."""
    agree = 0
    differ = []
    for name in names:
        for command in grid_commands():
            if agrees(rg, ["--no-config", *command, name], root, stderr=True):
                agree += 1
            else:
                differ.append((name, " ".join(command)))
    return agree, differ


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.parity.crlf_grid",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--probe", type=int, default=0, metavar="N",
                        help="run N random cases instead of the grid")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random cases")
    args = parser.parse_args(argv)
    rg = find_reference_rg().path
    if args.probe:
        agree, differ = probe(rg, args.seed, args.probe)
        print(f"seed {args.seed}: {agree}/{agree + len(differ)} cases agree with rg")
        for data, command in differ:
            print(f"  differs: {data!r} {command}")
        return 0
    with tempfile.TemporaryDirectory() as root:
        names = write_grid(root)
        agree, differ = compare(rg, root, names)
    print(f"{agree}/{agree + len(differ)} commands agree with rg")
    for name, command in differ:
        print(f"  differs: {name} {command}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
