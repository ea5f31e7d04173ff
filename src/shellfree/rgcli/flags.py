"""Parse ``rg`` command-line arguments into :class:`RgArgs`, with rg 15.1's error texts.

This is rg's "low args" layer: it records what was typed, with rg's last-flag-wins rules, and
validates only syntax. Turning the result into walker and matcher options is ``run.py``'s job.
Only the flags shellfree implements are known; any other is "unrecognized", as in rg.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Callable

__all__ = ["RgArgs", "UsageError", "parse_args"]


class UsageError(ValueError):
    """A command line rg would refuse; ``str`` is the message after ``rg: `` (exit 2)."""


@dataclass
class RgArgs:
    """The command line as typed, after rg's override rules (later flags win)."""

    positional: list[bytes] = field(default_factory=list)
    patterns: list[str] = field(default_factory=list)  # from -e
    pattern_files: list[bytes] = field(default_factory=list)  # from -f
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
    ignore_files: list[bytes] = field(default_factory=list)
    ignore_file_case_insensitive: bool = False
    unrestricted: int = 0  # how many times -u was given
    globs: list[tuple[str, bool]] = field(default_factory=list)  # (glob, --iglob)
    glob_case_insensitive: bool = False
    sort: str | None = None  # "path", "modified", "accessed", "created"
    sort_reverse: bool = False
    threads: int | None = None
    null: bool = False
    quiet: bool = False
    no_messages: bool = False
    path_separator: bytes | None = None
    version: bool = False
    help: bool = False


_SORT_CHOICES = ("path", "modified", "accessed", "created", "none")


def _number(flag: str, value: str) -> int:
    try:
        number = int(value, 10)
        if number < 0 or not value.isdigit():
            raise ValueError
    except ValueError:
        reason = "cannot parse integer from empty string" if value == "" else "invalid digit found in string"
        raise UsageError(f"error parsing flag {flag}: value is not a valid number: {reason}") from None
    return number


def _text(value: bytes) -> str:
    return os.fsdecode(value)


def _set_no_ignore(a: RgArgs, on: bool) -> None:
    # rg: --no-ignore implies the five --no-ignore-* flags below (not --no-ignore-files).
    a.no_ignore_dot = a.no_ignore_vcs = a.no_ignore_exclude = on
    a.no_ignore_global = a.no_ignore_parent = on


def _unrestricted(a: RgArgs) -> None:
    # -u: --no-ignore; -uu: and --hidden; -uuu: and --binary (recorded when search lands).
    a.unrestricted += 1
    if a.unrestricted >= 1:
        _set_no_ignore(a, True)
    if a.unrestricted >= 2:
        a.hidden = True


def _sort(a: RgArgs, flag: str, value: str, reverse: bool) -> None:
    if value not in _SORT_CHOICES:
        raise UsageError(f"error parsing flag {flag}: choice '{value}' is unrecognized")
    a.sort = None if value == "none" else value
    a.sort_reverse = reverse


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
    "-u": _unrestricted,
    "--unrestricted": _unrestricted,
    "--sort-files": lambda a: _sort(a, "--sort-files", "path", False),
    "--no-sort-files": lambda a: _sort(a, "--no-sort-files", "none", False),
    "--null": lambda a: setattr(a, "null", True),
    "-0": lambda a: setattr(a, "null", True),
    "--quiet": lambda a: setattr(a, "quiet", True),
    "-q": lambda a: setattr(a, "quiet", True),
    "--no-messages": lambda a: setattr(a, "no_messages", True),
    "--messages": lambda a: setattr(a, "no_messages", False),
    "--no-config": lambda a: None,  # shellfree never reads an rg config file
    "--version": lambda a: setattr(a, "version", True),
    "-V": lambda a: setattr(a, "version", True),
    "--help": lambda a: setattr(a, "help", True),
    "-h": lambda a: setattr(a, "help", True),
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
    "--threads": lambda a, f, v: setattr(a, "threads", _number(f, _text(v))),
    "-j": lambda a, f, v: setattr(a, "threads", _number(f, _text(v))),
    "--regexp": lambda a, f, v: a.patterns.append(_text(v)),
    "-e": lambda a, f, v: a.patterns.append(_text(v)),
    "--file": lambda a, f, v: a.pattern_files.append(v),
    "-f": lambda a, f, v: a.pattern_files.append(v),
    "--path-separator": lambda a, f, v: setattr(a, "path_separator", v),
}

# The canonical long name of each short flag, for rg's error messages.
_LONG_OF_SHORT = {"-d": "--max-depth", "-j": "-j"}


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
                _VALUES[name](args, name, value)
            else:
                raise UsageError(f"unrecognized flag {name}")
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
                _VALUES[flag](args, _LONG_OF_SHORT.get(flag, flag), value)
                break
            else:
                raise UsageError(f"unrecognized flag {flag}")
    return args
