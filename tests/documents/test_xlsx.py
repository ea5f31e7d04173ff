"""Tests for documents/xlsx.py: sheets, cached formula values, value formats, caps, errors."""

from __future__ import annotations

import datetime
import os
import re

import pytest
from openpyxl import Workbook

from shellfree.documents import DocumentError, Extraction, extract_document

from .builders import rewrite_zip, save_docx, save_xlsx


def sample_workbook() -> bytes:
    """Two visible sheets with data, a hidden and a very hidden one, and an empty sheet.

    The formulas get cached results as a spreadsheet application would write them on save
    (see `save_xlsx`), except C5, which stays uncalculated.
    """
    workbook = Workbook()
    data = workbook.active
    data.title = "Data"
    data.append(["Item", "Price", "Total", "Note"])
    data.append(["Pen", 1.5, "=B2*2", "ok"])
    data.append(["Ink", 3.0, "=B3*2", "=IF(B3>2,\"dear\",\"cheap\")"])
    data.append(["Bad", 0, "=1/B4", "=B4=0"])
    data.append(["Fresh", 7, "=B5+1"])
    data.append([])
    data.append(["when", datetime.date(2024, 2, 29), datetime.datetime(2024, 2, 29, 13, 45, 30),
                 datetime.time(7, 5, 9)])
    data.append([True, False, None, "tab\there", "two\nlines"])
    data.append([None, None, "gap before"])
    data["F12"].number_format = "0.00"  # a styled but empty cell: a trailing empty row
    hidden = workbook.create_sheet("Secret")
    hidden.append(["hidden value"])
    hidden.sheet_state = "hidden"
    very_hidden = workbook.create_sheet("Macros")
    very_hidden.append(["very hidden value"])
    very_hidden.sheet_state = "veryHidden"
    workbook.create_sheet("Blank")
    second = workbook.create_sheet("Summary")
    second.append(["Total", "=SUM(Data!C2:C5)"])
    return save_xlsx(
        workbook,
        {
            (0, "C2"): 3,
            (0, "C3"): 6,
            (0, "D3"): "dear",
            (0, "C4"): "#DIV/0!",
            (0, "D4"): True,
            (4, "B1"): 9,
        },
    )


SAMPLE_TEXT = (
    "# ── Sheet: Data ──\n"
    "Item\tPrice\tTotal\tNote\n"
    "Pen\t1.5\t3\tok\n"
    "Ink\t3\t6\tdear\n"
    "Bad\t0\t#DIV/0!\tTRUE\n"
    "Fresh\t7\n"
    "\n"
    "when\t2024-02-29\t2024-02-29T13:45:30\t07:05:09\n"
    "TRUE\tFALSE\t\ttab here\ttwo lines\n"
    "\t\tgap before\n"
    "\n"
    "# ── Sheet: Blank ──\n"
    "(empty)\n"
    "\n"
    "# ── Sheet: Summary ──\n"
    "Total\t9\n"
)


class TestExtractXlsx:
    def test_whole_output(self):
        result = extract_document("book.xlsx", sample_workbook())
        assert result == Extraction(
            SAMPLE_TEXT,
            "xlsx",
            ("skipped hidden sheet 'Secret'", "skipped veryHidden sheet 'Macros'"),
        ), result.text

    def test_xlsm_suffix(self, tmp_path):
        # A macro-enabled workbook differs only in its main part's content type (and a VBA part).
        main = b"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
        xlsm = b"application/vnd.ms-excel.sheet.macroEnabled.main+xml"
        data = rewrite_zip(sample_workbook(), {"[Content_Types].xml": lambda xml: xml.replace(main, xlsm)})
        path = tmp_path / "book.XLSM"
        path.write_bytes(data)
        assert extract_document(path).text == SAMPLE_TEXT

    def test_row_cap(self):
        workbook = Workbook()
        sheet = workbook.active
        sheet.title = "Long"
        for n in range(1, 5004):
            sheet.append([n, f"row {n}"])
        workbook.create_sheet("After").append(["still read"])
        result = extract_document("long.xlsx", save_xlsx(workbook))
        lines = result.text.split("\n")
        assert lines[:3] == ["# ── Sheet: Long ──", "1\trow 1", "2\trow 2"]
        assert lines[5000:] == [
            "5000\trow 5000",
            "… [3 more rows not shown: only the first 5,000 rows of each sheet are extracted]",
            "",
            "# ── Sheet: After ──",
            "still read",
            "",
        ]
        assert result.warnings == ("sheet 'Long': 3 rows over the row cap left out",)

    def test_exactly_at_the_row_cap(self):
        workbook = Workbook()
        for n in range(5000):
            workbook.active.append([n])
        result = extract_document("full.xlsx", save_xlsx(workbook))
        assert result.text.endswith("\n4998\n4999\n") and result.warnings == ()

    def test_blank_rows_count_towards_the_cap(self):
        workbook = Workbook()
        sheet = workbook.active
        sheet["A1"] = "top"
        sheet["A5002"] = "bottom"
        text = extract_document("gap.xlsx", save_xlsx(workbook)).text
        assert text.split("\n")[1:3] == ["top", ""]
        assert text.endswith(
            "\n\n… [2 more rows not shown: only the first 5,000 rows of each sheet are extracted]\n"
        )
        assert text.count("\n") == 1 + 5000 + 1

    def test_column_cap(self):
        workbook = Workbook()
        sheet = workbook.active
        sheet.append(list(range(1, 301)))
        sheet.append(["narrow"])
        result = extract_document("wide.xlsx", save_xlsx(workbook))
        assert result.text == (
            "# ── Sheet: Sheet ──\n"
            + "\t".join(str(n) for n in range(1, 257))
            + "\nnarrow\n"
            "… [1 of the rows above have cells beyond column 256, not shown]\n"
        )
        assert result.warnings == ("sheet 'Sheet': cells beyond column 256 left out",)

    def test_the_cut_at_the_column_cap_drops_trailing_empty_cells(self):
        # A row whose cells under the cap end empty ends there too, as every row does: not
        # in 255 tabs, and a row with values only past the cap is an empty line.
        workbook = Workbook()
        sheet = workbook.active
        sheet["A1"] = "a"
        sheet.cell(row=1, column=300, value="far")
        sheet.cell(row=2, column=300, value="far")
        sheet["A3"] = "end"
        result = extract_document("wide.xlsx", save_xlsx(workbook))
        assert result.text == (
            "# ── Sheet: Sheet ──\na\n\nend\n"
            "… [2 of the rows above have cells beyond column 256, not shown]\n")

    @pytest.mark.parametrize("dimension", ["A1", "A1:XFD1048576"])
    def test_wrong_dimension_is_ignored(self, dimension):
        # Too small a <dimension> would hide rows; too large would pad a million empty rows.
        workbook = Workbook()
        workbook.active.append(["a", "b"])
        workbook.active.append(["c", "d"])
        data = rewrite_zip(
            save_xlsx(workbook),
            {
                "xl/worksheets/sheet1.xml": lambda xml: re.sub(
                    rb'<dimension ref="[^"]*"/>', b'<dimension ref="%s"/>' % dimension.encode(), xml
                )
            },
        )
        assert extract_document("dim.xlsx", data).text == "# ── Sheet: Sheet ──\na\tb\nc\td\n"

    def test_durations_and_big_numbers(self):
        workbook = Workbook()
        sheet = workbook.active
        sheet.append([datetime.timedelta(hours=30, minutes=5), 1e20, 2**40, 0.125, -2.5])
        sheet["A1"].number_format = "[h]:mm:ss"
        text = extract_document("n.xlsx", save_xlsx(workbook)).text
        assert text == "# ── Sheet: Sheet ──\n30:05:00\t1e+20\t1099511627776\t0.125\t-2.5\n"

    def test_only_hidden_sheets(self):
        # openpyxl refuses to save a workbook whose only sheet is hidden; other writers do not.
        data = rewrite_zip(
            save_xlsx(Workbook()),
            {"xl/workbook.xml": lambda xml: xml.replace(b'state="visible"', b'state="hidden"', 1)},
        )
        with pytest.raises(DocumentError) as info:
            extract_document("h.xlsx", data)
        assert str(info.value) == "h.xlsx: XLSX contains no visible worksheets"

    def test_workbook_is_closed(self, monkeypatch):
        import openpyxl.reader.excel

        closed = []
        real = openpyxl.reader.excel.load_workbook

        def tracking_load(*args, **kwargs):
            workbook = real(*args, **kwargs)
            original_close = workbook.close
            workbook.close = lambda: (closed.append(True), original_close())
            return workbook

        monkeypatch.setattr("openpyxl.load_workbook", tracking_load)
        extract_document("book.xlsx", sample_workbook())
        assert closed == [True]


class TestCorruptXlsx:
    def test_truncated_zip(self):
        data = sample_workbook()
        with pytest.raises(DocumentError) as info:
            extract_document("cut.xlsx", data[: len(data) - 100])
        assert str(info.value) == (
            "cut.xlsx: Truncated or corrupt XLSX file: it starts like a zip archive but has no "
            "central directory (the file was probably cut short; get a complete copy)"
        )

    def test_random_bytes(self):
        with pytest.raises(DocumentError) as info:
            extract_document("noise.xlsm", os.urandom(3000).replace(b"PK", b"pk"))
        assert str(info.value) == (
            "noise.xlsm: Not a valid XLSM file: it is not a zip archive (Office documents are "
            "zip files), so it is corrupt or another format with the wrong suffix"
        )

    def test_word_document_renamed(self):
        from docx import Document

        with pytest.raises(DocumentError) as info:
            extract_document("memo.xlsx", save_docx(Document()))
        assert str(info.value) == (
            "memo.xlsx: Not a valid XLSX file: it is a Word document (.docx) with the wrong suffix"
        )

    def test_broken_sheet_xml(self):
        data = rewrite_zip(sample_workbook(), {"xl/worksheets/sheet1.xml": lambda xml: xml[:500]})
        with pytest.raises(DocumentError) as info:
            extract_document("broken.xlsx", data)
        # The detail is expat's message and position, which depend on where the cut falls.
        assert re.fullmatch(
            r"broken\.xlsx: Corrupt XLSX file: damaged XML \([a-z ]+: line \d+, column \d+\)",
            str(info.value),
        ), str(info.value)

    def test_missing_sheet_part(self):
        data = rewrite_zip(sample_workbook(), {"xl/worksheets/sheet1.xml": None})
        with pytest.raises(DocumentError) as info:
            extract_document("gutted.xlsx", data)
        assert str(info.value) == (
            "gutted.xlsx: Corrupt XLSX file: the workbook lists sheet 'Data' but the file holds "
            "no data for it"
        )
