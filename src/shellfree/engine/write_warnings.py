"""Non-blocking advice attached to a write or patch result: staleness, workspace divergence, and
the whole-file-rewrite hint (Hermes §1.5, §3.8, §6.5), plus where a tool's path argument lands.

Fixed defect: a missing name lands on the one file next to it whose name differs only invisibly,
as read_file resolves it (:func:`resolve_target`), with read_file's note as the warning.
"""

from __future__ import annotations

import os
from collections import Counter

from shellfree.engine import messages
from shellfree.engine.read_recovery import unicode_variant
from shellfree.engine.read_tracking import stat_key
from shellfree.engine.state import TaskState
from shellfree.engine.write_guards import WriteTarget
from shellfree.engine.write_policy import is_within

__all__ = ["resolve_target", "rewrite_hint", "staleness_warning", "workspace_warning"]

HINT_MIN_CHARS = 20_000
HINT_MAX_CHARS = 400_000
HINT_UNCHANGED_RATIO = 0.8


def resolve_target(root: str, path: str, gets_text: bool = True) -> WriteTarget:
    """The :class:`WriteTarget` for the agent's *path*: ``~`` expanded, relative paths joined to
    the task *root*, then resolved to the real path (Hermes ``Path.resolve()``, §1.5).

    Fixed defect: read_file reads the one file whose name differs only invisibly from a
    missing *path* (§2.5), so an agent that typed ``café.txt`` in NFC reads an NFD
    ``café.txt``, then Hermes' patch fails to read it and write_file creates a second file
    that looks the same. Here writes resolve the name the same way."""
    expanded = os.path.expanduser(path)
    resolved = os.path.realpath(os.path.join(root, expanded))
    if not os.path.lexists(resolved):
        variant = unicode_variant(resolved, new_name=True)
        if variant is not None:
            return WriteTarget(path, os.path.realpath(variant), gets_text, variant_of=resolved)
    return WriteTarget(path, resolved, gets_text)


def workspace_warning(root: str, target: WriteTarget) -> str | None:
    """§1.5: a *relative* path that resolved outside the task root."""
    if os.path.isabs(os.path.expanduser(target.path)):
        return None
    real_root = os.path.realpath(root)
    if is_within(target.resolved, real_root):
        return None
    return messages.WORKSPACE_DIVERGENCE.format(
        filepath=target.path, resolved=target.resolved, root=real_root)


def staleness_warning(state: TaskState, target: WriteTarget) -> str | None:
    """§6.5 (2): the file changed since this task last read it (or last edited it)."""
    last_seen = state.last_read_version(target.resolved)
    if last_seen is None:
        return None
    try:
        current = stat_key(os.stat(target.resolved))
    except OSError:
        return None
    if current == last_seen:
        return None
    return messages.STALE_WARNING.format(path=target.path)


def first_warning(root: str, state: TaskState, target: WriteTarget) -> str | None:
    """The first applicable warning for one path (§6.5 priority order), after the note that
    the path was resolved to a unicode-equivalent file."""
    warning = staleness_warning(state, target) or workspace_warning(root, target)
    if target.variant_of is None:
        return warning
    note = messages.READ_UNICODE_VARIANT.format(path=target.variant_of, variant=target.resolved)
    return note if warning is None else f"{note} {warning}"


def rewrite_hint(new_content: str, old_content: str | None) -> str | None:
    """§3.8: the advice to use patch when a large file was re-sent almost unchanged."""
    if old_content is None or not old_content:
        return None
    if not (HINT_MIN_CHARS <= len(new_content) <= HINT_MAX_CHARS
            and HINT_MIN_CHARS <= len(old_content) <= HINT_MAX_CHARS):
        return None
    new_lines = new_content.splitlines()
    old_lines = old_content.splitlines()
    longest = max(len(new_lines), len(old_lines))
    if not longest:
        return None
    unchanged = sum((Counter(new_lines) & Counter(old_lines)).values())
    ratio = unchanged / longest
    if ratio < HINT_UNCHANGED_RATIO:
        return None
    return messages.REWRITE_HINT.format(
        unchanged=unchanged, total=len(new_lines), ratio=ratio, changed=longest - unchanged,
        chars=len(new_content))
