"""The ``shellfree`` command: subcommands are glue over the library's public API.

``shellfree rg ARGS…`` behaves like ripgrep 15.1 for the flags shellfree implements.
"""

from __future__ import annotations

import os
import sys

__all__ = ["main"]

_USAGE = """\
usage: shellfree rg [RG FLAGS] [PATTERN] [PATH ...]
       shellfree --version

Subcommands:
  rg      ripgrep-compatible search in pure Python (piped output byte-identical to rg 15.1)
"""


def _argv_bytes(argv: list[str]) -> list[bytes]:
    # Arguments arrive decoded with the filesystem encoding and surrogateescape; fsencode gives
    # back the exact bytes, so non-UTF-8 paths survive.
    return [os.fsencode(a) for a in argv]


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the process exit status."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        sys.stdout.write(_USAGE)
        return 0 if argv else 2
    if argv[0] in ("-V", "--version"):
        from shellfree import __version__

        sys.stdout.write(f"shellfree {__version__}\n")
        return 0
    command, rest = argv[0], argv[1:]
    if command == "rg":
        from shellfree.rgcli.run import run

        stdout = sys.stdout.buffer
        try:
            status = run(_argv_bytes(rest), stdout, sys.stderr.buffer, sys.stdin.buffer)
            stdout.flush()
        except BrokenPipeError:
            # rg stops silently when the reader goes away.
            _silence_stdout()
            return 0
        return status
    sys.stderr.write(f"shellfree: unknown command {command!r}\n\n{_USAGE}")
    return 2


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
