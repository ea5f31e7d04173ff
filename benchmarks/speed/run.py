"""The interleaved speed harness: rg, rg -j1 and the candidate (shellfree), side by side in one run.

``python -m benchmarks.speed [--corpus medium,large,big,minified] [--rounds N] [--queries …] [--out DIR]``

Per corpus: every command is first run once and the candidate's stdout checked against rg's
(sorted lines, same exit code); only commands that pass are timed. Then each round runs every
timed command once, in a freshly shuffled order, so slow drifts in machine load hit all tools
alike; the report gives medians and the median of the per-round ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.speed import corpora, inprocess, queries, report
from benchmarks.speed.measure import Captured, Sample, compare, run_captured, run_timed
from benchmarks.speed.reference import ReferenceBinaryError, clean_env, locate_reference

DEFAULT_CANDIDATE = "{python} -m shellfree rg"
BASELINES = ("rg", "rg-j1")
"""Labels of the two reference commands every ratio is taken against."""


@dataclass(frozen=True, slots=True)
class Tool:
    """One row of the table: a CLI *prefix* put before the query's arguments, or an in-process
    *bench* (which yields two rows, ``<label> cold`` and ``<label> warm``)."""

    label: str
    prefix: tuple[str, ...] = ()
    bench: inprocess.InProcessBench | None = None
    reference: bool = False

    @property
    def labels(self) -> tuple[str, ...]:
        return (f"{self.label} cold", f"{self.label} warm") if self.bench else (self.label,)


@dataclass(slots=True)
class Context:
    """What every run needs: the reference binary, the child environments, the limits."""

    rg: str
    env: dict[str, str]
    inprocess_env: dict[str, str]
    timeout: float
    warm: int
    scratch: str
    notes: list[str] = field(default_factory=list)


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, run every requested corpus, write the two reports."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.speed", description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default=",".join(corpora.ALL_CORPORA), help="comma-separated corpora")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds per corpus (default %(default)s)")
    parser.add_argument(
        "--queries",
        default=",".join(queries.QUERY_NAMES),
        help=f"comma-separated query names (default %(default)s; also {','.join(queries.EXTRA_QUERY_NAMES)})",
    )
    parser.add_argument("--out", type=Path, help="output directory (default benchmarks/results/speed-<date>)")
    parser.add_argument(
        "--candidate-cmd",
        default=DEFAULT_CANDIDATE,
        help="command prefix of the candidate, shell-quoted; {python} and {rg} are expanded "
        "(default %(default)r; '{rg}' benchmarks rg against itself)",
    )
    parser.add_argument("--candidate-label", default="", help="row label of the candidate (default shellfree)")
    parser.add_argument("--inprocess", default="", help="comma-separated in-process benches (see inprocess.py)")
    parser.add_argument("--warm", type=int, default=3, help="warm calls per in-process run (default %(default)s)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds before a command is killed")
    parser.add_argument("--seed", type=int, default=1, help="seed of the per-round shuffles")
    parser.add_argument("--corpora-dir", type=Path, default=corpora.CORPORA_DIR)
    args = parser.parse_args(argv)

    corpus_names = [c for c in args.corpus.split(",") if c]
    query_names = tuple(q for q in args.queries.split(",") if q)
    for name in corpus_names:
        if name not in corpora.ALL_CORPORA:
            parser.error(f"unknown corpus {name!r}; choose from {', '.join(corpora.ALL_CORPORA)}")
    known = queries.QUERY_NAMES + queries.EXTRA_QUERY_NAMES
    for name in query_names:
        if name not in known:
            parser.error(f"unknown query {name!r}; choose from {', '.join(known)}")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    try:
        ref = locate_reference()
        benches = [inprocess.find(n) for n in args.inprocess.split(",") if n]
    except (ReferenceBinaryError, KeyError) as err:
        print(f"speed: error: {err}", file=sys.stderr)
        return 2

    candidate = [part.format(python=sys.executable, rg=ref.path) for part in shlex.split(args.candidate_cmd)]
    label = args.candidate_label or ("shellfree" if args.candidate_cmd == DEFAULT_CANDIDATE else "candidate")
    tools = [
        Tool("rg", (ref.path,), reference=True),
        Tool("rg-j1", (ref.path, "-j1")),
        Tool(label, tuple(candidate)),
        *(Tool(b.name, bench=b) for b in benches),
    ]
    env = clean_env()
    # The in-process child runs in the corpus directory, so the repository must be on its path.
    inprocess_env = dict(env, PYTHONPATH=os.pathsep.join(filter(None, [str(report.REPO_ROOT), env.get("PYTHONPATH")])))

    started = time.localtime()
    out_dir = args.out or report.REPO_ROOT / "benchmarks" / "results" / f"speed-{time.strftime('%Y-%m-%d', started)}"
    # The candidate's label is in the name so a self-test run (rg against rg) is not mistaken for shellfree's.
    stem = f"{time.strftime('%H%M%S', started)}-{label}-{'-'.join(corpus_names)}"
    result: dict[str, Any] = {
        "meta": {
            "argv": sys.argv if argv is None else argv,
            "reference": ref.path,
            "candidate_label": label,
            "candidate_argv": candidate,
            "inprocess": [b.name for b in benches],
            "rounds": args.rounds,
            "seed": args.seed,
            "timeout_s": args.timeout,
            "stdout": "pipe drained and discarded by the harness",
            "load_start": list(os.getloadavg()),
            "machine": report.machine_info(ref.version_line),
        },
        "corpora": {},
    }
    result["meta"]["startup"] = measure_startup(env)
    with tempfile.TemporaryDirectory(prefix="speed-") as scratch:
        ctx = Context(ref.path, env, inprocess_env, args.timeout, args.warm, scratch)
        rng = random.Random(args.seed)
        for name in corpus_names:
            result["corpora"][name] = run_corpus(ctx, name, args.corpora_dir, query_names, tools, args.rounds, rng)
    result["meta"]["load_end"] = list(os.getloadavg())

    out_dir.mkdir(parents=True, exist_ok=True)
    md_path, json_path = out_dir / f"{stem}.md", out_dir / f"{stem}.json"
    markdown = report.render_markdown(result)
    md_path.write_text(markdown)
    report.write_json(json_path, result)
    print(markdown)
    print(f"speed: wrote {md_path} and {json_path}", file=sys.stderr)
    return 0


#: Runs of each start-up command; the median is reported.
STARTUP_RUNS = 11


def measure_startup(env: dict[str, str]) -> dict[str, float]:
    """Median wall milliseconds of this interpreter doing nothing and importing shellfree.

    Every CLI cell of the candidate includes the first; a machine whose site-packages runs code
    at start-up (a ``.pth`` file that imports a package) makes it larger than the interpreter's
    own cost, so the report states it. The second is issue 9's import target (<= 60 ms).
    """
    commands = {"python_ms": "pass", "import_shellfree_ms": "import shellfree"}
    out: dict[str, float] = {}
    for key, code in commands.items():
        argv = [sys.executable, "-c", code]
        run_captured(argv, str(report.REPO_ROOT), env, 60)  # caches the bytecode
        times = [run_timed(argv, str(report.REPO_ROOT), env, 60).wall_s for _ in range(STARTUP_RUNS)]
        out[key] = round(statistics.median(times) * 1e3, 1)
    return out


def run_corpus(
    ctx: Context,
    name: str,
    root: Path,
    query_names: tuple[str, ...],
    tools: list[Tool],
    rounds: int,
    rng: random.Random,
) -> dict[str, Any]:
    """Check, then time, every query on corpus *name*; return its record for the reports."""
    target = queries.corpus(name, root)
    manifest = corpora.read_manifest(root)["corpora"].get(name)
    if manifest is None or not (target.cwd / target.paths[0] if target.paths else target.cwd).exists():
        return {"missing": f"build it with `python -m benchmarks.speed.corpora --only {name}`"}
    stats = manifest["stats"]
    if target.tree:
        description = f"{stats['rg_files']:,} files (rg --files), {stats['bytes'] / 1e6:.0f} MB"
    else:
        description = f"{target.paths[0]}: {stats['bytes'] / 1e6:.0f} MB, {stats['lines']:,} lines"
    record: dict[str, Any] = {
        "description": description,
        "cwd": str(target.cwd),
        "paths": list(target.paths),
        "load_start": list(os.getloadavg()),
        "file_huge_pages_kb_start": file_huge_pages_kb(),
        "labels": [label for tool in tools for label in tool.labels],
        "queries": {},
    }
    plan: list[tuple[queries.Query, Tool]] = []
    for query in queries.queries_for(target, query_names):
        qrec, timed_tools = check_query(ctx, target, query, tools)
        record["queries"][query.name] = qrec
        plan += [(query, tool) for tool in timed_tools]

    # samples[(query, label)][round] is (wall_s, cpu_s) or None when that run failed.
    samples: dict[tuple[str, str], list[tuple[float, float] | None]] = {}
    for round_no in range(rounds):
        order = plan[:]
        rng.shuffle(order)
        for query, tool in order:
            for label, value in measure(ctx, target, query, tool).items():
                samples.setdefault((query.name, label), [None] * rounds)[round_no] = value
        print(f"speed: {name}: round {round_no + 1}/{rounds} done", file=sys.stderr)
    for (qname, label), values in samples.items():
        cell = record["queries"][qname]["tools"][label]
        cell.update(summarize(values, {b: samples.get((qname, b)) for b in BASELINES}))
    # One more run of each timed cell, for its peak resident size alone (see peak_rss_kb).
    record["peak_rss_by"] = PEAK_RSS_BY if os.path.exists(GNU_TIME) else None
    for query, tool in plan:
        for label, peak in peak_rss_kb(ctx, target, query, tool).items():
            record["queries"][query.name]["tools"][label]["peak_rss_kb"] = peak
    record["load_end"] = list(os.getloadavg())
    record["file_huge_pages_kb_end"] = file_huge_pages_kb()
    return record


def file_huge_pages_kb() -> int | None:
    """Linux's ``FileHugePages`` (kB of the page cache held in huge folios), or None where there
    is no such figure. rg maps a large file and runs at up to twice the speed when its cached
    pages are huge folios (measured on the 200 MB file: 13 ms right after a fresh read, 31 ms
    once the folios were split), a state no unprivileged harness can set, so it is reported."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("FileHugePages:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def check_query(
    ctx: Context, target: queries.Corpus, query: queries.Query, tools: list[Tool]
) -> tuple[dict[str, Any], list[Tool]]:
    """Run every tool once on *query* and compare with rg; return the query's record and the tools to time."""
    ref = run_captured([ctx.rg, *query.args, *target.paths], str(target.cwd), ctx.env, ctx.timeout)
    qrec: dict[str, Any] = {
        "args": list(query.args),
        "rg_exit": ref.returncode,
        "rg_lines": ref.stdout.count(b"\n"),
        "rg_bytes": len(ref.stdout),
        "tools": {},
    }
    timed: list[Tool] = []
    for tool in tools:
        if tool.reference:
            ok = ref.returncode in (0, 1)
            status, detail = ("ok", "") if ok else ("error", f"rg itself exited {ref.returncode}")
        elif ref.returncode not in (0, 1):
            status, detail = "skipped", f"rg itself exited {ref.returncode}"
        else:
            captured = check_run(ctx, target, query, tool)
            expected = ref
            if tool.bench and tool.bench.reference:
                # The API's own answer computed with the reference binary (e.g. search_files'
                # JSON through FileTools(backend="rg")), not rg's stdout.
                judge = inprocess.InProcessBench(f"{tool.bench.name} reference", tool.bench.reference, "")
                expected = check_run(ctx, target, query, Tool(judge.name, bench=judge))
            if tool.bench and captured.returncode == inprocess.UNSUPPORTED_EXIT:
                status, detail = "unsupported", captured.stderr.decode("utf-8", "replace").strip()
            else:
                status, detail = compare(expected, captured)
        for label in tool.labels:
            qrec["tools"][label] = {"status": status, "detail": detail, "argv": describe(tool, query, target)}
        print(f"speed: {target.name}/{query.name}/{tool.label}: {status} {detail}".rstrip(), file=sys.stderr)
        if status == "ok":
            timed.append(tool)
    return qrec, timed


def describe(tool: Tool, query: queries.Query, target: queries.Corpus) -> list[str]:
    """The command as a person would retype it (in-process benches: their adapter and arguments)."""
    if tool.bench:
        return [f"inprocess:{tool.bench.target}", *query.args, *target.paths]
    return [*tool.prefix, *query.args, *target.paths]


def check_run(ctx: Context, target: queries.Corpus, query: queries.Query, tool: Tool) -> Captured:
    """Run *tool* once untimed and return what it printed, for ``compare``."""
    if not tool.bench:
        return run_captured([*tool.prefix, *query.args, *target.paths], str(target.cwd), ctx.env, ctx.timeout)
    result_file = os.path.join(ctx.scratch, "check.json")
    output_file = os.path.join(ctx.scratch, "check.out")
    for stale in (result_file, output_file):
        if os.path.exists(stale):
            os.unlink(stale)
    argv = inprocess.child_argv(tool.bench, query.args, target.paths, 0, result_file, output_file)
    child = run_captured(argv, str(target.cwd), ctx.inprocess_env, ctx.timeout)
    if child.returncode != 0 or not os.path.exists(output_file):
        # The adapter raised (the traceback's last line is in stderr) or the child was killed.
        return Captured(child.returncode if child.returncode != 0 else 2, b"", child.stderr, child.wall_s)
    with open(output_file, "rb") as fh:
        stdout = fh.read()
    # An adapter returns bytes only; an empty result stands for rg's "no match" exit code 1.
    return Captured(0 if stdout else 1, stdout, child.stderr, child.wall_s)


def measure(
    ctx: Context, target: queries.Corpus, query: queries.Query, tool: Tool
) -> dict[str, tuple[float, float] | None]:
    """Time one run of *tool* on *query*; return ``{label: (wall_s, cpu_s) or None}``."""
    if not tool.bench:
        sample: Sample = run_timed([*tool.prefix, *query.args, *target.paths], str(target.cwd), ctx.env, ctx.timeout)
        return {tool.label: (sample.wall_s, sample.cpu_s) if sample.returncode in (0, 1) else None}
    result_file = os.path.join(ctx.scratch, "timed.json")
    if os.path.exists(result_file):
        os.unlink(result_file)
    argv = inprocess.child_argv(tool.bench, query.args, target.paths, ctx.warm, result_file)
    sample = run_timed(argv, str(target.cwd), ctx.inprocess_env, ctx.timeout)
    cold_label, warm_label = tool.labels
    if sample.returncode != 0 or not os.path.exists(result_file):
        return {cold_label: None, warm_label: None}
    with open(result_file) as fh:
        data = json.load(fh)
    warm = (data["warm_wall_s"], data["warm_cpu_s"]) if data["warm_wall_s"] is not None else None
    return {cold_label: (data["cold_wall_s"], data["cold_cpu_s"]), warm_label: warm}


GNU_TIME = "/usr/bin/time"
PEAK_RSS_BY = f"{GNU_TIME} -f %M"


def peak_rss_kb(
    ctx: Context, target: queries.Corpus, query: queries.Query, tool: Tool
) -> dict[str, int | None]:
    """Peak resident size of one untimed run of *tool* on *query*, in kB, by GNU time; None
    for each label where there is no GNU time or the run failed.

    Not the timed runs' own ``ru_maxrss``: Linux counts, in a process's peak, the pages it had
    before its exec, which for a child of this harness are the harness's own (tens of MB, all
    the same). GNU time forks the command from its own small process and reports the peak
    ``wait4`` gives for it: the largest of the command and the children it waited for (a
    forked worker shares most of its pages with its parent, so no sum would be true either).
    An in-process bench's two labels share one process, so one figure."""
    labels = tool.labels
    if not os.path.exists(GNU_TIME):
        return dict.fromkeys(labels)
    report_file = os.path.join(ctx.scratch, "peak_rss.txt")
    if os.path.exists(report_file):
        os.unlink(report_file)  # another cell's figure must not be read as this one's
    if tool.bench:
        result_file = os.path.join(ctx.scratch, "memory.json")
        argv = inprocess.child_argv(tool.bench, query.args, target.paths, ctx.warm, result_file)
        env = ctx.inprocess_env
    else:
        argv, env = [*tool.prefix, *query.args, *target.paths], ctx.env
    sample = run_timed([GNU_TIME, "-f", "%M", "-o", report_file, *argv], str(target.cwd), env, ctx.timeout)
    peak = None
    if sample.returncode in ((0,) if tool.bench else (0, 1)):
        try:
            with open(report_file, encoding="ascii") as fh:
                peak = int(fh.read().split()[-1])
        except (OSError, ValueError, IndexError):
            pass
    return dict.fromkeys(labels, peak)


def summarize(
    values: list[tuple[float, float] | None], baselines: dict[str, list[tuple[float, float] | None] | None]
) -> dict[str, Any]:
    """Medians of one cell's samples, and the median of its per-round ratios to each baseline."""
    good = [v for v in values if v is not None]
    out: dict[str, Any] = {
        "wall_ms": [None if v is None else round(v[0] * 1e3, 3) for v in values],
        "cpu_ms": [None if v is None else round(v[1] * 1e3, 3) for v in values],
        "failed_rounds": len(values) - len(good),
        "median_wall_ms": statistics.median(v[0] for v in good) * 1e3 if good else None,
        "median_cpu_ms": statistics.median(v[1] for v in good) * 1e3 if good else None,
        "min_wall_ms": min(v[0] for v in good) * 1e3 if good else None,
    }
    for name, base in baselines.items():
        for index, metric in ((0, "wall"), (1, "cpu")):
            # Ratios are formed within a round, where both commands saw the same machine load.
            ratios = [
                v[index] / b[index]
                for v, b in zip(values, base or [None] * len(values), strict=True)
                if v is not None and b is not None and b[index] > 0
            ]
            out[f"ratio_{metric}_vs_{name}"] = statistics.median(ratios) if ratios else None
    return out
