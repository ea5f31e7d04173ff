"""In-process adapters of shellfree for the speed harness (registered in ``inprocess.py``).

Each adapter keeps its state in this module, so the harness's warm calls reuse it as a
long-lived agent process would: one :class:`~shellfree.FileTools` or one tree cache per
working directory.
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from typing import Any

_TOOLS: dict[tuple[str, Any], Any] = {}
_CACHES: dict[str, Any] = {}

NO_LIMIT = 10**9
"""search_files' page size and result caps in the benchmark: the whole answer."""


def rgcli(args: Sequence[str], paths: Sequence[str], cwd: str) -> bytes:
    """``shellfree.rgcli.run.run`` in process with one TreeCache (default budget) per *cwd*."""
    from shellfree.rgcli.run import run
    from shellfree.search.tree_cache import TreeCache

    cache = _CACHES.get(cwd)
    if cache is None:
        cache = _CACHES[cwd] = TreeCache()
    out, err = io.BytesIO(), io.BytesIO()
    run([os.fsencode(a) for a in [*args, *paths]], out, err, None, cwd=cwd, cache=cache)
    return out.getvalue()


def rgcli_nocache(args: Sequence[str], paths: Sequence[str], cwd: str) -> bytes:
    """``shellfree.rgcli.run.run`` in process without a tree cache."""
    from shellfree.rgcli.run import run

    out, err = io.BytesIO(), io.BytesIO()
    run([os.fsencode(a) for a in [*args, *paths]], out, err, None, cwd=cwd)
    return out.getvalue()


def search_files(args: Sequence[str], paths: Sequence[str], cwd: str) -> bytes:
    """``FileTools(root=cwd).search_files(...)``'s JSON, one FileTools kept across calls with the
    default tree cache."""
    return _search_files(args, paths, cwd, None)


def search_files_1g(args: Sequence[str], paths: Sequence[str], cwd: str) -> bytes:
    """As :func:`search_files` with a 1 GiB content budget, which holds the whole large tree."""
    return _search_files(args, paths, cwd, 1 << 30)


def search_files_page(args: Sequence[str], paths: Sequence[str], cwd: str) -> bytes:
    """``FileTools(root=cwd).search_files(pattern=..., path=...)`` as an agent calls it: the
    default page (limit 50) and result caps, default tree cache. The total count still covers
    every match."""
    return _search_files_page(args, paths, cwd, "page", {})


def search_files_page_new(args: Sequence[str], paths: Sequence[str], cwd: str) -> bytes:
    """As :func:`search_files_page` with the default cache, whose remembered outcomes are
    dropped after each call: every warm call costs what a new query on an unchanged tree
    costs (listings, ignore rules and contents warm, every file searched and its outcome
    remembered), not a repeated one. Until 7204e37 these rows used
    ``TreeCache(remembered_searches=0)``, which left out the remembering."""
    return _search_files_page(args, paths, cwd, "page-new", {}, new_query=True)


def search_files_page_watch(args: Sequence[str], paths: Sequence[str], cwd: str) -> bytes:
    """As :func:`search_files_page` with ``TreeCache(watch=True)``: inotify reports vouch for
    the cached entries, so a warm call makes no ``stat`` per file (Linux; elsewhere the cache
    falls back to stat checks, and this row measures that)."""
    return _search_files_page(args, paths, cwd, "page-watch", {"watch": True})


def search_files_page_new_watch(args: Sequence[str], paths: Sequence[str], cwd: str) -> bytes:
    """As :func:`search_files_page_new` with ``TreeCache(watch=True)``: a new query on an
    unchanged tree with no ``stat`` per file."""
    return _search_files_page(args, paths, cwd, "page-new-watch", {"watch": True},
                              new_query=True)


def search_files_page_new_pool(args: Sequence[str], paths: Sequence[str], cwd: str) -> bytes:
    """As :func:`search_files_page_new` with ``FileTools(search_processes=2)``: the search
    shared with one helper process, each keeping a default tree cache."""
    return _search_files_page(args, paths, cwd, "page-new-pool", {}, new_query=True,
                              processes=2)


def search_files_page_new_watch_pool(args: Sequence[str], paths: Sequence[str], cwd: str) -> bytes:
    """As :func:`search_files_page_new_watch` with ``FileTools(search_processes=2)``."""
    return _search_files_page(args, paths, cwd, "page-new-watch-pool", {"watch": True},
                              new_query=True, processes=2)


def search_files_page_auto(args: Sequence[str], paths: Sequence[str], cwd: str) -> bytes:
    """As :func:`search_files_page` with FileTools' default ``search_processes=None``: one
    process until a search reads more than the cache can keep (or, without a watch, two in a row
    the contents of 4,000 files or more each), then one helper process."""
    return _search_files_page(args, paths, cwd, "page-auto", {}, processes=None)


def search_files_page_new_auto(args: Sequence[str], paths: Sequence[str], cwd: str) -> bytes:
    """As :func:`search_files_page_new` with FileTools' default ``search_processes=None``."""
    return _search_files_page(args, paths, cwd, "page-new-auto", {}, new_query=True,
                              processes=None)


def search_files_page_new_watch_auto(args: Sequence[str], paths: Sequence[str], cwd: str) -> bytes:
    """As :func:`search_files_page_new_watch` with FileTools' default
    ``search_processes=None``."""
    return _search_files_page(args, paths, cwd, "page-new-watch-auto", {"watch": True},
                              new_query=True, processes=None)


def _search_files_page(args: Sequence[str], paths: Sequence[str], cwd: str, row: str,
                       cache_options: dict[str, Any], new_query: bool = False,
                       processes: int | None = 1) -> bytes:
    """The default search_files call on one FileTools per (*cwd*, *row*) kept across calls,
    with the default tree cache or ``TreeCache(**cache_options)`` and *processes* search
    processes (None: FileTools' default, decided by the tree); *new_query* drops the outcomes
    the cache remembered, so that the next call of the same query is a new one."""
    from shellfree import FileTools
    from shellfree.search.tree_cache import TreeCache

    tools = _TOOLS.get((cwd, row))
    if tools is None:
        tools = _TOOLS[(cwd, row)] = FileTools(
            cwd, tree_cache=TreeCache(**cache_options), search_processes=processes)
    call = query_to_call(args, paths)
    del call["limit"]
    text = tools.search_files(**call)
    tools.notify_other_tool_call()  # the harness repeats the query on purpose; no loop warning
    if new_query:
        # Listings, ignore rules, walks and contents stay warm (in the pool's helpers too).
        tools.tree_cache.forget_searches()  # type: ignore[union-attr]
    return text.encode("utf-8", "surrogateescape")


def search_files_page_reference(args: Sequence[str], paths: Sequence[str], cwd: str) -> bytes:
    """The same default call on ``FileTools(backend="rg")`` with the reference binary."""
    from benchmarks.speed.reference import locate_reference
    from shellfree import FileTools

    tools = FileTools(cwd, backend="rg", rg_path=locate_reference().path, tree_cache=False)
    call = query_to_call(args, paths)
    del call["limit"]
    return tools.search_files(**call).encode("utf-8", "surrogateescape")


def search_files_reference(args: Sequence[str], paths: Sequence[str], cwd: str) -> bytes:
    """The same call on ``FileTools(backend="rg")`` with the reference binary: the JSON the two
    search_files adapters must return byte for byte."""
    from benchmarks.speed.reference import locate_reference
    from shellfree import FileTools

    tools = FileTools(cwd, backend="rg", rg_path=locate_reference().path, tree_cache=False,
                      **UNCAPPED)
    return tools.search_files(**query_to_call(args, paths)).encode("utf-8", "surrogateescape")


UNCAPPED = {"max_result_chars": NO_LIMIT, "max_result_lines": NO_LIMIT, "max_result_bytes": NO_LIMIT}
"""Every match in the answer, as rg prints every match: the work compared is the same."""


def _search_files(args: Sequence[str], paths: Sequence[str], cwd: str, budget: int | None) -> bytes:
    from shellfree import FileTools

    key = (cwd, budget)
    tools = _TOOLS.get(key)
    if tools is None:
        tree_cache: Any = True
        if budget is not None:
            from shellfree.search.tree_cache import TreeCache

            tree_cache = TreeCache(content_budget=budget)
        # One process, as these rows measured before helpers could start by themselves.
        tools = _TOOLS[key] = FileTools(cwd, tree_cache=tree_cache, search_processes=1,
                                        **UNCAPPED)
    text = tools.search_files(**query_to_call(args, paths))
    tools.notify_other_tool_call()  # the harness repeats the query on purpose; no loop warning
    return text.encode("utf-8", "surrogateescape")


def query_to_call(args: Sequence[str], paths: Sequence[str]) -> dict[str, Any]:
    """The search_files arguments for one of the harness's rg queries. ``-n`` is what
    search_files always prints; ``-i`` becomes the inline flag ``(?i)``, rg's own spelling of
    the same search; anything else has no search_files equivalent."""
    from benchmarks.speed.inprocess import Unsupported

    if len(paths) > 1:
        raise Unsupported("search_files takes one path")
    flags = [a for a in args if a.startswith("-")]
    operands = [a for a in args if not a.startswith("-")]
    # --files has none: a file search always passes a -g glob, and a -g match lists hidden
    # and ignored files too, so even pattern "*" is not rg --files.
    unknown = [f for f in flags if f not in ("-n", "-i")]
    if unknown or len(operands) != 1:
        raise Unsupported(f"no search_files equivalent of {' '.join(args)}")
    pattern = ("(?i)" if "-i" in flags else "") + operands[0]
    return {"pattern": pattern, "path": paths[0] if paths else ".", "limit": NO_LIMIT}
