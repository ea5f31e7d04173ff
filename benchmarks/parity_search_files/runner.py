"""Run search_files cases through both backends on written trees and compare the JSON texts.

Every case gets two fresh :class:`~shellfree.FileTools` on the same tree, one in-process and
one on the reference rg, and sends its arguments ``repeat`` times to each; the case agrees when
every returned text is identical and every path a result names exists (both backends share the
parsing of rg's output, so a parsing defect makes them agree on a wrong answer: a path that is
not there is how one shows). The run happens under a scrubbed environment: an empty
``$HOME`` (no global git excludes, no ``~/.hermes``) and no rg or git configuration.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Iterator

from benchmarks.parity_search_files.cases import Case, draw_case
from benchmarks.parity_search_files.trees import HERMES_HOME, SearchTree, generate_search_tree
from shellfree import FileTools

__all__ = ["CASES_PER_TREE", "Outcome", "ParityRun", "case_seed", "tree_seed_of"]

CASES_PER_TREE = 10
"""Consecutive cases share one tree (writing a tree costs more than a search)."""

ROOT_PLACEHOLDER = "@ROOT@"

_SCRUBBED = ("RIPGREP_CONFIG_PATH", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
             "GIT_DIR", "GIT_WORK_TREE")


def case_seed(run_seed: int, index: int) -> int:
    """Case *index* of run *run_seed* (so a seed in a report names its run)."""
    return run_seed * 1_000_000 + index


def tree_seed_of(seed: int) -> int:
    """The tree a case seed runs on: cases ``10k … 10k+9`` share tree ``k``."""
    return seed // CASES_PER_TREE


@dataclass(frozen=True)
class Outcome:
    """Both backends' texts for one case (one text per repetition)."""

    case: Case
    inprocess: tuple[str, ...]
    rg: tuple[str, ...]
    tree: SearchTree
    ghosts: tuple[str, ...] = ()  # paths the results name that do not exist

    @property
    def agrees(self) -> bool:
        return self.inprocess == self.rg and not self.ghosts


def ghost_paths(work: str, texts: tuple[str, ...]) -> tuple[str, ...]:
    """The paths named by *texts* (``matches``, ``files``, ``counts``) that do not exist when
    taken relative to *work*, where the searches ran. A name that is not UTF-8 shows U+FFFD
    and cannot be checked; the path-grouped ``matches_text`` is not parsed."""
    named: set[str] = set()
    for text in texts:
        result = json.loads(text)
        named.update(match["path"] for match in result.get("matches", ()))
        named.update(result.get("files", ()))
        named.update(result.get("counts", {}))
    return tuple(sorted(path for path in named if "\ufffd" not in path
                        and not os.path.lexists(os.path.join(work, path))))


@contextmanager
def scrubbed_environment(home: str) -> Iterator[None]:
    """``$HOME`` set to *home*, rg/git configuration variables removed; restored afterwards."""
    saved = {k: os.environ.get(k) for k in ("HOME", *_SCRUBBED)}
    os.environ["HOME"] = home
    for key in _SCRUBBED:
        os.environ.pop(key, None)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _stamp_times(work: str, seed: int) -> None:
    # Distinct, seed-determined modification times make order="modified" reproducible on
    # every machine (writing order alone can leave ties at coarse timestamp resolution).
    rng = random.Random(seed)
    paths = []
    for directory, dirs, files in os.walk(work):
        dirs.sort()
        paths.extend(os.path.join(directory, f) for f in sorted(files))
    stamps = rng.sample(range(1_600_000_000, 1_600_000_000 + 10 * len(paths) + 10), len(paths))
    for path, stamp in zip(paths, stamps):
        os.utime(path, (stamp, stamp), follow_symlinks=False)


class ParityRun:
    """A temporary base directory holding the trees, and the two backends to compare."""

    def __init__(self, rg_path: str, base_dir: str | None = None, search_processes: int = 1) -> None:
        self.rg_path = rg_path
        # The in-process side's FileTools(search_processes=...): above 1, each case's calls
        # are shared with helper processes (rgcli/pool.py), started per case.
        self.search_processes = search_processes
        self.base = tempfile.mkdtemp(prefix="sf-parity-", dir=base_dir)
        self.home = os.path.join(self.base, "home")
        os.mkdir(self.home)
        self._trees: dict[int, tuple[str, SearchTree]] = {}

    def __enter__(self) -> ParityRun:
        return self

    def __exit__(self, *exc: object) -> None:
        shutil.rmtree(self.base, ignore_errors=True)

    def tree(self, tree_seed: int) -> tuple[str, SearchTree]:
        """The written tree for *tree_seed* (written on first use)."""
        if tree_seed not in self._trees:
            generated = generate_search_tree(tree_seed)
            work = os.path.join(self.base, f"t{tree_seed}", "work")
            os.makedirs(work)
            generated.tree.write(work)
            _stamp_times(work, tree_seed)
            self._trees[tree_seed] = (work, generated)
        return self._trees[tree_seed]

    def run_case(self, seed: int) -> Outcome:
        """Draws case *seed* and runs it through both backends."""
        work, generated = self.tree(tree_seed_of(seed))
        case = draw_case(seed, tree_seed_of(seed), generated)
        args = dict(case.args)
        if args.get("path") == ROOT_PLACEHOLDER:
            args["path"] = work
        texts = []
        with scrubbed_environment(self.home):
            for options in ({"search_processes": self.search_processes},
                            {"backend": "rg", "rg_path": self.rg_path}):
                with FileTools(work, hermes_home=os.path.join(work, HERMES_HOME), **options) as tools:
                    texts.append(tuple(tools.call("search_files", args) for _ in range(case.repeat)))
        return Outcome(case, texts[0], texts[1], generated,
                       ghost_paths(work, texts[0] + texts[1]))

    def run(self, run_seed: int, count: int,
            progress: Callable[[int, Outcome], None] | None = None) -> list[Outcome]:
        """Runs cases ``0 … count-1`` of *run_seed*."""
        outcomes = []
        for index in range(count):
            outcome = self.run_case(case_seed(run_seed, index))
            outcomes.append(outcome)
            if progress is not None:
                progress(index, outcome)
        for tree_seed in list(self._trees):
            shutil.rmtree(os.path.dirname(self._trees.pop(tree_seed)[0]), ignore_errors=True)
        return outcomes
