"""read_file's encodings: UTF-16 with and without a BOM, legacy code pages detected and shown as
text, genuine binary still refused (§2.4), and the byte-level helpers."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from shellfree.engine.read_encoding import (
    UTF8,
    LineDecoder,
    TextEncoding,
    binary_kind,
    classify,
    control_share,
    format_size,
    looks_binary,
    utf16_encoding,
)
from shellfree.engine.read_text import read_page


def read(ft, path: str, **args: Any) -> dict[str, Any]:
    return json.loads(ft.read_file(path, **args))


FRENCH = "Café crème brûlée — “quoted” naïve façade\nZweite Zeile: Grüße aus München\n"
JAPANESE = "こんにちは、世界。日本語のテキストファイルです。\n二行目：カタカナとひらがな。\n"
CHINESE = "你好，世界。这是一个中文文本文件。\n第二行：简体中文。\n"


class TestUtf16:
    @pytest.mark.parametrize("codec, name", [("utf-16-le", "UTF-16-LE"),
                                             ("utf-16-be", "UTF-16-BE")])
    def test_with_bom(self, tools, codec, name):
        data = "\ufeffhello\r\nwörld\r\n".encode(codec)
        ft = tools({"f.txt": data})
        assert read(ft, "f.txt") == {
            "content": "1|hello\n2|wörld", "total_lines": 2, "file_size": len(data),
            "truncated": False,
            "hint": f"Transcoded from {name} to UTF-8 for display. Text edits via patch/write_file "
                    f"keep the file in {name}.",
            "is_binary": False, "is_image": False, "encoding": codec}

    def test_without_bom_by_zero_parity(self, tools):
        ft = tools({"f.txt": "plain ascii\nsecond\n".encode("utf-16-le")})
        out = read(ft, "f.txt")
        assert (out["content"], out["encoding"]) == ("1|plain ascii\n2|second", "utf-16-le")

    def test_paged_with_both_hints(self, tools):
        ft = tools({"f.txt": "\ufeff".encode("utf-16-le")
                    + "".join(f"l{i}\n" for i in range(1, 6)).encode("utf-16-le")})
        out = read(ft, "f.txt", offset=2, limit=2)
        assert out["content"] == "2|l2\n3|l3"
        assert out["hint"] == (
            "Transcoded from UTF-16-LE to UTF-8 for display. Text edits via patch/write_file "
            "keep the file in UTF-16-LE. Use offset=4 to continue reading (showing 2-3 of 5 lines)")

    def test_crlf_split_across_chunks(self, tmp_path):
        path = tmp_path / "f.txt"
        path.write_bytes("\ufeffab\r\ncd\r\nef".encode("utf-16-le"))
        for chunk in (1, 2, 3, 4, 6, 8, 64):
            result = read_page(str(path), 1, 10, chunk_size=chunk)
            assert (result.content, result.total_lines) == ("1|ab\n2|cd\n3|ef", 3), chunk


class TestLegacyEncodings:
    def test_cp1252(self, tools):
        ft = tools({"fr.txt": FRENCH.encode("cp1252")})
        out = read(ft, "fr.txt")
        assert out["content"] == ("1|Café crème brûlée — “quoted” naïve façade\n"
                                  "2|Zweite Zeile: Grüße aus München")
        assert out["encoding"] == "cp1252"
        assert out["hint"] == "Decoded from cp1252 (detected from the file's bytes) for display."
        assert out["is_binary"] is False

    def test_latin1_text(self, tools):
        ft = tools({"pt.txt": "Olá, informação útil: ñ ç ã õ\n".encode("latin-1")})
        assert read(ft, "pt.txt")["content"] == "1|Olá, informação útil: ñ ç ã õ"

    def test_shift_jis(self, tools):
        ft = tools({"ja.txt": JAPANESE.encode("shift_jis")})
        out = read(ft, "ja.txt")
        assert out["content"] == ("1|こんにちは、世界。日本語のテキストファイルです。\n"
                                  "2|二行目：カタカナとひらがな。")
        assert out["encoding"] in ("shift_jis", "cp932", "shift_jis_2004")

    def test_gbk(self, tools):
        ft = tools({"zh.txt": CHINESE.encode("gbk")})
        out = read(ft, "zh.txt")
        assert out["content"] == "1|你好，世界。这是一个中文文本文件。\n2|第二行：简体中文。"

    def test_symbols_the_detector_names_nothing_for(self, tools):
        # charset-normalizer finds no candidate at all for these bytes; they are printable
        # Windows-1252.
        text = "Größe: 5 €, Café au lait, naïve Übergröße, déjà vu\nKK€Ö.0€\n"
        ft = tools({"w.txt": text.encode("cp1252")})
        out = read(ft, "w.txt")
        assert out["content"] == "1|Größe: 5 €, Café au lait, naïve Übergröße, déjà vu\n2|KK€Ö.0€"
        assert out["encoding"] == "cp1252"

    def test_legacy_line_after_a_utf8_start(self, tools):
        # The first 1000 bytes are ASCII; line 300 is Windows-1252.
        data = "".join(f"ascii line {i}\n" for i in range(1, 300)).encode() + (
            "Ça coûte 5 € à Zürich\n".encode("cp1252"))
        ft = tools({"log.txt": data})
        out = read(ft, "log.txt", offset=299)
        assert out["content"] == "299|ascii line 299\n300|Ça coûte 5 € à Zürich"
        assert out["encoding"] == "cp1252"
        assert "encoding" not in read(ft, "log.txt", limit=5)

    @pytest.mark.parametrize("data", [b"caf\xe9", b"caf\xe9\n", b"na\xefve"])
    def test_a_single_short_word(self, tools, data):
        ft = tools({"w.txt": data})
        assert read(ft, "w.txt")["content"] == "1|" + data.decode("cp1252").rstrip("\n")

    def test_no_replacement_characters(self, tools):
        ft = tools({"fr.txt": (FRENCH * 50).encode("cp1252")})
        assert "\ufffd" not in read(ft, "fr.txt")["content"]

    def test_line_cut_inside_a_double_byte_character(self, tools):
        ft = tools({"ja.txt": ("日本語" * 2000 + "\n" + JAPANESE).encode("shift_jis")})
        first = read(ft, "ja.txt")["content"].split("\n")[0]
        assert first == "1|" + ("日本語" * 2000)[:2000] + "... [truncated]"


class TestGenuineBinary:
    def test_random_bytes_with_nul(self, tools):
        rng = random.Random(7)
        ft = tools({"r.txt": bytes(rng.randrange(256) for _ in range(4096))})
        assert read(ft, "r.txt")["is_binary"] is True

    def test_random_bytes_without_nul(self, tools):
        rng = random.Random(11)
        ft = tools({"r.txt": bytes(rng.randrange(1, 256) for _ in range(4096))})
        out = read(ft, "r.txt")
        assert out["is_binary"] is True
        assert out["error"] == "Binary file (unknown binary, 4.0 KB) — cannot display as text."

    def test_signature_without_nul_stays_binary(self, tools):
        ft = tools({"x.txt": b"\x1f\x8b\x08\x08" + bytes(range(1, 200)) * 5})
        assert read(ft, "x.txt")["error"].startswith("Binary file (gzip compressed data, ")


class TestHelpers:
    @pytest.mark.parametrize("sample, binary", [
        (b"", False), (b"abc\x00", True), ("héllo".encode(), False),
        ("日本".encode()[:-1], False),          # a character cut by the sample's end
        (b"caf\xe9 au lait", True),            # Latin-1 in the middle: not UTF-8
        ("\ufffd".encode(), False),            # a real U+FFFD is text
    ])
    def test_looks_binary(self, sample, binary):
        assert looks_binary(sample) is binary

    def test_utf16_parity(self):
        assert utf16_encoding(b"a\x00b\x00") == "utf-16-le"
        assert utf16_encoding(b"\x00a\x00b") == "utf-16-be"
        assert utf16_encoding(b"a\x00\x00b") is None
        assert utf16_encoding(b"a\x00bc") is None  # one zero is not enough
        assert utf16_encoding(b"\xfe\xff") == "utf-16-be"

    def test_classify(self):
        assert classify(b"plain", bytes) is UTF8
        assert classify(b"\xff\xfea\x00", bytes) == TextEncoding("utf-16-le", utf16=True)
        assert classify(b"\x00\x01" * 8, bytes) is None  # zeros on one parity, but controls
        text = "café au lait, s'il vous plaît\n".encode("cp1252")
        assert classify(text, lambda: text) == TextEncoding("cp1252", whole=True)
        # a non-UTF-8 byte in the last 3 of the sample counts as a cut character (§2.4)
        assert classify("café".encode("cp1252"), bytes) is UTF8

    def test_control_share_is_strictly_greater_than_30_percent(self):
        assert control_share("\x01" * 3 + "a" * 7) == 0.3
        assert control_share("\t\n\r") == 0.0
        assert control_share("") == 0.0

    @pytest.mark.parametrize("size, text", [(0, "0 bytes"), (1023, "1023 bytes"),
                                            (1024, "1.0 KB"), (1536, "1.5 KB"),
                                            (1 << 20, "1.0 MB"), (5 * (1 << 20) + 1, "5.0 MB")])
    def test_format_size(self, size, text):
        assert format_size(size) == text

    @pytest.mark.parametrize("sample, kind", [
        (b"\x89PNG\r\n\x1a\nrest", "PNG image data"), (b"GIF89a", "GIF image data"),
        (b"%PDF-1.7", "PDF document"), (b"PK\x03\x04", "ZIP archive (also docx/xlsx/jar/apk)"),
        (b"\x7fELF", "ELF executable"), (b"\x00\x00\x00\x18ftypmp42", "ISO media container "
                                          "(MP4/MOV family)"),
        (b"\x00\x00\x00\x18moov", "unknown binary"), (b"SQLite format 3\x00", "SQLite database"),
        (b"MM\x00*", "TIFF image data (big-endian)"),
    ])
    def test_binary_kind(self, sample, kind):
        assert binary_kind(sample) == kind

    def test_line_decoder_reports_the_legacy_encoding(self):
        decoder = LineDecoder()
        assert decoder.decode([b"ok", "déjà vu, ça va très bien".encode("cp1252")]) == [
            "ok", "déjà vu, ça va très bien"]
        assert decoder.used == "cp1252"
