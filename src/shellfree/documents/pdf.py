"""Turns a PDF's text layer into text with pypdf, page by page, and says which pages have none.

Each page becomes a ``# ── Page N ──`` header and its text. Pages without a text layer (scanned
images, drawings) are counted with the contract's thresholds; when enough are missing a header
at the top says which, so the agent knows the text is incomplete and how to recover it.
Encrypted PDFs open only if the empty password works.
"""

from __future__ import annotations

import io
import logging
import threading
import warnings

from .errors import DocumentError, describe
from .limits import (
    PDF_EMPTY_PAGE_CHARS,
    PDF_WARN_ALWAYS_EMPTY,
    PDF_WARN_MAX_RANGES,
    PDF_WARN_MIN_EMPTY,
    PDF_WARN_MIN_FRACTION,
)
from .result import Extraction, finish_text

__all__ = ["extract", "coverage_warning"]

_OCR_HOW = "render {them} to images and OCR {them} (e.g. pdftoppm -png -r 150, then tesseract)"


def extract(data: bytes, path: str) -> Extraction:
    """Extract the text layer of the PDF *data*; *path* names the file in errors."""
    # The PDF spec lets a header follow up to 1 KiB of junk, and readers accept that.
    if b"%PDF-" not in data[:1024]:
        raise DocumentError(
            path,
            "Not a valid PDF file: it has no %PDF- header, so it is corrupt or another "
            "format with the wrong suffix",
        )
    # pypdf reports the repairs it makes to a malformed file through the `logging` module; with
    # no handler configured anywhere Python would print them to stderr. They are collected here
    # instead and returned as diagnostics. Its rare warnings.warn calls are recorded the same way
    # (catch_warnings swaps process-wide state and is not thread-safe: a concurrent extraction
    # could mix up whose diagnostics are whose, which is all it affects).
    with _PypdfLog() as log, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pages = _open_pages(data, path)
        texts = [_page_text(page) for page in pages]
    diagnostics = tuple(log.messages) + tuple(str(w.message) for w in caught)

    # A page whose text could not be extracted is as empty as a scanned one.
    empty = [
        n for n, (text, ok) in enumerate(texts, 1) if not ok or len(text) < PDF_EMPTY_PAGE_CHARS
    ]
    warning = coverage_warning(empty, len(texts), [text for text, _ in texts])
    blocks = [f"{warning}\n"] if warning else []
    for number, (text, _) in enumerate(texts, 1):
        blocks.append(f"# ── Page {number} ──\n{text or '(no text on this page)'}\n")
    warnings_out = (warning,) if warning else ()
    return Extraction(finish_text("\n".join(blocks)), "pdf", warnings_out, diagnostics)


def _open_pages(data: bytes, path: str) -> list:
    """The reader's pages, after decrypting with the empty password if the PDF is encrypted."""
    import pypdf  # imported here so that `import shellfree` stays fast
    from pypdf.errors import DependencyError

    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            # Many PDFs are encrypted only to carry permission flags (no printing, no copying)
            # under an empty user password; every viewer opens them without asking, so try that
            # before calling the file locked.
            if not reader.decrypt(""):
                raise DocumentError(
                    path,
                    "Encrypted PDF: it needs a password to open (the empty password does not "
                    "work); ask for an unencrypted copy",
                )
        pages = list(reader.pages)
    except DocumentError:
        raise
    except DependencyError as exc:
        raise DocumentError(
            path,
            f"Encrypted PDF: decrypting it needs a package that is not installed ({describe(exc)})",
        ) from None
    except NotImplementedError as exc:
        raise DocumentError(
            path, f"Encrypted PDF: its encryption method is not supported ({describe(exc)})"
        ) from None
    except Exception as exc:  # noqa: BLE001 - pypdf raises many types on damaged files
        raise _damaged(path, data, exc) from None
    if not pages:
        raise DocumentError(path, "PDF has no pages")
    return pages


def _damaged(path: str, data: bytes, exc: Exception) -> DocumentError:
    """The error for a PDF pypdf cannot parse, saying whether it looks cut short."""
    detail = describe(exc, with_type=True)
    # Every complete PDF ends with %%EOF (a few writers add trailing junk, hence the window).
    if b"%%EOF" not in data[-1024:]:
        return DocumentError(
            path,
            "Truncated or corrupt PDF file: it has no %%EOF end marker (the file was probably "
            f"cut short; get a complete copy) and cannot be parsed ({detail})",
        )
    return DocumentError(path, f"Corrupt PDF file: it cannot be parsed ({detail})")


def _page_text(page) -> tuple[str, bool]:
    """The page's stripped text layer and True, or a note saying why it could not be read and
    False."""
    try:
        return (page.extract_text() or "").strip(), True
    except Exception as exc:  # noqa: BLE001 - one damaged page must not lose the others
        return f"(could not extract text from this page: {describe(exc, with_type=True)})", False


def coverage_warning(empty: list[int], total: int, texts: list[str] | None = None) -> str:
    """The header naming the pages without text, or "" when too few are missing to warn.

    *empty* lists the 1-based numbers of pages whose stripped text is shorter than
    `PDF_EMPTY_PAGE_CHARS`; *total* is the page count; *texts*, the pages' texts, lets each gap
    say which text it follows. The wording follows the contract's (§2.9, from a Hermes fork:
    the header's first sentence, a line per gap as ``  page 3 (1 page) — after "…" (p2)``, at
    most `PDF_WARN_MAX_RANGES` of them, and the NEEDS OCR form when no page has text).
    """
    k = len(empty)
    if total and k == total:
        if total == 1:
            return (
                "[NEEDS OCR: page 1 of this PDF is a scanned image with no text layer — its "
                f"content is MISSING below. To read it, {_OCR_HOW.format(them='it')}.]"
            )
        return (
            f"[NEEDS OCR: pages 1-{total} of this PDF are scanned images with no text layer — "
            "their content is MISSING below. To read them, "
            f"{_OCR_HOW.format(them='them')}.]"
        )
    if total < 2 or k < PDF_WARN_MIN_EMPTY:
        return ""
    if k / total < PDF_WARN_MIN_FRACTION and k < PDF_WARN_ALWAYS_EMPTY:
        return ""
    lines = [f"[EXTRACTION COVERAGE WARNING: {k} of {total} pages in this PDF yielded no text. "
             "They are probably scanned images or figures, so their content is MISSING below:"]
    gaps = _runs(empty)
    for first, last in gaps[:PDF_WARN_MAX_RANGES]:
        count = last - first + 1
        where = f"page {first}" if count == 1 else f"pages {first}-{last}"
        lines.append(f"  {where} ({count} page{'s' if count > 1 else ''}) — "
                     + _after(first - 1, texts))
    if len(gaps) > PDF_WARN_MAX_RANGES:
        lines.append(f"  … and {len(gaps) - PDF_WARN_MAX_RANGES} more gaps")
    lines.append(f"To read them, {_OCR_HOW.format(them='them')}.]")
    return "\n".join(lines)


_SNIPPET_CHARS = 40


def _after(page: int, texts: list[str] | None) -> str:
    """Where a gap starts: after the end of page *page*'s text (0: before any page)."""
    if page < 1:
        return "at the start of the document"
    if texts is None:
        return f"after page {page}"
    words = " ".join(texts[page - 1].split())
    tail = words if len(words) <= _SNIPPET_CHARS else "…" + words[-_SNIPPET_CHARS:].lstrip()
    return f'after "{tail}" (p{page})'


def _runs(pages: list[int]) -> list[tuple[int, int]]:
    """[(2, 2), (4, 6), (9, 9)] for [2, 4, 5, 6, 9]."""
    ranges: list[tuple[int, int]] = []
    for page in pages:
        if ranges and page == ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], page)
        else:
            ranges.append((page, page))
    return ranges


class _PypdfLog(logging.Handler):
    """While entered, collects the pypdf log messages this thread emits.

    Attaching any handler to the ``pypdf`` logger keeps Python's last-resort stderr handler
    from firing; a handler the application configured on the root logger still receives them.
    """

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []
        self._thread = threading.get_ident()
        self._logger = logging.getLogger("pypdf")

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread == self._thread:
            self.messages.append(record.getMessage())

    def __enter__(self) -> _PypdfLog:
        self._logger.addHandler(self)
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._logger.removeHandler(self)
