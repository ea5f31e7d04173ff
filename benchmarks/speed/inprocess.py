"""Extension point for in-process measurements: named adapters called in a fresh interpreter.

An *adapter* is a plain function ``adapter(args, paths, cwd) -> bytes``: *args* are the query's rg
flags and pattern (e.g. ``("-n", "-i", "unicode")``), *paths* the path arguments (empty: search
*cwd*), and it returns exactly what ``rg`` would print to stdout, so the harness can check it like
any command. It is free to map the flags to shellfree's Python API however it likes.

To add one, write the adapter in any importable module and add an ``InProcessBench`` to
``REGISTRY``; ``python -m benchmarks.speed --inprocess NAME`` then measures it. Each round runs
``python -m benchmarks.speed.inprocess`` in a new process, which:

1. imports the adapter's module and calls the adapter once: **cold** = import + first call, so
   the imports of shellfree itself are paid as in a one-shot tool call;
2. calls it ``--warm`` more times: **warm** = the median of those calls, with every cache filled.

The child writes its timings (and, on the check run, the first call's output) to files named on its
command line, so an adapter that prints cannot corrupt them.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import resource
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

Adapter = Callable[[Sequence[str], Sequence[str], str], bytes]
"""``adapter(args, paths, cwd) -> stdout bytes``, as described in the module docstring."""

UNSUPPORTED_EXIT = 3
"""The child's exit status when the adapter raised :class:`Unsupported`."""


class Unsupported(Exception):
    """Raised by an adapter for a query its API cannot express (``str()`` says why); the
    harness reports the cell as ``unsupported`` instead of faking an answer."""


@dataclass(frozen=True, slots=True)
class InProcessBench:
    """A registered in-process measurement: *name* (the table row), *target* (``"module:function"``
    of the adapter, imported inside the timed child) and a one-line *description*.

    *reference* (``"module:function"``, optional) is an adapter that computes the expected output
    with the reference rg binary, for an API whose answer is not rg's stdout (search_files returns
    JSON): the check run then compares the bench with it instead of with rg's stdout. It runs in
    the check only, never timed.
    """

    name: str
    target: str
    description: str
    reference: str = ""


REGISTRY: tuple[InProcessBench, ...] = (
    InProcessBench(
        "selftest",
        "benchmarks.speed.inprocess:reference_rg_adapter",
        "runs the reference rg binary through subprocess; tests this plumbing, measures nothing of shellfree",
    ),
    InProcessBench(
        "rgcli",
        "benchmarks.speed.adapters:rgcli",
        "shellfree.rgcli.run.run() in process, one TreeCache (default 64 MiB content budget) kept across calls",
    ),
    InProcessBench(
        "rgcli-nocache",
        "benchmarks.speed.adapters:rgcli_nocache",
        "shellfree.rgcli.run.run() in process without a tree cache: what the cache saves",
    ),
    InProcessBench(
        "search_files",
        "benchmarks.speed.adapters:search_files",
        "FileTools(root=cwd).search_files(...) kept across calls, default tree cache; -i is sent as (?i), "
        "--files has no equivalent; checked against the same call on FileTools(backend='rg')",
        reference="benchmarks.speed.adapters:search_files_reference",
    ),
    InProcessBench(
        "search_files-page",
        "benchmarks.speed.adapters:search_files_page",
        "FileTools(root=cwd, search_processes=1).search_files(pattern, path) with the defaults an "
        "agent gets (first page of 50, default caps; the total still counts every match), in one "
        "process; checked against FileTools(backend='rg')",
        reference="benchmarks.speed.adapters:search_files_page_reference",
    ),
    InProcessBench(
        "search_files-page-new",
        "benchmarks.speed.adapters:search_files_page_new",
        "as search_files-page with its remembered outcomes dropped after each call: each warm call "
        "costs what a new query on an unchanged tree costs (every file searched, its outcome "
        "remembered; until 7204e37, TreeCache(remembered_searches=0), which left out the remembering)",
        reference="benchmarks.speed.adapters:search_files_page_reference",
    ),
    InProcessBench(
        "search_files-page-watch",
        "benchmarks.speed.adapters:search_files_page_watch",
        "as search_files-page with TreeCache(watch=True): inotify reports instead of a stat per cached "
        "entry (Linux)",
        reference="benchmarks.speed.adapters:search_files_page_reference",
    ),
    InProcessBench(
        "search_files-page-new-watch",
        "benchmarks.speed.adapters:search_files_page_new_watch",
        "as search_files-page-new with TreeCache(watch=True): a new query on an unchanged tree, no stat "
        "per cached entry (Linux)",
        reference="benchmarks.speed.adapters:search_files_page_reference",
    ),
    InProcessBench(
        "search_files-page-new-pool",
        "benchmarks.speed.adapters:search_files_page_new_pool",
        "as search_files-page-new with FileTools(search_processes=2): one helper process, started "
        "at the first call and kept, shares each search, with its own default tree cache",
        reference="benchmarks.speed.adapters:search_files_page_reference",
    ),
    InProcessBench(
        "search_files-page-new-watch-pool",
        "benchmarks.speed.adapters:search_files_page_new_watch_pool",
        "as search_files-page-new-watch with FileTools(search_processes=2) (the helper's cache "
        "is not watched: it stat-checks its files)",
        reference="benchmarks.speed.adapters:search_files_page_reference",
    ),
    InProcessBench(
        "search_files-page-auto",
        "benchmarks.speed.adapters:search_files_page_auto",
        "as search_files-page with FileTools' default search_processes=None: one process until a "
        "search reads more than the 64 MiB cache keeps (or, without a watch, two in a row check "
        "4,000 files or more each), then one helper from the next search on (the large tree: "
        "the cold call finds it out, the first warm call starts the helper; on the medium tree a "
        "repeated query checks no file's content, and it stays in one process)",
        reference="benchmarks.speed.adapters:search_files_page_reference",
    ),
    InProcessBench(
        "search_files-page-new-auto",
        "benchmarks.speed.adapters:search_files_page_new_auto",
        "as search_files-page-new with FileTools' default search_processes=None",
        reference="benchmarks.speed.adapters:search_files_page_reference",
    ),
    InProcessBench(
        "search_files-page-new-watch-auto",
        "benchmarks.speed.adapters:search_files_page_new_watch_auto",
        "as search_files-page-new-watch with FileTools' default search_processes=None",
        reference="benchmarks.speed.adapters:search_files_page_reference",
    ),
    InProcessBench(
        "search_files-1g",
        "benchmarks.speed.adapters:search_files_1g",
        "as search_files with TreeCache(content_budget=1 GiB), which holds all of the large tree",
        reference="benchmarks.speed.adapters:search_files_reference",
    ),
)
"""Every in-process measurement the harness knows, by name. Only the ones named with
``--inprocess`` are run."""


def find(name: str) -> InProcessBench:
    """Return the registered bench called *name*; raises KeyError listing the known names."""
    for bench in REGISTRY:
        if bench.name == name:
            return bench
    raise KeyError(f"no in-process bench {name!r}; known: {', '.join(b.name for b in REGISTRY)}")


def child_argv(
    bench: InProcessBench, args: Sequence[str], paths: Sequence[str], warm: int, result: str, output: str = ""
) -> list[str]:
    """Return the command line of one fresh child measuring *bench* on one query."""
    argv = [
        sys.executable, "-m", "benchmarks.speed.inprocess", "--target", bench.target,
        "--query", json.dumps({"args": list(args), "paths": list(paths)}), "--warm", str(warm), "--result", result,
    ]  # fmt: skip
    if output:
        argv += ["--output", output]
    return argv


def reference_rg_adapter(args: Sequence[str], paths: Sequence[str], cwd: str) -> bytes:
    """Self-test adapter: return the reference rg's stdout for the query."""
    import subprocess  # imported here so that it counts towards the cold time, as an adapter's imports do

    from benchmarks.speed.reference import clean_env, locate_reference

    rg = locate_reference().path
    proc = subprocess.run(
        [rg, *args, *paths], cwd=cwd, env=clean_env(), stdin=subprocess.DEVNULL, capture_output=True, check=False
    )
    return proc.stdout


def _cpu() -> float:
    # Own and waited-for children's CPU, so adapters that fork or spawn are charged for it.
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _child_main(argv: list[str] | None = None) -> int:
    """Entry point of the measuring child (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.speed.inprocess")
    parser.add_argument("--target", required=True, help="module:function of the adapter")
    parser.add_argument("--query", required=True, help='JSON {"args": [...], "paths": [...]}')
    parser.add_argument("--warm", type=int, default=3, help="warm calls after the cold one")
    parser.add_argument("--result", required=True, help="file to write the timings to (JSON)")
    parser.add_argument("--output", default="", help="file to write the cold call's stdout bytes to")
    ns = parser.parse_args(argv)
    query = json.loads(ns.query)
    cwd = os.getcwd()
    module_name, _, func_name = ns.target.partition(":")

    # Run as ``-m``, this module is __main__; adapters raise the class of the imported module.
    # Imported before the clock starts: the harness's own code is not the adapter's cost.
    unsupported = importlib.import_module("benchmarks.speed.inprocess").Unsupported
    wall0, cpu0 = time.perf_counter(), _cpu()
    adapter: Adapter = getattr(importlib.import_module(module_name), func_name)
    wall1 = time.perf_counter()
    try:
        first = adapter(query["args"], query["paths"], cwd)
    except unsupported as err:
        print(f"unsupported: {err}", file=sys.stderr)
        return UNSUPPORTED_EXIT
    wall2, cpu2 = time.perf_counter(), _cpu()
    warm_wall: list[float] = []
    warm_cpu: list[float] = []
    for _ in range(ns.warm):
        w, c = time.perf_counter(), _cpu()
        adapter(query["args"], query["paths"], cwd)
        warm_wall.append(time.perf_counter() - w)
        warm_cpu.append(_cpu() - c)
    if ns.output:
        with open(ns.output, "wb") as fh:
            fh.write(first)
    result = {
        "import_wall_s": wall1 - wall0,
        "first_call_wall_s": wall2 - wall1,
        "cold_wall_s": wall2 - wall0,
        "cold_cpu_s": cpu2 - cpu0,
        "warm_wall_s": statistics.median(warm_wall) if warm_wall else None,
        "warm_cpu_s": statistics.median(warm_cpu) if warm_cpu else None,
        "warm_calls": ns.warm,
    }
    with open(ns.result, "w") as fh:
        json.dump(result, fh)
    return 0


if __name__ == "__main__":
    sys.exit(_child_main())
