"""benchmarks/watch_stress.py runs, and finds a cache that ignores the kernel's reports."""

from __future__ import annotations

import pytest

from benchmarks import watch_stress
from shellfree.search.tree_watch import Changes, TreeWatch, watch_unavailable

pytestmark = pytest.mark.skipif(watch_unavailable() is not None, reason=str(watch_unavailable()))


@pytest.fixture
def small_tree(isolated):
    for number in range(6):
        directory = isolated / "src" / f"pkg{number % 3}" / f"mod{number}"
        directory.mkdir(parents=True)
        (directory / "a.py").write_text(f"import os\ndef f{number}():\n    raise ValueError  # TODO\n")
        (directory / "b.txt").write_text("plain text\n")
    (isolated / ".gitignore").write_text("*.log\n")
    return isolated


def test_watched_searches_agree_with_rg(small_tree, reference_rg, monkeypatch, capsys):
    monkeypatch.setenv("SHELLFREE_REFERENCE_RG", reference_rg)
    assert watch_stress.main(["--tree", str(small_tree), "--steps", "25", "--seed", "3"]) == 0
    assert "25/25 warm watched searches identical" in capsys.readouterr().out


def test_watched_searches_shared_with_a_helper_agree_with_rg(small_tree, reference_rg, monkeypatch,
                                                             capsys):
    monkeypatch.setenv("SHELLFREE_REFERENCE_RG", reference_rg)
    argv = ["--tree", str(small_tree), "--steps", "25", "--seed", "4", "--search-processes", "2"]
    assert watch_stress.main(argv) == 0
    assert "25/25 warm watched searches identical" in capsys.readouterr().out


def test_stat_checked_searches_agree_with_rg(small_tree, reference_rg, monkeypatch, capsys):
    monkeypatch.setenv("SHELLFREE_REFERENCE_RG", reference_rg)
    assert watch_stress.main(["--tree", str(small_tree), "--steps", "25", "--seed", "5",
                              "--stat-checks"]) == 0
    assert "25/25 warm stat-checked searches identical" in capsys.readouterr().out


def test_a_cache_that_ignores_the_reports_is_caught(small_tree, reference_rg, monkeypatch):
    monkeypatch.setenv("SHELLFREE_REFERENCE_RG", reference_rg)

    def lost(self):
        while self._inotify.read(timeout=0):
            pass
        return Changes()

    monkeypatch.setattr(TreeWatch, "changes", lost)
    assert watch_stress.main(["--tree", str(small_tree), "--steps", "25", "--seed", "3"]) == 1
