"""Tests for documents/pdf.py: page markers, the coverage warning, encryption, damage, logging."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from shellfree.documents import DocumentError, Extraction, extract_document
from shellfree.documents.pdf import coverage_warning

from .builders import build_pdf, encrypt_pdf

TWO_PAGES = [
    ["Hello world, this is page one.", "Second line (with parens) and a back\\slash."],
    ["Page two has a single line of text."],
]
TWO_PAGES_TEXT = (
    "# ── Page 1 ──\n"
    "Hello world, this is page one.\n"
    "Second line (with parens) and a back\\slash.\n"
    "\n"
    "# ── Page 2 ──\n"
    "Page two has a single line of text.\n"
)
FILLER = ["This page has a proper text layer."]


class TestExtractPdf:
    def test_whole_output(self):
        assert extract_document("a.pdf", build_pdf(TWO_PAGES)) == Extraction(TWO_PAGES_TEXT, "pdf")

    def test_coverage_warning(self):
        # 2 of 5 pages without text (one has only a page number, under 20 characters).
        pages = [FILLER, [], FILLER, ["Page 4"], FILLER]
        result = extract_document("scan.pdf", build_pdf(pages))
        # The contract's form (§2.9): its first sentence, then a line per gap saying which
        # text it follows.
        warning = (
            "[EXTRACTION COVERAGE WARNING: 2 of 5 pages in this PDF yielded no text. "
            "They are probably scanned images or figures, so their content is MISSING below:\n"
            '  page 2 (1 page) — after "This page has a proper text layer." (p1)\n'
            '  page 4 (1 page) — after "This page has a proper text layer." (p3)\n'
            "To read them, render them to images and OCR them (e.g. pdftoppm -png -r 150, then "
            "tesseract).]"
        )
        assert result.warnings == (warning,)
        assert result.text == (
            f"{warning}\n\n"
            "# ── Page 1 ──\nThis page has a proper text layer.\n\n"
            "# ── Page 2 ──\n(no text on this page)\n\n"
            "# ── Page 3 ──\nThis page has a proper text layer.\n\n"
            "# ── Page 4 ──\nPage 4\n\n"
            "# ── Page 5 ──\nThis page has a proper text layer.\n"
        )

    def test_one_empty_page_of_two_is_not_warned(self):
        result = extract_document("a.pdf", build_pdf([FILLER, []]))
        assert result.warnings == ()
        assert result.text.startswith("# ── Page 1 ──\n")

    def test_single_page_without_text(self):
        result = extract_document("scan.pdf", build_pdf([[]]))
        warning = (
            "[NEEDS OCR: page 1 of this PDF is a scanned image with no text layer — its content "
            "is MISSING below. To read it, render it to images and OCR it "
            "(e.g. pdftoppm -png -r 150, then tesseract).]"
        )
        assert result == Extraction(f"{warning}\n\n# ── Page 1 ──\n(no text on this page)\n", "pdf", (warning,))

    def test_all_pages_without_text(self):
        result = extract_document("scan.pdf", build_pdf([[], [], []]))
        assert result.warnings == (
            "[NEEDS OCR: pages 1-3 of this PDF are scanned images with no text layer — their "
            "content is MISSING below. To read them, render "
            "them to images and OCR them (e.g. pdftoppm -png -r 150, then tesseract).]",
        )
        assert result.text.count("(no text on this page)") == 3

    def test_page_that_fails_counts_as_empty(self, monkeypatch):
        import pypdf

        real = pypdf.PageObject.extract_text

        def flaky(self, *args, **kwargs):
            if "Broken" in real(self):
                raise ValueError("bad content stream")
            return real(self, *args, **kwargs)

        monkeypatch.setattr(pypdf.PageObject, "extract_text", flaky)
        pages = [FILLER, ["Broken page with enough text"], ["Broken page too, long enough"]]
        result = extract_document("flaky.pdf", build_pdf(pages))
        assert result.text.endswith(
            "# ── Page 2 ──\n"
            "(could not extract text from this page: ValueError: bad content stream)\n\n"
            "# ── Page 3 ──\n"
            "(could not extract text from this page: ValueError: bad content stream)\n"
        )
        assert result.warnings[0].startswith(
            "[EXTRACTION COVERAGE WARNING: 2 of 3 pages in this PDF yielded no text. "
        )
        assert '\n  pages 2-3 (2 pages) — after "' in result.warnings[0]

    def test_owner_password_only_opens(self):
        # Encrypted for permissions only: the empty user password opens it, as in any viewer.
        data = encrypt_pdf(build_pdf(TWO_PAGES), user_password="")
        assert extract_document("perm.pdf", data).text == TWO_PAGES_TEXT

    def test_aes_with_empty_password(self):
        pytest.importorskip("cryptography")
        data = encrypt_pdf(build_pdf(TWO_PAGES), user_password="", algorithm="AES-256")
        assert extract_document("aes.pdf", data).text == TWO_PAGES_TEXT

    def test_pypdf_messages_are_diagnostics(self):
        # A wrong startxref offset makes pypdf rebuild the xref table and log that it did.
        data = build_pdf(TWO_PAGES)
        head, _, tail = data.rpartition(b"startxref\n")
        damaged = head + b"startxref\n12\n" + tail.split(b"\n", 1)[1]
        result = extract_document("repaired.pdf", damaged)
        assert result.text == TWO_PAGES_TEXT
        assert result.diagnostics, "pypdf should have reported the repair"

    def test_pypdf_messages_do_not_reach_stderr(self):
        # In a fresh interpreter: under pytest the root logger has handlers, which would hide a
        # leak to Python's last-resort stderr handler.
        data = build_pdf(TWO_PAGES)
        head, _, tail = data.rpartition(b"startxref\n")
        damaged = head + b"startxref\n12\n" + tail.split(b"\n", 1)[1]
        script = textwrap.dedent(
            """
            import sys
            from shellfree.documents import extract_document
            result = extract_document("repaired.pdf", sys.stdin.buffer.read())
            print(len(result.diagnostics) > 0)
            """
        )
        proc = subprocess.run(
            [sys.executable, "-c", script], input=damaged, capture_output=True, timeout=60
        )
        assert (proc.stdout, proc.stderr) == (b"True\n", b"")


class TestCoverageThresholds:
    """The contract's rule: warn when empty >= 2 and (empty/total >= 0.2 or empty >= 10)."""

    @pytest.mark.parametrize(
        ("empty", "total", "warns"),
        [
            (1, 2, False),  # one empty page never warns
            (2, 10, True),  # exactly 20 %
            (2, 11, False),  # just under 20 %
            (9, 46, False),  # under 20 % and under 10 pages
            (10, 1000, True),  # 10 empty pages warn at any fraction
            (2, 2, True),  # all empty: the NEEDS OCR form
        ],
    )
    def test_rule(self, empty, total, warns):
        assert bool(coverage_warning(list(range(1, empty + 1)), total)) is warns

    @pytest.mark.parametrize(("chars", "warns"), [(19, True), (20, False)])
    def test_empty_page_threshold(self, chars, warns):
        # Two of three pages with short text: under 20 characters a page counts as empty.
        pages = [["x" * chars], ["y" * chars], FILLER]
        assert bool(extract_document("p.pdf", build_pdf(pages)).warnings) is warns

    def test_ranges_are_capped(self):
        empty = list(range(1, 100, 2))  # 50 separate pages
        warning = coverage_warning(empty, 100)
        gaps = [f"  page {n} (1 page) — " + ("at the start of the document" if n == 1
                                              else f"after page {n - 1}")
                for n in range(1, 40, 2)]
        assert warning.split("\n")[1:-1] == [*gaps, "  … and 30 more gaps"]

    def test_runs_become_ranges(self):
        texts = ["x" * 30, "", "", "", "word " * 20, "", "tail text", "", "", ""]
        assert coverage_warning([2, 3, 4, 6, 8, 9, 10], 10, texts).split("\n")[1:-1] == [
            '  pages 2-4 (3 pages) — after "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" (p1)',
            '  page 6 (1 page) — after "…word word word word word word word word" (p5)',
            '  pages 8-10 (3 pages) — after "tail text" (p7)']


class TestBadPdf:
    def test_encrypted(self):
        data = encrypt_pdf(build_pdf(TWO_PAGES), user_password="secret")
        with pytest.raises(DocumentError) as info:
            extract_document("locked.pdf", data)
        assert str(info.value) == (
            "locked.pdf: Encrypted PDF: it needs a password to open (the empty password does "
            "not work); ask for an unencrypted copy"
        )

    def test_missing_crypto_package(self, monkeypatch):
        from pypdf import PdfReader
        from pypdf.errors import DependencyError

        def no_aes(self, password):
            raise DependencyError("cryptography>=3.1 is required for AES algorithm")

        monkeypatch.setattr(PdfReader, "decrypt", no_aes)
        data = encrypt_pdf(build_pdf(TWO_PAGES), user_password="")
        with pytest.raises(DocumentError) as info:
            extract_document("aes.pdf", data)
        assert str(info.value) == (
            "aes.pdf: Encrypted PDF: decrypting it needs a package that is not installed "
            "(cryptography>=3.1 is required for AES algorithm)"
        )

    def test_cut_in_half(self):
        data = build_pdf(TWO_PAGES)
        with pytest.raises(DocumentError) as info:
            extract_document("half.pdf", data[: len(data) // 2])
        message = str(info.value)
        # The closing detail is pypdf's own exception, which varies between its versions.
        assert message.startswith(
            "half.pdf: Truncated or corrupt PDF file: it has no %%EOF end marker (the file was "
            "probably cut short; get a complete copy) and cannot be parsed ("
        ), message
        assert message.endswith(")") and "\n" not in message

    def test_random_bytes(self):
        with pytest.raises(DocumentError) as info:
            extract_document("noise.pdf", os.urandom(4000).replace(b"%PDF", b"%pdf"))
        assert str(info.value) == (
            "noise.pdf: Not a valid PDF file: it has no %PDF- header, so it is corrupt or "
            "another format with the wrong suffix"
        )

    def test_garbage_after_header(self):
        with pytest.raises(DocumentError) as info:
            extract_document("junk.pdf", b"%PDF-1.7\n" + bytes(range(256)) * 8 + b"\n%%EOF\n")
        assert str(info.value).startswith("junk.pdf: Corrupt PDF file: it cannot be parsed ("), str(info.value)

    def test_no_pages(self):
        with pytest.raises(DocumentError) as info:
            extract_document("none.pdf", build_pdf([]))
        assert str(info.value) == "none.pdf: PDF has no pages"
