"""``python -m benchmarks.parity_search_files --cases 500 --seed 1``: run, print, write a report.

``--case SEED`` replays one case verbosely (arguments, tree, both texts). The exit status is 0
when every case agreed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from benchmarks.parity.reference import find_reference_rg
from benchmarks.parity_search_files.report import RunInfo, agreement, render, signature
from benchmarks.parity_search_files.runner import ParityRun

DEFAULT_REPORT = os.path.join("benchmarks", "parity_search_files", "results", "report.md")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.parity_search_files")
    parser.add_argument("--cases", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--report", default=DEFAULT_REPORT)
    parser.add_argument("--case", type=int, default=None, help="replay one case seed")
    parser.add_argument("--search-processes", type=int, default=1,
                        help="FileTools(search_processes=N) on the in-process side")
    options = parser.parse_args(argv)
    reference = find_reference_rg()
    if options.case is not None:
        return _replay(reference.path, options.case, options.search_processes)
    started = time.perf_counter()
    with ParityRun(reference.path, search_processes=options.search_processes) as run:
        def progress(index: int, outcome) -> None:  # type: ignore[no-untyped-def]
            if not outcome.agrees:
                print(f"case {outcome.case.seed}: differs ({signature(outcome)})", flush=True)
            elif (index + 1) % 100 == 0:
                print(f"{index + 1} cases", flush=True)

        outcomes = run.run(options.seed, options.cases, progress)
    seconds = time.perf_counter() - started
    agree, total = agreement(outcomes)
    command = "python -m benchmarks.parity_search_files " + " ".join(
        argv if argv is not None else sys.argv[1:])
    info = RunInfo(command.strip(), reference.version_line, options.seed, seconds)
    os.makedirs(os.path.dirname(options.report) or ".", exist_ok=True)
    with open(options.report, "w", encoding="utf-8") as handle:
        handle.write(render(outcomes, info))
    print(f"agreement: {agree}/{total} = {agree / total:.2%} in {seconds:.1f} s; "
          f"report: {options.report}")
    return 0 if agree == total else 1


def _replay(rg_path: str, seed: int, search_processes: int = 1) -> int:
    with ParityRun(rg_path, search_processes=search_processes) as run:
        outcome = run.run_case(seed)
        print(f"arguments: {outcome.case.args} x{outcome.case.repeat}")
        print(f"tree ({run.tree(outcome.case.tree_seed)[0]}):")
        print(outcome.tree.tree.to_shell())
        for label, texts in (("in-process", outcome.inprocess), ("rg backend", outcome.rg)):
            for text in texts:
                print(f"{label}: {text}")
        print("agrees" if outcome.agrees else "DIFFERS")
        return 0 if outcome.agrees else 1


if __name__ == "__main__":
    sys.exit(main())
