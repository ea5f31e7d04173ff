"""Turns a .docx file into text with python-docx: paragraphs and tables in document order.

Headings are marked like Markdown (``# `` for Title and Heading 1, ``## `` for Heading 2, …),
tabs and line breaks inside a paragraph are kept, and each table row becomes one line of
tab-separated cells. Headers, footers, footnotes and comments are not extracted.
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Iterator

from .errors import DocumentError
from .ooxml import WORD_DOCUMENT, check_package, package_error
from .result import Extraction, finish_text

if TYPE_CHECKING:
    from docx.document import Document

__all__ = ["extract"]

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
# A run under one of these is not part of the paragraph's own visible text: a nested paragraph
# (text box), the legacy copy of a drawing that Word writes beside the modern one, moved text.
_NOT_OWN = frozenset({_W + "p", _MC_FALLBACK, _W + "moveFrom"})
# The children of a run that hold its text, as python-docx's CT_R.text reads them.
_RUN_TEXT = tuple(_W + tag for tag in ("br", "cr", "noBreakHyphen", "ptab", "t", "tab"))
_BR = _W + "br"
_DUPLICATE = frozenset({_MC_FALLBACK})
_HEADING_STYLE = re.compile(r"heading ([1-9])", re.IGNORECASE)
_CELL_SPACE = re.compile(r"[\t\n]+")


def extract(data: bytes, path: str) -> Extraction:
    """Extract the body text of the .docx *data*; *path* names the file in errors."""
    check_package(data, path, "DOCX", frozenset({WORD_DOCUMENT}))
    import docx  # imported here so that `import shellfree` stays fast

    try:
        document = docx.Document(io.BytesIO(data))
        lines = list(_body_lines(document))
    except Exception as exc:  # noqa: BLE001 - mapped when recognised, else re-raised
        error = package_error(exc, path, "DOCX")
        if error is None:
            raise
        raise error from None
    text = "\n".join(lines)
    if not text.strip():
        raise DocumentError(path, "DOCX contains no extractable text")
    return Extraction(finish_text(text), "docx")


def _body_lines(document: Document) -> Iterator[str]:
    """Yield the body's lines, walking its block elements in document order."""
    # python-docx offers doc.paragraphs and doc.tables as separate lists; only the element
    # tree keeps the order in which the reader meets them.
    yield from _block_lines(document.element.body, document, {})


def _block_lines(container, document: Document, prefixes: dict) -> Iterator[str]:
    from docx.table import Table

    for child in container.iterchildren():
        tag = child.tag
        if tag == _W + "p":
            yield _heading_prefix(child, document, prefixes) + _paragraph_text(child)
            # Text boxes are anchored inside a paragraph but hold paragraphs of their own;
            # their lines follow the anchoring paragraph.
            for box in child.iter(_W + "txbxContent"):
                if _is_own(box, child):
                    yield from _block_lines(box, document, prefixes)
        elif tag == _W + "tbl":
            yield from _table_lines(Table(child, document))
        elif tag == _W + "sdt":
            # A content control (a form field or a building block such as a cover page)
            # wraps ordinary blocks in w:sdtContent.
            content = child.find(_W + "sdtContent")
            if content is not None:
                yield from _block_lines(content, document, prefixes)
        elif tag == _W + "customXml":
            yield from _block_lines(child, document, prefixes)


def _paragraph_text(p) -> str:
    """The paragraph's visible text, tabs and breaks included.

    python-docx's ``Paragraph.text`` reads only runs and hyperlinks that are direct children,
    which loses tracked insertions (w:ins), simple fields (a date, a page number), inline
    content controls and smart tags. Every run inside the paragraph is read instead, except
    those in a text box (a paragraph of its own) and moved-away text; deleted text is stored
    as w:delText, which a run's text leaves out anyway.
    """
    return "".join(_run_text(run) for run in p.iter(_W + "r") if _is_own(run, p))


def _run_text(run) -> str:
    """A run's text as python-docx's ``CT_R.text`` reads it, except that every ``w:br`` is a
    line break: python-docx turns a page or column break into nothing, which ran the words on
    either side together ("end of page onestart of page two"); the contract has w:br and
    w:cr as newlines (§2.9)."""
    parts = []
    for child in run.iterchildren(*_RUN_TEXT):
        parts.append("\n" if child.tag == _BR else str(child))
    return "".join(parts)


def _is_own(element, owner, excluded: frozenset[str] = _NOT_OWN) -> bool:
    """Whether *element* belongs to *owner* itself: no ancestor between them has a tag in
    *excluded* (by default a nested paragraph, a drawing's fallback copy, moved-away text)."""
    for ancestor in element.iterancestors():
        if ancestor is owner:
            return True
        if ancestor.tag in excluded:
            return False
    return True


def _heading_prefix(p, document: Document, prefixes: dict) -> str:
    """``"# "`` … ``"######### "`` for Title and Heading 1–9 styles (or styles based on them).

    *prefixes* caches the answer per style id: python-docx resolves a style with an XPath
    query over the styles part on every call, which made long documents crawl.
    """
    from docx.text.paragraph import Paragraph

    style_id = p.style  # the w:pStyle value, None for the default paragraph style
    if style_id not in prefixes:
        prefixes[style_id] = _prefix_for(_safe_style(Paragraph(p, document)))
    return prefixes[style_id]


def _prefix_for(style) -> str:
    seen = 0
    while style is not None and seen < 10:  # base_style chains are short; a cycle must not hang
        name = style.name or ""
        if name.lower() == "title":
            return "# "
        match = _HEADING_STYLE.fullmatch(name)
        if match:
            return "#" * int(match.group(1)) + " "
        style = style.base_style
        seen += 1
    return ""


def _safe_style(paragraph):
    """The paragraph's style, or None when the styles part is missing or names no such style."""
    try:
        return paragraph.style
    except (KeyError, ValueError, AttributeError):
        return None


def _table_lines(table) -> Iterator[str]:
    """One tab-separated line per row; nested tables and text boxes are flattened into their
    cell."""
    for tr in table._tbl.tr_lst:
        cells = []
        # Walk the row's real w:tc elements: python-docx's row.cells repeats a horizontally
        # merged cell once per grid column, which would duplicate its text.
        for tc in tr.tc_lst:
            paragraphs = (p for p in tc.iter(_W + "p") if _is_own(p, tc, _DUPLICATE))
            texts = (_paragraph_text(p) for p in paragraphs)
            # A tab or newline inside a cell would break the row into misaligned columns.
            cells.append(" ".join(_CELL_SPACE.sub(" ", t).strip() for t in texts if t.strip()))
        yield "\t".join(cells)
