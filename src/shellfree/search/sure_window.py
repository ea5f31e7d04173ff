"""Occurrences of a pattern's one required literal that are matches on sight.

``\\w+Error`` is looked for by its literal ``Error``, and each line holding it is decoded and
confirmed by the regex (a few microseconds; 45,848 lines over the large benchmark tree). Yet a
word character right before the ``Error`` already makes a match. For a pattern ``A L B`` made
only of literals and repeated classes around its one required literal ``L``, the fewest bytes
each part can take are checked around an occurrence: ASCII members of each class, as many as
its minimum (``[0-9A-Z_a-z]Error``), by a bytes regex of fixed width. When they are there, the
line matches. When they are not, nothing is proven (the class may take a non-ASCII character,
another occurrence may do): the regex confirms the line as before.

A match of those fewest bytes is a match of the pattern: each ASCII byte is one character, a
class repeated ``{m,n}`` takes ``m`` of them, and no part of such a pattern looks beyond its
own bytes (an assertion, or anything else, makes the pattern ineligible).
"""

from __future__ import annotations

import re

from shellfree._record import Record
from shellfree.search import regex_translate as T
from shellfree.search.class_run import ascii_members

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see shellfree/__init__.py)
if TYPE_CHECKING:
    from typing import Optional

__all__ = ["SureWindow", "sure_window"]


class SureWindow(Record):
    """``regex`` fully matching the *width* bytes that start *before* bytes ahead of an
    occurrence of the literal (the literal and what lies around it) proves a match there."""

    regex: "re.Pattern[bytes]"
    before: int
    width: int


def sure_window(hir, required: Optional[tuple]) -> Optional[SureWindow]:
    """The window around the one required literal of the translated pattern *hir* (line mode,
    case-sensitive), or None when the pattern is not ``A L B`` of literals and repeated
    classes, or some class in it has no ASCII member to check."""
    if required is None or len(required) != 1:
        return None
    top = _uncaptured(hir)
    items = top.items if isinstance(top, T.HConcat) else (top,)
    at = next((i for i, item in enumerate(items)
               if isinstance(item, T.HLit) and item.text == required[0]), None)
    if at is None:
        return None
    before = _fewest(items[:at])
    after = _fewest(items[at + 1 :])
    if before is None or after is None:
        return None
    (ahead, ahead_width), (behind, behind_width) = before, after
    literal = _utf8(required[0])
    if literal is None:
        return None
    source = ahead + re.escape(literal) + behind
    return SureWindow(re.compile(source), ahead_width, ahead_width + len(literal) + behind_width)


def _fewest(items: tuple) -> Optional[tuple[bytes, int]]:
    """A bytes regex source matching the fewest bytes *items* can take, and their number;
    None when some item is not a literal or a class, repeated or not (or repeated from zero
    times, when it takes nothing)."""
    parts: list[bytes] = []
    width = 0
    for item in items:
        item = _uncaptured(item)
        times = 1
        if isinstance(item, T.HRep):
            times = item.min
            if not times:
                continue  # it matches the empty string, whatever it repeats
            item = _uncaptured(item.sub)
        if isinstance(item, T.HLit):
            text = _utf8(item.text)
            if text is None:
                return None
            text *= times
            parts.append(re.escape(text))
            width += len(text)
        elif isinstance(item, T.HClass):
            mask = ascii_members(item.cls)
            if not mask:
                return None  # no ASCII character to stand for it: the check could never pass
            members = bytes(b for b in range(128) if mask >> b & 1)
            parts.append(b"[%s]{%d}" % (b"".join(re.escape(bytes((b,))) for b in members), times))
            width += times
        else:
            return None
    return b"".join(parts), width


def _utf8(text: str) -> Optional[bytes]:
    """*text* in UTF-8, or None when it holds a raw byte (an escape surrogate, as ``(?-u:\\xFF)``
    makes), whose byte in the text may be part of a character and so not match it."""
    try:
        return text.encode()
    except UnicodeEncodeError:
        return None


def _uncaptured(h):
    while isinstance(h, T.HCap):
        h = h.sub
    return h
