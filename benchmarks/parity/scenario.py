"""Build small hand-written parity scenarios (a few files + one command) and check them against rg.

Scenarios mirror the upstream ripgrep tests catalogued in rg-semantics.md §5.2. The expected output,
when a scenario states one, comes from the spec or the upstream test and is checked against the
reference binary first, so a wrong expectation shows up as a harness problem, not as a parity bug.
"""

from __future__ import annotations

from typing import Mapping, Sequence, Union

from benchmarks.parity.batch import CaseOutcome, describe
from benchmarks.parity.runner import Arg, Comparison, Invocation, ParityRunner
from benchmarks.parity.trees import HOME, WORK, CasePath, Dir, File, Node, Symlink, Tree
from benchmarks.parity.walk_cases import Case


class Link:
    """Marks a scenario entry as a symlink to *target* (relative text, or absolute below ``work/``)."""

    def __init__(self, target: str, *, is_dir: bool = False, absolute: bool = False) -> None:
        self.target: str | CasePath = CasePath(f"{WORK}/{target}") if absolute else target
        self.is_dir = is_dir


Entry = Union[str, tuple[str, Union[str, bytes, Link]]]
"""``"a/b"`` = empty file, ``"a/"`` = directory, ``(path, text)`` = file, ``(path, Link)`` = symlink.

Paths are below ``work/``; a path starting with ``~/`` goes to the case's ``$HOME`` instead, one
starting with ``../`` to the case directory (beside ``work/``).
"""


def _place(path: str) -> str:
    if path.startswith("~/"):
        return f"{HOME}/{path[2:]}".rstrip("/")
    if path.startswith("../"):
        return path[3:].rstrip("/")
    return f"{WORK}/{path}".rstrip("/")


def build_tree(entries: Sequence[Entry]) -> Tree:
    """Returns the tree for a scenario's *entries* (see :data:`Entry`)."""
    nodes: list[Node] = [Dir(WORK)]
    for entry in entries:
        if isinstance(entry, str):
            nodes.append(Dir(_place(entry)) if entry.endswith("/") else File(_place(entry)))
            continue
        path, value = entry
        if isinstance(value, Link):
            nodes.append(Symlink(_place(path), value.target, value.is_dir))
        else:
            data = value.encode("utf-8") if isinstance(value, str) else value
            nodes.append(File(_place(path), (data,) if data else ()))
    return Tree(tuple(nodes))


def work_path(rel: str = "") -> CasePath:
    """Returns an absolute-path argument for *rel* below ``work/`` (resolved when the case runs)."""
    return CasePath(f"{WORK}/{rel}".rstrip("/"))


class ScenarioChecker:
    """Runs hand-written scenarios through both commands and asserts that they agree."""

    def __init__(self, runner: ParityRunner) -> None:
        self.runner = runner

    def check(
        self,
        name: str,
        entries: Sequence[Entry],
        args: Sequence[Arg],
        *,
        cwd: str = "",
        env: Mapping[str, Arg] | None = None,
        expect_stdout: str | bytes | None = None,
        expect_exit: int | None = None,
    ) -> Comparison:
        """Returns the comparison after asserting candidate == reference (and the stated result).

        *name* labels failure messages; *cwd* is relative to ``work/``; *expect_stdout* and
        *expect_exit* are what the spec or the upstream test states, checked against the reference
        before the candidate is compared. Raises AssertionError with a diff and a replay script.
        """
        invocation = Invocation(tuple(args), f"{WORK}/{cwd}".rstrip("/"), tuple((env or {}).items()))
        case = Case(seed=None, tree=build_tree(entries), invocation=invocation, name=name)
        comparison = self.runner.run(case.tree, invocation)
        outcome = CaseOutcome(case, comparison)
        if expect_stdout is not None:
            expected = expect_stdout.encode("utf-8") if isinstance(expect_stdout, str) else expect_stdout
            assert comparison.reference.stdout == expected, (
                f"reference rg does not print what the spec says ({expected!r}): harness or spec problem\n"
                + describe(outcome)
            )
        if expect_exit is not None:
            assert comparison.reference.exit_code == expect_exit, (
                f"reference rg does not exit {expect_exit} as the spec says: harness or spec problem\n"
                + describe(outcome)
            )
        assert comparison.agrees, "candidate differs from rg 15.1\n" + describe(outcome)
        return comparison
