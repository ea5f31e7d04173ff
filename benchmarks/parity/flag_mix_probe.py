"""Random mixes of rg's flags, odd flag values and odd root spellings over one small tree.

The other probes each hold one family of flags apart; this one mixes families that interact
in rg's argument parsing and in its search loop: the one binary mode that ``-a``, ``--binary``,
``-uuu`` and their negations share; ``--files`` against the search modes, the last winning;
``-f`` of an empty file, which gives no pattern (and with none rg searches nothing); counts
such as ``-C +1`` or one past 2**64 - 1; sorts that collect the files before searching them;
``--heading`` around a binary file's lone notice; roots typed ``.//d`` or ``././d``. Each case
draws up to five flag sets, a pattern and a root list, and compares stdout (JSON without its
timings), the exit status and stderr byte for byte with ``rg --sort path``. A script of these
mixes found each of the differences named above (the twenty-sixth session).

    python -m benchmarks.parity.flag_mix_probe --seed 1 --cases 1500

prints how many cases agree and lists the others.
"""

from __future__ import annotations

import random

from benchmarks.parity.side_by_side import probe, probe_main

# Written once per case (the same bytes every time), so that times tie as they fall.
FILES = {
    "a.txt": b"alpha beta\ngamma\n\nalpha\n",
    "crlf.txt": b"one alpha\r\ntwo\r\nthree alpha beta gamma\r\n",
    "bom.txt": b"\xef\xbb\xbfbom alpha\n\nbeta\n",
    "u16.txt": "\ufeffalpha sixteen\nbeta\n".encode("utf-16-le"),
    "noeol.txt": b"noeol alpha",
    "empty.pat": b"",
    "newline.pat": b"\n",
    "words.pat": b"alpha\nbeta\n",
    "d/bin.dat": b"alpha beta\ngamma\nalpha\x00bin\nend alpha\n",
    "d/long.txt": b"x" * 50 + b" alpha " + b"y" * 50 + b"\nshort\n" + b"alpha " * 20 + b"\n",
    "d/e/ctx.txt": b"a\nb\nalpha\nc\nd\ne\nalpha\nf\n",
    "d/e/u.txt": "caf\u00e9 alpha\n".encode() + b"na\xefve beta\n",
    ".hidden/h.txt": b"hidden alpha\n",
}
FLAGS = [
    ["-a"], ["--text"], ["--no-text"], ["--binary"], ["--no-binary"], ["-uuu"], ["-uu"],
    ["--files"], ["-l"], ["-c"], ["--count-matches"], ["--files-without-match"], ["--json"],
    ["--no-json"], ["-q"], ["-o"], ["-v"], ["-n"], ["-N"], ["--column"], ["-b"], ["-H"],
    ["--no-filename"], ["--heading"], ["--null"], ["-0"], ["-A1"], ["-B2"], ["-C", "+1"],
    ["-C1"], ["-m1"], ["-m", "0"], ["-M", "12"], ["-M", "12", "--max-columns-preview"],
    ["--context-separator", "XX"], ["--no-context-separator"], ["--path-separator", "#"],
    ["--include-zero"], ["-f", "empty.pat"], ["-f", "newline.pat"], ["-f", "words.pat"],
    ["-e", "gamma"], ["-i"], ["-S"], ["-w"], ["-x"], ["-F"], ["-U"], ["--crlf"],
    # Not --no-unicode: over the tree's non-ASCII text it meets the documented difference
    # (rg matches single bytes of a character there; README, Differences).
    ["-g", "*.txt"], ["-g", "!d"], ["--iglob", "*.DAT"], ["-."],
    ["--sortr", "path"], ["--sort", "modified"], ["--sortr", "modified"], ["--max-filesize", "40"],
    ["-d", "2"], ["-j", "+1"], ["-A", "x"], ["-C", "18446744073709551616"], ["--mmap"],
    ["--no-mmap"],
]
PATTERNS = ["alpha", "beta|gamma", "^alpha", "alpha$", "", "^$", "a\\nb", "\\x00", "é",
            "\\w+$", "(?i)CAF", "zzz"]
ROOTS = [[], ["."], ["./"], ["./."], [".//"], ["d"], [".//d"], ["././d"], ["d/"], ["d/."],
         ["a.txt", "d"], ["d/bin.dat", "a.txt"], ["d/e", "."], ["-"], ["missing", "d"]]


def make_case(rnd: random.Random) -> tuple[dict, list[str]]:
    """One case: the files and the command's flags, pattern and roots."""
    flags = [flag for chosen in rnd.sample(FLAGS, rnd.randint(0, 5)) for flag in chosen]
    pattern = ["-e", rnd.choice(PATTERNS)]
    if "-f" in flags and rnd.random() < 0.5:
        pattern = []  # the patterns are -f's alone: none at all from empty.pat
    return dict(FILES), [*flags, *pattern, *rnd.choice(ROOTS)]


def compare(rg: str, seed: int, cases: int) -> tuple[int, list[tuple[dict, str]]]:
    """Run *cases* random cases; (cases that agree, the others as (the files, the flags))."""
    return probe(rg, make_case, seed, cases, exact_stderr=True)


def main(argv: list[str] | None = None) -> int:
    return probe_main(argv, "python -m benchmarks.parity.flag_mix_probe", __doc__, compare,
                      cases=1500)


if __name__ == "__main__":
    raise SystemExit(main())
