"""Translate a parsed Rust-regex AST into a ``regex``-module (V1) pattern with rg 15.1's meaning.

Three steps, mirroring what rg does after parsing: (1) build a small HIR with every flag resolved
(``i m s U R u``; mid-pattern flags last until the end of the enclosing group), case folding and
classes made exact (:mod:`shellfree.search.regex_unicode`), and regex-syntax's simplifications
that rg's checks can observe (``[a]`` is a literal, ``a|b`` a class, ``x{0}`` nothing);
(2) rg's checks on that HIR: the NUL ban and the line-terminator strip (``\\n`` removed from every
class, a literal ``\\n`` an error); (3) emission as a ``regex`` V1 pattern text.

Why V1: only V1 has nested sets and ``&&``/``--``, which the exact class emission needs; its other
differences are neutralised (``(?-f)`` keeps case folding *simple*, every group is emitted as
``(?:…)`` and every anchor explicitly, so no global flag matters).

Not modelled (documented disagreements): byte-oriented matching with Unicode off — ``(?-u:.)`` and
``--no-unicode`` classes match a whole (multi-byte) character where rg matches one byte, and a
``(?-u)`` byte escape ``\\xE9`` matches only an invalid byte (U+DCE9), never part of a valid
character; ``\\p{Age=…}`` (the regex module has no Age data) raises an error rg would not raise.
"""

from __future__ import annotations


from shellfree._module_on_first_use import ModuleOnFirstUse
from shellfree._record import Record
from shellfree.search import regex_syntax as S
from shellfree.search.char_kinds import KINDS, STAND_INS

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see shellfree/__init__.py)
if TYPE_CHECKING:
    from typing import Optional
    import regex


# shellfree.search.regex_unicode, imported when a translation first needs it: a literal, or an
# alternation of literals, is translated without it, and a one-shot search for one then skips
# its import (0.6 ms of a 70 ms search of the medium benchmark tree); -i, \w or . load it.
U = ModuleOnFirstUse("shellfree.search.regex_unicode", globals(), "U")

__all__ = ["TranslateOptions", "Translation", "TranslateError", "translate", "analyze_case"]


class TranslateError(Exception):
    """An rg error found after parsing: ``span`` set for errors rg prints with a caret."""

    def __init__(self, message: str, span: Optional[S.Span] = None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span


class TranslateOptions(Record):
    """The flags rg starts the joined pattern with, plus the -w/-x wrapping and the checks."""

    case_insensitive: bool = False
    multiline: bool = False
    dotall: bool = False
    crlf: bool = False
    unicode: bool = True
    word: bool = False
    line: bool = False
    ban_nul: bool = True


class Translation(Record):
    """Facts about a translated pattern, and its ``regex`` text on demand (:meth:`source`)."""

    hir: object
    # rg: only under --crlf does the end of a line's text behave as "followed by its \n" for (?R)
    # anchors; an inline (?R) without --crlf sees the line as cut at its \n.
    crlf_line_mode: bool
    can_match_newline: bool
    required_literals: Optional[tuple]
    empty_inside_chars: bool
    text_anchors: bool
    # ^ or $ (multi-line or --crlf flavour): with -U rg then keeps its multi-line searcher.
    line_anchors: bool = False
    # -U only: the pattern as matched from a search position that is the start of the haystack
    # (rg's multi-line searcher runs the regex on the rest of the file after each match), or
    # None when no assertion looks behind the search position.
    slice_source: Optional[str] = None
    # The pattern is nothing but the alternation of required_literals: any occurrence of one
    # is a match, so a line holding one needs no confirming regex call.
    exact_literals: bool = False
    # Case-insensitive patterns: lowercase ASCII strings of which every match holds one up to
    # ASCII case (None when unknown or too short to be worth a prefilter).
    folded_literals: Optional[tuple] = None
    # The pattern is nothing but the alternation of folded_literals: any occurrence of one, in
    # any ASCII case, is a match (see _folded_literal_set).
    folded_exact: bool = False
    # The same pattern in Python's ``re`` dialect, when it is simple enough for both engines
    # to agree on every match and for ``re`` (which has no timeout) to be safe from
    # catastrophic backtracking; None otherwise. See _re_source.
    re_source: Optional[str] = None
    # Backtracking over a short line stays cheap enough to need no time budget (see
    # _bounded_backtracking).
    short_lines_safe: bool = False
    # Line mode: the pattern in ``re``'s dialect, matching as rg does on any text made of ASCII
    # characters only (see _ascii_source); None when it cannot be written.
    ascii_source: Optional[str] = None
    # ascii_source also matches as rg does on a line whose non-ASCII characters were replaced
    # by the stand-ins of their kinds (char_kinds.stand_in_text).
    ascii_kinds: bool = False
    # Line mode: where the pattern splits around its one required literal (see
    # _literal_split); None when it does not.
    literal_split: Optional[int] = None
    # Line mode: rg confirms each candidate line on its own, nothing before it (see
    # _lines_alone).
    lines_alone: bool = False
    # Line mode under --crlf with a (?m) anchor: see text_end_source.
    crlf_end_anchors: bool = False

    def source(self) -> str:
        """The pattern in the ``regex`` module's V1 dialect (:func:`compile_source`).

        Emitted on demand: a class built on a Unicode property is emitted by probing the
        ``regex`` module itself, so emitting would load it even for searches that never run it.
        """
        return "(?-f)" + _Emitter(self.crlf_line_mode).emit(self.hir)

    def capture_source(self) -> str:
        """:meth:`source` with rg's capture groups, for -r: group *n* is the named group
        ``g<n>``, so a group rg numbers but the translation dropped (``(a){0}``) is simply
        absent, as it never takes part in a match. Emitted on demand."""
        return "(?-f)" + _Emitter(self.crlf_line_mode, capturing=True).emit(self.hir)

    def group_names(self) -> dict:
        """rg's group names and their numbers (see :meth:`capture_source`)."""
        return {node.name: node.index for node in _walk(self.hir)
                if isinstance(node, HCap) and node.name}

    def text_end_source(self) -> str:
        """Line mode under --crlf: the pattern for a text whose end is its haystack's end even
        after a ``\\r``, where :meth:`source` takes the end of a line's text as followed by its
        ``\\n`` (no ``$`` between ``\\r`` and ``\\n``). rg re-finds the matches of a line ending
        in ``\\r\\r\\n`` in a text that stops before its ``\\r\\n`` (``--crlf --json '(?m:$)'``
        on ``a\\r\\r\\n``: at 1 and 2), and a file's unterminated last line ends its haystack
        (``--crlf -c '(?m:^$)'`` counts a last line ``b\\rc\\r``)."""
        return "(?-f)" + _Emitter(False).emit(self.hir)

    def around_literal_source(self) -> str:
        """For a pattern with a :attr:`literal_split` ``A L B``: ``(?<=A)L B``, which matches at
        an occurrence of ``L`` exactly when some match of the pattern holds that occurrence as
        its ``L``. Emitted on demand, as :meth:`source` is."""
        assert self.literal_split is not None
        items = _top_items(self.hir)
        at = self.literal_split
        emitter = _Emitter(self.crlf_line_mode)
        behind = emitter.emit(HConcat(items[:at]))
        return "(?-f)(?<=" + behind + ")" + emitter.emit(HConcat(items[at:]))


# -- HIR ----------------------------------------------------------------------------------------

class HLit(Record):
    text: str


class HClass(Record):
    cls: object
    fold_char: Optional[str] = None   # a case-folded literal, emitted as (?i:c) when regex agrees
    unicode: bool = True


class HLook(Record):
    kind: str
    unicode: bool = True


class HRep(Record):
    min: int
    max: Optional[int]
    greedy: bool
    sub: object


class HCap(Record):
    sub: object
    # rg's number and name of the group, kept for -r's capture references (the searching
    # regex emits every group as non-capturing).
    index: int = 0
    name: str = ""


class HConcat(Record):
    items: tuple


class HAlt(Record):
    items: tuple


HEMPTY = HConcat(())


def _class(cls, fold_char: Optional[str] = None, unicode: bool = True):
    # regex-syntax: a class of exactly one character is a literal (this is what makes "[\n]" an
    # error and "[^\x01-\x{10FFFF}]" a NUL literal).
    exact = U.materialize(cls)
    if exact is not None:
        if len(exact.ranges) == 1 and exact.ranges[0][0] == exact.ranges[0][1]:
            return HLit(chr(exact.ranges[0][0]))
        cls = exact
    return HClass(cls, fold_char, unicode)


def _concat(items) -> object:
    out: list = []
    for it in items:
        parts = it.items if isinstance(it, HConcat) else (it,)
        for p in parts:
            if isinstance(p, HLit) and out and isinstance(out[-1], HLit):
                out[-1] = HLit(out[-1].text + p.text)
            else:
                out.append(p)
    return out[0] if len(out) == 1 else HConcat(tuple(out))


def _alt(items) -> object:
    flat: list = []
    for it in items:
        flat.extend(it.items if isinstance(it, HAlt) else (it,))
    # rg (regex-syntax's Hir::alternation): an alternation of single characters, or of classes
    # alone, becomes one class, so "a|\n" is accepted, and so is `[xy]|[\r\n]` under --crlf
    # (one class when the terminators are taken out), but `[xy]|\n` is not (a class and a
    # literal stay an alternation).
    if flat and all(isinstance(i, HLit) and len(i.text) == 1 for i in flat):
        return _class(U.chars(ord(i.text) for i in flat))
    if len(flat) > 1 and all(isinstance(i, HClass) for i in flat):
        # Unicode and byte classes join when one side is ASCII only (`(?-u:[x\xff])|[\n]`).
        unicode = all(i.unicode or _ascii_only(i.cls) for i in flat)
        if unicode or all(not i.unicode or _ascii_only(i.cls) for i in flat):
            return _class(U.Union(tuple(i.cls for i in flat)), None, unicode)
    return HAlt(tuple(flat))


def _ascii_only(cls) -> bool:
    exact = U.materialize(cls)
    return exact is not None and all(hi < 0x80 for _, hi in exact.ranges)


def _rep(lo: int, hi: Optional[int], greedy: bool, sub) -> object:
    if hi == 0:
        return HEMPTY   # rg: x{0} is the empty regex, so "\n{0}" and "\x00{0}" are allowed.
    if lo == 1 and hi == 1:
        return sub
    return HRep(lo, hi, greedy, sub)


class _Builder:
    """AST -> HIR with rg's flag scoping; raises :class:`TranslateError` for HIR-level errors."""

    def __init__(self, opts: TranslateOptions) -> None:
        self.flags = {"i": opts.case_insensitive, "m": True, "s": opts.dotall, "U": False,
                      "R": opts.crlf, "u": opts.unicode, "x": False}
        self.groups = 0  # capture groups numbered so far, in the order of their "("

    def apply(self, items) -> None:
        on = True
        for it in items:
            if it.kind == "-":
                on = False
            else:
                self.flags[it.kind] = on

    def build(self, node):
        if isinstance(node, S.Empty):
            return HEMPTY
        if isinstance(node, S.Literal):
            return self.literal(node)
        if isinstance(node, S.Dot):
            return self.dot()
        if isinstance(node, S.Assertion):
            return self.assertion(node.kind)
        if isinstance(node, (S.ClassPerl, S.ClassUnicode, S.ClassBracketed)):
            return _class(self.cls(node), unicode=self.flags["u"])
        if isinstance(node, S.SetFlags):
            self.apply(node.flags)
            return HEMPTY
        if isinstance(node, S.Group):
            saved = dict(self.flags)
            self.apply(node.flags)
            index = 0
            if node.kind != "noncapture":
                self.groups += 1
                index = self.groups
            inner = self.build(node.ast)
            self.flags = saved
            return inner if node.kind == "noncapture" else HCap(inner, index, node.name)
        if isinstance(node, S.Repetition):
            sub = self.build(node.ast)
            return _rep(node.min, node.max, node.greedy != self.flags["U"], sub)
        if isinstance(node, S.Concat):
            return _concat([self.build(a) for a in node.asts])
        if isinstance(node, S.Alternation):
            return _alt([self.build(a) for a in node.asts])
        raise AssertionError(node)

    def char_of(self, lit: S.Literal) -> str:
        if not self.flags["u"] and lit.kind == "hex_x" and 0x80 <= ord(lit.c) <= 0xFF:
            # rg: with Unicode off, \xE9 is the byte 0xE9. In text decoded with surrogateescape
            # a lone invalid byte 0xE9 is U+DCE9 (matching it inside a valid character is not
            # modelled).
            return chr(0xDC00 + ord(lit.c))
        return lit.c

    def literal(self, lit: S.Literal):
        c = self.char_of(lit)
        if self.flags["i"] and not 0xDC80 <= ord(c) <= 0xDCFF:
            orb = U.orbit(ord(c), self.flags["u"])
            if len(orb) > 1:
                return HClass(U.chars(orb), c, self.flags["u"])
        return HLit(c)

    def dot(self):
        if self.flags["s"]:
            cls = U.ANY
        elif self.flags["R"]:
            cls = U.Not(U.chars([0x0A, 0x0D]))   # rg: in CRLF mode "." excludes \r too
        else:
            cls = U.Not(U.chars([0x0A]))
        if not self.flags["u"]:
            # (?-u:.) matches any byte, invalid ones (U+DC80..U+DCFF here) included.
            cls = U.Union((cls, U.chars([(0xDC80, 0xDCFF)])))
        return _class(cls, unicode=self.flags["u"])

    def assertion(self, kind: str):
        u = self.flags["u"]
        if kind == "start_line":
            if not self.flags["m"]:
                return HLook("start_text")
            return HLook("start_line_crlf" if self.flags["R"] else "start_line")
        if kind == "end_line":
            if not self.flags["m"]:
                return HLook("end_text")
            return HLook("end_line_crlf" if self.flags["R"] else "end_line")
        return HLook(kind, u)

    # -- classes --------------------------------------------------------------------------
    def cls(self, node):
        i, u = self.flags["i"], self.flags["u"]
        if isinstance(node, S.ClassPerl):
            c = U.perl_class(node.kind, u)
            return self.byte_negate(c) if node.negated else c
        if isinstance(node, S.ClassUnicode):
            if not u:
                raise TranslateError("Unicode not allowed here", node.span)
            try:
                c = U.lookup_property(node.name, node.value)
            except U.PropertyError as err:
                raise TranslateError(str(err), node.span) from None
            if i:
                c = U.fold(c)
            # rg 15.1 matches \p{gc!=L} as \p{gc=L}: regex-syntax parses the "!=" and its
            # translation keeps only the \P/[^ negation (measured: `rg -o '\p{gc!=Lu}'` on
            # "Hello" prints "H").
            return U.Not(c) if node.negated else c
        if isinstance(node, S.ClassBracketed):
            c = self.set(node.kind)
            if i:
                c = U.fold(c, u)
            return self.byte_negate(c) if node.negated else c
        if isinstance(node, S.ClassAscii):
            c = U.ascii_class(node.name)
            return self.byte_negate(c) if node.negated else c
        if isinstance(node, S.Literal):
            return U.chars([ord(self.char_of(node))])
        if isinstance(node, S.ClassRange):
            lo, hi = ord(self.char_of(node.start)), ord(self.char_of(node.end))
            return U.chars([(lo, hi)])
        raise AssertionError(node)

    def byte_negate(self, c):
        if self.flags["u"]:
            return U.Not(c)
        # (?-u)[^a]: every byte but "a" -> every character but "a", invalid bytes included.
        return U.Union((U.Not(c), U.chars([(0xDC80, 0xDCFF)])))

    def set(self, node):
        if isinstance(node, S.ClassUnion):
            parts = [self.cls(it) for it in node.items]
            if len(parts) == 1:
                return parts[0]
            return U.Union(tuple(parts)) if parts else U.EMPTY
        lhs, rhs = self.set(node.lhs), self.set(node.rhs)
        if self.flags["i"]:
            lhs, rhs = U.fold(lhs, self.flags["u"]), U.fold(rhs, self.flags["u"])
        return U.Op(node.kind, lhs, rhs)


# -- rg's checks --------------------------------------------------------------------------------

def _walk(h):
    yield h
    if isinstance(h, (HRep, HCap)):
        yield from _walk(h.sub)
    elif isinstance(h, (HConcat, HAlt)):
        for it in h.items:
            yield from _walk(it)


_NUL_MSG = ('pattern contains "\\0" but it is impossible to match\n\n'
            "Consider enabling text mode with the --text flag (or -a for short). Otherwise,\n"
            "binary detection is enabled and matching a NUL byte is impossible.")


def _literal_msg(name: str) -> str:
    return (f'the literal "{name}" is not allowed in a regex\n\n'
            "Consider enabling multiline mode with the --multiline flag (or -U for short).\n"
            "When multiline mode is enabled, new line characters can be matched.")


def _strip(h, cps: tuple):
    """Remove ``cps`` from every class (rg's line-mode strip); literals were checked before."""
    if isinstance(h, HClass):
        if not any(U.contains(h.cls, cp) for cp in cps):
            return h
        return _class(U.Op("--", h.cls, U.chars(cps)), h.fold_char, h.unicode)
    if isinstance(h, HRep):
        return HRep(h.min, h.max, h.greedy, _strip(h.sub, cps))
    if isinstance(h, HCap):
        return HCap(_strip(h.sub, cps), h.index, h.name)
    if isinstance(h, HConcat):
        return HConcat(tuple(_strip(i, cps) for i in h.items))
    if isinstance(h, HAlt):
        # Rebuilt as rg rebuilds it: `x|[\r\n]` left as `x|\n` is one class `[\nx]`.
        return _alt([_strip(i, cps) for i in h.items])
    return h


# -- emission -------------------------------------------------------------------------------------

def _lit_text(s: str) -> str:
    out = []
    for c in s:
        if c.isascii() and c.isalnum():
            out.append(c)
        elif 0xD800 <= ord(c) <= 0xDFFF or ord(c) < 0x20 or c == "\x7f":
            out.append("\\x%02x" % ord(c) if ord(c) <= 0xFF else "\\u%04x" % ord(c))
        elif c.isascii():
            out.append("\\" + c)
        else:
            out.append(c)
    return "".join(out)


# Assertions that look at the character before their position.
_LOOKS_BACK = frozenset((
    "start_text", "start_line", "start_line_crlf", "end_line_crlf", "word_boundary",
    "not_word_boundary", "word_start", "word_end", "word_start_half",
))
_LINE_ANCHORS = frozenset(("start_line", "end_line", "start_line_crlf", "end_line_crlf"))


class _Emitter:
    def __init__(self, line_mode: bool, slice_start: bool = False,
                 capturing: bool = False) -> None:
        self.word = {}
        self.line_mode = line_mode
        # The search position (\G) is the haystack's start: nothing lies before it.
        self.slice_start = slice_start
        # Groups as named groups g1, g2, ... after rg's numbers (see Translation.capture_source).
        self.capturing = capturing

    def word_class(self, unicode: bool) -> str:
        if unicode not in self.word:
            self.word[unicode] = U.emit(U.perl_class("w", unicode))
        return self.word[unicode]

    def word_or_invalid(self, unicode: bool) -> str:
        # rg (regex-automata): a half boundary or \B next to invalid UTF-8 is false, not "next
        # to a non-word character"; invalid bytes are the surrogate escapes here.
        key = ("x", unicode)
        if key not in self.word:
            self.word[key] = U.emit(U.Union((U.perl_class("w", unicode), U.chars(U.SURROGATES))))
        return self.word[key]

    def _behind(self, kind: str, good: U.ClassExpr, plain: str, sliced: bool = False) -> str:
        r"""Lookbehinds for "the character before is in *good*", as regex-automata decides it.

        It finds the character before a position by stepping back over at most three UTF-8
        continuation bytes and decoding *one* character from there. After stray continuation
        bytes (invalid, escape surrogates here) that lands on the valid character before them
        when it and the strays span at most four bytes: in ``a\xb6 `` the character before
        the space counts as ``a``, so ``\b`` matches there (measured with rg 15.1 on every
        mix of 1-4 byte characters and 1-4 strays). *plain* is the ordinary one-character
        lookbehind; the result lists it first, then the stray-byte cases. *sliced*: the
        search position (``\G``) starts rg's haystack, and nothing before it is seen, so no
        stray may follow it (``-U -w '[\n]'`` finds the ``\n`` of `` \xbd\n``, and not when
        its search starts at the stray).
        """
        key = (kind, "behind", sliced)
        if key not in self.word:
            stray = "(?!\\G)[\udc80-\udcbf]" if sliced else "[\udc80-\udcbf]"
            parts = []
            # A character of n UTF-8 bytes followed by k strays, n + k <= 4.
            for k, top in ((1, 0xFFFF), (2, 0x7FF), (3, 0x7F)):
                lead = U.emit(U.Op("&&", good, U.chars([(0, top)])))
                parts.append(lead + stray * k)
            self.word[key] = parts
        parts = self.word[key]
        if kind.startswith("not"):
            return plain + "".join(f"(?<!{p})" for p in parts)
        return "(?:" + plain + "".join(f"|(?<={p})" for p in parts) + ")"

    def look(self, h: HLook) -> str:
        if self.slice_start and h.kind in _LOOKS_BACK:
            return self.look_from_start(h)
        k = h.kind
        if k == "start_line":
            return "(?m:^)"
        if k == "end_line":
            return "(?m:$)"
        if k == "start_text":
            return "\\A"
        if k == "end_text":
            return "\\Z"
        if k == "start_line_crlf":
            # rg (?R): after \n, or after a \r not followed by \n (never between \r and \n).
            if self.line_mode:
                # rg searches the buffer: the end of a line's text is followed by its \n.
                return "(?:\\A|(?<=\\n)|(?<=\\r)(?!\\n|\\Z))"
            return "(?:\\A|(?<=\\n)|(?<=\\r)(?!\\n))"
        if k == "end_line_crlf":
            if self.line_mode:
                return "(?:(?=\\r)|(?<!\\r)(?=\\n)|\\Z(?<!\\r))"
            return "(?:\\Z|(?=\\r)|(?<!\\r)(?=\\n))"
        w = self.word_class(h.unicode)
        x = self.word_or_invalid(h.unicode) if h.unicode else w
        after_word, not_after_word, after_other = self._word_behinds(h, w, x)
        if k == "word_boundary":
            return f"(?:{after_word}(?!{w})|{not_after_word}(?={w}))"
        if k == "not_word_boundary":
            return f"(?:{after_word}(?={w})|{after_other}(?!{x}))"
        if k == "word_start":
            return f"{not_after_word}(?={w})"
        if k == "word_end":
            return f"{after_word}(?!{w})"
        if k == "word_start_half":
            return after_other
        if k == "word_end_half":
            return f"(?!{x})"
        raise AssertionError(k)

    def _word_behinds(self, h: HLook, w: str, x: str, sliced: bool = False) -> tuple:
        """Lookbehinds for: the character before is a word character / is not one / is a valid
        non-word character or the start (see _behind); *w* and *x* are the word class and
        the word-or-invalid class."""
        if not h.unicode:
            return f"(?<={w})", f"(?<!{w})", f"(?<!{w})"
        word = U.perl_class("w", True)
        return (self._behind("word", word, f"(?<={w})", sliced),
                self._behind("not_word", word, f"(?<!{w})", sliced),
                self._behind("other", U.Not(word), f"(?<!{x})", sliced))

    def look_from_start(self, h: HLook) -> str:
        # A look-behind that holds with no character before it becomes "\G or …"; one that
        # needs a character before it becomes "not \G and …".
        k = h.kind
        if k == "start_text":
            return "\\G"
        if k == "start_line":
            return "(?:\\G|(?m:^))"
        if k == "start_line_crlf":
            return "(?:\\G|(?<=\\n)|(?<=\\r)(?!\\n))"
        if k == "end_line_crlf":
            return "(?:\\Z|(?=\\r)|(?:\\G|(?<!\\r))(?=\\n))"
        w = self.word_class(h.unicode)
        x = self.word_or_invalid(h.unicode) if h.unicode else w
        after_word, not_after_word, after_other = self._word_behinds(h, w, x, sliced=True)
        if k == "word_boundary":
            return f"(?:(?!\\G){after_word}(?!{w})|(?:\\G|{not_after_word})(?={w}))"
        if k == "not_word_boundary":
            return f"(?:(?!\\G){after_word}(?={w})|(?:\\G|{after_other})(?!{x}))"
        if k == "word_start":
            return f"(?:\\G|{not_after_word})(?={w})"
        if k == "word_end":
            return f"(?!\\G){after_word}(?!{w})"
        return f"(?:\\G|{after_other})"  # word_start_half

    def emit(self, h) -> str:
        if isinstance(h, HLit):
            return _lit_text(h.text)
        if isinstance(h, HClass):
            if h.fold_char is not None and h.unicode and U.regex_fold_agrees(ord(h.fold_char)):
                return "(?i:" + _lit_text(h.fold_char) + ")"
            return U.emit(h.cls)
        if isinstance(h, HLook):
            return self.look(h)
        if isinstance(h, HCap):
            if self.capturing:
                return "(?P<g%d>" % h.index + self.emit(h.sub) + ")"
            return "(?:" + self.emit(h.sub) + ")"
        if isinstance(h, HConcat):
            return self.concat(h.items)
        if isinstance(h, HAlt):
            return "(?:" + "|".join(self.emit(i) for i in h.items) + ")"
        if isinstance(h, HRep):
            sub = self.emit(h.sub)
            atomic = len(sub) == 1 or (len(sub) == 2 and sub[0] == "\\") or (
                isinstance(h.sub, HClass) and sub.startswith("[") and not sub.startswith("(?"))
            if not atomic:
                sub = "(?:" + sub + ")"
            if (h.min, h.max) == (0, None):
                q = "*"
            elif (h.min, h.max) == (1, None):
                q = "+"
            elif (h.min, h.max) == (0, 1):
                q = "?"
            elif h.max is None:
                q = "{%d,}" % h.min
            elif h.min == h.max:
                q = "{%d}" % h.min
            else:
                q = "{%d,%d}" % (h.min, h.max)
            return sub + q + ("" if h.greedy else "?")
        raise AssertionError(h)

    def concat(self, items) -> str:
        out, run = [], []
        for it in items:
            if isinstance(it, HClass) and it.fold_char is not None and it.unicode and \
                    U.regex_fold_agrees(ord(it.fold_char)):
                run.append(it.fold_char)
                continue
            if isinstance(it, HLit) and run and _caseless(it.text):
                run.append(it.text)   # case-less characters can share the (?i:…) run
                continue
            if run:
                out.append("(?i:" + _lit_text("".join(run)) + ")")
                run = []
            out.append(self.emit(it))
        if run:
            out.append("(?i:" + _lit_text("".join(run)) + ")")
        return "".join(out)


def _caseless(text: str) -> bool:
    """Whether no character of *text* has another case: only such a literal may join a run of
    folded characters inside one (?i:…) (a case-sensitive K after (?i:x) must not match k)."""
    return all(len(U.orbit(ord(c))) == 1 for c in text)


def _required(h) -> Optional[frozenset]:
    """Literals of which one must occur in every match (sound; None when unknown)."""
    if isinstance(h, HLit):
        return frozenset((h.text,))
    if isinstance(h, HCap):
        return _required(h.sub)
    if isinstance(h, HRep):
        return _required(h.sub) if h.min >= 1 else None
    if isinstance(h, HConcat):
        best = None
        for it in h.items:
            r = _required(it)
            if r is not None and (best is None or min(map(len, r)) > min(map(len, best))):
                best = r
        return best
    if isinstance(h, HAlt):
        return _every_branch(h, _required)
    return None


# Unicode word assertions: rg's grep layer then extracts inner literals even from a pattern its
# regex engine accelerates by itself (see _lines_alone).
_WORD_LOOKS = frozenset((
    "word_boundary", "not_word_boundary", "word_start", "word_end", "word_start_half",
    "word_end_half",
))
# The single bytes rg's grep layer will not look for as an inner literal: too common. Measured
# with rg 15.1 over every ASCII byte b: named x\n\xb6b\n (after an empty first line) matches
# \b{start-half}b only when rg runs the regex over the whole buffer, for " ", "e" and "t".
_COMMON_BYTES = frozenset(b" et")


def _lines_alone(hir) -> bool:
    """For a pattern with a Unicode word assertion (translate checks): whether rg, line by
    line, confirms each line holding the pattern's inner literal on the line alone, so that
    nothing before the line is looked at (named ``x\\n\\xb6(\\n``: rg finds no
    ``\\b{start-half}\\(``, which the buffer's ``\\n`` before ``\\xb6`` would allow).

    rg does so for a pattern with a Unicode word assertion whose inner literals
    (:func:`_inner_literals`) its heuristics call good: none empty or a too common single byte,
    and at most 3 of them when one is a single byte (unless all share a first byte, which is
    then looked for alone), at most 64 otherwise. A difference from rg's choice matters only
    where a word assertion meets a line that starts with stray UTF-8 continuation bytes;
    `python -m benchmarks.parity.stray_word_grid` compares such searches with rg.
    """
    found = _inner_literals(hir)[0]
    if not found:
        return False
    literals = {lit for lit, _ in found}
    shortest = min(map(len, literals))
    if shortest == 0:
        return False
    if len(literals) > 1 and all(lit[:1] == next(iter(literals))[:1] for lit in literals):
        return literals.pop()[0] not in _COMMON_BYTES  # the shared first byte, looked for alone
    if any(len(lit) == 1 and lit[0] in _COMMON_BYTES for lit in literals):
        return False
    return len(literals) <= (3 if shortest == 1 else 64)


_INNER_CLASS_LIMIT = 10  # a class of more characters gives no literals
_INNER_REPEAT_LIMIT = 10  # a repetition is written out this many times at most
_INNER_SET_LIMIT = 64  # no set grows past this many

_Lits = list | None  # [(utf-8 string, exact)], or None: any string (nothing known)


def _inner_literals(h) -> tuple[_Lits, bool]:
    """(literals, prefix) of *h*, as rg's grep layer extracts them for its line prefilter
    (rules read from its documentation and measured against rg 15.1; the code is this
    module's): every match of *h* starts with (exact: is) one of the strings. Strings next to
    each other combine; a concatenation whose strings cannot all be extended any further
    keeps the best set found so far and goes on with a new one, which no longer starts the
    match (*prefix* False)."""
    if isinstance(h, HLit):
        return [(h.text.encode("utf-8", "surrogateescape"), True)], True
    if isinstance(h, HClass):
        members = U.materialize(h.cls)
        if members is None or sum(hi - lo + 1 for lo, hi in members.ranges) > _INNER_CLASS_LIMIT:
            return None, True
        return [(chr(cp).encode("utf-8", "surrogatepass"), True)
                for lo, hi in members.ranges for cp in range(lo, hi + 1)], True
    if isinstance(h, HLook):
        return [(b"", True)], True
    if isinstance(h, HCap):
        return _inner_literals(h.sub)
    if isinstance(h, HRep):
        return _inner_repeat(h), True
    if isinstance(h, HAlt):
        out: list = []
        prefix = True
        for item in h.items:
            found, item_prefix = _inner_literals(item)
            if found is None or len(out) + len(found) > _INNER_SET_LIMIT:
                return None, True
            out = _dedup(out + found)
            prefix = prefix and item_prefix
        return out, prefix
    if not isinstance(h, HConcat):
        return None, True
    seq: _Lits = [(b"", True)]
    prefix = True
    best: _Lits = None
    chosen = False
    for item in h.items:
        if seq is None or not any(exact for _, exact in seq):
            if seq is not None and not seq:
                return [], prefix  # nothing can match
            if _really_good(seq):
                return seq, prefix
            best = seq if not chosen else _choose(best, seq)
            chosen = True
            seq, prefix = [(b"", True)], False
        found, item_prefix = _inner_literals(item)
        seq = _cross(seq, found) if item_prefix else _choose(seq, found)
    return (_choose(best, seq) if chosen else seq), prefix


def _inner_repeat(h) -> _Lits:
    found, _ = _inner_literals(h.sub)
    inexact = None if found is None else [(lit, False) for lit, _ in found]
    if h.min == 0:
        if h.max != 1:
            found = inexact
        return None if found is None else _dedup(found + [(b"", True)])
    if h.max is None:
        return inexact  # (ab)+ and a{2,} give "ab" and "a", no longer exact
    seq: _Lits = [(b"", True)]
    for _ in range(min(h.min, _INNER_REPEAT_LIMIT)):
        if seq is None or not any(exact for _, exact in seq):
            break
        seq = _cross(seq, found)
    if seq is not None and (h.max > h.min or h.min > _INNER_REPEAT_LIMIT):
        seq = [(lit, False) for lit, _ in seq]
    return seq


def _cross(seq: _Lits, other: _Lits) -> _Lits:
    """Each exact string of *seq* followed by each of *other*; too many combinations, or an
    *other* that is unknown, leave *seq*'s strings where they are, no longer exact."""
    if seq is None:
        return None
    if other is None or len(seq) * len(other) > _INNER_SET_LIMIT:
        if any(lit == b"" for lit, _ in seq):
            return None  # the empty string, which cannot grow, is no literal at all
        return [(lit, False) for lit, _ in seq]
    out = []
    for lit, exact in seq:
        if exact:
            out.extend((lit + tail, tail_exact) for tail, tail_exact in other)
        else:
            out.append((lit, False))
    return _dedup(out)


def _choose(one: _Lits, two: _Lits) -> _Lits:
    """The better of two sets for a prefilter (both taken as inexact): a known one, one
    without a too common single byte, the one with the longer shortest string, the larger."""
    if one is None:
        return None if two is None else [(lit, False) for lit, _ in two]
    if two is None:
        return [(lit, False) for lit, _ in one]
    sets = [[(lit, False) for lit, _ in one], [(lit, False) for lit, _ in two]]
    if _poisoned(sets[0]) != _poisoned(sets[1]):
        return sets[1] if _poisoned(sets[0]) else sets[0]
    if not sets[0] or not sets[1]:
        return sets[1] if not sets[0] else sets[0]
    key = [(min(len(lit) for lit, _ in s), len(s)) for s in sets]
    return sets[1] if key[1] > key[0] else sets[0]


def _poisoned(seq: list) -> bool:
    return any(lit == b"" or (len(lit) == 1 and lit[0] in _COMMON_BYTES) for lit, _ in seq)


def _really_good(seq: _Lits) -> bool:
    return (seq is not None and bool(seq) and not _poisoned(seq)
            and min(len(lit) for lit, _ in seq) >= 3 and len(seq) <= 8)


def _dedup(seq: list) -> list:
    """Equal strings once (inexact if either was), in first-seen order."""
    out: dict = {}
    for lit, exact in seq:
        out[lit] = out.get(lit, True) and exact
    return list(out.items())


def _every_branch(h, required) -> Optional[frozenset]:
    """An alternation requires one of the union of what each branch requires, if each does."""
    out: set = set()
    for item in h.items:
        r = required(item)
        if r is None:
            return None
        out |= r
    return frozenset(out)


def _folded_required(h) -> Optional[frozenset]:
    """Lowercase ASCII strings of which one occurs, up to ASCII case, in every match of ``h``
    under case-insensitive matching (sound; None when unknown).

    Only characters whose case orbit is ASCII count: ``k`` and ``s`` also match KELVIN SIGN and
    LONG S, which an ASCII-folding byte search would miss, so they end a run.
    """
    if isinstance(h, HCap):
        return _folded_required(h.sub)
    if isinstance(h, HRep):
        return _folded_required(h.sub) if h.min >= 1 else None
    if isinstance(h, HAlt):
        return _every_branch(h, _folded_required)
    items = h.items if isinstance(h, HConcat) else (h,)
    candidates: list = []
    run: list = []

    def close() -> None:
        if run:
            candidates.append(frozenset(("".join(run),)))
            run.clear()

    for item in items:
        if isinstance(item, HLit):
            for c in item.text:
                if c.isascii():
                    run.append(c.lower())
                else:
                    close()
        elif isinstance(item, HClass) and item.fold_char is not None and \
                all(cp < 0x80 for cp in U.orbit(ord(item.fold_char), item.unicode)):
            run.append(item.fold_char.lower())
        else:
            close()
            if isinstance(item, (HCap, HRep, HAlt, HConcat)):
                r = _folded_required(item)
                if r is not None:
                    candidates.append(r)
    close()
    return max(candidates, key=lambda r: min(map(len, r)), default=None)


def _folded_literal_set(h) -> Optional[frozenset]:
    """The lowercase ASCII strings of which ``h`` is the alternation under case-insensitive
    matching, so that every occurrence of one in any ASCII case is a match and nothing else
    is; None when ``h`` is anything more.

    A character counts when it has no case, or when its whole case orbit is ASCII (``k`` and
    ``s`` do not: KELVIN SIGN and LONG S); a letter outside (?i) does not, nor ``\r``, which
    --crlf takes off a line's end.
    """
    if isinstance(h, HCap):
        return _folded_literal_set(h.sub)
    if isinstance(h, HAlt):
        return _every_branch(h, _folded_literal_set)
    text = []
    for item in h.items if isinstance(h, HConcat) else (h,):
        if isinstance(item, HLit):
            if not all(c.isascii() and c.lower() == c.upper() and c != "\r" for c in item.text):
                return None
            text.append(item.text)
        elif isinstance(item, HClass) and item.fold_char is not None and \
                all(cp < 0x80 for cp in U.orbit(ord(item.fold_char), item.unicode)):
            text.append(item.fold_char.lower())
        else:
            return None
    joined = "".join(text)
    return frozenset((joined,)) if joined else None


# The largest repetition bound, and the largest product of bounded repetitions' ranges, that a
# pattern run with no time budget may have (see _bounded_backtracking).
_RE_MAX_BOUNDED = 64


def _bounded_backtracking(h) -> bool:
    """Whether a backtracker's tries from one start position are bounded by the run of text it
    covers, so the pattern may run without the regex module's time budget (~8 µs a call) on a
    line of a few hundred characters: the searcher's "short lines safe" patterns, and the basis
    of what ``re`` (which has no budget) may scan (:func:`_re_source`).

    A repetition of one character or class consumes one character per turn, so it can split a
    run only one way: one such unbounded repetition costs at most the line's length squared. A
    repetition of anything wider can split a run many ways and backtrack exponentially even
    alone: ``(?:a|aa)+b`` took 39 s on a 43-character line. Bounded repetitions multiply the
    tries, so the product of their ranges is capped, and every start walks through each
    repetition's bounds, so no bound may exceed 64; a larger one also keeps the pattern on the
    eagerly compiled regex module, which reports one too large to compile as rg does.
    """
    unbounded = 0
    tries = 1
    for node in _walk(h):
        if not isinstance(node, HRep):
            continue
        sub = node.sub
        while isinstance(sub, HCap):
            sub = sub.sub
        if not (isinstance(sub, HClass) or (isinstance(sub, HLit) and len(sub.text) == 1)):
            return False
        if max(node.min, node.max or 0) > _RE_MAX_BOUNDED:
            return False
        if node.max is None:
            unbounded += 1
        else:
            tries *= node.max - node.min + 1
    return unbounded <= 1 and tries <= _RE_MAX_BOUNDED


def _top_items(h) -> tuple:
    while isinstance(h, HCap):
        h = h.sub
    return h.items if isinstance(h, HConcat) else (h,)


def _literal_split(h, required: Optional[tuple]) -> Optional[int]:
    """The index in ``h``'s top-level concatenation ``A L B`` of the pattern's one required
    literal ``L``, when ``A`` is not empty; else None. For a pattern without assertions only
    (the caller checks: it has already walked the pattern for them).

    Such a pattern matches a line exactly when, at some occurrence of ``L``, ``A`` matches a
    stretch ending there and ``B`` one starting after it: nothing in ``A`` or ``B`` looks past
    its own stretch. Confirming a long line that way (``(?<=A)L B`` at each occurrence, see
    :meth:`Translation.around_literal_source`) costs what ``A`` takes to match backwards from
    the literal, where a search from the line's start tries every position before the first
    match: 90 ms for ``\\w+Error`` on a 1.9 MB line of JSON whose first match is 1.1 MB in.
    That is ripgrep's "reverse inner literal" strategy, with the ``regex`` module's
    variable-length lookbehind as the reverse matcher.
    """
    if required is None or len(required) != 1:
        return None
    for at, item in enumerate(_top_items(h)):
        if isinstance(item, HLit) and item.text == required[0]:
            return at or None  # with nothing before it, the search finds the literal itself
    return None


def _re_source(h) -> Optional[str]:
    """``h`` as an ``re`` pattern, or None when ``re`` may disagree with rg or backtrack badly.

    ``re`` scans faster than the ``regex`` module for patterns without a literal to search for
    (``[a-z]{14,}``: 1.75 s against 2.7 s over 200 MB), and both are leftmost-first
    backtrackers, so on this subset they find the same matches: literals, classes of ASCII
    characters only (Unicode classes differ between the engines: rg's ``\\w`` holds marks,
    ``re``'s does not), repetitions of one such atom, concatenation, alternation and groups; no
    assertion.

    ``re`` scans a whole file with no time budget, so on top of :func:`_bounded_backtracking`
    the one unbounded repetition may only be followed by what can match empty: once a match
    reaches it, it succeeds, so each start position costs at most the run of characters it
    takes. Anything after it that can fail sends ``re`` back through the whole run from every
    start: ``[a-z]+[0-9]`` on a 60 kB line of letters took 11 s, where rg answers at once.
    """
    if not _bounded_backtracking(h):
        return None

    def emit(node, last: bool) -> Optional[str]:
        # last: whatever can follow node's match in the pattern can match empty.
        if isinstance(node, HLit):
            return _re_escape(node.text)
        if isinstance(node, HClass):
            exact = U.materialize(node.cls)
            if exact is None or not exact.ranges or exact.ranges[-1][1] >= 0x80:
                return None
            return _re_class(exact.ranges)
        if isinstance(node, HCap):
            inner = emit(node.sub, last)
            return None if inner is None else "(?:" + inner + ")"
        if isinstance(node, HRep):
            if node.max is None and not last:
                return None
            inner = emit(node.sub, False)  # one character or class (_bounded_backtracking)
            if inner is None:
                return None
            bounds = "{%d,%s}" % (node.min, "" if node.max is None else node.max)
            return inner + bounds + ("" if node.greedy else "?")
        if isinstance(node, HConcat):
            parts = [emit(item, last and all(map(_nullable_without_looks, node.items[i + 1:])))
                     for i, item in enumerate(node.items)]
            return None if any(part is None for part in parts) else "".join(parts)
        if isinstance(node, HAlt):
            parts = [emit(item, last) for item in node.items]
            return None if any(part is None for part in parts) else "(?:" + "|".join(parts) + ")"
        return None  # assertions

    return emit(h, True)


def _re_class(ranges, extra: str = "") -> str:
    """An ``re`` set of the code point *ranges* and the characters *extra* (not both empty)."""
    return "[" + "".join(
        _re_escape(chr(a)) if a == b else f"{_re_escape(chr(a))}-{_re_escape(chr(b))}"
        for a, b in ranges) + extra + "]"


# On ASCII text rg's word characters, Unicode or not, are these; on a line of stand-ins
# (char_kinds), these and the stand-ins of word characters and digits.
_ASCII_WORD = "[0-9A-Za-z_]"
_KINDS_WORD = "[0-9A-Za-z_" + "".join(STAND_INS[k] for k in ("W", "D")) + "]"
_LOOK_FORMS = {
    "start_line": "\\A", "start_text": "\\A", "end_line": "\\Z", "end_text": "\\Z",
    "word_boundary": "(?:(?<={w})(?!{w})|(?<!{w})(?={w}))",
    "not_word_boundary": "(?:(?<={w})(?={w})|(?<!{w})(?!{w}))",
    "word_start": "(?<!{w})(?={w})",
    "word_end": "(?<={w})(?!{w})",
    "word_start_half": "(?<!{w})",
    "word_end_half": "(?!{w})",
}
_ASCII_LOOKS = {k: v.replace("{w}", _ASCII_WORD) for k, v in _LOOK_FORMS.items()}
_KINDS_LOOKS = {k: v.replace("{w}", _KINDS_WORD) for k, v in _LOOK_FORMS.items()}


def _ascii_source(h, kinds: bool = False) -> Optional[str]:
    """``h`` in ``re``'s dialect for one line's text (no terminator) holding ASCII only.

    On such text rg's classes can only match their ASCII members, its word characters are
    ``[0-9A-Za-z_]`` whether Unicode is on or not, a literal with a non-ASCII character never
    matches, and ``^``/``$`` are the ends of the text. Both engines are leftmost-first
    backtrackers, so they find the same matches; ``re`` confirms a short candidate line in a
    quarter of the time the ``regex`` module takes with rg's Unicode classes (0.24 against
    0.56-4 µs for ``\\w+Error``), and a search whose lines are all ASCII never imports
    ``regex``. The (?R) anchors of --crlf are left to the regex module.

    *kinds*: for a line whose non-ASCII characters were replaced by the stand-ins of their
    kinds (:func:`~shellfree.search.char_kinds.stand_in_text`) as well: each class also holds
    the stand-ins of the kinds it holds wholly, and the word assertions count the stand-ins of
    word characters. None when a class holds part of a kind (``\\p{Greek}``, ``[à-ÿ]``) or a
    literal has a non-ASCII character: only the regex module can tell those apart.
    """
    looks = _KINDS_LOOKS if kinds else _ASCII_LOOKS

    def emit(node) -> Optional[str]:
        if isinstance(node, HLit):
            if node.text.isascii():
                return _re_escape(node.text)
            return None if kinds else "(?!)"
        if isinstance(node, HClass):
            ranges = U.ascii_ranges(node.cls)
            held = ""
            if kinds:
                kinds_held = U.class_kinds(node.cls)
                # Without Unicode a class that holds non-ASCII code points matches bytes of
                # a character (rg: `(?-u:[^a]){2}` matches `é`).
                if kinds_held is None or (kinds_held and not node.unicode):
                    return None
                held = "".join(STAND_INS[k] for k in KINDS if k in kinds_held)
            return _re_class(ranges, held) if ranges or held else "(?!)"
        if isinstance(node, HLook):
            if kinds and not node.unicode and node.kind in _WORD_LOOKS:
                return None  # an ASCII word assertion holds between the bytes of a character
            return looks.get(node.kind)
        if isinstance(node, HCap):
            inner = emit(node.sub)
            return None if inner is None else "(?:" + inner + ")"
        if isinstance(node, HRep):
            inner = emit(node.sub)
            if inner is None:
                return None
            bounds = "{%d,%s}" % (node.min, "" if node.max is None else node.max)
            return "(?:" + inner + ")" + bounds + ("" if node.greedy else "?")
        parts = [emit(item) for item in node.items]
        if any(part is None for part in parts):
            return None
        if isinstance(node, HConcat):
            return "".join(parts)
        return "(?:" + "|".join(parts) + ")"

    return emit(h)


def _re_escape(text: str) -> str:
    # Surrogate escapes (invalid bytes) are ordinary code points to re, as to regex.
    return "".join("\\" + c if c in _RE_META else c for c in text)


_RE_META = frozenset("\\.^$*+?{}[]|()-#&~ \t\n\r\v\f")


def _is_literal_set(h) -> bool:
    """Whether every match of ``h`` is one of its literals and every occurrence of one matches."""
    if isinstance(h, HLit):
        return bool(h.text)
    if isinstance(h, HCap):
        return _is_literal_set(h.sub)
    if isinstance(h, HAlt):
        return all(_is_literal_set(item) for item in h.items)
    return False


def _nullable_without_looks(h) -> bool:
    """Whether ``h`` matches the empty string when every assertion fails.

    rg: inside a multi-byte character (a byte offset rg's iteration does visit) every assertion
    is false, so only such patterns report the extra empty matches there.
    """
    if isinstance(h, (HLit, HClass, HLook)):
        return False
    if isinstance(h, HRep):
        return h.min == 0 or _nullable_without_looks(h.sub)
    if isinstance(h, HCap):
        return _nullable_without_looks(h.sub)
    if isinstance(h, HConcat):
        return all(_nullable_without_looks(i) for i in h.items)
    return any(_nullable_without_looks(i) for i in h.items)


def _can_match(h, cp: int) -> bool:
    for node in _walk(h):
        if isinstance(node, HLit) and chr(cp) in node.text:
            return True
        if isinstance(node, HClass) and U.contains(node.cls, cp):
            return True
    return False


def translate(ast, opts: TranslateOptions) -> Translation:
    """Resolve, check and emit ``ast`` (the parsed joined pattern) under ``opts``."""
    hir = _Builder(opts).build(ast)
    if opts.ban_nul and any(isinstance(n, HLit) and "\x00" in n.text for n in _walk(hir)):
        raise TranslateError(_NUL_MSG)
    if not opts.multiline:
        # rg strips one terminator at a time, "\r" first: a class it leaves with one character
        # becomes that literal, so `--crlf '[\r\n]'` is the "\n" error, though `'[\r\n]'` is not.
        terminators = ("\r", "\n") if opts.crlf else ("\n",)
        for t in terminators:
            if any(isinstance(n, HLit) and t in n.text for n in _walk(hir)):
                raise TranslateError(_literal_msg("\\r" if t == "\r" else "\\n"))
            hir = _strip(hir, (ord(t),))
    if opts.line:
        start, end = ("start_line_crlf", "end_line_crlf") if opts.crlf else ("start_line", "end_line")
        hir = HConcat((HLook(start), hir, HLook(end)))
    elif opts.word:
        hir = HConcat((HLook("word_start_half", opts.unicode), hir,
                       HLook("word_end_half", opts.unicode)))
    required = None
    if not opts.case_insensitive:
        req = _required(hir)
        if req and all(req):
            required = tuple(sorted(req))
    hir_looks = [n for n in _walk(hir) if isinstance(n, HLook)]
    looks = {n.kind for n in hir_looks}
    unicode_word = any(n.unicode and n.kind in _WORD_LOOKS for n in hir_looks)
    newline = opts.multiline and _can_match(hir, 0x0A)
    text_anchors = bool(looks & {"start_text", "end_text"})
    line_anchors = bool(looks & _LINE_ANCHORS)
    slice_source = None
    if (newline or (opts.multiline and (text_anchors or line_anchors))) and looks & _LOOKS_BACK:
        slice_source = "(?-f)" + _Emitter(False, slice_start=True).emit(hir)
    folded = None
    folded_exact = False
    req = _folded_required(hir)
    shortest = min(map(len, req)) if req else 0
    # A two-character needle finds too many candidates to beat one scan of the text. Under
    # an inline (?i) the case-sensitive literals are the caseless runs between its letters
    # ("_" of (?i)decrypt_and_get_vault_id, in most lines of Python): a longer folded needle
    # replaces them.
    if shortest >= 3 and (required is None or shortest > min(map(len, required))):
        required = None
        folded = tuple(sorted(req))
        folded_exact = _folded_literal_set(hir) == req
    ascii_source = None
    ascii_kinds = False
    if not (opts.multiline or opts.crlf):
        # The stand-in form, where it can be written, serves ASCII lines as well.
        ascii_source = _ascii_source(hir, kinds=True)
        ascii_kinds = ascii_source is not None
        if not ascii_kinds:
            ascii_source = _ascii_source(hir)
    return Translation(hir, not opts.multiline and opts.crlf, newline, required, _nullable_without_looks(hir), text_anchors,
                       line_anchors, slice_source,
                       exact_literals=required is not None and _is_literal_set(hir),
                       folded_literals=folded,
                       folded_exact=folded_exact,
                       re_source=None if required is not None else _re_source(hir),
                       short_lines_safe=_bounded_backtracking(hir),
                       ascii_source=ascii_source, ascii_kinds=ascii_kinds,
                       literal_split=None if newline or looks else _literal_split(hir, required),
                       lines_alone=not opts.multiline and unicode_word and _lines_alone(hir),
                       crlf_end_anchors=not opts.multiline and opts.crlf
                       and bool(looks & {"start_line_crlf", "end_line_crlf"}))


def analyze_case(ast) -> tuple:
    """rg's smart-case facts: (any literal character, any uppercase literal character)."""
    any_lit = any_upper = False
    stack = [ast]
    while stack:
        n = stack.pop()
        if isinstance(n, S.Literal):
            any_lit = True
            any_upper = any_upper or U.is_uppercase(n.c)
        elif isinstance(n, S.ClassRange):
            stack.extend((n.start, n.end))
        elif isinstance(n, (S.Group, S.Repetition)):
            stack.append(n.ast)
        elif isinstance(n, (S.Concat, S.Alternation)):
            stack.extend(n.asts)
        elif isinstance(n, S.ClassBracketed):
            stack.append(n.kind)
        elif isinstance(n, S.ClassUnion):
            stack.extend(n.items)
        elif isinstance(n, S.ClassBinaryOp):
            stack.extend((n.lhs, n.rhs))
    return any_lit, any_upper


def compile_source(source: str) -> "regex.Pattern[str]":
    """Compile emitted text with the flags the emitter assumes."""
    import regex  # loaded on first use (see pattern.LazyRegex)

    return regex.compile(source, regex.V1)
