"""Write the Markdown report of a parity run: header, agreement ratio, groups, every disagreement.

Each disagreement lists its seed, the cwd and command, the replay script (the tree as bash), the
stdout diff, both exit codes and both stderr texts, so it can be reproduced without this harness.
"""

from __future__ import annotations

import collections
import datetime
import os
import platform
import sys
from dataclasses import dataclass
from typing import Sequence

from benchmarks.parity.batch import CaseOutcome, agreement, describe, signature
from benchmarks.parity.walk_cases import GENERATOR_VERSION


@dataclass(frozen=True)
class RunInfo:
    """What identifies a run in its report."""

    command: str
    reference_version: str
    candidate: str
    run_seed: int
    jobs: int
    seconds: float


def header(title: str, info: RunInfo) -> list[str]:
    """The report's title and the lines that say when, where and against what it ran."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return [
        f"# shellfree parity report: {title}",
        "",
        f"- date: {now}",
        f"- machine: {platform.node()} ({platform.platform()}, {os.cpu_count()} CPUs), Python {sys.version.split()[0]}",
        f"- reference: {info.reference_version}",
        f"- candidate: `{info.candidate}`",
        f"- command: `{info.command}`",
    ]


def fence(text: str, lang: str = "") -> str:
    """*text* as a Markdown code block."""
    # A longer fence than any run of backticks inside keeps odd file names from closing the block.
    ticks = "`" * max(3, _max_backticks(text) + 1)
    return f"{ticks}{lang}\n{text.rstrip()}\n{ticks}"


def _max_backticks(text: str) -> int:
    best = run = 0
    for ch in text:
        run = run + 1 if ch == "`" else 0
        best = max(best, run)
    return best


def render(outcomes: Sequence[CaseOutcome], info: RunInfo) -> str:
    """Returns the whole report as Markdown."""
    agree, total = agreement(outcomes)
    ratio = agree / total if total else 1.0
    out = [
        *header("`rg --files` walk", info),
        f"- run seed: {info.run_seed}; generator v{GENERATOR_VERSION}; cases: {total}; jobs: {info.jobs};"
        f" wall time: {info.seconds:.1f} s",
        "",
        f"**Agreement: {agree}/{total} = {ratio:.2%}**",
        "",
        "A case agrees when stdout bytes, the exit code, and stderr emptiness are all equal.",
        "Replay one case with `python -m benchmarks.parity walk --case SEED` (add `--shrink` to minimise it).",
        "",
    ]
    disagreements = [o for o in outcomes if not o.agrees]
    if disagreements:
        groups = collections.Counter(signature(o.comparison) for o in disagreements)
        out += ["## Disagreements by signature", "", "| cases | signature | first seed |", "|---:|---|---|"]
        first = {}
        for o in disagreements:
            first.setdefault(signature(o.comparison), o.comparison.seed)
        for label, count in groups.most_common():
            out.append(f"| {count} | {label.replace('|', '&#124;')} | {first[label]} |")
        out += ["", "## Every disagreement", ""]
        for o in disagreements:
            out += [f"### seed {o.comparison.seed}", "", fence(describe(o, with_tree=False, full_outputs=True)), ""]
            out += ["Replay script:", "", fence(o.case.to_shell(), "bash"), ""]
    else:
        out += ["No disagreements.", ""]
    return "\n".join(out)


def write_report(path: str, outcomes: Sequence[CaseOutcome], info: RunInfo) -> None:
    """Writes the report for *outcomes* to *path*, creating its directory."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8", errors="backslashreplace") as handle:
        handle.write(render(outcomes, info))
