"""Private key blocks: ``-----BEGIN … PRIVATE KEY-----`` … ``-----END … PRIVATE KEY-----``
(RSA, EC, DSA, OPENSSH, ENCRYPTED, PKCS#8, and ``PGP PRIVATE KEY BLOCK``).

Outside file reads a whole block becomes ``[REDACTED PRIVATE KEY]``, as hermes-contract §9
pass 7 says. A file read keeps the BEGIN and END lines and replaces each body line by the
sentinel: read_file pages are numbered ``N|line``, and folding thirty numbered lines into one
would make the page lie about its line numbers. Blocks cut by a page edge (a BEGIN without its
END, or an END without its BEGIN) have their base64 body lines masked the same way in both modes.
"""

from __future__ import annotations

import re

from shellfree.redaction.masks import PRIVATE_KEY_SENTINEL

__all__ = ["redact_private_keys"]

_KIND = r"[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
_BEGIN = re.compile(rf"-----BEGIN{_KIND}")
_END = re.compile(rf"-----END{_KIND}")
# A line of a page: an optional read_file gutter ("12|") and indentation, then the content.
_LINE = re.compile(r"(?P<lead>[ \t]*(?:\d+\|)?[ \t]*)(?P<content>.*?)(?P<cr>\r?)\Z")
# PEM body lines are base64; encrypted PEM and PGP blocks also carry "Name: value" headers.
_BODY_LINE = re.compile(r"[A-Za-z0-9+/=]+|[A-Za-z][A-Za-z0-9-]*: .*|=[A-Za-z0-9+/]{4}")
_ESCAPED_NEWLINES = re.compile(r"\A((?:\\r|\\n|\s)*)(.*?)((?:\\r|\\n|\s)*)\Z",
                               re.DOTALL)


def redact_private_keys(text: str, *, file_read: bool) -> str:
    """Masks every private key block in *text* (see the module docstring for the two forms)."""
    if not file_read:
        text = _whole_blocks(text)
        if "PRIVATE KEY" not in text.replace(PRIVATE_KEY_SENTINEL, ""):
            return text
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        begin = _BEGIN.search(line)
        if begin is None:
            index += 1
            continue
        end = _END.search(line, begin.end())
        if end is not None:
            # One line holds the whole block: JSON's "-----BEGIN…-----\nMII…\n-----END…".
            lines[index] = line[:begin.end()] + _mask_inline(line[begin.end():end.start()]) + \
                line[end.start():]
            index += 1
            continue
        lines[index] = line[:begin.end()] + _mask_inline(line[begin.end():])
        index = _mask_body(lines, index + 1, step=1)
    for index, line in enumerate(lines):
        if _END.search(line) and not _BEGIN.search(line) and not _follows_begin(lines, index):
            _mask_body(lines, index - 1, step=-1)  # END without its BEGIN on this page
    return "\n".join(lines)


def _whole_blocks(text: str) -> str:
    """§9 pass 7: each BEGIN … first END after it becomes the sentinel. A loop rather than one
    lazy ``.*?`` regex: with no END left, a regex would rescan the rest of the text from every
    remaining BEGIN."""
    pieces: list[str] = []
    last = 0
    while True:
        begin = _BEGIN.search(text, last)
        end = _END.search(text, begin.end()) if begin else None
        if begin is None or end is None:
            break
        pieces += [text[last:begin.start()], PRIVATE_KEY_SENTINEL]
        last = end.end()
    if not pieces:
        return text
    pieces.append(text[last:])
    return "".join(pieces)


def _mask_inline(body: str) -> str:
    """The body of a block written on one line, its escaped newlines and spaces kept."""
    parts = _ESCAPED_NEWLINES.match(body)
    assert parts is not None
    lead, content, trail = parts.groups()
    return f"{lead}{PRIVATE_KEY_SENTINEL}{trail}" if content else body


def _mask_body(lines: list[str], index: int, *, step: int) -> int:
    """Masks body lines from *index* in direction *step* until an END marker or a line that
    is no PEM body; returns the index where it stopped."""
    while 0 <= index < len(lines):
        parts = _LINE.match(lines[index])
        assert parts is not None
        content = parts.group("content")
        if _END.search(content) or _BEGIN.search(content):
            return index
        if content and not _BODY_LINE.fullmatch(content):
            return index
        if content:
            lines[index] = parts.group("lead") + PRIVATE_KEY_SENTINEL + parts.group("cr")
        index += step
    return index


def _follows_begin(lines: list[str], index: int) -> bool:
    """Whether the END marker on line *index* closes a BEGIN seen above it (whose body is
    already masked)."""
    for above in range(index - 1, -1, -1):
        if _BEGIN.search(lines[above]):
            return True
        parts = _LINE.match(lines[above])
        assert parts is not None
        content = parts.group("content")
        if content != PRIVATE_KEY_SENTINEL and content and not _BODY_LINE.fullmatch(content):
            return False
    return False
