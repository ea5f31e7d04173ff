"""Tests for search/walk.py: each rule of rg-semantics.md §1 on its own.

Every scenario runs twice — through ``shellfree rg --files --sort path`` in-process and through
the reference rg 15.1 binary — and asserts both print the expected list, which is the result the
spec states (so the expectation is checked against rg, never copied from our own run).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading

import pytest

from tests.conftest import returns_promptly, run_rg, run_shellfree

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths and symlinks")


def make(tree: dict[str, str | None]) -> None:
    """Create files (str content), directories (None, keys ending in "/") and symlinks ("-> T")."""
    for path, content in tree.items():
        if path.endswith("/"):
            os.makedirs(path, exist_ok=True)
            continue
        parent = os.path.dirname(path)
        if parent:
            os.makedirs(parent, exist_ok=True)
        if isinstance(content, str) and content.startswith("-> "):
            os.symlink(content[3:], path)
        else:
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(content or "")


def check(reference_rg, args, expected_lines, expected_status=None, stderr_empty=True):
    argv = ["--files", "--sort", "path", *args]
    ours = run_shellfree(argv)
    theirs = run_rg(reference_rg, argv)
    expected = b"".join(line.encode() + b"\n" for line in expected_lines)
    assert theirs[0] == expected, ("reference rg disagrees with the spec", theirs)
    assert ours[0] == expected, ("shellfree", ours, "rg", theirs)
    assert ours[2] == theirs[2]
    if expected_status is not None:
        assert ours[2] == expected_status
    assert (ours[1] == b"") == (theirs[1] == b"") == stderr_empty, (ours[1], theirs[1])
    return ours, theirs


class TestRoots:
    def test_implicit_root_strips_dot_slash(self, isolated, reference_rg):
        make({"a.txt": "x", "d/b.txt": "x"})
        check(reference_rg, [], ["a.txt", "d/b.txt"])

    @pytest.mark.parametrize("root, shown", [(".", "./"), ("./", "./"), ("d", "d/"), ("d/", "d/"), ("d//", "d//"), ("d/../d", "d/../d/")])
    def test_explicit_root_printed_as_typed(self, isolated, reference_rg, root, shown):
        make({"d/b.txt": "x"})
        expected = ["d/b.txt"] if root in (".", "./") else []
        expected = [shown + ("d/b.txt" if root in (".", "./") else "b.txt")]
        check(reference_rg, [root], expected)

    def test_several_roots_in_order_and_file_root(self, isolated, reference_rg):
        make({"z/a": "x", "a/b": "x", "f": "x"})
        check(reference_rg, ["z", "f", "a", "z"], ["z/a", "f", "a/b", "z/a"])

    def test_missing_root_is_an_error(self, isolated, reference_rg):
        ours, theirs = check(reference_rg, ["nope"], [], expected_status=2, stderr_empty=False)
        assert ours[1] == theirs[1] == (
            b"rg: nope: IO error for operation on nope: No such file or directory (os error 2)\n"
        )

    def test_symlink_root_is_followed(self, isolated, reference_rg):
        make({"real/f": "x", "link": "-> real", "flink": "-> real/f"})
        check(reference_rg, ["link", "flink"], ["link/f", "flink"])

    def test_max_depth(self, isolated, reference_rg):
        make({"a": "x", "d/b": "x", "d/e/c": "x"})
        check(reference_rg, ["--max-depth", "2"], ["a", "d/b"])
        check(reference_rg, ["--max-depth", "0", "a"], ["a"])


class TestHidden:
    def test_hidden_skipped_but_dot_ended_names_are_not_hidden(self, isolated, reference_rg):
        make({".h": "x", ".a.": "x", "x..": "x", "..foo": "x", ".dir./in": "x", ".hd/f": "x"})
        check(reference_rg, [], [".a.", ".dir./in", "x.."])

    def test_root_never_hidden(self, isolated, reference_rg):
        make({".hd/f": "x", ".hd/.g": "x"})
        check(reference_rg, [".hd"], [".hd/f"])

    def test_hidden_flag(self, isolated, reference_rg):
        make({".h": "x", ".git/HEAD": "x"})
        check(reference_rg, ["--hidden"], [".git/HEAD", ".h"])

    def test_whitelist_overrides_hidden(self, isolated, reference_rg):
        make({".ignore": "!.foo\n", ".foo": "x", ".bar": "x"})
        check(reference_rg, [], [".foo"])

    def test_positive_glob_overrides_hidden_but_not_for_hidden_dirs(self, isolated, reference_rg):
        make({".g.txt": "x", ".hid/f.txt": "x"})
        check(reference_rg, ["-g", "*.txt"], [".g.txt"])


class TestSymlinks:
    def test_links_not_followed_while_walking(self, isolated, reference_rg):
        make({"real/f": "x", "ldir": "-> real", "lfile": "-> real/f", "broken": "-> nowhere"})
        check(reference_rg, [], ["real/f"])

    def test_follow(self, isolated, reference_rg):
        make({"real/f": "x", "ldir": "-> real", "lfile": "-> real/f"})
        check(reference_rg, ["-L"], ["ldir/f", "lfile", "real/f"])

    def test_follow_broken_link_is_an_error(self, isolated, reference_rg):
        make({"a": "x", "broken": "-> nowhere"})
        check(reference_rg, ["-L"], ["a"], expected_status=2, stderr_empty=False)

    def test_follow_loop_is_an_error(self, isolated, reference_rg):
        make({"up/f": "x", "up/sym": "-> .."})
        ours, theirs = check(
            reference_rg, ["-L"], ["up/f"], expected_status=2, stderr_empty=False
        )
        assert ours[1] == theirs[1]


class TestIgnoreFiles:
    def test_gitignore_needs_a_repo(self, isolated, reference_rg):
        make({".gitignore": "a\n", "a": "x", "b": "x"})
        check(reference_rg, [], ["a", "b"])
        os.mkdir(".git")
        check(reference_rg, [], ["b"])
        check(reference_rg, ["--no-ignore-vcs"], ["a", "b"])

    @pytest.mark.parametrize("marker", [".git/", ".jj/"])
    def test_repo_markers(self, isolated, reference_rg, marker):
        make({".gitignore": "a\n", "a": "x", "b": "x", marker: None})
        check(reference_rg, [], ["b"])

    def test_git_file_counts_as_repo(self, isolated, reference_rg):
        make({".gitignore": "a\n", "a": "x", "b": "x", ".git": ""})
        check(reference_rg, [], ["b"])

    def test_no_require_git(self, isolated, reference_rg):
        make({".gitignore": "a\n", "a": "x", "b": "x"})
        check(reference_rg, ["--no-require-git"], ["b"])

    def test_category_beats_depth(self, isolated, reference_rg):
        # A top-level .ignore whitelist beats a deeper .gitignore rule.
        make({".git/": None, ".ignore": "!a.txt\n", "sub/.gitignore": "*.txt\n", "sub/a.txt": "x", "sub/b.txt": "x"})
        check(reference_rg, [], ["sub/a.txt"])

    def test_rgignore_beats_ignore(self, isolated, reference_rg):
        make({".ignore": "*.txt\n", ".rgignore": "!b.txt\na.txt\n", "a.txt": "x", "b.txt": "x", "c.txt": "x"})
        check(reference_rg, [], ["b.txt"])

    def test_nearest_wins_within_a_category(self, isolated, reference_rg):
        make({".ignore": "*.txt\n", "sub/.ignore": "!a.txt\n", "sub/a.txt": "x", "a.txt": "x"})
        check(reference_rg, [], ["sub/a.txt"])

    def test_exclude_and_gitignore_precedence(self, isolated, reference_rg):
        make({".git/info/exclude": "!c.txt\nd.txt\n", ".gitignore": "*.txt\n", "c.txt": "x", "d.txt": "x", "e": "x"})
        check(reference_rg, [], ["e"])
        check(reference_rg, ["--no-ignore-exclude"], ["e"])

    def test_worktree_git_file_exclude(self, isolated, reference_rg):
        make({
            "main/info/exclude": "ignored\n",
            "wt/.git": "gitdir: ../meta\n",
            "meta/commondir": "../main\n",
            "wt/ignored": "x",
            "wt/kept": "x",
        })
        # rg resolves a relative gitdir against the working directory (rg r1446).
        os.chdir("wt")
        os.makedirs("../meta", exist_ok=True)
        check(reference_rg, [], ["kept"])

    def test_nested_repo_boundary(self, isolated, reference_rg):
        make({".git/": None, ".gitignore": "*.log\n", "a.log": "x", "inner/.git/": None, "inner/b.log": "x", "inner/.ignore": "", "c.log.keep": "x"})
        check(reference_rg, [], ["c.log.keep", "inner/b.log"])

    def test_parent_gitignore_applies_from_a_subdirectory(self, isolated, reference_rg):
        make({".git/": None, ".gitignore": "/sub/z.txt\n", "sub/z.txt": "x", "sub/y.txt": "x"})
        os.chdir("sub")
        check(reference_rg, [], ["y.txt"])
        check(reference_rg, ["--no-ignore-parent"], ["y.txt", "z.txt"])

    def test_parent_ignore_crosses_repo_boundary_but_gitignore_does_not(self, isolated, reference_rg):
        make({".gitignore": "a\n", ".rgignore": "b\n", "r/.git/": None, "r/a": "x", "r/b": "x", "r/c": "x"})
        os.chdir("r")
        check(reference_rg, [], ["a", "c"])

    def test_ignored_root_children_but_not_root(self, isolated, reference_rg):
        make({".git/": None, ".gitignore": "build/\n", "build/x": "x"})
        check(reference_rg, [], [])
        check(reference_rg, ["build"], ["build/x"])

    def test_bad_glob_in_gitignore_warns_keeps_other_rules(self, isolated, reference_rg):
        make({".git/": None, ".gitignore": "[z-a]\nfoo\n", "foo": "x", "bar": "x"})
        ours, theirs = check(reference_rg, [], ["bar"], expected_status=0, stderr_empty=False)
        assert ours[1] == theirs[1] == (
            b"rg: ./.gitignore: line 1: error parsing glob '[z-a]': invalid range; 'z' > 'a'\n"
        )

    def test_invalid_utf8_line_ends_the_file(self, isolated, reference_rg):
        make({".ignore": ""})
        with open(".ignore", "wb") as f:
            f.write(b"a\nb\xff\nc\n")
        make({"a": "x", "c": "x", "d": "x"})
        check(reference_rg, [], ["c", "d"])

    def test_global_excludes_anchor_at_cwd(self, isolated, reference_rg, tmp_path):
        home = tmp_path / "home"
        (home / ".config" / "git").mkdir(parents=True)
        (home / ".config" / "git" / "ignore").write_text("/b.txt\n*.gx\n")
        make({".git/": None, "a.gx": "x", "b.txt": "x", "d/b.txt": "x"})
        check(reference_rg, [], ["d/b.txt"])
        os.chdir("d")
        check(reference_rg, [], [], expected_status=1)

    def test_core_excludesfile_from_gitconfig(self, isolated, reference_rg, tmp_path):
        (tmp_path / "home" / ".gitconfig").write_text('[core]\n\texcludesFile = "~/ex"\n')
        (tmp_path / "home" / "ex").write_text("*.gx\n")
        make({".git/": None, "a.gx": "x", "b": "x"})
        check(reference_rg, [], ["b"])

    def test_ignore_file_flag(self, isolated, reference_rg):
        make({"ig1": "*.log\n", "ig2": "!keep.log\n", "a.log": "x", "keep.log": "x"})
        check(reference_rg, ["--ignore-file", "ig1", "--ignore-file", "ig2"], ["ig1", "ig2", "keep.log"])
        ours, theirs = check(
            reference_rg, ["--ignore-file", "missing"], ["a.log", "ig1", "ig2", "keep.log"], stderr_empty=False
        )
        assert ours[1] == theirs[1]


class TestGlobs:
    def test_last_glob_wins(self, isolated, reference_rg):
        make({"src/c.txt": "x", "src/sub/d.txt": "x", "a.txt": "x"})
        check(reference_rg, ["-g", "*.txt", "-g", "!src/**"], ["a.txt"])
        # "!src/**" excludes what is inside src (pruning src/sub), not src itself.
        check(reference_rg, ["-g", "!src/**", "-g", "*.txt"], ["a.txt", "src/c.txt"])

    def test_glob_with_slash_is_anchored_at_cwd(self, isolated, reference_rg):
        make({"src/c.txt": "x", "src/sub/d.txt": "x"})
        check(reference_rg, ["-g", "src/*.txt"], ["src/c.txt"])

    def test_iglob(self, isolated, reference_rg):
        make({"A.TXT": "x", "b.md": "x"})
        check(reference_rg, ["--iglob", "*.txt"], ["A.TXT"])
        check(reference_rg, ["-g", "*.txt", "--glob-case-insensitive"], ["A.TXT"])

    def test_glob_overrides_ignore_files(self, isolated, reference_rg):
        make({".ignore": "*.txt\n", "a.txt": "x"})
        check(reference_rg, ["-g", "*.txt"], ["a.txt"])

    def test_comment_glob_is_ignored(self, isolated, reference_rg):
        make({"a.txt": "x"})
        check(reference_rg, ["-g", "#a.txt"], ["a.txt"])

    def test_bad_glob_is_fatal(self, isolated, reference_rg):
        make({"a.txt": "x"})
        ours, theirs = check(reference_rg, ["-g", "[a"], [], expected_status=2, stderr_empty=False)
        assert ours[1] == theirs[1] == b"rg: error parsing glob '[a': unclosed character class; missing ']'\n"


class TestFlags:
    def test_unknown_flag(self, isolated, reference_rg):
        ours, theirs = check(reference_rg, ["--frobnicate"], [], expected_status=2, stderr_empty=False)
        assert ours[1] == theirs[1] == b"rg: unrecognized flag --frobnicate\n"

    def test_null_separator(self, isolated, reference_rg):
        make({"a": "x", "b": "x"})
        argv = ["--files", "--sort", "path", "--null"]
        assert run_shellfree(argv)[0] == run_rg(reference_rg, argv)[0] == b"a\0b\0"

    def test_max_filesize(self, isolated, reference_rg):
        # Skipped: walked files larger than the size, after the ignore rules and globs; kept: a
        # path named on the command line, directories, a symlink followed by -L sized as its
        # target (walk parity --extended seed 3 drew the flag).
        make({"small": "x" * 1024, "exact": "x" * 2048, "over": "x" * 2049, "d/over": "x" * 3000,
              ".hidden": "x" * 5000, "ignored": "x" * 5000, ".ignore": "ignored\n",
              "link": "-> over"})
        check(reference_rg, ["--max-filesize", "2K"], ["exact", "small"])
        check(reference_rg, ["--max-filesize", "2K", "over", "d"], ["over"])
        check(reference_rg, ["--max-filesize", "2K", "-L", "--hidden", "-g", "!ignored"],
              [".ignore", "exact", "small"])
        check(reference_rg, ["--max-filesize", "3000", "-L"], ["d/over", "exact", "link", "over",
                                                              "small"])
        check(reference_rg, ["--max-filesize", "0"], [], expected_status=1)
        for args in (["-c", "x", "--max-filesize", "1K"], ["-l", "x", "--max-filesize", "3K", "."],
                     ["-c", "x", "--max-filesize", "1K", "over"]):
            assert run_shellfree(["--sort", "path", *args]) == run_rg(
                reference_rg, ["--sort", "path", *args]), args
        # Unsorted, the command line forks workers that walk subtrees (of a tree of 256 files
        # or more).
        make({f"many{i}/{j}": "x" * (i * 10 + j) * 20 for i in range(20) for j in range(15)})
        argv = ["--files", "--max-filesize", "2K", "-j2"]
        forked = subprocess.run([sys.executable, "-m", "shellfree", "rg", *argv],
                                capture_output=True, check=False)
        expected = sorted(run_rg(reference_rg, argv)[0].splitlines())
        assert sorted(forked.stdout.splitlines()) == expected

    @pytest.mark.parametrize("value", [
        "2x", "-1", "1.5K", "2k", "", "K", " 2K", "١٢", "99999999999999999999",
        "18446744073709551615", "18446744073709551616", "17179869183G", "17179869184G",
        "20000000000G", "1T",
    ])
    def test_max_filesize_values(self, isolated, reference_rg, value):
        make({"a": "x" * 3000})
        argv = ["--files", f"--max-filesize={value}"]
        assert run_shellfree(argv) == run_rg(reference_rg, argv)

    def test_max_filesize_is_tested_afresh_on_a_warm_walk(self, isolated):
        # A file grows without its directory changing: the cached walk must not replay it.
        from shellfree.rgcli.run import run
        from shellfree.search.tree_cache import TreeCache

        make({"a": "x", "b": "x"})
        cache = TreeCache()

        def files() -> bytes:
            out = io.BytesIO()
            run([b"--files", b"--sort", b"path", b"--max-filesize", b"10"], out, io.BytesIO(),
                cwd=os.getcwd(), cache=cache)
            return out.getvalue()

        assert files() == files() == b"a\nb\n"
        with open("a", "a") as grown:
            grown.write("y" * 20)
        assert files() == b"b\n"

    @pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
    def test_an_ignore_file_that_is_a_fifo(self, isolated, reference_rg):
        # Found in the tree, rg opens it and waits for a writer, forever if none comes:
        # shellfree reads what a writer has written so far, without waiting. Named by
        # --ignore-file (a pipe: --ignore-file <(...)), it is read as rg reads it.
        make({"x": "x", "y.log": "x", "z.tmp": "x"})
        os.mkfifo(".ignore")

        def files_promptly(argv):
            return sorted(returns_promptly(lambda: run_shellfree(argv), ".ignore")[0].splitlines())

        assert files_promptly(["--files"]) == [b"x", b"y.log", b"z.tmp"]  # no writer
        writer = os.open(".ignore", os.O_RDWR)  # a writer that keeps it open
        try:
            os.write(writer, b"*.log\n")
            assert files_promptly(["--files"]) == [b"x", b"z.tmp"]
        finally:
            os.close(writer)
        os.unlink(".ignore")
        os.mkfifo("rules")
        for candidate in ("ours", "rg"):
            def feed():
                with open("rules", "wb") as pipe:  # waits for the reader, as a shell's would
                    pipe.write(b"*.tmp\n")

            feeder = threading.Thread(target=feed, daemon=True)
            feeder.start()
            argv = ["--files", "--sort", "path", "--ignore-file", "rules"]
            out = run_shellfree(argv) if candidate == "ours" else run_rg(reference_rg, argv)
            feeder.join(5)
            assert out == (b"x\ny.log\n", b"", 0), candidate
        if os.path.exists("/dev/null"):
            argv = ["--files", "--sort", "path", "--ignore-file", "/dev/null"]
            assert run_shellfree(argv) == run_rg(reference_rg, argv)

    def test_no_ignore_messages(self, tmp_path, isolated, reference_rg):
        # Hides the warnings about ignore files (in the tree, --ignore-file), not the errors
        # about those above the root, which keep the exit status 2.
        make({".ignore": "b{\n", "sub/.ignore": "c{\n", "x": "x", "sub/y": "y"})
        for args in (["--files", "--no-ignore-messages"],
                     ["--files", "--no-ignore-messages", "--ignore-file", "nope"],
                     ["--files", "--no-ignore-messages", "--ignore-messages"],
                     ["-c", "x", "--no-ignore-messages"]):
            argv = ["--sort", "path", *args]
            ours, theirs = run_shellfree(argv), run_rg(reference_rg, argv)
            assert ours == theirs, args
        assert run_rg(reference_rg, ["--files", "--no-ignore-messages"])[1:] == (b"", 0)
        (tmp_path / ".ignore").write_text("a{\n")  # above the root
        argv = ["--files", "--sort", "path", "--no-ignore-messages"]
        ours, theirs = run_shellfree(argv), run_rg(reference_rg, argv)
        assert ours == theirs
        assert theirs[2] == 2 and theirs[1].count(b"\n") == 1

    @pytest.fixture
    def mounted(self, isolated):
        """``top/mnt``, a tmpfs mounted below the working directory (root and a mount command
        needed; skipped where a test may not mount)."""
        os.makedirs("top/mnt")
        try:
            subprocess.run(["mount", "-t", "tmpfs", "shellfree-test", "top/mnt"], check=True,
                           capture_output=True)
        except (OSError, subprocess.CalledProcessError) as err:
            pytest.skip(f"cannot mount a tmpfs here: {err}")
        try:
            yield "top/mnt"
        finally:
            subprocess.run(["umount", "top/mnt"], check=False, capture_output=True)

    def test_one_file_system(self, mounted, reference_rg):
        # walk parity --extended seed 3 drew the flag (3000013 and 63 more cases).
        make({"a": "x", "top/c": "x", "top/mnt/b": "x", "top/mnt/inner/c": "x",
              "link": "-> top/mnt", "top/mnt/.ignore": "z{\n"})
        check(reference_rg, ["--one-file-system"], ["a", "top/c"], stderr_empty=False)
        check(reference_rg, ["--one-file-system", "-L"], ["a", "top/c"], stderr_empty=False)
        check(reference_rg, ["--one-file-system", "top/mnt"], ["top/mnt/b", "top/mnt/inner/c"],
              stderr_empty=False)
        check(reference_rg, ["--one-file-system", "--no-one-file-system"],
              ["a", "top/c", "top/mnt/b", "top/mnt/inner/c"], stderr_empty=False)
        for args in (["--one-file-system"], ["--one-file-system", "-L", "-j1"],
                     ["--one-file-system", "-d", "2"], ["--one-file-system", "top/mnt", "."],
                     ["--one-file-system", "./link", "-L"], ["--one-file-system", "link"]):
            argv = ["--files", "--sort", "path", *args]
            assert run_shellfree(argv) == run_rg(reference_rg, argv), args
        # The mount point's ignore file is read (and its error reported), as at --max-depth.
        assert b"mnt/.ignore: line 1" in run_rg(reference_rg, ["--files", "--one-file-system"])[1]
        argv = ["--sort", "path", "-c", "x", "--one-file-system"]
        assert run_shellfree(argv) == run_rg(reference_rg, argv)

    def test_one_file_system_forked_and_cached(self, mounted, reference_rg):
        # Forked, the parent hands top/ to a worker, which meets the mount below it.
        from shellfree.rgcli.run import run
        from shellfree.search.tree_cache import TreeCache

        make({f"many{i}/{j}": "x" for i in range(20) for j in range(15)})
        make({f"top/mnt/many{i}/{j}": "x" for i in range(20) for j in range(15)})
        make({f"top/{j}": "x" for j in range(10)})
        argv = ["--files", "--one-file-system", "-j2"]
        forked = subprocess.run([sys.executable, "-m", "shellfree", "rg", *argv],
                                capture_output=True, check=False)
        expected = sorted(run_rg(reference_rg, argv)[0].splitlines())
        assert len(expected) == 310 and sorted(forked.stdout.splitlines()) == expected
        cache = TreeCache()
        for _ in range(2):  # cold, then warm
            out = io.BytesIO()
            run([b"--files", b"--sort", b"path", b"--one-file-system"], out, io.BytesIO(),
                cwd=os.getcwd(), cache=cache)
            assert sorted(out.getvalue().splitlines()) == expected

    def test_sort_modified(self, isolated, reference_rg):
        make({"old": "x", "new": "x"})
        os.utime("old", (1_000_000, 1_000_000))
        os.utime("new", (2_000_000, 2_000_000))
        for args in (["--sort", "modified"], ["--sortr", "modified"], ["--sortr", "path"]):
            argv = ["--files", *args]
            assert run_shellfree(argv)[0] == run_rg(reference_rg, argv)[0], args


class TestRegressionsFromTheHarness:
    """Cases the parity harness found; each names its seed."""

    def test_later_root_reuses_earlier_roots_parent_state(self, isolated, reference_rg):
        # seed 1000797 (rg 15.1 behaviour, fixed in 15.2): the second root's entries are
        # matched against parent rules as if they lay below the first root.
        make({".git/": None, ".gitignore": "/r2/x\n", "r1/x": "1", "r2/x": "2", "r2/y": "2"})
        check(reference_rg, ["r2"], ["r2/y"])
        check(reference_rg, ["r1", "r2"], ["r1/x", "r2/x", "r2/y"])  # r2/x seen as r1/x
        check(reference_rg, ["r2", "r1"], ["r2/y"])  # r1/x seen as r2/x

    def test_parent_state_lasts_only_while_the_root_before_holds_it(self, isolated, reference_rg):
        # seed 8000201 (walk --extended, and a script of roots in every order): rg 15.1 holds
        # its cache of the state above a root weakly, so a root reuses it only from the
        # directory root just before it; and the `./.` spelling garbles the parent rules' paths
        # for its own root only.
        make({".ignore": "/r/a/m\n", "r/a/k": "x", "r/a/m": "x", "r/c/k": "x"})
        os.chdir("r")
        check(reference_rg, ["a"], ["a/k"])
        check(reference_rg, ["c", "a"], ["c/k", "a/k", "a/m"])  # a/m seen as c/m
        check(reference_rg, ["c", "..", "a"], ["c/k", "../r/a/k", "../r/c/k", "a/k"])  # r replaced c's state
        check(reference_rg, ["c", "c/k", "a"], ["c/k", "c/k", "a/k"])  # a file root dropped it
        check(reference_rg, ["./.", "a"], ["././a/k", "././a/m", "././c/k", "a/k"])
        check(reference_rg, ["a", "./."], ["a/k", "././a/k", "././a/m", "././c/k"])
        check(reference_rg, [".//a"], [".//a/k"])

    def test_reverse_path_sort_orders_component_kinds_first(self, isolated, reference_rg):
        # seed 9000134 (walk --extended): --sortr path compares rg's Path components, where
        # the root "/" < a leading "." < ".." < any name, whatever their bytes.
        make({"d/k": "x", "a.txt": "x", "+b": "x"})
        absolute = os.path.join(os.getcwd(), "d")
        os.chdir("d")
        argv = ["--files", "--sortr", "path", "--", absolute, "./k", "../a.txt", "../+b", "k"]
        expected = f"k\n../a.txt\n../+b\n./k\n{absolute}/k\n".encode()
        assert run_rg(reference_rg, argv)[0] == expected
        assert run_shellfree(argv)[0] == expected

    def test_stdin_sorts_by_the_name_it_prints(self, isolated, reference_rg):
        # seed 3000199 (walk --extended): a sort that collects orders stdin by "<stdin>", and
        # takes its timestamp from a file of that name, not from one named "-".
        make({"a/y": "x", "_u/w": "x", "0dir/z": "x", "-": "x"})
        for path, seconds in (("0dir/z", 1), ("a/y", 3), ("_u/w", 5), ("-", 2)):
            os.utime(path, (seconds * 1_000_000, seconds * 1_000_000))
        roots = ["a", "-", "0dir", "_u"]
        reverse_path = ["--files", "--sortr", "path", *roots]
        assert run_rg(reference_rg, reverse_path)[0] == b"a/y\n_u/w\n<stdin>\n0dir/z\n"
        for stdin_stamp in (None, 4):
            if stdin_stamp is not None:
                make({"<stdin>": "x"})
                os.utime("<stdin>", (stdin_stamp * 1_000_000, stdin_stamp * 1_000_000))
            for args in (["--sortr", "path"], ["--sort", "modified"], ["--sortr", "modified"]):
                argv = ["--files", *args, *roots]
                assert run_shellfree(argv)[0] == run_rg(reference_rg, argv)[0], (args, stdin_stamp)
        argv = ["--files", "--sort", "modified", *roots]
        assert run_rg(reference_rg, argv)[0] == b"0dir/z\na/y\n<stdin>\n_u/w\n"

    def test_iglobs_come_after_globs(self, isolated, reference_rg):
        # seed 1000923: rg adds all -g globs, then all --iglob globs; the last match wins.
        make({"a.txt": "x", "b.md": "x"})
        check(reference_rg, ["--iglob", "*", "-g", "!*.txt"], ["a.txt", "b.md"])

    def test_invalid_utf8_reported_only_with_other_errors(self, isolated, reference_rg):
        # seed 1000923: a lone invalid line is dropped silently; next to a glob error it is
        # reported with it.
        with open(".ignore", "wb") as f:
            f.write(b"[z-a]\nok\n\xff\n")
        make({"ok": "x", "b": "x"})
        ours, theirs = check(reference_rg, [], ["b"], stderr_empty=False)
        assert ours[1] == theirs[1]

    def test_glob_dot_matches_newline_in_names(self, isolated, reference_rg):
        # seed 1001517: globset compiles with dot-matches-newline, so "**" matches "a\nb".
        make({".git/": None, ".gitignore": "/x/**\n", "x/new\nline": "", "keep": ""})
        check(reference_rg, [], ["keep"])

    @pytest.mark.parametrize("root", ["./.", ".//", "././", ".///", "./"])
    def test_odd_root_spellings(self, isolated, reference_rg, root):
        # Parity seeds with roots ./. and .//: rg strips "./" twice before matching, and
        # applies no rule from above such a root.
        make({"x/q/r": "", "x/q/s": "", "x/.ignore": "q/r\n", "ign": "x/q/s\n", "sub/.keep": ""})
        os.makedirs("sub/a", exist_ok=True)
        make({"sub/a/y": "", "sub/k": "", ".ignore": "sub/a\n"})
        argv_sets = [["--ignore-file", "ign", root]]
        for args in argv_sets:
            argv = ["--files", "--sort", "path", *args]
            assert run_shellfree(argv)[0] == run_rg(reference_rg, argv)[0], args
        os.chdir("sub")
        argv = ["--files", "--sort", "path", root]
        assert run_shellfree(argv)[0] == run_rg(reference_rg, argv)[0], root
