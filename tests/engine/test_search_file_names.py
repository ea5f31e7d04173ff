"""search_files with target="files": the rg --files search (§5.5)."""

from __future__ import annotations

import os

import pytest

from shellfree.engine.rg_commands import file_glob_for_pattern, files_command
from tests.engine.conftest import search

TREE = {"src/foo.py": "", "src/barfoo.py": "", "src/foo.pyc": "", "lib/config": "",
        "lib/app.config.json": "", "lib/myconfig": "", "docs/readme.md": "",
        ".hidden/foo.py": "", "ignored/foo.py": "", ".ignore": "ignored/\n"}


@pytest.mark.parametrize("pattern, glob", [
    ("foo.py", "*foo.py"), ("*.py", "*.py"), ("config", "*config"), ("**/foo.py", "*foo.py"),
    ("src/*.py", "*.py"), ("a/b/c.txt", "*c.txt"), ("", "*"), ("src/", "*"),
])
def test_pattern_normalisation(pattern, glob):
    assert file_glob_for_pattern(pattern) == glob


def test_command():
    assert files_command("*.py", ["."], modified=False) == [
        "--files", "--null", "--sort=path", "-g", "*.py", "--", "."]
    assert files_command("*.py", ["a", "b"], modified=True, exclude_globs=["!x/**"]) == [
        "--files", "--null", "--sortr=modified", "-g", "*.py", "--glob", "!x/**", "--", "a", "b"]


class TestFileSearch:
    def test_suffix_match_in_path_order(self, tools):
        ft = tools(TREE)
        assert search(ft, pattern="foo.py", target="files") == {
            "total_count": 2, "files": ["./src/barfoo.py", "./src/foo.py"]}

    def test_find_alias_and_directories_in_the_pattern_are_ignored(self, tools):
        ft = tools(TREE)
        assert search(ft, pattern="lib/*config", target="find")["files"] == [
            "./lib/config", "./lib/myconfig"]

    def test_config_is_not_wrapped_on_both_sides(self, tools):
        ft = tools(TREE)
        assert "./lib/app.config.json" not in search(ft, pattern="config", target="files")[
            "files"]

    def test_content_only_arguments_are_ignored(self, tools):
        ft = tools(TREE)
        out = search(ft, pattern="*.md", target="files", file_glob="*.py", output_mode="count",
                     context=3)
        assert out == {"total_count": 1, "files": ["./docs/readme.md"]}

    def test_pagination_with_exact_total(self, tools):
        ft = tools(TREE)
        # rg: a -g glob that matches a hidden or ignored file whitelists it, so "*" lists
        # .hidden/foo.py, .ignore and ignored/foo.py too.
        out = search(ft, pattern="*", target="files", limit=3, offset=2)
        assert out["total_count"] == 10
        assert out["files"] == ["./docs/readme.md", "./ignored/foo.py", "./lib/app.config.json"]
        assert out["truncated"] is True
        assert out["_hint"] == ("Results truncated. Use offset=5 to see more, or narrow with a "
                                "more specific pattern or file_glob.")
        assert "total_count_is_lower_bound" not in out

    def test_modified_order_newest_first(self, tools, root):
        ft = tools({"a.txt": "", "b.txt": "", "c.txt": ""})
        for age, name in enumerate(["b.txt", "c.txt", "a.txt"]):
            os.utime(root / name, (1_000_000 - age * 100, 1_000_000 - age * 100))
        assert search(ft, pattern="*.txt", target="files", order="modified")["files"] == [
            "./b.txt", "./c.txt", "./a.txt"]

    def test_invalid_order(self, tools):
        ft = tools(TREE)
        assert search(ft, pattern="*", target="files", order="newest") == {
            "total_count": 0,
            "error": "Invalid file search order 'newest'; expected 'discovery' or 'modified'."}

    def test_order_is_ignored_for_content(self, tools):
        ft = tools({"a.txt": "x\n"})
        assert search(ft, pattern="x", order="newest")["total_count"] == 1

    def test_invalid_glob_fails_the_search(self, tools):
        ft = tools(TREE)
        assert search(ft, pattern="a{b", target="files") == {
            "total_count": 0, "error": "File search failed while running ripgrep."}

    def test_single_file_root(self, tools):
        ft = tools(TREE)
        assert search(ft, pattern="foo.py", target="files", path="src/foo.py")["files"] == [
            "src/foo.py"]


class TestModifiedOrderNeedsRg14:
    def test_old_rg_is_refused(self, tools):
        class OldRg:
            name = "old"

            def version(self):
                return (13, 0, 0)

            def run(self, *args, **kwargs):
                raise AssertionError("must not run")

        ft = tools(TREE, backend=OldRg())
        assert search(ft, pattern="*", target="files", order="modified") == {
            "total_count": 0,
            "error": "Exact modification-time order requires ripgrep 14 or newer; upgrade "
                     "ripgrep or use order='discovery'."}
