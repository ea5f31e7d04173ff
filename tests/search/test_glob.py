"""Tests for search/glob.py: rg's glob dialect and its error texts.

Expected error texts were printed by rg 15.1 (`rg --files -g GLOB`); matching cases come from
rg-semantics.md §1.5–§1.6 (verified there against the binary) and globset's documented rules.
"""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shellfree.search.errors import GlobError
from shellfree.search.glob import glob_to_regex, parse_glob


def matches(glob: str, path: str, *, unclosed_ok: bool = False) -> bool:
    body = glob_to_regex(parse_glob(glob, allow_unclosed_class=unclosed_ok))
    return re.fullmatch(body.encode("ascii"), path.encode("utf-8"), re.DOTALL) is not None


class TestParseErrors:
    @pytest.mark.parametrize(
        "glob, message",
        [
            ("{a", "error parsing glob '{a': unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)"),
            ("a}", "error parsing glob 'a}': unopened alternate group; missing '{' (maybe escape '}' with '[}]'?)"),
            ("[z-a]", "error parsing glob '[z-a]': invalid range; 'z' > 'a'"),
            ("a\\", "error parsing glob 'a\\': dangling '\\'"),
            ("[a", "error parsing glob '[a': unclosed character class; missing ']'"),
        ],
    )
    def test_message_is_rgs(self, glob, message):
        with pytest.raises(GlobError) as info:
            parse_glob(glob)
        assert str(info.value) == message

    def test_unclosed_class_is_literal_in_ignore_files(self):
        # rg r3127: "[abc" in a .gitignore names the file "[abc".
        assert matches("[abc", "[abc", unclosed_ok=True)
        assert not matches("[abc", "a", unclosed_ok=True)


class TestSemantics:
    @pytest.mark.parametrize(
        "glob, path, expected",
        [
            ("*.txt", "a.txt", True),
            ("*.txt", "d/a.txt", False),  # "*" never crosses "/"
            ("?", "a", True),
            ("?", "/", False),
            ("a?c", "aéc", False),  # "?" is one byte; é is two
            ("**", "a/b/c", True),
            ("**/foo", "foo", True),
            ("**/foo", "a/b/foo", True),
            ("foo/**", "foo/x/y", True),
            ("foo/**", "foo", False),
            ("a/**/b", "a/b", True),
            ("a/**/b", "a/x/y/b", True),
            ("a**b", "afoob", True),  # "**" inside a component is "*" (rg r1098)
            ("a**b", "a/b", False),
            ("a[/]c", "a/c", True),  # classes may match "/"
            ("a[!b]c", "a/c", True),
            ("[]]", "]", True),
            ("[!]]", "a", True),
            ("[a-]", "-", True),
            ("{a,b}c", "bc", True),
            ("{a,{b,c}}", "c", True),  # nesting is allowed in 15.x
            ("{,a}x", "x", False),  # empty alternatives are dropped...
            ("{,a}x", "ax", True),
            ("{,}x", "x", True),  # ...and an all-empty group contributes nothing
            ("a,b", "a,b", True),  # a comma outside braces is literal
            ("\\*", "*", True),
            ("\\*", "a", False),
            ("[é]", "é", False),  # a byte class of é's two bytes, not the character
        ],
    )
    def test_match(self, glob, path, expected):
        assert matches(glob, path) is expected, (glob, path)


class TestPlainFastPath:
    """parse_glob skips the parser for plain globs; it must give the parser's exact tokens."""

    @given(
        st.sampled_from(["", "**/", "**/*"]),
        st.text(alphabet="ab/.,-*?[]{}\\é !#", max_size=8),
    )
    def test_same_tokens_as_the_parser(self, head, rest):
        from shellfree.search.glob import _Parser

        glob = head + rest
        try:
            expected = _Parser(glob, False).parse()
        except GlobError as err:
            with pytest.raises(GlobError) as info:
                parse_glob(glob)
            assert str(info.value) == str(err)
        else:
            assert parse_glob(glob) == expected
