"""Cached walks while another thread edits the tree: a copy of a speed corpus, files created and
deleted in random directories as walks replay and re-check it.

    python -m benchmarks.walk_race --corpus medium --seconds 20 --pause 0.05 --seed 1

A search shared with helper processes walks with ``Walker.walk(runs=False)``, whose replay of a
recorded walk checks the directories as it yields their files, and makes the walk fresh, less
the files already yielded, when one turned out changed (``Walker._replay_checked``). The tests
(``tests/search/test_tree_cache.py``, ``TestWalkReplay``) hold each rule on a small tree with
edits placed by hand; this runs it against edits at random moments. Every walk must yield no path
twice and every file of the tree the edits never touch; once the edits stop, the cached walk
must equal an uncached one. The count of fresh walks that took over from a partial replay is
the number of calls of ``walk._without``, which this wraps to count them.
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

from shellfree.search import walk as walk_module
from shellfree.search.tree_cache import TreeCache
from shellfree.search.walk import Haystack, Walker


def _editor(rng: random.Random, directories: list[str], pause: float, stop: threading.Event,
            edits: list[int]) -> None:
    """Create or delete ``race-N.txt`` in a random directory every *pause* seconds."""
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


def _paths(events) -> list:
    return [event.path if isinstance(event, Haystack) else event for event in events]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="medium", help="a speed corpus (default: medium)")
    parser.add_argument("--tree", default=None, help="copy this directory instead of a corpus")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--pause", type=float, default=0.05, help="seconds between two edits")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args(argv)
    source = options.tree or os.path.join(os.path.dirname(__file__), "speed", "corpora", options.corpus)
    if not os.path.isdir(source):
        sys.exit(f"no corpus at {source}: python -m benchmarks.speed.corpora")
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
            cache = TreeCache()  # the real clock: the racy-timestamp rule holds
            originals = set(_paths(Walker(cwd=root).walk()))
            list(Walker(cwd=root, cache=cache).walk())  # recorded: later walks replay it
            stop, edits = threading.Event(), [0]
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
            final_differs = (_paths(Walker(cwd=root, cache=cache).walk())
                             != _paths(Walker(cwd=root).walk()))
            if final_differs:
                problems.append("after the edits: the cached walk differs from an uncached one")
    finally:
        walk_module._without = without
    for problem in problems[:10]:
        print(problem, file=sys.stderr)
    print(f"{walks - unsound}/{walks} walks sound during "
          f"{edits[0]} edits; {takeovers[0]} fresh walks took over from a partial replay; "
          f"{options.tree or options.corpus + ' corpus'}, seed {options.seed}, pause "
          f"{options.pause} s{'; the final walk differs' if final_differs else ''}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
