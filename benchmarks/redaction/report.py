"""Renders one benchmark run as Markdown (``benchmarks/results/redaction.md``) and as the short
table printed to the terminal."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.redaction.corpus import CONTEXTS, FAMILIES
from benchmarks.redaction.measure import Recall, Timing
from benchmarks.redaction.ordinary import ScanResult, Source

__all__ = ["Run", "machine", "render", "summary"]

REPO_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True, slots=True)
class Run:
    """Everything one run measured."""

    command: str
    seed: int
    per_family: int
    recall: dict[str, Recall]
    ordinary: dict[str, ScanResult]
    sources: list[Source]
    timings: list[Timing]
    seconds: float


def machine() -> str:
    """Date, machine and versions, one line."""
    model = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            model = next((line.split(":", 1)[1].strip() for line in handle
                          if line.startswith("model name")), "")
    except OSError:
        pass
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO_ROOT,
                                capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        commit = ""
    return (f"{time.strftime('%Y-%m-%d %H:%M %Z')}, {platform.system()} {platform.machine()}, "
            f"{os.cpu_count()} CPU ({model or 'unknown model'}), Python "
            f"{sys.version.split()[0]}, commit {commit or 'unknown'}")


def _pct(caught: int, total: int) -> str:
    return f"{100 * caught / total:.1f}%" if total else "–"


def summary(run: Run) -> str:
    """The terminal table: recall per family and mode, false positives, timings."""
    modes = list(run.recall)
    lines = [f"{'family':28}" + "".join(f"{mode:>14}" for mode in modes)]
    for family in FAMILIES:
        cells = []
        for mode in modes:
            result = run.recall[mode]
            cells.append(f"{result.caught.get(family.name, 0):>5}/"
                         f"{result.total.get(family.name, 0):<4}"
                         f"{_pct(result.caught.get(family.name, 0), result.total.get(family.name, 0)):>5}")
        lines.append(f"{family.name:28}" + "".join(f"{cell:>14}" for cell in cells))
    lines.append(f"{'overall':28}" + "".join(
        f"{100 * run.recall[mode].overall:>13.2f}%" for mode in modes))
    lines.append("")
    for mode, result in run.ordinary.items():
        lines.append(f"ordinary text, {mode}: {len(result.hits)} redacted lines of "
                     f"{result.total_lines:,} ({result.chars / 1e6:.1f} MB, "
                     f"{sum(result.files.values())} files)")
    lines.append("")
    for item in run.timings:
        lines.append(f"1 MB, {item.text}, {item.mode}: best {1000 * item.best:.0f} ms, "
                     f"median {1000 * item.median:.0f} ms over {len(item.runs)} runs")
    return "\n".join(lines)


def _recall_table(run: Run) -> list[str]:
    modes = list(run.recall)
    out = ["| family | " + " | ".join(modes) + " |", "|---|" + "---:|" * len(modes)]
    for family in FAMILIES:
        cells = [f"{run.recall[m].caught.get(family.name, 0)}/"
                 f"{run.recall[m].total.get(family.name, 0)} "
                 f"({_pct(run.recall[m].caught.get(family.name, 0), run.recall[m].total.get(family.name, 0))})"
                 for m in modes]
        out.append(f"| {family.name} | " + " | ".join(cells) + " |")
    overall = [f"**{sum(run.recall[m].caught.values())}/{sum(run.recall[m].total.values())} "
               f"({100 * run.recall[m].overall:.2f}%)**" for m in modes]
    out.append("| **overall** | " + " | ".join(overall) + " |")
    return out


def _code(text: str, width: int = 160) -> str:
    """*text* as a table cell of code: one line, pipes escaped, backticks allowed inside."""
    text = text.replace("\n", "⏎").replace("|", "\\|")[:width]
    return f"`` {text} ``"


def _misses(run: Run) -> list[str]:
    out: list[str] = []
    shown: list[list[tuple[str, str]]] = []
    for mode, result in run.recall.items():
        if not result.misses:
            continue
        texts = [(miss.sample.family, miss.sample.text) for miss in result.misses]
        if texts in shown:
            out += ["", f"Mode *{mode}* misses the same samples."]
            continue
        shown.append(texts)
        out += ["", f"<details><summary>{len(result.misses)} misses in mode "
                f"<i>{mode}</i></summary>", "", "| family | context | text |", "|---|---|---|"]
        for miss in result.misses:
            out.append(f"| {miss.sample.family} | {miss.sample.context} | "
                       f"{_code(miss.sample.text)} |")
        out.append("</details>")
    return out


def _hits(run: Run) -> list[str]:
    out: list[str] = []
    for mode, result in run.ordinary.items():
        out.append(f"| {mode} | {result.total_lines:,} | {sum(result.files.values())} | "
                   f"{result.chars / 1e6:.1f} MB | **{len(result.hits)}** |")
    details: list[str] = []
    for mode, result in run.ordinary.items():
        if not result.hits:
            continue
        details += ["", f"<details><summary>{len(result.hits)} redacted lines in mode "
                    f"<i>{mode}</i></summary>", "", "| file:line | before | after |",
                    "|---|---|---|"]
        for hit in result.hits:
            details.append(f"| {hit.path}:{hit.line} | {_code(hit.before.strip(), 140)} | "
                           f"{_code(hit.after.strip(), 140)} |")
        details.append("</details>")
    return out + details


def _sources(run: Run) -> list[str]:
    first = next(iter(run.ordinary.values()))
    out = ["| source | root | files | lines |", "|---|---|---:|---:|"]
    for source in run.sources:
        out.append(f"| {source.label} | `{source.root}` | {first.files.get(source.label, 0)} | "
                   f"{first.lines.get(source.label, 0):,} |")
    out += ["", "<details><summary>every file read</summary>", ""]
    for source in run.sources:
        names = ", ".join(str(path.relative_to(source.root)) for path in source.files)
        out += [f"**{source.label}**: {names}", ""]
    out.append("</details>")
    return out


def render(run: Run) -> str:
    """The full Markdown report."""
    lines = [
        "# Redaction benchmark", "",
        f"`{run.command}` — {machine()}; {run.seconds:.1f} s in all.", "",
        "Modes: *file read* is how read_file and search_files redact an ordinary file "
        "(`file_read=True`; §9's `KEY=value` assignment passes are off for code); *secret file* "
        "adds `secret_file=True` (`.env`, shell rc files); *plain* is text that is not file "
        "content (every pass on).", "",
        "## 1. Recall over fake secrets", "",
        f"{run.per_family} samples per family, {len(FAMILIES)} families, seed {run.seed}; every "
        "value generated to the documented shape of its format (none is a real credential) "
        f"and embedded in one of {len(CONTEXTS)} contexts ({', '.join(sorted(CONTEXTS))}). A "
        "sample counts when none of its secret substrings is left.", "",
        *_recall_table(run), *_misses(run), "",
        "## 2. Redacted lines in ordinary text", "",
        "Each file is redacted whole, as read_file does, and compared line by line. Target: 0.",
        "", "| mode | lines | files | size | redacted lines |", "|---|---:|---:|---:|---:|",
        *_hits(run), "",
        "The *plain* mode runs §9's assignment passes (`password = …`, `secret_key: …`, "
        "`AUTH = …`), which the contract meant for configuration text, over code; the tools "
        "never redact file content that way.", "",
        *_sources(run), "",
        "## 3. Time to redact 1 MB", "",
        "1,000,000 characters of the ordinary files above, with one fake-secret sample after "
        "every 40 lines (mixed) or without (ordinary code only); one call on the whole text, "
        "one warm-up run, then the runs timed.", "",
        "| text | mode | best | median | runs |", "|---|---|---:|---:|---:|",
    ]
    for item in run.timings:
        lines.append(f"| {item.text} | {item.mode} | {1000 * item.best:.0f} ms | "
                     f"{1000 * item.median:.0f} ms | {len(item.runs)} |")
    return "\n".join(lines) + "\n"
