"""Character classes with rg 15.1's exact Unicode 16 membership, emitted as ``regex`` V1 sets.

A class is a small expression tree (:class:`Chars`, :class:`Prop`, :class:`Not`, :class:`Union`,
:class:`Op`). :func:`contains` answers "does rg's class hold this code point?" exactly, and
:func:`emit` writes a ``regex`` V1 set that matches the same characters. The emitted set is built
from the ``regex`` module's own property classes (fast), then corrected on the few code points
where ``regex`` and rg can disagree: the code points new in Unicode 17 (rg is on Unicode 16),
surrogates (rg classes hold scalar values only, so ``[^a]`` must never match the U+DC80..U+DCFF
escapes of invalid bytes), ``\\n``/``\\r`` and the measured per-property differences in
:mod:`shellfree.search.regex_unicode_tables`. Case folding (:func:`fold`) is Unicode *simple*
folding closed into orbits, as rg does it (``i``/``I`` never meet ``İ``/``ı``).
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Iterable

from shellfree._module_on_first_use import ModuleOnFirstUse
from shellfree._record import Record
from shellfree.search.char_kinds import KINDS

__all__ = ["Chars", "Prop", "Not", "Union", "Op", "ClassExpr", "chars", "contains", "fold",
           "emit", "members", "lookup_property", "PropertyError", "orbit", "is_uppercase",
           "perl_class", "ascii_class", "EMPTY", "ANY", "SURROGATES", "materialize",
           "regex_fold_agrees"]

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see shellfree/__init__.py)
if TYPE_CHECKING:
    from typing import Optional
    import regex

SURROGATES = ((0xD800, 0xDFFF),)


# shellfree.search.regex_unicode_tables, imported when a class first needs them: \w, \d, \s
# and . are decided on ASCII text and written for regex without them, and a search of
# \w+Error whose lines are ASCII or stand-ins (char_kinds) skips the import (0.6 ms here).
_tables = ModuleOnFirstUse("shellfree.search.regex_unicode_tables", globals(), "_tables")


@functools.lru_cache(maxsize=1)
def _new() -> tuple:
    """The ranges of code points new in Unicode 17 (regex) over 16 (rg), and their starts."""
    ranges = _tables.NEW_IN_REGEX
    return ranges, [a for a, _ in ranges]


def _in_ranges(cp: int, ranges, starts=None) -> bool:
    starts = starts if starts is not None else [a for a, _ in ranges]
    i = bisect.bisect_right(starts, cp) - 1
    return i >= 0 and ranges[i][0] <= cp <= ranges[i][1]


def _is_new(cp: int) -> bool:
    # ASCII was complete long before Unicode 16: no table needed for it.
    return cp >= 0x80 and _in_ranges(cp, *_new())


class Chars(Record):
    """An explicit set: sorted, disjoint, non-adjacent ``(lo, hi)`` ranges of code points."""

    ranges: tuple


class Prop(Record):
    """A ``regex`` property class (``\\w``, ``\\p{GREEK}``) plus what makes it equal to rg's set."""

    expr: str
    unassigned: bool = False   # rg's set holds the code points unassigned in Unicode 16
    add: tuple = ()            # measured code points rg has and regex lacks
    remove: tuple = ()         # measured code points regex has and rg lacks


class Not(Record):
    """Complement over Unicode scalar values (never a surrogate, like every rg class)."""

    item: "ClassExpr"


class Union(Record):
    items: tuple


class Op(Record):
    """``&&``, ``--`` or ``~~`` of two classes."""

    kind: str
    lhs: "ClassExpr"
    rhs: "ClassExpr"


ClassExpr = object  # Chars | Prop | Not | Union | Op
EMPTY = Chars(())
ANY = Not(EMPTY)


def chars(ranges: Iterable) -> Chars:
    """Normalise ranges (``(lo, hi)`` pairs or single ints) into a :class:`Chars`."""
    items = sorted((r, r) if isinstance(r, int) else (r[0], r[1]) for r in ranges)
    out: list = []
    for lo, hi in items:
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return Chars(tuple(out))


@functools.lru_cache(maxsize=None)
def _compiled(expr: str) -> "regex.Pattern[str]":
    import regex  # loaded on first use: a literal search never needs it

    return regex.compile(expr, regex.V1)


def contains(cls, cp: int) -> bool:
    """Whether rg's class holds code point ``cp`` (exact, Unicode 16, scalar values only)."""
    if isinstance(cls, Chars):
        return _in_ranges(cp, cls.ranges)
    if isinstance(cls, Prop):
        if 0xD800 <= cp <= 0xDFFF:
            return False
        if cls.add and _in_ranges(cp, cls.add):
            return True
        if cls.remove and _in_ranges(cp, cls.remove):
            return False
        if _is_new(cp):
            return cls.unassigned
        if cp < 0x80 and cls.expr in _PERL_ASCII:
            return _in_ranges(cp, _PERL_ASCII[cls.expr])
        return _compiled(cls.expr).fullmatch(chr(cp)) is not None
    if isinstance(cls, Not):
        return not 0xD800 <= cp <= 0xDFFF and not contains(cls.item, cp)
    if isinstance(cls, Union):
        return any(contains(i, cp) for i in cls.items)
    a, b = contains(cls.lhs, cp), contains(cls.rhs, cp)
    return (a and b) if cls.kind == "&&" else (a and not b) if cls.kind == "--" else (a != b)


def members(cls, candidates: Iterable[int]) -> list:
    """The candidates (code points) that rg's class holds."""
    return [cp for cp in candidates if contains(cls, cp)]


@functools.lru_cache(maxsize=1)
def _new_points() -> frozenset:
    return frozenset(_expand(_new()[0]))


def _matched_by(compiled: "regex.Pattern[str]", points: list[int]) -> set[int]:
    """The code points among sorted *points* that the one-character set *compiled* matches:
    one scan over them all instead of a call per code point."""
    text = "".join(map(chr, points))
    return {points[m.start()] for m in compiled.finditer(text)}


_ALL_KINDS = frozenset(KINDS)
_PERL_KINDS = {"\\w": frozenset(("W", "D")), "\\d": frozenset(("D",)), "\\s": frozenset(("S",))}


def class_kinds(cls) -> Optional[frozenset]:
    """The kinds of non-ASCII character (:mod:`shellfree.search.char_kinds`) rg's class holds
    wholly, when it holds no character of the others; None when it holds some characters of a
    kind and not others, or this cannot tell (a Unicode property other than ``\\w``, ``\\d``,
    ``\\s``; a range of non-ASCII code points)."""
    if isinstance(cls, Chars):
        above = [(max(lo, 0x80), hi) for lo, hi in cls.ranges if hi >= 0x80]
        if not above:
            return frozenset()
        # Surrogates aside: no line handed to a stand-in search holds one.
        if _covers(above, 0x80, 0xD7FF) and _covers(above, 0xE000, 0x10FFFF):
            return _ALL_KINDS
        return None
    if isinstance(cls, Prop):
        if cls.add or cls.remove or cls.unassigned:
            return None
        return _PERL_KINDS.get(cls.expr)
    if isinstance(cls, Not):
        inner = class_kinds(cls.item)
        return None if inner is None else _ALL_KINDS - inner
    if isinstance(cls, Union):
        parts = [class_kinds(item) for item in cls.items]
        return None if None in parts else frozenset().union(*parts)
    a, b = class_kinds(cls.lhs), class_kinds(cls.rhs)
    if a is None or b is None:
        return None
    return (a & b) if cls.kind == "&&" else (a - b) if cls.kind == "--" else (a ^ b)


def _covers(ranges, lo: int, hi: int) -> bool:
    """Whether sorted disjoint *ranges* hold every code point from *lo* to *hi*."""
    for a, b in ranges:
        if a > lo:
            return False
        if b >= lo:
            lo = b + 1
            if lo > hi:
                return True
    return False


def ascii_ranges(cls) -> tuple:
    """The ranges of the ASCII characters rg's class holds (what it can match in ASCII text)."""
    return chars(_members_among(cls, set(range(0x80)))).ranges


def _members_among(cls, probe: set[int]) -> set[int]:
    """``{cp in probe if contains(cls, cp)}``, by set operations over the class tree (what
    :func:`contains` decides per code point, decided per set)."""
    if isinstance(cls, Chars):
        return {cp for cp in probe if _in_ranges(cp, cls.ranges)}
    if isinstance(cls, Prop):
        scalars = {cp for cp in probe if not 0xD800 <= cp <= 0xDFFF}
        added = {cp for cp in scalars if cls.add and _in_ranges(cp, cls.add)}
        removed = {cp for cp in scalars if cls.remove and _in_ranges(cp, cls.remove)}
        rest = scalars - added - removed
        new = rest & _new_points() if any(cp >= 0x80 for cp in rest) else set()
        old = rest - new
        out = added | (new if cls.unassigned else set())
        if cls.expr in _PERL_ASCII:
            ascii_old = {cp for cp in old if cp < 0x80}
            out |= {cp for cp in ascii_old if _in_ranges(cp, _PERL_ASCII[cls.expr])}
            old -= ascii_old
        return out | _matched_by(_compiled(cls.expr), sorted(old)) if old else out
    if isinstance(cls, Not):
        return {cp for cp in probe if not 0xD800 <= cp <= 0xDFFF} - _members_among(cls.item, probe)
    if isinstance(cls, Union):
        out: set[int] = set()
        for item in cls.items:
            out |= _members_among(item, probe)
        return out
    lhs, rhs = _members_among(cls.lhs, probe), _members_among(cls.rhs, probe)
    return (lhs & rhs) if cls.kind == "&&" else (lhs - rhs) if cls.kind == "--" else (lhs ^ rhs)


# -- case folding -------------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _orbits() -> dict:
    """Code point → its orbit, for every code point with a case partner in rg's tables.

    The orbits were measured from rg 15.1 (scripts/gen_casefold_table.py): deriving them from
    the ``regex`` module's data at run time took about a second and gave Unicode 17's answer,
    corrected by hand for the dotted/dotless i and the code points new in Unicode 17.
    """
    from shellfree.search.regex_casefold_table import ORBITS

    return {cp: orb for orb in ORBITS for cp in orb}


@functools.lru_cache(maxsize=1)
def _cased() -> tuple:
    """Every code point whose simple-folding orbit has more than one member."""
    return tuple(sorted(_orbits()))


def orbit(cp: int, unicode: bool = True) -> tuple:
    """rg's simple case folding orbit of ``cp`` (ASCII letters only when ``unicode`` is off)."""
    if not unicode:
        ch = chr(cp)
        if ch.isascii() and ch.isalpha():
            return tuple(sorted((ord(ch.lower()), ord(ch.upper()))))
        return (cp,)
    if cp < 0x80 and not chr(cp).isalpha():
        return (cp,)
    return _orbits().get(cp, (cp,))


def fold(cls, unicode: bool = True):
    """rg's ``case_fold_simple``: add every code point whose orbit meets the class."""
    if not unicode:
        extra = set()
        for cp in list(range(0x41, 0x5B)) + list(range(0x61, 0x7B)):
            if not contains(cls, cp) and any(contains(cls, o) for o in orbit(cp, False)):
                extra.add(cp)
        return Union((cls, chars(extra))) if extra else cls
    extra = set()
    for cp in _cased():
        orb = orbit(cp)
        if len(orb) > 1 and not contains(cls, cp) and any(contains(cls, o) for o in orb if o != cp):
            extra.add(cp)
    return Union((cls, chars(extra))) if extra else cls


# -- Unicode properties ---------------------------------------------------------------------------

class PropertyError(Exception):
    """rg's message for a ``\\p{…}`` it cannot resolve."""


_PAIR_NAMES = {"generalcategory": "gc", "gc": "gc", "script": "sc", "sc": "sc",
               "scriptextensions": "scx", "scx": "scx", "graphemeclusterbreak": "gcb",
               "gcb": "gcb", "wordbreak": "wb", "wb": "wb", "sentencebreak": "sb", "sb": "sb"}


def _normalize(name: str) -> str:
    # rg (UAX44-LM3): an "is" prefix, case, " ", "_" and "-" are ignored; non-ASCII is dropped.
    starts_is = name[:2].lower() == "is"
    body = name[2:] if starts_is else name
    out = "".join(c.lower() for c in body if c not in " _-" and c.isascii())
    if starts_is and out == "c":
        return "isc"  # EDGE CASE: "isc" is Other (C), not "is" + "c".
    return out


def _prop(entry) -> Prop:
    expr, unassigned, add, remove = entry
    return Prop(expr, unassigned, tuple(add), tuple(remove))


def lookup_property(name: str, value: Optional[str]):
    """Resolve ``\\p{name}`` / ``\\p{name=value}`` to a class; raises :class:`PropertyError`."""
    if value is None:
        key = _normalize(name)
        if key in _tables.PROPERTIES:
            return _prop(_tables.PROPERTIES[key])
        if key in _tables.VALUE_NOT_FOUND_NAMES:
            raise PropertyError("Unicode property value not found")
        raise PropertyError("Unicode property not found")
    pname = _normalize(name)
    short = _PAIR_NAMES.get(pname)
    if short is None:
        if pname == "age":
            # Not modelled: the regex module has no Age data.
            raise PropertyError("Unicode property Age is not supported by shellfree")
        if pname in _tables.KNOWN_PROPERTY_NAMES:
            raise PropertyError("Unicode property value not found")
        raise PropertyError("Unicode property not found")
    key = short + "=" + _normalize(value)
    if key in _tables.PROPERTIES:
        return _prop(_tables.PROPERTIES[key])
    raise PropertyError("Unicode property value not found")


_ASCII_CLASSES = {
    "alnum": ((0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)), "alpha": ((0x41, 0x5A), (0x61, 0x7A)),
    "ascii": ((0, 0x7F),), "blank": ((9, 9), (0x20, 0x20)), "cntrl": ((0, 0x1F), (0x7F, 0x7F)),
    "digit": ((0x30, 0x39),), "graph": ((0x21, 0x7E),), "lower": ((0x61, 0x7A),),
    "print": ((0x20, 0x7E),), "punct": ((0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)),
    "space": ((9, 13), (0x20, 0x20)), "upper": ((0x41, 0x5A),),
    "word": ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)),
    "xdigit": ((0x30, 0x39), (0x41, 0x46), (0x61, 0x66)),
}


def ascii_class(name: str) -> Chars:
    """``[[:name:]]`` (always ASCII in rg)."""
    return Chars(_ASCII_CLASSES[name])


# The ASCII members of regex's \d, \s and \w are rg's ASCII classes (a test checks each
# character), so an ASCII character is decided without loading the regex module: a search
# whose lines re confirms (regex_translate._ascii_source) need not import it at all.
_PERL_ASCII = {"\\d": _ASCII_CLASSES["digit"], "\\s": _ASCII_CLASSES["space"],
               "\\w": _ASCII_CLASSES["word"]}


def perl_class(kind: str, unicode: bool):
    """``\\d``, ``\\s``, ``\\w`` as rg defines them (Unicode: Nd, White_Space, TR18 word)."""
    if not unicode:
        return Chars(_ASCII_CLASSES[{"d": "digit", "s": "space", "w": "word"}[kind]])
    # Measured: regex's \w, \d, \s equal rg's definitions except for Unicode 17 additions.
    return Prop("\\" + kind)


@functools.lru_cache(maxsize=1)
def _upper() -> Prop:
    return _prop(_tables.PROPERTIES["uppercase"])


def is_uppercase(c: str) -> bool:
    """Rust's ``char::is_uppercase`` (the Uppercase property), used by smart case."""
    return contains(_upper(), ord(c))


# -- emission ---------------------------------------------------------------------------------

def _esc(cp: int) -> str:
    if cp < 0x80 and (chr(cp).isalnum()):
        return chr(cp)
    if cp <= 0xFF:
        return "\\x%02x" % cp
    if cp <= 0xFFFF:
        return "\\u%04x" % cp
    return "\\U%08x" % cp


def _ranges_text(ranges) -> str:
    out = []
    for lo, hi in ranges:
        if lo == hi:
            out.append(_esc(lo))
        elif hi == lo + 1:
            out.append(_esc(lo) + _esc(hi))
        else:
            out.append(_esc(lo) + "-" + _esc(hi))
    return "".join(out)


def _members_text(cls) -> Optional[str]:
    """Set members (without brackets) when ``cls`` is a flat union of ranges and properties."""
    if isinstance(cls, Chars):
        return _ranges_text(cls.ranges)
    if isinstance(cls, Prop):
        return cls.expr
    if isinstance(cls, Union):
        parts = [_members_text(i) for i in cls.items]
        if all(p is not None for p in parts):
            return "".join(parts)
    return None


def _raw(cls, nested: bool = False) -> str:
    """A V1 set for ``cls`` using regex's semantics (surrogates/new code points not corrected);
    *nested*: it is a member or an operand of another set."""
    flat = _members_text(cls)
    if flat is not None:
        return "[" + flat + "]" if flat else "[^\\x00-\\U0010ffff]"
    if isinstance(cls, Not):
        inner = _members_text(cls.item)
        if inner == "":
            return "[\\x00-\\U0010ffff]"
        body = "[" + inner + "]" if inner is not None else _raw(cls.item, True)
        if nested:
            # EDGE CASE: regex (2026.5.9) takes a set that holds a member and its complement,
            # [\s[^\s]] or [\d\P{Nd}], for "any character": it drops a negation around
            # it ([^\s\S] matches "a") and fails to compile a set operation on it (TypeError).
            # A complement written as a difference is not paired with its member.
            return "[\\x00-\\U0010ffff--" + body + "]"
        return "[^" + body[1:-1] + "]" if inner is not None else "[^" + body + "]"
    if isinstance(cls, Union):
        return "[" + "".join(_raw(i, True) for i in cls.items) + "]"
    return "[" + _raw(cls.lhs, True) + cls.kind + _raw(cls.rhs, True) + "]"


def _props(cls, out: list) -> list:
    if isinstance(cls, Prop):
        out.append(cls)
    elif isinstance(cls, Not):
        _props(cls.item, out)
    elif isinstance(cls, Union):
        for i in cls.items:
            _props(i, out)
    elif isinstance(cls, Op):
        _props(cls.lhs, out)
        _props(cls.rhs, out)
    return out


def _expand(ranges) -> Iterable[int]:
    for lo, hi in ranges:
        yield from range(lo, hi + 1)


def _hulled(ranges) -> str:
    # The regex module tests set members one by one; a leading range test keeps the common
    # (ASCII/BMP) case to one comparison instead of a scan over every correction range.
    text = _ranges_text(ranges)
    if len(ranges) <= 2:
        return "[" + text + "]"
    return "[" + _esc(ranges[0][0]) + "-" + _esc(ranges[-1][1]) + "&&[" + text + "]]"


@functools.lru_cache(maxsize=4096)
def emit(cls) -> str:
    """A ``regex`` V1 set matching exactly the characters rg's class matches (see module doc)."""
    raw = _raw(cls)
    if isinstance(cls, Chars) and not any(lo <= 0xDFFF and hi >= 0xD800 for lo, hi in cls.ranges):
        # An explicit set away from the surrogates lists exactly its code points to regex too,
        # whatever their Unicode version: only the line terminators are worth a probe (the
        # full probe, ~4,800 code points, cost 6 ms of each case-insensitive search's start).
        probe = {0x0A, 0x0D}
    else:
        probe = set(_new_points()) | set(_expand(SURROGATES)) | {0x0A, 0x0D}
    for p in _props(cls, []):
        probe.update(_expand(p.add))
        probe.update(_expand(p.remove))
    import regex

    compiled = regex.compile(raw, regex.V1)
    points = sorted(probe)
    wanted = _members_among(cls, probe)
    matched = _matched_by(compiled, points)
    add = sorted(wanted - matched)
    remove = sorted(matched - wanted)
    if not add and not remove:
        return raw
    add_r, rem_r = chars(add).ranges, chars(remove).ranges
    if not add and isinstance(cls, Not) and raw.startswith("[^") and _members_text(cls.item):
        # EDGE CASE: the common "[^…]" just lists what to leave out: [^a\n\ud800-\udfff].
        return raw[:-1] + _ranges_text(rem_r) + "]"
    out = "[" + raw + (_hulled(add_r) if add else "")
    if remove:
        out += "--" + _hulled(rem_r)
    return out + "]"


_SCALARS = ((0, 0xD7FF), (0xE000, 0x10FFFF))


def _complement(ranges) -> tuple:
    out, prev = [], 0
    for lo, hi in ranges:
        if lo > prev:
            out.append((prev, lo - 1))
        prev = hi + 1
    if prev <= 0x10FFFF:
        out.append((prev, 0x10FFFF))
    return _intersect(tuple(out), _SCALARS)


def _intersect(a, b) -> tuple:
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if lo <= hi:
            out.append((lo, hi))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return tuple(out)


def materialize(cls) -> Optional[Chars]:
    """The exact ranges of a class built without Unicode properties, else None."""
    if isinstance(cls, Chars):
        return cls
    if isinstance(cls, Prop):
        return None
    if isinstance(cls, Not):
        inner = materialize(cls.item)
        return None if inner is None else Chars(_complement(inner.ranges))
    if isinstance(cls, Union):
        parts = [materialize(i) for i in cls.items]
        if any(p is None for p in parts):
            return None
        return chars(r for p in parts for r in p.ranges)
    lhs, rhs = materialize(cls.lhs), materialize(cls.rhs)
    if lhs is None or rhs is None:
        return None
    if cls.kind == "&&":
        return Chars(_intersect(lhs.ranges, rhs.ranges))
    if cls.kind == "--":
        return Chars(_intersect(lhs.ranges, _complement(rhs.ranges) + ((0xD800, 0xDFFF),)))
    both = _intersect(lhs.ranges, rhs.ranges)
    either = chars(lhs.ranges + rhs.ranges).ranges
    return Chars(_intersect(either, _complement(both) + ((0xD800, 0xDFFF),)))


def regex_fold_agrees(cp: int) -> bool:
    """Whether ``(?i)`` in the regex module (simple folding) relates ``cp`` to rg's orbit only."""
    if cp in (0x49, 0x69, 0x130, 0x131) or _is_new(cp):
        return False
    orb = orbit(cp)
    return not any(_is_new(c) for c in orb) and cp not in _NEW_PARTNERS()


@functools.lru_cache(maxsize=1)
def _NEW_PARTNERS() -> frozenset:
    """Code points whose regex-module orbit includes a code point new in Unicode 17
    (precomputed by scripts/gen_casefold_table.py)."""
    from shellfree.search.regex_casefold_table import REGEX_NEW_PARTNERS

    return REGEX_NEW_PARTNERS
