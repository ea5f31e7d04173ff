"""SearchResult.to_dict: key order, omission rules, densify at 5 matches (hermes-contract §5.6)."""

from __future__ import annotations

from shellfree.engine import messages
from shellfree.engine.results import DENSIFY_MIN_MATCHES, SearchMatch, SearchResult


def _matches(n: int) -> tuple[SearchMatch, ...]:
    return tuple(SearchMatch(f"f{i // 2}.py", i + 1, f"line {i}  ") for i in range(n))


class TestToDict:
    def test_empty_result_is_just_the_total(self):
        assert SearchResult().to_dict(densify=True) == {"total_count": 0}

    def test_key_order_of_every_field(self):
        result = SearchResult(
            total_count=9, matches=_matches(2), files=("a",), counts=(("a", 1),),
            truncated=True, total_count_is_lower_bound=True, limit_reason="search_timeout",
            warning="w", error="e",
        )
        assert list(result.to_dict()) == [
            "total_count", "matches", "files", "counts", "truncated",
            "total_count_is_lower_bound", "limit_reason", "warning", "error",
        ]

    def test_match_rows_use_the_key_line(self):
        result = SearchResult(total_count=2, matches=(SearchMatch("a.py", 3, "def f():"),
                                                      SearchMatch("b.py", 9, "x = f()")))
        assert result.to_dict(densify=True) == {"total_count": 2, "matches": [
            {"path": "a.py", "line": 3, "content": "def f():"},
            {"path": "b.py", "line": 9, "content": "x = f()"}]}

    def test_four_matches_stay_a_list(self):
        out = SearchResult(total_count=4, matches=_matches(4)).to_dict(densify=True)
        assert "matches" in out and "matches_text" not in out

    def test_five_matches_are_path_grouped(self):
        assert DENSIFY_MIN_MATCHES == 5
        out = SearchResult(total_count=5, matches=_matches(5)).to_dict(densify=True)
        assert list(out) == ["total_count", "matches_format", "matches_text"]
        assert out["matches_format"] == (
            "path-grouped: each file path on its own line, followed by indented "
            "'<line>: <content>' rows for matches in that file")
        assert out["matches_text"] == (
            "f0.py\n  1: line 0\n  2: line 1\nf1.py\n  3: line 2\n  4: line 3\nf2.py\n  5: line 4")

    def test_densify_strips_only_trailing_whitespace_and_repeats_paths_on_change(self):
        matches = (SearchMatch("a b.py", 1, "  x\t"), SearchMatch("c.py", 2, "y"),
                   SearchMatch("a b.py", 3, "z"), SearchMatch("a b.py", 4, "w"),
                   SearchMatch("a b.py", 5, "v "))
        text = SearchResult(total_count=5, matches=matches).to_dict(densify=True)["matches_text"]
        assert text == "a b.py\n  1:   x\nc.py\n  2: y\na b.py\n  3: z\n  4: w\n  5: v"

    def test_without_densify_five_matches_stay_a_list(self):
        assert "matches" in SearchResult(total_count=5, matches=_matches(5)).to_dict()

    def test_truncated_alone_when_the_total_is_exact(self):
        out = SearchResult(total_count=3, files=("a",), truncated=True).to_dict()
        assert out == {"total_count": 3, "files": ["a"], "truncated": True}

    def test_falsy_fields_are_left_out(self):
        out = SearchResult(total_count=1, files=("a",), warning="", error=None).to_dict()
        assert out == {"total_count": 1, "files": ["a"]}

    def test_counts_become_an_object(self):
        out = SearchResult(total_count=7, counts=(("a.py", 4), ("b.py", 3))).to_dict()
        assert out == {"total_count": 7, "counts": {"a.py": 4, "b.py": 3}}

    def test_with_warning_joins_with_a_space(self):
        assert SearchResult().with_warning("a").with_warning("b").warning == "a b"

    def test_matches_format_text_lives_in_messages(self):
        assert SearchResult(total_count=5, matches=_matches(5)).to_dict(True)[
            "matches_format"] == messages.MATCHES_FORMAT
