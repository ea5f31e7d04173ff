"""The atomic write and the file's stored form: temp files, modes, symlinks, failure paths,
sha256 verification, and CRLF/BOM/cp1252/UTF-16 bytes kept by write_file (§3.4 steps 5–12)."""

from __future__ import annotations

import errno
import json
import os
import stat
import sys

import pytest

import shellfree.engine.atomic_write as atomic
from shellfree.engine import messages
from shellfree.engine.atomic_write import (
    TEMP_SUFFIX, AtomicWriteError, atomic_write, temp_name)
from shellfree.engine.write_encoding import (
    TextFormat, UnencodableText, dominant_line_ending, normalize_line_endings, sniff_format)

POSIX = pytest.mark.skipif(sys.platform == "win32", reason="POSIX permission bits")


def temps(directory) -> list[str]:
    return [n for n in os.listdir(directory) if n.endswith(TEMP_SUFFIX)]


@pytest.fixture
def ft(tools, monkeypatch):
    # These tests overwrite files the task never read; the blocker has its own tests.
    monkeypatch.setenv("HERMES_DISABLE_FILE_STATE_GUARD", "1")
    return tools()


def write(ft, path, content):
    return json.loads(ft.write_file(path, content))


class TestAtomicWrite:
    def test_replaces_inode_and_leaves_no_temp(self, tmp_path):
        target = tmp_path / "f.txt"
        target.write_bytes(b"old")
        before = os.stat(target).st_ino
        written = atomic_write(str(target), b"new")
        assert target.read_bytes() == b"new"
        assert os.stat(target).st_ino != before
        assert written.verified is True and written.version is not None
        assert temps(tmp_path) == []

    def test_creates_parents(self, tmp_path):
        atomic_write(str(tmp_path / "a" / "b" / "c.txt"), b"x")
        assert (tmp_path / "a" / "b" / "c.txt").read_bytes() == b"x"

    @POSIX
    def test_mode_preserved(self, tmp_path):
        target = tmp_path / "run.sh"
        target.write_bytes(b"#!/bin/sh\n")
        os.chmod(target, 0o751)
        atomic_write(str(target), b"#!/bin/sh\necho\n")
        assert stat.S_IMODE(os.stat(target).st_mode) == 0o751

    @POSIX
    def test_new_file_gets_umask_default(self, tmp_path):
        old = os.umask(0o027)
        try:
            atomic_write(str(tmp_path / "new.txt"), b"x")
        finally:
            os.umask(old)
        assert stat.S_IMODE(os.stat(tmp_path / "new.txt").st_mode) == 0o640

    @pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
    def test_symlink_target_written_link_kept(self, tmp_path):
        real = tmp_path / "real.txt"
        real.write_bytes(b"old")
        link = tmp_path / "link.txt"
        os.symlink(real, link)
        atomic_write(str(link), b"new")
        assert os.path.islink(link)
        assert real.read_bytes() == b"new"

    @pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
    def test_dangling_symlink_creates_target(self, tmp_path):
        link = tmp_path / "link.txt"
        os.symlink(tmp_path / "sub" / "target.txt", link)
        atomic_write(str(link), b"x")
        assert os.path.islink(link)
        assert (tmp_path / "sub" / "target.txt").read_bytes() == b"x"

    def test_directory_target_refused(self, tmp_path):
        (tmp_path / "d").mkdir()
        with pytest.raises(IsADirectoryError):
            atomic_write(str(tmp_path / "d"), b"x")

    @pytest.mark.parametrize("failing", ["_write_all", "fsync", "chmod", "replace"])
    def test_failure_leaves_original_and_no_temp(self, tmp_path, monkeypatch, failing):
        target = tmp_path / "f.txt"
        target.write_bytes(b"original")

        def boom(*args, **kwargs):
            raise OSError(28, "No space left on device")

        if failing == "_write_all":
            monkeypatch.setattr(atomic, "_write_all", boom)
        elif failing == "replace":
            monkeypatch.setattr(atomic, "_replace", boom)
        else:
            monkeypatch.setattr(atomic.os, failing, boom)
        with pytest.raises(AtomicWriteError, match="No space left on device"):
            atomic_write(str(target), b"new content")
        assert target.read_bytes() == b"original"
        assert temps(tmp_path) == []

    def test_interrupt_removes_temp(self, tmp_path, monkeypatch):
        def interrupt(*args):
            raise KeyboardInterrupt

        monkeypatch.setattr(atomic, "_write_all", interrupt)
        with pytest.raises(KeyboardInterrupt):
            atomic_write(str(tmp_path / "f.txt"), b"x")
        assert temps(tmp_path) == []

    def test_temp_creation_failure_message(self, tmp_path, monkeypatch):
        real_open = os.open

        def refuse(path, flags, mode=0o777):
            if str(path).endswith(TEMP_SUFFIX):
                raise PermissionError(13, "Permission denied")
            return real_open(path, flags, mode)

        monkeypatch.setattr(atomic.os, "open", refuse)
        with pytest.raises(AtomicWriteError) as caught:
            atomic_write(str(tmp_path / "f.txt"), b"x")
        assert str(caught.value) == "atomic write: could not create temp file"

    def test_leftover_temp_of_killed_writer_removed(self, tmp_path):
        target = tmp_path / "f.txt"
        leftover = temp_name(str(target), unique=False)
        with open(leftover, "wb") as handle:
            handle.write(b"half a write")
        written = atomic_write(str(target), b"x", exclusive=True)
        assert written.stale_temps_removed == 1
        assert temps(tmp_path) == []

    def test_read_only_file_under_windows_rules(self, tmp_path, monkeypatch):
        # Win32 refuses MoveFileEx over, and DeleteFile of, a file with the read-only attribute
        # (the bit os.chmod(0o444) sets); POSIX renames over it. Emulated here: the write must
        # succeed and keep the file read-only, and a failed one leave no temp behind.
        real_replace, real_unlink = os.replace, os.unlink

        def read_only(path):
            try:
                return not os.stat(path).st_mode & stat.S_IWUSR
            except FileNotFoundError:
                return False

        def replace(src, dst):
            if read_only(dst):
                raise PermissionError(errno.EACCES, "Access is denied", dst)
            real_replace(src, dst)

        def unlink(path):
            if read_only(path):
                raise PermissionError(errno.EACCES, "Access is denied", path)
            real_unlink(path)

        monkeypatch.setattr(atomic.os, "replace", replace)
        monkeypatch.setattr(atomic.os, "unlink", unlink)
        monkeypatch.setattr(atomic.sys, "platform", "win32")
        target = tmp_path / "notes.txt"
        target.write_bytes(b"old\n")
        target.chmod(0o444)
        atomic_write(str(target), b"new\n")
        assert target.read_bytes() == b"new\n" and read_only(target)
        assert temps(tmp_path) == []
        atomic_write(str(target), b"again\n")  # a second write finds no leftover in its way
        assert target.read_bytes() == b"again\n"
        # A rename that fails for another reason: the temp (read-only too) is removed, and
        # the target keeps its content and its attribute.
        monkeypatch.setattr(atomic, "_REPLACE_RETRIES", 1)
        monkeypatch.setattr(atomic.os, "replace", lambda src, dst: (_ for _ in ()).throw(
            PermissionError(errno.EACCES, "in use by another process", dst)))
        with pytest.raises(AtomicWriteError):
            atomic_write(str(target), b"lost\n")
        assert target.read_bytes() == b"again\n" and read_only(target)
        assert temps(tmp_path) == []

    def test_unique_temps_without_process_lock(self, tmp_path):
        names = {temp_name(str(tmp_path / "f.txt"), unique=True) for _ in range(20)}
        assert len(names) == 20
        assert all(os.path.dirname(n) == str(tmp_path) for n in names)

    def test_long_name_temp_fits(self, tmp_path):
        name = "n" * 240 + ".txt"
        atomic_write(str(tmp_path / name), b"x")
        assert (tmp_path / name).read_bytes() == b"x"

    def test_verification_mismatch(self, tmp_path, monkeypatch):
        monkeypatch.setattr(atomic, "sha256_of_file", lambda path: "0" * 64)
        written = atomic_write(str(tmp_path / "f.txt"), b"x")
        assert written.verified is False and written.version is None


class TestWriteFileFailures:
    def test_verify_failure_message(self, ft, root, monkeypatch):
        monkeypatch.setattr(atomic, "sha256_of_file", lambda path: "0" * 64)
        path = str(root / "f.txt")
        assert write(ft, "f.txt", "x") == {
            "error": f"Post-write verification failed for {path}: on-disk content hash differs "
                     "from the intended write. The write did not persist correctly — re-read the "
                     "file and retry.", "resolved_path": path}

    def test_write_failure_message(self, ft, root, monkeypatch):
        def boom(*args):
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(atomic, "_write_all", boom)
        result = write(ft, "f.txt", "x")
        assert result["error"] == "Failed to write file: [Errno 28] No space left on device"
        assert temps(root) == []

    @pytest.mark.skipif(sys.platform == "win32", reason="symlinks need privileges on Windows")
    def test_symlink_loop_is_a_write_failure(self, ft, root):
        # The probe of the file a write replaces fails: the error is the write's, with the path.
        os.symlink("loop2", root / "loop1")
        os.symlink("loop1", root / "loop2")
        for name in ("loop1", "loop1/x.txt"):
            path = str(root / name)
            assert write(ft, name, "x") == {
                "error": f"Failed to write file: [Errno {errno.ELOOP}] "
                         f"{os.strerror(errno.ELOOP)}: '{path}'", "resolved_path": path}
        assert os.readlink(root / "loop1") == "loop2" and temps(root) == []

    def test_unreadable_existing_file_is_a_write_failure(self, ft, root, monkeypatch):
        # (root reads anything, so the permission error is raised where the probe opens it.)
        (root / "f.txt").write_bytes(b"kept\n")

        def denied(path):
            raise PermissionError(13, "Permission denied", path)

        monkeypatch.setattr("shellfree.engine.write_pipeline.open_regular", denied)
        path = str(root / "f.txt")
        assert write(ft, "f.txt", "x") == {
            "error": f"Failed to write file: [Errno 13] Permission denied: '{path}'",
            "resolved_path": path}
        assert (root / "f.txt").read_bytes() == b"kept\n"

    def test_unverifiable_omits_verified(self, ft, monkeypatch):
        def unreadable(path):
            raise PermissionError(13, "denied")

        monkeypatch.setattr(atomic, "sha256_of_file", unreadable)
        result = write(ft, "f.txt", "x")
        assert "verified" not in result and "error" not in result


class TestStoredForm:
    """write_file keeps the existing file's line endings, BOM and encoding (bytes compared)."""

    def test_crlf_kept(self, ft, root):
        (root / "w.txt").write_bytes(b"a\r\nb\r\n")
        write(ft, "w.txt", "a\nb\nc\n")
        assert (root / "w.txt").read_bytes() == b"a\r\nb\r\nc\r\n"

    def test_crlf_collapses_mixed_and_lone_cr(self, ft, root):
        (root / "w.txt").write_bytes(b"a\r\n")
        write(ft, "w.txt", "x\r\ny\rz\n")
        assert (root / "w.txt").read_bytes() == b"x\r\ny\r\nz\r\n"

    def test_lf_file_keeps_what_is_sent(self, ft, root):
        (root / "w.txt").write_bytes(b"a\nb\n")
        write(ft, "w.txt", "a\r\nb\n")
        assert (root / "w.txt").read_bytes() == b"a\r\nb\n"

    def test_utf8_bom_kept(self, ft, root):
        (root / "w.txt").write_bytes(b"\xef\xbb\xbfold\n")
        result = write(ft, "w.txt", "new\n")
        assert (root / "w.txt").read_bytes() == b"\xef\xbb\xbfnew\n"
        assert result["bytes_written"] == 7

    def test_bom_not_doubled(self, ft, root):
        (root / "w.txt").write_bytes(b"\xef\xbb\xbfold\n")
        write(ft, "w.txt", "\ufeffnew\n")
        assert (root / "w.txt").read_bytes() == b"\xef\xbb\xbfnew\n"

    def test_bom_and_crlf_together(self, ft, root):
        (root / "w.txt").write_bytes(b"\xef\xbb\xbfa\r\n")
        write(ft, "w.txt", "b\nc")
        assert (root / "w.txt").read_bytes() == b"\xef\xbb\xbfb\r\nc"

    def test_no_final_newline_kept(self, ft, root):
        (root / "w.txt").write_bytes(b"a\nb")
        write(ft, "w.txt", "a\nc")
        assert (root / "w.txt").read_bytes() == b"a\nc"

    def test_tabs_kept(self, ft, root):
        write(ft, "w.txt", "\tindented\n\t\tmore\n")
        assert (root / "w.txt").read_bytes() == b"\tindented\n\t\tmore\n"

    def test_cp1252_kept(self, ft, root):
        (root / "w.txt").write_bytes("Grüße, café — naïve\n".encode("cp1252"))
        write(ft, "w.txt", "Grüße, café — déjà vu\n")
        assert (root / "w.txt").read_bytes() == "Grüße, café — déjà vu\n".encode("cp1252")

    def test_cp1252_refuses_unencodable(self, ft, root):
        original = "café\n".encode("cp1252")
        (root / "w.txt").write_bytes(original)
        path = str(root / "w.txt")
        assert write(ft, "w.txt", "café ☃\n") == {
            "error": f"Refusing to write '{path}': the file is stored as cp1252 and the content "
                     "contains '☃', which cp1252 cannot represent. The file was NOT created or "
                     "modified. Use only characters the file's encoding can store (or an escape "
                     "the file format understands).", "resolved_path": path}
        assert (root / "w.txt").read_bytes() == original

    def test_utf16_with_bom_kept(self, ft, root):
        (root / "w.txt").write_bytes("old\r\n".encode("utf-16"))
        write(ft, "w.txt", "new\n")
        assert (root / "w.txt").read_bytes() == "new\r\n".encode("utf-16")

    def test_new_file_is_utf8(self, ft, root):
        write(ft, "n.txt", "naïve ☃\n")
        assert (root / "n.txt").read_bytes() == "naïve ☃\n".encode("utf-8")


class TestTextFormat:
    def test_sniff(self):
        assert sniff_format(b"a\r\nb") == TextFormat(b"", "utf-8", "\r\n")
        assert sniff_format(b"\xef\xbb\xbfa\n") == TextFormat(b"\xef\xbb\xbf", "utf-8", "\n")
        assert sniff_format(b"x") == TextFormat(b"", "utf-8", None)
        assert sniff_format("é\n".encode("cp1252") * 20).encoding == "cp1252"

    def test_utf8_cut_at_sample_end_stays_utf8(self):
        data = b"a" * ((1 << 20) - 1) + "é".encode()
        assert sniff_format(data).encoding == "utf-8"

    def test_round_trip_of_undecodable_bytes(self):
        fmt = TextFormat()
        data = b"ok \xff\xfe bytes"
        assert fmt.encode(fmt.decode(data)) == data and fmt.round_trips(data)

    def test_unencodable(self):
        with pytest.raises(UnencodableText) as caught:
            TextFormat(b"", "cp1252").encode("☃")
        assert (caught.value.char, caught.value.encoding) == ("☃", "cp1252")

    def test_line_endings(self):
        assert dominant_line_ending("a\nb\r\n") == "\r\n"
        assert dominant_line_ending("x" * 5000 + "\r\n") is None
        assert normalize_line_endings("a\r\nb\rc\n", "\r\n") == "a\r\nb\r\nc\r\n"
        assert normalize_line_endings("a\r\nb", "\n") == "a\nb"
        assert normalize_line_endings("a\r\nb", None) == "a\r\nb"


def test_atomic_messages_are_the_contract():
    assert messages.WRITE_FAILED == "Failed to write file: {output}"
    assert messages.ATOMIC_TEMP_FAILED == "atomic write: could not create temp file"
