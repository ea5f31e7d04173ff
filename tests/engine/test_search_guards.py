"""The tool-layer guards of search_files: loop guard, NT check, deny-list, negative cache
(§5.2, §6.2, §6.4, §8.1, §8.3)."""

from __future__ import annotations

import json

import pytest

from shellfree.engine import messages
from tests.engine.conftest import search

BLOCKED = ("BLOCKED: You have run this exact search {n} times in a row. The results have NOT "
           "changed. You already have this information. STOP re-searching and proceed with your "
           "task.")
WARNING = ("You have run this exact search 3 times consecutively. The results have not changed. "
           "Use the information you already have.")


class TestLoopGuard:
    def test_warn_at_3_block_from_4(self, tools):
        ft = tools({"a.txt": "x\n"})
        first = search(ft, pattern="x")
        assert search(ft, pattern="x") == first
        third = search(ft, pattern="x")
        assert third == {**first, "_warning": WARNING}
        for n in (4, 5):
            assert search(ft, pattern="x") == {
                "error": BLOCKED.format(n=n), "pattern": "x", "already_searched": n,
                messages.GUARDRAIL_REFUSAL_KEY: True}

    def test_pagination_is_part_of_the_key(self, tools):
        ft = tools({"a.txt": "x\n"})
        for offset in range(6):
            assert "error" not in search(ft, pattern="x", offset=offset)

    def test_glob_and_the_view_are_part_of_the_key(self, tools):
        # Fixed defect: Hermes left output_mode and context out of the key, and refused the
        # fourth of these as "this exact search".
        ft = tools({"a.txt": "x\n"})
        views = [{"output_mode": "content"}, {"output_mode": "count"},
                 {"output_mode": "files_only"}, {"context": 2}, {"file_glob": "*.txt"}]
        for view in views:
            out = search(ft, pattern="x", **view)
            assert "error" not in out and "_warning" not in out, view
        for _ in range(2):
            search(ft, pattern="x", file_glob="*.txt")
        assert search(ft, pattern="x", file_glob="*.txt")["error"] == BLOCKED.format(n=4)

    def test_a_file_search_ignores_the_view(self, tools):
        ft = tools({"a.txt": "x\n"})
        search(ft, pattern="*.txt", target="files", output_mode="count")
        search(ft, pattern="*.txt", target="files", context=2)
        assert search(ft, pattern="*.txt", target="files")["_warning"] == WARNING

    def test_aliases_and_defaults_share_a_key(self, tools):
        ft = tools({"a.txt": "x\n"})
        search(ft, pattern="x", target="grep", path="")
        search(ft, pattern="x", target="content", path=".", offset="bad")
        assert search(ft, pattern="x")["_warning"] == WARNING

    def test_another_tool_resets(self, tools):
        ft = tools({"a.txt": "x\n"})
        for _ in range(3):
            search(ft, pattern="x")
        json.loads(ft.call("terminal", {"command": "ls"}))
        assert "_warning" not in search(ft, pattern="x")
        assert ft.state.loop_guard.consecutive == 1

    def test_an_edit_resets(self, tools):
        # write_file and patch are other tools to the guard (§1.6, §7).
        ft = tools({"a.txt": "x\n"})
        for edit in (lambda: ft.write_file("b.txt", "y\n"),
                     lambda: ft.patch(path="b.txt", old_string="y", new_string="x")):
            for _ in range(2):
                search(ft, pattern="x")
            edit()
            assert "_warning" not in search(ft, pattern="x")
            assert ft.state.loop_guard.consecutive == 1

    def test_notify_other_tool_call(self, tools):
        ft = tools({"a.txt": "x\n"})
        for _ in range(3):
            search(ft, pattern="x")
        ft.notify_other_tool_call()
        assert "_warning" not in search(ft, pattern="x")

    def test_shared_with_read_calls(self, tools):
        ft = tools({"a.txt": "x\n"})
        search(ft, pattern="x")
        search(ft, pattern="x")
        # A read_file call records its own key in the same guard (§6.1).
        ft.state.loop_guard.record(("read", "a.txt", 1, 2000))
        assert "_warning" not in search(ft, pattern="x")
        assert ft.state.loop_guard.consecutive == 1

    def test_separate_tasks_do_not_share_counts(self, tools):
        a = tools({"a.txt": "x\n"})
        b = tools()
        for _ in range(3):
            search(a, pattern="x")
        assert "_warning" not in search(b, pattern="x")

    def test_block_comes_before_any_other_check(self, tools):
        ft = tools()
        for _ in range(3):
            search(ft, pattern="x", path="\\\\.\\pipe\\x")
        assert search(ft, pattern="x", path="\\\\.\\pipe\\x")["already_searched"] == 4


def test_nt_namespace_path_is_refused(tools):
    ft = tools()
    assert search(ft, pattern="x", path="\\\\?\\UNC\\host\\share") == {"error": (
        "Search denied: '\\\\?\\UNC\\host\\share' uses a Windows NT/device namespace prefix "
        "(\\??\\, \\\\.\\, \\\\?\\UNC\\, or GLOBALROOT). These paths bypass normal path "
        "normalization and can trigger outbound SMB authentication (NTLM credential leak) merely "
        "by being resolved. Use a normal absolute path instead.")}


class TestDenyList:
    @pytest.fixture
    def hermes_tree(self, home):
        files = {
            ".hermes/mcp-tokens/github.json": "token secret\n",
            ".hermes/auth.json": '{"token": "secret"}\n',
            ".hermes/notes.md": "token notes\n",
            ".hermes/.env": "TOKEN=secret\n",
        }
        for rel, text in files.items():
            path = home / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        return home / ".hermes"

    def test_search_root_inside_a_denied_directory_is_refused(self, tools, hermes_tree):
        ft = tools()
        target = hermes_tree / "mcp-tokens"
        assert search(ft, pattern="token", path=str(target)) == {"error": (
            f"Access denied: {target} is the Hermes MCP token directory and cannot be read "
            "directly. (Defense-in-depth — not a security boundary; the terminal tool can still "
            "bypass.)")}

    def test_tilde_paths_are_resolved_first(self, tools, hermes_tree):
        ft = tools()
        out = search(ft, pattern="token", path="~/.hermes/auth.json")
        assert out["error"].startswith(f"Access denied: {hermes_tree / 'auth.json'} is a Hermes "
                                       "credential store")

    def test_an_env_file_root_is_refused(self, tools, root):
        ft = tools({".env": "A=1\n"})
        assert search(ft, pattern="A", path=".env")["error"].startswith(
            f"Access denied: {root / '.env'} is a secret-bearing environment file")

    def test_results_under_a_parent_are_filtered_and_counted(self, tools, hermes_tree):
        ft = tools()
        out = search(ft, pattern="token", path=str(hermes_tree))
        assert out == {
            "total_count": 3,  # Hermes: the total is not adjusted for filtered rows
            "matches": [{"path": f"{hermes_tree}/notes.md", "line": 1, "content": "token notes"}],
            "_omitted": "2 result(s) omitted because they target credential, token, cache, or "
                        "secret-bearing environment files.",
        }

    def test_files_and_counts_are_filtered(self, tools, hermes_tree):
        ft = tools()
        files = search(ft, pattern="*", target="files", path=str(hermes_tree))
        # rg: a -g glob that matches a hidden file lists it, so .env is found, then filtered.
        assert files["files"] == [f"{hermes_tree}/notes.md"] and files["total_count"] == 4
        assert files["_omitted"].startswith("3 result(s) omitted")
        counts = search(ft, pattern="token", path=str(hermes_tree), output_mode="count")
        assert counts["counts"] == {f"{hermes_tree}/notes.md": 1}
        assert counts["_omitted"].startswith("2 result(s) omitted")

    def test_hermes_home_is_configurable(self, tools, root):
        ft = tools({"h/vault/key.bin": "token\n", "h/ok.txt": "token\n"}, hermes_home=root / "h")
        out = search(ft, pattern="token", output_mode="files_only")
        assert out["files"] == ["./h/ok.txt"] and out["_omitted"].startswith("1 result(s)")


class TestNegativeCache:
    def test_not_found_is_served_again_within_60_seconds(self, tools, root, clock):
        ft = tools({"src/a.txt": "x\n"})
        first = ft.search_files("x", path="srcc")
        assert json.loads(first) == {"total_count": 0,
                                     "error": "Path not found: srcc. Similar paths: ./src"}
        # A cached answer is returned without looking: a new similar name does not show up,
        # whatever the other arguments (the key is the resolved path).
        (root / "srcx").mkdir()
        clock.advance(59)
        assert ft.search_files("y", path="srcc", limit=7) == first

    def test_expires_after_60_seconds(self, tools, root, clock):
        ft = tools({"src/a.txt": "x\n"})
        first = ft.search_files("x", path="srcc")
        assert "srcx" not in first
        (root / "srcx").mkdir()
        clock.advance(60)
        assert json.loads(ft.search_files("x", path="srcc"))["error"] == (
            "Path not found: srcc. Similar paths: ./src, ./srcx")

    def test_dropped_when_the_path_appears(self, tools, root):
        ft = tools()
        assert "error" in search(ft, pattern="x", path="later")
        (root / "later").mkdir()
        (root / "later" / "f.txt").write_text("x\n")
        assert search(ft, pattern="x", path="later")["total_count"] == 1

    def test_cleared_by_another_tool(self, tools, root):
        ft = tools()
        ft.search_files("x", path="gone")
        assert len(ft.state.not_found) == 1
        ft.call("todo", {})
        assert len(ft.state.not_found) == 0

    def test_cached_text_has_no_stale_loop_warning(self, tools, clock):
        ft = tools()
        for _ in range(3):
            third = search(ft, pattern="x", path="nope")
        assert "_warning" not in third  # calls 2 and 3 were served from the cache
        clock.advance(61)
        ft.notify_other_tool_call()
        assert "_warning" not in search(ft, pattern="x", path="nope")
