"""What one task's write_file and patch remember between calls.

:class:`EditTracker` hangs off :class:`~shellfree.engine.state.TaskState` (as ``state.edits``)
and keeps two things: the version each file was left at by this task's last successful edit,
so a later edit can tell that someone else changed the file since (§3.5, §6.5), and how many
times in a row ``patch`` failed to find its text in each file, for the escalating hint (§4.2
step 7). Callers hold the task state's lock.
"""

from __future__ import annotations

from collections import OrderedDict

from shellfree.engine.read_tracking import StatKey

__all__ = ["EditTracker", "MISS_PATHS_CAP", "VERSIONS_CAP"]

VERSIONS_CAP = 1000
"""Files whose post-edit version is remembered per task (the oldest go first, as in §6)."""

MISS_PATHS_CAP = 64
"""Files whose consecutive patch misses are counted per task (Hermes: 64, oldest evicted)."""


class EditTracker:
    """Per-task edit memory: post-edit versions and consecutive patch misses, by real path."""

    def __init__(self) -> None:
        self._versions: OrderedDict[str, StatKey] = OrderedDict()
        self._misses: OrderedDict[str, int] = OrderedDict()

    def record_edit(self, path: str, version: StatKey | None) -> None:
        """This task's write or patch left *path* at *version* (None: unknown, forget it)."""
        self._versions.pop(path, None)
        if version is not None:
            self._versions[path] = version
            while len(self._versions) > VERSIONS_CAP:
                self._versions.popitem(last=False)

    def edited_version(self, path: str) -> StatKey | None:
        """The version this task's last edit left *path* at, or None if it never edited it."""
        return self._versions.get(path)

    def count_miss(self, path: str) -> int:
        """Counts one more "Could not find" for *path* and returns the count in a row."""
        count = self._misses.pop(path, 0) + 1
        self._misses[path] = count
        while len(self._misses) > MISS_PATHS_CAP:
            self._misses.popitem(last=False)
        return count

    def clear_misses(self, path: str) -> None:
        """A patch of *path* succeeded: its miss count starts again."""
        self._misses.pop(path, None)

    def __repr__(self) -> str:
        return f"EditTracker(versions={len(self._versions)}, misses={dict(self._misses)!r})"
