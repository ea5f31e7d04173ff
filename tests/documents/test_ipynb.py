"""Tests for documents/ipynb.py: cells in order, every output kind, the output cap, errors."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess

import pytest

from shellfree.documents import DocumentError, Extraction, extract_document

from .builders import notebook


def code(source, *outputs, count=1):
    return {"cell_type": "code", "execution_count": count, "metadata": {}, "source": source,
            "outputs": list(outputs)}


def stream(text, name="stdout"):
    return {"output_type": "stream", "name": name, "text": text}


def display(data, kind="display_data"):
    return {"output_type": kind, "data": data, "metadata": {}}


PNG = base64.b64encode(bytes(3000)).decode()  # decodes to 3,000 bytes: "3 KB"

SAMPLE_CELLS = [
    {"cell_type": "markdown", "metadata": {}, "source": ["# Title\n", "Some *text*."]},
    code(
        ["print('hi')\n", "for i in tqdm(range(3)): pass"],
        stream("hi\n"),
        # A progress bar: "\r" frames, split across chunks of the same stream.
        stream("\r  0%|   | 0/3\r 33%|#  | 1/", name="stderr"),
        stream("3\r100%|###| 3/3\n", name="stderr"),
        stream(["\x1b[31mred\x1b[0m text\n", "\x1b]8;;http://x\x07link\x1b]8;;\x07\n"]),
    ),
    code("df", display({"text/plain": ["   a\n", "0  1"], "text/html": "<table/>"}, "execute_result")),
    code("plt.plot()", display({"image/png": PNG, "text/plain": "<Figure size 640x480 with 1 Axes>"})),
    code("HTML(page)", display({"text/html": "<div>" + "x" * 1500 + "</div>"})),
    code("Markdown(s)", display({"text/markdown": "**bold**", "text/html": "<b>bold</b>"})),
    code("slider", display({"application/vnd.jupyter.widget-view+json": {"model_id": "m"},
                            "text/plain": "IntSlider(value=0)"})),
    code(
        "1/0",
        {
            "output_type": "error",
            "ename": "ZeroDivisionError",
            "evalue": "division by zero",
            "traceback": [
                "\x1b[0;31m---------------------------------------------------------------\x1b[0m",
                "\x1b[0;31mZeroDivisionError\x1b[0m    Traceback (most recent call last)",
                "Cell \x1b[0;32mIn[8], line 1\x1b[0m\n\x1b[0;32m----> 1\x1b[0m \x1b[38;5;241m1\x1b[39m/0",
            ],
        },
    ),
    {"cell_type": "raw", "metadata": {}, "source": "raw text"},
    {"cell_type": "markdown", "metadata": {}, "source": "Second markdown"},
    code(""),
    code("svg", display({"image/svg+xml": "<svg>" + " " * 2043 + "</svg>"}),
         display({"application/json": {"a": 1}})),
]

SAMPLE_TEXT = """\
# ── Markdown cell 1 ──
# Title
Some *text*.

# ── Code cell 1 ──
print('hi')
for i in tqdm(range(3)): pass

# ── Output (cell 1) ──
hi
100%|###| 3/3
red text
link

# ── Code cell 2 ──
df

# ── Output (cell 2) ──
   a
0  1

# ── Code cell 3 ──
plt.plot()

# ── Output (cell 3) ──
[image/png output — 3 KB, omitted]
<Figure size 640x480 with 1 Axes>

# ── Code cell 4 ──
HTML(page)

# ── Output (cell 4) ──
[text/html output — 1,511 chars, omitted]

# ── Code cell 5 ──
Markdown(s)

# ── Output (cell 5) ──
**bold**

# ── Code cell 6 ──
slider

# ── Output (cell 6) ──
[interactive widget — omitted]

# ── Code cell 7 ──
1/0

# ── Output (cell 7) ──
Error: ZeroDivisionError: division by zero
---------------------------------------------------------------
ZeroDivisionError    Traceback (most recent call last)
Cell In[8], line 1
----> 1 1/0

# ── Raw cell ──
raw text

# ── Markdown cell 2 ──
Second markdown

# ── Code cell 8 ──


# ── Code cell 9 ──
svg

# ── Output (cell 9) ──
[image/svg+xml output — 2 KB, omitted]
[application/json output — omitted]
"""


class TestExtractNotebook:
    def test_whole_output(self):
        result = extract_document("analysis.ipynb", notebook(SAMPLE_CELLS))
        assert result == Extraction(SAMPLE_TEXT, "ipynb"), result.text

    def test_nbformat_3(self):
        document = {
            "nbformat": 3,
            "metadata": {},
            "worksheets": [
                {
                    "cells": [
                        {"cell_type": "heading", "level": 2, "source": ["Setup"]},
                        {
                            "cell_type": "code",
                            "input": ["x = 6 * 7\n", "x"],
                            "outputs": [
                                {"output_type": "pyout", "text": ["42"], "html": "<b>42</b>"},
                                {"output_type": "stream", "stream": "stdout", "text": "done\n"},
                                {"output_type": "pyerr", "ename": "E", "evalue": "v", "traceback": []},
                            ],
                        },
                        {"cell_type": "markdown", "source": "Notes"},
                    ]
                }
            ],
        }
        result = extract_document("old.ipynb", json.dumps(document).encode())
        assert result.text == (
            "# ── Markdown cell 1 ──\n## Setup\n\n"
            "# ── Code cell 1 ──\nx = 6 * 7\nx\n\n"
            "# ── Output (cell 1) ──\n42\ndone\nError: E: v\n\n"
            "# ── Markdown cell 2 ──\nNotes\n"
        )

    def test_output_cap(self, tmp_path):
        long = "".join(f"line {n:05d}\n" for n in range(3000))  # 33,000 characters
        path = tmp_path / "long run.ipynb"
        path.write_bytes(notebook([code("run()", stream(long[:20000]), stream(long[20000:]))]))
        result = extract_document(path)
        shown = long.rstrip("\n")[:20000]
        command = (
            "jq -j '.cells[0].outputs[] | .text // .data[\"text/plain\"] // "
            "(.traceback // [] | map(. + \"\\n\") | join(\"\")) | if type == \"array\" then join(\"\") else . end' "
            f"'{path}'"
        )
        assert result.text == (
            "# ── Code cell 1 ──\nrun()\n\n# ── Output (cell 1) ──\n"
            f"{shown}\n… [12,999 output chars truncated — full output: {command}]\n"
        )
        assert result.warnings == ("output of code cell 1 truncated (12,999 chars left out)",)
        if shutil.which("jq"):  # the advertised command really prints the whole output
            full = subprocess.run(command, shell=True, capture_output=True, text=True, check=True)
            assert full.stdout == long

    def test_utf8_bom_and_crlf_sources(self):
        data = b"\xef\xbb\xbf" + notebook([{"cell_type": "markdown", "source": "a\r\nb\r\n"}])
        assert extract_document("bom.ipynb", data).text == "# ── Markdown cell 1 ──\na\nb\n"

    def test_malformed_fields_are_skipped(self):
        cells = [
            "not a cell",
            {"cell_type": "code", "source": 42, "outputs": "nope"},
            {"cell_type": "code", "source": "x", "outputs": [7, {"output_type": "display_data", "data": []}]},
        ]
        assert extract_document("odd.ipynb", notebook(cells)).text == (
            "# ── Code cell 1 ──\n\n\n# ── Code cell 2 ──\nx\n"
        )


class TestBadNotebook:
    @pytest.mark.parametrize(
        ("data", "message"),
        [
            (notebook([]), "Notebook contains no cells"),
            (
                notebook([{"cell_type": "code", "source": "  \n", "outputs": []},
                          {"cell_type": "markdown", "source": []}]),
                "Notebook contains no readable cells",
            ),
            (
                notebook([{"cell_type": "code", "source": "x"}])[:40],
                "Not a valid notebook: invalid JSON (Expecting ',' delimiter at line 4, column 23); "
                "the file may be truncated or hand-edited",
            ),
            (
                b"\x89PNG\r\n\x1a\n" + bytes(range(256)),
                "Not a valid notebook: it is not UTF-8 text",
            ),
            (b"[1, 2]", "Not a Jupyter notebook: the JSON is an array, not an object with a 'cells' list"),
            (b'{"nbformat": 4}', "Not a Jupyter notebook: the JSON has no 'cells' list"),
            (b"[" * 100_000, "Not a valid notebook: its JSON is nested too deeply"),
        ],
        ids=["no cells", "no readable cells", "truncated", "binary", "array", "no cells key", "deep"],
    )
    def test_messages(self, data, message):
        with pytest.raises(DocumentError) as info:
            extract_document("nb.ipynb", data)
        assert str(info.value) == f"nb.ipynb: {message}"
