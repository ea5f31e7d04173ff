"""``FileTools``: one agent task's file tools, with the state they share between calls.

Create one per agent task, call the tools as methods (``ft.search_files(...)``) or by name with
the agent's arguments (``ft.call("search_files", {...})``), and every call returns the JSON text
the agent receives. Per-task state (the loop guard shared by read_file and search_files, the
"not found" cache) lives in the object, so two tasks never share anything.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from shellfree.engine import messages
from shellfree.engine.backends import Backend, make_backend
from shellfree.engine.confinement import Confinement
from shellfree.engine.envelope import ABSENT, MAX_RESULT_CHARS, tool_error
from shellfree.engine.policy import ReadPolicy, default_hermes_home
from shellfree.engine.read_result import ReadLimits
from shellfree.engine.search_files import search_files
from shellfree.engine.search_flow import SearchLimits, SearchRunner
from shellfree.engine.search_request import SearchRequest
from shellfree.engine.state import TaskState

if TYPE_CHECKING:
    from shellfree.search.tree_cache import TreeCache

__all__ = ["FileTools"]

GUARDED_TOOLS = frozenset({"read_file", "search_files"})
"""The tools that share the loop guard; every other tool name resets it (§7)."""

SEARCH_FILES_PARAMETERS = ("pattern", "target", "path", "file_glob", "limit", "offset",
                           "output_mode", "context", "order")
"""The schema's parameter names (§5.1); other keys an agent sends are ignored, as in Hermes."""

READ_FILE_PARAMETERS = ("path", "offset", "limit")
WRITE_FILE_PARAMETERS = ("path", "content")
PATCH_PARAMETERS = ("mode", "path", "old_string", "new_string", "replace_all", "patch")


class FileTools:
    """The file tools of one agent task.

    *root* is the task's working directory: relative paths resolve against it and searches run
    in it. *backend* is ``"inprocess"`` (default: shellfree's own rg, in this process, with a
    helper process past the tree cache's budget or, without a watch, for a tree of many files:
    see *search_processes*), ``"rg"`` (a real rg
    binary at *rg_path* or on ``PATH``, for parity runs) or a backend object.
    *hermes_home* is the Hermes directory (or several: the active profile home and the Hermes
    root) whose credential files are never read or listed; default ``~/.hermes``. *clock* gives
    monotonic seconds to the "not found" cache. *max_result_lines* and *max_result_bytes* cap
    the output a search collects; *max_result_chars* caps the size of a returned JSON text.
    *approval_callback* ``(path, reason) -> bool`` is asked before a protected instruction file
    (AGENTS.md, CLAUDE.md, …) is written. *confine* refuses every path that resolves outside
    *root*, symlinks followed. *read_limits* (a ``ReadLimits``) sets read_file's line cap, line
    clamp and character budget. *tree_cache* keeps the in-process backend's directory
    listings, compiled ignore files, (up to a byte budget) file contents and each file's
    outcome in the last four searches warm between searches, each revalidated by ``stat``
    before use: ``True`` (default) makes a :class:`~shellfree.search.tree_cache.TreeCache`
    with the default 64 MiB content budget, a ``TreeCache`` is used as given (e.g.
    ``TreeCache(content_budget=0, remembered_searches=0)`` for listings and rules only),
    ``False`` searches cold every time. It applies to ``backend="inprocess"``;
    a backend object keeps its own (``InProcessBackend(tree_cache=...)``).
    *search_processes* above 1 (in-process backend with a tree cache) shares each search of a
    tree with that many processes in all: ``search_processes - 1`` helper processes started at
    the first search (fresh interpreters, not forks of the host) and kept, each with its own
    tree cache of the same budgets; :meth:`close` stops them. ``None`` (default) searches in
    this process until a search reads 32 MiB more than the tree cache can keep (a tree past
    its content budget) or, with a cache without a working watch, two searches in a row each
    read or ``stat``-check the contents of 4,000 files or more, and from the next search on
    with one helper (POSIX, two CPUs or more, a content budget; see
    :class:`~shellfree.engine.backends.InProcessBackend`); ``1`` never starts one.
    """

    def __init__(
        self,
        root: str | os.PathLike[str] = ".",
        *,
        backend: str | Backend = "inprocess",
        rg_path: str | None = None,
        hermes_home: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] | None = None,
        clock: Callable[[], float] = time.monotonic,
        max_result_lines: int = 100_000,
        max_result_bytes: int = 32 << 20,
        max_result_chars: int = MAX_RESULT_CHARS,
        timeout: float = 60.0,
        approval_callback: Callable[[str, str], bool] | None = None,
        confine: bool = False,
        read_limits: ReadLimits | None = None,
        tree_cache: "TreeCache | bool" = True,
        search_processes: int | None = None,
    ) -> None:
        self.root = os.path.abspath(os.fspath(root))
        self.tree_cache: TreeCache | None
        if not isinstance(backend, str):
            # A backend object brings its own cache, if any; writes must still forget into it.
            self.tree_cache = getattr(backend, "tree_cache", None)
        elif tree_cache is True:
            from shellfree.search.tree_cache import TreeCache

            self.tree_cache = TreeCache() if backend == "inprocess" else None
        else:
            self.tree_cache = tree_cache or None
        if search_processes is None and self.tree_cache is None:
            search_processes = 1  # no cache to share a search from: no helper can start
        elif search_processes is not None and search_processes > 1 and (
                backend != "inprocess" or self.tree_cache is None):
            raise ValueError("search_processes above 1 need the in-process backend and a tree cache")
        self.backend = make_backend(backend, rg_path, self.tree_cache, search_processes)
        if hermes_home is None:
            homes: list[str | os.PathLike[str]] = [default_hermes_home()]
        elif isinstance(hermes_home, (str, os.PathLike)):
            homes = [hermes_home]
        else:
            homes = list(hermes_home)
        self.policy = ReadPolicy(homes)
        self.state = TaskState(clock)
        self.max_result_chars = max_result_chars
        # Asked (path, reason) before writing a protected instruction file (AGENTS.md, …);
        # without it such writes are refused.
        self.approval_callback = approval_callback
        # With confine=True every path a tool touches must resolve inside root (symlinks
        # followed); see engine/confinement.py.
        self.confinement = Confinement(self.root) if confine else None
        # read_file's max_lines / max_line_length / max_chars (Hermes: 2000 / 2000 / 100,000).
        self.read_limits = read_limits if read_limits is not None else ReadLimits()
        self._search = SearchRunner(
            self.backend, self.root,
            SearchLimits(max_result_lines=max_result_lines, max_result_bytes=max_result_bytes,
                         timeout=timeout),
        )
        self._tools: dict[str, Callable[[Mapping[str, Any]], str]] = {
            "read_file": self._caller(self.read_file, READ_FILE_PARAMETERS),
            "write_file": self._caller(self.write_file, WRITE_FILE_PARAMETERS),
            "patch": self._caller(self.patch, PATCH_PARAMETERS),
            "search_files": self._caller(self.search_files, SEARCH_FILES_PARAMETERS),
        }

    def __repr__(self) -> str:
        return f"FileTools(root={self.root!r}, backend={self.backend!r})"

    def close(self) -> None:
        """Release what the tree cache holds outside this process: its watch and its pool's
        helper processes (a later search works on, and starts the helpers again)."""
        if self.tree_cache is not None:
            self.tree_cache.close()

    def __enter__(self) -> "FileTools":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def tool_names(self) -> tuple[str, ...]:
        """The tools :meth:`call` dispatches to."""
        return tuple(self._tools)

    # -- the tools --------------------------------------------------------------------------

    def search_files(
        self,
        pattern: Any = "",
        target: Any = "content",
        path: Any = ".",
        file_glob: Any = None,
        limit: Any = 50,
        offset: Any = 0,
        output_mode: Any = "content",
        context: Any = 0,
        order: Any = "discovery",
    ) -> str:
        """Search file contents (``target="content"``) or file names (``target="files"``).

        Returns the contract's JSON text (§5): ``total_count`` and ``matches`` (or the
        path-grouped ``matches_text`` from 5 matches on), ``files`` or ``counts``, with
        ``truncated``/``_hint`` when more results exist. Never raises for a bad argument or a
        failed search: the JSON then has an ``error``.
        """
        try:
            request = SearchRequest.from_arguments(pattern, target, path, file_glob, limit,
                                                   offset, output_mode, context, order)
            return search_files(request, runner=self._search, state=self.state,
                                policy=self.policy, max_result_chars=self.max_result_chars,
                                confinement=self.confinement)
        except Exception as error:  # Hermes: any exception in a handler becomes tool_error
            return tool_error(str(error))

    def read_file(self, path: Any = None, offset: Any = 1, limit: Any = 2000) -> str:
        """Read a text file (or an extracted document) page by page as ``LINE_NUM|CONTENT``."""
        def run() -> str:
            from shellfree.engine.read_file import read_file

            return read_file(self, path, offset, limit)

        return _guarded(run)

    def write_file(self, path: Any = None, content: Any = ABSENT) -> str:
        """Write a whole file atomically, keeping its line endings, BOM and encoding."""
        # Hermes' dispatcher calls notify_other_tool_call before every tool but read_file and
        # search_files (§1.6, §7): a read after an edit counts from 1 again.
        self.notify_other_tool_call()

        def run() -> str:
            from shellfree.engine.write_file import write_file

            try:
                return write_file(self, path, content)
            finally:
                self._forget([path])

        return _guarded(run)

    def patch(
        self,
        mode: Any = "replace",
        path: Any = None,
        old_string: Any = None,
        new_string: Any = None,
        replace_all: Any = False,
        patch: Any = None,
    ) -> str:
        """Edit files: a fuzzy find-and-replace, or an all-or-nothing V4A multi-file patch."""
        self.notify_other_tool_call()  # as write_file

        def run() -> str:
            from shellfree.engine.patch import patch as run_patch

            try:
                return run_patch(self, mode, path, old_string, new_string, replace_all, patch)
            finally:
                self._forget([path, *_patched_paths(patch)])

        return _guarded(run)

    def call(self, name: str, args: Mapping[str, Any] | None = None) -> str:
        """Run the tool *name* with the agent's *args* and return its JSON text.

        A name that is not one of these file tools counts as another tool having run: the loop
        guard and "not found" cache are reset (Hermes' dispatcher hook, §7), and the result is
        an error naming the available tools.
        """
        handler = self._tools.get(name)
        if handler is None:
            if name not in GUARDED_TOOLS:
                self.notify_other_tool_call()
            return tool_error(messages.UNKNOWN_TOOL.format(
                name=name, available=", ".join(self._tools)))
        if args is None:
            args = {}
        if not isinstance(args, Mapping):
            return tool_error(messages.BAD_ARGUMENTS.format(name=name, kind=type(args).__name__))
        return handler(args)

    def notify_other_tool_call(self) -> None:
        """Tell the file tools that the agent ran some other tool (Hermes'
        ``notify_other_tool_call``, §1.6): the consecutive-call counters restart and cached
        "not found" answers are dropped. An agent loop that calls tools itself must call this
        for every non-file tool, or the loop guard fires across unrelated turns."""
        self.state.notify_other_tool_call()

    def reset_file_dedup(self) -> None:
        """Tell the file tools that the agent's context was compressed (Hermes'
        ``reset_file_dedup``, §1.6, §6.3): an earlier read's content is no longer in the
        conversation, so the next identical read returns the content again instead of the
        "unchanged" stub. An agent loop that compresses its context must call this."""
        self.state.reset_file_dedup()

    def _forget(self, paths: Iterable[Any]) -> None:
        """Drop the tree cache's entries for files a tool may have written. Validation would
        notice the change; this closes the window of a write within one timestamp tick of the
        cached read without waiting for the racy rule."""
        if self.tree_cache is None:
            return
        for path in paths:
            if isinstance(path, str) and path:
                expanded = os.path.expanduser(path)
                joined = os.path.join(self.root, expanded)
                self.tree_cache.forget(joined)
                self.tree_cache.forget(os.path.realpath(joined))

    @staticmethod
    def _caller(method: Callable[..., str], names: tuple[str, ...]) -> Callable[[Mapping[str, Any]], str]:
        def call(args: Mapping[str, Any]) -> str:
            return method(**{k: args[k] for k in names if k in args})

        return call


def _patched_paths(patch: Any) -> list[str]:
    """The files a V4A *patch* text names (sources and move destinations), or none."""
    if not isinstance(patch, str):
        return []
    from shellfree.engine.v4a_parser import parse_v4a

    try:
        operations = parse_v4a(patch)
    except ValueError:
        return []
    return [p for op in operations for p in (op.path, op.dest) if p]


def _guarded(run: Callable[[], str]) -> str:
    """Hermes: any exception in a handler becomes ``tool_error(str(e))``."""
    try:
        return run()
    except Exception as error:
        return tool_error(str(error))
