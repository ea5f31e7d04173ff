"""Builders for the documents the extraction tests read, made with the same libraries.

Two formats need a hand-written part, each explained where it is built: a PDF text layer (pypdf
reads and rewrites PDFs but cannot lay out text) and the cached results of spreadsheet formulas
(openpyxl stores formulas but cannot calculate them).
"""

from __future__ import annotations

import io
import json
import re
import struct
import zipfile


def build_pdf(pages: list[list[str]]) -> bytes:
    """A minimal valid PDF whose page i shows the lines ``pages[i]`` in Helvetica.

    Written by hand: a catalog, a page tree, one standard Type1 font (Helvetica needs no
    embedding), and per page a content stream drawing each line with ``Tj`` and moving down with
    ``T*``; then an xref table with the real byte offsets. An empty list gives a page with an
    empty content stream, i.e. no text layer, as a scanned page has.
    """
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(len(pages)))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for i, lines in enumerate(pages):
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            f"/Resources << /Font << /F1 3 0 R >> >> /Contents {5 + 2 * i} 0 R >>".encode()
        )
        ops = ["BT", "/F1 12 Tf", "14 TL", "72 720 Td"] if lines else []
        for line in lines:
            escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            ops.append(f"({escaped}) Tj T*")
        if lines:
            ops.append("ET")
        content = "\n".join(ops).encode("latin-1")
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content))
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n%s\nendobj\n" % (number, body))
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\n" % (len(objects) + 1))
    out.write(b"startxref\n%d\n%%%%EOF\n" % xref)
    return out.getvalue()


def encrypt_pdf(data: bytes, user_password: str, algorithm: str = "RC4-128") -> bytes:
    """*data* re-encrypted by pypdf's writer (RC4 needs no optional crypto package)."""
    import pypdf

    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(data)))
    writer.encrypt(user_password=user_password, owner_password="owner", algorithm=algorithm)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def save_docx(document) -> bytes:
    """A python-docx Document saved to bytes."""
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def save_xlsx(workbook, cached: dict[tuple[int, str], object] | None = None) -> bytes:
    """An openpyxl Workbook saved to bytes, with *cached* formula results written in.

    openpyxl saves a formula as ``<c r="C2"><f>A2+B2</f><v></v></c>``: the formula with an
    empty value, because it cannot calculate. A spreadsheet application saves the same cell with
    its last result in ``<v>`` (plus ``t="str"``, ``t="b"`` or ``t="e"`` for text, boolean and
    error results), and that cached result is what a data_only reader sees. So the cached
    results are written into the sheet XML here, as the application would: *cached* maps
    (sheet index from 0, cell reference) to the result. openpyxl writes sheet i as
    ``xl/worksheets/sheet{i + 1}.xml``.
    """
    out = io.BytesIO()
    workbook.save(out)
    if not cached:
        return out.getvalue()
    by_sheet: dict[str, dict[str, object]] = {}
    for (index, ref), value in cached.items():
        by_sheet.setdefault(f"xl/worksheets/sheet{index + 1}.xml", {})[ref] = value
    return rewrite_zip(out.getvalue(), {
        name: (lambda xml, cells=cells: _cache_results(xml, cells)) for name, cells in by_sheet.items()
    })


def _cache_results(xml: bytes, cells: dict[str, object]) -> bytes:
    text = xml.decode("utf-8")
    for ref, value in cells.items():
        if isinstance(value, bool):
            kind, shown = ' t="b"', "1" if value else "0"
        elif isinstance(value, (int, float)):
            kind, shown = "", repr(value)
        elif isinstance(value, str) and value.startswith("#"):
            kind, shown = ' t="e"', value
        else:
            kind, shown = ' t="str"', str(value)
        pattern = re.compile(rf'<c r="{ref}"([^>]*)><f>(.*?)</f><v\s*/?>(?:</v>)?</c>')
        text, count = pattern.subn(
            lambda m: f'<c r="{ref}"{m.group(1)}{kind}><f>{m.group(2)}</f><v>{shown}</v></c>', text
        )
        assert count == 1, f"no formula cell {ref} in the sheet XML"
    return text.encode("utf-8")


def rewrite_zip(data: bytes, edits: dict) -> bytes:
    """*data* (a zip) with members rewritten: *edits* maps a name to a function of its bytes,
    or to None to drop the member."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            if info.filename in edits and edits[info.filename] is None:
                continue
            content = src.read(info.filename)
            if info.filename in edits:
                content = edits[info.filename](content)
            dst.writestr(info.filename, content)
    return out.getvalue()


def zip_declaring(sizes: dict[str, int], ratio: int | None = None) -> bytes:
    """A small zip whose central directory declares the given uncompressed sizes.

    Each member really holds a few bytes; only the central directory's size fields are patched
    (with *ratio*, the compressed size too, to ``size // ratio``). That is all the zip-bomb
    guard reads, and it lets the tests reach the real limits (hundreds of MiB) without building
    such archives.
    """
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sizes:
            archive.writestr(name, b"x" * 64)
    data = bytearray(out.getvalue())
    position = data.find(b"PK\x01\x02")
    for name, size in sizes.items():
        name_length, = struct.unpack_from("<H", data, position + 28)
        assert data[position + 46 : position + 46 + name_length].decode() == name
        struct.pack_into("<I", data, position + 24, size)  # uncompressed size
        if ratio:
            struct.pack_into("<I", data, position + 20, size // ratio)  # compressed size
        position = data.find(b"PK\x01\x02", position + 4)
    return bytes(data)


def notebook(cells: list[dict], **top: object) -> bytes:
    """A notebook file: nbformat 4 JSON with *cells* (extra top-level keys in *top*)."""
    document = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5, **top}
    return json.dumps(document, indent=1).encode("utf-8")
