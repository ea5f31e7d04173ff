"""Parse a V4A patch (``*** Begin Patch`` … ``*** End Patch``) into operations (§4.5 "Grammar").

:func:`parse_v4a` returns the :class:`V4AOperation` list, or raises :class:`V4AParseError`
whose ``str()`` is Hermes' ``Parse error: …`` text; each error names the patch line it was found
on (shellfree's addition). :func:`header_paths` is the tool layer's lenient header scan (§4.2
step 1), used for the guards before the patch is parsed.

EDGE CASE, a deliberate change: a hunk header with no closing ``@@`` (``@@ def f():``, the form
of OpenAI's V4A patches) has the rest of its line as its hint. Hermes' ``@@\\s*(.+?)\\s*@@``
finds no hint there, so an addition-only hunk under it was appended at the end of the file
instead of after ``def f():``. With a closing ``@@`` the hint is what lies between the first two,
as in Hermes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shellfree.engine import messages

__all__ = [
    "Hunk",
    "HunkLine",
    "V4AOperation",
    "V4AParseError",
    "header_paths",
    "parse_v4a",
]

_BEGIN = re.compile(r"^\*\*\*\s*Begin\s+Patch\s*$")
_END = re.compile(r"^\*\*\*\s*End\s+Patch\s*$")
_FILE_OP = re.compile(r"^\*\*\*\s*(Update|Add|Delete)\s+File:\s*(.*)$")
_MOVE_OP = re.compile(r"^\*\*\*\s*Move\s+File:\s*(.*)$")
_MOVE_TO = re.compile(r"^\*\*\*\s*Move\s+to:\s*(.*)$")
_END_OF_FILE = re.compile(r"^\*\*\*\s*End\s+of\s+File\s*$")

_HEADER_SCAN = re.compile(r"^\*\*\*\s*(Update|Add|Delete)\s+File:\s*(.+)$", re.MULTILINE)
_MOVE_SCAN = re.compile(r"^\*\*\*\s*Move\s+File:\s*(.+?)\s*->\s*(.+)$", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class HunkLine:
    """One body line: *kind* ``" "`` (context), ``"-"`` (removed) or ``"+"`` (added)."""

    kind: str
    text: str


@dataclass(frozen=True, slots=True)
class Hunk:
    """An ``@@ hint @@`` block (*hint* None for a bare ``@@`` or none at all)."""

    hint: str | None
    lines: tuple[HunkLine, ...]

    @property
    def search(self) -> str:
        """Context and removed lines: the text to find."""
        return "\n".join(line.text for line in self.lines if line.kind != "+")

    @property
    def replace(self) -> str:
        """Context and added lines: the text to put there."""
        return "\n".join(line.text for line in self.lines if line.kind != "-")

    @property
    def changes(self) -> bool:
        """Whether the hunk adds or removes anything."""
        return any(line.kind != " " for line in self.lines)

    @property
    def addition_only(self) -> bool:
        """Only ``+`` lines: inserted after the hint's line, or at the end of the file."""
        return bool(self.lines) and all(line.kind == "+" for line in self.lines)


@dataclass(frozen=True, slots=True)
class V4AOperation:
    """One operation: *kind* ``"update"``, ``"add"``, ``"delete"`` or ``"move"``; *path*; *dest*
    for a move; *hunks* (an Add has one, holding its ``+`` lines); *line*, where it starts."""

    kind: str
    path: str
    dest: str | None = None
    hunks: tuple[Hunk, ...] = ()
    line: int = 0


class V4AParseError(ValueError):
    """The patch text is malformed; ``str()`` is ``Parse error: …`` (errors joined by ``; ``)."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__(messages.V4A_PARSE_ERROR.format(errors="; ".join(errors)))
        self.errors = errors


def header_paths(patch_text: str) -> list[tuple[str, str]]:
    """``(kind, path)`` for every header, both ends of a Move, found with Hermes' lenient
    multiline patterns (kind: Update, Add, Delete, Move)."""
    found = [(m.group(1), m.group(2).strip()) for m in _HEADER_SCAN.finditer(patch_text)]
    for m in _MOVE_SCAN.finditer(patch_text):
        found += [("Move", m.group(1).strip()), ("Move", m.group(2).strip())]
    return found


class _Builder:
    """Collects operations line by line."""

    def __init__(self) -> None:
        self.operations: list[V4AOperation] = []
        self.errors: list[str] = []
        self.kind: str | None = None
        self.path = ""
        self.dest: str | None = None
        self.start = 0
        self.hunks: list[Hunk] = []
        self.hint: str | None = None
        self.lines: list[HunkLine] = []
        self.in_hunk = False

    def error(self, text: str, line: int) -> None:
        self.errors.append(text + messages.V4A_AT_LINE.format(line=line))

    def open(self, kind: str, path: str, dest: str | None, line: int) -> None:
        self.close()
        self.kind, self.path, self.dest, self.start = kind, path, dest, line
        self.hunks, self.hint, self.lines, self.in_hunk = [], None, [], False

    def start_hunk(self, hint: str | None) -> None:
        self.end_hunk()
        self.hint, self.in_hunk = hint, True

    def end_hunk(self) -> None:
        if self.lines:
            self.hunks.append(Hunk(self.hint, tuple(self.lines)))
        self.hint, self.lines, self.in_hunk = None, [], False

    def close(self) -> None:
        if self.kind is None:
            return
        self.end_hunk()
        if not self.path:
            self.error(messages.V4A_EMPTY_PATH, self.start)
        elif self.kind == "update" and not self.hunks:
            self.error(messages.V4A_NO_HUNKS.format(path=self.path), self.start)
        else:
            self.operations.append(V4AOperation(
                self.kind, self.path, self.dest, tuple(self.hunks), self.start))
        self.kind = None


_CLOSED_HINT = re.compile(r"@@\s*(.+?)\s*@@")


def _hint(line: str) -> str | None:
    closed = _CLOSED_HINT.match(line)
    if closed is not None:
        return closed.group(1).strip() or None
    if "@@" in line[2:]:
        return None  # a closing @@ with nothing between (``@@@@``): Hermes finds no hint
    return line[2:].strip() or None


def parse_v4a(patch_text: str) -> list[V4AOperation]:
    """The operations of *patch_text*; raises :class:`V4AParseError`. An empty patch has none."""
    lines = [line[:-1] if line.endswith("\r") else line for line in patch_text.split("\n")]
    begin = next((i for i, line in enumerate(lines) if _BEGIN.match(line)), None)
    build = _Builder()
    for number, line in enumerate(lines[(begin + 1) if begin is not None else 0:],
                                  start=(begin + 2) if begin is not None else 1):
        if _END.match(line):
            break
        file_op, move_op = _FILE_OP.match(line), _MOVE_OP.match(line)
        if file_op:
            build.open(file_op.group(1).lower(), file_op.group(2).strip(), None, number)
        elif move_op:
            source, arrow, dest = move_op.group(1).partition("->")
            build.open("move", source.strip(), dest.strip() or None, number)
            if not arrow or not dest.strip():
                build.error(messages.V4A_MOVE_NO_DESTINATION.format(path=source.strip()), number)
                build.kind = None  # reported; not an operation
        elif build.kind is None:
            continue  # text outside any operation (commentary) is ignored, as in Hermes
        elif _MOVE_TO.match(line):
            build.error(messages.V4A_MOVE_TO_UNSUPPORTED.format(
                dst=_MOVE_TO.match(line).group(1).strip(), src=build.path), number)
        elif _END_OF_FILE.match(line) or not line or line.startswith("\\"):
            continue
        elif build.kind == "add":
            if line.startswith("+"):
                build.lines.append(HunkLine("+", line[1:]))
        elif build.kind == "update":
            if line.startswith("@@"):
                build.start_hunk(_hint(line))
            elif line[0] in "+- ":
                build.lines.append(HunkLine(line[0], line[1:]))
            else:
                build.lines.append(HunkLine(" ", line))  # implicit context
    build.close()
    if build.errors:
        raise V4AParseError(build.errors)
    return build.operations
