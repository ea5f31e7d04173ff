"""Documents through read_file: extracted text paged like any file, the contract's fields, the
extraction-failure message, and the notebook fall-through (§2.2 step 7, §2.9)."""

from __future__ import annotations

import io
import json
import os
from typing import Any

import docx
import openpyxl
import pytest

from shellfree.engine.read_result import ReadLimits
from shellfree.engine.read_tracking import stat_key
from tests.documents.builders import build_pdf, notebook


def read(ft, path: str, **args: Any) -> dict[str, Any]:
    return json.loads(ft.read_file(path, **args))


def docx_bytes(paragraphs: list[str]) -> bytes:
    document = docx.Document()
    document.add_heading("Quarterly report", level=1)
    for text in paragraphs:
        document.add_paragraph(text)
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "region"
    table.cell(0, 1).text = "total"
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def xlsx_bytes() -> bytes:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "Sales"
    sheet.append(["item", "qty"])
    sheet.append(["apples", 3])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


CELLS = [
    {"cell_type": "markdown", "metadata": {}, "source": ["# Analysis"]},
    {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": ["print(6 * 7)"],
     "outputs": [{"output_type": "stream", "name": "stdout", "text": ["42\n"]}]},
]


class TestExtractedPages:
    def test_docx(self, tools):
        data = docx_bytes(["First paragraph.", "Second paragraph."])
        ft = tools({"r.docx": data})
        assert read(ft, "r.docx") == {
            "content": "1|# Quarterly report\n2|First paragraph.\n3|Second paragraph.\n"
                       "4|region\ttotal",
            "total_lines": 4, "file_size": len(data), "truncated": False,
            "extracted_document": True}

    def test_xlsx(self, tools):
        ft = tools({"s.xlsx": xlsx_bytes()})
        assert read(ft, "s.xlsx")["content"] == (
            "1|# ── Sheet: Sales ──\n2|item\tqty\n3|apples\t3")

    def test_ipynb(self, tools):
        ft = tools({"n.ipynb": notebook(CELLS)})
        assert read(ft, "n.ipynb")["content"] == (
            "1|# ── Markdown cell 1 ──\n2|# Analysis\n3|\n4|# ── Code cell 1 ──\n"
            "5|print(6 * 7)\n6|\n7|# ── Output (cell 1) ──\n8|42")

    def test_pdf(self, tools):
        ft = tools({"p.pdf": build_pdf([["The first page has enough text to count."],
                                        ["The second page has enough text as well."]])})
        out = read(ft, "p.pdf")
        assert out["extracted_document"] is True
        assert "The first page has enough text to count." in out["content"]
        assert "The second page has enough text as well." in out["content"]

    def test_paged_with_the_continue_hint(self, tools):
        ft = tools({"r.docx": docx_bytes([f"paragraph {i}" for i in range(1, 9)])})
        out = read(ft, "r.docx", offset=3, limit=2)
        assert out == {
            "content": "3|paragraph 2\n4|paragraph 3", "total_lines": 10,
            "file_size": out["file_size"], "truncated": True, "extracted_document": True,
            "hint": "Use offset=5 to continue reading (showing 3-4 of 10 lines)"}
        assert read(ft, "r.docx", offset=10)["truncated"] is False

    def test_char_budget_and_redaction_apply(self, tools):
        ft = tools({"r.docx": docx_bytes(["key sk-abcdefghijklmnopqrstuvwx"] * 4)})
        ft.read_limits = ReadLimits(max_chars=60)
        out = read(ft, "r.docx")
        assert out["content"] == "1|# Quarterly report\n2|key «redacted:sk-…»"
        assert (out["truncated_by"], out["next_offset"]) == ("bytes", 3)

    def test_guards_are_skipped(self, tools):
        ft = tools({"n.ipynb": notebook(CELLS)})
        outs = [read(ft, "n.ipynb") for _ in range(5)]
        assert all(o["content"].startswith("1|# ── Markdown cell 1 ──") for o in outs)
        assert all("_warning" not in o for o in outs)

    def test_a_whole_document_counts_as_seen(self, root, tools):
        ft = tools({"n.ipynb": notebook(CELLS)})
        read(ft, "n.ipynb")
        path = root / "n.ipynb"
        assert ft.state.has_seen_current(str(path), stat_key(os.stat(path)))

    def test_deny_list_runs_first(self, home, tools):
        (home / ".hermes" / "vault").mkdir(parents=True)
        (home / ".hermes" / "vault" / "keys.xlsx").write_bytes(xlsx_bytes())
        out = read(tools(), "~/.hermes/vault/keys.xlsx")
        assert out["error"].startswith("Access denied: ")


class TestExtractionFailures:
    @pytest.mark.parametrize("name, data, reason", [
        ("bad.docx", b"not a zip", "Not a valid DOCX file: it is not a zip archive"),
        ("bad.xlsx", b"not a zip", "Not a valid XLSX file: it is not a zip archive"),
        ("bad.pdf", b"%PDF-1.4 garbage", "Truncated or corrupt PDF file"),
    ])
    def test_message(self, tools, name, data, reason):
        ft = tools({name: data})
        error = read(ft, name)["error"]
        ext = name[name.rindex("."):]
        assert error.startswith(f"Cannot read '{name}' ({ext}): document extraction failed — "
                                f"{reason}")
        assert error.endswith(". Use terminal utilities to inspect or convert the file.")

    def test_exact_message_for_an_empty_docx(self, tools):
        ft = tools({"e.docx": b""})
        assert read(ft, "e.docx") == {"error": (
            "Cannot read 'e.docx' (.docx): document extraction failed — The file is empty "
            "(0 bytes). Use terminal utilities to inspect or convert the file.")}

    @pytest.mark.parametrize("name", ["deck.pptx", "old.doc", "sheet.xlsb", "text.odt",
                                      "book.epub", "SLIDES.PPT"])
    def test_advertised_format_without_a_converter(self, tools, name):
        # The schema advertises these (§2.1); Hermes reads them only through its optional
        # converter and, without it, refuses them with a reason to convert them (§2.9).
        ft = tools({name: b"PK\x03\x04 any bytes"})
        ext = name[name.rindex("."):].lower()
        assert read(ft, name) == {"error": (
            f"Cannot read '{name}' ({ext}): document extraction failed — Cannot convert "
            f"'{name}': this format needs a converter shellfree does not have (it extracts "
            ".docx, .xlsx, .xlsm, .pdf and .ipynb). Fix: convert the file yourself via terminal "
            "(e.g. libreoffice --headless --convert-to txt). Use terminal utilities to inspect "
            "or convert the file.")}

    def test_rtf_is_read_as_text(self, tools):
        ft = tools({"doc.rtf": "{\\rtf1\\ansi Hello}\n"})
        assert read(ft, "doc.rtf")["content"] == "1|{\\rtf1\\ansi Hello}"

    def test_broken_notebook_is_read_as_text(self, tools):
        ft = tools({"n.ipynb": "{not json\n"})
        assert read(ft, "n.ipynb") == {
            "content": "1|{not json", "total_lines": 1, "file_size": 10, "truncated": False,
            "is_binary": False, "is_image": False}

    def test_missing_document_is_refused_by_its_extension(self, root, tools):
        # Hermes' order: the binary-extension guard runs before the not-found handling.
        assert read(tools(), "gone.docx")["error"].startswith("Cannot read binary file")
        assert read(tools(), "gone.pdf")["error"] == f"File not found: {root / 'gone.pdf'}"

    def test_directory_named_like_a_document(self, root, tools):
        (root / "dir.pdf").mkdir()
        assert "not a regular file" in read(tools(), "dir.pdf")["error"]
