"""Run one command: captured (for the correctness check) or timed (wall and child CPU time).

Timed runs send stdout to a pipe that this process drains and discards, not to /dev/null: an agent
reads every byte of a search's output through a pipe, and the pipe's cost (small writes, Python's
buffered I/O) is part of what shellfree has to match. /dev/null would also invite shortcuts: some
greps stop at the first match when their output cannot be seen (rg 15.1.0 does not, as strace
shows, but a candidate could). stderr goes to /dev/null in timed runs (the check run has already
captured it), so no second pipe has to be drained.
"""

from __future__ import annotations

import collections
import os
import select
import subprocess
import time
from dataclasses import dataclass

READ_SIZE = 1 << 20


@dataclass(frozen=True, slots=True)
class Captured:
    """The outcome of a check run: exit code (None if killed on timeout), stdout, stderr, wall seconds."""

    returncode: int | None
    stdout: bytes
    stderr: bytes
    wall_s: float


@dataclass(frozen=True, slots=True)
class Sample:
    """One timed run.

    *wall_s* runs from just before the spawn to the reaped exit; *cpu_s* is user+system time of the
    child and of every descendant it waited for (``os.wait4``); *maxrss_kb* its peak resident size
    as ``wait4`` gives it, which on Linux counts the harness's own pages (see run.peak_rss_kb);
    *out_bytes* how much stdout was drained; *returncode* is None when it was killed on timeout.
    """

    wall_s: float
    cpu_s: float
    maxrss_kb: int
    out_bytes: int
    returncode: int | None


def run_captured(argv: list[str], cwd: str, env: dict[str, str], timeout: float) -> Captured:
    """Run *argv* with stdin from /dev/null and capture stdout and stderr."""
    started = time.perf_counter()
    try:
        proc = subprocess.run(
            argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired as exc:
        return Captured(None, exc.stdout or b"", exc.stderr or b"", time.perf_counter() - started)
    return Captured(proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - started)


def run_timed(argv: list[str], cwd: str, env: dict[str, str], timeout: float) -> Sample:
    """Run *argv* once, draining its stdout, and return its wall time and its own CPU time."""
    started = time.perf_counter()
    deadline = started + timeout
    proc = subprocess.Popen(
        argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    out_bytes = 0
    killed = False
    while True:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            proc.kill()
            killed = True
            break
        ready, _, _ = select.select([fd], [], [], remaining)
        if ready:
            chunk = os.read(fd, READ_SIZE)
            if not chunk:
                break
            out_bytes += len(chunk)
    # wait4 rather than Popen.wait: it returns this child's rusage alone, with no RUSAGE_CHILDREN
    # deltas that other reaped children (e.g. a killed straggler) could pollute.
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)  # Popen must not reap it again
    proc.stdout.close()
    return Sample(
        wall_s=wall,
        cpu_s=usage.ru_utime + usage.ru_stime,
        maxrss_kb=usage.ru_maxrss,
        out_bytes=out_bytes,
        returncode=None if killed else proc.returncode,
    )


def compare(reference: Captured, candidate: Captured) -> tuple[str, str]:
    """Judge *candidate* against *reference*; return ``(status, detail)``.

    status is ``ok`` (same exit code, same stdout lines once sorted: rg with threads and
    shellfree may both print in any order), ``timeout``, ``error`` (a failure exit code that rg
    did not give, or a crash) or ``mismatch`` (it ran, but printed or returned something else).
    """
    if candidate.returncode is None:
        return "timeout", f"no exit within the timeout ({candidate.wall_s:.1f} s)"
    ref_lines = reference.stdout.split(b"\n")
    cand_lines = candidate.stdout.split(b"\n")
    same_output = sorted(ref_lines) == sorted(cand_lines)
    if same_output and candidate.returncode == reference.returncode:
        return "ok", ""
    stderr = _short(candidate.stderr.strip().splitlines()[-1]) if candidate.stderr.strip() else ""
    if candidate.returncode != reference.returncode and candidate.returncode not in (0, 1):
        return "error", f"exit {candidate.returncode} (rg: {reference.returncode}); stderr: {stderr}"
    missing = collections.Counter(ref_lines) - collections.Counter(cand_lines)
    extra = collections.Counter(cand_lines) - collections.Counter(ref_lines)
    detail = [f"exit {candidate.returncode} (rg: {reference.returncode})"]
    if not same_output:
        detail.append(f"{sum(missing.values())} rg lines missing, {sum(extra.values())} extra lines")
        if missing:
            detail.append("first missing: " + _short(min(missing)))
        if extra:
            detail.append("first extra: " + _short(min(extra)))
    if stderr:
        detail.append("stderr: " + stderr)
    return "mismatch", "; ".join(detail)


def _short(line: bytes, limit: int = 160) -> str:
    text = line.decode("utf-8", "backslashreplace")
    return repr(text if len(text) <= limit else text[:limit] + "…")
