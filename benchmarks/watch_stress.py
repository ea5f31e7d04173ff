"""A watched tree cache under edits at scale: a copy of a speed corpus, random edits between
searches, every warm search compared with the reference rg on the same tree.

    python -m benchmarks.watch_stress --corpus medium --steps 200 --seed 1

Each step makes one to five edits (rewrite in place, append, create, delete, rename a file,
edit or create an ignore file, create, remove or move a directory), then searches the tree
in process through one ``TreeCache(watch=True)`` kept across steps (with
``--search-processes N``, shared with watched helper processes) and runs ``rg --sort path``
with the same arguments; the two outputs must be identical. ``--stat-checks`` runs the
steps through a cache without the watch (``TreeCache()``, the default: a ``stat`` per entry),
three steps in four editing contents alone and a clock an hour ahead (every entry settled), so
that a replayed walk's files take the lane that stat-checks cached contents in bulk. The tests
(``tests/search/test_tree_watch.py``) hold each rule on small trees; this runs them together on a
tree of thousands of directories, with the kernel's report queue at its real length.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

from benchmarks.speed.reference import clean_env, locate_reference
from shellfree.engine.backends import InProcessBackend
from shellfree.rgcli.run import run
from shellfree.search.tree_cache import TreeCache

QUERIES = [["-n", "import"], ["-c", "def "], ["-l", "-i", "todo"], ["--files"], ["-n", r"\w+Error"]]


_KINDS = ["rewrite", "append", "create", "delete", "rename", "ignore", "mkdir", "rmdir", "movedir"]


def tree_source(corpus: str, tree: str | None) -> str:
    """The directory a run copies: *tree*, else the speed corpus named *corpus*; exits when it
    is missing."""
    source = tree or os.path.join(os.path.dirname(__file__), "speed", "corpora", corpus)
    if not os.path.isdir(source):
        sys.exit(f"no corpus at {source}: python -m benchmarks.speed.corpora")
    return source


def settled_clock() -> int:
    """A cache clock an hour ahead: every entry counts as settled, its stat signature alone
    decides (the racy-timestamp rule is tests/search/test_tree_cache.py's)."""
    return time.time_ns() + 3600 * 10**9


def _edit(rng: random.Random, root: str, step: int, kinds: list[str] = _KINDS) -> str:
    """Make one random edit of one of *kinds*, numbered *step*; return its kind."""
    files, dirs = [], []
    for top, names, found in os.walk(root):
        names[:] = sorted(n for n in names if n != ".git")  # one seed, one run, on any disk
        dirs.extend(os.path.join(top, n) for n in names)
        files.extend(os.path.join(top, f) for f in sorted(found))
    kind = rng.choice(kinds)
    path = rng.choice(files) if files else root
    directory = rng.choice(dirs) if dirs else root
    if kind == "rewrite" and os.path.isfile(path):
        with open(path, "r+b") as handle:  # same size, in place
            data = handle.read()
            handle.seek(0)
            handle.write(data.replace(b"import", b"IMPORT", 1) if b"import" in data else data[::-1])
    elif kind == "append" and os.path.isfile(path):
        with open(path, "ab") as handle:
            handle.write(b"\nimport stress_%d  # TODO ValueError\n" % step)
    elif kind == "create":
        with open(os.path.join(directory, "new_%d.py" % step), "wb") as handle:
            handle.write(b"def created_%d(): raise KeyError  # todo\n" % step)
    elif kind == "delete" and os.path.isfile(path):
        os.unlink(path)
    elif kind == "rename" and os.path.isfile(path):
        os.rename(path, os.path.join(directory, "renamed_%d_%s" % (step, os.path.basename(path))))
    elif kind == "ignore":
        with open(os.path.join(directory, rng.choice([".gitignore", ".ignore"])), "ab") as handle:
            handle.write(b"%s\n" % os.path.basename(path).encode())
    elif kind == "mkdir":
        made = os.path.join(directory, "dir_%d" % step)
        os.makedirs(made)
        with open(os.path.join(made, "inside.py"), "wb") as handle:
            handle.write(b"import made_%d\n" % step)
    elif kind == "rmdir" and directory != root:
        shutil.rmtree(directory)
    elif kind == "movedir" and directory != root:
        target = os.path.join(root, "moved_%d" % step)
        os.rename(directory, target)
    return kind


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="medium", help="a speed corpus (default: medium)")
    parser.add_argument("--tree", default=None, help="copy this directory instead of a corpus")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--search-processes", type=int, default=1,
                        help="share each search with N-1 watched helper processes (rgcli/pool.py)")
    parser.add_argument("--stat-checks", action="store_true",
                        help="a cache without the watch: every entry checked by its stat")
    options = parser.parse_args(argv)
    source = tree_source(options.corpus, options.tree)
    rg = locate_reference().path
    rng = random.Random(options.seed)
    with tempfile.TemporaryDirectory(prefix="watch-stress-") as scratch:
        root = os.path.join(scratch, "tree")
        shutil.copytree(source, root, symlinks=True)
        if options.stat_checks:
            # A clock an hour ahead: every entry counts as settled and its stat signature alone
            # decides (on this run's second-old tree the racy rule would read most of it again
            # and replay no walk; tests/search/test_tree_cache.py holds that rule).
            cache = TreeCache(clock=settled_clock)
        else:
            cache = TreeCache(watch=True)
        if not cache.watching and not options.stat_checks:
            sys.exit(f"no watch here: {cache.watch_unavailable}")
        kind_of = "stat-checked" if options.stat_checks else "watched"
        if options.search_processes > 1:
            InProcessBackend(cache, processes=options.search_processes)  # gives it a pool
        started, searches, edits = time.monotonic(), 0, {}
        for step in range(options.steps):
            # With stat checks, three steps in four edit contents alone: the directories stay
            # unchanged, the walk recorded is replayed, and its files take the lane in bulk.
            kinds = _KINDS[:2] if options.stat_checks and step % 4 else _KINDS
            for _ in range(rng.randint(1, 5)):
                kind = _edit(rng, root, sum(edits.values()), kinds)  # numbered: names never clash
                edits[kind] = edits.get(kind, 0) + 1
            query = QUERIES[step % len(QUERIES)]
            out, err = io.BytesIO(), io.BytesIO()
            run([q.encode() for q in query], out, err, None, cwd=root, cache=cache)
            expected = subprocess.run([rg, "--sort", "path", *query], cwd=root, capture_output=True,
                                      stdin=subprocess.DEVNULL, env=clean_env(), check=False)
            searches += 1
            if cache.pool is not None and not any(cache.pool.states()):
                print(f"step {step}: no helper process ran", file=sys.stderr)
                return 1
            if (out.getvalue(), err.getvalue()) != (expected.stdout, expected.stderr):
                print(f"step {step}: {' '.join(query)} differs from rg", file=sys.stderr)
                return 1
        print(f"{searches}/{searches} warm {kind_of} searches identical to rg 15.1 after "
              f"{sum(edits.values())} edits ({', '.join(f'{k} {v}' for k, v in sorted(edits.items()))}); "
              f"{options.tree or options.corpus + ' corpus'}, seed {options.seed}, "
              f"{options.search_processes} search process(es), {time.monotonic() - started:.0f} s")
        cache.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
