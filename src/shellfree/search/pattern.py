"""Turn rg's pattern arguments into one compiled matcher with ripgrep 15.1's semantics, or its error.

Entry point: :func:`compile_patterns` (patterns + :class:`PatternOptions` -> :class:`CompiledPattern`,
or :class:`~shellfree.search.errors.PatternError` whose ``str`` is exactly what rg prints after
``rg: ``). Parsing is :mod:`~shellfree.search.regex_syntax`, meaning and emission are
:mod:`~shellfree.search.regex_translate`; this module assembles the joined pattern the way rg does
(``(?:P1)|(?:P2)|…``, duplicates dropped, ``-F`` escaping), decides smart case and formats errors.

How the searcher must run :attr:`CompiledPattern.regex` (the contract the semantics rely on):

* Text is file bytes decoded as UTF-8 with ``errors="surrogateescape"``; invalid bytes arrive as
  U+DC80..U+DCFF and no class, ``.`` or negation ever matches them (as in rg).
* Line mode (no ``-U``): run the regex on :meth:`CompiledPattern.line_text` of each line, i.e.
  the line without its ``\\n`` (a ``\\r`` stays: ``$`` never matches before it). rg: with ``--crlf``
  and a pattern using ``\\A``/``\\z`` (or ``(?-m)^``/``$``) rg matches line by line and strips only a
  ``\\r\\n``, so a bare ``\\n`` stays (``--crlf 'foo\\z'`` matches ``foo\\r\\n``, not ``foo\\n``).
* Multiline mode (``-U``): run it on the whole text; ``\\A``/``\\z`` are text start/end.
* Iterate matches with :meth:`CompiledPattern.iter_byte_spans` (or ``iter_spans`` for character
  spans), which reproduces rg's byte-wise iteration (empty matches next to a match skipped, empty
  matches inside multi-byte characters).
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Callable, Iterator, Sequence

from shellfree._record import Record
from shellfree.search.decode import ByteOffsets
from shellfree.search import regex_syntax as S
from shellfree.search import regex_translate as T
from shellfree.search.class_run import ClassRun, required_run
from shellfree.search.sure_window import SureWindow, sure_window
from shellfree.search.errors import PatternError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see shellfree/__init__.py)
if TYPE_CHECKING:
    from typing import Optional
    import regex

__all__ = ["PatternOptions", "CompiledPattern", "compile_patterns", "PatternError"]

_PCRE2_HINT = ("\n\nConsider enabling PCRE2 with the --pcre2 flag, which can handle backreferences"
               "\nand look-around.")
_RULE = "~" * 79


class PatternOptions(Record):
    """The pattern-related rg flags, already resolved by the CLI (last of -s/-i/-S wins, etc.)."""

    fixed_strings: bool = False          # -F
    case: str = "sensitive"              # "sensitive" | "insensitive" | "smart"  (-s / -i / -S)
    word: bool = False                   # -w: half word boundaries, not \b…\b
    line: bool = False                   # -x
    multiline: bool = False              # -U
    dotall: bool = False                 # --multiline-dotall
    crlf: bool = False                   # --crlf
    binary_detection: bool = True        # False under -a/--text: NUL-only patterns are then allowed
    unicode: bool = True                 # False under --no-unicode


class CompiledPattern(Record):
    """A compiled rg pattern set; see the module docstring for how to run :attr:`regex`.

    ``required_literals`` is None in case-insensitive mode (and whenever unknown); otherwise every
    match contains at least one of the (case-sensitive) strings, so a prefilter may skip text that
    contains none of them.
    """

    regex: "regex.Pattern[str]"
    can_match_newline: bool
    case_insensitive: bool
    matches_nothing: bool
    required_literals: Optional[tuple] = None
    empty_inside_chars: bool = False   # see iter_spans: matches empty with no assertion involved
    crlf_line_by_line: bool = False    # see line_text: --crlf with \A/\z in the pattern
    # The pattern holds \A or \z: in line mode it must run on each line's own text, so no scan
    # over a whole file can stand in for the per-line search.
    text_anchors: bool = False
    # -U with an anchor (^, $, \A, \z, in any flag mode; -x adds ^ and $): rg then runs its
    # multi-line searcher over the whole file even though no match can hold a newline (checked
    # against rg 15.1: `rg -U 'z\z'`, `rg -U --json 'a|b$'` merges lines; `\b`, -w and the empty
    # pattern stay line by line).
    whole_text: bool = False
    # Every occurrence of a required literal is a match (the pattern is a literal or an
    # alternation of literals, case-sensitive, no -w/-x): candidates need no confirmation.
    exact_literals: bool = False
    # Case-insensitive patterns: lowercase ASCII byte strings of which every match's bytes hold
    # one up to ASCII case, to find candidate lines without decoding the text (the searcher
    # looks for them in the text's bytes.lower()).
    folded_prefilter: Optional[tuple] = None
    # Every occurrence of one of them, in any ASCII case, is a match (the pattern is their
    # alternation, no -w/-x): candidates need no confirmation.
    folded_exact: bool = False
    # The pattern compiled by ``re`` when both engines agree on it and ``re`` scans faster
    # (patterns with no literal to search for; see regex_translate._re_source).
    re_regex: "Optional[re.Pattern[str]]" = None
    # A backtracker runs the pattern over a short line in bounded time (see
    # regex_translate._bounded_backtracking): the searcher then calls it there with no time
    # budget.
    short_lines_safe: bool = False
    # Line mode, short_lines_safe patterns: the pattern on ``re``, matching as rg does on a
    # line of ASCII characters only (see regex_translate._ascii_source); None otherwise.
    ascii_regex: "Optional[re.Pattern[str]]" = None
    # ascii_regex also matches as rg does on a line of any characters once each non-ASCII one
    # is replaced by the stand-in of its kind (see char_kinds.stand_in_text).
    ascii_kinds: bool = False
    # -U: the regex to run from a search position that rg treats as the start of the haystack
    # (see Translation.slice_source); None when it would be :attr:`regex` itself.
    slice_regex: Optional["regex.Pattern[str]"] = None
    # Line mode, a pattern ``A L B`` around its one required literal ``L``: ``(?<=A)L B``,
    # which confirms a long line from the literal's occurrences instead of from every position
    # before them (see regex_translate._literal_split); compiled on first use.
    around_literal: Optional["regex.Pattern[str]"] = None
    # Line mode: rg confirms a line that holds the inner literal on the line alone, with
    # nothing before it (see regex_translate._lines_alone).
    lines_alone: bool = False
    # Line mode under --crlf with a (?m) anchor: the regex for a text whose end is its
    # haystack's end even after a "\r" (see Translation.text_end_source); compiled on first use.
    text_end: Optional["regex.Pattern[str]"] = None
    # Line mode, no folded literal and no required literal longer than one character: a run of
    # bytes from one set that every match holds, found in the text translated by its table
    # (see class_run) instead of the literals; None when no run is more selective.
    class_run: Optional[ClassRun] = None
    # Line mode, a pattern of literals and repeated classes around its one required literal:
    # the bytes around an occurrence that prove a match without the regex (see sure_window).
    sure_window: Optional[SureWindow] = None
    # -r: the pattern with rg's capture groups as named groups g1, g2, ... (see
    # Translation.capture_source), compiled on first use, and rg's group names -> numbers.
    capture_regex: Optional["regex.Pattern[str]"] = None
    group_names: Optional[dict] = None

    @property
    def source(self) -> str:
        """The pattern's text in the ``regex`` module's dialect."""
        return self.regex.pattern

    @property
    def multiline(self) -> bool:
        """Whether rg searches with its multi-line searcher (whole file, match blocks)."""
        return self.can_match_newline or self.whole_text

    def line_text(self, line: str) -> str:
        """The text to run :attr:`regex` on for one line given *with* its terminator (line mode)."""
        if self.crlf_line_by_line:
            return line[:-2] if line.endswith("\r\n") else line
        return line[:-1] if line.endswith("\n") else line

    def iter_spans(self, text: str, pos: int = 0, endpos: Optional[int] = None,
                   timeout: Optional[float] = None) -> Iterator[tuple]:
        """``(start, end)`` character spans of the matches in ``text``, in rg's order and number.

        rg iterates over *bytes* (see :meth:`_iter_matches`); the empty matches it finds inside a
        multi-byte character are reported here at that character's index. ``timeout`` is passed
        to ``regex`` (it raises ``TimeoutError``).
        """
        for start, end, _ in self._iter_matches(text, pos, endpos, timeout):
            yield (start, end)

    def iter_byte_spans(self, text: str, pos: int = 0, endpos: Optional[int] = None,
                        timeout: Optional[float] = None) -> Iterator[tuple]:
        """Like :meth:`iter_spans`, but as UTF-8 byte offsets from the start of ``text`` (the
        bytes :func:`~shellfree.search.decode.to_text` decoded it from), so the empty matches
        inside a multi-byte character get their own offsets, as in rg."""
        if text.isascii():
            for start, end, _ in self._iter_matches(text, pos, endpos, timeout):
                yield (start, end)
            return
        at = ByteOffsets(text).of  # matches come in order, so offsets are counted once
        for start, end, inner in self._iter_matches(text, pos, endpos, timeout):
            if inner:
                yield (at(start) + inner, at(start) + inner)
            else:
                yield (at(start), at(end))

    def _iter_matches(self, text: str, pos: int, endpos: Optional[int],
                      timeout: Optional[float]) -> Iterator[tuple]:
        """``(start, end, inner)``: character spans, with ``inner`` > 0 for an empty match that
        many bytes into the character at ``start``.

        rg searches again from the end of a non-empty match and one *byte* after an empty one,
        and skips an empty match that starts where the previous match ended. Between the bytes
        of a multi-byte character every assertion is false and no class matches, so only a
        pattern that can match the empty string with no assertion (``''``, ``x*``) matches
        there (``rg -o ''`` on ``é`` prints three empty lines) -- even when the empty match at
        the character's first byte was skipped: ``rg -ob '[a-z]{0,2}'`` on ``x²y`` gives
        ``0:x``, ``2:`` (the second byte of ``²``), ``3:y``.
        """
        if self.matches_nothing:
            return
        end = len(text) if endpos is None else endpos
        last_end = None
        search = self.regex.search
        while pos <= end:
            m = search(text, pos, end, timeout=timeout)
            if m is None:
                return
            s, e = m.span()
            if s == e:
                pos = e + 1
                if e != last_end:
                    yield (s, e, 0)
                last_end = e
                if self.empty_inside_chars and s < end:
                    for inner in range(1, _utf8_len(text[s])):
                        yield (s, s, inner)
            else:
                pos = e
                last_end = e
                yield (s, e, 0)


def _utf8_len(ch: str) -> int:
    cp = ord(ch)
    if cp < 0x80 or 0xD800 <= cp <= 0xDFFF:   # a surrogate escape stands for one invalid byte
        return 1
    return 2 if cp < 0x800 else 3 if cp < 0x10000 else 4


@contextlib.contextmanager
def _deep_recursion():
    # The regex module parses recursively (about five frames per group); rg allows 250 nested
    # groups, which needs more than Python's default limit of 1000.
    old = sys.getrecursionlimit()
    if old < 20000:
        sys.setrecursionlimit(20000)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def _escape(pattern: str) -> str:
    # rg -F: regex-syntax's escape() backslashes every meta character, # & - ~ included.
    return "".join("\\" + c if c in S._META else c for c in pattern)


def _dedupe(patterns: Sequence[str]) -> list:
    seen, out = set(), []
    for p in patterns:
        if p not in seen:
            seen.add(p)
            out.append(p)
    return out


def _format(pattern: str, message: str, spans: Sequence[S.Span]) -> str:
    """rg's "regex parse error" block: the wrapped pattern, carets under each span, the message."""
    lines = pattern.split("\n")
    starts, offset = [], 0
    for ln in lines:
        starts.append(offset)
        offset += len(ln) + 1

    def carets(line_no: int) -> str:
        lo, hi = starts[line_no], starts[line_no] + len(lines[line_no])
        out, col = [], 0
        for sp in sorted(spans, key=lambda s: s.start):
            if not lo <= sp.start <= hi:
                continue
            start_col = sp.start - lo
            width = max(1, min(sp.end, hi) - sp.start)
            out.append(" " * (start_col - col) + "^" * width)
            col = start_col + width
        return "".join(out)

    if len(lines) == 1:
        return f"regex parse error:\n    {pattern}\n    {carets(0)}\nerror: {message}"
    width = len(str(len(lines)))
    body = [_RULE]
    for i, ln in enumerate(lines):
        body.append(f"{i + 1:>{width}}: {ln}")
        c = carets(i)
        if c:
            body.append(" " * (width + 2) + c)
    body.append(_RULE)
    return "regex parse error:\n" + "\n".join(body) + f"\nerror: {message}"


def _parse_error(joined: str, err: S.RegexSyntaxError) -> PatternError:
    spans = [err.span] + ([err.aux] if err.aux is not None else [])
    text = _format(joined, err.message, spans)
    if err.message in ("backreferences are not supported",
                       "look-around, including look-ahead and look-behind, is not supported"):
        text += _PCRE2_HINT
    return PatternError(text, joined)


class LazyRegex:
    """A ``regex`` pattern compiled on first use.

    For patterns whose lines are usually found without it: exact literals (found and printed
    with ``bytes.find`` alone, search/plain_literal.py), case-insensitive literal sets (whose
    folded candidates are matches, CompiledPattern.folded_exact), patterns ``re`` confirms on
    ASCII lines (:attr:`CompiledPattern.ascii_regex`) or scans for
    (:attr:`CompiledPattern.re_regex`).
    Such searches need not import the ``regex`` module and compile the pattern: 6-7 ms of a
    90 ms command-line search. None of these patterns can fail to compile (no repetition
    bound above 64), so nothing is reported later than it would have been. The same holds for
    :attr:`CompiledPattern.around_literal`, built from the parts of a pattern already compiled
    or known to compile. Attributes are fetched once and then kept on the instance.
    """

    def __init__(self, make_source: Callable[[], str]) -> None:
        self._make_source = make_source

    def __getattr__(self, name: str):
        # Only reached for what is not yet on the instance: the first use compiles, with the
        # recursion room compile_patterns gives a deeply nested pattern.
        with _deep_recursion():
            value = getattr(T.compile_source(self._make_source()), name)
        setattr(self, name, value)
        return value

    def __repr__(self) -> str:
        return f"LazyRegex({self.pattern!r})"


def compile_patterns(patterns: Sequence[str], options: PatternOptions) -> CompiledPattern:
    """Compile rg's patterns (``-e``/``-f``/positional) under ``options``.

    *patterns* (sequence of str) are the patterns as given; duplicates are dropped and an empty
    sequence gives a pattern that never matches. Returns a :class:`CompiledPattern`. Raises
    :class:`PatternError` with rg's exact message (parse errors, ``\\n``/NUL literals, …).
    """
    if options.case not in ("sensitive", "insensitive", "smart"):
        raise ValueError(f"case must be sensitive, insensitive or smart, not {options.case!r}")
    pats = _dedupe(patterns)
    if not pats:
        never = T.compile_source(r"[^\x00-\U0010ffff]")
        return CompiledPattern(never, False, options.case == "insensitive", True,
                               None, False)
    # rg matches case-sensitive patterns with no meta character (or -F ones) as literals
    # without the regex checks, so a NUL read from a -f file is searched for, where `\x00`,
    # `a[\0]b`, or the same literal under -i or -S, is refused (rg 15.1, measured).
    literal = options.case == "sensitive" and (
        options.fixed_strings or not any(c in S._META for p in pats for c in p))
    if options.fixed_strings:
        pats = [_escape(p) for p in pats]
    # rg: patterns are joined textually, so flags cannot leak and ")(" is accepted.
    joined = "|".join(f"(?:{p})" for p in pats)
    with _deep_recursion():
        return _compile(pats, joined, options, ban_nul=options.binary_detection and not literal)


def _compile(pats: list, joined: str, options: PatternOptions,
             ban_nul: bool = True) -> CompiledPattern:
    try:
        ast = S.parse(joined)
    except S.RegexSyntaxError as err:
        raise _parse_error(joined, err) from None
    insensitive = options.case == "insensitive"
    if options.case == "smart":
        any_lit, any_upper = T.analyze_case(ast)
        insensitive = any_lit and not any_upper
    opts = T.TranslateOptions(
        case_insensitive=insensitive, multiline=options.multiline, dotall=options.dotall,
        crlf=options.crlf, unicode=options.unicode, word=options.word and not options.line,
        line=options.line, ban_nul=ban_nul)
    try:
        tr = T.translate(ast, opts)
    except T.TranslateError as err:
        if err.span is None:
            raise PatternError(err.message, joined) from None
        raise _parse_error(joined, S.RegexSyntaxError(err.message, err.span)) from None
    ascii_regex = (re.compile(tr.ascii_source)
                   if tr.ascii_source is not None and tr.short_lines_safe else None)
    if not tr.slice_source and (tr.exact_literals or tr.folded_exact or ascii_regex is not None
                                or tr.re_source):
        # Lines may well be found and confirmed without the regex module (see LazyRegex).
        # Such patterns cannot fail to compile: no repetition bound exceeds 64.
        compiled = LazyRegex(tr.source)
        from_start = None
    else:
        import regex

        try:
            with _deep_recursion():
                compiled = T.compile_source(tr.source())
                from_start = T.compile_source(tr.slice_source) if tr.slice_source else None
        except (regex.error, OverflowError):
            # rg: only a pattern whose compiled size explodes gets here (e.g. a{4294967295}).
            raise PatternError("compiled regex exceeds size limit of 104857600", joined) from None
    return CompiledPattern(compiled, tr.can_match_newline, insensitive, False,
                           tr.required_literals, tr.empty_inside_chars,
                           options.crlf and not options.multiline and tr.text_anchors,
                           tr.text_anchors and not options.multiline,
                           options.multiline and (tr.text_anchors or tr.line_anchors),
                           exact_literals=tr.exact_literals,
                           folded_prefilter=None if tr.folded_literals is None
                           else tuple(lit.encode() for lit in tr.folded_literals),
                           folded_exact=tr.folded_exact,
                           re_regex=re.compile(tr.re_source) if tr.re_source else None,
                           short_lines_safe=tr.short_lines_safe, ascii_regex=ascii_regex,
                           ascii_kinds=ascii_regex is not None and tr.ascii_kinds,
                           slice_regex=from_start,
                           around_literal=None if tr.literal_split is None
                           else LazyRegex(tr.around_literal_source),
                           lines_alone=tr.lines_alone,
                           text_end=LazyRegex(tr.text_end_source) if tr.crlf_end_anchors else None,
                           class_run=None if tr.folded_literals or tr.text_anchors
                           or tr.can_match_newline
                           else required_run(tr.hir, tr.required_literals),
                           sure_window=None if tr.exact_literals or tr.can_match_newline
                           else sure_window(tr.hir, tr.required_literals),
                           capture_regex=LazyRegex(tr.capture_source),
                           group_names=tr.group_names())

