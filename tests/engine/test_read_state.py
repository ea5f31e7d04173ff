"""read_file's per-task state: the consecutive-read guard shared with search_files, the
"unchanged" stub, and the record of files seen in full that write_file asks about (§6, §3.5)."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from shellfree.engine.read_tracking import FullReadLedger, ReadDedup, stat_key

WARNING = ("You have read this exact file region {n} times consecutively. The content has not "
           "changed since your last read. Use the information you already have. If you are "
           "stuck in a loop, stop reading and proceed with writing or responding.")
BLOCKED = ("BLOCKED: You have read this exact file region {n} times in a row. The content has "
           "NOT changed. You already have this information. STOP re-reading and proceed with "
           "your task.")
STUB = {"status": "unchanged",
        "message": "File unchanged since last read. The content from the earlier read_file "
                   "result in this conversation is still current — refer to that instead of "
                   "re-reading.",
        "path": "f.txt", "dedup": True, "content_returned": False}
DEDUP_BLOCKED = ("BLOCKED: You have called read_file on this exact region {n} times and the file "
                 "has NOT changed. STOP calling read_file for this path — the content from your "
                 "earlier read_file result in this conversation is still current. Proceed with "
                 "your task using the information you already have.")


def read(ft, path: str = "f.txt", **args: Any) -> dict[str, Any]:
    return json.loads(ft.read_file(path, **args))


def search(ft, **args: Any) -> dict[str, Any]:
    return json.loads(ft.search_files(**args))


def fresh(ft, touch, path: str = "f.txt", **args: Any) -> dict[str, Any]:
    """A real read: the file gets a new mtime first, so no dedup stub answers."""
    touch()
    return read(ft, path, **args)


class Toucher:
    """Gives a file a new mtime before each read, so the dedup stub never applies and the
    consecutive-read guard is what answers (as on Hermes' remote backends, §6.3)."""

    def __init__(self, path) -> None:
        self.path = path
        self.ns = os.stat(path).st_mtime_ns

    def __call__(self) -> None:
        self.ns += 1_000_000
        os.utime(self.path, ns=(self.ns, self.ns))


@pytest.fixture
def touched(root, tools):
    ft = tools({"f.txt": "one\ntwo\n"})
    return ft, Toucher(root / "f.txt")


class TestConsecutiveReads:
    def test_warn_at_3_block_at_4(self, touched):
        ft, touch = touched
        outs = []
        for _ in range(5):
            touch()
            outs.append(read(ft))
        assert "_warning" not in outs[0] and "_warning" not in outs[1]
        assert outs[2]["content"] == "1|one\n2|two"
        assert outs[2]["_warning"] == WARNING.format(n=3)
        assert outs[3] == {"error": BLOCKED.format(n=4), "path": "f.txt", "already_read": 4,
                           "guardrail_refusal": True}
        assert outs[4]["error"] == BLOCKED.format(n=5)

    def test_another_region_file_or_tool_resets(self, root, touched):
        ft, touch = touched
        (root / "g.txt").write_text("g\n")
        for between in (lambda: read(ft, limit=5), lambda: read(ft, "g.txt"),
                        ft.notify_other_tool_call, lambda: ft.call("terminal", {})):
            fresh(ft, touch)
            fresh(ft, touch)
            between()
            touch()
            assert "_warning" not in read(ft)

    def test_an_edit_between_reads_resets_the_count(self, root, touched):
        # Hermes' dispatcher calls notify_other_tool_call before every tool but read_file and
        # search_files (§1.6, §7), write_file and patch included, whether the edit succeeds or
        # not: read, edit, read, edit, ... never warns.
        ft, touch = touched
        (root / "g.txt").write_text("g0\n")
        edits = [lambda i: ft.patch(path="g.txt", old_string=f"g{i}", new_string=f"g{i + 1}"),
                 lambda i: ft.call("patch", {"path": "g.txt", "old_string": "absent",
                                             "new_string": "x"}),
                 lambda i: ft.write_file(f"new{i}.txt", "n\n"),
                 lambda i: ft.call("write_file", {"path": "g.txt"}),  # refused: no content
                 lambda i: ft.patch(mode="patch", patch="*** Begin Patch\n*** Add File: "
                                    f"v4a{i}.txt\n+x\n*** End Patch")]
        for edit in edits:
            for i in range(4):
                touch()
                assert "_warning" not in read(ft)
                edit(i)
        assert (root / "g.txt").read_text() == "g4\n"

    def test_a_search_between_reads_resets_the_read_count(self, touched):
        ft, touch = touched
        fresh(ft, touch)
        fresh(ft, touch)
        search(ft, pattern="one")
        touch()
        assert "_warning" not in read(ft)
        fresh(ft, touch)
        touch()
        assert read(ft)["_warning"] == WARNING.format(n=3)

    def test_a_read_between_searches_resets_the_search_count(self, touched):
        ft, touch = touched
        search(ft, pattern="one")
        search(ft, pattern="one")
        fresh(ft, touch)
        assert "_warning" not in search(ft, pattern="one")
        search(ft, pattern="one")
        assert search(ft, pattern="one")["_warning"].startswith(
            "You have run this exact search 3 times consecutively.")

    def test_key_is_the_path_as_given(self, root, touched):
        ft, touch = touched
        fresh(ft, touch)
        fresh(ft, touch, str(root / "f.txt"))
        touch()
        assert "_warning" not in read(ft)

    def test_tasks_do_not_share_counts(self, root, tools, touched):
        ft, touch = touched
        other = tools()
        for _ in range(3):
            touch()
            read(other)
        touch()
        assert "_warning" not in read(ft)


class TestDedupStub:
    def test_stub_then_blocked(self, tools):
        ft = tools({"f.txt": "one\n"})
        assert read(ft)["content"] == "1|one"
        assert read(ft) == STUB
        assert read(ft) == {"error": DEDUP_BLOCKED.format(n=3), "path": "f.txt",
                            "already_read": 3, "guardrail_refusal": True}
        assert read(ft)["error"] == DEDUP_BLOCKED.format(n=4)

    def test_a_change_to_the_file_reads_again(self, root, tools):
        ft = tools({"f.txt": "one\n"})
        read(ft)
        assert read(ft) == STUB
        (root / "f.txt").write_text("one\ntwo\n")
        assert read(ft)["content"] == "1|one\n2|two"
        assert read(ft) == STUB  # and its stub count restarted

    def test_same_size_rewrite_with_restored_mtime_still_counts_as_a_change(self, root, tools):
        ft = tools({"f.txt": "one\n"})
        before = os.stat(root / "f.txt")
        read(ft)
        (root / "f.txt").write_text("two\n")
        os.utime(root / "f.txt", ns=(before.st_atime_ns, before.st_mtime_ns))
        assert read(ft)["content"] == "1|two"  # ctime moved

    def test_keyed_by_region(self, tools):
        ft = tools({"f.txt": "one\ntwo\n"})
        read(ft)
        assert read(ft, offset=2)["content"] == "2|two"
        assert read(ft, limit=1)["content"] == "1|one"
        assert read(ft, limit=1) == STUB

    def test_reset_after_context_compression(self, tools):
        ft = tools({"f.txt": "one\n"})
        read(ft)
        read(ft)
        ft.reset_file_dedup()  # the host's hook, public as notify_other_tool_call is
        assert read(ft)["content"] == "1|one"
        assert read(ft) == STUB

    def test_another_tool_restarts_the_stub_count(self, tools):
        ft = tools({"f.txt": "one\n"})
        read(ft)
        assert read(ft) == STUB
        ft.notify_other_tool_call()
        assert read(ft) == STUB
        assert "BLOCKED" in read(ft)["error"]

    def test_invalidated_by_a_write(self, root, tools):
        ft = tools({"f.txt": "one\n"})
        read(ft)
        ft.state.invalidate_path(str(root / "f.txt"))
        assert read(ft)["content"] == "1|one"

    def test_stubs_do_not_count_as_reads(self, root, tools):
        ft = tools({"f.txt": "one\n"})
        touch = Toucher(root / "f.txt")
        read(ft)
        read(ft)  # stub
        touch()
        assert "_warning" not in read(ft)  # 2nd real read in a row
        touch()
        assert read(ft)["_warning"] == WARNING.format(n=3)

    def test_unit(self):
        dedup = ReadDedup()
        key = ("/f", 1, 2000)
        assert dedup.stub_hit(key, (1, 2, 3, 4, 5)) is None
        dedup.record(key, (1, 2, 3, 4, 5))
        assert dedup.stub_hit(key, (1, 2, 3, 4, 6)) is None
        assert [dedup.stub_hit(key, (1, 2, 3, 4, 5)) for _ in range(3)] == [1, 2, 3]
        dedup.forget_path("/f")
        assert dedup.stub_hit(key, (1, 2, 3, 4, 5)) is None


class TestSeenInFull:
    """``TaskState.has_seen_current``: the question write_file's stale-overwrite blocker asks."""

    @staticmethod
    def seen(ft, path) -> bool:
        return ft.state.has_seen_current(str(path), stat_key(os.stat(path)))

    def test_one_whole_page(self, root, tools):
        ft = tools({"f.txt": "a\nb\n", "g.txt": "x\n"})
        assert not self.seen(ft, root / "f.txt")
        read(ft)
        assert self.seen(ft, root / "f.txt")
        assert not self.seen(ft, root / "g.txt")

    def test_pages_in_any_order(self, root, tools):
        ft = tools({"f.txt": "a\nb\nc\nd\ne"})
        read(ft, offset=3, limit=2)
        assert not self.seen(ft, root / "f.txt")
        read(ft, offset=5)
        assert not self.seen(ft, root / "f.txt")
        read(ft, limit=2)
        assert self.seen(ft, root / "f.txt")

    def test_budget_cut_pages(self, root, tools):
        from shellfree.engine.read_result import ReadLimits

        ft = tools({"f.txt": "aaaa\nbbbb\ncccc\n"})
        ft.read_limits = ReadLimits(max_chars=14)
        first = read(ft)
        assert first["next_offset"] == 3
        assert not self.seen(ft, root / "f.txt")
        read(ft, offset=3)
        assert self.seen(ft, root / "f.txt")

    def test_empty_file(self, root, tools):
        ft = tools({"f.txt": ""})
        read(ft)
        assert self.seen(ft, root / "f.txt")

    def test_a_change_or_a_partial_read_of_a_new_version(self, root, tools):
        ft = tools({"f.txt": "a\nb\n"})
        read(ft)
        (root / "f.txt").write_text("a\nb\nc\n")
        assert not self.seen(ft, root / "f.txt")
        read(ft, limit=1)
        assert not self.seen(ft, root / "f.txt")

    def test_redacted_or_clamped_views_do_not_count(self, root, tools):
        ft = tools({"f.txt": "a\n", "long.txt": "x" * 2001 + "\n"})
        read(ft)
        (root / "f.txt").write_text('k = "sk-abcdefghijklmnopqrstuvwx"\n')
        read(ft)
        assert not self.seen(ft, root / "f.txt")
        read(ft, "long.txt")
        assert not self.seen(ft, root / "long.txt")

    def test_any_spelling_of_the_path(self, root, tools):
        ft = tools({"real/f.txt": "a\n"})
        os.symlink(root / "real", root / "link")
        read(ft, "link/./f.txt")
        assert self.seen(ft, root / "real" / "f.txt")

    def test_own_write_grants_and_read_stamps(self, root, tools):
        ft = tools({"f.txt": "a\nb\n"})
        path = str(root / "f.txt")
        assert ft.state.last_read_version(path) is None
        read(ft, limit=1)
        version = stat_key(os.stat(path))
        assert ft.state.last_read_version(path) == version
        assert not ft.state.has_seen_current(path, version)
        ft.state.record_full_read(path, version)
        assert ft.state.has_seen_current(path, version)
        ft.state.record_read_version(path, (0, 0, 0, 0, 0))
        assert ft.state.last_read_version(path) == (0, 0, 0, 0, 0)

    def test_ledger_unit(self):
        ledger = FullReadLedger()
        v1, v2 = (1, 1, 1, 1, 1), (2, 2, 2, 2, 2)
        ledger.record_page("/f", v1, 4, 6, reaches_end=True)
        ledger.record_page("/f", v1, 1, 2, reaches_end=False)
        assert not ledger.has_seen("/f", v1)  # line 3 never shown
        ledger.record_page("/f", v1, 2, 3, reaches_end=False)
        assert ledger.has_seen("/f", v1) and not ledger.has_seen("/f", v2)
        ledger.record_page("/f", v2, 1, 1, reaches_end=False)
        assert not ledger.has_seen("/f", v1)
        ledger.grant("/g", v2)
        ledger.revoke("/g")
        assert not ledger.has_seen("/g", v2)
