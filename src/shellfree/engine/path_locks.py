"""Per-path locks, so concurrent edits of one file run one after another and none is lost.

:func:`lock_paths` holds, for each real path, a thread lock from the process-wide registry
:data:`PATH_LOCKS` and, where the OS allows, an advisory lock on a sidecar file (one of
:data:`SIDECAR_STRIPES`) that other processes running shellfree honour too (``fcntl.flock``
on POSIX, ``msvcrt.locking`` on Windows). Several paths are always locked in sorted order, so
two multi-file patches cannot deadlock (Hermes §4.2 step 3, §10).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import threading
import time
from typing import Iterable, Iterator

__all__ = ["PATH_LOCKS", "SIDECAR_STRIPES", "PathLockRegistry", "lock_key", "lock_paths", "stripe_of"]


def lock_key(path: str) -> str:
    """The key one file is locked under: its real path, case-folded where the OS folds case."""
    return os.path.normcase(os.path.realpath(path))


class PathLockRegistry:
    """Thread locks keyed by :func:`lock_key`, created on demand and dropped when unused.

    An entry counts its holders and waiters; the last one out removes it, so editing many
    different files does not grow the registry.
    """

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[str, tuple[threading.Lock, int]] = {}

    def acquire(self, key: str) -> None:
        """Blocks until this thread holds the lock for *key*."""
        with self._guard:
            lock, users = self._locks.get(key, (None, 0))
            if lock is None:
                lock = threading.Lock()
            self._locks[key] = (lock, users + 1)
        lock.acquire()

    def release(self, key: str) -> None:
        """Releases the lock for *key* taken by :meth:`acquire`."""
        with self._guard:
            lock, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)
        lock.release()

    def __len__(self) -> int:
        return len(self._locks)


PATH_LOCKS = PathLockRegistry()
"""The one registry of the process: every ``FileTools`` (every task) locks through it, because
two tasks in one process editing the same file must serialise just like two threads of one."""


def _lock_directory() -> str | None:
    """Where sidecar lock files live: a per-user directory under the system temp directory."""
    uid = getattr(os, "getuid", lambda: None)()
    name = "shellfree-locks" if uid is None else f"shellfree-locks-{uid}"
    directory = os.path.join(tempfile.gettempdir(), name)
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return directory


SIDECAR_STRIPES = 1024
"""Sidecar lock files: a path locks stripe ``hash(real path) % SIDECAR_STRIPES``. Two files
sharing a stripe merely wait for each other across processes; the directory never holds more
than this many files however many paths are edited."""


# Why a sidecar file rather than a lock on the file itself: the edit replaces the target with
# os.replace, so a lock taken on the target's inode is left behind on the old inode and the next
# writer locks the new one without waiting; the target may not exist yet; and on Windows a byte
# lock on the target would make other programs' reads fail. The sidecar lives in the temp
# directory, named by a hash of the real path, so the user's tree gains no lock files. Sidecars
# are never deleted: unlinking one while another process waits on it would let a third process
# lock a fresh file and run concurrently.
def stripe_of(key: str) -> int:
    """The sidecar stripe a :func:`lock_key` locks."""
    digest = hashlib.sha256(key.encode("utf-8", "surrogateescape")).digest()
    return int.from_bytes(digest[:8], "big") % SIDECAR_STRIPES


def _sidecar_path(stripe: int) -> str | None:
    directory = _lock_directory()
    if directory is None:
        return None
    return os.path.join(directory, f"{stripe:04d}.lock")


class _ProcessLock:
    """An exclusive advisory lock on one sidecar file; a no-op where the OS offers none."""

    def __init__(self, stripe: int) -> None:
        self._fd: int | None = None
        self.locked = False
        path = _sidecar_path(stripe)
        if path is None:
            return
        try:
            self._fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
        except OSError:
            self._fd = None  # best effort: the thread lock still serialises this process

    def acquire(self) -> None:
        if self._fd is None:
            return
        try:
            import fcntl
        except ImportError:
            self._acquire_windows()
            return
        fcntl.flock(self._fd, fcntl.LOCK_EX)
        self.locked = True

    def _acquire_windows(self) -> None:
        try:
            import msvcrt
        except ImportError:
            return
        os.lseek(self._fd, 0, os.SEEK_SET)
        while True:
            try:
                # LK_LOCK itself retries for ~10 s before giving up; keep waiting after that.
                msvcrt.locking(self._fd, msvcrt.LK_LOCK, 1)
                self.locked = True
                return
            except OSError:
                time.sleep(0.05)

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            if not self.locked:
                return
            try:
                import fcntl

                fcntl.flock(self._fd, fcntl.LOCK_UN)
            except ImportError:
                import msvcrt

                os.lseek(self._fd, 0, os.SEEK_SET)
                msvcrt.locking(self._fd, msvcrt.LK_UNLCK, 1)
        except (ImportError, OSError):
            pass
        finally:
            os.close(self._fd)
            self._fd = None
            self.locked = False


@contextlib.contextmanager
def lock_paths(paths: Iterable[str]) -> Iterator[bool]:
    """Holds the locks of every path in *paths* (de-duplicated, in sorted order) for the block.

    Yields whether every lock also excludes other processes; callers that clean up after other
    writers (stale temp files) only do so when it does.

    Deadlock-free: every caller takes the thread locks in path order, then the sidecar stripes
    in stripe order (each stripe once, since one process locking a stripe twice would wait for
    itself).
    """
    keys = sorted(set(lock_key(p) for p in paths))
    held: list[str] = []
    stripes: list[_ProcessLock] = []
    try:
        for key in keys:
            PATH_LOCKS.acquire(key)
            held.append(key)
        for stripe in sorted(set(stripe_of(key) for key in keys)):
            process_lock = _ProcessLock(stripe)
            # Recorded before acquiring, so the finally clause runs for it even if acquiring
            # fails (releasing an unheld advisory lock is a no-op).
            stripes.append(process_lock)
            process_lock.acquire()
        yield all(lock.locked for lock in stripes)
    finally:
        for process_lock in reversed(stripes):
            process_lock.release()
        for key in reversed(held):
            PATH_LOCKS.release(key)
