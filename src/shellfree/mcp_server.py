"""``shellfree mcp``: the four file tools served over the Model Context Protocol on stdio.

Built on the official ``mcp`` Python SDK (the ``shellfree[mcp]`` extra), which is imported here
only, when a server is made. Each connection gets its own :class:`~shellfree.FileTools` (the
task state: loop guards, read tracking, the "not found" cache), created when the connection
starts and dropped when it ends. Tools are listed from ``tool_schemas("mcp")``; a call runs
``FileTools.call(name, arguments)`` in a worker thread, one at a time per connection, and its
JSON text comes back as the result's one text content.

EDGE CASE: an MCP server never sees the client's other tools, so nothing calls
``FileTools.notify_other_tool_call`` between two file calls; only write_file and patch reset
the consecutive-call guard here (read_file and search_files share it, as in Hermes).
"""

from __future__ import annotations

import functools
import inspect
import json
import os
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from shellfree.schemas import TOOL_NAMES, tool_schemas

if TYPE_CHECKING:
    from shellfree.engine.file_tools import FileTools

__all__ = ["MCPUnavailableError", "ToolSession", "create_server", "run_stdio", "serve_stdio"]

SERVER_NAME = "shellfree"

INSTALL_HINT = ("shellfree mcp needs the Model Context Protocol SDK, which is not installed. "
                "Install it with: pip install 'shellfree[mcp]'")


class MCPUnavailableError(ImportError):
    """Raised when a server is asked for but the ``mcp`` SDK cannot be imported."""

    def __init__(self, cause: ImportError) -> None:
        super().__init__(f"{INSTALL_HINT} ({cause})")
        self.cause = cause


def _import_sdk() -> tuple[Any, Any, Any]:
    """``(Server, types, stdio_server)`` from the SDK, or :class:`MCPUnavailableError`."""
    try:
        from mcp import types
        from mcp.server.lowlevel import Server
        from mcp.server.stdio import stdio_server
    except ImportError as error:
        raise MCPUnavailableError(error) from error
    return Server, types, stdio_server


class ToolSession:
    """The file tools of one MCP connection: a :class:`FileTools` and the lock that keeps its
    calls in order.

    The lock matters because a client may send several requests at once, while the task state
    (loop guard, read tracking) assumes one call after another, as an agent loop makes them.
    """

    def __init__(self, tools: FileTools) -> None:
        import anyio

        self.tools = tools
        self._lock = anyio.Lock()

    def __repr__(self) -> str:
        return f"ToolSession({self.tools!r})"

    async def call(self, name: str, arguments: Mapping[str, Any] | None) -> tuple[str, bool]:
        """Run tool *name* and return ``(json_text, is_error)``.

        *is_error* is true when the JSON object has an ``error`` key, so a client can flag a
        failed call; the text is exactly what ``FileTools.call`` returned either way. An unknown
        *name* is refused without touching the task state: no other tool ran.
        """
        if name not in TOOL_NAMES:
            from shellfree.engine import messages
            from shellfree.engine.envelope import tool_error

            return tool_error(messages.UNKNOWN_TOOL.format(
                name=name, available=", ".join(TOOL_NAMES))), True
        import anyio.to_thread

        async with self._lock:
            # The tools block on the file system (and a search may take seconds): a worker
            # thread keeps the event loop free to read, answer pings and cancellations.
            text = await anyio.to_thread.run_sync(self._call, name, arguments or {})
        return text, _is_error(text)

    def _call(self, name: str, arguments: Mapping[str, Any]) -> str:
        try:
            return self.tools.call(name, arguments)
        except Exception as error:
            # Hermes: any exception in a handler becomes tool_error(str(e)); the agent sees
            # the contract's JSON, never a protocol-level failure.
            from shellfree.engine.envelope import tool_error

            return tool_error(str(error))


def _is_error(text: str) -> bool:
    try:
        payload = json.loads(text)
    except ValueError:
        return True
    return isinstance(payload, dict) and "error" in payload


def create_server(
    root: str | os.PathLike[str] = ".",
    *,
    v4a: bool = True,
    tools_factory: Callable[[str], FileTools] | None = None,
) -> Any:
    """The SDK's low-level ``Server`` serving the four file tools for task directory *root*.

    *v4a* picks the patch schema (see :func:`shellfree.tool_schemas`). *tools_factory* makes the
    per-connection ``FileTools`` from the absolute root (default: ``FileTools(root)``), for
    callers that need other options. Works with SDK 1.x (decorator handlers) and 2.x
    (constructor handlers). Raises :class:`MCPUnavailableError` without the SDK.
    """
    Server, types, _ = _import_sdk()
    from shellfree import __version__
    from shellfree.engine.envelope import wire_text

    task_root = os.path.abspath(os.fspath(root))
    make_tools = tools_factory or _default_tools
    tools = [types.Tool(**schema) for schema in tool_schemas("mcp", v4a=v4a)]

    @asynccontextmanager
    async def lifespan(_server: Any) -> AsyncIterator[ToolSession]:
        # Entered once per connection (Server.run), so every connection has its own task state;
        # what its tools hold outside the process (the watch, pool helpers) goes with it.
        file_tools = make_tools(task_root)
        try:
            yield ToolSession(file_tools)
        finally:
            file_tools.close()

    def result(text: str, is_error: bool) -> Any:
        # wire_text: a non-UTF-8 file name would make the SDK fail to encode the reply and end
        # the connection.
        return types.CallToolResult(content=[types.TextContent(type="text", text=wire_text(text))],
                                    isError=is_error)

    common = {
        "version": __version__,
        "instructions": (f"File tools for the directory {task_root}: relative paths resolve "
                         "against it. Every result is JSON text."),
        "lifespan": lifespan,
    }
    if "on_call_tool" in inspect.signature(Server.__init__).parameters:
        # SDK 2.x: handlers are given to the constructor and receive a context object.
        async def list_tools_v2(ctx: Any, params: Any) -> Any:
            return types.ListToolsResult(tools=tools)

        async def call_tool_v2(ctx: Any, params: Any) -> Any:
            session: ToolSession = ctx.lifespan_context
            return result(*await session.call(params.name, params.arguments))

        return Server(SERVER_NAME, on_list_tools=list_tools_v2, on_call_tool=call_tool_v2,
                      **common)

    # SDK 1.x: handlers are registered with decorators; the context is the server's.
    server = Server(SERVER_NAME, **common)

    @server.list_tools()
    async def list_tools_v1() -> list[Any]:
        return tools

    # The SDK's own argument check is off: FileTools reads arguments as Hermes does (a limit
    # sent as "10" still works; a bad one is the contract's error text, not the SDK's).
    @server.call_tool(validate_input=False)
    async def call_tool_v1(name: str, arguments: dict[str, Any] | None) -> Any:
        session: ToolSession = server.request_context.lifespan_context
        return result(*await session.call(name, arguments))

    return server


def _default_tools(root: str) -> FileTools:
    from shellfree.engine.file_tools import FileTools

    return FileTools(root)


def _watched_tools(root: str) -> FileTools:
    return _configured_tools(root, watch=True)


def _configured_tools(root: str, *, watch: bool = False,
                      search_processes: int | None = None) -> FileTools:
    from shellfree.engine.file_tools import FileTools
    from shellfree.search.tree_cache import TreeCache

    return FileTools(root, tree_cache=TreeCache(watch=watch), search_processes=search_processes)


async def run_stdio(root: str | os.PathLike[str] = ".", *, v4a: bool = True, watch: bool = False,
                    search_processes: int | None = None) -> None:
    """Serve one connection on this process's stdin/stdout until the client closes stdin.
    *watch*: the tree cache takes the kernel's change reports instead of a ``stat`` per cached
    file (``TreeCache(watch=True)``); *search_processes* is ``FileTools(search_processes=...)``
    (None: decided by the tree; above 1: helper processes from the first search)."""
    _, _, stdio_server = _import_sdk()
    factory = None
    if watch or search_processes is not None:
        factory = functools.partial(_configured_tools, watch=watch,
                                    search_processes=search_processes)
    server = create_server(root, v4a=v4a, tools_factory=factory)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def serve_stdio(root: str | os.PathLike[str] = ".", *, v4a: bool = True, watch: bool = False,
                search_processes: int | None = None) -> None:
    """Blocking form of :func:`run_stdio` (what ``shellfree mcp`` runs)."""
    _import_sdk()  # fail with the install hint before an event loop exists
    import anyio

    anyio.run(lambda: run_stdio(root, v4a=v4a, watch=watch, search_processes=search_processes))
