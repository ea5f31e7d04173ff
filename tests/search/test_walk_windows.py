"""The walker's Windows rules, on any OS: directory entries as CPython presents them there
(tests/search/windows_listing.py), checked through ``shellfree rg --files`` with and without
a tree cache, since the cached walk reads its own listings (tree_cache.py)."""

from __future__ import annotations

import io
import os
import sys

import pytest

from shellfree.rgcli.run import run
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
