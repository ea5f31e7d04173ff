"""One measurement, run in a fresh interpreter: read a page of a file, print a JSON line.

``python -m benchmarks.read_memory.measure FILE OFFSET [--whole]`` imports shellfree, records
the peak RSS so far (the baseline), calls ``FileTools.read_file(FILE, offset=OFFSET)`` (or, with
``--whole``, reads the file into memory the naive way, for contrast), and prints the baseline,
the peak after the call, the wall time and what the page showed.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time


def _peak_kib() -> int:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak  # macOS reports bytes


def main(argv: list[str]) -> int:
    path, offset = argv[0], int(argv[1])
    whole = "--whole" in argv[2:]
    from shellfree import FileTools

    tools = FileTools(os.path.dirname(os.path.abspath(path)))
    baseline = _peak_kib()
    start = time.perf_counter()
    if whole:
        with open(path, "rb") as handle:
            data = handle.read()
        shown = {"total_lines": data.count(b"\n"), "content": ""}
    else:
        shown = json.loads(tools.read_file(os.path.basename(path), offset=offset))
    seconds = time.perf_counter() - start
    content = shown.get("content", "")
    first = content.split("|", 1)[0] if content else None
    print(json.dumps({
        "offset": offset, "whole": whole, "baseline_kib": baseline, "peak_kib": _peak_kib(),
        "seconds": round(seconds, 3), "total_lines": shown.get("total_lines"),
        "lines_shown": content.count("\n") + 1 if content else 0, "first_line_number": first,
        "error": shown.get("error"),
    }))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
