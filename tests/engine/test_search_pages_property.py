"""search_files pages partition the results, for any page size: walking the pages of a search
(offset 0, limit, 2 × limit, …) gives every row of the one big page once, in its order, with
the same exact ``total_count`` on each page, ``truncated`` and a hint naming the next offset on
every page but the last (shellfree's fix of Hermes' unstable order, §5)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings, strategies as st

from shellfree import FileTools

WORDS = ["alpha", "beta", "gamma", "delta", "return", "TODO", "x", "Beta"]


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("pages")
    for i in range(14):
        directory = root / ("sub" if i % 3 else "") / ("deep" if i % 5 == 0 else "")
        directory.mkdir(parents=True, exist_ok=True)
        lines = [" ".join(WORDS[(i * 7 + j * k) % len(WORDS)] for k in range(1, 4))
                 for j in range(i % 6 + 1)]
        (directory / f"f{i:02d}.{'py' if i % 2 else 'txt'}").write_text("\n".join(lines) + "\n")
    return root


def _rows(result: dict) -> list:
    """A page's rows as (path, line, content), paths or (path, count) tuples; a page of five
    matches or more comes path-grouped in ``matches_text`` (densified output)."""
    if "matches" in result:
        return [(m["path"], m["line"], m["content"]) for m in result["matches"]]
    if "matches_text" in result:
        rows, path = [], None
        for text in result["matches_text"].split("\n"):
            if text.startswith("  "):
                number, _, content = text[2:].partition(": ")
                rows.append((path, int(number), content))
            else:
                path = text
        return rows
    if "files" in result:
        return result["files"]
    return list(result.get("counts", {}).items())


@settings(max_examples=120, deadline=None)
@given(pattern=st.sampled_from(["alpha", "beta|gamma", "(?i)beta", r"\w+a\b", "TODO", "x"]),
       mode=st.sampled_from(["content", "files_only", "count", "files"]),
       context=st.sampled_from([0, 1]), limit=st.integers(1, 9))
def test_pages_partition_the_results(tree, pattern, mode, context, limit):
    tools = FileTools(tree)
    if mode == "files":
        pattern = {"alpha": "*.py", "x": "f0*"}.get(pattern, "*")  # file-name globs

    def call(offset: int, size: int) -> dict:
        if mode == "files":
            text = tools.search_files(pattern=pattern, target="files", limit=size, offset=offset)
        else:
            text = tools.search_files(pattern=pattern, output_mode=mode, context=context,
                                      limit=size, offset=offset)
        tools.notify_other_tool_call()  # pages of one search are not a loop
        return json.loads(text)

    whole = call(0, 10_000)
    assert "error" not in whole, whole
    total = whole.get("total_count", 0)
    pages, offset = [], 0
    while True:
        page = call(offset, limit)
        assert page.get("total_count", 0) == total, (offset, page)
        pages.append(page)
        rows = _rows(page)
        if offset + len(rows) >= len(_rows(whole)):
            assert not page.get("truncated"), page
            break
        assert rows and page.get("truncated") is True, page
        offset += len(rows)
        assert re.search(rf"\boffset={offset}\b", page["_hint"]), page["_hint"]
    joined = [row for page in pages for row in _rows(page)]
    assert joined == _rows(whole)
