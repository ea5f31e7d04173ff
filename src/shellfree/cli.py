"""The ``shellfree`` command: each subcommand is glue — parse, call the public API, print.

``shellfree rg ARGS…`` behaves like ripgrep 15.1 for the flags shellfree implements (it parses
its own, rg-compatible arguments). ``shellfree call TOOL [JSON]`` runs one file tool
(``FileTools.call``) and prints its JSON text. ``shellfree mcp`` serves the four tools over the
Model Context Protocol on stdio. ``shellfree bench`` runs the speed and parity benchmarks of a
source checkout and writes a report.
"""

from __future__ import annotations

import errno
import io
import os
import sys
from types import ModuleType

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see shellfree/__init__.py)
if TYPE_CHECKING:
    import argparse

# argparse and pathlib load only for the subcommands that use them: ``shellfree rg`` hands its
# flags to its own parser, and a search's start-up is measured in milliseconds.

__all__ = ["main"]

_DESCRIPTION = """\
The four file tools LLM agents call (read_file, write_file, patch, search_files), in pure
Python with ripgrep 15.1 semantics and no shell."""

_EPILOG = """\
examples:
  shellfree rg -n TODO src/                       ripgrep-compatible search
  shellfree call search_files '{"pattern": "TODO"}'
  echo '{"path": "README.md"}' | shellfree call read_file
  shellfree mcp --root ~/project                   MCP server on stdio
  shellfree bench                                  speed and parity report (source checkout)

Run 'shellfree COMMAND --help' for a command's options ('shellfree rg' takes rg's flags)."""


def console() -> None:
    """The console script and ``python -m shellfree``: run :func:`main` and exit.

    A finished ``rg`` leaves through ``os._exit`` once its output is flushed: tearing the
    interpreter down (every module's and object's cleanup) cost 5-7 ms of a 90 ms search,
    and a search leaves nothing that needs it (its workers are reaped, it writes no files).
    Under a profiler or a tracer (cProfile, coverage), which report at exit, it exits normally.
    """
    argv = sys.argv[1:]
    try:
        status = main(argv)
    except KeyboardInterrupt:
        # Ctrl-C: stop without a traceback, with the status a shell gives a process SIGINT
        # ended (rg dies of the signal).
        status = 130
    if argv[:1] == ["rg"] and sys.getprofile() is None and sys.gettrace() is None:
        for stream in (sys.stdout, sys.stderr):
            try:
                if stream is not None:  # None: closed when the process started
                    stream.flush()
            except (OSError, ValueError):
                pass  # a reader that left (rg exits quietly) or a closed stream
        os._exit(status)
    sys.exit(status)


def main(argv: list[str] | None = None) -> int:
    """The command line *argv* (default: the process's); returns the exit status."""
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "rg":
        # rg's flags are not argparse's (-e, --, -uuu, bytes paths…): hand them over untouched.
        return _rg(argv[1:])
    parser = _parser()
    if not argv:
        parser.print_help(sys.stderr)
        return 2
    options = parser.parse_args(argv)
    return int(options.run(options))


def _parser() -> "argparse.ArgumentParser":
    import argparse
    from pathlib import Path

    from shellfree import __version__

    parser = argparse.ArgumentParser(
        prog="shellfree", description=_DESCRIPTION, epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-V", "--version", action="version", version=f"shellfree {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)

    # Listed for --help only: main() dispatches "rg" before argparse sees it.
    commands.add_parser(
        "rg", help="ripgrep-compatible search in pure Python (piped output byte-identical to "
                   "rg 15.1)")

    call = commands.add_parser(
        "call", help="run one agent file tool and print its JSON result",
        description="Run one file tool with the agent's JSON arguments and print the JSON text "
                    "the agent would receive (UTF-8, one line).",
        epilog="examples:\n  shellfree call search_files '{\"pattern\": \"TODO\", \"limit\": 5}'\n"
               "  echo '{\"path\": \"a.txt\"}' | shellfree call --root /tmp/task read_file",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    call.add_argument("--root", default=None, metavar="DIR",
                      help="the task directory relative paths resolve against (default: the "
                           "current directory)")
    # Any name: an unknown tool, like arguments that are not an object, gets the contract's
    # error as the result, what the agent would receive.
    call.add_argument("tool", help="read_file, write_file, patch or search_files")
    call.add_argument("arguments", nargs="?", default="-", metavar="JSON",
                      help="the tool's arguments as a JSON object; read from stdin (UTF-8) "
                           "when omitted or '-'")
    call.set_defaults(run=_call)

    mcp = commands.add_parser(
        "mcp", help="serve the four tools over the Model Context Protocol (stdio)",
        description="Serve read_file, write_file, patch and search_files to an MCP client over "
                    "stdin/stdout. Needs the MCP SDK: pip install 'shellfree[mcp]'. Each "
                    "connection gets its own task state.",
        epilog="client configuration (e.g. Claude Desktop's mcpServers):\n"
               '  {"command": "shellfree", "args": ["mcp", "--root", "/path/to/project"]}',
        formatter_class=argparse.RawDescriptionHelpFormatter)
    mcp.add_argument("--root", default=None, metavar="DIR",
                     help="the task directory relative paths resolve against (default: the "
                          "current directory)")
    mcp.add_argument("--no-v4a", dest="v4a", action="store_false",
                     help="advertise the replace-only patch schema (no V4A multi-file patches)")
    mcp.add_argument("--watch", action="store_true",
                     help="let the kernel report changes to the tree (Linux inotify) instead of a "
                          "stat of every cached file per search; see README, Performance")
    mcp.add_argument("--search-processes", type=_positive_int, default=None, metavar="N",
                     help="share each search of a tree with N-1 helper processes, started once "
                          "and kept, each caching its share of the files (default: one helper "
                          "once a tree outgrows the content cache, or has 4,000 files or "
                          "more and no working --watch; 1: none); see README, "
                          "Performance")
    mcp.set_defaults(run=_mcp)

    bench = commands.add_parser(
        "bench", help="run the speed and parity benchmarks and write a report (source checkout)",
        description="Run shellfree against the reference rg 15.1.0 (from the dev extra) and "
                    "write a Markdown report and a PNG chart of the ratios to rg. Needs a "
                    "source checkout (the benchmarks/ directory) and, for the chart, "
                    "pip install -e '.[bench]'. Progress goes to stderr.",
        epilog="suites:\n"
               "  speed         `shellfree rg` vs rg (and rg -j1) on the speed corpora\n"
               "  walk          `rg --files` parity on random trees\n"
               "  search-files  search_files parity: in-process engine vs the rg backend\n"
               "  latency       search_files call latency: in-process engine vs the rg backend",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    bench.add_argument("--suites", default="speed,walk,search-files,latency",
                       help="comma-separated suites to run (default: %(default)s)")
    bench.add_argument("--corpus", default="medium",
                       help="speed corpora: comma-separated of medium,large,big,minified, or "
                            "'all' (default: %(default)s)")
    bench.add_argument("--queries", default="rare,common,icase,alt,word,files",
                       help="speed queries (default: %(default)s)")
    bench.add_argument("--rounds", type=int, default=5,
                       help="timed speed rounds per corpus (default: %(default)s)")
    bench.add_argument("--cases", type=int, default=200,
                       help="cases per parity suite (default: %(default)s)")
    bench.add_argument("--seed", type=int, default=1, help="seed of every suite (default: 1)")
    bench.add_argument("--build-corpora", action="store_true",
                       help="build missing speed corpora first (downloads sdists from PyPI)")
    bench.add_argument("--no-chart", dest="chart", action="store_false",
                       help="skip the PNG chart")
    bench.add_argument("--out", type=Path, default=None, metavar="DIR",
                       help="report directory (default: benchmarks/results/bench-DATE-TIME)")
    bench.set_defaults(run=_bench)
    return parser


def _rg(argv: list[str]) -> int:
    from shellfree.rgcli.config import config_args
    from shellfree.rgcli.run import run

    args = _argv_bytes(argv)
    # A standard stream closed when the process started is None (`rg x >&-`): rg's writes to
    # it fail unseen and its status is the search's; a closed stdin reads as empty.
    stderr = sys.stderr.buffer if sys.stderr is not None else _discard()
    stdin = sys.stdin.buffer if sys.stdin is not None else io.BytesIO()
    args = config_args(args, stderr) + args
    out = sys.stdout.buffer if sys.stdout is not None else _discard()
    stdout = _Stdout(_block_buffered(out))
    try:
        status = run(args, stdout, stderr, stdin, may_fork=True)
        stdout.flush()
    except _ReaderLeft:
        # rg stops silently when the reader goes away.
        _silence_stdout()
        return 0
    except _WriteFailed as failed:
        # A full disk, an I/O error: rg names each file whose lines it could not write and
        # exits 2; shellfree, whose output is buffered, says it once and stops.
        from shellfree.search.errors import os_error_text

        _silence_stdout()
        stderr.write(f"rg: {os_error_text(failed.error)}\n".encode("utf-8", "replace"))
        stderr.flush()
        return 2
    return status


def _discard():
    """A binary stream that takes every write and keeps nothing."""
    return open(os.devnull, "wb")


class _WriteFailed(Exception):
    """Writing to stdout failed for another reason than its reader leaving."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


class _ReaderLeft(Exception):
    """The reader of stdout went away."""


class _Stdout:
    """stdout for a search, telling a reader that left (a broken pipe on this stream, see
    :func:`_reader_left`, which ends the search silently, as in rg) from a broken pipe
    anywhere else, which is a bug and must not pass for it: one between forked workers once
    made a search print nothing and exit 0."""

    __slots__ = ("_stream",)

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, data) -> int:
        try:
            return self._stream.write(data)
        except OSError as err:
            if _reader_left(err):
                raise _ReaderLeft from None
            raise _WriteFailed(err) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as err:
            if _reader_left(err):
                raise _ReaderLeft from None
            raise _WriteFailed(err) from None

    def fileno(self) -> int:
        return self._stream.fileno()


def _reader_left(err: OSError) -> bool:
    """Whether *err*, raised by a write to stdout, says that its reader went away: a broken
    pipe, or on Windows EINVAL, which a write to a pipe closed at the other end raises there
    (CPython's subprocess takes it alike, bpo-19612)."""
    return isinstance(err, BrokenPipeError) or (
        sys.platform == "win32" and err.errno == errno.EINVAL)


def _block_buffered(stream):
    """*stream*, or a 64 KiB block buffer over its file descriptor when it is not a terminal.

    rg block-buffers output that is not a terminal. Python does not when PYTHONUNBUFFERED is
    set (its ``sys.stdout.buffer`` is then the raw file): a search printing the lines of
    19,000 files made one write system call per file, 15 % of its time (measured).
    """
    import io

    try:
        fd = stream.fileno()
        if os.isatty(fd):
            return stream
    except (OSError, ValueError, AttributeError):
        return stream
    stream.flush()
    return io.BufferedWriter(io.FileIO(fd, "wb", closefd=False), buffer_size=1 << 16)


def _argv_bytes(argv: list[str]) -> list[bytes]:
    # Arguments arrive decoded with the filesystem encoding and surrogateescape; fsencode gives
    # back the exact bytes, so non-UTF-8 paths survive.
    return [os.fsencode(a) for a in argv]


def _call(options: "argparse.Namespace") -> int:
    import json

    raw = options.arguments
    if raw == "-":
        # JSON is UTF-8: sys.stdin would decode it with the locale's encoding, on Windows the
        # ANSI code page, which garbles every non-ASCII character. A BOM, which some Windows
        # tools write, is dropped.
        data = sys.stdin.buffer.read() if sys.stdin is not None else b""  # None: closed
        try:
            raw = data.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            sys.stderr.write(f"shellfree call: the arguments on standard input are not UTF-8 "
                             f"(byte 0x{data[err.start]:02x} at offset {err.start})\n")
            return 2
    try:
        arguments = json.loads(raw) if raw.strip() else {}
    except json.JSONDecodeError as err:
        sys.stderr.write(f"shellfree call: the arguments are not JSON: {err}\n")
        return 2
    root = _task_root("call", options.root)
    if root is None:
        return 2
    from shellfree import FileTools
    from shellfree.engine.envelope import wire_text

    result = FileTools(root=root).call(options.tool, arguments)
    if sys.stdout is None:
        return 0
    # UTF-8 whatever the locale: the text is JSON with non-ASCII kept (ensure_ascii=False); a
    # file name that is not UTF-8 is written as the JSON escapes of its bytes (wire_text).
    try:
        sys.stdout.buffer.write((wire_text(result) + "\n").encode("utf-8"))
        sys.stdout.flush()
    except OSError as err:
        if not _reader_left(err):
            from shellfree.search.errors import os_error_text

            sys.stderr.write(f"shellfree call: cannot write the result: {os_error_text(err)}\n")
            return 2
    return 0


def _task_root(command: str, given: str | None) -> str | None:
    """The task directory of ``shellfree call``/``mcp``: *given* (``--root``) or the current
    directory, which must be an existing directory; None, with the reason on stderr, if not."""
    if given is None:
        try:
            return os.getcwd()
        except OSError:
            sys.stderr.write(f"shellfree {command}: the current directory no longer exists; "
                             "pass --root\n")
            return None
    if not os.path.isdir(given):
        sys.stderr.write(f"shellfree {command}: --root {given!r} is not a directory\n")
        return None
    return given


def _positive_int(text: str) -> int:
    import argparse

    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {text!r}")
    return value


def _mcp(options: "argparse.Namespace") -> int:
    from shellfree.mcp_server import MCPUnavailableError, serve_stdio

    root = _task_root("mcp", options.root)
    if root is None:
        return 2
    try:
        serve_stdio(root, v4a=options.v4a, watch=options.watch,
                    search_processes=options.search_processes)
    except MCPUnavailableError as err:
        sys.stderr.write(f"shellfree mcp: {err}\n")
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


def _bench(options: "argparse.Namespace") -> int:
    report = _benchmarks_report()
    if report is None:
        sys.stderr.write(
            "shellfree bench: the benchmarks are not installed with the package; they live in "
            "the benchmarks/ directory of a source checkout. From a checkout run:\n"
            "  pip install -e '.[dev,bench]' && shellfree bench\n")
        return 2
    return int(report.run_bench(
        suites=options.suites, corpus=options.corpus, queries=options.queries,
        rounds=options.rounds, cases=options.cases, seed=options.seed,
        build_corpora=options.build_corpora, chart=options.chart, out=options.out))


def _benchmarks_report() -> ModuleType | None:
    """``benchmarks.report`` from the checkout this package was installed from (editable
    install) or the one the working directory is in; None outside a checkout."""
    import importlib
    from pathlib import Path

    import shellfree

    here = Path(shellfree.__file__).resolve().parents[2]  # <checkout>/src/shellfree/__init__.py
    cwd = Path.cwd().resolve()
    for root in (here, cwd, *cwd.parents):
        if (root / "benchmarks" / "report" / "__init__.py").is_file():
            if str(root) not in sys.path:
                sys.path.insert(0, str(root))
            return importlib.import_module("benchmarks.report")
    return None


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
