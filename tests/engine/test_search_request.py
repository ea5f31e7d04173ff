"""Argument normalisation: defaults, target aliases, blank paths, pagination (§1.3, §5.1)."""

from __future__ import annotations

import pytest

from shellfree.engine.pagination import normalize_read_pagination, normalize_search_pagination
from shellfree.engine.search_request import SearchRequest


class TestFromArguments:
    def test_defaults(self):
        assert SearchRequest.from_arguments() == SearchRequest(
            pattern="", target="content", path=".", file_glob=None, limit=50, offset=0,
            output_mode="content", context=0, order="discovery")

    @pytest.mark.parametrize("alias, target", [("grep", "content"), ("find", "files"),
                                               ("files", "files"), ("content", "content")])
    def test_target_aliases(self, alias, target):
        assert SearchRequest.from_arguments("x", target=alias).target == target

    @pytest.mark.parametrize("path", [None, "", "   "])
    def test_missing_or_blank_path_is_dot(self, path):
        assert SearchRequest.from_arguments("x", path=path).path == "."

    def test_none_pattern_is_empty(self):
        assert SearchRequest.from_arguments(None).pattern == ""

    def test_empty_file_glob_is_none(self):
        assert SearchRequest.from_arguments("x", file_glob="").file_glob is None

    @pytest.mark.parametrize("context, expected", [("3", 3), ("bad", 0), (None, 0), (2.7, 2)])
    def test_context_coercion(self, context, expected):
        assert SearchRequest.from_arguments("x", context=context).context == expected

    def test_loop_key_has_pagination_order_and_the_view(self):
        a = SearchRequest.from_arguments("p", path="src", file_glob=None, output_mode="count")
        assert a.loop_key == ("search", "p", "content", "src", "", 50, 0, "discovery", "count", 0)
        assert SearchRequest.from_arguments("p", path="src", output_mode="count",
                                            file_glob="").loop_key == a.loop_key
        for other in ({"offset": 50}, {"output_mode": "content"}, {"context": 3}):
            args = {"path": "src", "output_mode": "count", **other}
            assert SearchRequest.from_arguments("p", **args).loop_key != a.loop_key, other
        files = SearchRequest.from_arguments("*.py", target="files", output_mode="count")
        assert files.loop_key == SearchRequest.from_arguments("*.py", target="files",
                                                              context=2).loop_key


class TestSearchPagination:
    @pytest.mark.parametrize("given, expected", [
        ((0, 0), (0, 1)), ((-10, -5), (0, 1)), (("bad", "bad"), (0, 50)),
        ((None, None), (0, 50)), (("7", "20"), (7, 20)), ((3, 10**9), (3, 10**9)),
    ])
    def test_normalisation(self, given, expected):
        assert normalize_search_pagination(*given) == expected


class TestReadPagination:
    # The pins of tests/tools/test_file_operations.py (§1.3).
    @pytest.mark.parametrize("given, expected", [
        ((0, 0), (1, 1)), ((-10, -5), (1, 1)), (("bad", "bad"), (1, 2000)),
        ((2, 999999), (2, 2000)),
    ])
    def test_normalisation(self, given, expected):
        assert normalize_read_pagination(*given) == expected
