"""A seeded search_files parity run: in-process engine vs the reference rg, identical JSON.

``SHELLFREE_SEARCH_FILES_PARITY_CASES`` makes the run longer (default 150); the long run with a
report is ``python -m benchmarks.parity_search_files``.
"""

from __future__ import annotations

import os

import pytest

from benchmarks.parity_search_files.report import RunInfo, render
from benchmarks.parity_search_files.runner import ParityRun

SEED = 5
CASES = int(os.environ.get("SHELLFREE_SEARCH_FILES_PARITY_CASES", "150"))


@pytest.mark.skipif(os.name == "nt", reason="generated trees use POSIX names")
def test_seeded_run_agrees(reference_rg):
    with ParityRun(reference_rg) as run:
        outcomes = run.run(SEED, CASES)
    assert len(outcomes) == CASES >= 100
    differing = [o for o in outcomes if not o.agrees]
    assert not differing, render(differing, RunInfo("pytest", "reference", SEED, 0.0))


@pytest.mark.skipif(os.name == "nt", reason="generated trees use POSIX names")
def test_seeded_run_with_helper_processes_agrees(reference_rg):
    # The same calls with each search shared with a helper process (rgcli/pool.py).
    with ParityRun(reference_rg, search_processes=2) as run:
        outcomes = run.run(SEED + 1, CASES // 3)
    differing = [o for o in outcomes if not o.agrees]
    assert not differing, render(differing, RunInfo("pytest", "reference", SEED + 1, 0.0))


def test_a_case_seed_always_draws_the_same_case(reference_rg):
    with ParityRun(reference_rg) as first, ParityRun(reference_rg) as second:
        a, b = first.run_case(5_000_042), second.run_case(5_000_042)
    assert a.case == b.case and a.case.args == b.case.args
    assert a.tree.tree == b.tree.tree


def test_a_path_that_does_not_exist_is_a_disagreement(tmp_path):
    # Both backends share the parsing of rg's output: a parsing defect gives both the same
    # wrong answer, and a path that is not there shows it (a binary-file notice read as the
    # start of the next row's path did: "x.bin: binary file matches (...)\nb.txt").
    from benchmarks.parity_search_files.runner import Outcome, ghost_paths

    (tmp_path / "b.txt").write_text("hi\n")
    texts = ('{"total_count": 1, "matches": [{"path": "./b.txt", "line": 1, "content": "hi"}]}',
             '{"total_count": 2, "files": ["b.txt", "x.bin: binary\\nb.txt"]}',
             '{"total_count": 2, "counts": {"./gone": 1, "\\ufffd.txt": 1}}')
    assert ghost_paths(str(tmp_path), texts) == ("./gone", "x.bin: binary\nb.txt")
    assert ghost_paths(str(tmp_path), texts[:1]) == ()
    assert not Outcome(None, texts, texts, None, ("./gone",)).agrees  # type: ignore[arg-type]
    assert Outcome(None, texts, texts, None).agrees  # type: ignore[arg-type]
