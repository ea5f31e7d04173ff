"""Checks a .docx/.xlsx zip before a library opens it: a real zip, within the zip-bomb limits,
holding the expected kind of Office Open XML package.

Only the central directory and two tiny XML members (``_rels/.rels`` and
``[Content_Types].xml``) are read here, so a bomb is refused before anything large is inflated.
The checks run in this order: zip signature, central directory, member count, each member's size
and compression ratio, total size, then the package's main part. Naming what a renamed file really
is (an Excel workbook called ``.docx``, an encrypted document, an OpenDocument file) lets the
agent fix the call instead of guessing.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
import zlib
from xml.etree import ElementTree

from .errors import DocumentError, describe
from .limits import (
    ZIP_MAX_MEMBER_BYTES,
    ZIP_MAX_MEMBERS,
    ZIP_MAX_RATIO,
    ZIP_MAX_TOTAL_BYTES,
    ZIP_RATIO_MIN_BYTES,
)

__all__ = ["EXCEL_WORKBOOKS", "WORD_DOCUMENT", "check_package", "package_error", "read_member"]

_OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ZIP_LOCAL_HEADER = b"PK\x03\x04"
# The main part's relationship type ends with this in both OOXML dialects (transitional, strict).
_OFFICE_DOCUMENT_REL = "/officeDocument"

_CT = "application/vnd.openxmlformats-officedocument."
_MS = "application/vnd.ms-"
WORD_DOCUMENT = _CT + "wordprocessingml.document.main+xml"
"""The main-part content type python-docx opens (it refuses templates and .docm)."""

EXCEL_WORKBOOKS = frozenset(
    {
        _CT + "spreadsheetml.sheet.main+xml",
        _CT + "spreadsheetml.template.main+xml",
        _MS + "excel.sheet.macroEnabled.main+xml",
        _MS + "excel.template.macroEnabled.main+xml",
    }
)
"""The main-part content types openpyxl opens (.xlsx, .xltx, .xlsm, .xltm)."""

_KNOWN_MAIN_PARTS = {
    WORD_DOCUMENT: "a Word document (.docx)",
    _CT + "wordprocessingml.template.main+xml": "a Word template (.dotx)",
    _MS + "word.document.macroEnabled.main+xml": "a macro-enabled Word document (.docm)",
    _MS + "word.template.macroEnabledTemplate.main+xml": "a macro-enabled Word template (.dotm)",
    _CT + "spreadsheetml.sheet.main+xml": "an Excel workbook (.xlsx)",
    _CT + "spreadsheetml.template.main+xml": "an Excel template (.xltx)",
    _MS + "excel.sheet.macroEnabled.main+xml": "a macro-enabled Excel workbook (.xlsm)",
    _MS + "excel.template.macroEnabled.main+xml": "a macro-enabled Excel template (.xltm)",
    _MS + "excel.sheet.binary.macroEnabled.main": "a binary Excel workbook (.xlsb)",
    _CT + "presentationml.presentation.main+xml": "a PowerPoint presentation (.pptx)",
    _CT + "presentationml.slideshow.main+xml": "a PowerPoint slide show (.ppsx)",
    _MS + "powerpoint.presentation.macroEnabled.main+xml": (
        "a macro-enabled PowerPoint presentation (.pptm)"
    ),
}


def check_package(data: bytes, path: str, label: str, accepted: frozenset[str]) -> str:
    """Raise `DocumentError` unless *data* is a safe zip whose main part has an *accepted* type.

    *path* names the file in messages; *label* is the format as the agent knows it ("DOCX").
    Returns the main part's member name (such as ``xl/workbook.xml``).
    """
    if data.startswith(_OLE2_MAGIC):
        raise DocumentError(
            path,
            "Not a zip archive but an OLE2 compound file: either a password-protected Office "
            "document (remove the password and save it again) or a legacy binary Office file "
            "(.doc/.xls) with the wrong suffix",
        )
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        if data.startswith(_ZIP_LOCAL_HEADER):
            # EDGE CASE: the central directory sits at the very end of a zip, so a file cut short
            # (an interrupted download or copy) starts like a zip but has none.
            raise DocumentError(
                path,
                f"Truncated or corrupt {label} file: it starts like a zip archive but has no "
                "central directory (the file was probably cut short; get a complete copy)",
            ) from None
        raise DocumentError(
            path,
            f"Not a valid {label} file: it is not a zip archive (Office documents are zip "
            "files), so it is corrupt or another format with the wrong suffix",
        ) from None
    with archive:
        _check_bomb_limits(archive, path, label)
        part, content_type = _main_part(archive, path, label)
    if content_type not in accepted:
        what = _KNOWN_MAIN_PARTS.get(content_type)
        if what is None:
            raise DocumentError(
                path, f"Not a valid {label} file: its main part has content type '{content_type}'"
            )
        raise DocumentError(path, f"Not a valid {label} file: it is {what} with the wrong suffix")
    return part


def _check_bomb_limits(archive: zipfile.ZipFile, path: str, label: str) -> None:
    """Apply the zip-bomb limits to the sizes the central directory declares.

    Declared sizes are enough: Python's zipfile, which both libraries read through, stops
    inflating a member at its declared size and fails its CRC check if the data disagrees.
    """
    bomb = f"Refusing {label} file as a possible zip bomb"
    members = archive.infolist()
    if len(members) > ZIP_MAX_MEMBERS:
        raise DocumentError(
            path,
            f"{bomb}: its zip archive has {len(members):,} members (limit is {ZIP_MAX_MEMBERS:,})",
        )
    total = 0
    for info in members:
        if info.flag_bits & 0x1:
            raise DocumentError(
                path, f"Encrypted {label} file: zip member '{info.filename}' needs a password"
            )
        if info.file_size > ZIP_MAX_MEMBER_BYTES:
            raise DocumentError(
                path,
                f"{bomb}: zip member '{info.filename}' expands to {info.file_size:,} bytes "
                f"(limit is {ZIP_MAX_MEMBER_BYTES:,} per member)",
            )
        # Integer comparison: no rounding decides a borderline member.
        compressed = max(info.compress_size, 1)
        if info.file_size >= ZIP_RATIO_MIN_BYTES and info.file_size > ZIP_MAX_RATIO * compressed:
            raise DocumentError(
                path,
                f"{bomb}: zip member '{info.filename}' inflates {info.compress_size:,} bytes "
                f"to {info.file_size:,} (more than {ZIP_MAX_RATIO}:1)",
            )
        total += info.file_size
    if total > ZIP_MAX_TOTAL_BYTES:
        raise DocumentError(
            path,
            f"{bomb}: its zip members expand to {total:,} bytes in all "
            f"(limit is {ZIP_MAX_TOTAL_BYTES:,})",
        )


def _main_part(archive: zipfile.ZipFile, path: str, label: str) -> tuple[str, str]:
    """The member name and content type of the part the officeDocument relationship names."""
    names = set(archive.namelist())
    for required in ("[Content_Types].xml", "_rels/.rels"):
        if required not in names:
            hint = ""
            if "mimetype" in names:  # OpenDocument, EPUB: the first member names the format
                mimetype = archive.read("mimetype")[:100].decode("ascii", "replace").strip()
                hint = f"; it looks like '{mimetype}'"
            raise DocumentError(
                path,
                f"Not a valid {label} file: the zip archive is not an Office Open XML package "
                f"(no {required}){hint}",
            )
    rels = _parse(archive, "_rels/.rels", path, label)
    target = None
    for rel in rels:
        if rel.get("Type", "").endswith(_OFFICE_DOCUMENT_REL):
            target = rel.get("Target", "")
            break
    if not target:
        raise DocumentError(
            path, f"Not a valid {label} file: the package names no main document part"
        )
    part_name = "/" + posixpath.normpath(target.lstrip("/"))
    types = _parse(archive, "[Content_Types].xml", path, label)
    defaults = {}
    for entry in types:
        tag = entry.tag.rpartition("}")[2]
        if tag == "Override" and entry.get("PartName", "").lower() == part_name.lower():
            return part_name[1:], entry.get("ContentType", "")
        if tag == "Default":
            defaults[entry.get("Extension", "").lower()] = entry.get("ContentType", "")
    extension = posixpath.splitext(part_name)[1].lstrip(".").lower()
    return part_name[1:], defaults.get(extension, "")


def _parse(archive: zipfile.ZipFile, member: str, path: str, label: str) -> ElementTree.Element:
    """Parse one small package XML member, turning damage into a `DocumentError`."""
    try:
        return ElementTree.fromstring(archive.read(member))
    except (ElementTree.ParseError, zipfile.BadZipFile, zlib.error, OSError, EOFError) as exc:
        raise DocumentError(
            path, f"Corrupt {label} file: its '{member}' member cannot be read ({describe(exc)})"
        ) from None


def read_member(data: bytes, member: str, path: str, label: str) -> ElementTree.Element:
    """Parse one XML member of the (already checked) package *data*."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        if member not in archive.namelist():
            raise DocumentError(path, f"Corrupt {label} file: its part '{member}' is missing")
        return _parse(archive, member, path, label)


def package_error(exc: Exception, path: str, label: str) -> DocumentError | None:
    """The `DocumentError` for a failure python-docx or openpyxl hit inside a checked package,
    or None when *exc* is not one of the damage kinds named here."""
    if isinstance(exc, (zipfile.BadZipFile, zlib.error, EOFError)):
        return DocumentError(
            path, f"Corrupt {label} file: its zip data is damaged ({describe(exc)})"
        )
    if isinstance(exc, SyntaxError):  # ElementTree's ParseError and lxml's XMLSyntaxError
        return DocumentError(path, f"Corrupt {label} file: damaged XML ({describe(exc)})")
    if isinstance(exc, KeyError):  # zipfile: a part the package refers to is not in the zip
        return DocumentError(path, f"Corrupt {label} file: missing part ({describe(exc)})")
    return None
