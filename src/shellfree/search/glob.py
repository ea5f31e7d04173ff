"""Translate one glob in ripgrep's dialect (its ``globset`` crate) into a Python bytes regex.

Why this is written here rather than taken from pathspec: pathspec implements git's wildmatch,
and ripgrep does not. On the points below pathspec 1.1 gives a different answer than rg 15.1,
so a path list built with it would differ from rg's (each row was checked against both)::

    glob            rg 15.1                              pathspec 1.1
    {a,b}           alternation                          literal braces
    a[/]c           class may match "/"  -> "a/c"        pattern dropped
    [abc (ignore)   literal "[abc"                       pattern dropped
    [z-a]           error "invalid range; 'z' > 'a'"     compiles to a broken regex
    a?c on "aéc"    no match ("?" is one byte)           match ("?" is one character)

The translation follows the glob's tokens: ``?`` and ``*`` never cross ``/``; ``**`` is special
only as a whole path component (``**/`` prefix, ``/**`` suffix, ``/**/`` middle, a lone ``**``);
classes are byte classes that may match ``/``; ``{a,b}`` nests; ``\\`` escapes one character.
Like rg, the regex works on bytes (``(?-u)`` in Rust): a non-ASCII character is its UTF-8 bytes,
so ``?`` matches one byte and ``[é]`` is the class of the two bytes of ``é``.
"""

from __future__ import annotations

import re

from shellfree._record import Record
from shellfree.search.errors import GlobError

__all__ = ["GlobTokens", "parse_glob", "glob_to_regex"]

# Token kinds. Literal tokens carry a str; CLASS carries (negated, ranges); ALT carries a tuple
# of token tuples.
LITERAL = "lit"
ANY = "any"  # ?
STAR = "star"  # *
RECURSIVE_PREFIX = "rprefix"  # leading **/
RECURSIVE_SUFFIX = "rsuffix"  # trailing /**
RECURSIVE_MIDDLE = "rmiddle"  # /**/
CLASS = "class"
ALT = "alt"

Token = tuple  # (kind, payload)


class GlobTokens(Record):
    """A parsed glob: its tokens, and the glob text as given (kept for error messages)."""

    glob: str
    tokens: tuple[Token, ...]


class _Parser:
    """globset's parser, re-derived from rg's observable behaviour (see the module docstring)."""

    def __init__(self, glob: str, allow_unclosed_class: bool) -> None:
        self.glob = glob
        self.chars = glob
        self.pos = 0
        self.allow_unclosed_class = allow_unclosed_class
        # One list per open alternation level: the alternatives collected so far and the
        # tokens of the alternative being read. The bottom entry is the glob itself.
        self.stack: list[tuple[list[list[Token]], list[Token]]] = [([], [])]

    # -- cursor -----------------------------------------------------------------------------
    def _bump(self) -> str | None:
        if self.pos >= len(self.chars):
            return None
        c = self.chars[self.pos]
        self.pos += 1
        return c

    def _peek(self) -> str | None:
        return self.chars[self.pos] if self.pos < len(self.chars) else None

    @property
    def _tokens(self) -> list[Token]:
        return self.stack[-1][1]

    def _error(self, reason: str) -> GlobError:
        return GlobError(self.glob, reason)

    # -- grammar ----------------------------------------------------------------------------
    def parse(self) -> GlobTokens:
        while True:
            c = self._bump()
            if c is None:
                break
            if c == "?":
                self._tokens.append((ANY, None))
            elif c == "*":
                self._parse_star()
            elif c == "[":
                self._parse_class()
            elif c == "{":
                self.stack.append(([], []))
            elif c == "}":
                if len(self.stack) == 1:
                    raise self._error(
                        "unopened alternate group; missing '{' (maybe escape '}' with '[}]'?)"
                    )
                alts, current = self.stack.pop()
                alts.append(current)
                self._tokens.append((ALT, tuple(tuple(a) for a in alts)))
            elif c == "," and len(self.stack) > 1:
                alts, current = self.stack[-1]
                alts.append(current)
                self.stack[-1] = (alts, [])
            elif c == "\\":
                escaped = self._bump()
                if escaped is None:
                    raise self._error("dangling '\\'")
                self._tokens.append((LITERAL, escaped))
            else:
                self._tokens.append((LITERAL, c))
        if len(self.stack) > 1:
            raise self._error(
                "unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)"
            )
        return GlobTokens(self.glob, tuple(self.stack[0][1]))

    def _parse_star(self) -> None:
        # The character before this '*' (``_bump`` already consumed the star itself).
        prev = self.chars[self.pos - 2] if self.pos >= 2 else None
        tokens = self._tokens
        if self._peek() != "*":
            tokens.append((STAR, None))
            return
        self._bump()  # the second '*'
        if not tokens:
            # "**" at the start of the glob or of an alternative.
            nxt = self._peek()
            if nxt is not None and nxt != "/":
                tokens.append((STAR, None))
                tokens.append((STAR, None))
            else:
                tokens.append((RECURSIVE_PREFIX, None))
                if nxt == "/":
                    self._bump()
            return
        if prev != "/":
            # "**" inside a component, e.g. "a**b": behaves like "*".
            tokens.append((STAR, None))
            tokens.append((STAR, None))
            return
        nxt = self._peek()
        if nxt is None:
            is_suffix = True
        elif nxt in ",}" and len(self.stack) > 1:
            is_suffix = True
        elif nxt == "/":
            self._bump()
            is_suffix = False
        else:
            tokens.append((STAR, None))
            tokens.append((STAR, None))
            return
        # The previous token is the "/" before "**" (or a recursive token that absorbed it).
        last = tokens.pop()
        if last[0] in (RECURSIVE_PREFIX, RECURSIVE_SUFFIX):
            tokens.append(last)
        else:
            tokens.append((RECURSIVE_SUFFIX if is_suffix else RECURSIVE_MIDDLE, None))

    def _parse_class(self) -> None:
        saved = self.pos
        negated = False
        if self._peek() in ("!", "^"):
            self._bump()
            negated = True
        ranges: list[list[str]] = []
        first = True
        in_range = False
        while True:
            c = self._bump()
            if c is None:
                if self.allow_unclosed_class:
                    # EDGE CASE (rg r3127): in ignore files an unclosed "[" is a literal.
                    self.pos = saved
                    self._tokens.append((LITERAL, "["))
                    return
                raise self._error("unclosed character class; missing ']'")
            if c == "]":
                if first:
                    ranges.append(["]", "]"])
                else:
                    break
            elif c == "-":
                if first:
                    ranges.append(["-", "-"])
                elif in_range:
                    self._close_range(ranges[-1], "-")
                    in_range = False
                else:
                    in_range = True
            else:
                if in_range:
                    self._close_range(ranges[-1], c)
                else:
                    ranges.append([c, c])
                in_range = False
            first = False
        if in_range:
            ranges.append(["-", "-"])
        self._tokens.append((CLASS, (negated, tuple((a, b) for a, b in ranges))))

    def _close_range(self, rng: list[str], end: str) -> None:
        rng[1] = end
        if rng[1] < rng[0]:
            raise self._error(f"invalid range; '{rng[0]}' > '{rng[1]}'")


def parse_glob(glob: str, *, allow_unclosed_class: bool = False) -> GlobTokens:
    """Parse *glob* (str) in ripgrep's glob dialect.

    Raises :class:`GlobError` with rg's message for an unclosed class (unless
    *allow_unclosed_class*), an inverted range, unbalanced braces or a dangling backslash.
    """
    # Most ignore rules are plain names, often behind "**/" or "**/*": skip the
    # character-by-character parser for them.
    head: tuple[Token, ...] = ()
    rest = glob
    if rest.startswith("**/"):
        head, rest = ((RECURSIVE_PREFIX, None),), rest[3:]
        if rest.startswith("*") and not rest.startswith("**"):
            head, rest = head + ((STAR, None),), rest[1:]
    if rest and _PLAIN.fullmatch(rest):
        return GlobTokens(glob, head + tuple((LITERAL, c) for c in rest))
    return _Parser(glob, allow_unclosed_class).parse()


_PLAIN = re.compile(r"[^*?\[\]{}\\]*")


def _literal(text: str) -> str:
    """Escape *text* for a bytes regex, writing non-ASCII characters as their UTF-8 bytes."""
    out = []
    for b in text.encode("utf-8", "surrogateescape"):
        if b < 0x80:
            out.append(re.escape(chr(b)))
        else:
            out.append("\\x%02x" % b)
    return "".join(out)


def _class_member(c: str) -> str:
    # Inside a class "-", "]", "\\" and "^" need escaping; re.escape covers them all.
    return _literal(c)


def _tokens_to_regex(tokens: tuple[Token, ...]) -> str:
    parts: list[str] = []
    for kind, payload in tokens:
        if kind == LITERAL:
            parts.append(_literal(payload))
        elif kind == ANY:
            parts.append("[^/]")
        elif kind == STAR:
            parts.append("[^/]*")
        elif kind == RECURSIVE_PREFIX:
            parts.append("(?:/?|.*/)")
        elif kind == RECURSIVE_SUFFIX:
            parts.append("/.*")
        elif kind == RECURSIVE_MIDDLE:
            parts.append("(?:/|/.*/)")
        elif kind == CLASS:
            negated, ranges = payload
            body = []
            for a, b in ranges:
                body.append(_class_member(a) if a == b else f"{_class_member(a)}-{_class_member(b)}")
            parts.append("[" + ("^" if negated else "") + "".join(body) + "]")
        elif kind == ALT:
            alts = [_tokens_to_regex(alt) for alt in payload]
            # rg: empty alternatives are dropped; an all-empty group contributes nothing.
            alts = [a for a in alts if a]
            if alts:
                parts.append("(?:" + "|".join(alts) + ")")
    return "".join(parts)


def glob_to_regex(parsed: GlobTokens) -> str:
    """Return the body of a regex (no anchors) that matches what *parsed* matches.

    The caller anchors it (``fullmatch``) and compiles it as a bytes pattern with
    ``re.DOTALL`` (globset builds its regexes with dot-matches-newline: ``**`` matches a file
    name holding a newline — parity seed 1001517) and, for case-insensitive globs, with
    ``re.IGNORECASE`` (ASCII-only on bytes, like rg's ``(?-u)(?i)``).
    """
    tokens = parsed.tokens
    if tokens == ((RECURSIVE_PREFIX, None),):
        return ".*"  # a lone "**" matches everything
    return _tokens_to_regex(tokens)
