"""search_files with the warm tree cache never serves a stale answer.

Each scenario warms a FileTools' cache, changes the tree behind its back, and checks that the
next call returns byte for byte what a FileTools without a cache returns, and that the change
did change that answer (so the comparison can fail). Two caches are tried: the default one
(everything here was written within the racy window, so much is re-read anyway) and one whose
clock runs an hour ahead, where every entry counts as settled and only the ``stat`` signatures
decide.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Callable

import pytest

from shellfree import FileTools
from shellfree.search.tree_cache import TreeCache
from tests.engine.conftest import write_tree

TREE = {
    ".git/HEAD": "ref: refs/heads/main\n",
    ".gitignore": "*.log\n",
    "a.txt": "needle alpha\n",
    "b.log": "needle log\n",
    "keep/c.txt": "needle gamma\n",
    "keep/.ignore": "quiet.txt\n",
    "keep/quiet.txt": "needle quiet\n",
    "other/d.txt": "nothing\n",
}

QUERIES = (
    {"pattern": "needle"},
    {"pattern": "needle", "output_mode": "count"},
    {"pattern": "*", "target": "files"},
)


def rewrite_in_place(path: Path, text: str) -> None:
    with open(path, "r+b") as handle:
        handle.write(text.encode())
        handle.truncate()


def same_tick_rewrite(path: Path, text: str) -> None:
    st = os.stat(path)
    rewrite_in_place(path, text)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.stat(path).st_mtime_ns == st.st_mtime_ns and os.stat(path).st_size == st.st_size


def edit_ignore_in_place(path: Path, text: str) -> None:
    parent = os.stat(path.parent).st_mtime_ns
    rewrite_in_place(path, text)
    assert os.stat(path.parent).st_mtime_ns == parent  # the directory does not see the edit


def symlink(target: str, link: Path) -> None:
    try:
        os.symlink(target, link)
    except (OSError, NotImplementedError) as err:  # Windows without the privilege
        pytest.skip(f"cannot create symlinks here: {err}")


def replace_file_by_symlink(root: Path) -> None:
    (root / "a.txt").unlink()
    symlink("other/d.txt", root / "a.txt")


def retarget_symlink(root: Path) -> None:
    new = root / "link.new"
    symlink("other", new)
    os.replace(new, root / "link")


SCENARIOS: dict[str, Callable[[Path], None]] = {
    "add": lambda r: (r / "other" / "new.txt").write_text("needle new\n"),
    "delete": lambda r: (r / "a.txt").unlink(),
    "rename in place": lambda r: os.replace(r / "a.txt", r / "z.txt"),
    "rename across dirs": lambda r: os.replace(r / "a.txt", r / "other" / "a.txt"),
    "modify same size": lambda r: rewrite_in_place(r / "a.txt", "needle ALPHA\n"),
    "modify to no match": lambda r: rewrite_in_place(r / "keep" / "c.txt", "nothing\n"),
    "edit .gitignore in place": lambda r: edit_ignore_in_place(r / ".gitignore", "*.txt\n"),
    "edit .ignore in place": lambda r: edit_ignore_in_place(r / "keep" / ".ignore", "c.txt\n"),
    "delete .gitignore": lambda r: (r / ".gitignore").unlink(),
    "mkdir": lambda r: write_tree(r, {"fresh/dir/e.txt": "needle e\n"}),
    "rmdir": lambda r: shutil.rmtree(r / "keep"),
    "modify twice within one tick": lambda r: same_tick_rewrite(r / "a.txt", "needle ALPHA\n"),
    "file replaced by a symlink": replace_file_by_symlink,
}


def make_cache(kind: str) -> TreeCache:
    if kind == "settled":
        return TreeCache(clock=lambda: time.time_ns() + 3600 * 10**9)
    return TreeCache()


@pytest.fixture(params=["default", "settled"])
def cache_kind(request) -> str:
    return request.param


def answers(ft: FileTools, queries=QUERIES) -> list[str]:
    out = []
    for query in queries:
        out.append(ft.search_files(**query))
        ft.notify_other_tool_call()  # repeated calls are the point here, not the loop guard
    return out


def fresh(root: Path, queries=QUERIES) -> list[str]:
    return answers(FileTools(root, tree_cache=False), queries)


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_change_between_two_calls(root, cache_kind, name):
    write_tree(root, TREE)
    ft = FileTools(root, tree_cache=make_cache(cache_kind))
    before = answers(ft)
    assert answers(ft) == before == fresh(root)  # the warm call of an unchanged tree
    SCENARIOS[name](root)
    after = fresh(root)
    assert after != before, "the scenario must change the answer"
    assert answers(ft) == after


def test_symlinked_search_root_retargeted(root, cache_kind):
    write_tree(root, TREE)
    symlink("keep", root / "link")
    queries = ({"pattern": "needle", "path": "link"}, {"pattern": "*", "target": "files", "path": "link"})
    ft = FileTools(root, tree_cache=make_cache(cache_kind))
    before = answers(ft, queries)
    retarget_symlink(root)
    after = fresh(root, queries)
    assert after != before
    assert answers(ft, queries) == after


def test_writes_through_the_tools_are_seen_and_forgotten(root):
    write_tree(root, TREE)
    cache = make_cache("settled")
    ft = FileTools(root, tree_cache=cache)
    answers(ft)
    cached = cache.content_bytes
    ft.read_file(path="a.txt")  # the write guard wants the current content seen first
    assert '"error"' not in ft.write_file(path="a.txt", content="needle written\n")
    assert cache.content_bytes < cached
    ft.notify_other_tool_call()
    assert answers(ft) == fresh(root)
    assert '"error"' not in ft.patch(path="keep/c.txt", old_string="gamma", new_string="delta")
    ft.notify_other_tool_call()
    assert answers(ft) == fresh(root)


def test_tree_cache_options(root):
    assert FileTools(root).tree_cache is not None
    assert FileTools(root, tree_cache=False).tree_cache is None
    mine = TreeCache(content_budget=0)
    ft = FileTools(root, tree_cache=mine)
    assert ft.tree_cache is mine and ft.backend.tree_cache is mine
    assert FileTools(root, backend="rg", rg_path="rg").tree_cache is None  # nothing to keep warm
    from shellfree.engine.backends import InProcessBackend

    assert FileTools(root, backend=InProcessBackend(mine)).tree_cache is mine
    assert FileTools(root, backend=InProcessBackend()).tree_cache is None
