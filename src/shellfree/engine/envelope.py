"""The JSON text every tool returns: serialisation, ``tool_error``, and the size cap (§1.1).

Hermes registers each file tool with ``max_result_size_chars=100_000``. search_files keeps its
results under that size itself, by returning fewer items (never by cutting the JSON text, which
would stop being JSON); see :func:`fit_to_size`. read_file's page is bounded as Hermes bounds it,
by its character budget on the content (§2.6 step 4: 100,000 characters, joining newlines
counted), so its JSON text can pass the size by the escapes and fields around the content
(103,121 characters for a budget-cut page of code in a reviewer's test).
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Sequence

__all__ = ["ABSENT", "MAX_RESULT_CHARS", "dumps", "fit_to_size", "tool_error", "wire_text"]

MAX_RESULT_CHARS = 100_000
"""Hermes ``max_result_size_chars`` for read_file, write_file, patch and search_files."""



class _Absent:
    __slots__ = ()

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT = _Absent()
"""The default of an argument the agent's call may leave out where ``None`` is a value it may
send: write_file answers a missing ``content`` and a ``"content": null`` differently (§3.2)."""

_SHORTENED = 2_000
"""Longest string kept when even an empty page does not fit (a giant error or warning)."""


def dumps(payload: dict[str, Any]) -> str:
    """The tool's JSON text: ``json.dumps(..., ensure_ascii=False)`` as in Hermes."""
    return json.dumps(payload, ensure_ascii=False)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def wire_text(text: str) -> str:
    """A tool's JSON text made valid Unicode for a transport that encodes it as UTF-8 (MCP,
    ``shellfree call``), meaning the same JSON. A file name that is not UTF-8 reaches the
    text as lone surrogates (``os.fsdecode``'s surrogateescape), which UTF-8 cannot encode:
    each is written as its JSON escape (``\\udcff``). The agent's JSON parser gives back the
    same string, and the path it sends back names the same file."""
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def tool_error(message: str, **extra: Any) -> str:
    """Hermes ``tool_error``: ``{"error": message, **extra}`` as JSON text."""
    return dumps({"error": message, **extra})


def fit_to_size(render: Callable[[int | None], dict[str, Any]], item_count: int,
                limit: int = MAX_RESULT_CHARS) -> str:
    """The JSON text of ``render(None)`` (everything), or of the largest ``render(k)`` — the
    payload with only its first *k* items — that fits in *limit* characters.

    *render* is responsible for marking a cut payload (``truncated``, the next offset); this
    function only finds the largest *k* by bisection. When not even ``render(0)`` fits, long
    strings are shortened as a last resort, so the result is always valid JSON.
    """
    text = dumps(render(None))
    if len(text) <= limit:
        return text
    best: str | None = None
    low, high = 0, item_count - 1
    while low <= high:
        middle = (low + high) // 2
        attempt = dumps(render(middle))
        if len(attempt) <= limit:
            best, low = attempt, middle + 1
        else:
            high = middle - 1
    if best is not None:
        return best
    return dumps(_shorten(render(0)))


def _shorten(value: Any) -> Any:
    if isinstance(value, str) and len(value) > _SHORTENED:
        return value[:_SHORTENED] + "…"
    if isinstance(value, dict):
        return {k: _shorten(v) for k, v in value.items()}
    if isinstance(value, Sequence) and not isinstance(value, str):
        return [_shorten(v) for v in value]
    return value
