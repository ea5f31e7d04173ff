"""Tests for rgcli/parallel.py: forked workers give exactly the serial output."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from shellfree.rgcli.parallel import _batches, evaluate_in_workers

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")


def test_batches_cover_every_item_once():
    for count in (1, 7, 256, 1001, 50_000, 123_457):
        batches = _batches(count, 2)
        assert [i for b in batches for i in b] == list(range(count))
        assert len(batches) <= 1000


def test_results_come_back_in_item_order():
    items = list(range(3000))
    assert list(evaluate_in_workers(items, lambda x: x * x, 2)) == [x * x for x in items]


def test_a_worker_failure_is_reported():
    def evaluate(x):
        if x == 1234:
            raise ValueError("boom")
        return x

    with pytest.raises(RuntimeError, match="boom"):
        list(evaluate_in_workers(list(range(2000)), evaluate, 2))


def _tree(root):
    for i in range(600):
        d = root / f"d{i % 7}" / f"s{i % 3}"
        d.mkdir(parents=True, exist_ok=True)
        body = "".join(f"line {j} {'needle' if (i + j) % 11 == 0 else 'hay'} {i}\n" for j in range(20))
        if i % 50 == 0:
            body += "bin\0ary needle\n"
        (d / f"f{i}.txt").write_text(body)
    (root / ".ignore").write_text("d3/\n")


@pytest.mark.parametrize(
    "args",
    [["-n", "needle"], ["-c", "needle"], ["-l", "ne+dle"], ["-n", "-C1", "needle"], ["-o", "-b", "n\\w+"]],
)
def test_parallel_output_equals_serial_output(tmp_path, args):
    _tree(tmp_path)

    def run(*extra):
        return subprocess.run(
            [sys.executable, "-m", "shellfree", "rg", *extra, *args],
            cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True, check=False,
        )

    serial, parallel = run("-j1"), run("-j2")
    assert parallel.returncode == serial.returncode == 0
    assert parallel.stdout == serial.stdout
    assert parallel.stderr == serial.stderr
