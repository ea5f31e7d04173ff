"""Parsing rg output into results, as Hermes' ``_parse_search_output`` does (§5.4, §5.5)."""

from __future__ import annotations


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shellfree.engine.backends import RgRun
from shellfree.engine.results import SearchMatch
from shellfree.engine.search_output import (
    CONTENT_CLAMP,
    parse_files_output,
    parse_probe_counts,
    parse_search_output,
    search_failure,
)
from shellfree.engine.text_decoding import LineDecoder


@pytest.fixture
def decoder(tmp_path):
    return LineDecoder(str(tmp_path))


def parse(stdout: bytes, decoder, *, mode="content", limit=50, offset=0, context=0, status=0,
          stderr=b"", **flags):
    run = RgRun(stdout, stderr, status, **flags)
    return parse_search_output(run, output_mode=mode, limit=limit, offset=offset,
                               context=context, decoder=decoder)


class TestContent:
    # content_command passes --null: rg ends every printed path with a NUL.
    def test_match_lines(self, decoder):
        result = parse(b"./a.py\x003:def f():\n./b c.py\x0010:x = 1:2:3\n", decoder)
        assert result.matches == (SearchMatch("./a.py", 3, "def f():"),
                                  SearchMatch("./b c.py", 10, "x = 1:2:3"))
        assert result.total_count == 2 and not result.truncated

    def test_a_path_is_what_precedes_its_nul(self, decoder):
        # Hermes split "path:LINE:" at the first ":DIGITS:" and lost such names.
        out = b"./notes:2024:x.md\x007:a:1:b\n./a\nb.txt\x001:x\nC:\\src\\a.py\x009:y\n"
        assert parse(out, decoder).matches == (
            SearchMatch("./notes:2024:x.md", 7, "a:1:b"), SearchMatch("./a\nb.txt", 1, "x"),
            SearchMatch("C:\\src\\a.py", 9, "y"))
        assert parse(out, decoder, limit=1).total_count == 3

    def test_content_clamped_to_500_characters(self, decoder):
        assert CONTENT_CLAMP == 500
        line = "é" * 700
        result = parse(f"a\x001:{line}\n".encode(), decoder)
        assert result.matches[0].content == "é" * 500

    def test_crlf_keeps_the_carriage_return(self, decoder):
        assert parse(b"a\x001:x\r\n", decoder).matches[0].content == "x\r"

    def test_context_lines_become_matches(self, decoder):
        # content_command passes --no-context-separator: a file may be named "--\n…".
        out = b"./a\x001-before\n./a\x002:hit\n./a\x003-after\n./a-9-x\x007-y\n--\nb\x001:z\n"
        result = parse(out, decoder, context=1)
        assert result.matches == (
            SearchMatch("./a", 1, "before"), SearchMatch("./a", 2, "hit"),
            SearchMatch("./a", 3, "after"), SearchMatch("./a-9-x", 7, "y"),
            SearchMatch("--\nb", 1, "z"),
        )
        assert parse(out, decoder, context=1, limit=1).total_count == 5

    def test_without_context_context_rows_are_dropped(self, decoder):
        out = b"./a\x001-before\n./a\x002:hit\n"
        assert parse(out, decoder).total_count == 1
        assert parse(out, decoder, limit=0).total_count == 1

    def test_exact_total_and_truncation(self, decoder):
        out = b"".join(b"a\x00%d:x\n" % i for i in range(1, 8))
        result = parse(out, decoder, limit=3, offset=2)
        assert [m.line_number for m in result.matches] == [3, 4, 5]
        assert result.total_count == 7 and result.truncated
        assert not result.total_count_is_lower_bound
        last = parse(out, decoder, limit=3, offset=4)
        assert [m.line_number for m in last.matches] == [5, 6, 7] and not last.truncated

    def test_line_cap_makes_the_total_a_lower_bound(self, decoder):
        result = parse(b"a\x001:x\n", decoder, capped="lines")
        assert (result.truncated, result.total_count_is_lower_bound, result.limit_reason) == (
            True, True, "max_result_lines")
        assert parse(b"a\x001:x\n", decoder, capped="bytes").limit_reason == "max_result_bytes"

    def test_timeout(self, decoder):
        result = parse(b"a\x001:x\n", decoder, status=124, timed_out=True)
        assert (result.truncated, result.total_count_is_lower_bound, result.limit_reason) == (
            True, True, "search_timeout")

    def test_invalid_utf8_in_a_path_becomes_replacement_characters(self, decoder):
        assert parse(b"./caf\xe9\x001:x\n", decoder).matches[0].path == "./caf\ufffd"


class TestFailure:
    def test_exit_2_without_output_is_an_error(self, decoder):
        result = parse(b"", decoder, status=2, stderr=b"rg: regex parse error:\n  x\n")
        assert result.error == "Search failed: rg: regex parse error:\n  x"
        assert result.total_count == 0

    def test_exit_2_without_any_text(self, decoder):
        assert parse(b"", decoder, status=2).error == "Search failed: Search error"

    def test_exit_2_with_output_is_a_partial_success(self, decoder):
        result = parse(b"a\x001:x\n", decoder, status=2, stderr=b"rg: b: Permission denied\n")
        assert result.error is None and result.total_count == 1

    def test_exit_1_is_no_match(self, decoder):
        assert search_failure(RgRun(b"", b"", 1)) is None


class TestBinaryNotices:
    """rg names a matching file that holds a NUL, when it was named as a root, in a line of its
    own with no NUL: ``PATH: binary file matches (found "\\0" byte around offset N)``."""

    NOTICE = b'./d.docx: binary file matches (found "\\0" byte around offset 5)\n'

    def test_a_notice_is_no_row_and_leaves_the_next_row_whole(self, decoder):
        out = self.NOTICE + b"./b.txt\x001:hi\n" + self.NOTICE.replace(b"d.docx", b"e x.bin")
        result = parse(out, decoder)
        assert result.matches == (SearchMatch("./b.txt", 1, "hi"),)
        assert result.total_count == 1
        assert result.binary_matches == ("./d.docx", "./e x.bin")

    def test_with_context_and_past_the_page(self, decoder):
        out = b"./a\x001-x\n./a\x002:hi\n" + self.NOTICE + b"./b\x001:hi\n"
        result = parse(out, decoder, context=1, limit=2)
        assert [m.path for m in result.matches] == ["./a", "./a"] and result.total_count == 3
        result = parse(out, decoder, context=1, limit=1, offset=2)
        assert result.matches == (SearchMatch("./b", 1, "hi"),)
        assert result.binary_matches == ("./d.docx",)

    def test_a_stopped_search_notice_is_no_row_either(self, decoder):
        # A walked file whose NUL comes after a match: its rows, then this notice.
        notice = (b'./a.bin: WARNING: stopped searching binary file after match (found "\\0" '
                  b"byte around offset 70001)\n")
        out = b"./a.bin\x001:hi\n" + notice + b"./b.txt\x001:hi\n"
        result = parse(out, decoder)
        assert result.matches == (SearchMatch("./a.bin", 1, "hi"), SearchMatch("./b.txt", 1, "hi"))
        assert result.total_count == 2 and result.binary_matches == ()
        assert parse(out, decoder, limit=1, offset=1).matches == (SearchMatch("./b.txt", 1, "hi"),)

    def test_a_row_holding_the_notice_text_is_a_row(self, decoder):
        out = b"./t.py\x007:" + self.NOTICE
        result = parse(out, decoder)
        assert result.matches == (SearchMatch("./t.py", 7, self.NOTICE[:-1].decode()),)
        assert result.binary_matches == ()

    def test_a_newline_in_the_binary_file_name(self, decoder):
        out = b"./new\nline: " + self.NOTICE.partition(b": ")[2] + b"./b\x001:hi\n"
        result = parse(out, decoder)
        assert result.matches == (SearchMatch("./b", 1, "hi"),)


class TestFilesOnly:
    def test_paths_paginated_with_exact_total(self, decoder):
        # --null: a path ends at its NUL, a newline in it included.
        result = parse(b"./a b.txt\x00./c\nd\x00./d\x00", decoder, mode="files_only", limit=2)
        assert result.files == ("./a b.txt", "./c\nd")
        assert result.total_count == 3 and result.truncated


class TestCount:
    def test_a_path_is_what_precedes_its_nul(self, decoder):
        result = parse(b"./a:b.txt:3\x003\n./c\x004\n./d\ne\x001\n", decoder, mode="count")
        assert result.counts == (("./a:b.txt:3", 3), ("./c", 4), ("./d\ne", 1))
        assert result.total_count == 8 and not result.truncated

    def test_files_paginated_total_over_all_files(self, decoder):
        result = parse(b"./a\x003\n./b\x004\n./c\x005\n", decoder, mode="count", limit=1,
                       offset=1)
        assert result.counts == (("./b", 4),)
        assert result.total_count == 12 and result.truncated


class TestFiles:
    def test_page_and_total(self, decoder):
        run = RgRun(b"./a\x00./b\nc\x00./c\x00", b"", 0)  # --null
        result = parse_files_output(run, limit=1, offset=1, modified=False, decoder=decoder)
        assert (result.files, result.total_count, result.truncated) == (("./b\nc",), 3, True)

    @pytest.mark.parametrize("modified, message", [
        (False, "File search failed while running ripgrep."),
        (True, "Exact modification-time order failed; ripgrep 14+ is required. Upgrade ripgrep "
               "or use order='discovery'."),
    ])
    def test_errors(self, decoder, modified, message):
        run = RgRun(b"./a\n", b"rg: x\n", 2)
        result = parse_files_output(run, limit=5, offset=0, modified=modified, decoder=decoder)
        assert result.error == message and result.total_count == 0


def test_probe_counts(decoder):
    run = RgRun(b"./a\x002\n./b:c:1\x003\nnoise\n", b"", 0)
    assert parse_probe_counts(run, decoder) == (5, ["./a", "./b:c:1"])


# The rows an output is made of, as the reference for the page and the bulk count: a record is
# a path (no NUL), a NUL, and "LINE:TEXT" (a match row) or, under context, "LINE-TEXT", up to a
# newline (the command asks rg for no "--" separators).
_PATH = st.text(alphabet="ab:-0129C\n\\/ é", min_size=1, max_size=10)
_TEXT = st.text(alphabet="ab:-0129C\r\\/ é", max_size=14)
_ROW = st.tuples(_PATH, st.integers(0, 999), st.sampled_from([":", "-"]), _TEXT)


class TestRowCount:
    """The page is split row by row and the rest counted in bulk; both must give back the
    rows the output was made of."""

    @settings(max_examples=600, deadline=None)
    @given(rows=st.lists(_ROW, max_size=12),
           context=st.sampled_from([0, 2]), limit=st.integers(0, 5), offset=st.integers(0, 4))
    def test_total_and_page_follow_the_rows(self, rows, context, limit, offset):
        if context == 0:  # rg prints context rows only under -C
            rows = [r for r in rows if r[2] == ":"]
        stdout = b"".join(f"{r[0]}\x00{r[1]}{r[2]}{r[3]}\n".encode() for r in rows)
        expected = [(r[0], r[1]) for r in rows]
        # Every path is valid UTF-8, so the decoder never opens a file.
        result = parse(stdout, LineDecoder("."), limit=limit, offset=offset, context=context)
        assert result.total_count == len(expected)
        assert [(m.path, m.line_number) for m in result.matches] == expected[offset:offset + limit]
        assert result.truncated == (len(expected) > offset + limit)
