"""Files with lines in a legacy code page read, match and store the same way in all four tools.

A UTF-8 file with a stray Latin-1 line (a pasted ``café crème``, an old ``©`` header, one bad
byte) is UTF-8 with that line in its code page: read_file shows it so, and patch, write_file
and V4A edit it so, keeping the stray line's bytes. Decoding such a file whole in a code page
(charset-normalizer names cp1250 for it) would turn every UTF-8 ``ö`` into ``Ă¶``: the agent's
text would not match, and new text would be stored in cp1250. A file mostly in a code page is
that code page throughout, even on a line whose bytes happen to be valid UTF-8 (``ß€`` is
``DF 80``, which UTF-8 reads as ``߀``).
"""

from __future__ import annotations

import codecs
import json
from typing import Any

import pytest

from shellfree.engine.text_decoding import CODE_PAGE_WINDOW, CodePage, code_page_form, stray_lines
from shellfree.engine.write_encoding import TextFormat, UnencodableText, sniff_format

GERMAN = "# Größe der Übergabe: naïve Lösung für Straßen\n"
FRENCH = "# café crème brûlée\n"
MIXED = GERMAN.encode() * 20 + FRENCH.encode("cp1252") + GERMAN.encode() * 20
"""UTF-8, with line 21 in cp1252."""


def read(ft, path: str, **args: Any) -> dict[str, Any]:
    return json.loads(ft.read_file(path, **args))


def patch(ft, **args: Any) -> dict[str, Any]:
    return json.loads(ft.patch(**args))


def lines_of(content: str) -> list[str]:
    return [line.split("|", 1)[1] for line in content.split("\n")]


def test_the_whole_file_guess_would_be_wrong():
    """The premise: asked of the whole file, the detector names a code page in which the UTF-8
    lines read as nonsense."""
    from shellfree.engine.text_decoding import detect_legacy_encoding

    guess = detect_legacy_encoding(MIXED)
    assert guess is not None and MIXED.decode(guess).count("Größe") == 0


class TestAUtf8FileWithAStrayLine:
    @pytest.fixture
    def ft(self, tools):
        return tools({"m.txt": MIXED})

    def test_read_shows_both(self, ft):
        out = read(ft, "m.txt")
        assert lines_of(out["content"]) == [GERMAN[:-1]] * 20 + [FRENCH[:-1]] + [GERMAN[:-1]] * 20
        assert out["encoding"] == "cp1252"
        assert out["hint"] == (
            "Lines that are not UTF-8 decoded from cp1252 (detected from the file's bytes) for "
            "display; the rest is UTF-8, and new text is written as UTF-8.")

    def test_search_shows_both(self, ft):
        out = json.loads(ft.search_files("(Größe|café)", path=".", limit=3))
        assert [m["content"] for m in out["matches"]] == [GERMAN[:-1]] * 3
        out = json.loads(ft.search_files("caf", path="."))
        assert [m["content"] for m in out["matches"]] == [FRENCH[:-1]]

    def test_a_patch_matches_the_utf8_text_and_stores_utf8(self, ft, root):
        result = patch(ft, path="m.txt", old_string="Lösung für Straßen\n# café",
                       new_string="Lösung für Wege\n# café")
        assert result["success"] is True, result
        expected = MIXED.replace("Lösung für Straßen\n#".encode() + b" caf",
                                 "Lösung für Wege\n#".encode() + b" caf")
        assert (root / "m.txt").read_bytes() == expected  # the cp1252 line untouched

    def test_an_edit_of_the_stray_line_stores_that_line_in_utf8(self, ft, root):
        result = patch(ft, path="m.txt", old_string="crème brûlée", new_string="crème brûlée ß")
        assert result["success"] is True, result
        assert (root / "m.txt").read_bytes() == MIXED.replace(
            FRENCH.encode("cp1252"), "# café crème brûlée ß\n".encode())
        assert lines_of(read(ft, "m.txt")["content"])[20] == "# café crème brûlée ß"

    def test_v4a_keeps_the_stray_line(self, ft, root):
        text = (f"*** Begin Patch\n*** Update File: m.txt\n {FRENCH[:-1]}\n-{GERMAN[:-1]}\n"
                "+# Größe: naïve\n*** End Patch")
        result = patch(ft, mode="patch", patch=text)
        assert result["success"] is True, result
        parts = MIXED.split(FRENCH.encode("cp1252"))
        assert (root / "m.txt").read_bytes() == (
            parts[0] + FRENCH.encode("cp1252") + "# Größe: naïve\n".encode() + parts[1][len(
                GERMAN.encode()):])

    def test_write_file_keeps_the_stray_line_it_was_shown(self, ft, root):
        shown = "".join(line + "\n" for line in lines_of(read(ft, "m.txt")["content"]))
        result = json.loads(ft.write_file("m.txt", shown + "# süß\n"))
        assert result.get("error") is None, result
        assert (root / "m.txt").read_bytes() == MIXED + "# süß\n".encode()


def test_a_utf8_file_with_a_byte_order_mark_and_stray_lines(tools, root):
    """The mark says UTF-8, whatever the count of stray lines: they alone are in the code
    page, the first one too."""
    data = codecs.BOM_UTF8 + FRENCH.encode("cp1252") * 3 + GERMAN.encode()
    ft = tools({"m.txt": data})
    out = read(ft, "m.txt")
    assert lines_of(out["content"]) == [FRENCH[:-1]] * 3 + [GERMAN[:-1]]
    assert out["encoding"] == "cp1252"
    result = patch(ft, path="m.txt", old_string="brûlée\n# Größe der",
                   new_string="brûlée\n# Maß der")
    assert result["success"] is True, result
    assert (root / "m.txt").read_bytes() == data.replace("Größe".encode(), "Maß".encode())


class TestStrayLinesPastTheFirst64KiB:
    """Past the window, the stray lines of the first megabyte name the code page, in read_file
    as in patch and search: a page's own stray line alone can say otherwise (``Ö03)c`` by itself
    is guessed as cp932, which reads ``Ö`` as the half-width katakana ``ﾖ``)."""

    FIRST = "Größe: 5 €, Café au lait, naïve Übergröße, déjà vu"
    LATER = "Ö03)c"
    DATA = (GERMAN.encode() * 1400 + FIRST.encode("cp1252") + b"\n" + GERMAN.encode() * 100
            + LATER.encode("cp1252") + b"\n" + GERMAN.encode())

    def test_the_premise(self):
        from shellfree.engine.text_decoding import detect_legacy_encoding

        assert len(GERMAN.encode()) * 1400 > CODE_PAGE_WINDOW
        assert detect_legacy_encoding(self.LATER.encode("cp1252") + b"\n") != "cp1252"

    def test_read_patch_and_search_agree(self, tools, root):
        ft = tools({"m.txt": self.DATA})
        page = read(ft, "m.txt", offset=1501, limit=3)
        assert lines_of(page["content"]) == [GERMAN[:-1], self.LATER, GERMAN[:-1]]
        out = json.loads(ft.search_files("03", path="."))
        assert [m["content"] for m in out["matches"]] == [self.LATER]
        result = patch(ft, path="m.txt", old_string=self.LATER, new_string=self.LATER + " ok")
        assert result["success"] is True, result
        # The stray line an edit touches is rewritten in UTF-8.
        assert (root / "m.txt").read_bytes() == self.DATA.replace(
            self.LATER.encode("cp1252"), (self.LATER + " ok").encode())


def test_a_stray_byte_in_a_utf8_file_is_kept(tools, root):
    data = GERMAN.encode() * 3 + "# Ende: schön\n".encode() + b"# \xff\n" + GERMAN.encode()
    ft = tools({"b.txt": data})
    result = patch(ft, path="b.txt", old_string="Ende: schön", new_string="Ende: sehr schön")
    assert result["success"] is True, result
    assert (root / "b.txt").read_bytes() == data.replace("schön".encode(), "sehr schön".encode())


def test_a_second_spelling_of_a_character_is_kept(tools, root):
    """cp932 has two byte sequences for ``≒`` (81 E0, and 87 90 in NEC's row 13); decoding and
    encoding again gives 81 E0. A patch of another line keeps 87 90."""
    text = "≒ これは日本語のテキストです。\n二行目：カタカナとひらがな。\n"
    data = text.encode("cp932").replace(b"\x81\xe0", b"\x87\x90")
    assert data.decode("cp932") == text and text.encode("cp932") != data  # the premise
    ft = tools({"ja.txt": data})
    assert lines_of(read(ft, "ja.txt")["content"]) == text.splitlines()
    result = patch(ft, path="ja.txt", old_string="カタカナと", new_string="")
    assert result["success"] is True, result
    assert (root / "ja.txt").read_bytes() == data.replace("カタカナと".encode("cp932"), b"")


class TestAFileMostlyInACodePage:
    TEXT = "Größe: 5 €, Café au lait, naïve Übergröße, déjà vu\nÜber naïve déjà\nx ß€\n"

    def test_read_and_patch_decode_every_line_in_it(self, tools, root):
        data = self.TEXT.encode("cp1252")
        assert "ß€".encode("cp1252").decode("utf-8") == "߀"  # the premise
        ft = tools({"w.txt": data})
        out = read(ft, "w.txt")
        assert lines_of(out["content"]) == self.TEXT.splitlines()
        assert out["hint"] == "Decoded from cp1252 (detected from the file's bytes) for display."
        result = patch(ft, path="w.txt", old_string="ß€", new_string="ß€ ü")
        assert result["success"] is True, result
        assert (root / "w.txt").read_bytes() == self.TEXT.replace("ß€", "ß€ ü").encode("cp1252")


    def test_search_decodes_every_line_in_it(self, tools):
        ft = tools({"w.txt": self.TEXT.encode("cp1252")})
        out = json.loads(ft.search_files("x ", path="."))
        assert [m["content"] for m in out["matches"]] == ["x ß€"]

    def test_an_edit_that_tips_the_balance_keeps_the_form(self, tools, root):
        """Two cp1252 lines outnumber the one that reads as UTF-8; the patch leaves one. A
        fresh look would now see a UTF-8 file with a stray line, and show ``߀``."""
        data = self.TEXT.encode("cp1252")
        ft = tools({"w.txt": data})
        assert read(ft, "w.txt")["encoding"] == "cp1252"
        result = patch(ft, path="w.txt", old_string="Über naïve déjà", new_string="plain")
        assert result["success"] is True, result
        after = self.TEXT.replace("Über naïve déjà", "plain")
        assert code_page_form(after.encode("cp1252")).whole is False
        assert lines_of(read(ft, "w.txt")["content"]) == after.splitlines()


class TestCodePageForm:
    WESTERN = "Größe: 5 €, Café au lait, naïve Übergröße, déjà vu\n"

    @pytest.mark.parametrize(("stray", "utf8", "whole"), [
        (1, 0, True), (2, 1, True), (1, 1, False), (1, 2, False),
    ])
    def test_the_majority_of_non_ascii_lines(self, stray, utf8, whole):
        window = (self.WESTERN.encode("cp1252") * stray + b"plain\n" * 5
                  + self.WESTERN.encode() * utf8)
        assert code_page_form(window) == CodePage("cp1252", whole)

    def test_no_stray_line(self):
        assert code_page_form(self.WESTERN.encode() + b"plain\n") == CodePage(None, False)

    def test_what_the_task_knows_is_the_answer(self):
        known = CodePage("cp1257", False)
        assert code_page_form(self.WESTERN.encode("cp1252"), known) is known

    def test_a_character_cut_at_the_windows_end_is_not_stray(self):
        window = b"a" * (CODE_PAGE_WINDOW - 1) + "ö".encode()[:1]
        assert len(window) == CODE_PAGE_WINDOW
        assert stray_lines(window, cut=True) == []
        assert stray_lines(window, cut=False) == [window]

    def test_a_line_longer_than_the_window(self):
        window = (self.WESTERN[:-1].encode("cp1252") + b" ") * 2000
        window = window[:CODE_PAGE_WINDOW]
        assert stray_lines(window, cut=True) == [window]
        assert code_page_form(window) == CodePage("cp1252", True)

    def test_sniff_format_asks_the_same(self):
        assert sniff_format(MIXED) == TextFormat(b"", "utf-8", "\n", "cp1252")
        assert sniff_format(FRENCH.encode("cp1252") * 3) == TextFormat(b"", "cp1252", "\n")


class TestStrayLineFormat:
    FMT = TextFormat(b"", "utf-8", "\n", "cp1252")

    def test_equal_lines_keep_their_own_bytes_in_order(self):
        data = "é\n".encode("cp1252") + "é\n".encode() + "é\n".encode("cp1252")
        text = self.FMT.decode(data)
        assert text == "é\né\né\n"
        assert self.FMT.encode(text, data) == data
        assert self.FMT.encode("x\n" + text, data) == b"x\n" + data
        # A line added is new text, UTF-8, even where equal lines were in the code page.
        assert self.FMT.encode(text + "é\n", data) == data + "é\n".encode()

    def test_an_edited_line_equal_to_one_it_replaced_keeps_its_bytes(self):
        data = b"a\n" + "é\n".encode("cp1252") + b"b\n"
        assert self.FMT.encode("a\né\nc\n", data) == b"a\n" + "é\n".encode("cp1252") + b"c\n"

    def test_a_new_line_is_utf8(self):
        assert self.FMT.encode("süß\n", b"") == "süß\n".encode()

    def test_a_kept_undecodable_byte_goes_back_in_the_code_page(self):
        data = b"x\x81\xe9\n"  # 0x81: no character in cp1252
        text = self.FMT.decode(data)
        assert text == "x\udc81é\n"
        assert self.FMT.encode(text.replace("x", "y"), data) == b"y\x81\xe9\n"

    def test_no_encoding_reads_back_a_lone_surrogate_beside_utf8(self):
        with pytest.raises(UnencodableText):
            self.FMT.encode("\udc81ö€\u07c0\n", b"")
