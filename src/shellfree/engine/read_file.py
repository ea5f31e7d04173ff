"""The tool layer of read_file: guards in the contract's order, the read, post-processing and
the task's bookkeeping (§2.2, §2.6, §6).

:func:`read_file` is what ``FileTools.read_file`` calls. It normalises the pagination, runs
:data:`READ_STEPS` (each may end the call with its JSON text), reads the page through the
file-ops layer (:func:`~shellfree.engine.read_text.read_page`), applies the character budget,
redaction and hints, then records the read in the task's state: the consecutive-read guard
shared with search_files, the "unchanged" stub's versions, and the files seen in full that
write_file's stale-overwrite blocker asks about.

Differences from the Hermes contract, each deliberate (details where they are handled):

* ``encoding`` (an addition) names the codec of a page that was not UTF-8; text in a legacy
  code page is shown instead of being refused as binary (:mod:`~shellfree.engine.read_encoding`).
* ``total_lines`` counts a final line without a newline, and a page ending at the file's final
  newline has no empty ``N|`` entry; UTF-16 files are streamed with no 10 MiB cap
  (:mod:`~shellfree.engine.read_text`).
* A file's version is its stat key, without Hermes' sha256 (:mod:`~shellfree.engine.read_tracking`).
* ``truncated_lines`` marks only a first line actually cut by the budget
  (:mod:`~shellfree.engine.read_output`).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from shellfree.engine import messages
from shellfree.engine.envelope import dumps, tool_error
from shellfree.engine.pagination import normalize_read_pagination
from shellfree.engine.read_documents import document_guard
from shellfree.engine.read_guards import (
    ReadCall,
    ReadGuard,
    binary_extension_guard,
    confinement_guard,
    deny_list_guard,
    device_path_guard,
    nt_namespace_guard,
    special_file_guard,
)
from shellfree.engine.read_output import (
    add_conflict_hint,
    add_large_file_hint,
    apply_char_budget,
    redact_page,
)
from shellfree.engine.read_result import ReadLimits, ReadResult
from shellfree.engine.read_text import read_page
from shellfree.engine.read_tracking import canonical_path, stat_key
from shellfree.engine.search_roots import resolve_task_path
from shellfree.engine.state import LOOP_BLOCK_AT, LOOP_WARN_AT

if TYPE_CHECKING:
    from shellfree.engine.file_tools import FileTools

__all__ = ["DEFAULT_READ_LIMITS", "READ_STEPS", "read_file"]

DEFAULT_READ_LIMITS = ReadLimits()
"""The limits used unless the FileTools object carries its own ``read_limits``."""

DEDUP_BLOCK_AT = 2
"""Stub hits on one key from which the call is refused: the 2nd stub, i.e. the 3rd identical
call (§6.3)."""


def negative_cache_guard(call: ReadCall) -> str | None:
    """Answers again, without looking, a "File not found" younger than 60 s (§6.4)."""
    state = call.tools.state
    with state.lock:
        return state.not_found.get("read", call.resolved)


def dedup_guard(call: ReadCall) -> str | None:
    """The "unchanged" stub for a region already served at the file's current version, and
    the refusal from the second stub on (§6.3). Stubs do not count as reads for the
    consecutive-read guard."""
    try:
        current = stat_key(os.stat(call.resolved))
    except (OSError, ValueError):
        return None
    state = call.tools.state
    key = (canonical_path(call.resolved), call.offset, call.limit)
    with state.lock:
        hits = state.read_dedup.stub_hit(key, current)
    if hits is None:
        return None
    if hits >= DEDUP_BLOCK_AT:
        return tool_error(messages.READ_DEDUP_BLOCKED.format(count=hits + 1), path=call.path,
                          already_read=hits + 1, **{messages.GUARDRAIL_REFUSAL_KEY: True})
    return dumps({"status": "unchanged", "message": messages.READ_UNCHANGED, "path": call.path,
                  "dedup": True, "content_returned": False})


READ_STEPS: tuple[ReadGuard, ...] = (
    nt_namespace_guard,
    confinement_guard,  # shellfree addition: FileTools(confine=True)
    device_path_guard,
    special_file_guard,
    deny_list_guard,
    document_guard,
    binary_extension_guard,
    negative_cache_guard,
    dedup_guard,
)
"""The guard order of Hermes' newest tool layer (§2.2): NT namespace → device blocklist →
special files → deny list → document extraction → binary extension → "not found" cache →
dedup stub. The real read follows."""


def read_file(tools: FileTools, path: Any, offset: Any = 1, limit: Any = 2000) -> str:
    """One read_file call: the JSON text the agent receives (§2).

    *path* is absolute, ``~``-relative or relative to ``tools.root``; *offset* and *limit*
    are normalised as Hermes does (§1.3), so any value is accepted.
    """
    limits: ReadLimits = getattr(tools, "read_limits", DEFAULT_READ_LIMITS)
    offset, limit = normalize_read_pagination(offset, limit, limits.max_lines)
    path = "" if path is None else path if isinstance(path, str) else str(path)
    call = ReadCall(tools, path, offset, limit, resolve_task_path(tools.root, path), limits)
    for step in READ_STEPS:
        answer = step(call)
        if answer is not None:
            return answer
    return _read(call)


def _read(call: ReadCall) -> str:
    """The real read and its post-processing (§2.2 steps 11–12, §2.6)."""
    state = call.tools.state
    result = read_page(call.resolved, call.offset, call.limit,
                       max_line_length=call.limits.max_line_length,
                       code_page=state.known_code_page(call.resolved))
    if result.path is not None and result.path != call.resolved:
        # The unicode twin read instead of a missing path (§2.5; its directories too): the
        # deny-list was asked about the path as typed, so it is asked about the twin.
        blocked = call.tools.policy.read_block_error(result.path)
        if blocked is not None:
            return tool_error(blocked)
    payload = result.to_dict()
    if result.not_found:
        text = dumps(payload)
        with state.lock:
            state.not_found.put("read", call.resolved, text)
        return text
    if result.error or result.is_binary:
        return dumps(payload)  # Hermes: no loop bookkeeping for errors and binaries
    kept = apply_char_budget(payload, call.offset, call.limits.max_chars)
    redacted = redact_page(payload, call.tools.policy.is_secret_target(result.path or call.resolved))
    add_conflict_hint(payload)
    add_large_file_hint(payload, call.limit)

    with state.lock:
        count = state.loop_guard.record(("read", call.path, call.offset, call.limit))
        if count < LOOP_BLOCK_AT:
            _record(call, result, kept, clean=not (redacted or result.clamped
                                                    or payload.get("truncated_lines")))
    if count >= LOOP_BLOCK_AT:
        return tool_error(messages.READ_LOOP_BLOCKED.format(count=count), path=call.path,
                          already_read=count, **{messages.GUARDRAIL_REFUSAL_KEY: True})
    if count == LOOP_WARN_AT:
        payload["_warning"] = messages.READ_LOOP_WARNING.format(count=count)
    return dumps(payload)


def _record(call: ReadCall, result: ReadResult, kept: int | None, clean: bool) -> None:
    """The task saw this page: remember its version for the dedup stub, the read stamp, and
    the lines it covers (caller holds the state lock)."""
    state = call.tools.state
    if result.path is None or result.version is None:
        return  # the file changed while it was read: nothing trustworthy to remember
    real = canonical_path(result.path)
    if result.path == call.resolved:
        # A unicode-variant read (§2.5) is not stored under the requested path's key.
        state.read_dedup.record((real, call.offset, call.limit), result.version)
    state.read_stamps.record(real, result.version)
    if result.code_page is not None:
        state.code_pages.record(real, result.version, result.code_page)
    if not clean:
        state.full_reads.revoke(real)
        return
    last = result.last_line if kept is None else call.offset + kept - 1
    state.full_reads.record_page(real, result.version, result.first_line, last,
                                 result.reaches_end and kept is None)
