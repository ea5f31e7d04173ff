"""read_file when the file is missing: the unicode twin, similar names, and the 60-second
"not found" cache (§2.5, §6.4)."""

from __future__ import annotations

import json
import os
import sys
import unicodedata
from typing import Any

import pytest

from shellfree.engine.read_recovery import score_name, similar_files, unicode_variant


def read(ft, path: str, **args: Any) -> dict[str, Any]:
    return json.loads(ft.read_file(path, **args))


NOTE = ("Note: '{path}' not found byte-for-byte; resolved to the unicode-equivalent file "
        "'{variant}' (invisible encoding difference: NFC/NFD or special space/quote characters).")


class TestUnicodeVariant:
    @pytest.mark.parametrize("on_disk, asked", [
        (unicodedata.normalize("NFD", "café.txt"), "café.txt"),
        ("café.txt", unicodedata.normalize("NFD", "café.txt")),
        ("report\u202fQ1.txt", "report Q1.txt"),
        ("report\u00a0Q1.txt", "report Q1.txt"),
        ("it\u2019s.txt", "it's.txt"),
        ("it's.txt", "it\u2018s.txt"),
    ])
    def test_reads_the_twin_with_a_note(self, root, tools, on_disk, asked):
        ft = tools({on_disk: "hello\n"})
        out = read(ft, asked)
        assert out["content"] == "1|hello"
        assert out["hint"] == NOTE.format(path=root / asked, variant=root / on_disk)

    def test_note_joins_the_page_hint(self, root, tools):
        name = unicodedata.normalize("NFD", "é.txt")
        ft = tools({name: "a\nb\nc\n"})
        out = read(ft, "é.txt", limit=1)
        assert out["hint"] == (NOTE.format(path=root / "é.txt", variant=root / name)
                               + " Use offset=2 to continue reading (showing 1-1 of 3 lines)")

    def test_two_twins_are_ambiguous(self, root, tools):
        ft = tools({"a\u00a0b.txt": "1\n", "a\u202fb.txt": "2\n"})
        out = read(ft, "a b.txt")
        assert out["error"] == f"File not found: {root / 'a b.txt'}"

    def test_unit(self, tmp_path):
        (tmp_path / "x\u00a0y").write_text("")
        assert unicode_variant(str(tmp_path / "x y")) == str(tmp_path / "x\u00a0y")
        assert unicode_variant(str(tmp_path / "missing" / "x y")) is None


class TestSimilarFiles:
    def test_not_found_payload(self, root, tools):
        ft = tools({"config.yaml": "", "other.md": ""})
        assert read(ft, "config.yml") == {
            "content": "", "total_lines": 0, "file_size": 0, "truncated": False,
            "is_binary": False, "is_image": False,
            "error": f"File not found: {root / 'config.yml'}",
            "similar_files": [str(root / "config.yaml")]}

    def test_no_suggestions_leaves_the_key_out(self, root, tools):
        assert "similar_files" not in read(tools(), "zzz.qqq")
        assert read(tools(), "nodir/f.txt")["error"] == f"File not found: {root / 'nodir/f.txt'}"

    @pytest.mark.parametrize("entry, score", [
        ("README.MD", 100),         # same name, other case
        ("readme.txt", 90),         # same stem
        ("readme.markdown", 90),    # same stem wins over prefix
        ("read", 70),               # a prefix of the requested name
        ("readme.md.bak", 70),      # the requested name is its prefix
        ("old-readme.md", 60),      # contains the requested name
        ("eadm", 40),               # inside the requested name, longer than 2
        ("me", 0),                  # inside, but too short
        ("dear.md", 30),            # same extension, enough shared characters
        ("raedme.mdx", 50),         # close spelling (difflib ratio ≥ 0.8)
        ("zzzz.py", 0),
    ])
    def test_scores(self, entry, score):
        assert score_name("readme.md", entry) == score

    def test_best_five_by_score_then_listing_order(self, tmp_path):
        for name in ["b.txt", "ata", "data.csv", "data.txt.bak", "my-data.txt", "DATA.TXT",
                     "data.json", "zz"]:
            (tmp_path / name).write_text("")
        got = [p.rsplit("/", 1)[1] for p in similar_files(str(tmp_path / "data.txt"))]
        # 100, then the two 90s and the 70 in listing (code-point) order, then the 60
        assert got == ["DATA.TXT", "data.csv", "data.json", "data.txt.bak", "my-data.txt"]

    def test_only_the_first_50_entries_are_scored(self, tmp_path):
        for i in range(60):
            (tmp_path / f"a{i:02d}.txt").write_text("")
        assert similar_files(str(tmp_path / "a5")) == []  # a50…a59 are entries 51–60
        assert [p[-7:] for p in similar_files(str(tmp_path / "a0"))] == [
            "a00.txt", "a01.txt", "a02.txt", "a03.txt", "a04.txt"]

    @pytest.mark.skipif(not hasattr(os, "symlink") or sys.platform == "win32",
                        reason="symbolic links need privileges on Windows")
    def test_a_link_that_leads_nowhere_is_named_not_suggested(self, root, tools):
        # Hermes listed the link itself as the similar file (the directory holds its name).
        os.symlink("gone.txt", root / "notes.txt")
        (root / "notes.md").write_text("")
        assert read(tools(), "notes.txt") == {
            "content": "", "total_lines": 0, "file_size": 0, "truncated": False,
            "hint": f"Note: '{root / 'notes.txt'}' is a symbolic link to 'gone.txt', which does "
                    "not exist.",
            "is_binary": False, "is_image": False,
            "error": f"File not found: {root / 'notes.txt'}",
            "similar_files": [str(root / "notes.md")]}
        assert "hint" not in read(tools(), "notes.rst")

    def test_hidden_entries_are_not_listed(self, tmp_path):
        (tmp_path / ".target.txt").write_text("")
        assert similar_files(str(tmp_path / "target.txt")) == []


class TestNotFoundCache:
    def test_served_verbatim_for_60_seconds(self, root, tools, clock):
        ft = tools({"near.txt": ""})
        first = ft.read_file("gone.txt")
        (root / "near2.txt").write_text("")  # would change the suggestions if looked up again
        clock.advance(59.9)
        assert ft.read_file("gone.txt") == first
        clock.advance(0.1)
        assert ft.read_file("gone.txt") != first

    def test_dropped_when_the_file_appears(self, root, tools):
        ft = tools()
        assert "error" in read(ft, "new.txt")
        (root / "new.txt").write_text("now\n")
        assert read(ft, "new.txt")["content"] == "1|now"

    def test_cleared_by_another_tool_and_by_a_write(self, root, tools):
        ft = tools({"near.txt": ""})
        first = ft.read_file("gone.txt")
        (root / "near2.txt").write_text("")
        ft.notify_other_tool_call()
        second = ft.read_file("gone.txt")
        assert second != first
        (root / "near3.txt").write_text("")
        ft.state.invalidate_path(str(root / "gone.txt"))
        assert ft.read_file("gone.txt") != second

    def test_keyed_by_the_resolved_path(self, root, tools):
        ft = tools()
        first = ft.read_file("gone.txt")
        assert ft.read_file(str(root / "gone.txt")) == first
        assert len(ft.state.not_found) == 1
