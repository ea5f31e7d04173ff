"""Write a file's new bytes so that, whatever happens, the file holds either the old or the new bytes.

:func:`atomic_write` writes a temp file in the target's own directory (so the final rename never
crosses filesystems), flushes and fsyncs it, gives it the target's permission bits and swaps it
in with ``os.replace``, then reads the result back and compares its sha256. A symlink's target is
edited and the link stays (Hermes §3.4 step 11). Every failure before the swap removes the temp
file and leaves the original untouched.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import stat
import sys
import time
from dataclasses import dataclass

from shellfree.engine import messages
from shellfree.engine.read_tracking import StatKey, stat_key
from shellfree.engine.regular_file import open_regular, special_kind

__all__ = ["AtomicWriteError", "WrittenFile", "atomic_write", "sha256_of_file", "temp_name"]

TEMP_SUFFIX = ".shellfree-tmp"
"""Every temp file shellfree creates ends with this, so a leftover is easy to recognise."""

_OPEN_FLAGS = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOINHERIT", 0))

_REPLACE_RETRIES = 20
"""Windows: os.replace fails while another program has the target open without
FILE_SHARE_DELETE (an editor, a virus scanner); it usually lets go within a second."""


class AtomicWriteError(OSError):
    """The temp file could not be created, written or swapped in; the target is unchanged.
    ``str()`` is the reason alone (the underlying ``OSError`` is the ``__cause__``)."""


@dataclass(frozen=True, slots=True)
class WrittenFile:
    """What :func:`atomic_write` did: the real *target* path written, the *sha256* of the bytes
    meant to be there, *verified* (True: the file read back has that hash; False: it does not;
    None: it could not be read back), *version* (the file's stat key when the verified bytes
    were stable across the check, else None) and *stale_temps_removed* (temp files left by a
    writer that was killed, removed before this write)."""

    target: str
    sha256: str
    verified: bool | None
    version: StatKey | None = None
    stale_temps_removed: int = 0


def temp_name(target: str, unique: bool) -> str:
    """The temp file path for writing *target*.

    With *unique* False the name is the same for every write of *target*: the caller holds a
    lock that excludes every other writer of the file, even in other processes, so only one
    temp can be in flight, and a temp found there was left by a killed writer. That is what
    keeps temp files from piling up after crashes. Without such a lock (*unique* True) each
    write gets a random name and nothing is cleaned up.
    """
    directory, base = os.path.split(target)
    digest = hashlib.sha256(base.encode("utf-8", "surrogateescape")).hexdigest()[:8]
    stem = f".{base[:100]}.{digest}"
    if unique:
        stem += "." + secrets.token_hex(6)
    return os.path.join(directory, stem + TEMP_SUFFIX)


def sha256_of_file(path: str) -> str:
    """The sha256 hex digest of the file at *path*, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open_regular(path) as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_target(path: str) -> str:
    """The file a write of *path* changes: its real path, so a symlink (even a dangling one) has
    its target written and stays a link."""
    return os.path.realpath(path)


def atomic_write(path: str, data: bytes, *, exclusive: bool = True,
                 mode: int | None = None) -> WrittenFile:
    """Replaces the content of *path* (created with its parents if missing) by *data*.

    *exclusive* says the caller holds the cross-process lock for *path* (see :func:`temp_name`).
    *mode* forces the permission bits (restoring a deleted file); by default an existing file
    keeps its bits and a new one gets ``0o666`` minus the umask, as any new file would.
    Raises :class:`AtomicWriteError` (or the ``OSError`` of creating the parent directories);
    the target is then unchanged and no temp file remains.
    """
    target = write_target(path)
    directory = os.path.dirname(target)
    os.makedirs(directory, exist_ok=True)
    existing = _existing_stat(target)
    removed = _remove_leftover(target) if exclusive else 0
    temp = temp_name(target, unique=not exclusive)
    try:
        # 0o666 lets the OS apply the umask to a new file (mkstemp's 0o600 would not); an existing
        # file's bits are copied below, before anyone can see the temp under the target's name.
        fd = os.open(temp, _OPEN_FLAGS, 0o666)
    except OSError as error:
        raise AtomicWriteError(messages.ATOMIC_TEMP_FAILED) from error
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        bits = mode if mode is not None else (
            stat.S_IMODE(existing.st_mode) if existing is not None else None)
        if bits is not None:
            os.chmod(temp, bits)
        if existing is not None:
            _copy_owner(temp, existing)
        _replace(temp, target, existing)
    except BaseException as error:
        # BaseException: a KeyboardInterrupt mid-write must not leave the temp behind either.
        _unlink_quietly(temp)
        if isinstance(error, OSError) and not isinstance(error, AtomicWriteError):
            raise AtomicWriteError(str(error)) from error
        raise
    _fsync_directory(directory)
    expected = hashlib.sha256(data).hexdigest()
    verified, version = _verify(target, expected)
    return WrittenFile(target, expected, verified, version, removed)


def _verify(target: str, expected: str) -> tuple[bool | None, StatKey | None]:
    """Hashes the file back. The version is kept only when the file did not change while it
    was hashed, so a concurrent outside writer is never mistaken for this write."""
    try:
        before = stat_key(os.stat(target))
        verified = sha256_of_file(target) == expected
        after = stat_key(os.stat(target))
    except OSError:
        return None, None
    return verified, (after if verified and before == after else None)


def _existing_stat(target: str) -> os.stat_result | None:
    try:
        info = os.stat(target)
    except FileNotFoundError:
        return None
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(f"Is a directory: '{target}'")
    kind = special_kind(info.st_mode)
    if kind is not None:
        # Renaming over a FIFO or a device would destroy it (the tools refuse such a target
        # before this; the path may have changed since).
        raise AtomicWriteError(messages.WRITE_SPECIAL_TARGET.format(
            kind=messages.SPECIAL_FILE_KINDS[kind]))
    return info


def _remove_leftover(target: str) -> int:
    leftover = temp_name(target, unique=False)
    try:
        _unlink(leftover)
    except FileNotFoundError:
        return 0
    except OSError:
        return 0  # creating the temp will fail with a clear error
    return 1


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _copy_owner(temp: str, existing: os.stat_result) -> None:
    """Keeps the file's owner and group when the writer may set them (root editing a user's
    file); anyone else creates files they own, and trying would only fail."""
    chown = getattr(os, "chown", None)
    if chown is None:
        return
    if (existing.st_uid, existing.st_gid) == (os.getuid(), os.getgid()):
        return
    try:
        chown(temp, existing.st_uid, existing.st_gid)
    except OSError:
        pass


def _replace(temp: str, target: str, existing: os.stat_result | None) -> None:
    # Windows refuses to replace a file whose read-only attribute is set, where POSIX renames
    # over it: the attribute is cleared for the rename. The temp has the target's bits, so
    # the file is read-only again once replaced (and is put back so if the rename fails).
    kept_bits = None
    if sys.platform == "win32" and existing is not None and not existing.st_mode & stat.S_IWRITE:
        kept_bits = stat.S_IMODE(existing.st_mode)
        os.chmod(target, kept_bits | stat.S_IWRITE)
    try:
        for attempt in range(_REPLACE_RETRIES):
            try:
                os.replace(temp, target)
                return
            except PermissionError:
                if sys.platform != "win32" or attempt == _REPLACE_RETRIES - 1:
                    raise
                time.sleep(0.05)
    except BaseException:
        if kept_bits is not None:
            try:
                os.chmod(target, kept_bits)
            except OSError:
                pass
        raise


def _fsync_directory(directory: str) -> None:
    """Makes the rename itself durable (POSIX); Windows cannot open a directory this way."""
    if sys.platform == "win32":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _unlink(path: str) -> None:
    """``os.unlink``, which Windows refuses for a read-only file (a temp that took a read-only
    target's bits): its attribute is then cleared and the unlink tried again."""
    try:
        os.unlink(path)
    except PermissionError:
        if sys.platform != "win32":
            raise
        os.chmod(path, stat.S_IREAD | stat.S_IWRITE)
        os.unlink(path)


def _unlink_quietly(path: str) -> None:
    try:
        _unlink(path)
    except OSError:
        pass
