"""A warm cache of one directory tree, shared by the searches of a long-lived caller.

A command-line rg pays for the whole tree on every run: list every directory, compile every
ignore file, open and read every file. An agent's file tools search the same tree again and
again, so :class:`TreeCache` keeps three things between runs and revalidates each one before
every use, so that a run served from the cache prints exactly what a fresh run would:

- **directory listings** (names and entry types), keyed by directory path and validated by the
  directory's own ``stat``: adding, removing or renaming an entry changes its mtime;
- **compiled ignore files**, keyed by path and validated by the ignore file's own ``stat``:
  editing a ``.gitignore`` in place does not touch its directory;
- **file contents**, within a byte budget, keyed by path and validated by the file's ``stat``;
- **what a search printed for each file** (its outcome), for the last
  :data:`REMEMBERED_SEARCHES` distinct searches, keyed by path and validated by the ``stat`` of
  the content the outcome was computed from: repeating a search on an unchanged tree costs one
  ``stat`` per file and no read, and after an edit only the edited files are searched again;
- **what a walk yielded** for the last :data:`REMEMBERED_WALKS` walk configurations and roots,
  with the listings and ignore state it was derived from: the walker checks those are still
  the cache's (one lookup per directory) and replays the files instead of deriving them again
  (walk.py, ``Walker._replayable``).

A ``stat`` signature is (size, mtime, ctime, inode, device, mode); ctime and mode catch a
permission change, which the mtime does not show and which would make a fresh run fail to read.
Timestamps are coarse, so two writes within one tick can leave the same signature. The racy
rule (git's "racily clean" entries) closes that hole: an entry whose mtime or ctime lies within
:data:`RACY_NS` of the moment it was read is not trusted on its next use and is read again.
Being wrong costs a re-read; nothing stale is served.

With ``watch=True`` (Linux; see tree_watch.py) the kernel reports changes under every listed
directory, and an entry no report has touched since it was read is used without its ``stat``.
Each run starts by reading the reports (:meth:`TreeCache.begin_run`) and dropping what they
name; a report that names no entry (a lost queue, a moved directory) sends every entry back to
the ``stat`` check once. Entries are stamped with the *epoch* they were vouched in; such a
report starts a new one. A forked child gives the watch up (its reads would empty the queue its
parent shares) and goes on with ``stat`` checks.

Contents beyond the budget are evicted by size and age. A newcomer first displaces what neither
this run nor the one before it used, least recently used first; then the largest cached file,
if that is larger than the newcomer. Over a tree larger than the budget, the cache so settles on
its smallest files: re-reading a file costs four system calls whatever its size, so small files
save the most per cached byte (the 50,000-file benchmark tree has 75 % of its files in its
smallest 64 MiB). No file is displaced by one of its own size or larger, so a search that
cycles over the same files keeps hitting the same ones (plain LRU would never hit).

Thread-safe: one lock guards the tables; the file system is touched outside it.
"""

from __future__ import annotations

import heapq
import operator
import os
import stat as stat_module
import struct
import sys
import threading
import time
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable
from functools import partial
from itertools import compress

from shellfree.search.file_read import read_whole
from shellfree.search.ignore_files import LoadedRules, load_rule_file
from shellfree.search.listing import (
    DIRECTORY, FILE, OTHER, Listing, is_windows_hidden, is_windows_link,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see shellfree/__init__.py)
if TYPE_CHECKING:
    from shellfree.search.tree_watch import TreeWatch

__all__ = [
    "DEFAULT_CONTENT_BUDGET", "OUTCOME_BYTES", "RACY_NS", "REMEMBERED_SEARCHES",
    "REMEMBERED_WALKS", "TreeCache", "same_place",
]

DEFAULT_CONTENT_BUDGET = 64 << 20
"""Bytes of file contents a cache keeps by default."""

RACY_NS = 2_000_000_000
"""How close to the moment of reading an mtime or ctime makes an entry untrusted. Two seconds
covers the coarsest common timestamps (FAT's 2 s) and a kernel clock that lags the wall clock
by a tick, so it is not measured per file system."""

REMEMBERED_SEARCHES = 4
"""How many distinct searches' per-file outcomes are kept (the least recently run goes first).
A table costs about 150 bytes per file searched, for files beyond the content budget too, plus
what it keeps of the printed output (at most :data:`OUTCOME_BYTES`)."""

REMEMBERED_WALKS = 4
"""How many walks (one per walk configuration and root: the file tools run a few, differing in
-g globs) are kept for replay. One costs about 8 bytes per file and 100 per directory (2 MB for
the 50,000-file benchmark tree), and keeps the listings it was derived from alive until it is
replaced."""

OUTCOME_BYTES = 16 << 20
"""Printed output one remembered search keeps at most: past it, the outcomes of files that
print something are not kept (a search for a common word prints tens of megabytes), so
repeating the search searches those files again and still skips the rest."""

ENTRY_OVERHEAD = 256
"""Bytes charged per cached file on top of its length (key, record, table slot), so a tree of
many tiny files is bounded by the budget too."""

_by_name = operator.itemgetter(0)


_PACKED_SIGNATURE = struct.Struct("<QqqQQI")


def _signature(st: os.stat_result) -> bytes | tuple:
    """What must stay the same for a kept content or outcome to stand: size, mtime, ctime,
    inode, device and mode, packed into one bytes object of 77 bytes. As a tuple of six ints
    it took about 280, and the large tree's cache holds 50,000 of them. A value out of the
    packing's range (a 128-bit file ID on Windows ReFS, a time past 2262) keeps the tuple: a
    file gives the same form each time, and the two forms never compare equal."""
    try:
        return _PACKED_SIGNATURE.pack(
            st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev, st.st_mode)
    except struct.error:
        return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev, st.st_mode)


def _settled(st: os.stat_result, read_at: int) -> bool:
    """False when a change right after *read_at* could have left *st*'s timestamps unchanged."""
    return max(st.st_mtime_ns, st.st_ctime_ns) + RACY_NS <= read_at


def same_place(path: bytes) -> bytes:
    """*path* without ``.`` components and doubled separators: the walker spells a file below
    an implicit root ``root/./x``, a write names it ``root/x``. ``..`` is kept, since
    collapsing it is wrong across symlinks. Keys are stored as spelled (normalising every
    lookup would cost the warm path); only :meth:`TreeCache.forget` compares this way."""
    path = path.replace(os.sep.encode(), b"/")
    while b"/./" in path:
        path = path.replace(b"/./", b"/")
    while b"//" in path[1:]:
        path = path[:1] + path[1:].replace(b"//", b"/")
    if path.endswith(b"/."):
        path = path[:-1]
    return path.rstrip(b"/") or path[:1]


# A cached file's content: (data, signature, trusted, watched): watched is the watch epoch
# that vouches for it (0: none).
# A plain tuple of bytes, ints and a bool, which the cyclic garbage collector stops tracking
# after its first look (an object with slots stays tracked): a full collection in the host
# process then skips the 40,000 records of a large tree instead of visiting each and its data.
# The run that last used it is kept apart (TreeCache._last_used), so that using it makes no new
# record: a warm search of the large tree would otherwise make 37,000 of them, and the young
# generation's collections they set off cost it some 15 ms (26 -> 11 ms of collections).
_Content = tuple


_IS_HELD = partial(operator.is_not, None)
_SIGNATURE_OF = operator.itemgetter(0)
_SIZE_OF = operator.itemgetter(2)
"""Fields of an outcome table's entry: (signature, outcome, printed bytes, watch stamp)."""


def _cost(content: _Content) -> int:
    """What a cached content is charged against the budget."""
    return len(content[0]) + ENTRY_OVERHEAD


# _admit_below when any newcomer may find room.
_ADMIT_ALL = 1 << 62


def outcome_key(path: bytes, explicit: bool) -> bytes | tuple[bytes, bool]:
    """The key of a file's outcome in a search's table: a walked file's path itself (no
    tuple to make and keep per file), ``(path, True)`` for a file named as a root, which is
    searched differently (``rg x ./a .`` searches ``./a`` twice: named, and walked)."""
    return (path, True) if explicit else path


def _outcome_path(key: bytes | tuple[bytes, bool]) -> bytes:
    return key if type(key) is bytes else key[0]


class _OutcomeTable(dict):
    """One search's outcomes: :func:`outcome_key` -> (signature, outcome, printed bytes,
    watch stamp); ``printed`` sums the third field, against :data:`OUTCOME_BYTES`."""

    __slots__ = ("printed",)

    def __init__(self) -> None:
        super().__init__()
        self.printed = 0


class TreeCache:
    """Listings, ignore rules, (within *content_budget* bytes; 0 disables them) file
    contents and the per-file outcomes of the last *remembered_searches* searches (0 keeps
    none), reused across searches while their ``stat`` says they are unchanged.

    *watch* asks for change reports from the kernel instead of a ``stat`` per entry and use
    (see the module docstring); where none can be had (not Linux, inotify_simple missing, the
    instance limit reached) the cache works as without it, and :attr:`watch_unavailable` says
    why. :meth:`close` releases the watch (it is released with the cache otherwise).

    *clock* gives wall-clock nanoseconds, the time base of file timestamps (tests set it).
    """

    def __init__(
        self,
        content_budget: int = DEFAULT_CONTENT_BUDGET,
        *,
        remembered_searches: int = REMEMBERED_SEARCHES,
        watch: "bool | TreeWatch" = False,
        clock: Callable[[], int] = time.time_ns,
    ) -> None:
        if content_budget < 0:
            raise ValueError("content_budget must be 0 or more bytes")
        if remembered_searches < 0:
            raise ValueError("remembered_searches must be 0 or more")
        self.content_budget = content_budget
        self.remembered_searches = remembered_searches
        self._clock = clock
        self._lock = threading.Lock()
        self._listings: dict[tuple[bytes, bool], Listing] = {}
        self._rules: dict[tuple, tuple[tuple, bool, LoadedRules]] = {}
        self._contents: OrderedDict[bytes, _Content] = OrderedDict()
        self._content_bytes = 0
        # Bytes the current run read and could not keep within the budget (see unkept_bytes).
        self._unkept_bytes = 0
        # Files whose contents the current run read or checked with a stat (see files_checked).
        self._files_checked = 0
        self._changes = 0  # contents added, dropped or stamped anew so far (see used)
        # id(keys) -> (keys, (changes, epoch), contents, indices): see watched_contents.
        self._watched_lists: dict[int, tuple] = {}
        self._generation = 0
        # The run (generation) that last used each cached content; an int per key, so that
        # using a content changes no record (see _Content).
        self._last_used: dict[bytes, int] = {}
        # Max-heap (negated cost, key) of the cached contents; entries go stale lazily.
        self._by_size: list[tuple[int, bytes]] = []
        # A newcomer costing this much or more finds no room (until something is dropped).
        self._admit_below = _ADMIT_ALL
        # search key -> {file key: (signature, outcome)}, least recently used first.
        self._outcomes: OrderedDict[object, dict] = OrderedDict()
        self._rule_paths: set[bytes] = set()
        # walk key -> the walker's record of that walk (opaque here), least recently used first.
        self._walks: OrderedDict[object, object] = OrderedDict()
        # Entries stamped with this epoch are vouched for by the watch; a report that names
        # no entry starts the next. Reports that drop entries bump _reports, so that an entry
        # read while they were being applied is not stamped.
        self._epoch = 1
        self._reports = 0
        self._watch: TreeWatch | None = None
        self.watch_unavailable: str | None = None
        if watch is True:
            self._watch = self._start_watch()
        elif watch is not False:
            # A TreeWatch of the caller's (tests: its limits). One queue serves one cache: a
            # second reader would take reports the first one needs.
            if getattr(watch, "bound", False):
                raise ValueError("this TreeWatch already serves another TreeCache")
            self._watch = watch
        if self._watch is not None:
            self._watch.bound = True
            weakref.finalize(self, self._watch.close)
        # A forked child shares the watch's report queue with its parent: what it read would be
        # lost to the parent. The child drops the watch (see begin_run).
        self._watch_pid = os.getpid()
        # Helper processes that keep their own caches for a share of the files and search
        # them (rgcli/pool.py, set by InProcessBackend): forget and clear reach them too.
        self.pool = None

    def _start_watch(self) -> "TreeWatch | None":
        from shellfree.search.tree_watch import TreeWatch, watch_unavailable

        self.watch_unavailable = watch_unavailable()
        if self.watch_unavailable is not None:
            return None
        try:
            return TreeWatch()
        except (OSError, AttributeError) as err:  # AttributeError: a libc without inotify
            self.watch_unavailable = f"no inotify instance: {err}"
            return None

    @property
    def clock(self) -> Callable[[], int]:
        """The wall clock, in nanoseconds, that file timestamps are compared with."""
        return self._clock

    @property
    def watching(self) -> bool:
        """True when change reports vouch for entries (see the module docstring)."""
        return self._watch is not None

    def close(self) -> None:
        """Release the watch and stop the pool's helpers, if any; the cache goes on with
        ``stat`` checks (and a pool starts its helpers again at the next search)."""
        if self.pool is not None:
            self.pool.close()
        with self._lock:
            if self._watch is not None:
                self._watch.close()
                self._watch = None
                self._epoch += 1

    def __repr__(self) -> str:
        return (f"TreeCache(content_budget={self.content_budget}, listings={len(self._listings)},"
                f" contents={len(self._contents)}, content_bytes={self._content_bytes},"
                f" searches={len(self._outcomes)})")

    def state(self) -> dict:
        """Counts of what the cache holds, for tests and diagnostics."""
        with self._lock:
            return {
                "watching": self._watch is not None,
                "watched_directories": len(self._watch) if self._watch is not None else 0,
                "listings": len(self._listings),
                "contents": len(self._contents),
                "content_bytes": self._content_bytes,
                "searches": len(self._outcomes),
            }

    @property
    def content_bytes(self) -> int:
        """What the cached contents are charged against the budget."""
        return self._content_bytes

    @property
    def unkept_bytes(self) -> int:
        """The bytes of file contents the current (or last) run read and could not keep
        within the content budget, turned away or pushed out by what it read later: what its
        next run over the same files reads again. 0 when the tree's contents fit, or the budget
        is 0 (nothing is meant to be kept); files searched in pieces (rgcli/split_file.py,
        never kept whole) are not counted."""
        return self._unkept_bytes

    @property
    def runs_begun(self) -> int:
        """How many runs have begun (:meth:`begin_run`) on this cache."""
        return self._generation

    @property
    def files_checked(self) -> int:
        """About the files whose contents the current (or last) run read, or checked with a
        ``stat`` before using the cached copy: one system call or more per file, which a watch
        spares for the cached ones and a helper process would split (InProcessBackend,
        ``AUTO_POOL_FILES``). A file whose cached copy its ``stat`` rules out, or one found
        large and read again whole, counts twice; a named file searched in pieces not at all.
        One count serves the cache's runs: two at once count together (each from its start),
        and without the lock, so a few may be lost."""
        return self._files_checked

    def begin_run(self) -> None:
        """Mark the start of a search: entries neither it nor the previous run used become the
        first to go (see the module docstring). With a watch, apply the change reports queued
        since the last run: from here on, the run sees every change made before it began."""
        with self._lock:
            self._generation += 1
            self._unkept_bytes = 0
            self._files_checked = 0
            self._admit_below = _ADMIT_ALL  # what the last runs used may have aged out
            if self._watch is not None:
                if os.getpid() != self._watch_pid:
                    self._watch = None  # a forked child: stat checks, and the queue untouched
                    self._epoch += 1
                else:
                    self._apply_reports(self._watch)

    def _apply_reports(self, watch: "TreeWatch") -> None:
        """Drop what the watch reports changed. Lock held."""
        watch.tops_moved()
        changes = watch.changes()
        if changes.everything or watch.lost:
            self._epoch += 1
            watch.lost = False
        if not changes.children:
            return
        self._reports += 1
        listings, rules = self._listings, self._rules
        for directory, name, listing_too in changes.children:
            path = (directory if directory.endswith(b"/") else directory + b"/") + name
            if listing_too:
                listings.pop((directory, False), None)
                listings.pop((directory, True), None)
            self._drop_content(path)
            if path in self._rule_paths:
                for key in [k for k in rules if k[0] == path]:
                    del rules[key]
            for table in self._outcomes.values():
                for key in (outcome_key(path, False), outcome_key(path, True)):
                    kept = table.pop(key, None)
                    if kept is not None:
                        table.printed -= kept[2]

    def _watch_directory(self, watch: "TreeWatch | None", directory: bytes, inode: int, device: int) -> bool:
        """Have *watch* report the changes of *directory*; True if it does."""
        if watch is None:
            return False
        with self._lock:
            covered = watch.add(directory, inode, device)
            if watch.lost:  # a spelling now leads elsewhere: vouch for nothing read before
                self._epoch += 1
                watch.lost = False
        return covered

    def cover(self, directory: bytes, top: bytes) -> None:
        """Have the watch, if any, report the changes of *directory* and of the directories
        between it and *top* (an ancestor spelled as *directory* starts), as a walk from *top*
        would have listed them: a pool helper (rgcli/pool_helper.py) reads files it never
        walked to. Call it before reading a file of *directory*. Not under *top*, only
        *directory* is watched, and checked by a ``stat`` per run like a search root."""
        watch = self._watch
        if watch is None or watch.covers(directory):
            return
        chain = [directory]
        if directory.startswith(top) and directory[len(top):len(top) + 1] == b"/":
            parent = directory.rpartition(b"/")[0]
            while len(parent) >= len(top) and not watch.covers(parent):
                chain.append(parent)
                parent = parent.rpartition(b"/")[0]
        for spelling in reversed(chain):  # from the top down: only the top's parent is unwatched
            try:
                st = os.stat(spelling)
            except OSError:
                return  # reading the file will report it
            self._watch_directory(watch, spelling, st.st_ino, st.st_dev)

    # An entry is vouched for by the watch when the watch reported its directory's changes
    # before the entry was read (or stat-checked) and no report was applied between that moment
    # and the entry's store: one applied meanwhile may have dropped this very entry before it
    # was stored. A *vouch* is taken before the read, and turned into a stamp under the lock,
    # where no report is applied between the check and the store.
    def _vouch(self, directory: bytes) -> tuple[int, int] | None:
        """Taken before an entry of *directory* is read: None when the watch does not report
        the directory's changes."""
        watch = self._watch
        if watch is None or not watch.covers(directory):
            return None
        return self._epoch, self._reports

    def _vouch_entry(self, path: bytes) -> tuple[int, int] | None:
        """:meth:`_vouch` for the directory holding the file at *path* (nothing to split off
        when there is no watch: this runs once per file of every search)."""
        if self._watch is None:
            return None
        return self._vouch(path.rpartition(b"/")[0])

    def _stamp(self, vouch: tuple[int, int] | None) -> int:
        """The stamp an entry read after *vouch* was taken is stored with: the epoch, or 0.
        Lock held."""
        if vouch is None or vouch != (self._epoch, self._reports):
            return 0
        return vouch[0]

    # -- listings -----------------------------------------------------------------------------
    def listing(self, directory: bytes, sort_names: bool) -> Listing:
        """The entries of *directory* (sorted by name if *sort_names*); raises OSError as
        ``os.scandir`` would."""
        key = (directory, sort_names)
        cached = self._listings.get(key)
        if cached is not None and cached.watched == self._epoch:
            return cached
        watch = self._watch
        if watch is not None and cached is not None and cached.signature:
            # Watch first: a change after the stat below is then reported.
            self._watch_directory(watch, directory, cached.signature[3], cached.signature[4])
        vouch = self._vouch(directory)
        try:
            st = os.stat(directory)
        except OSError:
            st = None  # scandir below raises the error the walker reports
        if cached is not None and st is not None and cached.trusted \
                and _signature(st) == cached.signature:
            if vouch is not None:
                with self._lock:
                    if self._listings.get(key) is cached:
                        cached.watched = self._stamp(vouch)
            return cached
        # The watch may come after the stat: the listing is read after it, so a change after
        # the stat is either seen by scandir or reported.
        if st is not None and self._watch_directory(watch, directory, st.st_ino, st.st_dev):
            vouch = self._vouch(directory)
        # Any moment before the listing is read will do: a later change that keeps the mtime
        # seen above must come within RACY_NS of it, and then the listing is not trusted.
        read_at = self._clock()
        trusted = st is not None
        entries = []
        hidden = []
        windows = sys.platform == "win32"
        with os.scandir(directory) as it:
            for entry in it:
                try:
                    if windows and is_windows_link(entry):
                        kind: object = OTHER  # a junction too, which is_dir() calls a directory
                    elif entry.is_dir(follow_symlinks=False):
                        kind = DIRECTORY
                    elif entry.is_file(follow_symlinks=False):
                        kind = FILE
                    else:
                        kind = OTHER
                    if windows and is_windows_hidden(entry):
                        hidden.append(entry.name)
                except OSError as err:
                    # The type needed a stat, which failed: the walker reports it, and the
                    # next run looks again.
                    kind = err
                    trusted = False
                entries.append((entry.name, kind))
        if sort_names:
            entries.sort(key=_by_name)
        signature = _signature(st) if st is not None else ()
        settled = trusted and _settled(st, read_at)  # type: ignore[arg-type]
        listing = Listing(entries, signature, settled, tuple(hidden))
        with self._lock:
            listing.watched = self._stamp(vouch) if trusted else 0
            self._listings[key] = listing
        return listing

    # -- ignore files -------------------------------------------------------------------------
    def rules(
        self,
        path: bytes,
        *,
        case_insensitive: bool = False,
        report_io_errors: bool = False,
        display: bytes | None = None,
    ) -> LoadedRules:
        """:func:`load_rule_file`'s answer for these arguments, compiled once per version of
        the file."""
        key = (path, case_insensitive, report_io_errors, display)
        cached = self._rules.get(key)
        if cached is not None and cached[3] == self._epoch:
            return cached[2]
        vouch = self._vouch_entry(path)
        try:
            st = os.lstat(path)
            if stat_module.S_ISLNK(st.st_mode):
                # An ignore file that is a symlink changes where its target lives, which the
                # watch of this directory does not report: checked by a stat at every use.
                vouch = None
                st = os.stat(path)
        except OSError:
            st = None
        if st is None or not stat_module.S_ISREG(st.st_mode):
            # Missing or odd: the loader reports it (or not) as rg does; nothing to keep.
            return load_rule_file(path, case_insensitive=case_insensitive,
                                  report_io_errors=report_io_errors, display=display)
        signature = _signature(st)
        if st.st_nlink != 1:
            vouch = None  # see tree_watch.py: hard links
        if cached is not None and cached[1] and cached[0] == signature:
            if vouch is not None:
                with self._lock:
                    if self._rules.get(key) is cached:
                        self._rules[key] = cached[:3] + (self._stamp(vouch),)
            return cached[2]
        read_at = self._clock()
        loaded = load_rule_file(path, case_insensitive=case_insensitive,
                                report_io_errors=report_io_errors, display=display)
        # The stat came first: a file changed since carries a newer signature next time.
        with self._lock:
            self._rules[key] = (signature, _settled(st, read_at), loaded, self._stamp(vouch))
            self._rule_paths.add(path)
        return loaded

    # -- contents -----------------------------------------------------------------------------
    def read(self, path: bytes) -> bytes:
        """The bytes of the file at *path*, from the cache when its ``stat`` is unchanged (one
        ``stat``), else read with one ``read`` of its whole size. Raises OSError as opening or
        reading the file does."""
        return self.read_signed(path)[0]

    def read_signed(
        self,
        path: bytes,
        st: os.stat_result | None = None,
        enough: Callable[[bytes], bool] | None = None,
        large: Callable[[os.stat_result], bool] | None = None,
        walked: bool = False,
    ) -> tuple[bytes, tuple | None, tuple[int, int] | None]:
        """As :meth:`read`, with the signature that vouches for the bytes returned on a later
        ``stat`` (None when nothing can: a file read in pieces, or one whose timestamps had
        not settled when it was read) and the watch's vouch for them (None: none; give it to
        :meth:`remember`). *st* is a
        ``stat`` of *path* the caller just made; *enough*, *large* and *walked* are
        :func:`read_whole`'s (only a head of the file may come back, unsigned, or LargeFile be
        raised)."""
        key = path
        cached = self._contents.get(key) if self.content_budget else None
        if cached is not None and st is None and cached[3] == self._epoch:
            found = self.watched_content(key)
            if found is not None:
                return found
            cached = self._contents.get(key)  # dropped meanwhile by a report
        self._files_checked += 1
        if cached is not None:
            # Checked by a stat, and stamped afresh.
            data, signature, trusted, watched = cached
            vouch = self._vouch_entry(key)
            if st is None:
                try:
                    st = os.stat(path)
                except OSError:
                    st = None
            if st is not None and trusted and _signature(st) == signature:
                if st.st_nlink != 1:
                    vouch = None  # see tree_watch.py: hard links
                with self._lock:
                    if self._contents.get(key) is cached:
                        stamp = self._stamp(vouch)
                        if stamp != watched:
                            self._contents[key] = (data, signature, trusted, stamp)
                            self._changes += 1
                            self._watched_lists.clear()
                        self._last_used[key] = self._generation
                        self._contents.move_to_end(key)
                    else:
                        vouch = None  # dropped meanwhile by a report: what was read stands
                return data, signature, vouch
        # The directory's watch, if any, was added before this read: a change after it is
        # reported.
        vouch = self._vouch_entry(key)
        read_at = self._clock()
        data, st = read_whole(path, enough, large, walked)
        if st is None:
            return data, None, None
        signature = _signature(st)
        trusted = _settled(st, read_at)
        if st.st_nlink != 1:
            vouch = None  # see tree_watch.py: hard links
        if self.content_budget and not (
            (cached is not None or len(data) + ENTRY_OVERHEAD < self._admit_below)
            and self._keep(key, (data, signature, trusted), vouch)
        ):
            self._unkept_bytes += len(data)
        # Unsettled, it gets no signature even when watched: an outcome computed from it must
        # not be recalled by a stat check after the watch stops vouching (a new epoch).
        return data, (signature if trusted else None), vouch

    def watched_content(self, path: bytes) -> tuple[bytes, object, tuple[int, int]] | None:
        """:meth:`read_signed`'s answer for a file whose cached content the watch vouches for
        as of this run, so that no ``stat`` is needed; None for any other file (read it with
        :meth:`read_signed`). A content stamped in this epoch was read in a directory the watch
        covered, and the watch stops covering one only with a new epoch: the vouch is the
        current one (taken here, not by a lookup of the directory, which a warm search would
        make per file). ``_Search.lane`` calls it directly for a warm search's commonest file."""
        cached = self._contents.get(path)
        if cached is None or cached[3] != self._epoch:
            return None
        with self._lock:
            if self._contents.get(path) is not cached:
                return None  # dropped meanwhile by a report
            self._last_used[path] = self._generation
            self._contents.move_to_end(path)
        return cached[0], (cached[1] if cached[2] else None), (cached[3], self._reports)

    def checked_content(self, path: bytes) -> tuple[bytes, object, None] | None:
        """For a cache without a watch, :meth:`read_signed`'s answer for a file whose cached
        content its ``stat`` vouches for (content, signature, no vouch); None for any other file
        (read it with :meth:`read_signed`, which stats it again: a changed file is the rare
        case). ``_Search.lane`` calls it for each walked file of a new search."""
        cached = self._contents.get(path)
        if cached is None or not cached[2]:
            return None
        self._files_checked += 1
        try:
            st = os.stat(path)
        except OSError:
            return None
        if _signature(st) != cached[1]:
            return None
        with self._lock:
            if self._contents.get(path) is not cached:
                return None  # dropped or replaced meanwhile: read it again
            self._last_used[path] = self._generation
            self._contents.move_to_end(path)
        return cached[0], cached[1], None

    def checked_contents(self, keys: list) -> tuple[list, list[int], int]:
        """:meth:`checked_content` for many keys at once (None among them for no file): the
        cached content of each whose ``stat`` vouches for it, else None; the indices of those
        that are not None; and a token to give :meth:`used` with the ones used (which also
        notes each use, as :meth:`checked_content` does). One ``stat`` per cached file, and
        none of read_signed's per-file steps: over the benchmark's 5,000-file tree a new
        search for a rare literal spent about as long in those steps as in the ``stat``
        calls (README, *The same lane without the watch*)."""
        with self._lock:
            changes = self._changes
        stat = os.stat
        signature_of = _signature
        cached = list(map(self._contents.get, keys))
        at = []
        checks = 0
        for i, content in enumerate(cached):
            if content is None:
                continue
            if content[2]:
                checks += 1
                try:
                    if signature_of(stat(keys[i])) == content[1]:
                        at.append(i)
                        continue
                except OSError:
                    pass  # read_signed reports it as rg would
            cached[i] = None
        self._files_checked += checks
        return cached, at, changes

    def own_keys(self, keys: list) -> list:
        """*keys* (paths, and None) with each the cache holds a content for replaced by the key
        object it holds: a list of them kept for a while (rgcli/search.py keeps one per
        replayed walk) then costs no second copy of the paths of the cached files."""
        with self._lock:
            own = {key: key for key in self._contents}
        get = own.get
        return [get(key, key) for key in keys]

    def watched_contents(self, keys: list) -> tuple[list, list[int], tuple[int, int], int]:
        """:meth:`watched_content` for many keys at once (None among them for no file): the
        cached content of each that the watch vouches for as of this run, else None; the
        indices of those that are not None; the vouch for them all; and a token to give
        :meth:`used` with the ones used.

        The same two lists come back for the same *keys* while no content was added, dropped
        or stamped anew and the epoch is the same (a new query over an unchanged tree): the
        lookups are not made again. Dropping any content forgets them, so they never keep a
        dropped content alive."""
        with self._lock:
            vouch = (self._epoch, self._reports)
            changes = self._changes
            known = self._watched_lists.get(id(keys))
        if known is not None and known[0] is keys and known[1] == (changes, vouch[0]):
            return known[2], known[3], vouch, changes
        epoch = vouch[0]
        get = self._contents.get
        cached = [c if c is not None and c[3] == epoch else None for c in map(get, keys)]
        at = list(compress(range(len(cached)), map(_IS_HELD, cached)))
        with self._lock:
            if self._changes == changes:  # else a change raced the lookups: not kept
                self._watched_lists[id(keys)] = (keys, (changes, epoch), cached, at)
                while len(self._watched_lists) > REMEMBERED_WALKS:
                    del self._watched_lists[next(iter(self._watched_lists))]
        return cached, at, vouch, changes

    def used(self, keys: list, contents: list, token: int) -> list[int] | None:
        """Note that this run used the *contents* (from :meth:`watched_contents`, which gave
        *token*) of *keys*, as :meth:`watched_content` notes each use; None when all are still
        cached, else the indices of those dropped meanwhile (by a report, :meth:`forget` or
        to make room) or stamped anew, which vouch for nothing."""
        with self._lock:
            cached = self._contents
            gone = None
            if self._changes != token:  # else nothing changed since: no lookup per key
                same = list(map(operator.is_, map(cached.get, keys), contents))
                if not all(same):
                    gone = [i for i, kept in enumerate(same) if not kept]
                    keys = [key for key, kept in zip(keys, same) if kept]
            self._last_used.update(dict.fromkeys(keys, self._generation))
            deque(map(cached.move_to_end, keys), maxlen=0)
            return gone

    def read_elsewhere(self, path: bytes, read: Callable[[], object]) -> tuple[object, tuple | None]:
        """``read()``'s result, for a file at *path* that the caller reads its own way (a large
        file searched in pieces, never cached whole), with the signature that vouches for what
        it read as :meth:`read_signed` gives one: None unless the file's ``stat`` is the same
        before and after, and its timestamps had settled when the reading began."""
        read_at = self._clock()
        try:
            before = os.stat(path)
        except OSError:
            return read(), None
        result = read()
        try:
            after = os.stat(path)
        except OSError:
            return result, None
        signature = _signature(before)
        if _signature(after) != signature or not _settled(before, read_at):
            return result, None
        return result, signature

    # -- outcomes -----------------------------------------------------------------------------
    def outcomes(self, search: object) -> "_OutcomeTable | None":
        """The outcome table of the search identified by *search* (a hashable key holding
        everything besides a file's content that decides what the search prints for it): file
        key -> (signature, outcome); None when no search is remembered. Fill it with
        :meth:`remember`, read it with :meth:`recall`."""
        if not self.remembered_searches:
            return None
        with self._lock:
            table = self._outcomes.pop(search, None)
            if table is None:
                table = _OutcomeTable()
                while len(self._outcomes) >= self.remembered_searches:
                    self._outcomes.popitem(last=False)
            self._outcomes[search] = table
            return table

    def kept(self, table: dict, key: tuple) -> tuple[object | None, tuple[int, int] | None, bool]:
        """What *table* keeps for *key*: (the outcome, None, True) when the watch vouches that
        the file is unchanged since; else (None, a vouch to pass to :meth:`recall`, whether an
        outcome is kept at all). Call it before the ``stat`` that :meth:`recall` checks."""
        kept = table.get(key)
        if kept is None:
            return None, None, False
        if kept[3] == self._epoch:
            return kept[1], None, True
        return None, self._vouch_entry(_outcome_path(key)), True

    def recall(self, table: dict, key: tuple, st: os.stat_result,
               vouch: tuple[int, int] | None = None) -> object | None:
        """The outcome kept in *table* for *key* if the file's ``stat`` *st* still matches the
        content it was computed from; with *vouch* (from :meth:`kept`, taken before that
        ``stat``) the watch vouches for it from now on."""
        kept = table.get(key)
        if kept is None or kept[0] != _signature(st):
            return None
        if vouch is not None and st.st_nlink == 1:
            with self._lock:
                if table.get(key) is kept:
                    table[key] = kept[:3] + (self._stamp(vouch),)
        return kept[1]

    def vouch_now(self) -> tuple[int, int]:
        """The watch's vouch as of now, for :meth:`remember`."""
        return self._epoch, self._reports

    def remember(self, table: _OutcomeTable, entries: list, since: tuple[int, int]) -> None:
        """Keep, for each ``key, (signature, outcome, size, stamp)`` of *entries* (two items per
        file, flat) in order, *outcome* (which prints *size* bytes) for *key*, computed from
        content with *signature* (from :meth:`read_signed`; no signature keeps nothing and drops
        what was kept). An outcome that would take the table's printed bytes past
        :data:`OUTCOME_BYTES` is not kept.

        A search stores its outcomes at its end, under one lock. *since* is the
        :meth:`vouch_now` taken when the search began; *stamp* is its epoch where the watch's
        vouch for the content (from :meth:`read_signed`) was *since*, else 0. The outcome is
        vouched for by the watch only if no report has been applied since then either (the
        counters only grow); otherwise it is kept with stamp 0, for the ``stat`` check."""
        with self._lock:
            current = (self._epoch, self._reports) == since
            if current and not table:
                # A search new to the table (every file of a new query): its entries go in
                # as they are, without a Python turn per file (that loop cost the large tree
                # 36 ms per search), unless one is unsigned or they print too much.
                found = entries[1::2]
                if None not in map(_SIGNATURE_OF, found):
                    printed = sum(map(_SIZE_OF, found))
                    if printed <= OUTCOME_BYTES:
                        table.update(zip(entries[::2], found))
                        if len(table) < len(found):  # a file met twice: the last one stands
                            printed = sum(map(_SIZE_OF, table.values()))
                        table.printed = printed
                        return
            printed = table.printed
            items = iter(entries)
            for key, entry in zip(items, items):
                old = table.pop(key, None)
                if old is not None:
                    printed -= old[2]
                size = entry[2]
                if entry[0] is None or printed + size > OUTCOME_BYTES:
                    continue
                table[key] = entry if current or not entry[3] else entry[:3] + (0,)
                printed += size
            table.printed = printed

    def _keep(self, key: bytes, content: _Content, vouch: tuple[int, int] | None = None) -> bool:
        """Keep *content* (without its watch stamp: that is taken from *vouch* here, under the
        lock) if the budget allows; False if it does not."""
        cost = _cost(content)
        with self._lock:
            content = content + (self._stamp(vouch),)
            self._drop_content(key)
            if cost > self.content_budget or not self._make_room(cost):
                return False
            self._contents[key] = content
            self._changes += 1
            self._last_used[key] = self._generation
            self._content_bytes += cost
            heapq.heappush(self._by_size, (-cost, key))
            if len(self._by_size) > 2 * len(self._contents) + 1024:
                self._by_size = [(-_cost(c), k) for k, c in self._contents.items()]
                heapq.heapify(self._by_size)
        return True

    def _drop_content(self, key: bytes) -> None:
        """Drop the cached content of *key*, if any. Lock held."""
        content = self._contents.pop(key, None)
        if content is not None:
            self._changes += 1
            self._watched_lists.clear()
            self._content_bytes -= _cost(content)
            del self._last_used[key]

    def _make_room(self, cost: int) -> bool:
        """Evict until *cost* more bytes fit (see the module docstring); False, evicting
        nothing more, when only entries of *cost* or less are left to evict. Lock held."""
        contents = self._contents
        stale = self._generation - 1
        heap = self._by_size
        while self._content_bytes + cost > self.content_budget:
            oldest_key = next(iter(contents))
            if self._last_used[oldest_key] < stale:
                self._drop_content(oldest_key)
                continue
            while heap:
                negated, largest_key = heap[0]
                entry = contents.get(largest_key)
                if entry is not None and _cost(entry) == -negated:
                    break
                heapq.heappop(heap)  # evicted or re-kept since it was pushed
            if not heap or -heap[0][0] <= cost:
                self._admit_below = min(self._admit_below, cost)
                return False
            heapq.heappop(heap)
            if self._last_used[largest_key] == self._generation:
                # Read by this run and pushed out by it: the next run reads it again.
                self._unkept_bytes += len(contents[largest_key][0])
            self._drop_content(largest_key)
        return True

    # -- walks --------------------------------------------------------------------------------
    def recorded_walk(self, key: object) -> object | None:
        """The record :meth:`record_walk` kept under *key*, or None. The walker validates it
        against the current listings and ignore files before replaying it."""
        with self._lock:
            record = self._walks.get(key)
            if record is not None:
                self._walks.move_to_end(key)
            return record

    def record_walk(self, key: object, record: object) -> None:
        """Keep the walker's *record* of a complete walk under *key*."""
        with self._lock:
            self._walks[key] = record
            self._walks.move_to_end(key)
            while len(self._walks) > REMEMBERED_WALKS:
                self._walks.popitem(last=False)

    # -- invalidation -------------------------------------------------------------------------
    def forget(self, path: bytes | str) -> None:
        """Drop what is cached for the file or directory *path* and the listing of its parent
        (a write through the file tools calls this; validation would catch the change anyway,
        except within one timestamp tick, where the racy rule re-reads)."""
        if self.pool is not None:
            self.pool.forget(path)
        target = same_place(os.fsencode(path))
        parent = target.rpartition(b"/")[0] or b"/"
        name = target.rpartition(b"/")[2]
        # Only keys ending in the same name can be spellings of the file: a cheap first cut.
        with self._lock:
            self._admit_below = _ADMIT_ALL
            for key in [k for k in self._contents if k.endswith(name)]:
                if same_place(key) == target:
                    self._drop_content(key)
            parent_name = parent.rpartition(b"/")[2]
            for key in [k for k in self._listings if name in k[0] or parent_name in k[0]]:
                if same_place(key[0]) in (target, parent):
                    del self._listings[key]
            for key in [k for k in self._rules if k[0].endswith(name)]:
                if same_place(key[0]) == target:
                    del self._rules[key]
            for table in self._outcomes.values():
                for key in [k for k in table if _outcome_path(k).endswith(name)]:
                    if same_place(_outcome_path(key)) == target:
                        table.printed -= table.pop(key)[2]

    def forget_searches(self) -> None:
        """Forget the remembered outcomes of every search (the pool's helpers too): the next
        search of any query searches every file again, with listings, rules and contents kept
        (the speed benchmark's *new query* rows)."""
        if self.pool is not None:
            self.pool.forget_searches()
        with self._lock:
            self._outcomes.clear()

    def drop_contents(self) -> None:
        """Forget the cached contents (of this process; listings, rules, walks and outcomes
        stay)."""
        with self._lock:
            self._drop_contents()

    def _drop_contents(self) -> None:
        self._contents.clear()
        self._changes += 1
        self._watched_lists.clear()
        self._last_used.clear()
        self._by_size.clear()
        self._admit_below = _ADMIT_ALL
        self._content_bytes = 0

    def clear(self) -> None:
        """Forget everything."""
        if self.pool is not None:
            self.pool.clear()
        with self._lock:
            self._drop_contents()
            self._listings.clear()
            self._rules.clear()
            self._rule_paths.clear()
            self._outcomes.clear()
            self._walks.clear()
