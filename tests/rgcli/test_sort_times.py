"""``--sort created``: the birth time as each platform's Python gives it, on any OS.

The reference rg is a Linux (musl) build, which refuses the sort, so the other platforms are
simulated: ``sys.platform`` and the ``stat`` result of each file are set by the test.
"""

from __future__ import annotations

import io
import os
import sys
from types import SimpleNamespace

import pytest

from shellfree.rgcli.run import run

# Per file: (access, change, birth) times in seconds. Each orders the files differently, so
# the printed order says which one the sort used.
TIMES = {b"a.txt": (1, 3, 2), b"b.txt": (2, 1, 3), b"c.txt": (3, 2, 1)}


def fake_stat(birth: str | None):
    """``os.stat`` giving the files of TIMES their times: the birth time as *birth* names it
    (``st_birthtime_ns`` on Windows from Python 3.12, ``st_birthtime`` on macOS and the BSDs),
    or none (Windows before 3.12, where ``st_ctime_ns`` is the creation time)."""
    real_stat = os.stat

    def stat(path, *args, **kwargs):
        times = TIMES.get(os.path.basename(os.fsencode(path)))
        if times is None:
            return real_stat(path, *args, **kwargs)
        access, change, born = times
        fields = dict(st_mode=0o100644, st_size=0, st_atime_ns=access * 10**9,
                      st_mtime_ns=0, st_ctime_ns=change * 10**9)
        if birth == "st_birthtime_ns":
            fields[birth] = born * 10**9
        elif birth == "st_birthtime":
            fields[birth] = float(born)
        return SimpleNamespace(**fields)

    return stat


@pytest.mark.parametrize("platform, birth, expected", [
    ("win32", "st_birthtime_ns", [b"c.txt", b"a.txt", b"b.txt"]),  # Python 3.12+
    ("win32", None, [b"b.txt", b"c.txt", b"a.txt"]),  # before 3.12: st_ctime is the creation
    ("darwin", "st_birthtime", [b"c.txt", b"a.txt", b"b.txt"]),
])
@pytest.mark.parametrize("flag", ["--sort", "--sortr"])
def test_created_is_the_birth_time(tmp_path, monkeypatch, platform, birth, expected, flag):
    for name in TIMES:
        (tmp_path / os.fsdecode(name)).write_bytes(b"x\n")
    out, err = io.BytesIO(), io.BytesIO()
    with monkeypatch.context() as patch:
        patch.setattr(sys, "platform", platform)
        patch.setattr(os, "stat", fake_stat(birth))
        # Named on the command line, the files are stat'ed, not listed: no DirEntry to simulate.
        status = run([b"--files", flag.encode(), b"created", *TIMES], out, err, cwd=str(tmp_path))
    order = expected if flag == "--sort" else expected[::-1]
    assert (status, out.getvalue(), err.getvalue()) == (0, b"\n".join(order) + b"\n", b"")
