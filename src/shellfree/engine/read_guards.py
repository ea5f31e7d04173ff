"""read_file's refusals that need no read: NT namespace, device paths, special files, the deny
list and binary extensions (§2.2 steps 2–8, §8.3–§8.5).

Each guard is a small callable taking the call's :class:`ReadCall` and returning the JSON text
that ends the call, or None to let it go on; :mod:`shellfree.engine.read_file` runs them in
the contract's order. Nothing here opens a file: device paths are matched as strings (and
through their symlinks with ``readlink``), special files are found with ``stat``, so a FIFO,
``/dev/zero`` or ``/dev/stdin`` is refused at once.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Callable

from shellfree.engine import messages
from shellfree.engine.envelope import dumps, tool_error
from shellfree.engine.policy import nt_namespace_error
from shellfree.engine.read_result import ReadLimits
from shellfree.engine.regular_file import special_kind

if TYPE_CHECKING:
    from shellfree.engine.file_tools import FileTools

__all__ = [
    "BINARY_EXTENSIONS",
    "IMAGE_EXTENSIONS",
    "ReadCall",
    "ReadGuard",
    "binary_extension_guard",
    "confinement_guard",
    "deny_list_guard",
    "device_path_guard",
    "has_binary_extension",
    "is_blocked_device",
    "nt_namespace_guard",
    "special_file_guard",
    "suffix",
]

IMAGE_EXTENSIONS = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".ico"})
"""Hermes' file-ops image redirect list (§8.5)."""

BINARY_EXTENSIONS = frozenset(
    # images, video, audio
    ".png .jpg .jpeg .gif .bmp .ico .webp .tiff .tif "
    ".mp4 .mov .avi .mkv .webm .wmv .flv .m4v .mpeg .mpg "
    ".mp3 .wav .ogg .flac .aac .m4a .wma .aiff .opus "
    # archives, binaries, Office documents (not .pdf), fonts, bytecode
    ".zip .tar .gz .bz2 .7z .rar .xz .z .tgz .iso "
    ".exe .dll .so .dylib .bin .o .a .obj .lib .app .msi .deb .rpm "
    ".doc .docx .xls .xlsx .ppt .pptx .odt .ods .odp "
    ".ttf .otf .woff .woff2 .eot "
    ".pyc .pyo .class .jar .war .ear .node .wasm .rlib "
    # databases, design files, flash, data
    ".sqlite .sqlite3 .db .mdb .idx "
    ".psd .ai .eps .sketch .fig .xd .blend .3ds .max "
    ".swf .fla .lockb .dat .data".split()
)
"""Hermes ``BINARY_EXTENSIONS`` (§8.5), matched on the last suffix, case-insensitively."""

DEVICE_PATHS = frozenset({
    "/dev/zero", "/dev/random", "/dev/urandom", "/dev/full", "/dev/stdin", "/dev/tty",
    "/dev/console", "/dev/stdout", "/dev/stderr", "/dev/fd/0", "/dev/fd/1", "/dev/fd/2",
})
"""Device paths that would block or never end (§8.4)."""

PROC_SUFFIXES = ("/fd/0", "/fd/1", "/fd/2", "/environ", "/cmdline", "/maps", "/smaps",
                 "/smaps_rollup", "/numa_maps", "/mem", "/auxv", "/pagemap")
"""Endings of ``/proc/…`` paths refused like devices (covers ``/proc/<pid>/task/<tid>/…``)."""

MAX_SYMLINK_HOPS = 20
"""Symlinks followed one by one when matching device paths (§8.4)."""


class ReadCall:
    """One read_file call as the guards see it: the task's *tools*, the agent's *path* as
    given, the normalised pagination, the absolute *resolved* path, the read *limits*, and the
    path's ``stat`` (following symlinks; None when it cannot be stat'ed), taken once and
    shared by the guards."""

    def __init__(self, tools: FileTools, path: str, offset: int, limit: int,
                 resolved: str, limits: ReadLimits) -> None:
        self.tools = tools
        self.path = path
        self.offset = offset
        self.limit = limit
        self.resolved = resolved
        self.limits = limits
        self._info: os.stat_result | None = None
        self._stated = False

    @property
    def info(self) -> os.stat_result | None:
        """``os.stat(resolved)``, or None if that fails (stat never blocks on a FIFO)."""
        if not self._stated:
            self._stated = True
            try:
                self._info = os.stat(self.resolved)
            except (OSError, ValueError):
                self._info = None
        return self._info

    def __repr__(self) -> str:
        return f"ReadCall(path={self.path!r}, offset={self.offset}, limit={self.limit})"


ReadGuard = Callable[[ReadCall], "str | None"]
"""A step of read_file: the JSON text that ends the call, or None to go on."""


def suffix(path: str) -> str:
    """The lower-cased last suffix (``os.path.splitext``: a dotfile like ``.png`` has none)."""
    return os.path.splitext(path)[1].lower()


def has_binary_extension(path: str) -> bool:
    """Hermes ``has_binary_extension``: the last suffix is in :data:`BINARY_EXTENSIONS`."""
    return suffix(path) in BINARY_EXTENSIONS


def is_blocked_device(path: str) -> bool:
    """Whether normalised absolute *path* is on the device blocklist (§8.4)."""
    return path in DEVICE_PATHS or (path.startswith("/proc/") and path.endswith(PROC_SUFFIXES))


def _device_candidates(path: str) -> list[str]:
    """*path*, every symlink hop from it (at most 20) and its real path."""
    candidates = [path]
    current = path
    for _ in range(MAX_SYMLINK_HOPS):
        try:
            target = os.readlink(current)
        except (OSError, ValueError):
            break
        current = os.path.normpath(os.path.join(os.path.dirname(current), target))
        candidates.append(current)
    candidates.append(os.path.realpath(path))
    return candidates


def nt_namespace_guard(call: ReadCall) -> str | None:
    """Refuses a raw path in a Windows NT/device namespace, before any resolution (§8.3)."""
    error = nt_namespace_error(call.path, "Read")
    return None if error is None else tool_error(error)


def confinement_guard(call: ReadCall) -> str | None:
    """Under ``FileTools(confine=True)``, refuses a path that resolves outside the root."""
    confinement = call.tools.confinement
    if confinement is None:
        return None
    error = confinement.error(call.path, call.resolved, "Read")
    return None if error is None else tool_error(error)


def device_path_guard(call: ReadCall) -> str | None:
    """Refuses device paths that block or never end, through any symlink hop (§8.4)."""
    if any(is_blocked_device(p) for p in _device_candidates(call.resolved)):
        return tool_error(messages.READ_DEVICE_BLOCKED.format(path=call.path))
    return None


def special_file_guard(call: ReadCall) -> str | None:
    """Answers a FIFO, socket or device with a note instead of reading it (§2.2 step 5).

    Hermes: regular files and directories pass, and so does a path that cannot be stat'ed;
    the note is ``{"success": false, "note": …}``, not a ``tool_error``.
    """
    kind = special_kind(call.info.st_mode) if call.info is not None else None
    if kind is None:
        return None
    note = messages.READ_SPECIAL_FILE.format(path=call.path, kind=messages.SPECIAL_FILE_KINDS[kind])
    return dumps({"success": False, "note": note})


def deny_list_guard(call: ReadCall) -> str | None:
    """Refuses Hermes' credential stores and ``.env`` files (§8.1)."""
    error = call.tools.policy.read_block_error(call.resolved)
    return None if error is None else tool_error(error)


def binary_extension_guard(call: ReadCall) -> str | None:
    """Refuses binary extensions by name, images included (§2.2 step 8)."""
    if has_binary_extension(call.resolved):
        return tool_error(messages.READ_BINARY_EXTENSION.format(path=call.path,
                                                                ext=suffix(call.resolved)))
    return None
