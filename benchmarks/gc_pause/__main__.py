"""What a warm tree cache costs the host's cyclic garbage collector.

Usage: ``python -m benchmarks.gc_pause [--corpus medium,large] [--runs 3] [--corpora DIR]
[--new-searches 20]``

An agent process keeps one :class:`~shellfree.search.tree_cache.TreeCache` per task tree; every
object the cache keeps that the collector tracks is visited by each full collection the host
makes, for the host's own reasons. Per corpus (``benchmarks/speed/corpora/<name>``, built by
``python -m benchmarks.speed.corpora``), in a fresh interpreter per run:

- a cold in-process search (``rgcli.run.run`` with a new cache, rare literal) and the time the
  collections it triggered took (``gc.callbacks``);
- then two full ``gc.collect()`` calls, timed, and the number of tracked objects left: the
  pause a host's full collection pays while the cache is warm;
- in a second table, ``--new-searches N`` new searches of the same pattern over the warm cache
  (each search's remembered outcomes forgotten after it, as the speed harness's *new query*
  rows do): the collections of each generation they triggered and the time those took, per
  search, and the median search.

Each corpus is measured with the default cache (``stat`` checks) and with ``TreeCache(watch=True)``
(whose inotify watch keeps a record per directory), where a watch can be had.

Prints a Markdown table of medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPORA = ROOT / "benchmarks" / "speed" / "corpora"
PATTERN = {"medium": "decrypt_and_get_vault_id", "large": "disable_passthrough_idempotency_result"}

_ONE_RUN = r"""
import gc, io, json, sys, time
from shellfree.rgcli.run import run
from shellfree.search.tree_cache import TreeCache

spent = [0.0]
began = [0.0]
def timed(phase, info):
    if phase == "start":
        began[0] = time.perf_counter()
    else:
        spent[0] += time.perf_counter() - began[0]
gc.collect()
gc.callbacks.append(timed)
cache = TreeCache(remembered_searches=0, watch=sys.argv[3] == "watched")
if sys.argv[3] == "watched" and cache.watch_unavailable is not None:
    print(json.dumps({"unavailable": cache.watch_unavailable}))
    sys.exit(0)
started = time.perf_counter()
run([b"-n", b"--", sys.argv[2].encode()], io.BytesIO(), io.BytesIO(), None, cwd=sys.argv[1],
    cache=cache)
search = time.perf_counter() - started
in_search = spent[0]
gc.callbacks.remove(timed)
pauses = []
for _ in range(2):
    started = time.perf_counter()
    gc.collect()
    pauses.append(time.perf_counter() - started)
print(json.dumps({"search": search, "gc_in_search": in_search, "first_collect": pauses[0],
                  "second_collect": pauses[1], "tracked": len(gc.get_objects())}))
"""

_NEW_SEARCHES = r"""
import gc, io, json, statistics, sys, time
from shellfree.rgcli.run import run
from shellfree.search.tree_cache import TreeCache

counts, spent, began = [0, 0, 0], [0.0, 0.0, 0.0], [0.0]
def timed(phase, info):
    if phase == "start":
        began[0] = time.perf_counter()
    else:
        counts[info["generation"]] += 1
        spent[info["generation"]] += time.perf_counter() - began[0]
cache = TreeCache(watch=sys.argv[3] == "watched")
if sys.argv[3] == "watched" and cache.watch_unavailable is not None:
    print(json.dumps({"unavailable": cache.watch_unavailable}))
    sys.exit(0)
def search():
    started = time.perf_counter()
    run([b"-n", b"--", sys.argv[2].encode()], io.BytesIO(), io.BytesIO(), None,
        cwd=sys.argv[1], cache=cache)
    took = time.perf_counter() - started
    cache.forget_searches()
    return took
for _ in range(3):
    search()
gc.callbacks.append(timed)
times = [search() for _ in range(int(sys.argv[4]))]
n = len(times)
print(json.dumps({"counts": [c / n for c in counts], "spent": [s / n for s in spent],
                  "search": statistics.median(times)}))
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.gc_pause")
    parser.add_argument("--corpus", default="medium,large")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--corpora", type=Path, default=CORPORA,
                        help="the directory holding the corpora (default: the speed harness's)")
    parser.add_argument("--new-searches", type=int, default=20,
                        help="new searches per run in the second table (0: none)")
    args = parser.parse_args(argv)
    print("| corpus | cache | cold search | of it in collections | full collect after | again | "
          "tracked objects |")
    print("|---|---|---|---|---|---|---|")
    for name in args.corpus.split(","):
        tree = args.corpora / name
        if not tree.is_dir():
            print(f"{tree} missing: python -m benchmarks.speed.corpora --only {name}",
                  file=sys.stderr)
            return 2
        for mode in ("stat", "watched"):
            # A fresh interpreter per run: each starts with an empty heap and no cache.
            runs = [json.loads(subprocess.run(
                [sys.executable, "-c", _ONE_RUN, str(tree), PATTERN.get(name, "zzqqxx_absent"),
                 mode], check=True, capture_output=True, text=True).stdout)
                for _ in range(args.runs)]
            if "unavailable" in runs[0]:
                print(f"| {name} | {mode} | no watch: {runs[0]['unavailable']} | | | | |")
                continue

            def median_ms(key: str) -> str:
                return f"{statistics.median(r[key] for r in runs) * 1000:.0f} ms"

            tracked = statistics.median(r["tracked"] for r in runs)
            print(f"| {name} | {mode} | {median_ms('search')} | {median_ms('gc_in_search')} | "
                  f"{median_ms('first_collect')} | {median_ms('second_collect')} | "
                  f"{tracked:,.0f} |")
    if args.new_searches:
        _new_searches(args)
    return 0


def _new_searches(args: argparse.Namespace) -> None:
    print()
    print(f"Per new search over the warm cache ({args.new_searches} per run, medians of "
          f"{args.runs} runs):")
    print()
    print("| corpus | cache | young collections | middle | full | in collections | search |")
    print("|---|---|---|---|---|---|---|")
    for name in args.corpus.split(","):
        tree = args.corpora / name
        for mode in ("stat", "watched"):
            runs = [json.loads(subprocess.run(
                [sys.executable, "-c", _NEW_SEARCHES, str(tree),
                 PATTERN.get(name, "zzqqxx_absent"), mode, str(args.new_searches)],
                check=True, capture_output=True, text=True).stdout)
                for _ in range(args.runs)]
            if "unavailable" in runs[0]:
                print(f"| {name} | {mode} | no watch: {runs[0]['unavailable']} | | | | |")
                continue
            counts = [statistics.median(r["counts"][g] for r in runs) for g in range(3)]
            spent = statistics.median(sum(r["spent"]) for r in runs) * 1000
            search = statistics.median(r["search"] for r in runs) * 1000
            print(f"| {name} | {mode} | {counts[0]:.0f} | {counts[1]:.1f} | {counts[2]:.2f} | "
                  f"{spent:.0f} ms | {search:.0f} ms |")


if __name__ == "__main__":
    sys.exit(main())
