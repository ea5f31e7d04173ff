"""Every bound document extraction enforces, named once: input size, zip-bomb limits, caps.

The numbers come from the Hermes contract (§2.9) unless a comment says otherwise. The guards that
apply them live next to the data they inspect (`ooxml.py` for zip archives, `dispatch.py` for the
input size); the format modules import the caps from here.
"""

from __future__ import annotations

MIB = 1024 * 1024

MAX_INPUT_BYTES = 50 * MIB
"""Largest document (as stored on disk) that is extracted at all."""

ZIP_MAX_MEMBERS = 1024
"""Most members a .docx/.xlsx zip archive may list in its central directory."""

ZIP_MAX_MEMBER_BYTES = 32 * MIB
"""Largest uncompressed size of any single zip member."""

ZIP_MAX_TOTAL_BYTES = 100 * MIB
"""Largest sum of the uncompressed sizes of all zip members."""

ZIP_MAX_RATIO = 200
"""Highest uncompressed/compressed size ratio allowed for a zip member."""

ZIP_RATIO_MIN_BYTES = 1 * MIB
"""Members smaller than this skip the ratio check (shellfree's choice, not the contract's): a tiny
but very repetitive XML part can compress better than 200:1 and cannot hurt anyone."""

XLSX_MAX_ROWS = 5000
"""Rows listed per sheet; the rest are counted in a note line."""

XLSX_MAX_COLS = 256
"""Columns listed per row; a note line counts the rows that had more."""

PDF_EMPTY_PAGE_CHARS = 20
"""A PDF page whose stripped text is shorter than this counts as having no text."""

PDF_WARN_MIN_EMPTY = 2
"""The coverage warning needs at least this many pages without text …"""

PDF_WARN_MIN_FRACTION = 0.2
"""… and either this fraction of all pages without text …"""

PDF_WARN_ALWAYS_EMPTY = 10
"""… or at least this many pages without text."""

PDF_WARN_MAX_RANGES = 20
"""The coverage warning names at most this many page ranges."""

NOTEBOOK_OUTPUT_CAP = 20_000
"""Characters of rendered output kept per notebook cell."""
