"""``shellfree bench``: run the speed and parity suites against rg 15.1 and write one report.

:func:`run_bench` runs the chosen suites (:mod:`benchmarks.report.suites`, each a driver over an
existing harness) with a progress bar on stderr, then writes ``report.md`` (ratio and agreement
tables), ``ratios.png`` (a bar chart of the ratios) and ``bench.json`` (the numbers) into the
output directory, beside each harness's own detailed report. It prints the Markdown on stdout
when done.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

from benchmarks.report import render
from benchmarks.report import suites as drivers

__all__ = ["SUITES", "run_bench"]

SUITES = ("speed", "walk", "search-files", "latency")
"""Suite names, in the order they run."""

REPO_ROOT = Path(__file__).resolve().parents[2]


def run_bench(
    *,
    suites: str = ",".join(SUITES),
    corpus: str = "medium",
    queries: str = "rare,common,icase,alt,word,files",
    rounds: int = 5,
    cases: int = 200,
    seed: int = 1,
    build_corpora: bool = False,
    chart: bool = True,
    out: Path | None = None,
) -> int:
    """Run the comma-separated *suites* and write the report; return the exit status.

    *corpus*, *queries*, *rounds* and *build_corpora* configure ``speed``; *cases* is the size
    of each parity suite; *seed* seeds every suite. *out* defaults to
    ``benchmarks/results/bench-DATE-TIME``. Status 0 when the report was written (parity
    differences are results, not failures), 2 for bad options or a missing reference rg.
    """
    from benchmarks.speed import corpora as speed_corpora
    from benchmarks.speed import queries as speed_queries

    chosen = [s for s in suites.split(",") if s]
    corpus_names = list(speed_corpora.ALL_CORPORA) if corpus == "all" else [
        c for c in corpus.split(",") if c]
    query_names = tuple(q for q in queries.split(",") if q)
    problems = [f"unknown suite {s!r} (choose from {', '.join(SUITES)})"
                for s in chosen if s not in SUITES]
    problems += [f"unknown corpus {c!r} (choose from {', '.join(speed_corpora.ALL_CORPORA)}, "
                 "or all)" for c in corpus_names if c not in speed_corpora.ALL_CORPORA]
    problems += [f"unknown query {q!r} (choose from {', '.join(speed_queries.QUERY_NAMES)})"
                 for q in query_names if q not in speed_queries.QUERY_NAMES]
    if not chosen:
        problems.append("no suite chosen")
    if rounds < 1 or cases < 1:
        problems.append("--rounds and --cases must be at least 1")
    if problems:
        for problem in problems:
            print(f"shellfree bench: {problem}", file=sys.stderr)
        return 2

    reference = _reference()
    if isinstance(reference, str):
        print(f"shellfree bench: {reference}", file=sys.stderr)
        return 2

    started = time.localtime()
    out = out or REPO_ROOT / "benchmarks" / "results" / (
        f"bench-{time.strftime('%Y-%m-%d-%H%M%S', started)}")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:  # an existing file, a read-only place: said before any suite runs
        print(f"shellfree bench: cannot write the report to {out}: {error.strerror or error}",
              file=sys.stderr)
        return 2
    runners: dict[str, Callable[[], drivers.SuiteResult]] = {
        "speed": lambda: drivers.run_speed(out, corpus_names, query_names, rounds, seed,
                                                 build_corpora),
        "walk": lambda: drivers.run_walk(out, cases, seed),
        "search-files": lambda: drivers.run_search_files(out, cases, seed),
        "latency": lambda: drivers.run_latency(out, seed),
    }
    load_start = _load()
    results = []
    for name in SUITES:
        if name in chosen:
            print(f"shellfree bench: {name}", file=sys.stderr)
            results.append(runners[name]())

    facts = _facts(reference, started)
    facts["load"] = _load_fact(load_start, _load())
    chart_path: Path | None = None
    chart_note = render.chart_available() if chart else ""
    if chart and chart_note is None:
        chart_path = render.draw_chart(results, out / "ratios.png",
                                       f"shellfree {facts['version']} vs {facts['reference']}")
    markdown = render.render_markdown(results, facts, chart_path, chart_note or "")
    report_path = out / "report.md"
    report_path.write_text(markdown, encoding="utf-8")
    # The numbers behind the tables and the chart, for plotting or comparing runs later.
    data_path = out / "bench.json"
    data_path.write_text(json.dumps({"facts": facts, "suites": [asdict(r) for r in results]},
                                    indent=2, default=str) + "\n", encoding="utf-8")
    sys.stdout.write(markdown)
    written = [report_path, data_path] + ([chart_path] if chart_path else [])
    print(f"shellfree bench: wrote {', '.join(str(p) for p in written)}", file=sys.stderr)
    return 0



def _load() -> float | None:
    """The 1-minute load average, or None where the OS has none (Windows)."""
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else None


def _load_fact(start: float | None, end: float | None) -> str:
    if start is None or end is None:
        return ""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    fact = f"1-minute load {start:.2f} at start, {end:.2f} at end, on {cpus} CPUs"
    if max(start, end) > (cpus or 1):
        # Other work competed for the CPUs: wall times are inflated for every tool alike.
        fact += " — **busy machine**: wall times are inflated and noisy; CPU ratios are steadier"
    return fact


def _reference() -> str | object:
    """The reference rg (checked to be 15.1.0), or the message saying why there is none."""
    from benchmarks.parity.reference import ReferenceUnavailable, find_reference_rg

    try:
        return find_reference_rg()
    except (ReferenceUnavailable, RuntimeError) as error:
        return (f"{error}\nThe benchmarks compare against ripgrep 15.1.0 from the dev extra: "
                "pip install -e '.[dev,bench]'")


def _facts(reference: object, started: time.struct_time) -> dict[str, str]:
    import shellfree
    from benchmarks.speed.report import machine_info

    machine = machine_info(getattr(reference, "version_line", ""))
    # Run as `shellfree bench …` or as `python -m benchmarks.report …`: show the first form.
    args = sys.argv[sys.argv.index("bench") + 1:] if "bench" in sys.argv else sys.argv[1:]
    argv = ["shellfree", "bench", *args]
    return {
        "date": time.strftime("%Y-%m-%d %H:%M:%S %z", started),
        "version": shellfree.__version__,
        "machine": f"{machine['nproc']} CPUs ({machine['cpu_model'] or 'unknown CPU'}), "
                   f"{machine['mem_total_gb']} GB, {machine['platform']}",
        "python": f"{machine['python']} ({machine['python_executable']})",
        "reference": getattr(reference, "version_line", ""),
        "commit": machine["git_head"][:10] + (" (src/ had uncommitted changes)"
                                              if machine["src_dirty"] else ""),
        "command": " ".join(shlex.quote(a) for a in argv),
    }
