"""One command run by the reference rg and by ``shellfree rg`` in this process, compared.

The grids and probes of this package run thousands of small commands: in-process, shellfree's
side costs no interpreter start. JSON timings (``elapsed``, ``elapsed_total``) are the one
output that legitimately differs between two runs, so they are dropped before comparing.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import re
import subprocess
import tempfile
from typing import Callable

from shellfree.rgcli.run import run

_TIMINGS = re.compile(rb'"(?:elapsed|elapsed_total)":\{[^}]*\},?')


def agrees(rg: str, argv: list[str], cwd: str, *, stderr: bool = False) -> bool:
    """Whether ``rg ARGV`` and ``shellfree rg ARGV`` in *cwd* print the same stdout (timings
    dropped) and exit with the same status; with *stderr*, also whether both or neither wrote
    to stderr."""
    return _compare(rg, argv, cwd, stderr)[0]


def _compare(rg: str, argv: list[str], cwd: str, stderr: bool,
             exact_stderr: bool = False) -> tuple[bool, bool]:
    """(:func:`agrees`, whether rg panicked: exit 101 with a panic message, a known rg 15.1
    bug where shellfree answers). *exact_stderr* compares stderr's bytes too."""
    theirs = subprocess.run([rg, *argv], cwd=cwd, capture_output=True,
                            stdin=subprocess.DEVNULL, check=False)
    out, err = io.BytesIO(), io.BytesIO()
    status = run([os.fsencode(a) for a in argv], out, err, None, cwd=cwd)
    same = (_TIMINGS.sub(b"", out.getvalue()) == _TIMINGS.sub(b"", theirs.stdout)
            and status == theirs.returncode
            and (not stderr or (err.getvalue() == b"") == (theirs.stderr == b""))
            and (not exact_stderr or err.getvalue() == theirs.stderr))
    return same, theirs.returncode == 101 and b"panicked at" in theirs.stderr


def three_files(rnd: random.Random, words: list[bytes], most_words: int,
                leads: list[bytes] | None = None) -> dict[str, bytes]:
    """Files ``f``, ``g`` and ``d/h`` of up to six lines of up to *most_words* of *words*
    (each line after one of *leads*), with "\\n" or "\\r\\n" line ends and the last line
    terminated or not: the small tree the output-flag probes search."""
    files = {}
    for name in ("f", "g", "d/h"):
        lines = [(rnd.choice(leads) if leads else b"")
                 + b" ".join(rnd.choice(words) for _ in range(rnd.randint(0, most_words)))
                 for _ in range(rnd.randint(0, 6))]
        newline = rnd.choice([b"\n", b"\n", b"\r\n"])
        files[name] = newline.join(lines) + rnd.choice([b"", newline])
    return files


def probe(rg: str, make_case: Callable[[random.Random], tuple[bytes | dict, list[str]]],
          seed: int, cases: int, *, name: str = "f",
          stderr: bool = False,
          exact_stderr: bool = False) -> tuple[int, list[tuple[bytes | dict, str]]]:
    """Run *cases* random cases: each writes ``make_case(rnd)``'s bytes to the file *name* (or
    its {path: bytes} files) in the root of one directory and runs its flags there (see
    :func:`agrees`); (cases that agree, the others as (the bytes or files, the flags, after
    "[rg panicked] " where rg did))."""
    rnd = random.Random(seed)
    agree = 0
    differ = []
    with tempfile.TemporaryDirectory() as root:
        for _ in range(cases):
            data, args = make_case(rnd)
            for path, content in (data.items() if isinstance(data, dict) else [(name, data)]):
                os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
                with open(os.path.join(root, path), "wb") as handle:
                    handle.write(content)
            same, panicked = _compare(rg, ["--sort", "path", "--no-config", *args], root, stderr,
                                      exact_stderr)
            if same:
                agree += 1
            else:
                differ.append((data, ("[rg panicked] " if panicked else "") + " ".join(args)))
    return agree, differ


def probe_main(argv: list[str] | None, prog: str, doc: str,
               compare: Callable[[str, int, int], tuple[int, list[tuple[bytes, str]]]],
               cases: int) -> int:
    """The command line of a probe module: ``--seed S --cases N``; prints the agreement and
    the cases that differ."""
    from benchmarks.parity.reference import find_reference_rg

    parser = argparse.ArgumentParser(prog=prog, description=doc.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=cases)
    args = parser.parse_args(argv)
    agree, differ = compare(find_reference_rg().path, args.seed, args.cases)
    print(f"seed {args.seed}: {agree}/{agree + len(differ)} cases agree with rg")
    for data, flags in differ:
        shown = {path: content[-40:] for path, content in data.items()} if isinstance(data, dict) \
            else data[-60:]
        print(f"  differs: {shown!r} {flags}")
    return 0
