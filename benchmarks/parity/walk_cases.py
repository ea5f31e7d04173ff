"""Generate random ``--files`` parity cases: a random tree, a random flag set, random roots and cwd.

A case is a pure function of its integer seed and the filesystem capabilities. The walker flags are
data (:data:`WALK_FLAGS`, a tuple of :class:`FlagSpec`), so the content-search harness can reuse the
same table, roots and trees and only add its own flags and a pattern (:func:`draw_case` takes the
mode, the flag table and the fixed leading arguments).
"""

from __future__ import annotations

import posixpath
import random
from dataclasses import dataclass, field
from typing import Callable, Sequence

from benchmarks.parity import patterns
from benchmarks.parity.runner import SCRUBBED_ENV_VARS, SORT_ARGS, Arg, Invocation
from benchmarks.parity.trees import (
    WORK,
    CasePath,
    File,
    FsCapabilities,
    GeneratedTree,
    Node,
    Tree,
    generate_home,
    generate_work_tree,
    shell_quote,
)

GENERATOR_VERSION = 4
"""Bumped whenever the generator changes what a seed produces; reports and replay scripts show it,
so a seed is only meaningful together with this number."""

SEEDS_PER_RUN = 1_000_000
"""Case seed = run seed x this + case index, so a case seed names its run and position."""


def case_seed(run_seed: int, index: int) -> int:
    """Returns the seed of case *index* of the run seeded *run_seed*."""
    if not 0 <= index < SEEDS_PER_RUN:
        raise ValueError(f"case index {index} out of range")
    return run_seed * SEEDS_PER_RUN + index


@dataclass(frozen=True)
class Case:
    """One parity case: the files to create, where to run, and what to pass after ``rg``."""

    seed: int | None
    tree: Tree
    invocation: Invocation
    mode: str = "files"
    name: str | None = None
    """A label for hand-written cases (scenarios), which have no seed."""
    flag_families: tuple[str, ...] = ()
    """Names of the :class:`FlagSpec` entries drawn (for coverage checks; the args hold the flags)."""
    roots: tuple[Arg, ...] = ()
    """The positional arguments drawn (also the tail of the args)."""

    @property
    def title(self) -> str:
        """Returns how reports name the case: ``seed N`` or the scenario name."""
        return self.name if self.name is not None else f"seed {self.seed}"

    def command_line(self, program: str = "rg") -> str:
        """Returns the shell command (with ``--sort path``) as reports show it; *program* is shell text."""
        parts = [program, *(shell_quote(a) for a in SORT_ARGS)]
        parts.extend(_shell_arg(arg) for arg in self.invocation.args)
        return " ".join(parts)

    def to_shell(self) -> str:
        """Returns a bash script that recreates the case in a temp dir and runs the reference rg."""
        return "\n".join(
            [
                "#!/usr/bin/env bash",
                f"# shellfree parity case: {self.title} ({self.mode}, generator v{GENERATOR_VERSION})",
                "set -e",
                'case=$(mktemp -d) && cd "$case"',
                *self.tree.to_shell().splitlines(),
                'mkdir -p home && export HOME="$case/home"',
                "unset " + " ".join(SCRUBBED_ENV_VARS),
                *(f"export {name}={_shell_arg(value)}" for name, value in self.invocation.env),
                f"cd -- {shell_quote(self.invocation.cwd)}",
                "# RG: the reference binary; the candidate is `python -m shellfree rg` with the same args",
                "status=0",
                self.command_line('"${RG:-rg}"') + " </dev/null || status=$?",
                'echo "exit=$status"',
            ]
        )


def _shell_arg(arg: Arg) -> str:
    return f'"$case"/{shell_quote(arg.rel)}' if isinstance(arg, CasePath) else shell_quote(arg)


@dataclass
class CaseDraft:
    """The mutable state while one case is drawn: the tree facts, the cwd, and extra nodes to add."""

    rng: random.Random
    generated: GeneratedTree
    cwd: str
    has_global_excludes: bool
    extra_nodes: list[Node] = field(default_factory=list)

    def rel(self, path: str) -> str:
        """Returns *path* (relative to the case directory) relative to the cwd."""
        return posixpath.relpath(path, self.cwd)

    def paths_below_cwd(self) -> list[str]:
        """Returns the tree's entries below the cwd, relative to it (what ``-g`` globs see)."""
        prefix = self.cwd + "/"
        every = self.generated.dirs + self.generated.files + self.generated.symlinks
        return [p[len(prefix) :] for p in every if p.startswith(prefix)]


@dataclass(frozen=True)
class FlagSpec:
    """One flag family: how likely it is, how to render it, and which modes it applies to."""

    name: str
    probability: float
    build: Callable[[CaseDraft], tuple[Arg, ...]]
    modes: frozenset[str] = frozenset({"files", "search"})


def _const(*spellings: str) -> Callable[[CaseDraft], tuple[Arg, ...]]:
    """Returns a builder choosing one of *spellings* (each may hold several space-separated args)."""

    def build(draft: CaseDraft) -> tuple[Arg, ...]:
        return tuple(draft.rng.choice(spellings).split(" "))

    return build


def _max_depth(draft: CaseDraft) -> tuple[Arg, ...]:
    n = str(draft.rng.choice([0, 1, 1, 2, 2, 3, 4]))
    spelling = draft.rng.choice(["--max-depth N", "--max-depth=N", "-d N", "--maxdepth N", "-dN"])
    return tuple(spelling.replace("N", n).split(" "))


def _globs(draft: CaseDraft) -> tuple[Arg, ...]:
    out: list[Arg] = []
    names = list(draft.generated.names)
    paths = draft.paths_below_cwd()
    for _ in range(draft.rng.choice([1, 1, 1, 2, 2, 3])):
        value = patterns.glob_value(draft.rng, names, paths)
        flag = draft.rng.choice(["-g", "-g", "--glob", "--iglob"])
        if draft.rng.random() < 0.2 or value.startswith("-"):
            out.append(f"{flag if flag != '-g' else '--glob'}={value}")
        else:
            out.extend([flag, value])
    return tuple(out)


def _ignore_files(draft: CaseDraft) -> tuple[Arg, ...]:
    """Returns 1-2 ``--ignore-file`` options: a tree ignore file, a new file, a missing path or a dir."""
    out: list[Arg] = []
    for i in range(draft.rng.choice([1, 1, 2])):
        kind = draft.rng.choices(["new", "tree", "missing", "dir"], weights=[6, 3, 1, 1])[0]
        if kind == "tree" and draft.generated.ignore_files:
            path: Arg = draft.rel(draft.rng.choice(draft.generated.ignore_files))
        elif kind == "missing":
            path = "no-such.ignore"
        elif kind == "dir":
            path = draft.rel(draft.rng.choice(draft.generated.dirs))
        else:
            location = f"extra{i}.ignore"  # in the case directory: outside the walked tree
            content = patterns.ignore_file_content(draft.rng, draft.generated.names, draft.paths_below_cwd())
            draft.extra_nodes.append(File(location, (content,)))
            path = CasePath(location) if draft.rng.random() < 0.3 else draft.rel(location)
        if isinstance(path, str) and draft.rng.random() < 0.2:
            out.append(f"--ignore-file={path}")
        else:
            out.extend(["--ignore-file", path])
    return tuple(out)


NEGATIONS = (
    "--no-hidden", "--ignore", "--ignore-vcs", "--ignore-parent", "--ignore-dot", "--ignore-exclude",
    "--ignore-global", "--require-git", "--no-follow", "--no-glob-case-insensitive",
)
"""Flags that undo an earlier one: the last of a pair wins in rg, so their position matters."""

WALK_FLAGS: tuple[FlagSpec, ...] = (
    FlagSpec("--hidden", 0.3, _const("--hidden", "--hidden", "-.")),
    FlagSpec("--no-ignore", 0.08, _const("--no-ignore")),
    FlagSpec("--no-ignore-vcs", 0.12, _const("--no-ignore-vcs")),
    FlagSpec("--no-ignore-parent", 0.12, _const("--no-ignore-parent")),
    FlagSpec("--no-ignore-dot", 0.1, _const("--no-ignore-dot")),
    FlagSpec("--no-ignore-exclude", 0.1, _const("--no-ignore-exclude")),
    FlagSpec("--no-ignore-global", 0.1, _const("--no-ignore-global")),
    FlagSpec("--no-require-git", 0.18, _const("--no-require-git")),
    FlagSpec("--ignore-file", 0.15, _ignore_files),
    FlagSpec("--follow", 0.2, _const("-L", "--follow")),
    FlagSpec("--max-depth", 0.12, _max_depth),
    FlagSpec("--glob", 0.3, _globs),
    FlagSpec("--glob-case-insensitive", 0.07, _const("--glob-case-insensitive")),
    FlagSpec("--ignore-file-case-insensitive", 0.04, _const("--ignore-file-case-insensitive")),
    FlagSpec("-u", 0.07, _const("-u", "-uu", "-u -u", "--unrestricted")),
    FlagSpec("negation", 0.06, lambda d: (d.rng.choice(NEGATIONS),)),
)
"""The walker flag table: each family is included independently with its probability."""

EXTRA_WALK_FLAGS: tuple[FlagSpec, ...] = (
    FlagSpec("--null", 0.05, _const("--null", "-0")),
    FlagSpec("--path-separator", 0.04, lambda d: ("--path-separator", d.rng.choice(["/", "\\", "_", "", "ab"]))),
    FlagSpec("--quiet", 0.03, _const("--quiet", "-q")),
    FlagSpec("--no-messages", 0.04, _const("--no-messages")),
    FlagSpec("--no-ignore-files", 0.04, _const("--no-ignore-files", "--no-ignore-files --ignore-files")),
    FlagSpec("--threads", 0.03, _const("-j1", "--threads 3", "-j 2")),
    FlagSpec("--sortr", 0.03, _const("--sortr path", "--sortr=path", "--sort-files")),
    FlagSpec("--max-filesize", 0.04, lambda d: ("--max-filesize", d.rng.choice(["0", "1", "2", "1K", "2M"]))),
    FlagSpec("--no-ignore-messages", 0.03, _const("--no-ignore-messages")),
    FlagSpec("--one-file-system", 0.03, _const("--one-file-system")),
)
"""Flags beyond the walker brief (output and resource flags that still apply to ``--files``); only the
extended run (``walk --extended``) draws them, with the extra root spelling ``-``."""


def _dir_spellings(rel: str) -> list[str]:
    """Returns the ways a directory root can be typed (rg prints it back exactly as typed, §1.1)."""
    if rel == ".":
        return [".", "./", ".//", "./.", "././", ".///"]
    base = rel.rsplit("/", 1)[-1]
    out = [rel, rel + "/", "./" + rel, rel + "//", rel + "/."]
    if not rel.startswith("/"):
        # rg 15.1 matches parent rules differently for roots that are `.` component for
        # component and for roots like these (rg-semantics §1.4.3; walk.py's _parent_prefix).
        out += [".//" + rel, "././" + rel]
    if base not in ("..", "."):
        out.append(f"{rel}/../{base}")
    return out


def draw_roots(draft: CaseDraft, *, extended: bool = False) -> tuple[Arg, ...]:
    """Returns 0-3 roots relative to the cwd (or absolute), covering the spellings of §1.1/§1.3/§1.7.

    *extended* (bool) adds the root ``-`` (stdin, which ``--files`` lists as ``<stdin>``).
    """
    rng = draft.rng
    count = rng.choices([0, 1, 2, 3], weights=[35, 45, 14, 6])[0]
    g = draft.generated
    below = [d for d in g.dirs if d == draft.cwd or d.startswith(draft.cwd + "/")]
    roots: list[Arg] = []
    for _ in range(count):
        kind = rng.choices(
            ["dot", "dir", "elsewhere", "file", "hidden", "symlink", "absolute", "missing", "again"],
            weights=[4, 8, 2, 4, 2, 2, 2, 1, 1],
        )[0]
        hidden = [d for d in g.dirs if d.rsplit("/", 1)[-1].startswith(".")]
        if kind == "dot":
            roots.append(rng.choice(_dir_spellings(".")))
        elif kind == "dir" and len(below) > 1:
            roots.append(rng.choice(_dir_spellings(draft.rel(rng.choice(below[1:])))))
        elif kind == "elsewhere":
            roots.append(rng.choice(_dir_spellings(draft.rel(rng.choice(g.dirs)))))
        elif kind == "file" and g.files:
            rel = draft.rel(rng.choice(g.files))
            roots.append(rel if rng.random() < 0.7 else "./" + rel)
        elif kind == "hidden" and hidden:
            roots.append(rng.choice(_dir_spellings(draft.rel(rng.choice(hidden)))))
        elif kind == "symlink" and g.symlinks:
            roots.append(draft.rel(rng.choice(g.symlinks)))
        elif kind == "absolute":
            roots.append(CasePath(rng.choice([draft.cwd, *below])))
        elif kind == "missing":
            roots.append(rng.choice(["missing", "sub/missing", "missing/"]))
        elif kind == "again" and roots:
            roots.append(rng.choice(roots))
        else:
            roots.append(".")
        if extended and rng.random() < 0.08:
            roots.append("-")
    return tuple(roots)


def draw_cwd(rng: random.Random, generated: GeneratedTree) -> str:
    """Returns the cwd: usually the tree top, sometimes a directory below it (parent rules apply)."""
    if rng.random() < 0.65 or len(generated.dirs) == 1:
        return WORK
    return rng.choice(generated.dirs[1:])


def draw_case(
    seed: int,
    caps: FsCapabilities,
    *,
    mode: str = "files",
    flags: Sequence[FlagSpec] = WALK_FLAGS,
    leading: Sequence[str] = ("--files",),
    extended_roots: bool = False,
) -> Case:
    """Returns the case for *seed*: random tree, home, cwd, flags from *flags*, then roots.

    *leading* (sequence of str) are arguments always present (``--files`` for the walk harness); they
    are shuffled in among the drawn flags, since rg does not care where flags appear.
    """
    rng = random.Random(seed)
    generated = generate_work_tree(rng, caps)
    home, has_global = generate_home(rng, generated.names)
    draft = CaseDraft(rng, generated, draw_cwd(rng, generated), has_global)
    groups: list[tuple[Arg, ...]] = [tuple(leading)]
    families = []
    for spec in flags:
        if mode in spec.modes and rng.random() < spec.probability:
            groups.append(spec.build(draft))
            families.append(spec.name)
    rng.shuffle(groups)
    args: list[Arg] = [a for group in groups for a in group]
    roots = draw_roots(draft, extended=extended_roots)
    tree = generated.tree + home + Tree(tuple(draft.extra_nodes))
    return Case(
        seed=seed,
        tree=tree,
        invocation=Invocation((*args, *roots), draft.cwd),
        mode=mode,
        flag_families=tuple(families),
        roots=roots,
    )


def walk_case(seed: int, caps: FsCapabilities) -> Case:
    """Returns the ``--files`` case for *seed* (flags from :data:`WALK_FLAGS`)."""
    return draw_case(seed, caps)


def walk_case_extended(seed: int, caps: FsCapabilities) -> Case:
    """Returns the ``--files`` case for *seed* with :data:`EXTRA_WALK_FLAGS` and the root ``-`` too."""
    return draw_case(seed, caps, flags=WALK_FLAGS + EXTRA_WALK_FLAGS, extended_roots=True)
