"""The flag-mix probe (benchmarks/parity/flag_mix_probe.py) as a test: random mixes of flags,
odd flag values and root spellings over one small tree, byte for byte against rg 15.1."""

from __future__ import annotations

from benchmarks.parity.flag_mix_probe import compare


def test_random_flag_mixes_agree_with_rg(reference_rg):
    # 400 cases of seed 7 take about 3 s; the code before the session of 4d6795c's fixes
    # (binary mode, --files against the search modes, -f order and empty files, counts,
    # sorted searches, --heading's notice) agreed on 327 of these 400.
    agree, differ = compare(reference_rg.path, 7, 400)
    assert not differ, f"{len(differ)} of {agree + len(differ)} differ, e.g. {differ[0][1]}"
