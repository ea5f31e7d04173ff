"""Pagination arguments as Hermes normalises them (``normalize_*_pagination``, §1.3).

Agents send offsets and limits as numbers, strings or nothing; these functions turn any of them
into usable integers instead of failing the call.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "DEFAULT_READ_LIMIT",
    "DEFAULT_READ_OFFSET",
    "DEFAULT_SEARCH_LIMIT",
    "DEFAULT_SEARCH_OFFSET",
    "int_or_default",
    "normalize_read_pagination",
    "normalize_search_pagination",
]

DEFAULT_READ_OFFSET = 1
DEFAULT_READ_LIMIT = 2000
DEFAULT_SEARCH_OFFSET = 0
DEFAULT_SEARCH_LIMIT = 50


def int_or_default(value: Any, default: int) -> int:
    """``int(value)``, or *default* when that raises TypeError or ValueError (``None``, ``"bad"``).

    EDGE CASE: ``int(2.9)`` is 2 and ``int("2.9")`` fails, as in Hermes.
    """
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        return default


def normalize_search_pagination(offset: Any, limit: Any) -> tuple[int, int]:
    """``(offset, limit)`` for search_files: offset ≥ 0, limit ≥ 1, and no upper cap on limit."""
    return (max(0, int_or_default(offset, DEFAULT_SEARCH_OFFSET)),
            max(1, int_or_default(limit, DEFAULT_SEARCH_LIMIT)))


def normalize_read_pagination(offset: Any, limit: Any, max_lines: int = DEFAULT_READ_LIMIT
                              ) -> tuple[int, int]:
    """``(offset, limit)`` for read_file: offset ≥ 1 and 1 ≤ limit ≤ *max_lines*."""
    return (max(1, int_or_default(offset, DEFAULT_READ_OFFSET)),
            max(1, min(int_or_default(limit, DEFAULT_READ_LIMIT), max_lines)))
