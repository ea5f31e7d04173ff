"""``shellfree mcp``: the four file tools over MCP stdio, driven by the official SDK's own client.

One server process is spawned per connection test (``python -m shellfree mcp --root TMP``); the
client initialises, lists the tools, calls each tool and closes stdin, which must end the server.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from shellfree.schemas import tool_schemas

if not os.environ.get("CI"):
    # The SDK is the optional 'mcp' extra; CI installs 'dev', which has it, so CI never skips.
    pytest.importorskip("mcp", reason="the MCP SDK is the optional 'mcp' extra (also in 'dev')")

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

TIMEOUT_S = 20


def _server(root: Path, home: Path, *options: str) -> StdioServerParameters:
    env = {**os.environ, "HOME": str(home), "PYTHONPATH": os.pathsep.join(sys.path)}
    return StdioServerParameters(command=sys.executable,
                                 args=["-m", "shellfree", "mcp", "--root", str(root), *options],
                                 env=env)


def _dump(model: Any) -> dict[str, Any]:
    # SDK 1.x and 2.x name fields differently in Python (isError / is_error); the wire names
    # (by_alias) are the same in both.
    return model.model_dump(by_alias=True, exclude_none=True)


async def _call(session: ClientSession, name: str, arguments: dict[str, Any]) -> tuple[Any, bool]:
    result = _dump(await session.call_tool(name, arguments))
    assert [c["type"] for c in result["content"]] == ["text"], result
    return json.loads(result["content"][0]["text"]), bool(result.get("isError", False))


@pytest.fixture
def task(tmp_path) -> tuple[Path, Path, Path]:
    root = tmp_path / "task"
    root.mkdir()
    (root / "notes.txt").write_text("alpha\nneedle here\nomega\n", encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    return root, home, tmp_path / "server-stderr.txt"


def test_initialise_list_and_call_every_tool(task):
    root, home, errlog_path = task
    seen: dict[str, Any] = {}

    async def session_run() -> None:
        with open(errlog_path, "w") as errlog, anyio.fail_after(TIMEOUT_S):
            async with stdio_client(_server(root, home), errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    seen["init"] = _dump(await session.initialize())
                    seen["tools"] = [_dump(t) for t in (await session.list_tools()).tools]
                    seen["search"] = await _call(session, "search_files", {"pattern": "needle"})
                    seen["write"] = await _call(session, "write_file",
                                                {"path": "new.txt", "content": "hello\nworld\n"})
                    seen["read"] = await _call(session, "read_file", {"path": "new.txt"})
                    seen["patch"] = await _call(session, "patch", {
                        "mode": "replace", "path": "new.txt", "old_string": "world",
                        "new_string": "there"})
                    seen["v4a"] = await _call(session, "patch", {"mode": "patch", "patch": (
                        "*** Begin Patch\n*** Update File: new.txt\n@@\n hello\n-there\n"
                        "+everyone\n*** End Patch")})
                    seen["unknown"] = await _call(session, "terminal", {"command": "ls"})

    started = time.monotonic()
    anyio.run(session_run)
    assert time.monotonic() - started < TIMEOUT_S
    assert "Traceback" not in errlog_path.read_text(), errlog_path.read_text()

    info = seen["init"]["serverInfo"]
    assert (info["name"], info["version"]) == ("shellfree", "0.1.0")
    assert "tools" in seen["init"]["capabilities"]

    listed = {t["name"]: t for t in seen["tools"]}
    assert list(listed) == ["read_file", "write_file", "patch", "search_files"]
    for expected in tool_schemas("mcp"):
        got = listed[expected["name"]]
        assert got["description"] == expected["description"], expected["name"]
        assert got["inputSchema"] == expected["inputSchema"], expected["name"]
        assert got["annotations"]["readOnlyHint"] == expected["annotations"]["readOnlyHint"]

    assert seen["search"] == ({"total_count": 1, "matches": [
        {"path": "./notes.txt", "line": 2, "content": "needle here"}]}, False)

    written = str(root / "new.txt")
    payload, is_error = seen["write"]
    assert not is_error and payload["verified"] is True, payload
    assert (payload["bytes_written"], payload["resolved_path"]) == (12, written)
    assert seen["read"] == ({"content": "1|hello\n2|world", "total_lines": 2, "file_size": 12,
                             "truncated": False, "is_binary": False, "is_image": False}, False)
    payload, is_error = seen["patch"]
    assert not is_error and payload["success"] is True, payload
    assert payload["diff"].endswith(" hello\n-world\n+there\n"), payload["diff"]
    payload, is_error = seen["v4a"]
    assert not is_error and payload["success"] is True, payload
    assert (root / "new.txt").read_text(encoding="utf-8") == "hello\neveryone\n"

    assert seen["unknown"] == ({"error": "Unknown tool: 'terminal'. Available file tools: "
                                         "read_file, write_file, patch, search_files."}, True)


def test_each_connection_has_its_own_task_state(task):
    """The loop guard warns on the 3rd identical search in one connection, never across two."""
    root, home, errlog_path = task
    warnings: list[list[bool]] = []

    async def one_connection(calls: int) -> None:
        with open(errlog_path, "a") as errlog:
            async with stdio_client(_server(root, home), errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    flags = []
                    for _ in range(calls):
                        payload, _ = await _call(session, "search_files", {"pattern": "needle"})
                        flags.append("_warning" in payload)
                    warnings.append(flags)

    async def both() -> None:
        with anyio.fail_after(TIMEOUT_S):
            await one_connection(3)
            await one_connection(2)

    anyio.run(both)
    assert warnings == [[False, False, True], [False, False]]


def test_a_watching_server_sees_a_change_made_outside_it(task):
    """--watch: a file rewritten in place between two searches (same size, same second) is
    searched again, not served from the cache."""
    root, home, errlog_path = task
    totals: list[list[str]] = []

    async def session_run() -> None:
        with open(errlog_path, "a") as errlog:
            async with stdio_client(_server(root, home, "--watch"), errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    for text in ("needle here", "needle HERE", "needle here"):
                        with open(root / "notes.txt", "r+b") as handle:
                            handle.write(f"alpha\n{text}\nomega\n".encode())
                        payload, _ = await _call(session, "search_files", {"pattern": "needle.*"})
                        totals.append([m["content"] for m in payload["matches"]])

    async def bounded() -> None:
        with anyio.fail_after(TIMEOUT_S):
            await session_run()

    anyio.run(bounded)
    assert totals == [["needle here"], ["needle HERE"], ["needle here"]]


@pytest.mark.skipif(sys.platform == "win32" or sys.platform == "darwin",
                    reason="a file name that is not UTF-8 (Windows and macOS refuse one)")
def test_a_file_name_that_is_not_utf8_comes_back_escaped(task):
    """The name reaches the JSON as lone surrogates: the reply escapes them (\\udcff) instead
    of failing to encode, which ended the connection. The parsed name is the file's own
    (the SDK's client cannot send such a string back; FileTools opens it)."""
    from shellfree import FileTools

    root, home, errlog_path = task
    (root / os.fsdecode(b"bad\xff.txt")).write_bytes(b"inside\n")
    answers: list[Any] = []

    async def session_run() -> None:
        with open(errlog_path, "a") as errlog:
            async with stdio_client(_server(root, home), errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    answers.append(await _call(session, "read_file", {"path": "bad.txt"}))
                    answers.append(await _call(session, "read_file", {"path": "notes.txt"}))

    async def bounded() -> None:
        with anyio.fail_after(TIMEOUT_S):
            await session_run()

    anyio.run(bounded)
    (missing, _), (notes, notes_error) = answers
    [name] = missing["similar_files"]
    assert os.path.basename(name) == "bad\udcff.txt"
    assert not notes_error and notes["content"].startswith("1|alpha")
    assert json.loads(FileTools(root).read_file(name))["content"] == "1|inside"


def test_a_connection_closes_its_tools(tmp_path):
    """The lifespan releases what the connection's FileTools hold (watch, pool helpers)."""
    from shellfree.engine.file_tools import FileTools
    from shellfree.mcp_server import create_server

    closed: list[str] = []

    class Recorded(FileTools):
        def close(self) -> None:
            closed.append(self.root)
            super().close()

    server = create_server(tmp_path, tools_factory=Recorded)

    async def connection() -> None:
        async with server.lifespan(server):
            assert closed == []

    anyio.run(connection)
    assert closed == [str(tmp_path)]


def test_watch_gives_each_connection_a_watching_tree_cache(tmp_path):
    from shellfree.mcp_server import _watched_tools
    from shellfree.search.tree_watch import watch_unavailable

    tools = _watched_tools(str(tmp_path))
    assert tools.tree_cache is not None
    assert tools.tree_cache.watching == (watch_unavailable() is None)


def test_search_processes_gives_each_connection_a_pool(tmp_path):
    from functools import partial

    from shellfree.mcp_server import _configured_tools

    tools = partial(_configured_tools, search_processes=3)(str(tmp_path))
    assert tools.tree_cache.pool is not None and tools.tree_cache.pool.size == 2
    tools.close()


@pytest.mark.parametrize("value", ["0", "-1", "two"])
def test_search_processes_must_be_a_positive_number(value, capsys):
    from shellfree.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["mcp", "--search-processes", value])
    assert exit_.value.code == 2
    assert "expected a whole number of at least 1" in capsys.readouterr().err


def test_closing_stdin_ends_the_server(task):
    """The server answers a raw initialize, then exits 0 when its stdin closes."""
    root, home, _ = task
    env = {**os.environ, "HOME": str(home), "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-m", "shellfree", "mcp", "--root", str(root)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    request = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"}}}
    try:
        out, err = proc.communicate(json.dumps(request).encode() + b"\n", timeout=TIMEOUT_S)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err.decode(errors="replace")
    reply = json.loads(out.decode().splitlines()[0])
    assert reply["id"] == 1 and reply["result"]["serverInfo"]["name"] == "shellfree", reply


def test_a_missing_sdk_names_the_extra(tmp_path):
    code = ("import sys; sys.modules['mcp'] = None; from shellfree.cli import main; "
            f"sys.exit(main(['mcp', '--root', {str(tmp_path)!r}]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False)
    assert out.returncode == 1
    assert out.stderr.startswith("shellfree mcp: shellfree mcp needs the Model Context Protocol "
                                 "SDK, which is not installed. Install it with: pip install "
                                 "'shellfree[mcp]'"), out.stderr


class TestToolSession:
    """The per-connection dispatcher, in-process: a worker thread per call, one call at a time."""

    class SlowTools:
        def __init__(self) -> None:
            self.spans: list[tuple[float, float]] = []

        def call(self, name: str, args: Any) -> str:
            start = time.monotonic()
            time.sleep(0.2)
            self.spans.append((start, time.monotonic()))
            return json.dumps({"name": name, "args": args})

    def test_calls_leave_the_event_loop_free_and_run_one_at_a_time(self):
        from shellfree.mcp_server import ToolSession

        tools = self.SlowTools()
        ticks: list[float] = []
        results: list[tuple[str, bool]] = []

        async def main() -> None:
            session = ToolSession(tools)  # type: ignore[arg-type]

            async def ticker() -> None:
                for _ in range(8):
                    ticks.append(time.monotonic())
                    await anyio.sleep(0.05)

            async def call(n: int) -> None:
                results.append(await session.call("search_files", {"pattern": str(n)}))

            async with anyio.create_task_group() as group:
                group.start_soon(ticker)
                group.start_soon(call, 1)
                group.start_soon(call, 2)

        anyio.run(main)
        first, second = sorted(tools.spans)
        assert first[1] <= second[0], "calls of one connection must not overlap"
        during = [t for t in ticks if first[0] < t < first[1]]
        assert len(during) >= 2, "the event loop was blocked while a tool ran"
        assert sorted(json.loads(text)["args"]["pattern"] for text, _ in results) == ["1", "2"]
        assert all(is_error is False for _, is_error in results)

    def test_none_arguments_become_an_empty_object(self):
        from shellfree.mcp_server import ToolSession

        async def main() -> tuple[str, bool]:
            return await ToolSession(self.SlowTools()).call("read_file", None)  # type: ignore

        text, is_error = anyio.run(main)
        assert json.loads(text) == {"name": "read_file", "args": {}} and not is_error
