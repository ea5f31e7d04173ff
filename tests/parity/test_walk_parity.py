"""Seeded random ``--files`` parity: 300 generated cases, ``shellfree rg`` vs the rg 15.1 binary.

The cases run in batches of 50 (one test each, two at a time), so a failure lists every differing
seed of its batch and shows the first ones in full: seed, cwd, command, stdout diff, exit codes,
stderr texts and a bash replay script. ``SHELLFREE_PARITY_CASES`` raises the count for a longer run.
"""

from __future__ import annotations

import math
import os

import pytest

from benchmarks.parity.batch import CaseOutcome, describe, run_batch
from benchmarks.parity.runner import ParityRunner
from benchmarks.parity.walk_cases import case_seed, walk_case

RUN_SEED = 7
CASES = max(300, int(os.environ.get("SHELLFREE_PARITY_CASES", "300")))
BATCH = 50
SHOWN = 3
"""How many differing cases of a batch are described in full in the failure message."""


def failure_message(bad: list[CaseOutcome], total: int) -> str:
    """Returns the assertion message for a batch with disagreements."""
    seeds = ", ".join(str(o.comparison.seed) for o in bad)
    head = (
        f"{len(bad)}/{total} cases differ from rg 15.1; seeds: {seeds}\n"
        "replay one: python -m benchmarks.parity walk --case SEED [--shrink]\n\n"
    )
    shown = [describe(o, with_tree=(i == 0)) for i, o in enumerate(bad[:SHOWN])]
    return head + "\n".join(shown)


@pytest.mark.parametrize("batch", range(math.ceil(CASES / BATCH)))
def test_random_walk_cases_match_rg(parity_runner: ParityRunner, batch: int) -> None:
    indices = range(batch * BATCH, min(CASES, (batch + 1) * BATCH))
    seeds = [case_seed(RUN_SEED, i) for i in indices]
    outcomes = list(run_batch(parity_runner, walk_case, seeds, jobs=2))
    bad = [o for o in outcomes if not o.agrees]
    if bad:
        # pytest.fail keeps the message readable (an assert would also print the outcomes' reprs).
        pytest.fail(failure_message(bad, len(outcomes)), pytrace=False)
