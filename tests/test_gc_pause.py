"""The garbage-collector benchmark runs end to end on a small tree and reports what it says."""

from __future__ import annotations

import re

from benchmarks.gc_pause.__main__ import main
from shellfree.search.tree_watch import watch_unavailable


def test_reports_a_row_per_corpus_and_cache(tmp_path, capsys):
    tree = tmp_path / "tiny"
    for d in range(3):
        (tree / f"d{d}").mkdir(parents=True)
        for f in range(30):
            (tree / f"d{d}" / f"f{f}.txt").write_text(f"line {f}\n")
    assert main(["--corpus", "tiny", "--runs", "1", "--corpora", str(tmp_path),
                 "--new-searches", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    tables = [lines[i + 1:i + 3] for i, line in enumerate(lines) if line.startswith("|---")]
    assert len(tables) == 2
    cold, new = tables
    for cells in _measured(cold):
        assert all(re.fullmatch(r"\d+ ms", c) for c in cells[2:6]), cells
        assert re.fullmatch(r"\d{1,3}(,\d{3})*", cells[6]), cells  # tracked objects
    for cells in _measured(new):
        # Collections per search of each generation, their time, the median search.
        assert [bool(re.fullmatch(pattern, c)) for pattern, c in zip(
            (r"\d+", r"\d+\.\d", r"\d+\.\d\d", r"\d+ ms", r"\d+ ms"), cells[2:])] == [True] * 5


def _measured(rows: list[str]) -> list[list[str]]:
    """The cells of a table's rows for the tiny corpus, stat then watched, leaving out a
    watched row that says no watch could be had (checked to be so)."""
    measured = []
    for row, cache in zip(rows, ("stat", "watched"), strict=True):
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[:2] == ["tiny", cache]
        if cells[2].startswith("no watch: "):
            assert cache == "watched" and watch_unavailable() is not None, cells
            continue
        measured.append(cells)
    return measured


def test_missing_corpus_is_an_error(tmp_path, capsys):
    assert main(["--corpus", "absent", "--corpora", str(tmp_path)]) == 2
    assert "python -m benchmarks.speed.corpora --only absent" in capsys.readouterr().err
