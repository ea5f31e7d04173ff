"""How a file's bytes use a legacy code page, and the text an agent receives from rg's output.

:func:`code_page_form` is the one answer all four tools use: from the first 64 KiB of a file,
the legacy code page (Windows-1252, Shift-JIS, …) charset-normalizer names for its lines that
are not UTF-8, and whether the whole file is in it or only those stray lines, so a line reads,
matches and is stored the same way in read_file, patch, write_file and search_files.

:class:`LineDecoder` turns rg's printed paths and lines into text. rg prints lines as they are
in the file, after transcoding UTF-16 files that start with a BOM to UTF-8 (rg-semantics
§2.2); a line is decoded as read_file would show it — in the file's code page if it is the
whole file's, else as UTF-8 when it is valid UTF-8 and in the code page when not — so valid
text never reaches the agent as U+FFFD; only bytes that no code page explains are replaced.
"""

from __future__ import annotations

import codecs
import os
import re
from typing import NamedTuple

from shellfree.engine.read_tracking import CodePageLookup, stat_key
from shellfree.engine.regular_file import open_regular

__all__ = [
    "CODE_PAGE_WINDOW",
    "CodePage",
    "LineDecoder",
    "code_page_form",
    "detect_legacy_encoding",
    "legacy_code_page",
    "stray_lines",
]

DETECTION_BYTES = 1 << 20
"""How much of a file the encoding detector looks at."""

CODE_PAGE_WINDOW = 64 << 10
"""The start of a file whose stray lines name its code page first: read_file reads this much to
classify a file, and patch and search ask the same bytes, so the three agree."""


WESTERN_DEFAULT = "cp1252"
"""The legacy code page preferred whenever it fits: Windows-1252 (a superset of Latin-1 for
printable text) is by far the most common non-UTF-8 encoding of source files."""


_WIDE_ENCODINGS = ("utf_16", "utf_32")


def detect_legacy_encoding(data: bytes) -> str | None:
    """The most likely encoding of *data* when it is not UTF-8, or None if nothing fits.

    EDGE CASE: on short Western text the detector ranks look-alike code pages first (French
    as cp1257, ``café`` as cp1006, ``Übergröße`` as Big5), so Windows-1252 wins whenever it is
    among the plausible candidates, when the best single-byte guess has no language evidence
    at all, and when a multi-byte guess (Shift-JIS, Big5, …) reads as Western words in it
    (see :func:`_western_words`); other guesses keep their rank.
    """
    # Heavy import; only files with non-UTF-8 matched lines get here.
    from charset_normalizer import from_bytes
    from charset_normalizer.utils import is_multi_byte_encoding

    # EDGE CASE: UTF-16/32 are never the answer here: such files are transcoded by their BOM
    # before any line is seen, and on a few bytes (``caf\xe9``) the detector ranks them first.
    candidates = [match for match in from_bytes(data[:DETECTION_BYTES])
                  if not match.encoding.startswith(_WIDE_ENCODINGS)]
    names = [match.encoding for match in candidates]
    if WESTERN_DEFAULT in names:
        return WESTERN_DEFAULT
    best = candidates[0] if candidates else None  # the detector ranks its matches best first
    if best is None:
        # EDGE CASE: on short text full of symbols the detector finds too much "chaos" and
        # names nothing ("Größe: 5 €, …\nKK€Ö.0€"). Bytes that Windows-1252 decodes to
        # printable text are taken as it: binary hardly ever is (five byte values are
        # undefined in it, and control characters are common in binary).
        return WESTERN_DEFAULT if _printable_western(data) else None
    if best.encoding in ("utf_8", "ascii"):
        return None
    if best.coherence == 0 and not is_multi_byte_encoding(best.encoding) and _fits(
            data, WESTERN_DEFAULT):
        return WESTERN_DEFAULT
    if is_multi_byte_encoding(best.encoding) and _western_words(data):
        return WESTERN_DEFAULT
    return best.encoding


def stray_lines(data: bytes, cut: bool) -> list[bytes]:
    """The lines of *data* (without their ``\\n``) that are not valid UTF-8. *cut* says *data*
    is the start of a longer file, whose last line may end inside a character: it is stray
    only for bytes that are not UTF-8 before the cut."""
    if _fits(data, "utf-8") or (cut and _utf8_prefix(data)):
        return []
    lines = data.split(b"\n")
    last = lines.pop()
    stray = [line for line in lines if not line.isascii() and not _fits(line, "utf-8")]
    if not last.isascii() and not (_utf8_prefix(last) if cut else _fits(last, "utf-8")):
        stray.append(last)
    return stray


def legacy_code_page(data: bytes) -> str | None:
    """The legacy code page of a file whose start (:data:`DETECTION_BYTES` at most) is *data*,
    or None if none fits: charset-normalizer's guess from the stray lines (see
    :func:`stray_lines`) of its first :data:`CODE_PAGE_WINDOW`, else of all of *data*.

    EDGE CASE: the stray lines alone, not the whole start: in a UTF-8 file with one Latin-1
    line, the detector reads the UTF-8 lines' bytes as a single-byte code page too and names
    cp1250, which turns the Latin-1 line's ``è`` into ``č``.
    """
    window = data[:CODE_PAGE_WINDOW]
    return _guess(stray_lines(window, len(window) >= CODE_PAGE_WINDOW)
                  or stray_lines(data, len(data) >= DETECTION_BYTES))


def _guess(lines: list[bytes]) -> str | None:
    return detect_legacy_encoding(b"".join(line + b"\n" for line in lines)) if lines else None


class CodePage(NamedTuple):
    """The legacy code page of a file (*name*, None: UTF-8 as far as anyone can tell), and
    whether *whole* file is in it (every line decoded in it, new text stored in it) or only its
    stray lines, in a file that is otherwise UTF-8."""

    name: str | None
    whole: bool


def code_page_form(window: bytes, known: CodePage | None = None) -> CodePage:
    """How a file whose first :data:`CODE_PAGE_WINDOW` bytes are *window* uses a legacy code
    page: read_file, patch, write_file and search_files all ask this of the same bytes, so a
    line reads the same in each. *known* is the code page the task knows the file to be in at
    its current version (how the task was shown or wrote those bytes): it is the answer.

    Whole when the stray lines (:func:`stray_lines`) outnumber the non-ASCII lines that are
    UTF-8: a cp1252 line whose bytes happen to be valid UTF-8 (``ß€`` is ``DF 80``) is then
    cp1252 like the rest. Stray lines only when they do not: a UTF-8 file with one Latin-1
    line keeps its UTF-8 lines.
    """
    if known is not None:
        return known
    stray = stray_lines(window, len(window) >= CODE_PAGE_WINDOW)
    name = _guess(stray)  # as legacy_code_page(window) names it
    if name is None:
        return CodePage(None, False)
    if window.startswith(codecs.BOM_UTF8):
        return CodePage(name, False)  # the mark says UTF-8: only stray lines are not
    non_ascii = sum(1 for line in window.split(b"\n") if not line.isascii())
    return CodePage(name, len(stray) > non_ascii - len(stray))


def _utf8_prefix(data: bytes) -> bool:
    """Whether *data* is valid UTF-8 but for a character cut at its end."""
    try:
        codecs.getincrementaldecoder("utf-8")().decode(data, final=False)
    except UnicodeDecodeError:
        return False
    return True


_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f]+")


def _western_words(data: bytes) -> bool:
    """Whether *data* reads in Windows-1252 as Western words: each run of non-ASCII characters
    is one or two letters touching an ASCII letter (``Übergröße``, ``Fußgänger``). A CJK text
    read so gives runs of four or more (two bytes a character), or symbols (``“ú`` for 日)."""
    try:
        text = data.decode(WESTERN_DEFAULT)
    except UnicodeDecodeError:
        return False
    runs = list(_NON_ASCII_RUN.finditer(text))
    return bool(runs) and all(
        len(run.group()) <= 2 and run.group().isalpha()
        and (text[run.start() - 1: run.start()].isalpha()
             or text[run.end(): run.end() + 1].isalpha())
        for run in runs)


_CONTROLS = bytes(range(32)).translate(None, b"\t\n\r\x0c") + b"\x7f"


def _printable_western(data: bytes) -> bool:
    return _fits(data, WESTERN_DEFAULT) and data.translate(None, _CONTROLS) == data


def _fits(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True


class LineDecoder:
    """Decodes rg output for one search; learns, per file with a non-ASCII line on the page,
    how it uses a legacy code page, as read_file would.

    *cwd* is the directory rg ran in, against which the printed (relative) paths are opened;
    *known* tells how the task knows a file to use a code page.
    """

    def __init__(self, cwd: str, known: CodePageLookup = lambda path: None) -> None:
        self._cwd = cwd
        self._known = known
        self._forms: dict[bytes, CodePage] = {}

    @staticmethod
    def path(raw: bytes) -> str:
        """A printed path as text. EDGE CASE: a name that is not UTF-8 shows U+FFFD, because
        JSON text cannot carry the raw bytes; :meth:`fs_path` keeps them for file access."""
        return raw.decode("utf-8", "replace")

    def fs_path(self, raw: bytes) -> str:
        """The absolute filesystem path (surrogate-escaped str) of a printed path."""
        path = os.fsdecode(raw)
        return os.path.normpath(path if os.path.isabs(path) else os.path.join(self._cwd, path))

    def content(self, raw: bytes, path: bytes) -> str:
        """A printed line from the file rg printed as *path*."""
        if raw.isascii():
            return raw.decode("ascii")
        form = self._form(path)
        if not form.whole:
            try:
                return raw.decode("utf-8")
            except UnicodeDecodeError:
                pass
            if form.name is None:
                form = self._stray_form(path)
        if form.name is not None:
            try:
                return raw.decode(form.name)
            except (UnicodeDecodeError, LookupError):
                pass
        return raw.decode("utf-8", "replace")

    def _form(self, path: bytes) -> CodePage:
        form = self._forms.get(path)
        if form is None:
            form = self._forms[path] = self._read_form(self.fs_path(path), CODE_PAGE_WINDOW)
        return form

    def _stray_form(self, path: bytes) -> CodePage:
        """A line is not UTF-8 though the file's first window has no such line: its code page
        is the one of the first megabyte's stray lines, as patch finds it."""
        form = self._forms[path] = self._read_form(self.fs_path(path), DETECTION_BYTES)
        return form

    def _read_form(self, fs_path: str, size: int) -> CodePage:
        known = self._known(fs_path)
        try:
            with open_regular(fs_path) as handle:
                if known is not None:
                    form = known.at(stat_key(os.fstat(handle.fileno())))
                    if form is not None:
                        return form
                data = handle.read(size)
        except (OSError, ValueError):  # ValueError: a NUL in a path no rg would print
            return CodePage(None, False)
        if size <= CODE_PAGE_WINDOW:
            return code_page_form(data)
        return CodePage(legacy_code_page(data), False)
