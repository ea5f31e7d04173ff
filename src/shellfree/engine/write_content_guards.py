"""The checks on the text an edit would write, run before any byte reaches the disk.

:func:`display_text_error` refuses read_file's own output pasted back as content (§3.3 step 6);
:func:`placeholder_error` refuses text carrying a redaction placeholder, so a masked secret never
overwrites the real one; :func:`lone_surrogate_error` and :func:`syntax_error` are the file-ops
gates of §3.4 steps 3–4 (the JSON/YAML/TOML check is fail-closed: invalid content is never
written).
"""

from __future__ import annotations

import json
import os
import re
from typing import Callable

from shellfree.engine import messages
from shellfree.redaction.masks import PRIVATE_KEY_SENTINEL

__all__ = [
    "SYNTAX_CHECKED_EXTENSIONS",
    "display_text_error",
    "find_placeholder",
    "lone_surrogate_error",
    "placeholder_error",
    "syntax_check",
    "syntax_error",
    "toml_loader",
    "yaml_parser",
]

NUMBERED_RATIO = 0.6
"""Share of non-blank lines shaped ``N|…`` from which content counts as read_file output."""

_NUMBERED = re.compile(r"(\d+)\|")
_PLACEHOLDER = re.compile(r"«redacted[^»\n]{0,100}»|" + re.escape(PRIVATE_KEY_SENTINEL))
# Surrogates outside U+DC80–U+DCFF: those 128 stand for undecodable bytes (surrogateescape) and
# are written back as those bytes; any other cannot be encoded at all.
_LONE_SURROGATE = re.compile("[\ud800-\udc7f\udd00-\udfff]")


def display_text_error(content: str) -> str | None:
    """The refusal when *content* is read_file display text rather than file content."""
    if _is_status_text(content) or _is_numbered_text(content):
        return messages.DISPLAY_TEXT_WRITE
    return None


def _is_status_text(content: str) -> bool:
    stripped = content.strip()
    stub = messages.READ_UNCHANGED
    return stub in stripped and len(stripped) <= 2 * len(stub)


def _is_numbered_text(content: str) -> bool:
    lines = [line.lstrip() for line in content.splitlines() if line.strip()]
    if len(lines) < 2:
        return False
    numbers = [int(m.group(1)) for m in map(_NUMBERED.match, lines) if m is not None]
    if len(numbers) < 2 or len(numbers) / len(lines) < NUMBERED_RATIO:
        return False
    consecutive = sum(1 for a, b in zip(numbers, numbers[1:]) if b == a + 1)
    return consecutive >= len(numbers) - 1


def find_placeholder(text: str) -> str | None:
    """The first redaction placeholder (``«redacted:sk-…»``, ``«redacted-secret»``,
    ``[REDACTED PRIVATE KEY]``) in *text*, or None."""
    if "«redacted" not in text and PRIVATE_KEY_SENTINEL not in text:
        return None  # fast path for the common case
    found = _PLACEHOLDER.search(text)
    return found.group(0) if found else None


def placeholder_error(path: str, what: str, text: str) -> str | None:
    """The refusal when *text* (the *what*: content, old_string, …) carries a placeholder."""
    found = find_placeholder(text)
    if found is None:
        return None
    return messages.REDACTED_PLACEHOLDER_WRITE.format(path=path, what=what, placeholder=found)


def lone_surrogate_error(path: str, content: str) -> str | None:
    """§3.4 step 3: a surrogate that UTF-8 cannot carry (and surrogateescape does not cover)."""
    try:
        content.encode("utf-8")
        return None  # fast path: strict UTF-8 encodes no surrogate at all
    except UnicodeEncodeError:
        pass
    found = _LONE_SURROGATE.search(content)
    if found is None:
        return None
    return messages.LONE_SURROGATE_WRITE.format(path=path, char=found.group(0))


# -- the syntax gate (§3.4 step 4) ---------------------------------------------------------------

def yaml_parser() -> Callable[[str], object] | None:
    """PyYAML's event parser, or None when PyYAML is not installed (the YAML gate and linter are
    then skipped, as in Hermes). Events, not ``safe_load``: multi-document streams and custom
    tags such as ``!Sub`` are valid YAML."""
    try:
        import yaml
    except ImportError:
        return None

    def parse(text: str) -> object:
        for _ in yaml.parse(text):
            pass
        return None

    return parse


def toml_loader() -> Callable[[str], object] | None:
    """``tomllib.loads`` (3.11+), else ``tomli.loads`` if installed, else None: on Python 3.10
    without tomli the TOML gate is skipped rather than guessed."""
    try:
        import tomllib
    except ImportError:
        try:
            import tomli as tomllib  # type: ignore[no-redef]
        except ImportError:
            return None
    return tomllib.loads


SYNTAX_CHECKED_EXTENSIONS = (".json", ".yaml", ".yml", ".toml")


class MissingParser(Exception):
    """The parser for this extension is not installed."""


def syntax_check(ext: str, text: str) -> str | None:
    """The parser's complaint about *text* as a *ext* file (``JSONDecodeError: … (line L,
    column C)``, ``YAMLError: …``, ``TOMLDecodeError: …``), or None when it parses or *ext* is
    not checked. Raises :class:`MissingParser` when the needed library is absent."""
    if ext == ".json":
        try:
            json.loads(text)
        except json.JSONDecodeError as error:
            return f"JSONDecodeError: {error.msg} (line {error.lineno}, column {error.colno})"
        return None
    if ext in (".yaml", ".yml"):
        parse = yaml_parser()
        if parse is None:
            raise MissingParser(ext)
        import yaml

        try:
            parse(text)
        except yaml.YAMLError as error:
            return f"YAMLError: {error}"
        return None
    if ext == ".toml":
        loads = toml_loader()
        if loads is None:
            raise MissingParser(ext)
        try:
            loads(text)
        except Exception as error:  # TOMLDecodeError; tomli raises its own class of that name
            return f"{type(error).__name__}: {error}"
        return None
    return None


def syntax_error(path: str, content: str) -> str | None:
    """The §3.4 fail-closed refusal for *content* bound for *path*, or None (a missing parser
    skips the gate)."""
    ext = os.path.splitext(path)[1].lower()
    if ext not in SYNTAX_CHECKED_EXTENSIONS:
        return None
    try:
        complaint = syntax_check(ext, content)
    except MissingParser:
        return None
    if complaint is None:
        return None
    return messages.SYNTAX_GATE_WRITE.format(path=path, ext=ext, err=complaint)
