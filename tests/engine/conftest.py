"""Fixtures for the engine tests: a task directory outside any repository, file trees, clocks."""

from __future__ import annotations

import codecs
import json
import os
import socket
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from shellfree import FileTools
from shellfree.engine.write_encoding import sniff_format


@pytest.fixture(scope="session")
def optional_reference_rg() -> str | None:
    """The reference rg 15.1.0, or None when it is not installed (the caller decides to skip)."""
    from benchmarks.parity.reference import ReferenceUnavailable, find_reference_rg

    try:
        return find_reference_rg().path
    except ReferenceUnavailable:
        return None


@pytest.fixture(params=["inprocess", "rg"])
def backend_options(request, optional_reference_rg) -> dict[str, Any]:
    """FileTools options for each search backend: the in-process engine (none), and the rg
    backend with the reference binary (skipped when it is not installed)."""
    if request.param == "inprocess":
        return {}
    if optional_reference_rg is None:
        pytest.skip("reference rg not installed")
    return {"backend": "rg", "rg_path": optional_reference_rg}


@pytest.fixture
def unix_socket() -> Iterator[str]:
    """The path of a listening Unix socket (in a short directory: socket paths are
    length-limited), removed afterwards."""
    directory = tempfile.mkdtemp(prefix="sf")
    path = os.path.join(directory, "s")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(path)
        server.listen(1)
        yield path
    finally:
        server.close()
        if os.path.exists(path):
            os.unlink(path)
        os.rmdir(directory)


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """An empty ``$HOME`` (no global git excludes, no Hermes directory) and no rg config."""
    home = tmp_path / "home"
    home.mkdir()
    for var in ("RIPGREP_CONFIG_PATH", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(home))
    return home


@pytest.fixture
def root(tmp_path, home) -> Path:
    """The task directory (a sibling of ``$HOME``)."""
    work = tmp_path / "work"
    work.mkdir()
    return work


def write_tree(base: Path, files: dict[str, str | bytes]) -> None:
    """Creates *files* (relative path → text or bytes) below *base*."""
    for rel, content in files.items():
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        else:
            path.write_bytes(content)


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def tools(root, home, clock) -> Callable[..., FileTools]:
    """``tools(files, **options)``: writes *files* under the task root, returns a FileTools."""

    def make(files: dict[str, str | bytes] | None = None, **options: Any) -> FileTools:
        write_tree(root, files or {})
        options.setdefault("clock", clock)
        return FileTools(root, **options)

    return make


def search(ft: FileTools, **args: Any) -> dict[str, Any]:
    """``ft.search_files(**args)`` parsed, asserting the text is JSON that round-trips."""
    text = ft.search_files(**args)
    payload = json.loads(text)
    assert json.dumps(payload, ensure_ascii=False) == text, "not json.dumps(ensure_ascii=False)"
    return payload


WESTERN_LINE = "Größe: 5 €, Café au lait, naïve Übergröße, déjà vu"
"""A line of Western European text: a legacy code page is guessed from the text
(charset-normalizer), which a few bytes do not tell ("00\\xdf" is taken for UTF-8 with a stray
byte), so the property tests start their cp1252 files with it."""


def read_as_cp1252(data: bytes) -> bool:
    """Whether shellfree reads *data* as the cp1252 text it is: the guess misses some short
    files (mac_latin2, cp1257), which are then read, matched and written in the guessed code
    page, and a line whose cp1252 bytes happen to be valid UTF-8 (``ß€`` is ``DF 80``) reads as
    UTF-8, as read_file shows it (tests/engine/test_code_page_lines.py)."""
    fmt = sniff_format(data)
    return (codecs.lookup(fmt.code_page or "utf-8").name == "cp1252"
            and fmt.decode(data) == data.decode("cp1252"))
