"""The file-ops write of Hermes §3.4: from a path and new text to verified bytes on disk.

Both tools funnel through here. :func:`probe_existing` reads what is on disk once;
:func:`prepare_write` runs the gates (write deny-list, lone surrogates, the JSON/YAML/TOML
syntax gate) and turns the text into bytes in the existing file's form (CRLF, BOM, encoding)
without touching the disk, so a V4A patch can prepare every file before writing any;
:func:`commit_write` writes the bytes atomically and verifies them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from shellfree.engine import messages
from shellfree.engine.atomic_write import WrittenFile, atomic_write, write_target
from shellfree.engine.read_tracking import KnownCodePage, stat_key
from shellfree.engine.regular_file import NotRegularFile, open_regular
from shellfree.engine.write_content_guards import lone_surrogate_error, syntax_error
from shellfree.engine.write_encoding import (
    NEW_FILE, TextFormat, UnencodableText, normalize_line_endings, sniff_format)
from shellfree.engine.write_policy import WritePolicy

__all__ = ["ExistingFile", "PreparedWrite", "commit_write", "prepare_write", "probe_existing"]

FULL_PROBE_BYTES = 8 << 20
"""Existing files up to this size are read whole (for the lint baseline and the rewrite hint);
larger ones only far enough to learn their form."""

PROBE_HEAD_BYTES = 1 << 20


@dataclass(frozen=True, slots=True)
class ExistingFile:
    """What is on disk before a write: *raw* bytes (None when the file does not exist; only the
    first megabyte when *complete* is False) and their :class:`TextFormat`."""

    raw: bytes | None
    format: TextFormat
    complete: bool = True

    @property
    def exists(self) -> bool:
        return self.raw is not None

    def text(self) -> str | None:
        """The decoded content (BOM removed), or None if missing or only partly read."""
        if self.raw is None or not self.complete:
            return None
        return self.format.decode(self.raw)


def probe_existing(path: str, code_page: KnownCodePage | None = None) -> ExistingFile:
    """Reads the file a write of *path* would replace (following a symlink); *code_page* is how
    the task knows it to use a legacy code page at one version, used while it is there."""
    target = write_target(path)
    try:
        with open_regular(target) as handle:
            info = os.fstat(handle.fileno())
            complete = info.st_size <= FULL_PROBE_BYTES
            raw = handle.read() if complete else handle.read(PROBE_HEAD_BYTES)
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError, NotRegularFile):
        # Nothing to keep; a directory or a special file is refused by the write itself.
        return ExistingFile(None, NEW_FILE)
    known = code_page.at(stat_key(info)) if code_page is not None else None
    return ExistingFile(raw, sniff_format(raw, known), complete)


@dataclass(frozen=True, slots=True)
class PreparedWrite:
    """Bytes ready to be written: *path* (as named in messages), *data*, and *text*, the
    content as it will read back (line endings already in the file's form)."""

    path: str
    data: bytes
    text: str


class WriteRefused(ValueError):
    """A gate refused the write; ``str()`` is the message for the agent."""


def prepare_write(path: str, content: str, policy: WritePolicy, existing: ExistingFile, *,
                  match_crlf: bool = True, verb: str = "Write") -> PreparedWrite:
    """The gated, encoded form of *content* for *path*; raises :class:`WriteRefused`.

    *match_crlf* applies §3.4 step 6 (a CRLF file gets CRLF everywhere); patch passes False
    because it already wrote the replacement in the file's line ending and must not touch the
    rest. The BOM and the encoding always follow *existing*.
    """
    for error in (policy.write_denied_error(path, verb), lone_surrogate_error(path, content),
                  syntax_error(path, content)):
        if error is not None:
            raise WriteRefused(error)
    fmt = existing.format
    if match_crlf and fmt.newline == "\r\n":
        content = normalize_line_endings(content, "\r\n")
    try:
        # The bytes on disk, so a line the write leaves alone keeps them (TextFormat.encode).
        data = fmt.encode(content, existing.raw)
    except UnencodableText as error:
        raise WriteRefused(messages.UNENCODABLE_WRITE.format(
            path=path, char=error.char, encoding=error.encoding)) from None
    if fmt.bom and content.startswith("\ufeff"):
        content = content[1:]
    return PreparedWrite(path, data, content)


def commit_write(prepared: PreparedWrite, *, exclusive: bool,
                 mode: int | None = None) -> WrittenFile:
    """Writes *prepared* atomically (see :func:`~shellfree.engine.atomic_write.atomic_write`)."""
    return atomic_write(prepared.path, prepared.data, exclusive=exclusive, mode=mode)
