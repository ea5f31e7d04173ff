"""The searcher's shortcuts must never change what rg would print.

Two shortcuts skip work on candidate lines: a pattern that is a plain literal (or an alternation
of literals) needs no confirming regex call on a line that holds one (``exact_literals``), and a
case-insensitive pattern finds candidate lines with an ASCII-folding byte search
(``folded_prefilter``) instead of decoding the text. Each case checks that the shortcut is taken
(or refused) as intended, and that the output equals the reference rg's on text built to trip
them: KELVIN SIGN and LONG S (case partners of ``k`` and ``s``), dotted and dotless i, invalid
UTF-8 next to the literal, CRLF, and literals that straddle a line end.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from shellfree.search import searcher
from shellfree.search.pattern import PatternOptions, compile_patterns
from tests.search.test_rg_search import same

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths")

TEXT = (
    "unicode Unicode UNICODE uNiCoDe\n"
    "kelvin \u212aelvin KELVIN\n"
    "mask ma\u017fk MASK\n"
    "\u0130stanbul \u0131stanbul istanbul ISTANBUL\n"
    "disable_passthrough Disable_PassThrough\n"
    "foo.bar fooXbar FOO.BAR\n"
    "TODO: fix FIXME later; xxx hack\n"
    "end of line unic\n"
    "ode on the next\n"
    "plain line without anything\n"
).encode()


@pytest.fixture
def tree(isolated):
    (isolated / "a.txt").write_bytes(TEXT)
    (isolated / "crlf.txt").write_bytes(TEXT.replace(b"\n", b"\r\n"))
    (isolated / "bad.txt").write_bytes(b"\xffunicode\xfe\nma\xc5sk\xc5\xbf\n\xe2\x84mask\nKELVIN\xe2\x84\xaa\n")
    (isolated / "nomatch.txt").write_bytes(b"nothing here\n" * 50)
    return isolated


def _compiled(patterns, **options):
    return compile_patterns(patterns, PatternOptions(**options))


@pytest.mark.parametrize(
    "patterns, options, exact",
    [
        (["unicode"], {}, True),
        (["TODO|FIXME|XXX|HACK"], {}, True),
        (["foo", "bar"], {}, True),
        (["foo.bar"], {"fixed_strings": True}, True),
        (["foo.bar"], {}, False),  # `.` is not a literal
        (["unicode"], {"word": True}, False),  # -w adds boundaries
        (["unicode"], {"line": True}, False),
        (["unicode"], {"case": "insensitive"}, False),
        (["(?i)unicode"], {}, False),
        (["(unicode)"], {}, True),  # a group changes nothing
        # Concatenated pieces: the prefilter looks for one piece ("code"), whose occurrences
        # are not all matches.
        (["uni(code)"], {}, False),
        (["unicode|uni\\w+"], {}, False),
    ],
)
def test_exact_literals_only_for_plain_literal_sets(patterns, options, exact):
    assert _compiled(patterns, **options).exact_literals is exact


@pytest.mark.parametrize(
    "patterns, options, needles",
    [
        (["unicode"], {"case": "insensitive"}, (b"unicode",)),
        (["Unicode"], {"case": "smart"}, None),  # an uppercase letter: smart case is sensitive
        (["unicode"], {"case": "smart"}, (b"unicode",)),
        (["(?i)TODO|FIXME"], {}, (b"fixme", b"todo")),
        # k and s have non-ASCII case partners (KELVIN SIGN, LONG S): they cut the needle.
        (["kelvin"], {"case": "insensitive"}, (b"elvin",)),
        (["mask"], {"case": "insensitive"}, None),  # "ma" is too short to be worth it
        (["disable_passthrough"], {"case": "insensitive"}, (b"able_pa",)),
        (["\\w+error"], {"case": "insensitive"}, (b"error",)),
        (["unicode"], {"case": "insensitive", "word": True}, (b"unicode",)),
        (["uni?code"], {"case": "insensitive"}, (b"code",)),
        # An inline (?i): the caseless "_" would be the case-sensitive literal; the longer
        # folded needle replaces it.
        (["(?i)disable_passthrough"], {}, (b"able_pa",)),
        (["(?i)a_b"], {}, (b"a_b",)),
        (["(?i)a_"], {}, None),  # too short: the "_" stays the literal
        (["unicode"], {}, None),  # case-sensitive: the literal itself
    ],
)
def test_folded_prefilter_needles(patterns, options, needles):
    assert _compiled(patterns, **options).folded_prefilter == needles


@pytest.mark.parametrize(
    "patterns, options, exact",
    [
        (["unicode"], {"case": "insensitive"}, True),
        (["(?i)unicode|later"], {}, True),
        (["(?i)unicode|istanbul"], {}, False),  # the s of istanbul: LONG S's too
        (["foo.bar"], {"case": "insensitive", "fixed_strings": True}, True),
        (["(unicode)"], {"case": "insensitive"}, True),
        (["kelvin"], {"case": "insensitive"}, False),  # the needle leaves out the k
        (["TODO|FIXME|XXX|HACK"], {"case": "insensitive"}, False),  # HACK: K is KELVIN's too
        (["(?-i:U)nicode"], {"case": "insensitive"}, False),  # U is case-sensitive there
        (["unicode"], {"case": "insensitive", "word": True}, False),
        (["unicode"], {"case": "insensitive", "line": True}, False),
        (["uni(code)"], {"case": "insensitive"}, False),  # the needle is a piece of it
        (["foo.bar"], {"case": "insensitive"}, False),  # `.` is not a literal
        (["unicode"], {}, False),  # case-sensitive: exact_literals' business
    ],
)
def test_folded_exact_only_for_plain_folded_literal_sets(patterns, options, exact):
    assert _compiled(patterns, **options).folded_exact is exact


@pytest.mark.parametrize(
    "args",
    [
        ["unicode"],
        ["-n", "TODO|FIXME|XXX|HACK"],
        ["-c", "foo|bar"],
        ["-o", "-b", "foo|fooX"],
        ["--column", "-n", "ode"],
        ["-F", "foo.bar"],
        ["-v", "-n", "unicode"],
        ["-C1", "-n", "hack"],
        ["-i", "-n", "unicode"],
        ["-i", "-o", "unicode"],
        ["-i", "-n", "kelvin"],
        ["-i", "-n", "elvin"],
        ["-i", "-n", "mask"],
        ["-i", "-n", "istanbul"],
        ["-i", "-n", "\u0130stanbul"],
        ["-S", "-n", "unicode"],
        ["-S", "-n", "Unicode"],
        ["-i", "-w", "-n", "unicode"],
        ["-i", "-x", "-n", "unicode"],
        ["-i", "-c", "disable_passthrough"],
        ["-i", "-n", "foo.bar"],
        ["-i", "-F", "-n", "FOO.BAR"],
        ["-i", "-n", "(todo|fixme):?"],
        ["-i", "-n", "unic\\s*ode"],
        ["-i", "-v", "-c", "unicode"],
        ["-i", "-l", "unicode"],
        ["-i", "--crlf", "-n", "unicode$"],
        # Folded exact patterns: every occurrence in any ASCII case is a match, unconfirmed.
        ["-i", "-n", "nicode|later"],
        ["-i", "-n", "nicode|tanbul"],
        ["-i", "-c", "unicode"],
        ["-i", "-o", "-n", "unicode"],
        ["-i", "--column", "-n", "able_pa"],
        ["-i", "-v", "-n", "istanbul"],
        ["-i", "-C1", "-n", "fixme"],
        ["-i", "-n", "-m1", "unicode"],
        ["-i", "-n", "ıstanbul"],
        ["-i", "-F", "-n", "ode on"],
        ["-i", "-n", "--max-columns", "12", "unicode"],
        # Inline (?i), a case-sensitive run beside it: the folded needle, then the regex.
        ["-n", "(?i)disable_passthrough"],
        ["-n", "(?i:disable)_Pass"],
        ["-n", "(?i)foo.bar|ode on"],
        ["-n", "(?i)fixme later"],
    ],
)
def test_shortcuts_agree_with_rg(tree, reference_rg, args):
    same(reference_rg, args)


SAMPLE = "abcdefghijklmnop xyz 1234 ab12 cdq byyq cx 123ab 456yz ..//-- \tx\rKELVIN \u212a \u017f é ab" * 2


@pytest.mark.parametrize(
    "pattern, options, chosen",
    [
        ("[a-z]{14,}", {}, True),
        ("[a-c][x-z]+?q?", {}, True),
        ("[0-9]{3}(ab|[x-z]{2})", {}, True),  # no required literal: one branch is a class
        ("(?:ab|cd)[0-9]{2,4}", {}, False),  # required literals: the literal path serves it
        ("[.-/]{2,}", {}, True),
        ("[0-9]{3,}", {"case": "insensitive"}, True),
        ("\\w+", {}, False),  # Unicode \w: rg's holds marks, re's does not
        ("[a-z]+[0-9]+", {}, False),  # two unbounded repetitions: re has no time budget
        ("[a-z]+[0-9]", {}, False),  # quadratic in a run of letters with no digit after it
        ("[a-z]{2,}[0-9]?", {}, True),  # what follows can match empty: no retry
        ("(?:[0-9]|[a-z]+)x?", {}, True),
        ("(?:[0-9]|[a-z]+)[0-9]", {}, False),
        ("[0-9]{1,8}[a-z]{1,8}[0-9]{1,8}", {}, False),  # 8 * 8 * 8 tries at each start
        ("[a-z]{100,}", {}, False),  # a walk of 100 characters from every start in a run
        ("[a-z]{65}", {}, False),
        ("(?:[a-z][0-9])+", {}, False),  # a repeated group
        ("[a-z]{1,100}", {}, False),  # a large bound
        ("[^a-z]{3}", {}, False),  # a negated class holds non-ASCII characters
        ("[a-z]{3,}", {"case": "insensitive"}, False),  # k and s fold to non-ASCII characters
        ("\\b[0-9]{3,}", {}, False),  # assertions
    ],
)
def test_re_is_chosen_only_where_it_agrees(pattern, options, chosen):
    compiled = _compiled([pattern], **options)
    assert (compiled.re_regex is not None) is chosen
    if chosen:
        ours = [m.span() for m in compiled.re_regex.finditer(SAMPLE)]
        assert ours == [m.span() for m in compiled.regex.finditer(SAMPLE)]
        assert ours  # the sample exercises the pattern


@pytest.mark.parametrize(
    "pattern, safe",
    [
        ("\\w+Error", True),  # one unbounded repetition of a class: at most quadratic
        ("\\bfoo\\b|ba[rz]", True),
        ("(x)+y", True),  # a group around one character is still one character per turn
        ("x{1,8}y{1,8}z", True),  # 64 tries at most
        ("(?:a|aa)+b", False),  # a wider body splits a run many ways: exponential
        ("(?:ab){2,3}", False),
        ("[a-z]+[0-9]+", False),  # two unbounded repetitions: cubic
        ("x{1,100}", False),
        ("x{1,8}y{1,8}z{1,8}", False),
        ("a{65}", False),  # a large bound: also compiled eagerly, to report a size error
    ],
)
def test_short_lines_skip_the_time_budget_only_for_bounded_backtracking(pattern, safe):
    assert _compiled([pattern]).short_lines_safe is safe


@pytest.fixture
def mixed(isolated):
    (isolated / "a.txt").write_bytes(
        "abcdefghijklmnop xyz\nabcdéfghijklmnopqr\n123 4567 89012\n"
        "\xffabcdefghijklmnopq\xfe\n"
        "tab\tseparated\tvalues\n..//-- path/to/x\nZZZ\r\nzzzzzzzzzzzzzzz\r\n".encode("utf-8", "surrogateescape")
    )
    (isolated / "b.txt").write_bytes(b"abcdefghijklmnopqrstuvwxyz" * 3 + b"\n" + b"short\n" * 30)
    return isolated


@pytest.mark.parametrize(
    "args",
    [
        ["-n", "[a-z]{14,}"],
        ["-o", "-b", "[a-z]{14,}"],
        ["-c", "[0-9]{3,}"],
        ["--column", "-n", "[0-9]{4}"],
        ["-n", "[a-c][x-z]+?q?"],
        ["-n", "[.-/]{2,}"],
        ["-n", "-o", "[\t-\r]"],
        ["-v", "-n", "[a-z]{14,}"],
        ["-n", "-C1", "[z]{5,}"],
        ["-n", "--crlf", "[a-z]{14,}"],
        ["-n", "[0-9]{3}([a-b]|[x-z]{2})"],
    ],
)
def test_re_engine_agrees_with_rg(mixed, reference_rg, args):
    same(reference_rg, args)


ONE_FOLDED_LITERAL = [
    ["-i", "-n", "unicode"],
    ["-i", "-o", "-b", "unicode"],
    ["-i", "-c", "disable_passthrough"],
    ["-i", "-n", "mask"],
    ["-i", "-n", "kelvin"],
    ["-i", "-w", "-n", "unicode"],
    ["-i", "-v", "-c", "unicode"],
    ["-i", "-l", "istanbul"],
    ["-i", "-n", "-C1", "fixme"],
    ["-n", "(?i)disable_passthrough"],
]


@pytest.mark.parametrize("pays_after", [1 << 40, 64, 0])
@pytest.mark.parametrize("args", ONE_FOLDED_LITERAL)
def test_one_folded_literal_without_and_with_the_regex_scan(tree, reference_rg, monkeypatch,
                                                            args, pays_after):
    # A one-shot process without the regex module scans for one folded literal with
    # bytes.lower() and find until the bytes scanned pay for importing it (never; after the
    # first file; at once): the output is rg's in each case.
    monkeypatch.setattr(searcher, "_regex_loaded", lambda: False)
    monkeypatch.setattr(searcher, "_FOLDED_SCAN_PAYS_AFTER", pays_after)
    monkeypatch.setattr(searcher, "_folded_bytes_scanned", 0)
    same(reference_rg, args)


def test_the_folded_scan_is_taken_once_the_bytes_scanned_pay_for_it(monkeypatch):
    monkeypatch.setattr(searcher, "_regex_loaded", lambda: False)
    monkeypatch.setattr(searcher, "_FOLDED_SCAN_PAYS_AFTER", 1000)
    monkeypatch.setattr(searcher, "_folded_bytes_scanned", 0)
    matcher = _compiled(["unicode"], case="insensitive")
    absent = searcher.absence_test(matcher)
    prepared = searcher._prepare(matcher)
    assert prepared.folded_scan is None
    assert absent(b"x" * 600) and not absent(b"a UNICODE b" + b"x" * 300)
    assert prepared.folded_scan is None  # 911 bytes scanned
    assert absent(b"y" * 100)
    assert prepared.folded_scan is not None  # 1011
    assert absent(b"x" * 600) and not absent(b"a UniCode b") and not absent(b"unicode")
    # Several folded literals are looked for in bytes.lower() however much is scanned.
    several = _compiled(["unicode|later"], case="insensitive")
    absent = searcher.absence_test(several)
    assert absent(b"x" * 5000) and not absent(b"LATER")
    assert searcher._prepare(several).folded_scan is None


def test_the_bytes_scanned_by_earlier_searches_count_too(monkeypatch):
    # Each FileTools search compiles a matcher of its own: the scan that pays is the process's,
    # so a host searching a small tree again and again gets the faster scan too.
    monkeypatch.setattr(searcher, "_regex_loaded", lambda: False)
    monkeypatch.setattr(searcher, "_FOLDED_SCAN_PAYS_AFTER", 1000)
    monkeypatch.setattr(searcher, "_folded_bytes_scanned", 0)
    first = _compiled(["unicode"], case="insensitive")
    assert searcher.absence_test(first)(b"x" * 600)
    second = _compiled(["(?i)unicode"])
    assert second is not first
    absent = searcher.absence_test(second)
    assert absent(b"y" * 300)
    assert searcher._prepare(second).folded_scan is None  # 900 bytes in all
    assert absent(b"z" * 200)
    assert searcher._prepare(second).folded_scan is not None  # 1,100
    assert not absent(b"a UniCode b") and absent(b"x" * 50)


@pytest.mark.parametrize("pattern, shared", [
    ("TODO|FIXME|XXX|HACK", {b"X"}),  # FIXME and XXX: one pass over X
    ("FIXME|XXX|XML", {b"X"}),
    ("TODO|HACK", set()),
])
def test_literals_with_the_same_rarest_byte_share_its_pass(pattern, shared):
    matcher = _compiled([pattern])
    prepared = searcher._prepare(matcher)
    specs = searcher._find_specs(prepared.literals, prepared.rare_offsets)
    assert {k for _, k, kind in specs if kind == searcher._SHARED} == shared
    absent = searcher.absence_test(matcher)
    for literal in pattern.split("|"):
        for misses in (5, 40):  # few false hits on X, or enough to fall back to finds
            data = b"x" * 50 + b"Xa" * misses + literal.encode() + b" X\n"
            assert not absent(data)
            assert absent(data.replace(literal.encode(), b"-"))


def test_a_large_file_pays_for_the_folded_scan_before_it_is_split(monkeypatch):
    monkeypatch.setattr(searcher, "_folded_bytes_scanned", 0)
    matcher = _compiled(["unicode"], case="insensitive")
    prepared = searcher._prepare(matcher)
    prepared.folded_scan = None
    searcher.expect_bytes(matcher, searcher._FOLDED_SCAN_PAYS_AFTER // 2)
    assert prepared.folded_scan is None
    searcher.expect_bytes(matcher, searcher._FOLDED_SCAN_PAYS_AFTER)
    assert prepared.folded_scan is not None


def test_a_small_case_insensitive_search_does_not_import_regex(tmp_path):
    # The point of the deferral: a one-shot `shellfree rg -i` over a small tree is faster
    # without the 6 ms import; rg's output is checked by the tests above.
    (tmp_path / "a.txt").write_bytes(TEXT)
    code = ("import io, sys\n"
            "from shellfree.rgcli.run import run\n"
            "out = io.BytesIO()\n"
            "status = run([b'-i', b'-n', b'unicode', b'.'], out, io.BytesIO())\n"
            "print(status, out.getvalue().count(b'\\n'), 'regex' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, check=True)
    assert proc.stdout.split() == ["0", "1", "False"]
