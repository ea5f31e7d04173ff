"""``python -m benchmarks.redaction [--seed 1] [--per-family 100] [--runs 7]``: measure, print the
tables, write the report (``benchmarks/results/redaction.md`` unless ``--report PATH``).

The exit status is 0 when overall recall in file reads is at least 98% and no line of ordinary
text is redacted in file reads; 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from benchmarks.redaction.corpus import generate
from benchmarks.redaction.measure import MODES, false_positives, mixed_text, recall, timing
from benchmarks.redaction.ordinary import sources
from benchmarks.redaction.report import Run, render, summary

DEFAULT_REPORT = os.path.join("benchmarks", "results", "redaction.md")
RECALL_TARGET = 0.98


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.redaction")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-family", type=int, default=100)
    parser.add_argument("--runs", type=int, default=7, help="timed runs per mode")
    parser.add_argument("--report", default=DEFAULT_REPORT)
    options = parser.parse_args(argv)
    started = time.perf_counter()
    samples = generate(options.seed, options.per_family)
    recalls = {mode: recall(samples, mode) for mode in MODES}
    ordinary = {mode: false_positives(mode) for mode in ("file read", "plain")}
    texts = {"mixed (a secret every 40 lines)": mixed_text(options.seed),
             "ordinary code only": mixed_text(options.seed, secret_every=None)}
    timings = [timing(label, text, mode, options.runs)
               for label, text in texts.items() for mode in MODES]
    command = "python -m benchmarks.redaction " + " ".join(
        argv if argv is not None else sys.argv[1:])
    run = Run(command.strip(), options.seed, options.per_family, recalls, ordinary, sources(),
              timings, time.perf_counter() - started)
    print(summary(run))
    os.makedirs(os.path.dirname(options.report) or ".", exist_ok=True)
    with open(options.report, "w", encoding="utf-8") as handle:
        handle.write(render(run))
    print(f"\nreport: {options.report}")
    ok = recalls["file read"].overall >= RECALL_TARGET and not ordinary["file read"].hits
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
