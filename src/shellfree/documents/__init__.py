"""Document extraction: .docx, .xlsx/.xlsm, .pdf and .ipynb files turned into plain text.

The entry point is `extract_document`, which takes a path (and optionally the file's bytes)
and returns an `Extraction` whose ``text`` pages like any text file, or raises `DocumentError`
with a one-line message naming the file and what is wrong with it. `is_document` says which
paths it handles. This package is a leaf: it imports nothing else from shellfree, and it imports
python-docx, openpyxl and pypdf only when a document of their kind is extracted.
"""

from .dispatch import DOCUMENT_SUFFIXES, extract_document, is_document
from .errors import DocumentError
from .result import Extraction

__all__ = ["DOCUMENT_SUFFIXES", "DocumentError", "Extraction", "extract_document", "is_document"]
