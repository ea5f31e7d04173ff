"""Tests for shellfree.search.regex_syntax: AST shapes and the spans rg underlines."""

from __future__ import annotations

import pytest

from shellfree.search import regex_syntax as S


def err(pattern: str) -> S.RegexSyntaxError:
    with pytest.raises(S.RegexSyntaxError) as info:
        S.parse(pattern)
    return info.value


class TestParse:
    def test_literal_concat(self):
        ast = S.parse("ab")
        assert isinstance(ast, S.Concat) and [a.c for a in ast.asts] == ["a", "b"]

    def test_stacked_repetition(self):
        ast = S.parse("a**")
        assert isinstance(ast, S.Repetition) and isinstance(ast.ast, S.Repetition)

    def test_counted_repetition_with_spaces(self):
        ast = S.parse("a{ 2 , 3 }")
        assert (ast.min, ast.max) == (2, 3)

    def test_flags_group_and_set_flags(self):
        ast = S.parse("a(?i)b")
        assert isinstance(ast.asts[1], S.SetFlags) and ast.asts[1].flags[0].kind == "i"
        group = S.parse("(?i-s:x)")
        assert group.kind == "noncapture" and [f.kind for f in group.flags] == ["i", "-", "s"]

    def test_named_groups_both_syntaxes(self):
        assert S.parse("(?P<a>x)").name == "a"
        assert S.parse("(?<b>x)").name == "b"

    def test_class_set_operations_left_associative(self):
        cls = S.parse("[a-z&&b--c]")
        assert isinstance(cls.kind, S.ClassBinaryOp) and cls.kind.kind == "--"
        assert cls.kind.lhs.kind == "&&"

    def test_ascii_class_only_inside_brackets(self):
        assert isinstance(S.parse("[[:alpha:]]").kind.items[0], S.ClassAscii)
        assert [i.c for i in S.parse("[:a:]").kind.items] == [":", "a", ":"]

    def test_leading_bracket_and_dash_literal(self):
        assert [i.c for i in S.parse("[]a]").kind.items] == ["]", "a"]
        assert [i.c for i in S.parse("[-a-]").kind.items] == ["-", "a", "-"]

    def test_special_word_boundaries(self):
        assert S.parse("\\b{start-half}").kind == "word_start_half"
        assert isinstance(S.parse("\\b{2}"), S.Repetition)

    def test_unicode_class_forms(self):
        assert S.parse("\\pL").name == "L"
        u = S.parse("\\p{sc!=Greek}")
        assert (u.name, u.op, u.value) == ("sc", "!=", "Greek")

    def test_verbose_mode_skips_space_and_comments(self):
        ast = S.parse("(?x) a # comment\n b")
        assert [a.c for a in ast.asts if isinstance(a, S.Literal)] == ["a", "b"]


class TestErrors:
    @pytest.mark.parametrize("pattern, message, span", [
        ("a{,2}", "repetition quantifier expects a valid decimal", (2, 2)),
        ("[z-a]", "invalid character class range, the start must be <= the end", (1, 4)),
        ("(?=a)", "look-around, including look-ahead and look-behind, is not supported", (0, 3)),
        ("\\07", "backreferences are not supported", (0, 2)),
        ("(?)", "repetition operator missing expression", (1, 1)),
        ("\\x{110000}", "hexadecimal literal is not a Unicode scalar value", (3, 9)),
        ("\\b{x", "special word boundary assertion is either unclosed or contains an invalid character", (2, 4)),
        ("[]", "unclosed character class", (0, 2)),
        ("a{4294967296}", "decimal literal invalid", (2, 12)),
    ])
    def test_message_and_span(self, pattern, message, span):
        e = err(pattern)
        assert (e.message, (e.span.start, e.span.end)) == (message, span)

    def test_duplicate_name_has_two_spans(self):
        e = err("(?P<a>x)(?P<a>y)")
        assert (e.span.start, e.aux.start) == (12, 4)

    def test_innermost_unclosed_group_reported(self):
        assert err("a(b(c)").span.start == 1

    def test_nest_limit(self):
        assert "(250)" in err("(" * 251 + ")" * 251).message
        S.parse("(" * 250 + ")" * 250)
