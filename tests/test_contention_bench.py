"""The contention benchmark runs end to end on a small tree and reports each pass."""

from __future__ import annotations

import re

import pytest

from benchmarks.contention.__main__ import main, tree_files


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


def test_reports_each_pass_under_each_load(tmp_path, capsys):
    tree = _tree(tmp_path / "t")
    assert main(["--tree", str(tree), "--rounds", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"tree {tree}: 30 files")
    rows = lines[lines.index("|---|---|---|---|---|") + 1:]
    assert [row.split(" | ")[0] for row in rows] == ["| `stat`", "| open, read, close",
                                                     "| pure Python"]
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert all(re.fullmatch(r"\d+\.\d\d", c) and float(c) > 0 for c in cells[1:4]), cells
        assert re.fullmatch(r"\d+\.\d\d, \d+\.\d\d", cells[4]), cells


def test_a_missing_tree_is_an_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["--tree", str(tmp_path / "absent")])
    assert stopped.value.code == 2
    assert "no tree at" in capsys.readouterr().err
