"""Per-task state of the file tools: the consecutive-call loop guard and the "not found" cache.

One :class:`TaskState` belongs to one :class:`~shellfree.engine.file_tools.FileTools`, so two
agent tasks never share counters (Hermes keeps the same data per ``task_id``, §6). read_file and
search_files share the one :class:`LoopGuard`: a read between two identical searches resets the
search count and vice versa (§5.2 step 2, §6.1). read_file's own memory (the "unchanged" stub,
the files seen in full that write_file asks about) is in :mod:`shellfree.engine.read_tracking`.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import Callable, Hashable

from shellfree.engine.read_tracking import (
    FullReadLedger,
    KnownCodePage,
    KnownCodePages,
    ReadDedup,
    ReadStamps,
    StatKey,
    canonical_path,
)
from shellfree.engine.text_decoding import CodePage
from shellfree.engine.write_tracking import EditTracker

__all__ = ["LoopGuard", "NegativeCache", "TaskState", "LOOP_WARN_AT", "LOOP_BLOCK_AT"]

LOOP_WARN_AT = 3
"""The call count (of one identical call in a row) that adds the loop ``_warning`` (§6.1, §6.2)."""

LOOP_BLOCK_AT = 4
"""From this count on, the identical call is refused with a ``BLOCKED`` error (§6.1, §6.2)."""

NEGATIVE_CACHE_TTL = 60.0
"""Seconds a "not found" answer is served again without looking (§6.4)."""

NEGATIVE_CACHE_CAP = 500
"""Entries kept per task; the oldest is evicted first (§6 intro, §6.4)."""


class LoopGuard:
    """Counts how many times in a row the same call key was seen.

    Keys are tuples whose first item names the tool (``"search"``, later ``"read"``), so one
    guard serves every tool that takes part (§6.1: search and read share ``last_key`` and
    ``consecutive``).
    """

    def __init__(self) -> None:
        self.last_key: Hashable | None = None
        self.consecutive = 0

    def record(self, key: Hashable) -> int:
        """Counts a call with *key* and returns how many times in a row it has now been made."""
        if key == self.last_key:
            self.consecutive += 1
        else:
            self.last_key = key
            self.consecutive = 1
        return self.consecutive

    def reset(self) -> None:
        """Forgets the last call (another tool ran in between)."""
        self.last_key = None
        self.consecutive = 0

    def __repr__(self) -> str:
        return f"LoopGuard(last_key={self.last_key!r}, consecutive={self.consecutive})"


class NegativeCache:
    """Remembers "not found" answers for :data:`NEGATIVE_CACHE_TTL` seconds (§6.4).

    An entry maps ``(op, resolved_path)`` to the exact JSON text returned last time. It is
    served only while younger than the TTL and while the path still does not exist. *clock* is
    injectable (monotonic seconds) so tests need not sleep.
    """

    def __init__(self, clock: Callable[[], float], ttl: float = NEGATIVE_CACHE_TTL,
                 cap: int = NEGATIVE_CACHE_CAP) -> None:
        self._clock = clock
        self._ttl = ttl
        self._cap = cap
        self._entries: OrderedDict[tuple[str, str], tuple[float, str]] = OrderedDict()

    def get(self, op: str, resolved: str) -> str | None:
        """The stored JSON text for ``(op, resolved)``, or None (expired entries are dropped)."""
        key = (op, resolved)
        entry = self._entries.get(key)
        if entry is None:
            return None
        stamp, text = entry
        # Hermes: the existence check runs outside the tracker lock; a path that appeared since
        # drops the entry so the next call looks again (§6.4).
        if self._clock() - stamp >= self._ttl or os.path.exists(resolved):
            self._entries.pop(key, None)
            return None
        return text

    def put(self, op: str, resolved: str, text: str) -> None:
        """Stores *text* as the answer for ``(op, resolved)``."""
        key = (op, resolved)
        self._entries.pop(key, None)
        self._entries[key] = (self._clock(), text)
        while len(self._entries) > self._cap:
            self._entries.popitem(last=False)

    def discard_path(self, resolved: str) -> None:
        """Drops every entry for *resolved* (write_file/patch call this, §6.3)."""
        for key in [k for k in self._entries if k[1] == resolved]:
            del self._entries[key]

    def clear(self) -> None:
        """Drops every entry (another tool ran)."""
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


class TaskState:
    """Everything one agent task's file tools remember between calls.

    *lock* serialises the bookkeeping when one task's tools are called from several threads;
    the searches themselves run outside it.
    """

    def __init__(self, clock: Callable[[], float]) -> None:
        self.lock = threading.Lock()
        self.loop_guard = LoopGuard()
        self.not_found = NegativeCache(clock)
        # read_file's memory (engine/read_tracking.py): the "unchanged" stub (§6.3) and the
        # files seen in full, which write_file's stale-overwrite blocker asks about (§3.5).
        self.read_dedup = ReadDedup()
        self.full_reads = FullReadLedger()
        self.read_stamps = ReadStamps()
        # The legacy code page each file was shown or written in, so its version is not
        # guessed again (engine/read_tracking.py).
        self.code_pages = KnownCodePages()
        # patch's memory (engine/write_tracking.py): consecutive misses per file (§4.2 step 7).
        self.edits = EditTracker()

    def notify_other_tool_call(self) -> None:
        """Hermes ``notify_other_tool_call``: a tool other than read_file/search_files ran, so the
        loop guard restarts and the "not found" answers are forgotten (§1.6, §6.1, §6.4, §7)."""
        with self.lock:
            self.loop_guard.reset()
            self.not_found.clear()
            self.read_dedup.clear_hits()  # §6.1: the dedup stub-hit counts restart too

    # -- read tracking, for write_file/patch (§3.5, §6.3) ---------------------------------------

    def record_full_read(self, resolved_path: str, stat_key: StatKey) -> None:
        """The task now knows the whole current content of *resolved_path*, at version
        *stat_key* (:func:`~shellfree.engine.read_tracking.stat_key` of the file). read_file
        records pages itself; write_file calls this after its own successful write."""
        with self.lock:
            self.full_reads.grant(canonical_path(resolved_path), stat_key)

    def has_seen_current(self, resolved_path: str, stat_key: StatKey) -> bool:
        """Whether the task has seen all of *resolved_path* at version *stat_key* — one
        unredacted, unclamped page showing the whole file, contiguous such pages of that
        version, or its own write (the stale-overwrite blocker's question, §3.5)."""
        with self.lock:
            return self.full_reads.has_seen(canonical_path(resolved_path), stat_key)

    def last_read_version(self, resolved_path: str) -> StatKey | None:
        """The version of *resolved_path* when the task last read any page of it (or last
        wrote it, see :meth:`record_read_version`), or None if it never did — the per-task
        drift check of the staleness warning and the stale-overwrite blocker (§3.5, §6.5)."""
        with self.lock:
            return self.read_stamps.get(canonical_path(resolved_path))

    def record_read_version(self, resolved_path: str, stat_key: StatKey) -> None:
        """Remember *stat_key* as the version the task last saw of *resolved_path*: read_file
        does this for every page it returns; write_file/patch after a successful edit, so the
        task's own consecutive edits do not look stale (§6.5)."""
        with self.lock:
            self.read_stamps.record(canonical_path(resolved_path), stat_key)

    def known_code_page(self, resolved_path: str) -> KnownCodePage | None:
        """The legacy code page the task last saw or wrote *resolved_path* in, with that
        version, or None."""
        with self.lock:
            return self.code_pages.get(canonical_path(resolved_path))

    def record_code_page(self, resolved_path: str, version: StatKey, form: CodePage) -> None:
        """The task was shown, or wrote, *resolved_path* in legacy code page *form* at
        *version*."""
        with self.lock:
            self.code_pages.record(canonical_path(resolved_path), version, form)

    def invalidate_path(self, resolved_path: str) -> None:
        """write_file/patch changed *resolved_path*: drop its dedup entries (every offset and
        limit) and its cached "not found" answers (§6.3, §6.4)."""
        real = canonical_path(resolved_path)
        with self.lock:
            self.read_dedup.forget_path(real)
            for spelling in {resolved_path, real}:
                self.not_found.discard_path(spelling)

    def reset_file_dedup(self) -> None:
        """Hermes ``reset_file_dedup``, called after context compression: the first identical
        read returns full content again (§6.3). Seen-in-full records stay; each is checked
        against the file's current version when asked."""
        with self.lock:
            self.read_dedup.new_generation()
