"""Random command lines built from the shapes rg's argument parser accepts and refuses.

The other probes draw whole flags; this one draws tokens, so a flag's value may be missing,
be the next flag, or sit glued to it: short-flag clusters (``-inw``, ``-A1B2``), values
after ``=`` (``-C=2``, ``--context=2``, ``-e=alpha``, ``--count=``), ``--`` and ``-``,
negative and odd numbers, sizes with suffixes, empty separators, and flags rg knows but
shellfree refuses as unknown are left out (README, the flag lists). Each case compares
stdout, the exit status and stderr byte for byte with ``rg --sort path``. A script of these
found ``--color`` refused as unknown (the twenty-seventh session), as ``--line-buffered``
and ``--block-buffered`` were.

    python -m benchmarks.parity.argv_shape_probe --seed 1 --cases 1000

prints how many cases agree and lists the others.
"""

from __future__ import annotations

import random

from benchmarks.parity.flag_mix_probe import FILES
from benchmarks.parity.side_by_side import probe, probe_main

TOKENS = [
    "-n", "-nH", "-inw", "-A1B2", "-A", "1", "-C=2", "--context=2", "--context", "-e",
    "-ealpha", "-e=alpha", "--regexp=alpha", "--regexp", "-m1", "-m=1", "--max-count=1", "-i",
    "-S", "-s", "--", "-", "-x", "--files", "--nope", "-Z", "-j2", "-j", "-0", "--null", "-l",
    "-c", "-o", "--color", "--color=never", "--color=auto", "-uuu", "-u", "-.", "--hidden",
    "-M5", "-M", "--max-columns=5", "-g", "*.txt", "-g=*.txt", "--glob=!d", "-F", "-foo",
    "alpha", "beta", "d", "a.txt", "-d1", "--max-depth=0", "-vn", "-nv", "--no-line-number",
    "-N", "-b", "-qx", "-w", "--word-regexp=1", "--count=", "-A-1", "-1", "--after-context=-1",
    "-C 1", "--threads=0", "-j0", "--no-messages", "--ignore-case=1", "---", "--=", "-=",
    "--max-filesize=1K", "--max-filesize", "1M", "--max-filesize=1G", "--max-filesize=12X",
    "--path-separator=", "--path-separator=ab", "--context-separator=", "--heading", ":",
    "--line-buffered", "--block-buffered", "--no-line-buffered", "--line-buffered=1",
]


def make_case(rnd: random.Random) -> tuple[dict, list[str]]:
    """One case: the files and one to six tokens."""
    return dict(FILES), rnd.sample(TOKENS, rnd.randint(1, 6))


def compare(rg: str, seed: int, cases: int) -> tuple[int, list[tuple[dict, str]]]:
    """Run *cases* random cases; (cases that agree, the others as (the files, the tokens))."""
    return probe(rg, make_case, seed, cases, exact_stderr=True)


def main(argv: list[str] | None = None) -> int:
    return probe_main(argv, "python -m benchmarks.parity.argv_shape_probe", __doc__, compare,
                      cases=1000)


if __name__ == "__main__":
    raise SystemExit(main())
