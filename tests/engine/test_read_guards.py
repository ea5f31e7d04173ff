"""read_file's refusals: NT namespace, device paths, special files (never opened), directories,
the deny list, binary extensions and sniffed binary content (§2.2, §2.4, §8.1, §8.3–§8.5)."""

from __future__ import annotations

import io
import json
import os
import stat
import sys
import time
from typing import Any

import pytest

from shellfree.engine import read_text
from shellfree.engine.read_guards import (
    BINARY_EXTENSIONS,
    IMAGE_EXTENSIONS,
    has_binary_extension,
    is_blocked_device,
)
from shellfree.engine.read_text import read_page
from tests.conftest import returns_promptly

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX device paths")


def read(ft, path: str, **args: Any) -> dict[str, Any]:
    return json.loads(ft.read_file(path, **args))


def timed_read(ft, path: str) -> dict[str, Any]:
    """Reads *path* and asserts the answer came in well under a second."""
    start = time.monotonic()
    out = read(ft, path)
    assert time.monotonic() - start < 1.0, f"reading {path} took too long"
    return out


class TestNtNamespace:
    @pytest.mark.parametrize("path", ["\\\\?\\UNC\\server\\share\\f", "//./pipe/x",
                                      "\\??\\C:\\x", "\\\\?\\GLOBALROOT\\Device\\x"])
    def test_refused(self, tools, path):
        assert read(tools(), path) == {"error": (
            f"Read denied: '{path}' uses a Windows NT/device namespace prefix (\\??\\, \\\\.\\, "
            "\\\\?\\UNC\\, or GLOBALROOT). These paths bypass normal path normalization and can "
            "trigger outbound SMB authentication (NTLM credential leak) merely by being "
            "resolved. Use a normal absolute path instead.")}


@posix_only
class TestDevicePaths:
    @pytest.mark.parametrize("path", [
        "/dev/zero", "/dev/random", "/dev/urandom", "/dev/full", "/dev/stdin", "/dev/tty",
        "/dev/console", "/dev/stdout", "/dev/stderr", "/dev/fd/0", "/dev/fd/1", "/dev/fd/2",
        "/proc/self/environ", "/proc/1/cmdline", "/proc/self/fd/0", "/proc/self/maps",
        "/proc/self/smaps", "/proc/self/smaps_rollup", "/proc/self/numa_maps", "/proc/self/mem",
        "/proc/self/auxv", "/proc/self/pagemap", "/proc/1/task/1/fd/2",
    ])
    def test_blocklist(self, path):
        assert is_blocked_device(path)

    @pytest.mark.parametrize("path", ["/dev/null", "/proc/cpuinfo", "/proc/meminfo",
                                      "/dev/zeros", "/proc/self/fd/3"])
    def test_allowed_by_the_blocklist(self, path):
        assert not is_blocked_device(path)

    @pytest.mark.parametrize("path", ["/dev/zero", "/dev/stdin", "/dev/../dev/urandom"])
    def test_refused_fast(self, tools, path):
        assert timed_read(tools(), path) == {"error": (
            f"Cannot read '{path}': this is a device file that would block or produce infinite "
            "output.")}

    def test_relative_path_and_symlink_hops(self, root, tools):
        os.symlink("/dev/stdin", root / "hop2")
        os.symlink("hop2", root / "hop1")
        ft = tools()
        out = timed_read(ft, "hop1")
        assert out == {"error": "Cannot read 'hop1': this is a device file that would block or "
                                "produce infinite output."}


@posix_only
class TestSpecialFiles:
    def test_fifo_without_a_writer(self, root, tools):
        os.mkfifo(root / "pipe")
        assert timed_read(tools(), "pipe") == {"success": False, "note": (
            "'pipe' is a FIFO (named pipe), not a regular file — reading it would block "
            "indefinitely, so no read was attempted. Use terminal utilities if you need to "
            "interact with it.")}

    def test_unix_socket(self, tools, unix_socket):
        path = unix_socket
        out = timed_read(tools(), path)
        assert out["success"] is False
        assert out["note"].startswith(f"'{path}' is a socket, not a regular file — ")

    def test_character_device(self, tools):
        out = timed_read(tools(), "/dev/null")
        assert out["note"].startswith("'/dev/null' is a character device, not a regular file")

    def test_symlink_to_a_fifo(self, root, tools):
        os.mkfifo(root / "pipe")
        os.symlink("pipe", root / "link")
        assert timed_read(tools(), "link")["note"].startswith("'link' is a FIFO (named pipe)")

    def test_fifo_swapped_in_after_stat_is_not_waited_on(self, root, monkeypatch):
        # The second line of defence: open with O_NONBLOCK, then fstat.
        os.mkfifo(root / "pipe")
        regular = os.stat(__file__)
        real_stat = os.stat
        monkeypatch.setattr(read_text.os, "stat",
                            lambda p, *a, **k: regular if str(p).endswith("pipe")
                            else real_stat(p, *a, **k))
        result = returns_promptly(lambda: read_page(str(root / "pipe"), 1, 10), root / "pipe")
        assert result.error == (f"Cannot read '{root / 'pipe'}': not a regular file (directory, "
                                "FIFO, socket, or device). Reading it could block indefinitely.")

    def test_a_read_that_would_block_fails_instead(self, monkeypatch, tmp_path):
        # /proc/kmsg is a "regular" file whose read blocks; the file stays O_NONBLOCK.
        class WouldBlock(io.FileIO):
            def read(self, size=-1):
                return None

        path = tmp_path / "f.txt"
        path.write_text("x\n")
        monkeypatch.setattr(read_text, "open",
                            lambda fd, *a, **k: WouldBlock(fd, closefd=True), raising=False)
        assert read_page(str(path), 1, 5).error == (
            "Failed to read file: [Errno 11] no data is ready; reading it would block")

    @pytest.mark.skipif(not os.path.exists("/proc/cpuinfo"), reason="no procfs")
    def test_procfs_files_report_size_zero_but_have_content(self, tools):
        out = read(tools(), "/proc/cpuinfo", limit=1)
        assert out["content"].startswith("1|") and out["file_size"] > 0

    def test_special_kinds_named(self):
        from shellfree.engine.regular_file import special_kind

        assert special_kind(stat.S_IFBLK) == "block"
        assert special_kind(stat.S_IFCHR) == "char"
        assert special_kind(0) == "other"
        assert special_kind(stat.S_IFREG) is None and special_kind(stat.S_IFDIR) is None


class TestDirectories:
    def test_directory(self, root, tools):
        (root / "sub").mkdir()
        assert read(tools(), "sub") == {
            "content": "", "total_lines": 0, "file_size": 0, "truncated": False,
            "is_binary": False, "is_image": False,
            "error": f"Cannot read '{root / 'sub'}': not a regular file (directory, FIFO, socket, "
                     "or device). Reading it could block indefinitely."}


class TestDenyList:
    def test_env_files(self, root, tools):
        ft = tools({".env": "A=1\n", ".env.example": "A=\n"})
        assert read(ft, ".env") == {"error": (
            f"Access denied: {root / '.env'} is a secret-bearing environment file and cannot be "
            "read to prevent credential leakage. If you need to check the file structure, read "
            ".env.example instead. (Defense-in-depth — not a security boundary; the terminal tool "
            "can still bypass.)")}
        assert read(ft, ".env.example")["content"] == "1|A="

    def test_hermes_credential_store(self, home, tools):
        (home / ".hermes").mkdir()
        (home / ".hermes" / "auth.json").write_text("{}")
        out = read(tools(), "~/.hermes/auth.json")
        assert out["error"].startswith(f"Access denied: {home / '.hermes' / 'auth.json'} is a "
                                       "Hermes credential store")


    @pytest.mark.skipif(sys.platform != "linux", reason="names kept byte for byte (not normalized)")
    def test_the_unicode_twin_of_a_credential_store_is_refused(self, tmp_path):
        # A directory on the way spelled in NFC where the disk has NFD: read_file reads the twin
        # (§2.5), and the deny-list must be asked about it, not only about the path typed.
        from unicodedata import normalize

        from shellfree import FileTools

        home = tmp_path / normalize("NFD", "jos\u00e9") / ".hermes"
        (home / "mcp-tokens").mkdir(parents=True)
        (home / "auth.json").write_text('{"token": "abc"}\n')
        (home / "mcp-tokens" / "t.json").write_text('{"token": "abc"}\n')
        ft = FileTools(str(tmp_path), hermes_home=str(home))
        typed = tmp_path / normalize("NFC", "jos\u00e9") / ".hermes"
        assert read(ft, str(typed / "auth.json"))["error"].startswith(
            f"Access denied: {home / 'auth.json'} is a Hermes credential store")
        assert read(ft, str(typed / "mcp-tokens" / "t.json"))["error"].startswith(
            f"Access denied: {home / 'mcp-tokens' / 't.json'} is a Hermes MCP token file")


class TestSecretFiles:
    @pytest.mark.skipif(sys.platform == "win32", reason="symlinks need privileges on Windows")
    def test_a_link_to_a_secret_file_is_read_redacted(self, root, tools):
        # Hermes asks _is_secret_file_arg of Path.resolve()'s path: the link's target counts.
        ft = tools({".zshrc": "export GITHUB_TOKEN=abcdefghijklmnopqrstuvwxyz1234\n"})
        os.symlink(".zshrc", root / "shellrc.txt")
        assert read(ft, "shellrc.txt")["content"] == "1|export GITHUB_TOKEN=\u00abredacted-secret\u00bb"
        found = json.loads(ft.search_files(pattern="GITHUB", path="shellrc.txt"))
        assert [m["content"] for m in found["matches"]] == [
            "export GITHUB_TOKEN=\u00abredacted-secret\u00bb"]


class TestBinaryExtensions:
    def test_refused_by_name_even_when_text(self, tools):
        ft = tools({"notes.DAT": "plain text\n"})
        assert read(ft, "notes.DAT") == {"error": (
            "Cannot read binary file 'notes.DAT' (.dat). Use vision_analyze for images, or "
            "terminal to inspect binary files.")}

    def test_images_get_the_binary_refusal_at_the_tool_layer(self, tools):
        ft = tools({"p.png": b"\x89PNG\r\n\x1a\n"})
        assert read(ft, "p.png")["error"].startswith("Cannot read binary file 'p.png' (.png).")

    @pytest.mark.parametrize("name, expected", [
        ("a.PDF", False), ("a.tar.GZ", True), (".png", False), ("a.png.txt", False),
        ("a.pyc", True), ("x/y.lockb", True), ("Makefile", False),
    ])
    def test_has_binary_extension(self, name, expected):
        assert has_binary_extension(name) is expected

    def test_tables(self):
        assert IMAGE_EXTENSIONS <= BINARY_EXTENSIONS
        assert len(BINARY_EXTENSIONS) > 50
        assert all(e.startswith(".") and e == e.lower() for e in BINARY_EXTENSIONS)


class TestImageRedirect:
    def test_file_ops_layer(self, tmp_path):
        path = tmp_path / "p.JPG"
        path.write_bytes(b"\xff\xd8\xff" + b"\x00" * 97)
        assert read_page(str(path), 1, 10).to_dict() == {
            "content": "", "total_lines": 0, "file_size": 100, "truncated": False,
            "hint": "Image file detected. Automatically redirected to vision_analyze tool. Use "
                    "vision_analyze with this file path to inspect the image contents.",
            "is_binary": True, "is_image": True}


class TestSniffedBinary:
    def test_png_content_under_a_text_name(self, tools):
        ft = tools({"data.txt": b"\x89PNG\r\n\x1a\n" + b"\x00" * 2040})
        assert read(ft, "data.txt") == {
            "content": "", "total_lines": 0, "file_size": 2048, "truncated": False,
            "is_binary": True, "is_image": False,
            "error": "Binary file (PNG image data, 2.0 KB) — cannot display as text."}

    def test_unknown_binary(self, tools):
        ft = tools({"blob": bytes(range(256)) * 3})
        assert read(ft, "blob")["error"] == (
            "Binary file (unknown binary, 768 bytes) — cannot display as text.")

    def test_binary_is_not_counted_by_the_loop_guard(self, tools):
        ft = tools({"blob": b"\x00\x01" * 10})
        for _ in range(5):
            assert "Binary file" in read(ft, "blob")["error"]
