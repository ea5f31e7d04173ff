"""Shrink a disagreeing case to a small reproducer by greedy deletion (one-at-a-time delta debugging).

It tries dropping single arguments, single tree nodes (a directory with everything below it) and
single lines of files, and keeps each deletion that still disagrees in the same way (same differing
aspects and the same two exit codes). It stops when a whole pass deletes nothing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from benchmarks.parity.runner import Comparison, ParityRunner
from benchmarks.parity.trees import Dir, File, Node, Tree
from benchmarks.parity.walk_cases import Case


def _key(comparison: Comparison) -> tuple[object, ...]:
    return (comparison.mismatches, comparison.reference.exit_code, comparison.candidate.exit_code)


def _without_node(tree: Tree, index: int) -> Tree:
    gone = tree.nodes[index]
    prefix = gone.path + "/"
    keep = [n for i, n in enumerate(tree.nodes) if i != index and not n.path.startswith(prefix)]
    return Tree(tuple(keep))


def _line_deletions(tree: Tree) -> list[Tree]:
    """Returns trees that each lack one line of one multi-line, single-part file."""
    out = []
    for i, node in enumerate(tree.nodes):
        if not isinstance(node, File) or len(node.content) != 1 or not isinstance(node.content[0], bytes):
            continue
        lines = node.content[0].splitlines(keepends=True)
        if len(lines) < 2:
            continue
        for j in range(len(lines)):
            content = b"".join(lines[:j] + lines[j + 1 :])
            nodes = list(tree.nodes)
            nodes[i] = File(node.path, (content,))
            out.append(Tree(tuple(nodes)))
    return out


def shrink(
    case: Case,
    runner: ParityRunner,
    *,
    keep: tuple[str, ...] = ("--files",),
    log: Callable[[str], None] = lambda _: None,
    max_runs: int = 600,
) -> Case:
    """Returns a smaller case that disagrees like *case* does (or *case* itself if it agrees).

    *keep* lists arguments never dropped (the mode's own, so a ``--files`` case stays one).
    """
    first = runner.run(case.tree, case.invocation, seed=case.seed)
    if first.agrees:
        return case
    target = _key(first)
    runs = 0

    def still_fails(candidate: Case) -> bool:
        nonlocal runs
        runs += 1
        result = runner.run(candidate.tree, candidate.invocation, seed=case.seed)
        return not result.agrees and _key(result) == target

    progress = True
    while progress and runs < max_runs:
        progress = False
        args = case.invocation.args
        for i in reversed(range(len(args))):
            if args[i] in keep:
                continue
            trial = replace(
                case, invocation=replace(case.invocation, args=args[:i] + args[i + 1 :]), roots=()
            )
            if runs < max_runs and still_fails(trial):
                case, args, progress = trial, trial.invocation.args, True
        i = len(case.tree.nodes) - 1
        while i >= 0 and runs < max_runs:
            node: Node = case.tree.nodes[i]
            cwd = case.invocation.cwd
            # The cwd and its ancestors must survive, or the case no longer runs at all.
            if not (isinstance(node, Dir) and (cwd == node.path or cwd.startswith(node.path + "/"))):
                trial = replace(case, tree=_without_node(case.tree, i))
                if still_fails(trial):
                    case, progress = trial, True
            i = min(i - 1, len(case.tree.nodes) - 1)
        changed = True
        while changed and runs < max_runs:
            changed = False
            for tree in _line_deletions(case.tree):
                trial = replace(case, tree=tree)
                if runs < max_runs and still_fails(trial):
                    case, changed, progress = trial, True, True
                    break  # the list of deletions is stale now; recompute it
        log(f"shrink: {runs} runs, {len(case.tree.nodes)} nodes, {len(case.invocation.args)} args")
    return case
