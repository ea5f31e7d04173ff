"""A directory's entries as the walk reads them: what the tree cache keeps of a listing."""

from __future__ import annotations

import os
import stat

__all__ = ["DIRECTORY", "FILE", "OTHER", "Listing", "is_windows_hidden", "is_windows_link"]

DIRECTORY = "directory"
FILE = "file"
OTHER = "other"
"""Entry kinds, from the directory entry itself (symlinks not followed): a symlink (on Windows
any link, a junction too: :func:`is_windows_link`), FIFO or device is OTHER. An entry whose
kind could not be read has the OSError instead."""

# IsReparseTagNameSurrogate (winnt.h): the reparse point stands for another file or directory.
_NAME_SURROGATE = 0x20000000


def is_windows_link(entry: os.DirEntry) -> bool:
    """Whether the Windows directory entry *entry* is a link to rg: a reparse point whose tag is
    a name surrogate (a symlink, a directory junction, a WSL symlink), as Rust's
    ``FileType::is_symlink`` decides on Windows. CPython's ``is_symlink()`` is true of symlinks
    only and ``is_dir(follow_symlinks=False)`` of a junction, which the walk would then enter
    without --follow, and even where it leads out of a confined root.

    Costs no system call on Windows: the entry's ``stat(follow_symlinks=False)`` (with its
    ``st_reparse_tag``) comes with the directory listing."""
    return entry.stat(follow_symlinks=False).st_reparse_tag & _NAME_SURROGATE != 0


def is_windows_hidden(entry: os.DirEntry, followed: os.stat_result | None = None) -> bool:
    """Whether the Windows directory entry *entry* has the hidden attribute, which makes it
    hidden to rg as a leading dot does (ripgrep #1154, #1847); *followed* is the ``os.stat`` of
    a link the walk follows, whose target's attributes count, as in rg (walkdir reads a
    followed link's metadata from its target). Costs no system call, as
    :func:`is_windows_link`."""
    st = followed if followed is not None else entry.stat(follow_symlinks=False)
    return st.st_file_attributes & stat.FILE_ATTRIBUTE_HIDDEN != 0


class Listing:
    """One directory's entries in walk order as (name, kind) pairs, their names, and what
    walkers derived from them.

    Pairs rather than ``os.DirEntry`` objects: a DirEntry keeps its full path and a cached
    ``stat`` that would go stale, and building a Python object per entry is a visible share
    of a cold walk. *derived* is free for the walker: a few (key, value) pairs computed from
    these entries alone, which live exactly as long as the listing stays valid.

    Entries and names are tuples of bytes and strings, which the cyclic garbage collector
    stops tracking after its first look (a list or a frozenset stays tracked): a full
    collection in the host process then visits one object per directory, not one per entry.

    *hidden* holds the names of the entries with Windows' hidden attribute (always empty
    elsewhere). Setting or clearing the attribute leaves the directory's ``stat`` as it was,
    so a cached listing shows such a change only once it is read again.
    """

    __slots__ = ("entries", "names", "hidden", "signature", "trusted", "watched", "derived")

    def __init__(
        self, entries: list[tuple], signature: tuple, trusted: bool, hidden: tuple = ()
    ) -> None:
        self.entries = tuple(entries)
        self.names = tuple([e[0] for e in entries])
        self.hidden = hidden
        self.signature = signature
        self.trusted = trusted
        self.watched = 0  # the watch epoch that vouches for it (0: none), set under the lock
        self.derived: tuple = ()
