"""Turns a Jupyter notebook into text: each cell in order under a header naming its kind, then
the text of its outputs.

Markdown and code cells are numbered separately (``# ── Markdown cell 2 ──``,
``# ── Code cell 5 ──``), raw cells are not (``# ── Raw cell ──``). A code cell's outputs follow
under ``# ── Output (cell N) ──``, rendered for reading rather than fidelity: terminal escapes
and progress-bar frames dropped, images, HTML and widgets replaced by a one-line note, at most
`NOTEBOOK_OUTPUT_CAP` characters per cell. Both nbformat 4 (``cells``) and nbformat 3
(``worksheets[].cells``) are read; only the standard library is needed.
"""

from __future__ import annotations

import json
import re
import shlex

from .errors import DocumentError
from .limits import NOTEBOOK_OUTPUT_CAP
from .result import Extraction, finish_text

__all__ = ["extract"]

# CSI sequences (colours, cursor moves), OSC sequences (titles, hyperlinks) and two-byte escapes.
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]")

_WIDGET = "application/vnd.jupyter.widget-view+json"
_TEXT_PREFERENCE = ("text/plain", "text/markdown", "text/latex")

# nbformat 3 stored an output's representations as top-level short keys.
_V3_MIME = {
    "text": "text/plain",
    "html": "text/html",
    "markdown": "text/markdown",
    "latex": "text/latex",
    "png": "image/png",
    "jpeg": "image/jpeg",
    "svg": "image/svg+xml",
    "json": "application/json",
    "javascript": "application/javascript",
}

# A jq filter printing a cell's outputs in full, for the truncation note; run with -j, which
# prints strings raw and adds no newline, so stream chunks split mid-line join up again.
_JQ_OUTPUTS = (
    '{cell}.outputs[] | .text // .data["text/plain"]'
    ' // (.traceback // [] | map(. + "\\n") | join(""))'
    ' | if type == "array" then join("") else . end'
)


def extract(data: bytes, path: str) -> Extraction:
    """Extract the cells and outputs of the notebook *data*; *path* names the file in errors."""
    notebook = _load(data, path)
    cells = _cells(notebook, path)
    if not cells:
        raise DocumentError(path, "Notebook contains no cells")
    blocks: list[str] = []
    notes: list[str] = []
    counters = {"markdown": 0, "code": 0}
    readable = False
    for pointer, cell in cells:
        kind = cell.get("cell_type")
        source = _text(cell.get("source", cell.get("input")))  # v3 code cells use "input"
        if kind == "heading":  # nbformat 3 only: a markdown heading stored as its own type
            kind = "markdown"
            level = cell.get("level")
            level = level if isinstance(level, int) and 1 <= level <= 6 else 1
            source = "#" * level + " " + source
        if kind in counters:
            counters[kind] += 1
            number = counters[kind]
            header = f"# ── {kind.capitalize()} cell {number} ──"
        else:
            header = "# ── Raw cell ──"
        source = source.rstrip("\n")
        readable = readable or bool(source.strip())
        blocks.append(f"{header}\n{source}\n")
        if kind != "code":
            continue
        output = _outputs_text(cell.get("outputs"))
        if not output.strip():
            continue
        readable = True
        if len(output) > NOTEBOOK_OUTPUT_CAP:
            omitted = len(output) - NOTEBOOK_OUTPUT_CAP
            command = f"jq -j {shlex.quote(_JQ_OUTPUTS.format(cell=pointer))} {shlex.quote(path)}"
            output = (
                output[:NOTEBOOK_OUTPUT_CAP]
                + f"\n… [{omitted:,} output chars truncated — full output: {command}]"
            )
            notes.append(f"output of code cell {number} truncated ({omitted:,} chars left out)")
        blocks.append(f"# ── Output (cell {number}) ──\n{output}\n")
    if not readable:
        raise DocumentError(path, "Notebook contains no readable cells")
    return Extraction(finish_text("\n".join(blocks)), "ipynb", tuple(notes))


def _load(data: bytes, path: str) -> dict:
    """The notebook's top-level JSON object."""
    try:
        notebook = json.loads(data)  # bytes: json detects UTF-8/16/32 and a UTF-8 BOM
    except UnicodeDecodeError:
        raise DocumentError(path, "Not a valid notebook: it is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise DocumentError(
            path,
            f"Not a valid notebook: invalid JSON ({exc.msg} at line {exc.lineno}, "
            f"column {exc.colno}); the file may be truncated or hand-edited",
        ) from None
    except RecursionError:
        raise DocumentError(path, "Not a valid notebook: its JSON is nested too deeply") from None
    if not isinstance(notebook, dict):
        raise DocumentError(
            path,
            f"Not a Jupyter notebook: the JSON is {_json_kind(notebook)}, not an object "
            "with a 'cells' list",
        )
    return notebook


def _cells(notebook: dict, path: str) -> list[tuple[str, dict]]:
    """Each cell (a dict) with the jq path that addresses it."""
    if isinstance(notebook.get("cells"), list):
        found = [(f".cells[{i}]", cell) for i, cell in enumerate(notebook["cells"])]
    elif isinstance(notebook.get("worksheets"), list):
        found = []
        for w, sheet in enumerate(notebook["worksheets"]):
            cells = sheet.get("cells") if isinstance(sheet, dict) else None
            if isinstance(cells, list):
                found.extend((f".worksheets[{w}].cells[{i}]", c) for i, c in enumerate(cells))
    else:
        raise DocumentError(path, "Not a Jupyter notebook: the JSON has no 'cells' list")
    return [(pointer, cell) for pointer, cell in found if isinstance(cell, dict)]


def _json_kind(value: object) -> str:
    names = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


def _text(value: object) -> str:
    """A notebook string field, stored either as a string or as a list of lines."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(item for item in value if isinstance(item, str))
    return ""


def _outputs_text(outputs: object) -> str:
    """All of one code cell's outputs, rendered and joined with newlines."""
    if not isinstance(outputs, list):
        return ""
    parts: list[str] = []
    stream_name, stream_text = None, ""
    for output in outputs:
        if not isinstance(output, dict):
            continue
        kind = output.get("output_type")
        if kind == "stream":
            # A long-running cell writes one stream in many chunks, and a progress bar's "\r"
            # frames can straddle them, so consecutive chunks are joined before cleaning.
            name = output.get("name", output.get("stream"))
            if name != stream_name and stream_text:
                parts.append(_clean_stream(stream_text))
                stream_text = ""
            stream_name = name
            stream_text += _text(output.get("text"))
            continue
        if stream_text:
            parts.append(_clean_stream(stream_text))
            stream_name, stream_text = None, ""
        if kind in ("error", "pyerr"):
            parts.append(_error_text(output))
        elif kind in ("execute_result", "display_data", "pyout"):
            bundle = output.get("data")
            if not isinstance(bundle, dict):  # nbformat 3
                bundle = {_V3_MIME[k]: v for k, v in output.items() if k in _V3_MIME}
            parts.append(_bundle_text(bundle))
    if stream_text:
        parts.append(_clean_stream(stream_text))
    return "\n".join(part.rstrip("\n") for part in parts if part.strip())


def _clean_stream(text: str) -> str:
    """Stream text without terminal escapes, keeping only the last ``\\r`` frame of each line."""
    lines = _ANSI.sub("", text).replace("\r\n", "\n").split("\n")
    return "\n".join(_last_frame(line) for line in lines)


def _last_frame(line: str) -> str:
    # A progress bar redraws its line with "\r"; a trailing "\r" leaves the last frame on show.
    frames = [frame for frame in line.split("\r") if frame]
    return frames[-1] if frames else ""


def _error_text(output: dict) -> str:
    head = f"Error: {_text(output.get('ename'))}: {_text(output.get('evalue'))}"
    traceback = output.get("traceback")
    lines = traceback if isinstance(traceback, list) else []
    return "\n".join([head, *(_ANSI.sub("", line) for line in lines if isinstance(line, str))])


def _bundle_text(bundle: dict) -> str:
    """One rich output: notes for images, then its best plain-text representation."""
    if _WIDGET in bundle:
        # A widget's text/plain is a constructor repr that says nothing without the kernel.
        return "[interactive widget — omitted]"
    lines = []
    for mime, value in bundle.items():
        if mime.startswith("image/"):
            lines.append(f"[{mime} output — {_image_kb(mime, value)} KB, omitted]")
    text = next((_text(bundle[m]) for m in _TEXT_PREFERENCE if _text(bundle.get(m))), "")
    if text:
        lines.append(_ANSI.sub("", text))
    elif "text/html" in bundle:
        lines.append(f"[text/html output — {len(_text(bundle['text/html'])):,} chars, omitted]")
    elif not lines:
        for mime in bundle:
            lines.append(f"[{mime} output — omitted]")
            break
    return "\n".join(lines)


def _image_kb(mime: str, value: object) -> int:
    """Size of an embedded image in KiB (at least 1): decoded base64, or SVG text as stored."""
    text = _text(value)
    if mime == "image/svg+xml":
        size = len(text.encode("utf-8"))
    else:
        compact = "".join(text.split())
        size = len(compact) * 3 // 4 - compact[-2:].count("=")
    return max(1, round(size / 1024))
