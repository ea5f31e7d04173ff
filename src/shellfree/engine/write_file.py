"""The write_file tool: replace a whole file atomically, in the form it was stored in (§3).

:func:`write_file` validates the arguments (§3.2), runs the tool-layer guards in Hermes' order
(§3.3), then, holding the file's lock, the stale-overwrite blocker (§3.5) and the file-ops write
(:mod:`shellfree.engine.write_pipeline`, §3.4), and builds the JSON result (§3.9).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from shellfree.engine import messages
from shellfree.engine.atomic_write import AtomicWriteError
from shellfree.engine.envelope import ABSENT, dumps, tool_error
from shellfree.engine.path_locks import lock_paths
from shellfree.engine.read_tracking import StatKey, stat_key
from shellfree.engine.text_decoding import CodePage
from shellfree.engine.write_content_guards import display_text_error, placeholder_error
from shellfree.engine.write_guards import WriteTarget, run_path_guards
from shellfree.engine.write_lint import LintResult, lint_delta
from shellfree.engine.write_pipeline import (
    ExistingFile, WriteRefused, commit_write, prepare_write, probe_existing)
from shellfree.engine.write_policy import WritePolicy
from shellfree.engine.write_warnings import first_warning, resolve_target, rewrite_hint

if TYPE_CHECKING:
    from shellfree.engine.file_tools import FileTools

__all__ = ["WriteOutcome", "file_state_guard_enabled", "stale_write_reason", "write_file"]


@dataclass(frozen=True, slots=True)
class WriteOutcome:
    """The file-ops result of one write (Hermes ``WriteResult``)."""

    bytes_written: int | None = None
    dirs_created: bool | None = None
    verified: bool | None = None
    lint: LintResult | None = None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The result keys in Hermes' order, ``None`` values dropped (§3.9)."""
        result: dict[str, Any] = {}
        if self.bytes_written is not None:
            result["bytes_written"] = self.bytes_written
        if self.dirs_created is not None:
            result["dirs_created"] = self.dirs_created
        if self.verified is not None:
            result["verified"] = self.verified
        if self.lint is not None:
            result["lint"] = self.lint.to_dict()
        if self.error is not None:
            result["error"] = self.error
        return result


def file_state_guard_enabled() -> bool:
    """False when ``HERMES_DISABLE_FILE_STATE_GUARD=1`` turns the stale-overwrite blocker off."""
    return os.environ.get("HERMES_DISABLE_FILE_STATE_GUARD", "").strip() != "1"


def write_policy_for(tools: FileTools) -> WritePolicy:
    """The write refusals for *tools*' Hermes directories."""
    return WritePolicy(tools.policy.hermes_dirs, confinement=tools.confinement)


def write_file(tools: FileTools, path: Any, content: Any) -> str:
    """Runs write_file for *tools*' task and returns the JSON text the agent receives."""
    if not isinstance(path, str) or not path:
        return tool_error(messages.WRITE_MISSING_PATH)
    if content is ABSENT:
        return tool_error(messages.WRITE_MISSING_CONTENT)
    if not isinstance(content, str):
        return tool_error(messages.WRITE_CONTENT_NOT_STRING.format(type_name=type(content).__name__))
    target = resolve_target(tools.root, path)
    policy = write_policy_for(tools)
    refusal = (run_path_guards([target], policy, tools.approval_callback)
               or display_text_error(content)
               or placeholder_error(path, "content", content))
    if refusal is not None:
        return tool_error(refusal)
    with lock_paths([target.resolved]) as exclusive:
        reason = stale_write_reason(tools, target)
        if reason is not None:
            return dumps({
                "error": messages.STALE_WRITE_REFUSED.format(path=path, reason=reason),
                "stale_write_blocked": True, "path": path, "resolved_path": target.resolved,
            })
        warning = first_warning(tools.root, tools.state, target)
        try:
            existing = probe_existing(target.resolved,
                                      tools.state.known_code_page(target.resolved))
        except OSError as error:
            # A file there that cannot be read (a symlink loop, no read permission): its
            # format cannot be kept, and the write would not know what it replaces.
            return dumps({"error": messages.WRITE_FAILED.format(output=str(error)),
                          "resolved_path": target.resolved})
        outcome, version = _write(target, content, policy, existing, exclusive)
    result = outcome.to_dict()
    if warning is not None:
        result["_warning"] = warning
    if outcome.error is None:
        hint = rewrite_hint(content, existing.text())
        if hint is not None:
            result["hint"] = hint
    result["resolved_path"] = target.resolved
    if outcome.error is None:
        result["files_modified"] = [target.resolved]
        _bookkeeping(tools, target, version, existing.format.form)
    return dumps(result)


def _write(target: WriteTarget, content: str, policy: WritePolicy, existing: ExistingFile,
           exclusive: bool) -> tuple[WriteOutcome, StatKey | None]:
    """The file-ops write (§3.4) and the version it left the file at (None on failure)."""
    try:
        prepared = prepare_write(target.resolved, content, policy, existing)
    except WriteRefused as refused:
        return WriteOutcome(error=str(refused)), None
    try:
        written = commit_write(prepared, exclusive=exclusive)
    except (AtomicWriteError, OSError) as error:
        return WriteOutcome(error=messages.WRITE_FAILED.format(output=str(error))), None
    if written.verified is False:
        return WriteOutcome(error=messages.WRITE_VERIFY_FAILED.format(path=target.resolved)), None
    lint = lint_delta(target.resolved, prepared.text, existing.text())
    outcome = WriteOutcome(
        bytes_written=len(prepared.data),
        # Hermes: "parent directories ensured", true for any path with a directory part.
        dirs_created=bool(os.path.dirname(target.resolved)),
        verified=True if written.verified else None,
        lint=lint,
    )
    return outcome, written.version


def stale_write_reason(tools: FileTools, target: WriteTarget) -> str | None:
    """§3.5: why overwriting *target* would discard content this task has not seen, or None.

    Allowed: a new file, a file the task has seen whole at its current version (a clean
    full read or the task's own write_file). Refused: a file changed since the task last read
    or edited it, and any other existing file.
    """
    if not file_state_guard_enabled():
        return None
    try:
        info = os.stat(target.resolved)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError:
        return None  # unresolvable: the write itself reports the problem
    if not stat.S_ISREG(info.st_mode):
        return None
    version = stat_key(info)
    state = tools.state
    last_seen = state.last_read_version(target.resolved)
    if last_seen is not None and last_seen != version:
        return messages.STALE_MODIFIED.format(path=target.path)
    if state.has_seen_current(target.resolved, version):
        return None
    return messages.STALE_NOT_SEEN.format(resolved=target.resolved)


def _bookkeeping(tools: FileTools, target: WriteTarget, version: StatKey | None,
                 code_page: CodePage | None) -> None:
    """After a successful write: the task knows the file in full at the written version (only
    when that version was verified stable), and in the legacy *code_page* it was written in;
    cached reads of the path are dropped."""
    state = tools.state
    if version is not None:
        state.record_full_read(target.resolved, version)
        state.record_read_version(target.resolved, version)
        if code_page is not None:
            state.record_code_page(target.resolved, version, code_page)
    state.invalidate_path(target.resolved)
