"""A file the task was shown or wrote in a legacy code page keeps that code page while it is at
that version: read_file, patch (both modes), write_file and search_files use it instead of
guessing again.

The guess moves with the text. ``BEFORE`` is guessed as cp1252; ``AFTER`` (its ``au l`` made
``ééK``, the same bytes elsewhere) as mac_latin2, which shows ``naïve`` as ``naÔve`` and cannot
store an ``ï`` at all. ``test_the_fresh_guess_flips`` checks that premise, so a charset-normalizer
that stops flipping fails there instead of letting the flow tests pass for the wrong reason.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

import shellfree.engine.text_decoding as text_decoding
from shellfree.engine.read_encoding import UTF8, TextEncoding, classify
from shellfree.engine.read_tracking import KnownCodePage, KnownCodePages, stat_key
from shellfree.engine.state import TaskState
from shellfree.engine.text_decoding import CodePage
from shellfree.engine.write_encoding import TextFormat, sniff_format

from .conftest import WESTERN_LINE

BEFORE = WESTERN_LINE + "\nK;K\n"
AFTER = BEFORE.replace("au l", "ééK", 1)
SECOND_LINE = AFTER.splitlines()[0]


def read(ft, path: str, **args: Any) -> dict[str, Any]:
    return json.loads(ft.read_file(path, **args))


def patch(ft, **args: Any) -> dict[str, Any]:
    return json.loads(ft.patch(**args))


def write(ft, path: str, content: str) -> dict[str, Any]:
    return json.loads(ft.write_file(path, content))


def test_the_fresh_guess_flips():
    """The premise of every flow test here."""
    assert sniff_format(BEFORE.encode("cp1252")).encoding == "cp1252"
    assert sniff_format(AFTER.encode("cp1252")).encoding == "mac_latin2"


@pytest.fixture
def western(tools, root):
    """A task that has read ``w.txt`` (``BEFORE`` in cp1252) and patched it into ``AFTER``."""
    ft = tools({"w.txt": BEFORE.encode("cp1252")})
    assert read(ft, "w.txt")["encoding"] == "cp1252"
    assert patch(ft, path="w.txt", old_string="au l", new_string="ééK")["success"] is True
    assert (root / "w.txt").read_bytes() == AFTER.encode("cp1252")
    return ft


class TestAfterAReplacePatch:
    def test_read_shows_the_code_page_it_was_written_in(self, western):
        out = read(western, "w.txt")
        assert out["content"] == f"1|{SECOND_LINE}\n2|K;K"
        assert out["encoding"] == "cp1252"

    def test_the_next_patch_matches_and_stores_in_it(self, western, root):
        result = patch(western, path="w.txt", old_string="naïve", new_string="naïf, süß")
        assert result["success"] is True
        assert (root / "w.txt").read_bytes() == AFTER.replace("naïve", "naïf, süß").encode(
            "cp1252")

    def test_write_file_stores_in_it(self, western, root):
        assert read(western, "w.txt")["encoding"] == "cp1252"  # seen whole: may overwrite
        assert write(western, "w.txt", AFTER + "ï\n").get("error") is None
        assert (root / "w.txt").read_bytes() == (AFTER + "ï\n").encode("cp1252")

    def test_search_shows_lines_in_it(self, western):
        out = json.loads(western.search_files("Caf", path="."))
        assert [m["content"] for m in out["matches"]] == [SECOND_LINE]

    def test_a_change_from_outside_is_guessed_afresh(self, western, root):
        japanese = "こんにちは、世界。日本語のテキストファイルです。\n二行目：カタカナとひらがな。\n"
        (root / "w.txt").write_bytes(japanese.encode("shift_jis"))
        out = read(western, "w.txt")
        assert out["content"] == ("1|こんにちは、世界。日本語のテキストファイルです。\n"
                                  "2|二行目：カタカナとひらがな。")

    def test_a_utf8_rewrite_from_outside_is_utf8(self, western, root):
        (root / "w.txt").write_text("naïve\n", encoding="utf-8")
        out = read(western, "w.txt")
        assert out["content"] == "1|naïve"
        assert "encoding" not in out


class TestAfterWriteFile:
    def test_read_and_patch_use_the_code_page_written(self, tools, root):
        ft = tools({"w.txt": BEFORE.encode("cp1252")})
        assert read(ft, "w.txt")["encoding"] == "cp1252"
        assert write(ft, "w.txt", AFTER).get("error") is None
        assert (root / "w.txt").read_bytes() == AFTER.encode("cp1252")
        assert read(ft, "w.txt")["content"] == f"1|{SECOND_LINE}\n2|K;K"
        assert patch(ft, path="w.txt", old_string="déjà", new_string="déjà vu, ß")["success"]
        assert (root / "w.txt").read_bytes() == AFTER.replace("déjà", "déjà vu, ß").encode(
            "cp1252")


class TestAfterAV4APatch:
    def test_update_then_update(self, tools, root):
        ft = tools({"w.txt": BEFORE.encode("cp1252")})
        first = (f"*** Begin Patch\n*** Update File: w.txt\n-{WESTERN_LINE}\n+{SECOND_LINE}\n"
                 "*** End Patch")
        assert patch(ft, mode="patch", patch=first)["success"] is True
        assert (root / "w.txt").read_bytes() == AFTER.encode("cp1252")
        assert read(ft, "w.txt")["content"] == f"1|{SECOND_LINE}\n2|K;K"
        second = (f"*** Begin Patch\n*** Update File: w.txt\n-{SECOND_LINE}\n+naïve, süß\n"
                  "*** End Patch")
        result = patch(ft, mode="patch", patch=second)
        assert result["success"] is True, result
        assert (root / "w.txt").read_bytes() == "naïve, süß\nK;K\n".encode("cp1252")

    def test_a_moved_file_keeps_its_code_page(self, western, root):
        moved = ("*** Begin Patch\n*** Move File: w.txt -> moved.txt\n"
                 f"*** Update File: moved.txt\n-{SECOND_LINE}\n+naïve, süß\n*** End Patch")
        result = patch(western, mode="patch", patch=moved)
        assert result["success"] is True, result
        assert (root / "moved.txt").read_bytes() == "naïve, süß\nK;K\n".encode("cp1252")
        assert read(western, "moved.txt")["content"] == "1|naïve, süß\n2|K;K"


class TestAfterARead:
    def test_patch_uses_the_code_page_the_read_showed(self, tools, root, monkeypatch):
        """The patch matches the text the agent was shown whatever a fresh guess would say
        (stray lines past the first megabyte are named from read_file's page alone). A stand-in
        guess plays a fresh one that differs."""
        ft = tools({"w.txt": BEFORE.encode("cp1252")})
        assert read(ft, "w.txt")["encoding"] == "cp1252"
        monkeypatch.setattr(text_decoding, "detect_legacy_encoding", lambda data: "cp1257")
        assert patch(ft, path="w.txt", old_string="naïve", new_string="naïf")["success"] is True
        assert (root / "w.txt").read_bytes() == BEFORE.replace("naïve", "naïf").encode("cp1252")

    def test_without_a_read_the_patch_guesses(self, tools, root, monkeypatch):
        """The control of the test above: the stand-in guess is what the patch would use."""
        ft = tools({"w.txt": BEFORE.encode("cp1252")})
        monkeypatch.setattr(text_decoding, "detect_legacy_encoding", lambda data: "cp1257")
        result = patch(ft, path="w.txt", old_string="naïve", new_string="naïf")
        assert result["success"] is False


class TestAllAscii:
    def test_a_file_made_ascii_keeps_its_code_page(self, tools, root):
        ft = tools({"w.txt": BEFORE.encode("cp1252")})
        assert read(ft, "w.txt")["encoding"] == "cp1252"
        assert write(ft, "w.txt", "plain\n").get("error") is None
        assert patch(ft, path="w.txt", old_string="plain", new_string="süß")["success"] is True
        assert (root / "w.txt").read_bytes() == "süß\n".encode("cp1252")

    def test_an_ascii_file_never_known_in_a_code_page_gets_utf8(self, tools, root):
        ft = tools({"w.txt": b"plain\n"})
        assert patch(ft, path="w.txt", old_string="plain", new_string="süß")["success"] is True
        assert (root / "w.txt").read_bytes() == "süß\n".encode("utf-8")


class TestHelpers:
    def test_known_code_page_applies_to_its_version_only(self):
        known = KnownCodePage((1, 2, 3, 4, 5), CodePage("cp1252", True))
        assert known.at((1, 2, 3, 4, 5)) == CodePage("cp1252", True)
        assert known.at((1, 2, 3, 4, 6)) is None

    def test_known_code_pages_keep_the_latest_and_are_capped(self):
        pages = KnownCodePages()
        pages.record("/a", (1, 1, 1, 1, 1), CodePage("cp1252", True))
        pages.record("/a", (1, 1, 1, 1, 2), CodePage("cp1250", False))
        assert pages.get("/a") == KnownCodePage((1, 1, 1, 1, 2), CodePage("cp1250", False))
        for n in range(1000):
            pages.record(f"/f{n}", (n, 0, 0, 0, 0), CodePage("cp1252", True))
        assert len(pages) == 1000 and pages.get("/a") is None

    def test_task_state_keys_by_real_path(self, tmp_path):
        (tmp_path / "real.txt").write_bytes(b"x")
        os.symlink(tmp_path / "real.txt", tmp_path / "link.txt")
        state = TaskState(clock=lambda: 0.0)
        version = stat_key(os.stat(tmp_path / "real.txt"))
        state.record_code_page(str(tmp_path / "link.txt"), version, CodePage("cp1252", True))
        assert state.known_code_page(str(tmp_path / "real.txt")) == KnownCodePage(
            version, CodePage("cp1252", True))

    def test_classify_takes_the_known_code_page_over_a_guess(self):
        text = BEFORE.encode("cp1252")
        assert classify(text, lambda: text) == TextEncoding("cp1252", whole=True)
        known = CodePage("cp1257", True)
        assert classify(text, lambda: text, known) == TextEncoding("cp1257", whole=True)
        assert classify(b"plain", lambda: b"plain", known) == TextEncoding("cp1257", whole=True)
        assert classify(b"plain", lambda: b"plain") is UTF8
        utf8 = "naïve\n".encode()
        stray = CodePage("cp1257", False)
        assert classify(utf8, lambda: utf8, stray) == TextEncoding("cp1257")
        # A BOM is read off the bytes, never overridden.
        assert classify(b"\xff\xfea\x00", bytes, known).utf16

    @pytest.mark.parametrize(("data", "known", "fmt"), [
        (BEFORE.encode("cp1252"), CodePage("cp1257", True), TextFormat(b"", "cp1257", "\n")),
        (b"plain\n", CodePage("cp1252", True), TextFormat(b"", "cp1252", "\n")),
        (b"plain\n", CodePage("cp1252", False), TextFormat(b"", "utf-8", "\n", "cp1252")),
        # A mark wins: the file is UTF-8, only stray lines would be in the code page.
        ("naïve\n".encode("utf-8-sig"), CodePage("cp1252", True),
         TextFormat(b"\xef\xbb\xbf", "utf-8", "\n", "cp1252")),
    ])
    def test_sniff_format_with_a_known_code_page(self, data, known, fmt):
        assert sniff_format(data, known) == fmt

    @pytest.mark.parametrize(("fmt", "code_page"), [
        (TextFormat(b"", "cp1252"), "cp1252"),
        (TextFormat(b"", "shift_jis"), "shift_jis"),
        (TextFormat(), None),
        (TextFormat(b"\xef\xbb\xbf", "utf-8"), None),
        (TextFormat(b"", "utf-16-le"), None),  # BOM-less UTF-16 is read off the zero bytes
        (TextFormat(b"\xff\xfe", "utf-16-le"), None),
        (TextFormat(b"", "utf_8"), None),
    ])
    def test_text_format_code_page(self, fmt, code_page):
        assert fmt.code_page == code_page
