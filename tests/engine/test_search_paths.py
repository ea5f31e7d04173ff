"""Search roots: multi-root path strings, "Path not found" suggestions, macOS protected folders
(§5.3, §5.3.1, §5.3.2)."""

from __future__ import annotations

import os
import sys

import pytest

from shellfree.engine.search_roots import MACOS_PROTECTED_FOLDERS, split_multi_path
from tests.engine.conftest import search

TREE = {"src/a.py": "needle\n", "lib/b.py": "needle\n", "docs/c.md": "needle\n"}


class TestSplit:
    @pytest.mark.parametrize("path, parts", [
        ("src, lib", ["src", "lib"]), ("a b, c d ,", ["a b", "c d"]), ("src lib", ["src", "lib"]),
        ("src\tlib  docs", ["src", "lib", "docs"]), ("one", ["one"]),
    ])
    def test_commas_first_then_whitespace(self, path, parts):
        assert split_multi_path(path) == parts


class TestMultiRoot:
    def test_content_search_over_the_existing_parts(self, tools):
        ft = tools(TREE)
        out = search(ft, pattern="needle", path="src, lib")
        assert out == {"total_count": 2, "matches": [
            {"path": "src/a.py", "line": 1, "content": "needle"},
            {"path": "lib/b.py", "line": 1, "content": "needle"}],
            "warning": "path contained 2 entries; searched 2 that exist"}

    def test_missing_parts_are_named_up_to_three(self, tools):
        ft = tools(TREE)
        out = search(ft, pattern="needle", path="src nope1 nope2 nope3 nope4 nope5",
                     output_mode="files_only")
        assert out["warning"] == ("path contained 6 entries; searched 1 that exist; skipped "
                                  "missing: nope1, nope2, nope3 (+2 more)")

    def test_file_search_is_one_traversal(self, tools):
        ft = tools(TREE)
        out = search(ft, pattern="*.py", target="files", path="lib,src", limit=1)
        assert out == {
            "total_count": 2, "files": ["lib/b.py"], "truncated": True,
            "warning": "path contained 2 entries; searched 2 that exist",
            "_hint": "Results truncated. Use offset=1 to see more, or narrow with a more "
                     "specific pattern or file_glob."}

    def test_pagination_spans_the_roots(self, tools):
        ft = tools(TREE)
        pages = [search(ft, pattern="needle", path="src docs lib", limit=1, offset=n)
                 for n in range(3)]
        assert [p["matches"][0]["path"] for p in pages] == ["src/a.py", "docs/c.md", "lib/b.py"]
        assert all(p["total_count"] == 3 for p in pages)

    def test_the_multi_root_warning_replaces_probe_and_multiline_notes(self, tools):
        ft = tools(TREE)
        out = search(ft, pattern="NEEDLE", path="src lib")
        assert out == {"total_count": 0,
                       "warning": "path contained 2 entries; searched 2 that exist"}
        assert search(ft, pattern=r"needle\n", path="src lib")["warning"] == (
            "path contained 2 entries; searched 2 that exist")

    def test_an_error_is_returned_as_is(self, tools):
        ft = tools(TREE)
        out = search(ft, pattern="(", path="src lib")
        assert out["error"].startswith("Search failed: rg: regex parse error") and (
            "warning" not in out)

    def test_single_part_is_not_multi_root(self, tools):
        ft = tools(TREE)
        assert search(ft, pattern="x", path="src,")["error"] == (
            "Path not found: src,. Similar paths: ./src")

    def test_no_part_exists(self, tools):
        ft = tools(TREE)
        assert search(ft, pattern="x", path="nope, none")["error"] == "Path not found: nope, none"


class TestPathNotFound:
    def test_similar_names_from_the_parent(self, tools):
        # "srcs" contains the query, "sr" is contained in it, "SRC-old" starts with its first
        # three letters (ignoring case); "source" is none of these; hidden names are not listed.
        ft = tools({"srcs/x": "", "source/y": "", "sr/z": "", "other/w": "", ".srchid/v": "",
                    "SRC-old/u": ""})
        assert search(ft, pattern="x", path="src") == {
            "total_count": 0, "error": "Path not found: src. Similar paths: ./SRC-old, ./sr, ./srcs"}

    @pytest.mark.skipif(sys.platform == "win32", reason="symbolic links need privileges")
    def test_a_link_that_leads_nowhere_is_named_not_suggested(self, tools, root):
        ft = tools({"srcs/x": ""})
        os.symlink("gone", root / "src")
        assert search(ft, pattern="x", path="src") == {"total_count": 0, "error": (
            "Path not found: src (a symbolic link to 'gone', which does not exist). "
            "Similar paths: ./srcs")}

    def test_at_most_five_suggestions(self, tools):
        ft = tools({f"abc{i}/f": "" for i in range(8)})
        assert search(ft, pattern="x", path="abcz")["error"] == (
            "Path not found: abcz. Similar paths: ./abc0, ./abc1, ./abc2, ./abc3, ./abc4")

    def test_only_the_first_twenty_entries_are_considered(self, tools):
        ft = tools({**{f"a{i:02}/f": "" for i in range(20)}, "zzz-target/f": ""})
        assert search(ft, pattern="x", path="zzz")["error"] == "Path not found: zzz"

    def test_nested_and_absolute(self, tools, root):
        ft = tools({"pkg/module.py": ""})
        assert search(ft, pattern="x", path="pkg/modul")["error"] == (
            "Path not found: pkg/modul. Similar paths: pkg/module.py")
        assert search(ft, pattern="x", path=f"{root}/pkgg")["error"] == (
            f"Path not found: {root}/pkgg. Similar paths: {root}/pkg")

    def test_no_suggestions_for_a_trailing_slash_or_a_missing_parent(self, tools):
        ft = tools({"src/a": ""})
        assert search(ft, pattern="x", path="srcc/")["error"] == "Path not found: srcc/"
        assert search(ft, pattern="x", path="no/src")["error"] == "Path not found: no/src"

    def test_file_search_too(self, tools):
        ft = tools({"src/a": ""})
        assert search(ft, pattern="*", target="files", path="srcc")["error"] == (
            "Path not found: srcc. Similar paths: ./src")

    def test_tilde_is_expanded(self, tools, home):
        ft = tools()
        assert search(ft, pattern="x", path="~/nothing")["error"] == (
            f"Path not found: {home}/nothing")


class TestMacOS:
    @pytest.fixture
    def darwin_home(self, home, monkeypatch):
        monkeypatch.setattr(sys, "platform", "darwin")
        for name in ("Desktop", "Documents", "Music", "code"):
            (home / name).mkdir()
            (home / name / "f.txt").write_text("needle\n")
        return home

    def test_broad_search_prunes_protected_folders(self, tools, darwin_home):
        ft = tools()
        out = search(ft, pattern="needle", path=str(darwin_home))
        assert out == {
            "total_count": 1,
            "matches": [{"path": f"{darwin_home}/code/f.txt", "line": 1, "content": "needle"}],
            "warning": "Skipped macOS protected folders during broad search to avoid an "
                       "unattended privacy prompt: Desktop, Documents, Music. Search a protected "
                       "folder directly when access is intentional.",
        }

    def test_file_search_from_above_home(self, tools, darwin_home):
        ft = tools()
        out = search(ft, pattern="f.txt", target="files", path=str(darwin_home.parent))
        assert out["files"] == [f"{darwin_home}/code/f.txt"]
        assert "Desktop, Documents, Music" in out["warning"]

    def test_search_inside_a_protected_folder_is_allowed(self, tools, darwin_home):
        ft = tools()
        out = search(ft, pattern="needle", path=str(darwin_home / "Desktop"))
        assert out["total_count"] == 1 and "warning" not in out

    def test_joined_after_another_warning(self, tools, darwin_home):
        ft = tools()
        out = search(ft, pattern="NEEDLE", path=str(darwin_home))
        assert out["warning"].startswith("0 exact matches, but 1 case-insensitive match(es)")
        assert out["warning"].endswith(" Skipped macOS protected folders during broad search to "
                                       "avoid an unattended privacy prompt: Desktop, Documents, "
                                       "Music. Search a protected folder directly when access is "
                                       "intentional.")

    def test_not_on_linux(self, tools, home, monkeypatch):
        monkeypatch.setattr(sys, "platform", "linux")
        (home / "Desktop").mkdir()
        (home / "Desktop" / "f.txt").write_text("needle\n")
        out = search(tools(), pattern="needle", path=str(home))
        assert out["total_count"] == 1 and "warning" not in out

    def test_folder_list(self):
        assert MACOS_PROTECTED_FOLDERS == ("Desktop", "Documents", "Downloads", "Library",
                                           "Movies", "Music", "Pictures")

    @pytest.mark.parametrize("task_root, path, shown", [
        ("home", ".", "./code/f.txt"),
        ("home", "HOME", "HOME/code/f.txt"),
        ("above", "home", "home/code/f.txt"),
        ("above", "HOME", "HOME/code/f.txt"),
        ("code", "..", "../code/f.txt"),
    ])
    def test_every_root_spelling_on_both_backends(self, backend_options, darwin_home,
                                                  task_root, path, shown):
        from shellfree import FileTools

        cwd = {"home": darwin_home, "above": darwin_home.parent,
               "code": darwin_home / "code"}[task_root]
        path = path.replace("HOME", str(darwin_home))
        out = search(FileTools(cwd, **backend_options), pattern="needle", path=path)
        assert out["matches"] == [{"path": shown.replace("HOME", str(darwin_home)), "line": 1,
                                   "content": "needle"}]
        assert out["warning"].startswith("Skipped macOS protected folders")
