"""Search files in forked worker processes and hand back their outcomes in walk order.

Threads do not help a pure-Python search (perf-study §5.5: the per-file work holds the GIL), and
``multiprocessing`` costs 20-60 ms to import and start; raw ``os.fork`` costs a few. The parent
has already walked the tree, so every worker inherits the file list and the compiled matcher
copy-on-write. Batch numbers go into one pipe as 4-byte records, which a read takes atomically,
so idle workers pull the next batch (dynamic load balancing); each worker writes its outcomes,
pickled and length-prefixed, to its own pipe. The parent buffers early batches and yields the
outcomes strictly in batch order, so the output is exactly the serial output.

Only the command-line process uses this (see ``Invocation.may_fork``): forking a host that has
threads is unsafe.
"""

from __future__ import annotations

import os
import pickle
import selectors
import struct
import traceback
from typing import Callable, Iterator, Sequence, TypeVar

__all__ = ["evaluate_in_workers"]

T = TypeVar("T")
R = TypeVar("R")

_INDEX = struct.Struct("<I")
_FRAME = struct.Struct("<Q")
# A pipe holds at least 4 KiB, Linux 64 KiB: the batch numbers are written before the workers
# start, so there must not be more of them than fit without blocking.
_MAX_BATCHES = 1000
_MAX_BATCH = 64


def _batches(count: int, workers: int) -> list[range]:
    # About eight batches per worker keep a slow subtree from idling the others; batches stay
    # small enough to balance, and never more numerous than the task pipe can hold.
    size = min(-(-count // (workers * 8)), _MAX_BATCH)
    size = max(size, -(-count // _MAX_BATCHES), 1)
    return [range(i, min(i + size, count)) for i in range(0, count, size)]


def _worker(
    items: Sequence[T], batches: list[range], evaluate: Callable[[T], R], tasks: int, out: int
) -> None:
    """Body of a forked worker: pull batch numbers until the task pipe is empty."""
    while True:
        record = os.read(tasks, _INDEX.size)
        if len(record) < _INDEX.size:
            return
        (index,) = _INDEX.unpack(record)
        try:
            payload = pickle.dumps((index, [evaluate(items[i]) for i in batches[index]]), 5)
        except BaseException:  # report any failure to the parent rather than dying silently
            payload = pickle.dumps((index, traceback.format_exc()), 5)
        view = memoryview(_FRAME.pack(len(payload)) + payload)
        while view:
            written = os.write(out, view)
            view = view[written:]


def evaluate_in_workers(
    items: Sequence[T], evaluate: Callable[[T], R], workers: int
) -> Iterator[R]:
    """``evaluate(item)`` for every item, computed in *workers* forked processes, yielded in
    the order of *items*. A worker's exception is re-raised in the parent as RuntimeError."""
    if not items:
        return
    batches = _batches(len(items), workers)
    task_read, task_write = os.pipe()
    os.write(task_write, b"".join(_INDEX.pack(i) for i in range(len(batches))))
    os.close(task_write)
    pipes: dict[int, int] = {}  # read end -> pid
    for _ in range(min(workers, len(batches))):
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # child
            status = 0
            try:
                os.close(read_end)
                for other in pipes:
                    os.close(other)
                _worker(items, batches, evaluate, task_read, write_end)
            except BaseException:
                status = 1
            finally:
                # Never return into the parent's code (or run its atexit handlers).
                os._exit(status)
        os.close(write_end)
        pipes[read_end] = pid
    os.close(task_read)
    yield from _collect(pipes, len(batches))


def _collect(pipes: dict[int, int], count: int) -> Iterator:
    selector = selectors.DefaultSelector()
    buffers: dict[int, bytearray] = {}
    for fd in pipes:
        selector.register(fd, selectors.EVENT_READ)
        buffers[fd] = bytearray()
    done: dict[int, object] = {}
    next_index = 0
    try:
        while next_index < count:
            if next_index in done:
                result = done.pop(next_index)
                if isinstance(result, str):
                    raise RuntimeError(f"a search worker failed:\n{result}")
                yield from result  # type: ignore[misc]
                next_index += 1
                continue
            if not selector.get_map():
                raise RuntimeError("search workers exited before finishing their batches")
            for key, _ in selector.select():
                fd = key.fd
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    selector.unregister(fd)
                    continue
                buffer = buffers[fd]
                buffer += chunk
                while len(buffer) >= _FRAME.size:
                    (size,) = _FRAME.unpack_from(buffer)
                    if len(buffer) < _FRAME.size + size:
                        break
                    index, result = pickle.loads(buffer[_FRAME.size : _FRAME.size + size])
                    del buffer[: _FRAME.size + size]
                    done[index] = result
    finally:
        selector.close()
        for fd, pid in pipes.items():
            os.close(fd)
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
