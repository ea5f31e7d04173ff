"""A directory's entries as the walk reads them: what the tree cache keeps of a listing."""

from __future__ import annotations

__all__ = ["DIRECTORY", "FILE", "OTHER", "Listing"]

DIRECTORY = "directory"
FILE = "file"
OTHER = "other"
"""Entry kinds, from the directory entry itself (symlinks not followed): a symlink, FIFO or
device is OTHER. An entry whose kind could not be read has the OSError instead."""


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
    """

    __slots__ = ("entries", "names", "signature", "trusted", "watched", "derived")

    def __init__(self, entries: list[tuple], signature: tuple, trusted: bool) -> None:
        self.entries = tuple(entries)
        self.names = tuple([e[0] for e in entries])
        self.signature = signature
        self.trusted = trusted
        self.watched = 0  # the watch epoch that vouches for it (0: none), set under the lock
        self.derived: tuple = ()
