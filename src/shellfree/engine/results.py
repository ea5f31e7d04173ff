"""The search result values and their conversion to the contract's JSON object (§5.6).

:class:`SearchResult` is what the search flow produces and the tool layer filters; ``to_dict``
is the single place where it becomes the JSON envelope, with the contract's key order.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from shellfree.engine import messages

__all__ = ["SearchMatch", "SearchResult", "DENSIFY_MIN_MATCHES"]

DENSIFY_MIN_MATCHES = 5
"""Hermes ``_DENSIFY_MIN_MATCHES``: from this many matches on, the listing is path-grouped text."""


@dataclass(frozen=True, slots=True)
class SearchMatch:
    """One output row of a content search: a matching line, or (with context) a context line.

    Hermes: context lines are parsed into the same type, so they are indistinguishable (§5.4).
    """

    path: str
    line_number: int
    content: str


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What one search returns before the tool layer adds ``_omitted``/``_warning``/``_hint``.

    *counts* is a tuple of ``(path, count)`` pairs so the value stays immutable.
    """

    total_count: int = 0
    matches: tuple[SearchMatch, ...] = ()
    files: tuple[str, ...] = ()
    counts: tuple[tuple[str, int], ...] = ()
    truncated: bool = False
    total_count_is_lower_bound: bool = False
    limit_reason: str | None = None
    warning: str | None = None
    error: str | None = None
    # Files named as roots that hold a NUL and matched: rg names them but prints no lines.
    binary_matches: tuple[str, ...] = ()

    @property
    def is_empty(self) -> bool:
        """True when the search found nothing (no matches, files or counts)."""
        return not (self.matches or self.files or self.counts)

    def with_warning(self, text: str) -> SearchResult:
        """A copy with *text* appended to the warning (Hermes joins warnings with a space)."""
        warning = f"{self.warning} {text}" if self.warning else text
        return replace(self, warning=warning)

    def to_dict(self, densify: bool = False) -> dict[str, Any]:
        """The contract's JSON object; key order is ``total_count``, the matches block, ``files``,
        ``counts``, ``truncated``/``total_count_is_lower_bound``, ``limit_reason``, ``warning``,
        ``error`` (§5.6); empty and false fields are left out."""
        out: dict[str, Any] = {"total_count": self.total_count}
        if self.matches:
            if densify and len(self.matches) >= DENSIFY_MIN_MATCHES:
                out["matches_format"] = messages.MATCHES_FORMAT
                out["matches_text"] = _path_grouped(self.matches)
            else:
                out["matches"] = [
                    {"path": m.path, "line": m.line_number, "content": m.content}
                    for m in self.matches
                ]
        if self.files:
            out["files"] = list(self.files)
        if self.counts:
            out["counts"] = dict(self.counts)
        # Fixed defect: Hermes writes both flags together because it never knew the real total;
        # shellfree counts every result line, so the total is a lower bound only past the
        # collection cap or on a timeout, and says so only then.
        if self.truncated:
            out["truncated"] = True
        if self.total_count_is_lower_bound:
            out["total_count_is_lower_bound"] = True
        for key in ("limit_reason", "warning", "error"):
            value = getattr(self, key)
            if value:
                out[key] = value
        return out


def _path_grouped(matches: tuple[SearchMatch, ...]) -> str:
    # Hermes: the path line repeats whenever it differs from the previous row's path, and only
    # trailing whitespace is stripped from the content (§5.6).
    lines: list[str] = []
    previous: str | None = None
    for match in matches:
        if match.path != previous:
            lines.append(match.path)
            previous = match.path
        lines.append(f"  {match.line_number}: {match.content.rstrip()}")
    return "\n".join(lines)
