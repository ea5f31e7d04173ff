"""A catastrophic-backtracking pattern that Rust accepts is stopped by regex's ``timeout=``.

rg's engines are linear-time; the ``regex`` module backtracks. The searcher passes a timeout and
turns the module's ``TimeoutError`` into an error naming the file; this shows the mechanism holds
on a 1 MB line with the budget the searcher uses (regex counts CPU time and checks its clock only
now and then, so the wall time overshoots the budget).
"""

from __future__ import annotations

import time

import pytest

from shellfree.rgcli.search import REGEX_TIMEOUT_SECONDS
from shellfree.search.pattern import PatternOptions, compile_patterns


def test_timeout_stops_backtracking():
    # Measured idle: about 2 s for the 1 s budget (the module overshoots); rg needs microseconds.
    cp = compile_patterns(["(x+x+)+y"], PatternOptions())
    line = "x" * 1_000_000 + "!y"   # the required literal is present, so no quick rejection
    start = time.monotonic()
    with pytest.raises(TimeoutError):
        list(cp.iter_spans(line, timeout=REGEX_TIMEOUT_SECONDS))
    assert time.monotonic() - start < 5
