"""``read_walked``: a walked file's bytes with no ``fstat`` when its first read comes back short
(then read on to a read of nothing, as rg reads), and otherwise exactly what ``read_whole``
gives (its head and large-file rules included)."""

from __future__ import annotations

import os
import stat
import sys

import pytest

from shellfree.search import file_read
from shellfree.search.file_read import SHORT_READ, LargeFile, read_walked, read_whole
from tests.search.test_rg_search import same

SIZES = [0, 1, SHORT_READ - 1, SHORT_READ, SHORT_READ + 1, 3 * SHORT_READ + 7]


def _content(size: int) -> bytes:
    line = b"0123456789 abcdef needle\n"
    return (line * (size // len(line) + 1))[:size]


class _CountingOs:
    """file_read's ``os``, counting its ``fstat`` calls and answering its reads *page* bytes
    at most. Only file_read's: pytest's capture makes ``fstat`` calls of its own under some
    versions (a clean clone's CI counted two more per test)."""

    def __init__(self, page: int | None = None) -> None:
        self.fstats: list[int] = []
        self.page = page

    def __getattr__(self, name: str):
        return getattr(os, name)

    def fstat(self, fd: int):
        self.fstats.append(fd)
        return os.fstat(fd)

    def read(self, fd: int, n: int) -> bytes:
        return os.read(fd, n if self.page is None else min(n, self.page))


@pytest.fixture
def fstat_calls(monkeypatch):
    counting = _CountingOs()
    monkeypatch.setattr(file_read, "os", counting)
    return counting.fstats


@pytest.mark.parametrize("size", SIZES)
def test_the_bytes_are_read_whole_s_bytes(tmp_path, size):
    path = tmp_path / "f.txt"
    path.write_bytes(_content(size))
    assert read_walked(os.fsencode(path)) == read_whole(os.fsencode(path))[0] == _content(size)


@pytest.mark.parametrize("size", SIZES)
def test_only_a_file_that_fills_the_short_read_is_stat_ed(tmp_path, size, fstat_calls):
    path = tmp_path / "f.txt"
    path.write_bytes(_content(size))
    read_walked(os.fsencode(path))
    assert len(fstat_calls) == (1 if size >= SHORT_READ else 0)


def test_a_long_file_keeps_the_head_and_large_file_rules(tmp_path, monkeypatch):
    monkeypatch.setattr(file_read, "HEAD_BYTES", SHORT_READ + 100)
    path = os.fsencode(tmp_path / "f.bin")
    data = _content(2 * SHORT_READ)
    with open(path, "wb") as f:
        f.write(data)
    # enough(head) -> only the head, as read_whole gives it
    assert read_walked(path, enough=lambda head: True) == data[: SHORT_READ + 100]
    assert read_walked(path, enough=lambda head: False) == data
    with pytest.raises(LargeFile):
        read_walked(path, large=lambda st: True)
    # A short file never reaches the rules: it is read whole with its one read.
    small = os.fsencode(tmp_path / "small.bin")
    with open(small, "wb") as f:
        f.write(data[:100])
    assert read_walked(small, enough=lambda head: True, large=lambda st: True) == data[:100]


@pytest.mark.parametrize("page", [1, 4096, SHORT_READ - 1])
def test_a_file_that_answers_a_page_at_a_time_is_read_to_its_end(tmp_path, monkeypatch, page):
    # A file of /proc (or a FUSE file system) may read short before its end.
    path = tmp_path / "f.txt"
    data = _content(3 * 4096 + 5)
    path.write_bytes(data)
    monkeypatch.setattr(file_read, "os", _CountingOs(page))
    assert read_walked(os.fsencode(path)) == data


@pytest.mark.skipif(not os.path.exists("/proc/self/smaps"), reason="Linux /proc")
def test_a_proc_file_longer_than_a_page_is_read_whole():
    # smaps changes as the process allocates: compare what every read gives, not the bytes.
    data = read_walked(b"/proc/self/smaps")
    assert len(data) > 4096 and data.endswith(b"\n") and data.count(b"VmFlags") > 1


def test_a_missing_file_raises_like_read_whole(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_walked(os.fsencode(tmp_path / "gone"))


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths")
@pytest.mark.parametrize("args", [["-n", "needle"], ["-c", "needle"], ["-n", "last"],
                                  ["-n", "-v", "-m", "3", "needle"]])
def test_walked_files_around_the_short_read_print_what_rg_prints(isolated, reference_rg,
                                                                   args, fstat_calls):
    # The last line, which holds "last", is the one a truncated read would lose.
    for size in SIZES[1:]:
        body = _content(size - len(b"last\n"))
        (isolated / f"f{size}.txt").write_bytes(body + b"last\n")
    same(reference_rg, args)
    assert len(fstat_calls) == sum(size >= SHORT_READ for size in SIZES[1:])  # the short read was used


# A file the walk listed that is a FIFO by the time it is opened: opening a FIFO to read waits
# for a writer, so each case runs in a child process with a time limit (a hang fails, rather
# than stopping the suite).
_SWAPPED = r"""
import os, sys
from shellfree.cli import main
from shellfree.search import walk

root = sys.argv[1]
listed = walk.Walker._list

def list_then_swap(self, directory):
    listing = listed(self, directory)
    swapped, done = os.path.join(root, "b.txt"), os.path.join(root, "done")
    if not os.path.exists(done):
        os.remove(swapped)
        os.mkfifo(swapped)
        open(done, "w").close()
    return listing

walk.Walker._list = list_then_swap
os.chdir(root)
sys.exit(main(["rg", *sys.argv[2:]]))
"""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_walked_file_that_became_a_fifo_is_not_waited_on(tmp_path):
    import subprocess

    (tmp_path / "a.txt").write_bytes(b"needle a\n")
    (tmp_path / "b.txt").write_bytes(b"needle b\n")
    (tmp_path / "c.txt").write_bytes(b"needle c\n")
    done = subprocess.run([sys.executable, "-c", _SWAPPED, str(tmp_path), "-j1", "-n", "needle"],
                          capture_output=True, timeout=30)
    assert (tmp_path / "done").exists() and stat.S_ISFIFO(
        os.stat(tmp_path / "b.txt").st_mode)
    # Read as a FIFO with no writer: nothing, as an empty file would give.
    assert (done.returncode, done.stdout, done.stderr) == (
        0, b"a.txt:1:needle a\nc.txt:1:needle c\n", b"")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_the_tree_cache_reads_a_walked_fifo_without_waiting(tmp_path):
    import subprocess

    os.mkfifo(tmp_path / "pipe")
    code = (
        "import sys\n"
        "from shellfree.search.file_read import read_whole\n"
        "from shellfree.search.tree_cache import TreeCache\n"
        "path = sys.argv[1].encode()\n"
        "assert TreeCache().read_signed(path, walked=True) == (b'', None, None)\n"
        "assert read_whole(path, walked=True) == (b'', None)\n"
    )
    subprocess.run([sys.executable, "-c", code, str(tmp_path / "pipe")], check=True, timeout=30)
