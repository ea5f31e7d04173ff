"""Helper processes that share the searches of a long-lived tree cache.

Started when asked for (``FileTools(search_processes=N)``), or by ``InProcessBackend`` once a
tree outgrows the cache's content budget, or has many files and no watch (engine/backends.py,
``search_processes=None``).

``FileTools`` searches in its host's process, and must not fork it: the host may have threads
(see parallel.py for the command line's forked workers). One Python thread cannot search a
large tree as fast as rg's threads do, even warm (README, Performance: *Where issue 9's targets
stand*), and a fork per search pays copy-on-write faults on the whole cache. A pool instead
starts its helpers once, as fresh interpreters (``subprocess``, which is safe in a threaded
host and works on Windows), and keeps them: each holds its own tree cache for its share of the
files, so a helper's contents and remembered outcomes stay warm from one search to the next.

A search is shared by file: the owner walks (its cache keeps the walk warm), searches the files
whose path hashes to it, and streams every other file's path to the helper it hashes to
(``crc32``, stable across processes and runs, so a file always meets the same cache). A helper
opens the same search from the same command line (pool_helper.py) and sends back the files'
outcomes in the order it got them; the owner emits every outcome and walk message in walk
order, so the output is exactly the serial one. A helper that fails (it died, or its answer is
unreadable) is dropped and its files are searched by the owner.
"""

from __future__ import annotations

import marshal
import os
import queue
import struct
import subprocess
import sys
import threading
import weakref
import zlib
from collections import deque
from collections.abc import Callable, Iterator, Sequence

from shellfree.search.walk import Haystack, WalkMessage, Walker

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see shellfree/__init__.py)
if TYPE_CHECKING:
    from typing import BinaryIO

__all__ = ["SearchPool", "read_frame", "write_frame"]

_FRAME = struct.Struct("<Q")
# Paths go to a helper in batches of this many, so it starts before the walk ends.
_BATCH = 256
_HAND_ON = 32
# A file goes to the share its path's crc32 routes it to, by its low bits: the owner (0) takes
# fewer files than a helper, since it also walks and prints; the weight is from runs on the
# speed corpora (the README), where it left neither side waiting long for the other.
_ROUTE_MASK = 1023
_OWNER_WEIGHT = 0.8
# Helpers that failed in a row before the pool stops starting them (one that cannot start at
# all would otherwise cost a process start per search).
_MAX_FAILURES = 3
_HELPER_MODULE = "shellfree.rgcli.pool_helper"

#: Frame kinds (the first item of every frame).
(SETTINGS, SEARCH, PATHS, END, ABANDON, FORGET, FORGET_SEARCHES, CLEAR, RESULTS, FAILED,
 STATE) = range(11)


def write_frame(stream: BinaryIO, frame: tuple) -> None:
    """Write *frame* (plain values) to *stream*, length-prefixed: ``marshal`` is built in and
    ten times faster than ``pickle`` for the bytes, tuples and numbers sent here."""
    data = marshal.dumps(frame)
    stream.write(_FRAME.pack(len(data)) + data)
    stream.flush()


def read_frame(stream: BinaryIO) -> tuple | None:
    """The next frame from *stream*, or None at its end. Raises ValueError when the stream
    ends inside a frame or holds no frame."""
    head = stream.read(_FRAME.size)
    if not head:
        return None
    if len(head) != _FRAME.size:
        raise ValueError("truncated frame header")
    size = _FRAME.unpack(head)[0]
    data = stream.read(size)
    if len(data) != size:
        raise ValueError("truncated frame")
    frame = marshal.loads(data)
    if not isinstance(frame, tuple) or not frame:
        raise ValueError("not a frame")
    return frame


class _Helper:
    """One helper process, the pipes to it, and a thread that reads its answers as they come
    (a helper must never wait on a full pipe while the owner walks)."""

    def __init__(self, settings: tuple) -> None:
        if not sys.executable:
            # An embedding host may not know its interpreter; a wrong one (a frozen app's
            # own program) fails to answer, and the pool rests after _MAX_FAILURES of them.
            raise OSError("no Python interpreter to start a helper with (sys.executable)")
        env = dict(os.environ)
        # The helper imports shellfree from where this process did, installed or not.
        package_parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_parent, env.get("PYTHONPATH")]))
        self.process = subprocess.Popen(
            [sys.executable, "-m", _HELPER_MODULE],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        # Frames as read; None once the process's output ended or made no sense.
        self.answers: queue.SimpleQueue[tuple | None] = queue.SimpleQueue()
        threading.Thread(target=self._read, daemon=True).start()
        try:
            self.send((SETTINGS, *settings))
        except (OSError, ValueError):
            self.process.kill()
            self.stop()
            raise OSError("the helper process ended at its start") from None

    def _read(self) -> None:
        try:
            while True:
                frame = read_frame(self.process.stdout)
                self.answers.put(frame)
                if frame is None:
                    return
        except (OSError, ValueError, EOFError, TypeError):
            self.answers.put(None)

    def send(self, frame: tuple) -> None:
        write_frame(self.process.stdin, frame)

    def stop(self) -> None:
        """End the process: its input closed, then killed if it does not leave at once."""
        process = self.process
        try:
            process.stdin.close()
        except OSError:
            pass
        try:
            process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        try:
            process.stdout.close()
        except OSError:
            pass


_NOT_YET = object()


class _Share:
    """One search's files for one helper: sent in batches, answered batch by batch in order.
    Once the helper fails, the files it was given and had not answered are searched here."""

    __slots__ = ("pool", "index", "helper", "serial", "batch", "waiting", "ready", "local")

    def __init__(self, pool: "SearchPool", index: int, serial: int) -> None:
        self.pool = pool
        self.index = index
        self.helper = pool._helpers[index]
        self.serial = serial
        self.batch: list = []  # paths not sent yet (a named file as a 1-tuple)
        self.waiting: deque[list] = deque()  # batches sent and not answered
        self.ready: deque[tuple] = deque()  # outcomes answered and not taken
        self.local: deque = deque()  # paths to search here, the helper having failed

    def send(self, frame: tuple) -> None:
        if self.helper is None:
            return
        try:
            self.helper.send(frame)
        except (OSError, ValueError):
            self.fail()

    def add(self, path) -> None:
        self.batch.append(path)
        if len(self.batch) >= _BATCH:
            self.flush()

    def flush(self) -> None:
        if self.batch and self.helper is not None:
            batch, self.batch = self.batch, []
            self.waiting.append(batch)
            self.send((PATHS, self.serial, batch))

    def fail(self) -> None:
        """Drop the helper; what it was given and had not answered is searched here."""
        if self.helper is None:
            return
        self.pool.failures += 1
        self.pool._drop(self.index, self.helper)
        self.helper = None
        for batch in self.waiting:
            self.local.extend(batch)
        self.local.extend(self.batch)
        self.waiting.clear()
        self.batch = []

    def take(self, evaluate: Callable[[Haystack], tuple], block: bool):
        """The outcome of the next file given to this share, or _NOT_YET (only when not
        *block*ing) while the helper has not answered it."""
        while not self.ready:
            if self.helper is None:
                path = self.local.popleft()
                if path.__class__ is tuple:
                    return evaluate(Haystack(path[0], True))
                return evaluate(Haystack(path, False))
            if not self.waiting:  # the next file is still in the batch not sent
                if not block:
                    return _NOT_YET
                self.flush()
            answers = self.helper.answers
            if not block and answers.empty():  # cheaper than get's queue.Empty, per file
                return _NOT_YET
            frame = answers.get()
            if frame is not None and frame[0] == RESULTS and frame[1] != self.serial:
                continue  # a late answer to a search given up (see SearchPool._search)
            if (frame is None or frame[0] != RESULTS or not self.waiting
                    or len(frame[2]) != len(self.waiting[0])):
                self.fail()
                continue
            self.waiting.popleft()
            self.ready.extend(frame[2])
            self.pool.failures = 0
        return self.ready.popleft()


class _OwnerFiles:
    """The owner's own files of one search, searched by *evaluate_batch* when the first of them
    is next in walk order, at most _BATCH at a time, so that the ``stat`` lane vouches for the
    cached contents of a batch in one call, as it does for a helper's batches of _BATCH,
    instead of file by file. The cap bounds what a search does ahead of its output as the
    serial lane's parts do: while a helper's file holds the front, the owner's files pile up
    unsearched, and one call for all of them would ``stat`` a file thousands of files before
    searching it and hand over that many contents at once."""

    __slots__ = ("evaluate_batch", "batch", "ready")

    def __init__(self, evaluate_batch: Callable[[list[Haystack]], list[tuple]]) -> None:
        self.evaluate_batch = evaluate_batch
        self.batch: list[Haystack] = []  # files added and not yet searched, in walk order
        self.ready: deque[tuple] = deque()  # outcomes searched and not taken

    def add(self, haystack: Haystack) -> None:
        self.batch.append(haystack)

    def take(self, evaluate: Callable[[Haystack], tuple], block: bool) -> tuple:
        """The outcome of the next file added (every file added is taken once, in order)."""
        if not self.ready:
            batch = self.batch[:_BATCH]
            del self.batch[:_BATCH]
            self.ready.extend(self.evaluate_batch(batch))
        return self.ready.popleft()


_TAKERS = (_Share, _OwnerFiles)


class SearchPool:
    """*helpers* helper processes, each keeping a tree cache of *content_budget* bytes of
    contents and *remembered_searches* searches' outcomes, with a watch if *watch* (see
    TreeCache), whose clock runs *clock_offset* nanoseconds ahead of ``time.time_ns`` (the
    owner's cache may have a clock of its own). They start at the first search and live until
    :meth:`close`, or until the pool is collected. *owner_weight* is the owner's share of the
    files against a helper's 1 (tests route every file to the helpers with 0)."""

    def __init__(self, helpers: int, content_budget: int, remembered_searches: int,
                 watch: bool = False, clock_offset: int = 0,
                 owner_weight: float = _OWNER_WEIGHT) -> None:
        if helpers < 1:
            raise ValueError("a pool needs at least one helper")
        self.size = helpers
        self._settings = (content_budget, remembered_searches, watch, clock_offset)
        self._helpers: list[_Helper | None] = [None] * helpers
        # One search at a time: a second thread's search meanwhile runs alone in its thread.
        self._lock = threading.Lock()
        self._serial = 0
        self.failures = 0  # helpers that failed since one last answered
        self._route = _routes(helpers, owner_weight)
        self._pending: list[tuple] = []  # forget/clear frames for the next search
        self._pending_lock = threading.Lock()
        # A forked child must not write into its parent's pipes.
        self._pid = os.getpid()
        _LIVE.add(self)
        # Collected unclosed, the pool still ends its helpers (they would see their input end
        # when this process exits, but not before).
        weakref.finalize(self, _stop_all, self._helpers)

    def __repr__(self) -> str:
        return f"SearchPool(helpers={self.size})"

    def forget(self, path: bytes | str) -> None:
        """Have every helper forget *path* (TreeCache.forget) before its next search."""
        with self._pending_lock:
            self._pending.append((FORGET, os.fsencode(path)))

    def forget_searches(self) -> None:
        """Have every helper forget its remembered outcomes (TreeCache.forget_searches)."""
        with self._pending_lock:
            self._pending.append((FORGET_SEARCHES,))

    def clear(self) -> None:
        """Have every helper forget everything before its next search."""
        with self._pending_lock:
            self._pending = [(CLEAR,)]

    def close(self) -> None:
        """Stop the helpers; a later search starts new ones. A search running meanwhile (in
        another thread) searches the files it had given them itself."""
        with self._pending_lock:
            self._pending = []
        _stop_all(self._helpers)

    def states(self) -> list[dict | None]:
        """What each helper's tree cache holds (``TreeCache.state``) and the directory it
        imported shellfree from (``package``); None for a helper not running. Waits for a
        search in another thread to end."""
        states: list[dict | None] = []
        with self._lock:
            self._send_pending()
            for i, helper in enumerate(self._helpers):
                state = None
                if helper is not None and helper.process.poll() is None:
                    try:
                        helper.send((STATE,))
                        frame = helper.answers.get()
                        while frame is not None and frame[0] == RESULTS:  # a late answer
                            frame = helper.answers.get()
                    except (OSError, ValueError):
                        frame = None
                    if frame is not None and frame[0] == STATE:
                        state = frame[1]
                    else:
                        self._drop(i, helper)
                states.append(state)
        return states

    def _ready(self) -> bool:
        """Start the helpers that are not running (unless _MAX_FAILURES failed in a row); send
        the others what they must forget. True if any helper runs."""
        self._send_pending()
        for i, helper in enumerate(self._helpers):
            if helper is None and self.failures < _MAX_FAILURES:
                try:
                    self._helpers[i] = _Helper(self._settings)
                except OSError:
                    self.failures += 1  # this search goes on without it
        return any(helper is not None for helper in self._helpers)

    def _send_pending(self) -> None:
        """Send the running helpers what they must forget (a new helper starts empty); drop
        the ones that are gone. Search lock held."""
        with self._pending_lock:
            pending, self._pending = self._pending, []
        for i, helper in enumerate(self._helpers):
            if helper is None:
                continue
            if helper.process.poll() is not None:
                self._drop(i, helper)
                continue
            try:
                for frame in pending:
                    helper.send(frame)
            except (OSError, ValueError):
                self._drop(i, helper)

    def _drop(self, i: int, helper: _Helper) -> None:
        if self._helpers[i] is helper:
            self._helpers[i] = None
        helper.process.kill()
        helper.stop()

    def search(
        self,
        argv: Sequence[bytes],
        cwd: str | None,
        walker: Walker,
        roots: Sequence[bytes] | None,
        evaluate: Callable[[Haystack], tuple],
        evaluate_batch: Callable[[list[Haystack]], list[tuple]] | None = None,
    ) -> Iterator | None:
        """The walk's messages and every file's outcome (*evaluate*'s, a plain tuple) in walk
        order, the files shared with the helpers; None when the pool cannot take the search
        (another thread's search holds it, this is a forked child, or no helper runs). With
        *evaluate_batch* (the outcomes of a list of files, in order), the owner's own files are
        searched through it a batch at a time. Close the iterator when stopping before its
        end: the helpers then give up the rest, and the pool is free for the next search."""
        if os.getpid() != self._pid or not self._lock.acquire(blocking=False):
            return None
        try:
            if not self._ready():
                self._lock.release()
                return None
        except BaseException:
            self._lock.release()
            raise
        steps = self._search(list(argv), cwd, walker, roots, evaluate, evaluate_batch)
        next(steps)  # into its try block: closed from now on, it releases the lock
        return steps

    def _search(self, argv, cwd, walker, roots, evaluate, evaluate_batch) -> Iterator:
        self._serial += 1
        serial = self._serial
        shares = [_Share(self, i, serial) for i in range(self.size)]
        owner = None if evaluate_batch is None else _OwnerFiles(evaluate_batch)
        finished = False
        try:
            yield None  # search() takes this one
            for share in shares:
                share.send((SEARCH, serial, argv, cwd))
            # Walk order: a walk message, an outcome (a tuple) or the share whose next
            # outcome comes here. What is ready at the front is handed on as the walk goes,
            # so a caller that stops early (search_files' output cap) stops the walk too.
            pending: deque = deque()
            append = pending.append
            route = self._route
            crc32 = zlib.crc32
            # Handing on is tried every _HAND_ON files, not per file: a try that finds the
            # front's helper not done yet costs more than the file's own routing.
            hand_on = _HAND_ON
            for event in walker.walk(roots):
                if event.__class__ is WalkMessage:
                    append(event)
                else:
                    share = route[crc32(event.path) & _ROUTE_MASK]
                    if share == 0 or shares[share - 1].helper is None:
                        if owner is None:
                            append(evaluate(event))
                        else:
                            owner.add(event)
                            append(owner)
                    else:
                        target = shares[share - 1]
                        target.add((event.path,) if event.explicit else event.path)
                        append(target)
                hand_on -= 1
                if hand_on:
                    continue
                hand_on = _HAND_ON
                while pending:
                    head = pending[0]
                    if head.__class__ in _TAKERS:
                        head = head.take(evaluate, block=False)
                        if head is _NOT_YET:
                            break
                    pending.popleft()
                    yield head
            for share in shares:
                share.flush()
                share.send((END, serial))
            while pending:
                head = pending.popleft()
                yield head.take(evaluate, block=True) if head.__class__ in _TAKERS else head
            finished = True
        finally:
            if not finished:
                for share in shares:
                    share.send((ABANDON, serial))
            self._lock.release()


def _routes(helpers: int, owner_weight: float) -> list[int]:
    """For each value of a path's crc32 under _ROUTE_MASK, its share: 0 (the owner) or a
    helper's index plus 1."""
    slots = _ROUTE_MASK + 1
    owner = round(slots * owner_weight / (owner_weight + helpers))
    return [0 if i < owner else 1 + (i - owner) * helpers // (slots - owner) for i in range(slots)]


_LIVE: "weakref.WeakSet[SearchPool]" = weakref.WeakSet()
"""Every pool of this process, for :func:`_release_in_child`."""


def _release_in_child() -> None:
    """In a forked child: point its copies of every helper's pipes at the null device. A copy
    of a pipe's write end kept open would keep the helper from seeing its input end when the
    parent closes the pool (``close`` would wait 2 s and kill it). The descriptors are
    repointed, not closed: their numbers stay owned by the file objects, which close them."""
    try:
        null = os.open(os.devnull, os.O_RDWR)
    except OSError:
        return
    try:
        for pool in list(_LIVE):
            for helper in pool._helpers:
                if helper is None:
                    continue
                for stream in (helper.process.stdin, helper.process.stdout):
                    try:
                        os.dup2(null, stream.fileno())
                    except (OSError, ValueError):
                        pass
    finally:
        os.close(null)


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_release_in_child)


def _stop_all(helpers: list[_Helper | None]) -> None:
    """Stop every helper of the list, emptying its places."""
    for i, helper in enumerate(helpers):
        helpers[i] = None
        if helper is not None:
            helper.stop()
