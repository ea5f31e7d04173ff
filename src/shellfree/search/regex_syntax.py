"""Parse Rust ``regex`` crate syntax (as used by ripgrep 15.1) into a small AST with error spans.

The parser follows the observable behaviour of the ``regex-syntax`` 0.8 parser that ripgrep links
(span of every error, which error wins, how ``\\b{…}``, ``{n,m}``, ``(?flags)``, nested classes and
``(?x)`` whitespace are read); every rule was checked against ``rg`` 15.1 itself. It only parses:
meaning (flags, case folding, Unicode tables) is given by :mod:`shellfree.search.regex_translate`.
Offsets in :class:`Span` are *character* indexes into the pattern, which is how rg's caret lines
line up (``é\\y`` puts the caret under the ``\\``, not two columns later).
"""

from __future__ import annotations

from shellfree._record import Factory, Record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see shellfree/__init__.py)
if TYPE_CHECKING:
    from typing import Optional

__all__ = [
    "Span", "Literal", "Dot", "Assertion", "ClassPerl", "ClassUnicode", "ClassAscii", "ClassRange",
    "ClassUnion", "ClassBinaryOp", "ClassBracketed", "Repetition", "Group", "SetFlags", "FlagItem",
    "Alternation", "Concat", "Empty", "Ast", "RegexSyntaxError", "parse", "NEST_LIMIT",
]

NEST_LIMIT = 250
"""rg builds its regexes with regex-syntax's default nest limit of 250."""

# Rust's char::is_whitespace is the White_Space property; str.isspace() also accepts \x1c-\x1f.
_WHITE_SPACE = frozenset("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
                         "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")
_META = frozenset("\\.+*?()|[]{}^$#&-~")
_ASCII_CLASSES = frozenset(("alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower",
                            "print", "punct", "space", "upper", "word", "xdigit"))
_SPECIAL_ESCAPES = {"a": "\x07", "f": "\x0c", "t": "\t", "n": "\n", "r": "\r", "v": "\x0b"}
_ASSERT_ESCAPES = {"A": "start_text", "z": "end_text", "B": "not_word_boundary",
                   "<": "word_start", ">": "word_end"}
_SPECIAL_WORD = {"start": "word_start", "end": "word_end",
                 "start-half": "word_start_half", "end-half": "word_end_half"}
_FLAGS = frozenset("imsUuRx")


class Span(Record):
    """Half-open range ``[start, end)`` of character offsets into the pattern."""

    start: int
    end: int


class Literal(Record):
    """One character; ``kind`` is verbatim/meta/superfluous/special/hex (how it was written)."""

    span: Span
    c: str
    kind: str = "verbatim"


class Dot(Record):
    """``.``"""

    span: Span


class Assertion(Record):
    """``^ $ \\A \\z \\b \\B \\< \\> \\b{…}``; ``kind`` is e.g. ``start_line`` or ``word_end_half``."""

    span: Span
    kind: str


class ClassPerl(Record):
    """``\\d \\s \\w`` (``kind`` is ``d``/``s``/``w``) and their negations."""

    span: Span
    kind: str
    negated: bool


class ClassUnicode(Record):
    """``\\pL``, ``\\p{Greek}``, ``\\p{gc=Lu}``, ``\\P{…}``, ``\\p{sc!=Latn}``: the raw name/value."""

    span: Span
    negated: bool
    name: str
    value: Optional[str] = None   # None for the one-letter and bare-name forms
    op: str = ""                  # "", "=", ":" or "!="


class ClassAscii(Record):
    """``[:alpha:]`` / ``[:^alpha:]`` inside brackets."""

    span: Span
    name: str
    negated: bool


class ClassRange(Record):
    """``a-z`` inside brackets."""

    span: Span
    start: Literal
    end: Literal


class ClassUnion(Record):
    """Adjacent items inside brackets."""

    span: Span
    items: tuple


class ClassBinaryOp(Record):
    """``&&`` / ``--`` / ``~~`` (``kind`` is the operator text); left-associative, one precedence."""

    span: Span
    kind: str
    lhs: "ClassSet"
    rhs: "ClassSet"


class ClassBracketed(Record):
    """``[…]`` / ``[^…]``."""

    span: Span
    negated: bool
    kind: "ClassSet"


ClassSet = ClassUnion | ClassBinaryOp


class FlagItem(Record):
    """One flag letter, or ``-`` (``kind == "-"``)."""

    span: Span
    kind: str


class Repetition(Record):
    """``?``, ``*``, ``+`` or ``{n}``, ``{n,}``, ``{n,m}``; ``max`` is None when unbounded."""

    span: Span
    op_span: Span
    min: int
    max: Optional[int]
    greedy: bool
    ast: "Ast"


class Group(Record):
    """``(…)``, ``(?P<n>…)``/``(?<n>…)``, ``(?flags:…)``; ``flags`` only for non-capturing."""

    span: Span
    kind: str                      # "capture", "named", "noncapture"
    ast: "Ast"
    name: str = ""
    flags: tuple = ()


class SetFlags(Record):
    """``(?flags)``: applies to the rest of the enclosing group (including later ``|`` branches)."""

    span: Span
    flags: tuple


class Alternation(Record):
    span: Span
    asts: tuple


class Concat(Record):
    span: Span
    asts: tuple


class Empty(Record):
    span: Span


Ast = (Literal | Dot | Assertion | ClassPerl | ClassUnicode | ClassBracketed | Repetition | Group
       | SetFlags | Alternation | Concat | Empty)


class RegexSyntaxError(Exception):
    """A pattern rejected by the parser (or translator): message plus the span(s) rg underlines."""

    def __init__(self, message: str, span: Span, aux: Optional[Span] = None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.aux = aux


def _concat_ast(span: Span, asts: list) -> Ast:
    if not asts:
        return Empty(span)
    if len(asts) == 1:
        return asts[0]
    return Concat(span, tuple(asts))


class _GroupState(Record, mutable=True):
    concat_start: int
    concat_asts: list
    open_span: Span
    kind: str
    name: str
    flags: tuple
    ignore_ws: bool


class _AltState(Record, mutable=True):
    start: int
    asts: list = Factory(list)


class _Parser:
    """A one-shot recursive-descent/stack parser over ``pattern`` (see :func:`parse`)."""

    def __init__(self, pattern: str) -> None:
        self.p = pattern
        self.pos = 0
        self.ignore_ws = False
        self.groups: list = []
        self.classes: list = []      # ("open", parent_items, start, negated, open_end) | ("op", kind, lhs)
        self.names: dict = {}

    # -- cursor helpers (names follow what they do, not regex-syntax) --------------------------
    def eof(self) -> bool:
        return self.pos >= len(self.p)

    def char(self) -> str:
        return self.p[self.pos]

    def bump(self) -> bool:
        if self.eof():
            return False
        self.pos += 1
        return not self.eof()

    def bump_if(self, prefix: str) -> bool:
        if self.p.startswith(prefix, self.pos):
            self.pos += len(prefix)
            return True
        return False

    def bump_space(self) -> None:
        if not self.ignore_ws:
            return
        while not self.eof():
            c = self.char()
            if c in _WHITE_SPACE:
                self.pos += 1
            elif c == "#":
                self.pos += 1
                while not self.eof():
                    c = self.char()
                    self.pos += 1
                    if c == "\n":
                        break
            else:
                break

    def bump_and_bump_space(self) -> bool:
        if not self.bump():
            return False
        self.bump_space()
        return not self.eof()

    def peek(self) -> Optional[str]:
        return self.p[self.pos + 1] if self.pos + 1 < len(self.p) else None

    def peek_space(self) -> Optional[str]:
        if not self.ignore_ws:
            return self.peek()
        i = self.pos + 1
        in_comment = False
        while i < len(self.p):
            c = self.p[i]
            if in_comment:
                in_comment = c != "\n"
            elif c in _WHITE_SPACE:
                pass
            elif c == "#":
                in_comment = True
            else:
                return c
            i += 1
        return None

    def here(self) -> Span:
        return Span(self.pos, self.pos)

    def span_char(self) -> Span:
        return Span(self.pos, self.pos + 1)

    # -- top level ------------------------------------------------------------------------
    def parse(self) -> Ast:
        start, asts = self.pos, []
        while True:
            self.bump_space()
            if self.eof():
                break
            c = self.char()
            if c == "(":
                start, asts = self.push_group(start, asts)
            elif c == ")":
                start, asts = self.pop_group(start, asts)
            elif c == "|":
                self.push_alternate(start, asts)
                self.pos += 1
                start, asts = self.pos, []
            elif c == "[":
                asts.append(self.parse_set_class())
            elif c in "?*+":
                self.parse_uncounted_repetition(asts)
            elif c == "{":
                self.parse_counted_repetition(asts)
            else:
                asts.append(self.parse_primitive())
        return self.pop_group_end(start, asts)

    def push_alternate(self, start: int, asts: list) -> None:
        concat = _concat_ast(Span(start, self.pos), asts)
        if self.groups and isinstance(self.groups[-1], _AltState):
            self.groups[-1].asts.append(concat)
        else:
            self.groups.append(_AltState(start, [concat]))

    def push_group(self, start: int, asts: list):
        open_span = self.span_char()
        self.bump()
        self.bump_space()
        look_start = self.pos
        if any(self.bump_if(x) for x in ("?=", "?!", "?<=", "?<!")):
            # rg: "(?=", "(?<!" … are underlined up to the end of the prefix, with the PCRE2 hint.
            raise RegexSyntaxError(
                "look-around, including look-ahead and look-behind, is not supported",
                Span(open_span.start, self.pos))
        del look_start
        inner = self.here()
        if self.bump_if("?P<") or self.bump_if("?<"):
            name = self.parse_capture_name()
            kind, flags = "named", ()
        elif self.bump_if("?"):
            if self.eof():
                raise RegexSyntaxError("unclosed group", open_span)
            flags = self.parse_flags()
            end_char = self.char()
            self.bump()
            if end_char == ")":
                if not flags:
                    # EDGE CASE: "(?)" is read as "(" followed by a "?" with nothing to repeat.
                    raise RegexSyntaxError("repetition operator missing expression", inner)
                asts.append(SetFlags(Span(open_span.start, self.pos), flags))
                state = _flag_state(flags, "x")
                if state is not None:
                    self.ignore_ws = state
                return start, asts
            kind, name = "noncapture", ""
        else:
            kind, name, flags = "capture", "", ()
        self.groups.append(_GroupState(start, asts, open_span, kind, name, flags, self.ignore_ws))
        state = _flag_state(flags, "x")
        if state is not None:
            self.ignore_ws = state
        return self.pos, []

    def parse_capture_name(self) -> str:
        if self.eof():
            raise RegexSyntaxError("unclosed capture group name", self.here())
        start = self.pos
        while True:
            c = self.char()
            if c == ">":
                break
            if not _is_capture_char(c, self.pos == start):
                raise RegexSyntaxError("invalid capture group character", self.span_char())
            if not self.bump():
                break
        end = self.pos
        if self.eof():
            raise RegexSyntaxError("unclosed capture group name", Span(start, end))
        self.bump()
        name = self.p[start:end]
        if not name:
            raise RegexSyntaxError("empty capture group name", Span(start, start))
        span = Span(start, end)
        if name in self.names:
            raise RegexSyntaxError("duplicate capture group name", span, self.names[name])
        self.names[name] = span
        return name

    def parse_flags(self) -> tuple:
        items: list = []
        last_negation: Optional[Span] = None
        while self.char() not in ":)":
            span = self.span_char()
            c = self.char()
            if c == "-":
                last_negation = span
                for it in items:
                    if it.kind == "-":
                        raise RegexSyntaxError("flag negation operator repeated", span, it.span)
                items.append(FlagItem(span, "-"))
            else:
                last_negation = None
                if c not in _FLAGS:
                    raise RegexSyntaxError("unrecognized flag", span)
                for it in items:
                    if it.kind == c:
                        raise RegexSyntaxError("duplicate flag", span, it.span)
                items.append(FlagItem(span, c))
            if not self.bump():
                raise RegexSyntaxError("expected flag but got end of regex", self.here())
        if last_negation is not None:
            raise RegexSyntaxError("dangling flag negation operator", last_negation)
        return tuple(items)

    def pop_group(self, start: int, asts: list):
        alt = None
        if self.groups and isinstance(self.groups[-1], _AltState):
            alt = self.groups.pop()
        if not self.groups or isinstance(self.groups[-1], _AltState):
            raise RegexSyntaxError("unopened group", self.span_char())
        g = self.groups.pop()
        self.ignore_ws = g.ignore_ws
        end = self.pos
        self.bump()
        inner = _concat_ast(Span(start, end), asts)
        if alt is not None:
            inner = Alternation(Span(alt.start, end), tuple(alt.asts + [inner]))
        g.concat_asts.append(Group(Span(g.open_span.start, self.pos), g.kind, inner, g.name, g.flags))
        return g.concat_start, g.concat_asts

    def pop_group_end(self, start: int, asts: list) -> Ast:
        ast = _concat_ast(Span(start, self.pos), asts)
        if self.groups:
            top = self.groups.pop()
            if isinstance(top, _GroupState):
                raise RegexSyntaxError("unclosed group", top.open_span)
            ast = Alternation(Span(top.start, self.pos), tuple(top.asts + [ast]))
        if self.groups:
            raise RegexSyntaxError("unclosed group", self.groups.pop().open_span)
        return ast

    # -- repetition -------------------------------------------------------------------------
    def _pop_operand(self, asts: list) -> Ast:
        if not asts or isinstance(asts[-1], (Empty, SetFlags)):
            raise RegexSyntaxError("repetition operator missing expression", self.here())
        return asts.pop()

    def parse_uncounted_repetition(self, asts: list) -> None:
        op = self.char()
        op_start = self.pos
        ast = self._pop_operand(asts)
        greedy = True
        if self.bump() and self.char() == "?":
            greedy = False
            self.bump()
        lo, hi = {"?": (0, 1), "*": (0, None), "+": (1, None)}[op]
        # EDGE CASE: "a**", "a++" stack (a++ is NOT possessive): the operand is the repetition.
        asts.append(Repetition(Span(_span(ast).start, self.pos), Span(op_start, self.pos), lo, hi,
                               greedy, ast))

    def parse_counted_repetition(self, asts: list) -> None:
        start = self.pos
        ast = self._pop_operand(asts)
        if not self.bump_and_bump_space():
            raise RegexSyntaxError("unclosed counted repetition", Span(start, self.pos))
        lo = self.parse_decimal()
        hi: Optional[int] = lo
        if self.eof():
            raise RegexSyntaxError("unclosed counted repetition", Span(start, self.pos))
        if self.char() == ",":
            if not self.bump_and_bump_space():
                raise RegexSyntaxError("unclosed counted repetition", Span(start, self.pos))
            hi = None if self.char() == "}" else self.parse_decimal()
        if self.eof() or self.char() != "}":
            raise RegexSyntaxError("unclosed counted repetition", Span(start, self.pos))
        greedy = True
        if self.bump_and_bump_space() and self.char() == "?":
            greedy = False
            self.bump()
        op_span = Span(start, self.pos)
        if hi is not None and lo > hi:
            raise RegexSyntaxError(
                "invalid repetition count range, the start must be <= the end", op_span)
        asts.append(Repetition(Span(_span(ast).start, self.pos), op_span, lo, hi, greedy, ast))

    def parse_decimal(self) -> int:
        # rg: whitespace around the digits is skipped even without (?x): "a{ 2 }" is a{2}.
        while not self.eof() and self.char() in _WHITE_SPACE:
            self.bump()
        start = self.pos
        while not self.eof() and "0" <= self.char() <= "9":
            self.bump_and_bump_space()
        span = Span(start, self.pos)
        digits = "".join(c for c in self.p[start:self.pos] if "0" <= c <= "9")
        while not self.eof() and self.char() in _WHITE_SPACE:
            self.bump_and_bump_space()
        if not digits:
            raise RegexSyntaxError("repetition quantifier expects a valid decimal", span)
        if int(digits) > 0xFFFFFFFF:
            raise RegexSyntaxError("decimal literal invalid", span)
        return int(digits)

    # -- primitives -------------------------------------------------------------------------
    def parse_primitive(self):
        c = self.char()
        if c == "\\":
            return self.parse_escape()
        span = self.span_char()
        self.bump()
        if c == ".":
            return Dot(span)
        if c == "^":
            return Assertion(span, "start_line")
        if c == "$":
            return Assertion(span, "end_line")
        return Literal(span, c)

    def parse_escape(self):
        start = self.pos
        if not self.bump():
            raise RegexSyntaxError("incomplete escape sequence, reached end of pattern prematurely",
                                   Span(start, self.pos))
        c = self.char()
        if "0" <= c <= "9":
            # rg: octal is disabled, so \0, \07 and \8 are all "backreferences".
            raise RegexSyntaxError("backreferences are not supported", Span(start, self.pos + 1))
        if c in "xuU":
            return self.parse_hex(start)
        if c in "pP":
            return self.parse_unicode_class(start)
        if c in "dswDSW":
            self.bump()
            return ClassPerl(Span(start, self.pos), c.lower(), c.isupper())
        self.bump()
        span = Span(start, self.pos)
        if c in _META:
            return Literal(span, c, "meta")
        if c.isascii() and not c.isalnum() and c not in "<>":
            return Literal(span, c, "superfluous")
        if c in _SPECIAL_ESCAPES:
            return Literal(span, _SPECIAL_ESCAPES[c], "special")
        if c in _ASSERT_ESCAPES:
            return Assertion(span, _ASSERT_ESCAPES[c])
        if c == "b":
            kind = "word_boundary"
            if not self.eof() and self.char() == "{":
                kind = self.maybe_special_word_boundary(start) or kind
            return Assertion(Span(start, self.pos), kind)
        raise RegexSyntaxError("unrecognized escape sequence", span)

    def maybe_special_word_boundary(self, wb_start: int) -> Optional[str]:
        def valid(ch: str) -> bool:
            return ("a" <= ch <= "z") or ("A" <= ch <= "Z") or ch == "-"

        start = self.pos
        if not self.bump_and_bump_space():
            raise RegexSyntaxError(
                "found either the beginning of a special word boundary or a bounded repetition on "
                "a \\b with an opening brace, but no closing brace", Span(wb_start, self.pos))
        contents = self.pos
        if not valid(self.char()):
            # EDGE CASE: "\b{2}" is a counted repetition of \b: back up and let the loop see "{".
            self.pos = start
            return None
        word = []
        while not self.eof() and valid(self.char()):
            word.append(self.char())
            self.bump_and_bump_space()
        if self.eof() or self.char() != "}":
            raise RegexSyntaxError("special word boundary assertion is either unclosed or contains "
                                   "an invalid character", Span(start, self.pos))
        end = self.pos
        self.bump()
        kind = _SPECIAL_WORD.get("".join(word))
        if kind is None:
            raise RegexSyntaxError("unrecognized special word boundary assertion, valid choices "
                                   "are: start, end, start-half or end-half", Span(contents, end))
        return kind

    def parse_hex(self, start: int) -> Literal:
        kind = "hex_x" if self.char() == "x" else "hex"   # only \x is a byte with Unicode off
        digits = {"x": 2, "u": 4, "U": 8}[self.char()]
        if not self.bump_and_bump_space():
            raise RegexSyntaxError("incomplete escape sequence, reached end of pattern prematurely",
                                   self.here())
        if self.char() == "{":
            brace = self.pos
            hex_start = self.pos + 1
            text = []
            while self.bump_and_bump_space() and self.char() != "}":
                if self.char() not in "0123456789abcdefABCDEF":
                    raise RegexSyntaxError("invalid hexadecimal digit", self.span_char())
                text.append(self.char())
            if self.eof():
                raise RegexSyntaxError(
                    "incomplete escape sequence, reached end of pattern prematurely",
                    Span(brace, self.pos))
            end = self.pos
            self.bump_and_bump_space()
            if not text:
                raise RegexSyntaxError("hexadecimal literal empty", Span(brace, self.pos))
            bad_span = Span(hex_start, end)
        else:
            hex_start = self.pos
            text = []
            for i in range(digits):
                if i > 0 and not self.bump_and_bump_space():
                    raise RegexSyntaxError(
                        "incomplete escape sequence, reached end of pattern prematurely",
                        self.here())
                if self.char() not in "0123456789abcdefABCDEF":
                    raise RegexSyntaxError("invalid hexadecimal digit", self.span_char())
                text.append(self.char())
            self.bump_and_bump_space()
            bad_span = Span(hex_start, self.pos)
        value = int("".join(text), 16)
        if value > 0x10FFFF or 0xD800 <= value <= 0xDFFF:
            raise RegexSyntaxError("hexadecimal literal is not a Unicode scalar value", bad_span)
        return Literal(Span(start, self.pos), chr(value), kind)

    def parse_unicode_class(self, start: int) -> ClassUnicode:
        negated = self.char() == "P"
        if not self.bump_and_bump_space():
            raise RegexSyntaxError("incomplete escape sequence, reached end of pattern prematurely",
                                   self.here())
        if self.char() == "{":
            text = []
            while self.bump_and_bump_space() and self.char() != "}":
                text.append(self.char())
            if self.eof():
                raise RegexSyntaxError(
                    "incomplete escape sequence, reached end of pattern prematurely", self.here())
            self.bump()
            name = "".join(text)
            if "!=" in name:
                i = name.index("!=")
                return ClassUnicode(Span(start, self.pos), negated, name[:i], name[i + 2:], "!=")
            for i, ch in enumerate(name):
                if ch in ":=":
                    return ClassUnicode(Span(start, self.pos), negated, name[:i], name[i + 1:], ch)
            return ClassUnicode(Span(start, self.pos), negated, name)
        c = self.char()
        if c == "\\":
            raise RegexSyntaxError("invalid Unicode character class", self.span_char())
        self.bump_and_bump_space()
        return ClassUnicode(Span(start, self.pos), negated, c)

    # -- bracketed classes ------------------------------------------------------------------
    def parse_set_class(self) -> ClassBracketed:
        items: list = []
        items_start = self.pos
        while True:
            self.bump_space()
            if self.eof():
                raise self.unclosed_class()
            c = self.char()
            if c == "[":
                if self.classes:
                    ascii_cls = self.maybe_ascii_class()
                    if ascii_cls is not None:
                        items.append(ascii_cls)
                        continue
                items, items_start = self.push_class_open(items, items_start)
            elif c == "]":
                done = self.pop_class(items, items_start)
                if isinstance(done, ClassBracketed):
                    return done
                items, items_start = done
            elif c in "&-~" and self.peek() == c:
                self.pos += 2
                items, items_start = self.push_class_op(c * 2, items, items_start)
            else:
                items.append(self.parse_set_class_range())

    def unclosed_class(self) -> RegexSyntaxError:
        for st in reversed(self.classes):
            if st[0] == "open":
                return RegexSyntaxError("unclosed character class", Span(st[2], st[4]))
        raise AssertionError("no open character class")

    def push_class_open(self, parent: list, parent_start: int):
        start = self.pos
        if not self.bump_and_bump_space():
            raise RegexSyntaxError("unclosed character class", Span(start, self.pos))
        negated = False
        if self.char() == "^":
            negated = True
            if not self.bump_and_bump_space():
                raise RegexSyntaxError("unclosed character class", Span(start, self.pos))
        items: list = []
        items_start = self.pos
        while self.char() == "-":
            items.append(Literal(self.span_char(), "-"))
            if not self.bump_and_bump_space():
                raise RegexSyntaxError("unclosed character class", Span(start, start))
        # EDGE CASE: a "]" first in a class is a literal, so "[]" and "[^]" never close.
        if not items and self.char() == "]":
            items.append(Literal(self.span_char(), "]"))
            if not self.bump_and_bump_space():
                raise RegexSyntaxError("unclosed character class", Span(start, self.pos))
        self.classes.append(("open", parent, start, negated, self.pos, parent_start))
        return items, items_start

    def push_class_op(self, kind: str, items: list, items_start: int):
        lhs = self.pop_class_op(ClassUnion(Span(items_start, self.pos - 2), tuple(items)))
        self.classes.append(("op", kind, lhs))
        return [], self.pos

    def pop_class_op(self, rhs):
        if self.classes and self.classes[-1][0] == "op":
            _, kind, lhs = self.classes.pop()
            return ClassBinaryOp(Span(_span(lhs).start, _span(rhs).end), kind, lhs, rhs)
        return rhs

    def pop_class(self, items: list, items_start: int):
        kind = self.pop_class_op(ClassUnion(Span(items_start, self.pos), tuple(items)))
        _, parent, start, negated, _open_end, parent_start = self.classes.pop()
        self.bump()
        cls = ClassBracketed(Span(start, self.pos), negated, kind)
        if not self.classes:
            return cls
        parent.append(cls)
        return parent, parent_start

    def maybe_ascii_class(self) -> Optional[ClassAscii]:
        start = self.pos
        negated = False
        if not self.bump() or self.char() != ":" or not self.bump():
            self.pos = start
            return None
        if self.char() == "^":
            negated = True
            if not self.bump():
                self.pos = start
                return None
        name_start = self.pos
        while self.char() != ":" and self.bump():
            pass
        if self.eof():
            self.pos = start
            return None
        name = self.p[name_start:self.pos]
        if not self.bump_if(":]") or name not in _ASCII_CLASSES:
            self.pos = start
            return None
        return ClassAscii(Span(start, self.pos), name, negated)

    def parse_set_class_range(self):
        prim1 = self.parse_set_class_item()
        self.bump_space()
        if self.eof():
            raise self.unclosed_class()
        if self.char() != "-" or self.peek_space() in ("]", "-"):
            return _class_item(prim1)
        if not self.bump_and_bump_space():
            raise self.unclosed_class()
        prim2 = self.parse_set_class_item()
        lo, hi = _range_literal(prim1), _range_literal(prim2)
        span = Span(_span(prim1).start, _span(prim2).end)
        if lo.c > hi.c:
            raise RegexSyntaxError(
                "invalid character class range, the start must be <= the end", span)
        return ClassRange(span, lo, hi)

    def parse_set_class_item(self):
        if self.char() == "\\":
            return self.parse_escape()
        lit = Literal(self.span_char(), self.char())
        self.bump()
        return lit


def _class_item(prim):
    if isinstance(prim, (Literal, ClassUnicode, ClassPerl)):
        return prim
    raise RegexSyntaxError("invalid escape sequence found in character class", _span(prim))


def _range_literal(prim) -> Literal:
    if isinstance(prim, Literal):
        return prim
    raise RegexSyntaxError("invalid range boundary, must be a literal", _span(prim))


def _is_capture_char(c: str, first: bool) -> bool:
    # Rust's char::is_alphabetic / is_alphanumeric; close enough via str methods for names.
    if first:
        return c == "_" or c.isalpha()
    return c in "_.[]" or c.isalnum()


def _flag_state(flags: tuple, letter: str) -> Optional[bool]:
    negated = False
    for item in flags:
        if item.kind == "-":
            negated = True
        elif item.kind == letter:
            return not negated
    return None


def _span(node) -> Span:
    return node.span


def _check_nesting(ast) -> None:
    """rg: depth counts groups, repetitions, alternations, concatenations and nested classes.

    A one-item class union is not a level of its own (regex-syntax stores the item itself), so
    ``[[[a]]]`` nests three deep; 250 levels are allowed, counting the ``(?:…)`` rg wraps around.
    """
    stack = [(ast, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, ClassUnion) and len(node.items) == 1:
            stack.append((node.items[0], depth))
            continue
        if isinstance(node, (Group, Repetition, Alternation, Concat, ClassBracketed, ClassUnion,
                             ClassBinaryOp)):
            if depth > NEST_LIMIT:
                raise RegexSyntaxError(
                    f"exceed the maximum number of nested parentheses/brackets ({NEST_LIMIT})",
                    node.span)
            if isinstance(node, (Group, Repetition)):
                stack.append((node.ast, depth + 1))
            elif isinstance(node, (Alternation, Concat)):
                stack.extend((a, depth + 1) for a in node.asts)
            elif isinstance(node, ClassBracketed):
                stack.append((node.kind, depth + 1))
            elif isinstance(node, ClassUnion):
                stack.extend((a, depth + 1) for a in node.items)
            else:
                stack.extend(((node.lhs, depth + 1), (node.rhs, depth + 1)))


def parse(pattern: str) -> Ast:
    """Parse ``pattern`` with Rust regex syntax; raises :class:`RegexSyntaxError` with rg's spans."""
    ast = _Parser(pattern).parse()
    _check_nesting(ast)
    return ast
