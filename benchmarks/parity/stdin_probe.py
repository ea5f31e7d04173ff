"""Random searches of standard input of up to 300 KB, redirected from a file.

rg reads standard input through Rust's 8 KiB stdin buffer, so its line buffer's fills fall
elsewhere than in a file it opens (search/line_buffer.py, STDIN_BUFFER): where a NUL stops the
printing, where ``\\A`` holds, what the statistics count. Each case writes lines of random
lengths (1 byte to 9 KB) with words here and there, a NUL or two, sometimes a UTF-8 or
UTF-16 byte-order mark, and runs one search with up to three of the output, context and
limit flags on ``-`` or on the implicit stdin; rg reads the file as its stdin (a regular
file: each read returns what it asks for, so the fills are fixed), shellfree in this
process from the same file. Stdout (JSON without timings), exit status and stderr are
compared byte for byte. A pipe's reads return what the writer has written so far, so over a
pipe rg's fills, and with them its output when a NUL lies past the first 8 KiB, can change
from run to run; shellfree reads what rg would read from a file.

    python -m benchmarks.parity.stdin_probe --seed 1 --cases 300

prints how many cases agree and lists the others.
"""

from __future__ import annotations

import io
import os
import random
import subprocess
import tempfile

from benchmarks.parity.side_by_side import _TIMINGS, probe_main
from shellfree.rgcli.run import run

FLAGS = [["-n"], ["-c"], ["-l"], ["--json"], ["-v"], ["-A2"], ["-B3"], ["-C1"], ["-m3"], ["-a"],
         ["--binary"], ["--count-matches"], ["-o"], ["-b"], ["-U"], ["--files-without-match"],
         ["-q"], ["--column"], ["-H"]]
PATTERNS = ["alpha", "beta", "zzz", "^x", "alpha$", "\\Ax", "x{12}"]
SIZES = [5000, 9000, 20000, 70000, 140000, 300000]
LINE_LENGTHS = [1, 5, 20, 80, 400, 3000, 9000]


def make_case(rnd: random.Random) -> tuple[bytes, list[str]]:
    """One case: standard input's bytes and the command's arguments."""
    lines = []
    size, total = rnd.choice(SIZES), 0
    while total < size:
        line = b"x" * rnd.choice(LINE_LENGTHS)
        if rnd.random() < 0.3:
            line += b" alpha"
        if rnd.random() < 0.2:
            line += b" beta"
        lines.append(line + b"\n")
        total += len(lines[-1])
    data = b"".join(lines)
    for _ in range(rnd.choice([0, 1, 1, 2])):
        at = rnd.randrange(len(data))
        data = data[:at] + b"\0" + data[at + 1:]
    mark = rnd.random()
    if mark < 0.15:
        data = b"\xef\xbb\xbf" + data
    elif mark < 0.25:
        data = b"\xff\xfe" + data.decode("latin-1").encode("utf-16-le")
    elif mark < 0.3:
        data = b"\xfe\xff" + data.decode("latin-1").encode("utf-16-be")
    flags = [flag for chosen in rnd.sample(FLAGS, rnd.randint(0, 3)) for flag in chosen]
    target = ["-"] if rnd.random() < 0.5 else []
    return data, [*flags, "-e", rnd.choice(PATTERNS), *target]


def agrees(rg: str, data: bytes, args: list[str], directory: str) -> bool:
    """Whether rg and shellfree give the same stdout, status and stderr for *args* with
    *data* as their standard input (a regular file)."""
    path = os.path.join(directory, "stdin")
    with open(path, "wb") as handle:
        handle.write(data)
    argv = ["--no-config", *args]
    with open(path, "rb") as stdin:
        theirs = subprocess.run([rg, *argv], stdin=stdin, capture_output=True, check=False)
    out, err = io.BytesIO(), io.BytesIO()
    with open(path, "rb") as stdin:
        status = run([os.fsencode(a) for a in argv], out, err, stdin, cwd=directory)
    return ((_TIMINGS.sub(b"", out.getvalue()), status, err.getvalue())
            == (_TIMINGS.sub(b"", theirs.stdout), theirs.returncode, theirs.stderr))


def compare(rg: str, seed: int, cases: int) -> tuple[int, list[tuple[bytes, str]]]:
    """Run *cases* random cases; (cases that agree, the others as (stdin, the arguments))."""
    rnd = random.Random(seed)
    agree, differ = 0, []
    with tempfile.TemporaryDirectory() as directory:
        for _ in range(cases):
            data, args = make_case(rnd)
            if agrees(rg, data, args, directory):
                agree += 1
            else:
                differ.append((data, " ".join(args)))
    return agree, differ


def main(argv: list[str] | None = None) -> int:
    return probe_main(argv, "python -m benchmarks.parity.stdin_probe", __doc__, compare,
                      cases=300)


if __name__ == "__main__":
    raise SystemExit(main())
