"""Tests for search/ignore.py: rg's gitignore line dialect and the compiled matcher.

Each expectation is a row of rg-semantics.md §1.5 (checked there against rg 15.1 and git).
"""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shellfree.search.ignore import IGNORE, NONE, WHITELIST, compile_rules, read_rule_lines


def verdict(lines, path, is_dir=False, **kw):
    rules, errors = compile_rules(lines, **kw)
    assert not errors, errors
    return rules.matched(path.encode(), is_dir)


class TestReadRuleLines:
    def test_crlf_and_bom(self):
        assert read_rule_lines(b"\xef\xbb\xbffoo\r\nbar\r\n") == (["foo", "bar"], None)

    def test_unterminated_last_line_keeps_cr(self):
        assert read_rule_lines(b"a\r\nb\r") == (["a", "b\r"], None)

    def test_invalid_utf8_stops_reading(self):
        assert read_rule_lines(b"a\nb\xff\nc\n") == (["a"], 2)


class TestLineRules:
    @pytest.mark.parametrize(
        "line, path, is_dir, expected",
        [
            ("foo", "foo", False, IGNORE),
            ("foo", "a/b/foo", False, IGNORE),
            ("/foo", "a/foo", False, NONE),
            ("/foo", "foo", False, IGNORE),
            ("foo/", "foo", False, NONE),
            ("foo/", "foo", True, IGNORE),
            ("foo\\/", "foo", True, IGNORE),  # rg r2236
            ("a/b", "x/a/b", False, NONE),  # an inner "/" anchors
            ("a/b", "a/b", False, IGNORE),
            ("abc/**", "abc", True, NONE),
            ("abc/**", "abc/x", False, IGNORE),
            ("#foo", "#foo", False, NONE),
            ("\\#foo", "#foo", False, IGNORE),
            ("\\!xy", "!xy", False, IGNORE),
            ("tab\t", "tab", False, IGNORE),  # all trailing whitespace trimmed (git keeps tabs)
            ("foo ", "foo", False, IGNORE),
            ("foo\\ ", "foo ", False, IGNORE),
            (" foo", " foo", False, IGNORE),  # leading space is literal
            ("{ab,ac}", "ac", False, IGNORE),
            ("**", "x/y", False, IGNORE),
            ("*", "x", False, IGNORE),
        ],
    )
    def test_line(self, line, path, is_dir, expected):
        assert verdict([line], path, is_dir) == expected, (line, path)

    def test_unicode_whitespace_other_than_rusts_is_kept(self):
        # U+001F is whitespace to Python's str.strip but not to Rust's is_whitespace.
        assert verdict(["foo\x1f"], "foo") == NONE
        assert verdict(["foo\u3000"], "foo") == IGNORE


class TestPrecedence:
    def test_last_match_wins(self):
        assert verdict(["*.log", "!keep.log"], "keep.log") == WHITELIST
        assert verdict(["!keep.log", "*.log"], "keep.log") == IGNORE

    def test_dir_only_rule_skipped_for_files(self):
        # The next-earlier matching rule decides for a file.
        assert verdict(["x", "!x/"], "x", is_dir=False) == IGNORE
        assert verdict(["x", "!x/"], "x", is_dir=True) == WHITELIST

    def test_case_insensitive(self):
        assert verdict(["myfile"], "MYFILE", case_insensitive=True) == IGNORE
        assert verdict(["*.TXT"], "a.txt", case_insensitive=True) == IGNORE
        assert verdict(["myfile"], "MYFILE") == NONE

    def test_per_line_case_insensitive(self):
        rules, _ = compile_rules(["a.txt", "b.txt"], per_line_case_insensitive=[False, True])
        assert rules.matched(b"A.TXT", False) == NONE
        assert rules.matched(b"B.TXT", False) == IGNORE


class TestErrors:
    def test_bad_line_dropped_others_kept(self):
        rules, errors = compile_rules(["[z-a]", "foo"])
        assert [(n, str(e)) for n, e in errors] == [
            (1, "error parsing glob '[z-a]': invalid range; 'z' > 'a'")
        ]
        assert rules.matched(b"foo", False) == IGNORE

    def test_error_names_the_line_as_written(self):
        _, errors = compile_rules(["!/[b-a]/"])
        assert str(errors[0][1]) == "error parsing glob '!/[b-a]/': invalid range; 'b' > 'a'"


def test_glob_with_an_empty_translation_compiles():
    # "{,}" drops both empty alternatives; the rule then matches only an empty path.
    assert verdict(["/{,}"], "x") == NONE
    assert verdict(["{,}/"], "a", is_dir=True) == NONE


def test_compiled_lines_are_reused_and_keyed_by_everything_that_changes_them(monkeypatch):
    from shellfree.search import ignore

    monkeypatch.setattr(ignore, "_RULES", {})
    compiled = []
    original = ignore._compile_line
    monkeypatch.setattr(ignore, "_compile_line",
                        lambda *key: compiled.append(key) or original(*key))
    lines = ["*.pyc", "build/", "!keep.pyc", "a{b", "# comment"]
    first, first_errors = ignore.compile_rules(lines)
    again, again_errors = ignore.compile_rules(lines)
    assert len(compiled) == len(lines)  # the second file compiled nothing
    assert again == first and [n for n, _ in again_errors] == [n for n, _ in first_errors]
    assert again_errors[0][1] is not first_errors[0][1]  # each file reports its own error
    folded, _ = ignore.compile_rules(lines, case_insensitive=True)
    assert len(compiled) == 2 * len(lines) and folded.case_insensitive
    assert folded.matched(b"X.PYC", False) == ignore.IGNORE
    assert first.matched(b"X.PYC", False) == ignore.NONE
    assert ignore.compile_rules(["[unclosed"])[1] == []
    assert ignore.compile_rules(["[unclosed"], allow_unclosed_class=False)[1] != []


def test_the_line_cache_is_bounded(monkeypatch):
    from shellfree.search import ignore

    monkeypatch.setattr(ignore, "_RULES", {})
    monkeypatch.setattr(ignore, "_MAX_RULES", 10)
    for i in range(25):
        ignore.compile_rules([f"file{i}.txt"])
        assert len(ignore._RULES) <= 10


class TestPathsWithoutWildcards:
    """A rule that looks at directories but has no wildcard (`/site`, `docs/_build`) is an
    exact path in a set, not a regex; it must decide every path as its regex would."""

    def test_they_are_looked_up_not_compiled(self):
        from shellfree.search import ignore

        rules, _ = compile_rules(["/site", "docs/_build", "a\\*b/c", "/Mixed/Case", "*.py",
                                  "docs/*.md"])
        assert rules.paths == frozenset({b"site", b"docs/_build", b"a*b/c", b"Mixed/Case"})
        kinds = {r.original: (r.kind, r.regex) for r in rules.rules}
        assert kinds["docs/_build"] == (ignore._PATH, None)
        assert kinds["docs/*.md"][0] == ignore._PATH_REGEX
        # The combined regex holds only the rule that needs one.
        assert rules.path_regex.pattern == b"(?:docs/[^/]*\\.md)"
        folded, _ = compile_rules(["/Mixed/Case"], case_insensitive=True)
        assert folded.paths == frozenset({b"mixed/case"})

    def test_a_line_regex_is_compiled_only_when_its_rule_is_tested_alone(self):
        from shellfree.search import ignore

        ignore._LINE_REGEXES.clear()
        rules, _ = compile_rules(["docs/*.md", "!docs/keep.md", "*.py[co]"])
        assert rules.path_regex is not None and rules.name_regex is not None
        assert rules.matched(b"docs/a.txt", False) == NONE  # the combined regexes decide
        assert not ignore._LINE_REGEXES
        # A whitelist among the rules: a hit is decided rule by rule, last first.
        assert rules.matched(b"docs/a.md", False) == IGNORE
        assert rules.matched(b"docs/keep.md", False) == WHITELIST
        assert set(ignore._LINE_REGEXES) == {
            (b"docs/[^/]*\\.md", re.DOTALL), (rules.rules[2].body, re.DOTALL)}
        assert rules.rules[0].regex is ignore._LINE_REGEXES[(rules.rules[0].body, re.DOTALL)]

    @pytest.mark.parametrize("lines, path, is_dir, expected", [
        (["/site"], "site", False, IGNORE),
        (["/site"], "a/site", False, NONE),
        (["docs/_build"], "docs/_build", True, IGNORE),
        (["docs/_build"], "x/docs/_build", True, NONE),
        (["docs/_build/"], "docs/_build", False, NONE),      # directory-only
        (["docs/_build/"], "docs/_build", True, IGNORE),
        (["docs/_build", "!docs/_build"], "docs/_build", True, WHITELIST),
        (["!docs/_build", "docs/_build"], "docs/_build", True, IGNORE),
        (["a\\*b/c"], "a*b/c", False, IGNORE),                # an escaped star is literal
        (["a\\*b/c"], "axb/c", False, NONE),
        (["/Mixed/Case"], "mixed/case", False, NONE),
    ])
    def test_they_decide_as_rg_does(self, lines, path, is_dir, expected):
        assert verdict(lines, path, is_dir) == expected

    @pytest.mark.parametrize("lines, path, is_dir, case_insensitive", [
        (["/site"], "site", False, False), (["/site"], "a/site", False, False),
        (["docs/_build"], "docs/_build", True, False),
        (["docs/_build"], "x/docs/_build", True, False),
        (["docs/_build/"], "docs/_build", False, False),
        (["docs/_build/"], "docs/_build", True, False),
        (["docs/_build", "!docs/_build"], "docs/_build", True, False),
        (["!docs/_build", "docs/_build"], "docs/_build", True, False),
        (["a\\*b/c"], "a*b/c", False, False), (["a\\*b/c"], "axb/c", False, False),
        (["/Mixed/Case"], "mixed/case", False, False),
        (["/Mixed/Case"], "MIXED/case", False, True),
        (["/Mixed/Case", "!MIXED/CASE"], "mixed/case", False, True),
    ])
    def test_the_walk_lists_what_rg_lists(self, isolated, reference_rg, lines, path, is_dir,
                                          case_insensitive):
        # The rows above, as a tree: the rule file in a repository, the path a file or a
        # directory holding one, and `--files` compared with rg's.
        from tests.search.test_rg_search import same

        (isolated / ".git").mkdir()
        (isolated / (".ignore" if case_insensitive else ".gitignore")).write_text(
            "\n".join(lines) + "\n")
        target = isolated / path
        if is_dir:
            target.mkdir(parents=True)
            target = target / "f"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("x\n")
        (isolated / "kept.txt").write_text("x\n")
        same(reference_rg, ["--files", *(["--ignore-file-case-insensitive"]
                                         if case_insensitive else [])])

    def test_case_insensitive_sets_fold_the_path(self):
        assert verdict(["/Mixed/Case"], "MIXED/case", case_insensitive=True) == IGNORE
        assert verdict(["/Mixed/Case", "!MIXED/CASE"], "mixed/case", case_insensitive=True) \
            == WHITELIST


@settings(max_examples=400, deadline=None)
@given(
    lines=st.lists(st.sampled_from([
        "/site", "site", "docs/_build", "docs/_build/", "!docs/_build", "/A/b", "!a/B",
        "a\\*b/c", "docs/*", "*.md", "!/site", "x/y/z", "/x/y/", "a*b/c",
    ]), min_size=1, max_size=6),
    path=st.sampled_from(["site", "a/site", "docs/_build", "DOCS/_build", "docs/_build/x",
                          "a/b", "A/b", "a*b/c", "axb/c", "x/y/z", "x/y", "a.md"]),
    is_dir=st.booleans(),
    case_insensitive=st.booleans(),
)
def test_a_path_set_decides_as_the_regexes_it_replaced(lines, path, is_dir, case_insensitive):
    from shellfree.search import ignore

    rules, _ = compile_rules(lines, case_insensitive=case_insensitive)
    # The same rules with every exact path made a regex again, as before the path sets.
    as_regex = [
        ignore.Rule(r.original, r.whitelist, r.dir_only, ignore._PATH_REGEX, b"",
                    re.escape(r.literal), re.DOTALL | (re.IGNORECASE if case_insensitive else 0))
        if r.kind == ignore._PATH else r
        for r in rules.rules
    ]
    expected = ignore._assemble(as_regex, case_insensitive)
    assert not expected.paths
    assert rules.matched(path.encode(), is_dir) == expected.matched(path.encode(), is_dir)
