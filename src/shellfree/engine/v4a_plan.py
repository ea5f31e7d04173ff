"""Phase 1 of a V4A patch: check every operation against the files and plan every change (§4.5).

:func:`plan_v4a` runs the operations in order on an in-memory overlay, so a later operation sees
what an earlier one did, and nothing touches the disk. The :class:`Plan` it returns holds, for
each path, the bytes (or absence) it had and the bytes (or absence) it will have — every write
already through the write gates — so phase 2 (:mod:`shellfree.engine.v4a_apply`) cannot fail
for a reason that could have been known beforehand.

Fixed defect: a hunk's lines match whole lines of the file (blanks around them aside). Hermes
ran the replace-mode matcher on them as on any substring, so ``-two`` / ``+TWO`` turned a line
``twoo`` into ``TWOo``, and a file holding ``twoo`` and ``two`` was ambiguous.
"""

from __future__ import annotations

import difflib
import os
import stat
from dataclasses import dataclass, field

from shellfree.engine import messages
from shellfree.engine.fuzzy_match import Edit, fuzzy_find_and_replace, is_already_applied
from shellfree.engine.patch_replace import no_match_error
from shellfree.engine.patch_text import EditableFile, NotRoundTrip, unified_diff
from shellfree.engine.read_tracking import CodePageLookup, StatKey, stat_key
from shellfree.engine.regular_file import open_regular
from shellfree.engine.text_decoding import CodePage
from shellfree.engine.v4a_parser import Hunk, V4AOperation
from shellfree.engine.write_encoding import NEW_FILE
from shellfree.engine.write_pipeline import ExistingFile, WriteRefused, prepare_write
from shellfree.engine.write_policy import WritePolicy

__all__ = ["Plan", "PlannedFile", "plan_v4a"]

HINT_WINDOW_BEFORE = 500
HINT_WINDOW_AFTER = 2000
"""A hunk that does not match uniquely is retried within this window around its ``@@`` hint
(widened to whole lines)."""


@dataclass(frozen=True, slots=True)
class OnDisk:
    """A path's state before the patch: *raw* bytes (None: absent), permission *mode* and
    *version*."""

    raw: bytes | None
    mode: int | None = None
    version: StatKey | None = None


@dataclass
class PlannedFile:
    """One path's journey through the patch (mutable while planning).

    *before* is what the disk holds; *raw* the bytes it will hold when not edited as text
    (unchanged, or moved here), *editable* its text when edited, *present* whether it will
    exist, *data* the final bytes once gated, *verb* the operation named in failure messages,
    *code_page* how the task knows *raw* to use a legacy code page (it follows a move).
    """

    path: str
    before: OnDisk
    present: bool
    raw: bytes | None
    mode: int | None
    editable: EditableFile | None = None
    verb: str = "update"
    touched: bool = False
    data: bytes | None = None
    code_page: CodePage | None = None


@dataclass
class Plan:
    """Every path a patch touches (in the order first touched), each operation's diff, and the
    paths modified, created and deleted."""

    files: dict[str, PlannedFile] = field(default_factory=dict)
    diffs: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    changes: bool = False


def _on_disk(path: str) -> OnDisk:
    """Reads *path* whole (through a symlink); raises OSError when it cannot be established."""
    try:
        with open_regular(os.path.realpath(path)) as handle:
            info = os.fstat(handle.fileno())
            return OnDisk(handle.read(), stat.S_IMODE(info.st_mode), stat_key(info))
    except (FileNotFoundError, NotADirectoryError):
        return OnDisk(None)


class _Planner:
    def __init__(self, policy: WritePolicy, known: CodePageLookup) -> None:
        self.policy = policy
        self.known = known
        self.plan = Plan()
        self.errors: list[str] = []

    def file(self, path: str) -> PlannedFile:
        """The overlay entry of *path*, read from disk the first time; raises OSError."""
        entry = self.plan.files.get(path)
        if entry is None:
            before = _on_disk(path)
            entry = PlannedFile(path, before, before.raw is not None, before.raw, before.mode)
            known = self.known(path) if before.version is not None else None
            entry.code_page = known.at(before.version) if known is not None else None
            self.plan.files[path] = entry
        return entry

    # -- operations --------------------------------------------------------------------------

    def update(self, op: V4AOperation) -> None:
        try:
            entry = self.file(op.path)
        except OSError as error:
            self.errors.append(messages.V4A_READ_ERROR.format(path=op.path, error=_why(error)))
            return
        if not entry.present:
            # §4.5: the read error is read_file_raw's, which names a missing file (§2.8).
            self.errors.append(messages.V4A_READ_ERROR.format(
                path=op.path, error=messages.FILE_NOT_FOUND.format(path=op.path)))
            return
        if entry.editable is None:
            try:
                entry.editable = EditableFile.from_bytes(entry.raw or b"", entry.code_page)
            except NotRoundTrip as error:
                self.errors.append(messages.PATCH_NOT_ROUND_TRIP.format(
                    path=op.path, encoding=error.encoding))
                return
        before_text = entry.editable.text
        for index, hunk in enumerate(op.hunks, start=1):
            if hunk.search == hunk.replace:
                self.plan.changes |= hunk.changes
                continue
            edits = self.hunk_edits(op.path, index, hunk, entry.editable.view)
            if edits is None:
                return
            # A hunk already applied (a re-sent patch) is skipped, and still counts as a
            # change when it has +/- lines (§4.5): its patch succeeds as a no-op.
            self.plan.changes |= hunk.changes
            if edits:
                entry.editable = entry.editable.with_text(entry.editable.apply(edits))
        if entry.editable.text != before_text:
            entry.touched = True
            entry.verb = "update"
            self.plan.diffs.append(unified_diff(before_text, entry.editable.text, op.path))
            if op.path not in self.plan.modified:
                self.plan.modified.append(op.path)

    def hunk_edits(self, path: str, index: int, hunk: Hunk, view: str) -> list[Edit] | None:
        """The edits one hunk makes to *view*: [] when already applied, None on error."""
        if hunk.addition_only:
            return self.addition_edits(path, hunk, view)
        found = fuzzy_find_and_replace(view, hunk.search, hunk.replace, whole_lines=True)
        if (found.error is not None or found.count == 0) and hunk.hint and hunk.hint in view:
            at = view.index(hunk.hint)
            # The window grows to whole lines: its cut ends must not pass for line ends.
            low = view.rfind("\n", 0, max(0, at - HINT_WINDOW_BEFORE)) + 1
            high = view.find("\n", at + HINT_WINDOW_AFTER)
            high = len(view) if high < 0 else high
            windowed = fuzzy_find_and_replace(view[low:high], hunk.search, hunk.replace,
                                              whole_lines=True)
            if windowed.error is None and windowed.count:
                return [Edit(e.start + low, e.end + low, e.text) for e in windowed.edits]
        if found.error is None and found.count:
            return list(found.edits)
        if is_already_applied(view, hunk.search, hunk.replace):
            return []
        detail = no_match_error(found.error, found.count, path, hunk.search, view)
        self.errors.append(messages.V4A_HUNK_NOT_FOUND.format(
            path=path, index=index, hint=hunk.hint or messages.V4A_NO_HINT, error=detail))
        return None

    def addition_edits(self, path: str, hunk: Hunk, view: str) -> list[Edit] | None:
        """§4.5: insert after the line holding the unique hint, or append at the end."""
        text = hunk.replace
        if hunk.hint is None:
            kept = len(view.rstrip("\n"))
            return [Edit(kept, len(view), "\n" + text + "\n")]
        count = _overlapping_count(view, hunk.hint)
        if count != 1:
            template = (messages.V4A_ADDITION_HINT_MISSING if count == 0
                        else messages.V4A_ADDITION_HINT_AMBIGUOUS)
            self.errors.append(template.format(path=path, hint=hunk.hint, count=count))
            return None
        line_end = view.find("\n", view.index(hunk.hint))
        if line_end == -1:
            return [Edit(len(view), len(view), "\n" + text)]
        return [Edit(line_end, line_end, "\n" + text)]

    def add(self, op: V4AOperation) -> None:
        try:
            entry = self.file(op.path)
        except OSError as error:
            self.errors.append(messages.V4A_PATH_NOT_FREE.format(path=op.path, error=_why(error)))
            return
        if entry.present:
            self.errors.append(messages.V4A_ADD_EXISTS.format(path=op.path))
            return
        text = "\n".join(line.text for hunk in op.hunks for line in hunk.lines)
        entry.present, entry.raw, entry.mode, entry.touched = True, None, None, True
        entry.editable, entry.code_page = EditableFile(None, NEW_FILE, text), None
        entry.verb = "add"
        self.plan.diffs.append(f"--- /dev/null\n+++ b/{op.path}\n" + "\n".join(
            "+" + line.text for hunk in op.hunks for line in hunk.lines))
        self.plan.changes = True
        self.plan.created.append(op.path)

    def delete(self, op: V4AOperation) -> None:
        try:
            entry = self.file(op.path)
        except OSError as error:
            self.errors.append(messages.V4A_READ_ERROR.format(path=op.path, error=_why(error)))
            return
        if not entry.present:
            self.errors.append(messages.V4A_DELETE_MISSING.format(path=op.path))
            return
        denied = self.policy.write_denied_error(op.path, "Delete")
        if denied is not None:
            self.errors.append(denied)
            return
        self.plan.diffs.append(_deletion_diff(op.path, _current_text(entry)))
        entry.present, entry.raw, entry.editable, entry.touched = False, None, None, True
        entry.verb, entry.code_page = "delete", None
        self.plan.changes = True
        self.plan.deleted.append(op.path)

    def move(self, op: V4AOperation) -> None:
        if not op.dest:
            self.errors.append(messages.V4A_MOVE_MISSING_DESTINATION.format(path=op.path))
            return
        try:
            source = self.file(op.path)
        except OSError as error:
            self.errors.append(messages.V4A_READ_ERROR.format(path=op.path, error=_why(error)))
            return
        try:
            dest = self.file(op.dest)
        except OSError as error:
            self.errors.append(messages.V4A_PATH_NOT_FREE.format(path=op.dest, error=_why(error)))
            return
        if not source.present:
            self.errors.append(messages.V4A_MOVE_SOURCE_MISSING.format(path=op.path))
            return
        if dest.present:
            self.errors.append(messages.V4A_MOVE_DESTINATION_EXISTS.format(path=op.dest))
            return
        for path in (op.path, op.dest):
            denied = self.policy.write_denied_error(path, "Move")
            if denied is not None:
                self.errors.append(denied)
                return
        dest.present, dest.raw, dest.mode = True, source.raw, source.mode
        dest.editable, dest.touched, dest.verb = source.editable, True, "move"
        dest.code_page, source.code_page = source.code_page, None
        source.present, source.raw, source.editable = False, None, None
        source.touched, source.verb = True, "move"
        self.plan.changes = True
        self.plan.diffs.append(messages.V4A_MOVED_DIFF.format(src=op.path, dst=op.dest))
        self.plan.modified.append(f"{op.path} -> {op.dest}")

    # -- the write gates, on every final state -------------------------------------------------

    def gate(self) -> None:
        for entry in self.plan.files.values():
            if not entry.touched or not entry.present:
                continue
            if entry.editable is None:
                entry.data = entry.raw
                continue
            entry.code_page = entry.editable.format.form
            existing = ExistingFile(entry.editable.raw, entry.editable.format)
            try:
                prepared = prepare_write(entry.path, entry.editable.text, self.policy, existing,
                                         match_crlf=entry.editable.raw is None)
            except WriteRefused as refused:
                self.errors.append(str(refused))
                continue
            entry.data = prepared.data


def _current_text(entry: PlannedFile) -> str:
    if entry.editable is not None:
        return entry.editable.text
    try:
        return EditableFile.from_bytes(entry.raw or b"", entry.code_page).text
    except NotRoundTrip:
        return (entry.raw or b"").decode("utf-8", "replace")


def _deletion_diff(path: str, text: str) -> str:
    diff = "".join(difflib.unified_diff(text.splitlines(keepends=True), [],
                                        fromfile=f"a/{path}", tofile="/dev/null"))
    return diff or messages.V4A_DELETED_DIFF.format(path=path)


def _overlapping_count(text: str, needle: str) -> int:
    count, start = 0, text.find(needle)
    while start != -1:
        count += 1
        start = text.find(needle, start + 1)
    return count


def _why(error: OSError) -> str:
    return error.strerror or str(error)


def plan_v4a(operations: list[V4AOperation], policy: WritePolicy,
             known: CodePageLookup = lambda path: None) -> tuple[Plan, list[str]]:
    """Checks *operations* (paths absolute) and plans their effect; returns the plan and the
    validation errors (empty when the patch can be applied). *known* tells how the task knows
    a file to use a legacy code page."""
    planner = _Planner(policy, known)
    handlers = {"update": planner.update, "add": planner.add, "delete": planner.delete,
                "move": planner.move}
    for op in operations:
        handlers[op.kind](op)
    if not planner.errors and not planner.plan.changes:
        planner.errors.append(messages.V4A_NO_CHANGES)
    if not planner.errors:
        planner.gate()
    return planner.plan, planner.errors
