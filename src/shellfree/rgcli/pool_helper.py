"""A search pool's helper process (see pool.py): ``python -m shellfree.rgcli.pool_helper``.

It reads frames from stdin and writes frames to stdout: a settings frame first (its tree
cache's budgets), then for each search the command line, batches of paths and an end. Each
batch is answered, as soon as it is searched, with the outcomes of its files in order. A
reader thread drains stdin while the main thread searches, so the owner's writes never wait on
a full pipe, and it notes at once when the owner gives a search up: the files not searched yet
are then skipped.
"""

from __future__ import annotations

import io
import os
import queue
import sys
import threading
import time

from shellfree.rgcli.pool import (
    ABANDON,
    CLEAR,
    END,
    FAILED,
    FORGET,
    FORGET_SEARCHES,
    PATHS,
    RESULTS,
    SEARCH,
    SETTINGS,
    STATE,
    read_frame,
    write_frame,
)

__all__ = ["main"]


class _Inbox:
    """The owner's frames, read by a thread; ``abandoned`` is the last search given up."""

    def __init__(self, stream) -> None:
        self.frames: queue.SimpleQueue[tuple | None] = queue.SimpleQueue()
        self.abandoned = 0
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream) -> None:
        try:
            while True:
                frame = read_frame(stream)
                if frame is not None and frame[0] == ABANDON:
                    self.abandoned = max(self.abandoned, frame[1])
                self.frames.put(frame)
                if frame is None:
                    return
        except (OSError, ValueError, EOFError, TypeError):
            self.frames.put(None)

    def get(self) -> tuple | None:
        return self.frames.get()


def _open(cache, argv: list[bytes], cwd: str | None):
    """The search the owner opened from *argv*, opened here the same way; None if it cannot
    be (the owner then searches this helper's files itself)."""
    from shellfree.rgcli.flags import UsageError, parse_args
    from shellfree.rgcli.run import Invocation
    from shellfree.rgcli.search import open_search

    try:
        args = parse_args(argv)
    except UsageError:
        return None
    out = Invocation(io.BytesIO(), io.BytesIO(), quiet_messages=True, cwd=cwd, cache=cache,
                     argv=argv)
    cache.begin_run()
    opened = open_search(args, out, None)
    return None if isinstance(opened, int) else opened[0]


def _serve(cache, serial: int, argv: list[bytes], cwd: str | None, inbox: _Inbox, stdout) -> bool:
    """Serve one search to its end or until it is given up; False when the owner went away."""
    from shellfree.rgcli.search import _stored
    from shellfree.search.walk import Haystack

    command = _open(cache, argv, cwd)
    # The directory the owner's walk starts from, below which this helper's watch reaches
    # every directory it reads a file of (TreeCache.cover).
    top = os.fsencode(os.path.abspath(cwd if cwd is not None else os.getcwd())).rstrip(b"/") or b"/"
    last_directory = None
    lane = command.lane() if command is not None else None
    try:
        while True:
            frame = inbox.get()
            if frame is None:
                return False
            kind = frame[0]
            if kind in (END, ABANDON) and frame[1] == serial:
                return True
            if kind != PATHS or frame[1] != serial or inbox.abandoned >= serial:
                continue
            if command is None:
                write_frame(stdout, (FAILED, serial))
                continue
            evaluate = command.evaluate
            fs = command.out.fs
            cover = cache.cover if cache.watching else None
            results = []
            # Without a watch, the lane takes the batch at once (one stat per cached file).
            settled = command.stat_lane_batch(frame[2]) if lane is not None else None
            for at, path in enumerate(frame[2]):
                if inbox.abandoned >= serial:
                    break
                explicit = path.__class__ is tuple
                walked = path[0] if explicit else path
                if cover is not None:
                    # A batch runs in walk order: most files share the last one's directory,
                    # which is covered already (reports are applied between searches only).
                    directory = walked.rpartition(b"/")[0]
                    if directory != last_directory:
                        cover(fs(walked).rpartition(b"/")[0], top)
                        last_directory = directory
                if (settled[at] if settled is not None
                        else lane is not None and not explicit and lane(walked)):
                    results.append(())  # _stored's searched-and-nothing-printed
                    continue
                results.append(_stored(evaluate(Haystack(walked, explicit), None)))
            else:
                write_frame(stdout, (RESULTS, serial, results))
    finally:
        if command is not None:
            command.remember_outcomes()


def main() -> int:
    stdin = sys.stdin.buffer
    # Frames alone go to the owner: anything else written to stdout goes to stderr.
    stdout = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    inbox = _Inbox(stdin)
    settings = inbox.get()
    if settings is None or settings[0] != SETTINGS:
        return 2
    from shellfree.search.tree_cache import TreeCache

    _, content_budget, remembered_searches, watch, clock_offset = settings
    clock = time.time_ns
    if clock_offset:
        def clock() -> int:
            return time.time_ns() + clock_offset

    cache = TreeCache(content_budget, remembered_searches=remembered_searches, watch=watch,
                      clock=clock)
    while True:
        frame = inbox.get()
        if frame is None:
            return 0
        kind = frame[0]
        if kind == FORGET:
            cache.forget(frame[1])
        elif kind == FORGET_SEARCHES:
            cache.forget_searches()
        elif kind == CLEAR:
            cache.clear()
        elif kind == STATE:
            package = os.path.dirname(os.path.abspath(sys.modules["shellfree"].__file__))
            write_frame(stdout, (STATE, {**cache.state(), "package": package}))
        elif kind == SEARCH:
            if not _serve(cache, frame[1], frame[2], frame[3], inbox, stdout):
                return 0


if __name__ == "__main__":
    sys.exit(main())
