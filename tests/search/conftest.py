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
