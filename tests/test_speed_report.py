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


def test_a_cell_keeps_its_highest_peak_rss_and_the_report_tables_it():
    samples = [(1.0, 0.9, 30_000), None, (1.2, 1.0, 45_056)]
    rg = [(0.5, 0.4, 10_000), (0.5, 0.4, 10_000), (0.6, 0.5, 11_000)]
    cell = run.summarize(samples, {"rg": rg, "rg-j1": None})
    assert cell["maxrss_kb"] == [30_000, None, 45_056]
    assert cell["max_rss_mb"] == 44.0
    assert cell["ratio_wall_vs_rg"] == 2.0  # per-round ratios still use the times alone

    result = json.loads(_RESULT.read_text())
    big = result["corpora"]["big"]
    query = next(iter(big["queries"]))
    big["queries"][query]["tools"]["shellfree"].update(cell)
    markdown = report.render_markdown(result).split("### Peak resident set size")[1]
    rows = [line for line in markdown.splitlines() if line.startswith("| shellfree |")]
    assert rows[0].split(" | ")[1] == "44"  # the first query's cell
    assert rows[0].count("n/a") == len(big["queries"]) - 1  # older records carry no figure


def test_the_report_states_the_start_up_measured_in_the_run():
    result = json.loads(_RESULT.read_text())
    assert "start-up" not in report.render_markdown(result)  # an older record has none
    result["meta"]["startup"] = {"python_ms": 81.4, "import_shellfree_ms": 96.0}
    assert ("start-up, median wall: `python -c pass` 81 ms, `python -c 'import shellfree'` 96 ms"
            in report.render_markdown(result))
