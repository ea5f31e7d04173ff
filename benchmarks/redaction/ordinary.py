"""The ordinary-text corpus: source code and data files installed on this machine that hold no
secrets (the standard library, common site-packages, their ``RECORD`` hash lists, certifi's CA
bundle of public certificates), and the count of lines redaction changes in them.

Every changed line is a false positive to judge: :func:`scan` returns each with its file, line
number, text before and after.
"""

from __future__ import annotations

import sysconfig
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Hit", "ScanResult", "Source", "scan", "sources"]

STDLIB_PACKAGES = ("email", "http", "urllib", "json", "logging", "xmlrpc", "importlib",
                   "concurrent", "asyncio", "sqlite3", "wsgiref")
"""Standard-library packages read besides the top-level modules: network, auth and parsing
code, where credentials are talked about most."""

SITE_PACKAGES = ("requests", "urllib3", "jwt", "werkzeug", "flask", "click", "jinja2",
                 "packaging", "idna", "dotenv", "yaml", "itsdangerous", "certifi", "pathspec",
                 "charset_normalizer", "attr", "dateutil", "h11", "multipart")
"""Site-packages read in full: HTTP clients and servers, a JWT library, a dotenv parser,
templating, packaging metadata."""


@dataclass(frozen=True, slots=True)
class Source:
    """A named group of files under *root*."""

    label: str
    root: Path
    files: tuple[Path, ...]


@dataclass(frozen=True, slots=True)
class Hit:
    """A line of ordinary text that redaction changed."""

    path: str
    line: int
    before: str
    after: str


@dataclass(slots=True)
class ScanResult:
    """Lines and files read per source, and the changed lines."""

    lines: dict[str, int] = field(default_factory=dict)
    files: dict[str, int] = field(default_factory=dict)
    chars: int = 0
    hits: list[Hit] = field(default_factory=list)

    @property
    def total_lines(self) -> int:
        return sum(self.lines.values())


def _site_packages() -> Path:
    return Path(sysconfig.get_paths()["purelib"])


def sources() -> list[Source]:
    """The corpus, in a fixed order (sorted paths), from whatever of it is installed."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    site = _site_packages()
    found = [
        Source("stdlib Lib/*.py", stdlib, tuple(sorted(stdlib.glob("*.py")))),
        Source("stdlib packages", stdlib, tuple(sorted(
            path for name in STDLIB_PACKAGES for path in (stdlib / name).rglob("*.py")
            if "test" not in path.parts))),
        Source("site-packages", site, tuple(sorted(
            path for name in SITE_PACKAGES for path in (site / name).rglob("*.py")))),
        Source("certifi CA bundle", site, tuple(sorted((site / "certifi").glob("*.pem")))),
        Source("dist-info RECORD", site, tuple(sorted(site.glob("*.dist-info/RECORD")))),
    ]
    return [source for source in found if source.files]


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def iter_texts(source_list: list[Source]) -> Iterator[tuple[Source, Path, str]]:
    """Every readable file of *source_list* with its text."""
    for source in source_list:
        for path in source.files:
            text = _read(path)
            if text is not None:
                yield source, path, text


def scan(source_list: list[Source], redact: Callable[[str], str]) -> ScanResult:
    """Redacts each file whole (as read_file would, page by page) and compares it line by line;
    a file whose line count changes is compared line by line after redacting each line."""
    result = ScanResult()
    for source, path, text in iter_texts(source_list):
        before = text.split("\n")
        after = redact(text).split("\n")
        if len(after) != len(before):
            after = [redact(line) for line in before]
        result.files[source.label] = result.files.get(source.label, 0) + 1
        result.lines[source.label] = result.lines.get(source.label, 0) + len(before)
        result.chars += len(text)
        relative = str(path.relative_to(source.root))
        for number, (old, new) in enumerate(zip(before, after), 1):
            if old != new:
                result.hits.append(Hit(relative, number, old, new))
    return result
