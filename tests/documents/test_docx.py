"""Tests for documents/docx.py: body text in order, headings, tables, and every error message."""

from __future__ import annotations

import os

import pytest
from docx import Document
from docx.enum.style import WD_STYLE_TYPE
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls

from shellfree.documents import DocumentError, Extraction, extract_document

from .builders import rewrite_zip, save_docx, save_xlsx


def sample_docx() -> bytes:
    """Headings of three levels, a styled heading, tabs, a line break, a table between two
    paragraphs (with a merged cell and a two-paragraph cell), an empty paragraph and a
    content control."""
    document = Document()
    document.add_heading("Quarterly report", 0)
    document.add_paragraph("Prepared by\tFinance")
    document.add_heading("Summary", 1)
    paragraph = document.add_paragraph("First line")
    paragraph.add_run().add_break()
    paragraph.add_run("second line")
    table = document.add_table(rows=3, cols=3)
    for column, text in enumerate(["Region", "Q1", "Q2"]):
        table.cell(0, column).text = text
    for column, text in enumerate(["North", "10", "12"]):
        table.cell(1, column).text = text
    merged = table.cell(2, 0).merge(table.cell(2, 1))
    merged.text = "Total\tall"
    table.cell(2, 2).text = "note one"
    table.cell(2, 2).add_paragraph("note two")
    document.add_paragraph("After the table.")
    document.add_heading("Details", 2)
    custom = document.styles.add_style("Custom Heading", WD_STYLE_TYPE.PARAGRAPH)
    custom.base_style = document.styles["Heading 3"]
    document.add_paragraph("Deep", style="Custom Heading")
    document.add_paragraph("")
    document.add_paragraph("The end.")
    control = parse_xml(
        f"<w:sdt {nsdecls('w')}><w:sdtContent><w:p><w:r><w:t>Inside a content control</w:t>"
        "</w:r></w:p></w:sdtContent></w:sdt>"
    )
    document.element.body.sectPr.addprevious(control)
    return save_docx(document)


class TestExtractDocx:
    def test_whole_output(self):
        result = extract_document("report.docx", sample_docx())
        expected = (
            "# Quarterly report\n"
            "Prepared by\tFinance\n"
            "# Summary\n"
            "First line\n"
            "second line\n"
            "Region\tQ1\tQ2\n"
            "North\t10\t12\n"
            "Total all\tnote one note two\n"
            "After the table.\n"
            "## Details\n"
            "### Deep\n"
            "\n"
            "The end.\n"
            "Inside a content control\n"
        )
        assert result == Extraction(expected, "docx"), result.text

    def test_inline_containers_and_text_boxes(self):
        # Runs that python-docx's Paragraph.text misses (tracked insertions, fields, inline
        # content controls), text it must leave out (deletions, moved-away text, field codes),
        # and a text box, which Word writes twice: as a drawing and as a legacy fallback.
        mc = 'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"'
        document = Document()
        document.add_paragraph("placeholder")
        body = (
            "<w:r><w:t xml:space='preserve'>Kept </w:t></w:r>"
            "<w:ins w:id='1' w:author='a'><w:r><w:t xml:space='preserve'>inserted </w:t></w:r></w:ins>"
            "<w:del w:id='2' w:author='a'><w:r><w:delText>deleted </w:delText></w:r></w:del>"
            "<w:moveFrom w:id='3' w:author='a'><w:r><w:t>moved away </w:t></w:r></w:moveFrom>"
            "<w:fldSimple w:instr='PAGE'><w:r><w:t xml:space='preserve'>page 7 </w:t></w:r></w:fldSimple>"
            "<w:r><w:fldChar w:fldCharType='begin'/></w:r>"
            "<w:r><w:instrText>DATE</w:instrText></w:r>"
            "<w:r><w:fldChar w:fldCharType='separate'/></w:r>"
            "<w:r><w:t xml:space='preserve'>2024-01-01 </w:t></w:r>"
            "<w:r><w:fldChar w:fldCharType='end'/></w:r>"
            "<w:sdt><w:sdtContent><w:r><w:t>control</w:t></w:r></w:sdtContent></w:sdt>"
            "<w:r><mc:AlternateContent><mc:Choice Requires='wps'><w:drawing><w:txbxContent>"
            "<w:p><w:r><w:t>In the box</w:t></w:r></w:p>"
            "</w:txbxContent></w:drawing></mc:Choice><mc:Fallback><w:pict><w:txbxContent>"
            "<w:p><w:r><w:t>In the box</w:t></w:r></w:p>"
            "</w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent></w:r>"
        )
        paragraph = parse_xml(f"<w:p {nsdecls('w')} {mc}>{body}</w:p>")
        document.paragraphs[0]._p.addnext(paragraph)
        table = document.add_table(rows=1, cols=1)
        table.cell(0, 0)._tc.append(parse_xml(f"<w:p {nsdecls('w')} {mc}>{body}</w:p>"))
        assert extract_document("r.docx", save_docx(document)).text == (
            "placeholder\n"
            "Kept inserted page 7 2024-01-01 control\n"
            "In the box\n"
            "Kept inserted page 7 2024-01-01 control In the box\n"
        )

    def test_reads_from_path(self, tmp_path):
        target = tmp_path / "Report.DOCX"
        target.write_bytes(sample_docx())
        assert extract_document(target) == extract_document("x.docx", sample_docx())

    def test_empty_document(self):
        with pytest.raises(DocumentError) as info:
            extract_document("blank.docx", save_docx(Document()))
        assert str(info.value) == "blank.docx: DOCX contains no extractable text"

    def test_only_empty_table(self):
        document = Document()
        document.add_table(rows=2, cols=2)
        with pytest.raises(DocumentError, match="DOCX contains no extractable text"):
            extract_document("t.docx", save_docx(document))


class TestCorruptDocx:
    def test_truncated_zip(self):
        data = sample_docx()
        with pytest.raises(DocumentError) as info:
            extract_document("cut.docx", data[: len(data) // 2])
        assert str(info.value) == (
            "cut.docx: Truncated or corrupt DOCX file: it starts like a zip archive but has no "
            "central directory (the file was probably cut short; get a complete copy)"
        )

    def test_random_bytes(self):
        with pytest.raises(DocumentError) as info:
            extract_document("noise.docx", os.urandom(2000).replace(b"PK", b"pk"))
        assert str(info.value) == (
            "noise.docx: Not a valid DOCX file: it is not a zip archive (Office documents are "
            "zip files), so it is corrupt or another format with the wrong suffix"
        )

    def test_workbook_renamed(self):
        from openpyxl import Workbook

        with pytest.raises(DocumentError) as info:
            extract_document("sheet.docx", save_xlsx(Workbook()))
        assert str(info.value) == (
            "sheet.docx: Not a valid DOCX file: it is an Excel workbook (.xlsx) with the wrong suffix"
        )

    def test_encrypted_or_legacy(self):
        ole2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504)
        with pytest.raises(DocumentError) as info:
            extract_document("locked.docx", ole2)
        assert str(info.value) == (
            "locked.docx: Not a zip archive but an OLE2 compound file: either a "
            "password-protected Office document (remove the password and save it again) or a "
            "legacy binary Office file (.doc/.xls) with the wrong suffix"
        )

    def test_plain_zip(self):
        import io
        import zipfile

        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as archive:
            archive.writestr("mimetype", "application/vnd.oasis.opendocument.text")
            archive.writestr("content.xml", "<office:document-content/>")
        with pytest.raises(DocumentError) as info:
            extract_document("letter.docx", out.getvalue())
        assert str(info.value) == (
            "letter.docx: Not a valid DOCX file: the zip archive is not an Office Open XML "
            "package (no [Content_Types].xml); it looks like 'application/vnd.oasis.opendocument.text'"
        )

    def test_missing_document_part(self):
        data = rewrite_zip(sample_docx(), {"word/document.xml": None})
        with pytest.raises(DocumentError) as info:
            extract_document("gutted.docx", data)
        assert str(info.value) == (
            "gutted.docx: Corrupt DOCX file: missing part "
            "(There is no item named 'word/document.xml' in the archive)"
        )

    def test_broken_xml(self):
        data = rewrite_zip(sample_docx(), {"word/document.xml": lambda xml: xml[:600]})
        with pytest.raises(DocumentError) as info:
            extract_document("broken.docx", data)
        # The rest of the message is libxml2's, which varies between its versions.
        assert str(info.value).startswith("broken.docx: Corrupt DOCX file: damaged XML ("), str(info.value)
        assert "\n" not in str(info.value)

    def test_presentation_renamed(self):
        word = b"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
        pptx = b"application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"
        data = rewrite_zip(sample_docx(), {"[Content_Types].xml": lambda xml: xml.replace(word, pptx)})
        with pytest.raises(DocumentError) as info:
            extract_document("slides.docx", data)
        assert str(info.value) == (
            "slides.docx: Not a valid DOCX file: it is a PowerPoint presentation (.pptx) with the "
            "wrong suffix"
        )

    def test_unknown_main_part(self):
        word = b"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
        data = rewrite_zip(
            sample_docx(), {"[Content_Types].xml": lambda xml: xml.replace(word, b"application/x-odd")}
        )
        with pytest.raises(DocumentError) as info:
            extract_document("odd.docx", data)
        assert str(info.value) == (
            "odd.docx: Not a valid DOCX file: its main part has content type 'application/x-odd'"
        )

    def test_damaged_member_data(self):
        # Stored (not deflated) so that one changed byte is a clean CRC mismatch.
        import io
        import zipfile

        out = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(sample_docx())) as src, zipfile.ZipFile(out, "w") as dst:
            for info in src.infolist():
                dst.writestr(info.filename, src.read(info.filename), zipfile.ZIP_STORED)
        data = out.getvalue().replace(b"Quarterly report", b"Quarterly rep0rt", 1)
        with pytest.raises(DocumentError) as info:
            extract_document("flipped.docx", data)
        assert str(info.value) == (
            "flipped.docx: Corrupt DOCX file: its zip data is damaged "
            "(Bad CRC-32 for file 'word/document.xml')"
        )


def test_page_and_column_breaks_are_line_breaks():
    # §2.9: w:br and w:cr are newlines. python-docx's run text turns a page or a column break
    # into nothing, which ran the words on either side together.
    from docx.enum.text import WD_BREAK

    document = Document()
    run = document.add_paragraph().add_run("end of page one")
    run.add_break(WD_BREAK.PAGE)
    run.add_text("start of page two")
    run = document.add_paragraph().add_run("col A")
    run.add_break(WD_BREAK.COLUMN)
    run.add_text("col B\tand a tab")
    run.add_break()
    run.add_text("wrapped")
    text = extract_document("breaks.docx", save_docx(document)).text
    assert text == ("end of page one\nstart of page two\ncol A\ncol B\tand a tab\nwrapped\n")
