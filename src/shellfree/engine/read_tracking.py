"""What one task remembers about the files it has read: the dedup stub's versions and which
files it has seen in full.

:class:`ReadDedup` decides when an identical read_file call gets the "unchanged" stub instead
of the content again (§6.3). :class:`FullReadLedger` records which files the task has seen
completely, at which version, so write_file's stale-overwrite blocker (§3.5) can refuse to
overwrite a file the task never saw whole. :class:`KnownCodePages` remembers the legacy code
page the task was shown or wrote each file in, so every later read, patch and write of that
version uses it instead of guessing again. All hang off
:class:`~shellfree.engine.state.TaskState`; callers hold its lock.

A file's *version* is its :data:`StatKey` — ``(st_dev, st_ino, st_size, st_mtime_ns,
st_ctime_ns)`` — which changes on every write, rename-over or truncation (ctime moves even
when a writer restores the mtime). Hermes adds a sha256 digest to the version; shellfree does
not hash, so reading a 200 MB file page by page stays cheap.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Optional, Tuple

if TYPE_CHECKING:
    from shellfree.engine.text_decoding import CodePage

__all__ = [
    "CodePageLookup",
    "FullReadLedger",
    "KnownCodePage",
    "KnownCodePages",
    "ReadDedup",
    "ReadStamps",
    "StatKey",
    "canonical_path",
    "stat_key",
]

StatKey = Tuple[int, int, int, int, int]
"""``(st_dev, st_ino, st_size, st_mtime_ns, st_ctime_ns)`` of a file: its version."""

DEDUP_CAP = 1000
"""Entries kept per map (versions, served keys, stub hits); the oldest go first (§6)."""

LEDGER_CAP = 1000
"""Files whose read coverage is remembered per task (Hermes caps baselines at 1000, §3.5)."""

RANGES_CAP = 256
"""Separate line ranges remembered per file before its coverage is given up (§3.5)."""


def stat_key(info: os.stat_result) -> StatKey:
    """The version of the file *info* describes."""
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def canonical_path(path: str) -> str:
    """The key a file is remembered under: its absolute real path, so the read side and the
    write side agree however each spelled the path (symlinks, ``..``, relative)."""
    return os.path.realpath(path)


def _put(mapping: OrderedDict, key: object, value: object, cap: int) -> None:
    mapping.pop(key, None)
    mapping[key] = value
    while len(mapping) > cap:
        mapping.popitem(last=False)


DedupKey = Tuple[str, int, int]
"""``(canonical path, offset, limit)`` of a read_file call (§6.3)."""


class ReadDedup:
    """The "unchanged" stub's memory (§6.3).

    A real read stores the file's version under its dedup key and marks the key as served in
    the current generation. An identical read later gets the stub only while the version is
    unchanged and the key was served since the last :meth:`new_generation` (context
    compression). Stub hits are counted per key; the caller refuses the call from the second.
    """

    def __init__(self) -> None:
        self._versions: OrderedDict[DedupKey, StatKey] = OrderedDict()
        self._served: OrderedDict[DedupKey, None] = OrderedDict()
        self._hits: OrderedDict[DedupKey, int] = OrderedDict()

    def stub_hit(self, key: DedupKey, current: StatKey) -> int | None:
        """Counts a stub for *key* at version *current* and returns the stub hits so far, or
        None when the content must be read again (never served, or the file changed)."""
        if key not in self._served or self._versions.get(key) != current:
            return None
        hits = self._hits.get(key, 0) + 1
        _put(self._hits, key, hits, DEDUP_CAP)
        return hits

    def record(self, key: DedupKey, version: StatKey) -> None:
        """A real read served *key* at *version*: store it and restart its stub-hit count."""
        _put(self._versions, key, version, DEDUP_CAP)
        _put(self._served, key, None, DEDUP_CAP)
        self._hits.pop(key, None)

    def clear_hits(self) -> None:
        """Another tool ran: stub-hit counts restart (§6.1)."""
        self._hits.clear()

    def new_generation(self) -> None:
        """Context was compressed: the first identical read returns full content again; the
        stored versions are kept (§6.3 ``reset_file_dedup``)."""
        self._served.clear()
        self._hits.clear()

    def forget_path(self, path: str) -> None:
        """The file at canonical *path* was written: drop its entries for every offset/limit."""
        for mapping in (self._versions, self._served, self._hits):
            for key in [k for k in mapping if k[0] == path]:
                del mapping[key]


class ReadStamps:
    """The version of each file at the task's last read of any part of it (Hermes
    ``read_timestamps``): write_file/patch compare it with the file now to warn about, or
    refuse, edits made since (§3.5, §6.5)."""

    def __init__(self) -> None:
        self._versions: OrderedDict[str, StatKey] = OrderedDict()

    def record(self, path: str, version: StatKey) -> None:
        """The task read (or itself wrote) canonical *path* at *version*."""
        _put(self._versions, path, version, DEDUP_CAP)

    def get(self, path: str) -> StatKey | None:
        """The version of canonical *path* when the task last read it, or None if never."""
        return self._versions.get(path)


@dataclass(frozen=True, slots=True)
class KnownCodePage:
    """How a file used a legacy code page (*form*: its name, the whole file or its stray
    lines) at *version*."""

    version: StatKey
    form: CodePage

    def at(self, version: StatKey) -> CodePage | None:
        """The form, if the file is still at the version it was known at; else None."""
        return self.form if version == self.version else None


CodePageLookup = Callable[[str], Optional[KnownCodePage]]
"""What a task knows of a path's legacy code page (``TaskState.known_code_page``)."""


class KnownCodePages:
    """The legacy code page the task last saw or wrote each file in, with that version.

    A code page is a guess (charset-normalizer's, from the text), and the guess moves with the
    text: a cp1252 file whose ``au l`` a patch turns into ``ééK`` is guessed as mac_latin2,
    which shows ``naïve`` as ``naÔve`` and cannot store an ``ï``; an edit can also tip the
    balance between a file's stray lines and its UTF-8 ones. A version the task read or wrote
    is in a form it knows, so all four tools use that one for it; a file changed since is
    guessed afresh.
    """

    def __init__(self) -> None:
        self._known: OrderedDict[str, KnownCodePage] = OrderedDict()

    def record(self, path: str, version: StatKey, form: CodePage) -> None:
        """Canonical *path* was shown or written in code page *form* at *version*."""
        _put(self._known, path, KnownCodePage(version, form), DEDUP_CAP)

    def get(self, path: str) -> KnownCodePage | None:
        """What is known of canonical *path*'s code page, or None."""
        return self._known.get(path)

    def __len__(self) -> int:
        return len(self._known)


class _Coverage:
    """The line ranges of one file version seen in clean (unredacted, unclamped) pages."""

    __slots__ = ("version", "ranges", "last_line", "complete")

    def __init__(self, version: StatKey) -> None:
        self.version = version
        self.ranges: list[tuple[int, int]] = []
        self.last_line: int | None = None  # the file's last line, once a page reached it
        self.complete = False

    def add(self, first: int, last: int, reaches_end: bool) -> None:
        if reaches_end:
            self.last_line = last
        if last >= first:
            self.ranges = _merged(self.ranges + [(first, last)])
        if self.last_line is not None:
            self.complete = self.last_line == 0 or (
                bool(self.ranges) and self.ranges[0][0] <= 1
                and self.ranges[0][1] >= self.last_line)


def _merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for first, last in sorted(ranges):
        if out and first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


class FullReadLedger:
    """Which files the task has seen completely, and at which version (§3.5 baselines).

    Coverage is granted by one page showing the whole file, or by contiguous pages of the
    same version that together span line 1 to the last line. A redacted or line-clamped page
    revokes it (the task saw an altered view), and so does any page of a different version
    that does not itself show the whole file. :meth:`grant` records a version the task knows
    in full without reading it (its own write_file).
    """

    def __init__(self) -> None:
        self._files: OrderedDict[str, _Coverage] = OrderedDict()

    def record_page(self, path: str, version: StatKey, first: int, last: int,
                    reaches_end: bool) -> None:
        """A clean page showed lines *first*..*last* of canonical *path* at *version*;
        *reaches_end* says it ended at the file's last line (*last* is 0 for an empty file)."""
        coverage = self._files.get(path)
        if coverage is None or coverage.version != version:
            coverage = _Coverage(version)
        coverage.add(first, last, reaches_end)
        if len(coverage.ranges) > RANGES_CAP:
            self._files.pop(path, None)
            return
        _put(self._files, path, coverage, LEDGER_CAP)

    def grant(self, path: str, version: StatKey) -> None:
        """The task knows canonical *path* in full at *version*."""
        coverage = _Coverage(version)
        coverage.complete = True
        _put(self._files, path, coverage, LEDGER_CAP)

    def revoke(self, path: str) -> None:
        """The task's view of canonical *path* is no longer trustworthy."""
        self._files.pop(path, None)

    def has_seen(self, path: str, version: StatKey) -> bool:
        """Whether the task has seen all of canonical *path* at *version*."""
        coverage = self._files.get(path)
        return coverage is not None and coverage.complete and coverage.version == version

    def __len__(self) -> int:
        return len(self._files)
