"""Parse ``rg`` command-line arguments into :class:`RgArgs`, with rg 15.1's error texts.

This is rg's "low args" layer: it records what was typed, with rg's last-flag-wins rules, and
validates only syntax. Turning the result into walker and matcher options is ``run.py``'s job.
Only the flags shellfree implements are known; any other is "unrecognized", as in rg.
"""

from __future__ import annotations

import os

from shellfree._record import Factory, Record
from collections.abc import Callable

__all__ = ["RgArgs", "UsageError", "parse_args", "supported_flags"]


class UsageError(ValueError):
    """A command line rg would refuse; ``str`` is the message after ``rg: `` (exit 2)."""


class RgArgs(Record, mutable=True):
    """The command line as typed, after rg's override rules (later flags win)."""

    positional: list[bytes] = Factory(list)
    no_config: bool = False  # --no-config: RIPGREP_CONFIG_PATH is not read (rgcli/config.py)
    # -e PATTERN and -f FILE in their order on the command line, which is the order of the
    # patterns (the first of two alternatives that match at one place wins): (False, the
    # pattern) or (True, the file's path).
    pattern_sources: list[tuple[bool, str | bytes]] = Factory(list)
    files: bool = False
    hidden: bool = False
    follow: bool = False
    max_depth: int | None = None
    no_ignore_dot: bool = False
    no_ignore_vcs: bool = False
    no_ignore_exclude: bool = False
    no_ignore_global: bool = False
    no_ignore_parent: bool = False
    no_ignore_files: bool = False
    no_require_git: bool = False
    ignore_files: list[bytes] = Factory(list)
    ignore_file_case_insensitive: bool = False
    unrestricted: int = 0  # how many times -u was given
    globs: list[tuple[str, bool]] = Factory(list)  # (glob, --iglob)
    glob_case_insensitive: bool = False
    sort: str | None = None  # "path", "modified", "accessed", "created"
    sort_reverse: bool = False
    threads: int | None = None
    null: bool = False
    quiet: bool = False
    no_messages: bool = False
    no_ignore_messages: bool = False  # --no-ignore-messages: no word on ignore files' problems
    max_filesize: int | None = None  # --max-filesize: walked files larger than this are skipped
    one_file_system: bool = False  # --one-file-system: no directory on another device
    path_separator: bytes | None = None
    # --color: rg colours only a terminal's output under "auto"; shellfree never colours, so
    # "never" and "auto" print what rg prints into a pipe and run.py refuses the other two.
    color: str = "auto"
    version: bool = False
    help: bool = False
    # Matching.
    fixed_strings: bool = False
    case: str = "sensitive"  # -s / -i / -S: the last one wins
    boundary: str | None = None  # "word" (-w) or "line" (-x): the last one wins
    multiline: bool = False
    multiline_dotall: bool = False
    crlf: bool = False
    no_unicode: bool = False
    invert: bool = False
    max_count: int | None = None
    text: bool = False  # -a
    binary: bool = False  # --binary
    mmap: bool | None = None  # --mmap / --no-mmap; None = rg's automatic choice
    # --line-buffered / --block-buffered (the last wins; their negations restore rg's
    # automatic choice, None: lines to a terminal, blocks elsewhere).
    buffering: str | None = None
    # Output.
    mode: str = "standard"  # standard | count | count_matches | files_with_matches |
    #                          files_without_match | json
    only_matching: bool = False
    line_number: bool | None = None  # -n / -N; None = off when piped
    with_filename: bool | None = None  # -H / -I; None = rg's rule
    heading: bool | None = None
    column: bool | None = None  # --column / --no-column; None = on under --vimgrep
    vimgrep: bool = False  # one line per match: path, line, column (see parse_args)
    replace: bytes | None = None  # -r: the template, taken as given (search/replace.py)
    trim: bool = False  # --trim / --no-trim
    byte_offset: bool = False
    before_context: int | None = None
    after_context: int | None = None
    context: int | None = None
    context_separator: bytes | None = b"--"
    field_match_separator: bytes = b":"
    field_context_separator: bytes = b"-"
    max_columns: int | None = None
    max_columns_preview: bool = False
    include_zero: bool = False


_SORT_CHOICES = ("path", "modified", "accessed", "created", "none")
_COLOR_CHOICES = ("never", "auto", "always", "ansi")


def _number(flag: str, value: str) -> int:
    """A count as rg parses it (Rust's ``u64::from_str``): an optional ``+``, then ASCII
    digits only (Python's int() would also take "١" or "1_0"), at most 2**64 - 1."""
    digits = value[1:] if value.startswith("+") else value
    if value == "":
        reason = "cannot parse integer from empty string"
    elif not (digits.isascii() and digits.isdigit()):
        reason = "invalid digit found in string"
    elif int(digits) > _U64_MAX:
        reason = "number too large to fit in target type"
    else:
        return int(digits)
    raise UsageError(f"error parsing flag {flag}: value is not a valid number: {reason}")


_SIZE_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
_U64_MAX = (1 << 64) - 1


def _filesize(flag: str, value: str) -> int:
    """rg's ``NUM[KMG]`` size (a u64, its errors worded as rg words them)."""
    prefix = f"error parsing flag {flag}: invalid size: "
    digits, unit = (value[:-1], value[-1]) if value[-1:] in ("K", "M", "G") else (value, "")
    if not digits or not (digits.isascii() and digits.isdigit()):
        raise UsageError(prefix + f"invalid format for size '{value}', which should be a "
                         "non-empty sequence of digits followed by an optional 'K', 'M' or "
                         "'G' suffix")
    number = int(digits)
    if number > _U64_MAX:
        raise UsageError(prefix + f"invalid integer found in size '{value}': number too large "
                         "to fit in target type")
    size = number * _SIZE_UNITS[unit]
    if size > _U64_MAX:
        raise UsageError(prefix + f"size too big in '{value}'")
    return size


def _text(value: bytes) -> str:
    return os.fsdecode(value)


def _set_no_ignore(a: RgArgs, on: bool) -> None:
    # rg: --no-ignore implies the five --no-ignore-* flags below (not --no-ignore-files).
    a.no_ignore_dot = a.no_ignore_vcs = a.no_ignore_exclude = on
    a.no_ignore_global = a.no_ignore_parent = on


def _unrestricted(a: RgArgs, flag: str) -> None:
    # -u: --no-ignore; -uu: and --hidden; -uuu: and --binary. A fourth is refused, named as
    # the flag that made it was typed.
    if a.unrestricted == 3:
        raise UsageError(f"error parsing flag {flag}: flag can only be repeated up to 3 times")
    a.unrestricted += 1
    if a.unrestricted >= 1:
        _set_no_ignore(a, True)
    if a.unrestricted >= 2:
        a.hidden = True
    if a.unrestricted >= 3:
        _binary_mode(a, binary=True)


def _binary_mode(a: RgArgs, *, text: bool = False, binary: bool = False) -> None:
    # rg keeps one binary mode that -a/--text, --binary, -uuu and their negations all set,
    # the last one winning: `-a --binary` searches walked binary files and suppresses their
    # matches; `--binary --no-text` is the default again.
    a.text, a.binary = text, binary


def _sort(a: RgArgs, flag: str, value: str, reverse: bool) -> None:
    if value not in _SORT_CHOICES:
        raise UsageError(f"error parsing flag {flag}: choice '{value}' is unrecognized")
    a.sort = None if value == "none" else value
    a.sort_reverse = reverse


def _color(a: RgArgs, flag: str, value: str) -> None:
    if value not in _COLOR_CHOICES:
        raise UsageError(f"error parsing flag {flag}: choice '{value}' is unrecognized")
    a.color = value


def _mode(a: RgArgs, mode: str) -> None:
    # rg: output modes override each other, and --files is one of them: the last flag wins
    # (`--files -l PAT` searches; `-l --files` lists, the pattern read as a path).
    a.mode = mode
    a.files = False


def _nonneg(flag: str, value: bytes) -> int:
    return _number(flag, _text(value))


# Switches: name -> setter. Values: name -> (setter taking the value as bytes).
_Switch = Callable[[RgArgs], None]
_Value = Callable[[RgArgs, str, bytes], None]

_SWITCHES: dict[str, _Switch] = {
    "--files": lambda a: setattr(a, "files", True),
    "--hidden": lambda a: setattr(a, "hidden", True),
    "--no-hidden": lambda a: setattr(a, "hidden", False),
    "-.": lambda a: setattr(a, "hidden", True),
    "--follow": lambda a: setattr(a, "follow", True),
    "-L": lambda a: setattr(a, "follow", True),
    "--no-follow": lambda a: setattr(a, "follow", False),
    "--no-ignore": lambda a: _set_no_ignore(a, True),
    "--ignore": lambda a: _set_no_ignore(a, False),
    "--no-ignore-dot": lambda a: setattr(a, "no_ignore_dot", True),
    "--ignore-dot": lambda a: setattr(a, "no_ignore_dot", False),
    "--no-ignore-vcs": lambda a: setattr(a, "no_ignore_vcs", True),
    "--ignore-vcs": lambda a: setattr(a, "no_ignore_vcs", False),
    "--no-ignore-exclude": lambda a: setattr(a, "no_ignore_exclude", True),
    "--ignore-exclude": lambda a: setattr(a, "no_ignore_exclude", False),
    "--no-ignore-global": lambda a: setattr(a, "no_ignore_global", True),
    "--ignore-global": lambda a: setattr(a, "no_ignore_global", False),
    "--no-ignore-parent": lambda a: setattr(a, "no_ignore_parent", True),
    "--ignore-parent": lambda a: setattr(a, "no_ignore_parent", False),
    "--no-ignore-files": lambda a: setattr(a, "no_ignore_files", True),
    "--ignore-files": lambda a: setattr(a, "no_ignore_files", False),
    "--no-require-git": lambda a: setattr(a, "no_require_git", True),
    "--require-git": lambda a: setattr(a, "no_require_git", False),
    "--ignore-file-case-insensitive": lambda a: setattr(a, "ignore_file_case_insensitive", True),
    "--no-ignore-file-case-insensitive": lambda a: setattr(a, "ignore_file_case_insensitive", False),
    "--glob-case-insensitive": lambda a: setattr(a, "glob_case_insensitive", True),
    "--no-glob-case-insensitive": lambda a: setattr(a, "glob_case_insensitive", False),
    "-u": lambda a: _unrestricted(a, "-u"),
    "--unrestricted": lambda a: _unrestricted(a, "--unrestricted"),
    "--sort-files": lambda a: _sort(a, "--sort-files", "path", False),
    "--no-sort-files": lambda a: _sort(a, "--no-sort-files", "none", False),
    "--null": lambda a: setattr(a, "null", True),
    "-0": lambda a: setattr(a, "null", True),
    "--quiet": lambda a: setattr(a, "quiet", True),
    "-q": lambda a: setattr(a, "quiet", True),
    "--no-messages": lambda a: setattr(a, "no_messages", True),
    "--messages": lambda a: setattr(a, "no_messages", False),
    "--no-ignore-messages": lambda a: setattr(a, "no_ignore_messages", True),
    "--ignore-messages": lambda a: setattr(a, "no_ignore_messages", False),
    "--one-file-system": lambda a: setattr(a, "one_file_system", True),
    "--no-one-file-system": lambda a: setattr(a, "one_file_system", False),
    "--no-config": lambda a: setattr(a, "no_config", True),  # see rgcli/config.py
    "--version": lambda a: setattr(a, "version", True),
    "-V": lambda a: setattr(a, "version", True),
    "--help": lambda a: setattr(a, "help", True),
    "-h": lambda a: setattr(a, "help", True),
    "--fixed-strings": lambda a: setattr(a, "fixed_strings", True),
    "-F": lambda a: setattr(a, "fixed_strings", True),
    "--no-fixed-strings": lambda a: setattr(a, "fixed_strings", False),
    "--ignore-case": lambda a: setattr(a, "case", "insensitive"),
    "-i": lambda a: setattr(a, "case", "insensitive"),
    "--case-sensitive": lambda a: setattr(a, "case", "sensitive"),
    "-s": lambda a: setattr(a, "case", "sensitive"),
    "--smart-case": lambda a: setattr(a, "case", "smart"),
    "-S": lambda a: setattr(a, "case", "smart"),
    "--word-regexp": lambda a: setattr(a, "boundary", "word"),
    "-w": lambda a: setattr(a, "boundary", "word"),
    "--line-regexp": lambda a: setattr(a, "boundary", "line"),
    "-x": lambda a: setattr(a, "boundary", "line"),
    "--multiline": lambda a: setattr(a, "multiline", True),
    "-U": lambda a: setattr(a, "multiline", True),
    "--no-multiline": lambda a: setattr(a, "multiline", False),
    "--multiline-dotall": lambda a: setattr(a, "multiline_dotall", True),
    "--no-multiline-dotall": lambda a: setattr(a, "multiline_dotall", False),
    "--crlf": lambda a: setattr(a, "crlf", True),
    "--no-crlf": lambda a: setattr(a, "crlf", False),
    "--no-unicode": lambda a: setattr(a, "no_unicode", True),
    "--unicode": lambda a: setattr(a, "no_unicode", False),
    "--invert-match": lambda a: setattr(a, "invert", True),
    "-v": lambda a: setattr(a, "invert", True),
    "--no-invert-match": lambda a: setattr(a, "invert", False),
    # rg's deprecated spellings of --no-unicode and --unicode.
    "--no-pcre2-unicode": lambda a: setattr(a, "no_unicode", True),
    "--pcre2-unicode": lambda a: setattr(a, "no_unicode", False),
    # The negations of features shellfree does not have (refused as unknown flags): each asks
    # for what shellfree does anyway, so a command line or an alias carrying one still runs.
    "--no-pcre2": lambda a: None,
    "--no-auto-hybrid-regex": lambda a: None,
    "--no-pre": lambda a: None,
    "--no-search-zip": lambda a: None,
    "--no-encoding": lambda a: None,
    "--no-stats": lambda a: None,
    "--text": lambda a: _binary_mode(a, text=True),
    "-a": lambda a: _binary_mode(a, text=True),
    "--no-text": lambda a: _binary_mode(a),
    "--binary": lambda a: _binary_mode(a, binary=True),
    "--no-binary": lambda a: _binary_mode(a),
    "--mmap": lambda a: setattr(a, "mmap", True),
    "--no-mmap": lambda a: setattr(a, "mmap", False),
    "--line-buffered": lambda a: setattr(a, "buffering", "line"),
    "--block-buffered": lambda a: setattr(a, "buffering", "block"),
    "--no-line-buffered": lambda a: setattr(a, "buffering", None),
    "--no-block-buffered": lambda a: setattr(a, "buffering", None),
    "--count": lambda a: _mode(a, "count"),
    "-c": lambda a: _mode(a, "count"),
    "--count-matches": lambda a: _mode(a, "count_matches"),
    "--files-with-matches": lambda a: _mode(a, "files_with_matches"),
    "-l": lambda a: _mode(a, "files_with_matches"),
    "--files-without-match": lambda a: _mode(a, "files_without_match"),
    "--json": lambda a: _mode(a, "json"),
    # rg: --no-json ends a JSON search mode only (after --files, the mode is --files).
    "--no-json": lambda a: setattr(a, "mode", "standard") if a.mode == "json" and not a.files else None,
    "--only-matching": lambda a: setattr(a, "only_matching", True),
    "-o": lambda a: setattr(a, "only_matching", True),
    "--line-number": lambda a: setattr(a, "line_number", True),
    "-n": lambda a: setattr(a, "line_number", True),
    "--no-line-number": lambda a: setattr(a, "line_number", False),
    "-N": lambda a: setattr(a, "line_number", False),
    "--with-filename": lambda a: setattr(a, "with_filename", True),
    "-H": lambda a: setattr(a, "with_filename", True),
    "--no-filename": lambda a: setattr(a, "with_filename", False),
    "-I": lambda a: setattr(a, "with_filename", False),
    "--heading": lambda a: setattr(a, "heading", True),
    "--no-heading": lambda a: setattr(a, "heading", False),
    "--column": lambda a: setattr(a, "column", True),
    "--no-column": lambda a: setattr(a, "column", False),
    "--vimgrep": lambda a: setattr(a, "vimgrep", True),
    "--trim": lambda a: setattr(a, "trim", True),
    "--no-trim": lambda a: setattr(a, "trim", False),
    "--byte-offset": lambda a: setattr(a, "byte_offset", True),
    "-b": lambda a: setattr(a, "byte_offset", True),
    "--no-byte-offset": lambda a: setattr(a, "byte_offset", False),
    "--no-context-separator": lambda a: setattr(a, "context_separator", None),
    "--max-columns-preview": lambda a: setattr(a, "max_columns_preview", True),
    "--no-max-columns-preview": lambda a: setattr(a, "max_columns_preview", False),
    "--include-zero": lambda a: setattr(a, "include_zero", True),
    "--no-include-zero": lambda a: setattr(a, "include_zero", False),
}

_VALUES: dict[str, _Value] = {
    "--max-depth": lambda a, f, v: setattr(a, "max_depth", _number(f, _text(v))),
    "--maxdepth": lambda a, f, v: setattr(a, "max_depth", _number(f, _text(v))),
    "-d": lambda a, f, v: setattr(a, "max_depth", _number(f, _text(v))),
    "--ignore-file": lambda a, f, v: a.ignore_files.append(v),
    "--glob": lambda a, f, v: a.globs.append((_text(v), False)),
    "-g": lambda a, f, v: a.globs.append((_text(v), False)),
    "--iglob": lambda a, f, v: a.globs.append((_text(v), True)),
    "--sort": lambda a, f, v: _sort(a, f, _text(v), False),
    "--sortr": lambda a, f, v: _sort(a, f, _text(v), True),
    "--color": lambda a, f, v: _color(a, f, _text(v)),
    "--threads": lambda a, f, v: setattr(a, "threads", _number(f, _text(v))),
    "--max-filesize": lambda a, f, v: setattr(a, "max_filesize", _filesize(f, _text(v))),
    "-j": lambda a, f, v: setattr(a, "threads", _number(f, _text(v))),
    "--regexp": lambda a, f, v: a.pattern_sources.append((False, _text(v))),
    "-e": lambda a, f, v: a.pattern_sources.append((False, _text(v))),
    "--file": lambda a, f, v: a.pattern_sources.append((True, v)),
    "-f": lambda a, f, v: a.pattern_sources.append((True, v)),
    "--path-separator": lambda a, f, v: setattr(a, "path_separator", _separator(f, v)),
    "--max-count": lambda a, f, v: setattr(a, "max_count", _nonneg(f, v)),
    "-m": lambda a, f, v: setattr(a, "max_count", _nonneg(f, v)),
    "--after-context": lambda a, f, v: setattr(a, "after_context", _nonneg(f, v)),
    "-A": lambda a, f, v: setattr(a, "after_context", _nonneg(f, v)),
    "--before-context": lambda a, f, v: setattr(a, "before_context", _nonneg(f, v)),
    "-B": lambda a, f, v: setattr(a, "before_context", _nonneg(f, v)),
    "--context": lambda a, f, v: setattr(a, "context", _nonneg(f, v)),
    "-C": lambda a, f, v: setattr(a, "context", _nonneg(f, v)),
    "--context-separator": lambda a, f, v: setattr(a, "context_separator", _unescape(v)),
    "--field-match-separator":
        lambda a, f, v: setattr(a, "field_match_separator", _unescape(v)),
    "--field-context-separator":
        lambda a, f, v: setattr(a, "field_context_separator", _unescape(v)),
    "--replace": lambda a, f, v: setattr(a, "replace", v),
    "-r": lambda a, f, v: setattr(a, "replace", v),
    "--max-columns": lambda a, f, v: setattr(a, "max_columns", _nonneg(f, v) or None),
    "-M": lambda a, f, v: setattr(a, "max_columns", _nonneg(f, v) or None),
}


def _unknown(flag: str) -> str:
    """rg's error for the unknown long flag *flag*, with its suggestions of similar ones; an
    rg flag shellfree refuses gets none (rg would not refuse it)."""
    from shellfree.rgcli.flag_names import is_rg_flag, similar_flags

    message = f"unrecognized flag {flag}"
    bare = flag[2:]
    similar = [] if is_rg_flag(bare) else similar_flags(bare)
    if similar:
        message += "\n\nsimilar flags that are available: " + ", ".join(similar)
    return message


_PATH_VALUES = frozenset({"-f", "--file", "--ignore-file"})
_SEPARATOR_VALUES = frozenset({"--context-separator", "--field-match-separator",
                               "--field-context-separator"})


def _set_value(args: RgArgs, flag: str, value: bytes) -> None:
    """Hand *value* to *flag*'s setter; rg refuses a value that is not UTF-8 unless it is a
    path (a pattern or a replacement included), in these words."""
    if flag not in _PATH_VALUES:
        try:
            value.decode("utf-8")
        except UnicodeDecodeError:
            if flag in _SEPARATOR_VALUES:
                raise UsageError(
                    f"error parsing flag {flag}: separator must be valid UTF-8 (use escape "
                    "sequences to provide a separator that is not valid UTF-8)") from None
            raise UsageError(f"error parsing flag {flag}: value is not valid UTF-8") from None
    _VALUES[flag](args, flag, value)


def _separator(flag: str, value: bytes) -> bytes | None:
    value = _unescape(value)
    if not value:
        return None  # rg: an empty separator keeps "/"
    if len(value) != 1:
        raise UsageError(
            f"error parsing flag {flag}: A path separator must be exactly one byte, but the "
            f"given separator is {len(value)} bytes: {os.fsdecode(value)}\n"
            "In some shells on Windows '/' is automatically expanded. Use '//' instead."
        )
    return value


def _unescape(value: bytes) -> bytes:
    # rg unescapes \n, \t, \xNN, \\ in separators.
    out = bytearray()
    i = 0
    while i < len(value):
        c = value[i : i + 1]
        if c == b"\\" and i + 1 < len(value):
            nxt = value[i + 1 : i + 2]
            simple = {b"n": b"\n", b"t": b"\t", b"r": b"\r", b"0": b"\0", b"\\": b"\\"}
            if nxt in simple:
                out += simple[nxt]
                i += 2
                continue
            if nxt == b"x" and i + 3 < len(value) + 0:
                try:
                    out.append(int(value[i + 2 : i + 4], 16))
                    i += 4
                    continue
                except ValueError:
                    pass
        out += c
        i += 1
    return bytes(out)


def parse_args(argv: list[bytes]) -> RgArgs:
    """Parse *argv* (without the program name), as bytes so non-UTF-8 paths survive."""
    args = RgArgs()
    i = 0
    flags_done = False
    while i < len(argv):
        raw = argv[i]
        i += 1
        if flags_done or raw == b"-" or not raw.startswith(b"-"):
            args.positional.append(raw)
            continue
        if raw == b"--":
            flags_done = True
            continue
        arg = _text(raw)
        if arg.startswith("--"):
            name, eq, inline = arg.partition("=")
            if name in _SWITCHES:
                if eq:
                    raise UsageError(
                        f"invalid CLI arguments: unexpected argument for option '{name}': \"{inline}\""
                    )
                _SWITCHES[name](args)
            elif name in _VALUES:
                if eq:
                    value = os.fsencode(inline)
                elif i < len(argv):
                    value = argv[i]
                    i += 1
                else:
                    raise UsageError(
                        f"missing value for flag {name}: missing argument for option '{name}'"
                    )
                _set_value(args, name, value)
            else:
                raise UsageError(_unknown(name))
            continue
        # A cluster of short flags: "-uuL", "-j1", "-gGLOB", "-e" "PATTERN".
        j = 1
        while j < len(arg):
            flag = "-" + arg[j]
            j += 1
            if flag in _SWITCHES:
                _SWITCHES[flag](args)
            elif flag in _VALUES:
                if j < len(arg):
                    rest = arg[j:]
                    value = os.fsencode(rest[1:] if rest.startswith("=") else rest)
                elif i < len(argv):
                    value = argv[i]
                    i += 1
                else:
                    raise UsageError(
                        f"missing value for flag {flag}: missing argument for option '{flag}'"
                    )
                _set_value(args, flag, value)  # rg names the flag as it was typed
                break
            else:
                raise UsageError(f"unrecognized flag {flag}")
    if args.column is None:
        args.column = args.vimgrep
    if args.vimgrep:
        # rg: --vimgrep turns on line numbers, columns and paths unless -N, --no-column or
        # -I say otherwise, wherever they stand, and --heading off in every case.
        args.heading = False
    return args


def supported_flags() -> list[str]:
    """Every flag shellfree's rg accepts, long forms first, for the help text."""
    return sorted(set(_SWITCHES) | set(_VALUES), key=lambda f: (not f.startswith("--"), f))
