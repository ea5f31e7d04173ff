"""Run one rg command line and hand back its raw output: the search boundary of the tools.

The tool flow builds rg argument lists (as Hermes builds its shell commands, §5.4/§5.5) and a
backend runs them. :class:`InProcessBackend` runs shellfree's own rg in this process and is the
default; :class:`RgBackend` runs a real ``rg`` binary and exists for parity runs. Both return an
:class:`RgRun`, and everything after this point is shared, so equal bytes give equal JSON.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, Sequence

from shellfree._lines import end_of_lines

if TYPE_CHECKING:
    from shellfree.search.tree_cache import TreeCache

__all__ = ["Backend", "InProcessBackend", "RgBackend", "RgRun", "make_backend"]

_READ_CHUNK = 1 << 16


@dataclass(frozen=True, slots=True)
class RgRun:
    """The raw outcome of one rg command line.

    *capped* says why stdout was cut although more followed (rg was then stopped, as
    ``| head -n`` stops it): ``"lines"`` (more than the requested number of lines, or records
    when they end with a NUL) or ``"bytes"`` (more than the requested number of bytes; only
    whole records are kept).
    *timed_out* means the deadline passed and stdout holds what was printed until then.
    """

    stdout: bytes
    stderr: bytes
    status: int
    timed_out: bool = False
    capped: str | None = None


class Backend(Protocol):
    """Something that runs an rg argument list (without the program name) in a directory.

    A backend may also have ``begin_search()``, which the file tools call before each search
    (a search_files call, whose zero-match probes are more runs of the same search)."""

    name: str

    def run(self, argv: Sequence[str], cwd: str, *, max_lines: int | None = None,
            max_bytes: int | None = None, timeout: float | None = None,
            record_end: bytes = b"\n") -> RgRun:
        """Runs ``rg ARGV`` with *cwd* as working directory; at most *max_lines* records and
        *max_bytes* bytes of stdout are kept (then ``capped``), and the run stops after
        *timeout* seconds. A record ends with *record_end*: a newline, or a NUL for a list of
        paths printed with ``--null`` (a file name may hold a newline)."""
        ...

    def version(self) -> tuple[int, ...] | None:
        """The rg version this backend behaves as, or None if it cannot tell."""
        ...


class _Stop(Exception):
    """Raised inside the in-process rg to stop it, like a closed pipe stops the real one."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _OutputCap:
    """Collects stdout up to *max_lines* records and *max_bytes* bytes; each record ends with
    *record_end*.

    The kept prefix depends only on the bytes, never on how they were chunked, so both backends
    cut identical output at the same place: the end of the *max_lines*-th record, or the last
    whole record within *max_bytes*, whichever comes first.
    """

    def __init__(self, max_lines: int | None, max_bytes: int | None,
                 record_end: bytes = b"\n") -> None:
        self._chunks: list[bytes] = []
        self._lines = 0
        self._size = 0
        self._max_lines = max_lines
        self._max_bytes = max_bytes
        self._end = record_end
        self.reason: str | None = None

    def add(self, data: bytes) -> bool:
        """Adds *data*; returns True (and stops collecting) once a cap is exceeded."""
        self._chunks.append(data)
        self._lines += data.count(self._end)
        self._size += len(data)
        over_lines = self._max_lines is not None and self._lines >= self._max_lines
        over_bytes = self._max_bytes is not None and self._size > self._max_bytes
        if not (over_lines or over_bytes):
            return False
        joined = b"".join(self._chunks)
        cuts = []
        if over_lines:
            line_cut = end_of_lines(joined, self._max_lines or 0, self._end)
            if line_cut < len(joined):
                cuts.append((line_cut, "lines"))
        if over_bytes:
            cuts.append((joined.rfind(self._end, 0, self._max_bytes) + 1, "bytes"))
        self._chunks = [joined]
        if not cuts:
            return False
        cut, self.reason = min(cuts)
        self._chunks = [joined[:cut]]
        return True

    def value(self) -> bytes:
        return b"".join(self._chunks)


class _CappedStdout(io.RawIOBase):
    """The in-process rg's stdout: an :class:`_OutputCap` that also stops rg at a deadline.

    EDGE CASE: the deadline is only checked when rg writes, so a search that prints nothing
    runs to its end; the per-file regex budget of the engine still bounds pathological
    patterns.
    """

    def __init__(self, cap: _OutputCap, deadline: float | None) -> None:
        super().__init__()
        self.cap = cap
        self._deadline = deadline

    def writable(self) -> bool:
        return True

    def write(self, data: bytes) -> int:  # type: ignore[override]
        if self.cap.add(bytes(data)):
            raise _Stop("capped")
        if self._deadline is not None and time.monotonic() > self._deadline:
            raise _Stop("timeout")
        return len(data)


class InProcessBackend:
    """shellfree's own rg (:func:`shellfree.rgcli.run.run`), run in this process.

    It never changes the process's working directory: relative paths are taken from *cwd*,
    and it never forks. *tree_cache* (a :class:`~shellfree.search.tree_cache.TreeCache`) keeps
    listings, ignore files and contents warm between runs; the output is the same without it.
    *processes* above 1 (with a tree cache) shares each search of a tree with
    ``processes - 1`` helper processes started once and kept, each with a tree cache of the same
    budgets for its share of the files (:mod:`shellfree.rgcli.pool`); the output is the same.
    ``processes=None`` (FileTools' default) decides by the tree: one process until a search
    reads more contents than the cache can keep (:data:`AUTO_POOL_UNKEPT` bytes over its
    budget: the next search would read them again) or, without a watch, reads or checks with a
    ``stat`` the contents of many files (:data:`AUTO_POOL_FILES`), then :data:`AUTO_PROCESSES`
    from the next search on — on POSIX, with two CPUs or more, a Python ``sys.executable``
    and a content budget; never otherwise.
    """

    name = "inprocess"

    def __init__(self, tree_cache: "TreeCache | None" = None, *,
                 processes: int | None = 1) -> None:
        if processes is not None and processes < 1:
            raise ValueError("processes must be 1 or more")
        if processes is not None and processes > 1 and tree_cache is None:
            raise ValueError("processes above 1 need a tree cache")
        self.tree_cache = tree_cache
        # Whether a search that left too much unkept, or checked many files, starts the pool
        # (processes=None). Without a content budget nothing is kept to share.
        self._auto = (processes is None and tree_cache is not None and tree_cache.pool is None
                      and tree_cache.content_budget > 0 and _auto_pool_possible())
        # For the rule of many files (_auto_start): what the last two searches checked, and
        # what the search under way has so far (its runs' largest count). The runs between two
        # begin_search calls are one search; with no such calls, each run is one.
        self._searches_checked: deque[int] = deque(maxlen=2)
        self._checking = 0
        self._marked = False
        self._counts_lock = threading.Lock()
        if processes is not None and processes > 1:
            self._start_pool(processes)

    def _start_pool(self, processes: int) -> None:
        from shellfree.rgcli.pool import SearchPool

        tree_cache = self.tree_cache
        assert tree_cache is not None
        if tree_cache.pool is not None:
            tree_cache.pool.close()
        # A cache with a clock of its own (tests: one ahead of the files' times) gives the
        # helpers' caches the same one, as an offset from the system clock.
        offset = tree_cache.clock() - time.time_ns()
        tree_cache.pool = SearchPool(
            processes - 1, tree_cache.content_budget, tree_cache.remembered_searches,
            watch=tree_cache.watching, clock_offset=offset if abs(offset) > 10**9 else 0,
        )

    def begin_search(self) -> None:
        """Mark the start of one of the caller's searches: its runs (search_files' zero-match
        probes are runs of the search that found nothing) count as one for the rule of many
        files (:meth:`_auto_start`). Without such marks, every run counts as a search."""
        with self._counts_lock:
            if self._marked:
                self._searches_checked.append(self._checking)
            self._marked = True
            self._checking = 0

    def _note_checked(self, runs_before: int) -> None:
        """Note the files the run that began after *runs_before* runs checked: none if it
        ended before its search began (a usage error, ``--version``), so that the count of the
        run before it is not taken twice."""
        tree_cache = self.tree_cache
        assert tree_cache is not None
        checked = tree_cache.files_checked if tree_cache.runs_begun != runs_before else 0
        with self._counts_lock:
            if self._marked:
                self._checking = max(self._checking, checked)
            else:
                self._searches_checked.append(checked)

    def _auto_start(self) -> None:
        """With processes=None: start the pool when the last run read more than the cache
        could keep, or (without a watch) the last two searches each read or stat-checked many
        files (it starts its helpers at this run). Once decided, never asked again.

        Two searches, not one: a single search of a large tree elsewhere must not give a
        small tree a helper for good (on a tree of 1,040 files a helper made new queries
        slower)."""
        tree_cache = self.tree_cache
        if tree_cache is None:
            return
        with self._counts_lock:
            counts = self._searches_checked
            many = len(counts) == 2 and min(counts) >= AUTO_POOL_FILES
        if tree_cache.unkept_bytes < AUTO_POOL_UNKEPT and (tree_cache.watching or not many):
            return
        with _AUTO_START_LOCK:
            if self._auto:
                self._auto = False
                if tree_cache.pool is None:
                    self._start_pool(AUTO_PROCESSES)
                    # The cache holds files of every share; this process searches its own
                    # from now on. Left to age out, the others' contents stay while its own
                    # are read in around them, and the heap never shrinks back: on the large
                    # corpus, four `return` searches peaked at 207 MB against 184 with them
                    # dropped here (178 with the pool from the first search). Dropped, its
                    # share is read again while the helper reads its own, cold; a tree that
                    # fits is dropped too, which costs that search little: the two shares are
                    # read at once. (Shares go by the path as walked, and a cached content's
                    # key is the path as opened: which share a key falls in is not known here.)
                    tree_cache.drop_contents()

    def run(self, argv: Sequence[str], cwd: str, *, max_lines: int | None = None,
            max_bytes: int | None = None, timeout: float | None = None,
            record_end: bytes = b"\n") -> RgRun:
        from shellfree.rgcli.run import run  # the engine loads only when a search runs

        auto = self._auto
        if auto:
            self._auto_start()
            runs_before = self.tree_cache.runs_begun  # type: ignore[union-attr]
        deadline = None if timeout is None else time.monotonic() + timeout
        cap = _OutputCap(max_lines, max_bytes, record_end)
        stdout = _CappedStdout(cap, deadline)
        stderr = io.BytesIO()
        args = [os.fsencode(a) for a in argv]
        try:
            status = run(args, stdout, stderr, None, cwd=cwd, cache=self.tree_cache)
        except _Stop as stop:
            if stop.reason == "timeout":
                return RgRun(cap.value(), stderr.getvalue(), 124, timed_out=True)
            return RgRun(cap.value(), stderr.getvalue(), 0, capped=cap.reason)
        finally:
            if auto:
                self._note_checked(runs_before)
        return RgRun(cap.value(), stderr.getvalue(), status)

    def version(self) -> tuple[int, ...] | None:
        return (15, 1, 0)  # shellfree rg follows ripgrep 15.1.0

    def __repr__(self) -> str:
        if self.tree_cache is None:
            return "InProcessBackend()"
        return f"InProcessBackend({self.tree_cache!r})"


AUTO_POOL_UNKEPT = 32 << 20
"""With ``processes=None``: the bytes one search must have read and been unable to keep in
the cache before later searches are shared with a helper process. Beyond the budget each new
query reads the rest again, and two processes split both those reads and the scans, and each
keeps a budget of contents (the README's *Helper processes*). A tree whose contents fit gets one
only by :data:`AUTO_POOL_FILES`."""

AUTO_POOL_FILES = 4000
"""With ``processes=None`` and a cache without a watch: the files whose contents each of two
searches in a row must have read, or checked with a ``stat`` before using the cached copy (a
system call or more each), before later searches are shared with a helper process, which
splits those calls and the scans. Measured (README, *Helper processes*; ``python -m
benchmarks.helper_split``), a new query with a helper against one in one process, call by call:
0.80-0.99 of the time on the 4,840-file medium corpus, 0.77-1.12 on 3,233 files of it,
1.01-1.18 (slower) on 1,040. A watched cache makes no calls for the files it holds, and there a
helper made the medium corpus's new queries slower."""

# One lock for every backend: two backends may share a tree cache, which gets one pool.
_AUTO_START_LOCK = threading.Lock()

AUTO_PROCESSES = 2
"""The processes in all (the host's and one helper) when the pool starts by itself: what
was measured (two CPUs here); more can be asked for with ``search_processes``."""


def _auto_pool_possible() -> bool:
    """Whether a pool may start by itself: a POSIX host (the pool also runs on Windows, but
    it has only been run there emulated, so there it stays opt-in) whose ``sys.executable``
    is a Python interpreter, with two CPUs or more."""
    if os.name != "posix" or not _runs_python(sys.executable):
        return False
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # macOS has no affinity call
        cpus = os.cpu_count() or 1
    return cpus >= 2


def _runs_python(executable: str | None) -> bool:
    """Whether *executable* can be taken for a Python interpreter that runs ``-m
    shellfree...``. A frozen program's (``sys.frozen``) or an embedding host's
    ``sys.executable`` is that program itself: started in a helper's place it may run on, and
    the search would wait for its answer. Asked for by ``search_processes``, the pool trusts
    ``sys.executable`` (and gives up on a helper that ends at once); by itself it starts one
    only for a program named like an interpreter (``python3.11``, ``pypy3``)."""
    if not executable or getattr(sys, "frozen", False):
        return False
    return os.path.basename(executable).lower().startswith(("python", "pypy"))


_VERSION_LINE = re.compile(rb"^ripgrep (\d+)\.(\d+)\.(\d+)")


class RgBackend:
    """A real ``rg`` subprocess, for parity runs: same argument lists, same pipeline after.

    *rg_path* defaults to ``rg`` on ``PATH``. The child gets ``stdin=/dev/null``, the tree root
    as working directory and the environment without ``RIPGREP_CONFIG_PATH`` (so a user's rg
    config cannot change the flags the contract fixes).
    """

    name = "rg"

    def __init__(self, rg_path: str | None = None) -> None:
        path = rg_path or shutil.which("rg")
        if not path:
            raise FileNotFoundError("backend='rg' needs an rg binary: none found on PATH")
        self.rg_path = path
        self._version: tuple[int, ...] | None = None

    def __repr__(self) -> str:
        return f"RgBackend(rg_path={self.rg_path!r})"

    def version(self) -> tuple[int, ...] | None:
        if self._version is None:
            proc = subprocess.run([self.rg_path, "--version"], stdin=subprocess.DEVNULL,
                                  capture_output=True, timeout=60, check=False)
            found = _VERSION_LINE.match(proc.stdout)
            self._version = tuple(int(g) for g in found.groups()) if found else ()
        return self._version or None

    def run(self, argv: Sequence[str], cwd: str, *, max_lines: int | None = None,
            max_bytes: int | None = None, timeout: float | None = None,
            record_end: bytes = b"\n") -> RgRun:
        # stderr goes to a file so a chatty rg can never block on a full pipe while we read.
        with tempfile.TemporaryFile() as err:
            proc = subprocess.Popen(
                [self.rg_path, *argv], cwd=cwd, stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=err, env=_child_env(),
            )
            expired = threading.Event()

            def kill_late() -> None:
                expired.set()
                proc.kill()

            timer = threading.Timer(timeout, kill_late) if timeout is not None else None
            if timer is not None:
                timer.start()
            try:
                cap = _OutputCap(max_lines, max_bytes, record_end)
                _read_capped(proc, cap)
                status = proc.wait()
            finally:
                if timer is not None:
                    timer.cancel()
            err.seek(0)
            stderr = err.read()
        if cap.reason is not None:
            return RgRun(cap.value(), stderr, 0, capped=cap.reason)
        if expired.is_set():
            return RgRun(cap.value(), stderr, 124, timed_out=True)
        return RgRun(cap.value(), stderr, status)


def _child_env() -> dict[str, str]:
    # Read at each run, like the in-process engine reads $HOME for global git excludes.
    return {k: v for k, v in os.environ.items() if k != "RIPGREP_CONFIG_PATH"}


def _read_capped(proc: subprocess.Popen, cap: _OutputCap) -> None:
    """Reads the child's stdout into *cap* to the end, or kills the child once *cap* is full."""
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    try:
        while True:
            chunk = os.read(fd, _READ_CHUNK)
            if not chunk:
                return
            if cap.add(chunk):
                proc.kill()
                return
    finally:
        proc.stdout.close()


def make_backend(backend: str | Backend, rg_path: str | None = None,
                 tree_cache: "TreeCache | None" = None, processes: int | None = 1) -> Backend:
    """The backend named *backend* (``"inprocess"`` or ``"rg"``), or *backend* itself;
    *tree_cache* and *processes* go to a new in-process backend."""
    if not isinstance(backend, str):
        return backend
    if backend == "inprocess":
        return InProcessBackend(tree_cache, processes=processes)
    if backend == "rg":
        return RgBackend(rg_path)
    raise ValueError(f"unknown backend {backend!r}; expected 'inprocess' or 'rg'")
