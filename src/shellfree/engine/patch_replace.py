"""patch in replace mode on one file: find old_string, replace it, write, verify (§4.3).

:func:`patch_replace` is the file-ops step; the tool layer (:mod:`shellfree.engine.patch`) has
already run the path guards and holds the file's lock. Only the matched region's bytes change:
line endings, BOM, encoding and every other byte of the file stay as they were.
"""

from __future__ import annotations

import os

from shellfree.engine import messages
from shellfree.engine.atomic_write import AtomicWriteError, write_target
from shellfree.engine.fuzzy_hints import closest_sections
from shellfree.engine.fuzzy_match import fuzzy_find_and_replace, is_already_applied
from shellfree.engine.patch_outcome import PatchOutcome, failure
from shellfree.engine.patch_text import EditableFile, NotRoundTrip, unified_diff
from shellfree.engine.read_tracking import KnownCodePage, StatKey, stat_key
from shellfree.engine.regular_file import open_regular
from shellfree.engine.write_encoding import TextFormat, normalize_line_endings
from shellfree.engine.write_lint import lint_delta
from shellfree.engine.write_pipeline import WriteRefused, commit_write, prepare_write
from shellfree.engine.write_policy import WritePolicy

__all__ = ["no_match_error", "open_for_edit", "patch_replace", "read_back", "read_versioned",
           "verify_persisted"]


def open_for_edit(path: str, code_page: KnownCodePage | None = None) -> EditableFile:
    """Reads *path* (through a symlink) for editing, in *code_page* if the file is still at
    the version the task knew it in; raises ``OSError`` or
    :class:`~shellfree.engine.patch_text.NotRoundTrip`."""
    raw, version = read_versioned(path)
    return EditableFile.from_bytes(raw, code_page.at(version) if code_page is not None else None)


def no_match_error(error: str | None, count: int, path: str, old_string: str, view: str) -> str:
    """§4.3 step 5: the matcher's error (or the generic one), with the "Did you mean" block when
    nothing matched at all."""
    text = error or messages.PATCH_NO_MATCH.format(path=path)
    if text.startswith("Could not find") and count == 0:
        sections = closest_sections(old_string, view)
        if sections:
            text += messages.DID_YOU_MEAN + sections
    return text


def read_versioned(path: str) -> tuple[bytes, StatKey]:
    """The bytes of *path* (through a symlink) and the version they were read at."""
    with open_regular(write_target(path)) as handle:
        version = stat_key(os.fstat(handle.fileno()))
        return handle.read(), version


def read_back(path: str) -> bytes:
    """The bytes of *path* (through a symlink), to verify a write."""
    return read_versioned(path)[0]


def verify_persisted(path: str, intended: str, fmt: TextFormat) -> str | None:
    """§4.3 step 8: re-read *path* and compare it with *intended*, BOM removed and line endings
    normalised; returns the error text, or None when the patch persisted.

    The bytes read back are decoded as they were encoded (*fmt*), not sniffed again: a legacy
    code page is guessed from the text, and the edit can change the guess (a cp1252 file whose
    "Grö" became "K€." reads as cp1257), which would report a patch that persisted as lost."""
    try:
        on_disk = fmt.decode(read_back(path))
    except (OSError, UnicodeError):
        return messages.PATCH_REREAD_FAILED.format(path=path)
    wrote = normalize_line_endings(intended, "\n").replace("\r", "\n")
    read = normalize_line_endings(on_disk, "\n").replace("\r", "\n")
    if wrote != read:
        return messages.PATCH_VERIFY_MISMATCH.format(path=path, wrote=len(wrote), read=len(read))
    return None


def patch_replace(path: str, old_string: str, new_string: str, replace_all: bool,
                  policy: WritePolicy, *, exclusive: bool,
                  code_page: KnownCodePage | None = None) -> PatchOutcome:
    """Replaces *old_string* by *new_string* in the file at *path* (absolute, real);
    *code_page* is how the task knows the file to use a legacy code page."""
    denied = policy.write_denied_error(path)
    if denied is not None:
        return failure(denied)
    try:
        current = open_for_edit(path, code_page)
    except NotRoundTrip as error:
        return failure(messages.PATCH_NOT_ROUND_TRIP.format(path=path, encoding=error.encoding))
    except OSError:
        return failure(messages.PATCH_READ_FAILED.format(path=path))
    # The agent's strings may carry CRLF (copied from a diff); the view is LF throughout.
    old = old_string.replace("\r\n", "\n")
    new = new_string.replace("\r\n", "\n")
    found = fuzzy_find_and_replace(current.view, old, new, replace_all)
    if found.error is not None or found.count == 0:
        if is_already_applied(current.view, old, new):
            return PatchOutcome(True, no_change=True,
                                note=messages.PATCH_ALREADY_APPLIED.format(path=path))
        return failure(no_match_error(found.error, found.count, path, old, current.view))
    new_text = current.apply(found.edits)
    return write_patched(path, current, new_text, policy, exclusive=exclusive)


def write_patched(path: str, current: EditableFile, new_text: str, policy: WritePolicy, *,
                  exclusive: bool) -> PatchOutcome:
    """Writes *new_text* over *current* (§4.3 steps 7–9) and builds the success result."""
    try:
        prepared = prepare_write(path, new_text, policy, current.existing(), match_crlf=False)
        written = commit_write(prepared, exclusive=exclusive)
    except WriteRefused as refused:
        return failure(messages.PATCH_WRITE_FAILED.format(error=str(refused)))
    except (AtomicWriteError, OSError) as error:
        return failure(messages.PATCH_WRITE_FAILED.format(
            error=messages.WRITE_FAILED.format(output=str(error))))
    problem = verify_persisted(path, new_text, current.format)
    if problem is not None:
        return failure(problem)
    lint = lint_delta(path, new_text, current.text)
    code_page = current.format.form
    return PatchOutcome(
        True, diff=unified_diff(current.text, new_text, path), files_modified=(path,),
        lint=lint.to_dict(), versions={written.target: written.version},
        code_pages={written.target: code_page} if code_page else {})
