"""Turn one harness run into its two outputs: a Markdown report and a JSON file (plus machine facts).

The JSON keeps every per-round sample, so other statistics can be computed later; the Markdown
shows medians and per-round ratio medians in the layout of the perf study (README.md explains it).
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]


def machine_info(rg_version: str) -> dict[str, Any]:
    """Facts that make a result comparable or not: CPUs, CPU model, memory, versions, date, commit."""
    model = ""
    try:
        with open("/proc/cpuinfo") as fh:
            model = next((ln.split(":", 1)[1].strip() for ln in fh if ln.startswith("model name")), "")
    except OSError:
        pass
    mem_kb = 0
    try:
        with open("/proc/meminfo") as fh:
            mem_kb = int(next(ln.split()[1] for ln in fh if ln.startswith("MemTotal")))
    except (OSError, StopIteration, ValueError):
        pass
    return {
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "nproc": os.cpu_count(),
        "usable_cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "cpu_model": model,
        "mem_total_gb": round(mem_kb / 1e6, 1),
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "python_executable": sys.executable,
        "rg_version": rg_version,
        "git_head": _git("rev-parse", "HEAD"),
        # Uncommitted changes under src/ change what is measured; say so rather than hide it.
        "src_dirty": bool(_git("status", "--porcelain", "--", "src")),
    }


def _git(*args: str) -> str:
    try:
        proc = subprocess.run(["git", "-C", str(REPO_ROOT), *args], capture_output=True, text=True, check=False)
    except OSError:
        return ""
    return proc.stdout.strip()


def write_json(path: Path, result: dict[str, Any]) -> None:
    """Write *result* (the harness's whole record) as indented JSON."""
    path.write_text(json.dumps(result, indent=2) + "\n")


def render_markdown(result: dict[str, Any]) -> str:
    """Return the Markdown report of *result*: a header of run facts, then per corpus a wall-time
    table, a CPU-time table, a peak-RSS table and the notes on every cell that was not timed."""
    meta = result["meta"]
    lines = [
        f"# Speed: shellfree vs ripgrep — {meta['machine']['date']}",
        "",
        f"- machine: {meta['machine']['nproc']} CPUs ({meta['machine']['cpu_model']}), "
        f"{meta['machine']['mem_total_gb']} GB, {meta['machine']['platform']}",
        f"- python {meta['machine']['python']}; reference `{meta['reference']}`: {meta['machine']['rg_version']}",
        f"- candidate `{meta['candidate_label']}`: `{' '.join(meta['candidate_argv'])}`",
        f"- commit {meta['machine']['git_head'][:10]}"
        + (" (src/ had uncommitted changes)" if meta["machine"]["src_dirty"] else ""),
        f"- rounds {meta['rounds']} (interleaved, shuffled per round, seed {meta['seed']}); "
        f"load average (1/5/15 min) at start {_load(meta['load_start'])}, at end {_load(meta['load_end'])}",
        "- stdout of timed runs: a pipe drained by the harness; stdin /dev/null; RIPGREP_CONFIG_PATH unset",
    ]
    startup = meta.get("startup")
    if startup:
        lines.append(
            f"- start-up, median wall: `python -c pass` {startup['python_ms']:.0f} ms, "
            f"`python -c 'import shellfree'` {startup['import_shellfree_ms']:.0f} ms "
            "(every shellfree CLI cell includes both)"
        )
    busiest = max(meta["load_start"][0], meta["load_end"][0])
    if busiest > (meta["machine"]["usable_cpus"] or 1):
        # Other work competed for the CPUs: every wall time is inflated and rg's threads gain less.
        lines.append(
            f"- **busy machine**: a 1-minute load of {busiest:.1f} on {meta['machine']['usable_cpus']} CPUs; "
            "wall times are inflated and noisy, the CPU-time ratios are the steadier ones"
        )
    lines += [
        "",
        "Cells: **median wall time · median per-round ratio to rg-j1 / to rg**. "
        "`mismatch` / `error` / `timeout`: the candidate's output differed from rg's, it failed, "
        "or it ran out of time in the check run; `unsupported`: an in-process adapter's API cannot "
        "express the query; such cells are not timed (details below each table).",
    ]
    for corpus_name, corpus in result["corpora"].items():
        lines += ["", f"## {corpus_name}", ""]
        if corpus.get("missing"):
            lines.append(f"Not built: {corpus['missing']}")
            continue
        huge = (corpus.get("file_huge_pages_kb_start"), corpus.get("file_huge_pages_kb_end"))
        cache = (f"; page cache in huge folios (FileHugePages) {huge[0] // 1024} MB at start, "
                 f"{huge[1] // 1024} MB at end" if None not in huge else "")
        lines.append(f"{corpus['description']}; load at start {_load(corpus['load_start'])}{cache}.")
        queries = corpus["queries"]
        labels = corpus["labels"]
        for metric, title in (("wall", "Wall time"), ("cpu", "CPU time (user+sys of the process and its children)")):
            lines += ["", f"### {title}", ""]
            lines.append("| tool | " + " | ".join(_header(q, queries[q]["args"]) for q in queries) + " |")
            lines.append("|---" * (len(queries) + 1) + "|")
            for label in labels:
                cells = [_cell(queries[q]["tools"].get(label), metric) for q in queries]
                lines.append(f"| {label} | " + " | ".join(cells) + " |")
            lines.append("| rg output lines | " + " | ".join(str(queries[q]["rg_lines"]) for q in queries) + " |")
        # Peak RSS (issue 9: <= 200 MB for a search of the large tree), from one more run of
        # each cell (run.peak_rss_kb).
        by = corpus.get("peak_rss_by")
        lines += ["", "### Peak resident set size (MB; one untimed run under "
                  + (f"`{by}`" if by else "GNU time, which this machine lacks")
                  + "; for a process with children, the largest of them)", ""]
        lines.append("| tool | " + " | ".join(_header(q, queries[q]["args"]) for q in queries) + " |")
        lines.append("|---" * (len(queries) + 1) + "|")
        for label in labels:
            cells = [_rss_cell(queries[q]["tools"].get(label)) for q in queries]
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
        notes = [
            f"- {q} / {label}: **{cell['status']}** — {cell['detail']}"
            for q in queries
            for label, cell in queries[q]["tools"].items()
            if cell["status"] != "ok"
        ]
        if notes:
            lines += ["", "Cells not timed:", "", *notes]
    return "\n".join(lines) + "\n"


def _header(name: str, args: list[str]) -> str:
    # A literal "|" would end the table cell, even inside backticks; GitHub's Markdown wants "\\|".
    return f"{name} `{' '.join(args)}`".replace("|", "\\|")


def _cell(cell: dict[str, Any] | None, metric: str) -> str:
    if cell is None:
        return ""
    if cell["status"] != "ok":
        return cell["status"]
    median = cell.get(f"median_{metric}_ms")
    if median is None:
        return "n/a"
    vs_j1 = cell.get(f"ratio_{metric}_vs_rg-j1")
    vs_rg = cell.get(f"ratio_{metric}_vs_rg")
    return f"{median:.0f} ms · {_ratio(vs_j1)} / {_ratio(vs_rg)}"


def _rss_cell(cell: dict[str, Any] | None) -> str:
    if cell is None:
        return ""
    if cell["status"] != "ok":
        return cell["status"]
    peak = cell.get("peak_rss_kb")
    return "n/a" if peak is None else f"{peak / 1024:.0f}"


def _ratio(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _load(values: list[float]) -> str:
    return "/".join(f"{v:.2f}" for v in values)
