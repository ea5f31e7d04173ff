"""A long line of a pattern ``A L B`` is confirmed at the occurrences of its literal ``L``
(CompiledPattern.around_literal, ``(?<=A)L B``), and that decides exactly what a search from
the line's start decides."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from shellfree.search import searcher
from shellfree.search.pattern import PatternOptions, compile_patterns
from tests.search.test_rg_search import same

BEFORE = ["a", "b", "é", "\\w", "\\W", "\\d", "\\s", "[a-c]", "[^a-c]", ".", "\\pL", "(?:a|bb)",
          "(?:ab|a)", "(?i:k)", "x"]
AFTER = BEFORE + ["\\b"]  # an assertion after the literal: no split, the plain search decides
QUANTIFIERS = ["", "", "+", "*", "?", "{1,3}", "+?", "*?", "{2}"]


def _run(draw, atoms) -> str:
    parts = []
    for _ in range(draw(st.integers(0, 3))):
        atom = draw(st.sampled_from(atoms))
        quantifier = draw(st.sampled_from(QUANTIFIERS)) if atom != "\\b" else ""
        parts.append(atom + quantifier)
    return "".join(parts)


@st.composite
def split_patterns(draw):
    before = _run(draw, BEFORE) or draw(st.sampled_from(BEFORE))
    return before + "Err" + _run(draw, AFTER)


@st.composite
def long_lines(draw):
    # Occurrences of the literal inside and between runs of the atoms' characters, with a
    # filler that makes the line long enough for the shortcut.
    alphabet = "abcxkKé_ 1-."
    pieces = draw(st.lists(st.text(alphabet=alphabet, max_size=12), min_size=1, max_size=6))
    filler = draw(st.text(alphabet=alphabet, min_size=1, max_size=4))
    line = "Err".join(pieces)
    at = draw(st.integers(0, len(line)))
    return line[:at] + filler * (300 // len(filler) + 1) + line[at:]


def _line_matches(compiled, line: str) -> bool:
    data = line.encode()
    return searcher._Lines(data, len(data), compiled, timeout=5.0).line_matches(0, len(data))


@settings(max_examples=500, deadline=None)
@given(pattern=split_patterns(), line=long_lines())
def test_the_literal_decides_a_long_line_as_the_search_from_its_start_does(pattern, line):
    compiled = compile_patterns([pattern], PatternOptions())
    assume(compiled.around_literal is not None)
    expected = compiled.regex.search(line) is not None
    assert _line_matches(compiled, line) == expected, (pattern, line)


@pytest.mark.parametrize("pattern, split", [
    ("\\w+Error", True),
    ("x[a-z]+Error\\d", True),
    ("(\\w+)Error", True),
    ("Error\\w+", False),        # nothing before the literal: the search finds it at once
    ("\\bfoo\\w+Error", False),  # an assertion may look past the stretch before the literal
    ("\\w+Error|\\w+Warning", False),  # two literals
    ("\\w+(?:Error)+", False),   # the literal is not a part of the top-level concatenation
])
def test_which_patterns_split_around_their_literal(pattern, split):
    assert (compile_patterns([pattern], PatternOptions()).around_literal is not None) is split


def test_words_and_whole_lines_do_not_split():
    assert compile_patterns(["\\w+Error"], PatternOptions(word=True)).around_literal is None
    assert compile_patterns(["\\w+Error"], PatternOptions(line=True)).around_literal is None


def test_a_line_with_many_occurrences_that_are_no_match_is_searched_from_its_start():
    compiled = compile_patterns(["x[a-z]+Error"], PatternOptions())
    line = " Error" * (2 * searcher._AROUND_TRIES) + " xyzError"
    assert compiled.regex.search(line) is not None
    assert _line_matches(compiled, line)
    data = line.encode()
    assert searcher._Lines(data, len(data), compiled, 5.0)._around_literal(line) is None


@pytest.fixture
def long_lines_tree(isolated):
    (isolated / "data.json").write_bytes(
        ("[" + '"ok", ' * 2000 + '"handShakeError", "Error", "é"]\n').encode()  # first match far in
        + b" Error" * 40 + b" fooError\n"  # more non-matching occurrences than are tried
        + b" Error" * 60 + b"\n"  # occurrences only, none preceded by a word character
        + "é".encode() * 300 + b"Error\n"  # non-ASCII word characters before the literal
    )
    return isolated


@pytest.mark.parametrize("args", [
    ["-n", "\\w+Error"], ["-c", "\\w+Error"], ["-o", "\\w+Error"], ["-n", "o+Error"],
    ["-n", "\\w{2}Error"], ["-n", "[a-z]+Error"],
])
def test_long_lines_confirmed_around_the_literal_print_what_rg_prints(long_lines_tree, reference_rg, args):
    same(reference_rg, args)


def test_a_long_line_that_backtracks_from_its_start_is_decided_at_its_literal(isolated, reference_rg):
    # From the line's start, \w+Error backtracks through the whole run at every position and
    # used to end in the time budget's error; rg answers at once, and so does the literal's
    # one occurrence, which no word character precedes.
    (isolated / "f.txt").write_bytes(b"a" * 1_000_000 + b" Error\n")
    same(reference_rg, ["-n", "\\w+Error"])
