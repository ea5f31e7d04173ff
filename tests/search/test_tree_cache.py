"""TreeCache on its own and under the walker: what is reused, what is re-read, the budget.

Most tests give the cache a clock one hour ahead, so every file counts as settled and only the
``stat`` signature decides; the racy-rule tests use the real clock or a hand-set one.
"""

from __future__ import annotations

import io
import os
import sys
import time
from pathlib import Path

import pytest

from shellfree.rgcli.run import run
from shellfree.rgcli.search import _Search
from shellfree.search import file_read
from shellfree.search import tree_cache as tree_cache_module
from shellfree.search.tree_cache import ENTRY_OVERHEAD, RACY_NS, TreeCache, same_place
from shellfree.search.walk import Haystack, Walker

from tests.search.tree_changes import CHANGED_TEXT, CHANGES, rewrite_in_place, write

HOUR_NS = 3600 * 10**9


def settled_clock() -> int:
    return time.time_ns() + HOUR_NS


def rg(root, *args: str, cache: TreeCache | None) -> bytes:
    out, err = io.BytesIO(), io.BytesIO()
    run([a.encode() for a in args], out, err, None, cwd=str(root), cache=cache)
    return out.getvalue() + b"\n--stderr--\n" + err.getvalue()


def build_tree(root, deep: bytes = b"no match here\n"):
    """A small repository with a .gitignore, an .ignore below it and a file at depth two
    holding *deep*."""
    write(root / ".git" / "HEAD", b"ref: refs/heads/main\n")
    write(root / ".gitignore", b"*.log\n")
    write(root / "a.txt", b"needle one\n")
    write(root / "b.log", b"needle ignored\n")
    write(root / "sub" / "c.txt", b"needle two\n")
    write(root / "sub" / ".ignore", b"skip.txt\n")
    write(root / "sub" / "skip.txt", b"needle skipped\n")
    write(root / "sub" / "deep" / "d.txt", deep)
    return root


@pytest.fixture
def tree(isolated):
    return build_tree(isolated)


class Counter:
    """Counts calls of one os function whose first argument lies below *root*."""

    def __init__(self, monkeypatch, name: str, root) -> None:
        self.calls: list[bytes] = []
        original = getattr(os, name)
        prefix = os.fsencode(str(root))

        def counted(path, *args, **kwargs):
            raw = os.fsencode(path) if isinstance(path, (str, bytes, os.PathLike)) else b""
            if raw.startswith(prefix):
                self.calls.append(raw)
            return original(path, *args, **kwargs)

        monkeypatch.setattr(os, name, counted)


class TestWarmRunDoesNoRedundantIO:
    def test_no_scandir_no_open_no_ignore_read(self, tree, monkeypatch):
        cache = TreeCache(clock=settled_clock)
        cold = rg(tree, "-n", "needle", cache=cache)
        fresh = rg(tree, "-n", "needle", cache=None)
        scandirs = Counter(monkeypatch, "scandir", tree)
        opens = Counter(monkeypatch, "open", tree)
        rule_reads = []
        original_loader = tree_cache_module.load_rule_file
        monkeypatch.setattr(tree_cache_module, "load_rule_file",
                            lambda path, **kw: rule_reads.append(path) or original_loader(path, **kw))
        warm = rg(tree, "-n", "needle", cache=cache)
        assert warm == cold == fresh
        assert scandirs.calls == []
        assert opens.calls == []
        assert rule_reads == []

    def test_a_new_query_reuses_everything_too(self, tree, monkeypatch):
        cache = TreeCache(clock=settled_clock)
        rg(tree, "-n", "needle", cache=cache)
        fresh = rg(tree, "-c", "match", cache=None)
        scandirs = Counter(monkeypatch, "scandir", tree)
        opens = Counter(monkeypatch, "open", tree)
        assert rg(tree, "-c", "match", cache=cache) == fresh
        assert (scandirs.calls, opens.calls) == ([], [])

    def test_without_a_cache_every_run_lists_and_opens(self, tree, monkeypatch):
        # The counters themselves work: the same run without a cache is seen doing the I/O.
        scandirs = Counter(monkeypatch, "scandir", tree)
        opens = Counter(monkeypatch, "open", tree)
        rg(tree, "-n", "needle", cache=None)
        assert len(scandirs.calls) == 3
        assert sorted(os.path.basename(p) for p in opens.calls) == [  # three files, two rules
            b".gitignore", b".ignore", b"a.txt", b"c.txt", b"d.txt"]

    def test_only_the_changed_directory_is_listed_again(self, tree, monkeypatch):
        cache = TreeCache(clock=settled_clock)
        rg(tree, "--files", cache=cache)
        write(tree / "sub" / "deep" / "new.txt", b"needle new\n")
        fresh = rg(tree, "--files", cache=None)
        assert b"new.txt" in fresh
        scandirs = Counter(monkeypatch, "scandir", tree)
        assert rg(tree, "--files", cache=cache) == fresh
        assert scandirs.calls == [os.fsencode(str(tree)) + b"/./sub/deep"]


class TestContents:
    def test_same_size_rewrite_is_seen(self, tmp_path):
        path = tmp_path / "f"
        write(path, b"old\n")
        cache = TreeCache(clock=settled_clock)
        assert cache.read(os.fsencode(str(path))) == b"old\n"
        rewrite_in_place(path, b"new\n")
        assert cache.read(os.fsencode(str(path))) == b"new\n"

    def test_replaced_file_with_the_same_times_is_seen(self, tmp_path):
        path, other = tmp_path / "f", tmp_path / "g"
        write(path, b"old\n")
        write(other, b"new\n")
        st = os.stat(path)
        os.utime(other, ns=(st.st_atime_ns, st.st_mtime_ns))
        cache = TreeCache(clock=settled_clock)
        assert cache.read(os.fsencode(str(path))) == b"old\n"
        os.replace(other, path)  # new inode
        assert cache.read(os.fsencode(str(path))) == b"new\n"

    def test_missing_file_raises_like_open(self, tmp_path):
        cache = TreeCache()
        with pytest.raises(FileNotFoundError):
            cache.read(os.fsencode(str(tmp_path / "nope")))
        path = tmp_path / "f"
        write(path, b"x")
        cache.read(os.fsencode(str(path)))
        path.unlink()
        with pytest.raises(FileNotFoundError):
            cache.read(os.fsencode(str(path)))

    def test_zero_budget_keeps_no_contents(self, tmp_path):
        path = tmp_path / "f"
        write(path, b"data")
        cache = TreeCache(content_budget=0)
        assert cache.read(os.fsencode(str(path))) == b"data"
        assert cache.content_bytes == 0


class TestRacyRule:
    """Two writes within one timestamp tick, same size, leave mtime and size equal. On Windows
    the ctime is the creation time and does not move either, so only the racy rule can tell;
    these tests drop ctime from the signature to stand for that."""

    @pytest.fixture(autouse=True)
    def signature_without_ctime(self, monkeypatch):
        monkeypatch.setattr(
            tree_cache_module, "_signature",
            lambda st: (st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev, st.st_mode))

    def same_tick_rewrite(self, path, data: bytes) -> None:
        st = os.stat(path)
        rewrite_in_place(path, data)
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
        after = os.stat(path)
        assert (after.st_size, after.st_mtime_ns, after.st_ino) == (st.st_size, st.st_mtime_ns, st.st_ino)

    def test_a_file_cached_within_its_tick_is_read_again(self, tmp_path):
        path = tmp_path / "f"
        write(path, b"first\n")
        cache = TreeCache()  # the real clock: the file was written just now
        assert cache.read(os.fsencode(str(path))) == b"first\n"
        self.same_tick_rewrite(path, b"again\n")
        assert cache.read(os.fsencode(str(path))) == b"again\n"

    def test_without_the_racy_rule_the_stale_bytes_would_be_served(self, tmp_path, monkeypatch):
        # The test above can fail: with the rule switched off, the same steps serve stale data.
        monkeypatch.setattr(tree_cache_module, "RACY_NS", -HOUR_NS)
        path = tmp_path / "f"
        write(path, b"first\n")
        cache = TreeCache()
        cache.read(os.fsencode(str(path)))
        self.same_tick_rewrite(path, b"again\n")
        assert cache.read(os.fsencode(str(path))) == b"first\n"

    def test_the_window_is_measured_from_the_read(self, tmp_path, monkeypatch):
        path = tmp_path / "f"
        write(path, b"x")
        mtime = os.stat(path).st_mtime_ns
        ctime = os.stat(path).st_ctime_ns
        opens = Counter(monkeypatch, "open", tmp_path)
        late = TreeCache(clock=lambda: max(mtime, ctime) + RACY_NS)
        early = TreeCache(clock=lambda: max(mtime, ctime) + RACY_NS - 1)
        for cache in (late, early):
            cache.read(os.fsencode(str(path)))
            cache.read(os.fsencode(str(path)))
        # late trusts its entry (one open); early reads the file both times.
        assert len(opens.calls) == 3

    def test_a_directory_listed_within_its_tick_is_listed_again(self, tmp_path, monkeypatch):
        write(tmp_path / "d" / "a", b"")
        cache = TreeCache()
        directory = os.fsencode(str(tmp_path / "d"))
        assert cache.listing(directory, True).names == (b"a",)
        st = os.stat(tmp_path / "d")
        write(tmp_path / "d" / "b", b"")
        os.utime(tmp_path / "d", ns=(st.st_atime_ns, st.st_mtime_ns))
        assert cache.listing(directory, True).names == (b"a", b"b")

    def test_an_ignore_file_read_within_its_tick_is_read_again(self, tmp_path):
        path = tmp_path / ".gitignore"
        write(path, b"a\n")
        cache = TreeCache()
        first = cache.rules(os.fsencode(str(path)))
        self.same_tick_rewrite(path, b"b\n")
        second = cache.rules(os.fsencode(str(path)))
        assert [r.original for r in first.rules.rules] == ["a"]
        assert [r.original for r in second.rules.rules] == ["b"]


class TestBudget:
    def files(self, tmp_path, count: int, size: int) -> list[bytes]:
        paths = []
        for i in range(count):
            path = tmp_path / f"f{i}"
            write(path, bytes([65 + i]) * size)
            paths.append(os.fsencode(str(path)))
        return paths

    def test_cached_bytes_stay_within_the_budget(self, tmp_path):
        paths = self.files(tmp_path, 10, 1000)
        budget = 3 * (1000 + ENTRY_OVERHEAD)
        cache = TreeCache(content_budget=budget, clock=settled_clock)
        for path in paths:
            cache.begin_run()
            assert cache.read(path) == Path(os.fsdecode(path)).read_bytes()
            assert cache.content_bytes <= budget
        assert cache.content_bytes == budget

    def test_least_recently_used_goes_first(self, tmp_path, monkeypatch):
        a, b, c, d = self.files(tmp_path, 4, 1000)
        cache = TreeCache(content_budget=3 * (1000 + ENTRY_OVERHEAD), clock=settled_clock)
        for path in (a, b, c):
            cache.begin_run()
            cache.read(path)
        cache.begin_run()
        cache.read(a)  # a is now the most recent: b is the oldest
        cache.begin_run()
        cache.read(d)
        opens = Counter(monkeypatch, "open", tmp_path)
        for path in (a, c, d):
            cache.begin_run()
            cache.read(path)
        assert opens.calls == []
        cache.begin_run()
        cache.read(b)
        assert opens.calls == [b]

    def test_a_run_over_files_of_one_size_keeps_what_it_met_first(self, tmp_path, monkeypatch):
        paths = self.files(tmp_path, 6, 1000)
        cache = TreeCache(content_budget=3 * (1000 + ENTRY_OVERHEAD), clock=settled_clock)
        for _ in range(2):
            cache.begin_run()
            for path in paths:
                cache.read(path)
        opens = Counter(monkeypatch, "open", tmp_path)
        cache.begin_run()
        for path in paths:
            cache.read(path)
        # Plain LRU would have evicted every file before its next use.
        assert opens.calls == paths[3:]

    def test_a_tree_over_the_budget_keeps_its_smallest_files(self, tmp_path, monkeypatch):
        # Three large files met first fill the budget; each small one displaces a large one
        # until the small ones all fit, and after that the cache holds still.
        big = [os.fsencode(str(tmp_path / f"big{i}")) for i in range(3)]
        small = [os.fsencode(str(tmp_path / f"small{i}")) for i in range(6)]
        for i in range(3):
            write(tmp_path / f"big{i}", b"B" * 2000)
        for i in range(6):
            write(tmp_path / f"small{i}", b"s" * 300)
        cache = TreeCache(content_budget=3 * (2000 + ENTRY_OVERHEAD), clock=settled_clock)
        for _ in range(2):
            cache.begin_run()
            for path in big + small:
                cache.read(path)
        opens = Counter(monkeypatch, "open", tmp_path)
        cache.begin_run()
        for path in big + small:
            assert cache.read(path) == Path(os.fsdecode(path)).read_bytes()
        # One large file still fits beside the six small ones; the other two are read again.
        assert len(opens.calls) == 2 and set(opens.calls) < set(big)
        assert cache.content_bytes == 2000 + 6 * 300 + 7 * ENTRY_OVERHEAD

    def test_a_file_unused_for_two_runs_makes_room_for_one_of_its_size(self, tmp_path, monkeypatch):
        a, b, c = self.files(tmp_path, 3, 1000)
        cache = TreeCache(content_budget=2 * (1000 + ENTRY_OVERHEAD), clock=settled_clock)
        cache.begin_run()
        cache.read(a)
        cache.read(b)
        cache.begin_run()
        cache.read(b)
        opens = Counter(monkeypatch, "open", tmp_path)
        cache.read(c)  # a was used by the previous run: it stays, c is not kept
        cache.read(a)
        assert opens.calls == [c]
        cache.begin_run()
        cache.begin_run()
        cache.read(c)  # a and b were last used two runs ago: c takes b's place (used first)
        assert opens.calls == [c, c]
        cache.begin_run()
        cache.read(c)
        cache.read(a)
        assert opens.calls == [c, c]
        cache.read(b)
        assert opens.calls == [c, c, b]

    def test_a_file_larger_than_the_budget_is_not_kept(self, tmp_path):
        (path,) = self.files(tmp_path, 1, 5000)
        cache = TreeCache(content_budget=1000)
        assert len(cache.read(path)) == 5000
        assert cache.content_bytes == 0

    def test_unkept_bytes_are_what_the_run_read_and_could_not_keep(self, tmp_path):
        paths = self.files(tmp_path, 5, 1000)
        (large,) = self.files(tmp_path / "large", 1, 9000)
        cache = TreeCache(content_budget=3 * (1000 + ENTRY_OVERHEAD), clock=settled_clock)
        cache.begin_run()
        for path in paths:
            cache.read(path)
        assert cache.unkept_bytes == 2000  # the first three fill the budget
        cache.read(large)
        assert cache.unkept_bytes == 11000
        cache.begin_run()
        assert cache.unkept_bytes == 0  # counted per run
        for path in paths[:3]:
            cache.read(path)  # served from the cache: nothing read
        assert cache.unkept_bytes == 0
        cache.read(paths[3])
        assert cache.unkept_bytes == 1000

    def test_drop_contents_forgets_the_contents_and_nothing_else(self, tmp_path, monkeypatch):
        paths = self.files(tmp_path, 2, 1000)
        cache = TreeCache(content_budget=1 << 20, clock=settled_clock)
        cache.begin_run()
        cache.listing(os.fsencode(str(tmp_path)), True)
        for path in paths:
            cache.read(path)
        cache.drop_contents()
        assert cache.content_bytes == 0
        opens = Counter(monkeypatch, "open", tmp_path)
        scans = Counter(monkeypatch, "scandir", tmp_path)
        cache.begin_run()
        cache.listing(os.fsencode(str(tmp_path)), True)
        for path in paths:
            cache.read(path)
        assert opens.calls == paths and scans.calls == []
        assert cache.content_bytes == 2 * (1000 + ENTRY_OVERHEAD)

    def test_unkept_bytes_count_what_the_run_read_and_then_pushed_out(self, tmp_path):
        (large,) = self.files(tmp_path / "large", 1, 3000)
        small = self.files(tmp_path, 12, 500)
        cache = TreeCache(content_budget=3000 + ENTRY_OVERHEAD + 1000, clock=settled_clock)
        cache.begin_run()
        for path in [large, *small]:
            cache.read(path)
        kept = cache.state()["contents"]
        assert cache.content_bytes == kept * (500 + ENTRY_OVERHEAD)  # the large file went out
        assert cache.unkept_bytes == 9000 - kept * 500  # it too is read again next time

    def test_a_cache_without_a_content_budget_counts_nothing_unkept(self, tmp_path):
        (path,) = self.files(tmp_path, 1, 1000)
        cache = TreeCache(content_budget=0)
        cache.begin_run()
        cache.read(path)
        assert cache.unkept_bytes == 0  # nothing was meant to be kept


class TestFilesChecked:
    """files_checked: what InProcessBackend counts to share a search with a helper process
    (engine/backends.py, AUTO_POOL_FILES)."""

    def test_the_files_a_run_read_or_checked_with_a_stat(self, tree, monkeypatch):
        cache = TreeCache(clock=settled_clock)
        rg(tree, "-n", "needle", cache=cache)
        assert cache.files_checked == 3  # a.txt, sub/c.txt and sub/deep/d.txt, read
        cache.forget_searches()
        stats = Counter(monkeypatch, "stat", tree)
        rg(tree, "-n", "absent", cache=cache)  # a new query: each cached copy checked
        checked = [call for call in stats.calls if call.endswith(b".txt")]
        assert cache.files_checked == len(checked) == 3
        rg(tree, "-n", "absent", cache=cache)  # repeated: outcomes recalled, no content used
        assert cache.files_checked == 0
        cache.forget_searches()
        rg(tree, "-n", "absent", "a.txt", "sub/c.txt", cache=cache)  # named files, one at a time
        assert cache.files_checked == 2
        write(tree / "sub" / "deep" / "e.txt", b"new\n")
        later = os.stat(tree / "sub" / "deep").st_mtime_ns + 10**9
        os.utime(tree / "sub" / "deep", ns=(later, later))  # surely listed anew
        cache.forget_searches()
        rg(tree, "-n", "absent", cache=cache)  # its d.txt checked on its own (checked_content)
        assert cache.files_checked == 4

    @pytest.mark.skipif(sys.platform != "linux", reason="the watch is Linux's inotify")
    def test_a_watched_cache_checks_none_of_the_files_it_holds(self, tree):
        from shellfree.search.tree_watch import watch_unavailable

        if watch_unavailable() is not None:
            pytest.skip(watch_unavailable())
        cache = TreeCache(clock=settled_clock, watch=True)
        if not cache.watching:
            pytest.skip(f"no watch: {cache.watch_unavailable}")
        try:
            rg(tree, "-n", "needle", cache=cache)
            assert cache.files_checked == 3  # read
            cache.forget_searches()
            rg(tree, "-n", "absent", cache=cache)
            assert cache.files_checked == 0  # the watch vouches for each
        finally:
            cache.close()


class TestForget:
    def test_forgets_every_spelling_of_a_file(self, tmp_path):
        path = tmp_path / "sub" / "f"
        write(path, b"data")
        cache = TreeCache(clock=settled_clock)
        dotted = os.fsencode(str(tmp_path)) + b"/./sub/f"
        cache.read(dotted)
        cache.listing(os.fsencode(str(tmp_path)) + b"/./sub", True)
        cache.listing(os.fsencode(str(tmp_path)) + b"/./sub/", True)
        assert cache.content_bytes > 0
        cache.forget(str(path))
        assert cache.content_bytes == 0
        assert "listings=0" in repr(cache)

    def test_same_place(self):
        assert same_place(b"/r/./a/.//b") == b"/r/a/b"
        assert same_place(b"/r/a/.") == b"/r/a"
        assert same_place(b"/r/./") == b"/r"
        assert same_place(b"/") == b"/"
        assert same_place(b"/r/../a") == b"/r/../a"


class TestWalkerWithCache:
    def test_same_events_as_without(self, tree):
        cache = TreeCache(clock=settled_clock)
        plain = list(Walker(cwd=str(tree)).walk())
        for _ in range(2):
            assert list(Walker(cwd=str(tree), cache=cache).walk()) == plain
        assert Haystack(b"sub/c.txt", False) in plain

    def test_survivors_depend_on_the_globs(self, tree):
        from shellfree.search.walk import WalkOptions

        cache = TreeCache(clock=settled_clock)
        for globs in ((), (("*.txt", False),), (("!a.txt", False),), ()):
            options = WalkOptions(globs=globs)
            assert list(Walker(options, cwd=str(tree), cache=cache).walk()) == list(
                Walker(options, cwd=str(tree)).walk())


class TestWalkReplay:
    """A warm walk of an unchanged tree replays the files the last one yielded; anything the
    walk read that changed, inside the tree or not, makes it walk again."""

    @pytest.fixture
    def derived(self, monkeypatch):
        """How many directories' survivors the walker derived (a replay derives none)."""
        calls = []
        original = Walker._survivors

        def survivors(self, listing, prefix, node, strip_dot):
            calls.append(prefix)
            return original(self, listing, prefix, node, strip_dot)

        monkeypatch.setattr(Walker, "_survivors", survivors)
        return calls

    def walk(self, root, cache, **options):
        from shellfree.search.walk import WalkOptions

        return list(Walker(WalkOptions(**options), cwd=str(root), cache=cache).walk())

    def test_an_unchanged_tree_is_replayed(self, tree, derived):
        cache = TreeCache(clock=settled_clock)
        plain = self.walk(tree, None)
        assert self.walk(tree, cache) == plain
        assert len(derived) == 3  # ., sub, sub/deep
        derived.clear()
        assert self.walk(tree, cache) == plain
        assert derived == []

    def test_another_configuration_is_walked(self, tree, derived):
        cache = TreeCache(clock=settled_clock)
        self.walk(tree, cache)
        derived.clear()
        assert self.walk(tree, cache, hidden=True) == self.walk(tree, None, hidden=True)
        assert len(derived) == 4  # and .git, hidden no more

    def check(self, tree, path, old: bytes, new: bytes):
        """*path* holds *old*; a warm, replayed walk; *path* rewritten in place to *new*; then
        the cached walk must be the fresh one, which the edit changed. With settled
        timestamps (only the stat signatures decide) and with the real clock."""
        write(path, old)
        for cache in (TreeCache(clock=settled_clock), TreeCache()):
            for _ in range(2):
                assert self.walk(tree, cache) == self.walk(tree, None)
            before = self.walk(tree, None)
            rewrite_in_place(path, new)
            after = self.walk(tree, None)
            assert after != before, "the edit must change the walk"
            assert self.walk(tree, cache) == after
            rewrite_in_place(path, old)

    def test_an_edit_of_git_info_exclude(self, tree):
        # .git is hidden: no listing of the walk shows this file, and no watch covers it.
        self.check(tree, tree / ".git" / "info" / "exclude", b"# nothing\n", b"a.txt\n")

    def test_an_edit_of_the_global_excludes_file(self, tree):
        excludes = Path(os.environ["HOME"]) / ".config" / "git" / "ignore"
        self.check(tree, excludes, b"# nothing\n", b"c.txt\n")

    def test_an_edit_of_an_ignore_file_above_the_root(self, tree):
        from shellfree.search.walk import WalkOptions

        sub = tree / "sub"
        ignore = tree / ".ignore"
        write(ignore, b"# nothing\n")

        def walk(cache):
            return list(Walker(WalkOptions(), cwd=str(sub), cache=cache).walk())

        cache = TreeCache(clock=settled_clock)
        for _ in range(2):
            assert walk(cache) == walk(None)
        before = walk(None)
        rewrite_in_place(ignore, b"deep/\n")
        assert walk(None) != before
        assert walk(cache) == walk(None)

    def test_a_repository_made_above_a_directory_with_a_gitignore(self, isolated):
        # Without a repository the .gitignore does not apply; the listing of the tree's root
        # changes (.git appears), and that is seen.
        write(isolated / ".gitignore", b"*.txt\n")
        write(isolated / "a.txt", b"x\n")
        write(isolated / "b.md", b"x\n")
        cache = TreeCache(clock=settled_clock)
        for _ in range(2):
            assert self.walk(isolated, cache) == self.walk(isolated, None)
        (isolated / ".git").mkdir()
        assert self.walk(isolated, cache) == self.walk(isolated, None) == [Haystack(b"b.md", False)]

    def test_a_rule_file_message_is_replayed(self, tree):
        write(tree / "sub" / ".ignore", b"{unclosed\n")
        cache = TreeCache(clock=settled_clock)
        plain = self.walk(tree, None)
        assert any(not isinstance(event, Haystack) for event in plain)
        for _ in range(3):
            assert self.walk(tree, cache) == plain

    def test_a_changed_rule_file_message_is_seen(self, tree):
        # Both versions compile to no rules: only the message tells them apart.
        self.check(tree, tree / "sub" / ".ignore", b"{unclosed\n", b"{changed\n")

    def test_an_unreadable_directory_is_walked_again(self, tree, derived, monkeypatch):
        original = os.scandir
        deep = os.fsencode(str(tree / "sub" / "deep"))

        def scandir(path):
            if os.fsencode(path).replace(b"/./", b"/") == deep:
                raise PermissionError(13, "Permission denied")
            return original(path)

        monkeypatch.setattr(os, "scandir", scandir)
        cache = TreeCache(clock=settled_clock)
        plain = self.walk(tree, None)
        assert any(not isinstance(event, Haystack) for event in plain)
        assert self.walk(tree, cache) == plain
        derived.clear()
        assert self.walk(tree, cache) == plain
        assert derived  # nothing recorded: the error is looked at again

    def test_a_walk_stopped_early_is_not_recorded(self, tree, derived):
        cache = TreeCache(clock=settled_clock)
        events = Walker(cwd=str(tree), cache=cache).walk()
        next(events)
        events.close()
        derived.clear()
        assert self.walk(tree, cache) == self.walk(tree, None)
        assert len(derived) == 3

    @pytest.fixture
    def listed(self, monkeypatch):
        """The directories the tree cache was asked to list, in order."""
        calls: list[bytes] = []
        original = TreeCache.listing

        def listing(self, directory, sort_names):
            calls.append(os.fsencode(directory).rstrip(b"/").rsplit(b"/", 1)[-1])
            return original(self, directory, sort_names)

        monkeypatch.setattr(TreeCache, "listing", listing)
        return calls

    @staticmethod
    def settle(root) -> None:
        """Date every directory of *root* ten seconds back: an entry added now then changes
        its directory's mtime, whatever the file system's timestamp tick."""
        past = time.time_ns() - 10 * 10**9
        for directory, _, _ in os.walk(root):
            os.utime(directory, ns=(past, past))

    def changed_after_a_record(self, tree) -> TreeCache:
        """A cache holding a recorded walk of *tree*, then a file added to sub/deep, the last
        directory of the walk."""
        self.settle(tree)
        cache = TreeCache(clock=settled_clock)
        self.walk(tree, cache)
        write(tree / "sub" / "deep" / "e.txt", b"new\n")
        return cache

    @pytest.fixture
    def one_ahead(self, monkeypatch):
        """Replays check one directory at a time (_CHECK_AHEAD), as a tree of hundreds of
        directories would be checked a few dozen at a time."""
        from shellfree.search import walk as walk_module

        monkeypatch.setattr(walk_module, "_CHECK_AHEAD", 1)

    def test_a_replay_checks_each_directory_just_before_its_files(self, tree, listed, one_ahead):
        # Its first file comes before the directories below are looked at, so a search shared
        # with helper processes hands them files at once.
        cache = TreeCache(clock=settled_clock)
        self.walk(tree, cache)
        listed.clear()
        events = Walker(cwd=str(tree), cache=cache).walk()
        assert next(events) == Haystack(b"a.txt", False)
        assert b"deep" not in listed
        rest = list(events)
        assert [event.path for event in rest] == [b"sub/c.txt", b"sub/deep/d.txt"]
        assert listed.count(b"deep") == 1

    def test_a_large_tree_is_checked_a_few_directories_at_a_time(self, isolated, listed):
        from shellfree.search.walk import _CHECK_AHEAD

        for i in range(3 * _CHECK_AHEAD):
            write(isolated / f"d{i:03}" / "f.txt", b"x\n")
        cache = TreeCache(clock=settled_clock)
        plain = self.walk(isolated, None)
        self.walk(isolated, cache)
        listed.clear()
        events = Walker(cwd=str(isolated), cache=cache).walk()
        assert next(events) == Haystack(b"d000/f.txt", False)
        assert len(listed) == _CHECK_AHEAD  # the root and the first directories below it
        assert [next(events)] + list(events) == plain[1:]
        assert len(listed) == 3 * _CHECK_AHEAD + 1

    @pytest.fixture
    def skipped(self, monkeypatch):
        """The events each fresh walk that took over from a replay was given to leave out."""
        from shellfree.search import walk as walk_module

        calls = []
        original = walk_module._without

        def without(events, yielded):
            calls.append(yielded)
            return original(events, yielded)

        monkeypatch.setattr(walk_module, "_without", without)
        return calls

    def test_a_directory_changed_after_files_were_replayed_gives_the_fresh_walk(
            self, tree, skipped, derived, one_ahead):
        cache = self.changed_after_a_record(tree)
        fresh = self.walk(tree, None)
        assert self.walk(tree, cache) == fresh
        # The two files replayed before sub/deep was found changed were not yielded again.
        assert skipped == [(b"a.txt", b"sub/c.txt")]
        derived.clear()
        assert self.walk(tree, cache) == fresh
        assert derived == []  # the fresh walk was recorded, and this one replayed it

    def test_an_ignore_file_changed_after_files_were_replayed_gives_the_fresh_walk(
            self, tree, skipped, one_ahead):
        # sub's listing is the same; the ignore state it builds is not.
        cache = TreeCache(clock=settled_clock)
        before = self.walk(tree, cache)
        rewrite_in_place(tree / "sub" / ".ignore", b"# none\n")
        fresh = self.walk(tree, None)
        assert fresh != before
        assert self.walk(tree, cache) == fresh
        assert skipped == [(b"a.txt",)]

    def test_a_fresh_walk_taking_over_stopped_early_is_not_recorded(
            self, tree, skipped, derived, one_ahead):
        cache = self.changed_after_a_record(tree)
        events = Walker(cwd=str(tree), cache=cache).walk()
        taken = [next(events).path for _ in range(3)]
        events.close()
        assert taken == [b"a.txt", b"sub/c.txt", b"sub/deep/d.txt"]
        assert skipped  # the third came from the fresh walk
        fresh = self.walk(tree, None)
        derived.clear()
        assert self.walk(tree, cache) == fresh
        assert derived  # walked afresh: the stopped walk left the old record, which is stale

    def test_an_edit_behind_the_replay_yields_no_file_twice(self, tree, one_ahead):
        # Concurrent edits: a file added to the root once its files were replayed, and one to
        # sub/deep, which makes the walk fresh. Every file comes once; the root's new one
        # comes after the replayed ones, out of its place (rg would have missed it).
        self.settle(tree)
        cache = TreeCache(clock=settled_clock)
        self.walk(tree, cache)
        events = Walker(cwd=str(tree), cache=cache).walk()
        first = next(events)
        write(tree / "m.txt", b"new\n")
        write(tree / "sub" / "deep" / "e.txt", b"new\n")
        paths = [event.path for event in [first, *events]]
        assert paths == [b"a.txt", b"sub/c.txt", b"m.txt", b"sub/deep/d.txt", b"sub/deep/e.txt"]


class TestThreads:
    def test_concurrent_runs_share_one_cache(self, tree):
        import threading

        cache = TreeCache(content_budget=600, clock=settled_clock)  # two files: eviction under contention
        queries = [("-n", "needle"), ("--files",), ("-c", "match"), ("-l", "needle")]
        expected = {q: rg(tree, *q, cache=None) for q in queries}
        failures: list[tuple] = []

        def worker(offset: int) -> None:
            for i in range(12):
                query = queries[(i + offset) % len(queries)]
                got = rg(tree, *query, cache=cache)
                if got != expected[query]:
                    failures.append((query, got))

        threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []
        assert 0 < cache.content_bytes <= 600


class TestOutcomes:
    """A search repeated on an unchanged tree reuses each file's outcome; whatever changed is
    searched again, and the output is always a fresh run's."""

    def test_a_repeated_search_judges_no_file(self, tree, judged):
        cache = TreeCache(clock=settled_clock)
        first = rg(tree, "-n", "needle", cache=cache)
        assert len(judged) == 3
        judged.clear()
        assert rg(tree, "-n", "needle", cache=cache) == first == rg(tree, "-n", "needle", cache=None)
        assert judged[-3:] == [b"a.txt", b"sub/c.txt", b"sub/deep/d.txt"]  # the fresh run
        assert len(judged) == 3

    def test_only_changed_files_are_judged_again(self, tree, judged):
        cache = TreeCache(clock=settled_clock)
        rg(tree, "-n", "needle", cache=cache)
        rewrite_in_place(tree / "sub" / "deep" / "d.txt", b"needle now\n")  # same size
        write(tree / "new.txt", b"needle new\n")
        (tree / "a.txt").unlink()
        judged.clear()
        warm = rg(tree, "-n", "needle", cache=cache)
        assert sorted(judged) == [b"new.txt", b"sub/deep/d.txt"]
        assert warm == rg(tree, "-n", "needle", cache=None)
        assert b"needle now" in warm and b"a.txt" not in warm

    def test_a_rename_is_a_new_file(self, tree, judged):
        cache = TreeCache(clock=settled_clock)
        rg(tree, "-n", "needle", cache=cache)
        os.replace(tree / "a.txt", tree / "z.txt")
        judged.clear()
        warm = rg(tree, "-n", "needle", cache=cache)
        assert judged == [b"z.txt"]
        assert warm == rg(tree, "-n", "needle", cache=None)

    def test_each_search_has_its_own_table_and_the_oldest_goes(self, tree, judged, monkeypatch):
        # Counted by _judge alone: the lane (TestStatLane), which would settle a new search's
        # files the absence test proves empty without it, is shut.
        monkeypatch.setattr(_Search, "lane", lambda self: None)
        cache = TreeCache(clock=settled_clock)
        queries = [("-n", "needle"), ("-c", "needle"), ("-n", "one"), ("-l", "two"), ("-n", "here")]
        for query in queries:
            rg(tree, *query, cache=cache)
        judged.clear()
        rg(tree, *queries[-1], cache=cache)
        assert judged == []
        rg(tree, *queries[0], cache=cache)  # the fifth search pushed the first out
        assert len(judged) == 3

    @pytest.mark.parametrize(
        "make_cache, args",
        [
            # The real clock: the files were just written, within their timestamp tick.
            (lambda: TreeCache(), ("-n", "needle")),
            # --json's statistics time every file.
            (lambda: TreeCache(clock=settled_clock), ("--json", "needle")),
            (lambda: TreeCache(remembered_searches=0, clock=settled_clock), ("-n", "needle")),
        ],
        ids=["racy", "json", "no-remembered-search"],
    )
    def test_outcomes_not_kept_are_judged_again(self, tree, judged, make_cache, args, monkeypatch):
        monkeypatch.setattr(_Search, "lane", lambda self: None)  # as in the test above
        cache = make_cache()
        first = rg(tree, *args, cache=cache)
        judged.clear()
        again = rg(tree, *args, cache=cache)
        assert len(judged) == 3
        if "--json" not in args:  # its elapsed times differ from run to run
            assert again == first

    def test_forget_drops_the_outcome(self, tree, judged):
        cache = TreeCache(clock=settled_clock)
        rg(tree, "-n", "needle", cache=cache)
        cache.forget(os.path.join(str(tree), "sub", "c.txt"))
        judged.clear()
        rg(tree, "-n", "needle", cache=cache)
        assert judged == [b"sub/c.txt"]

    def test_a_changed_pattern_file_is_a_new_search(self, tree, judged):
        cache = TreeCache(clock=settled_clock)
        write(tree / "patterns.txt", b"one\n")
        rg(tree, "-n", "-f", "patterns.txt", "a.txt", "sub", cache=cache)
        rewrite_in_place(tree / "patterns.txt", b"two\n")
        warm = rg(tree, "-n", "-f", "patterns.txt", "a.txt", "sub", cache=cache)
        assert warm == rg(tree, "-n", "-f", "patterns.txt", "a.txt", "sub", cache=None)
        assert b"needle two" in warm


def printed(output: bytes) -> bytes:
    """The standard output part of rg()'s answer."""
    return output.split(b"--stderr--")[0].strip()


def new_query(root, cache, *args: str, judged: list | None = None) -> bytes:
    """rg() for a search *cache* has not remembered (a new query's way), asserted equal to a
    fresh run's; *judged* is left holding what the cached run judged."""
    fresh = rg(root, *args, cache=None)
    cache.forget_searches()
    if judged is not None:
        judged.clear()
    assert rg(root, *args, cache=cache) == fresh
    return fresh


def counted_absence_test(tested: list[bytes]):
    """rgcli.search's absence_test, with each file its tests are given appended to *tested*."""
    from shellfree.rgcli import search as search_module

    absence_test = search_module.absence_test

    def counted(matcher):
        test = absence_test(matcher)
        if test is None:
            return None

        def spy(data: bytes) -> bool:
            tested.append(data)
            return test(data)

        spy.keeps_translation = getattr(test, "keeps_translation", False)
        return spy

    return counted


def translation_reuse(monkeypatch) -> list[bool]:
    """For each search by a class run (search/class_run.py) from now on: whether it used the
    translation its absence test kept, instead of translating the file again."""
    from shellfree.search import searcher

    reused: list[bool] = []
    by_run = searcher._Lines._by_run

    def spy(self, *args):
        kept = self.prepared.translated
        reused.append(kept is not None and kept[0] is self.buf[: self.end])
        return by_run(self, *args)

    monkeypatch.setattr(searcher._Lines, "_by_run", spy)
    return reused


class TestStatLane:
    """A new search over a cache without a watch: each walked file whose cached content its
    ``stat`` vouches for takes _Search.lane (one ``stat``, the absence test), or is handed to
    evaluate with that content (no second ``stat``); anything changed is read again."""

    @staticmethod
    def new_query(root, cache, *args: str, judged: list | None = None) -> bytes:
        """:func:`new_query`'s standard output."""
        return printed(new_query(root, cache, *args, judged=judged))

    @pytest.mark.parametrize("change", CHANGES, ids=lambda change: change.__name__)
    def test_a_change_is_seen_by_a_new_query(self, isolated, change, judged):
        if sys.platform == "win32" and "symlink" in change.__name__:
            pytest.skip("symlinks need a privilege on Windows")
        tree = build_tree(isolated, deep=b"needle deep\n")
        cache = TreeCache(clock=settled_clock)
        rg(tree, "-n", "needle", cache=cache)
        assert self.new_query(tree, cache, "-n", CHANGED_TEXT, judged=judged) == b""
        assert judged == []  # every file took the lane
        change(tree)
        after = self.new_query(tree, cache, "-n", CHANGED_TEXT, judged=judged)
        if change.__name__ not in ("delete", "rename_file", "gitignore_in_place",
                                   "ignore_file_in_place", "remove_directory",
                                   "rename_directory"):  # these write no new text
            assert after, "the change wrote text the query finds"
            assert judged  # the changed file was read again, not settled by the lane
        self.new_query(tree, cache, "-c", CHANGED_TEXT)
        self.new_query(tree, cache, "-n", "needle")  # no file proven empty: all handed over
        self.new_query(tree, cache, "-c", r"\w+")  # no absence test: all handed over
        self.new_query(tree, cache, "-n", "[a-z]{5,}")  # one keeping its translation

    def test_a_file_is_stat_and_tested_once(self, tree, judged, monkeypatch):
        # Every file holds the literal: the lane proves none empty and hands each to evaluate
        # with the content its stat vouched for, and the absence test's verdict.
        from shellfree.rgcli import search as search_module

        cache = TreeCache(clock=settled_clock)
        rg(tree, "-n", "needle", cache=cache)
        fresh = rg(tree, "-c", "e", cache=None)
        cache.forget_searches()
        stats = Counter(monkeypatch, "stat", tree)
        tested = []

        monkeypatch.setattr(search_module, "absence_test", counted_absence_test(tested))
        judged.clear()
        assert rg(tree, "-c", "e", cache=cache) == fresh
        files = [os.path.basename(call) for call in stats.calls if call.endswith(b".txt")]
        assert sorted(files) == [b"a.txt", b"c.txt", b"d.txt"]
        assert sorted(judged) == [b"a.txt", b"sub/c.txt", b"sub/deep/d.txt"]
        assert sorted(tested) == [b"needle one\n", b"needle two\n", b"no match here\n"]

    def test_a_translation_kept_by_the_absence_test_is_used_by_the_search(self, tree,
                                                                          monkeypatch):
        # A pattern with no literal but a run of one class (search/class_run.py): its absence
        # test translates the file and keeps the translation for the search that follows. The
        # lane must not test every file before searching any (each translated twice).
        reused = translation_reuse(monkeypatch)
        cache = TreeCache(clock=settled_clock)
        rg(tree, "-n", "needle", cache=cache)
        self.new_query(tree, cache, "-n", "[a-z]{5,}")
        assert reused[-3:] == [True, True, True]

    @pytest.mark.parametrize("args", [
        ("-v", "needle"), ("-L", "needle"), ("-c", "--include-zero", "two"),
        ("--json", "needle"), ("-q", "two"), ("-m1", "-C1", "e"), ("-o", "[a-z]+"),
    ], ids=lambda args: " ".join(args))
    def test_other_modes_print_what_a_fresh_run_prints(self, tree, args):
        # Most have no absence test: the lane hands every file it checked over to evaluate.
        cache = TreeCache(clock=settled_clock)
        rg(tree, "-n", "needle", cache=cache)
        rg(tree, "-n", "needle", cache=cache)  # the walk is replayed from now on
        if "--json" in args:  # its elapsed times differ from run to run
            from benchmarks.parity.content import ELAPSED

            cache.forget_searches()
            fresh = ELAPSED.sub(b"", rg(tree, *args, cache=None))
            assert ELAPSED.sub(b"", rg(tree, *args, cache=cache)) == fresh
            assert fresh.count(b'"type":"match"') == 2
        else:
            self.new_query(tree, cache, *args)

    def test_a_search_stopped_early_stats_no_more_than_a_part(self, isolated, monkeypatch):
        for i in range(1000):
            write(isolated / "d" / f"f{i:04}.txt", b"needle %d\n" % i)
        cache = TreeCache(clock=settled_clock)
        rg(isolated, "-n", "needle", cache=cache)
        rg(isolated, "-n", "needle", cache=cache)  # the walk is replayed from now on
        cache.forget_searches()
        stats = Counter(monkeypatch, "stat", isolated)
        assert rg(isolated, "-q", "needle", cache=cache) == b"\n--stderr--\n"
        files = [call for call in stats.calls if call.endswith(b".txt")]
        assert 1 <= len(files) < 1000

    def test_a_file_changed_while_the_search_runs_is_seen_as_searched(self, isolated):
        # rg reads each file when it reaches it; the lane's stat comes at most a part of a
        # run before: a file past that part, changed after the first line is printed, is
        # searched as changed.
        names = [isolated / "d" / f"f{i:04}.txt" for i in range(600)]
        for name in names:
            write(name, b"needle old\n")
        cache = TreeCache(clock=settled_clock)
        rg(isolated, "-n", "needle", cache=cache)
        rg(isolated, "-n", "needle", cache=cache)  # the walk is replayed from now on
        cache.forget_searches()

        class Changing(io.BytesIO):
            def write(self, data):
                if not self.tell():
                    rewrite_in_place(names[-1], b"needle NEW\n")
                return super().write(data)

        out = Changing()
        run([b"-n", b"needle"], out, io.BytesIO(), None, cwd=str(isolated), cache=cache)
        assert out.getvalue().endswith(b"d/f0599.txt:1:needle NEW\n")

    def test_a_content_cached_within_its_tick_does_not_take_the_lane(self, tree, judged):
        cache = TreeCache()  # the real clock: the files were written just now
        rg(tree, "-n", "needle", cache=cache)
        self.new_query(tree, cache, "-n", CHANGED_TEXT, judged=judged)
        assert sorted(judged) == [b"a.txt", b"sub/c.txt", b"sub/deep/d.txt"]

    def test_nor_in_a_replayed_walk(self, tree, judged):
        # The listings settled (the clock an hour ahead), then one file rewritten and read
        # again within its tick (the real clock): the walk is replayed, the file not laned.
        now = [settled_clock()]
        cache = TreeCache(clock=lambda: now[0])
        rg(tree, "-n", "needle", cache=cache)
        rewrite_in_place(tree / "sub" / "c.txt", b"needle 2wo\n")
        now[0] = time.time_ns()
        self.new_query(tree, cache, "-n", CHANGED_TEXT, judged=judged)
        assert judged == [b"sub/c.txt"]
        self.new_query(tree, cache, "-n", CHANGED_TEXT, judged=judged)
        assert judged == [b"sub/c.txt"]

    def test_a_content_dropped_during_the_lane_is_read_again(self, tree, judged, monkeypatch):
        # Another thread's write_file forgets a file between the lane's stat and its use.
        cache = TreeCache(clock=settled_clock)
        rg(tree, "-n", "needle", cache=cache)
        rg(tree, "-n", "needle", cache=cache)  # the walk is replayed from now on
        used = TreeCache.used

        def forgetting(self, keys, contents, token):
            self.forget(keys[0])
            return used(self, keys, contents, token)

        monkeypatch.setattr(TreeCache, "used", forgetting)
        self.new_query(tree, cache, "-n", CHANGED_TEXT, judged=judged)
        assert judged == [b"a.txt"]

    def test_the_lane_remembers_what_evaluate_would(self, tree, monkeypatch):
        def tables(cache):
            return [dict(table) for table in cache._outcomes.values()]

        laned = TreeCache(clock=settled_clock)
        rg(tree, "-n", "needle", cache=laned)
        self.new_query(tree, laned, "-n", "needle|one")
        with monkeypatch.context() as shut:
            shut.setattr(_Search, "lane", lambda self: None)
            evaluated = TreeCache(clock=settled_clock)
            rg(tree, "-n", "needle", cache=evaluated)
            self.new_query(tree, evaluated, "-n", "needle|one")
        assert tables(laned) == tables(evaluated)
        assert len(tables(laned)) == 1 and len(tables(laned)[0]) == 3

    def test_a_walk_not_replayed_takes_the_lane_file_by_file(self, tree, judged):
        # A directory listed anew (a file added) is walked, not replayed: its files meet the
        # lane one at a time (the lane a pool's owner and helpers use too).
        cache = TreeCache(clock=settled_clock)
        write(tree / "sub" / "deep" / "e.txt", b"needle e\n")
        rg(tree, "-n", "needle", cache=cache)
        write(tree / "sub" / "deep" / "f.txt", b"needle f\n")
        self.new_query(tree, cache, "-n", CHANGED_TEXT, judged=judged)
        assert judged == [b"sub/deep/f.txt"]  # the one file not cached yet
        write(tree / "sub" / "deep" / "g.txt", b"needle g\n")
        rewrite_in_place(tree / "sub" / "deep" / "e.txt", b"needle E\n")
        assert b"needle E" in self.new_query(tree, cache, "-n", "E", judged=judged)
        assert sorted(judged) == [b"sub/deep/e.txt", b"sub/deep/g.txt"]


class TestLargeFile:
    """A file of split_file.SPLIT_MIN_BYTES or more, named or met in the walk, is searched in
    pieces and never read whole (a host must not grow by the size of a log it searches); its
    outcome is remembered like any file's, and a change to it is seen."""

    @pytest.fixture
    def pieces(self, monkeypatch):
        import shellfree.rgcli.search as search_module
        import shellfree.rgcli.split_file as split_file

        monkeypatch.setattr(split_file, "SPLIT_MIN_BYTES", 64)
        monkeypatch.setattr(split_file, "_PIECE_BYTES", 50)
        monkeypatch.setattr(file_read, "HEAD_BYTES", 32)  # walked files: head first
        calls: list[str] = []
        original = split_file.search_split
        read_whole = tree_cache_module.read_whole

        def recording(*args, **kwargs):
            found = original(*args, **kwargs)
            calls.append("pieces" if found is not None else "declined")
            return found

        def whole(path, enough=None, large=None, walked=False):
            data, st = read_whole(path, enough, large, walked)  # LargeFile: no call counted
            calls.append("whole" if st is not None else "head")
            return data, st

        monkeypatch.setattr(split_file, "search_split", recording)
        monkeypatch.setattr(search_module, "read_whole", whole)
        monkeypatch.setattr(tree_cache_module, "read_whole", whole, raising=True)
        return calls

    @staticmethod
    def content(tag: bytes) -> bytes:
        return b"".join(b"line %d %s\n" % (i, tag if i % 7 == 0 else b"x") for i in range(300))

    def test_searched_in_pieces_as_if_read_whole(self, tmp_path, pieces, monkeypatch):
        import shellfree.rgcli.split_file as split_file

        write(tmp_path / "big.txt", self.content(b"needle"))
        in_pieces = rg(tmp_path, "-n", "needle", "big.txt", cache=TreeCache(clock=settled_clock))
        assert pieces == ["pieces"]
        assert in_pieces.count(b"needle") == 43
        monkeypatch.setattr(split_file, "SPLIT_MIN_BYTES", 1 << 62)
        assert rg(tmp_path, "-n", "needle", "big.txt", cache=TreeCache()) == in_pieces
        assert pieces == ["pieces", "whole"]  # the second run read the file whole

    def test_a_walked_file_too(self, tmp_path, pieces, monkeypatch):
        import shellfree.rgcli.split_file as split_file

        write(tmp_path / "big.txt", self.content(b"needle"))
        write(tmp_path / "early.dat", b"a needle\n\0" + self.content(b"needle"))
        write(tmp_path / "late.dat", self.content(b"needle") + b"\0")
        write(tmp_path / "small.txt", b"a needle\n")
        in_pieces = rg(tmp_path, "-n", "needle", cache=TreeCache(clock=settled_clock))
        # big.txt in pieces; early.dat from its head (its NUL is in it); late.dat's pieces meet
        # its NUL, so it is read whole; small.txt is smaller than a head. Neither binary file
        # prints anything: both NULs lie in rg's first buffer fill (checked by hand, rg 15.1).
        assert pieces == ["pieces", "head", "declined", "whole", "whole"]
        assert b"big.txt:8:line 7 needle" in in_pieces and b"small.txt:1:" in in_pieces
        assert b".dat" not in in_pieces
        pieces.clear()
        monkeypatch.setattr(split_file, "SPLIT_MIN_BYTES", 1 << 62)
        monkeypatch.setattr(file_read, "HEAD_BYTES", 1 << 62)
        assert rg(tmp_path, "-n", "needle", cache=TreeCache()) == in_pieces
        assert pieces == ["whole", "whole", "whole", "whole"]

    def test_a_repeated_search_recalls_the_outcome(self, tmp_path, pieces):
        write(tmp_path / "big.txt", self.content(b"needle"))
        cache = TreeCache(clock=settled_clock)
        first = rg(tmp_path, "-n", "needle", "big.txt", cache=cache)
        assert rg(tmp_path, "-n", "needle", "big.txt", cache=cache) == first
        assert pieces == ["pieces"]

    def test_a_change_is_searched_again(self, tmp_path, pieces):
        path = tmp_path / "big.txt"
        write(path, self.content(b"needle"))
        cache = TreeCache(clock=settled_clock)
        rg(tmp_path, "-n", "needle", "big.txt", cache=cache)
        st = os.stat(path)
        rewrite_in_place(path, self.content(b"nEEdle"))  # same size
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
        assert b"needle" not in rg(tmp_path, "-n", "needle", "big.txt", cache=cache).split(b"--stderr--")[0]
        assert pieces == ["pieces", "pieces"]

    def test_a_file_searched_within_its_tick_is_not_remembered(self, tmp_path, pieces):
        write(tmp_path / "big.txt", self.content(b"needle"))
        cache = TreeCache()  # the real clock: the file was written just now
        first = rg(tmp_path, "-n", "needle", "big.txt", cache=cache)
        assert rg(tmp_path, "-n", "needle", "big.txt", cache=cache) == first
        assert pieces == ["pieces", "pieces"]


def test_a_search_its_caller_stopped_remembers_what_it_searched(tree, judged):
    # search_files stops a search whose output passes its cap by raising from the output
    # stream; the outcomes of the files searched until then are still remembered.
    class Stopped(Exception):
        pass

    class Capped(io.BytesIO):
        def write(self, data):
            raise Stopped()

    cache = TreeCache(clock=settled_clock)
    with pytest.raises(Stopped):
        run([b"-n", b"-j1", b"needle"], Capped(), io.BytesIO(), None, cwd=str(tree), cache=cache)
    assert judged and all(len(table) for table in cache._outcomes.values())
    first = list(judged)
    fresh = rg(tree, "-n", "-j1", "needle", cache=None)
    judged.clear()
    assert rg(tree, "-n", "-j1", "needle", cache=cache) == fresh
    assert judged and not set(first) & set(judged)  # searched before the stop: recalled


def test_remembered_searches_cannot_be_negative():
    with pytest.raises(ValueError):
        TreeCache(remembered_searches=-1)


def test_the_printed_output_a_search_keeps_is_bounded(tree, judged, monkeypatch):
    # Past OUTCOME_BYTES, files that print something are searched again; files that print
    # nothing are still skipped, and the output is a fresh run's either way.
    monkeypatch.setattr(tree_cache_module, "OUTCOME_BYTES", 25)  # room for one matching file
    cache = TreeCache(clock=settled_clock)
    first = rg(tree, "-n", "needle", cache=cache)
    judged.clear()
    assert rg(tree, "-n", "needle", cache=cache) == first
    assert judged == [b"sub/c.txt"]  # a.txt's 19 bytes were kept; c.txt's 23 would pass 25
    table = next(iter(cache._outcomes.values()))
    assert table.printed == len(b"a.txt:1:needle one\n")
    cache.forget(os.path.join(str(tree), "a.txt"))
    assert table.printed == 0


class TestRemember:
    """TreeCache.remember stores a search's entries, ``key, (signature, outcome, size,
    stamp)`` flat; a new search's go into its empty table in one step, and what that step
    cannot do right (an unsigned entry, too much output, a report applied meanwhile, a file met
    twice) is done entry by entry."""

    SIG = (1, 2, 3, 4, 5, 6)

    def fresh(self):
        cache = TreeCache(clock=settled_clock)
        return cache, cache.outcomes("query"), cache.vouch_now()

    def test_a_new_search_keeps_every_entry_as_made(self):
        cache, table, since = self.fresh()
        stamp = since[0]
        entries = [b"a", (self.SIG, (), 0, stamp), b"b", (self.SIG, (True, True, b"b:1:x\n"), 6, 0)]
        cache.remember(table, entries, since)
        assert table == {b"a": (self.SIG, (), 0, stamp), b"b": entries[3]}
        assert table.printed == 6

    def test_an_unsigned_entry_is_not_kept(self):
        cache, table, since = self.fresh()
        cache.remember(table, [b"a", (self.SIG, (), 0, 0), b"b", (None, (), 0, 0)], since)
        assert list(table) == [b"a"]

    def test_a_report_since_the_search_began_unstamps_its_entries(self):
        cache, table, since = self.fresh()
        later = (since[0], since[1] + 1)  # as if a report had been applied meanwhile
        cache.remember(table, [b"a", (self.SIG, (), 0, since[0])], later)
        assert table[b"a"] == (self.SIG, (), 0, 0)

    def test_a_file_met_twice_keeps_its_last_outcome(self):
        cache, table, since = self.fresh()
        cache.remember(table, [b"a", (self.SIG, (True, True, b"long"), 4, 0),
                               b"a", (self.SIG, (True, True, b"x"), 1, 0)], since)
        assert table[b"a"][2] == 1 and table.printed == 1

    def test_output_past_the_bound_keeps_the_entries_before_it(self, monkeypatch):
        monkeypatch.setattr(tree_cache_module, "OUTCOME_BYTES", 5)
        cache, table, since = self.fresh()
        cache.remember(table, [b"a", (self.SIG, (True,), 3, 0), b"b", (self.SIG, (True,), 3, 0),
                               b"c", (self.SIG, (), 0, 0)], since)
        assert list(table) == [b"a", b"c"] and table.printed == 3

    def test_a_table_holding_entries_drops_what_a_file_no_longer_keeps(self):
        cache, table, since = self.fresh()
        cache.remember(table, [b"a", (self.SIG, (True,), 3, 0), b"b", (self.SIG, (), 0, 0)], since)
        cache.remember(table, [b"a", (None, (True,), 3, 0)], since)
        assert list(table) == [b"b"] and table.printed == 0


class TestGarbageCollector:
    """A warm cache of a large tree holds hundreds of thousands of records; if the cyclic
    garbage collector tracked each, every full collection in the host process would visit
    them all (120 ms for the 50,000-file benchmark tree before they were made untracked)."""

    def test_records_are_untracked_after_two_collections(self, isolated):
        import gc

        for d in range(3):
            for f in range(20):
                write(isolated / f"d{d}" / f"f{f}.txt", b"needle %d\n" % f)
        cache = TreeCache(clock=settled_clock, remembered_searches=0)
        assert b"needle" in rg(isolated, "needle", cache=cache)
        rg(isolated, "needle", cache=cache)  # a warm run, which keeps the records it found
        # A collection untracks a tuple whose items are untracked by then: the signature
        # inside a record goes in one collection, the record in the next.
        gc.collect()
        gc.collect()
        contents = list(cache._contents.values())
        assert len(contents) == 60
        assert not any(gc.is_tracked(record) for record in contents)
        listings = list(cache._listings.values())
        assert len(listings) == 4
        for listing in listings:
            assert not gc.is_tracked(listing.entries) and not gc.is_tracked(listing.names)
            assert listing.derived  # the walker's survivors, one set per configuration
            for _, survivors in listing.derived:
                assert not gc.is_tracked(survivors)
                # No Haystack outlives the walk that yielded it.
                assert not any(isinstance(x, Haystack) for entry in survivors for x in entry)
        # The record kept for replaying the walk: its paths and events are bytes.
        (record,) = cache._walks.values()
        assert len(record.events) == 60
        assert not gc.is_tracked(record.fs_dirs) and not gc.is_tracked(record.events)

    def test_a_warm_run_makes_no_new_content_record(self, isolated):
        # Renewing each record at every run (to note the run that used it) made 37,000 new
        # tracked tuples per warm search of the large tree, and young collections to go with
        # them; the run is noted apart, so a warm run keeps the very same records.
        for f in range(20):
            write(isolated / "d" / f"f{f}.txt", b"needle %d\n" % f)
        cache = TreeCache(clock=settled_clock, remembered_searches=0)
        printed = rg(isolated, "needle", cache=cache)
        before = dict(cache._contents)
        assert len(before) == 20
        assert rg(isolated, "needle", cache=cache) == printed
        assert all(cache._contents[key] is record for key, record in before.items())

    def test_remembered_outcomes_are_untracked_after_two_collections(self, isolated):
        # Four remembered searches of the large tree kept 200,000 entries; when each held an
        # Outcome object, every full collection visited them all (110-130 ms per new search).
        import gc

        for f in range(30):
            write(isolated / "d" / f"f{f}.txt", b"needle %d\n" % f if f % 3 else b"hay\n")
        cache = TreeCache(clock=settled_clock, remembered_searches=2)
        printed = rg(isolated, "needle", cache=cache)
        assert rg(isolated, "needle", cache=cache) == printed == rg(isolated, "needle", cache=None)
        rg(isolated, "-c", "hay", cache=cache)
        gc.collect()
        gc.collect()
        tables = list(cache._outcomes.values())
        assert len(tables) == 2 and all(len(table) == 30 for table in tables)
        assert not any(gc.is_tracked(entry) for table in tables for entry in table.values())


class TestSignature:
    """A kept content or outcome stands while its file's size, mtime, ctime, inode, device and
    mode are the same; the signature packs them into one small bytes object."""

    @staticmethod
    def fake(**fields):
        base = dict(st_size=10, st_mtime_ns=1_700_000_000_000_000_000,
                    st_ctime_ns=1_700_000_000_500_000_000, st_ino=123, st_dev=45, st_mode=0o100644)
        base.update(fields)
        return type("FakeStat", (), base)()

    def test_equal_stats_give_one_packed_signature(self, tmp_path):
        write(tmp_path / "f", b"x\n")
        first = tree_cache_module._signature(os.stat(tmp_path / "f"))
        assert isinstance(first, bytes) and len(first) == 44
        assert tree_cache_module._signature(os.stat(tmp_path / "f")) == first

    @pytest.mark.parametrize("field", ["st_size", "st_mtime_ns", "st_ctime_ns", "st_ino",
                                       "st_dev", "st_mode"])
    def test_each_field_counts(self, field):
        signature = tree_cache_module._signature
        changed = self.fake(**{field: getattr(self.fake(), field) + 1})
        assert signature(changed) != signature(self.fake())

    def test_a_value_out_of_range_keeps_a_tuple_that_matches_nothing_packed(self):
        signature = tree_cache_module._signature
        huge = self.fake(st_ino=1 << 100)  # a 128-bit file ID (Windows ReFS)
        assert signature(huge) == signature(self.fake(st_ino=1 << 100))
        assert isinstance(signature(huge), tuple)
        before_1677 = self.fake(st_mtime_ns=-(1 << 63) - 1)
        assert isinstance(signature(before_1677), tuple)
        assert signature(huge) != signature(self.fake())
