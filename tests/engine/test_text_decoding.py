"""Decoding printed lines: UTF-8, else the file's detected legacy encoding (issue 4)."""

from __future__ import annotations

import pytest

from shellfree.engine.text_decoding import LineDecoder, detect_legacy_encoding

SAMPLES = {
    "cp1252": "Le café de la gare est très animé, déjà plein à midi, où l'on mange bien.\n",
    "cp1251": "Привет, как дела? Это тестовая строка на русском языке.\n",
    "shift_jis": "これは日本語のテキストです。ファイルの検索をテストします。\n",
    "cp1253": "Καλημέρα κόσμε, αυτό είναι ένα δοκιμαστικό κείμενο.\n",
}


@pytest.mark.parametrize("encoding", sorted(SAMPLES))
def test_detected_encoding_decodes_the_text(encoding):
    data = SAMPLES[encoding].encode(encoding)
    assert data.decode(detect_legacy_encoding(data)) == SAMPLES[encoding]


def test_short_latin1_is_windows_1252():
    assert detect_legacy_encoding("café\n".encode("latin-1")) == "cp1252"


@pytest.mark.parametrize("word", ["Übergröße", "Fußgänger", "ça va", "Öl"])
def test_western_words_the_detector_takes_for_cjk(word):
    from charset_normalizer import from_bytes

    data = word.encode("cp1252") + b"\n"
    ranked = [match.encoding for match in from_bytes(data)
              if not match.encoding.startswith(("utf_16", "utf_32"))]
    assert ranked[0] in ("big5", "cp932", "shift_jis")  # the premise: a CJK guess first
    assert detect_legacy_encoding(data) == "cp1252"


@pytest.mark.parametrize(("text", "encoding"), [
    ("日本語のテキストです。", "shift_jis"), ("こんにちは", "shift_jis"),
    ("你好，世界。这是中文。", "gbk"), ("中文測試文字", "big5"), ("한국어 텍스트입니다", "euc_kr"),
])
def test_short_cjk_is_not_taken_for_western_words(text, encoding):
    assert detect_legacy_encoding(text.encode(encoding) + b"\n") != "cp1252"


def test_printable_windows_1252_the_detector_names_nothing_for():
    from charset_normalizer import from_bytes

    data = "Größe: 5 €, Café au lait, naïve Übergröße, déjà vu\nKK€Ö.0€\n".encode("cp1252")
    assert not list(from_bytes(data))  # the premise
    assert detect_legacy_encoding(data) == "cp1252"
    assert detect_legacy_encoding(data.replace(b"K", b"\x01")) is None  # a control character
    assert detect_legacy_encoding(data + b"\x81") is None  # a byte cp1252 does not define


def test_line_decoder(tmp_path):
    (tmp_path / "ru.txt").write_bytes(SAMPLES["cp1251"].encode("cp1251") * 2)
    decoder = LineDecoder(str(tmp_path))
    line = SAMPLES["cp1251"].rstrip("\n").encode("cp1251")
    assert decoder.content(line, b"./ru.txt") == SAMPLES["cp1251"].rstrip("\n")
    (tmp_path / "de.txt").write_text("Grüße\n", encoding="utf-8")
    assert decoder.content("ünïcode".encode(), b"./de.txt") == "ünïcode"
    # A file in a code page throughout is decoded in it even where a line would be UTF-8,
    # as read_file shows it.
    assert decoder.content("ünïcode".encode(), b"./ru.txt") == "ünïcode".encode().decode("cp1251")
    assert decoder.content(b"\xff\xfe", b"./missing") == "\ufffd\ufffd"
    assert decoder.fs_path(b"./ru.txt") == str(tmp_path / "ru.txt")
