"""The speed report states the page-cache fact that moves rg's single-file times."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.speed import report, run

_RESULT = (Path(__file__).resolve().parents[1] / "benchmarks" / "results" / "speed-2026-12-01"
           / "041347-shellfree-big-minified.json")


def test_file_huge_pages_is_read_from_meminfo_or_absent():
    value = run.file_huge_pages_kb()
    meminfo = Path("/proc/meminfo")
    if meminfo.exists() and "FileHugePages:" in meminfo.read_text():
        assert isinstance(value, int) and value >= 0
    else:
        assert value is None


def test_the_report_states_the_huge_folio_cache_when_known():
    result = json.loads(_RESULT.read_text())
    big = result["corpora"]["big"]
    big["file_huge_pages_kb_start"], big["file_huge_pages_kb_end"] = 165888, 51200
    markdown = report.render_markdown(result)
    assert "page cache in huge folios (FileHugePages) 162 MB at start, 50 MB at end" in markdown
    # Older records, and machines without the figure, get no such clause.
    assert markdown.count("huge folios") == 1
