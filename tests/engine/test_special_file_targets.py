"""write_file, patch and search_files leave a FIFO, socket or device alone, and never wait on one.

Hermes reads a write target before replacing it, so a FIFO there blocks the tool until some
process writes to it (forever, in an agent's sandbox); and it renames its temp file over
whatever the path names, so a device node is destroyed (as root, a symlink to ``/dev/null``
took ``/dev/null`` with it). shellfree refuses such a target before touching it, and its I/O
layer refuses one that appears after that check (the path changed meanwhile) without waiting.
"""

from __future__ import annotations

import json
import os
import stat
import sys

import pytest

from shellfree.engine import write_guards
from shellfree.engine.atomic_write import AtomicWriteError, atomic_write, sha256_of_file
from shellfree.engine.regular_file import NotRegularFile, open_regular
from shellfree.engine.write_pipeline import probe_existing
from tests.conftest import returns_promptly

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")

REFUSED = ("Refusing to write '{path}': it is {kind}, not a regular file. Reading it could "
           "block indefinitely and replacing it would destroy it, so nothing was changed.")
FIFO = "a FIFO (named pipe)"

V4A_ON_TARGET = {
    "update": "*** Begin Patch\n*** Update File: {t}\n@@\n-a\n+b\n*** End Patch",
    "add": "*** Begin Patch\n*** Add File: {t}\n+b\n*** End Patch",
    "delete": "*** Begin Patch\n*** Delete File: {t}\n*** End Patch",
    "move onto": "*** Begin Patch\n*** Move File: a.txt -> {t}\n*** End Patch",
}


@pytest.fixture
def fifo(root):
    path = root / "pipe"
    os.mkfifo(path)
    (root / "a.txt").write_text("a\n")
    return path


def still_a_fifo(path) -> bool:
    return stat.S_ISFIFO(os.lstat(path).st_mode)


class TestRefusedBeforeAnyRead:
    def test_write_file(self, tools, fifo):
        out = returns_promptly(lambda: tools().write_file("pipe", "hi\n"), fifo)
        assert json.loads(out) == {"error": REFUSED.format(path="pipe", kind=FIFO)}
        assert still_a_fifo(fifo)

    def test_patch_replace(self, tools, fifo):
        out = returns_promptly(lambda: tools().patch(path="pipe", old_string="a", new_string="b"),
                               fifo)
        assert json.loads(out) == {"error": REFUSED.format(path="pipe", kind=FIFO)}
        assert still_a_fifo(fifo)

    @pytest.mark.parametrize("operation", sorted(V4A_ON_TARGET))
    def test_v4a(self, tools, fifo, root, operation):
        text = V4A_ON_TARGET[operation].format(t="pipe")
        out = returns_promptly(lambda: tools().patch(mode="patch", patch=text), fifo)
        assert json.loads(out) == {"error": REFUSED.format(path="pipe", kind=FIFO)}
        assert still_a_fifo(fifo)
        assert (root / "a.txt").read_text() == "a\n"

    def test_through_a_symlink(self, tools, fifo, root):
        os.symlink("pipe", root / "link")
        out = returns_promptly(lambda: tools().write_file("link", "hi\n"), fifo)
        assert json.loads(out) == {"error": REFUSED.format(path="link", kind=FIFO)}
        assert still_a_fifo(fifo) and os.path.islink(root / "link")

    def test_unix_socket(self, tools, unix_socket):
        out = json.loads(tools().write_file(unix_socket, "hi\n"))
        assert out == {"error": REFUSED.format(path=unix_socket, kind="a socket")}
        assert stat.S_ISSOCK(os.lstat(unix_socket).st_mode)

    @pytest.mark.skipif(sys.platform == "win32", reason="POSIX device paths")
    def test_symlink_to_a_character_device(self, tools, root):
        os.symlink("/dev/null", root / "null")
        for out in (tools().write_file("null", "hi\n"),
                    tools().patch(path="null", old_string="a", new_string="b")):
            assert json.loads(out) == {"error": REFUSED.format(path="null",
                                                               kind="a character device")}
        assert stat.S_ISCHR(os.stat("/dev/null").st_mode)

    def test_a_new_file_and_a_regular_one_still_written(self, tools, root):
        ft = tools()
        assert json.loads(ft.write_file("new.txt", "x\n"))["bytes_written"] == 2
        assert json.loads(ft.patch(path="new.txt", old_string="x", new_string="y"))["success"]
        assert (root / "new.txt").read_text() == "y\n"


class TestFifoAppearingAfterTheCheck:
    """The path becomes a FIFO after the tool-layer guard looked: the I/O layer neither waits
    on it nor replaces it."""

    @pytest.fixture(autouse=True)
    def guard_passes(self, monkeypatch):
        monkeypatch.setattr(write_guards.SpecialFileGuard, "__call__", lambda self, targets: None)

    def test_write_file(self, tools, fifo):
        out = json.loads(returns_promptly(lambda: tools().write_file("pipe", "hi\n"), fifo))
        assert out["error"] == ("Failed to write file: the target is a FIFO (named pipe), not a "
                                "regular file; it was left as it was")
        assert still_a_fifo(fifo)

    def test_patch_replace(self, tools, fifo):
        out = json.loads(returns_promptly(
            lambda: tools().patch(path="pipe", old_string="a", new_string="b"), fifo))
        assert out == {"success": False, "error": f"Failed to read file: {fifo}"}  # §4.3 step 2
        assert still_a_fifo(fifo)

    @pytest.mark.parametrize("operation", sorted(V4A_ON_TARGET))
    def test_v4a(self, tools, fifo, root, operation):
        text = V4A_ON_TARGET[operation].format(t="pipe")
        out = json.loads(returns_promptly(lambda: tools().patch(mode="patch", patch=text), fifo))
        assert out["success"] is False and "not a regular file" in out["error"]
        assert still_a_fifo(fifo)
        assert (root / "a.txt").read_text() == "a\n"


class TestIoLayer:
    def test_open_regular(self, fifo, root):
        with pytest.raises(NotRegularFile) as raised:
            returns_promptly(lambda: open_regular(str(fifo)), fifo)
        assert raised.value.kind == "fifo"
        with pytest.raises(IsADirectoryError):
            open_regular(str(root))
        with open_regular(str(root / "a.txt")) as handle:
            assert handle.read() == b"a\n"

    def test_probe_existing_treats_it_as_absent(self, fifo):
        existing = returns_promptly(lambda: probe_existing(str(fifo)), fifo)
        assert not existing.exists

    def test_atomic_write_leaves_it(self, fifo):
        with pytest.raises(AtomicWriteError, match="FIFO"):
            returns_promptly(lambda: atomic_write(str(fifo), b"x"), fifo)
        assert still_a_fifo(fifo)
        assert sorted(p.name for p in fifo.parent.iterdir()) == ["a.txt", "pipe"]  # no temp

    def test_v4a_check_before_applying(self, fifo):
        # The file a V4A plan read is read again just before it is replaced.
        from shellfree.engine.v4a_apply import _current_bytes

        with pytest.raises(NotRegularFile):
            returns_promptly(lambda: _current_bytes(str(fifo)), fifo)

    def test_hash_of_a_fifo(self, fifo):
        with pytest.raises(NotRegularFile):
            returns_promptly(lambda: sha256_of_file(str(fifo)), fifo)

    def test_atomic_write_leaves_a_device_node(self, tmp_path):
        node = tmp_path / "null"
        try:
            os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        except (PermissionError, AttributeError):
            pytest.skip("creating a device node needs privileges")
        with pytest.raises(AtomicWriteError, match="character device"):
            atomic_write(str(node), b"x")
        assert stat.S_ISCHR(os.lstat(node).st_mode)


class TestSearchFiles:
    def test_content_search_of_a_fifo(self, tools, fifo):
        out = json.loads(returns_promptly(lambda: tools().search_files("a", path="pipe"), fifo))
        assert out == {"total_count": 0, "error": (
            "Cannot search 'pipe': it is a FIFO (named pipe), not a regular file or directory. "
            "Reading it could block indefinitely, so nothing was searched.")}

    @pytest.mark.skipif(sys.platform == "win32", reason="POSIX device paths")
    def test_content_search_of_a_device(self, tools, root):
        os.symlink("/dev/zero", root / "zero")
        out = json.loads(tools().search_files("a", path="zero"))
        assert out["error"].startswith("Cannot search 'zero': it is a character device")

    def test_a_fifo_among_the_roots(self, tools, fifo):
        out = json.loads(returns_promptly(
            lambda: tools().search_files("a", path="a.txt, pipe"), fifo))
        assert out["error"].startswith("Cannot search 'pipe': it is a FIFO")

    def test_a_walk_skips_it_as_rg_does(self, tools, fifo):
        out = json.loads(returns_promptly(lambda: tools().search_files("a", path="."), fifo))
        assert out["total_count"] == 1 and "error" not in out

    def test_an_ignore_file_that_is_a_fifo_is_read_as_empty(self, tools, root):
        # rg waits for a writer on a FIFO .gitignore forever; the search goes on without it.
        (root / ".git").mkdir()
        os.mkfifo(root / ".gitignore")
        (root / "a.txt").write_text("a\n")
        out = json.loads(returns_promptly(lambda: tools().search_files("a"), root / ".gitignore"))
        assert out["total_count"] == 1 and out["matches"][0]["path"] == "./a.txt"

    def test_a_matched_file_turned_fifo_is_not_waited_on(self, fifo):
        # The decoder reads a matched file's start for its code page; by then the path may
        # name a FIFO.
        from shellfree.engine.text_decoding import LineDecoder

        decoder = LineDecoder(str(fifo.parent))
        form = returns_promptly(lambda: decoder._read_form(str(fifo), 1 << 16), fifo)
        assert form.name is None and not form.whole
