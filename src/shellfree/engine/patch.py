"""The patch tool: a fuzzy find-and-replace in one file, or an all-or-nothing V4A patch (§4).

:func:`patch` follows Hermes' tool-layer flow (§4.2): collect the paths (the ``path`` argument
and every V4A header, refusing ``..`` in headers), run the path guards once for all of them,
lock every path in sorted order, then dispatch to :func:`~shellfree.engine.patch_replace.
patch_replace` or to the V4A planner and applier, and add the warnings, the hints after misses
and the task's bookkeeping to the result.

Deliberate changes from the contract: a V4A patch applies all or nothing (v4a_apply.py); a
V4A ``*** Add File`` is whole-file content, so write_file's guard against read_file's display
text (§3.3 step 6) refuses it too, where Hermes applies that guard to write_file only: an
added file whose every line looks like ``12|text`` (rows copied from read_file) is refused,
content that really has that shape included (a ``1|alice`` table; write it with write_file's
same refusal in mind, or give its lines another shape); a redaction placeholder in a hunk is
refused, as write_file refuses one in content.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any

from shellfree.engine import messages
from shellfree.engine.envelope import dumps, tool_error
from shellfree.engine.patch_outcome import PatchOutcome, failure
from shellfree.engine.patch_replace import patch_replace
from shellfree.engine.path_locks import lock_paths
from shellfree.engine.read_tracking import CodePageLookup
from shellfree.engine.v4a_apply import apply_plan
from shellfree.engine.v4a_parser import V4AOperation, V4AParseError, header_paths, parse_v4a
from shellfree.engine.v4a_plan import plan_v4a
from shellfree.engine.write_content_guards import (
    display_text_error, find_placeholder, placeholder_error)
from shellfree.engine.write_guards import WriteTarget, run_path_guards
from shellfree.engine.write_policy import WritePolicy
from shellfree.engine.write_warnings import first_warning, resolve_target

if TYPE_CHECKING:
    from shellfree.engine.file_tools import FileTools

__all__ = ["patch"]

REPEATED_MISS_HINT_AT = 3
"""From this consecutive "Could not find" on one file, the hint tells the agent to stop (§4.2)."""

_SEPARATORS = re.compile(r"[\\/]")


def _has_traversal(path: str) -> bool:
    """A component equal to ``..`` (whitespace-padded too, as some Hermes versions check)."""
    return any(part.strip() == ".." for part in _SEPARATORS.split(path))


def _as_bool(value: Any) -> bool:
    """replace_all as an agent may send it: a JSON boolean, or ``"true"``/``"false"`` text."""
    if isinstance(value, str):
        return value.strip().lower() in ("true", "1", "yes", "on")
    return bool(value)


class _Refused(Exception):
    """A refusal returned as ``tool_error`` (``str()`` is the message)."""


def patch(tools: FileTools, mode: Any, path: Any, old_string: Any, new_string: Any,
          replace_all: Any, patch_text: Any) -> str:
    """Runs patch for *tools*' task and returns the JSON text the agent receives."""
    mode = "replace" if mode is None else mode
    policy = WritePolicy(tools.policy.hermes_dirs, confinement=tools.confinement)
    path = path if isinstance(path, str) else None
    try:
        targets = _targets(tools, mode, path, patch_text)
        _guard(targets, policy, tools)
        operations = None
        if mode == "patch" and isinstance(patch_text, str) and patch_text:
            try:
                operations = _resolved_operations(tools, parse_v4a(patch_text))
            except V4AParseError as error:
                return _respond(tools, mode, path, targets, [],
                                failure(messages.V4A_PARSE_FAILED.format(error=str(error))))
            extra = _operation_targets(operations, targets)
            _guard(extra, policy, tools)
            targets += extra
    except _Refused as refused:
        return tool_error(str(refused))
    with lock_paths([t.resolved for t in targets]) as exclusive:
        warnings = [w for w in (first_warning(tools.root, tools.state, t) for t in targets) if w]
        if mode == "replace":
            outcome = _replace(targets, path, old_string, new_string, replace_all, policy,
                               exclusive, tools.state.known_code_page)
        elif mode == "patch":
            outcome = _v4a(operations, patch_text, policy, exclusive,
                           tools.state.known_code_page)
        else:
            return tool_error(messages.PATCH_UNKNOWN_MODE.format(mode=mode))
    if isinstance(outcome, str):
        return outcome  # a tool_error text
    return _respond(tools, mode, path, targets, warnings, outcome)


def _targets(tools: FileTools, mode: Any, path: str | None, patch_text: Any) -> list[WriteTarget]:
    targets = [resolve_target(tools.root, path, gets_text=mode == "replace")] if path else []
    if mode == "patch" and isinstance(patch_text, str) and patch_text:
        for kind, header in header_paths(patch_text):
            if _has_traversal(header):
                raise _Refused(messages.V4A_TRAVERSAL.format(path=header))
            targets.append(resolve_target(tools.root, header, gets_text=kind in ("Update", "Add")))
    return targets


def _guard(targets: list[WriteTarget], policy: WritePolicy, tools: FileTools) -> None:
    if targets:
        refusal = run_path_guards(targets, policy, tools.approval_callback)
        if refusal is not None:
            raise _Refused(refusal)


def _resolved_operations(tools: FileTools, operations: list[V4AOperation]) -> list[V4AOperation]:
    """The operations with absolute real paths (Hermes rewrites the headers the same way)."""
    resolved = []
    for op in operations:
        for raw in (op.path, op.dest):
            if raw and _has_traversal(raw):
                raise _Refused(messages.V4A_TRAVERSAL.format(path=raw))
        resolved.append(dataclasses.replace(
            op, path=resolve_target(tools.root, op.path).resolved,
            dest=resolve_target(tools.root, op.dest).resolved if op.dest else None))
    return resolved


def _operation_targets(operations: list[V4AOperation],
                       checked: list[WriteTarget]) -> list[WriteTarget]:
    """Paths the parser found that the header scan did not (so they are guarded and locked)."""
    known = {t.resolved for t in checked}
    extra = []
    for op in operations:
        for resolved, gets_text in ((op.path, op.kind in ("update", "add")), (op.dest, False)):
            if resolved and resolved not in known:
                known.add(resolved)
                extra.append(WriteTarget(resolved, resolved, gets_text))
    return extra


def _replace(targets: list[WriteTarget], path: str | None, old_string: Any, new_string: Any,
             replace_all: Any, policy: WritePolicy, exclusive: bool,
             known: CodePageLookup) -> PatchOutcome | str:
    if not path:
        return tool_error(messages.PATCH_PATH_REQUIRED)
    if old_string is None or new_string is None:
        return tool_error(messages.PATCH_STRINGS_REQUIRED)
    for name, value in (("old_string", old_string), ("new_string", new_string)):
        if not isinstance(value, str):
            return tool_error(messages.PATCH_NOT_A_STRING.format(
                name=name, type_name=type(value).__name__))
    refusal = (placeholder_error(path, "old_string", old_string)
               or placeholder_error(path, "new_string", new_string))
    if refusal is not None:
        return tool_error(refusal)
    return patch_replace(targets[0].resolved, old_string, new_string, _as_bool(replace_all),
                         policy, exclusive=exclusive,
                         code_page=known(targets[0].resolved))


def _v4a(operations: list[V4AOperation] | None, patch_text: Any, policy: WritePolicy,
         exclusive: bool, known: CodePageLookup) -> PatchOutcome | str:
    if not isinstance(patch_text, str) and patch_text:
        return tool_error(messages.PATCH_NOT_A_STRING.format(
            name="patch", type_name=type(patch_text).__name__))
    if operations is None:
        return tool_error(messages.PATCH_CONTENT_REQUIRED)
    for op in operations:
        for hunk in op.hunks:
            for line in hunk.lines:
                if find_placeholder(line.text) is not None:
                    return tool_error(placeholder_error(op.path, "the patch", line.text) or "")
        # An added file is whole-file content, so write_file's display-text guard applies.
        if op.kind == "add":
            added = "\n".join(line.text for hunk in op.hunks for line in hunk.lines)
            refusal = display_text_error(added)
            if refusal is not None:
                return tool_error(refusal)
    plan, errors = plan_v4a(operations, policy, known)
    if errors:
        bullets = "\n".join(messages.V4A_BULLET.format(error=e) for e in errors)
        return failure(messages.V4A_VALIDATION_FAILED.format(errors=bullets))
    return apply_plan(plan, exclusive=exclusive)


def _respond(tools: FileTools, mode: str, path: str | None, targets: list[WriteTarget],
             warnings: list[str], outcome: PatchOutcome) -> str:
    """§4.2 steps 6–7: the result with warnings, paths, bookkeeping and miss hints."""
    result = outcome.to_dict()
    if warnings:
        result["_warning"] = " | ".join(warnings)
    state = tools.state
    resolved = list(dict.fromkeys(t.resolved for t in targets))
    if outcome.success:
        # Every success names its paths, the already-applied no-op too (§4.2 step 6).
        result["files_modified"] = resolved
        if len(resolved) == 1:
            result["resolved_path"] = resolved[0]
        for written, version in outcome.versions.items():
            if version is not None:  # patch refreshes the read stamp, never grants a baseline
                state.record_read_version(written, version)
                code_page = outcome.code_pages.get(written)
                if code_page is not None:
                    state.record_code_page(written, version, code_page)
        with state.lock:
            for target in resolved:
                state.edits.clear_misses(target)
        for target in resolved:
            state.invalidate_path(target)
        return dumps(result)
    error = outcome.error or ""
    if "Could not find" in error:
        misses = 0
        if mode == "replace" and resolved:
            with state.lock:
                misses = state.edits.count_miss(resolved[0])
        if misses >= REPEATED_MISS_HINT_AT:
            result["_hint"] = messages.PATCH_REPEATED_FAILURE_HINT.format(count=misses, path=path)
        elif "Did you mean one of these sections?" not in error:
            result["_hint"] = messages.PATCH_NOT_FOUND_HINT
    return dumps(result)
