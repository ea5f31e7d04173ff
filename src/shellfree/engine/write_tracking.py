"""What one task's patch tool remembers between calls: consecutive misses per file.

:class:`EditTracker` hangs off :class:`~shellfree.engine.state.TaskState` (as ``state.edits``)
and counts how many times in a row ``patch`` failed to find its text in each file, for the
escalating hint (§4.2 step 7). The versions a task last saw of each file (read or written) are
``TaskState.record_read_version`` / ``last_read_version``. Callers hold the task state's lock.
"""

from __future__ import annotations

from collections import OrderedDict

__all__ = ["EditTracker", "MISS_PATHS_CAP"]

MISS_PATHS_CAP = 64
"""Files whose consecutive patch misses are counted per task (Hermes: 64, oldest evicted)."""


class EditTracker:
    """Per-task count of consecutive "Could not find" patch failures, by real path."""

    def __init__(self) -> None:
        self._misses: OrderedDict[str, int] = OrderedDict()

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

    def __len__(self) -> int:
        return len(self._misses)

    def __repr__(self) -> str:
        return f"EditTracker(misses={dict(self._misses)!r})"
