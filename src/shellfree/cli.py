"""The ``shellfree`` command: subcommands are glue over the library's public API.

``shellfree rg ARGS…`` behaves like ripgrep 15.1 for the flags shellfree implements.
``shellfree call TOOL [JSON]`` runs one file tool (``FileTools.call``) and prints its JSON text.
"""

from __future__ import annotations

import os
import sys

__all__ = ["main"]

_USAGE = """\
usage: shellfree rg [RG FLAGS] [PATTERN] [PATH ...]
       shellfree call [--root DIR] TOOL [JSON | -]
       shellfree --version

Subcommands:
  rg      ripgrep-compatible search in pure Python (piped output byte-identical to rg 15.1)
  call    run one agent file tool, e.g. call search_files '{"pattern": "TODO"}'; the JSON
          arguments come from stdin when omitted or "-"; --root is the task directory
          (default: the current directory)
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
    if command == "call":
        return _call(rest)
    sys.stderr.write(f"shellfree: unknown command {command!r}\n\n{_USAGE}")
    return 2


def _call(argv: list[str]) -> int:
    import argparse
    import json

    parser = argparse.ArgumentParser(prog="shellfree call")
    parser.add_argument("--root", default=None, help="task directory (default: cwd)")
    parser.add_argument("tool")
    parser.add_argument("arguments", nargs="?", default="-")
    options = parser.parse_args(argv)
    raw = sys.stdin.read() if options.arguments == "-" else options.arguments
    try:
        arguments = json.loads(raw) if raw.strip() else {}
    except json.JSONDecodeError as err:
        sys.stderr.write(f"shellfree call: the arguments are not JSON: {err}\n")
        return 2
    from shellfree import FileTools

    tools = FileTools(root=options.root if options.root is not None else os.getcwd())
    # UTF-8 whatever the locale: the text is JSON with non-ASCII kept (ensure_ascii=False).
    sys.stdout.buffer.write((tools.call(options.tool, arguments) + "\n").encode("utf-8", "replace"))
    return 0


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
