"""Run many seeded cases (in a few threads) and describe each disagreement for humans.

The threads only wait on subprocesses, so a small pool gives real parallelism. Results come back in
seed order whatever the completion order, so a run is reproducible line for line.
"""

from __future__ import annotations

import difflib
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

from benchmarks.parity.runner import Comparison, ParityRunner
from benchmarks.parity.trees import FsCapabilities
from benchmarks.parity.walk_cases import Case

CaseFactory = Callable[[int, FsCapabilities], Case]
"""seed, capabilities -> case (e.g. :func:`benchmarks.parity.walk_cases.walk_case`)."""


@dataclass(frozen=True)
class CaseOutcome:
    """A case and what happened when it ran."""

    case: Case
    comparison: Comparison

    @property
    def agrees(self) -> bool:
        return self.comparison.agrees


def run_one(runner: ParityRunner, factory: CaseFactory, seed: int) -> CaseOutcome:
    """Returns the outcome of the case *factory* draws for *seed*."""
    case = factory(seed, runner.capabilities)
    return CaseOutcome(case, runner.run(case.tree, case.invocation, seed=seed))


def run_batch(
    runner: ParityRunner, factory: CaseFactory, seeds: Iterable[int], *, jobs: int = 2
) -> Iterator[CaseOutcome]:
    """Yields the outcome of each seed's case, in the order of *seeds*, running *jobs* at a time."""
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        yield from pool.map(lambda s: run_one(runner, factory, s), seeds)


def signature(comparison: Comparison) -> str:
    """Returns a short label grouping disagreements that probably share a cause.

    It names the differing aspects and, when the candidate wrote to stderr, the last line of that
    (a Python traceback ends with the exception), with paths and numbers blurred.
    """
    label = "+".join(comparison.mismatches) or "agree"
    lines = comparison.display(comparison.candidate.stderr).strip().splitlines()
    if lines and comparison.candidate.stderr != comparison.reference.stderr:
        tail = re.sub(r"'[^']*'|\"[^\"]*\"|\d+", "_", lines[-1])[:100]
        label += f" | candidate stderr: {tail}"
    return label


def _lines(comparison: Comparison, data: bytes) -> list[str]:
    return comparison.display(data).splitlines(keepends=True)


def _block(lines: list[str], limit: int) -> str:
    more = f"... ({len(lines) - limit} more lines)\n" if len(lines) > limit else ""
    return "".join(lines[:limit]) + more or "(empty)\n"


def describe(outcome: CaseOutcome, *, with_tree: bool = True, full_outputs: bool = False) -> str:
    """Returns a plain-text account of one case: seed, cwd, command, diff, exit codes, stderr texts.

    *with_tree* appends the bash replay script; *full_outputs* adds both stdouts in full (up to 200
    lines each) after the diff, as the report does.
    """
    c = outcome.comparison
    parts = [
        f"{outcome.case.title}: {', '.join(c.mismatches) or 'agree'}",
        f"cwd: $case/{c.cwd}",
        f"command: {outcome.case.command_line()}",
        f"exit code: reference {c.reference.exit_code}, candidate {c.candidate.exit_code}",
    ]
    diff = difflib.unified_diff(
        _lines(c, c.reference.stdout), _lines(c, c.candidate.stdout), "reference stdout", "candidate stdout"
    )
    diff_text = "".join(line if line.endswith("\n") else line + "\n" for line in diff)
    if diff_text:
        parts.append("stdout diff:\n" + diff_text)
        if full_outputs:
            parts.append("reference stdout:\n" + _block(_lines(c, c.reference.stdout), 200))
            parts.append("candidate stdout:\n" + _block(_lines(c, c.candidate.stdout), 200))
    else:
        parts.append("stdout (identical):\n" + _block(_lines(c, c.reference.stdout), 40))
    parts.append("reference stderr:\n" + (c.display(c.reference.stderr) or "(empty)\n"))
    parts.append("candidate stderr:\n" + (c.display(c.candidate.stderr) or "(empty)\n"))
    if with_tree:
        parts.append("replay script:\n" + outcome.case.to_shell() + "\n")
    return "\n".join(p.rstrip("\n") for p in parts) + "\n"


def agreement(outcomes: Sequence[CaseOutcome]) -> tuple[int, int]:
    """Returns (agreeing cases, all cases)."""
    return sum(o.agrees for o in outcomes), len(outcomes)
