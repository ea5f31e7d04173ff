"""A grid of word-assertion searches over small files full of stray UTF-8 continuation bytes.

Word assertions are the one part of a pattern that looks at the byte before a line, and only a
line that starts with continuation bytes notices what it finds there: rg's regex engine steps
back over them to the character they continue. What rg puts before such a line depends on how
it reads the file (a memory map, or fills of its line buffer, each starting a new haystack), on
whether the line followed a matching line, and on whether its grep layer confirms the line on
its own after finding an inner literal. The random content cases rarely put all of that
together; this grid does, on purpose: 200 small files whose lines are runs of pieces such as
``\\xbd``, ``\\xbd(``, ``x`` and ``é``, searched walked and named with a handful of
word-assertion patterns in several output modes, each command compared with rg byte for byte.

    python -m benchmarks.parity.stray_word_grid --seed 1

prints how many of the commands agree and lists the others (pattern, output mode, walked or
named). ``--probe N`` runs N random word-assertion patterns instead (assertions around
literals, classes, alternations and repetitions, with -i, -w, -v or -o), each walked and
named. README.md (Known gaps) gives the counts at the last measurement.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile

from benchmarks.parity.reference import find_reference_rg
from benchmarks.parity.side_by_side import agrees

PIECES = [b"\xbd", b"\xb5", b"\xbd(", b"(", b" ", b"x", b"ab", b"", b"q?_fn", "é".encode(),
          b"\xbd\xbd"]
PATTERNS = [["-w", ""], [r"\b{start-half}\("], [r"\b{start-half} "], [r"\b{end-half}"],
            [r"\bx"], [r"\B\("], [r"x\b"], ["-w", "x"], ["-w", "ab"],
            # Inner literals rg's grep layer may or may not extract (regex_translate._lines_alone):
            # case variants, several literals, a class, a common byte, a multi-byte character.
            ["-i", "-w", "x"], [r"(?i)\b{start-half}AB"], [r"\b{start-half}(?:ab|\(|x)"],
            [r"\b{start-half}[(x]"], [r"\B(?:ab|x|q|\()"], ["-w", "e"], [r"\b{start-half}e"],
            [r"\b{start-half}é"], ["-w", r"q\?_fn"], [r"\b{start-half}ab\w*"],
            [r"(?:\bx|\(\b{end-half})"], [r"\b{start-half}\(?x"]]
# The printer re-finds a line's matches (-o, --column, JSON) in -v's selected lines too, and,
# under context options, in a buffer whose start the rolls move.
MODES = [["-c"], ["-n", "-v"], ["-o", "-b", "-n"], ["-n"], ["-n", "-C1"], ["--column", "-n"],
         ["-v", "-o", "-b", "-n"], ["-o", "-n", "-C1"], ["-v", "--column", "-n", "-A1"],
         ["--json", "-B1"]]
FILES = 200
NAMED = 40  # files named on the command line (memory-mapped by rg), of the 200


def write_grid(root: str, seed: int) -> list[str]:
    """Write the grid's files under *root*/d; returns their paths relative to *root*."""
    rnd = random.Random(seed)
    os.makedirs(os.path.join(root, "d"))
    names = []
    for i in range(FILES):
        lines = [b"".join(rnd.choice(PIECES) for _ in range(rnd.randint(1, 6)))
                 for _ in range(rnd.randint(1, 5))]
        data = b"\n".join(lines) + (b"\n" if rnd.random() < 0.8 else b"")
        name = f"d/f{i:03d}"
        with open(os.path.join(root, name), "wb") as handle:
            handle.write(data)
        names.append(name)
    return names


def grid_commands() -> list[list[str]]:
    """The grid's searches: each pattern in each output mode, as (flags..., "-e", pattern)."""
    return [[*mode, *pattern[:-1], "-e", pattern[-1]] for pattern in PATTERNS for mode in MODES]


def compare(rg: str, root: str, names: list[str], commands: list[list[str]] | None = None,
            named: int = NAMED) -> tuple[int, list[tuple[str, str, str]]]:
    """Run *commands* (default: :func:`grid_commands`) walked over the grid and over its first
    *named* files named; (commands that agree, the others as (walked or named, pattern, the
    flags before it))."""
    agree = 0
    differ = []
    for label, targets in (("walked", ["d"]), ("named", names[:named])):
        for command in grid_commands() if commands is None else commands:
            if agrees(rg, ["--sort", "path", "--no-config", *command, *targets], root):
                agree += 1
            else:
                differ.append((label, command[-1], " ".join(command[:-2])))
    return agree, differ


PROBE_ATOMS = ["x", "ab", "e", "t", r"\(", "foo", "é", "[ab]", "[a-z]", "[xe]", "(?i:k)",
               "(?i:ab)", "(?i:x)", r"\d", "1", "K", "(?:ab|x)", "(?:e|t)", "x+", "(?:ab)?",
               "[(x]", "f[o]o", "x{2,}", "(?:ab)+", "x{3}", "x{1,3}", "[xe]{2}", "(?:x|e)t",
               "K?x", "x*ab", "(?:x|ab){2}"]
PROBE_LOOKS = [r"\b", r"\B", r"\b{start-half}", r"\b{end-half}", r"\<", r"\>", ""]
PROBE_FLAGS = [[], ["-i"], ["-w"], ["-v"], ["-o", "-b"]]


def probe_commands(seed: int, count: int) -> list[list[str]]:
    """*count* random word-assertion searches: ("-n", flags..., "-e", pattern)."""
    rnd = random.Random(seed)
    commands = []
    for _ in range(count):
        pattern = "".join(rnd.choice(PROBE_LOOKS) + rnd.choice(PROBE_ATOMS)
                          for _ in range(rnd.randint(1, 2))) + rnd.choice(PROBE_LOOKS)
        commands.append(["-n", *rnd.choice(PROBE_FLAGS), "-e", pattern])
    return commands


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.parity.stray_word_grid",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1, help="seed of the grid's file contents")
    parser.add_argument("--probe", type=int, default=0, metavar="N",
                        help="run N random word-assertion searches instead of the grid's")
    args = parser.parse_args(argv)
    rg = find_reference_rg().path
    with tempfile.TemporaryDirectory() as root:
        names = write_grid(root, args.seed)
        if args.probe:
            commands = probe_commands(args.seed, args.probe)
            agree, differ = compare(rg, root, names, commands, named=8)
        else:
            agree, differ = compare(rg, root, names)
    total = agree + len(differ)
    print(f"seed {args.seed}: {agree}/{total} commands agree with rg")
    for label, pattern, mode in differ:
        print(f"  differs: {label:6} {pattern!r:24} {mode}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
