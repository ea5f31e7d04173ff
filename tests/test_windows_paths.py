"""Windows path spellings against the engine's path policy (hermes-contract §8.1, §8.3), on any OS.

The NT-namespace check reads the raw string only, so it is tested directly. The read deny-list
uses ``os.path`` and ``pathlib.Path``; here the policy module is given ``ntpath`` and a Windows
stand-in for ``Path`` (:class:`WindowsResolve`), so drive letters, backslashes, UNC shares and
case-insensitive names are checked the way they behave on Windows.
"""

from __future__ import annotations

import ntpath
import os
from pathlib import PureWindowsPath
from types import SimpleNamespace

import pytest

from shellfree.engine import policy
from shellfree.engine.policy import ReadPolicy, nt_namespace_error

HERMES = r"C:\Users\me\.hermes"


class TestNtNamespace:
    """§8.3: ``\\??\\``, ``\\\\.\\``, ``\\\\?\\UNC\\`` and ``\\\\?\\GLOBALROOT`` are refused;
    ``\\\\?\\C:\\`` (a long path on a drive) and ordinary spellings are not."""

    @pytest.mark.parametrize("path", [
        r"\??\C:\Windows\win.ini",          # the object-manager prefix
        r"\??\UNC\attacker\share\x",
        r"\\.\C:\Windows\win.ini",          # the Win32 device namespace
        r"\\.\PhysicalDrive0",
        r"\\.\pipe\secret",
        r"\\?\UNC\attacker\share\x",        # long-path UNC: SMB auth on resolve
        r"\\?\unc\attacker\share\x",        # … in any case
        r"\\?\GLOBALROOT\Device\HarddiskVolume1\x",
        r"\\?\globalroot\Device\x",
        "//./pipe/secret",                  # forward slashes are the same prefixes
        "//?/UNC/attacker/share",
        "/??/C:/x",
    ])
    def test_refused(self, path):
        assert nt_namespace_error(path, "Read") is not None, path

    @pytest.mark.parametrize("path", [
        r"\\?\C:\very\long\path.txt",       # EDGE CASE: allowed by the contract
        r"\\?\c:\x",
        r"C:\Users\me\file.txt",
        "C:/Users/me/file.txt",
        r"c:relative\to\drive.txt",         # drive-relative
        r"\\server\share\dir\file.txt",     # a plain UNC path is not a device path
        r"\Windows\win.ini",                # rooted on the current drive
        r"..\up\file.txt",
    ])
    def test_allowed(self, path):
        assert nt_namespace_error(path, "Read") is None, path

    def test_the_message_names_the_verb_and_the_path_as_given(self):
        message = nt_namespace_error(r"\\.\pipe\x", "Search")
        assert message is not None and message.startswith("Search denied: '\\\\.\\pipe\\x' uses a "
                                                          "Windows NT/device namespace prefix")

    @pytest.mark.parametrize("path, drive", [
        (r"\\?\C:\x", "\\\\?\\C:"),
        (r"\\server\share\x", "\\\\server\\share"),
        (r"C:\x", "C:"),
    ])
    def test_allowed_spellings_are_what_ntpath_calls_a_drive_or_share(self, path, drive):
        # The allowed forms all name a drive or share that ntpath recognises; the refused ones
        # are device-namespace objects whatever ntpath makes of them.
        assert ntpath.splitdrive(path)[0] == drive


# -- the read deny-list under Windows path semantics ---------------------------------------------

class WindowsResolve:
    """Stand-in for ``pathlib.Path`` on Windows, over a small fake disk.

    ``resolve()`` does what ``os.path.realpath`` does there: normalise separators and ``..``,
    drop a ``\\\\?\\`` prefix before a drive, and give the existing part of the path its on-disk
    case (``GetFinalPathNameByHandle``); the part that does not exist keeps the case it was
    written in.
    """

    disk: frozenset[str] = frozenset()

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self._path = os.fspath(path)

    def __str__(self) -> str:
        return self._path

    def __fspath__(self) -> str:
        return self._path

    @property
    def parts(self) -> tuple[str, ...]:
        return PureWindowsPath(self._path).parts

    def expanduser(self) -> WindowsResolve:
        return WindowsResolve(ntpath.expanduser(self._path))

    def resolve(self) -> WindowsResolve:
        path = self._path.replace("/", "\\")
        if path.startswith("\\\\?\\") and ntpath.splitdrive(path[4:])[0][1:2] == ":":
            path = path[4:]
        path = ntpath.normpath(path)
        on_disk = {p.lower(): p for p in self.disk}
        parts = path.split("\\")
        for cut in range(len(parts), 0, -1):
            prefix = "\\".join(parts[:cut])
            if prefix.lower() in on_disk:
                return WindowsResolve("\\".join([on_disk[prefix.lower()], *parts[cut:]]))
        return WindowsResolve(path)


def _with_parents(paths: list[str]) -> frozenset[str]:
    found = set()
    for path in paths:
        while path and path not in found:
            found.add(path)
            parent = ntpath.dirname(path)
            path = "" if parent == path else parent
    return frozenset(found)


@pytest.fixture
def windows(monkeypatch):
    """The policy module with ``ntpath`` as ``os.path`` and :class:`WindowsResolve` as ``Path``,
    over a disk holding a Hermes home and a project."""
    disk = _with_parents([
        HERMES + r"\auth.json", HERMES + r"\.env", HERMES + r"\mcp-tokens\github.json",
        HERMES + r"\skills\.hub\index.md", HERMES + r"\config.yaml",
        r"C:\Users\me\project\.env", r"C:\Users\me\project\src\main.py",
        r"\\fileserver\team\hermes\auth.json",
    ])
    monkeypatch.setattr(WindowsResolve, "disk", disk)
    fake_os = SimpleNamespace(path=ntpath, sep="\\", fspath=os.fspath, PathLike=os.PathLike)
    monkeypatch.setattr(policy, "os", fake_os)
    monkeypatch.setattr(policy, "Path", WindowsResolve)
    monkeypatch.setenv("USERPROFILE", r"C:\Users\me")
    return ReadPolicy([HERMES])


class TestReadDenyListOnWindows:
    @pytest.mark.parametrize("path", [
        r"C:\Users\me\project\.env",
        r"C:\Users\me\project\.ENV",                 # NTFS names are case-insensitive
        r"C:\Users\me\project\.Env.Local",
        "C:/Users/me/project/.envrc",                # forward slashes
        r"\\fileserver\team\app\.env.production",    # a UNC share
        r"D:\elsewhere\.env.staging",
    ])
    def test_env_files_anywhere(self, windows, path):
        message = windows.read_block_error(path)
        assert message is not None and "secret-bearing environment file" in message, path
        assert message.startswith(f"Access denied: {path} "), "the path as the agent wrote it"

    @pytest.mark.parametrize("path", [r"C:\Users\me\project\.env.example",
                                      r"C:\Users\me\project\src\main.py",
                                      r"D:\hermes\auth.json"])
    def test_ordinary_files(self, windows, path):
        assert windows.read_block_error(path) is None

    @pytest.mark.parametrize("path", [
        HERMES + r"\auth.json",
        r"c:\users\ME\.HERMES\AUTH.JSON",            # any case: resolve gives the on-disk one
        "C:/Users/me/.hermes/auth.json",
        r"C:\Users\me\project\..\.hermes\auth.json",
        r"\\?\C:\Users\me\.hermes\auth.json",        # long-path prefix before a drive
        r"~\.hermes\auth.json",
    ])
    def test_credential_store_in_any_spelling(self, windows, path):
        message = windows.read_block_error(path)
        assert message is not None and "is a Hermes credential store" in message, path

    def test_token_directory_and_skills_hub(self, windows):
        assert "MCP token file" in windows.read_block_error(
            r"c:\users\me\.hermes\MCP-TOKENS\github.json")
        assert "internal Hermes cache file" in windows.read_block_error(
            r"C:\USERS\me\.hermes\skills\.HUB\index.md")

    def test_a_hermes_home_on_a_unc_share(self, windows):
        share = ReadPolicy([r"\\fileserver\team\hermes"])
        assert "credential store" in share.read_block_error(r"\\FILESERVER\Team\hermes\auth.json")

    def test_search_results_are_filtered_in_any_case(self, windows):
        assert windows.result_is_blocked(r"C:\Users\me\.hermes\auth.json")
        assert windows.result_is_blocked(r"C:\Users\me\project\.ENV")
        assert not windows.result_is_blocked(r"C:\Users\me\project\src\main.py")

    def test_secret_file_test(self, windows):
        assert windows.is_secret_file(r"C:\Users\me\project\.ENV")
        assert windows.is_secret_file(HERMES + r"\config.yaml")
        assert windows.is_secret_file(r"D:\backup\.hermes\config.yaml")
        assert not windows.is_secret_file(r"C:\Users\me\project\config.yaml")

    # policy.py folds case with os.path.normcase on both sides (it compared raw strings
    # before, and this test was a strict expected failure).
    def test_a_home_spelled_in_another_case_before_it_existed(self, windows, monkeypatch):
        monkeypatch.setattr(WindowsResolve, "disk", frozenset())  # the home did not exist yet
        configured = ReadPolicy([r"c:\users\me\.HERMES"])
        monkeypatch.setattr(WindowsResolve, "disk", _with_parents([HERMES + r"\auth.json"]))
        assert configured.read_block_error(HERMES + r"\auth.json") is not None
