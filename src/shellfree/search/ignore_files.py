"""Find and load the ignore files ripgrep consults: per directory, global, and explicit.

Loading is separate from matching (:mod:`shellfree.search.ignore`) and from walking
(:mod:`shellfree.search.walk`): this module knows where rg looks for rules and how it reports
a file it cannot use, nothing about traversal order or precedence.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import sys

from shellfree._record import Record
from shellfree.search.errors import os_error_text
from shellfree.search.ignore import EMPTY, RuleSet, compile_rules, read_rule_lines

__all__ = [
    "LoadedRules",
    "load_rule_file",
    "git_exclude_path",
    "global_excludes_path",
]


class LoadedRules(Record):
    """Rules read from one file, and the warning text rg prints for it (``""`` if none)."""

    rules: RuleSet
    message: str = ""


def _join(directory: bytes, name: bytes) -> bytes:
    # rg joins with Path::join: no separator is added after a trailing "/".
    if not directory or directory.endswith(b"/"):
        return directory + name
    return directory + b"/" + name


def load_rule_file(
    path: bytes,
    *,
    case_insensitive: bool = False,
    report_io_errors: bool = False,
    display: bytes | None = None,
) -> LoadedRules:
    """Read and compile the ignore file at *path*; messages name it as *display* (default:
    *path*), i.e. as rg would print it.

    rg silently skips a discovered ignore file it cannot read (``report_io_errors=False``) but
    reports one named by ``--ignore-file``. A line whose glob fails to parse is dropped with a
    ``PATH: line N: error parsing glob …`` message; several messages are joined by newlines.
    """
    messages: list[str] = []
    shown = os.fsdecode(path if display is None else display)
    try:
        data = _read_rule_file(path, wait=report_io_errors)
    except IsADirectoryError as err:
        # rg: a directory opens fine on Unix and fails on the first read, so the error is
        # tagged with line 1 (regression test r228).
        if report_io_errors:
            messages.append(f"{shown}: line 1: {os_error_text(err)}")
        return LoadedRules(EMPTY, "\n".join(messages))
    except OSError as err:
        if report_io_errors:
            messages.append(f"{shown}: {os_error_text(err)}")
        return LoadedRules(EMPTY, "\n".join(messages))
    lines, bad_line = read_rule_lines(data)
    rules, errors = compile_rules(lines, case_insensitive=case_insensitive)
    for number, err in errors:
        messages.append(f"{shown}: line {number}: {err}")
    if bad_line is not None:
        # rg: the invalid line is an I/O error. For a discovered file rg drops an error list
        # that holds nothing but one I/O error, and reports it alongside glob errors.
        if report_io_errors or messages:
            messages.append(f"{shown}: line {bad_line}: stream did not contain valid UTF-8")
    return LoadedRules(rules, "\n".join(messages))


def git_exclude_path(
    directory: bytes, dot_git_is_file: bool, cwd: bytes | None = None
) -> bytes | None:
    """Where ``info/exclude`` lives for a repository whose root is *directory*.

    For a ``.git`` directory it is ``.git/info/exclude``. For a ``.git`` file (a worktree) rg
    reads ``gitdir: X`` and then ``X/commondir``; a relative ``X`` is taken relative to the
    process's working directory, not the worktree (rg quirk, regression test r1446). Without
    a readable ``commondir`` there is no exclude file at all.
    """
    git = _join(directory, b".git")
    if not dot_git_is_file:
        return _join(git, b"info/exclude")
    first = _first_line(git)
    if first is None or not first.startswith(b"gitdir: "):
        return None
    real_git_dir = first[len(b"gitdir: ") :]
    if cwd is not None and not os.path.isabs(real_git_dir):
        real_git_dir = _join(cwd, real_git_dir)
    commondir = _first_line(_join(real_git_dir, b"commondir"))
    if commondir is None:
        return None
    base = _join(real_git_dir, commondir) if commondir.startswith(b".") else commondir
    return _join(base, b"info/exclude")


_RULE_FILE_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
                    | getattr(os, "O_BINARY", 0))


def _read_rule_file(path: bytes, wait: bool) -> bytes:
    """The bytes of an ignore file.

    One named by ``--ignore-file`` (*wait*: those whose errors are reported) is read as rg
    reads it, waiting on a pipe for its writer: ``--ignore-file <(…)`` is a pipe. One found
    in the tree is read without waiting: a ``.gitignore`` that is a FIFO gives what a writer
    has written so far, or nothing; rg would wait for a writer, forever if none comes, and an
    agent's search with it.
    """
    if wait:
        with open(path, "rb") as handle:
            return handle.read()
    fd = os.open(path, _RULE_FILE_FLAGS)
    try:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        chunks = []
        while True:
            try:
                chunk = os.read(fd, 1 << 16)
            except BlockingIOError:
                break  # a FIFO whose writer has written nothing more yet
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _first_line(path: bytes) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            data = handle.readline()
    except OSError:
        return None
    if not data:
        return None
    if data.endswith(b"\n"):
        data = data[:-1]
        if data.endswith(b"\r"):
            data = data[:-1]
    return data


# rg does not parse git's config as INI: it takes the first line of this shape anywhere.
_EXCLUDES_FILE = re.compile(rb'^\s*excludesfile\s*=\s*"?\s*(\S+?)\s*"?\s*$', re.IGNORECASE | re.MULTILINE)


def _home(environ: "os._Environ[str] | dict[str, str]") -> str | None:
    """The home directory as rg 15.1 finds it (Rust's ``std::env::home_dir``), if set.

    rg: on Windows, ``USERPROFILE``, not ``HOME`` (Rust 1.86 stopped reading HOME there, and
    rg's Windows releases are built with a nightly newer than that); with it unset or empty,
    Rust asks the OS for the profile directory, which Python cannot without ctypes, so there is
    no home. Elsewhere ``HOME``.
    """
    return environ.get("USERPROFILE" if sys.platform == "win32" else "HOME") or None


def global_excludes_path(environ: "os._Environ[str] | dict[str, str]" = os.environ) -> bytes | None:
    """The global gitignore rg 15.1 uses: ``core.excludesFile`` from ``~/.gitconfig``, else
    from ``$XDG_CONFIG_HOME/git/config`` (``~/.config/git/config``), else the default
    ``$XDG_CONFIG_HOME/git/ignore`` (``~/.config/git/ignore``).

    rg 15.1 reads neither ``GIT_CONFIG_GLOBAL`` nor the system config (checked against the
    binary); every ``~`` in the value is replaced by the home directory, which is ``$HOME``
    and on Windows ``%USERPROFILE%`` (see :func:`_home`).
    """
    home = _home(environ)
    xdg = environ.get("XDG_CONFIG_HOME") or None
    config_dir = xdg if xdg else (os.path.join(home, ".config") if home else None)
    candidates = []
    if home:
        candidates.append(os.path.join(home, ".gitconfig"))
    if config_dir:
        candidates.append(os.path.join(config_dir, "git", "config"))
    for candidate in candidates:
        try:
            with open(candidate, "rb") as handle:
                data = handle.read()
        except OSError:
            continue
        found = _EXCLUDES_FILE.search(data)
        if found is None:
            continue
        try:
            value = found.group(1).decode("utf-8")
        except UnicodeDecodeError:
            continue
        if home:
            value = value.replace("~", home)
        return os.fsencode(value)
    if config_dir:
        return os.fsencode(os.path.join(config_dir, "git", "ignore"))
    return None
