"""The ``re`` form of a pattern for ASCII lines (CompiledPattern.ascii_regex) matches exactly
what the pattern's ``regex`` form matches there, and spares the ``regex`` module."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from shellfree.search import regex_unicode as U
from shellfree.search.pattern import PatternOptions, compile_patterns
from tests.search.test_rg_search import same


@pytest.mark.parametrize("kind", ["d", "s", "w"])
def test_the_ascii_members_of_perl_classes_are_what_regex_says(kind):
    # contains() decides these without the regex module; regex itself is the judge here.
    import regex

    cls = U.perl_class(kind, True)
    judge = regex.compile(cls.expr, regex.V1)
    for cp in range(0x80):
        assert U.contains(cls, cp) == (judge.fullmatch(chr(cp)) is not None), (kind, cp)
    assert U.ascii_ranges(cls) == U.ascii_class({"d": "digit", "s": "space", "w": "word"}[kind]).ranges


ATOMS = ["a", "b", "E", "k", "s", "K", "_", " ", "-", "\\w", "\\W", "\\d", "\\s", "\\S", "[a-c]",
         "[^a-c]", ".", "\\pL", "\\p{Greek}", "é", "\\b", "\\B", "^", "$", "\\b{start}",
         "\\b{end}", "(?i:k)", "[[:upper:]]", "\\x7f", "[\\t-\\r]"]
QUANTIFIERS = ["", "", "", "+", "*", "?", "{1,3}", "+?", "*?", "{2}"]


@st.composite
def patterns(draw):
    def branch():
        parts = []
        for _ in range(draw(st.integers(1, 4))):
            atom = draw(st.sampled_from(ATOMS))
            q = draw(st.sampled_from(QUANTIFIERS))
            if q and atom in ("\\b", "\\B", "^", "$", "\\b{start}", "\\b{end}"):
                q = ""  # rg rejects a repeated assertion
            parts.append(atom + q)
        return "".join(parts)

    return "|".join(branch() for _ in range(draw(st.integers(1, 2))))


# A pattern and the options it is compiled with (see compiled_or_rejected).
PATTERN_AND_OPTIONS = dict(
    pattern=patterns(),
    case=st.sampled_from(["sensitive", "insensitive", "smart"]),
    word=st.booleans(),
    line_flag=st.booleans(),
    unicode=st.booleans(),
)


def compiled_or_rejected(pattern, case, word, line_flag, unicode):
    """The pattern compiled with the options drawn; a pattern rg rejects is not an example."""
    try:
        return compile_patterns([pattern], PatternOptions(
            case=case, word=word, line=line_flag, unicode=unicode))
    except Exception:
        assume(False)


@settings(max_examples=600, deadline=None)
@given(
    **PATTERN_AND_OPTIONS,
    lines=st.lists(st.text(alphabet="abcEkKsS _-1\t.\r\x7fé", max_size=40), min_size=1, max_size=6),
)
def test_on_an_ascii_line_re_finds_what_regex_finds(pattern, case, word, line_flag, unicode, lines):
    compiled = compiled_or_rejected(pattern, case, word, line_flag, unicode)
    assume(compiled.ascii_regex is not None)
    for line in lines:
        if not line.isascii():
            continue
        ours = compiled.ascii_regex.search(line)
        theirs = compiled.regex.search(line)
        assert (ours and ours.span()) == (theirs and theirs.span()), (pattern, line)


@pytest.mark.parametrize("pattern, has_ascii_form", [
    ("\\w+Error", True),
    ("^def \\w+", True),
    ("(?:a|aa)+b", False),  # its backtracking is not bounded: the budgeted regex runs it
    ("[a-z]+[0-9]+", False),
])
def test_only_patterns_with_bounded_backtracking_get_an_ascii_form(pattern, has_ascii_form):
    assert (compile_patterns([pattern], PatternOptions()).ascii_regex is not None) is has_ascii_form


def test_crlf_and_multiline_keep_the_regex_module():
    assert compile_patterns(["a$"], PatternOptions(crlf=True)).ascii_regex is None
    assert compile_patterns(["a$"], PatternOptions(multiline=True)).ascii_regex is None


@pytest.fixture
def word_tree(isolated):
    (isolated / "ascii.py").write_bytes(
        b"raise ValueError('x')\nError alone\n  except KeyError:\n" + b"y" * 300 + b"Error\n"
        + b"- " * 200 + b"Error " + b"z" * 100 + b"\n")  # two long lines: one matches
    (isolated / "utf8.py").write_bytes("naïveError\nÉtéError ok\n_Error\n".encode())
    (isolated / "latin1.txt").write_bytes(b"caf\xe9Error\n\xe9Error\n")
    return isolated


@pytest.mark.parametrize("args", [
    ["-n", "\\w+Error"], ["-c", "\\w+Error"], ["-n", "-w", "\\w+Error"], ["-n", "^\\s*\\w+Error"],
    ["-n", "-i", "\\w+error"], ["-n", "--no-unicode", "\\w+Error"], ["-n", "-x", ".*Error"],
    ["-n", "-v", "\\w+Error"], ["-n", "\\bError\\b"],
])
def test_searches_confirmed_by_re_print_what_rg_prints(word_tree, reference_rg, args):
    same(reference_rg, args)


def word_search_in_a_new_process(cwd) -> subprocess.CompletedProcess:
    """``shellfree rg -j1 -n \\w+Error .`` in *cwd*, in a new interpreter that fails with
    "regex loaded" when the search imported the regex module, or "tables loaded" when it
    imported the Unicode property tables (neither is needed for ASCII text)."""
    code = (
        "import sys\n"
        "from shellfree.cli import main\n"
        "assert main(['rg', '-j1', '-n', '\\\\w+Error', '.']) == 0\n"
        "assert 'regex' not in sys.modules, 'regex loaded'\n"
        "assert 'shellfree.search.regex_unicode_tables' not in sys.modules, 'tables loaded'\n"
    )
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True,
                          check=False)


def test_a_search_whose_candidate_lines_are_ascii_never_loads_the_regex_module(tmp_path):
    (tmp_path / "a.py").write_bytes(b"raise ValueError('x')\nno match here\n")
    proc = word_search_in_a_new_process(tmp_path)
    assert proc.returncode == 0, proc.stderr

