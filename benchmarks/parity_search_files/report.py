"""The Markdown report of a search_files parity run: header, agreement, every differing case.

Each difference lists its seed, the arguments, the tree as a bash script (``Tree.to_shell``),
both JSON texts and their line diff, so it can be reproduced without this harness.
"""

from __future__ import annotations

import collections
import datetime
import difflib
import json
import os
import platform
import sys
from dataclasses import dataclass
from typing import Sequence

from benchmarks.parity.report import fence
from benchmarks.parity_search_files.runner import Outcome

__all__ = ["RunInfo", "agreement", "render", "signature"]


@dataclass(frozen=True)
class RunInfo:
    """What identifies a run in its report."""

    command: str
    reference_version: str
    run_seed: int
    seconds: float


def agreement(outcomes: Sequence[Outcome]) -> tuple[int, int]:
    """(cases that agree, cases)."""
    return sum(o.agrees for o in outcomes), len(outcomes)


def signature(outcome: Outcome) -> str:
    """The top-level JSON keys whose values differ (the first differing repetition), or that
    named paths do not exist."""
    if outcome.ghosts and outcome.inprocess == outcome.rg:
        return "paths that do not exist"
    for left, right in zip(outcome.inprocess, outcome.rg):
        if left != right:
            a, b = json.loads(left), json.loads(right)
            keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
            return ", ".join(keys) or "key order"
    return "none"


def _pretty(text: str) -> str:
    return json.dumps(json.loads(text), ensure_ascii=False, indent=1)


def render(outcomes: Sequence[Outcome], info: RunInfo) -> str:
    """Returns the whole report as Markdown."""
    agree, total = agreement(outcomes)
    ratio = agree / total if total else 1.0
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    differing = [o for o in outcomes if not o.agrees]
    out = [
        "# shellfree parity report: `search_files` in-process vs rg backend",
        "",
        f"- date: {now}",
        f"- machine: {platform.node()} ({platform.platform()}, {os.cpu_count()} CPUs), "
        f"Python {sys.version.split()[0]}",
        f"- reference: {info.reference_version}",
        f"- command: `{info.command}`",
        f"- run seed: {info.run_seed}; cases: {total}; calls: "
        f"{sum(o.case.repeat for o in outcomes)}; time: {info.seconds:.1f} s",
        "",
        f"**Agreement: {agree}/{total} = {ratio:.2%}** (identical JSON text on every call)",
        "",
    ]
    if differing:
        groups = collections.Counter(signature(o) for o in differing)
        out += ["## Differences by differing keys", "", "| keys | cases |", "|---|---|"]
        out += [f"| {keys} | {n} |" for keys, n in groups.most_common()]
        out += ["", "## Every differing case", ""]
    for outcome in differing:
        case = outcome.case
        first = next((i for i, (a, b) in enumerate(zip(outcome.inprocess, outcome.rg)) if a != b),
                     0)
        left, right = _pretty(outcome.inprocess[first]), _pretty(outcome.rg[first])
        diff = "\n".join(difflib.unified_diff(right.splitlines(), left.splitlines(), "rg backend",
                                              "in-process", lineterm=""))
        out += [
            f"### case {case.seed} (tree {case.tree_seed})",
            "",
            f"- arguments: `{json.dumps(case.args, ensure_ascii=False)}`"
            + (f", sent {case.repeat} times (call {first + 1} differs)" if case.repeat > 1 else ""),
            f"- replay: `python -m benchmarks.parity_search_files --case {case.seed}`",
            *([f"- paths named that do not exist: "
               f"`{json.dumps(outcome.ghosts, ensure_ascii=False)}`"] if outcome.ghosts else []),
            "",
            fence(diff, "diff"),
            "",
            "<details><summary>tree (bash, run in an empty directory)</summary>",
            "",
            fence(outcome.tree.tree.to_shell(), "bash"),
            "",
            "</details>",
            "",
        ]
    if not differing:
        out += ["No differences.", ""]
    return "\n".join(out)
