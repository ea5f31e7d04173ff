"""Run work units in forked worker processes and hand back their results in unit order.

Threads do not help a pure-Python search (perf-study §5.5: the per-file work holds the GIL), and
``multiprocessing`` costs 20-60 ms to import and start; raw ``os.fork`` costs a few. The parent
has walked the top of the tree into units (files, messages, and deferred subtrees that the
workers walk themselves, perf-study §5.6), so every worker inherits the unit list and the
compiled matcher copy-on-write. Batch numbers go into one pipe as 4-byte records, which a read
takes atomically, so idle workers pull the next batch (dynamic load balancing); each forked
worker writes its results in parts of a few hundred, marshalled and length-prefixed, to its own
pipe: results are plain values (None, bytes, str, numbers, tuples), which ``marshal`` (built in,
loaded at start-up) writes and reads in a tenth of ``pickle``'s time and without its import. The
parent is a worker too, and between the parts of its own batches takes what the others sent; it
yields the results strictly in batch order, so the output is exactly the serial output, and
yields each part as soon as it is next, so output flows while the rest is searched.

Only the command-line process uses this (see ``Invocation.may_fork``): forking a host that has
threads is unsafe.
"""

from __future__ import annotations

import marshal
import os
import select
import struct
from collections.abc import Callable, Iterable, Iterator, Sequence

from shellfree.search.walk import Haystack, Subtree, WalkMessage, Walker

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see shellfree/__init__.py)
if TYPE_CHECKING:
    from typing import TypeVar

    T = TypeVar("T")
    R = TypeVar("R")

__all__ = ["map_in_workers", "split_walk", "walk_in_workers", "write_all"]

_INDEX = struct.Struct("<I")
# A part's frame: the length of its marshalled results, its batch number, whether it is the
# batch's last part.
_FRAME = struct.Struct("<QI?")
# A pipe holds at least 4 KiB, Linux 64 KiB: the batch numbers are written before the workers
# start, so there must not be more of them than fit without blocking.
_MAX_BATCHES = 1000
_MAX_BATCH = 64


def _batches(heavy: Sequence[bool], workers: int) -> list[range]:
    """Consecutive units grouped into batches: a heavy unit (a subtree) alone, light ones (one
    file each) up to a size that gives about eight batches per worker, so a slow batch does
    not idle the others, and never more batches than the task pipe holds (past that, heavy
    units are grouped too)."""
    count = len(heavy)
    size = max(1, min(-(-count // (workers * 8)), _MAX_BATCH))
    isolate = sum(heavy) < _MAX_BATCHES // 2
    while True:
        batches: list[range] = []
        start = 0
        for i, is_heavy in enumerate(heavy):
            alone = isolate and is_heavy
            if alone or i - start >= size:
                if i > start:
                    batches.append(range(start, i))
                start = i
            if alone:
                batches.append(range(i, i + 1))
                start = i + 1
        if start < count:
            batches.append(range(start, count))
        if len(batches) <= _MAX_BATCHES:
            return batches
        size *= 2


def write_all(fd: int, data: bytes) -> None:
    """Write all of *data* to the pipe *fd* (a write may take only part of it)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


#: Results a worker sends, or the parent sets aside, at a time. A subtree's results go in parts
#: so that what is next in order is printed while the rest is still being searched, and no
#: process holds a whole subtree's output (the large benchmark tree printed 374 MB for
#: ``-n '\w{12,}'``, and the parent held nearly all of it at once).
_PART = 256
#: Bytes of results, marshalled, that the parent keeps in memory for batches that are not yet
#: next; past it, further parts go to a temporary file until their turn comes.
_HELD_IN_MEMORY = 32 << 20


def _parts(items: Sequence[T], batch: range, work: Callable[[T], Iterable]) -> Iterator[tuple]:
    """A batch's results in parts: ``(False, list)``, then ``(True, list)`` for the last one,
    or ``(True, str)``, the text of the traceback that stopped it, after the parts before."""
    part: list = []
    try:
        for i in batch:
            for result in work(items[i]):
                part.append(result)
                if len(part) >= _PART:
                    yield False, part
                    part = []
    except GeneratorExit:  # closed by a consumer that stopped early: nothing to report
        raise
    except BaseException:  # reported in batch order, wherever it ran
        import traceback  # only a failure needs it

        if part:
            yield False, part
        yield True, traceback.format_exc()
        return
    yield True, part


def _worker(
    items: Sequence[T], batches: list[range], work: Callable[[T], Iterable], tasks: int, out: int
) -> None:
    """Body of a forked worker: pull batch numbers until the task pipe is empty."""
    while True:
        record = os.read(tasks, _INDEX.size)
        if len(record) < _INDEX.size:
            return
        (index,) = _INDEX.unpack(record)
        for last, part in _parts(items, batches[index], work):
            try:
                payload = marshal.dumps(part)
            except ValueError:  # a result that is not a plain value: a bug, reported in order
                import traceback

                payload = marshal.dumps(traceback.format_exc())
                last = True
            write_all(out, _FRAME.pack(len(payload), index, last) + payload)
            if last:
                break


def map_in_workers(
    items: Sequence[T], work: Callable[[T], Iterable[R]], workers: int, heavy: Sequence[bool]
) -> Iterator[R]:
    """The results of ``work(item)`` (an iterable each) for every item, computed by *workers*
    processes and yielded in the order of *items*; ``heavy[i]`` marks an item that gets a
    batch of its own. A worker's exception is re-raised in the parent as RuntimeError, after
    every result before it. The results must be values ``marshal`` writes.

    The parent is one of the workers: it forks ``workers - 1`` children and pulls batches
    from the same task pipe, reading what the children sent between two parts of its own
    batches. A parent that only waited would leave a core idle (or cost a fork more) for the
    little work of merging the results.
    """
    if not items:
        return
    batches = _batches(heavy, workers)
    task_read, task_write = os.pipe()
    os.write(task_write, b"".join(_INDEX.pack(i) for i in range(len(batches))))
    os.close(task_write)
    pipes: dict[int, int] = {}  # read end -> pid
    for _ in range(min(workers, len(batches)) - 1):
        read_end, write_end = os.pipe()
        _widen(write_end)
        pid = os.fork()
        if pid == 0:  # child
            status = 0
            try:
                os.close(read_end)
                for other in pipes:
                    os.close(other)
                _worker(items, batches, work, task_read, write_end)
            except BaseException:
                status = 1
            finally:
                # Never return into the parent's code (or run its atexit handlers).
                os._exit(status)
        os.close(write_end)
        pipes[read_end] = pid
    merge = _Merge(pipes, len(batches))
    try:
        while not merge.complete():
            yield from merge.ready()
            if merge.complete():
                break
            # The task pipe was filled before any fork and its write end is closed: a read
            # returns a batch number or end of file, never blocks.
            record = os.read(task_read, _INDEX.size) if merge.tasks_left else b""
            if len(record) < _INDEX.size:
                merge.tasks_left = False
                merge.wait()
                continue
            (index,) = _INDEX.unpack(record)
            for last, part in _parts(items, batches[index], work):
                merge.add(index, last, part)
                merge.poll()
                yield from merge.ready()
    finally:
        os.close(task_read)
        merge.close()


def _widen(fd: int) -> None:
    """Give a result pipe 1 MiB where the system allows it (Linux): the parent reads results
    only between parts of its own batches, and a child whose results fill the pipe waits."""
    try:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, 1 << 20)  # type: ignore[attr-defined]
    except (ImportError, AttributeError, OSError):
        pass  # another system, or a lower limit: the default pipe only means more waiting


class _Merge:
    """The parent's side of the merge: the parts of every batch, received from the children or
    made by the parent, handed out strictly in batch order.

    A part that is next in order is kept as it came and handed out at once. The others wait
    marshalled, in memory up to ``_HELD_IN_MEMORY`` bytes and past it in a temporary file: on
    output-heavy searches the parent, a child or both run ahead of the batch that is next, and
    what they found must wait somewhere (only the page cache holds it there, not this process).
    """

    def __init__(self, pipes: dict[int, int], count: int) -> None:
        self.pipes = pipes
        self.count = count
        self.next_index = 0
        self.tasks_left = True
        # Per batch not yet handed out: its parts in order (a list of results, a marshalled
        # one, or where one lies in the spill file), and whether its last part has come.
        self.parts: dict[int, list] = {}
        self.finished: set[int] = set()
        self.held = 0
        self.spill: int | None = None  # fd of the temporary file
        self.spilled = 0  # bytes written to it
        self.spill_failed = False
        # poll, not selectors: this runs only where fork does (POSIX), and selectors costs
        # an import at every search's start.
        self.poller = select.poll()
        self.buffers: dict[int, bytearray] = {}
        for fd in pipes:
            self.poller.register(fd, select.POLLIN)
            self.buffers[fd] = bytearray()

    def complete(self) -> bool:
        return self.next_index >= self.count

    def add(self, index: int, last: bool, part) -> None:
        """Take a part of batch *index*: a list of results, a failure's text, or either of them
        marshalled."""
        queue = self.parts.setdefault(index, [])
        if index == self.next_index:
            queue.append(marshal.loads(part) if part.__class__ is bytes else part)
        else:
            queue.append(self._set_aside(part if part.__class__ is bytes else marshal.dumps(part)))
        if last:
            self.finished.add(index)

    def _set_aside(self, payload: bytes):
        """*payload* itself while the memory allowance lasts (or when no temporary file can be
        had: the output matters more than the allowance), else where it was written."""
        if self.held + len(payload) <= _HELD_IN_MEMORY or self.spill_failed:
            self.held += len(payload)
            return payload
        offset = self.spilled
        try:
            if self.spill is None:
                import tempfile  # only an output-heavy search gets here

                self.spill, name = tempfile.mkstemp(prefix="shellfree-")
                os.unlink(name)  # POSIX (the only place forking runs): gone when closed
            view = memoryview(payload)
            while view:
                view = view[os.pwrite(self.spill, view, offset + len(payload) - len(view)):]
        except OSError:  # no temporary directory, or a full one (what it holds stays readable)
            self.spill_failed = True
            self.held += len(payload)
            return payload
        self.spilled += len(payload)
        return (offset, len(payload))

    def ready(self) -> Iterator:
        """Every result that is next in order and has come, handed out."""
        while self.next_index < self.count:
            index = self.next_index
            queue = self.parts.get(index)
            if queue:
                part = queue.pop(0)
                if part.__class__ is bytes:
                    self.held -= len(part)
                    part = marshal.loads(part)
                elif part.__class__ is tuple:
                    offset, size = part
                    part = marshal.loads(os.pread(self.spill, size, offset))
                if part.__class__ is str:
                    raise RuntimeError(f"a search worker failed:\n{part}")
                yield from part
            elif index in self.finished:
                self.finished.discard(index)
                self.parts.pop(index, None)
                self.next_index += 1
            else:
                return

    def poll(self) -> None:
        """Take what the children have sent, without waiting."""
        if self.buffers:
            self._receive(0)

    def wait(self) -> None:
        """Wait for the children to send something (the parent has no batch left to run)."""
        if not self.buffers:
            raise RuntimeError("search workers exited before finishing their batches")
        self._receive(None)

    def _receive(self, timeout) -> None:
        for fd, _ in self.poller.poll(timeout):
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                self.poller.unregister(fd)
                del self.buffers[fd]
                continue
            buffer = self.buffers[fd]
            buffer += chunk
            while len(buffer) >= _FRAME.size:
                size, index, last = _FRAME.unpack_from(buffer)
                if len(buffer) < _FRAME.size + size:
                    break
                self.add(index, last, bytes(buffer[_FRAME.size : _FRAME.size + size]))
                del buffer[: _FRAME.size + size]

    def close(self) -> None:
        if self.spill is not None:
            os.close(self.spill)
        for fd, pid in self.pipes.items():
            os.close(fd)
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass


#: Below this many files, forking workers costs more than it saves.
_PARALLEL_MIN_FILES = 256
#: How deep the parent walks before it hands subtrees to the workers, at most.
_MAX_SPLIT_DEPTH = 4


def walk_in_workers(
    walker: Walker, roots: Sequence[bytes] | None, workers: int, on_file: Callable[[Haystack], R]
) -> Iterator[R | WalkMessage] | None:
    """The walk of *roots* with ``on_file`` applied to every file in *workers* forked workers,
    in walk order: ``on_file(haystack)`` for each file (a value :func:`map_in_workers` can
    send back, not a str), the walk's messages as they are. None when the tree is too small
    to fork for (the caller then walks serially)."""
    units = split_walk(walker, roots, workers)
    if units is None:
        return None

    def work(unit) -> Iterable:
        if isinstance(unit, Subtree):
            # A generator: a subtree's results leave in parts as they are found.
            return (
                _sent(event) if isinstance(event, WalkMessage) else on_file(event)
                for event in walker.walk_subtree(unit)
            )
        return (_sent(unit) if isinstance(unit, WalkMessage) else on_file(unit),)

    results = map_in_workers(units, work, workers, [isinstance(unit, Subtree) for unit in units])
    return (_received(r) if r.__class__ is str else r for r in results)


def _sent(message: WalkMessage) -> str:
    # A message travels as its text behind a letter for its kind; file results are never str.
    return ("E" if message.is_error else "W") + message.text


def _received(sent: str) -> WalkMessage:
    return WalkMessage(sent[1:], sent[0] == "E")


def split_walk(walker: Walker, roots: Sequence[bytes] | None, workers: int) -> list | None:
    """The walk cut into units for *workers* forked workers: files and messages found near the
    top, and :class:`Subtree` units the workers walk themselves (walking is a third of a
    search's time, perf-study §4). The parent goes one level deeper while there are fewer than
    eight subtrees per worker. None when the tree is too small to be worth forking for; the
    caller then walks serially (the parent's listings are not reused, which costs a small
    tree next to nothing)."""
    units = list(walker.walk(roots, split_depth=1))
    depth = 1
    while True:
        subtrees = sum(1 for unit in units if isinstance(unit, Subtree))
        # A subtree's listing length is a floor for the files below it.
        estimate = sum(len(u.listing) if isinstance(u, Subtree) else 1 for u in units)
        enough = subtrees >= 8 * workers and estimate >= _PARALLEL_MIN_FILES
        if subtrees == 0 or enough or depth >= _MAX_SPLIT_DEPTH:
            break
        depth += 1
        deeper: list = []
        for unit in units:
            if isinstance(unit, Subtree):
                deeper.extend(walker.walk_subtree(unit, split_depth=unit.depth))
            else:
                deeper.append(unit)
        units = deeper
    if estimate < _PARALLEL_MIN_FILES:
        return None
    return _split_wide(walker, units, estimate, workers)


#: How many more subtrees the parent may open to break up wide ones.
_MAX_WIDE_SPLITS = 64


def _split_wide(walker: Walker, units: list, estimate: int, workers: int) -> list:
    """Open the subtrees whose own listing is a large share of the tree, one level at a time.

    A subtree goes to one worker whole; one that holds most of the tree (ansible-core's
    test/integration/targets: two thirds of its files, in hundreds of directories) leaves the
    other workers idle. A listing's length is the only size known before walking it, so the
    widest directories are the ones opened. The subtrees an opened directory yields are left
    unlisted: listing the hundreds of them here would keep the other workers waiting (listing
    ansible-core's took 351 of the 409 listings the parent made before forking).
    """
    limit = max(64, estimate // (8 * workers))
    for _ in range(_MAX_WIDE_SPLITS):
        widest = max(
            (i for i, u in enumerate(units) if isinstance(u, Subtree) and u.listing is not None),
            key=lambda i: len(units[i].listing),
            default=None,
        )
        if widest is None or len(units[widest].listing) <= limit:
            break
        unit = units[widest]
        units[widest : widest + 1] = list(
            walker.walk_subtree(unit, split_depth=unit.depth, unlisted=True)
        )
    return units
