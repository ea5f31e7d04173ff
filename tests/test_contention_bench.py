"""The contention benchmark runs end to end on a small tree and reports each pass."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from benchmarks.contention import __main__ as contention
from benchmarks.contention.__main__ import main, measure, tree_files


def _tree(root):
    for i in range(30):
        (root / f"d{i % 3}").mkdir(parents=True, exist_ok=True)
        (root / f"d{i % 3}" / f"f{i}.txt").write_bytes(b"line\n" * (i + 1))
    try:
        (root / "link").symlink_to(root / "d0" / "f0.txt")
    except OSError:  # Windows without the privilege: the tree has no link to leave out
        pass
    return root


def test_lists_regular_files_only(tmp_path):
    tree = _tree(tmp_path / "t")
    files = tree_files(str(tree))
    assert len(files) == 30
    assert not any(path.endswith(b"link") for path in files)
    assert tree_files(str(tree), limit=7) == files[:7]


_CELL = r"\d+\.\d\d \(\d+\.\d\d\)"


def test_reports_each_pass_under_each_load(tmp_path, capsys, monkeypatch):
    tree = _tree(tmp_path / "t")
    monkeypatch.chdir(tmp_path)  # a relative tree, and a load process that must still find it
    monkeypatch.setattr(contention, "_PYTHON_LOOP", 20_000)
    assert main(["--tree", "t", "--rounds", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"tree {tree}: 30 files")
    rows = lines[lines.index("|---|---|---|---|---|") + 1:]
    assert [row.split(" | ")[0] for row in rows] == ["| `stat`", "| open, read, close",
                                                     "| pure Python"]
    cells = [[c.strip() for c in row.strip("|").split("|")] for row in rows]
    for row in cells[:2]:
        assert all(re.fullmatch(_CELL, c) for c in row[1:4]), row
        assert re.fullmatch(r"\d+\.\d\d, \d+\.\d\d", row[4]), row
    assert re.fullmatch(_CELL, cells[2][1]) and re.fullmatch(_CELL, cells[2][2]), cells[2]
    assert cells[2][3] == "–" and re.fullmatch(r"\d+\.\d\d", cells[2][4]), cells[2]


def test_measures_per_file_in_microseconds(tmp_path, monkeypatch):
    tree = _tree(tmp_path / "t")
    monkeypatch.setattr(contention, "_PYTHON_LOOP", 20_000)
    files, medians = measure(str(tree), 1)
    assert files == 30
    # A stat takes from a fraction of a microsecond to tens of them, never a millisecond, nor
    # a nanosecond: a wrong unit is off by a thousand.
    assert 0.05 < medians[("stat", "none")][0] < 500, medians


def test_a_load_that_stops_early_fails_the_measurement(tmp_path, monkeypatch):
    tree = _tree(tmp_path / "t")

    def ended(kind, tree):
        process = subprocess.Popen([sys.executable, "-c", "pass"])
        process.wait()
        return process

    monkeypatch.setattr(contention, "_start_load", ended)
    with pytest.raises(RuntimeError, match="load ended during"):
        measure(str(tree), 1)


def test_a_missing_tree_is_an_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["--tree", str(tmp_path / "absent")])
    assert stopped.value.code == 2
    assert "no tree at" in capsys.readouterr().err
