"""One command run by the reference rg and by ``shellfree rg`` in this process, compared.

The grids and probes of this package run thousands of small commands: in-process, shellfree's
side costs no interpreter start. JSON timings (``elapsed``, ``elapsed_total``) are the one
output that legitimately differs between two runs, so they are dropped before comparing.
"""

from __future__ import annotations

import io
import re
import subprocess

from shellfree.rgcli.run import run

_TIMINGS = re.compile(rb'"(?:elapsed|elapsed_total)":\{[^}]*\},?')


def agrees(rg: str, argv: list[str], cwd: str, *, stderr: bool = False) -> bool:
    """Whether ``rg ARGV`` and ``shellfree rg ARGV`` in *cwd* print the same stdout (timings
    dropped) and exit with the same status; with *stderr*, also whether both or neither wrote
    to stderr."""
    theirs = subprocess.run([rg, *argv], cwd=cwd, capture_output=True,
                            stdin=subprocess.DEVNULL, check=False)
    out, err = io.BytesIO(), io.BytesIO()
    status = run([a.encode() for a in argv], out, err, None, cwd=cwd)
    return (_TIMINGS.sub(b"", out.getvalue()) == _TIMINGS.sub(b"", theirs.stdout)
            and status == theirs.returncode
            and (not stderr or (err.getvalue() == b"") == (theirs.stderr == b"")))
