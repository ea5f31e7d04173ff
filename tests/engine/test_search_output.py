"""Parsing rg output into results, as Hermes' ``_parse_search_output`` does (§5.4, §5.5)."""

from __future__ import annotations

import re

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
    def test_match_lines(self, decoder):
        result = parse(b"./a.py:3:def f():\n./b c.py:10:x = 1:2:3\n", decoder)
        assert result.matches == (SearchMatch("./a.py", 3, "def f():"),
                                  SearchMatch("./b c.py", 10, "x = 1:2:3"))
        assert result.total_count == 2 and not result.truncated

    def test_drive_letter_kept_in_the_path(self, decoder):
        result = parse(b"C:\\src\\a.py:7:x\n", decoder)
        assert result.matches == (SearchMatch("C:\\src\\a.py", 7, "x"),)

    def test_content_clamped_to_500_characters(self, decoder):
        assert CONTENT_CLAMP == 500
        line = "é" * 700
        result = parse(f"a:1:{line}\n".encode(), decoder)
        assert result.matches[0].content == "é" * 500

    def test_crlf_keeps_the_carriage_return(self, decoder):
        assert parse(b"a:1:x\r\n", decoder).matches[0].content == "x\r"

    def test_context_lines_become_matches_and_separators_vanish(self, decoder):
        out = b"./a-1-before\n./a:2:hit\n./a-3-after\n--\n./a-9-x-7-y\n"
        result = parse(out, decoder, context=1)
        assert result.matches == (
            SearchMatch("./a", 1, "before"), SearchMatch("./a", 2, "hit"),
            SearchMatch("./a", 3, "after"),
            # Hermes: the rightmost "-digits-" splits a context line, even inside the content.
            SearchMatch("./a-9-x", 7, "y"),
        )

    def test_without_context_unparsable_lines_are_dropped(self, decoder):
        assert parse(b"./a-1-before\n./a:2:hit\n", decoder).total_count == 1

    def test_context_line_needs_a_path(self, decoder):
        assert parse(b"-1-x\n", decoder, context=2).matches == ()

    def test_exact_total_and_truncation(self, decoder):
        out = b"".join(b"a:%d:x\n" % i for i in range(1, 8))
        result = parse(out, decoder, limit=3, offset=2)
        assert [m.line_number for m in result.matches] == [3, 4, 5]
        assert result.total_count == 7 and result.truncated
        assert not result.total_count_is_lower_bound
        last = parse(out, decoder, limit=3, offset=4)
        assert [m.line_number for m in last.matches] == [5, 6, 7] and not last.truncated

    def test_line_cap_makes_the_total_a_lower_bound(self, decoder):
        result = parse(b"a:1:x\n", decoder, capped="lines")
        assert (result.truncated, result.total_count_is_lower_bound, result.limit_reason) == (
            True, True, "max_result_lines")
        assert parse(b"a:1:x\n", decoder, capped="bytes").limit_reason == "max_result_bytes"

    def test_timeout(self, decoder):
        result = parse(b"a:1:x\n", decoder, status=124, timed_out=True)
        assert (result.truncated, result.total_count_is_lower_bound, result.limit_reason) == (
            True, True, "search_timeout")

    def test_invalid_utf8_in_a_path_becomes_replacement_characters(self, decoder):
        assert parse(b"./caf\xe9:1:x\n", decoder).matches[0].path == "./caf\ufffd"


class TestFailure:
    def test_exit_2_without_output_is_an_error(self, decoder):
        result = parse(b"", decoder, status=2, stderr=b"rg: regex parse error:\n  x\n")
        assert result.error == "Search failed: rg: regex parse error:\n  x"
        assert result.total_count == 0

    def test_exit_2_without_any_text(self, decoder):
        assert parse(b"", decoder, status=2).error == "Search failed: Search error"

    def test_exit_2_with_output_is_a_partial_success(self, decoder):
        result = parse(b"a:1:x\n", decoder, status=2, stderr=b"rg: b: Permission denied\n")
        assert result.error is None and result.total_count == 1

    def test_exit_1_is_no_match(self, decoder):
        assert search_failure(RgRun(b"", b"", 1)) is None


class TestFilesOnly:
    def test_paths_paginated_with_exact_total(self, decoder):
        result = parse(b"./a b.txt\n./c\n./d\n", decoder, mode="files_only", limit=2)
        assert result.files == ("./a b.txt", "./c")
        assert result.total_count == 3 and result.truncated


class TestCount:
    def test_split_at_the_last_colon(self, decoder):
        result = parse(b"./a:b.txt:3\n./c:4\n", decoder, mode="count")
        assert result.counts == (("./a:b.txt", 3), ("./c", 4))
        assert result.total_count == 7 and not result.truncated

    def test_files_paginated_total_over_all_files(self, decoder):
        result = parse(b"./a:3\n./b:4\n./c:5\n", decoder, mode="count", limit=1, offset=1)
        assert result.counts == (("./b", 4),)
        assert result.total_count == 12 and result.truncated


class TestFiles:
    def test_page_and_total(self, decoder):
        run = RgRun(b"./a\n./b\n./c\n", b"", 0)
        result = parse_files_output(run, limit=1, offset=1, modified=False, decoder=decoder)
        assert (result.files, result.total_count, result.truncated) == (("./b",), 3, True)

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
    run = RgRun(b"./a:2\n./b:c:3\nnoise\n", b"", 0)
    assert parse_probe_counts(run, decoder) == (5, ["./a", "./b:c"])


# The contract's row rule, line by line (hermes-contract.md §5.4), as the reference for the
# bulk count: a match row fits ^([A-Za-z]:)?(.*?):(\d+):(.*)$; with context, a line that does
# not splits at its rightmost -(\d+)- not at position 0.
_CONTRACT_MATCH = re.compile(rb"^([A-Za-z]:)?(.*?):(\d+):(.*)$", re.S)
_CONTRACT_CONTEXT = re.compile(rb"^(.+)-(\d+)-(.*)$", re.S)


def _contract_rows(stdout: bytes, context: int) -> list[tuple[str, int]]:
    rows = []
    for line in stdout.split(b"\n"):
        if not line or line == b"--":
            continue
        found = _CONTRACT_MATCH.match(line)
        if found is not None:
            rows.append(((found.group(1) or b"") + found.group(2), int(found.group(3))))
        elif context > 0 and (found := _CONTRACT_CONTEXT.match(line)) is not None:
            rows.append((found.group(1), int(found.group(2))))
    return [(path.decode("utf-8", "replace"), number) for path, number in rows]


# Lines made of the characters the row rule looks at, so that near-misses are common, and
# lines shaped as rows and context rows around such text.
_TEXT = st.text(alphabet="ab:-0129C\r\\/ é\x00", max_size=14)
_LINE = st.one_of(
    _TEXT,
    st.tuples(_TEXT, st.integers(0, 999), _TEXT).map(lambda t: f"{t[0]}:{t[1]}:{t[2]}"),
    st.tuples(_TEXT, st.integers(0, 999), _TEXT).map(lambda t: f"{t[0]}-{t[1]}-{t[2]}"),
).map(lambda text: text.encode("utf-8"))


class TestRowCount:
    """The page is split row by row and the rest counted in bulk; both must agree with the
    contract's rule applied to every line."""

    @settings(max_examples=600, deadline=None)
    @given(lines=st.lists(_LINE, max_size=12), trailing=st.booleans(),
           context=st.sampled_from([0, 2]), limit=st.integers(0, 5), offset=st.integers(0, 4))
    def test_total_and_page_follow_the_contract(self, lines, trailing, context, limit, offset):
        stdout = b"\n".join(lines) + (b"\n" if trailing and lines else b"")
        expected = _contract_rows(stdout, context)
        # Every line is valid UTF-8, so the decoder never opens a file.
        result = parse(stdout, LineDecoder("."), limit=limit, offset=offset, context=context)
        assert result.total_count == len(expected)
        assert [(m.path, m.line_number) for m in result.matches] == expected[offset:offset + limit]
        assert result.truncated == (len(expected) > offset + limit)

    @pytest.mark.parametrize("line, context, is_row", [
        (b"a:12:x", 0, True),
        (b"a:x:1:2", 0, True),      # the digits may follow any colon
        (b":1:", 0, True),          # an empty path still fits the rule
        (b"a:12x:", 0, False),
        (b"a::", 0, False),
        (b"a-1-x", 0, False),       # a context line counts only when context is asked for
        (b"a-1-x", 2, True),
        (b"-1-x", 2, False),        # the dash may not open the line
        (b"--1-x", 2, True),        # ...but the second character may be it
        (b"--", 2, False),
    ])
    def test_lines_after_the_page(self, decoder, line, context, is_row):
        # limit 1 puts the line in the bulk-counted rest, after one ordinary row.
        result = parse(b"a:1:x\n" + line + b"\n", decoder, limit=1, context=context)
        assert result.total_count == 1 + is_row
