"""read_file's document step: .docx, .xlsx/.xlsm, .pdf and .ipynb files read as their extracted
text, paged like any file (§2.2 step 7, §2.9); the other formats the schema advertises refused
with a reason the agent can act on.

:func:`document_guard` runs before the binary-extension refusal (Office files have binary
extensions). It extracts through :mod:`shellfree.documents`, pages the text, applies the
character budget and redaction, and records what the task saw. A document that cannot be
extracted is refused with the contract's message — except a notebook, which is JSON text and
falls through to the ordinary read.
"""

from __future__ import annotations

import os
import stat

from shellfree.documents import DocumentError, extract_document, is_document
from shellfree.engine import messages
from shellfree.engine.envelope import dumps, tool_error
from shellfree.engine.read_guards import ReadCall, suffix
from shellfree.engine.read_output import apply_char_budget, redact_page
from shellfree.engine.read_result import number_lines
from shellfree.engine.read_tracking import canonical_path, stat_key

__all__ = ["document_guard"]

_UNSUPPORTED = "Unsupported document type"

CONVERTER_ONLY = frozenset({
    ".doc", ".docm", ".ppt", ".pps", ".pot", ".pptx", ".pptm", ".ppsx", ".ppsm", ".xls", ".xlsb",
    ".odt", ".ods", ".odp", ".epub",
})
"""The formats of Hermes' optional ``anydoc`` converter (§2.9) that shellfree does not
extract, minus ``.rtf``: Hermes without the converter refuses them all with its missing-converter
error, which read_file's schema text leads the agent to expect; shellfree refuses these the same
way, naming what it does extract. RTF is text, so it is read as it is: in a sandbox with no
terminal its markup is the only view of it the agent can get."""


def document_guard(call: ReadCall) -> str | None:
    """The extracted page of the document at ``call.resolved``, its refusal, or None to read
    the file as it is (not a document, not a regular file, or a notebook that is not one)."""
    info = call.info
    if info is None or not stat.S_ISREG(info.st_mode):
        return None
    ext = suffix(call.resolved)
    if ext in CONVERTER_ONLY:
        return tool_error(messages.READ_DOCUMENT_FAILED.format(
            path=call.path, ext=ext, reason=messages.READ_NO_CONVERTER.format(path=call.path)))
    if not is_document(call.resolved):
        return None
    try:
        extraction = extract_document(call.resolved)
    except DocumentError as error:
        if ext == ".ipynb" or error.reason.startswith(_UNSUPPORTED):
            return None
        return tool_error(messages.READ_DOCUMENT_FAILED.format(path=call.path, ext=ext,
                                                               reason=error.reason))
    except OSError:
        return None  # vanished or unreadable: the ordinary read reports it
    limits = call.limits
    lines = extraction.text.splitlines()
    total = len(lines)
    end_line = call.offset + call.limit - 1
    page = lines[call.offset - 1:end_line]
    content, clamped = number_lines(page, call.offset, limits.max_line_length)
    truncated = total > end_line
    payload = {"content": content, "total_lines": total, "file_size": info.st_size,
               "truncated": truncated, "extracted_document": True}
    if truncated:
        payload["hint"] = messages.READ_CONTINUE.format(
            next_offset=end_line + 1, offset=call.offset, end_line=min(end_line, total),
            total_lines=total)
    kept = apply_char_budget(payload, call.offset, limits.max_chars)
    redacted = redact_page(payload, call.tools.policy.is_secret_target(call.resolved))
    if page:
        shown = len(page) if kept is None else kept
        _record_coverage(call, info, call.offset + shown - 1,
                         reaches_end=not truncated and kept is None,
                         clean=not (redacted or clamped or payload.get("truncated_lines")))
    # Hermes: extracted reads skip the dedup stub and the consecutive-read guard (§2.9).
    return dumps(payload)


def _record_coverage(call: ReadCall, info: os.stat_result, last_line: int, reaches_end: bool,
                     clean: bool) -> None:
    """The read stamp, and the lines seen: Hermes grants a write baseline for a whole
    document read unredacted (§3.5 (c)). The version is the one stat'ed before extracting, so
    a change during extraction only makes a later write more cautious."""
    state = call.tools.state
    path = canonical_path(call.resolved)
    with state.lock:
        state.read_stamps.record(path, stat_key(info))
        if clean:
            state.full_reads.record_page(path, stat_key(info), call.offset, last_line,
                                         reaches_end)
        else:
            state.full_reads.revoke(path)
