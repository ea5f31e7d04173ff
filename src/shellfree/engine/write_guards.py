"""The path guards write_file and patch run before touching anything, in the contract's order.

Each guard is a small callable with a readable ``repr`` that returns the refusal text or None
(Hermes §3.3 steps 1–4, §4.2 step 2): :class:`SensitivePathGuard` (§8.2, §8.3),
:class:`BinaryDocumentGuard` (§3.6), :class:`SpecialFileGuard` (shellfree's), then
:class:`ApprovalGuard` twice — protected agent-instruction files and ``~/.ssh/config`` (§3.7),
each asking the ``FileTools`` approval callback once for the whole operation.
:func:`path_guards` builds the ordered tuple once.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from typing import Callable, Sequence

from shellfree.engine import messages
from shellfree.engine.regular_file import special_kind
from shellfree.engine.write_policy import WritePolicy, is_within

__all__ = [
    "ApprovalGuard",
    "BINARY_EXTENSIONS",
    "BinaryDocumentGuard",
    "OPAQUE_DOCUMENT_EXTENSIONS",
    "PROTECTED_BASENAMES",
    "SensitivePathGuard",
    "SpecialFileGuard",
    "WriteTarget",
    "path_guards",
    "run_path_guards",
]

OPAQUE_DOCUMENT_EXTENSIONS = frozenset({
    ".doc", ".docx", ".docm", ".xls", ".xlsx", ".xlsm", ".xlsb", ".ppt", ".pps", ".pptx", ".pptm",
    ".ppsx", ".ppsm", ".odt", ".ods", ".odp", ".rtf", ".epub",
})
"""Containers a text write can only corrupt: always refused (§3.6)."""

SQLITE_SIDECAR_SUFFIXES = tuple(
    f"{db}-{kind}" for db in (".db", ".sqlite", ".sqlite3") for kind in ("wal", "shm", "journal"))

BINARY_EXTENSIONS = frozenset("""
.png .jpg .jpeg .gif .bmp .ico .webp .tiff .tif
.mp4 .mov .avi .mkv .webm .wmv .flv .m4v .mpeg .mpg
.mp3 .wav .ogg .flac .aac .m4a .wma .aiff .opus
.zip .tar .gz .bz2 .7z .rar .xz .z .tgz .iso
.exe .dll .so .dylib .bin .o .a .obj .lib .app .msi .deb .rpm
.doc .docx .xls .xlsx .ppt .pptx .odt .ods .odp
.ttf .otf .woff .woff2 .eot
.pyc .pyo .class .jar .war .ear .node .wasm .rlib
.sqlite .sqlite3 .db .mdb .idx
.psd .ai .eps .sketch .fig .xd .blend .3ds .max
.swf .fla
.lockb .dat .data
""".split())
"""Hermes ``BINARY_EXTENSIONS`` (§8.5; last suffix, case-insensitive; ``.pdf`` is not in it). An
existing file with one of these is never overwritten with text; a new one may be created."""

PROTECTED_BASENAMES = frozenset({"agents.md", "claude.md", "soul.md", ".cursorrules"})
"""Agent-instruction files (any directory, case-insensitive) written only with approval (§3.7)."""


@dataclass(frozen=True, slots=True)
class WriteTarget:
    """One path an operation writes: *path* as the agent gave it (after ``~`` expansion and the
    task root), *resolved* its real absolute path, and *gets_text* — whether text content lands
    there (write_file, replace mode, V4A Update/Add; not a Delete or a Move). *variant_of*: the
    absolute path the agent named, when nothing is there and *resolved* is the one file next to
    it whose name differs only invisibly (NFC/NFD, special spaces and quotes), as read_file
    resolves it."""

    path: str
    resolved: str
    gets_text: bool = True
    variant_of: str | None = None


class ConfinementGuard:
    """Under ``FileTools(confine=True)``, no target may resolve outside the workspace root
    (a shellfree addition, checked before Hermes' guards)."""

    def __init__(self, policy: WritePolicy) -> None:
        self.confinement = policy.confinement

    def __repr__(self) -> str:
        return f"ConfinementGuard({self.confinement!r})"

    def __call__(self, targets: Sequence[WriteTarget]) -> str | None:
        if self.confinement is None:
            return None
        for target in targets:
            error = self.confinement.error(target.path, target.resolved, "Write")
            if error is not None:
                return error
        return None


class SensitivePathGuard:
    """System paths and the Hermes ``config.yaml`` are never written (§3.3 step 1, §8.2)."""

    def __init__(self, policy: WritePolicy) -> None:
        self.policy = policy

    def __repr__(self) -> str:
        return "SensitivePathGuard()"

    def __call__(self, targets: Sequence[WriteTarget]) -> str | None:
        for target in targets:
            error = self.policy.sensitive_path_error(target.path, target.resolved)
            if error is not None:
                return error
        return None


class BinaryDocumentGuard:
    """Text never replaces an Office document, a SQLite sidecar or an existing binary (§3.6)."""

    def __repr__(self) -> str:
        return "BinaryDocumentGuard()"

    def __call__(self, targets: Sequence[WriteTarget]) -> str | None:
        for target in targets:
            if target.gets_text:
                error = binary_document_error(target.path, target.resolved)
                if error is not None:
                    return error
        return None


class SpecialFileGuard:
    """A FIFO, socket or device is never read or replaced (shellfree's: Hermes reads a FIFO
    target first and waits for a writer forever, and renames its temp file over a device)."""

    def __repr__(self) -> str:
        return "SpecialFileGuard()"

    def __call__(self, targets: Sequence[WriteTarget]) -> str | None:
        for target in targets:
            try:
                mode = os.stat(target.resolved).st_mode  # stat never waits on a FIFO
            except OSError:
                continue  # missing, or unreadable: the write itself reports it
            kind = special_kind(mode)
            if kind is not None:
                return messages.WRITE_SPECIAL_FILE.format(
                    path=target.path, kind=messages.SPECIAL_FILE_KINDS[kind])
        return None


def binary_document_error(path: str, resolved: str) -> str | None:
    """The §3.6 refusal for writing text to *path* (real path *resolved*), or None."""
    name = os.path.basename(resolved).lower()
    ext = os.path.splitext(name)[1]
    if ext in OPAQUE_DOCUMENT_EXTENSIONS:
        return messages.BINARY_DOCUMENT_WRITE.format(path=path, ext=ext)
    for suffix in SQLITE_SIDECAR_SUFFIXES:
        if name.endswith(suffix):
            return messages.SQLITE_SIDECAR_WRITE.format(path=path, ext=suffix)
    if ext != ".pdf" and ext not in BINARY_EXTENSIONS:
        return None
    try:
        exists = stat.S_ISREG(os.stat(resolved).st_mode)
    except FileNotFoundError:
        exists = False
    except OSError:
        return messages.EXISTENCE_UNKNOWN_WRITE.format(path=path)
    if not exists:
        return None
    if ext == ".pdf":
        return messages.EXISTING_PDF_WRITE.format(path=path)
    return messages.EXISTING_BINARY_WRITE.format(path=path, ext=ext)


ApprovalCallback = Callable[[str, str], bool]


class ApprovalGuard:
    """Paths written only when the user approves: one prompt for the whole operation (§3.7).

    *selects* picks the targets this gate covers; *template* is the ``BLOCKED: …`` refusal and
    *reason* what the callback is told. Without a callback the write is refused, as Hermes does
    when no interactive user or gateway is present. Approval is never remembered.
    """

    def __init__(self, name: str, selects: Callable[[WriteTarget], bool], template: str,
                 reason: str, callback: ApprovalCallback | None) -> None:
        self.name = name
        self.selects = selects
        self.template = template
        self.reason = reason
        self.callback = callback

    def __repr__(self) -> str:
        return f"ApprovalGuard({self.name!r})"

    def __call__(self, targets: Sequence[WriteTarget]) -> str | None:
        chosen = list(dict.fromkeys(t.path for t in targets if self.selects(t)))
        if not chosen:
            return None
        shown = ", ".join(chosen)
        if self.callback is None:
            why = messages.APPROVAL_NO_USER
        else:
            try:
                approved = self.callback(shown, self.reason)
            except Exception as error:  # a broken prompt is not consent
                why = messages.APPROVAL_NOT_ANSWERED.format(cause=str(error) or type(error).__name__)
            else:
                if approved is True:
                    return None
                why = messages.APPROVAL_DENIED
        return self.template.format(targets=shown, why=why)


def is_protected_instruction_file(target: WriteTarget, hermes_dirs: Sequence[str]) -> bool:
    """AGENTS.md, CLAUDE.md, SOUL.md, .cursorrules (by the given or the real name), or a file
    directly inside a ``.hermes`` directory — except files under a Hermes directory itself."""
    if any(is_within(target.resolved, home) for home in hermes_dirs):
        return False
    for candidate in (os.path.normpath(target.path), target.resolved):
        if os.path.basename(candidate).lower() in PROTECTED_BASENAMES:
            return True
        if os.path.basename(os.path.dirname(candidate)) == ".hermes":
            return True
    return False


def path_guards(policy: WritePolicy, callback: ApprovalCallback | None) -> tuple[
        Callable[[Sequence[WriteTarget]], str | None], ...]:
    """The path guards in Hermes' order (§3.3 steps 1–4; step 5, the sandbox-mirror guard, has
    nothing to guard in a local engine)."""
    return (
        ConfinementGuard(policy),
        SensitivePathGuard(policy),
        BinaryDocumentGuard(),
        SpecialFileGuard(),
        ApprovalGuard(
            "protected instruction files",
            lambda t: is_protected_instruction_file(t, policy.hermes_dirs),
            messages.PROTECTED_INSTRUCTION_BLOCKED, messages.PROTECTED_INSTRUCTION_REASON,
            callback),
        ApprovalGuard("ssh config", lambda t: policy.is_ssh_config(t.resolved),
                      messages.SSH_CONFIG_BLOCKED, messages.SSH_CONFIG_REASON, callback),
    )


def run_path_guards(targets: Sequence[WriteTarget], policy: WritePolicy,
                    callback: ApprovalCallback | None) -> str | None:
    """The first refusal among :func:`path_guards` for *targets*, or None."""
    for guard in path_guards(policy, callback):
        error = guard(targets)
        if error is not None:
            return error
    return None
