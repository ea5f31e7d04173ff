"""Phase 2 of a V4A patch: write the planned files, all or nothing.

:func:`apply_plan` writes each touched path of a :class:`~shellfree.engine.v4a_plan.Plan` (each
write atomic, see :mod:`shellfree.engine.atomic_write`). If any write fails — or a file changed
on disk since it was planned — every path already written is restored from the bytes kept in
memory, in reverse order, and files the patch created are removed, with the directories made
for them; the result says so. This is shellfree's departure from Hermes, whose apply phase
leaves the files half-patched (§4.5).
"""

from __future__ import annotations

import os
from typing import Any

from shellfree.engine import messages
from shellfree.engine.atomic_write import atomic_write
from shellfree.engine.patch_outcome import PatchOutcome
from shellfree.engine.patch_text import EditableFile, NotRoundTrip
from shellfree.engine.read_tracking import StatKey
from shellfree.engine.regular_file import open_regular
from shellfree.engine.text_decoding import CodePage
from shellfree.engine.v4a_plan import Plan, PlannedFile
from shellfree.engine.write_lint import lint_delta

__all__ = ["apply_plan"]


class _Changed(OSError):
    """The file is no longer what phase 1 read."""


def _current_bytes(path: str) -> bytes | None:
    try:
        with open_regular(path) as handle:
            return handle.read()
    except (FileNotFoundError, NotADirectoryError):
        return None


def _missing_directories(path: str) -> list[str]:
    """The directories above *path* that do not exist yet, deepest first: what writing it
    creates, and what undoing the write removes again."""
    missing = []
    directory = os.path.dirname(path)
    while directory and not os.path.lexists(directory):
        missing.append(directory)
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    return missing


def _remove_directories(directories: list[str]) -> None:
    """Removes *directories* (deepest first) that are still empty; one holding anything
    (another writer's file) stays."""
    for directory in directories:
        try:
            os.rmdir(directory)
        except OSError:
            return


def _apply_one(entry: PlannedFile, exclusive: bool, applied: list[PlannedFile],
               versions: dict[str, StatKey | None], code_pages: dict[str, CodePage],
               made: dict[str, list[str]]) -> None:
    """Writes or deletes one path; appends it to *applied* as soon as the disk has changed, and
    records the version (and legacy code page) written, and in *made* the directories
    created for it."""
    if _current_bytes(entry.path) != entry.before.raw:
        raise _Changed(messages.V4A_CHANGED_DURING_PATCH)
    if not entry.present:
        os.unlink(entry.path)
        applied.append(entry)
        return
    assert entry.data is not None
    # A path new to the disk gets the moved file's mode (or the umask default); an existing
    # file keeps its own.
    mode = entry.mode if entry.before.raw is None else None
    missing = _missing_directories(entry.path) if entry.before.raw is None else []
    try:
        written = atomic_write(entry.path, entry.data, exclusive=exclusive, mode=mode)
    except BaseException:
        _remove_directories(missing)  # a parent made before the write failed
        raise
    made[entry.path] = missing
    applied.append(entry)
    if written.verified is False:
        raise OSError(messages.WRITE_VERIFY_FAILED.format(path=entry.path))
    versions[written.target] = written.version
    if entry.code_page is not None:
        code_pages[written.target] = entry.code_page


def _restore(applied: list[PlannedFile], exclusive: bool, made: dict[str, list[str]]) -> list[str]:
    """Puts every path in *applied* back as it was, last first (a created file removed with
    the directories *made* for it); returns those that failed."""
    failed = []
    for entry in reversed(applied):
        try:
            if entry.before.raw is None:
                if os.path.lexists(entry.path):
                    os.unlink(entry.path)
                _remove_directories(made.get(entry.path, []))
            else:
                written = atomic_write(entry.path, entry.before.raw, exclusive=exclusive,
                                       mode=entry.before.mode)
                if written.verified is False:
                    raise OSError(messages.WRITE_VERIFY_FAILED.format(path=entry.path))
        except OSError as error:
            failed.append(messages.V4A_BULLET.format(error=f"{entry.path}: {error}"))
    return failed


def _lints(plan: Plan) -> dict[str, Any] | None:
    lints: dict[str, Any] = {}
    for entry in plan.files.values():
        if not (entry.touched and entry.present and entry.editable is not None):
            continue
        before = None
        if entry.before.raw is not None:
            try:
                before = EditableFile.from_bytes(entry.before.raw).text
            except NotRoundTrip:
                before = None
        lints[entry.path] = lint_delta(entry.path, entry.editable.text, before).to_dict()
    return lints or None


def apply_plan(plan: Plan, *, exclusive: bool) -> PatchOutcome:
    """Applies *plan* (validated, gated) and returns the patch result."""
    applied: list[PlannedFile] = []
    made: dict[str, list[str]] = {}
    versions: dict[str, StatKey | None] = {}
    code_pages: dict[str, CodePage] = {}
    touched = [e for e in plan.files.values()
               # untouched, or created and deleted again within the patch: nothing to do
               if e.touched and (e.present or e.before.raw is not None)]
    # Writes before deletions: a move writes its destination before it removes its source, so
    # even a crash between the two steps loses nothing.
    for entry in sorted(touched, key=lambda e: not e.present):
        try:
            _apply_one(entry, exclusive, applied, versions, code_pages, made)
        except Exception as error:  # any failure rolls back; the agent gets the reason
            failure = messages.V4A_OP_FAILED.format(verb=entry.verb, path=entry.path,
                                                    error=str(error) or type(error).__name__)
            bullets = messages.V4A_BULLET.format(error=failure)
            unrestored = _restore(applied, exclusive, made)
            if unrestored:
                text = messages.V4A_ROLLBACK_INCOMPLETE.format(
                    errors=bullets, unrestored="\n".join(unrestored))
                return PatchOutcome(False, error=text)
            return PatchOutcome(False, error=messages.V4A_ROLLED_BACK.format(errors=bullets),
                                rolled_back=True)
    return PatchOutcome(
        True, diff="\n".join(plan.diffs), files_modified=tuple(plan.modified),
        files_created=tuple(plan.created), files_deleted=tuple(plan.deleted),
        lint=_lints(plan), versions=versions, code_pages=code_pages)
