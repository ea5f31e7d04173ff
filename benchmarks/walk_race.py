"""Cached walks while another thread edits the tree: a copy of a speed corpus, files created and
deleted in random directories as walks replay and re-check it.

    python -m benchmarks.walk_race --corpus medium --seconds 20 --pause 0.05 --seed 1

A search shared with helper processes walks with ``Walker.walk(runs=False)``, whose replay of a
recorded walk checks the directories as it yields their files, and makes the walk fresh, less
the files already yielded, when one turned out changed (``Walker._replay_checked``). The tests
(``tests/search/test_tree_cache.py``, ``TestWalkReplay``) hold each rule on a small tree with
edits placed by hand; this runs it against edits at random moments. Every walk must yield no path
twice and every file of the tree the edits never touch; once the edits stop, the cached walk
must equal an uncached one, twice (the second replays the first).

With the real clock, a directory changed in the last two seconds (``RACY_NS``) is listed again
by every walk, so a replay usually turns fresh at one of the first directories, before any file
was yielded. ``--settled-clock`` gives the cache a clock an hour ahead, as
``watch_stress --stat-checks`` does: every entry counts as settled, a replay turns fresh at the
first directory edited since the last walk, and more fresh walks take over from a partial
replay. It needs ``--pause`` longer than the file system's timestamp tick (a few milliseconds),
so that two edits of one directory never share an mtime. The count of fresh walks that took
over is the number of calls of ``walk._without``, which this wraps to count them.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import threading
import time

from benchmarks.watch_stress import settled_clock, tree_source
from shellfree.search import walk as walk_module
from shellfree.search.tree_cache import RACY_NS, TreeCache
from shellfree.search.walk import Haystack, Walker


def _editor(rng: random.Random, directories: list[str], pause: float, stop: threading.Event,
            edits: list) -> None:
    """Create or delete ``race-N.txt`` in a random directory every *pause* seconds, counting
    the edits in ``edits[0]``; an unexpected error ends it, kept in ``edits[1]``."""
    try:
        while not stop.is_set():
            path = os.path.join(rng.choice(directories), f"race-{rng.randrange(50)}.txt")
            try:
                if os.path.exists(path):
                    os.unlink(path)
                else:
                    with open(path, "wb") as handle:
                        handle.write(b"race\n")
                edits[0] += 1
            except OSError:
                pass
            stop.wait(pause)
    except BaseException as error:  # reported by main: a run without edits proves nothing
        edits[1] = error


def _paths(events: object) -> list:
    return [event.path if isinstance(event, Haystack) else event for event in events]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="medium", help="a speed corpus (default: medium)")
    parser.add_argument("--tree", default=None, help="copy this directory instead of a corpus")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--pause", type=float, default=0.05, help="seconds between two edits")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--settled-clock", action="store_true",
                        help="a cache clock an hour ahead: every entry counts as settled")
    options = parser.parse_args(argv)
    source = tree_source(options.corpus, options.tree)
    rng = random.Random(options.seed)
    takeovers = [0]
    without = walk_module._without

    def counted(events, yielded):
        takeovers[0] += 1
        return without(events, yielded)

    walk_module._without = counted
    try:
        with tempfile.TemporaryDirectory(prefix="walk-race-") as scratch:
            root = os.path.join(scratch, "tree")
            shutil.copytree(source, root, symlinks=True)
            directories = []
            for top, names, _ in os.walk(root):
                names[:] = sorted(n for n in names if n != ".git")  # one seed, one run
                directories.append(top)
            if options.settled_clock:
                cache = TreeCache(clock=settled_clock)
                settle = 0.0
            else:
                cache = TreeCache()  # the racy-timestamp rule holds
                # The copy's directories are new: wait until they count as settled, so that
                # walks replay from the start.
                settle = RACY_NS / 1e9 + 0.1
                time.sleep(settle)
            originals = set(_paths(Walker(cwd=root).walk()))
            list(Walker(cwd=root, cache=cache).walk())  # recorded: later walks replay it
            stop, edits = threading.Event(), [0, None]
            editor = threading.Thread(target=_editor,
                                      args=(rng, directories, options.pause, stop, edits))
            editor.start()
            walks, unsound, problems = 0, 0, []
            deadline = time.monotonic() + options.seconds
            try:
                while time.monotonic() < deadline:
                    paths = _paths(Walker(cwd=root, cache=cache).walk())
                    walks += 1
                    found = []
                    if len(paths) != len(set(paths)):
                        found.append(f"walk {walks}: a path yielded twice")
                    missing = originals.difference(paths)
                    if missing:
                        found.append(f"walk {walks}: {len(missing)} untouched files missing, "
                                     f"such as {sorted(missing)[0]!r}")
                    unsound += bool(found)
                    problems.extend(found)
            finally:
                stop.set()
                editor.join()
            # Once the last edits count as settled, the first walk records the tree and the
            # second replays that record: both must be the uncached walk.
            time.sleep(settle)
            uncached = _paths(Walker(cwd=root).walk())
            final_differs = any(_paths(Walker(cwd=root, cache=cache).walk()) != uncached
                                for _ in range(2))
            if final_differs:
                problems.append("after the edits: the cached walk differs from an uncached one")
            if edits[1] is not None:
                problems.append(f"the editor stopped: {edits[1]!r}")
    finally:
        walk_module._without = without
    for problem in problems[:10]:
        print(problem, file=sys.stderr)
    print(f"{walks - unsound}/{walks} walks sound during "
          f"{edits[0]} edits; {takeovers[0]} fresh walks took over from a partial replay; "
          f"{options.tree or options.corpus + ' corpus'}, seed {options.seed}, pause "
          f"{options.pause} s{', settled clock' if options.settled_clock else ''}"
          f"{'; a final walk differs' if final_differs else ''}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
