"""Fault injection (short run): a writer SIGKILLed at random moments never leaves a torn file.

The full run is ``python -m benchmarks.fault_injection --kills 500`` (figures in
``benchmarks/fault_injection/README.md``); this test runs 30 kills on a 5 MB file.
"""

from __future__ import annotations

import signal

import pytest

from benchmarks.fault_injection.runner import run_kills

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"),
                                reason="needs os.kill with SIGKILL (POSIX)")


def test_sigkilled_writer_leaves_old_or_new_content(tmp_path):
    report = run_kills(kills=30, size=5_000_000, seed=7, max_delay=0.5, directory=str(tmp_path))
    assert report.violations == []
    assert report.target_old + report.target_new == 30
    assert report.max_temps <= 1
    assert report.temps_after_final_write == 0
    assert report.writes_completed > 0
