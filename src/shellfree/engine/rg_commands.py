"""The rg command lines search_files runs, built as Hermes builds them (§5.4, §5.5, §8.7).

Each function returns an argument list without the program name. Two deliberate changes from
Hermes, both listed in the README: every command sorts by path (``--sort path``), so pages are
stable, and ``--`` separates flags from the pattern and paths, so a pattern or path that starts
with ``-`` is searched instead of being read as a flag.
"""

from __future__ import annotations

import re
from typing import Sequence

__all__ = [
    "MAX_COLUMNS",
    "PATH_LIST_END",
    "SEARCH_PRUNE_DIR_NAMES",
    "content_command",
    "file_glob_for_pattern",
    "files_command",
    "probe_command",
    "wants_newline",
]

MAX_COLUMNS = 2000
"""Hermes passes ``--max-columns 2000 --max-columns-preview`` in content mode (§5.4)."""

SEARCH_PRUNE_DIR_NAMES = tuple(sorted({
    ".git", ".hg", ".svn", "node_modules", "venv", ".venv", "site-packages", "dist-packages",
    "vendor", "third_party", "build", "dist", "target", "out", "coverage", ".next", ".turbo",
    ".parcel-cache", ".nuxt", ".svelte-kit", ".archive", "__pycache__", ".cache", ".Trash",
    ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".npm", ".yarn", ".pnpm-store",
    ".gradle", ".m2", ".nuget", "backups", "backup", ".backups",
}))
"""Directories the hidden/ignored probe never enters (Hermes ``SEARCH_PRUNE_DIR_NAMES``, §8.7),
in sorted order as Hermes emits them."""

PATH_LIST_END = b"\0"
"""What ends each path of a list of paths (``-l``, ``--files``): the commands pass ``--null``,
since a file name may hold a newline."""

# An odd run of backslashes before "n" is the regex escape \n; an even run is a literal
# backslash followed by "n".
_NEWLINE_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\n")


def wants_newline(pattern: str) -> bool:
    """Hermes: the pattern "wants a newline" (a newline character, or the escape ``\\n``), so
    multiline mode is switched on (§5.4)."""
    return "\n" in pattern or _NEWLINE_ESCAPE.search(pattern) is not None


def content_command(
    pattern: str,
    paths: Sequence[str],
    *,
    output_mode: str,
    context: int,
    multiline: bool,
    file_glob: str | None,
    exclude_globs: Sequence[str] = (),
) -> list[str]:
    """``rg --line-number --no-heading --with-filename --null …`` for a content search (§5.4).
    ``--null`` ends each path with a NUL: in content and count modes a path is then not cut at
    the first ``:DIGITS:`` (search_output.py), and in files_only mode a newline in a name does
    not split it (the list's records end with :data:`PATH_LIST_END`)."""
    argv = ["--line-number", "--no-heading", "--with-filename", "--null"]
    if output_mode == "content":
        argv += ["--max-columns", str(MAX_COLUMNS), "--max-columns-preview"]
    if multiline:
        argv.append("--multiline")
    if context > 0:
        # No "--" between groups: Hermes drops those lines, and a file can be named "--\n…".
        argv += ["-C", str(context), "--no-context-separator"]
    for glob in exclude_globs:
        argv += ["--glob", glob]
    if file_glob:
        argv += ["--glob", file_glob]
    if output_mode == "files_only":
        argv.append("-l")
    elif output_mode == "count":
        argv.append("-c")
    return argv + ["--sort", "path", "--", pattern, *paths]


def probe_command(
    flags: Sequence[str], pattern: str, path: str, file_glob: str | None,
    exclude_globs: Sequence[str] = (),
) -> list[str]:
    """``rg FLAGS --count-matches [--glob G] PATTERN PATH`` for a zero-match probe (§5.4).

    EDGE CASE: ``--with-filename`` is added so a probe of a single file still prints
    ``path:count`` (rg omits the name for one file, and Hermes would then report an empty path);
    ``--null`` ends the path with a NUL, so a colon in a file name does not split it.
    The macOS exclusions (*exclude_globs*) apply to probes too: a probe must not trigger the
    privacy prompt the search itself avoided.
    """
    argv = [*flags]
    for glob in exclude_globs:
        argv += ["--glob", glob]
    argv += ["--count-matches", "--with-filename", "--null"]
    if file_glob:
        argv += ["--glob", file_glob]
    return argv + ["--sort", "path", "--", pattern, path]


def prune_globs() -> list[str]:
    """``--glob '!name/**' --glob '!**/name/**'`` for every prune directory (§8.7)."""
    argv: list[str] = []
    for name in SEARCH_PRUNE_DIR_NAMES:
        argv += ["--glob", f"!{name}/**", "--glob", f"!**/{name}/**"]
    return argv


def file_glob_for_pattern(pattern: str) -> str:
    """The ``-g`` glob of a file-name search (§5.5).

    Hermes: a pattern starting with ``**/`` or containing ``/`` keeps only its last component
    (directories in the pattern are ignored), and a pattern not starting with ``*`` gets one
    prepended, so ``foo.py`` finds every name ending in ``foo.py`` and ``config`` is ``*config``.
    """
    if pattern.startswith("**/") or "/" in pattern:
        pattern = pattern.rsplit("/", 1)[-1]
    if "/" not in pattern and not pattern.startswith("*"):
        return "*" + pattern
    return pattern


def files_command(
    glob: str, roots: Sequence[str], *, modified: bool, exclude_globs: Sequence[str] = ()
) -> list[str]:
    """``rg --files --null --sort path|--sortr=modified -g GLOB [excludes] -- ROOTS`` (§5.5);
    Hermes has no ``--null``, which keeps a newline in a name from splitting it in two."""
    argv = ["--files", "--null", "--sortr=modified" if modified else "--sort=path", "-g", glob]
    for exclude in exclude_globs:
        argv += ["--glob", exclude]
    return argv + ["--", *roots]
