"""Turns an .xlsx/.xlsm workbook into text with openpyxl, streamed sheet by sheet.

Each visible sheet becomes a ``# ── Sheet: {name} ──`` header, then one line per row with the
cells tab-separated, then a blank line. Cells show the value the spreadsheet application cached
when it last saved the file (formulas are not recalculated), dates in ISO 8601 and booleans as
TRUE/FALSE. Rows and columns over the caps in `limits` are left out with a note line.

EDGE CASE: hidden and very hidden sheets are skipped, as the Hermes contract does: they usually
hold lookup tables or scratch work the author chose not to show. Each one skipped is listed in
`Extraction.warnings`, so a caller can still tell the agent they exist.

EDGE CASE: a formula that was never calculated (a workbook written by openpyxl or pandas and not
opened in a spreadsheet application since) has no cached value and shows as an empty cell.
"""

from __future__ import annotations

import datetime
import io
import warnings
from typing import Iterable

from .errors import DocumentError
from .limits import XLSX_MAX_COLS, XLSX_MAX_ROWS
from .ooxml import EXCEL_WORKBOOKS, check_package, package_error, read_member
from .result import Extraction, finish_text

__all__ = ["extract"]

_HIDDEN_STATES = ("hidden", "veryHidden")
_CELL_BREAKS = str.maketrans({"\t": " ", "\n": " ", "\r": " "})


def extract(data: bytes, path: str) -> Extraction:
    """Extract every visible sheet of the workbook *data*; *path* names the file in errors."""
    label = "XLSM" if path.lower().endswith(".xlsm") else "XLSX"
    workbook_part = check_package(data, path, label, EXCEL_WORKBOOKS)
    listed = _listed_sheets(read_member(data, workbook_part, path, label))
    notes: list[str] = []
    # openpyxl reports unsupported features (data validation, conditional formatting, a missing
    # default style) as UserWarnings; they say nothing about the values, so they go to
    # diagnostics. catch_warnings swaps process-wide state and is not thread-safe: an
    # extraction running in another thread at the same moment could mix up whose diagnostics
    # are whose, which is all it affects.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            blocks = _read_sheets(data, listed, path, label, notes)
        except DocumentError:
            raise
        except Exception as exc:  # noqa: BLE001 - mapped when recognised, else re-raised
            error = package_error(exc, path, label)
            if error is None:
                raise
            raise error from None
    if not blocks:
        raise DocumentError(path, f"{label} contains no visible worksheets")
    diagnostics = tuple(str(w.message) for w in caught)
    return Extraction(finish_text("\n".join(blocks)), "xlsx", tuple(notes), diagnostics)


def _read_sheets(
    data: bytes, listed: list[str], path: str, label: str, notes: list[str]
) -> list[str]:
    """One text block per visible sheet; hidden sheets are only noted."""
    import openpyxl  # imported here so that `import shellfree` stays fast

    workbook = openpyxl.load_workbook(
        io.BytesIO(data), read_only=True, data_only=True, keep_links=False
    )
    try:
        # EDGE CASE: openpyxl silently drops a sheet whose part is missing from the zip;
        # a workbook that lost a sheet is corrupt, and its text would be quietly incomplete.
        lost = [name for name in listed if name not in workbook.sheetnames]
        if lost:
            raise DocumentError(
                path,
                f"Corrupt {label} file: the workbook lists sheet '{lost[0]}' but the file "
                "holds no data for it",
            )
        blocks = []
        for sheet in workbook.worksheets:
            if sheet.sheet_state in _HIDDEN_STATES:
                notes.append(f"skipped {sheet.sheet_state} sheet '{sheet.title}'")
                continue
            blocks.append(_sheet_block(sheet, notes))
        return blocks
    finally:
        # read_only keeps the zip open until close(), even when iteration stopped early.
        workbook.close()


def _listed_sheets(workbook_xml) -> list[str]:
    """The sheet names the workbook part lists, in order."""
    return [
        element.get("name", "")
        for element in workbook_xml.iter()
        if element.tag.rpartition("}")[2] == "sheet"
    ]


def _sheet_block(sheet, notes: list[str]) -> str:
    """The header, rows and note lines of one sheet, ending with a blank line."""
    # EDGE CASE: read_only mode trusts the sheet's <dimension> element, which some writers get
    # wrong: too small truncates the data, too large pads it with up to a million empty rows.
    sheet.reset_dimensions()
    shown: list[str] = []
    rows_seen = 0  # rows up to and including the last non-empty one
    blank_run = 0  # empty rows held back until a non-empty row shows they are not trailing
    wide_rows = 0
    for values in sheet.iter_rows(values_only=True):
        cells = _trim(values)
        if not cells:
            blank_run += 1
            continue
        rows_seen += blank_run + 1
        if len(shown) < XLSX_MAX_ROWS:
            if len(cells) > XLSX_MAX_COLS:
                wide_rows += 1
                # What is left may end in empty cells: a row whose only value lies past the
                # cap is an empty line, not 255 tabs.
                cells = _trim(cells[:XLSX_MAX_COLS])
            shown.extend([""] * min(blank_run, XLSX_MAX_ROWS - len(shown)))
            shown.append("\t".join(_format(value) for value in cells))
            del shown[XLSX_MAX_ROWS:]
        blank_run = 0
    lines = [f"# ── Sheet: {sheet.title} ──", *shown]
    if not shown:
        lines.append("(empty)")
    if rows_seen > XLSX_MAX_ROWS:
        left_out = rows_seen - XLSX_MAX_ROWS
        lines.append(
            f"… [{left_out:,} more rows not shown: only the first {XLSX_MAX_ROWS:,} rows "
            "of each sheet are extracted]"
        )
        notes.append(f"sheet '{sheet.title}': {left_out:,} rows over the row cap left out")
    if wide_rows:
        lines.append(
            f"… [{wide_rows:,} of the rows above have cells beyond column {XLSX_MAX_COLS}, "
            "not shown]"
        )
        notes.append(f"sheet '{sheet.title}': cells beyond column {XLSX_MAX_COLS} left out")
    return "\n".join(lines) + "\n"


def _trim(values: Iterable[object]) -> list[object]:
    """The row's values without its trailing empty cells."""
    cells = list(values)
    while cells and (cells[-1] is None or cells[-1] == ""):
        cells.pop()
    return cells


def _format(value: object) -> str:
    """One cell as text: ISO 8601 dates, TRUE/FALSE, integral floats without ``.0``."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, datetime.datetime):
        # openpyxl turns every date-formatted number into a datetime; without the cell's
        # number format (values_only drops it), midnight is the sign of a plain date.
        if value.time() == datetime.time(0):
            return value.date().isoformat()
        return value.isoformat(timespec="seconds")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, datetime.time):
        return value.isoformat(timespec="seconds")
    if isinstance(value, datetime.timedelta):
        # Durations ([h]:mm:ss formats) as Excel shows them: hours can exceed 24.
        seconds = round(value.total_seconds())
        sign = "-" if seconds < 0 else ""
        hours, rest = divmod(abs(seconds), 3600)
        return f"{sign}{hours}:{rest // 60:02d}:{rest % 60:02d}"
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 2**53:
            return str(int(value))
        return repr(value)
    return str(value).translate(_CELL_BREAKS)
