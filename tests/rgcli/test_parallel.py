"""Tests for rgcli/parallel.py: forked workers give exactly the serial output."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from shellfree.rgcli.flags import parse_args
from shellfree.rgcli.parallel import _batches, map_in_workers, split_walk
from shellfree.rgcli.run import Invocation, walk_options
from shellfree.search.walk import Subtree, Walker

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")


def test_batches_cover_every_item_once():
    for count in (1, 7, 256, 1001, 50_000, 123_457):
        for every in (1, 97, 1000):
            heavy = [i % every == 3 for i in range(count)]
            batches = _batches(heavy, 2)
            assert [i for b in batches for i in b] == list(range(count))
            assert len(batches) <= 1000
            if sum(heavy) < 400:
                # A heavy item (a subtree) has a batch of its own while the pipe has room.
                assert all(len(b) == 1 or not any(heavy[i] for i in b) for b in batches)


def test_results_come_back_in_item_order():
    items = list(range(3000))
    results = list(map_in_workers(items, lambda x: [x, -x] if x % 3 else [], 2, [x % 500 == 0 for x in items]))
    assert results == [y for x in items if x % 3 for y in (x, -x)]


def test_a_worker_failure_is_reported():
    def work(x):
        if x == 1234:
            raise ValueError("boom")
        return [x]

    with pytest.raises(RuntimeError, match="boom"):
        list(map_in_workers(list(range(2000)), work, 2, [False] * 2000))


def _tree(root):
    for i in range(600):
        d = root / f"d{i % 7}" / f"s{i % 3}" / f"t{i % 2}"
        d.mkdir(parents=True, exist_ok=True)
        body = "".join(f"line {j} {'needle' if (i + j) % 11 == 0 else 'hay'} {i}\n" for j in range(20))
        if i % 50 == 0:
            body += "bin\0ary needle\n"
        (d / f"f{i}.txt").write_text(body)
        if i % 5 == 0:
            (root / f"top{i}.txt").write_text(body)
    (root / ".ignore").write_text("d3/\n")
    # Rules deep in a subtree a worker walks, and a repository that scopes .gitignore.
    (root / ".git").mkdir()
    (root / "d1" / ".gitignore").write_text("f1*.txt\n!f15.txt\n")
    (root / "d2" / "s1" / ".ignore").write_text("t0/\n")
    (root / "d4" / "s0" / ".hidden.txt").write_text("needle hidden\n")
    # Messages found by a worker (with -L): a dangling link and a loop, deep in subtrees.
    (root / "d5" / "s2" / "t1" / "dangling").symlink_to(root / "nowhere")
    (root / "d6" / "s1" / "t0" / "loop").symlink_to(root / "d6")


def _split_then_walk(walker, units):
    for unit in units:
        if isinstance(unit, Subtree):
            yield from _split_then_walk(walker, walker.walk_subtree(unit))
        else:
            yield unit


@pytest.mark.parametrize("workers", [2, 8])
def test_split_walk_units_walk_to_the_serial_walk(tmp_path, workers):
    _tree(tmp_path)
    args = parse_args([b"needle"])
    out = Invocation(None, None, False, cwd=str(tmp_path))
    walker = Walker(walk_options(args, [], out), cwd=str(tmp_path))
    units = split_walk(walker, None, workers)
    assert units is not None
    # Two workers want 16 subtrees, which this tree has at depth 2; eight want 64, which it
    # does not have, so the parent walks it all.
    assert any(isinstance(u, Subtree) for u in units) == (workers == 2)
    assert list(_split_then_walk(walker, units)) == list(walker.walk(None))


def test_split_walk_declines_a_small_tree(tmp_path):
    for i in range(20):
        (tmp_path / f"d{i % 3}").mkdir(exist_ok=True)
        (tmp_path / f"d{i % 3}" / f"f{i}").write_text("x\n")
    args = parse_args([b"x"])
    out = Invocation(None, None, False, cwd=str(tmp_path))
    walker = Walker(walk_options(args, [], out), cwd=str(tmp_path))
    assert split_walk(walker, None, 2) is None


@pytest.mark.parametrize(
    "args",
    [["-n", "needle"], ["-c", "needle"], ["-l", "ne+dle"], ["-n", "-C1", "needle"], ["-o", "-b", "n\\w+"],
     ["-L", "-n", "needle"], ["--files"], ["-L", "--files"],
     ["--files", "--null", "--path-separator", "+"], ["-L", "--files", "--path-separator", "+"],
     # Named roots: a file named among directories comes back from a worker as named.
     ["--files", "d0", "d1", "top0.txt", "d2", "d4", "d5", "d6"],
     ["-n", "needle", "d0", "d1", "top5.txt", "d2", "d4", "d5", "d6"],
     # Every file searched and nothing printed: no "No files were searched", status 1.
     ["-n", "absent from every file"]],
)
def test_parallel_output_equals_serial_output(tmp_path, args, reference_rg):
    _tree(tmp_path)

    def run(*command):
        return subprocess.run(
            [*command, *args], cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True,
            check=False,
        )

    shellfree = (sys.executable, "-m", "shellfree", "rg")
    serial, parallel = run(*shellfree, "-j1"), run(*shellfree, "-j2")
    # rg words some walk errors differently with one thread than with several, and its own
    # threads print them in any order: compare with its multi-threaded run, as sets.
    rg = run(reference_rg, "-j2")
    assert parallel.returncode == serial.returncode == rg.returncode
    assert rg.returncode == (2 if "-L" in args else 1 if "absent" in args[-1] else 0)
    assert parallel.stdout == serial.stdout
    assert sorted(parallel.stderr.splitlines()) == sorted(rg.stderr.splitlines())
    records = (lambda out: out.split(b"\0")) if "--null" in args else bytes.splitlines
    assert sorted(records(parallel.stdout)) == sorted(records(rg.stdout))


def test_split_walk_opens_a_subtree_that_holds_most_of_the_tree(tmp_path):
    # One wide directory with most of the files (like ansible-core's test/integration/targets)
    # must not become a single unit: one worker would do most of the work.
    for i in range(300):
        d = tmp_path / "a" / "b" / "c" / "wide" / f"t{i}"
        d.mkdir(parents=True)
        (d / "f.txt").write_text("x\n")
    for i in range(20):
        d = tmp_path / f"other{i}" / "s"
        d.mkdir(parents=True)
        (d / "g.txt").write_text("x\n")
    args = parse_args([b"x"])
    out = Invocation(None, None, False, cwd=str(tmp_path))
    walker = Walker(walk_options(args, [], out), cwd=str(tmp_path))
    units = split_walk(walker, None, 2)
    assert units is not None
    sizes = [sum(1 for _ in _split_then_walk(walker, [u])) for u in units]
    assert max(sizes) < 100  # the 300 files of wide/ are spread over many units
    assert list(_split_then_walk(walker, units)) == list(walker.walk(None))


@pytest.mark.parametrize("follow", [False, True], ids=["plain", "follow"])
def test_the_subtrees_of_an_opened_directory_list_themselves(tmp_path, monkeypatch, follow):
    # The directories of an opened wide one are handed out unlisted; each unit lists its
    # directory and builds its ignore state where the walk would, errors and messages included.
    wide = tmp_path / "a" / "b" / "c" / "wide"  # below the depth the parent walks to
    for i in range(300):
        (wide / f"t{i:03}").mkdir(parents=True)
        (wide / f"t{i:03}" / "f.txt").write_text("x\n")
        (wide / f"t{i:03}" / "g.log").write_text("x\n")
    (tmp_path / ".git").mkdir()
    (wide / "t010" / ".gitignore").write_text("*.log\n")
    (wide / "t020" / ".ignore").write_text("{unclosed\n")  # a message, and no rules
    (wide / "t030" / "sub").mkdir()
    (wide / "t030" / "sub" / "h.txt").write_text("x\n")
    if follow:
        (wide / "t040" / "loop").symlink_to(wide)
    original = os.scandir

    def scandir(path):
        if os.fsencode(path).endswith(b"/wide/t050"):
            raise PermissionError(13, "Permission denied")
        return original(path)

    monkeypatch.setattr(os, "scandir", scandir)
    args = parse_args([*([b"-L"] if follow else []), b"x"])
    out = Invocation(None, None, False, cwd=str(tmp_path))
    walker = Walker(walk_options(args, [], out), cwd=str(tmp_path))
    units = split_walk(walker, None, 2)
    assert units is not None
    assert sum(1 for u in units if isinstance(u, Subtree) and u.listing is None) == 300
    serial = list(walker.walk(None))
    assert any("t020/.ignore" in getattr(e, "text", "") for e in serial)
    assert any("t050" in getattr(e, "text", "") for e in serial)
    assert list(_split_then_walk(walker, units)) == serial


def test_the_parent_works_too_and_failures_anywhere_come_back_in_order():
    # With two workers the parent forks one child and runs batches itself: a failure in
    # either surfaces as the same RuntimeError, after the results of the batches before it.
    import time

    parent = os.getpid()

    def work(x):
        if x % 250 == 0:
            time.sleep(0.02)  # each batch takes a while, so the child is sure to get some
        return [(x, os.getpid() == parent)]

    results = list(map_in_workers(list(range(4000)), work, 2, [False] * 4000))
    assert [x for x, _ in results] == list(range(4000))
    assert any(in_parent for _, in_parent in results)  # the parent took batches
    assert not all(in_parent for _, in_parent in results)  # and so did the child

    def fail_at_seven(x):
        if x == 7:
            raise ValueError("boom at seven")
        return [x]

    seen = []
    with pytest.raises(RuntimeError, match="boom at seven"):
        for x in map_in_workers(list(range(50)), fail_at_seven, 2, [True] * 50):
            seen.append(x)
    assert seen == list(range(7))  # every result before the failure, in order
    # A single batch is the parent's own: its failure is reported the same way.
    with pytest.raises(RuntimeError, match="boom at seven"):
        list(map_in_workers([7], fail_at_seven, 2, [True]))


def _waits_to_be_seen(marker_dir, in_child_only: bool):
    """Work that yields 1000 results, then waits (2 s at most) for the consumer to have seen
    the 300th before it yields its last one: whether it was seen. A batch sent or handed out
    only whole waits in vain."""
    import time

    parent = os.getpid()

    def work(x):
        yield from ((x, i) for i in range(1000))
        if in_child_only and os.getpid() == parent:
            time.sleep(0.05)  # the child gets batches too
            yield (x, "parent")
            return
        deadline = time.monotonic() + 2
        while not (marker_dir / f"seen{x}").exists() and time.monotonic() < deadline:
            time.sleep(0.005)
        yield (x, (marker_dir / f"seen{x}").exists())

    return work


def _consume(results, marker_dir):
    out = []
    for x, value in results:
        out.append((x, value))
        if value == 300:
            (marker_dir / f"seen{x}").touch()
    return out


def test_a_child_s_batch_is_handed_out_while_it_runs(tmp_path):
    # A subtree is one batch: its results must flow as they are found (printed while the rest
    # is searched), not wait, all held in memory, for the whole subtree.
    work = _waits_to_be_seen(tmp_path, in_child_only=True)
    results = _consume(map_in_workers(list(range(6)), work, 2, [True] * 6), tmp_path)
    assert [x for x, _ in results] == [x for x in range(6) for _ in range(1001)]
    last = [value for _, value in results[1000::1001]]
    assert True in last  # the child ran batches, and each of them was seen while it ran
    assert set(last) <= {True, "parent"}


def test_the_parent_s_own_batch_is_handed_out_while_it_runs(tmp_path):
    work = _waits_to_be_seen(tmp_path, in_child_only=False)
    results = _consume(map_in_workers([0], work, 2, [True]), tmp_path)
    assert results == [*((0, i) for i in range(1000)), (0, True)]


def test_results_waiting_for_their_turn_past_the_allowance_go_to_a_file(monkeypatch):
    # Batch 0 is slow, so whoever does not run it runs ahead; with no memory allowance every
    # part set aside goes to the temporary file, and comes back in order.
    import tempfile
    import time

    from shellfree.rgcli import parallel

    made = []
    original = tempfile.mkstemp

    def mkstemp(*args, **kwargs):
        made.append(True)
        return original(*args, **kwargs)

    monkeypatch.setattr(parallel, "_HELD_IN_MEMORY", 0)
    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)

    def results_of(x):
        return [(x, b"result %d" % x * (x % 7))] * (x % 5)

    def work(x):
        if x == 0:
            time.sleep(0.3)
        return results_of(x)

    items = list(range(3000))
    results = list(map_in_workers(items, work, 2, [x % 100 == 0 for x in items]))
    assert results == [r for x in items for r in results_of(x)]
    assert made  # the parent did set parts aside, in the file


@pytest.mark.parametrize("items", [1, 40])
def test_a_consumer_that_stops_early_leaves_no_error_behind(monkeypatch, items):
    # `shellfree rg … | head -1`: the output fails, the results are dropped mid-batch. The
    # batch's parts, closed then, must not be reported as a failure ("Exception ignored").
    import gc

    unraisable = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    results = map_in_workers(list(range(items)), lambda x: ((x, i) for i in range(1000)), 2,
                             [True] * items)
    assert next(results) == (0, 0)
    results.close()
    del results
    gc.collect()
    assert unraisable == []


@pytest.mark.parametrize("failure", ["mkstemp", "pwrite"])
def test_without_a_temporary_file_the_results_wait_in_memory(monkeypatch, failure):
    # No temporary directory, or a full disk: the output is kept whole, past the allowance.
    import tempfile
    import time

    from shellfree.rgcli import parallel

    def refuse(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(parallel, "_HELD_IN_MEMORY", 0)
    if failure == "mkstemp":
        monkeypatch.setattr(tempfile, "mkstemp", refuse)
    else:
        writes = []
        original = os.pwrite

        def pwrite(fd, data, offset):
            writes.append(offset)
            if len(writes) > 3:  # some parts are in the file by then
                refuse()
            return original(fd, data, offset)

        monkeypatch.setattr(os, "pwrite", pwrite)

    def work(x):
        if x == 0:
            time.sleep(0.3)
        return [(x, b"r" * (x % 11))] * (x % 4)

    items = list(range(3000))
    results = list(map_in_workers(items, work, 2, [x % 100 == 0 for x in items]))
    assert results == [r for x in items for r in [(x, b"r" * (x % 11))] * (x % 4)]
    if failure == "pwrite":
        assert len(writes) > 3
