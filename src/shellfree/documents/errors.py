"""The one error document extraction raises, naming the file and what is wrong with it.

Hierarchy::

    DocumentError (ValueError)    the document cannot be turned into text: unsupported suffix,
                                  too large, corrupt or truncated, encrypted, wrong format, empty

``str(err)`` is ``"{path}: {reason}"``, a single line an agent can act on; ``err.reason`` is the
same text without the path, for callers that print the path themselves. `describe` shortens a
parsing library's exception into the detail a reason quotes in parentheses.
"""

from __future__ import annotations

import re

__all__ = ["DocumentError", "describe"]

_DETAIL_LIMIT = 200


class DocumentError(ValueError):
    """A document that cannot be extracted; carries the path as given and the reason."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(path, reason)
        self.path = path
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


def describe(exc: BaseException, *, with_type: bool = False) -> str:
    """A library exception as one short line, for the parenthesised detail of a reason.

    Whitespace runs collapse to one space and the text is cut at 200 characters: zipfile and
    pypdf quote raw bytes from the damaged file in their messages, which helps nobody at length.
    """
    message = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    message = re.sub(r"\s+", " ", message).strip()
    if len(message) > _DETAIL_LIMIT:
        message = message[: _DETAIL_LIMIT - 1] + "…"
    if not message:
        return type(exc).__name__
    return f"{type(exc).__name__}: {message}" if with_type else message
