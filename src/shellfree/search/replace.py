"""rg's ``-r/--replace``: each match of a printed line replaced by a template of its captures.

rg's printer replaces the matches it re-finds in a line (the same ones ``-o`` and ``--column``
see), so a replaced line is the :class:`~shellfree.search.searcher.Line` the searcher made with
its text rewritten and its spans moved onto the replacements; the printer then prints it as it
prints any line (``-o`` prints the replacements, ``--column`` the first one's column, ``-M``
measures the new text), as rg's printer prints its replaced bytes.

The template is taken as given (no escapes): ``$$`` is a ``$``; ``$name`` or ``${name}``, a
name of ASCII letters, digits and ``_``, refers to a group (a name that is a number, ``$1``,
``${0}``, ``$00``, by its number); a group that does not exist or took no part in the match
gives nothing, so ``$1a`` is the group named ``1a``; any other ``$`` is itself (``$-``,
``${}``, ``${0``).
"""

from __future__ import annotations

from collections.abc import Callable

from shellfree.search.decode import to_bytes, to_text
from shellfree.search.searcher import Line

__all__ = ["Replacement"]

_NAME_BYTES = frozenset(b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_U32_MAX = (1 << 32) - 1


def _parse(template: bytes) -> tuple:
    """The template as a tuple of literal bytes and group references (int or str)."""
    parts: list = []
    literal = bytearray()
    i = 0
    while i < len(template):
        at = template.find(b"$", i)
        if at < 0:
            literal += template[i:]
            break
        literal += template[i:at]
        if template[at + 1 : at + 2] == b"$":
            literal += b"$"
            i = at + 2
            continue
        start = at + 1
        brace = template[start : start + 1] == b"{"
        if brace:
            start += 1
        end = start
        while end < len(template) and template[end] in _NAME_BYTES:
            end += 1
        if end == start or (brace and template[end : end + 1] != b"}"):
            literal += b"$"  # not a reference: the "$" stands for itself
            i = at + 1
            continue
        name = template[start:end].decode("ascii")
        if literal:
            parts.append(bytes(literal))
            literal.clear()
        # rg parses the name as a u32; one that is not (letters, or too large) is a name.
        parts.append(int(name) if name.isdigit() and int(name) <= _U32_MAX else name)
        i = end + 1 if brace else end
    if literal:
        parts.append(bytes(literal))
    return tuple(parts)


class Replacement:
    """A ``-r`` template for one compiled pattern (search/pattern.py's CompiledPattern)."""

    def __init__(self, template: bytes, matcher) -> None:
        self.template = template
        self._parts = _parse(template)
        self._matcher = matcher
        self._names: dict = matcher.group_names or {}

    def __repr__(self) -> str:
        return f"Replacement({self.template!r})"

    def line(self, line: Line, crlf: bool, whole: bool = False) -> Line:
        """*line* with each of its matches (its spans) replaced; the spans of the result are
        where the replacements stand."""
        text = line.text
        out: list[bytes] = []
        spans: list[tuple[int, int]] = []
        written = last = 0
        for (start, end), piece in zip(line.spans, self.pieces(line, crlf, whole)):
            out.append(text[last:start])
            written += start - last
            out.append(piece)
            spans.append((written, written + len(piece)))
            written += len(piece)
            last = end
        out.append(text[last:])
        return Line(line.kind, line.number, line.offset, b"".join(out), tuple(spans))

    def pieces(self, line: Line, crlf: bool, whole: bool = False) -> list[bytes]:
        """What each match of *line* (each of its spans) is replaced by. The line's
        terminator ("\\r\\n" under *crlf*) is kept out of the matching, as rg's printer
        keeps it; a multi-line block (*whole*) is matched whole."""
        text = line.text
        cut = len(text)
        if not whole and text.endswith(b"\n"):
            cut -= 2 if crlf and text.endswith(b"\r\n") else 1
        return [self._expand(found) for found in self._groups_at(text[:cut], line.spans)]

    def _expand(self, found: Callable[[int | str], bytes | None]) -> bytes:
        out = []
        for part in self._parts:
            if isinstance(part, bytes):
                out.append(part)
                continue
            index = part if isinstance(part, int) else self._names.get(part)
            value = None if index is None else found(index)
            if value:
                out.append(value)
        return b"".join(out)

    def _groups_at(self, content: bytes, spans) -> list:
        """For each span, a lookup of its match's groups by number (0: the match)."""
        text = to_text(content)
        char_at = _char_index(content, text)
        regex = self._matcher.capture_regex
        lookups = []
        for start, end in spans:
            char = char_at(start)
            m = None if char is None else regex.match(text, char)
            if m is None or len(to_bytes(m.group())) != end - start:
                # An empty match between the bytes of a character (`rg -r '[$0]' 'x*'` on
                # "é"), which no character position holds: no group took part but the
                # match itself.
                whole = content[start:end]
                lookups.append(lambda index, whole=whole: whole if index == 0 else None)
                continue
            lookups.append(lambda index, m=m: _group(m, index))
        return lookups


def _group(m, index: int) -> bytes | None:
    if index == 0:
        return to_bytes(m.group())
    try:
        value = m.group("g%d" % index)
    except IndexError:  # a number rg has no group for
        return None
    return None if value is None else to_bytes(value)


def _char_index(content: bytes, text: str) -> Callable[[int], int | None]:
    """Byte offset in *content* -> index of the character of *text* that starts there (or
    its length, at the end); None between the bytes of a character."""
    if text.isascii():
        size = len(content)
        return lambda offset: offset if 0 <= offset <= size else None
    starts = {}
    at = 0
    for index, char in enumerate(text):
        starts[at] = index
        at += len(to_bytes(char))
    starts[at] = len(text)
    return starts.get
