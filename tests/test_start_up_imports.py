"""What a command-line search imports: never ``typing`` (about 7 ms, a tenth of a search of a
5,000-file tree; see shellfree/__init__.py), nor the engine's or the documents' modules, nor
the tree cache, nor (unless the regex module needs it) the ``threading`` the cache's lock
needs (search/file_read.py)."""

from __future__ import annotations

import os
import site
import subprocess
import sys
from pathlib import Path

import pytest

import shellfree

# -S: the interpreter's own site may import typing (a .pth file does on some machines); the
# site-packages directories are put on PYTHONPATH instead, so the dependencies still import.
_CODE = """
import io, sys
from shellfree.rgcli.run import run
out = io.BytesIO()
status = run([a.encode() for a in sys.argv[1:]], out, io.BytesIO(), may_fork=True)
assert status in (0, 1), status
print(sorted(m for m in sys.modules if m in FORBIDDEN or m.startswith(("shellfree.engine",
      "shellfree.documents", "shellfree.redaction"))
      or (m == "threading" and "regex" not in sys.modules)))
"""
FORBIDDEN = ("typing", "dataclasses", "inspect", "argparse", "pathlib", "tempfile", "subprocess",
             "shellfree.search.tree_cache")


def _child_env() -> dict[str, str]:
    package_root = str(Path(shellfree.__file__).resolve().parent.parent)
    paths = [package_root, *site.getsitepackages(), site.getusersitepackages()]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in paths if os.path.isdir(p))
    return env


@pytest.mark.parametrize("args", [
    ["-n", "needle"], ["-n", "-i", "nÉedle"], ["--files"], ["-c", "-w", r"ne\w+"],
    ["--json", "needle"], ["-U", "-n", r"needle\nb"], ["-l", "-g", "*.txt", "needle"],
])
def test_a_command_line_search_imports_no_typing(isolated, args):
    (isolated / ".git").mkdir()
    (isolated / ".gitignore").write_bytes(b"*.log\n")
    (isolated / "a.txt").write_bytes(b"a needle\nb\n")
    (isolated / "b.log").write_bytes(b"needle\n")
    (isolated / "sub").mkdir()
    (isolated / "sub" / "c.txt").write_bytes("nÉedle\n".encode())
    code = f"FORBIDDEN = {FORBIDDEN!r}\n{_CODE}"
    done = subprocess.run([sys.executable, "-S", "-c", code, *args], cwd=isolated,
                          env=_child_env(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
