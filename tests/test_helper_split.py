"""The helper-split benchmark runs end to end on a small tree and reports what it says."""

from __future__ import annotations

import re

import pytest

from benchmarks.helper_split.__main__ import main
from tests.rgcli.test_search_pool import build_wide


def test_reports_a_row_per_query(tmp_path, capsys):
    tree = build_wide(tmp_path / "tiny")  # the pool tests' tree, about forty files
    assert main(["--tree", str(tree), "--queries", "common,word", "--rounds", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = lines[lines.index("|---|---|---|---|---|") + 1:]
    assert [row.split(" | ")[0] for row in rows] == ["| -n return", r"| -n \w+Error"]
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert [bool(re.fullmatch(pattern, c)) for pattern, c in zip(
            (r"\d+\.\d", r"\d+\.\d", r"\d+\.\d\d", r"[012]/2"), cells[1:])] == [True] * 4, cells


def test_a_missing_tree_is_an_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["--tree", str(tmp_path / "absent")])
    assert stopped.value.code == 2
    assert "no tree at" in capsys.readouterr().err
