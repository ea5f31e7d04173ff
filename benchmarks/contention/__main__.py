"""What a second busy CPU costs a search's system calls on this machine.

Usage: ``python -m benchmarks.contention [--corpus medium] [--tree DIR] [--rounds 15]``

A search of a tree is, below the interpreter, a system call or a few per file: a ``stat``
to vouch for a cached content (the tree cache without a watch), an ``open``, a ``read`` or two
and a ``close`` to read one (the command line). Two processes share such a search (the command
line's forked workers, ``FileTools``' helper process), and rg shares it between two threads, on
the assumption that a second CPU doubles what can be done. This measures the assumption on the
machine at hand: a pass of ``stat`` calls over the tree's files, a pass that opens, reads and
closes each of them, and a loop of pure Python, each timed alone and while a second process
keeps the other CPU busy, with a pure-Python loop or (for the two passes of system calls) the
same calls. The passes are interleaved round by round; for each, the median wall time and the
median of its wall time over its CPU time are printed. A ratio above 1 is time the pass spent
waiting for a CPU, not computing: a second CPU that is not a whole one.

``benchmarks/results/contention-2026-12-04.md`` has the runs made on this project's VM and
what they show.

``--load stat|read|python`` is the second process's own mode: the loop, until its parent is
gone or a minute has passed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

from benchmarks.speed.queries import corpus

_MAX_FILES = 5000
_PYTHON_LOOP = 2_000_000
# A pass over the files is made this many times per timed sample, so that a sample lasts tens of
# milliseconds (one pass over the medium corpus: 15-40 ms of stat, a scheduling tick is 4).
_FILE_PASSES = 3
# The load process gives up after this many seconds, should its parent never kill it.
_LOAD_SECONDS = 60


def tree_files(root: str, limit: int = _MAX_FILES) -> list[bytes]:
    """Up to *limit* regular files below *root*, in a stable order."""
    found: list[bytes] = []
    for directory, dirs, names in os.walk(os.fsencode(root)):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(directory, name)
            if os.path.isfile(path) and not os.path.islink(path):
                found.append(path)
                if len(found) >= limit:
                    return found
    return found


def stat_pass(paths: list[bytes]) -> None:
    stat = os.stat
    for path in paths:
        stat(path)


def read_pass(paths: list[bytes]) -> None:
    # As the command line reads a walked file (search/file_read.py read_walked): a first read
    # of 64 KiB, a second to find the end, then close.
    for path in paths:
        fd = os.open(path, os.O_RDONLY)
        try:
            if len(os.read(fd, 1 << 16)) < 1 << 16:
                os.read(fd, 1 << 16)
        finally:
            os.close(fd)


def python_pass(count: int) -> None:
    total = 0
    for i in range(count):
        total += i


def _load(kind: str, paths: list[bytes]) -> None:
    """The second process: run one kind of pass until killed, or until its parent has gone or
    _LOAD_SECONDS have passed (a parent interrupted between starting it and killing it)."""
    parent = os.getppid()
    stop = time.monotonic() + _LOAD_SECONDS
    print("ready", flush=True)
    while os.getppid() == parent and time.monotonic() < stop:
        if kind == "stat":
            stat_pass(paths)
        elif kind == "read":
            read_pass(paths)
        else:
            python_pass(_PYTHON_LOOP)


def _start_load(kind: str, tree: str) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.contention", "--tree", tree, "--load", kind],
        stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
        cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
    )
    assert process.stdout is not None
    try:
        started = process.stdout.readline().strip() == b"ready"
    except BaseException:
        process.kill()
        raise
    if not started:
        process.kill()
        raise RuntimeError("the load process did not start")
    return process


def measure(tree: str, rounds: int) -> tuple[int, dict[tuple[str, str], tuple[float, float]]]:
    """Per pass and load, {(pass, load): (median µs per file, or per 1,000 loop turns for the
    Python pass; median of wall time over CPU time)}. Raises RuntimeError when a load process
    was not running to the end of the pass it was started for."""
    paths = tree_files(tree)
    if not paths:
        raise ValueError(f"no files under {tree}")
    passes = {
        "stat": lambda: [stat_pass(paths) for _ in range(_FILE_PASSES)],
        "read": lambda: [read_pass(paths) for _ in range(_FILE_PASSES)],
        "python": lambda: python_pass(_PYTHON_LOOP),
    }
    units = {"stat": len(paths) * _FILE_PASSES, "read": len(paths) * _FILE_PASSES,
             "python": _PYTHON_LOOP / 1000}
    loads = {"stat": ("none", "python", "same"), "read": ("none", "python", "same"),
             "python": ("none", "python")}
    samples: dict[tuple[str, str], list[tuple[float, float]]] = {
        (p, load): [] for p in passes for load in loads[p]}
    for run in passes.values():
        run()  # warm the page cache, the dentries and the code
    for _ in range(rounds):
        for load in ("none", "python", "same"):
            for name, run in passes.items():
                if load not in loads[name]:
                    continue
                process = None
                if load != "none":
                    process = _start_load("python" if load == "python" else name, tree)
                try:
                    wall, cpu = time.perf_counter(), time.process_time()
                    run()
                    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                    if process is not None and process.poll() is not None:
                        raise RuntimeError(f"the {load} load ended during the {name} pass")
                finally:
                    if process is not None:
                        process.kill()
                        process.wait()
                samples[(name, load)].append((wall * 1e6 / units[name], wall / max(cpu, 1e-9)))
    return len(paths), {
        key: (statistics.median(s[0] for s in values), statistics.median(s[1] for s in values))
        for key, values in samples.items()}


def report(tree: str, files: int, medians: dict[tuple[str, str], tuple[float, float]]) -> str:
    lines = [
        f"tree {tree}: {files} files, {os.cpu_count()} CPUs; median µs per file (pure Python: "
        "per 1,000 loop turns), and in brackets the median of wall time over CPU time",
        "",
        "| pass | alone | other CPU: Python loop | other CPU: the same calls | slowdown |",
        "|---|---|---|---|---|",
    ]
    labels = {"stat": "`stat`", "read": "open, read, close", "python": "pure Python"}
    for name, label in labels.items():
        alone = medians[(name, "none")][0]
        cells, slowdowns = [], []
        for load in ("none", "python", "same"):
            if (name, load) not in medians:
                cells.append("–")
                continue
            per_file, off_cpu = medians[(name, load)]
            cells.append(f"{per_file:.2f} ({off_cpu:.2f})")
            if load != "none":
                slowdowns.append(f"{per_file / alone:.2f}")
        lines.append(f"| {label} | {' | '.join(cells)} | {', '.join(slowdowns)} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="medium", help="a speed corpus (default: medium)")
    parser.add_argument("--tree", default=None, help="use this directory instead")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--load", choices=("stat", "read", "python"), help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    tree = os.path.abspath(options.tree or str(corpus(options.corpus).cwd))
    if not os.path.isdir(tree):
        parser.error(f"no tree at {tree}" + ("" if options.tree else
                                             ": python -m benchmarks.speed.corpora"))
    if options.load:
        _load(options.load, tree_files(tree))
        return 0
    files, medians = measure(tree, options.rounds)
    print(report(tree, files, medians))
    return 0


if __name__ == "__main__":
    sys.exit(main())
