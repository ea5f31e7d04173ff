"""FileTools(confine=True): no tool reads, searches, writes or patches outside the root.

Each escape is tried through every tool: a symlinked file, a symlinked directory, ``..``, an
absolute path, and (for patch) the paths inside a V4A patch. Nothing outside may be touched.
"""

from __future__ import annotations

import json
import os
import sys

import pytest

from shellfree import FileTools

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="symlinks need privileges")

SECRET = "outside secret\n"


@pytest.fixture
def setup(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET)
    root = tmp_path / "work"
    root.mkdir()
    (root / "inside.txt").write_text("inside\n")
    os.symlink(outside / "secret.txt", root / "file_link.txt")
    os.symlink(outside, root / "dir_link")
    return root, outside


ESCAPES = ["file_link.txt", "dir_link/secret.txt", "../outside/secret.txt", "ABS"]


def _path(spec, outside):
    return str(outside / "secret.txt") if spec == "ABS" else spec


def _snapshot(outside):
    return {p.name: p.read_bytes() for p in outside.iterdir()}


def _error(text):
    data = json.loads(text)
    assert "error" in data, data
    return data["error"]


@pytest.mark.parametrize("spec", ESCAPES)
def test_read_file_refuses_escapes(setup, spec):
    root, outside = setup
    ft = FileTools(root=root, confine=True)
    error = _error(ft.read_file(_path(spec, outside)))
    assert error.startswith("Read denied: ") and "outside the workspace root" in error
    assert "outside secret" not in error


@pytest.mark.parametrize("spec", ["dir_link", "../outside", "ABS_DIR", "inside.txt, ../outside"])
def test_search_files_refuses_escaping_roots(setup, spec):
    root, outside = setup
    ft = FileTools(root=root, confine=True)
    path = str(outside) if spec == "ABS_DIR" else spec
    error = _error(ft.search_files("secret", path=path))
    assert error.startswith("Search denied: ") and "outside the workspace root" in error


def test_search_inside_never_follows_links_out(setup):
    root, _ = setup
    ft = FileTools(root=root, confine=True)
    data = json.loads(ft.search_files("secret"))
    assert data["total_count"] == 0, data  # the links are not followed while walking


def test_inside_paths_still_work(setup):
    root, _ = setup
    ft = FileTools(root=root, confine=True)
    assert json.loads(ft.read_file("inside.txt"))["content"] == "1|inside"
    assert json.loads(ft.search_files("inside", path="."))["total_count"] == 1


def test_without_confinement_links_are_read(setup):
    root, _ = setup
    ft = FileTools(root=root)
    assert "outside secret" in json.loads(ft.read_file("file_link.txt"))["content"]


@pytest.mark.parametrize("spec", ESCAPES)
def test_write_file_refuses_escapes(setup, spec):
    root, outside = setup
    before = _snapshot(outside)
    ft = FileTools(root=root, confine=True)
    error = _error(ft.write_file(_path(spec, outside), "overwritten\n"))
    assert error.startswith("Write denied: ") and "outside the workspace root" in error
    assert _snapshot(outside) == before


def test_write_file_refuses_a_new_file_under_a_linked_directory(setup):
    root, outside = setup
    ft = FileTools(root=root, confine=True)
    _error(ft.write_file("dir_link/new.txt", "x\n"))
    assert not (outside / "new.txt").exists()


@pytest.mark.parametrize("spec", ESCAPES)
def test_patch_replace_refuses_escapes(setup, spec):
    root, outside = setup
    before = _snapshot(outside)
    ft = FileTools(root=root, confine=True)
    ft.read_file(_path(spec, outside))  # refused too; the patch must not depend on it
    error = _error(ft.patch(path=_path(spec, outside), old_string="outside", new_string="pwned"))
    assert "outside the workspace root" in error
    assert _snapshot(outside) == before


@pytest.mark.parametrize("header", ["Update File: file_link.txt", "Update File: dir_link/secret.txt",
                                    "Add File: dir_link/added.txt", "Delete File: file_link.txt",
                                    "ABS"])
def test_v4a_paths_are_confined_and_nothing_is_applied(setup, header):
    root, outside = setup
    before = _snapshot(outside)
    if header == "ABS":
        header = f"Update File: {outside / 'secret.txt'}"
    body = "+added\n" if header.startswith("Add") else "" if header.startswith("Delete") else (
        "@@\n-outside secret\n+pwned\n")
    patch = (
        "*** Begin Patch\n"
        "*** Update File: inside.txt\n@@\n-inside\n+changed\n"
        f"*** {header}\n{body}"
        "*** End Patch\n"
    )
    ft = FileTools(root=root, confine=True)
    ft.read_file("inside.txt")
    error = _error(ft.patch(mode="patch", patch=patch))
    assert "outside the workspace root" in error or "traversal" in error.lower(), error
    assert _snapshot(outside) == before
    assert (root / "inside.txt").read_text() == "inside\n"  # all or nothing
    assert (root / "file_link.txt").is_symlink()


def test_a_junction_is_not_followed_out_of_the_root(setup, monkeypatch):
    # On Windows a directory junction is a directory to CPython's DirEntry but a link to rg;
    # walked as a directory, it took the search out of the confined root.
    from tests.search.windows_listing import windows_listings

    root, _ = setup
    ft = FileTools(root=root, confine=True)
    with windows_listings(monkeypatch, junctions={"dir_link", b"dir_link"}):
        data = json.loads(ft.search_files("secret"))
    assert data["total_count"] == 0, data
