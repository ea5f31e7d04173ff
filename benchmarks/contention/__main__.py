"""What a second busy CPU costs a search's system calls on this machine.

Usage: ``python -m benchmarks.contention [--corpus medium] [--tree DIR] [--rounds 15]``

A search of a tree is, below the interpreter, a system call or a few per file: a ``stat``
to vouch for a cached content (the tree cache without a watch), an ``open``, a ``read`` or two
and a ``close`` to read one (the command line). Two processes share such a search (the command
line's forked workers, ``FileTools``' helper process), and rg shares it between two threads, on
the assumption that a second CPU doubles what can be done. This measures the assumption on the
machine at hand: the time per file of a pass of ``stat`` calls over the tree's files, of a pass
that opens, reads and closes each of them, and of a loop of pure Python, each timed alone and
while a second process keeps the other CPU busy, once with a pure-Python loop and once with the
same system calls. The passes are interleaved round by round and the medians are printed.

On the 2-CPU VMs this project is measured on, the answer changed from one run to the next:
four runs of 15 rounds within five minutes (the README's Performance section) found a busy
second CPU slowing the system calls by 0.75-1.32x and pure Python by 0.98-1.72x, while the
time of a pass alone moved by up to 40 %. Two processes' gain over one, and the ratios of the
speed benchmark's cells, move with it.

``--load stat|read|python`` is the second process's own mode (the loop, until it is killed).
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
_PYTHON_LOOP = 200_000


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
    """The second process: run one kind of pass until killed."""
    print("ready", flush=True)
    while True:
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
    if process.stdout.readline().strip() != b"ready":
        process.kill()
        raise RuntimeError("the load process did not start")
    return process


def measure(tree: str, rounds: int) -> tuple[int, dict[tuple[str, str], float]]:
    """Median microseconds per file (per 1,000 loop turns for the Python pass) of each pass
    under each load: {(pass, load): µs}."""
    paths = tree_files(tree)
    if not paths:
        raise ValueError(f"no files under {tree}")
    passes = {
        "stat": lambda: stat_pass(paths),
        "read": lambda: read_pass(paths),
        "python": lambda: python_pass(_PYTHON_LOOP),
    }
    units = {"stat": len(paths), "read": len(paths), "python": _PYTHON_LOOP / 1000}
    loads = ("none", "python", "same")
    times: dict[tuple[str, str], list[float]] = {(p, l): [] for p in passes for l in loads}
    for name, run in passes.items():
        run()  # warm the page cache, the dentries and the code
    for _ in range(rounds):
        for load in loads:
            for name, run in passes.items():
                process = None
                if load != "none":
                    process = _start_load("python" if load == "python" else name, tree)
                try:
                    started = time.perf_counter()
                    run()
                    elapsed = time.perf_counter() - started
                finally:
                    if process is not None:
                        process.kill()
                        process.wait()
                times[(name, load)].append(elapsed * 1e6 / units[name])
    return len(paths), {key: statistics.median(values) for key, values in times.items()}


def report(tree: str, files: int, medians: dict[tuple[str, str], float]) -> str:
    lines = [
        f"tree {tree}: {files} files, {os.cpu_count()} CPUs; median µs per file "
        "(pure Python: per 1,000 loop turns)",
        "",
        "| pass | alone | other CPU: Python loop | other CPU: the same calls | slowdown |",
        "|---|---|---|---|---|",
    ]
    labels = {"stat": "`stat`", "read": "open, read, close", "python": "pure Python"}
    for name, label in labels.items():
        alone, python, same = (medians[(name, load)] for load in ("none", "python", "same"))
        lines.append(f"| {label} | {alone:.2f} | {python:.2f} | {same:.2f} | "
                     f"{python / alone:.2f}, {same / alone:.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="medium", help="a speed corpus (default: medium)")
    parser.add_argument("--tree", default=None, help="use this directory instead")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--load", choices=("stat", "read", "python"), help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    tree = options.tree or str(corpus(options.corpus).cwd)
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
