"""Peak memory and time of read_file on a 200 MB text file, page 1 and the page at 1,000,000.

Usage: ``python -m benchmarks.read_memory [--file PATH] [--repeat N] [--out DIR]``

The file is ``benchmarks/speed/corpora/big.txt`` when it exists (203 MB, 3.6 M lines, built by
``python -m benchmarks.speed.corpora --only big``), else a 200 MB file generated into a
temporary directory (seeded, written in chunks). Every measurement runs in a fresh interpreter
(:mod:`benchmarks.read_memory.measure`), so each peak RSS belongs to one call alone; the
baseline is the peak after ``import shellfree`` and ``FileTools()``, before the read. A naive
whole-file read is measured once for contrast. Prints a Markdown table; ``--out`` also writes
it, with the raw JSON, to ``DIR/read-memory-<date>.md``/``.json``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIG = ROOT / "benchmarks" / "speed" / "corpora" / "big.txt"
TARGET_BYTES = 200_000_000
OFFSETS = (1, 1_000_000)
WORDS = ("alpha beta gamma delta lease orphan reconcile buffer worker queue index token "
         "request response handler config module value result error").split()


def build_file(directory: str) -> Path:
    """A ~200 MB text file of seeded random lines, written 1 MiB at a time."""
    path = Path(directory) / "big-generated.txt"
    rng = random.Random(20251130)
    written = 0
    with open(path, "w", encoding="utf-8") as handle:
        while written < TARGET_BYTES:
            block = "".join(" ".join(rng.choices(WORDS, k=rng.randint(2, 14))) + "\n"
                            for _ in range(10_000))
            handle.write(block)
            written += len(block)
    return path


def measure(path: Path, offset: int, whole: bool = False) -> dict:
    args = [sys.executable, "-m", "benchmarks.read_memory.measure", str(path), str(offset)]
    if whole:
        args.append("--whole")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    out = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def table(path: Path, rows: list[dict], repeat: int) -> str:
    size = path.stat().st_size
    lines = [
        f"# read_file memory — {datetime.date.today().isoformat()}, "
        f"{platform.machine()} {platform.system()}, Python {platform.python_version()}",
        "",
        f"File: `{path.name}`, {size:,} bytes, {rows[0]['total_lines']:,} lines. "
        f"Each row: median of {repeat} fresh processes.",
        "",
        "| call | baseline RSS | peak RSS | peak − baseline | time | lines shown |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        name = ("whole-file read (naive, for contrast)" if row["whole"]
                else f"read_file(offset={row['offset']:,})")
        shown = ("—" if row["whole"]
                 else f"{row['lines_shown']} from line {row['first_line_number']}")
        lines.append(
            f"| {name} | {row['baseline_kib'] / 1024:.1f} MiB | {row['peak_kib'] / 1024:.1f} MiB "
            f"| {(row['peak_kib'] - row['baseline_kib']) / 1024:.1f} MiB | {row['seconds']:.2f} s "
            f"| {shown} |")
    return "\n".join(lines) + "\n"


def median_row(samples: list[dict]) -> dict:
    row = dict(samples[0])
    for key in ("baseline_kib", "peak_kib", "seconds"):
        row[key] = statistics.median(s[key] for s in samples)
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.read_memory")
    parser.add_argument("--file", type=Path, help="the text file to read (default: big.txt)")
    parser.add_argument("--repeat", type=int, default=3, help="fresh processes per row")
    parser.add_argument("--out", type=Path, help="directory for the .md and .json reports")
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        path = options.file or (BIG if BIG.exists() else build_file(scratch))
        rows = [median_row([measure(path, offset) for _ in range(options.repeat)])
                for offset in OFFSETS]
        rows.append(measure(path, 1, whole=True))
        report = table(path, rows, options.repeat)
    sys.stdout.write(report)
    if options.out:
        options.out.mkdir(parents=True, exist_ok=True)
        stem = options.out / f"read-memory-{datetime.date.today().isoformat()}"
        stem.with_suffix(".md").write_text(report, encoding="utf-8")
        stem.with_suffix(".json").write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    for row in rows:
        if row.get("error"):
            sys.stderr.write(f"error at offset {row['offset']}: {row['error']}\n")
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
