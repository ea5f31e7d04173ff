"""Fixtures shared by the searcher's tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def confirmed_lines(monkeypatch) -> list[bytes]:
    """The lines the regex is asked to confirm (``_Lines.line_matches``), in order, for tests
    of the prefilters that decide lines without it."""
    from shellfree.search import searcher

    confirmed: list[bytes] = []
    original = searcher._Lines.line_matches

    def line_matches(self, start, end, *args, **kwargs):
        confirmed.append(self.buf[start:end])
        return original(self, start, end, *args, **kwargs)

    monkeypatch.setattr(searcher._Lines, "line_matches", line_matches)
    return confirmed


@pytest.fixture
def judged(monkeypatch) -> list[bytes]:
    """The paths of the files the search command judges: searches, rather than recalls from
    a tree cache's outcomes or settles in ``_Search.lane`` (a cached content, vouched for by
    the watch or by its ``stat``, that the absence test proves empty)."""
    from shellfree.rgcli.search import _Search

    calls: list[bytes] = []
    original = _Search._judge

    def judge(self, haystack, shown, data, *rest):
        calls.append(haystack.path)
        return original(self, haystack, shown, data, *rest)

    monkeypatch.setattr(_Search, "_judge", judge)
    return calls
