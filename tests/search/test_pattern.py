"""Unit tests for shellfree.search.pattern: one class per rule, expectations checked against rg 15.1.

The expected error texts below are rg 15.1's stderr (after ``rg: ``), captured from the
reference binary; :class:`TestErrorsAgainstBinary` re-checks them when the binary is installed.
"""

from __future__ import annotations

import os
import subprocess
import sysconfig

import pytest

from shellfree.search.errors import PatternError
from shellfree.search.pattern import CompiledPattern, PatternOptions, compile_patterns

RG = os.path.join(sysconfig.get_path("scripts"), "rg")
needs_rg = pytest.mark.skipif(not os.path.exists(RG), reason="reference rg 15.1.0 not installed")


def lines_matching(patterns, text: str, **opts) -> list:
    """Line numbers (1-based) with a match, searched the way a line-mode searcher does."""
    cp = compile_patterns(patterns, PatternOptions(**opts))
    return [no for no, line in enumerate(text.split("\n"), 1) if any(True for _ in cp.iter_spans(line))]


def only_matching(patterns, line: str, **opts) -> list:
    cp = compile_patterns(patterns, PatternOptions(**opts))
    return [line[s:e] for s, e in cp.iter_spans(line)]


def error_of(patterns, **opts) -> str:
    with pytest.raises(PatternError) as info:
        compile_patterns(patterns, PatternOptions(**opts))
    return str(info.value)


RG_ERRORS = {
    'a{,2}b': 'regex parse error:\n    (?:a{,2}b)\n         ^\nerror: repetition quantifier expects a valid decimal',
    '(?P<a>y)(?P<a>z)': 'regex parse error:\n    (?:(?P<a>y)(?P<a>z))\n           ^       ^\nerror: duplicate capture group name',
    '(': 'regex parse error:\n    (?:()\n    ^\nerror: unclosed group',
    ')': 'regex parse error:\n    (?:))\n        ^\nerror: unopened group',
    '[a': 'regex parse error:\n    (?:[a)\n       ^\nerror: unclosed character class',
    'x[[]': 'regex parse error:\n    (?:x[[])\n         ^^\nerror: unclosed character class',
    '\\y': 'regex parse error:\n    (?:\\y)\n       ^^\nerror: unrecognized escape sequence',
    '\\Z': 'regex parse error:\n    (?:\\Z)\n       ^^\nerror: unrecognized escape sequence',
    '\\e': 'regex parse error:\n    (?:\\e)\n       ^^\nerror: unrecognized escape sequence',
    '\\cA': 'regex parse error:\n    (?:\\cA)\n       ^^\nerror: unrecognized escape sequence',
    '\\N{DIGIT ONE}': 'regex parse error:\n    (?:\\N{DIGIT ONE})\n       ^^\nerror: unrecognized escape sequence',
    '\\X': 'regex parse error:\n    (?:\\X)\n       ^^\nerror: unrecognized escape sequence',
    '(?>a)': 'regex parse error:\n    (?:(?>a))\n         ^\nerror: unrecognized flag',
    '[\\b]': 'regex parse error:\n    (?:[\\b])\n        ^^\nerror: invalid escape sequence found in character class',
    '\\p{Foo}': 'regex parse error:\n    (?:\\p{Foo})\n       ^^^^^^^\nerror: Unicode property not found',
    '\\p{gc=Foo}': 'regex parse error:\n    (?:\\p{gc=Foo})\n       ^^^^^^^^^^\nerror: Unicode property value not found',
    '[z-a]': 'regex parse error:\n    (?:[z-a])\n        ^^^\nerror: invalid character class range, the start must be <= the end',
    '[\\w-z]': 'regex parse error:\n    (?:[\\w-z])\n        ^^\nerror: invalid range boundary, must be a literal',
    'a{3,2}': 'regex parse error:\n    (?:a{3,2})\n        ^^^^^\nerror: invalid repetition count range, the start must be <= the end',
    '\\x{110000}': 'regex parse error:\n    (?:\\x{110000})\n          ^^^^^^\nerror: hexadecimal literal is not a Unicode scalar value',
    '\\x{D800}': 'regex parse error:\n    (?:\\x{D800})\n          ^^^^\nerror: hexadecimal literal is not a Unicode scalar value',
    '(?=a)': 'regex parse error:\n    (?:(?=a))\n       ^^^\nerror: look-around, including look-ahead and look-behind, is not supported\n\nConsider enabling PCRE2 with the --pcre2 flag, which can handle backreferences\nand look-around.',
    '(?<!a)': 'regex parse error:\n    (?:(?<!a))\n       ^^^^\nerror: look-around, including look-ahead and look-behind, is not supported\n\nConsider enabling PCRE2 with the --pcre2 flag, which can handle backreferences\nand look-around.',
    '\\1': 'regex parse error:\n    (?:\\1)\n       ^^\nerror: backreferences are not supported\n\nConsider enabling PCRE2 with the --pcre2 flag, which can handle backreferences\nand look-around.',
    '\\0': 'regex parse error:\n    (?:\\0)\n       ^^\nerror: backreferences are not supported\n\nConsider enabling PCRE2 with the --pcre2 flag, which can handle backreferences\nand look-around.',
    '\\07': 'regex parse error:\n    (?:\\07)\n       ^^\nerror: backreferences are not supported\n\nConsider enabling PCRE2 with the --pcre2 flag, which can handle backreferences\nand look-around.',
    '\\8': 'regex parse error:\n    (?:\\8)\n       ^^\nerror: backreferences are not supported\n\nConsider enabling PCRE2 with the --pcre2 flag, which can handle backreferences\nand look-around.',
    '*': 'regex parse error:\n    (?:*)\n       ^\nerror: repetition operator missing expression',
    'a{': 'regex parse error:\n    (?:a{)\n         ^\nerror: repetition quantifier expects a valid decimal',
    'a{1': 'regex parse error:\n    (?:a{1)\n        ^^\nerror: unclosed counted repetition',
    '(?)': 'regex parse error:\n    (?:(?))\n        ^\nerror: repetition operator missing expression',
    '(?-)': 'regex parse error:\n    (?:(?-))\n         ^\nerror: dangling flag negation operator',
    '(?ii)': 'regex parse error:\n    (?:(?ii))\n         ^^\nerror: duplicate flag',
    '(?i-i)': 'regex parse error:\n    (?:(?i-i))\n         ^ ^\nerror: duplicate flag',
    '(?--i)': 'regex parse error:\n    (?:(?--i))\n         ^^\nerror: flag negation operator repeated',
    '(?P<>a)': 'regex parse error:\n    (?:(?P<>a))\n           ^\nerror: empty capture group name',
    '(?P<a': 'regex parse error:\n    (?:(?P<a)\n            ^\nerror: invalid capture group character',
    '\\b{foo}': 'regex parse error:\n    (?:\\b{foo})\n          ^^^\nerror: unrecognized special word boundary assertion, valid choices are: start, end, start-half or end-half',
    '\\b{start': 'regex parse error:\n    (?:\\b{start)\n         ^^^^^^\nerror: special word boundary assertion is either unclosed or contains an invalid character',
    '\\x{}': 'regex parse error:\n    (?:\\x{})\n         ^^\nerror: hexadecimal literal empty',
    '\\u{41': 'regex parse error:\n    (?:\\u{41)\n            ^\nerror: invalid hexadecimal digit',
    'é\\y': 'regex parse error:\n    (?:é\\y)\n        ^^\nerror: unrecognized escape sequence',
    '(?x) a b # c': 'regex parse error:\n    (?:(?x) a b # c)\n    ^\nerror: unclosed group',
    '(?-u)\\pL': 'regex parse error:\n    (?:(?-u)\\pL)\n            ^^^\nerror: Unicode not allowed here',
    'a{4294967296}': 'regex parse error:\n    (?:a{4294967296})\n         ^^^^^^^^^^\nerror: decimal literal invalid',
    '[]': 'regex parse error:\n    (?:[])\n       ^^\nerror: unclosed character class',
    '\\n': 'the literal "\\n" is not allowed in a regex\n\nConsider enabling multiline mode with the --multiline flag (or -U for short).\nWhen multiline mode is enabled, new line characters can be matched.',
    'a\\nb': 'the literal "\\n" is not allowed in a regex\n\nConsider enabling multiline mode with the --multiline flag (or -U for short).\nWhen multiline mode is enabled, new line characters can be matched.',
    '[\\n]': 'the literal "\\n" is not allowed in a regex\n\nConsider enabling multiline mode with the --multiline flag (or -U for short).\nWhen multiline mode is enabled, new line characters can be matched.',
    '\\x0A': 'the literal "\\n" is not allowed in a regex\n\nConsider enabling multiline mode with the --multiline flag (or -U for short).\nWhen multiline mode is enabled, new line characters can be matched.',
    '\\x00': 'pattern contains "\\0" but it is impossible to match\n\nConsider enabling text mode with the --text flag (or -a for short). Otherwise,\nbinary detection is enabled and matching a NUL byte is impossible.',
    'foo\\x00?': 'pattern contains "\\0" but it is impossible to match\n\nConsider enabling text mode with the --text flag (or -a for short). Otherwise,\nbinary detection is enabled and matching a NUL byte is impossible.',
    '[^\\x01-\\x{10FFFF}]': 'pattern contains "\\0" but it is impossible to match\n\nConsider enabling text mode with the --text flag (or -a for short). Otherwise,\nbinary detection is enabled and matching a NUL byte is impossible.',
    '\\n\\x00': 'pattern contains "\\0" but it is impossible to match\n\nConsider enabling text mode with the --text flag (or -a for short). Otherwise,\nbinary detection is enabled and matching a NUL byte is impossible.',
    'a\n\\y': 'regex parse error:\n~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n1: (?:a\n2: \\y)\n   ^^\n~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\nerror: unrecognized escape sequence',
    '(?P<a>x)\n(?P<a>y)': 'regex parse error:\n~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n1: (?:(?P<a>x)\n          ^\n2: (?P<a>y))\n       ^\n~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\nerror: duplicate capture group name',
}

NEWLINE_ERROR = ('the literal "\\n" is not allowed in a regex\n\n'
                 "Consider enabling multiline mode with the --multiline flag (or -U for short).\n"
                 "When multiline mode is enabled, new line characters can be matched.")


class TestErrors:
    @pytest.mark.parametrize("pattern", sorted(RG_ERRORS))
    def test_error_text_is_rgs(self, pattern):
        assert error_of([pattern]) == RG_ERRORS[pattern], pattern

    def test_error_is_a_value_error(self):
        with pytest.raises(ValueError):
            compile_patterns(["("], PatternOptions())

    def test_joined_patterns_show_in_error(self):
        # rg: -e a -e '(' shows the whole joined pattern, caret under the unclosed group.
        assert error_of(["a", "("]) == "regex parse error:\n    (?:a)|(?:()\n          ^\nerror: unclosed group"

    def test_crlf_makes_a_literal_cr_an_error(self):
        # rg: --crlf 'foo\r' -> the literal "\r" error (checked before \n: '\r\n' names \r).
        assert error_of(["\\r\\n"], crlf=True) == NEWLINE_ERROR.replace('"\\n"', '"\\r"')

    def test_newline_in_fixed_string(self):
        assert error_of(["a\nb"], fixed_strings=True) == NEWLINE_ERROR

    def test_nul_allowed_with_text(self):
        cp = compile_patterns(["\\x00"], PatternOptions(binary_detection=False))
        assert cp.regex.search("a\x00b")

    def test_nest_limit(self):
        assert "exceed the maximum number of nested parentheses/brackets (250)" in error_of(["(" * 250 + "a" + ")" * 250])
        compile_patterns(["(" * 249 + "a" + ")" * 249], PatternOptions())


@needs_rg
class TestErrorsAgainstBinary:
    @pytest.mark.parametrize("pattern", sorted(RG_ERRORS))
    def test_expected_text_still_matches_rg(self, pattern, tmp_path):
        f = tmp_path / "f.txt"
        f.write_text("foo\n")
        proc = subprocess.run([RG, "--no-config", "-e", pattern, str(f)], capture_output=True,
                              stdin=subprocess.DEVNULL)
        assert proc.returncode == 2
        assert proc.stderr.decode().removeprefix("rg: ").removesuffix("\n") == RG_ERRORS[pattern]


# Outside -U, rg takes the line terminator out of every class, one byte at a time ("\r" first
# under --crlf), and a literal of it is an error; a class left with one character is that
# literal, and an alternation of single characters, or of classes alone, is one class. Each
# pair: (pattern, under --crlf), the error shellfree gives or None; the binary test checks rg.
TERMINATOR_STRIP = {
    ("[\\r\\n]", True): '"\\n"',
    ("[\\n\\r]+", True): '"\\n"',
    ("(?-u:[\\r\\n])", True): '"\\n"',
    ("[\\r\\n]", False): None,
    ("[\\r\\na]", True): None,
    ("x|[\\r\\n]", True): None,  # x|\n after the "\r": one class [\nx]
    ("xy|[\\r\\n]", True): '"\\n"',
    ("[xy]|[\\r\\n]", True): None,
    ("[xy]|\\n", False): '"\\n"',  # a class and a literal stay an alternation
    ("[xy]|[\\r\\n]|z", True): '"\\n"',
    ("(?-u:[x\\xff])|[\\r\\n]", True): None,  # a byte class joins an ASCII Unicode one
    ("(?-u:[\\xfe\\xff])|[ba]|[\\r\\n]", True): None,
    ("(?-u:[\\xfe\\xff])|[\\xe9a]|[\\r\\n]", True): '"\\n"',  # neither side ASCII only
    ("x|\\r", True): None,
}


def _strip_error(pattern: str, crlf: bool) -> str | None:
    try:
        compile_patterns([pattern], PatternOptions(crlf=crlf))
    except PatternError as err:
        return str(err)
    return None


class TestTerminatorStrip:
    @pytest.mark.parametrize("case", sorted(TERMINATOR_STRIP))
    def test_error_or_none(self, case):
        named = TERMINATOR_STRIP[case]
        expected = None if named is None else NEWLINE_ERROR.replace('"\\n"', named)
        assert _strip_error(*case) == expected


@needs_rg
class TestTerminatorStripAgainstBinary:
    @pytest.mark.parametrize("case", sorted(TERMINATOR_STRIP))
    def test_rg_agrees(self, case, tmp_path):
        pattern, crlf = case
        f = tmp_path / "f.txt"
        f.write_bytes(b"foo\r\nx\n")
        proc = subprocess.run([RG, "--no-config", *(["--crlf"] if crlf else []), "-c", "-e",
                               pattern, str(f)], capture_output=True, stdin=subprocess.DEVNULL)
        ours = _strip_error(pattern, crlf)
        if ours is None:
            assert proc.returncode in (0, 1) and proc.stderr == b"", proc.stderr
        else:
            assert proc.returncode == 2
            assert proc.stderr.decode().removeprefix("rg: ").removesuffix("\n") == ours


class TestJoinedPatterns:
    def test_unbalanced_parts_are_valid_once_joined(self):
        # rg: -e ')(' becomes (?:)(), which matches every line; 'a)|(b' is accepted too.
        assert lines_matching([")("], "x\n\ny") == [1, 2, 3]
        assert lines_matching(["a)|(b"], "a\nb\nc") == [1, 2]

    def test_flags_do_not_leak(self):
        # rg r2480: -e '(?i)foo' -e bar does not make bar case-insensitive.
        assert lines_matching(["(?i)foo", "bar"], "FOO\nBAR\nbar") == [1, 3]

    def test_duplicates_dropped(self):
        assert compile_patterns(["a", "a"], PatternOptions()).source == compile_patterns(["a"], PatternOptions()).source

    def test_zero_patterns_never_match(self):
        cp = compile_patterns([], PatternOptions())
        assert cp.matches_nothing and list(cp.iter_spans("anything")) == []

    def test_empty_pattern_matches_every_line(self):
        assert lines_matching([""], "a\n\nb") == [1, 2, 3]

    def test_mid_pattern_flag_reaches_later_branches(self):
        # rg: (?-i)foo|fo under -S is sensitive in both branches.
        assert lines_matching(["(?-i)foo|fo"], "FOO\nfoo", case="smart") == [2]

    def test_fixed_strings_are_literal(self):
        assert lines_matching(["a.b", "(x"], "a.b\naxb\n(x", fixed_strings=True) == [1, 3]

    def test_alternation_of_newline_quirk(self):
        # rg: 'a|\n' is accepted (single characters merge into a class, \n is then removed).
        assert lines_matching(["a|\\n"], "a\nb") == [1]
        assert error_of(["ab|\\n"]) == NEWLINE_ERROR
        assert error_of(["(a)|\\n"]) == NEWLINE_ERROR
        compile_patterns(["\\n{0}"], PatternOptions())


class TestSmartCase:
    @pytest.mark.parametrize("patterns, insensitive", [
        (["foo"], True), (["Foo"], False), (["\\x46oo"], False), (["[E]conomie"], False),
        (["[a-Z]"] if False else ["[A-z]"], False), (["\\w+"], False), (["\\w+O"], False),
        (["foo", "Bar"], False), (["foo", "\\d"], True), (["\\pL"], False), (["é"], True),
        (["É"], False), (["ǅ"], True),
    ])
    def test_decision(self, patterns, insensitive):
        assert compile_patterns(patterns, PatternOptions(case="smart")).case_insensitive is insensitive

    def test_uppercase_in_one_pattern_makes_all_sensitive(self):
        assert lines_matching(["foo", "Bar"], "FOO\nfoo", case="smart") == [2]


class TestCaseFolding:
    def test_simple_folding(self):
        assert only_matching(["k"], "k K \u212a", case="insensitive") == ["k", "K", "\u212a"]
        assert only_matching(["s"], "s S \u017f", case="insensitive") == ["s", "S", "\u017f"]
        assert only_matching(["σ"], "σ ς Σ", case="insensitive") == ["σ", "ς", "Σ"]

    def test_no_full_folding(self):
        assert lines_matching(["ß"], "SS\nß\nẞ", case="insensitive") == [2, 3]

    def test_dotted_dotless_i_stay_apart(self):
        # rg: i ~ I only; İ and ı fold to nothing else (the regex module would relate them).
        assert only_matching(["i"], "i I İ ı", case="insensitive") == ["i", "I"]
        assert only_matching(["İ"], "i I İ ı", case="insensitive") == ["İ"]
        assert only_matching(["[ı]"], "i I İ ı", case="insensitive") == ["ı"]

    def test_ascii_only_without_unicode(self):
        assert only_matching(["k"], "k K \u212a", case="insensitive", unicode=False) == ["k", "K"]


class TestWord:
    def test_half_boundaries(self):
        assert lines_matching(["foo-"], "-foo-\nfoo-baz", word=True) == [1]
        assert lines_matching(["-foo"], "-foo-", word=True) == [1]
        assert lines_matching(["o"], "foo", word=True) == []

    def test_only_matching_period(self):
        # rg word_period: -ow . on ... prints three dots.
        assert only_matching(["."], "...", word=True) == [".", ".", "."]

    def test_empty_pattern_with_word(self):
        assert lines_matching([""], "abc\nab c\n", word=True) == [3]

    def test_word_chars_are_rusts(self):
        # Combining marks and ‿ are word characters, ² is not.
        assert only_matching(["\\w+"], "e\u0301 a‿b x²") == ["e\u0301", "a‿b", "x"]

    def test_line_overrides(self):
        cp = compile_patterns(["foo|bar"], PatternOptions(line=True))
        assert lines_matching(["foo|bar"], "foo\nfoobar\nbar", line=True) == [1, 3]
        assert cp.regex.search("foo")


class TestUnicodeClasses:
    def test_digits_and_spaces(self):
        assert only_matching(["\\d+"], "12 \u0660\u0661 ²") == ["12", "\u0660\u0661"]
        assert lines_matching(["\\s"], "a\x1cb\na\u2028b") == [2]

    def test_properties(self):
        assert only_matching(["\\p{Greek}+"], "abc αβγ") == ["αβγ"]
        assert only_matching(["[[:alpha:]]+"], "abc é") == ["abc"]
        assert only_matching(["[\\w&&[^a]]+"], "banana") == ["b", "n", "n"]

    def test_invalid_utf8_never_matches_a_class(self):
        text = b"caf\xe9 a\xffb".decode("utf-8", "surrogateescape")
        assert only_matching(["caf."], text) == []
        assert only_matching(["a[^x]b"], text) == []
        assert only_matching(["\\W"], text) == [" "]
        assert only_matching(["\\xE9"], "café") == ["é"]

    def test_newline_never_in_a_class_in_line_mode(self):
        cp = compile_patterns(["[^a]"], PatternOptions())
        assert not cp.regex.search("\n")
        cp = compile_patterns(["[^a]+"], PatternOptions(multiline=True))
        assert cp.regex.search("b\nc").group() == "b\nc" and cp.can_match_newline


class TestAnchors:
    def test_dollar_not_before_cr(self):
        assert lines_matching(["foo$"], "foo\r\nfoo") == [2]
        assert lines_matching(["foo$"], "foo\r\nfoo", crlf=True) == [1, 2]

    def test_text_anchors_in_multiline(self):
        cp = compile_patterns(["\\Afoo"], PatternOptions(multiline=True))
        assert len(cp.regex.findall("foo\nfoo\n")) == 1
        cp = compile_patterns(["end\\z"], PatternOptions(multiline=True))
        assert not cp.regex.search("end\n")

    def test_dot_and_dotall(self):
        assert not compile_patterns(["foo.bar"], PatternOptions(multiline=True)).regex.search("foo\nbar")
        assert compile_patterns(["(?s)foo.bar"], PatternOptions(multiline=True)).regex.search("foo\nbar")
        assert compile_patterns(["foo.bar"], PatternOptions(multiline=True, dotall=True)).regex.search("foo\nbar")


class TestRustSyntax:
    @pytest.mark.parametrize("pattern, text, expected", [
        ("a**", "aaa", ["aaa"]), ("a{2}{3}", "aaaaaaa", ["aaaaaa"]), ("a++", "aa", ["aa"]),
        ("\\x{41}\\u{42}\\u0043", "ABC", ["ABC"]), ("(?<n>a)(?P<m>b)", "ab", ["ab"]),
        ("a(?i)b", "aB AB", ["aB"]), ("\\<foo\\>", "foo xfoo", ["foo"]),
        ("\\b{start}a", "a ba", ["a"]), ("a\\b{end-half}", "a ab", ["a"]),
        ("[a-z--aeiou]+", "hello", ["h", "ll"]), ("[a~~b]", "abc", ["a", "b"]),
        ("(?U)a+", "aaa", ["a", "a", "a"]), ("(?x) a b", "ab", ["ab"]), ("a{ 2 }", "aa", ["aa"]),
    ])
    def test_construct(self, pattern, text, expected):
        assert only_matching([pattern], text) == expected


class TestIteration:
    def test_empty_matches_are_byte_wise(self):
        # rg: -o '' on "é" prints three empty matches (one per byte offset); \b{start-half} one.
        assert len(only_matching([""], "é")) == 3
        assert len(only_matching(["\\b{start-half}"], "é")) == 1

    def test_empty_match_after_match_skipped(self):
        assert only_matching(["a*"], "baa") == ["", "aa"]


class TestRequiredLiterals:
    @pytest.mark.parametrize("pattern, expected", [
        ("\\w+Error", ("Error",)), ("foo|bar", ("bar", "foo")), ("a*", None), ("(foo)+x", ("foo",)),
    ])
    def test_examples(self, pattern, expected):
        assert compile_patterns([pattern], PatternOptions()).required_literals == expected

    def test_none_when_case_insensitive(self):
        assert compile_patterns(["foo"], PatternOptions(case="insensitive")).required_literals is None


class TestApi:
    def test_frozen(self):
        cp = compile_patterns(["a"], PatternOptions())
        assert isinstance(cp, CompiledPattern)
        with pytest.raises(Exception):
            cp.source = "b"

    def test_bad_case_value(self):
        with pytest.raises(ValueError):
            compile_patterns(["a"], PatternOptions(case="upper"))
