"""read_file's tool-layer post-processing of a page: the character budget, redaction, and the
merge-conflict and large-file hints (§2.6 steps 4–7).

Each function edits the JSON payload (the dict from ``ReadResult.to_dict``) in place, so keys
keep the order Hermes produces: an existing key keeps its place, a new one goes last.
"""

from __future__ import annotations

import re
from typing import Any

from shellfree.engine import messages
from shellfree.redaction import redact_sensitive_text

__all__ = [
    "LARGE_FILE_BYTES",
    "LARGE_FILE_MIN_LIMIT",
    "add_conflict_hint",
    "add_large_file_hint",
    "apply_char_budget",
    "redact_page",
]

LARGE_FILE_BYTES = 512_000
"""Files larger than this get the large-file ``_hint`` on a truncated wide read (§2.6 step 7)."""

LARGE_FILE_MIN_LIMIT = 200
"""…when the call's limit is above this."""

_CONFLICT_OPEN = re.compile(r"^\s*\d+\|<<<<<<< ", re.MULTILINE)
_CONFLICT_CLOSE = re.compile(r"^\s*\d+\|>>>>>>> ", re.MULTILINE)


def apply_char_budget(payload: dict[str, Any], offset: int, max_chars: int) -> int | None:
    """Cuts ``content`` to the whole lines that fit in *max_chars* characters (joining
    newlines count) and says where to continue (§2.6 step 4); returns the number of lines
    kept, or None when the page fits.

    When not even the first line fits, its first *max_chars* characters are kept and
    ``truncated_lines`` says so. EDGE CASE: Hermes flags a first line of exactly *max_chars*
    characters too; shellfree flags only a line that was actually cut.
    """
    content: str = payload["content"]
    if len(content) <= max_chars:
        return None
    lines = content.split("\n")
    used = kept = 0
    for index, line in enumerate(lines):
        used += len(line) + (1 if index else 0)
        if used > max_chars:
            break
        kept += 1
    first_cut = kept == 0
    payload["content"] = lines[0][:max_chars] if first_cut else "\n".join(lines[:kept])
    kept = max(kept, 1)
    next_offset = offset + kept
    payload["truncated"] = True
    payload["truncated_by"] = "bytes"
    payload["next_offset"] = next_offset
    hint = messages.READ_BUDGET_TRUNCATED.format(
        max_chars=max_chars, lines_kept=kept, offset=offset, last_line=next_offset - 1,
        total_lines=payload.get("total_lines", "unknown"), next_offset=next_offset)
    if first_cut:
        payload["truncated_lines"] = True
        hint += messages.READ_BUDGET_FIRST_LINE
    payload["hint"] = hint
    return kept


def redact_page(payload: dict[str, Any], secret_file: bool) -> bool:
    """Masks secrets in ``content`` as a file read (§2.6 step 5, §9); returns whether
    anything was masked (a redacted page never counts as having seen the file)."""
    content = payload["content"]
    redacted = redact_sensitive_text(content, file_read=True, secret_file=secret_file)
    payload["content"] = redacted
    return redacted != content


def add_conflict_hint(payload: dict[str, Any]) -> None:
    """Adds ``conflict_blocks`` and a ``_hint`` when the page holds git conflict blocks: the
    fewer of its ``<<<<<<< `` and ``>>>>>>> `` marker lines (§2.6 step 6)."""
    content = payload["content"]
    if "<<<<<<< " not in content:
        return
    opens = len(_CONFLICT_OPEN.findall(content))
    count = min(opens, len(_CONFLICT_CLOSE.findall(content))) if opens else 0
    if count > 0:
        payload["conflict_blocks"] = count
        payload["_hint"] = messages.READ_CONFLICT_BLOCKS.format(count=count)


def add_large_file_hint(payload: dict[str, Any], limit: int) -> None:
    """Suggests narrower reads of a large file after a truncated wide read, unless another
    ``_hint`` is already there (§2.6 step 7)."""
    if "_hint" in payload or not payload.get("truncated"):
        return
    size = payload.get("file_size", 0)
    if size > LARGE_FILE_BYTES and limit > LARGE_FILE_MIN_LIMIT:
        payload["_hint"] = messages.READ_LARGE_FILE.format(file_size=size)
