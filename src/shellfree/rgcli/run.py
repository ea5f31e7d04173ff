"""Run an ``rg`` command line: turn parsed flags into engine options, run, print, exit status.

This is the glue of ``shellfree rg``; piped output is byte-identical to ``rg --sort path``.
Without ``--sort`` rg's order is nondeterministic; shellfree then prints in path order, which
is one of the orders rg may print.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable

from shellfree import __version__
from shellfree.rgcli.flags import RgArgs, UsageError, parse_args
from shellfree.search.errors import GlobError
from shellfree.search.walk import Haystack, WalkMessage, WalkOptions, Walker

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see shellfree/__init__.py)
if TYPE_CHECKING:
    from typing import BinaryIO
    from shellfree.search.tree_cache import TreeCache

__all__ = ["run"]


class Invocation:
    """One rg run's surroundings: output streams with rg's message rules, the error flag that
    decides exit status 2, and the working directory relative paths are taken from."""

    def __init__(
        self,
        stdout: BinaryIO,
        stderr: BinaryIO,
        quiet_messages: bool,
        cwd: str | None = None,
        quiet_ignore_messages: bool = False,
        may_fork: bool = False,
        cache: "TreeCache | None" = None,
        argv: list[bytes] | None = None,
    ) -> None:
        self.stdout = stdout
        self.stderr = stderr
        # Only the command-line process forks search workers; a library caller's process may
        # have threads, which fork does not copy.
        self.may_fork = may_fork
        # A library caller's warm tree cache (listings, ignore files, contents); None on the
        # command line, where every run starts cold anyway.
        self.cache = cache
        # The command line as given, which a tree cache's pool helpers parse again.
        self.argv = argv
        self.quiet_messages = quiet_messages
        # --no-ignore-messages: the walk's warnings (not errors) are all about ignore files.
        self.quiet_ignore_messages = quiet_ignore_messages
        self.errored = False
        self.cwd = cwd
        self._base = os.fsencode(cwd) if cwd is not None else None
        # On POSIX, join by concatenation: a warm in-process search calls fs() once per file
        # and os.path.join would be a visible share of its time.
        self._posix_prefix = None
        if self._base is not None and os.sep == "/":
            self._posix_prefix = self._base if self._base.endswith(b"/") else self._base + b"/"

    def fs(self, path: bytes) -> bytes:
        """The path to hand to the OS for a path as typed (relative to ``cwd`` if given)."""
        prefix = self._posix_prefix
        if prefix is not None:
            return path if path[:1] == b"/" else prefix + path
        if self._base is None:
            return path
        # Not os.path.isabs first: on Windows before Python 3.13 it is true of a rooted path
        # (\x), which the OS then takes on the process's drive, not the base's as ntpath.join
        # and the engine's confinement do.
        return os.path.join(self._base, path)

    def message(self, text: str, *, error: bool) -> None:
        if error:
            self.errored = True
        elif self.quiet_ignore_messages:
            return
        if not self.quiet_messages:
            self.stderr.write(b"rg: " + message_bytes(text) + b"\n")

    def fatal(self, text: str) -> int:
        """An error that ends the run before any search; --no-messages does not hide it."""
        self.errored = True
        self.stderr.write(b"rg: " + message_bytes(text) + b"\n")
        return 2


def message_bytes(text: str) -> bytes:
    """*text* (a path's bytes kept as surrogate escapes) as rg writes a message: what is not
    UTF-8 in it shown as U+FFFD, as Rust's ``Path::display`` shows it."""
    return os.fsencode(text).decode("utf-8", "replace").encode("utf-8")


def _default_threads() -> int:
    # rg: available_parallelism, capped at 12.
    return max(1, min(os.cpu_count() or 1, 12))


def is_one_file(paths: list[bytes], inv: Invocation) -> bool:
    """rg's "one file": exactly one path, and it is "-" or not a directory."""
    return len(paths) == 1 and (paths[0] == b"-" or not os.path.isdir(inv.fs(paths[0])))


def walk_options(args: RgArgs, paths: list[bytes], inv: Invocation) -> WalkOptions:
    """The walker configuration rg derives from *args* (its ``HiArgs::walk_builder``)."""
    one_file = is_one_file(paths, inv)
    threads = 1 if (args.sort is not None or one_file) else (args.threads or _default_threads())
    return WalkOptions(
        hidden=args.hidden,
        follow_links=args.follow,
        max_depth=args.max_depth,
        ignore_dot=not args.no_ignore_dot,
        ignore_vcs=not args.no_ignore_vcs,
        ignore_exclude=not args.no_ignore_vcs and not args.no_ignore_exclude,
        ignore_global=not args.no_ignore_vcs and not args.no_ignore_global,
        ignore_parent=not args.no_ignore_parent,
        require_git=not args.no_require_git,
        ignore_files=() if args.no_ignore_files else tuple(args.ignore_files),
        ignore_file_case_insensitive=args.ignore_file_case_insensitive,
        # rg adds every -g glob first and every --iglob after them, whatever the order on
        # the command line, and the last matching glob wins.
        globs=tuple((g, args.glob_case_insensitive) for g, ci in args.globs if not ci)
        + tuple((g, True) for g, ci in args.globs if ci),
        # rg visits entries in readdir order unless sorting by path; a timestamp sort is
        # stable, so ties keep that order. Otherwise shellfree always walks in name order.
        sort_names=args.sort in (None, "path"),
        max_filesize=args.max_filesize,
        one_file_system=args.one_file_system,
        single_threaded=threads == 1,
    )


def _timestamp(path: bytes, kind: str) -> float | None:
    """The time --sort *kind* ("modified", "accessed" or "created") orders *path* by, or None
    when it cannot be read."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    if kind == "modified":
        return st.st_mtime_ns
    if kind == "accessed":
        return st.st_atime_ns
    # rg: Metadata::created, the birth time. Python has it as st_birthtime_ns on Windows from
    # 3.12, as st_birthtime (a float) on macOS and the BSDs; on Windows before 3.12 st_ctime_ns
    # is the creation time. On Linux rg reads statx's btime, which os.stat does not give:
    # run() refuses the sort there, as the reference (musl) rg does, so this is not reached.
    # Where there is none at all, a file sorts as one whose time cannot be read.
    birth = getattr(st, "st_birthtime_ns", None)
    if birth is None:
        birth = getattr(st, "st_birthtime", None)
    if birth is None and sys.platform == "win32":
        birth = st.st_ctime_ns
    return birth


def in_sort_order(events: Iterable, args: RgArgs, inv: Invocation) -> Iterable:
    """rg's ``HiArgs::sort`` over the walk's events, for ``--files`` and for a search alike: in
    path order, the walk's, they pass as they come, messages included; the other orders print
    the messages as the walk meets them and collect the haystacks, then sort them."""
    if walk_order_is_sorted(args):
        return events
    items = list(_haystacks(events, inv))
    if args.sort == "path":
        return sorted(items, key=lambda h: _components(_sort_path(h)), reverse=True)
    stamped = [(h, _timestamp(inv.fs(_sort_path(h)), args.sort)) for h in items]
    # Files whose time cannot be read go last (first when reversed), like rg.
    known = [x for x in stamped if x[1] is not None]
    unknown = [x for x in stamped if x[1] is None]
    known.sort(key=lambda x: x[1], reverse=args.sort_reverse)
    ordered = (unknown + known) if args.sort_reverse else (known + unknown)
    return [h for h, _ in ordered]


def _sort_path(haystack: Haystack) -> bytes:
    """The path rg sorts a haystack by: stdin's is the name it prints, ``<stdin>``, which rg
    also asks the file system for a timestamp (a file of that name in the working directory
    gives stdin its time)."""
    return b"<stdin>" if haystack.explicit and haystack.path == b"-" else haystack.path


_ROOT_DIR, _CUR_DIR, _PARENT_DIR, _NORMAL = range(4)


def _components(path: bytes) -> list[tuple[int, bytes]]:
    # Rust's Path ordering compares components; "//" and interior "." vanish from them, and
    # kinds order before names: the root "/" < a leading "." < ".." < any name (so "./a.txt"
    # sorts before "/abs" and "../x" before "-x", unlike their bytes).
    parts = path.split(b"/")
    out = [(_ROOT_DIR, b"")] if path.startswith(b"/") else []
    for i, part in enumerate(parts):
        if not part or (part == b"." and i > 0):
            continue
        kind = _CUR_DIR if part == b"." else _PARENT_DIR if part == b".." else _NORMAL
        out.append((kind, part if kind == _NORMAL else b""))
    return out


def walk_order_is_sorted(args: RgArgs) -> bool:
    """Whether the walk's own order is the one printed (no sort, or ``--sort path``), so that
    files may be searched as they are found, in workers or helper processes."""
    return args.sort is None or (args.sort == "path" and not args.sort_reverse)


def worker_count(args: RgArgs, paths: list[bytes], use_stdin: bool, out: Invocation) -> int:
    """How many forked workers walk and search a tree: :func:`file_split_workers`, unless
    the order is fixed (--sort; the workers' results are still emitted in walk order) or
    there is no tree (one file, stdin)."""
    if args.sort is not None or use_stdin or is_one_file(paths, out):
        return 1
    return file_split_workers(args, out)


def file_split_workers(args: RgArgs, out: Invocation) -> int:
    """How many forked workers may share a search (one large file's ranges, or a tree):
    rg's thread count when this is the command-line process on a POSIX system other than
    macOS and the output needs no run-wide state (--json statistics) or early stop (-q);
    1 (serial) otherwise."""
    if not out.may_fork or not hasattr(os, "fork") or sys.platform in ("darwin", "win32"):
        return 1
    if args.quiet or args.mode == "json":
        return 1
    return args.threads or _default_threads()


def _run_files(args: RgArgs, out: Invocation) -> int:
    paths = list(args.positional)
    try:
        walker = Walker(walk_options(args, paths, out), cwd=out.cwd, cache=out.cache)
    except GlobError as err:
        return out.fatal(str(err))
    terminator = b"\0" if args.null else b"\n"
    separator = args.path_separator
    workers = worker_count(args, paths, False, out)
    if workers > 1 and not args.quiet:
        from shellfree.rgcli.parallel import walk_in_workers

        out.stdout.flush()  # nothing buffered may be duplicated into the workers
        # The workers send back a walked file as its path, a named one as a 1-tuple of it.
        found = walk_in_workers(
            walker, paths or None, workers, lambda h: (h.path,) if h.explicit else h.path
        )
        if found is not None:
            return _print_found(found, terminator, separator, out)
    events = in_sort_order(walker.walk(paths or None), args, out)
    if not args.quiet:
        return _print_found(events, terminator, separator, out)
    matched = any(True for _ in _haystacks(events, out))  # stops at the first file
    if out.errored and not matched:
        return 2
    return 0 if matched else 1


def _print_found(found: Iterable, terminator: bytes, separator: bytes | None,
                 out: Invocation) -> int:
    """``_run_files``' printing of the walk's events in the order given: haystacks and messages,
    or the forked workers' results (a walked file's path, a named one's as a 1-tuple, messages).
    Printed in batches: over the large benchmark tree this loop is the parent's share of every
    one of the 50,000 paths, and in process every write goes through the output cap."""
    matched = False
    batch: list[bytes] = []
    for event in found:
        cls = event.__class__
        if cls is bytes:
            batch.append(event)
        elif cls is WalkMessage:
            _write_paths(batch, terminator, separator, out)  # the order of writes stands
            batch = []
            out.message(event.text, error=event.is_error)
            continue
        else:
            path, named = (event[0], True) if cls is tuple else (event.path, event.explicit)
            # rg names standard input "<stdin>" wherever it prints a path.
            batch.append(b"<stdin>" if named and path == b"-" else path)
        matched = True
        if len(batch) >= 512:
            _write_paths(batch, terminator, separator, out)
            batch = []
    _write_paths(batch, terminator, separator, out)
    if out.errored:
        return 2
    return 0 if matched else 1


def _write_paths(paths: list[bytes], terminator: bytes, separator: bytes | None,
                 out: Invocation) -> None:
    if paths:
        text = terminator.join(paths) + terminator
        out.stdout.write(text if separator is None else text.replace(b"/", separator))


def _haystacks(events: Iterable, out: Invocation) -> Iterable[Haystack]:
    for event in events:
        if isinstance(event, WalkMessage):
            out.message(event.text, error=event.is_error)
        else:
            yield event


def run(
    argv: list[bytes],
    stdout: BinaryIO,
    stderr: BinaryIO,
    stdin: BinaryIO | None = None,
    cwd: str | None = None,
    may_fork: bool = False,
    cache: "TreeCache | None" = None,
) -> int:
    """Run ``rg`` with *argv* (bytes, without the program name); returns the exit status.

    *stdin* is read when rg would search standard input (``-``, or no path and a piped
    stdin); ``None`` means there is none. *cwd* is the directory relative paths start from
    (default: the process's); the process's working directory is never changed. *may_fork*
    lets a search fork worker processes (the CLI sets it; a library caller should not).
    *cache* is a :class:`~shellfree.search.tree_cache.TreeCache` kept across runs by a
    long-lived caller; output is the same with or without it."""
    try:
        args = parse_args(argv)
    except UsageError as err:
        stderr.write(b"rg: " + message_bytes(str(err)) + b"\n")
        return 2
    if args.version:
        stdout.write(f"shellfree rg {__version__} (compatible with ripgrep 15.1.0)\n".encode())
        return 0
    if args.help:
        stdout.write(_help_text().encode())
        return 0
    if args.color in ("always", "ansi"):
        stderr.write(f"rg: --color {args.color}: shellfree prints no colours; use --color never"
                     f" or auto (rg's output into a pipe)\n".encode())
        return 2
    if args.sort == "created" and sys.platform.startswith("linux"):
        # rg: the reference build (static musl) has no creation times.
        stderr.write(
            b"rg: sorting by creation time isn't supported: creation time is not available"
            b" on this platform currently\n"
        )
        return 2
    out = Invocation(stdout, stderr, quiet_messages=args.no_messages, cwd=cwd, may_fork=may_fork,
                     cache=cache, argv=argv, quiet_ignore_messages=args.no_ignore_messages)
    if cache is not None:
        cache.begin_run()
    if args.files:
        return _run_files(args, out)
    from shellfree.rgcli.search import run_search

    return run_search(args, out, stdin)


def _help_text() -> str:
    from shellfree.rgcli.flags import supported_flags

    flags = ", ".join(supported_flags())
    return (
        "usage: shellfree rg [OPTIONS] PATTERN [PATH ...]\n"
        "       shellfree rg [OPTIONS] -e PATTERN ... [PATH ...]\n"
        "       shellfree rg [OPTIONS] --files [PATH ...]\n\n"
        "ripgrep 15.1 in pure Python: for these flags, piped output is byte-identical to\n"
        "`rg --sort path` (rg's own order without --sort is nondeterministic; shellfree prints\n"
        "in path order). Any other flag is refused as rg refuses an unknown one.\n\n"
        f"Supported flags: {flags}\n"
    )
