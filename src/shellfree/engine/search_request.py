"""The arguments of one search_files call, normalised as the Hermes handler does (§5.1–§5.2).

:meth:`SearchRequest.from_arguments` accepts whatever an agent sent (aliases, blanks, numbers as
strings) and returns the frozen request the rest of the flow works with.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shellfree.engine.pagination import (
    DEFAULT_SEARCH_LIMIT,
    DEFAULT_SEARCH_OFFSET,
    int_or_default,
    normalize_search_pagination,
)

__all__ = ["SearchRequest", "TARGET_ALIASES"]

TARGET_ALIASES = {"grep": "content", "find": "files"}
"""Hermes accepts the shell tools' names for the two targets."""


def _text(value: Any, default: str) -> str:
    if value is None:
        return default
    return value if isinstance(value, str) else str(value)


@dataclass(frozen=True, slots=True)
class SearchRequest:
    """One search_files call after normalisation.

    *target* is ``"content"`` or ``"files"`` (other values search content, as in Hermes);
    *output_mode* is ``"content"``, ``"files_only"`` or ``"count"``; *order* is
    ``"discovery"`` or ``"modified"`` (file search only); *file_glob*, *output_mode* and
    *context* apply to content search only.
    """

    pattern: str = ""
    target: str = "content"
    path: str = "."
    file_glob: str | None = None
    limit: int = DEFAULT_SEARCH_LIMIT
    offset: int = DEFAULT_SEARCH_OFFSET
    output_mode: str = "content"
    context: int = 0
    order: str = "discovery"

    @classmethod
    def from_arguments(
        cls,
        pattern: Any = "",
        target: Any = "content",
        path: Any = ".",
        file_glob: Any = None,
        limit: Any = DEFAULT_SEARCH_LIMIT,
        offset: Any = DEFAULT_SEARCH_OFFSET,
        output_mode: Any = "content",
        context: Any = 0,
        order: Any = "discovery",
    ) -> SearchRequest:
        """Builds a request from raw tool arguments (§5.1 handler, §1.3 pagination)."""
        target_text = _text(target, "content")
        path_text = _text(path, ".")
        offset_n, limit_n = normalize_search_pagination(offset, limit)
        return cls(
            pattern=_text(pattern, ""),
            target=TARGET_ALIASES.get(target_text, target_text),
            # Hermes: a missing or blank path means the current directory.
            path=path_text if path_text.strip() else ".",
            file_glob=_text(file_glob, "") or None,
            limit=limit_n,
            offset=offset_n,
            output_mode=_text(output_mode, "content"),
            context=int_or_default(context, 0),
            order=_text(order, "discovery"),
        )

    @property
    def is_file_search(self) -> bool:
        return self.target == "files"

    @property
    def loop_key(self) -> tuple[Any, ...]:
        """The loop-guard key (§5.2 step 2). Pagination is part of it, so paging through results
        never trips the guard. Fixed defect: Hermes leaves output_mode and context out, so
        asking for the count, then the files, then the lines of one pattern warned at the third
        call that "the results have not changed" and refused the fourth; here only the same
        view of the same search counts as a repeat (a file search ignores both)."""
        view = () if self.is_file_search else (self.output_mode, self.context)
        return ("search", self.pattern, self.target, str(self.path), self.file_glob or "",
                self.limit, self.offset, self.order, *view)
