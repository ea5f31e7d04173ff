"""The kinds of non-ASCII characters (search/char_kinds.py) are rg's ``\\w``/``\\d``/``\\s``
membership, a pattern written for their stand-ins matches what the regex module matches, and a
line of non-ASCII words no longer loads the regex module."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from shellfree.search import char_kinds as K
from shellfree.search import regex_unicode as U
from shellfree.search.pattern import PatternOptions, compile_patterns
from tests.search.test_ascii_confirm import (
    PATTERN_AND_OPTIONS,
    compiled_or_rejected,
    word_search_in_a_new_process,
)
from tests.search.test_rg_search import same

VERIFIED = unicodedata.unidata_version in K.VERIFIED_UNICODE


def _rg_kind(cp: int, word, digit, space) -> str:
    if cp in digit:
        return "D"
    if cp in word:
        return "W"
    return "S" if cp in space else "O"


def test_every_code_point_has_the_kind_rg_s_classes_give_it():
    # rg's classes as measured from the binary (regex_unicode: the regex module's properties
    # corrected where rg 15.1 differs), against the standard library's categories.
    everything = set(range(0x80, 0x110000))
    word, digit, space = (set(U.members(U.perl_class(k, True), everything)) for k in "wds")
    assert digit <= word and not (word & space)
    known = 0
    for cp in range(0x80, 0x110000):
        kind = K.kind_of(cp)
        if kind is None:
            if VERIFIED:
                assert unicodedata.category(chr(cp)) in ("Cn", "Cs"), hex(cp)
            continue
        known += 1
        assert kind == _rg_kind(cp, word, digit, space), (hex(cp), kind)
    # Python 3.10-3.13 assign 144,000-150,000 code points; an unverified version none.
    assert (known > 140_000) if VERIFIED else known == 0


def test_stand_ins_keep_every_index_and_leave_ascii_alone():
    line = "naïve ²٣\u00a0🎵Ⓐ\u200dx"
    stand_ins = K.stand_in_text(line)
    if not VERIFIED:
        assert stand_ins is None
        return
    w, d, s, o = (K.STAND_INS[k] for k in K.KINDS)
    assert stand_ins == f"na{w}ve {o}{d}{s}{o}{w}{w}x"
    assert K.stand_in_text("plain ascii") == "plain ascii"


def test_the_table_of_stand_ins_stays_bounded():
    # Every CJK ideograph, one line each: the table starts afresh instead of growing.
    ideographs = [chr(cp) for cp in range(0x4E00, 0x4E00 + 3 * K.REMEMBERED)]
    for ideograph in ideographs:
        stand_ins = K.stand_in_text("x" + ideograph)
        assert stand_ins in (None, "x" + K.STAND_INS["W"])
        assert len(K._TABLE) <= 128 + K.REMEMBERED
    if VERIFIED:
        assert K.stand_in_text("a\u00e9") == "a" + K.STAND_INS["W"]
        assert K.stand_in_text("plain ascii") == "plain ascii"


@pytest.mark.parametrize("line", ["bad \udc80 byte", "unassigned \u0378", "mixed é \udcff"])
def test_a_character_of_unknown_kind_leaves_the_line_to_the_regex_module(line):
    assert K.stand_in_text(line) is None


@pytest.mark.parametrize("pattern, kinds", [
    ("\\w+Error", True), ("\\bfoo\\b", True), (".x", True), ("[^a]{2}", True), ("\\W\\d\\s", True),
    ("(?i)ex", True),
    ("\\p{Greek}x", False),  # holds some word characters and not others
    ("é", False),  # a non-ASCII literal
    ("[à-ÿ]", False),
    ("[^é]x", False),  # all but one
    ("[^\\x{10FFFF}]x", False),
    ("[\\x00-\\x{D7FF}\\x{E000}-\\x{10FFFF}]x", True),
    ("(?i)kx", False),  # k folds to the Kelvin sign
    ("(?-u:\\b)x", False),  # holds between the bytes of a character
    ("(?-u:[^a]){2}", False),  # matches the bytes of a character
])
def test_which_patterns_get_a_stand_in_form(pattern, kinds):
    assert compile_patterns([pattern], PatternOptions()).ascii_kinds is kinds


# Of each kind: word (letters, a mark, a circled letter, a joiner), digit, space, other.
NON_ASCII = "éÉßΣ\u0301Ⓐ\u200d٣\u00a0\u2003²—🎵\ue000K"


@settings(max_examples=600, deadline=None)
@given(
    **PATTERN_AND_OPTIONS,
    lines=st.lists(st.text(alphabet="abcEkKs _-1\t." + NON_ASCII, max_size=30), min_size=1,
                   max_size=6),
)
def test_on_stand_ins_re_finds_what_regex_finds_on_the_line(pattern, case, word, line_flag,
                                                             unicode, lines):
    compiled = compiled_or_rejected(pattern, case, word, line_flag, unicode)
    assume(compiled.ascii_kinds)
    for line in lines:
        stand_ins = K.stand_in_text(line)
        if stand_ins is None:
            continue
        ours = compiled.ascii_regex.search(stand_ins)
        theirs = compiled.regex.search(line)
        assert (ours is None) == (theirs is None), (pattern, line)
        if ours is not None:
            assert ours.span() == theirs.span(), (pattern, line)


@pytest.fixture
def mixed_tree(isolated):
    (isolated / "words.txt").write_text(
        "naïveError\nÉtéError ok\n—Error\n🎵 WriteErrorLine\nu'Error … messäge'\n"
        "x²Error\n٣Error\nⒶError\n\u00a0Error\nfoo\u200dError\nplainError\n"
        "a \u2003 b\nπ = 3.14\n", encoding="utf-8")
    return isolated


@pytest.mark.parametrize("args", [
    ["-n", "\\w+Error"], ["-n", "-w", "\\w+Error"], ["-n", "\\bError"], ["-n", "\\BError"],
    ["-n", "\\W\\w"], ["-n", "\\d\\w"], ["-n", "\\s\\S"], ["-n", "-i", "\\w+error"],
    ["-n", "-x", ".{1,3}Error"], ["-c", "[^a-z]Error"], ["-n", "-v", "\\w+Error"],
    ["-n", "[\\w&&\\D]Error"], ["-n", "[\\W--\\s]Error"], ["-n", "[\\w~~\\d]Error"],
])
def test_lines_confirmed_on_stand_ins_print_what_rg_prints(mixed_tree, reference_rg, args):
    same(reference_rg, args)


def test_a_word_search_over_non_ascii_lines_never_loads_the_regex_module(tmp_path):
    (tmp_path / "a.py").write_text("raise ValueError('café')\nu'Error … messäge'\n",
                                   encoding="utf-8")
    proc = word_search_in_a_new_process(tmp_path)
    if VERIFIED:
        assert proc.returncode == 0, proc.stderr
    else:
        assert b"regex loaded" in proc.stderr
