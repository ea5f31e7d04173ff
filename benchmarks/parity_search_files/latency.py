"""Latency of typical search_files calls: in-process engine versus the rg backend.

``python -m benchmarks.parity_search_files.latency [--files 2000] [--repeats 9] [--tree DIR]``

Builds a seeded ~2,000-file source-like tree (or uses ``--tree``, e.g. a speed corpus), then
times ``FileTools.search_files`` calls, interleaving the two backends so drift hits both:

- *cold-ish*: a fresh ``FileTools`` and a pattern not searched before in this process (nothing
  cached by the engine; the OS page cache is warm for both, as in an agent session);
- *warm*: the same ``FileTools`` and pattern again (``notify_other_tool_call`` in between, so
  the loop guard does not refuse the repeat);
- *first call in a new process*: a fresh interpreter imports shellfree and makes one call,
  timed from before the import (what a short-lived CLI invocation pays).

Prints a table of medians and the in-process / rg ratio.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Callable

from benchmarks.parity.reference import find_reference_rg
from shellfree import FileTools

WORDS = ("request", "handler", "value", "config", "result", "items", "cache", "session",
         "parse", "token", "buffer", "stream", "update", "render", "index", "filter", "update")
RARE = tuple(f"marker{i:02d}" for i in range(40))
"""Each rare marker is planted in a few files: the patterns a cold-ish call searches for."""

SCENARIOS: tuple[tuple[str, dict[str, object]], ...] = (
    ("content, 1 rare word (default limit 50)", {"pattern": "{rare}"}),
    ("content, common regex, limit 50", {"pattern": r"def \w+\(self"}),
    ("files_only, common word", {"pattern": "{rare}|session", "output_mode": "files_only"}),
    ("file names *.py", {"pattern": "*{rare_digit}.py", "target": "files"}),
    ("zero matches (3 probes)", {"pattern": "NoSuch{rare}"}),
)


def build_tree(base: str, files: int, seed: int = 2024) -> None:
    """Writes *files* Python-like files below *base* (about 60 lines each) and a .gitignore."""
    rng = random.Random(seed)
    dirs = [f"pkg{i // 10}/mod{i % 10}" for i in range(max(1, files // 20))]
    for n in range(files):
        directory = os.path.join(base, rng.choice(dirs))
        os.makedirs(directory, exist_ok=True)
        lines = []
        for f in range(rng.randint(3, 8)):
            lines.append(f"def {rng.choice(WORDS)}_{f}(self, {rng.choice(WORDS)}):")
            for _ in range(rng.randint(4, 10)):
                words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 8)))
                lines.append(f"    {rng.choice(WORDS)} = {words!r}")
        if rng.random() < 0.05:
            lines.insert(rng.randrange(len(lines)), f"    # {rng.choice(RARE)} here")
        with open(os.path.join(directory, f"file{n}.py"), "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
    with open(os.path.join(base, ".gitignore"), "w", encoding="utf-8") as handle:
        handle.write("*.pyc\n__pycache__/\n")
    os.makedirs(os.path.join(base, ".git"), exist_ok=True)


def _args(template: dict[str, object], n: int) -> dict[str, object]:
    values = {"rare": RARE[n % len(RARE)], "rare_digit": str(n % 10)}
    return {k: v.format(**values) if isinstance(v, str) else v for k, v in template.items()}


def _time(call: Callable[[], str]) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def measure(root: str, rg_path: str, repeats: int) -> list[tuple[str, float, float, float, float]]:
    """Per scenario: (name, cold in-process, cold rg, warm in-process, warm rg) medians (s)."""
    rows = []
    counter = 0
    for name, template in SCENARIOS:
        cold: dict[str, list[float]] = {"inprocess": [], "rg": []}
        warm: dict[str, list[float]] = {"inprocess": [], "rg": []}
        for _ in range(repeats):
            counter += 1
            args = _args(template, counter)
            for backend in ("inprocess", "rg") if counter % 2 else ("rg", "inprocess"):
                options = {"backend": "rg", "rg_path": rg_path} if backend == "rg" else {}
                tools = FileTools(root, **options)
                cold[backend].append(_time(lambda: tools.call("search_files", args)))
                tools.notify_other_tool_call()
                warm[backend].append(_time(lambda: tools.call("search_files", args)))
        rows.append((name, statistics.median(cold["inprocess"]), statistics.median(cold["rg"]),
                     statistics.median(warm["inprocess"]), statistics.median(warm["rg"])))
    return rows


_FIRST_CALL = """
import sys, time
started = time.perf_counter()
from shellfree import FileTools
options = {"backend": "rg", "rg_path": sys.argv[3]} if sys.argv[2] == "rg" else {}
FileTools(sys.argv[1], **options).search_files(sys.argv[4])
print(time.perf_counter() - started)
"""


def first_call(root: str, rg_path: str, repeats: int) -> tuple[float, float]:
    """Medians (s) of import + one rare-word call in a new interpreter, per backend."""
    times: dict[str, list[float]] = {"inprocess": [], "rg": []}
    for n in range(repeats):
        for backend in ("inprocess", "rg") if n % 2 else ("rg", "inprocess"):
            out = subprocess.run([sys.executable, "-c", _FIRST_CALL, root, backend, rg_path,
                                  RARE[n % len(RARE)]], capture_output=True, text=True,
                                 check=True)
            times[backend].append(float(out.stdout))
    return statistics.median(times["inprocess"]), statistics.median(times["rg"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.parity_search_files.latency")
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--tree", default=None, help="search this directory instead")
    options = parser.parse_args(argv)
    reference = find_reference_rg()
    base = None
    root = options.tree
    if root is None:
        base = tempfile.mkdtemp(prefix="sf-latency-")
        root = os.path.join(base, "repo")
        build_tree(root, options.files)
    try:
        counted = sum(len(f) for _, _, f in os.walk(root))
        rows = measure(root, reference.path, options.repeats)
        process_cold = first_call(root, reference.path, options.repeats)
    finally:
        if base is not None:
            shutil.rmtree(base, ignore_errors=True)
    print(f"tree: {root if options.tree else f'generated, {options.files} files'} "
          f"({counted} files on disk); reference: {reference.version_line}; "
          f"medians of {options.repeats}")
    print()
    print("| call | cold-ish in-process | cold-ish rg | ratio | warm in-process | warm rg "
          "| ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, ci, cr, wi, wr in rows:
        print(f"| {name} | {ci * 1000:.0f} ms | {cr * 1000:.0f} ms | {ci / cr:.1f}x "
              f"| {wi * 1000:.0f} ms | {wr * 1000:.0f} ms | {wi / wr:.1f}x |")
    pi, pr = process_cold
    print()
    print(f"First call in a new Python process (import + one rare-word call): in-process "
          f"{pi * 1000:.0f} ms, rg backend {pr * 1000:.0f} ms, ratio {pi / pr:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
