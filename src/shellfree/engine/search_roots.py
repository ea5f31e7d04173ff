"""Where a search looks: the task-relative path, multi-root path strings, "Path not found"
suggestions, and the macOS privacy-protected folders a broad search skips (§1.5, §5.3).

Paths reach rg as the agent wrote them (with ``~`` expanded), and rg runs in the task root, so
rg prints them the way the agent typed them; this module only decides which strings to pass.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass

from shellfree.engine import messages
from shellfree.engine.read_recovery import dangling_link, unicode_variant
from shellfree.engine.regular_file import special_kind
from shellfree.engine.results import SearchResult

__all__ = [
    "MACOS_PROTECTED_FOLDERS",
    "Protected",
    "SearchRoots",
    "macos_protected",
    "path_not_found",
    "resolve_task_path",
    "split_multi_path",
    "search_roots",
    "special_root",
]

MACOS_PROTECTED_FOLDERS = ("Desktop", "Documents", "Downloads", "Library", "Movies", "Music",
                           "Pictures")
"""Folders under ``$HOME`` whose listing makes macOS ask the user for permission (TCC)."""

SIMILAR_LISTED = 20
"""Hermes lists the first 20 entries of the parent (``ls -1 | head -20``) for suggestions."""

SIMILAR_SHOWN = 5
"""…and shows at most 5 of those that look similar (§5.3.2)."""

MULTI_PATH_MISSING_SHOWN = 3
"""The multi-root warning names at most 3 missing entries (§5.3.1)."""


def resolve_task_path(root: str, path: str) -> str:
    """The absolute, normalised path of *path* (``~`` expanded, relative to the task *root*)."""
    expanded = os.path.expanduser(path)
    return os.path.normpath(os.path.join(root, expanded))


@dataclass(frozen=True, slots=True)
class SearchRoots:
    """The paths handed to rg, the warning a multi-root path string earns (§5.3.1), and the
    note when a missing path was resolved to its one unicode-equivalent file or directory."""

    paths: tuple[str, ...]
    multi_warning: str | None = None
    variant_note: str | None = None


def split_multi_path(path: str) -> list[str]:
    """Hermes: split on commas (stripping each part, internal spaces kept) when there is one,
    else on whitespace; empty parts are dropped."""
    if "," in path:
        return [part.strip() for part in path.split(",") if part.strip()]
    return path.split()


def search_roots(path: str, root: str) -> SearchRoots | None:
    """The roots to search for the agent's *path*, or None when nothing exists (→ not found).

    An existing path is searched as is. A missing one may be several paths in one string
    (``"src, tests"`` or ``"src tests"``); the parts that exist are searched and the warning
    says how many were skipped.
    """
    expanded = os.path.expanduser(path)
    absolute = resolve_task_path(root, expanded)
    if os.path.exists(absolute):
        return SearchRoots((expanded,))
    # Fixed defect: read_file, write_file and patch find the one entry whose name differs only
    # invisibly (§2.5); Hermes' search answered "Path not found: café. Similar paths: ./café".
    variant = unicode_variant(absolute)
    if variant is not None and os.path.exists(variant):
        # As the agent spelled it (relative stays relative), with the names that exist.
        spelled = (variant if os.path.isabs(expanded)
                   else os.path.relpath(variant, os.path.normpath(root)))
        return SearchRoots((spelled,), variant_note=messages.READ_UNICODE_VARIANT.format(
            path=absolute, variant=variant))
    parts = [os.path.expanduser(p) for p in split_multi_path(expanded)]
    if len(parts) < 2:
        return None
    found = [p for p in parts if os.path.exists(resolve_task_path(root, p))]
    if not found:
        return None
    missing = [p for p in parts if p not in found]
    warning = messages.MULTI_PATH.format(total=len(parts), found=len(found))
    if missing:
        shown = missing[:MULTI_PATH_MISSING_SHOWN]
        warning += messages.MULTI_PATH_SKIPPED.format(names=", ".join(shown))
        if len(missing) > len(shown):
            warning += messages.MULTI_PATH_MORE.format(more=len(missing) - len(shown))
    return SearchRoots(tuple(found), warning)


def special_root(paths: tuple[str, ...], root: str) -> SearchResult | None:
    """The refusal for a content search of a FIFO, socket or device among *paths* (rg would
    read it: a FIFO without a writer never ends), or None. A walk skips such files; only a
    path named this way is read."""
    for path in paths:
        try:
            mode = os.stat(resolve_task_path(root, path)).st_mode  # never waits on a FIFO
        except OSError:
            continue  # rg reports it
        kind = special_kind(mode)
        if kind is not None:
            return SearchResult(total_count=0, error=messages.SEARCH_SPECIAL_FILE.format(
                path=path, kind=messages.SPECIAL_FILE_KINDS[kind]))
    return None


def _listing(directory: str) -> list[str]:
    # `ls -1` in the C locale: no hidden entries, byte order.
    try:
        names = [n for n in os.listdir(directory) if not n.startswith(".")]
    except OSError:
        return []
    return sorted(names, key=os.fsencode)


def path_not_found(path: str, root: str) -> SearchResult:
    """``Path not found: PATH``, plus up to 5 similar names from the parent directory (§5.3.2).

    A name is similar when either name contains the other (ignoring case) or it starts with
    the first three characters of the missing name.
    """
    expanded = os.path.expanduser(path)
    error = messages.PATH_NOT_FOUND.format(path=expanded)
    target = dangling_link(resolve_task_path(root, expanded))
    if target is not None:
        error += messages.PATH_DANGLING_LINK.format(target=target)
    parent, query = os.path.split(expanded)
    shown_parent = parent or "."
    directory = resolve_task_path(root, shown_parent)
    if query and os.path.isdir(directory):
        wanted = query.lower()
        # A link that leads nowhere is listed under the very name asked for: not similar.
        similar = [
            name for name in _listing(directory)[:SIMILAR_LISTED]
            if name != query and (wanted in name.lower() or name.lower() in wanted
                                  or name.lower().startswith(wanted[:3]))
        ]
        if similar:
            paths = ", ".join(_join_shown(shown_parent, n) for n in similar[:SIMILAR_SHOWN])
            error += messages.SIMILAR_PATHS.format(paths=paths)
    return SearchResult(total_count=0, error=error)


def _join_shown(parent: str, name: str) -> str:
    return parent + name if parent.endswith("/") else f"{parent}/{name}"


@dataclass(frozen=True, slots=True)
class Protected:
    """The rg exclusion globs for protected folders below the roots, and their names."""

    globs: tuple[str, ...] = ()
    names: tuple[str, ...] = ()

    @property
    def warning(self) -> str | None:
        if not self.names:
            return None
        return messages.MACOS_PROTECTED_SKIPPED.format(names=", ".join(self.names))


def macos_protected(roots: tuple[str, ...], root: str) -> Protected:
    """Hermes (darwin only): each ``$HOME/<folder>`` strictly below a search root is excluded
    with an rg ``--glob '!…/**'``; a search rooted at or inside one is left alone (§5.3 step 5).

    EDGE CASE: only folders that exist are excluded and named; a missing one cannot prompt.
    """
    if sys.platform != "darwin":
        return Protected()
    home = os.path.realpath(os.path.expanduser("~"))
    globs: list[str] = []
    names: list[str] = []
    for search_root in roots:
        base = os.path.realpath(resolve_task_path(root, search_root))
        if not os.path.isdir(base):
            continue
        for name in MACOS_PROTECTED_FOLDERS:
            folder = os.path.join(home, name)
            if not folder.startswith(base.rstrip(os.sep) + os.sep) or not os.path.isdir(folder):
                continue
            walked = _walked_path(search_root, os.path.relpath(folder, base))
            for glob in _exclusion_globs(walked, os.path.realpath(root)):
                if glob not in globs:
                    globs.append(glob)
            if name not in names:
                names.append(name)
    return Protected(tuple(globs), tuple(names))


def _walked_path(search_root: str, rel: str) -> str:
    """The folder's path as rg walks it: the root as typed, then the relative part."""
    rel = rel.replace(os.sep, "/")
    if search_root in ("", "."):
        return rel
    return search_root.rstrip("/") + "/" + rel if search_root != "/" else "/" + rel


def _exclusion_globs(walked: str, cwd: str) -> list[str]:
    """rg matches ``--glob`` against the walked path after stripping ``./`` and, for an
    absolute path below the working directory, that directory; a relative glob is anchored
    there. An absolute path elsewhere is only reached by a glob starting with ``**``.
    (Checked with rg 15.1: ``!/abs/Desktop/**`` excludes nothing.)"""
    while walked.startswith("./"):
        walked = walked[2:]
    if not os.path.isabs(walked):
        return [f"!{_escape_glob(walked)}/**"]
    globs = []
    if walked.startswith(cwd.rstrip("/") + "/"):
        globs.append(f"!{_escape_glob(os.path.relpath(walked, cwd))}/**")
    globs.append(f"!**{_escape_glob(walked)}/**")
    return globs


def _escape_glob(text: str) -> str:
    return re.sub(r"([*?\[\]{}\\!])", r"\\\1", text)
