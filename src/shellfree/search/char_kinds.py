"""What rg's Perl classes make of a non-ASCII character, from the standard library's Unicode data.

A short line holding non-ASCII characters is confirmed by ``re`` instead of the ``regex`` module
(whose import costs a search 8 ms, and its Unicode classes 2-4x the time per line) when the
pattern's classes treat every non-ASCII character only by its *kind*: a word character that is
not a digit (``W``), a decimal digit (``D``, also a word character), white space (``S``), or
none of these (``O``). :func:`stand_in_text` replaces each non-ASCII character of a line by the
one stand-in of its kind, keeping every index; ``regex_translate._ascii_source`` writes such a
pattern's classes with the stand-ins of the kinds they hold (``regex_unicode.class_kinds``).

rg's ``\\w`` is Alphabetic, marks, decimal digits, connector punctuation and the joiners (UTS #18),
``\\d`` the decimal digits, ``\\s`` White_Space. The general category gives all of them but for
the Alphabetic symbols below. It is checked against rg's own classes for every code point of the
Unicode versions in :data:`VERIFIED_UNICODE` (``tests/search/test_char_kinds.py``); on any other
version of ``unicodedata`` every non-ASCII line keeps the ``regex`` module.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see shellfree/__init__.py)
if TYPE_CHECKING:
    from typing import Optional


KINDS = ("W", "D", "S", "O")
# Private-use characters: nothing in a pattern or a decoded line means them here.
STAND_INS = {"W": "\ue000", "D": "\ue001", "S": "\ue002", "O": "\ue003"}

# Python 3.10 to 3.13 (checked here against rg 15.1's Unicode 16 classes, code point by code
# point). Characters unassigned in these versions are left to the regex module.
VERIFIED_UNICODE = frozenset({"13.0.0", "14.0.0", "15.0.0", "15.1.0"})

_WORD_CATEGORIES = frozenset({"Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nl", "Pc"})
_SPACE_CATEGORIES = frozenset({"Zs", "Zl", "Zp"})
# Unassigned, or a surrogate (the escape of an invalid byte, which no rg class holds but which
# is not a character either): the regex module decides.
_UNKNOWN_CATEGORIES = frozenset({"Cn", "Cs"})
# Symbols (So) that are Other_Alphabetic, hence word characters to rg: circled, squared and
# negative circled/squared Latin letters.
_ALPHABETIC_SYMBOLS = ((0x24B6, 0x24E9), (0x1F130, 0x1F149), (0x1F150, 0x1F169), (0x1F170, 0x1F189))
_JOIN_CONTROLS = (0x200C, 0x200D)


def kind_of(cp: int) -> Optional[str]:
    """The kind of non-ASCII code point *cp* to rg's ``\\w``/``\\d``/``\\s``; None when the
    running Python's Unicode data cannot tell (unassigned there, a surrogate, or a version not
    in :data:`VERIFIED_UNICODE`)."""
    import unicodedata  # on first sight of a non-ASCII character: most searches never need it

    if unicodedata.unidata_version not in VERIFIED_UNICODE:
        return None
    category = unicodedata.category(chr(cp))
    if category in _UNKNOWN_CATEGORIES:
        return None
    if category == "Nd":
        return "D"
    if (category in _WORD_CATEGORIES or cp in _JOIN_CONTROLS
            or any(lo <= cp <= hi for lo, hi in _ALPHABETIC_SYMBOLS)):
        return "W"
    if category in _SPACE_CATEGORIES or cp == 0x85:
        return "S"
    return "O"


class _Unknown(Exception):
    pass


_ASCII = {cp: chr(cp) for cp in range(0x80)}
# Non-ASCII code points whose stand-ins are remembered: a few scripts' worth. A text that
# cycles through more (every CJK character) starts the table afresh rather than grow it
# without bound in a long-lived host.
REMEMBERED = 4096


class _StandIns(dict):
    """``str.translate`` table: ASCII to itself, any other code point to its kind's stand-in,
    computed on first sight."""

    def __missing__(self, cp: int) -> str:
        kind = kind_of(cp)
        if kind is None:
            raise _Unknown
        if len(self) >= len(_ASCII) + REMEMBERED:
            self.clear()
            self.update(_ASCII)
        self[cp] = stand_in = STAND_INS[kind]
        return stand_in


_TABLE = _StandIns(_ASCII)


def stand_in_text(text: str) -> Optional[str]:
    """*text* with each non-ASCII character replaced by its kind's stand-in (same length, same
    indexes), or None when a character's kind is unknown."""
    try:
        return text.translate(_TABLE)
    except _Unknown:
        return None
