"""Picks the extractor for a document by its suffix and feeds it the file's bytes, size-capped.

The format modules are imported only when a document of their kind is extracted, and each
imports its parsing library only then, so importing `shellfree.documents` costs almost nothing.
"""

from __future__ import annotations

import importlib
import os
import stat

from .errors import DocumentError, describe
from .limits import MAX_INPUT_BYTES
from .result import Extraction

__all__ = ["DOCUMENT_SUFFIXES", "extract_document", "is_document"]

# suffix → (module in this package, the format's name in messages)
_EXTRACTORS = {
    ".docx": ("docx", "DOCX"),
    ".xlsx": ("xlsx", "XLSX"),
    ".xlsm": ("xlsx", "XLSM"),
    ".pdf": ("pdf", "PDF"),
    ".ipynb": ("ipynb", "notebook"),
}

DOCUMENT_SUFFIXES = frozenset(_EXTRACTORS)
"""The lower-case suffixes `extract_document` handles."""


def is_document(path: str | os.PathLike) -> bool:
    """Whether `extract_document` handles *path*, judged by its suffix alone (case-insensitive)."""
    return _suffix(_name(path)) in _EXTRACTORS


def extract_document(path: str | os.PathLike, data: bytes | None = None) -> Extraction:
    """Extract the text of the document at *path*, choosing the format by its suffix.

    *data* is the file's content when the caller already has it; otherwise the file is read,
    refusing anything but a regular file. Raises `DocumentError` for an unsupported suffix, an
    input over `MAX_INPUT_BYTES`, and any document that cannot be extracted (corrupt,
    truncated, encrypted, empty, the wrong format); raises `OSError` if the file cannot be opened.
    """
    name = _name(path)
    suffix = _suffix(name)
    if suffix not in _EXTRACTORS:
        supported = ", ".join(sorted(_EXTRACTORS))
        raise DocumentError(
            name, f"Unsupported document type '{suffix}' (supported: {supported})"
        )
    if data is None:
        data = _read(name)
    elif len(data) > MAX_INPUT_BYTES:
        raise _too_large(name, len(data))
    if not data:
        raise DocumentError(name, "The file is empty (0 bytes)")
    module_name, label = _EXTRACTORS[suffix]
    module = importlib.import_module(f".{module_name}", __package__)
    try:
        return module.extract(bytes(data), name)
    except DocumentError:
        raise
    except Exception as exc:  # noqa: BLE001 - the promise is a DocumentError, never a traceback
        # Parsing libraries raise a long tail of exception types on damaged files (IndexError,
        # TypeError, struct.error, …); the format modules map the common ones to clearer
        # messages and this is the boundary for the rest.
        detail = describe(exc, with_type=True)
        raise DocumentError(name, f"Corrupt {label} file: it cannot be parsed ({detail})") from exc


def _name(path: str | os.PathLike) -> str:
    return os.fsdecode(os.fspath(path))


def _suffix(name: str) -> str:
    base = name.replace("\\", "/").rpartition("/")[2]
    stem, dot, ext = base.rpartition(".")
    return f".{ext.lower()}" if dot and stem else ""


def _read(name: str) -> bytes:
    """The whole file, refusing non-regular files and files over the cap before reading."""
    # O_NONBLOCK: opening a FIFO with no writer would otherwise block forever; for a regular
    # file the flag changes nothing.
    fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with open(fd, "rb", closefd=True) as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise DocumentError(name, "Not a regular file, so it cannot be a document")
        if info.st_size > MAX_INPUT_BYTES:
            raise _too_large(name, info.st_size)
        # Read one byte past the cap in case the file grew since fstat.
        data = handle.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise _too_large(name, len(data))
    return data


def _too_large(name: str, size: int) -> DocumentError:
    # The contract's words for its converter's 50 MiB input cap (§2.9).
    return DocumentError(
        name,
        f"Document too large to convert ({size:,} bytes, limit is {MAX_INPUT_BYTES:,})",
    )
