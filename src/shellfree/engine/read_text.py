"""The file-ops layer of read_file: one page of one file on disk, as a :class:`ReadResult` (§2.3).

:func:`read_page` stats the path (missing → not-found recovery, §2.5), refuses anything but a
regular file, answers images and binary files with their refusal (§2.4), then streams the file
once in bounded memory (:mod:`shellfree.engine.read_stream`), decoding the page as UTF-8,
UTF-16 or a detected legacy encoding (:mod:`shellfree.engine.read_encoding`), and assembles
the numbered page with its hints. It knows nothing of the task: guards, budgets, redaction and
bookkeeping are the tool layer's (:mod:`shellfree.engine.read_file`).

EDGE CASE (all deliberate, against the letter of §2.3/§2.4): ``total_lines`` counts a final line
that has no newline (``wc -l`` would not, and then the offset-beyond-end and truncation checks
hide that line; newer Hermes versions count it too); a page that ends with the file's final
newline shows no empty ``N|`` entry after it; UTF-16 files are streamed, not decoded whole, so
they have no 10 MiB cap and count lines the same way as every other file.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import replace
from typing import BinaryIO

from shellfree.engine import messages
from shellfree.engine.read_encoding import (
    DETECTION_BYTES,
    SNIFF_BYTES,
    START_BYTES,
    LineDecoder,
    TextEncoding,
    binary_kind,
    classify,
    format_size,
)
from shellfree.engine.read_guards import IMAGE_EXTENSIONS, has_binary_extension, suffix
from shellfree.engine.read_recovery import dangling_link, similar_files, unicode_variant
from shellfree.engine.read_result import MAX_LINE_LENGTH, ReadResult, number_lines
from shellfree.engine.read_stream import CHUNK_SIZE, Window, stream_bytes_window, stream_text_window
from shellfree.engine.read_tracking import KnownCodePage, stat_key
from shellfree.engine.regular_file import READ_FLAGS
from shellfree.engine.text_decoding import CodePage

__all__ = ["read_page"]



def read_page(path: str, offset: int, limit: int, *, max_line_length: int = MAX_LINE_LENGTH,
              chunk_size: int = CHUNK_SIZE, code_page: KnownCodePage | None = None) -> ReadResult:
    """Lines *offset*..*offset+limit-1* of the file at absolute *path*, numbered.

    *code_page* is how the task knows the file to use a legacy code page at one version (see
    :class:`~shellfree.engine.read_tracking.KnownCodePages`); it holds if the file is still
    at that version.

    Never raises for a file problem: a missing file, a special file, a binary file or an
    I/O error is a result with ``error`` set.
    """
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return _not_found(path, offset, limit, max_line_length, chunk_size)
    except OSError as error:
        return ReadResult(error=messages.READ_FAILED.format(detail=error))
    if not stat.S_ISREG(info.st_mode):
        return ReadResult(error=messages.READ_NOT_REGULAR.format(path=path))
    if suffix(path) in IMAGE_EXTENSIONS:
        # Hermes: reachable only through this layer; the tool layer refuses every image
        # extension as binary first (§2.2 step 8, §2.4).
        return ReadResult(is_image=True, is_binary=True, file_size=info.st_size,
                          hint=messages.READ_IMAGE_REDIRECT)
    try:
        # Non-blocking: the path may have become a FIFO since the stat above (see READ_FLAGS).
        fd = os.open(path, READ_FLAGS)
    except OSError as error:
        return ReadResult(error=messages.READ_FAILED.format(detail=error))
    try:
        with open(fd, "rb", buffering=0, closefd=True) as raw:
            return _read_open_file(path, _Reader(raw), offset, limit, max_line_length,
                                   chunk_size, code_page)
    except OSError as error:
        return ReadResult(error=messages.READ_FAILED.format(detail=error))


class _Reader:
    """A non-blocking file's reads: "no data yet" (None) becomes BlockingIOError."""

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw

    def read(self, size: int) -> bytes:
        data = self._raw.read(size)
        if data is None:
            raise BlockingIOError(errno.EAGAIN, "no data is ready; reading it would block")
        return data

    def seek(self, position: int) -> None:
        self._raw.seek(position)

    def fileno(self) -> int:
        return self._raw.fileno()


def _read_open_file(path: str, handle: _Reader, offset: int, limit: int,
                    max_line_length: int, chunk_size: int,
                    code_page: KnownCodePage | None) -> ReadResult:
    before = os.fstat(handle.fileno())
    if not stat.S_ISREG(before.st_mode):
        return ReadResult(error=messages.READ_NOT_REGULAR.format(path=path))
    sample = handle.read(SNIFF_BYTES)

    def more() -> bytes:
        handle.seek(0)
        return handle.read(DETECTION_BYTES)

    known = code_page.at(stat_key(before)) if code_page is not None else None
    encoding = None if has_binary_extension(path) else classify(sample, more, known)
    if encoding is None:
        size = before.st_size or len(sample)
        return ReadResult(is_binary=True, file_size=size, error=messages.READ_BINARY_FILE.format(
            kind=binary_kind(sample), size=format_size(size)))
    handle.seek(0)
    end_line = offset + limit - 1
    window: Window
    if encoding.utf16:
        window = stream_text_window(handle, encoding.name, offset, end_line,
                                    max_line_length + 1, chunk_size)
        lines, used = list(window.lines), encoding.name
    else:
        # Hermes clamps a kept line to 4 * max_line_length + 1 bytes before decoding: enough
        # for max_line_length characters of any UTF-8 and a sign that there were more.
        window = stream_bytes_window(handle, offset, end_line, 4 * max_line_length + 1,
                                     chunk_size)
        def start() -> bytes:
            handle.seek(0)
            return handle.read(START_BYTES)

        decoder = LineDecoder(encoding, start)
        lines, used = decoder.decode(window.lines, window.cut), decoder.used
    try:
        after = os.stat(path)
    except OSError:
        after = None
    # The version is recorded only when the file did not change while it was read (§6.3).
    stable = after is not None and stat_key(after) == stat_key(before)
    version = stat_key(before) if stable else None
    result = assemble_page(lines, window, offset, limit, max_line_length, encoding, used)
    return replace(result, path=path, version=version)


def assemble_page(lines: list[str], window: Window, offset: int, limit: int,
                  max_line_length: int, encoding: TextEncoding, used: str | None) -> ReadResult:
    """The numbered page and its hints (Hermes ``_assemble_read_result``, §2.3)."""
    end_line = offset + limit - 1
    total = window.total_lines
    if window.size == 0:
        return ReadResult(content="", total_lines=0, file_size=0,
                          hint=messages.READ_EMPTY_FILE, reaches_end=True, last_line=0)
    size = window.size
    if offset > total:
        return ReadResult(content="", total_lines=total, file_size=size,
                          hint=messages.READ_BEYOND_END.format(offset=offset, total_lines=total),
                          first_line=offset, last_line=offset - 1)
    if offset == 1 and lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]  # the BOM is an encoding mark, not content (§2.3)
    truncated = total > end_line
    content, clamped = number_lines(lines, offset, max_line_length, window.cut)
    hints = []
    reported = None
    code_page = None
    if encoding.utf16:
        reported = encoding.name
        hints.append(messages.READ_UTF16_TRANSCODED.format(encoding=encoding.name.upper()))
    elif used is not None:
        reported = used
        template = (messages.READ_LEGACY_DECODED if encoding.whole
                    else messages.READ_STRAY_LINES_DECODED)
        hints.append(template.format(encoding=used))
        code_page = CodePage(used, encoding.whole)
    if truncated:
        hints.append(messages.READ_CONTINUE.format(next_offset=end_line + 1, offset=offset,
                                                   end_line=end_line, total_lines=total))
    return ReadResult(
        content=content, total_lines=total, file_size=size, truncated=truncated,
        hint=" ".join(hints) or None, encoding=reported, first_line=offset,
        last_line=offset + len(lines) - 1, reaches_end=not truncated, clamped=clamped,
        code_page=code_page,
    )


def _not_found(path: str, offset: int, limit: int, max_line_length: int,
               chunk_size: int) -> ReadResult:
    """Reads the file's unicode twin instead, with a note, or lists similar names (§2.5)."""
    variant = unicode_variant(path)
    if variant is not None:
        result = read_page(variant, offset, limit, max_line_length=max_line_length,
                           chunk_size=chunk_size)
        if not result.not_found:
            note = messages.READ_UNICODE_VARIANT.format(path=path, variant=variant)
            return replace(result, hint=f"{note} {result.hint}" if result.hint else note)
    target = dangling_link(path)
    hint = None if target is None else messages.DANGLING_LINK_NOTE.format(path=path,
                                                                          target=target)
    return ReadResult(error=messages.FILE_NOT_FOUND.format(path=path), hint=hint,
                      similar_files=tuple(similar_files(path)))
