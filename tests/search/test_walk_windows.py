"""The walker's Windows rules, on any OS: directory entries as CPython presents them there
(tests/search/windows_listing.py), checked through ``shellfree rg --files`` with and without
a tree cache, since the cached walk reads its own listings (tree_cache.py)."""

from __future__ import annotations

import io
import ntpath
import os
import sys

import pytest

from shellfree.rgcli.run import run
from shellfree.search import walk
from shellfree.search.tree_cache import TreeCache
from tests.search.windows_listing import windows_listings

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="junctions stand in as symlinks")

CACHES = pytest.mark.parametrize("cached", [False, True], ids=["plain", "cached"])


def files(root, *args: str, cache: TreeCache | None = None) -> tuple[bytes, bytes]:
    out, err = io.BytesIO(), io.BytesIO()
    run([b"--files", b"--sort", b"path", *(a.encode() for a in args)], out, err,
        cwd=str(root), cache=cache)
    return out.getvalue(), err.getvalue()


@pytest.fixture
def junction_tree(tmp_path):
    """work/ holds a.txt and the junction j, which leads out of it to outside/secret.txt."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_bytes(b"outside secret\n")
    root = tmp_path / "work"
    root.mkdir()
    (root / "a.txt").write_bytes(b"inside\n")
    os.symlink(outside, root / "j")
    return root


class TestJunctions:
    """rg (Rust's FileType on Windows) takes a junction for a link, as a symlink; CPython's
    DirEntry calls it a directory, and the walk used to enter it without --follow."""

    @CACHES
    def test_a_junction_is_not_entered_without_follow(self, junction_tree, monkeypatch, cached):
        cache = TreeCache() if cached else None
        with windows_listings(monkeypatch, junctions={"j", b"j"}):
            assert files(junction_tree, cache=cache) == (b"a.txt\n", b"")

    def test_follow_enters_a_junction_as_a_link(self, junction_tree, monkeypatch):
        with windows_listings(monkeypatch, junctions={"j", b"j"}):
            assert files(junction_tree, "-L") == (b"a.txt\nj/secret.txt\n", b"")


class TestFollowedDirectories:
    """Under -L each directory is identified by (st_dev, st_ino); a Windows DirEntry's stat
    has both 0, so they come from os.stat there (expected outputs checked against rg 15.1 on
    the same tree, unsimulated)."""

    def test_a_link_to_an_ancestor_is_a_loop(self, tmp_path, monkeypatch):
        (tmp_path / "d" / "sub").mkdir(parents=True)
        (tmp_path / "d" / "sub" / "f").write_bytes(b"x\n")
        os.symlink("..", tmp_path / "d" / "sub" / "up")
        with windows_listings(monkeypatch):
            assert files(tmp_path, "-L") == (
                b"d/sub/f\n",
                b"rg: File system loop found: ./d/sub/up points to an ancestor ./d\n",
            )

    def test_one_file_system_enters_the_directories_of_the_root_device(self, tmp_path,
                                                                      monkeypatch):
        (tmp_path / "d").mkdir()
        (tmp_path / "d" / "f").write_bytes(b"x\n")
        (tmp_path / "a").write_bytes(b"x\n")
        with windows_listings(monkeypatch):
            assert files(tmp_path, "-L", "--one-file-system") == (b"a\nd/f\n", b"")


class TestHiddenAttribute:
    """rg on Windows hides an entry with the hidden attribute as it hides a leading dot
    (ripgrep #1847): skipped unless --hidden or an ignore file's whitelist keeps it."""

    @pytest.fixture
    def tree(self, tmp_path):
        for path in ("a.txt", "secret.txt", "d/f.txt", "shown/g.txt"):
            (tmp_path / path).parent.mkdir(exist_ok=True)
            (tmp_path / path).write_bytes(b"x\n")
        return tmp_path

    HIDDEN = {"secret.txt", b"secret.txt", "d", b"d"}

    @CACHES
    def test_skipped(self, tree, monkeypatch, cached):
        cache = TreeCache() if cached else None
        with windows_listings(monkeypatch, hidden=self.HIDDEN):
            assert files(tree, cache=cache) == (b"a.txt\nshown/g.txt\n", b"")

    @CACHES
    def test_kept_by_hidden_or_a_whitelist(self, tree, monkeypatch, cached):
        cache = TreeCache() if cached else None
        (tree / ".ignore").write_bytes(b"!secret.txt\n")
        with windows_listings(monkeypatch, hidden=self.HIDDEN):
            assert files(tree, cache=cache) == (b"a.txt\nsecret.txt\nshown/g.txt\n", b"")
            assert files(tree, "--hidden", cache=cache) == (
                b".ignore\na.txt\nd/f.txt\nsecret.txt\nshown/g.txt\n", b"")

    def test_a_followed_link_is_hidden_by_its_target(self, tree, monkeypatch):
        os.symlink("d", tree / "link")
        with windows_listings(monkeypatch, hidden=self.HIDDEN):
            assert files(tree, "-L") == (b"a.txt\nshown/g.txt\n", b"")


class TestPathJoins:
    """On Windows a path is handed to the OS as ``ntpath.join(base, path)``, the path the
    engine's confinement resolved and checked; the POSIX concatenation gave other files."""

    BASE = "C:\\base"

    @pytest.mark.parametrize("path", [b"\\x", b"/x", b"D:sub", b"C:sub", b"sub\\y", b"E:\\abs"])
    def test_the_os_is_given_the_joined_path(self, monkeypatch, path):
        # Every stat fails (there is no C: here); what matters is the path it was asked for.
        asked = []

        def stat(target, *args, **kwargs):
            asked.append(target)
            raise FileNotFoundError(2, "No such file or directory")

        with monkeypatch.context() as patch:
            patch.setattr(sys, "platform", "win32")
            patch.setattr(os, "sep", "\\")
            patch.setattr(os, "altsep", "/")
            patch.setattr(os, "path", ntpath)
            patch.setattr(os, "stat", stat)
            status = run([b"--files", path], io.BytesIO(), io.BytesIO(), cwd=self.BASE)
        assert status == 2
        assert asked and set(asked) == {ntpath.join(self.BASE.encode(), path)}, asked

    @pytest.mark.parametrize("ancestor, below", [
        (b"C:\\w", b"repo/sub"), (b"C:\\", b"w/repo/sub"), (b"C:\\w\\repo\\sub", b""),
    ])
    def test_parent_rules_see_slashes(self, monkeypatch, ancestor, below):
        # realpath gives C:\w\repo\sub; a parent's anchored rule (/repo/sub/x) matches the path
        # below it only with "/" between the components.
        monkeypatch.setattr(os, "sep", "\\")
        assert walk._below(b"C:\\w\\repo\\sub", ancestor) == below
