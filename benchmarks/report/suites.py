"""The four suites ``shellfree bench`` runs, each a thin driver over an existing harness.

- ``speed``: ``benchmarks.speed`` (``shellfree rg`` vs rg and rg -j1 on the speed corpora);
- ``walk``: ``benchmarks.parity`` (``rg --files`` parity on random trees);
- ``search-files``: ``benchmarks.parity_search_files`` (search_files, in-process vs rg backend);
- ``latency``: ``benchmarks.parity_search_files.latency`` (search_files call latency).

Each driver moves a :class:`~benchmarks.report.progress.ProgressBar`, writes the harness's own
report into the output directory, and returns a :class:`SuiteResult`: ratios to rg, agreement
counts, the files written. The measuring itself is the harnesses' code, unchanged.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.report.progress import LineTap, ProgressBar

SPEED_CANDIDATE = "shellfree"
"""Row label of ``python -m shellfree rg`` in the speed harness."""


@dataclass(frozen=True, slots=True)
class Ratio:
    """One measured call: shellfree's time against rg's on the same work (> 1: slower than rg).

    *wall_ratio* and *cpu_ratio* are medians of per-round ratios (speed) or ratios of medians
    (latency); *j1_ratio* is against single-threaded rg. *status* is ``ok`` or why the cell was
    not timed (``mismatch``, ``error``, ``timeout``), with *detail*.
    """

    suite: str
    group: str
    name: str
    rg_ms: float | None
    shellfree_ms: float | None
    wall_ratio: float | None
    cpu_ratio: float | None = None
    j1_ratio: float | None = None
    status: str = "ok"
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Agreement:
    """A parity run: *agree* of *total* cases gave identical output, in *seconds*."""

    suite: str
    agree: int
    total: int
    seconds: float
    report: Path
    top_differences: tuple[tuple[str, int], ...] = ()


@dataclass(slots=True)
class SuiteResult:
    """What one suite produced; *error* is set when it could not run at all."""

    suite: str
    ratios: list[Ratio] = field(default_factory=list)
    agreements: list[Agreement] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    error: str | None = None


@contextlib.contextmanager
def _stderr_to(on_line: Any) -> Any:
    """While a harness runs, its stderr lines go to *on_line* (and the log), not the screen."""
    tap = LineTap(on_line)
    with contextlib.redirect_stderr(tap):
        yield tap


# -- speed --------------------------------------------------------------------------------------

def run_speed(out: Path, corpus_names: list[str], query_names: tuple[str, ...], rounds: int,
              seed: int, build: bool) -> SuiteResult:
    """``shellfree rg`` against rg on each corpus: the speed harness's checks and timed rounds."""
    from benchmarks.speed import corpora, queries, report, run
    from benchmarks.speed.reference import clean_env, locate_reference

    result = SuiteResult("speed")
    if not hasattr(os, "getloadavg"):
        # The harness records the machine's load around every run; Windows has no such figure.
        result.error = "the speed harness needs os.getloadavg (Linux, macOS, BSD)"
        return result
    ref = locate_reference()
    manifest = corpora.read_manifest(corpora.CORPORA_DIR)["corpora"]
    missing = [n for n in corpus_names if n not in manifest]
    if missing and build:
        with ProgressBar(len(missing), "building corpora") as bar, _stderr_to(lambda _: None):
            for name in missing:
                bar.stage(f"building corpus {name} (downloads sdists from PyPI)")
                if corpora.main(["--only", name]) != 0:
                    result.notes.append(f"building corpus {name} failed")
                bar.advance(1, f"built corpus {name}")
        manifest = corpora.read_manifest(corpora.CORPORA_DIR)["corpora"]
        missing = [n for n in corpus_names if n not in manifest]
    for name in missing:
        result.notes.append(f"corpus {name} is not built: run `shellfree bench --build-corpora` "
                            f"or `python -m benchmarks.speed.corpora --only {name}`")
    present = [n for n in corpus_names if n not in missing]
    if not present:
        result.error = "no speed corpus is built"
        return result

    tools = [run.Tool("rg", (ref.path,), reference=True), run.Tool("rg-j1", (ref.path, "-j1")),
             run.Tool(SPEED_CANDIDATE, (sys.executable, "-m", "shellfree", "rg"))]
    env = clean_env()
    rng = random.Random(seed)
    per_corpus = {n: len(queries.queries_for(queries.corpus(n), query_names)) * len(tools)
                  for n in present}
    started = time.localtime()
    record: dict[str, Any] = {
        "meta": {
            "argv": ["shellfree", "bench", "--suites", "speed", "--corpus", ",".join(present),
                     "--rounds", str(rounds), "--seed", str(seed)],
            "reference": ref.path, "candidate_label": SPEED_CANDIDATE,
            "candidate_argv": list(tools[2].prefix), "inprocess": [], "rounds": rounds,
            "seed": seed, "timeout_s": 300.0,
            "stdout": "pipe drained and discarded by the harness",
            "load_start": list(os.getloadavg()),
            "machine": report.machine_info(ref.version_line),
        },
        "corpora": {},
    }
    # Units: one per check run, and a round of a corpus counts as all its runs.
    total = sum(cells * (1 + rounds) for cells in per_corpus.values())
    with ProgressBar(total, "speed") as bar, tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        ctx = run.Context(ref.path, env, env, 300.0, 3, tmp)
        done = 0.0
        for name in present:
            cells = per_corpus[name]

            def on_line(line: str, name: str = name, cells: int = cells) -> None:
                # The harness reports "speed: NAME/QUERY/TOOL: status" per check and
                # "speed: NAME: round i/N done" per round; those lines drive the bar.
                if line.startswith(f"speed: {name}/"):
                    bar.advance(1, f"speed {name}: checked {line.split(': ', 1)[1]}")
                elif line.startswith(f"speed: {name}: round"):
                    bar.advance(cells, f"speed {name}: {line.split(': ', 2)[2]}")

            bar.stage(f"speed {name}: checking")
            with _stderr_to(on_line):
                record["corpora"][name] = run.run_corpus(
                    ctx, name, corpora.CORPORA_DIR, query_names, tools, rounds, rng)
            done += cells * (1 + rounds)
            bar.advance_to(done)  # cells that failed their check were not timed
    record["meta"]["load_end"] = list(os.getloadavg())

    stem = f"speed-{time.strftime('%H%M%S', started)}-{'-'.join(present)}"
    md_path, json_path = out / f"{stem}.md", out / f"{stem}.json"
    md_path.write_text(report.render_markdown(record), encoding="utf-8")
    report.write_json(json_path, record)
    result.files += [md_path, json_path]
    result.ratios = speed_ratios(record)
    return result


def speed_ratios(record: dict[str, Any]) -> list[Ratio]:
    """The shellfree row of a speed harness record, one :class:`Ratio` per corpus and query."""
    ratios = []
    for corpus_name, corpus in record["corpora"].items():
        for query_name, query in corpus.get("queries", {}).items():
            cell = query["tools"].get(SPEED_CANDIDATE, {})
            rg = query["tools"].get("rg", {})
            ratios.append(Ratio(
                suite="speed", group=corpus_name,
                name=f"{query_name} `{' '.join(query['args'])}`",
                rg_ms=rg.get("median_wall_ms"), shellfree_ms=cell.get("median_wall_ms"),
                wall_ratio=cell.get("ratio_wall_vs_rg"), cpu_ratio=cell.get("ratio_cpu_vs_rg"),
                j1_ratio=cell.get("ratio_wall_vs_rg-j1"), status=cell.get("status", "missing"),
                detail=cell.get("detail", "")))
    return ratios


# -- rg --files parity ----------------------------------------------------------------------

def run_walk(out: Path, cases: int, seed: int) -> SuiteResult:
    """``rg --files`` parity on *cases* random trees (seeded; the parity harness's cases)."""
    import collections

    from benchmarks.parity.batch import agreement, run_batch, signature
    from benchmarks.parity.reference import find_reference_rg
    from benchmarks.parity.report import RunInfo, write_report
    from benchmarks.parity.runner import ParityRunner, default_candidate
    from benchmarks.parity.walk_cases import case_seed, walk_case

    result = SuiteResult("walk")
    reference = find_reference_rg()
    candidate = list(default_candidate())
    seeds = [case_seed(seed, i) for i in range(cases)]
    started = time.perf_counter()
    outcomes = []
    with ProgressBar(cases, "walk parity") as bar, ParityRunner(reference, candidate) as runner:
        for outcome in run_batch(runner, walk_case, seeds, jobs=2):
            outcomes.append(outcome)
            agree, total = agreement(outcomes)
            bar.advance(1, f"walk parity: {total}/{cases} cases, {agree} agree")
    seconds = time.perf_counter() - started
    agree, total = agreement(outcomes)
    path = out / "parity-walk.md"
    write_report(str(path), outcomes, RunInfo(
        command=f"shellfree bench --suites walk --cases {cases} --seed {seed}",
        reference_version=reference.version_line, candidate=" ".join(candidate),
        run_seed=seed, jobs=2, seconds=seconds))
    groups = collections.Counter(signature(o.comparison) for o in outcomes if not o.agrees)
    result.agreements.append(Agreement("walk (`rg --files`)", agree, total, seconds, path,
                                       tuple(groups.most_common(3))))
    result.files.append(path)
    return result


# -- search_files parity and latency --------------------------------------------------------

def run_search_files(out: Path, cases: int, seed: int) -> SuiteResult:
    """search_files parity: the same calls through the in-process engine and the rg backend."""
    import collections

    from benchmarks.parity.reference import find_reference_rg
    from benchmarks.parity_search_files.report import (
        RunInfo,
        agreement,
        render,
        signature,
    )
    from benchmarks.parity_search_files.runner import ParityRun

    result = SuiteResult("search-files")
    reference = find_reference_rg()
    started = time.perf_counter()
    with ProgressBar(cases, "search_files parity") as bar, ParityRun(reference.path) as run:
        def progress(index: int, outcome: Any) -> None:
            bar.advance(1, f"search_files parity: {index + 1}/{cases} cases")

        outcomes = run.run(seed, cases, progress)
    seconds = time.perf_counter() - started
    agree, total = agreement(outcomes)
    path = out / "parity-search-files.md"
    info = RunInfo(f"shellfree bench --suites search-files --cases {cases} --seed {seed}",
                   reference.version_line, seed, seconds)
    path.write_text(render(outcomes, info), encoding="utf-8")
    groups = collections.Counter(signature(o) for o in outcomes if not o.agrees)
    result.agreements.append(Agreement("search_files (in-process vs rg backend)", agree, total,
                                       seconds, path, tuple(groups.most_common(3))))
    result.files.append(path)
    return result


LATENCY_FILES = 2000
LATENCY_REPEATS = 5


def run_latency(out: Path, seed: int) -> SuiteResult:
    """search_files latency on a generated 2,000-file tree, in-process engine vs rg backend."""
    from benchmarks.parity.reference import find_reference_rg
    from benchmarks.parity_search_files import latency

    result = SuiteResult("latency")
    reference = find_reference_rg()
    base = tempfile.mkdtemp(prefix="bench-latency-")
    root = os.path.join(base, "repo")
    try:
        with ProgressBar(3, "latency") as bar:
            bar.stage(f"latency: writing a {LATENCY_FILES}-file tree")
            latency.build_tree(root, LATENCY_FILES, seed=2024 + seed - 1)
            bar.advance(1, f"latency: {len(latency.SCENARIOS)} calls x {LATENCY_REPEATS}, "
                           "both backends")
            rows = latency.measure(root, reference.path, LATENCY_REPEATS)
            bar.advance(1, "latency: first call in a new process")
            first_inprocess, first_rg = latency.first_call(root, reference.path, LATENCY_REPEATS)
            bar.advance(1, "latency: done")
    finally:
        shutil.rmtree(base, ignore_errors=True)
    for name, cold_in, cold_rg, warm_in, warm_rg in rows:
        result.ratios.append(Ratio("latency", "search_files cold", name, cold_rg * 1e3,
                                   cold_in * 1e3, cold_in / cold_rg))
        result.ratios.append(Ratio("latency", "search_files warm", name, warm_rg * 1e3,
                                   warm_in * 1e3, warm_in / warm_rg))
    result.ratios.append(Ratio("latency", "new process", "import + one call", first_rg * 1e3,
                               first_inprocess * 1e3, first_inprocess / first_rg))
    result.notes.append(f"latency: generated tree of {LATENCY_FILES} files, medians of "
                        f"{LATENCY_REPEATS}; the rg backend runs the reference rg as a "
                        "subprocess under the same FileTools pipeline")
    return result
