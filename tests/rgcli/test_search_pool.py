"""A tree cache's search pool (rgcli/pool.py): helper processes share a search, the output is
the serial one.

Every comparison is with a run without any cache, which is what rg prints (the parity suites
hold the uncached engine to it). Most pools here route every file to the helper
(``owner_weight=0``), so that a test is about the helper's side, and each checks through
``SearchPool.states`` that the helper did search the files; the clock is one hour ahead, as in
test_tree_cache, so that every file counts as settled and stays cached.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import shellfree
from shellfree import FileTools
from shellfree.engine import backends
from shellfree.engine.backends import InProcessBackend
from shellfree.rgcli import pool as pool_module
from shellfree.rgcli.pool import SearchPool, _routes
from shellfree.search.tree_cache import TreeCache
from shellfree.search.tree_watch import watch_unavailable
from shellfree.search.walk import Haystack

from tests.search.test_tree_cache import HOUR_NS, build_tree, rg, settled_clock, write


def pooled(owner_weight: float = 0.0, helpers: int = 1, watch: bool = False, **kwargs) -> TreeCache:
    cache = TreeCache(clock=settled_clock, watch=watch, **kwargs)
    cache.pool = SearchPool(helpers, cache.content_budget, cache.remembered_searches,
                            watch=cache.watching, clock_offset=HOUR_NS, owner_weight=owner_weight)
    return cache


@pytest.fixture
def caches():
    made: list[TreeCache] = []

    def make(*args, **kwargs) -> TreeCache:
        cache = pooled(*args, **kwargs)
        made.append(cache)
        return cache

    yield make
    for cache in made:
        cache.close()


def agree(root, cache, *args: str) -> bytes:
    fresh = rg(root, *args, cache=None)
    assert rg(root, *args, cache=cache) == fresh
    return fresh


def build_wide(root, files: int = 40):
    """build_tree, plus *files* files in three directories, a binary file, a hidden one and
    a file named with a space."""
    build_tree(root, deep=b"needle deep\nother\n")
    for i in range(files):
        body = b"".join(b"line %d of %d needle\nplain\n" % (j, i) for j in range(i % 4))
        write(root / f"d{i % 3}" / f"f{i:03}.txt", body or b"no match\n")
    write(root / "d0" / "bin.dat", b"needle\0binary\n")
    write(root / "d1" / ".hidden.txt", b"needle hidden\n")
    write(root / "d2" / "with space.txt", b"needle spaced\n")
    return root


ARGS = [
    ("-n", "needle"),
    ("-c", "needle"),
    ("-l", "needle"),
    ("--files-without-match", "needle"),
    ("-n", "-C1", "needle"),
    ("-n", "-v", "needle"),
    ("-n", "-m1", "e"),
    ("-n", "--heading", "needle"),
    ("-o", "-b", "ne+dle"),
    ("-n", "-U", "needle\\nplain"),
    ("-n", "-g", "*.txt", "-g", "!d1/**", "needle"),
    ("-n", "--hidden", "--no-ignore", "needle"),
    ("-n", "--sort", "path", "needle", "d2", "a.txt", "missing", "d0"),
    ("-q", "needle"),  # not pooled (it stops at the first match): the serial path
    ("-n", "--max-columns", "10", "needle"),
]


@pytest.mark.parametrize("args", ARGS, ids=lambda args: " ".join(args))
@pytest.mark.parametrize("owner_weight", [0.0, 0.8], ids=["all-to-helper", "shared"])
def test_a_pooled_search_prints_the_serial_output(isolated, caches, args, owner_weight):
    root = build_wide(isolated)
    cache = caches(owner_weight)
    first = agree(root, cache, *args)
    assert agree(root, cache, *args) == first  # warm, outcomes remembered by the helper
    if args[0] != "-q":
        assert not first.startswith(b"\n--stderr--")  # something printed
        helper = cache.pool.states()[0]
        assert helper is not None and helper["contents"] > 0 and helper["searches"] == 1
        if owner_weight == 0.0:
            assert cache.state()["contents"] == 0  # the owner only walked


def test_the_routes_share_the_files_by_weight():
    assert _routes(1, 0.0).count(0) == 0
    assert set(_routes(2, 0.0)) == {1, 2}
    shares = _routes(1, 0.8)
    assert shares.count(0) == 455 and shares.count(1) == 569  # 0.8 : 1 of 1024
    shares = _routes(3, 1.0)
    assert [shares.count(i) for i in range(4)] == [256, 256, 256, 256]


def test_a_change_between_searches_is_seen(isolated, caches):
    root = build_wide(isolated)
    cache = caches()
    agree(root, cache, "-n", "needle")
    write(root / "d0" / "f000.txt", b"needle now\n")  # "no match" before
    os.unlink(root / "d1" / "f001.txt")
    write(root / "d2" / "new.txt", b"needle new\n")
    after = agree(root, cache, "-n", "needle")
    assert b"needle now" in after and b"needle new" in after and b"f001" not in after


def big_tree(root, files: int = 700):
    for i in range(files):
        write(root / f"d{i % 7}" / f"f{i:04}.txt", b"needle %d\n" % i)
    return root


def test_a_search_stopped_early_leaves_the_pool_in_step(isolated, caches):
    # search_files' output cap stops the search after 5 lines: the helper gives up the rest,
    # and its late answers to the abandoned search are not taken for the next one's.
    root = big_tree(isolated)
    cache = caches()
    pooled_backend, serial = InProcessBackend(cache), InProcessBackend(None)
    argv = ["-n", "needle"]
    capped = pooled_backend.run(argv, str(root), max_lines=5)
    assert capped == serial.run(argv, str(root), max_lines=5) and capped.capped
    assert pooled_backend.run(argv, str(root)) == serial.run(argv, str(root))
    assert pooled_backend.run(["-c", "needle"], str(root)) == serial.run(["-c", "needle"], str(root))


def test_a_search_stopped_before_its_walk_ends_is_given_up_by_the_helper(isolated, caches):
    # The owner stops after a few files, before it has sent every batch or the end: the
    # helper must leave that search for the next one (else the next search waits forever).
    root = big_tree(isolated, 3000)
    cache = caches(0.8)
    backend, serial = InProcessBackend(cache), InProcessBackend(None)
    assert backend.run(["-n", "needle"], str(root), max_lines=2).capped
    done: list = []
    thread = threading.Thread(
        target=lambda: done.append(backend.run(["-c", "needle"], str(root))), daemon=True)
    thread.start()
    thread.join(timeout=60)
    assert done == [serial.run(["-c", "needle"], str(root))]


def test_a_late_answer_to_an_earlier_search_is_not_taken(isolated, caches):
    root = big_tree(isolated)
    cache = caches()
    agree(root, cache, "-n", "needle")
    # As a helper answers a batch of a search its owner stopped: as many outcomes as the
    # next search's first batch, all of them "nothing printed".
    cache.pool._helpers[0].answers.put((pool_module.RESULTS, 1, [()] * pool_module._BATCH))
    agree(root, cache, "-n", "needle")


def test_a_helper_that_dies_during_a_search_leaves_its_files_to_the_owner(
        isolated, caches, monkeypatch):
    root = big_tree(isolated)
    cache = caches()
    agree(root, cache, "-n", "needle")  # the helper is running
    flush = pool_module._Share.flush
    killed = []

    def flush_then_kill(share):
        flush(share)
        if not killed and share.helper is not None:
            share.helper.process.kill()
            share.helper.process.wait()
            killed.append(share.helper)

    monkeypatch.setattr(pool_module._Share, "flush", flush_then_kill)
    agree(root, cache, "-c", "needle")
    assert killed
    monkeypatch.undo()
    agree(root, cache, "-n", "needle", "d3")
    assert cache.pool.states()[0] is not None  # a new helper took the next search


def test_a_helper_killed_between_searches_is_replaced(isolated, caches):
    root = build_wide(isolated)
    cache = caches()
    agree(root, cache, "-n", "needle")
    helper = cache.pool._helpers[0]
    helper.process.kill()
    helper.process.wait()
    agree(root, cache, "-n", "needle")
    assert cache.pool._helpers[0] is not helper and cache.pool.states()[0] is not None


def test_an_unreadable_answer_leaves_the_files_to_the_owner(isolated, caches, monkeypatch):
    root = build_wide(isolated)
    cache = caches()
    agree(root, cache, "-n", "needle")
    receive = pool_module.read_frame
    monkeypatch.setattr(pool_module, "read_frame",
                        lambda stream: (pool_module.RESULTS, 10**6, []) if receive(stream) else None)
    agree(root, cache, "-n", "needle")  # the answers belong to no search: the owner searches


def test_a_helper_that_cannot_start_is_tried_three_times_then_the_pool_rests(
        isolated, caches, monkeypatch):
    root = build_wide(isolated)
    cache = caches(0.8)
    monkeypatch.setattr(pool_module, "_HELPER_MODULE", "shellfree.no_such_module")
    started = []
    popen = pool_module.subprocess.Popen

    def counted(*args, **kwargs):
        started.append(args[0])
        return popen(*args, **kwargs)

    monkeypatch.setattr(pool_module.subprocess, "Popen", counted)
    for _ in range(6):
        agree(root, cache, "-n", "needle")
    assert len(started) == 3 and cache.pool.states() == [None]


def test_a_search_closed_before_its_first_outcome_frees_the_pool(isolated, caches):
    root = build_wide(isolated)
    cache = caches()

    class OneFile:
        def walk(self, roots):
            yield Haystack(b"a.txt", False)

    steps = cache.pool.search([b"needle"], str(root), OneFile(), None, lambda haystack: ())
    steps.close()
    assert cache.pool._lock.acquire(timeout=5)
    cache.pool._lock.release()
    agree(root, cache, "-n", "needle")
    assert cache.pool.states()[0]["searches"] == 1  # the search above went through the pool


def test_without_a_known_interpreter_the_search_is_serial(isolated, caches, monkeypatch):
    root = build_wide(isolated)
    cache = caches()
    monkeypatch.setattr(pool_module.sys, "executable", None)  # as Python leaves it when unknown
    for _ in range(4):
        agree(root, cache, "-n", "needle")
    assert cache.pool.failures == 3 and cache.pool.states() == [None]


def test_a_search_the_helper_cannot_open_is_searched_by_the_owner(isolated, caches):
    # The helper opens the owner's search from its command line; when it cannot (here a flag
    # it refuses), it says so, and the owner searches the files it was given.
    cache = caches()
    paths = [b"f%04d.txt" % i for i in range(600)]

    class Files:
        def walk(self, roots):
            for path in paths:
                yield Haystack(path, False)

    got: list = []
    thread = threading.Thread(target=lambda: got.extend(cache.pool.search(
        [b"--no-such-flag", b"x"], str(isolated), Files(), None,
        lambda haystack: ("owner", haystack.path))), daemon=True)
    thread.start()
    thread.join(timeout=60)
    assert got == [("owner", path) for path in paths]


def test_a_late_answer_does_not_confuse_the_state_query(isolated, caches):
    root = build_wide(isolated)
    cache = caches()
    agree(root, cache, "-n", "needle")
    cache.pool._helpers[0].answers.put((pool_module.RESULTS, 1, []))
    assert cache.pool.states()[0]["searches"] == 1


def test_forget_and_clear_reach_the_helpers(isolated, caches):
    root = build_wide(isolated)
    cache = caches()
    agree(root, cache, "-n", "needle")
    held = cache.pool.states()[0]
    assert held["contents"] > 1 and held["searches"] == 1
    cache.forget(root / "d0" / "f000.txt")
    assert cache.pool.states()[0]["contents"] == held["contents"] - 1
    cache.forget_searches()
    assert cache.pool.states()[0]["searches"] == 0
    cache.clear()
    assert cache.pool.states()[0]["contents"] == 0


def test_a_write_through_file_tools_is_seen_by_the_helpers(isolated):
    build_wide(isolated)
    with FileTools(isolated, search_processes=2) as tools:
        assert '"total_count": 0' in tools.search_files("rewritten", path=".")
        for i in range(40):
            path = f"d{i % 3}/f{i:03}.txt"
            tools.read_file(path)  # a file must be read before it is overwritten
            assert '"error"' not in tools.write_file(path, "rewritten\n")
        tools.notify_other_tool_call()
        assert '"total_count": 40' in tools.search_files("rewritten", path=".")


def test_file_tools_close_stops_the_helpers_and_a_search_starts_them_again(isolated):
    build_wide(isolated)
    tools = FileTools(isolated, search_processes=2)
    plain = FileTools(isolated)
    assert tools.search_files("needle", path=".") == plain.search_files("needle", path=".")
    pool = tools.tree_cache.pool
    assert pool.states() != [None]
    tools.close()
    assert pool.states() == [None]
    tools.notify_other_tool_call()
    plain.notify_other_tool_call()
    assert tools.search_files("needle", path=".") == plain.search_files("needle", path=".")
    assert pool.states() != [None]
    tools.close()


def test_search_processes_needs_the_in_process_backend_and_a_cache(isolated):
    with pytest.raises(ValueError, match="in-process backend and a tree cache"):
        FileTools(isolated, search_processes=2, tree_cache=False)
    with pytest.raises(ValueError, match="in-process backend and a tree cache"):
        FileTools(isolated, search_processes=2, backend="rg")
    with pytest.raises(ValueError, match="processes must be 1 or more"):
        InProcessBackend(TreeCache(), processes=0)
    with pytest.raises(ValueError, match="at least one helper"):
        SearchPool(0, 0, 0)


QUERIES = ("needle", "plain", "line \\d+", "of 3")


def search_all(tools: FileTools, queries=QUERIES) -> list[str]:
    answers = []
    for query in queries:
        answers.append(tools.search_files(query, path="."))
        tools.notify_other_tool_call()
    return answers


@pytest.fixture
def auto_pool(monkeypatch):
    """A pool may start by itself here (whatever the machine's CPUs), after a search that left
    more than 1,000 bytes unkept (or, in the tests that lower AUTO_POOL_FILES, checked that many
    files)."""
    monkeypatch.setattr(backends, "AUTO_POOL_UNKEPT", 1000)
    monkeypatch.setattr(backends, "_auto_pool_possible", lambda: True)


def test_a_tree_past_the_content_budget_gets_a_helper_from_the_next_search(isolated, auto_pool,
                                                                            monkeypatch):
    build_wide(isolated)
    expected = search_all(FileTools(isolated, tree_cache=False))
    with FileTools(isolated, tree_cache=TreeCache(content_budget=300)) as tools:
        cache = tools.tree_cache
        assert search_all(tools, QUERIES[:1]) == expected[:1]
        assert cache.unkept_bytes > 1000
        assert cache.pool is None  # the search that found it out ran alone
        drops = []
        drop_contents = cache.drop_contents
        monkeypatch.setattr(cache, "drop_contents",
                            lambda: drops.append(cache.content_bytes) or drop_contents())
        assert search_all(tools, QUERIES[1:]) == expected[1:]
        pool = cache.pool
        assert pool is not None and pool.size == 1
        (state,) = pool.states()
        assert state is not None and state["searches"] == 3  # the helper shared all three
        # Its contents of every share were dropped once, when the pool started (see
        # InProcessBackend._auto_start: left to age out, they cost peak memory).
        assert len(drops) == 1 and drops[0] > 0


def test_a_tree_within_the_budget_and_short_of_the_files_stays_in_one_process(
        isolated, auto_pool, monkeypatch):
    build_wide(isolated)
    with FileTools(isolated, tree_cache=TreeCache(clock=settled_clock)) as tools:
        search_all(tools, QUERIES[3:])  # every file read, none kept out
        checked = tools.tree_cache.files_checked
        assert checked > 40 and tools.tree_cache.unkept_bytes == 0
        monkeypatch.setattr(backends, "AUTO_POOL_FILES", checked + 1)  # one short, each time
        search_all(tools, QUERIES[:3])  # new queries: each checks every file's cached copy
        assert tools.tree_cache.files_checked == checked
        assert tools.tree_cache.pool is None
        monkeypatch.setattr(backends, "AUTO_POOL_FILES", checked)  # now each is enough
        tools.tree_cache.forget_searches()
        search_all(tools, QUERIES[:3])
        assert tools.tree_cache.pool is not None  # started at the third


def test_two_searches_of_many_files_without_a_watch_get_a_helper_from_the_next_search(
        isolated, auto_pool, monkeypatch):
    # Each new search of such a tree makes a stat per file at least: the helper splits them.
    monkeypatch.setattr(backends, "AUTO_POOL_FILES", 20)
    build_wide(isolated)
    uncached = FileTools(isolated, tree_cache=False)
    expected = search_all(uncached)
    few = ["of 3", "of 2"]  # 30 and 13 lines: the output cap stops neither, every file is read
    expected_few = search_all(uncached, few)
    with FileTools(isolated, tree_cache=TreeCache(clock=settled_clock)) as tools:
        cache = tools.tree_cache
        assert search_all(tools, few) == expected_few
        assert cache.unkept_bytes == 0 and cache.files_checked >= 20
        assert cache.pool is None  # the two searches that found it out ran alone
        held = cache.state()["contents"]
        drops = []
        drop_contents = cache.drop_contents
        monkeypatch.setattr(cache, "drop_contents",
                            lambda: drops.append(cache.content_bytes) or drop_contents())
        assert search_all(tools) == expected
        pool = cache.pool
        assert pool is not None and pool.size == 1
        (state,) = pool.states()
        assert state is not None and state["searches"] == 4 and state["contents"] > 0
        # Dropped once at the start, as for a tree past the budget: each process holds its
        # own share from then on, and no file is held twice.
        assert len(drops) == 1 and drops[0] > 0
        kept = cache.state()["contents"]
        assert 0 < kept < held and kept + state["contents"] == held


def test_one_search_of_many_files_between_small_ones_gets_no_helper(isolated, auto_pool,
                                                                    monkeypatch):
    # A search of a large tree elsewhere, or search_files' probe over ignored files.
    monkeypatch.setattr(backends, "AUTO_POOL_FILES", 20)
    build_wide(isolated)
    with FileTools(isolated, tree_cache=TreeCache(clock=settled_clock)) as tools:
        counts = []
        for query, path in [("of 3", "."), ("of 3", "d0"), ("of 2", "."), ("of 2", "d0"),
                            ("of 1", "."), ("needle", "d1")]:
            tools.search_files(query, path=path)
            tools.notify_other_tool_call()
            counts.append(tools.tree_cache.files_checked)
        assert counts[::2] == [counts[0]] * 3 and counts[0] >= 20  # the whole tree
        assert max(counts[1::2]) < 20  # one directory of it
        assert tools.tree_cache.pool is None


def test_a_search_that_finds_nothing_counts_once_with_its_probes(isolated, auto_pool,
                                                                  monkeypatch):
    # Its three runs (the search, the -i and the --no-ignore probes) each check the tree.
    monkeypatch.setattr(backends, "AUTO_POOL_FILES", 20)
    build_wide(isolated)
    with FileTools(isolated, tree_cache=TreeCache(clock=settled_clock)) as tools:
        for query, path in [("absent from every file", "."), ("of 3", "d0"), ("of 2", "d0")]:
            tools.search_files(query, path=path)
            tools.notify_other_tool_call()
        assert tools.tree_cache.pool is None


def test_a_run_that_ends_before_its_search_counts_no_files(isolated, auto_pool, monkeypatch):
    # Without search marks each run counts; --version never begins a search, and must not
    # count the files of the run before it again.
    monkeypatch.setattr(backends, "AUTO_POOL_FILES", 20)
    build_wide(isolated)
    cache = TreeCache(clock=settled_clock)
    backend = InProcessBackend(cache, processes=None)
    try:
        backend.run(["-n", "of 3"], str(isolated))
        assert cache.files_checked >= 20
        assert backend.run(["--version"], str(isolated)).status == 0
        backend.run(["-n", "of 2"], str(isolated))
        assert cache.pool is None
        backend.run(["-n", "of 1"], str(isolated))
        backend.run(["-n", "of 0"], str(isolated))  # two in a row before it
        assert cache.pool is not None
    finally:
        cache.close()


@pytest.mark.skipif(watch_unavailable() is not None, reason=str(watch_unavailable()))
def test_watched_searches_of_many_files_stay_in_one_process(isolated, auto_pool, monkeypatch):
    # The watch spares the stat of every cached file: there a helper only adds its hand-over.
    # Each of these searches reads a directory of files for the first time.
    monkeypatch.setattr(backends, "AUTO_POOL_FILES", 10)
    build_wide(isolated)
    with FileTools(isolated, tree_cache=TreeCache(clock=settled_clock, watch=True)) as tools:
        if not tools.tree_cache.watching:
            pytest.skip(f"no watch: {tools.tree_cache.watch_unavailable}")
        for path in ("d0", "d1", "d2"):
            tools.search_files("of 3", path=path)
            tools.notify_other_tool_call()
            assert tools.tree_cache.files_checked >= 10  # read
        assert tools.tree_cache.pool is None


@pytest.mark.parametrize("options", [
    {"search_processes": 1, "tree_cache": TreeCache(content_budget=300)},  # asked for one
    {"tree_cache": TreeCache(content_budget=0)},  # no contents are to be kept at all
])
def test_no_helper_starts_by_itself_when_told_so(isolated, auto_pool, options, monkeypatch):
    monkeypatch.setattr(backends, "AUTO_POOL_FILES", 20)  # by either rule
    build_wide(isolated)
    with FileTools(isolated, **options) as tools:
        search_all(tools)
        assert tools.tree_cache.pool is None


@pytest.mark.parametrize("executable, frozen, expected", [
    ("/usr/bin/python3", False, True),
    ("/opt/venv/bin/python3.11", False, True),
    ("/usr/local/bin/pypy3", False, True),
    ("/opt/app/bin/host-app", False, False),  # an embedding host
    ("/opt/app/bin/python3", True, False),  # a frozen program (PyInstaller sets sys.frozen)
    ("", False, False),
])
def test_a_helper_starts_by_itself_only_for_a_python_interpreter(monkeypatch, executable,
                                                                   frozen, expected):
    monkeypatch.setattr(sys, "frozen", frozen, raising=False)
    assert backends._runs_python(executable) is expected


def test_no_helper_starts_by_itself_in_a_host_that_is_not_python(isolated, monkeypatch):
    monkeypatch.setattr(backends, "AUTO_POOL_UNKEPT", 1000)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(sys, "executable", "/opt/app/bin/host-app")
    build_wide(isolated)
    with FileTools(isolated, tree_cache=TreeCache(content_budget=300)) as tools:
        search_all(tools)
        assert tools.tree_cache.unkept_bytes > 1000
        assert tools.tree_cache.pool is None


def test_two_backends_on_one_cache_start_one_pool(isolated, auto_pool, monkeypatch):
    build_wide(isolated)
    cache = TreeCache(content_budget=300)
    first, second = (InProcessBackend(cache, processes=None) for _ in range(2))
    first.run(["-n", "needle"], str(isolated))
    assert cache.unkept_bytes > 1000
    made = []
    original = SearchPool.__init__

    def slow_init(self, *args, **kwargs):
        made.append(self)
        time.sleep(0.05)  # widens the window between the check and the pool's start
        original(self, *args, **kwargs)

    monkeypatch.setattr(SearchPool, "__init__", slow_init)
    threads = [threading.Thread(target=backend._auto_start) for backend in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert len(made) == 1 and cache.pool is made[0]
    finally:
        cache.close()


def test_no_helper_starts_by_itself_with_one_cpu(isolated, monkeypatch):
    monkeypatch.setattr(backends, "AUTO_POOL_UNKEPT", 1000)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    build_wide(isolated)
    with FileTools(isolated, tree_cache=TreeCache(content_budget=300)) as tools:
        search_all(tools)
        assert tools.tree_cache.unkept_bytes > 1000
        assert tools.tree_cache.pool is None


def test_two_threads_searching_at_once_both_get_the_serial_output(isolated, caches):
    # One takes the pool, the other searches alone meanwhile.
    root = big_tree(isolated, 300)
    cache = caches(0.8)
    expected = {args: rg(root, *args, cache=None) for args in (("-n", "needle"), ("-c", "1"))}
    seen: list = []

    def search(args):
        for _ in range(5):
            seen.append(rg(root, *args, cache=cache) == expected[args])

    threads = [threading.Thread(target=search, args=(args,)) for args in expected]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == [True] * 10


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_a_forked_child_searches_alone(isolated, caches):
    root = build_wide(isolated)
    cache = caches()
    expected = agree(root, cache, "-n", "needle")
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        ok = cache.pool.search([b"x"], None, None, None, None) is None \
            and rg(root, "-n", "needle", cache=cache) == expected
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    agree(root, cache, "-n", "needle")  # the pipes are still the parent's


def test_a_forked_child_does_not_keep_the_helpers_input_open(isolated, caches):
    """A child's copy of the pipe to a helper would keep the helper from seeing its input end
    when the parent closes the pool: close() would wait 2 s and kill it."""
    import warnings

    root = build_wide(isolated)
    cache = caches()
    agree(root, cache, "-n", "needle")
    (helper,) = cache.pool._helpers
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # 3.12+: fork beside a thread
        pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        time.sleep(5)
        os._exit(0)
    try:
        cache.pool.close()
        assert helper.process.returncode == 0  # it saw its input end and left; not killed
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


def test_a_search_with_messages_keeps_them_in_walk_order(isolated, caches):
    root = build_wide(isolated)
    os.symlink(root / "nowhere", root / "d1" / "broken")
    cache = caches()
    out = agree(root, cache, "-n", "--follow", "needle", "d0", "missing", "d1", "d2")
    assert b"missing" in out and b"broken" in out


@pytest.mark.parametrize("owner_weight", [0.0, 0.8], ids=["all-to-helper", "shared"])
def test_every_change_is_seen_by_a_new_query_without_a_watch(isolated, caches, owner_weight):
    # A new query's files take _Search.lane in the helper (and the owner) where their stat
    # vouches for their cached contents; a change must send the changed file to a read.
    from tests.search.tree_changes import CHANGED_TEXT, CHANGES

    for number, change in enumerate(CHANGES):
        if sys.platform == "win32" and "symlink" in change.__name__:
            continue  # symlinks need a privilege on Windows
        root = build_tree(isolated / str(number), deep=b"needle deep\n")
        cache = caches(owner_weight)
        agree(root, cache, "-n", "needle")
        for args in (("-n", CHANGED_TEXT), ("-c", CHANGED_TEXT), ("-n", "needle")):
            cache.forget_searches()
            agree(root, cache, *args)
        change(root)
        for args in (("-n", CHANGED_TEXT), ("-c", CHANGED_TEXT), ("-n", "needle")):
            cache.forget_searches()
            agree(root, cache, *args)


def test_the_owner_vouches_for_its_own_files_a_batch_at_a_time(isolated, caches, monkeypatch):
    # Without a watch, a new query's lane takes the owner's share as it takes a helper's: the
    # cached contents of a batch vouched for by one stat_lane_batch call, not file by file.
    from shellfree.rgcli import search as rg_search

    root = build_wide(isolated)
    cache = caches(0.8)
    agree(root, cache, "-n", "needle")  # the contents read and kept
    batches: list[int] = []
    sizes: list[int] = []
    original = rg_search._Search.stat_lane_batch

    def spy(self, walked):
        settled = original(self, walked)
        batches.append(sum(settled) if settled is not None else -1)
        sizes.append(len(walked))
        return settled

    monkeypatch.setattr(rg_search._Search, "stat_lane_batch", spy)
    for args in (("-n", "absent-everywhere"), ("-n", "needle"), ("-c", "plain")):
        cache.forget_searches()
        agree(root, cache, *args)
    assert batches and -1 not in batches
    assert max(batches) > 1  # several of the owner's files settled by one call
    assert cache.state()["contents"] > 0 and cache.pool.states()[0]["contents"] > 0
    # At most a batch's worth at a time, however many pile up behind a helper's file: a file is
    # stat-checked a bounded number of files before it is searched.
    monkeypatch.setattr(pool_module, "_BATCH", 3)
    sizes.clear()
    for args in (("-n", "absent-everywhere"), ("-n", "needle")):
        cache.forget_searches()
        agree(root, cache, *args)
    assert sizes and max(sizes) == 3


@pytest.mark.skipif(watch_unavailable() is not None, reason=str(watch_unavailable()))
class TestWatchedHelpers:
    """A watched cache's helpers watch the directories of the files they read (TreeCache.cover):
    every change kind of test_tree_watch, made between two warm pooled searches, is seen."""

    @pytest.mark.parametrize("args", [("-n", "needle"), ("-c", "needle", "--sort", "path")],
                             ids=["search", "count"])
    def test_every_change_between_runs_is_seen(self, isolated, caches, args):
        from tests.search.tree_changes import CHANGES

        for number, change in enumerate(CHANGES):
            root = build_tree(isolated / str(number), deep=b"needle deep\n")
            cache = caches(watch=True)
            agree(root, cache, *args)
            agree(root, cache, *args)  # now vouched for by the helper's watch
            change(root)
            agree(root, cache, *args)
            agree(root, cache, *args)
            state = cache.pool.states()[0]
            assert state["watching"] and state["watched_directories"] > 0, change.__name__

    @pytest.mark.parametrize("owner_weight", [0.0, 0.8], ids=["all-to-helper", "shared"])
    def test_every_change_is_seen_by_a_new_query(self, isolated, caches, owner_weight):
        # A new query's files take _Search.lane in the helper (and the owner) where the watch
        # vouches for their cached contents; a change must send the changed file to a read.
        from tests.search.tree_changes import CHANGED_TEXT, CHANGES

        for number, change in enumerate(CHANGES):
            root = build_tree(isolated / str(number), deep=b"needle deep\n")
            cache = caches(owner_weight, watch=True)
            agree(root, cache, "-n", "needle")
            for args in (("-n", CHANGED_TEXT), ("-c", CHANGED_TEXT)):
                cache.forget_searches()
                agree(root, cache, *args)
            change(root)
            for args in (("-n", CHANGED_TEXT), ("-c", CHANGED_TEXT)):
                cache.forget_searches()
                agree(root, cache, *args)

    def test_a_root_outside_the_working_directory_is_watched_too(self, isolated, caches):
        # Its files' directories are not below the helper's top: each is watched alone, and a
        # change in it is still reported.
        root = build_wide(isolated / "work")
        outside = build_wide(isolated / "outside")
        cache = caches(watch=True)
        args = ("-n", "needle", str(outside / "d0"), str(outside / "sub"))
        agree(root, cache, *args)
        agree(root, cache, *args)
        with open(outside / "d0" / "f003.txt", "r+b") as handle:
            handle.write(b"NEEDLE")  # same size, in place
        assert b"NEEDLE" in agree(root, cache, *args)
        os.unlink(outside / "sub" / "deep" / "d.txt")
        assert b"d.txt" not in agree(root, cache, *args)
        assert cache.pool.states()[0]["watched_directories"] >= 3

    def test_the_helper_watches_the_directories_it_reads_in(self, isolated, caches):
        root = build_wide(isolated)
        cache = caches(watch=True)
        agree(root, cache, "-n", "needle")
        state = cache.pool.states()[0]
        # root, root/., sub, sub/deep, d0, d1, d2 (by inode: the spellings of one directory
        # share a watch)
        assert state["watching"] and state["watched_directories"] == 6


def test_a_helper_imports_shellfree_from_where_the_owner_did(isolated):
    # An owner that found shellfree on a path of its own (a copy here, not the installed
    # package, not on PYTHONPATH) gives its helpers that path: both run the same code.
    copy = isolated / "copy"
    shutil.copytree(Path(shellfree.__file__).parent, copy / "shellfree",
                    ignore=shutil.ignore_patterns("__pycache__"))
    build_wide(isolated / "tree")
    script = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "import shellfree\n"
        "from shellfree import FileTools\n"
        "with FileTools(sys.argv[2], search_processes=2) as tools:\n"
        "    tools.search_files('needle', path='.')\n"
        "    print(shellfree.__file__); print(tools.tree_cache.pool.states()[0]['package'])\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", script, str(copy), str(isolated / "tree")],
                          capture_output=True, text=True, env=env, check=True, timeout=120)
    owner_file, helper_package = done.stdout.split()
    assert Path(owner_file).parent == copy / "shellfree"
    assert Path(helper_package) == copy / "shellfree"


def test_the_helpers_keep_the_owner_s_clock():
    # A cache one hour ahead (test_tree_cache's settled clock) gives its helpers the same
    # clock, so that they trust the same files; the system clock gives them the system's.
    ahead = InProcessBackend(TreeCache(clock=settled_clock), processes=2)
    assert abs(ahead.tree_cache.pool._settings[3] - HOUR_NS) < 10**9
    system = InProcessBackend(TreeCache(), processes=2)
    assert system.tree_cache.pool._settings[3] == 0
