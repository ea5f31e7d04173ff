"""The tool layer of search_files: guards, policy, redaction and the JSON envelope (§5.2).

:func:`search_files` runs Hermes' ``search_tool`` steps in order: loop guard, NT namespace
check, read deny-list on the root, negative cache, the search itself
(:class:`~shellfree.engine.search_flow.SearchRunner`), filtering of denied results, redaction
of every match line, densified ``to_dict``, then ``_omitted``, ``_warning`` and ``_hint``.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any

from shellfree.engine import messages
from shellfree.engine.envelope import MAX_RESULT_CHARS, fit_to_size, tool_error
from shellfree.engine.confinement import Confinement
from shellfree.engine.policy import ReadPolicy, nt_namespace_error
from shellfree.engine.results import SearchResult
from shellfree.engine.search_flow import SearchRunner
from shellfree.engine.search_request import SearchRequest
from shellfree.engine.search_roots import resolve_task_path, split_multi_path
from shellfree.engine.state import LOOP_BLOCK_AT, LOOP_WARN_AT, TaskState
from shellfree.redaction import redact_sensitive_text

__all__ = ["LIMIT_REASON_CHARS", "search_files"]

LIMIT_REASON_CHARS = "max_result_chars"
"""``limit_reason`` when a page was shortened to keep the result under the size cap."""

NOT_FOUND_PREFIX = "Path not found:"


def search_files(
    request: SearchRequest,
    *,
    runner: SearchRunner,
    state: TaskState,
    policy: ReadPolicy,
    max_result_chars: int = MAX_RESULT_CHARS,
    confinement: Confinement | None = None,
) -> str:
    """Runs one search_files call and returns its JSON text."""
    with state.lock:
        count = state.loop_guard.record(request.loop_key)
    if count >= LOOP_BLOCK_AT:
        return tool_error(
            messages.SEARCH_LOOP_BLOCKED.format(count=count), pattern=request.pattern,
            already_searched=count, **{messages.GUARDRAIL_REFUSAL_KEY: True},
        )
    nt_error = nt_namespace_error(request.path, "Search")
    if nt_error is not None:
        return tool_error(nt_error)
    resolved = resolve_task_path(runner.root, request.path)
    if confinement is not None:
        confined = _confinement_error(confinement, request.path, runner.root)
        if confined is not None:
            return tool_error(confined)
    block_error = policy.read_block_error(resolved)
    if block_error is not None:
        # Hermes: searching inside a denied directory is refused; searching a parent of one is
        # allowed and its results are filtered below.
        return tool_error(block_error)
    with state.lock:
        cached = state.not_found.get("search", resolved)
    if cached is not None:
        return cached

    result = runner.search(request, state.known_code_page)
    result, omitted = _without_denied(result, policy, runner.root)
    result = _redacted(result, policy, runner.root)
    if result.error and result.error.startswith(NOT_FOUND_PREFIX):
        # Stored before the loop warning is added: a later hit must not repeat a stale count.
        with state.lock:
            state.not_found.put("search", resolved, _render(result, request, omitted, 0))
    return _render(result, request, omitted, count, max_result_chars)


def _render(result: SearchResult, request: SearchRequest, omitted: int, count: int,
            max_result_chars: int = MAX_RESULT_CHARS) -> str:
    """The JSON text, with the tool-layer keys after ``to_dict``'s, kept under the size cap."""
    field = "matches" if result.matches else "files" if result.files else "counts"
    items = getattr(result, field)

    def payload(keep: int | None) -> dict[str, Any]:
        shown, next_offset = result, request.offset + request.limit
        if keep is not None:
            # EDGE CASE: the page is cut to fit; the hint then names the first row not shown
            # (rows filtered by the deny-list can make the next page repeat a few, never skip).
            shown = replace(result, truncated=True,
                            limit_reason=result.limit_reason or LIMIT_REASON_CHARS,
                            **{field: items[:keep]})
            next_offset = request.offset + keep
        out = shown.to_dict(densify=True)
        if omitted:
            out["_omitted"] = messages.OMITTED.format(omitted=omitted)
        if count == LOOP_WARN_AT:
            out["_warning"] = messages.SEARCH_LOOP_WARNING.format(count=count)
        if shown.truncated:
            out["_hint"] = messages.TRUNCATED_HINT.format(next_offset=next_offset)
        return out

    return fit_to_size(payload, len(items), max_result_chars)


def _absolute(root: str, printed: str) -> str:
    return os.path.normpath(os.path.join(root, printed))


def _without_denied(result: SearchResult, policy: ReadPolicy,
                    root: str) -> tuple[SearchResult, int]:
    """Drops matches, files and counts in denied places (§5.2 step 7); returns how many.

    Hermes: ``total_count`` is not adjusted; ``_omitted`` tells the agent why rows are missing.
    """
    if result.is_empty:
        return result, 0
    verdicts: dict[str, bool] = {}

    def denied(path: str) -> bool:
        if path not in verdicts:
            verdicts[path] = policy.result_is_blocked(_absolute(root, path))
        return verdicts[path]

    matches = tuple(m for m in result.matches if not denied(m.path))
    files = tuple(f for f in result.files if not denied(f))
    counts = tuple(c for c in result.counts if not denied(c[0]))
    omitted = (len(result.matches) - len(matches) + len(result.files) - len(files)
               + len(result.counts) - len(counts))
    if not omitted:
        return result, 0
    return replace(result, matches=matches, files=files, counts=counts), omitted


def _redacted(result: SearchResult, policy: ReadPolicy, root: str) -> SearchResult:
    """Every match line through :func:`redact_sensitive_text` as a file read (§5.2 step 8)."""
    if not result.matches:
        return result
    secret: dict[str, bool] = {}

    def is_secret(path: str) -> bool:
        if path not in secret:
            secret[path] = policy.is_secret_target(_absolute(root, path))
        return secret[path]

    matches = tuple(
        replace(m, content=redact_sensitive_text(m.content, file_read=True,
                                                 secret_file=is_secret(m.path)))
        for m in result.matches
    )
    return replace(result, matches=matches)


def _confinement_error(confinement: Confinement, path: str, root: str) -> str | None:
    """Under confinement, every root the search would walk must resolve inside the workspace:
    the path itself, or each existing part of a multi-root path string (§5.3.1). Below a root
    the walker never follows a link, so nothing under it can lead outside."""
    resolved = resolve_task_path(root, path)
    if os.path.lexists(resolved):
        return confinement.error(path, resolved, "Search")
    for part in split_multi_path(path):
        part_resolved = resolve_task_path(root, part)
        if os.path.lexists(part_resolved):
            error = confinement.error(part, part_resolved, "Search")
            if error is not None:
                return error
    return None
