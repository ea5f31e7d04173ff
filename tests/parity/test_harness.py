"""Self-tests of the parity harness, independent of shellfree: it must agree when the candidate *is*
rg, disagree when the candidate is subtly wrong, replay cases faithfully, and generate what it claims.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Callable, Iterator

import pytest

from benchmarks.parity.batch import describe, run_batch, run_one
from benchmarks.parity.reference import ReferenceRg
from benchmarks.parity.runner import (
    Invocation,
    IsolationError,
    ParityRunner,
    RunResult,
    check_isolated,
)
from benchmarks.parity.scenario import build_tree
from benchmarks.parity.trees import WORK, CasePath, Dir, Fifo, File, FsCapabilities, Node, Symlink
from benchmarks.parity.walk_cases import WALK_FLAGS, Case, case_seed, walk_case

SELF_SEEDS = [case_seed(99, i) for i in range(60)]
ALL_CAPS = FsCapabilities(non_utf8_names=True, symlinks=True, fifos=True, posix_names=True)

# A candidate that runs the reference and then drops every listed path containing ".txt": the
# kind of silent filtering bug the harness exists to catch.
WRONG_STUB = textwrap.dedent(
    """
    import subprocess, sys
    proc = subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL, capture_output=True)
    lines = proc.stdout.splitlines(keepends=True)
    sys.stdout.buffer.write(b"".join(line for line in lines if b".txt" not in line))
    sys.stderr.buffer.write(proc.stderr)
    sys.exit(proc.returncode)
    """
)


@pytest.fixture(scope="module")
def self_runner(reference_rg: ReferenceRg) -> Iterator[ParityRunner]:
    with ParityRunner(reference_rg, candidate=[reference_rg.path]) as runner:
        yield runner


class TestComparison:
    def test_reference_against_itself_agrees(self, self_runner: ParityRunner) -> None:
        outcomes = list(run_batch(self_runner, walk_case, SELF_SEEDS, jobs=2))
        bad = [o for o in outcomes if not o.agrees]
        assert not bad, describe(bad[0])

    def test_wrong_stub_is_caught(self, reference_rg: ReferenceRg, tmp_path: Path) -> None:
        stub = tmp_path / "stub.py"
        stub.write_text(WRONG_STUB)
        with ParityRunner(reference_rg, candidate=[sys.executable, str(stub), reference_rg.path]) as runner:
            outcomes = list(run_batch(runner, walk_case, SELF_SEEDS, jobs=2))
        bad = [o for o in outcomes if not o.agrees]
        assert bad, "a candidate that drops .txt paths went unnoticed"
        assert all(o.comparison.mismatches == ("stdout",) for o in bad)
        text = describe(bad[0])
        assert f"seed {bad[0].comparison.seed}" in text
        assert "rg --sort path" in text and "\n-" in text  # the command, and a diff line

    def test_exit_code_and_stderr_differences_are_caught(self, reference_rg: ReferenceRg, tmp_path: Path) -> None:
        stub = tmp_path / "stub.py"
        stub.write_text("import sys\nsys.stdout.write('a\\n')\nsys.stderr.write('boom\\n')\nsys.exit(3)\n")
        with ParityRunner(reference_rg, candidate=[sys.executable, str(stub)]) as runner:
            comparison = runner.run(build_tree(["a"]), Invocation(("--files",), WORK))
        assert comparison.reference.stdout == comparison.candidate.stdout == b"a\n"
        assert comparison.mismatches == ("exit code", "stderr")

    def test_environment_is_scrubbed(
        self, reference_rg: ReferenceRg, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # A stub that prints the variables the harness must pin or remove.
        stub = tmp_path / "env.py"
        stub.write_text(
            "import os\nfor k in ('HOME','RIPGREP_CONFIG_PATH','XDG_CONFIG_HOME','GIT_DIR'):\n"
            "    print(k, os.environ.get(k))\n"
        )
        monkeypatch.setenv("RIPGREP_CONFIG_PATH", "/nonexistent/rc")
        monkeypatch.setenv("XDG_CONFIG_HOME", "/nonexistent/xdg")
        monkeypatch.setenv("GIT_DIR", "/nonexistent/git")
        with ParityRunner(reference_rg, candidate=[sys.executable, str(stub)]) as runner:
            outcome = run_one(runner, walk_case, SELF_SEEDS[0])
        printed = outcome.comparison.candidate.stdout.decode()
        assert "RIPGREP_CONFIG_PATH None" in printed and "XDG_CONFIG_HOME None" in printed
        assert "GIT_DIR None" in printed
        assert f"HOME {outcome.comparison.case_dir}{os.sep}home" in printed


class TestIsolation:
    @pytest.mark.parametrize("marker", [".gitignore", ".ignore", ".rgignore", ".git", ".jj"])
    def test_ancestor_marker_is_refused(self, tmp_path: Path, marker: str) -> None:
        if any((parent / m).exists() for parent in tmp_path.parents for m in (".git", ".gitignore")):
            pytest.skip("the pytest temp dir itself is not isolated")
        (tmp_path / marker).write_text("")
        (tmp_path / "deep" / "base").mkdir(parents=True)
        with pytest.raises(IsolationError, match=marker.replace(".", r"\.")):
            check_isolated(str(tmp_path / "deep" / "base"))

    def test_repository_checkout_is_refused(self) -> None:
        # The project checkout has a .git: running cases inside it would leak its .gitignore.
        root = Path(__file__).resolve().parents[2]
        if not (root / ".git").exists():
            pytest.skip("not running from a git checkout")
        with pytest.raises(IsolationError):
            check_isolated(str(root / "tests"))


@pytest.mark.skipif(shutil.which("bash") is None, reason="the replay script is bash")
def test_replay_script_reproduces_reference_output(self_runner: ParityRunner, tmp_path: Path) -> None:
    """The script in the report must recreate the case: run it and compare with the runner's result."""
    for seed in SELF_SEEDS[:20]:
        outcome = run_one(self_runner, walk_case, seed)
        scratch = tmp_path / str(seed)
        scratch.mkdir()
        env = dict(os.environ, RG=self_runner.reference.path, TMPDIR=str(scratch))
        script = outcome.case.to_shell()
        proc = subprocess.run(["bash", "-c", script], capture_output=True, env=env, stdin=subprocess.DEVNULL)
        (case_dir,) = scratch.iterdir()  # the script's `mktemp -d`
        stdout, _, status = proc.stdout.rpartition(b"exit=")
        # Absolute paths differ between the two case directories; compare them as `$case`.
        replayed = stdout.replace(os.fsencode(case_dir), b"$case")
        original = outcome.comparison.reference.stdout.replace(os.fsencode(outcome.comparison.case_dir), b"$case")
        assert replayed == original, f"seed {seed}\n{script}"
        assert int(status) == outcome.comparison.reference.exit_code, f"seed {seed}\n{script}"


class TestGenerator:
    def test_same_seed_same_case(self) -> None:
        assert walk_case(123, ALL_CAPS) == walk_case(123, ALL_CAPS)
        assert walk_case(123, ALL_CAPS).to_shell() == walk_case(123, ALL_CAPS).to_shell()
        assert walk_case(123, ALL_CAPS) != walk_case(124, ALL_CAPS)

    def test_generator_covers_the_brief(self) -> None:
        """Over 400 seeds, every feature the parity brief asks for shows up at least once."""
        cases = [walk_case(case_seed(5, i), ALL_CAPS) for i in range(400)]
        missing = [name for name, present in FEATURES.items() if not any(present(c) for c in cases)]
        assert not missing, f"never generated: {missing}"
        families = {f for c in cases for f in c.flag_families}
        assert families == {spec.name for spec in WALK_FLAGS}


def _names(case: Case) -> set[str]:
    return {n.path.rsplit("/", 1)[-1] for n in case.tree.nodes}


def _nodes(case: Case, kind: type, base: str | None = None) -> list[Node]:
    return [n for n in case.tree.nodes if isinstance(n, kind) and (base is None or n.path.endswith("/" + base))]


def _bytes(node: File) -> bytes:
    return b"".join(p for p in node.content if isinstance(p, bytes))


def _rule_files(case: Case) -> list[bytes]:
    """Returns the contents of every ignore file, global excludes file and --ignore-file file."""
    kinds = (".gitignore", ".ignore", ".rgignore", "exclude", "ignore", "global-excludes")
    return [_bytes(n) for n in case.tree.nodes if isinstance(n, File) and n.path.rsplit("/", 1)[-1].endswith(kinds)]


def _rule_lines(case: Case) -> list[bytes]:
    return [line.rstrip(b"\r") for data in _rule_files(case) for line in data.split(b"\n")]


def _any_line(test: Callable[[bytes], bool]) -> Callable[[Case], bool]:
    return lambda c: any(test(line) for line in _rule_lines(c))


def _any_root(test: Callable[[str], bool]) -> Callable[[Case], bool]:
    return lambda c: any(isinstance(r, str) and test(r) for r in c.roots)


def _not_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


FEATURES: dict[str, Callable[[Case], object]] = {
    # names
    "hidden .a": lambda c: ".a" in _names(c),
    "hidden ..foo": lambda c: "..foo" in _names(c),
    "dot-ended .a.": lambda c: ".a." in _names(c),
    "x..": lambda c: "x.." in _names(c),
    "space": lambda c: "a b" in _names(c),
    "NFC and NFD": lambda c: "caf\u00e9" in _names(c) or "cafe\u0301" in _names(c),
    "[ { } , # ! in names": lambda c: {"[x]", "{a,b}", "c,d", "#hash", "!bang", "}"} & _names(c),
    "backslash": lambda c: "back\\slash" in _names(c),
    "trailing space": lambda c: "trail " in _names(c),
    "non-UTF-8 name": lambda c: any(_not_utf8(os.fsencode(n)) for n in _names(c)),
    # ignore files and repos
    ".gitignore": lambda c: bool(_nodes(c, File, ".gitignore")),
    ".ignore": lambda c: bool(_nodes(c, File, ".ignore")),
    ".rgignore": lambda c: bool(_nodes(c, File, ".rgignore")),
    "info/exclude": lambda c: any(n.path.endswith("/info/exclude") for n in c.tree.nodes),
    ".git dir": lambda c: bool(_nodes(c, Dir, ".git")),
    ".git file, empty": lambda c: any(not n.content for n in _nodes(c, File, ".git")),
    ".git file, gitdir": lambda c: any(b"gitdir:" in _bytes(n) for n in _nodes(c, File, ".git")),
    "commondir": lambda c: bool(_nodes(c, File, "commondir")),
    ".jj dir": lambda c: bool(_nodes(c, Dir, ".jj")),
    "~/.gitconfig": lambda c: bool(_nodes(c, File, ".gitconfig")),
    "~/.config/git/ignore": lambda c: any(n.path.endswith(".config/git/ignore") for n in c.tree.nodes),
    "cwd below top": lambda c: c.invocation.cwd != WORK,
    # symlinks and others
    "symlink": lambda c: bool(_nodes(c, Symlink)),
    "broken symlink": lambda c: any(n.target == "missing-target" for n in _nodes(c, Symlink)),
    "symlink loop": lambda c: any(isinstance(n.target, str) and n.target.startswith("..") and n.target_is_dir for n in _nodes(c, Symlink)),
    "fifo": lambda c: bool(_nodes(c, Fifo)),
    ".git symlink": lambda c: bool(_nodes(c, Symlink, ".git")),
    "ignore file that is a dir": lambda c: any(_nodes(c, Dir, k) for k in (".gitignore", ".ignore", ".rgignore")),
    "degenerate rule": _any_line(lambda l: l.lstrip(b"!") in (b"/", b"//", b"{}", b"{,}", b"[]")),
    # rule grammar
    "negation": _any_line(lambda l: l.startswith(b"!")),
    "anchored": _any_line(lambda l: l.startswith(b"/")),
    "dir-only": _any_line(lambda l: l.endswith(b"/")),
    "**": _any_line(lambda l: b"**" in l),
    "class": _any_line(lambda l: b"[" in l and b"]" in l),
    "[/]": _any_line(lambda l: b"[/]" in l),
    "braces": _any_line(lambda l: b"{" in l and b"," in l),
    "\\! \\#": _any_line(lambda l: l[:2] in (b"\\!", b"\\#")),
    "escaped trailing space": _any_line(lambda l: l.endswith(b"\\ ")),
    "trailing tab": _any_line(lambda l: l.endswith(b"\t")),
    "comment": _any_line(lambda l: l.startswith(b"#")),
    "blank line": _any_line(lambda l: l == b""),
    "invalid glob": _any_line(lambda l: l in (b"[z-a]", b"foo\\", b"{a,b")),
    "CRLF": lambda c: any(b"\r\n" in d for d in _rule_files(c)),
    "BOM": lambda c: any(d.startswith(b"\xef\xbb\xbf") for d in _rule_files(c)),
    "invalid UTF-8 line": lambda c: any(_not_utf8(d) for d in _rule_files(c)),
    # roots
    "no root": lambda c: not c.roots,
    "root .": _any_root(lambda r: r == "."),
    "root ./": _any_root(lambda r: r == "./"),
    "root dir/": _any_root(lambda r: r.endswith("/") and not r.endswith("//") and r != "./"),
    "root dir//": _any_root(lambda r: r.endswith("//")),
    "root ./dir": _any_root(lambda r: r.startswith("./") and len(r) > 2),
    "root dir/../dir": _any_root(lambda r: "/../" in r),
    "root missing": _any_root(lambda r: "missing" in r),
    "root absolute": lambda c: any(isinstance(r, CasePath) for r in c.roots),
    "root given twice": lambda c: len(c.roots) != len(set(map(repr, c.roots))),
    "several roots": lambda c: len(c.roots) > 1,
}
"""What the generated cases must contain somewhere, each with a test over one case."""


def _outcome(reference: RunResult, candidate: RunResult):
    from types import SimpleNamespace

    from benchmarks.parity.batch import CaseOutcome
    from benchmarks.parity.runner import Comparison

    return CaseOutcome(SimpleNamespace(patterns=("x",)),
                       Comparison(None, ("x",), "", reference, candidate, ""))


def test_an_rg_panic_is_a_documented_cause() -> None:
    from benchmarks.parity.content import known_class

    answered = RunResult(0, b"x\n", b"", 0.0)
    panic = RunResult(101, b"", b"\nthread 'main' (1) panicked at crates/printer/src/json.rs:874:30:\n", 0.0)
    assert known_class(_outcome(panic, answered)) == "rg panicked"
    # Exit 101 without a panic message, or a panic message with another status: unexplained.
    assert known_class(_outcome(RunResult(101, b"", b"", 0.0), answered)) is None
    assert known_class(_outcome(RunResult(2, b"", panic.stderr, 0.0), answered)) is None
