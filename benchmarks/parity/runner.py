"""Run one case through the reference ``rg`` and the candidate ``shellfree rg``, and compare the two.

A case is a :class:`~benchmarks.parity.trees.Tree` plus an :class:`Invocation`. The runner writes the
tree into a fresh directory below an isolated base directory (rg-semantics §0 "harness facts", §6),
runs both commands there with the same cwd, environment and ``stdin=DEVNULL``, and returns a frozen
:class:`Comparison`. Both commands always get ``--sort path`` first: rg's order is otherwise
nondeterministic (§1.10).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Mapping, Sequence, Union

from benchmarks.parity.reference import ReferenceRg
from benchmarks.parity.trees import HOME, CasePath, FsCapabilities, Tree, probe_capabilities

Arg = Union[str, CasePath]
"""A command-line argument: literal text, or an absolute path inside the case directory."""

SORT_ARGS = ("--sort", "path")
"""Prepended to both commands (rg's default order is nondeterministic)."""

SCRUBBED_ENV_VARS = (
    "RIPGREP_CONFIG_PATH",
    "XDG_CONFIG_HOME",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_DIR",
    "GIT_WORK_TREE",
)
"""Variables that would let the user's own config leak into a case (§0 harness fact 3)."""

IGNORE_FILE_NAMES = (".git", ".jj", ".gitignore", ".ignore", ".rgignore")
"""Entries that, in any ancestor of the base directory, would change what rg lists."""

BASE_DIR_ENV_VAR = "SHELLFREE_PARITY_TMP"
"""Optional parent directory for the parity base directory (default: the system temp dir)."""

CANDIDATE_ENV_VAR = "SHELLFREE_PARITY_CANDIDATE"
"""Optional shell-quoted command prefix replacing the candidate (e.g. the reference rg, to check
the harness and the scenarios' stated expectations without shellfree)."""

CASE_DIR_TOKEN = "$case"
"""How reports spell the per-case directory (the shell script defines ``case`` the same way)."""

DEFAULT_TIMEOUT = 60.0


class IsolationError(RuntimeError):
    """Raised when the base directory sits below a repo or an ignore file, which would skew every case."""


def default_candidate() -> tuple[str, ...]:
    """Returns the candidate command prefix: ``$SHELLFREE_PARITY_CANDIDATE`` or ``python -m shellfree rg``."""
    override = os.environ.get(CANDIDATE_ENV_VAR)
    if override:
        return tuple(shlex.split(override))
    return (sys.executable, "-m", "shellfree", "rg")


def check_isolated(base_dir: str) -> None:
    """Raises :class:`IsolationError` unless no ancestor of *base_dir* holds a repo or an ignore file.

    Both the path as given and its canonical form are checked, because rg canonicalises roots
    before looking for parent ignore files (§1.4.2). The system git config is checked too: rg reads
    its ``core.excludesFile`` when the user config has none, and 15.1 ignores ``GIT_CONFIG_SYSTEM``.
    """
    problems: list[str] = []
    for start in dict.fromkeys([os.path.abspath(base_dir), os.path.realpath(base_dir)]):
        directory = start
        while True:
            for name in IGNORE_FILE_NAMES:
                candidate = os.path.join(directory, name)
                if os.path.lexists(candidate):
                    problems.append(candidate)
            parent = os.path.dirname(directory)
            if parent == directory:
                break
            directory = parent
    for config in ("/etc/gitconfig",):
        try:
            with open(config, "rb") as handle:
                if re.search(rb"(?im)^\s*excludesfile\s*=", handle.read()):
                    problems.append(f"{config} (sets core.excludesFile)")
        except OSError:
            pass
    if problems:
        raise IsolationError(
            f"parity base directory {base_dir!r} is not isolated; these would leak into every case: "
            + ", ".join(sorted(set(problems)))
            + f". Set {BASE_DIR_ENV_VAR} to a directory outside any repo."
        )


def make_base_dir() -> str:
    """Creates and returns a fresh, checked base directory for case directories."""
    parent = os.environ.get(BASE_DIR_ENV_VAR) or tempfile.gettempdir()
    # Canonical, so that absolute roots agree with the cwd that rg and Python get from getcwd().
    base = os.path.realpath(tempfile.mkdtemp(prefix="shellfree-parity-", dir=parent))
    check_isolated(base)
    return base


def case_environment(home: str, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """Returns the environment for both commands: *base* (default ``os.environ``) scrubbed, HOME pinned."""
    env = dict(os.environ if base is None else base)
    for name in SCRUBBED_ENV_VARS:
        env.pop(name, None)
    env["HOME"] = home
    return env


@dataclass(frozen=True, slots=True)
class Invocation:
    """What to run inside a case directory: arguments after the program name, and the cwd."""

    args: tuple[Arg, ...]
    cwd: str
    """Relative to the case directory, ``/``-separated."""
    env: tuple[tuple[str, Arg], ...] = ()
    """Extra environment variables for both commands (e.g. a ``GIT_CONFIG_GLOBAL`` that 15.1 ignores)."""


@dataclass(frozen=True, slots=True)
class RunResult:
    """What one command did."""

    exit_code: int | None
    """None when the command timed out and was killed."""
    stdout: bytes
    stderr: bytes
    seconds: float


@dataclass(frozen=True, slots=True)
class Comparison:
    """The reference and candidate results for one case, and whether they agree.

    They agree iff stdout bytes are equal, exit codes are equal, and stderr is empty for both or
    non-empty for both (stderr texts are kept for the report but not compared).
    """

    seed: int | None
    args: tuple[str, ...]
    """The full argument list after the program name, with the case directory shown as ``$case``."""
    cwd: str
    reference: RunResult
    candidate: RunResult
    case_dir: str
    """Where the case ran (removed afterwards unless kept); outputs may contain this path."""

    @property
    def mismatches(self) -> tuple[str, ...]:
        """Returns which aspects differ: any of ``"stdout"``, ``"exit code"``, ``"stderr"``."""
        out = []
        if self.reference.stdout != self.candidate.stdout:
            out.append("stdout")
        if self.reference.exit_code != self.candidate.exit_code:
            out.append("exit code")
        if bool(self.reference.stderr) != bool(self.candidate.stderr):
            out.append("stderr")
        return tuple(out)

    @property
    def agrees(self) -> bool:
        """Returns True iff nothing in :attr:`mismatches` differs."""
        return not self.mismatches

    def display(self, data: bytes) -> str:
        """Returns *data* as text for humans, with the case directory replaced by ``$case``."""
        text = data.decode("utf-8", "backslashreplace")
        return text.replace(self.case_dir, CASE_DIR_TOKEN)


def _resolve(arg: Arg, case_dir: str) -> str:
    if isinstance(arg, CasePath):
        return os.path.join(case_dir, *arg.rel.split("/"))
    return arg


def display_arg(arg: Arg) -> str:
    """Returns *arg* as shown in reports: absolute case paths start with ``$case/``."""
    if isinstance(arg, CasePath):
        return f"{CASE_DIR_TOKEN}/{arg.rel}"
    return arg


def _run(argv: Sequence[str], cwd: str, env: Mapping[str, str], timeout: float) -> RunResult:
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            list(argv),
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,  # §0 fact 1: a readable stdin would be searched instead of ./
            stdout=subprocess.PIPE,  # §0 fact 5: rg skips a file its stdout is redirected to
            stderr=subprocess.PIPE,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        return RunResult(None, exc.stdout or b"", (exc.stderr or b"") + b"\n[timed out]", timeout)
    return RunResult(proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - start)


class ParityRunner:
    """Runs cases in fresh directories below one isolated base directory.

    *reference* is the checked reference binary; *candidate* the command prefix for the candidate
    (default :func:`default_candidate`; a test can pass a deliberately wrong stub); *keep* leaves case
    directories on disk for inspection.
    """

    def __init__(
        self,
        reference: ReferenceRg,
        candidate: Sequence[str] | None = None,
        *,
        base_dir: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        keep: bool = False,
    ) -> None:
        self.reference = reference
        self.candidate = tuple(candidate) if candidate is not None else default_candidate()
        self.owns_base = base_dir is None
        self.base_dir = base_dir if base_dir is not None else make_base_dir()
        if not self.owns_base:
            check_isolated(self.base_dir)
        self.timeout = timeout
        self.keep = keep
        self.capabilities: FsCapabilities = probe_capabilities(self.base_dir)

    def run(self, tree: Tree, invocation: Invocation, seed: int | None = None) -> Comparison:
        """Writes *tree* into a fresh case directory, runs both commands there, and compares them."""
        case_dir = tempfile.mkdtemp(prefix=f"case-{seed}-" if seed is not None else "case-", dir=self.base_dir)
        try:
            tree.write(case_dir)
            home = os.path.join(case_dir, HOME)
            os.makedirs(home, exist_ok=True)
            env = case_environment(home)
            env.update((name, _resolve(value, case_dir)) for name, value in invocation.env)
            cwd = os.path.join(case_dir, *invocation.cwd.split("/"))
            args = SORT_ARGS + tuple(_resolve(a, case_dir) for a in invocation.args)
            reference = _run((self.reference.path, *args), cwd, env, self.timeout)
            candidate = _run((*self.candidate, *args), cwd, env, self.timeout)
        finally:
            if not self.keep:
                shutil.rmtree(case_dir, ignore_errors=True)
        return Comparison(
            seed=seed,
            args=SORT_ARGS + tuple(display_arg(a) for a in invocation.args),
            cwd=invocation.cwd,
            reference=reference,
            candidate=candidate,
            case_dir=case_dir,
        )

    def close(self) -> None:
        """Removes the base directory if this runner created it (and nothing is to be kept)."""
        if self.owns_base and not self.keep:
            shutil.rmtree(self.base_dir, ignore_errors=True)

    def __enter__(self) -> ParityRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
