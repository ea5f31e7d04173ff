"""Change notification for a :class:`~shellfree.search.tree_cache.TreeCache` (Linux inotify).

Without it, the cache vouches for each listing, ignore file and content with a ``stat`` per use:
on the 50,000-file benchmark tree that is 50,000 system calls and about half of a warm search.
With it, the kernel reports every change under a listed directory, and whatever no report
touched since it was read is served without a ``stat``: the watch replaces the signature check,
it does not weaken it.

What the kernel reports, per watched directory: entries created, deleted or renamed, files
written (``write``, truncate), and attribute changes (chmod, touch, link count). The cache
drops exactly the entries a report names (:meth:`TreeWatch.changes`); anything it cannot map to
entries (a queue overflow, a watched directory moved, deleted or given other permissions, a
search root that now names another directory) makes it distrust every watch-vouched entry
once, and validate each by ``stat`` again.

What the kernel does not report, so the cache must not rely on the watch for it:

- files on network and user-space file systems (NFS, SMB, 9p as in WSL's ``/mnt/c``, FUSE,
  virtiofs): a change made by another host or by the host OS never reaches this kernel's queue.
  Only directories on :data:`LOCAL_FILESYSTEMS` are watched (by the mount table's type for the
  directory's device);
- a change to a file through another hard link, in a directory that is not watched: a file
  that has more than one link when it is read is never vouched for by the watch (the cache
  checks ``st_nlink``), but a link made later is reported only to watches of the file itself,
  and the cache watches directories. A link made *in* a watched directory is reported there
  as a new name: one that has more than one link, or is gone already when the report is read,
  makes the cache distrust every watch-vouched entry once (:func:`_new_link`);
- writes through a shared writable memory map, which change pages but make no ``write`` call.
  No file tool writes that way; a program that does is noticed by the ``stat`` check only;
- a file system mounted over a watched directory below a search root (mounting needs root):
  the watch stays on the directory underneath.

Watches are a per-user kernel resource (``fs.inotify.max_user_watches``) that editors and
file-sync tools need too, so a watch takes at most a quarter of the limit; past it, directories
are simply not watched and their entries are checked by ``stat`` as before.
"""

from __future__ import annotations

import os
import stat
import sys

from shellfree.search.tree_cache import same_place

__all__ = ["LOCAL_FILESYSTEMS", "TreeWatch", "watch_unavailable"]

LOCAL_FILESYSTEMS = frozenset({
    "ext2", "ext3", "ext4", "xfs", "btrfs", "f2fs", "jfs", "reiserfs", "nilfs2", "bcachefs",
    "zfs", "tmpfs", "ramfs", "overlay",
})
"""File systems whose every change passes through this kernel (``overlay`` is a container's
root: its upper layer is one of the others)."""

# inotify(7) event bits, the same on every Linux architecture; not inotify_simple.flags, since
# this module is imported on every platform and the package is installed on Linux only.
IN_MODIFY = 0x00000002
IN_ATTRIB = 0x00000004
IN_CLOSE_WRITE = 0x00000008
IN_MOVED_FROM = 0x00000040
IN_MOVED_TO = 0x00000080
IN_CREATE = 0x00000100
IN_DELETE = 0x00000200
IN_DELETE_SELF = 0x00000400
IN_MOVE_SELF = 0x00000800
IN_UNMOUNT = 0x00002000
IN_Q_OVERFLOW = 0x00004000
IN_IGNORED = 0x00008000
IN_ONLYDIR = 0x01000000
IN_ISDIR = 0x40000000

_MASK = (IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE
         | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
_ENTRY_CHANGES = IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
"""A child's name appeared or went: the directory's listing is stale too."""
_SELF_CHANGES = IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT | IN_IGNORED

_LIMIT_SHARE = 4
"""A watch takes at most 1/_LIMIT_SHARE of the user's inotify watch limit."""


def watch_unavailable() -> str | None:
    """Why no :class:`TreeWatch` can be made here, or None when one can."""
    if not sys.platform.startswith("linux"):
        return "inotify is Linux-only"
    try:
        import inotify_simple  # noqa: F401
    except ImportError:
        return "the inotify_simple package is not installed"
    return None


class Changes:
    """What one :meth:`TreeWatch.changes` read: the (directory spelling, name, listing_too)
    of each entry that changed, and whether something beyond them did (*everything*)."""

    __slots__ = ("children", "everything")

    def __init__(self) -> None:
        self.children: list[tuple[bytes, bytes, bool]] = []
        self.everything = False


class TreeWatch:
    """inotify watches on directories, by the spellings a cache lists them under. Not
    thread-safe: the cache calls it under its lock.

    Raises OSError when no inotify instance can be made (the per-user instance limit) and
    ImportError where inotify is unavailable (see :func:`watch_unavailable`)."""

    def __init__(self, max_watches: int | None = None, mountinfo: str = "/proc/self/mountinfo") -> None:
        from inotify_simple import INotify

        self._inotify = INotify(nonblocking=True)
        # wd -> directory spellings: a tuple, which the cyclic garbage collector stops tracking
        # (a set per watched directory kept 16,835 objects tracked on the large benchmark tree).
        self._spellings: dict[int, tuple[bytes, ...]] = {}
        self._watched: dict[bytes, tuple[int, int, int]] = {}  # spelling -> (wd, ino, dev)
        # Spellings whose parent was not watched when they were added (a search's roots):
        # whether they still name the same directory is checked by a stat per run, since no
        # watch reports a change of a symlink or a rename above them.
        self._tops: set[bytes] = set()
        # Set when a spelling stopped being watched: what it vouched for below it is not
        # vouched for any longer, and the cache starts a new epoch.
        self.lost = False
        self.bound = False  # set by the one TreeCache it serves
        self._mountinfo = mountinfo
        self._local: dict[int, bool] | None = None  # st_dev -> on a LOCAL_FILESYSTEMS mount
        if max_watches is None:
            max_watches = _user_watch_limit() // _LIMIT_SHARE
        self.max_watches = max_watches

    def close(self) -> None:
        self._inotify.close()
        self._spellings.clear()
        self._watched.clear()
        self._tops.clear()

    def __len__(self) -> int:
        return len(self._spellings)

    def covers(self, directory: bytes) -> bool:
        """True when changes in *directory* (as spelled) are reported."""
        return directory in self._watched

    def add(self, directory: bytes, inode: int, device: int) -> bool:
        """Watch *directory*, which a ``stat`` just found to be *inode* on *device*; True when
        its changes are reported from now on. Call it before reading what the watch is to
        vouch for."""
        known = self._watched.get(directory)
        if known is not None:
            if known[1:] == (inode, device):
                return True
            self._forget(directory)  # the name now leads to another directory
        if not self._is_local(device) or len(self._spellings) >= self.max_watches:
            return False
        try:
            wd = self._inotify.add_watch(directory, _MASK)
        except OSError:
            return False  # gone meanwhile, no permission, or the user's limit reached
        names = self._spellings.get(wd, ())
        # The walker lists "root/./sub" and its files may be spelled "root/./sub/a" or
        # "root/sub/a", by whether the root was named: each spelling of the directory that a
        # file's key can start with is registered.
        plain = same_place(directory)
        for spelling in (directory, directory.rstrip(b"/") or directory, plain):
            if spelling not in names:
                names += (spelling,)
            self._watched[spelling] = (wd, inode, device)
        self._spellings[wd] = names
        if plain.rpartition(b"/")[0] not in self._watched:
            self._tops.add(directory)
        return True

    def tops_moved(self) -> bool:
        """Forget every top spelling (see ``_tops``) that no longer names the directory it
        named when watched, and what was watched below it; True if one did not."""
        moved = False
        for top in list(self._tops):
            known = self._watched.get(top)
            try:
                st = os.stat(top)
            except OSError:
                st = None
            if known is None or st is None or known[1:] != (st.st_ino, st.st_dev):
                self._forget(top)
                moved = True
        return moved

    def changes(self) -> Changes:
        """Read every report queued so far (never blocks)."""
        found = Changes()
        while True:
            events = self._inotify.read(timeout=0)
            if not events:
                return found
            for wd, mask, _, name in events:
                self._note(found, wd, mask, name)

    def _note(self, found: Changes, wd: int, mask: int, name: str) -> None:
        if mask & IN_Q_OVERFLOW:
            found.everything = True  # reports were lost
            return
        spellings = self._spellings.get(wd)
        if spellings is None:
            return  # a watch already dropped (IN_IGNORED after our own removal)
        if mask & _SELF_CHANGES:
            # The directory itself went, moved (its spellings now name something else) or was
            # unmounted: what was read below it cannot be found by name.
            self._drop(wd)
            found.everything = True
            return
        if not name:
            # The directory's own attributes: whether it, and so anything below it, can be
            # listed or entered. (A subdirectory that went or moved reports it on its own
            # watch, above; one that was never listed has nothing cached below it.)
            found.everything = True
            return
        child = os.fsencode(name)
        listing_too = bool(mask & _ENTRY_CHANGES)
        for spelling in spellings:
            found.children.append((spelling, child, listing_too))
        if not listing_too:
            return
        if mask & (IN_CREATE | IN_MOVED_TO) and not mask & IN_ISDIR and _new_link(spellings[0], child):
            # A new name for a file that has others: a write through it is reported under it
            # alone, not under the names the cache read the file by (the kernel tells only the
            # file's own watches of its link count). Vouch for nothing read before.
            found.everything = True
        for spelling in spellings:
            # A name that came or went may be how a watched directory was reached (a search
            # path that is a symlink to it, re-pointed): it now leads elsewhere, though the
            # directory itself reports nothing.
            below = (spelling if spelling.endswith(b"/") else spelling + b"/") + child
            if below in self._watched:
                self._forget(below)

    def _drop(self, wd: int) -> None:
        """Stop watching *wd*, by every spelling, and whatever was watched below them: those
        spellings may now lead elsewhere, and no report says so."""
        for spelling in list(self._spellings.get(wd, ())):
            self._forget(spelling)

    def _forget(self, spelling: bytes) -> None:
        """Stop watching the directory named *spelling*, by every spelling, and every spelling
        below them."""
        self.lost = True
        known = self._watched.get(spelling)
        targets = set(self._spellings.get(known[0], ())) if known is not None else set()
        targets.add(spelling)
        belows = tuple(t if t.endswith(b"/") else t + b"/" for t in targets)
        for name in [name for name in self._watched if name in targets or name.startswith(belows)]:
            wd = self._watched.pop(name)[0]
            self._tops.discard(name)
            spellings = self._spellings.get(wd)
            if spellings is not None:
                spellings = tuple(s for s in spellings if s != name)
                if spellings:
                    self._spellings[wd] = spellings
                else:
                    del self._spellings[wd]
                    try:
                        self._inotify.rm_watch(wd)
                    except OSError:
                        pass  # the kernel removed it already (deleted, unmounted)

    def _is_local(self, device: int) -> bool:
        local = self._local
        if local is None:
            local = self._local = _local_devices(self._mountinfo)
        return local.get(device, False)


def _new_link(directory: bytes, name: bytes) -> bool:
    """Whether the non-directory just created or moved in as *name* may share its file with
    other names: it has more than one link, or it is gone already (a link made and removed
    between two searches may have been written through)."""
    try:
        st = os.lstat((directory if directory.endswith(b"/") else directory + b"/") + name)
    except OSError:
        return True
    return st.st_nlink > 1 and not stat.S_ISDIR(st.st_mode)


def _local_devices(mountinfo: str) -> dict[int, bool]:
    """st_dev -> whether a mount of that device has a type in LOCAL_FILESYSTEMS, from the
    mount table (proc(5): the third field is major:minor, the type follows the " - ")."""
    devices: dict[int, bool] = {}
    try:
        with open(mountinfo, encoding="utf-8", errors="surrogateescape") as table:
            lines = table.read().splitlines()
    except OSError:
        return devices
    for line in lines:
        fields, _, rest = line.partition(" - ")
        parts = fields.split()
        if len(parts) < 3 or not rest:
            continue
        major, _, minor = parts[2].partition(":")
        try:
            device = os.makedev(int(major), int(minor))
        except ValueError:
            continue
        local = rest.split()[0] in LOCAL_FILESYSTEMS
        # A device mounted twice with different types cannot happen; stay safe if it does.
        devices[device] = devices.get(device, True) and local
    return devices


def _user_watch_limit() -> int:
    try:
        with open("/proc/sys/fs/inotify/max_user_watches", encoding="ascii") as limit:
            return int(limit.read())
    except (OSError, ValueError):
        return 8192  # the kernel's old default
