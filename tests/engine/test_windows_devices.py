"""Windows reserved device names (CON, NUL, COM1, …) are refused by every tool on Windows."""

from __future__ import annotations

import json

import pytest

from shellfree import FileTools
from shellfree.engine import policy
from shellfree.engine.policy import windows_device_name


@pytest.mark.parametrize(
    "path, device",
    [
        ("NUL", "NUL"),
        ("nul.txt", "NUL"),
        ("C:\\work\\Con .log", "CON"),
        ("src/aux.c", "AUX"),
        ("COM1", "COM1"),
        ("com\u00b9.txt", "COM\u00b9"),
        ("LPT9.md", "LPT9"),
        ("CONIN$", "CONIN$"),
        ("COM10", None),
        ("CONSOLE.txt", None),
        ("auxiliary.py", None),
        ("notes/nul/readme.md", None),  # only the last component opens the device
    ],
)
def test_device_names(path, device):
    assert windows_device_name(path) == device


@pytest.fixture
def on_windows(monkeypatch):
    monkeypatch.setattr(policy, "_WINDOWS", True)


def test_every_tool_refuses_a_device_name_on_windows(tmp_path, on_windows):
    ft = FileTools(root=tmp_path)
    expected = (
        "denied: 'nul.txt' names the Windows device 'NUL' (CON, PRN, AUX, NUL, COM0-9 and "
        "LPT0-9 are devices in every directory, whatever the extension). Opening it reaches "
        "the device, not a file. Use another file name."
    )
    assert json.loads(ft.read_file("nul.txt"))["error"] == "Read " + expected
    assert json.loads(ft.write_file("nul.txt", "x"))["error"] == "Write " + expected
    assert json.loads(ft.search_files("x", path="nul.txt"))["error"] == "Search " + expected
    assert not (tmp_path / "nul.txt").exists()


def test_device_names_are_ordinary_files_elsewhere(tmp_path):
    ft = FileTools(root=tmp_path)
    assert "error" not in json.loads(ft.write_file("nul.txt", "x\n"))
    assert (tmp_path / "nul.txt").read_text() == "x\n"
