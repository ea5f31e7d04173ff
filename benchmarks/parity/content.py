"""Content-search parity run: ``python -m benchmarks.parity.content`` runs random ``rg PATTERN`` cases
through rg 15.1 and ``shellfree rg``, and writes a Markdown report with two agreement figures.

``--cases N --seed S`` runs N cases from :func:`~benchmarks.parity.content_cases.content_case`;
``--case SEED`` replays one verbosely (``--shrink`` also minimises it). It reuses the walk harness's
runner, batch, shrink and report modules (``report.fence`` too, rather than a copy of it); what
is added here is JSON timing normalisation
(:class:`ContentRunner`), the classification of documented disagreements (:func:`known_class`) and
a report that gives the agreement with and without Unicode-table edge cases.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from benchmarks.parity.batch import CaseOutcome, describe, run_batch, run_one, signature
from benchmarks.parity.content_cases import (
    CONTENT_GENERATOR_VERSION,
    ContentCase,
    content_case,
)
from benchmarks.parity.reference import find_reference_rg
from benchmarks.parity.report import RunInfo, fence, header
from benchmarks.parity.runner import (
    Comparison,
    Invocation,
    ParityRunner,
    RunResult,
    default_candidate,
)
from benchmarks.parity.shrink import shrink
from benchmarks.parity.trees import File, Tree
from benchmarks.parity.walk_cases import case_seed

DEFAULT_REPORT = Path(__file__).resolve().parents[1] / "results" / "parity-content.md"

ELAPSED = re.compile(rb'"elapsed(?:_total)?":\{[^{}]*\},?')
"""rg's JSON timing objects (rg-semantics §4.4, §6.5); both sides drop them before comparing."""

TIMEOUT_MESSAGE = b"regex search took longer than"
"""What shellfree prints (naming the file) when its backtracking engine gives up on a pattern."""

OVERALL_TARGET = 0.995
"""Issue 3: at least 99.5 % of all cases agree, and 100 % of those without Unicode-edge characters."""

FULL_PER_SIGNATURE = 3
"""Disagreements shown in full per signature in the report; the rest are listed by seed."""


class ContentRunner(ParityRunner):
    """A :class:`ParityRunner` whose comparisons ignore JSON timings (``elapsed``, ``elapsed_total``).

    Everything else in ``--json`` output, including ``bytes_printed`` and key order, stays compared
    byte for byte. The shrinker and the batch runner call :meth:`run`, so they see the same thing.
    """

    def run(self, tree: Tree, invocation: Invocation, seed: int | None = None) -> Comparison:
        comparison = super().run(tree, invocation, seed)
        if not any(isinstance(a, str) and a == "--json" for a in invocation.args):
            return comparison
        return replace(
            comparison,
            reference=_without_timings(comparison.reference),
            candidate=_without_timings(comparison.candidate),
        )


def _without_timings(result: RunResult) -> RunResult:
    return replace(result, stdout=ELAPSED.sub(b"", result.stdout))


RG_PANIC_EXIT = 101  # a Rust panic's exit status


def known_class(outcome: CaseOutcome) -> str | None:
    """Returns the documented cause of a disagreement, or None if it is unexplained (a bug).

    Documented: rg panicking (exit 101, README's known gaps: shellfree answers), shellfree's
    regex timeout, rg's regex size limit, byte-level ``--no-unicode`` / ``(?-u)`` matching,
    ``\\p{Age=...}``, and Unicode-table edge characters in the case.
    """
    comparison = outcome.comparison
    case = outcome.case
    patterns = getattr(case, "patterns", ())
    if comparison.reference.exit_code == RG_PANIC_EXIT and b"panicked at" in comparison.reference.stderr:
        return "rg panicked"
    if TIMEOUT_MESSAGE in comparison.candidate.stderr and TIMEOUT_MESSAGE not in comparison.reference.stderr:
        return "shellfree regex timeout"
    if b"exceeds size limit" in comparison.reference.stderr:
        return "rg regex size limit"
    if "--no-unicode" in comparison.args or any("(?-u" in p for p in patterns):
        return "byte-level matching (--no-unicode, (?-u))"
    if any("\\p{Age=" in p or "\\p{age=" in p for p in patterns):
        return "\\p{Age=...}"
    if getattr(case, "edge", ()):
        return "Unicode-table edge characters"
    return None


def _is_edge(outcome: CaseOutcome) -> bool:
    return bool(getattr(outcome.case, "edge", ()))


def figures(outcomes: Sequence[CaseOutcome]) -> dict[str, tuple[int, int]]:
    """Returns (agreeing, total) overall, for cases without Unicode-edge characters, and with them."""
    plain = [o for o in outcomes if not _is_edge(o)]
    edge = [o for o in outcomes if _is_edge(o)]
    def count(group: Sequence[CaseOutcome]) -> tuple[int, int]:
        return sum(o.agrees for o in group), len(group)

    return {"overall": count(outcomes), "without Unicode-edge": count(plain), "Unicode-edge only": count(edge)}


def _ratio(pair: tuple[int, int]) -> str:
    agree, total = pair
    return f"{agree}/{total} = {agree / total:.2%}" if total else "0/0"


def first_difference(comparison: Comparison, width: int = 60) -> str:
    """Returns where the two stdouts first differ, as Python byte literals: the unified diff hides
    what matters most here (``\r``, NUL, trailing bytes)."""
    ref, cand = comparison.reference.stdout, comparison.candidate.stdout
    if ref == cand:
        return "stdouts identical"
    at = next((i for i, (a, b) in enumerate(zip(ref, cand)) if a != b), min(len(ref), len(cand)))
    start = max(0, ref.rfind(b"\n", 0, at) + 1, at - width)
    return (f"first stdout difference at byte {at}:\n"
            f"  reference: {ref[start:at + width]!r}\n  candidate: {cand[start:at + width]!r}")


def difference_kind(comparison: Comparison) -> str:
    """Returns a rough label for how two outputs differ, so that a report groups disagreements by
    symptom rather than by the bare "stdout" aspect (a heuristic for triage, not a diagnosis)."""
    ref, cand = comparison.reference.stdout, comparison.candidate.stdout
    if ref == cand:
        return "exit code/stderr only"
    if ref.replace(b"\r\n", b"\n") == cand.replace(b"\r\n", b"\n"):
        return "line terminators (\\r\\n vs \\n)"
    at = next((i for i, (a, b) in enumerate(zip(ref, cand)) if a != b), min(len(ref), len(cand)))
    start = ref.rfind(b"\n", 0, at) + 1
    lines = b"".join(side[start : (side.find(b"\n", at) + 1 or len(side))] for side in (ref, cand))
    if b"binary file" in lines or b"WARNING: stopped" in lines:
        return "binary-file handling"
    if lines.startswith(b"{") or b'\n{"' in lines:
        keys = re.findall(rb'"(\w+)":', ref[start:at])
        return f"JSON field {keys[-1].decode() if keys else '?'}"
    if b"mitted" in lines or b"more match" in lines:
        return "--max-columns text"
    return "other stdout"


def case_notes(case: ContentCase) -> str:
    """Returns the lines a report adds about a content case: patterns, file kinds, edge tags."""
    return "\n".join([
        f"patterns: {list(case.patterns)!r}",
        f"content kinds: {', '.join(case.content_kinds) or '(none)'}",
        f"flag families: {', '.join(case.flag_families) or '(none)'}",
        f"Unicode-edge: {', '.join(case.edge) or 'no'}",
    ])


def render(outcomes: Sequence[CaseOutcome], info: RunInfo) -> str:
    """Returns the whole Markdown report."""
    numbers = figures(outcomes)
    out = [
        *header("content search (`rg PATTERN`)", info),
        (
            f"- run seed: {info.run_seed}; content generator v{CONTENT_GENERATOR_VERSION}; jobs: {info.jobs};"
            f" wall time: {info.seconds:.1f} s"
        ),
        "",
        f"**Agreement overall: {_ratio(numbers['overall'])}**",
        "",
        f"**Agreement without Unicode-edge cases: {_ratio(numbers['without Unicode-edge'])}**",
        "",
        f"Unicode-edge cases alone: {_ratio(numbers['Unicode-edge only'])}.",
        "",
        "A case agrees when stdout bytes (JSON: after dropping `elapsed`/`elapsed_total`), the exit code",
        "and stderr emptiness are all equal. Replay one case with",
        "`python -m benchmarks.parity.content --case SEED` (add `--shrink` to minimise it).",
        "",
    ]
    bad = [o for o in outcomes if not o.agrees]
    if not bad:
        return "\n".join(out + ["No disagreements.", ""])
    classes = collections.Counter(known_class(o) or "unexplained (bug)" for o in bad)
    out += ["## Disagreements by documented cause", "", "| cases | cause |", "|---:|---|"]
    out += [f"| {n} | {label} |" for label, n in classes.most_common()]
    groups: dict[str, list[CaseOutcome]] = collections.defaultdict(list)
    for o in bad:
        label = f"[{known_class(o) or 'unexplained'}] {difference_kind(o.comparison)}: {signature(o.comparison)}"
        groups[label].append(o)
    out += ["", "## Disagreements by signature", "", "| cases | signature | seeds |", "|---:|---|---|"]
    ordered = sorted(groups.items(), key=lambda item: (item[0].startswith("[Unicode"), -len(item[1])))
    for label, members in ordered:
        seeds = ", ".join(str(o.comparison.seed) for o in members[:12]) + (" ..." if len(members) > 12 else "")
        out.append(f"| {len(members)} | {label.replace('|', '&#124;')} | {seeds} |")
    out += ["", "## Disagreements in detail", ""]
    for label, members in ordered:
        out += [f"### {label}", ""]
        for o in members[:FULL_PER_SIGNATURE]:
            text = "\n".join([describe(o, with_tree=False, full_outputs=True), first_difference(o.comparison),
                              case_notes(o.case)])  # type: ignore[arg-type]
            out += [f"#### seed {o.comparison.seed}", "", fence(text), "", "Replay script:", "",
                    fence(o.case.to_shell(), "bash"), ""]
        if len(members) > FULL_PER_SIGNATURE:
            rest = ", ".join(str(o.comparison.seed) for o in members[FULL_PER_SIGNATURE:])
            out += [f"Also: {rest}", ""]
    return "\n".join(out)


def _shrink_lines(case: ContentCase, runner: ParityRunner, log: Callable[[str], None], budget: int = 300) -> ContentCase:
    """Returns *case* with file contents cut further: chunks of bytes (halves, quarters, ...) are
    deleted while the disagreement stays the same, after :func:`shrink` removed whole lines."""
    first = runner.run(case.tree, case.invocation, seed=case.seed)
    target = (first.mismatches, first.reference.exit_code, first.candidate.exit_code)
    runs = 0
    for index, node in enumerate(case.tree.nodes):
        if not isinstance(node, File) or len(node.content) != 1 or not isinstance(node.content[0], bytes):
            continue
        data = node.content[0]
        chunk = max(1, len(data) // 2)
        while chunk >= 1 and runs < budget:
            start, changed = 0, False
            while start < len(data) and runs < budget:
                trial_data = data[:start] + data[start + chunk :]
                nodes = list(case.tree.nodes)
                nodes[index] = File(node.path, (trial_data,) if trial_data else ())
                trial = replace(case, tree=Tree(tuple(nodes)))
                runs += 1
                result = runner.run(trial.tree, trial.invocation, seed=case.seed)
                if not result.agrees and (result.mismatches, result.reference.exit_code, result.candidate.exit_code) == target:
                    case, data, changed = trial, trial_data, True
                else:
                    start += chunk
            if not changed:
                chunk //= 2
    log(f"shrink bytes: {runs} runs")
    return case


def _replay(runner: ContentRunner, seed: int, do_shrink: bool) -> int:
    outcome = run_one(runner, content_case, seed)
    print(describe(outcome))
    print(first_difference(outcome.comparison))
    print(case_notes(outcome.case))  # type: ignore[arg-type]
    if do_shrink and not outcome.agrees:
        def log(message: str) -> None:
            print(message, file=sys.stderr)

        case = outcome.case
        small = shrink(case, runner, keep=tuple(getattr(case, "patterns", ())), log=log)
        small = _shrink_lines(small, runner, log)  # type: ignore[arg-type]
        result = runner.run(small.tree, small.invocation, seed=seed)
        print("=== shrunk ===")
        print(describe(CaseOutcome(small, result)))
        print(first_difference(result))
    if runner.keep:
        print(f"case directory kept: {outcome.comparison.case_dir}")
    return 0 if outcome.agrees else 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.parity.content", description=__doc__)
    parser.add_argument("--cases", type=int, default=5000, help="number of random cases (default 5000)")
    parser.add_argument("--seed", type=int, default=1, help="run seed; case k gets seed SEED*1000000+k")
    parser.add_argument("--jobs", type=int, default=2, help="cases run at once (default 2)")
    parser.add_argument("--report", default=str(DEFAULT_REPORT), help="Markdown report path")
    parser.add_argument("--case", type=int, metavar="SEED", help="replay one case seed verbosely")
    parser.add_argument("--shrink", action="store_true", help="with --case: minimise the disagreement")
    parser.add_argument("--keep", action="store_true", help="keep case directories on disk")
    parser.add_argument("--candidate", help="candidate command prefix, shell-quoted (default: `python -m shellfree rg`)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the content harness; returns 0 iff it meets issue 3's targets (:data:`OVERALL_TARGET`
    overall, every case without Unicode-edge characters)."""
    args = _parser().parse_args(argv)
    reference = find_reference_rg()
    candidate = shlex.split(args.candidate) if args.candidate else list(default_candidate())
    with ContentRunner(reference, candidate, keep=args.keep) as runner:
        if args.case is not None:
            return _replay(runner, args.case, args.shrink)
        seeds = [case_seed(args.seed, i) for i in range(args.cases)]
        start = time.perf_counter()
        outcomes: list[CaseOutcome] = []
        step = max(1, args.cases // 20)
        for outcome in run_batch(runner, content_case, seeds, jobs=args.jobs):
            outcomes.append(outcome)
            if len(outcomes) % step == 0 or len(outcomes) == len(seeds):
                numbers = figures(outcomes)
                print(f"{len(outcomes)}/{len(seeds)} cases: overall {_ratio(numbers['overall'])}, "
                      f"without Unicode-edge {_ratio(numbers['without Unicode-edge'])}", file=sys.stderr)
        seconds = time.perf_counter() - start
        info = RunInfo(
            command="python -m benchmarks.parity.content " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:])),
            reference_version=reference.version_line,
            candidate=" ".join(shlex.quote(c) for c in candidate),
            run_seed=args.seed,
            jobs=args.jobs,
            seconds=seconds,
        )
        os.makedirs(os.path.dirname(os.path.abspath(args.report)), exist_ok=True)
        with open(args.report, "w", encoding="utf-8", errors="backslashreplace") as handle:
            handle.write(render(outcomes, info))
        numbers = figures(outcomes)
        print(f"overall {_ratio(numbers['overall'])}; without Unicode-edge {_ratio(numbers['without Unicode-edge'])};"
              f" {seconds:.1f} s; report: {args.report}")
        plain_agree, plain_total = numbers["without Unicode-edge"]
        agree, total = numbers["overall"]
        return 0 if plain_agree == plain_total and agree >= OVERALL_TARGET * total else 1


if __name__ == "__main__":
    sys.exit(main())
