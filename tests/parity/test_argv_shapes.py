"""The argv-shape probe (benchmarks/parity/argv_shape_probe.py) as a test: random command
lines of clustered, glued, missing and odd flag values, byte for byte against rg 15.1."""

from __future__ import annotations

from benchmarks.parity.argv_shape_probe import compare


def test_random_command_line_shapes_agree_with_rg(reference_rg):
    # 300 cases of seed 5 take about 3 s; with --color refused as unknown, 17 of them differed.
    agree, differ = compare(reference_rg.path, 5, 300)
    assert not differ, f"{len(differ)} of {agree + len(differ)} differ, e.g. {differ[0][1]}"
