"""Does a helper process pay for a tree's new queries? One process against two, call by call.

Usage: ``python -m benchmarks.helper_split [--corpus medium] [--tree DIR] [--queries
rare,common,...] [--rounds 15]``

``FileTools``' default starts one helper process once two searches in a row have each checked
the contents of many files through a cache without a watch (``AUTO_POOL_FILES`` in
``engine/backends.py``). This measures what that buys on a given
tree: two ``FileTools`` with the default cache are kept in one script, one searching alone
(``search_processes=1``) and one with a helper from its first search (``search_processes=2``),
and each query of the speed benchmark is called on them in turn, the order swapped every round,
as a new query (the remembered outcomes dropped after each call; listings, walks and contents
warm, as the speed harness's *new query* rows). Taking the two call by call, in one process and
under the same load, makes the comparison steadier than separate timed runs on a VM whose speed
drifts. After three untimed calls of each kind, ``--rounds`` calls of each are timed.

Prints, per query, the two medians, their ratio and in how many rounds the helper was faster.
The tree is a speed corpus (``benchmarks/speed/corpora/<name>``, built by ``python -m
benchmarks.speed.corpora``) or any directory (``--tree``); the queries' rare literal is the
corpus's, and on another tree it may match nothing: its calls then run search_files' zero-match
probes too (three searches of the tree each, on both sides).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from benchmarks.speed.adapters import _TOOLS, _search_files_page
from benchmarks.speed.queries import QUERY_NAMES, corpus, queries_for


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="medium", help="a speed corpus (default: medium)")
    parser.add_argument("--tree", default=None, help="search this directory instead")
    parser.add_argument("--queries", default=",".join(n for n in QUERY_NAMES if n != "files"))
    parser.add_argument("--rounds", type=int, default=15)
    options = parser.parse_args(argv)
    target = corpus(options.corpus)
    cwd = options.tree or str(target.cwd)
    if not os.path.isdir(cwd):
        parser.error(f"no tree at {cwd}" + ("" if options.tree else
                                            ": python -m benchmarks.speed.corpora"))
    queries = queries_for(target, tuple(options.queries.split(",")))
    if not queries or any(q.name == "files" for q in queries):
        parser.error("search queries only (no --files)")

    def call(args, processes: int) -> None:
        _search_files_page(args, target.paths, cwd, f"helper-split-{processes}", {},
                           new_query=True, processes=processes)

    for query in queries:
        for processes in (1, 2, 1, 2, 1, 2):
            call(query.args, processes)
    print(f"tree {cwd}: new queries, one process against a helper, {options.rounds} rounds")
    print("| query | one process (ms) | with a helper (ms) | ratio | helper faster |")
    print("|---|---|---|---|---|")
    for query in queries:
        times: dict[int, list[float]] = {1: [], 2: []}
        for round_ in range(options.rounds):
            for processes in ((1, 2) if round_ % 2 else (2, 1)):
                started = time.perf_counter()
                call(query.args, processes)
                times[processes].append((time.perf_counter() - started) * 1000)
        alone, shared = statistics.median(times[1]), statistics.median(times[2])
        faster = sum(one > two for one, two in zip(times[1], times[2]))
        shown = ' '.join(query.args).replace('|', '\\|')  # a cell of a Markdown table
        print(f"| {shown} | {alone:.1f} | {shared:.1f} | {shared / alone:.2f} | "
              f"{faster}/{options.rounds} |", flush=True)
    shared_tools = _TOOLS.pop((cwd, "helper-split-2"))
    alone_tools = _TOOLS.pop((cwd, "helper-split-1"))
    try:
        pool = shared_tools.tree_cache.pool
        states = pool.states() if pool is not None else [None]
        # Else the comparison would be of one process twice: a helper that searched holds
        # the contents of its share.
        if states[0] is None or not states[0]["contents"]:
            print(f"no helper process shared the searches: {states}", file=sys.stderr)
            return 1
    finally:
        shared_tools.close()
        alone_tools.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
