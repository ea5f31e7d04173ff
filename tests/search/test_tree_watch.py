"""TreeCache(watch=True): change reports instead of a stat per entry, and nothing stale served.

Every change test compares a warm run through a watched cache with a fresh run without a cache
(the fresh run is what rg itself prints: the parity suites hold the uncached engine to it).
The clock is one hour ahead, so the stat check would trust every entry it sees unchanged; the
control tests show that the answers come from the watch: with its reports ignored, the same
sequences serve stale results.
"""

from __future__ import annotations

import os
import shutil
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shellfree.search import tree_watch
from shellfree.search.tree_cache import TreeCache
from shellfree.search.tree_watch import Changes, TreeWatch, watch_unavailable

from tests.search.test_tree_cache import (
    Counter, build_tree, counted_absence_test, new_query, printed, rg, settled_clock,
    translation_reuse,
)
from tests.search.tree_changes import (
    CHANGED_TEXT, CHANGES, append, create, delete, directory_moved_and_recreated,
    gitignore_in_place, ignore_file_in_place, mode_change, remove_directory, rename_directory,
    rename_file, rewrite_in_place, same_size_same_times, same_size_twice, write,
)

pytestmark = pytest.mark.skipif(watch_unavailable() is not None, reason=str(watch_unavailable()))


def watched_cache(**kwargs) -> TreeCache:
    cache = TreeCache(watch=True, clock=settled_clock, **kwargs)
    assert cache.watching, cache.watch_unavailable
    return cache


@pytest.fixture
def tree(isolated):
    # Every file but the ignored ones matches, so that any change shows in the printed lines.
    return build_tree(isolated, deep=b"needle deep\n")


def agree(root, cache, *args: str) -> bytes:
    """The warm run's output, asserted equal to a fresh run's."""
    fresh = rg(root, *args, cache=None)
    assert rg(root, *args, cache=cache) == fresh
    return fresh


class TestWarmRunDoesNoStat:
    def test_a_new_query_makes_no_system_call_below_the_tree(self, tree, monkeypatch):
        cache = watched_cache()
        agree(tree, cache, "-n", "needle")
        fresh = rg(tree, "-c", "e", cache=None)
        stats, scandirs, opens = (Counter(monkeypatch, name, tree) for name in ("stat", "scandir", "open"))
        warm = rg(tree, "-c", "e", cache=cache)
        assert warm == fresh
        assert scandirs.calls == opens.calls == []
        # A run still stats the walk root (it may be a symlink re-pointed meanwhile) and probes
        # for the repository (.git, .git/info/exclude), but no entry of the tree.
        entries = (b"a.txt", b"b.log", b"sub", b".gitignore", b".ignore")
        assert [call for call in stats.calls if call.endswith(entries)] == []
        assert len(stats.calls) <= 6, stats.calls

    def test_without_the_watch_every_entry_is_stat_checked(self, tree, monkeypatch):
        # The counter sees the stats the watch saves.
        cache = TreeCache(clock=settled_clock)
        rg(tree, "-n", "needle", cache=cache)
        stats = Counter(monkeypatch, "stat", tree)
        rg(tree, "-c", "e", cache=cache)
        assert len(stats.calls) >= 8

    def test_a_watch_is_released_with_close(self, tree):
        cache = watched_cache()
        agree(tree, cache, "needle")
        cache.close()
        assert not cache.watching
        write(tree / "a.txt", b"needle changed\n")
        agree(tree, cache, "needle")


@pytest.mark.parametrize("change", CHANGES, ids=lambda change: change.__name__)
@pytest.mark.parametrize("args", [("-n", "needle"), ("--files",), ("-c", "needle", "--sort", "path")],
                         ids=["search", "files", "count"])
def test_a_change_between_runs_is_seen(tree, change, args):
    cache = watched_cache()
    agree(tree, cache, *args)
    agree(tree, cache, *args)  # now vouched for by the watch
    before = rg(tree, *args, cache=None)
    change(tree)
    after = agree(tree, cache, *args)
    agree(tree, cache, *args)
    if args == ("-n", "needle"):
        assert after != before, "every change shows in the printed lines"


@pytest.mark.parametrize("outside", [False, True], ids=["target-in-tree", "target-outside"])
def test_an_ignore_file_that_is_a_symlink_follows_its_target(tree, outside):
    # The target's change is reported under the target's name (or not at all, outside the
    # tree), never under the link's: the rules were kept under the watch's vouch.
    target = (tree.parent / "shared_ignore") if outside else (tree / "shared_ignore")
    write(target, b"*.tmp\n")
    write(tree / "s" / "x.dat", b"needle dat\n")
    os.symlink(target, tree / "s" / ".ignore")
    cache = watched_cache()
    agree(tree, cache, "-n", "needle")
    assert b"x.dat" in agree(tree, cache, "-n", "needle")
    rewrite_in_place(target, b"*.dat\n")
    assert b"x.dat" not in agree(tree, cache, "-n", "needle")


def test_a_search_path_that_is_a_re_pointed_symlink(tree):
    # Once the link's directory is watched, the link names the directory it led to as one of
    # its spellings: re-pointing it must end that.
    write(tree / "one" / "a.txt", b"needle in one\n")
    write(tree / "two" / "a.txt", b"needle in two\n")
    os.symlink("one", tree / "link")
    cache = watched_cache()
    agree(tree, cache, "-n", "needle")
    agree(tree, cache, "-n", "needle", "link")
    agree(tree, cache, "-n", "needle", "link")
    os.unlink(tree / "link")
    os.symlink("two", tree / "link")
    assert b"in two" in agree(tree, cache, "-n", "needle", "link")


@pytest.mark.parametrize("change", CHANGES, ids=lambda change: change.__name__)
def test_a_change_is_seen_by_a_new_query(tree, change, judged):
    cache = watched_cache()
    agree(tree, cache, "-n", "needle")
    assert printed(new_query(tree, cache, "-n", CHANGED_TEXT, judged=judged)) == b""
    assert judged == []  # every file took the lane
    change(tree)
    after = new_query(tree, cache, "-n", CHANGED_TEXT, judged=judged)
    if change not in (delete, rename_file, gitignore_in_place, ignore_file_in_place,
                      remove_directory, rename_directory):  # these write no new text
        assert printed(after), "the change wrote text the query finds"
        assert judged  # the changed file was read again, not served from the lane
    new_query(tree, cache, "-c", CHANGED_TEXT)
    new_query(tree, cache, "-c", r"\w+")  # no absence test: every file handed to evaluate
    new_query(tree, cache, "-n", "[a-z]{5,}")  # one keeping its translation: the same


def test_a_class_run_pattern_translates_each_file_once(tree, monkeypatch):
    # Its absence test keeps each file's translation for the search that follows: the lane
    # must not test a whole run of files before searching any (each would be tested, and
    # translated, again by the search).
    from shellfree.rgcli import search as search_module

    cache = watched_cache()
    agree(tree, cache, "-n", "needle")
    agree(tree, cache, "-n", "needle")  # vouched for by the watch, the walk replayed
    fresh = rg(tree, "-n", "[a-z]{5,}", cache=None)
    cache.forget_searches()
    tested = []
    monkeypatch.setattr(search_module, "absence_test", counted_absence_test(tested))
    reused = translation_reuse(monkeypatch)
    assert rg(tree, "-n", "[a-z]{5,}", cache=cache) == fresh
    assert reused == [True, True, True]
    assert len(tested) == 3


def test_the_lane_remembers_what_evaluate_would(tree, monkeypatch):
    from shellfree.rgcli.search import _Search

    def tables(cache):
        return [dict(table) for table in cache._outcomes.values()]

    laned = watched_cache()
    agree(tree, laned, "-n", "needle")
    new_query(tree, laned, "-n", CHANGED_TEXT)
    monkeypatch.setattr(_Search, "lane", lambda self: None)
    evaluated = watched_cache()
    agree(tree, evaluated, "-n", "needle")
    new_query(tree, evaluated, "-n", CHANGED_TEXT)
    assert tables(laned) == tables(evaluated)
    assert len(tables(laned)) == 1 and len(tables(laned)[0]) == 3


def test_a_new_query_remembers_what_the_lane_found(tree, judged, monkeypatch):
    # The lane's outcomes are stored as evaluate's would be: the same search repeated, with the
    # lane shut (a repeated search does not take it anyway), recalls every file and judges
    # none; after a change it judges the changed file alone.
    from shellfree.rgcli.search import _Search

    cache = watched_cache()
    agree(tree, cache, "-n", "needle")
    new_query(tree, cache, "-n", CHANGED_TEXT, judged=judged)
    monkeypatch.setattr(_Search, "lane", lambda self: None)
    judged.clear()
    assert printed(rg(tree, "-n", CHANGED_TEXT, cache=cache)) == b""
    assert judged == []
    append(tree)
    assert b"appended" in rg(tree, "-n", CHANGED_TEXT, cache=cache)
    assert judged == [b"a.txt"]


def test_the_lane_serves_nothing_the_watch_stopped_vouching_for(tree, judged, monkeypatch):
    # Lost reports (a queue overflow) start a new epoch: no content is vouched for any more,
    # and a new query reads every file's stat again instead of taking the lane.
    cache = watched_cache()
    agree(tree, cache, "-n", "needle")
    lost = Changes()
    lost.everything = True
    real_changes = TreeWatch.changes
    monkeypatch.setattr(TreeWatch, "changes", lambda self: (real_changes(self), lost)[1])
    same_size_same_times(tree)  # same size and mtime: only its ctime tells the stat check
    fresh = rg(tree, "-n", CHANGED_TEXT, cache=None)
    assert b"needle TWO" in fresh
    judged.clear()
    cache.forget_searches()
    assert rg(tree, "-n", CHANGED_TEXT, cache=cache) == fresh
    assert sorted(judged) == [b"a.txt", b"sub/c.txt", b"sub/deep/d.txt"]


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="root reads any file")
def test_a_mode_change_is_seen(tree):
    cache = watched_cache()
    agree(tree, cache, "-n", "needle")
    agree(tree, cache, "-n", "needle")
    mode_change(tree)
    assert b"Permission denied" in agree(tree, cache, "-n", "needle")


@pytest.mark.parametrize("change", [append, same_size_twice, create, delete, gitignore_in_place,
                                    remove_directory, directory_moved_and_recreated],
                         ids=lambda change: change.__name__)
def test_with_the_reports_ignored_the_cache_would_be_stale(tree, change, monkeypatch):
    # The control: the warm runs above print the change because the reports drop entries.
    cache = watched_cache()
    agree(tree, cache, "-n", "needle")
    agree(tree, cache, "-n", "needle")
    monkeypatch.setattr(TreeWatch, "changes", lambda self: Changes())
    change(tree)
    assert rg(tree, "-n", "needle", cache=cache) != rg(tree, "-n", "needle", cache=None)


def test_a_report_naming_no_entry_sends_every_entry_to_the_stat_check(tree, monkeypatch):
    cache = watched_cache()
    agree(tree, cache, "-n", "needle")
    agree(tree, cache, "-n", "needle")
    lost = Changes()
    lost.everything = True  # as for a queue overflow: the reports themselves are gone
    real_changes = TreeWatch.changes
    monkeypatch.setattr(TreeWatch, "changes", lambda self: (real_changes(self), lost)[1])
    append(tree)
    stats = Counter(monkeypatch, "stat", tree)
    agree(tree, cache, "-n", "needle")
    assert [call for call in stats.calls if call.endswith(b"/a.txt")]


def test_an_outcome_from_an_unsettled_file_is_not_recalled_once_the_watch_stops_vouching(
        tree, monkeypatch):
    # Within one timestamp tick a same-size rewrite can keep the stat signature (here: ctime
    # left out, as on Windows and on coarse clocks). The watch vouches for the first read; once
    # it stops (lost reports), the stat check must not find an outcome to recall.
    from shellfree.search import tree_cache as tree_cache_module
    from tests.search.test_tree_cache import TestRacyRule

    monkeypatch.setattr(tree_cache_module, "_signature",
                        lambda st: (st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev, st.st_mode))
    cache = TreeCache(watch=True)  # the real clock: the files were written just now
    agree(tree, cache, "-n", "needle")
    agree(tree, cache, "-n", "needle")
    without_reports(monkeypatch)
    TestRacyRule.same_tick_rewrite(None, tree / "a.txt", b"needle ONE\n")
    assert b"needle ONE" in agree(tree, cache, "-n", "needle")


def test_concurrent_runs_with_changes_between_them(tree):
    # Four threads search through one watched cache while the main thread edits the tree;
    # after the edits stop, every thread's next run prints what a fresh run prints.
    import threading

    # The real clock: with the settled one, two same-size writes within one timestamp tick
    # look unchanged to the stat check (the racy rule is what catches them), and an entry a
    # report was applied around is stat-checked.
    cache = TreeCache(watch=True, content_budget=600)
    queries = [("-n", "needle"), ("--files",), ("-c", "needle"), ("-l", "needle")]
    stop = threading.Event()
    errors: list[BaseException] = []

    def worker(offset: int) -> None:
        try:
            number = offset
            while not stop.is_set():
                rg(tree, *queries[number % len(queries)], cache=cache)
                number += 1
        except BaseException as err:  # noqa: BLE001 - reported by the assertion below
            errors.append(err)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    try:
        for number in range(30):
            write(tree / "sub" / f"n{number % 5}.txt", b"needle %d\n" % number)
            rewrite_in_place(tree / "a.txt", b"needle %03d\n" % number)
            if number % 10 == 9:
                os.unlink(tree / "sub" / "c.txt") if (tree / "sub" / "c.txt").exists() \
                    else write(tree / "sub" / "c.txt", b"needle back\n")
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert errors == []
    for query in queries:
        agree(tree, cache, *query)


def _max_queued_events() -> int:
    try:
        with open("/proc/sys/fs/inotify/max_queued_events", encoding="ascii") as limit:
            return int(limit.read())
    except (OSError, ValueError):
        return 1 << 30


@pytest.mark.skipif(_max_queued_events() > 100_000, reason="a queue too long to overflow quickly")
def test_a_real_queue_overflow_sends_every_entry_to_the_stat_check(tree, monkeypatch):
    cache = watched_cache()
    agree(tree, cache, "-n", "needle")
    agree(tree, cache, "-n", "needle")
    epoch = cache._epoch
    # Each append is at least two reports (modified, closed after writing).
    for _ in range(_max_queued_events() // 2 + 10):
        with open(tree / "b.log", "ab") as handle:
            handle.write(b"x")
    rewrite_in_place(tree / "sub" / "c.txt", b"needle TWO\n")  # its report is lost
    stats = Counter(monkeypatch, "stat", tree)
    assert b"needle TWO" in agree(tree, cache, "-n", "needle")
    assert cache._epoch > epoch
    assert [call for call in stats.calls if call.endswith(b"/c.txt")]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork")
def test_a_forked_child_leaves_the_reports_to_its_parent(tree):
    cache = watched_cache()
    agree(tree, cache, "-n", "needle")
    agree(tree, cache, "-n", "needle")
    append(tree)
    pid = os.fork()
    if pid == 0:  # the child searches through the inherited cache, then leaves at once
        code = 2
        try:
            code = 0 if b"needle appended" in rg(tree, "-n", "needle", cache=cache) else 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0  # the child saw the change (stat checks)
    assert b"needle appended" in agree(tree, cache, "-n", "needle")


@pytest.mark.parametrize("step", ["_keep", "remember"])
def test_reports_applied_between_a_read_and_its_store_leave_the_entry_unvouched(
        tree, monkeypatch, step):
    # Another thread's run may apply a report (and drop the entry) after this run read a file
    # and before it stores the content (_keep) or the outcome (remember): what it stores must
    # not be vouched for, or the change would never be seen.
    cache = watched_cache()
    agree(tree, cache, "--files")  # listings watched, no content read yet
    real = getattr(TreeCache, step)
    raced: list[bool] = []

    def racing(self, *args, **kwargs):
        # _keep(key, ...); remember(table, [key, signature, outcome, size, vouched, ...]), at
        # the end of the run (five items per file).
        keys = [args[0]] if step == "_keep" else [
            key if isinstance(key, bytes) else key[0] for key in args[1][::5]]
        if not raced and any(key.endswith(b"/a.txt") for key in keys):
            raced.append(True)
            rewrite_in_place(tree / "a.txt", b"needle RACE\n")
            self.begin_run()  # the other run: it applies the report of the rewrite
        return real(self, *args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(TreeCache, step, racing)
        rg(tree, "-n", "needle", cache=cache)  # reads a.txt before the rewrite
    assert raced
    # The same search finds the outcome (remember); a new one reads the content (_keep).
    query = ("-n", "needle") if step == "remember" else ("-n", "RACE|needle")
    assert b"needle RACE" in agree(tree, cache, *query)


class TestSymlinkedRoot:
    def test_a_root_symlink_re_pointed_is_seen(self, tmp_path):
        for name, text in (("one", b"needle one\n"), ("two", b"needle two\n")):
            write(tmp_path / name / "sub" / "f.txt", text)
        os.symlink(tmp_path / "one", tmp_path / "current")
        cache = watched_cache()
        agree(tmp_path, cache, "-n", "needle", "current")
        agree(tmp_path, cache, "-n", "needle", "current")
        os.unlink(tmp_path / "current")
        os.symlink(tmp_path / "two", tmp_path / "current")
        assert b"needle two" in agree(tmp_path, cache, "-n", "needle", "current")

    def test_a_directory_above_the_root_renamed_is_seen(self, tmp_path):
        write(tmp_path / "a" / "b" / "f.txt", b"needle old\n")
        cache = watched_cache()
        agree(tmp_path, cache, "-n", "needle", "a/b")
        agree(tmp_path, cache, "-n", "needle", "a/b")
        os.rename(tmp_path / "a", tmp_path / "a.old")
        write(tmp_path / "a" / "b" / "f.txt", b"needle new\n")
        assert b"needle new" in agree(tmp_path, cache, "-n", "needle", "a/b")


def test_a_hard_linked_file_is_never_vouched_for_by_the_watch(tree, monkeypatch):
    # A write through a link in a directory nobody watches makes no report here.
    os.link(tree / "a.txt", tree.parent / "outside-link")
    cache = watched_cache()
    agree(tree, cache, "-n", "needle")
    agree(tree, cache, "-n", "needle")
    stats = Counter(monkeypatch, "stat", tree)
    agree(tree, cache, "-c", "needle")
    assert [call for call in stats.calls if call.endswith(b"/a.txt")]
    rewrite_in_place(tree.parent / "outside-link", b"needle ONE\n")
    assert b"needle ONE" in agree(tree, cache, "-n", "needle")


def without_reports(monkeypatch) -> None:
    """Make the next runs' reads find the reports lost (as after a queue overflow)."""
    def lost(self):
        while self._inotify.read(timeout=0):
            pass  # read and dropped unseen, as the kernel drops them when its queue is full
        found = Changes()
        found.everything = True
        return found

    monkeypatch.setattr(TreeWatch, "changes", lost)


def test_a_name_that_leads_to_another_directory_gets_a_new_watch(tree, monkeypatch):
    cache = watched_cache()
    agree(tree, cache, "-n", "needle")
    agree(tree, cache, "-n", "needle")
    with monkeypatch.context() as lost:
        without_reports(lost)  # the old directory's own report of its move is lost too
        directory_moved_and_recreated(tree)
        agree(tree, cache, "-n", "needle")  # validated by stat: the listing is read again
    agree(tree, cache, "-n", "needle")
    rewrite_in_place(tree / "sub" / "deep" / "d.txt", b"needle RECREATED\n")
    assert b"needle RECREATED" in agree(tree, cache, "-n", "needle")


def test_what_was_watched_below_a_moved_root_is_forgotten(tmp_path):
    # A file named on the command line is read through its directory's watch: the watch of
    # the directory the root led to before must not vouch for the one it leads to now.
    for name in ("one", "two"):
        write(tmp_path / name / "sub" / "f.txt", b"needle %s\n" % name.encode())
    os.symlink(tmp_path / "one", tmp_path / "current")
    cache = watched_cache(remembered_searches=0)
    agree(tmp_path, cache, "-n", "needle", "current")
    agree(tmp_path, cache, "-n", "needle", "current")
    os.unlink(tmp_path / "current")
    os.symlink(tmp_path / "two", tmp_path / "current")
    agree(tmp_path, cache, "-n", "needle", "current/sub/f.txt")
    rewrite_in_place(tmp_path / "two" / "sub" / "f.txt", b"needle TWO\n")
    assert b"needle TWO" in agree(tmp_path, cache, "-n", "needle", "current/sub/f.txt")


def test_the_spellings_of_a_watched_directory_are_left_untracked_by_the_collector(tmp_path):
    # A host's full collection visits every tracked object: one per watched directory adds
    # up on a large tree. Tuples of bytes stop being tracked after one collection.
    import gc

    write(tmp_path / "d" / "f", b"x\n")
    watch = TreeWatch()
    try:
        for spelling in (f"{tmp_path}/d", f"{tmp_path}/./d"):  # pathlib drops the "."
            st_d = os.stat(spelling)
            assert watch.add(os.fsencode(spelling), st_d.st_ino, st_d.st_dev)
        gc.collect()
        (spellings,) = watch._spellings.values()
        assert len(spellings) == 2  # "/./" and plain: one watch, both spellings
        assert not gc.is_tracked(spellings)
        with open(tmp_path / "d" / "f", "ab") as handle:
            handle.write(b"y\n")
        children = watch.changes().children
        assert {c[0] for c in children} == set(spellings)
    finally:
        watch.close()


def test_a_directory_s_own_attributes_are_a_report_about_everything_below(tmp_path):
    write(tmp_path / "d" / "f", b"x\n")
    watch = TreeWatch()
    try:
        st_d = os.stat(tmp_path / "d")
        assert watch.add(os.fsencode(str(tmp_path / "d")), st_d.st_ino, st_d.st_dev)
        assert not watch.changes().everything
        os.chmod(tmp_path / "d", 0o700)
        assert watch.changes().everything
        with open(tmp_path / "d" / "f", "ab") as handle:
            handle.write(b"y\n")
        found = watch.changes()
        assert not found.everything
        assert set(found.children) == {(os.fsencode(str(tmp_path / "d")), b"f", False)}
    finally:
        watch.close()


def test_a_directory_not_on_a_local_file_system_is_not_watched(tree, tmp_path_factory, monkeypatch):
    device = os.stat(tree).st_dev
    fake = tmp_path_factory.mktemp("proc") / "mountinfo"
    fake.write_text(f"27 1 {os.major(device)}:{os.minor(device)} / / rw - nfs4 server:/x rw\n")
    cache = TreeCache(watch=TreeWatch(mountinfo=str(fake)), clock=settled_clock)
    agree(tree, cache, "-n", "needle")
    assert len(cache._watch) == 0
    stats = Counter(monkeypatch, "stat", tree)
    append(tree)
    agree(tree, cache, "-n", "needle")
    assert len(stats.calls) >= 8


def test_past_the_watch_limit_directories_are_stat_checked(tree, monkeypatch):
    cache = TreeCache(watch=TreeWatch(max_watches=1), clock=settled_clock)
    agree(tree, cache, "-n", "needle")
    assert len(cache._watch) == 1
    for change in (append, create, ignore_file_in_place):
        change(tree)
        agree(tree, cache, "-n", "needle")


def test_a_watch_serves_one_cache():
    watch = TreeWatch()
    TreeCache(watch=watch)
    with pytest.raises(ValueError, match="already serves another TreeCache"):
        TreeCache(watch=watch)
    watch.close()


def test_no_watch_where_inotify_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "inotify_simple", None)
    cache = TreeCache(watch=True)
    assert not cache.watching
    assert cache.watch_unavailable == "the inotify_simple package is not installed"


def test_no_watch_off_linux(monkeypatch):
    monkeypatch.setattr(sys, "platform", "win32")
    cache = TreeCache(watch=True)
    assert (cache.watching, cache.watch_unavailable) == (False, "inotify is Linux-only")


def test_local_devices_reads_the_mount_table(tmp_path):
    table = tmp_path / "mountinfo"
    table.write_text(
        "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
        "28 27 0:25 / /mnt/c rw - 9p drvfs rw\n"
        "29 27 0:26 / /run shared:1 master:2 - tmpfs tmpfs rw\n"
        "garbage\n"
    )
    devices = tree_watch._local_devices(str(table))
    assert devices == {os.makedev(254, 0): True, os.makedev(0, 25): False, os.makedev(0, 26): True}
    assert tree_watch._local_devices(str(tmp_path / "missing")) == {}


OPERATIONS = st.lists(
    st.tuples(
        st.sampled_from(["write", "append", "delete", "mkdir", "rmdir", "rename", "ignore", "run"]),
        st.sampled_from(["a", "b", "d/a", "d/b", "d/e/a", "e"]),
        st.sampled_from(["d", "d/e", "f", "."]),
    ),
    max_size=12,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(OPERATIONS)
def test_any_sequence_of_changes_prints_what_a_fresh_run_prints(tmp_path_factory, operations):
    root = tmp_path_factory.mktemp("seq")
    write(root / ".git" / "HEAD", b"ref: refs/heads/main\n")
    write(root / "a", b"needle a\n")
    write(root / "d" / "a", b"needle d/a\n")
    write(root / "d" / "e" / "a", b"needle d/e/a\n")
    cache = watched_cache(content_budget=1 << 20)
    try:
        apply_and_compare(root, cache, operations)
    finally:
        cache.close()  # inotify instances are a per-user limit (128 by default)


def apply_and_compare(root, cache, operations) -> None:
    agree(root, cache, "-n", "needle")
    for number, (operation, name, directory) in enumerate(operations):
        path = root / name
        try:
            if operation == "write":
                write(path, b"needle %d %s\n" % (number, name.encode()))
            elif operation == "append" and path.is_file():
                with open(path, "ab") as handle:
                    handle.write(b"needle more\n")
            elif operation == "delete" and path.is_file():
                path.unlink()
            elif operation == "mkdir":
                (root / directory / "new").mkdir(parents=True, exist_ok=True)
                write(root / directory / "new" / "n", b"needle n\n")
            elif operation == "rmdir" and directory != "." and (root / directory).is_dir():
                shutil.rmtree(root / directory)
            elif operation == "rename" and path.exists() and (root / directory).is_dir():
                os.rename(path, root / directory / ("r%d" % number))
            elif operation == "ignore" and (root / directory).is_dir():
                write(root / directory / ".ignore", name.rpartition("/")[2].encode() + b"\n")
            elif operation == "run":
                agree(root, cache, "-n", "needle")
        except OSError:
            continue  # an operation the tree's current shape refuses (a file in the way)
    agree(root, cache, "-n", "needle")
    agree(root, cache, "--files")


class TestReplayedRun:
    """A new query over a replayed walk: the lane settles the run's files together
    (_Search.lane_run), and leaves to evaluate exactly what the per-file lane would."""

    @staticmethod
    def per_file(monkeypatch) -> None:
        """Walks yield no runs: the lane is asked file by file, as before runs."""
        from shellfree.search.walk import Walker

        walk = Walker.walk
        monkeypatch.setattr(Walker, "walk", lambda self, roots=None, split_depth=None, runs=False:
                            walk(self, roots, split_depth))

    def test_the_run_is_laned_whole_and_remembers_what_the_per_file_lane_would(
            self, tree, judged, monkeypatch):
        from shellfree.rgcli.search import _Search

        runs = []
        lane_run = _Search.lane_run
        monkeypatch.setattr(_Search, "lane_run",
                            lambda self, run: runs.append(len(run.events)) or lane_run(self, run))
        whole = watched_cache()
        agree(tree, whole, "-n", "needle")
        new_query(tree, whole, "-n", "needle one", judged=judged)
        assert runs == [3] and judged == [b"a.txt"]
        new_query(tree, whole, "-n", "needle o", judged=judged)  # the lookups kept from the first
        assert runs == [3, 3] and judged == [b"a.txt"]
        self.per_file(monkeypatch)
        each = watched_cache()
        agree(tree, each, "-n", "needle")
        new_query(tree, each, "-n", "needle one")
        new_query(tree, each, "-n", "needle o")
        assert runs == [3, 3]
        assert [dict(t) for t in whole._outcomes.values()] == [dict(t) for t in each._outcomes.values()]

    def test_a_utf16_file_is_left_to_evaluate(self, tree, judged):
        # Its literal is only found once transcoded: no absence test proves it empty.
        write(tree / "wide.txt", "\ufeffneedle wide\n".encode("utf-16-le"))
        cache = watched_cache()
        agree(tree, cache, "-n", "needle")
        assert b"needle wide" in printed(new_query(tree, cache, "-n", "wide", judged=judged))
        assert judged == [b"wide.txt"]

    def test_a_message_in_the_run_is_printed_in_its_place(self, tree):
        # An ignore file's bad glob is reported by every walk, replayed ones too.
        write(tree / "sub" / ".ignore", b"skip.txt\n{broken\n")
        cache = watched_cache()
        first = agree(tree, cache, "-n", "needle")
        assert b"{broken" in first.split(b"--stderr--")[1]
        new_query(tree, cache, "-n", "needle two")
        new_query(tree, cache, "-n", "needle")

    def test_a_content_dropped_while_the_run_is_laned_is_searched_again(self, tree, judged, monkeypatch):
        # A write through the file tools (forget) between the lookups and their use: the file
        # is evaluated from what it holds now, not proven empty from what was cached.
        cache = watched_cache()
        agree(tree, cache, "-n", "needle")
        lookups = TreeCache.watched_contents

        def write_meanwhile(self, keys):
            found = lookups(self, keys)
            write(tree / "a.txt", b"needle one, written meanwhile\n")
            self.forget(str(tree / "a.txt"))
            return found

        monkeypatch.setattr(TreeCache, "watched_contents", write_meanwhile)
        cache.forget_searches()
        judged.clear()
        out = printed(rg(tree, "-n", "meanwhile", cache=cache))
        assert out == b"a.txt:1:needle one, written meanwhile"
        assert judged == [b"a.txt"]

    def test_used_names_what_was_dropped_since_the_lookups(self, tree):
        cache = watched_cache()
        agree(tree, cache, "-n", "needle")
        keys = [os.fsencode(str(tree / name)) for name in ("a.txt", "sub/c.txt")]
        found, at, _, token = cache.watched_contents(keys)
        assert None not in found and at == [0, 1]
        assert cache.used(keys, found, token) is None
        cache.forget(str(tree / "sub" / "c.txt"))
        assert cache.used(keys, found, token) == [1]

    def test_the_lookups_are_kept_while_nothing_changes(self, tree):
        # Kept for the same keys while no content is added, dropped or stamped anew; a drop
        # forgets them (they must not keep a dropped content alive).
        cache = watched_cache()
        agree(tree, cache, "-n", "needle")
        keys = [os.fsencode(str(tree / name)) for name in ("a.txt", "sub/c.txt")]
        first = cache.watched_contents(keys)
        again = cache.watched_contents(keys)
        assert again[0] is first[0] and again[1] is first[1]
        cache.forget(str(tree / "a.txt"))
        assert cache._watched_lists == {}
        after = cache.watched_contents(keys)
        assert after[0] is not first[0] and after[0][0] is None and after[1] == [1]

    def test_max_filesize_tests_each_file_of_a_run(self, tree):
        write(tree / "big.txt", b"needle big\n" * 100)
        cache = watched_cache()
        agree(tree, cache, "-n", "needle", "--max-filesize", "100")
        new_query(tree, cache, "-n", "needle", "--max-filesize", "100")
        write(tree / "a.txt", b"needle one\n" * 20)  # now over the limit
        assert b"a.txt" not in new_query(tree, cache, "-n", "needle", "--max-filesize", "100")
