"""The walker: which files ripgrep 15.1 would search, in which order, with which messages.

:class:`Walker` is built once from :class:`WalkOptions` and yields, for a list of roots,
:class:`Haystack` entries (files to search) and :class:`WalkMessage` entries (what rg prints on
stderr) in rg's ``--sort path`` order. The rules are rg-semantics §1: roots are never filtered;
below them an entry is skipped by, in order, ``-g`` overrides (final), ignore files by category
(``.rgignore`` > ``.ignore`` > ``.gitignore`` > ``.git/info/exclude`` > global > ``--ignore-file``;
nearest directory first within a category), then hidden-ness unless something whitelisted it.

Speed comes from the layout, not from tricks (perf-study §5): one ``os.scandir`` per directory
and no stat per entry (``DirEntry`` types come from ``readdir``); a directory's ignore files are
found in that same listing; each directory precomputes the ordered list of rule sets that apply
below it, so an entry costs one pass over that short list.
"""

from __future__ import annotations

import operator
import os
import stat
import sys
from collections.abc import Collection, Generator, Iterator, Sequence

from shellfree._record import Record
from shellfree.search.errors import os_error_text
from shellfree.search.ignore import IGNORE, WHITELIST, RuleSet, compile_rules
from shellfree.search.ignore_files import (
    LoadedRules,
    global_excludes_path,
    git_exclude_path,
    load_rule_file,
)

from shellfree.search.listing import DIRECTORY, FILE, OTHER, is_windows_hidden, is_windows_link

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see shellfree/__init__.py)
if TYPE_CHECKING:
    from shellfree.search.listing import Listing
    from shellfree.search.tree_cache import TreeCache

__all__ = [
    "WalkOptions", "Haystack", "WalkMessage", "ReplayedRun", "Subtree", "Walker", "join_path",
]


class WalkOptions(Record):
    """What to walk and which filters apply; one field per rg flag."""

    hidden: bool = False  # --hidden: also walk hidden entries
    follow_links: bool = False  # -L/--follow
    max_depth: int | None = None  # --max-depth
    ignore_dot: bool = True  # .ignore and .rgignore (--no-ignore-dot)
    ignore_vcs: bool = True  # .gitignore, and the gate for exclude/global (--no-ignore-vcs)
    ignore_exclude: bool = True  # .git/info/exclude (--no-ignore-exclude)
    ignore_global: bool = True  # core.excludesFile (--no-ignore-global)
    ignore_parent: bool = True  # ignore files above the root (--no-ignore-parent)
    require_git: bool = True  # git rules only inside a repo (--no-require-git)
    ignore_files: tuple[bytes, ...] = ()  # --ignore-file, in command-line order
    ignore_file_case_insensitive: bool = False  # --ignore-file-case-insensitive
    # -g/--iglob in command-line order: (glob, case_insensitive).
    globs: tuple[tuple[str, bool], ...] = ()
    sort_names: bool = True  # visit each directory's entries in file-name byte order
    max_filesize: int | None = None  # --max-filesize: skip walked files larger than this
    one_file_system: bool = False  # --one-file-system: stay on each root's file system
    # rg's single-threaded walker words some errors differently from the parallel one.
    single_threaded: bool = True


class Haystack:
    """A file to search: its path as rg prints it, and whether it was named explicitly."""

    # Written out rather than a Record: the walk makes one per file.
    __slots__ = ("path", "explicit")

    def __init__(self, path: bytes, explicit: bool) -> None:
        self.path = path
        self.explicit = explicit

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Haystack):
            return NotImplemented
        return self.path == other.path and self.explicit == other.explicit

    def __hash__(self) -> int:
        return hash((self.path, self.explicit))

    def __repr__(self) -> str:
        return f"Haystack(path={self.path!r}, explicit={self.explicit!r})"


class WalkMessage(Record):
    """A line rg prints on stderr (without ``rg: ``); errors make the exit status 2. The
    others are all problems with ignore files (rg's ``ignore_message!``), which
    --no-ignore-messages hides."""

    text: str
    is_error: bool


WalkEvent = Haystack | WalkMessage


class ReplayedRun:
    """What a cached walk of one root yields again (``Walker.walk(..., runs=True)``), in one
    event instead of one per file: *events* holds a walked file as the bytes of its shown path
    (a Haystack that is not explicit) and a message as its WalkMessage, in walk order. Lets a
    consumer deal with tens of thousands of files at once (rgcli/search.py: a new query over a
    watched tree proves most of them empty in a few tests). *derived* is a dict in which a
    consumer may keep what it derives from the events; it lives as long as the cached walk,
    and comes back with the same events."""

    __slots__ = ("events", "derived")

    def __init__(self, events: tuple, derived: dict) -> None:
        self.events = events
        self.derived = derived

    def expanded(self) -> Iterator[WalkEvent]:
        """The events one by one, as the walk yields them without *runs*."""
        return _replayed(self.events)


def _replayed(events: tuple) -> Iterator[WalkEvent]:
    """A recorded walk's *events* as the walk yields them: a file's bytes as its Haystack."""
    for event in events:
        yield Haystack(event, False) if event.__class__ is bytes else event


_CHECK_AHEAD = 64
"""Directories a replay checks (``Walker._replay_checked``) before it yields the events that
depend on them. One at a time, each ``stat`` between two files, made the large benchmark tree's
walk 4-10 ms (10-15 %) slower than checking every directory first; 64 at a time, no slower."""


def _without(events: Iterator[WalkEvent], yielded: tuple) -> Iterator[WalkEvent]:
    """*events* less one of each recorded event in *yielded* (a file as the bytes of its
    path, a message as itself), wherever it comes."""
    left: dict = {}
    for event in yielded:
        left[event] = left.get(event, 0) + 1
    for event in events:
        if left:
            key = event.path if event.__class__ is Haystack else event
            count = left.pop(key, 0)
            if count:
                if count > 1:
                    left[key] = count - 1
                continue
        yield event


class Subtree:
    """A directory whose walk was deferred (``Walker.walk(split_depth=...)``): its entries are
    listed and its ignore state built, and :meth:`Walker.walk_subtree` yields what the walk
    would have yielded in its place. Lets forked search workers walk disjoint parts of a tree
    while the output keeps the serial order. Only valid in the process that made it (it holds
    ``os.DirEntry`` objects).

    An *unlisted* one (``listing`` None, from ``walk_subtree(..., unlisted=True)``) defers the
    listing too: ``node`` is then the ignore state of its parent, and the walk of the subtree
    lists the directory and builds its own state first."""

    __slots__ = ("directory", "listing", "node", "depth", "strip_dot", "ancestors", "device")

    def __init__(
        self,
        directory: bytes,
        listing: list | None,
        node: "_Dir",
        depth: int,
        strip_dot: bool,
        ancestors: list,
        device: int | None = None,
    ) -> None:
        self.directory = directory
        self.listing = listing
        self.node = node
        self.depth = depth
        self.strip_dot = strip_dot
        self.ancestors = ancestors
        self.device = device  # its root's device, under --one-file-system

    def __repr__(self) -> str:
        return f"Subtree({self.directory!r}, depth={self.depth})"


def join_path(directory: bytes, name: bytes) -> bytes:
    """Join as Rust's ``Path::join`` does: no second ``/`` after a trailing one."""
    if directory.endswith(b"/"):
        return directory + name
    return directory + b"/" + name


def _is_hidden(name: bytes) -> bool:
    # rg: the file-name extractor returns nothing for a path ending in ".", so names that start
    # *and* end with a dot (".a.") are not hidden (rg-semantics §1.2).
    return name[:1] == b"." and name[-1:] != b"."


# The entries whose presence changes a directory's ignore state.
_RULE_NAMES = frozenset((b".rgignore", b".ignore", b".gitignore", b".git", b".jj"))

def _parent_prefix(root: bytes, below: bytes) -> bytes:
    """What rules above the root see in front of an entry's path below the root.

    Normally the root's absolute path below the rule file's directory (*below*). rg 15.1 joins
    the absolute path of the root with the entry's walk path after dropping one ``./`` and the
    root as typed (less one ``./``), except for a root that is ``.`` component for component
    (``.``, ``./``, ``./.``, ``.//``, ``././``): there it joins the walk path minus one ``./``
    whole. For ``.`` and ``./`` that is the path below the root; for ``.//`` the rest is
    absolute (the joined path is just ``/…``, so anchored parent rules never match); for
    ``./.`` an extra ``./`` stays in the middle. Unanchored rules still match by name. Checked
    against the binary with anchored rules one and two levels up for roots such as ``.//``,
    ``.///``, ``./.``, ``././``, ``.//x``, ``././x``, ``.//x/``, ``x//`` and ``./x/.``.
    """
    if (root == b"." or root.startswith(b"./")) and set(root.split(b"/")[1:]) <= {b"", b"."}:
        walked = join_path(root, b"")  # what precedes the entry's path in its walk path
        walked = walked[2:] if walked.startswith(b"./") else walked
        return walked if walked.startswith(b"/") else below + b"/" + walked
    return below + b"/"


def _below(path: bytes, ancestor: bytes) -> bytes:
    """The absolute *path* below its ancestor directory *ancestor*, both as
    ``os.path.realpath`` gives them, with ``/`` between components as rules match them.

    On Windows realpath separates with ``\\``, where rg's matcher (globset's ``Candidate``)
    sees ``/``: with ``\\`` left in, no anchored rule of a parent directory could match. The
    drive is part of *ancestor*, so none is left."""
    below = path[len(ancestor) :]
    if os.sep != "/":
        below = below.replace(os.fsencode(os.sep), b"/")
    return below.lstrip(b"/")


def _current_directory() -> bytes:
    """The working directory, which rg's globs and --ignore-file rules are rooted at; when it
    was removed, a path no walk path starts with, so that nothing is stripped from one: rg
    still walks the absolute paths it is given (``rg --files /abs/dir`` from a removed
    directory lists it)."""
    try:
        return os.fsencode(os.getcwd())
    except OSError:
        return b"\0"


def _rg_strip(path: bytes, root: bytes) -> bytes:
    """The path a rule file rooted at *root* sees for the walk path *path*, computed as rg
    does: ``Ignore::matched`` drops a leading ``./``, ``Gitignore::strip`` drops another one,
    then a plain byte prefix *root* (and a ``/`` after it), only for multi-component paths and
    never for the root ``.``. For ordinary roots this is the path relative to the rule file's
    directory; for roots spelled like ``./.`` it is not, and rg's answers follow it."""
    if path.startswith(b"./"):
        path = path[2:]
    if path.startswith(b"./"):
        path = path[2:]
    if root != b"." and b"/" in path and path.startswith(root):
        path = path[len(root) :]
        if path.startswith(b"/"):
            path = path[1:]
    return path


# A check whose candidate comes from _rg_strip with the check's prefix as the root.
_ODD_ROOT = -2

# A check is (rules, offset, prefix): the candidate is prefix + walk_path[offset:]. An offset
# of -1 means "strip the working directory as rg's cwd-rooted matchers do"; _ODD_ROOT means
# "strip the prefix as rg does" (see _rg_strip).
_Check = tuple


class _Dir:
    """Per-directory ignore state: the category chains that apply to entries below it."""

    __slots__ = ("custom", "dot", "git", "exclude", "any_git", "checks")

    def __init__(
        self,
        custom: tuple[_Check, ...],
        dot: tuple[_Check, ...],
        git: tuple[_Check, ...],
        exclude: tuple[_Check, ...],
        any_git: bool,
        checks: tuple[_Check, ...] = (),
    ) -> None:
        self.custom = custom
        self.dot = dot
        self.git = git
        self.exclude = exclude
        self.any_git = any_git
        self.checks = checks


class Walker:
    """Walks roots with ripgrep's filters. Build once; ``walk`` may be called many times.

    Raises :class:`GlobError` at construction for a ``-g`` glob that does not parse.
    """

    def __init__(
        self,
        options: WalkOptions = WalkOptions(),
        *,
        cwd: str | None = None,
        environ: "dict[str, str] | os._Environ[str] | None" = None,
        cache: "TreeCache | None" = None,
    ) -> None:
        self.options = options
        # A long-lived caller's cache of listings and ignore files (tree_cache.py); the
        # command line has none and keeps the plain scandir loop.
        self._cache = cache
        # With *cwd*, relative paths are taken relative to it (an in-process caller must not
        # chdir); printed paths stay as typed.
        self._base = os.fsencode(cwd) if cwd is not None else None
        self._cwd = self._base if self._base is not None else _current_directory()
        # Off POSIX a path is joined to the base as os.path.join does (see _fs); on POSIX by
        # concatenation, the cheapest.
        self._join = None if os.sep == "/" else os.path.join
        if cache is not None:
            self._configuration = _configuration(options, self._cwd)
        environ = os.environ if environ is None else environ
        overrides, errors = compile_rules(
            [g for g, _ in options.globs],
            case_insensitive=False,
            allow_unclosed_class=False,
            per_line_case_insensitive=[ci for _, ci in options.globs],
        )
        if errors:
            raise errors[0][1]
        self._overrides = overrides if overrides.rules else None
        self._override_whitelists = sum(1 for r in overrides.rules if not r.whitelist)
        self._startup_messages: list[WalkMessage] = []
        self._global: RuleSet | None = None
        if options.ignore_vcs and options.ignore_global:
            path = global_excludes_path(environ)
            if path is not None and os.path.isfile(self._fs(path)):
                # rg only logs problems with the global file at debug level.
                self._global = self._load_rules(
                    self._fs(path), case_insensitive=options.ignore_file_case_insensitive
                ).rules or None
        explicit = []
        for path in options.ignore_files:
            # rg: --ignore-file-case-insensitive applies to the discovered ignore files and the
            # global excludes, but not to files named by --ignore-file (regression r1164).
            loaded = self._load_rules(self._fs(path), report_io_errors=True, display=path)
            if loaded.message:
                self._startup_messages.append(WalkMessage(loaded.message, False))
            if loaded.rules:
                explicit.append(loaded.rules)
        # rg: a later --ignore-file beats an earlier one.
        self._explicit = tuple(reversed(explicit))

    # -- public ------------------------------------------------------------------------------
    def walk(
        self, roots: Sequence[bytes] | None = None, split_depth: int | None = None,
        runs: bool = False,
    ) -> Iterator[WalkEvent | Subtree | ReplayedRun]:
        """Yield haystacks and messages for *roots* (bytes, as typed); ``None`` means the
        implicit ``./`` root, whose ``./`` prefix rg strips from printed paths.

        With *split_depth* N, a directory entry found at depth N or deeper (a root's own
        entries are at depth 1) is not descended into but yielded as a :class:`Subtree`.
        With *runs*, a root whose walk the tree cache replays yields one :class:`ReplayedRun`.
        """
        yield from self._startup_messages
        # rg 15.1 caches the ignore state of the directories above a root by path, holding each
        # entry weakly: a later root reuses the entries still alive, which are those of the
        # ancestors of the directory root just before it, together with the absolute path of
        # the root that built them. Parent rules are then matched as if the later root's
        # entries lay below that earlier root. This maps each ancestor directory still alive to
        # that canonical root (fixed in rg 15.2; kept because shellfree reproduces 15.1).
        alive: dict[bytes, bytes] = {}
        if roots is None:
            yield from self._sized(self._walk_root(b"./", True, alive, split_depth, runs))
        else:
            for root in roots:
                yield from self._sized(self._walk_root(root, False, alive, split_depth, runs))

    def walk_subtree(
        self, subtree: Subtree, split_depth: int | None = None, unlisted: bool = False
    ) -> Iterator[WalkEvent | Subtree]:
        """Yield what :meth:`walk` deferred as *subtree*, in the same order; *split_depth*
        defers deeper directories again, *unlisted* without listing them."""
        s = subtree
        listing, node = s.listing, s.node
        if listing is None:
            listing, node, events = self._open_dir(node, s.directory, len(s.directory) + 1)
            yield from events
            if listing is None:
                return
        yield from self._sized(self._walk_dir(
            s.directory, listing, node, s.depth, s.strip_dot, s.ancestors, split_depth, unlisted,
            s.device,
        ))

    def _sized(self, events: Iterator[WalkEvent | Subtree]) -> Iterator[WalkEvent | Subtree]:
        """*events*, without the walked files larger than --max-filesize if it is given."""
        return events if self.options.max_filesize is None else self._within_size(events)

    def _within_size(self, events: Iterator[WalkEvent | Subtree]) -> Iterator[WalkEvent | Subtree]:
        """*events* without the walked files larger than --max-filesize. rg tests the size last,
        after every ignore rule, glob and the hidden test, and never for a path named on the
        command line; a file whose size cannot be read is kept. Tested here, per walk, rather
        than in the listings' cached survivors: a file's size changes without its directory's
        listing changing."""
        limit = self.options.max_filesize
        fs = self._fs
        for event in events:
            if event.__class__ is ReplayedRun:  # each file's size is tested
                yield from self._within_size(event.expanded())  # type: ignore[union-attr]
                continue
            if event.__class__ is Haystack and not event.explicit:  # type: ignore[union-attr]
                try:
                    size = os.stat(fs(event.path)).st_size  # type: ignore[union-attr]
                except OSError:
                    pass
                else:
                    if size > limit:  # type: ignore[operator]
                        continue
            yield event

    def _fs(self, path: bytes) -> bytes:
        """The path to hand to the OS for *path* as typed or printed."""
        if self._base is None:
            return path
        if self._join is not None:
            # Windows: ntpath.join, as the engine's confinement resolved the path, gives a
            # rooted path (\x) the base's drive and keeps one on another drive (D:x) whole;
            # concatenated, C:\base/D:x would name a stream of the file C:\base\D.
            return self._join(self._base, path)
        if os.path.isabs(path):
            return path
        return join_path(self._base, path)

    def _load_rules(self, path: bytes, **how) -> "LoadedRules":
        if self._cache is None:
            return load_rule_file(path, **how)
        return self._cache.rules(path, **how)

    # -- matching ----------------------------------------------------------------------------
    def _cwd_strip(self, path: bytes) -> bytes:
        # The candidate path of matchers rooted at the working directory (-g, global excludes,
        # --ignore-file): see _rg_strip.
        return _rg_strip(path, self._cwd)

    def _skip(
        self, node: _Dir, path: bytes, name: bytes, is_dir: bool, hidden: bool = False
    ) -> bool:
        """rg's ``Ignore::matched`` for one walked entry: True if it must be skipped. *hidden*:
        the entry has Windows' hidden attribute, which hides it as a leading dot does."""
        if self._overrides is not None:
            verdict = self._overrides.matched(self._cwd_strip(path), is_dir)
            if verdict == IGNORE:
                return False  # an ignore rule in override terms is a "-g GLOB": include
            if verdict == WHITELIST:
                return True  # "-g !GLOB": exclude
            if self._override_whitelists and not is_dir:
                return True  # some -g includes exist and this file matches none
        whitelisted = False
        for rules, offset, prefix in node.checks:
            if offset < 0:
                candidate = _rg_strip(path, prefix if offset == _ODD_ROOT else self._cwd)
            elif prefix:
                candidate = prefix + path[offset:]
            else:
                candidate = path[offset:]
            verdict = rules.matched(candidate, is_dir)
            if verdict == IGNORE:
                return True
            if verdict == WHITELIST:
                whitelisted = True
                break
        if not whitelisted and not self.options.hidden and (hidden or _is_hidden(name)):
            return True
        return False

    # -- directory state ---------------------------------------------------------------------
    def _child_node(
        self,
        parent: _Dir | None,
        directory: bytes,
        names: Collection[bytes] | None,
        offset: int,
        prefix: bytes,
    ) -> tuple[_Dir, list[WalkMessage]]:
        """Load *directory*'s own ignore files and chain them onto *parent*'s.

        *names* is the directory listing when known (so no stat is needed to find the files);
        ``None`` means "look on disk". *offset*/*prefix* turn an entry's walk path into the
        path relative to *directory*.
        """
        opts = self.options
        messages: list[WalkMessage] = []
        if parent is not None and names is not None and _RULE_NAMES.isdisjoint(names):
            # Nothing here adds rules or a repository boundary: the chains are the parent's.
            return parent, messages

        def present(name: bytes) -> bool:
            if names is not None:
                return name in names
            return os.path.lexists(self._fs(join_path(directory, name)))

        def load(name: bytes) -> RuleSet | None:
            if not present(name):
                return None
            shown = join_path(directory, name)
            loaded = self._load_rules(
                self._fs(shown),
                case_insensitive=opts.ignore_file_case_insensitive,
                display=shown,
            )
            if loaded.message:
                messages.append(WalkMessage(loaded.message, False))
            return loaded.rules or None

        custom = load(b".rgignore") if opts.ignore_dot else None
        dot = load(b".ignore") if opts.ignore_dot else None
        gitignore = load(b".gitignore") if opts.ignore_vcs else None
        git_type = None
        if opts.require_git and (opts.ignore_vcs or opts.ignore_exclude) and present(b".git"):
            try:
                git_type = os.stat(self._fs(join_path(directory, b".git"))).st_mode
            except OSError:
                git_type = None
        has_git = git_type is not None or (
            present(b".jj") and os.path.exists(self._fs(join_path(directory, b".jj")))
        )
        exclude = None
        if opts.ignore_vcs and opts.ignore_exclude and present(b".git"):
            is_file = git_type is not None and stat.S_ISREG(git_type)
            exclude_path = git_exclude_path(self._fs(directory), is_file, self._base)
            if exclude_path is not None and os.path.isfile(exclude_path):
                loaded = self._load_rules(
                    exclude_path,
                    case_insensitive=opts.ignore_file_case_insensitive,
                    display=git_exclude_path(directory, is_file) if self._base else None,
                )
                if loaded.message:
                    messages.append(WalkMessage(loaded.message, False))
                exclude = loaded.rules or None
        node = self._chain(
            parent, custom, dot, gitignore, exclude, has_git, offset, prefix, directory=directory
        )
        return node, messages

    def _chain(
        self,
        parent: _Dir | None,
        custom: RuleSet | None,
        dot: RuleSet | None,
        gitignore: RuleSet | None,
        exclude: RuleSet | None,
        has_git: bool,
        offset: int,
        prefix: bytes,
        *,
        directory: bytes = b"",
    ) -> _Dir:
        check = (offset, prefix)
        if not prefix and offset >= 0 and self._odd_root(directory):
            check = (_ODD_ROOT, directory[2:])

        def link(own: RuleSet | None, inherited: tuple, stop: bool) -> tuple:
            head = ((own, *check),) if own is not None else ()
            # rg: git rules are not looked up past the nearest repository root.
            return head if stop else head + inherited

        empty: tuple = ()
        node = _Dir(
            custom=link(custom, parent.custom if parent else empty, False),
            dot=link(dot, parent.dot if parent else empty, False),
            git=link(gitignore, parent.git if parent else empty, has_git),
            exclude=link(exclude, parent.exclude if parent else empty, has_git),
            any_git=has_git or (parent.any_git if parent else False),
        )
        any_git = node.any_git or not self.options.require_git
        checks = node.custom + node.dot
        if any_git:
            checks += node.git + node.exclude
            if self._global is not None:
                checks += ((self._global, -1, b""),)
        checks += tuple((rules, -1, b"") for rules in self._explicit)
        node.checks = checks
        return node

    @staticmethod
    def _odd_root(directory: bytes) -> bool:
        """True when rg's string-based path stripping does not give the path relative to
        *directory* (roots spelled like ``./.`` make walk paths start with ``././``)."""
        return directory.startswith(b"./") and directory[2:].startswith(b"./")

    def _parent_nodes(
        self, root: bytes, offset: int, alive: dict[bytes, bytes]
    ) -> tuple[_Dir | None, list[WalkMessage]]:
        """Ignore state from the directories above *root* (rg's ``add_parents``); *alive*
        (see ``walk``) is read, then left holding this root's ancestors."""
        opts = self.options
        if not (opts.ignore_parent or opts.ignore_vcs):
            alive.clear()
            return None, []
        try:
            absolute = os.fsencode(os.path.realpath(self._fs(root), strict=True))
        except (OSError, TypeError):
            try:
                absolute = os.fsencode(os.path.realpath(self._fs(root)))
                if not os.path.exists(absolute):
                    alive.clear()
                    return None, []
            except OSError:
                alive.clear()
                return None, []
        ancestors = []
        path = absolute
        while True:
            parent = os.path.dirname(path)
            if parent == path:
                break
            ancestors.append(parent)
            path = parent
        node: _Dir | None = None
        messages: list[WalkMessage] = []
        # The base the parent rules see: this root, or the earlier root that built this root's
        # parent directory if that entry is still alive (see ``walk``).
        base = alive.get(ancestors[0], absolute) if ancestors else absolute
        already_built = {a for a in ancestors if a in alive}
        mine = {ancestor: alive.get(ancestor, absolute) for ancestor in ancestors}
        alive.clear()
        alive.update(mine)
        for ancestor in reversed(ancestors):
            # The candidate for an ancestor's rules: the base's absolute path below it, then
            # the entry's path below the root.
            below = _below(base, ancestor)
            prefix = _parent_prefix(root, below)
            # rg reads the ancestors' ignore files even under --no-ignore-parent (it walks
            # them to find repositories) and reports their errors as errors; it just does not
            # apply their rules.
            child, child_messages = self._child_node(None, ancestor, None, offset, prefix)
            if ancestor not in already_built:  # rg reports a reused directory's errors once
                messages.extend(WalkMessage(m.text, True) for m in child_messages)
            custom = dot = gitignore = exclude = None
            if opts.ignore_parent:
                custom, dot, gitignore, exclude = (
                    _own(child.custom), _own(child.dot), _own(child.git), _own(child.exclude)
                )
            has_git = opts.require_git and opts.ignore_vcs and (
                os.path.exists(join_path(ancestor, b".git"))
                or os.path.exists(join_path(ancestor, b".jj"))
            )
            node = self._chain(node, custom, dot, gitignore, exclude, has_git, offset, prefix)
        return node, messages

    # -- traversal ---------------------------------------------------------------------------
    def _io_error(self, path: bytes, err: OSError) -> WalkMessage:
        shown = os.fsdecode(path)
        if self.options.single_threaded:
            text = f"{shown}: IO error for operation on {shown}: {os_error_text(err)}"
        else:
            text = f"{shown}: {os_error_text(err)}"
        return WalkMessage(text, True)

    def _walk_root(
        self,
        root: bytes,
        strip_dot: bool,
        alive: dict[bytes, bytes],
        split_depth: int | None,
        runs: bool = False,
    ) -> Iterator[WalkEvent | Subtree | ReplayedRun]:
        opts = self.options
        if root == b"-":
            yield Haystack(root, explicit=True)  # standard input; rg keeps the ignore state
            return
        try:
            st = os.stat(self._fs(root))  # a root is always followed, even a symlink
        except OSError as err:
            alive.clear()  # rg drops the previous root's ignore state for any root not a directory
            yield self._io_error(root, err)
            return
        if not stat.S_ISDIR(st.st_mode):
            alive.clear()
            yield Haystack(root, explicit=True)
            return
        offset = len(join_path(root, b""))
        parent, messages = self._parent_nodes(root, offset, alive)
        yield from messages
        if self._cache is not None and not opts.follow_links and not opts.one_file_system:
            # With --follow every symlink is stat'ed per walk anyway: listings are not cached.
            # Under --one-file-system every directory is (a mount changes no listing).
            yield from self._walk_root_cached(root, offset, parent, strip_dot, runs)
            return
        listing, node, events = self._open_dir(parent, root, offset)
        yield from events
        if listing is None:
            return
        if opts.max_depth is not None and opts.max_depth < 1:
            return
        ancestors = [(st.st_dev, st.st_ino, root)] if opts.follow_links else []
        device = st.st_dev if opts.one_file_system else None
        yield from self._walk_dir(root, listing, node, 1, strip_dot, ancestors, split_depth,
                                  device=device)

    def _open_dir(
        self, parent: _Dir | None, path: bytes, offset: int
    ) -> tuple[list | None, _Dir | None, list[WalkMessage]]:
        """List the directory at walk path *path* and build its ignore state on *parent*'s:
        (listing, state, messages), or (None, None, [the error]) when it cannot be listed."""
        try:
            listing = self._list(self._fs(path))
        except OSError as err:
            return None, None, [self._io_error(path, err)]
        names = {entry.name for entry in listing}
        node, messages = self._child_node(parent, path, names, offset, b"")
        return listing, node, messages

    def _list(self, directory: bytes) -> list[os.DirEntry]:
        with os.scandir(directory) as it:
            listing = list(it)
        if self.options.sort_names:
            listing.sort(key=_entry_name)
        return listing

    def _walk_dir(
        self,
        directory: bytes,
        listing: list,
        node: _Dir,
        depth: int,
        strip_dot: bool,
        ancestors: list,
        split_depth: int | None = None,
        unlisted: bool = False,
        device: int | None = None,
    ) -> Iterator[WalkEvent | Subtree]:
        """Walk below *directory* (listed as *listing*); *device*: its root's, under
        --one-file-system, where a directory on another device is not entered."""
        opts = self.options
        follow = opts.follow_links
        max_depth = opts.max_depth
        windows = sys.platform == "win32"
        # An explicit stack keeps rg's depth-first order without recursion limits.
        stack = [(join_path(directory, b""), iter(listing), node, depth, ancestors)]
        skip = self._skip
        while stack:
            prefix, entries, node, depth, ancestors = stack[-1]
            entry = next(entries, None)
            if entry is None:
                stack.pop()
                continue
            name = entry.name
            path = prefix + name
            target = None
            try:
                link = windows and is_windows_link(entry)  # a junction is a link to rg
                if follow and (link or entry.is_symlink()):
                    target = os.stat(self._fs(path))
                    is_dir = stat.S_ISDIR(target.st_mode)
                    is_file = stat.S_ISREG(target.st_mode)
                elif link:
                    continue  # not followed: neither searched nor entered, as a symlink
                else:
                    is_dir = entry.is_dir(follow_symlinks=False)
                    is_file = not is_dir and entry.is_file(follow_symlinks=False)
            except OSError as err:
                yield self._io_error(path, err)
                continue
            if target is not None and is_dir:
                # rg (walkdir): a followed link to a directory that is one of the current
                # directory's ancestors is a loop. This is checked for links only, and before
                # any filter, so even an ignored link reports it.
                loop = next(
                    (a for a in ancestors if a[0] == target.st_dev and a[1] == target.st_ino),
                    None,
                )
                if loop is not None:
                    yield WalkMessage(
                        f"File system loop found: {os.fsdecode(path)} points to an ancestor "
                        f"{os.fsdecode(loop[2])}",
                        True,
                    )
                    continue
            if skip(node, path, name, is_dir, windows and is_windows_hidden(entry, target)):
                continue
            if not is_dir:
                if is_file:
                    yield Haystack(path[2:] if strip_dot else path, False)
                continue
            child_ancestors = ancestors
            if follow:
                if target is None:
                    try:
                        # On Windows a DirEntry's stat has st_ino and st_dev 0 (the docs of
                        # os.DirEntry.inode): the loop test and --one-file-system need os.stat.
                        target = (os.stat(self._fs(path)) if windows
                                  else entry.stat(follow_symlinks=False))
                    except OSError as err:
                        yield self._io_error(path, err)
                        continue
                child_ancestors = ancestors + [(target.st_dev, target.st_ino, path)]
            offset = len(path) + 1
            if (max_depth is not None and depth >= max_depth) or (
                    device is not None and not self._on_device(path, target, device)):
                # rg still reads the ignore files of a directory it will not descend into
                # (and reports their errors): one too deep, or on another file system.
                _, messages = self._child_node(node, path, None, offset, b"")
                yield from messages
                continue
            if unlisted and split_depth is not None and depth >= split_depth:
                yield Subtree(path, None, node, depth + 1, strip_dot, child_ancestors, device)
                continue
            child_listing, child, events = self._open_dir(node, path, offset)
            yield from events
            if child_listing is None:
                continue
            if split_depth is not None and depth >= split_depth:
                yield Subtree(path, child_listing, child, depth + 1, strip_dot, child_ancestors,
                              device)
                continue
            stack.append((path + b"/", iter(child_listing), child, depth + 1, child_ancestors))

    def _on_device(self, path: bytes, target: os.stat_result | None, device: int) -> bool:
        """Whether the directory at walk path *path* (*target*: its followed link's ``stat``)
        lies on *device* (rg: ignore's same_file_system). One whose ``stat`` fails counts as
        on it: entering it reports the problem."""
        try:
            return (target if target is not None else os.stat(self._fs(path))).st_dev == device
        except OSError:
            return True

    # -- traversal with a tree cache ---------------------------------------------------------
    def _walk_root_cached(
        self, root: bytes, offset: int, parent: _Dir | None, strip_dot: bool, runs: bool = False
    ) -> Iterator[WalkEvent | ReplayedRun]:
        cache = self._cache
        assert cache is not None
        if self.options.max_depth is None:
            # Everything besides the listings and the ignore files below the root that decides
            # what this walk yields (the state from above the root was just rebuilt).
            key = (self._configuration, self._base, root, strip_dot, self._global,
                   self._explicit, _node_state(parent))
            recorded = cache.recorded_walk(key)
            if runs:
                events = self._replayable(recorded)
                if events is not None:
                    yield ReplayedRun(events, recorded.derived)
                    return
            elif recorded is not None:
                emitted = yield from self._replay_checked(recorded)
                if emitted is None:
                    return
                if emitted:
                    # Something changed below the root after part of the replay was yielded:
                    # the walk is made afresh, and what was yielded already is not yielded
                    # again. The fresh walk's first *emitted* events are those, unless a
                    # directory already replayed changed too meanwhile: then a file added
                    # there comes after its place, and still no file comes twice.
                    yield from _without(
                        self._walk_root_fresh(root, offset, parent, strip_dot, key),
                        recorded.events[:emitted],
                    )
                    return
            yield from self._walk_root_fresh(root, offset, parent, strip_dot, key)
            return
        yield from self._walk_root_fresh(root, offset, parent, strip_dot, None)

    def _walk_root_fresh(
        self, root: bytes, offset: int, parent: _Dir | None, strip_dot: bool, key: tuple | None
    ) -> Iterator[WalkEvent]:
        """The walk of *root* over cached listings, recorded for a replay under *key* (None: not
        recorded)."""
        cache = self._cache
        assert cache is not None
        record = None if key is None else _WalkRecord()
        try:
            fs_root = self._fs(root)
            listing = cache.listing(fs_root, self.options.sort_names)
        except OSError as err:
            yield self._io_error(root, err)
            return
        node, messages = self._child_node(parent, root, listing.names, offset, b"")
        if record is not None:
            record.add(fs_root, listing, root, parent, node, offset, messages)
        yield from messages
        if self.options.max_depth is not None and self.options.max_depth < 1:
            return
        yield from self._walk_dir_cached(root, listing, node, strip_dot, record)
        if record is not None and not record.broken:
            cache.record_walk(key, record.frozen())

    def _replayable(self, record: "_WalkRecord | None") -> tuple | None:
        """The events of *record* if a walk now would yield them again, else None.

        A recorded walk is a function of its key and of what it read below the root: each
        directory's listing, and the ignore state built from each directory that holds an
        ignore file, ``.git`` or ``.jj``. The cache hands back the same listing object while
        the directory is unchanged (the watch vouches for it, or its stat is the same), so one
        identity test per directory checks the listings; the few directories that build ignore
        state build it again (the cache hands back the same rule sets for unchanged files, and
        ``.git``, ``.jj`` and ``.git/info/exclude``, which no watch covers, are looked at
        afresh). Equal inputs, equal walk: the files are replayed, not derived again.
        """
        if record is None:
            return None
        listing_of = self._cache.listing  # type: ignore[union-attr]
        sort_names = self.options.sort_names
        try:
            for fs_dir, listing in zip(record.fs_dirs, record.listings):
                if listing_of(fs_dir, sort_names) is not listing:
                    return None
        except OSError:
            return None
        for recorded_node in record.nodes:
            if not self._same_node(recorded_node):
                return None
        return record.events

    def _same_node(self, recorded_node: tuple) -> bool:
        """Whether the ignore state a directory built (an entry of ``_WalkRecord.nodes``) is
        built the same again, with the same messages."""
        directory, names, parent, node, offset, messages = recorded_node
        fresh, fresh_messages = self._child_node(parent, directory, names, offset, b"")
        return _node_state(fresh) == _node_state(node) and tuple(fresh_messages) == messages

    def _replay_checked(self, record: "_WalkRecord") -> Generator[WalkEvent, None, int | None]:
        """:meth:`_replayable` and the replay in one pass: each directory's listing (and the
        ignore state it built) is checked before the first event that depends on it, at most
        _CHECK_AHEAD directories ahead of the events yielded. The events then come from the
        start, not after a ``stat`` of every directory (17,000 of them in the large benchmark
        tree, 78-140 ms): a search shared with helper processes hands them files at once
        instead of idling them meanwhile (README, *A walk is replayed, not derived again*).
        Returns None once every event is yielded, else the number yielded before the first
        directory that changed (the events before its first event depend on none of the
        directories after it)."""
        listing_of = self._cache.listing  # type: ignore[union-attr]
        sort_names = self.options.sort_names
        events, fs_dirs, listings, starts, built = (
            record.events, record.fs_dirs, record.listings, record.starts, record.built)
        nodes = iter(record.nodes)
        directories = len(starts)
        at = 0  # the next directory to check
        i = 0  # the next event
        while at < directories:
            ahead = min(at + _CHECK_AHEAD, directories)
            try:
                for j in range(at, ahead):
                    if listing_of(fs_dirs[j], sort_names) is not listings[j]:
                        return i
                    if built[j] and not self._same_node(next(nodes)):
                        return i
            except OSError:
                return i
            at = ahead
            end = starts[at] if at < directories else len(events)
            for event in events[i:end]:
                yield Haystack(event, False) if event.__class__ is bytes else event
            i = end
        return None

    def _walk_dir_cached(
        self,
        directory: bytes,
        listing: "Listing",
        node: _Dir,
        strip_dot: bool,
        record: "_WalkRecord | None" = None,
    ) -> Iterator[WalkEvent]:
        """``_walk_dir`` without --follow, over cached listings: which entries of a directory
        survive the filters depends only on its listing and its ignore chain, so an unchanged
        directory under unchanged ignore files replays its survivors without a filter test.
        *record* notes what the walk read and yielded (see :meth:`_replayable` and
        :meth:`_replay_checked`)."""
        cache = self._cache
        assert cache is not None
        sort_names = self.options.sort_names
        max_depth = self.options.max_depth
        survivors = self._survivors
        prefix = join_path(directory, b"")
        stack = [(prefix, iter(survivors(listing, prefix, node, strip_dot)), node, 1)]
        while stack:
            prefix, entries, node, depth = stack[-1]
            item = next(entries, None)
            if item is None:
                stack.pop()
                continue
            name, kind, shown = item
            if shown is not None:
                if record is not None:
                    record.events.append(shown)
                yield Haystack(shown, False)
                continue
            path = prefix + name
            if kind is not DIRECTORY:
                if record is not None:
                    record.broken = True  # an error: the next walk looks again
                yield self._io_error(path, kind)
                continue
            offset = len(path) + 1
            if max_depth is not None and depth >= max_depth:
                _, messages = self._child_node(node, path, None, offset, b"")
                yield from messages
                continue
            try:
                fs_path = self._fs(path)
                child_listing = cache.listing(fs_path, sort_names)
            except OSError as err:
                if record is not None:
                    record.broken = True
                yield self._io_error(path, err)
                continue
            child, messages = self._child_node(node, path, child_listing.names, offset, b"")
            if record is not None:
                record.add(fs_path, child_listing, path, node, child, offset, messages)
            yield from messages
            child_prefix = path + b"/"
            kept = survivors(child_listing, child_prefix, child, strip_dot)
            stack.append((child_prefix, iter(kept), child, depth + 1))

    def _survivors(self, listing: "Listing", prefix: bytes, node: _Dir, strip_dot: bool) -> tuple:
        """(name, kind, shown) of the entries of *listing* the filters keep, in walk order:
        kind is FILE (with the path its Haystack shows), DIRECTORY or the OSError reading the
        entry's type raised (both with None). Derived once per listing, walk path, ignore
        chain and walker configuration.

        A tuple of tuples of bytes and strings, which the cyclic garbage collector stops
        tracking after its first look; a Haystack per file would keep 50,000 objects of a
        large tree tracked, and making one per walked file costs 0.1 µs."""
        # Everything _skip reads: the options (globs, hidden) and the working directory the
        # cwd-rooted matchers strip, the walk path and the rule chain; and whether printed
        # paths drop "./". Rule sets and the configuration come back as the same objects while
        # nothing changed, so the comparison mostly compares identities.
        # The configuration is compared by identity first: it is shared per distinct value,
        # and the derived pairs of another configuration (a search_files call runs several)
        # would otherwise cost a field-by-field WalkOptions comparison per directory.
        configuration = self._configuration
        key = (configuration, prefix, node.checks, strip_dot)
        for known, kept in listing.derived:
            if known[0] is configuration and known == key:
                return kept
        skip = self._skip
        hidden = listing.hidden
        kept = []
        for name, kind in listing.entries:
            if kind is OTHER:
                continue  # a symlink or special file: neither searched nor descended into
            if kind is not FILE and kind is not DIRECTORY:
                kept.append((name, kind, None))  # the error, reported where the plain walk does
                continue
            path = prefix + name
            if skip(node, path, name, kind is DIRECTORY, name in hidden):
                continue
            kept.append((name, kind, (path[2:] if strip_dot else path) if kind is FILE else None))
        # A few configurations per directory (the tools' searches differ in -g globs); the
        # tuple is replaced whole, so a concurrent walker sees the old or the new one.
        survivors = tuple(kept)
        listing.derived = ((key, survivors),) + listing.derived[:3]
        return survivors


_entry_name = operator.attrgetter("name")


def _node_state(node: _Dir | None) -> tuple | None:
    """Everything of *node* that the walk below it depends on, comparable: rule sets compare
    by identity, and the cache hands back the same one while its file is unchanged."""
    if node is None:
        return None
    return (node.custom, node.dot, node.git, node.exclude, node.any_git, node.checks)


class _WalkRecord:
    """What one cached walk of a root read and yielded, kept by the tree cache for the next
    walk with the same key (see ``Walker._replayable`` and ``Walker._replay_checked``): the
    listings in walk order with the paths they were asked for and the number of events before
    each, the directories whose ignore state was built (with what it was built from and what it
    came to), and the events, a file as the bytes of its shown path.

    Frozen into a few tuples, an array and a bytes object: the cyclic garbage collector then
    sees a handful of containers per record, not one object per directory or file."""

    __slots__ = ("fs_dirs", "listings", "starts", "built", "nodes", "events", "broken",
                 "derived")

    def __init__(self) -> None:
        self.fs_dirs: list | tuple = []
        self.listings: list | tuple = []
        self.starts: list | Sequence[int] = []  # per listing, the events yielded before it
        self.built: bytearray | bytes = bytearray()  # per listing, 1 if it built an entry of nodes
        self.nodes: list | tuple = []
        self.events: list | tuple = []
        self.broken = False
        self.derived: dict = {}  # ReplayedRun.derived

    def add(self, fs_dir: bytes, listing: "Listing", directory: bytes, parent: _Dir | None,
            node: _Dir, offset: int, messages: list) -> None:
        """Note that the walk listed *directory* (at *fs_dir*) and derived *node* and
        *messages* from *parent* and the listing; the messages are events too."""
        built = node is not parent  # from this directory's own ignore files or .git
        if built:
            self.nodes.append((directory, listing.names, parent, node, offset, tuple(messages)))
        self.built.append(built)
        self.fs_dirs.append(fs_dir)
        self.listings.append(listing)
        self.starts.append(len(self.events))
        self.events.extend(messages)

    def frozen(self) -> "_WalkRecord":
        self.fs_dirs = tuple(self.fs_dirs)
        self.listings = tuple(self.listings)
        from array import array  # only a cached walk records

        # Machine integers: a tuple of them would hold an int object per directory (17,000
        # of the large benchmark tree, 0.6 MB).
        self.starts = array("Q", self.starts)
        self.built = bytes(self.built)
        self.nodes = tuple(self.nodes)
        self.events = tuple(self.events)
        return self

_CONFIGURATIONS: dict[tuple, tuple] = {}


def _configuration(options: WalkOptions, cwd: bytes) -> tuple:
    """One shared object per distinct (options, cwd), so that equal configurations of two
    walkers compare by identity in the cached walk's keys."""
    key = (options, cwd)
    known = _CONFIGURATIONS.get(key)
    if known is None:
        if len(_CONFIGURATIONS) > 256:
            _CONFIGURATIONS.clear()
        known = _CONFIGURATIONS.setdefault(key, key)
    return known


def _own(chain: tuple) -> RuleSet | None:
    """The rule set a freshly built node contributed itself (the head of a one-node chain)."""
    return chain[0][0] if chain else None
