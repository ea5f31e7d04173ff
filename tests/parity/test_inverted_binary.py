"""-v with context options over files rg reads in fills and finds binary data in: after its
printer refuses a line, rg's inverted search goes on fill by fill and can write a `--` before
the binary notice (inverted_replay.breaks_after_refusal), byte for byte against rg 15.1."""

from __future__ import annotations

import pytest

from benchmarks.parity.inverted_binary_probe import compare
from benchmarks.parity.side_by_side import agrees


def _with_nul(line: bytes, at: int) -> bytes:
    return line[:at] + b"\0" + line[at + 1:]


HUNDREDS = b"".join(b"y" * 100 + b"\n" for _ in range(700))  # lines 3 to 702
EARLY = b"".join((_with_nul(b"y" * 100, 50) if i == 648 else b"y" * 100) + b"\n"
                 for i in range(700))  # a NUL in line 651, inside the second fill
CASES = {
    # -n -B1 ends `650:...`, `--`, the notice: the read of nothing that completes the
    # unterminated last line is a fill of its own, and writes it. Under -A1 the after-context
    # still due at the refusal stops the search: no separator.
    "unterminated": b"x\nx beta\n" + HUNDREDS + _with_nul(b"y" * 9000, 100) + b"\nx",
    # No fill after the NUL's: no separator.
    "terminated": b"x\nx beta\n" + HUNDREDS + _with_nul(b"y" * 9000, 100) + b"\nx\n",
    # The NUL in the second fill (the first is 3 bytes): -B1 prints line 1 and two separators.
    "early": b"x\nx beta\n" + EARLY + b"y" * 9000 + b"\nx",
}


@pytest.mark.parametrize("flags", [["-n", "-B1"], ["-n", "-B2"], ["-n", "-A1"], ["-C1"],
                                   ["-B1", "--no-context-separator"], ["-B1", "--heading"]],
                         ids=" ".join)
@pytest.mark.parametrize("name", list(CASES))
def test_separators_after_a_refused_line(tmp_path, reference_rg, name, flags):
    (tmp_path / "f").write_bytes(CASES[name])
    assert agrees(reference_rg.path, ["--no-config", *flags, "-v", "zzz", "--no-mmap", "f"],
                  str(tmp_path), stderr=True)


def test_random_inverted_context_searches_over_binary_files_agree_with_rg(reference_rg):
    # 80 cases of seed 3 take about 6 s.
    agree, differ = compare(reference_rg.path, 3, 80)
    assert not differ, f"{len(differ)} of {agree + len(differ)} differ, e.g. {differ[0][1]}"
