"""The ``shellfree bench`` report: one Markdown page of ratio and agreement tables, one PNG chart.

The chart is drawn with matplotlib (the ``bench`` extra) when it is installed; without it the
Markdown says how to get the chart and everything else is written as usual.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.report.suites import Agreement, Ratio, SuiteResult


def render_markdown(results: Sequence[SuiteResult], facts: dict[str, Any],
                    chart: Path | None, chart_note: str = "") -> str:
    """The report page: run facts, the speed and latency ratio tables, the parity table, notes
    and the files each suite wrote (linked relative to the report)."""
    lines = [f"# shellfree bench — {facts.get('date', '')}", ""]
    lines += [f"- {key}: {value}" for key, value in _fact_lines(facts)]
    lines += ["", ("Ratios are shellfree's time divided by rg's on the same work: **1.00 = as "
                   "fast as rg, 2.00 = twice as slow**."), ""]
    if chart is not None:
        lines += [f"![ratios of shellfree to rg]({chart.name})", ""]
    elif chart_note:
        lines += [f"_{chart_note}_", ""]

    speed = [r for res in results for r in res.ratios if r.suite == "speed"]
    if speed:
        lines += ["## `shellfree rg` vs rg 15.1 (speed corpora)", "",
                  ("Median wall time per command, including Python's start-up; ratios are "
                   "medians of per-round ratios."), "",
                  "| corpus | query | rg | shellfree | wall ratio | CPU ratio | vs rg -j1 |",
                  "|---|---|---:|---:|---:|---:|---:|"]
        for r in speed:
            if r.status != "ok":
                lines.append(f"| {r.group} | {_cell_text(r.name)} | {_ms(r.rg_ms)} | "
                             f"**{r.status}** | – | – | – |")
                continue
            lines.append(f"| {r.group} | {_cell_text(r.name)} | {_ms(r.rg_ms)} | "
                         f"{_ms(r.shellfree_ms)} | {_ratio(r.wall_ratio)} | "
                         f"{_ratio(r.cpu_ratio)} | {_ratio(r.j1_ratio)} |")
        lines += _geomean_line(speed)
        lines.append("")

    latency = [r for res in results for r in res.ratios if r.suite == "latency"]
    if latency:
        lines += ["## `search_files` latency: in-process engine vs the rg backend", "",
                  ("The same FileTools call with `backend=\"inprocess\"` (default) and "
                   "`backend=\"rg\"` (the reference rg as a subprocess)."), "",
                  "| call | rg backend | in-process | ratio |", "|---|---:|---:|---:|"]
        for r in latency:
            lines.append(f"| {r.group}: {_cell_text(r.name)} | {_ms(r.rg_ms)} | "
                         f"{_ms(r.shellfree_ms)} | {_ratio(r.wall_ratio)} |")
        lines.append("")

    agreements = [a for res in results for a in res.agreements]
    if agreements:
        lines += ["## Parity with rg 15.1", "",
                  "| suite | agree | cases | agreement | time | report |",
                  "|---|---:|---:|---:|---:|---|"]
        for a in agreements:
            lines.append(f"| {a.suite} | {a.agree} | {a.total} | {_percent(a)} | "
                         f"{a.seconds:.0f} s | [{a.report.name}]({a.report.name}) |")
        for a in agreements:
            for signature, count in a.top_differences:
                lines.append(f"- {a.suite}: {count} × {_cell_text(signature)}")
        lines.append("")

    notes = [n for res in results for n in res.notes]
    errors = [f"{res.suite}: {res.error}" for res in results if res.error]
    untimed = [f"{r.group} / {r.name}: **{r.status}** — {r.detail}"
               for r in speed if r.status != "ok"]
    if notes or errors or untimed:
        lines += ["## Notes", ""] + [f"- {n}" for n in errors + untimed + notes] + [""]

    files = [f for res in results for f in res.files]
    if files:
        lines += ["## Files", ""] + [f"- [{f.name}]({f.name})" for f in files] + [""]
    return "\n".join(lines)


def _fact_lines(facts: dict[str, Any]) -> list[tuple[str, str]]:
    keys = ("machine", "python", "reference", "commit", "command", "load")
    return [(k, str(facts[k])) for k in keys if facts.get(k)]


def _geomean_line(ratios: Sequence[Ratio]) -> list[str]:
    walls = [r.wall_ratio for r in ratios if r.status == "ok" and r.wall_ratio]
    cpus = [r.cpu_ratio for r in ratios if r.status == "ok" and r.cpu_ratio]
    if not walls:
        return []
    return ["", (f"Geometric mean over {len(walls)} timed cells: wall "
                 f"{_ratio(_geomean(walls))}, CPU {_ratio(_geomean(cpus))}.")]


def _geomean(values: Sequence[float]) -> float | None:
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def _ms(value: float | None) -> str:
    return "–" if value is None else f"{value:.0f} ms" if value >= 10 else f"{value:.1f} ms"


def _ratio(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _percent(a: Agreement) -> str:
    return f"{a.agree / a.total:.2%}" if a.total else "–"


def _cell_text(text: str) -> str:
    # A "|" ends a Markdown table cell even inside backticks.
    return text.replace("|", "\\|")


# -- the chart ------------------------------------------------------------------------------

def chart_available() -> str | None:
    """None when the chart can be drawn, else the reason (to print in the report)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return ("No chart: matplotlib is not installed (pip install -e '.[bench]' from the "
                "checkout).")
    return None


def draw_chart(results: Sequence[SuiteResult], path: Path, title: str) -> Path | None:
    """Write a horizontal bar chart of every measured ratio (log scale, a line at 1.0) to
    *path*; return *path*, or None when there is nothing measured to draw."""
    bars = [r for res in results for r in res.ratios
            if r.status == "ok" and r.wall_ratio is not None]
    if not bars:
        return None
    import matplotlib

    matplotlib.use("Agg")  # files only: no display is needed or wanted
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
    from matplotlib.ticker import FixedLocator, NullLocator

    labels = [_bar_label(r) for r in bars]
    fig, ax = plt.subplots(figsize=(10, 1.4 + 0.34 * len(bars)), dpi=110)
    positions = list(range(len(bars)))[::-1]  # first row at the top, as in the tables
    colors = {"speed": "#4C72B0", "cpu": "#A9BCE0", "latency": "#55A868"}
    for p, r in zip(positions, bars):
        wall = r.wall_ratio or 0.0
        # A speed row has a CPU-time bar under its wall-time bar; a latency row is one bar.
        y = p + 0.19 if r.cpu_ratio is not None else p
        ax.barh(y, wall, height=0.38 if r.cpu_ratio is not None else 0.6,
                color=colors["speed" if r.suite == "speed" else "latency"])
        ax.annotate(f"{wall:.2f}×", (wall, y), xytext=(3, 0), textcoords="offset points",
                    va="center", fontsize=8)
        if r.cpu_ratio is not None:
            ax.barh(p - 0.19, r.cpu_ratio, height=0.38, color=colors["cpu"])
    ax.axvline(1.0, color="#C44E52", linewidth=1.2)
    ax.set_xscale("log")
    values = [v for r in bars for v in (r.wall_ratio, r.cpu_ratio) if v]
    low, high = min([*values, 1.0]), max([*values, 1.0])
    ax.set_xlim(low / 1.5, high * 2.0)
    # Plain "0.5× 1× 2× 4×" ticks: powers of two read better than 10^x on a ratio axis.
    ticks = [2.0 ** k for k in range(-8, 12) if low / 1.5 <= 2.0 ** k <= high * 2.0]
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xticklabels([f"{t:g}×" for t in ticks])
    legend = [Patch(color="#C44E52", label="rg = 1×")]
    if any(r.suite == "speed" for r in bars):
        legend += [Patch(color=colors["speed"], label="shellfree rg: wall time"),
                   Patch(color=colors["cpu"], label="shellfree rg: CPU time")]
    if any(r.suite == "latency" for r in bars):
        legend.append(Patch(color=colors["latency"],
                            label="search_files: in-process vs rg backend"))
    ax.set_yticks(positions)
    ax.set_yticklabels(labels, fontsize=8)
    ax.set_xlabel("time relative to rg 15.1 (log scale; lower is better)")
    ax.set_title(title, fontsize=10, pad=24)
    ax.grid(axis="x", alpha=0.25)
    # Above the bars, under the title: inside the axes it would hide the longest bars.
    ax.legend(handles=legend, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=len(legend),
              fontsize=8, frameon=False)
    fig.tight_layout()
    fig.savefig(path, bbox_inches="tight")
    plt.close(fig)
    return path


def _bar_label(r: Ratio) -> str:
    name = r.name.split(" `")[0]  # the query's short name; its arguments are in the table
    return f"{r.group} · {name}"[:60]
