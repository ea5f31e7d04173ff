"""The fuzzy matcher (§4.4): each strategy once where it must match and once where it must refuse,
the chain's order, the post-match guards, the replacement adjustments and the hint blocks."""

from __future__ import annotations

import pytest

from shellfree.engine import messages
from shellfree.engine.fuzzy_hints import closest_sections, match_locations
from shellfree.engine.fuzzy_match import fuzzy_find_and_replace, is_already_applied
from shellfree.engine.fuzzy_strategies import (
    STRATEGIES, block_anchor, context_aware, escape_normalized, exact, indentation_flexible,
    line_trimmed, trimmed_boundary, unicode_normalized, whitespace_normalized)


def spans_text(content, spans):
    return [content[s:e] for s, e in spans]


def test_strategy_order_is_the_contract():
    assert [name for name, _ in STRATEGIES] == [
        "exact", "line_trimmed", "whitespace_normalized", "indentation_flexible",
        "escape_normalized", "trimmed_boundary", "unicode_normalized", "block_anchor",
        "context_aware"]


class TestExact:
    def test_matches(self):
        assert exact("a = 1\nb = 2\n", "b = 2") == [(6, 11)]

    def test_non_overlapping(self):
        assert exact("aaaa", "aa") == [(0, 2), (2, 4)]

    def test_refuses_other_spacing(self):
        assert exact("a = 1\n", "a  = 1") == []


class TestLineTrimmed:
    content = "    a = 1   \n    b = 2\n"

    def test_matches_whole_lines(self):
        assert spans_text(self.content, line_trimmed(self.content, "a = 1\nb = 2")) == [
            "    a = 1   \n    b = 2"]
        result = fuzzy_find_and_replace(self.content, "a = 1\nb = 2", "a = 1\nb = 3")
        assert result.strategy == "line_trimmed"

    def test_refuses_inner_difference(self):
        assert line_trimmed(self.content, "a  =  1\nb = 2") == []
        assert line_trimmed(self.content, "a = 1\nb = 3") == []


class TestWhitespaceNormalized:
    def test_matches_collapsed_runs(self):
        content = "x  =   foo(a,\tb)\n"
        assert spans_text(content, whitespace_normalized(content, "x = foo(a, b)")) == [
            "x  =   foo(a,\tb)"]
        assert fuzzy_find_and_replace(content, "x = foo(a, b)", "x = bar()").strategy == (
            "whitespace_normalized")

    def test_refuses_missing_whitespace(self):
        assert whitespace_normalized("x = foo(a, b)\n", "x=foo(a,b)") == []

    def test_boundary_space_kept_unless_matched(self):
        """EDGE CASE (#52491): the trailing run is taken only when the match ended in a space."""
        content = "foo bar   baz"
        assert spans_text(content, whitespace_normalized(content, "foo bar ")) == ["foo bar   "]
        assert spans_text(content, whitespace_normalized(content, "foo  bar")) == ["foo bar"]


class TestIndentationFlexible:
    """Unreachable in the chain (line_trimmed accepts everything it does), so tested alone."""

    def test_matches_other_indentation(self):
        content = "\t\tif x:\n\t\t\treturn 1\n"
        assert spans_text(content, indentation_flexible(content, "if x:\n    return 1")) == [
            "\t\tif x:\n\t\t\treturn 1"]

    def test_refuses_trailing_difference(self):
        assert indentation_flexible("a = 1  \n", "a = 1") == []


class TestEscapeNormalized:
    def test_matches_literal_escapes(self):
        content = "line1\n\tline2\n"
        assert spans_text(content, escape_normalized(content, "line1\\n\\tline2")) == [
            "line1\n\tline2"]
        assert fuzzy_find_and_replace(content, "line1\\n\\tline2", "x").strategy == (
            "escape_normalized")

    def test_refuses_without_escapes(self):
        assert escape_normalized("a b\n", "a b") == []
        assert escape_normalized("line1\nline2\n", "line1\\nlineX") == []


class TestTrimmedBoundary:
    """Also shadowed by line_trimmed in the chain; tested alone."""

    def test_matches_with_exact_middle(self):
        content = "  def f():\n    return 1\n  end  \n"
        assert spans_text(content, trimmed_boundary(content, "def f():\n    return 1\nend")) == [
            "  def f():\n    return 1\n  end  "]

    def test_refuses_different_middle_indentation(self):
        content = "  def f():\n    return 1\n  end\n"
        assert trimmed_boundary(content, "def f():\n  return 1\nend") == []


class TestUnicodeNormalized:
    content = "say “hi” — now…\n"

    def test_matches_typographic_text(self):
        assert spans_text(self.content, unicode_normalized(self.content, 'say "hi" -- now...')) == [
            "say “hi” — now…"]

    def test_keeps_untouched_typography(self):
        result = fuzzy_find_and_replace(self.content, 'say "hi" -- now...',
                                        'say "hello" -- now...')
        assert result.strategy == "unicode_normalized"
        assert result.content == "say “hello” — now…\n"

    def test_deliberate_typography_change_is_applied(self):
        result = fuzzy_find_and_replace("a 'b' c — d\n", "a 'b' c -- d", "a ‘b’ c -- d")
        assert result.content == "a ‘b’ c — d\n"

    def test_refuses_other_text_and_plain_ascii(self):
        assert unicode_normalized(self.content, 'say "bye"') == []
        assert unicode_normalized("plain text\n", "plain  text") == []

    @pytest.mark.parametrize("char", ["\u00a0", "\u2009", "\u202f", "\u3000", "\u2212", "\u2013"])
    def test_special_spaces_and_dashes(self, char):
        content = f"a{char}b\n"
        plain = "a-b" if char in "\u2212\u2013" else "a b"
        assert spans_text(content, unicode_normalized(content, plain)) == [f"a{char}b"]


class TestBlockAnchor:
    content = "def f():\n    a = 1\n    b = 2\n    return a + b\n"

    def test_matches_similar_middle(self):
        old = "def f():\n    a = 1\n    b = 3\n    return a + b"
        result = fuzzy_find_and_replace(self.content, old, "def f():\n    return 0")
        assert result.strategy == "block_anchor"
        assert result.content == "def f():\n    return 0\n"

    def test_refuses_dissimilar_middle(self):
        assert block_anchor(self.content, "def f():\n    zzzz\n    qqqq\n    return a + b") == []

    def test_threshold_rises_with_several_candidates(self):
        block = "start\none two three four\nend\n"
        one, several = block, block + block
        pattern = "start\none two six seven\nend"  # middle ratio ≈ 0.57
        assert len(block_anchor(one, pattern)) == 1
        assert block_anchor(several, pattern) == []

    def test_needs_two_lines(self):
        assert block_anchor("x\n", "x") == []


class TestContextAware:
    content = "def compute(x):\n    return x * 2\n"

    def test_matches_near_lines(self):
        result = fuzzy_find_and_replace(self.content, "def compute(y):\n    return y * 2",
                                        "def compute(y):\n    return y * 3")
        assert result.strategy == "context_aware"
        assert result.content == "def compute(y):\n    return y * 3\n"

    def test_refuses_dissimilar_line(self):
        assert context_aware(self.content, "def compute(y):\n    print('other thing')") == []

    def test_refuses_single_line(self):
        """EDGE CASE (shellfree): ``x = 1`` is 80 % like ``x = 2`` but a different line."""
        assert context_aware("x = 2\n", "x = 1") == []
        assert fuzzy_find_and_replace("x = 2\n", "x = 1", "x = 3").error == (
            "Could not find a match for old_string in the file")


class TestPreChecks:
    @pytest.mark.parametrize("old, new, error", [
        ("", "x", "old_string cannot be empty"),
        (" \n\t", "x", "old_string is only whitespace — provide non-blank text to match"),
        ("same", "same", "old_string and new_string are identical"),
    ])
    def test_messages(self, old, new, error):
        result = fuzzy_find_and_replace("same text", old, new)
        assert (result.content, result.count, result.error) == ("same text", 0, error)


class TestPostMatchGuards:
    def test_multiple_matches(self):
        content = "x = 1\ny = 2\nx = 1\n"
        result = fuzzy_find_and_replace(content, "x = 1", "x = 3")
        assert result.error == (
            "Found 2 matches for old_string. Provide more context to make it unique, or use "
            "replace_all=True. Matches:\n  L1: x = 1\n  L3: x = 1")
        assert result.content == content

    # Hermes compares every window of lines, overlapping ones too: a pattern that fits two
    # overlapping windows is ambiguous (§4.4.2-3). Each row is one line strategy's case.
    @pytest.mark.parametrize("content, old, strategy", [
        ("  x\n  x\n  x\n", "x\nx", "line_trimmed"),
        ("  x y\n  x y\n  x y\n", "x y\nx y", "indentation_flexible"),
        ("  a\nm\n  a\nm\n  a\n", "a\nm\na", "trimmed_boundary"),
        ("  a\n  bbbb\n  a\n  bbbb\n  a\n", "a\nbbbbX\na", "block_anchor"),
        ("value = 1\nvalue = 1\nvalue = 1\n", "value = 2\nvalue = 2", "context_aware"),
    ])
    def test_overlapping_line_windows_are_each_a_match(self, content, old, strategy):
        spans = dict(STRATEGIES)[strategy](content, old)
        assert len(spans) == 2 and spans[1][0] < spans[0][1]

    @pytest.mark.parametrize("content, old, strategy", [
        ("  x\n  x\n  x\n", "x\nx", "line_trimmed"),
        ("  a\n  bbbb\n  a\n  bbbb\n  a\n", "a\nbbbbX\na", "block_anchor"),
        ("value = 1\nvalue = 1\nvalue = 1\n", "value = 2\nvalue = 2", "context_aware"),
    ])
    def test_overlapping_line_windows_are_ambiguous(self, content, old, strategy):
        result = fuzzy_find_and_replace(content, old, "new")
        assert (result.content, result.count, result.strategy) == (content, 2, strategy)
        assert result.error.startswith("Found 2 matches for old_string."), result.error

    def test_replace_all_over_overlapping_windows_replaces_them_first_to_last(self):
        # Hermes would apply both overlapping windows from the end, on moved offsets.
        result = fuzzy_find_and_replace("  x\n  x\n  x\n", "x\nx", "y\ny", replace_all=True)
        assert (result.content, result.count, result.strategy) == (
            "  y\n  y\n  x\n", 1, "line_trimmed")

    def test_locations_capped_and_cut(self):
        long_line = "    " + "v" * 100
        content = "\n".join([long_line] * 7)
        rows = match_locations(content, [i * 105 for i in range(7)]).split("\n")
        assert rows[0] == "  L1: " + "v" * 77 + "..."
        assert len(rows) == 6 and rows[-1] == "  ... and 2 more"

    def test_replace_all_exact(self):
        result = fuzzy_find_and_replace("a.b a.b", "a.b", "c", replace_all=True)
        assert (result.content, result.count, result.strategy) == ("c c", 2, "exact")

    def test_replace_all_refused_for_approximate_strategies(self):
        content = "start\nalpha beta gamma\nend\n" * 2
        result = fuzzy_find_and_replace(content, "start\nalpha beta gamma!\nend", "x",
                                        replace_all=True)
        assert result.error == (
            "Found 2 approximate matches via the 'block_anchor' strategy; replace_all only "
            "applies to exact matches. Provide the precise text (whitespace included) so an "
            "exact/line-trimmed match can be made.")

    def test_escape_drift(self):
        content = "def f():\n    say(\"it's\")\n"
        result = fuzzy_find_and_replace(content, "def f():\n    say(\"it\\'s\")",
                                        "def f():\n    say(\"it\\'s fine\")")
        assert result.error == (
            "Escape-drift detected: old_string and new_string contain the literal sequence "
            "\"\\\\'\" but the matched region of the file does not. This is almost always a "
            "tool-call serialization artifact where an apostrophe or quote got prefixed with a "
            "spurious backslash. Re-read the file with read_file and pass old_string/new_string "
            "without backslash-escaping \"'\" characters.")
        assert result.content == content

    def test_rogue_indent(self):
        result = fuzzy_find_and_replace("x = 1\ny = 2\n", "x = 1 \ny = 2", "x = 1\n        y = 3")
        assert result.error == (
            "Suspicious indentation in new_string: 1 line(s) indented deeper than old_string's "
            "max indent (0 spaces), but neither old_string nor new_string opens a nesting block "
            "(':', '{', '('). Likely a model indent typo — check the indentation of: 'y = 3'")

    def test_deeper_indent_allowed_after_opener(self):
        result = fuzzy_find_and_replace("if x: \n", "if x:", "if x:\n    y()")
        assert result.error is None

    def test_guards_skip_exact_matches(self):
        result = fuzzy_find_and_replace("x = 1\n", "x = 1", "x = 1\n        y = 3")
        assert result.error is None and result.strategy == "exact"


class TestReplacementAdjustments:
    def test_reindent_to_file(self):
        content = "    if a:\n        b()\n"
        result = fuzzy_find_and_replace(content, "if a:\n    b()", "if a:\n    c()\nd()")
        assert result.content == "    if a:\n        c()\n    d()\n"

    def test_literal_tab_made_real_when_region_has_tabs(self):
        result = fuzzy_find_and_replace("\tx = 1\n", "x = 1 ", "x\\t= 2")
        assert result.strategy == "line_trimmed"
        assert result.content == "\tx\t= 2\n"

    def test_literal_newline_never_converted(self):
        result = fuzzy_find_and_replace("\tx = 1\n", "x = 1 ", "x = '\\n'")
        assert result.content == "\tx = '\\n'\n"

    def test_exact_match_keeps_literal_escapes(self):
        result = fuzzy_find_and_replace("\ts = 'a'\n", "\ts = 'a'", "\ts = 'a\\tb'")
        assert result.content == "\ts = 'a\\tb'\n"


class TestAlreadyApplied:
    def test_detects(self):
        assert is_already_applied("value = 2\n", "value = 1", "value = 2")

    def test_short_new_string_is_not_enough(self):
        assert not is_already_applied("x = 2\n", "x = 1", "x = 2")

    def test_old_still_present(self):
        assert not is_already_applied("value = 1\nvalue = 2\n", "value = 1", "value = 2")


class TestClosestSections:
    def test_windows(self):
        content = "\n".join(f"line {i}" for i in range(1, 11))
        text = closest_sections("lime 5", content)
        assert text.split("\n---\n")[0] == (
            "   3| line 3\n   4| line 4\n   5| line 5\n   6| line 6\n   7| line 7")

    def test_lines_end_where_the_file_and_old_string_end(self):
        # Lines as splitlines makes them (Hermes): a final newline starts no line, so no row
        # past the file's 11th line, and old_string's two lines make the window two tall.
        content = "".join(f"line {i}\n" for i in range(1, 12))
        text = closest_sections("line 10\nline 11x\n", content)
        assert text.split("\n---\n")[0] == (
            "   8| line 8\n   9| line 9\n  10| line 10\n  11| line 11")

    def test_whitespace_difference(self):
        content = "def f():\n\treturn 1\n"
        text = closest_sections("    return 1\n    x", content)
        assert text.endswith(
            "\n\nWhitespace difference detected (→ = tab, · = space):\n  file has: →return 1\n"
            "  you sent: ····return 1\nUse the exact whitespace shown in 'file has'.")

    def test_nothing_close(self):
        assert closest_sections("qqqqqqqq", "abc\ndef\n") == ""
        assert closest_sections("   \n", "abc\n") == ""

    def test_messages(self):
        assert messages.DID_YOU_MEAN == "\n\nDid you mean one of these sections?\n"
