"""Describe a file tree as data, write it to disk, render it as a shell script, and generate it at random.

A :class:`Tree` is a tuple of nodes whose paths are relative to a *case directory*. The random
generator (:func:`generate_work_tree`) uses ``random.Random(seed)`` only, so a seed plus the
filesystem capabilities (:class:`FsCapabilities`) always give the same tree; the shell rendering
(:meth:`Tree.to_shell`) is what the parity report prints so that a disagreement can be replayed by hand.

Paths are ``str`` with ``/`` separators; non-UTF-8 bytes are carried as surrogate escapes
(``os.fsdecode``) and turned back into the original bytes when written.
"""

from __future__ import annotations

import os
import posixpath
import random
import re
import shutil
import sys
import tempfile
import unicodedata
from dataclasses import dataclass, field
from typing import Callable, Sequence, Union

from benchmarks.parity import patterns

WORK = "work"
"""The generated top of the searched tree, relative to the case directory."""

HOME = "home"
"""The per-case ``$HOME``, a sibling of :data:`WORK` so the walk never enters it."""

STORE = "store"
"""Where worktree-style ``gitdir:`` targets live, outside the searched tree."""


@dataclass(frozen=True, slots=True)
class CasePath:
    """An absolute path inside the case directory; only known once the case directory exists."""

    rel: str


Part = Union[bytes, CasePath]
"""A piece of file content: literal bytes, or an absolute path written at run time."""


@dataclass(frozen=True, slots=True)
class Dir:
    """A directory (parents are created as needed)."""

    path: str


@dataclass(frozen=True, slots=True)
class File:
    """A regular file whose content is the concatenation of *content*."""

    path: str
    content: tuple[Part, ...] = ()


@dataclass(frozen=True, slots=True)
class Symlink:
    """A symbolic link; *target* is written verbatim (relative) or made absolute (:class:`CasePath`)."""

    path: str
    target: str | CasePath
    target_is_dir: bool = False


@dataclass(frozen=True, slots=True)
class Fifo:
    """A named pipe: walked FIFOs are not listed by ``--files``, explicit ones are."""

    path: str


Node = Union[Dir, File, Symlink, Fifo]


def resolve_part(part: Part, case_dir: str) -> bytes:
    """Returns the bytes of one content piece for a case living in *case_dir*."""
    if isinstance(part, CasePath):
        return os.fsencode(os.path.join(case_dir, *part.rel.split("/")))
    return part


def _native(case_dir: str, rel: str) -> bytes:
    return os.fsencode(os.path.join(case_dir, *rel.split("/")))


@dataclass(frozen=True, slots=True)
class Tree:
    """An ordered set of nodes; writing them in order recreates the tree."""

    nodes: tuple[Node, ...] = ()

    def __add__(self, other: Tree) -> Tree:
        return Tree(self.nodes + other.nodes)

    def write(self, case_dir: str) -> None:
        """Creates every node below *case_dir* (which must exist)."""
        for node in self.nodes:
            path = _native(case_dir, node.path)
            if isinstance(node, Dir):
                os.makedirs(path, exist_ok=True)
                continue
            os.makedirs(os.path.dirname(path), exist_ok=True)
            if isinstance(node, File):
                with open(path, "wb") as handle:
                    handle.write(b"".join(resolve_part(p, case_dir) for p in node.content))
            elif isinstance(node, Symlink):
                target = node.target
                raw = resolve_part(target, case_dir) if isinstance(target, CasePath) else os.fsencode(target)
                os.symlink(raw, path, target_is_directory=node.target_is_dir)
            else:
                os.mkfifo(path)

    def to_shell(self) -> str:
        """Returns bash lines recreating the tree in the current directory (``$case`` in the script)."""
        out: list[str] = []
        made: set[str] = {""}
        for node in self.nodes:
            parent = posixpath.dirname(node.path)
            if parent not in made and not isinstance(node, Dir):
                out.append(f"mkdir -p -- {shell_quote(parent)}")
                made.update(_ancestors(parent))
            if isinstance(node, Dir):
                out.append(f"mkdir -p -- {shell_quote(node.path)}")
                made.update(_ancestors(node.path))
            elif isinstance(node, File):
                out.append(_render_file(node))
            elif isinstance(node, Symlink):
                target = node.target
                rendered = (
                    f'"$case"/{shell_quote(target.rel)}'
                    if isinstance(target, CasePath)
                    else shell_quote(target)
                )
                out.append(f"ln -s -- {rendered} {shell_quote(node.path)}")
            else:
                out.append(f"mkfifo -- {shell_quote(node.path)}")
        return "\n".join(out)


def _ancestors(path: str) -> list[str]:
    parts = path.split("/")
    return ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]


_SAFE_SHELL = re.compile(rb"[A-Za-z0-9_./=,+:@%-]+")
"""Words that need no quoting in bash (no globbing, expansion or word splitting)."""


def shell_quote(text: str) -> str:
    """Returns *text* quoted for bash; non-printable or non-ASCII bytes use ``$'\\xHH'`` quoting."""
    raw = os.fsencode(text) if text else b""
    if raw and _SAFE_SHELL.fullmatch(raw):
        return raw.decode("ascii")
    if raw and all(0x20 <= b < 0x7F and b != 0x27 for b in raw):
        return "'" + raw.decode("ascii") + "'"
    out = []
    for b in raw:
        if 0x20 <= b < 0x7F and b not in (0x27, 0x5C):
            out.append(chr(b))
        else:
            out.append(f"\\x{b:02x}")
    return "$'" + "".join(out) + "'"


def _printf_bytes(data: bytes) -> str:
    """Returns a ``printf`` format string that prints *data* exactly (octal escapes, POSIX printf)."""
    out = []
    for i, b in enumerate(data):
        # `%`, `'` and `\` are special in the format; a leading `-` would read as an option.
        if 0x20 <= b < 0x7F and b not in (0x25, 0x27, 0x5C) and not (i == 0 and b == 0x2D):
            out.append(chr(b))
        else:
            out.append(f"\\{b:03o}")
    return "'" + "".join(out) + "'"


def _render_file(node: File) -> str:
    target = shell_quote(node.path)
    pieces = []
    for part in node.content:
        if isinstance(part, CasePath):
            pieces.append(f"printf '%s' \"$case\"/{shell_quote(part.rel)}")
        elif part:
            pieces.append(f"printf {_printf_bytes(part)}")
    if not pieces:
        return f": > {target}"
    if len(pieces) == 1:
        return f"{pieces[0]} > {target}"
    return "{ " + "; ".join(pieces) + "; } > " + target


@dataclass(frozen=True, slots=True)
class FsCapabilities:
    """What the filesystem under the parity base directory can hold (probed once)."""

    non_utf8_names: bool
    symlinks: bool
    fifos: bool
    posix_names: bool
    """Whether names with ``\\``, ``*``, ``?``, ``"``, a trailing space or a tab are allowed."""


def probe_capabilities(base_dir: str) -> FsCapabilities:
    """Returns what *base_dir*'s filesystem supports, by trying each thing in a scratch directory."""
    scratch = tempfile.mkdtemp(prefix="probe-", dir=base_dir)
    try:
        return FsCapabilities(
            non_utf8_names=_try(lambda: open(os.path.join(os.fsencode(scratch), b"\xff"), "wb").close()),
            symlinks=_try(lambda: os.symlink("x", os.path.join(scratch, "l"))),
            fifos=hasattr(os, "mkfifo") and _try(lambda: os.mkfifo(os.path.join(scratch, "f"))),
            posix_names=sys.platform != "win32"
            and _try(lambda: open(os.path.join(scratch, "a\\b* "), "wb").close()),
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _try(action: Callable[[], object]) -> bool:
    try:
        action()
    except (OSError, ValueError, NotImplementedError):
        return False
    return True


# ---------------------------------------------------------------------------------------------
# Random generation
# ---------------------------------------------------------------------------------------------

PLAIN_DIRS = ("a", "b", "sub", "src", "build", "lib", "vendor", "dir", "target", "docs", "test", "x", "node_modules", "foo")
PLAIN_FILES = ("a.txt", "b.txt", "c.log", "main.rs", "x.py", "README", "README.md", "foo", "bar.txt", "data.json", "A.TXT", "Foo.Txt", "notes", "a", "x")
HIDDEN_NAMES = (".a", ".hid", ".env", ".a.", ".dotdir.", "..foo", "x..", ".foo.txt", ".config", ".b.txt", ".git-keep")
"""Hidden-looking names; ``.a.`` and ``.dotdir.`` start and end with a dot, so rg does not hide them."""
ODD_NAMES = (
    "a b", "sp ace.txt", unicodedata.normalize("NFC", "café"), unicodedata.normalize("NFD", "café"),
    "TopÑapa", "日本.txt", "[x]", "[abc", "a[b]c", "{a,b}", "c,d", "#hash", "!bang", "x-y", "+plus",
    "a=b", "~tilde", "%pct", "'quote", "ab]", "}",
    # Case folding beyond ASCII: rg's --iglob folds ASCII only; Python's re.IGNORECASE would match
    # the Kelvin sign with `k` and `É` with `é`.
    "\u212a.txt", "ÉTÉ", "été.md", "Straße",
)
POSIX_ONLY_NAMES = ("back\\slash", "trail ", "a*b", "q?.txt", '"dq', "tab\t", "x\\", "new\nline")
NON_UTF8_NAMES = (os.fsdecode(b"\xff\xfe.txt"), os.fsdecode(b"caf\xe9"), os.fsdecode(b"bad\x80dir"))


@dataclass(frozen=True)
class GeneratedTree:
    """A random tree plus the facts a case generator needs to pick roots, cwd and flags."""

    tree: Tree
    dirs: tuple[str, ...]
    """Real directories under :data:`WORK` (including it), relative to the case directory."""
    files: tuple[str, ...]
    symlinks: tuple[str, ...]
    ignore_files: tuple[str, ...]
    names: tuple[str, ...]
    """Every base name used in the tree (what rules and globs draw literals from)."""


@dataclass
class _Builder:
    rng: random.Random
    caps: FsCapabilities
    nodes: list[Node] = field(default_factory=list)
    dirs: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    symlinks: list[str] = field(default_factory=list)
    ignore_files: list[str] = field(default_factory=list)
    children: dict[str, set[str]] = field(default_factory=dict)
    """Per directory, the collision keys of the names already in it (see :func:`_collision_key`)."""

    def claim(self, parent: str, name: str) -> str | None:
        """Returns ``parent/name`` if no sibling collides with *name*, else None."""
        key = _collision_key(name)
        taken = self.children.setdefault(parent, set())
        if key in taken or name in (".", ".."):
            return None
        taken.add(key)
        return f"{parent}/{name}"


def _collision_key(name: str) -> str:
    # Case-insensitive or normalising filesystems (macOS, Windows) would merge these siblings;
    # keeping them apart everywhere makes a seed give the same tree on every platform.
    return unicodedata.normalize("NFC", name).casefold()


def _name_pool(caps: FsCapabilities, plain: Sequence[str]) -> list[tuple[Sequence[str], float]]:
    pools: list[tuple[Sequence[str], float]] = [
        (plain, 0.62),
        (HIDDEN_NAMES, 0.17),
        (ODD_NAMES, 0.14),
    ]
    if caps.posix_names:
        pools.append((POSIX_ONLY_NAMES, 0.04))
    if caps.non_utf8_names:
        pools.append((NON_UTF8_NAMES, 0.03))
    return pools


def _draw_name(rng: random.Random, caps: FsCapabilities, plain: Sequence[str]) -> str:
    pools = _name_pool(caps, plain)
    pool = rng.choices([p for p, _ in pools], weights=[w for _, w in pools])[0]
    return rng.choice(list(pool))


def _grow(b: _Builder, path: str, depth: int) -> None:
    """Adds random children (files and sub-directories) below the directory *path*."""
    limits = {0: (4, 8), 1: (1, 5), 2: (0, 4), 3: (0, 3)}
    low, high = limits.get(depth, (0, 2))
    for _ in range(b.rng.randint(low, high)):
        is_dir = depth < 4 and b.rng.random() < (0.4 if depth < 3 else 0.2)
        name = _draw_name(b.rng, b.caps, PLAIN_DIRS if is_dir else PLAIN_FILES)
        child = b.claim(path, name)
        if child is None:
            continue
        if is_dir:
            b.nodes.append(Dir(child))
            b.dirs.append(child)
            _grow(b, child, depth + 1)
        else:
            content = b"" if b.rng.random() < 0.6 else b"x\n"
            b.nodes.append(File(child, (content,) if content else ()))
            b.files.append(child)


def _entries_below(b: _Builder, directory: str) -> tuple[list[str], list[str]]:
    """Returns (base names, relative paths) of the entries below *directory*."""
    prefix = directory + "/"
    rel = [p[len(prefix) :] for p in b.dirs + b.files + b.symlinks if p.startswith(prefix)]
    names = sorted({r.rsplit("/", 1)[-1] for r in rel})
    return names, sorted(rel)


def _rules(b: _Builder, directory: str, all_names: Sequence[str]) -> bytes:
    names, rel = _entries_below(b, directory)
    # Mostly names from below this directory, sometimes from anywhere (rules that match nothing).
    pool = names if names and b.rng.random() < 0.8 else list(all_names)
    return patterns.ignore_file_content(b.rng, pool, rel)


def _add_ignore_files(b: _Builder, all_names: Sequence[str]) -> None:
    for directory in list(b.dirs):
        chance = 0.6 if directory == WORK else 0.22
        if b.rng.random() >= chance:
            continue
        kinds = b.rng.sample([".gitignore", ".gitignore", ".ignore", ".rgignore"], b.rng.randint(1, 2))
        for kind in dict.fromkeys(kinds):
            path = b.claim(directory, kind)
            if path is None:
                continue
            odd = b.rng.random()
            if odd < 0.03 and b.caps.symlinks and b.ignore_files:
                # An ignore file that is a symlink to another one (rg reads through it).
                target = posixpath.relpath(b.rng.choice(b.ignore_files), directory)
                b.nodes.append(Symlink(path, target))
                b.symlinks.append(path)
            elif odd < 0.05:
                b.nodes.append(Dir(path))  # a directory where an ignore file is expected
            else:
                b.nodes.append(File(path, (_rules(b, directory, all_names),)))
                b.ignore_files.append(path)


def _add_repo_markers(b: _Builder, all_names: Sequence[str]) -> None:
    """Turns some directories into fake repos: ``.git`` dir/file (plain or worktree-style) or ``.jj``."""
    worktrees = 0
    for directory in list(b.dirs):
        chance = 0.45 if directory == WORK else 0.12
        if b.rng.random() >= chance:
            continue
        kind = b.rng.choices(
            ["git_dir", "git_dir_exclude", "git_file_empty", "git_file_worktree", "git_file_bogus", "jj", "git_link"],
            weights=[3, 3, 1, 2, 1, 2, 1 if b.caps.symlinks else 0],
        )[0]
        name = ".jj" if kind == "jj" else ".git"
        path = b.claim(directory, name)
        if path is None:
            continue
        if kind == "git_dir":
            b.nodes.append(Dir(path))
            if b.rng.random() < 0.3:
                b.nodes.append(File(path + "/HEAD", (b"ref: refs/heads/main\n",)))
        elif kind == "git_dir_exclude":
            b.nodes.append(File(path + "/info/exclude", (_rules(b, directory, all_names),)))
            b.ignore_files.append(path + "/info/exclude")
        elif kind == "git_file_empty":
            b.nodes.append(File(path))
        elif kind == "git_file_bogus":
            b.nodes.append(File(path, (b"gitdir: nowhere/at/all\n",)))
        elif kind == "git_link":
            # `.git` as a symlink (dangling half the time): presence alone makes a repo (§1.4).
            b.nodes.append(Symlink(path, "elsewhere" if b.rng.random() < 0.5 else ".", True))
        elif kind == "jj":
            b.nodes.append(Dir(path))
            if b.rng.random() < 0.5:
                b.nodes.append(File(path + "/repo", (b"",)))
        else:
            worktrees += 1
            _add_worktree(b, directory, path, worktrees, all_names)


def _add_worktree(b: _Builder, directory: str, dot_git: str, n: int, all_names: Sequence[str]) -> None:
    """Writes a worktree-style ``.git`` file whose ``gitdir`` has a ``commondir`` with ``info/exclude``.

    rg resolves a relative ``gitdir:`` against the process CWD (rg-semantics §1.4), so the relative
    spellings below only work when the case runs from :data:`WORK`; that difference is a case too.
    """
    common = f"{STORE}/repo{n}/.git"
    gitdir = f"{common}/worktrees/wt{n}"
    commondir = b"../.." if b.rng.random() < 0.7 else None
    b.nodes.append(File(f"{gitdir}/commondir", (commondir + b"\n",) if commondir else (CasePath(common), b"\n")))
    b.nodes.append(File(f"{common}/info/exclude", (_rules(b, directory, all_names),)))
    b.ignore_files.append(f"{common}/info/exclude")
    spelling = b.rng.randrange(3)
    if spelling == 0:
        content: tuple[Part, ...] = (b"gitdir: ", CasePath(gitdir), b"\n")
    elif spelling == 1:
        content = (b"gitdir: " + posixpath.relpath(gitdir, WORK).encode() + b"\n",)
    else:
        content = (b"gitdir: " + posixpath.relpath(gitdir, directory).encode(),)
    b.nodes.append(File(dot_git, content))


def _add_symlinks(b: _Builder) -> None:
    if not b.caps.symlinks:
        return
    for _ in range(b.rng.choice([0, 1, 1, 2, 3, 4])):
        directory = b.rng.choice(b.dirs)
        kind = b.rng.choice(["file", "dir", "broken", "loop", "absolute", "rootlink"])
        name = b.rng.choice(["link", "ln-a", ".lnk", "up", "sym", "rootlink", "ln dir"])
        if kind == "rootlink":
            directory = WORK
        path = b.claim(directory, name)
        if path is None:
            continue
        target_is_dir = False
        if kind == "file" and b.files:
            target: str | CasePath = posixpath.relpath(b.rng.choice(b.files), directory)
        elif kind in ("dir", "rootlink") and len(b.dirs) > 1:
            chosen = b.rng.choice([d for d in b.dirs if d != WORK])
            target, target_is_dir = posixpath.relpath(chosen, directory), True
        elif kind == "loop":
            ancestors = _ancestors(directory)
            target = posixpath.relpath(b.rng.choice(ancestors[1:] or [WORK]), directory)
            target_is_dir = True
        elif kind == "absolute":
            target, target_is_dir = CasePath(b.rng.choice(b.dirs)), True
        else:
            target = "missing-target"
        b.nodes.append(Symlink(path, target, target_is_dir))
        b.symlinks.append(path)


def generate_work_tree(rng: random.Random, caps: FsCapabilities) -> GeneratedTree:
    """Returns a random tree below :data:`WORK` (plus :data:`STORE` for worktree repos)."""
    b = _Builder(rng, caps)
    b.nodes.append(Dir(WORK))
    b.dirs.append(WORK)
    _grow(b, WORK, 0)
    all_names = sorted({p.rsplit("/", 1)[-1] for p in b.dirs[1:] + b.files})
    _add_symlinks(b)
    _add_repo_markers(b, all_names)
    _add_ignore_files(b, all_names)
    if caps.fifos and rng.random() < 0.05:
        path = b.claim(rng.choice(b.dirs), "fifo")
        if path is not None:
            b.nodes.append(Fifo(path))
            b.files.append(path)
    names = sorted({p.rsplit("/", 1)[-1] for p in b.dirs[1:] + b.files + b.symlinks + b.ignore_files})
    return GeneratedTree(
        tree=Tree(tuple(b.nodes)),
        dirs=tuple(b.dirs),
        files=tuple(b.files),
        symlinks=tuple(b.symlinks),
        ignore_files=tuple(b.ignore_files),
        names=tuple(names),
    )


def generate_home(rng: random.Random, names: Sequence[str]) -> tuple[Tree, bool]:
    """Returns the per-case ``$HOME`` contents and whether it defines global git excludes.

    Variants: empty; ``~/.config/git/ignore`` (the default location); ``~/.gitconfig`` whose
    ``core.excludesFile`` points at a file via ``~`` or an absolute path; both at once.
    """
    nodes: list[Node] = [Dir(HOME)]
    kind = rng.choices(["empty", "default", "gitconfig", "both"], weights=[5, 2, 2, 1])[0]
    if kind == "empty":
        return Tree(tuple(nodes)), False
    rules = patterns.ignore_file_content(rng, names, [])
    if kind in ("default", "both"):
        nodes.append(File(f"{HOME}/.config/git/ignore", (rules,)))
    if kind in ("gitconfig", "both"):
        other = patterns.ignore_file_content(rng, names, [])
        nodes.append(File(f"{HOME}/global-excludes", (other,)))
        key = rng.choice([b"excludesFile", b"excludesfile", b"EXCLUDESFILE"])
        if rng.random() < 0.6:
            value: tuple[Part, ...] = (b"~/global-excludes",)
        else:
            value = (CasePath(f"{HOME}/global-excludes"),)
        nodes.append(File(f"{HOME}/.gitconfig", (b"[core]\n\t" + key + b" = ", *value, b"\n")))
    return Tree(tuple(nodes)), True
