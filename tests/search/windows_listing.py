"""Directory listings as CPython presents them on Windows, over a real tree on any OS.

:func:`windows_listings` makes ``sys.platform`` ``"win32"``, wraps every ``os.scandir`` entry
in a :class:`WindowsEntry`, which answers what the Windows build of CPython answers for it, and
gives ``os.stat`` results the hidden attribute (``st_file_attributes``). A directory junction
is modelled by a real symlink to a directory: on Windows its entry is not ``is_symlink()`` but
``is_dir(follow_symlinks=False)``, and only its reparse tag tells it from a directory, while
``os.stat`` follows it as it follows the symlink here.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Collection, Iterator
from types import SimpleNamespace

import pytest

IO_REPARSE_TAG_MOUNT_POINT = 0xA0000003  # stat's constant exists on Windows builds only
IO_REPARSE_TAG_SYMLINK = 0xA000000C


class WindowsEntry:
    """A real ``os.DirEntry`` as CPython builds it on Windows (posixmodule.c,
    ``DirEntry_from_find_data``): ``stat(follow_symlinks=False)`` comes from the listing, with
    the reparse tag and the file attributes, and with ``st_ino`` and ``st_dev`` 0. A name in
    *junctions* is a junction; a name in *hidden* has ``FILE_ATTRIBUTE_HIDDEN``."""

    def __init__(self, entry: os.DirEntry, junctions: Collection, hidden: Collection) -> None:
        self._entry = entry
        self.name = entry.name
        self.path = entry.path
        self._junction = entry.name in junctions
        self._hidden = entry.name in hidden

    def is_symlink(self) -> bool:
        return not self._junction and self._entry.is_symlink()

    def is_dir(self, *, follow_symlinks: bool = True) -> bool:
        return self._junction or self._entry.is_dir(follow_symlinks=follow_symlinks)

    def is_file(self, *, follow_symlinks: bool = True) -> bool:
        return not self._junction and self._entry.is_file(follow_symlinks=follow_symlinks)

    def stat(self, *, follow_symlinks: bool = True):
        if follow_symlinks:
            return self._entry.stat()
        real = self._entry.stat(follow_symlinks=False)
        tag = 0
        attributes = stat.FILE_ATTRIBUTE_HIDDEN if self._hidden else 0
        if self._junction:
            tag = IO_REPARSE_TAG_MOUNT_POINT
            attributes |= stat.FILE_ATTRIBUTE_DIRECTORY | stat.FILE_ATTRIBUTE_REPARSE_POINT
        elif stat.S_ISLNK(real.st_mode):
            tag = IO_REPARSE_TAG_SYMLINK
            attributes |= stat.FILE_ATTRIBUTE_REPARSE_POINT
        elif stat.S_ISDIR(real.st_mode):
            attributes |= stat.FILE_ATTRIBUTE_DIRECTORY
        mode = stat.S_IFDIR | 0o777 if self._junction else real.st_mode
        return SimpleNamespace(
            st_mode=mode, st_ino=0, st_dev=0, st_nlink=0, st_size=real.st_size,
            st_mtime_ns=real.st_mtime_ns, st_reparse_tag=tag, st_file_attributes=attributes,
        )


@contextlib.contextmanager
def windows_listings(
    monkeypatch: pytest.MonkeyPatch, junctions: Collection = (), hidden: Collection = ()
) -> Iterator[None]:
    """Within the block, ``sys.platform`` is ``"win32"`` (``os.name`` stays: pathlib would make
    WindowsPath objects) and ``os.scandir`` yields :class:`WindowsEntry` objects; *junctions*
    and *hidden* hold entry names (bytes or str, as the walk lists them)."""
    real_scandir, real_stat = os.scandir, os.stat

    @contextlib.contextmanager
    def scandir(path):
        with real_scandir(path) as it:
            yield (WindowsEntry(entry, junctions, hidden) for entry in it)

    def stat_(path, *args, **kwargs):
        result = real_stat(path, *args, **kwargs)
        if isinstance(path, int) or not kwargs.get("follow_symlinks", True):
            return result
        fields = {name: getattr(result, name) for name in dir(result) if name.startswith("st_")}
        name = os.path.basename(os.path.realpath(path))  # the followed file's own attributes
        fields["st_file_attributes"] = stat.FILE_ATTRIBUTE_HIDDEN if name in hidden else 0
        fields["st_reparse_tag"] = 0
        return SimpleNamespace(**fields)

    with monkeypatch.context() as patch:
        patch.setattr(sys, "platform", "win32")
        patch.setattr(os, "scandir", scandir)
        patch.setattr(os, "stat", stat_)
        yield
