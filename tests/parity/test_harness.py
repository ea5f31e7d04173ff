"""Self-tests of the parity harness, independent of shellfree: it must agree when the candidate *is*
rg, disagree when the candidate is subtly wrong, replay cases faithfully, and generate what it claims.
"""

from __future__ import annotations

import collections
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from benchmarks.parity.batch import CaseOutcome, describe, run_batch, run_one
from benchmarks.parity.reference import ReferenceRg
from benchmarks.parity.runner import Invocation, IsolationError, ParityRunner, check_isolated
from benchmarks.parity.scenario import build_tree
from benchmarks.parity.trees import WORK, CasePath, File, FsCapabilities, Symlink
from benchmarks.parity.walk_cases import WALK_FLAGS, case_seed, walk_case

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
def self_runner(reference_rg: ReferenceRg):
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

    def test_environment_is_scrubbed(self, reference_rg: ReferenceRg, tmp_path: Path, monkeypatch) -> None:
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
def test_replay_script_reproduces_reference_output(self_runner: ParityRunner) -> None:
    """The script in the report must recreate the case: run it and compare with the runner's result."""
    checked = 0
    for seed in SELF_SEEDS[:25]:
        outcome = run_one(self_runner, walk_case, seed)
        if _mentions_case_dir(outcome):
            continue  # absolute paths differ between the two temp dirs
        script = outcome.case.to_shell()
        env = dict(os.environ, RG=self_runner.reference.path)
        proc = subprocess.run(["bash", "-c", script], capture_output=True, env=env, stdin=subprocess.DEVNULL)
        stdout, _, status = proc.stdout.rpartition(b"exit=")
        assert stdout == outcome.comparison.reference.stdout, f"seed {seed}\n{script}"
        assert int(status) == outcome.comparison.reference.exit_code, f"seed {seed}"
        checked += 1
    assert checked >= 10


def _mentions_case_dir(outcome: CaseOutcome) -> bool:
    case = outcome.case
    in_args = any(isinstance(a, CasePath) for a in case.invocation.args)
    in_tree = any(
        (isinstance(n, File) and any(isinstance(p, CasePath) for p in n.content))
        or (isinstance(n, Symlink) and isinstance(n.target, CasePath))
        for n in case.tree.nodes
    )
    return in_args or in_tree


class TestGenerator:
    def test_same_seed_same_case(self) -> None:
        assert walk_case(123, ALL_CAPS) == walk_case(123, ALL_CAPS)
        assert walk_case(123, ALL_CAPS).to_shell() == walk_case(123, ALL_CAPS).to_shell()
        assert walk_case(123, ALL_CAPS) != walk_case(124, ALL_CAPS)

    def test_generator_covers_the_brief(self) -> None:
        """Over 400 seeds, every feature the parity brief lists shows up at least once."""
        seen: collections.Counter[str] = collections.Counter()
        for i in range(400):
            case = walk_case(case_seed(5, i), ALL_CAPS)
            _tally(case, seen)
        wanted = {
            "hidden .a", "hidden ..foo", "dot-ended .a.", "x..", "space name", "NFD name", "bracket name",
            "brace name", "hash name", "bang name", "backslash name", "trailing space name", "non-utf8 name",
            ".gitignore", ".ignore", ".rgignore", "info/exclude", ".git dir", ".git file empty",
            ".git file gitdir", "commondir", ".jj", "symlink", "symlink to ancestor", "broken symlink",
            "fifo", "global gitconfig", "global default ignore", "CRLF", "BOM", "invalid utf8 line",
            "invalid glob", "negation", "anchored", "dir-only", "**", "class", "[/]", "brace rule",
            "escaped !/#", "escaped trailing space", "comment", "cwd below top",
            "root none", "root .", "root ./", "root //", "root ..", "root absolute", "root missing",
            "root twice", "several roots",
        } | {f"flag {spec.name}" for spec in WALK_FLAGS}
        missing = sorted(w for w in wanted if not seen[w])
        assert not missing, f"never generated: {missing}"


def _tally(case, seen: collections.Counter) -> None:  # type: ignore[no-untyped-def]
    names = {n.path.rsplit("/", 1)[-1] for n in case.tree.nodes}
    checks = {
        "hidden .a": ".a" in names, "hidden ..foo": "..foo" in names, "dot-ended .a.": ".a." in names,
        "x..": "x.." in names, "space name": "a b" in names, "NFD name": "cafe\u0301" in names,
        "bracket name": "[x]" in names, "brace name": "{a,b}" in names, "hash name": "#hash" in names,
        "bang name": "!bang" in names, "backslash name": "back\\slash" in names,
        "trailing space name": "trail " in names,
        "non-utf8 name": any("\udcff" in n or "\udce9" in n or "\udc80" in n for n in names),
        ".gitignore": ".gitignore" in names, ".ignore": ".ignore" in names, ".rgignore": ".rgignore" in names,
        "info/exclude": any(n.path.endswith("info/exclude") for n in case.tree.nodes),
        "commondir": "commondir" in names, "fifo": any(type(n).__name__ == "Fifo" for n in case.tree.nodes),
        "global gitconfig": ".gitconfig" in names,
        "global default ignore": any(n.path.endswith(".config/git/ignore") for n in case.tree.nodes),
        "cwd below top": case.invocation.cwd != "work",
    }
    for node in case.tree.nodes:
        base = node.path.rsplit("/", 1)[-1]
        kind = type(node).__name__
        if base == ".git":
            if kind == "Dir":
                checks[".git dir"] = True
            elif kind == "File" and not node.content:
                checks[".git file empty"] = True
            elif kind == "File" and b"gitdir:" in b"".join(p for p in node.content if isinstance(p, bytes)):
                checks[".git file gitdir"] = True
        if base == ".jj":
            checks[".jj"] = True
        if kind == "Symlink":
            checks["symlink"] = True
            checks["broken symlink"] = checks.get("broken symlink") or node.target == "missing-target"
            target = node.target if isinstance(node.target, str) else ""
            checks["symlink to ancestor"] = checks.get("symlink to ancestor") or target.startswith("..")
        if kind == "File" and base in (".gitignore", ".ignore", ".rgignore", "exclude", "ignore"):
            data = b"".join(p for p in node.content if isinstance(p, bytes))
            lines = data.split(b"\n")
            checks["CRLF"] = checks.get("CRLF") or b"\r\n" in data
            checks["BOM"] = checks.get("BOM") or data.startswith(b"\xef\xbb\xbf")
            checks["invalid utf8 line"] = checks.get("invalid utf8 line") or _invalid_utf8(data)
            checks["invalid glob"] = checks.get("invalid glob") or b"[z-a]" in data or b"{a,b\n" in data
            for line in lines:
                checks["negation"] = checks.get("negation") or line.startswith(b"!")
                checks["anchored"] = checks.get("anchored") or line.startswith(b"/")
                checks["dir-only"] = checks.get("dir-only") or line.rstrip(b"\r").endswith(b"/")
                checks["**"] = checks.get("**") or b"**" in line
                checks["class"] = checks.get("class") or (b"[" in line and b"]" in line)
                checks["[/]"] = checks.get("[/]") or b"[/]" in line
                checks["brace rule"] = checks.get("brace rule") or (b"{" in line and b"," in line)
                checks["escaped !/#"] = checks.get("escaped !/#") or line[:2] in (b"\\!", b"\\#")
                checks["escaped trailing space"] = checks.get("escaped trailing space") or line.endswith(b"\\ ")
                checks["comment"] = checks.get("comment") or line.startswith(b"#")
    args = case.invocation.args
    roots = _roots(args)
    checks["root none"] = not roots
    checks["root ."] = "." in roots
    checks["root ./"] = "./" in roots
    checks["root //"] = any(isinstance(r, str) and r.endswith("//") for r in roots)
    checks["root .."] = any(isinstance(r, str) and "/../" in r for r in roots)
    checks["root absolute"] = any(isinstance(r, CasePath) for r in roots)
    checks["root missing"] = any(isinstance(r, str) and "missing" in r for r in roots)
    checks["root twice"] = len(roots) != len(set(map(str, roots)))
    checks["several roots"] = len(roots) > 1
    flat = " ".join(a for a in args if isinstance(a, str))
    for spec in WALK_FLAGS:
        token = {"negation": "--no-hidden", "-u": "-u", "--follow": "-L"}.get(spec.name, spec.name)
        if spec.name == "negation":
            present = any(a in flat.split() for a in ("--no-hidden", "--ignore", "--require-git", "--no-follow", "--ignore-vcs", "--ignore-dot", "--ignore-parent", "--ignore-exclude", "--ignore-global", "--no-glob-case-insensitive"))
        elif spec.name == "--follow":
            present = "-L" in flat.split() or "--follow" in flat.split()
        elif spec.name == "--hidden":
            present = "--hidden" in flat.split() or "-." in flat.split()
        elif spec.name == "--max-depth":
            present = any(t.startswith(("--max-depth", "--maxdepth", "-d")) for t in flat.split())
        elif spec.name == "--glob":
            present = any(t.startswith(("-g", "--glob", "--iglob")) and not t.startswith("--glob-case") for t in flat.split())
        elif spec.name == "-u":
            present = any(t in ("-u", "-uu", "--unrestricted") for t in flat.split())
        else:
            present = any(t == token or t.startswith(token + "=") for t in flat.split())
        checks[f"flag {spec.name}"] = present
    for key, value in checks.items():
        if value:
            seen[key] += 1


def _invalid_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


VALUE_FLAGS = {"-g", "--glob", "--iglob", "--ignore-file", "--max-depth", "--maxdepth", "-d", "--sort"}


def _roots(args) -> list:  # type: ignore[no-untyped-def]
    """Returns the positional arguments of a generated case (they always come last)."""
    out = []
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        if isinstance(arg, str) and arg in VALUE_FLAGS:
            skip = True
            continue
        if isinstance(arg, str) and arg.startswith("-") and arg not in ("-",):
            continue
        out.append(arg)
    return out
