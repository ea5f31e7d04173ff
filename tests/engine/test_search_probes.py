"""Zero-match steering probes, in-process (§5.4, §8.7)."""

from __future__ import annotations

import pytest

from shellfree.engine.rg_commands import SEARCH_PRUNE_DIR_NAMES, probe_command, prune_globs
from shellfree.engine.search_probes import PROBES, REGEX_METACHARACTERS
from tests.engine.conftest import search


def test_probe_order_and_flags():
    assert [p.name for p in PROBES] == ["case-insensitive", "hidden-or-ignored", "literal"]
    assert PROBES[0].flags == ("-i",) and PROBES[2].flags == ("-F",)
    assert PROBES[1].flags[:2] == ("--hidden", "--no-ignore")
    assert REGEX_METACHARACTERS == ".[](){}?*+^$\\|"


def test_prune_list_is_sorted_and_emitted_twice_per_name():
    assert SEARCH_PRUNE_DIR_NAMES == tuple(sorted(SEARCH_PRUNE_DIR_NAMES))
    assert len(SEARCH_PRUNE_DIR_NAMES) == 38
    assert {".git", "node_modules", ".venv", "__pycache__", ".Trash", "backups"} <= set(
        SEARCH_PRUNE_DIR_NAMES)
    globs = prune_globs()
    assert globs[:4] == ["--glob", "!.Trash/**", "--glob", "!**/.Trash/**"]
    assert len(globs) == 4 * 38


def test_probe_command():
    assert probe_command(("-i",), "x", "src", "*.py") == [
        "-i", "--count-matches", "--with-filename", "--null", "--glob", "*.py", "--sort", "path",
        "--",
        "x", "src"]


class TestCaseProbe:
    def test_message(self, tools):
        ft = tools({"a.py": "Hello\nHELLO hello\n", "b.py": "hello\n"})
        assert search(ft, pattern="hElLo") == {"total_count": 0, "warning": (
            "0 exact matches, but 4 case-insensitive match(es) in 2 file(s): ./a.py, ./b.py — "
            "the pattern's casing may be wrong.")}

    def test_more_than_five_files(self, tools):
        ft = tools({f"f{i}.txt": "Word\n" for i in range(8)})
        assert search(ft, pattern="word")["warning"] == (
            "0 exact matches, but 8 case-insensitive match(es) in 8 file(s): ./f0.txt, ./f1.txt, "
            "./f2.txt, ./f3.txt, ./f4.txt (+3 more) — the pattern's casing may be wrong.")

    def test_counts_every_file_not_just_fifty_lines(self, tools):
        ft = tools({f"d/f{i:02}.txt": "Word\n" for i in range(60)})
        assert "60 case-insensitive match(es) in 60 file(s)" in search(ft, pattern="word")[
            "warning"]

    def test_single_file_root(self, tools):
        ft = tools({"a.py": "Hello\n"})
        assert search(ft, pattern="hello", path="a.py")["warning"] == (
            "0 exact matches, but 1 case-insensitive match(es) in 1 file(s): a.py — the "
            "pattern's casing may be wrong.")

    def test_respects_file_glob(self, tools):
        ft = tools({"a.py": "x\n", "b.txt": "Hello\n"})
        assert "warning" not in search(ft, pattern="hello", file_glob="*.py")


class TestHiddenProbe:
    def test_hidden_and_ignored_files(self, tools):
        ft = tools({".secret/a.txt": "needle\n", "gen.txt": "needle needle\n",
                    ".ignore": "gen.txt\n", "x.txt": "other\n"})
        assert search(ft, pattern="needle") == {"total_count": 0, "warning": (
            "0 matches in visible files, but 3 match(es) in 2 hidden or gitignored file(s): "
            "./.secret/a.txt, ./gen.txt — these are excluded by default.")}

    def test_prune_directories_are_not_entered(self, tools):
        ft = tools({".git/config": "needle\n", "node_modules/m/i.js": "needle\n",
                    "a/.venv/lib.py": "needle\n", "a/__pycache__/x.pyc": "needle\n",
                    ".ignore": "node_modules\n__pycache__\n"})
        assert search(ft, pattern="needle") == {"total_count": 0}

    def test_case_probe_wins(self, tools):
        ft = tools({".h/a.txt": "needle\n", "b.txt": "NEEDLE\n"})
        assert search(ft, pattern="needle")["warning"].startswith("0 exact matches")


class TestLiteralProbe:
    def test_metacharacters(self, tools):
        ft = tools({"a.py": "print(x)\nprint(x) and print(x)\n"})
        assert search(ft, pattern="print(x)") == {"total_count": 0, "warning": (
            "0 regex matches, but 3 literal match(es) in 1 file(s): ./a.py — the pattern contains "
            "regex metacharacters that likely need escaping (or pass a simpler substring).")}

    def test_only_with_metacharacters(self, tools):
        assert not PROBES[2].applies_to("plain words")
        assert all(PROBES[2].applies_to(f"a{c}b") for c in REGEX_METACHARACTERS)


class TestNoProbe:
    def test_nothing_anywhere(self, tools):
        ft = tools({"a.txt": "x\n"})
        assert search(ft, pattern="zzz") == {"total_count": 0}

    @pytest.mark.parametrize("mode", ["content", "files_only", "count"])
    def test_not_for_a_page_past_the_results(self, tools, mode):
        # Fixed defect: Hermes probed whenever the page was empty, so an offset past the end
        # was told "0 exact matches, but 1 case-insensitive match(es)" for a search that had
        # matched; the total here is exact, and the probes run only when it is 0.
        ft = tools({"a.txt": "Return\nreturn\n"})
        out = search(ft, pattern="return", output_mode=mode, offset=5)
        assert "warning" not in out and out["total_count"] == 1

    def test_not_after_an_error(self, tools):
        ft = tools({"a.txt": "x\n"})
        assert "warning" not in search(ft, pattern="[")

    def test_not_for_file_search(self, tools):
        ft = tools({".h/a.txt": ""})
        assert search(ft, pattern="a.txt", target="files") == {"total_count": 0}

    def test_multiline_patterns_are_probed_without_multiline(self, tools):
        # Hermes: the probes do not pass -U, so rg refuses a "\n" pattern and no probe fires.
        ft = tools({"a.txt": "X\nY\n"})
        assert search(ft, pattern=r"x\ny")["warning"] == (
            "Pattern contains \\n — multiline mode (-U) was enabled automatically so the regex "
            "can match across line boundaries.")

