"""Per-path locks: concurrent edits of one file serialise, in threads and in processes (§10)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from shellfree import FileTools
from shellfree.engine.atomic_write import TEMP_SUFFIX
from shellfree.engine.path_locks import (
    PATH_LOCKS, SIDECAR_STRIPES, PathLockRegistry, lock_key, lock_paths, stripe_of)

THREADS = 8
PATCHES_PER_THREAD = 50
SRC = str(Path(__file__).parents[2] / "src")


def counter_file(path: Path, workers: int) -> None:
    path.write_text("".join(f"<w{i}={0}>\n" for i in range(workers)), encoding="utf-8")


class TestRegistry:
    def test_entries_dropped_when_unused(self, tmp_path):
        registry = PathLockRegistry()
        registry.acquire("k")
        assert len(registry) == 1
        registry.release("k")
        assert len(registry) == 0

    def test_lock_key_is_the_real_path(self, tmp_path):
        (tmp_path / "f").write_text("x")
        os.symlink(tmp_path / "f", tmp_path / "link")
        assert lock_key(str(tmp_path / "link")) == lock_key(str(tmp_path / "sub" / ".." / "f"))

    def test_same_path_twice_locks_once(self, tmp_path):
        path = str(tmp_path / "f")
        with lock_paths([path, path, str(tmp_path / "." / "f")]) as exclusive:
            assert exclusive in (True, False)
        assert len(PATH_LOCKS) == 0

    def test_paths_sharing_a_stripe_do_not_deadlock(self, tmp_path):
        paths = [str(tmp_path / f"f{i}") for i in range(3 * SIDECAR_STRIPES)]
        assert len({stripe_of(lock_key(p)) for p in paths}) < len(paths)
        with lock_paths(paths) as exclusive:
            assert exclusive in (True, False)
        assert len(PATH_LOCKS) == 0

    def test_lock_excludes_other_threads(self, tmp_path):
        path = str(tmp_path / "f")
        inside, events = threading.Event(), []

        def other():
            with lock_paths([path]):
                events.append("other")

        with lock_paths([path]):
            thread = threading.Thread(target=other)
            thread.start()
            thread.join(0.2)
            events.append("first")
        thread.join()
        assert events == ["first", "other"]
        assert not inside.is_set()


def test_threads_patching_one_file_lose_no_update(root):
    """8 threads × 50 patches, each thread bumping its own counter line through patch."""
    target = root / "counters.txt"
    counter_file(target, THREADS)
    errors: list[str] = []

    def worker(i: int) -> None:
        ft = FileTools(root)  # one task per thread, as with parallel subagents
        for n in range(PATCHES_PER_THREAD):
            result = json.loads(ft.patch(path="counters.txt", old_string=f"<w{i}={n}>",
                                         new_string=f"<w{i}={n + 1}>"))
            if not result.get("success"):
                errors.append(f"thread {i} patch {n}: {result}")

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert target.read_text(encoding="utf-8") == "".join(
        f"<w{i}={PATCHES_PER_THREAD}>\n" for i in range(THREADS))
    assert [n for n in os.listdir(root) if n.endswith(TEMP_SUFFIX)] == []


def test_threads_sharing_one_task(root):
    target = root / "shared.txt"
    counter_file(target, 4)
    ft = FileTools(root)

    def worker(i: int) -> None:
        for n in range(25):
            ft.patch(path="shared.txt", old_string=f"<w{i}={n}>", new_string=f"<w{i}={n + 1}>")

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert target.read_text() == "".join(f"<w{i}=25>\n" for i in range(4))


def test_readers_never_see_a_partial_write(root, monkeypatch):
    monkeypatch.setenv("HERMES_DISABLE_FILE_STATE_GUARD", "1")
    versions = [f"version {v}\n" + "x" * 200_000 for v in range(4)]
    (root / "big.txt").write_text(versions[0])
    stop, seen_bad = threading.Event(), []

    def reader() -> None:
        while not stop.is_set():
            data = (root / "big.txt").read_text()
            if data not in versions:
                seen_bad.append(len(data))

    def writer(i: int) -> None:
        ft = FileTools(root)
        for n in range(10):
            ft.write_file("big.txt", versions[(i + n) % 4])

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(4)]
    watcher = threading.Thread(target=reader)
    watcher.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stop.set()
    watcher.join()
    assert seen_bad == []


_PROCESS_WORKER = textwrap.dedent("""
    import json, sys
    from shellfree import FileTools
    root, i, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    ft = FileTools(root)
    for n in range(count):
        r = json.loads(ft.patch(path="counters.txt", old_string=f"<w{i}={n}>",
                                new_string=f"<w{i}={n + 1}>"))
        if not r.get("success"):
            print(r); sys.exit(1)
""")


@pytest.mark.skipif(sys.platform not in ("linux", "darwin", "win32"),
                    reason="process locks need fcntl or msvcrt")
def test_processes_patching_one_file_lose_no_update(root):
    """4 processes × 25 patches: the sidecar lock serialises them across processes."""
    workers, count = 4, 25
    counter_file(root / "counters.txt", workers)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([SRC, os.environ.get("PYTHONPATH", "")]))
    procs = [subprocess.Popen([sys.executable, "-c", _PROCESS_WORKER, str(root), str(i),
                               str(count)], env=env, stdout=subprocess.PIPE, text=True)
             for i in range(workers)]
    outputs = [p.communicate(timeout=120)[0] for p in procs]
    assert [p.returncode for p in procs] == [0] * workers, outputs
    assert (root / "counters.txt").read_text() == "".join(
        f"<w{i}={count}>\n" for i in range(workers))
