"""rg's configuration file: the arguments ``shellfree rg`` reads from ``RIPGREP_CONFIG_PATH``.

rg prepends the file's arguments to its command line, one per line, unless the command line
says ``--no-config``: a line is trimmed of white space, and an empty one or one starting with
``#`` is skipped. A file it cannot read gets a message and is left out; the search goes on.
Only the command line reads it: a library caller's search (``run``, ``FileTools``) never
depends on the environment's rg configuration, as the ``rg`` backend removes the variable
from the environment it gives rg.
"""

from __future__ import annotations

import errno
import os

from shellfree.rgcli.flags import UsageError, parse_args
from shellfree.search.errors import os_error_text

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see shellfree/__init__.py)
if TYPE_CHECKING:
    from typing import BinaryIO

__all__ = ["config_args"]

VARIABLE = "RIPGREP_CONFIG_PATH"


def config_args(argv: list[bytes], stderr: BinaryIO) -> list[bytes]:
    """The arguments of the file ``RIPGREP_CONFIG_PATH`` names, to go before *argv*; none when
    it is unset or empty, when *argv* holds ``--no-config``, or when *argv* alone is refused
    (rg reports that error before it reads the file)."""
    path = os.environb.get(VARIABLE.encode()) if os.name != "nt" else _windows_path()
    if not path:
        return []
    try:
        if parse_args(argv).no_config:
            return []
    except UsageError:
        return []
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as err:
        # A file rg cannot open is named; a directory, which rg opens and fails to read, not.
        _message(stderr, os_error_text(err) if err.errno == errno.EISDIR
                 else f"{os.fsdecode(path)}: {os_error_text(err)}")
        return []
    return [line for line in (_trim(raw) for raw in data.split(b"\n"))
            if line and not line.startswith(b"#")]


# Rust's char::is_whitespace (Unicode White_Space), which rg's trim of a line uses; Python's
# str.strip() would also take U+001C..U+001F.
_WHITE_SPACE = ("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
                "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


def _trim(line: bytes) -> bytes:
    text = line.decode("utf-8", "surrogateescape").strip(_WHITE_SPACE)
    return text.encode("utf-8", "surrogateescape")


def _windows_path() -> bytes | None:
    value = os.environ.get(VARIABLE)
    return os.fsencode(value) if value else None


def _message(stderr: BinaryIO, reason: str) -> None:
    from shellfree.rgcli.run import message_bytes

    stderr.write(b"rg: failed to read the file specified in RIPGREP_CONFIG_PATH: "
                 + message_bytes(reason) + b"\n")
