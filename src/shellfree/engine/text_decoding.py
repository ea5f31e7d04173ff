"""Turn the bytes rg prints (paths and line contents) into the text an agent receives.

rg prints lines as they are in the file, after transcoding UTF-16 files that start with a BOM
to UTF-8 (rg-semantics §2.2). A line that is valid UTF-8 is decoded as such. A line that is not
is decoded with the encoding detected for its whole file (a legacy code page such as
Windows-1252 or Shift-JIS), or the one the task already knows that version of the file to be in
(read_file showed it, or write_file/patch wrote it, in that code page), so valid text never
reaches the agent as U+FFFD and a line reads as read_file shows it; only bytes that no
detected encoding explains are replaced.
"""

from __future__ import annotations

import os

from shellfree.engine.read_tracking import CodePageLookup, stat_key

__all__ = ["LineDecoder", "detect_legacy_encoding"]

DETECTION_BYTES = 1 << 20
"""How much of a file the encoding detector looks at."""


WESTERN_DEFAULT = "cp1252"
"""The legacy code page preferred whenever it fits: Windows-1252 (a superset of Latin-1 for
printable text) is by far the most common non-UTF-8 encoding of source files."""


_WIDE_ENCODINGS = ("utf_16", "utf_32")


def detect_legacy_encoding(data: bytes) -> str | None:
    """The most likely encoding of *data* when it is not UTF-8, or None if nothing fits.

    EDGE CASE: on short Western text the detector ranks look-alike code pages first (French
    as cp1257, ``café`` as cp1006), so Windows-1252 wins whenever it is among the plausible
    candidates, or when the best single-byte guess has no language evidence at all; multi-byte
    guesses (Shift-JIS, GB18030, …) and guesses backed by a language keep their rank.
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
    if best is None or best.encoding in ("utf_8", "ascii"):
        return None
    if best.coherence == 0 and not is_multi_byte_encoding(best.encoding) and _fits(
            data, WESTERN_DEFAULT):
        return WESTERN_DEFAULT
    return best.encoding


def _fits(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True


class LineDecoder:
    """Decodes rg output for one search; caches the detected encoding per file.

    *cwd* is the directory rg ran in, against which the printed (relative) paths are opened;
    *known* tells the code page the task knows a file to be in.
    """

    def __init__(self, cwd: str, known: CodePageLookup = lambda path: None) -> None:
        self._cwd = cwd
        self._known = known
        self._encodings: dict[bytes, str | None] = {}

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
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            pass
        encoding = self._encoding(path)
        if encoding is not None:
            try:
                return raw.decode(encoding)
            except (UnicodeDecodeError, LookupError):
                pass
        return raw.decode("utf-8", "replace")

    def _encoding(self, path: bytes) -> str | None:
        if path not in self._encodings:
            self._encodings[path] = self._detect(self.fs_path(path))
        return self._encodings[path]

    def _detect(self, fs_path: str) -> str | None:
        known = self._known(fs_path)
        try:
            with open(fs_path, "rb") as handle:
                if known is not None:
                    code_page = known.at(stat_key(os.fstat(handle.fileno())))
                    if code_page is not None:
                        return code_page
                data = handle.read(DETECTION_BYTES)
        except OSError:
            return None
        return detect_legacy_encoding(data) if data else None
