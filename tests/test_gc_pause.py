"""The garbage-collector benchmark runs end to end on a small tree and reports what it says."""

from __future__ import annotations

import re

from benchmarks.gc_pause.__main__ import main


def test_reports_one_row_per_corpus(tmp_path, capsys):
    tree = tmp_path / "tiny"
    for d in range(3):
        (tree / f"d{d}").mkdir(parents=True)
        for f in range(30):
            (tree / f"d{d}" / f"f{f}.txt").write_text(f"line {f}\n")
    assert main(["--corpus", "tiny", "--runs", "1", "--corpora", str(tmp_path)]) == 0
    row = capsys.readouterr().out.splitlines()[-1]
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[0] == "tiny"
    assert all(re.fullmatch(r"\d+ ms", c) for c in cells[1:5]), cells
    assert re.fullmatch(r"\d{1,3}(,\d{3})*", cells[5]), cells  # tracked objects


def test_missing_corpus_is_an_error(tmp_path, capsys):
    assert main(["--corpus", "absent", "--corpora", str(tmp_path)]) == 2
    assert "python -m benchmarks.speed.corpora --only absent" in capsys.readouterr().err
