"""read_file's page: pagination, numbering, line clamp, budget, hints, BOM, final newline,
field order, and the tool-layer hints (§1.3, §1.4, §2.3, §2.6)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from shellfree.engine.read_result import ReadLimits, ReadResult
from shellfree.engine.read_text import read_page


def read(ft, path: str, **args: Any) -> dict[str, Any]:
    """``ft.read_file`` parsed, checking the text is ``json.dumps(..., ensure_ascii=False)``."""
    text = ft.read_file(path, **args)
    payload = json.loads(text)
    assert json.dumps(payload, ensure_ascii=False) == text
    return payload


def lines(n: int, width: int = 0) -> str:
    return "".join(f"line {i}{'x' * width}\n" for i in range(1, n + 1))


class TestPagination:
    @pytest.mark.parametrize("offset, limit, first, count", [
        (0, 0, 1, 1), (-10, -5, 1, 1), ("bad", "bad", 1, 2000), (2, 999999, 2, 2000),
        (None, None, 1, 2000), ("3", "2", 3, 2), (2.9, 1, 2, 1),
    ])
    def test_normalised(self, tools, offset, limit, first, count):
        ft = tools({"f.txt": lines(3000)})
        out = read(ft, "f.txt", offset=offset, limit=limit)
        numbers = [int(row.split("|")[0]) for row in out["content"].split("\n")]
        assert numbers[0] == first, out["content"][:40]
        assert len(numbers) == count or out.get("truncated_by") == "bytes"

    def test_default_limit_is_2000(self, tools):
        ft = tools({"f.txt": lines(2500)})
        out = read(ft, "f.txt")
        assert out["content"].split("\n")[-1] == "2000|line 2000"
        assert out["hint"] == "Use offset=2001 to continue reading (showing 1-2000 of 2500 lines)"

    def test_call_by_name(self, tools):
        ft = tools({"f.txt": "a\nb\n"})
        assert json.loads(ft.call("read_file", {"path": "f.txt", "offset": 2}))["content"] == "2|b"


class TestPage:
    def test_whole_file_fields_in_order(self, tools):
        ft = tools({"f.txt": "alpha\nbeta\n"})
        text = ft.read_file("f.txt")
        assert text == ('{"content": "1|alpha\\n2|beta", "total_lines": 2, "file_size": 11, '
                        '"truncated": false, "is_binary": false, "is_image": false}')

    def test_numbering_starts_at_the_offset_without_padding(self, tools):
        ft = tools({"f.txt": lines(12)})
        out = read(ft, "f.txt", offset=9, limit=3)
        assert out["content"] == "9|line 9\n10|line 10\n11|line 11"
        assert out["truncated"] is True
        assert out["hint"] == "Use offset=12 to continue reading (showing 9-11 of 12 lines)"

    def test_last_page_is_not_truncated(self, tools):
        ft = tools({"f.txt": lines(12)})
        out = read(ft, "f.txt", offset=11, limit=5)
        assert out["content"] == "11|line 11\n12|line 12"
        assert out["truncated"] is False and "hint" not in out

    def test_final_line_without_newline(self, tools):
        ft = tools({"f.txt": "a\nb\nc"})
        out = read(ft, "f.txt")
        assert (out["content"], out["total_lines"]) == ("1|a\n2|b\n3|c", 3)
        # EDGE CASE: the unterminated last line counts, so paging reaches it.
        page = read(ft, "f.txt", offset=2, limit=1)
        assert page["truncated"] is True
        assert page["hint"] == "Use offset=3 to continue reading (showing 2-2 of 3 lines)"
        assert read(ft, "f.txt", offset=3)["content"] == "3|c"

    def test_no_phantom_line_after_the_final_newline(self, tools):
        ft = tools({"f.txt": "a\n\n"})
        out = read(ft, "f.txt")
        assert (out["content"], out["total_lines"]) == ("1|a\n2|", 2)

    def test_crlf_is_shown_as_it_is(self, tools):
        ft = tools({"f.txt": b"a\r\nb\r\n"})
        assert read(ft, "f.txt")["content"] == "1|a\r\n2|b\r"

    def test_empty_file(self, tools):
        ft = tools({"f.txt": ""})
        assert read(ft, "f.txt") == {
            "content": "", "total_lines": 0, "file_size": 0, "truncated": False,
            "hint": "File is empty (0 bytes).", "is_binary": False, "is_image": False}

    def test_offset_beyond_the_end(self, tools):
        ft = tools({"f.txt": lines(5)})
        assert read(ft, "f.txt", offset=9) == {
            "content": "", "total_lines": 5, "file_size": 35, "truncated": False,
            "hint": "Note: offset 9 is beyond the end of the file (5 lines total). Retry with "
                    "offset <= 5.",
            "is_binary": False, "is_image": False}

    def test_utf8_bom_is_stripped_on_the_first_page_only(self, tools):
        ft = tools({"f.txt": "\ufeffone\n\ufefftwo\n".encode("utf-8")})
        assert read(ft, "f.txt")["content"] == "1|one\n2|\ufefftwo"
        assert read(ft, "f.txt", offset=2)["content"] == "2|\ufefftwo"

    def test_unicode_content(self, tools):
        ft = tools({"f.txt": "héllo → wörld 日本\n"})
        assert read(ft, "f.txt")["content"] == "1|héllo → wörld 日本"


class TestLineClamp:
    def test_2000_characters_then_marker(self, tools):
        ft = tools({"f.txt": "a" * 2000 + "\n" + "b" * 2001 + "\n"})
        first, second = read(ft, "f.txt")["content"].split("\n")
        assert first == "1|" + "a" * 2000
        assert second == "2|" + "b" * 2000 + "... [truncated]"

    def test_multibyte_characters_cut_at_the_byte_clamp(self, tools):
        # 2001 four-byte characters: the 8001-byte clamp cuts the last one in half.
        ft = tools({"f.txt": "😀" * 2001 + "\n"})
        assert read(ft, "f.txt")["content"] == "1|" + "😀" * 2000 + "... [truncated]"

    def test_exactly_2000_multibyte_characters_are_not_clamped(self, tools):
        ft = tools({"f.txt": "😀" * 2000 + "\n"})
        assert read(ft, "f.txt")["content"] == "1|" + "😀" * 2000

    def test_a_huge_line_streams(self, root, tools):
        ft = tools({"f.txt": "z" * 3_000_000 + "\nend\n"})
        out = read(ft, "f.txt")
        assert out["content"] == "1|" + "z" * 2000 + "... [truncated]\n2|end"
        assert out["total_lines"] == 2


class TestCharBudget:
    def test_truncates_on_a_line_boundary(self, tools):
        ft = tools({"f.txt": "".join(f"{'y' * 98}\n" for _ in range(1500))})
        out = read(ft, "f.txt")
        # each row is "N|" + 98 chars; rows 1-9: 101 chars, 10-99: 102, 100-999: 103 (+ "\n")
        kept = out["content"].split("\n")
        assert len(out["content"]) <= 100_000 < len(out["content"]) + len(kept[-1]) + 105
        assert out["truncated"] is True
        assert out["truncated_by"] == "bytes"
        assert out["next_offset"] == len(kept) + 1
        assert out["hint"] == (
            f"Output truncated at the 100,000-char read budget after {len(kept)} line(s) "
            f"(showing lines 1-{len(kept)} of 1500). Use offset={len(kept) + 1} to continue.")
        # A new key goes last; a page cut by lines already had its "hint" before is_binary.
        assert list(out) == ["content", "total_lines", "file_size", "truncated", "is_binary",
                             "is_image", "truncated_by", "next_offset", "hint"]
        paged = read(ft, "f.txt", limit=1200)
        assert list(paged)[:5] == ["content", "total_lines", "file_size", "truncated", "hint"]

    def test_continues_from_next_offset(self, tools):
        ft = tools({"f.txt": "".join(f"{i:05d}{'y' * 93}\n" for i in range(1, 1501))})
        first = read(ft, "f.txt")
        second = read(ft, "f.txt", offset=first["next_offset"])
        assert second["content"].startswith(f"{first['next_offset']}|{first['next_offset']:05d}")

    def test_first_line_alone_over_budget(self, tools):
        ft = tools({"f.txt": "a" * 150 + "\nb\n"})
        ft.read_limits = ReadLimits(max_line_length=1000, max_chars=100)
        out = read(ft, "f.txt")
        assert out["content"] == ("1|" + "a" * 150)[:100]
        assert out["truncated_lines"] is True
        assert out["next_offset"] == 2
        assert out["hint"] == (
            "Output truncated at the 100-char read budget after 1 line(s) (showing lines 1-1 "
            "of 2). Use offset=2 to continue. Note: the first line alone exceeded the budget and "
            "was clamped mid-line; its remainder is not retrievable via offset.")

    def test_budget_is_measured_before_redaction(self, tools):
        token = "sk-" + "a" * 40
        ft = tools({"f.txt": f"{token}\n" * 10})
        ft.read_limits = ReadLimits(max_chars=3 * 45 + 2)
        out = read(ft, "f.txt")
        assert out["next_offset"] == 4
        assert out["content"] == "\n".join(f"{i}|«redacted:sk-…»" for i in (1, 2, 3))


class TestToolLayerHints:
    def test_large_file_hint(self, tools):
        ft = tools({"f.txt": ("x" * 600 + "\n") * 1000})
        assert read(ft, "f.txt", limit=201)["_hint"] == (
            "This file is large (601,000 bytes). Consider reading only the section you need "
            "with offset and limit to keep context usage efficient.")

    def test_large_file_hint_thresholds(self, tools):
        ft = tools({"f.txt": ("x" * 600 + "\n") * 1000, "small.txt": ("x" * 500 + "\n") * 1024})
        assert "_hint" in read(ft, "small.txt", limit=201)  # 513,024 bytes
        assert "_hint" not in read(ft, "f.txt", limit=200)
        assert "_hint" not in read(ft, "f.txt", offset=900, limit=300)  # not truncated
        ft2 = tools({"exact.txt": ("x" * 499 + "\n") * 1024})  # exactly 512,000 bytes
        assert "_hint" not in read(ft2, "exact.txt", limit=201)
        assert "_hint" not in read(ft, "f.txt", limit=200)
        assert "_hint" not in read(ft, "f.txt", offset=900, limit=300)  # not truncated

    def test_conflict_blocks(self, tools):
        ft = tools({"f.txt": "a\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> branch\n"
                             "<<<<<<< HEAD\nx\n"})
        out = read(ft, "f.txt")
        assert out["conflict_blocks"] == 1
        assert out["_hint"] == (
            "1 unresolved git merge-conflict block(s) (<<<<<<< / ======= / >>>>>>>) in this "
            "range. Resolve them (keep one side or combine, delete the markers) before editing "
            "around them.")

    def test_no_conflict_without_a_closing_marker(self, tools):
        ft = tools({"f.txt": "<<<<<<< HEAD\nmine\n"})
        assert "conflict_blocks" not in read(ft, "f.txt")


class TestRedaction:
    def test_tokens_in_ordinary_files(self, tools):
        ft = tools({"app.py": 'KEY = "sk-abcdefghijklmnopqrstuvwx"\nAPI_KEY = "plainvalue1234"\n'})
        assert read(ft, "app.py")["content"] == (
            '1|KEY = "«redacted:sk-…»"\n2|API_KEY = "plainvalue1234"')

    def test_secret_files_get_every_pass(self, tools):
        ft = tools({".bashrc": "export TOKEN=abcdefghijklmnop1234567890\n"})
        assert read(ft, ".bashrc")["content"] == "1|export TOKEN=«redacted-secret»"


class TestStreaming:
    """The streamed page equals the page cut from the whole file, across chunk borders."""

    @pytest.mark.parametrize("chunk", [1, 2, 3, 7, 64])
    @pytest.mark.parametrize("offset, limit", [(1, 3), (2, 2), (4, 10), (6, 1), (7, 1)])
    def test_any_chunk_size(self, tmp_path, chunk, offset, limit):
        data = "ab\n\ncdef\ng\nhij\nk"
        path = tmp_path / "f.txt"
        path.write_text(data, encoding="utf-8")
        result = read_page(str(path), offset, limit, chunk_size=chunk)
        rows = data.split("\n")
        expected = [f"{n}|{rows[n - 1]}" for n in range(offset, min(offset + limit, 7))]
        assert result.content == "\n".join(expected), (chunk, offset, limit)
        assert result.total_lines == 6

    def test_result_is_frozen(self):
        with pytest.raises(AttributeError):
            ReadResult().content = "x"  # type: ignore[misc]
