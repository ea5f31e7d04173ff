"""Tests for the dispatcher, the shared limits and errors, and the package's promises: a leaf
package, cheap to import, and a DocumentError (never a traceback or a hang) for damaged input."""

from __future__ import annotations

import ast
import io
import os
import pickle
import subprocess
import sys
import textwrap
import time
import types
import zipfile
from pathlib import Path

import pytest
from docx import Document
from openpyxl import Workbook

import shellfree.documents as documents
from shellfree.documents import DOCUMENT_SUFFIXES, DocumentError, Extraction, extract_document, is_document
from shellfree.documents.limits import MAX_INPUT_BYTES, MIB
from shellfree.documents.result import finish_text

from .builders import build_pdf, notebook, save_docx, save_xlsx, zip_declaring

PACKAGE_DIR = Path(documents.__file__).parent


class TestExportedMembers:
    def test_all_is_the_public_surface(self):
        # Submodules become package attributes once imported; they are not the API.
        public = {
            name
            for name, value in vars(documents).items()
            if not name.startswith("_") and not isinstance(value, types.ModuleType)
        }
        assert sorted(documents.__all__) == sorted(public)
        assert documents.__all__ == sorted(documents.__all__)

    def test_leaf_package(self):
        # documents/ imports nothing from the rest of shellfree (relative imports stay inside).
        for source in PACKAGE_DIR.glob("*.py"):
            for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom):
                    assert node.level <= 1, f"{source.name} imports from outside the package"
                    assert node.level or not (node.module or "").startswith("shellfree"), source.name
                if isinstance(node, ast.Import):
                    assert not any(a.name.startswith("shellfree") for a in node.names), source.name

    def test_import_is_cheap(self):
        script = textwrap.dedent(
            """
            import sys
            import shellfree.documents
            print(sorted(m for m in ("docx", "openpyxl", "pypdf", "lxml") if m in sys.modules))
            """
        )
        proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
        assert (proc.stdout, proc.stderr) == ("[]\n", "")


class TestIsDocument:
    @pytest.mark.parametrize(
        "path", ["a.docx", "B.XLSX", "c.xlsm", "dir.v2/d.PDF", Path("e.ipynb"), b"f.pdf", "C:\\x\\g.Docx"]
    )
    def test_handled(self, path):
        assert is_document(path)

    @pytest.mark.parametrize("path", ["a.doc", "b.xls", "c.txt", "pdf", ".pdf", "dir.pdf/readme", "x.pdf.txt"])
    def test_not_handled(self, path):
        assert not is_document(path)

    def test_suffixes(self):
        assert DOCUMENT_SUFFIXES == {".docx", ".xlsx", ".xlsm", ".pdf", ".ipynb"}


class TestDocumentError:
    def test_fields_and_message(self):
        error = DocumentError("dir/a.pdf", "PDF has no pages")
        assert isinstance(error, ValueError)
        assert (error.path, error.reason, str(error)) == ("dir/a.pdf", "PDF has no pages", "dir/a.pdf: PDF has no pages")

    def test_pickles(self):
        error = pickle.loads(pickle.dumps(DocumentError("a.pdf", "PDF has no pages")))
        assert (error.path, error.reason) == ("a.pdf", "PDF has no pages")


class TestDescribe:
    def test_long_byte_soup_is_cut_to_one_short_line(self):
        from shellfree.documents.errors import describe

        detail = describe(ValueError("header b'" + "\\xff" * 100 + "'\n differ"), with_type=True)
        assert detail.startswith("ValueError: header b'\\xff")
        assert len(detail) == len("ValueError: ") + 200 and detail.endswith("…")

    def test_key_error_without_quotes(self):
        from shellfree.documents.errors import describe

        assert describe(KeyError("There is no item named 'x'")) == "There is no item named 'x'"
        assert describe(KeyError()) == "KeyError"


class TestDispatch:
    def test_unsupported_suffix(self):
        with pytest.raises(DocumentError) as info:
            extract_document("notes.txt", b"hello")
        assert str(info.value) == (
            "notes.txt: Unsupported document type '.txt' (supported: .docx, .ipynb, .pdf, .xlsm, .xlsx)"
        )

    def test_empty_file(self, tmp_path):
        path = tmp_path / "empty.pdf"
        path.write_bytes(b"")
        with pytest.raises(DocumentError) as info:
            extract_document(path)
        assert str(info.value) == f"{path}: The file is empty (0 bytes)"

    def test_missing_file_is_os_error(self, tmp_path):
        with pytest.raises(FileNotFoundError):
            extract_document(tmp_path / "gone.pdf")

    def test_data_wins_over_the_file(self, tmp_path):
        path = tmp_path / "a.pdf"
        path.write_bytes(b"not read")
        assert extract_document(path, build_pdf([["Data passed in by the caller."]])).kind == "pdf"

    @pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
    def test_fifo_is_refused_without_blocking(self, tmp_path):
        fifo = tmp_path / "pipe.pdf"
        os.mkfifo(fifo)
        start = time.monotonic()
        with pytest.raises(DocumentError) as info:
            extract_document(fifo)
        assert time.monotonic() - start < 1
        assert str(info.value) == f"{fifo}: Not a regular file, so it cannot be a document"

    def test_unexpected_library_errors_become_document_errors(self, monkeypatch):
        import pypdf

        def explode(self, *args, **kwargs):
            raise IndexError("list index out of range")

        monkeypatch.setattr(pypdf.PageObject, "extract_text", explode)
        monkeypatch.setattr(pypdf.PdfReader, "__init__", explode)
        with pytest.raises(DocumentError) as info:
            extract_document("x.pdf", build_pdf([["text"]]))
        assert str(info.value) == (
            "x.pdf: Corrupt PDF file: it cannot be parsed (IndexError: list index out of range)"
        )


class TestInputSize:
    def test_bytes_over_the_cap(self):
        with pytest.raises(DocumentError) as info:
            extract_document("big.pdf", bytes(MAX_INPUT_BYTES + 1))
        assert str(info.value) == (
            "big.pdf: Document too large to convert (52,428,801 bytes, limit is 52,428,800)"
        )

    def test_file_over_the_cap_is_not_read(self, tmp_path):
        path = tmp_path / "big.xlsx"
        with open(path, "wb") as handle:
            handle.truncate(3 * MAX_INPUT_BYTES)  # sparse: nothing is written or read
        with pytest.raises(DocumentError) as info:
            extract_document(path)
        assert str(info.value) == (
            f"{path}: Document too large to convert (157,286,400 bytes, limit is 52,428,800)"
        )


class TestZipBombLimits:
    """The limits apply to the sizes the central directory declares, before anything inflates."""

    BOMB = "bomb.docx: Refusing DOCX file as a possible zip bomb: "

    def check(self, data: bytes, message: str) -> None:
        with pytest.raises(DocumentError) as info:
            extract_document("bomb.docx", data)
        assert str(info.value) == self.BOMB + message

    def test_member_count(self):
        self.check(
            zip_declaring({f"m{n}": 64 for n in range(1025)}),
            "its zip archive has 1,025 members (limit is 1,024)",
        )

    @pytest.mark.parametrize(
        "data",
        [
            zip_declaring({f"m{n}": 64 for n in range(1024)}),
            zip_declaring({"member.xml": 200 * 160_000}, ratio=200),
            zip_declaring({f"part{n}.xml": 25 * MIB for n in range(4)}, ratio=100),
        ],
        ids=["1,024 members", "member at 200:1", "100 MiB in all"],
    )
    def test_exactly_at_the_limits_passes_the_bomb_check(self, data):
        with pytest.raises(DocumentError, match="not an Office Open XML package"):
            extract_document("ok.docx", data)

    def test_member_size(self):
        self.check(
            zip_declaring({"word/document.xml": 32 * MIB + 1}),
            "zip member 'word/document.xml' expands to 33,554,433 bytes "
            "(limit is 33,554,432 per member)",
        )

    def test_total_size(self):
        # Each member within the per-member and ratio limits (100:1); only the total is over.
        self.check(
            zip_declaring({f"part{n}.xml": 30 * MIB for n in range(4)}, ratio=100),
            "its zip members expand to 125,829,120 bytes in all (limit is 104,857,600)",
        )

    def test_ratio_of_a_real_bomb(self):
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("word/document.xml", bytes(2 * MIB))
            compressed = archive.getinfo("word/document.xml").compress_size  # zlib's, ~2 KiB
        self.check(
            out.getvalue(),
            f"zip member 'word/document.xml' inflates {compressed:,} bytes to 2,097,152 "
            "(more than 200:1)",
        )

    def test_encrypted_member(self):
        import struct

        data = bytearray(zip_declaring({"word/document.xml": 64}))
        position = data.find(b"PK\x01\x02")
        struct.pack_into("<H", data, position + 8, 1)  # general purpose flag bit 0: encrypted
        with pytest.raises(DocumentError) as info:
            extract_document("bomb.docx", bytes(data))
        assert str(info.value) == (
            "bomb.docx: Encrypted DOCX file: zip member 'word/document.xml' needs a password"
        )

    def test_small_members_skip_the_ratio_check(self):
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("padding.xml", bytes(MIB - 1))
        with pytest.raises(DocumentError, match="not an Office Open XML package"):
            extract_document("ok.docx", out.getvalue())


class TestDamagedInput:
    """Cut or overwritten anywhere, every format gives an Extraction or a DocumentError, fast."""

    @staticmethod
    def samples() -> dict[str, bytes]:
        document = Document()
        document.add_heading("Title", 1)
        document.add_paragraph("Some body text.")
        workbook = Workbook()
        workbook.active.append(["a", 1, True])
        return {
            "s.docx": save_docx(document),
            "s.xlsx": save_xlsx(workbook),
            "s.pdf": build_pdf([["Page one has enough text to count."], ["And so does page two."]]),
            "s.ipynb": notebook([{"cell_type": "code", "source": "x", "outputs": []}]),
        }

    @pytest.mark.parametrize("name", ["s.docx", "s.xlsx", "s.pdf", "s.ipynb"])
    def test_cut_and_overwritten(self, name):
        data = self.samples()[name]
        step = max(1, len(data) // 60)
        variants = [data[:cut] for cut in range(1, len(data), step)]
        variants += [data[:at] + b"\xff" * 16 + data[at + 16 :] for at in range(0, len(data), step)]
        start = time.monotonic()
        for variant in variants:
            try:
                result = extract_document(name, variant)
            except DocumentError as error:
                assert "\n" not in str(error) and str(error).startswith(f"{name}: "), str(error)
            else:
                assert isinstance(result, Extraction) and result.text.endswith("\n")
        assert time.monotonic() - start < 10, "damaged input must not be slow"


class TestFinishText:
    def test_line_boundaries_become_newlines(self):
        text = finish_text("a\r\nb\rc\x0bd\x0ce\u2028f\x85g\n\n\n")
        assert text == "a\nb\nc\nd\ne\nf\ng\n"
        assert text.splitlines() == text[:-1].split("\n")

    def test_exactly_one_final_newline(self):
        assert finish_text("x") == "x\n"
        assert finish_text("x \t\n\n") == "x\n"
