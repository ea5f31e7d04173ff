"""The speed report states the page-cache fact that moves rg's single-file times."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from benchmarks.speed import queries, report, run

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


@pytest.mark.skipif(not os.path.exists(run.GNU_TIME), reason="needs GNU time")
def test_the_peak_rss_is_the_command_s_own_not_the_harness_s(tmp_path):
    # The harness holds 300 MB when it spawns a command that allocates 40 MB: the figure is the
    # command's (wait4 on a direct child would count the harness's pages too).
    held = bytearray(300 << 20)
    held[:: 4096] = b"x" * len(held[:: 4096])  # touched, so resident
    ctx = run.Context(sys.executable, dict(os.environ), dict(os.environ), 60, 0, str(tmp_path))
    target = queries.Corpus("t", tmp_path, (), True, "x")
    tool = run.Tool("py", (sys.executable, "-c"))
    query = queries.Query("q", ("b = bytearray(40 << 20); b[::4096] = b'y' * len(b[::4096])",))
    peak = run.peak_rss_kb(ctx, target, query, tool)["py"]
    assert 40 << 10 < peak < 150 << 10
    failing = queries.Query("q", ("raise SystemExit(2)",))
    assert run.peak_rss_kb(ctx, target, failing, tool) == {"py": None}
    del held


def test_the_report_tables_the_peak_rss():
    result = json.loads(_RESULT.read_text())
    big = result["corpora"]["big"]
    big["peak_rss_by"] = run.PEAK_RSS_BY
    query = next(iter(big["queries"]))
    big["queries"][query]["tools"]["shellfree"]["peak_rss_kb"] = 45_056
    markdown = report.render_markdown(result).split("### Peak resident set size")[1]
    assert "one untimed run under `/usr/bin/time -f %M`" in markdown
    rows = [line for line in markdown.splitlines() if line.startswith("| shellfree |")]
    assert rows[0].split(" | ")[1] == "44"  # the first query's cell
    assert rows[0].count("n/a") == len(big["queries"]) - 1  # older records carry no figure


def test_the_report_states_the_start_up_measured_in_the_run():
    result = json.loads(_RESULT.read_text())
    assert "start-up" not in report.render_markdown(result)  # an older record has none
    result["meta"]["startup"] = {"python_ms": 81.4, "import_shellfree_ms": 96.0}
    assert ("start-up, median wall: `python -c pass` 81 ms, `python -c 'import shellfree'` 96 ms"
            in report.render_markdown(result))
