"""Command line of the parity harness: ``python -m benchmarks.parity walk ...``.

``walk --cases N --seed S`` runs N random ``--files`` cases and writes a Markdown report;
``walk --case SEED`` replays one case verbosely (``--shrink`` also minimises it).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from pathlib import Path
from typing import Sequence

from benchmarks.parity.batch import CaseFactory, CaseOutcome, agreement, describe, run_batch, run_one
from benchmarks.parity.reference import find_reference_rg
from benchmarks.parity.report import RunInfo, write_report
from benchmarks.parity.runner import ParityRunner, default_candidate
from benchmarks.parity.shrink import shrink
from benchmarks.parity.walk_cases import case_seed, walk_case, walk_case_extended

DEFAULT_REPORT = Path(__file__).resolve().parents[1] / "results" / "parity-walk.md"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.parity", description=__doc__)
    sub = parser.add_subparsers(dest="harness", required=True)
    walk = sub.add_parser("walk", help="`rg --files` parity on random trees")
    walk.add_argument("--cases", type=int, default=2000, help="number of random cases (default 2000)")
    walk.add_argument("--seed", type=int, default=1, help="run seed; case k gets seed SEED*1000000+k")
    walk.add_argument("--jobs", type=int, default=2, help="cases run at once (default 2)")
    walk.add_argument("--report", default=str(DEFAULT_REPORT), help="Markdown report path")
    walk.add_argument("--case", type=int, metavar="SEED", help="replay one case seed verbosely")
    walk.add_argument("--shrink", action="store_true", help="with --case: minimise the disagreement")
    walk.add_argument("--keep", action="store_true", help="keep case directories on disk")
    walk.add_argument(
        "--extended",
        action="store_true",
        help="also draw flags beyond the walker brief (--null, --path-separator, --max-filesize, ...)",
    )
    walk.add_argument(
        "--candidate",
        help="candidate command prefix, shell-quoted (default: `python -m shellfree rg`)",
    )
    return parser


def _replay(runner: ParityRunner, factory: CaseFactory, seed: int, do_shrink: bool) -> int:
    outcome = run_one(runner, factory, seed)
    print(describe(outcome))
    if do_shrink and not outcome.agrees:
        small = shrink(outcome.case, runner, log=lambda m: print(m, file=sys.stderr))
        result = runner.run(small.tree, small.invocation, seed=seed)
        print("=== shrunk ===")
        print(describe(CaseOutcome(small, result)))
    if runner.keep:
        print(f"case directory kept: {outcome.comparison.case_dir}")
    return 0 if outcome.agrees else 1


def _walk(args: argparse.Namespace) -> int:
    reference = find_reference_rg()
    candidate = shlex.split(args.candidate) if args.candidate else list(default_candidate())
    with ParityRunner(reference, candidate, keep=args.keep) as runner:
        factory: CaseFactory = walk_case_extended if args.extended else walk_case
        if args.case is not None:
            return _replay(runner, factory, args.case, args.shrink)
        seeds = [case_seed(args.seed, i) for i in range(args.cases)]
        start = time.perf_counter()
        outcomes = []
        step = max(1, args.cases // 20)
        for outcome in run_batch(runner, factory, seeds, jobs=args.jobs):
            outcomes.append(outcome)
            if len(outcomes) % step == 0 or len(outcomes) == len(seeds):
                agree, total = agreement(outcomes)
                print(f"{total}/{len(seeds)} cases, {agree} agree ({agree / total:.1%})", file=sys.stderr)
        seconds = time.perf_counter() - start
        agree, total = agreement(outcomes)
        info = RunInfo(
            command="python -m benchmarks.parity " + " ".join(shlex.quote(a) for a in sys.argv[1:]),
            reference_version=reference.version_line,
            candidate=" ".join(shlex.quote(c) for c in candidate),
            run_seed=args.seed,
            jobs=args.jobs,
            seconds=seconds,
        )
        write_report(args.report, outcomes, info)
        print(f"agreement {agree}/{total} = {agree / total:.2%} in {seconds:.1f} s; report: {args.report}")
        return 0 if agree == total else 1


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the harness named on the command line; returns 0 iff every case agreed."""
    args = _parser().parse_args(argv)
    if args.harness == "walk":
        return _walk(args)
    raise AssertionError(args.harness)


if __name__ == "__main__":
    # Make `benchmarks` importable when run as a script from elsewhere than the repo root.
    sys.path.insert(0, os.fspath(Path(__file__).resolve().parents[2]))
    sys.exit(main())
