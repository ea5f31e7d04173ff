"""Generate random content-search parity cases: a tree whose file *contents* are drawn at random, a
pattern from a small Rust-regex grammar, a flag set and roots, all a pure function of the seed.

Trees come either from the walk harness's generator (:func:`~benchmarks.parity.trees.generate_work_tree`,
for its names, ignore files and fake repos, with every regular file's content replaced) or from a
small flat generator. Contents mix the encodings and shapes of rg-semantics §2 (CRLF, BOMs, UTF-16,
NUL in small and > 64 KiB files, Latin-1 bytes, minified lines, tabs, Unicode text, empty files, no
final newline). Each case is tagged with the Unicode-table edge characters its haystack or pattern
holds (:func:`edge_reasons`), because the issue's 100 % target excludes exactly those cases.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from benchmarks.parity.runner import Arg, Invocation
from benchmarks.parity.trees import (
    WORK,
    Dir,
    Fifo,
    File,
    FsCapabilities,
    GeneratedTree,
    Tree,
    generate_work_tree,
)
from benchmarks.parity.walk_cases import Case, CaseDraft, FlagSpec, draw_cwd

CONTENT_GENERATOR_VERSION = 3
"""Bumped whenever the generator changes what a seed produces (reports print it next to each seed)."""

# ---------------------------------------------------------------------------------------------
# Unicode-table edge characters
# ---------------------------------------------------------------------------------------------

NAMED_EDGE_CHARS = {
    "\u212a": "KELVIN SIGN",
    "\u017f": "LATIN SMALL LETTER LONG S",
    "\u0130": "LATIN CAPITAL LETTER I WITH DOT ABOVE",
    "\u0131": "LATIN SMALL LETTER DOTLESS I",
    "\u200d": "ZERO WIDTH JOINER (grapheme clusters)",
    "\U0001f3fd": "EMOJI MODIFIER (grapheme clusters)",
    "\U0001f1eb": "REGIONAL INDICATOR (grapheme clusters)",
    "\U0001f1f7": "REGIONAL INDICATOR (grapheme clusters)",
}
"""Characters whose case folding or segmentation is version- or engine-specific, named for reports."""

NEW_CODE_POINTS = {
    0x1C89: 16, 0x1C8A: 16, 0xA7CB: 16, 0xA7DC: 16, 0x10D50: 16, 0x10D70: 16, 0x10D40: 16,
    0x10D41: 16, 0x16130: 16, 0x16131: 16, 0x1E5D0: 16, 0x1E5F1: 16,
    0x1E4D0: 15, 0x1E4F0: 15, 0x1E4F1: 15, 0x11F04: 15, 0x11F50: 15,
    0xA7CE: 17, 0xA7CF: 17, 0x088F: 17, 0x20C1: 17, 0x1ACF: 17,
}
"""Code points new in Unicode 15/16/17 that the generator uses (letters, case pairs, digits), with the
version that added them: rg 15.1 has Unicode 16 tables, Python's ``regex`` module has 17."""


def edge_reasons(text: str) -> tuple[str, ...]:
    """Returns a sorted label per kind of Unicode-table edge character in *text* (empty if none).

    Edge characters: :data:`NAMED_EDGE_CHARS`, combining marks (category M: rg puts them in ``\\w``,
    so they move ``\\b``/``-w`` and grapheme-based ``--max-columns-preview``), and code points new in
    Unicode 15-17 (:data:`NEW_CODE_POINTS`, or unassigned in this Python's ``unicodedata``).
    """
    out: set[str] = set()
    for ch in set(text):
        if ch in NAMED_EDGE_CHARS:
            out.add(NAMED_EDGE_CHARS[ch])
        elif ord(ch) in NEW_CODE_POINTS:
            out.add(f"new in Unicode {NEW_CODE_POINTS[ord(ch)]}")
        elif ord(ch) > 0x7F:
            category = unicodedata.category(ch)
            if category.startswith("M"):
                out.add("combining mark")
            elif category == "Cn" and not 0xDC80 <= ord(ch) <= 0xDCFF:
                out.add("unassigned in Python's unicodedata")
    return tuple(sorted(out))


# ---------------------------------------------------------------------------------------------
# Vocabulary
# ---------------------------------------------------------------------------------------------

ASCII_WORDS = (
    "foo", "bar", "baz", "qux", "Foo", "FOO", "fooBar", "foo_bar", "foobar", "hello", "Hello", "world",
    "World", "test", "TEST", "a", "ab", "abc", "x", "xyz", "id", "_id", "x1", "42", "007", "3.14",
    "0x1F", "return", "fn", "def", "class", "import", "if", "else", "while", "true", "None", "null",
    "line", "needle", "haystack", "kitten", "skill", "Kelvin", "is", "it", "sS", "ss", "in", "I", "i",
)
META_WORDS = (
    "a.b", "a+b", "(x)", "[y]", "{1,2}", "$var", "^top", "x|y", "*star", "q?", "a-b", "50%", "#tag",
    "@at", "'q'", '"dq"', "c:\\dir", "back\\slash", "a\\nb", "foo()", "arr[0]", "x->y", "a&&b", "~home",
    "<tag>", "a=b", "-dash", "--", "...", "!", ";", "x\\d", "\\w+",
)
UNICODE_WORDS = (
    "привет", "Привет", "ПРИВЕТ", "мир", "Ёлка", "ёж", "σοφία", "Σοφία", "ΣΟΦΊΑ", "λόγος", "ΛΌΓΟΣ",
    "ς", "σ", "Σ", "οδός", "café", "CAFÉ", "naïve", "Straße", "STRASSE", "ß", "x²", "H₂O", "½", "a‿b",
    "日本語", "中文", "😀", "µ", "μ", "\u03a9", "\u2126", "\u00c5", "\u212b", "ǅ", "ǆ", "Ǆ", "ﬀ", "ẞ", "Ⅻ", "٣", "१२",
    "\u00a0nbsp", "em\u2003space", "full\u3000width",
)
EDGE_WORDS = (
    "\u212aelvin", "\u212a", "meſſage", "ſ", "İstanbul", "DİYARBAKIR", "ıi", "ı", "İ", "cafe\u0301",
    "e\u0301", "n\u0303o", "a\u0308b", "\u0301x", "\u0439\u0306", "🇫🇷", "👍🏽", "👩\u200d💻",
    "\u1c89\u1c8a", "\ua7cb\u0264", "\ua7dc\u019b", "\U00010d50\U00010d70", "\U00010d40\U00010d41",
    "\U00016130\U00016131", "\U0001e5d0", "\U0001e5f1", "\U0001e4d0", "\U0001e4f0\U0001e4f1",
    "\U00011f04", "\U00011f50", "\ua7ce\ua7cf", "\u088f", "\u20c1", "a\u1acfb",
)
CONTROL_PIECES = ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\u2028", "\r", "\x7f", "\x01")
"""Characters that are not line breaks for rg but are whitespace or controls somewhere (§2.3, §3.5)."""

SEPARATORS = (" ", " ", " ", "  ", "\t", ", ", ".", "-", "_", "=", ": ", "; ", "(", ")")

# ---------------------------------------------------------------------------------------------
# File contents
# ---------------------------------------------------------------------------------------------

BUFFER = 64 * 1024
"""rg's read buffer (rg-semantics §2.1): a NUL past the first fill changes what is printed."""


@dataclass(frozen=True)
class Content:
    """One file's bytes, the text a pattern may draw literals from, and the kind of content."""

    data: bytes
    text: str
    kind: str


def _token(rng: random.Random, edge: bool) -> str:
    pools: list[tuple[Sequence[str], float]] = [(ASCII_WORDS, 0.6), (META_WORDS, 0.08), (UNICODE_WORDS, 0.2)]
    if edge:
        pools.append((EDGE_WORDS, 0.12))
    pool = rng.choices([p for p, _ in pools], weights=[w for _, w in pools])[0]
    return rng.choice(pool)


def _line(rng: random.Random, edge: bool, *, controls: bool = False) -> str:
    if rng.random() < 0.14:
        return rng.choice(["", "", " ", "\t"])
    parts = [rng.choice(["", "", "", "  ", "\t", "    "])]
    for i in range(rng.randint(1, 7)):
        if i:
            parts.append(rng.choice(SEPARATORS))
        parts.append(_token(rng, edge))
        if controls and rng.random() < 0.25:
            parts.append(rng.choice(CONTROL_PIECES))
    if rng.random() < 0.08:
        parts.append(rng.choice([" ", "\t", "  "]))  # trailing whitespace
    return "".join(parts)


def _lines(rng: random.Random, edge: bool, low: int = 1, high: int = 9, **kw: bool) -> list[str]:
    return [_line(rng, edge, **kw) for _ in range(rng.randint(low, high))]


def _join(lines: list[str], eol: str, final: bool) -> str:
    return eol.join(lines) + (eol if final and lines else "")


def _minified(rng: random.Random, edge: bool) -> str:
    glue = (";", "{", "}", ",", "(", ")", "=", "+", ":", "&&", "||", " ")
    out: list[str] = []
    target = rng.randint(1500, 6000)
    size = 0
    while size < target:
        piece = _token(rng, edge) + rng.choice(glue)
        out.append(piece)
        size += len(piece)
    return "".join(out)


def _big(rng: random.Random, edge: bool, with_nul: bool) -> tuple[bytes, str]:
    """Returns a 70-130 KB file of numbered lines; with *with_nul*, a NUL placed past the first 64 KiB
    (or, rarely, inside it) with words before and after it, so both sides of the fill boundary matter."""
    lines = []
    size = 0
    target = rng.randint(70_000, 130_000)
    i = 0
    while size < target:
        words = " ".join(_token(rng, edge) for _ in range(rng.randint(0, 3)))
        line = f"line {i:05d} {words}" if rng.random() < 0.9 else f"needle {i:05d}"
        lines.append(line)
        size += len(line.encode()) + 1
        i += 1
    text = "\n".join(lines) + "\n"
    data = text.encode("utf-8")
    if with_nul:
        if rng.random() < 0.8:
            at = rng.randint(BUFFER + 1, len(data) - 2)
        else:
            at = rng.randint(1000, BUFFER - 1)
        data = data[:at] + b"\x00" + data[at:]
    return data, text


def draw_content(rng: random.Random, edge: bool, *, big: bool = False) -> Content:
    """Returns random content; *edge* allows Unicode-table edge characters, *big* a > 64 KiB file."""
    if big:
        with_nul = rng.random() < 0.75
        data, text = _big(rng, edge, with_nul)
        return Content(data, text, "big+nul" if with_nul else "big")
    kind = rng.choices(
        ["lf", "crlf", "mixed_eol", "no_eol", "empty", "blank", "bom8", "utf16le", "utf16be",
         "utf16_nobom", "latin1", "nul", "minified", "controls", "tabs"],
        weights=[26, 9, 3, 7, 5, 2, 5, 3, 3, 1, 6, 8, 3, 3, 3],
    )[0]
    lines = _lines(rng, edge)
    final = rng.random() < 0.85
    text = _join(lines, "\n", final)
    if kind == "crlf":
        text = _join(lines, "\r\n", final)
    elif kind == "mixed_eol":
        text = "".join(line + rng.choice(["\n", "\r\n"]) for line in lines)
    elif kind == "no_eol":
        text = _join(lines, "\n", False)
    elif kind == "empty":
        text = ""
    elif kind == "blank":
        text = "\n" * rng.randint(1, 4)
    elif kind == "minified":
        lines = [_minified(rng, edge)] + (lines[:2] if rng.random() < 0.5 else [])
        rng.shuffle(lines)
        text = _join(lines, "\n", final)
    elif kind == "controls":
        text = _join(_lines(rng, edge, controls=True), "\n", final)
    elif kind == "tabs":
        text = _join(["\t".join(line.split(" ")) + rng.choice(["", "\t"]) for line in lines], "\n", final)
    data = text.encode("utf-8")
    if kind == "bom8":
        data = b"\xef\xbb\xbf" + data
    elif kind in ("utf16le", "utf16be", "utf16_nobom"):
        codec = "utf-16-be" if kind == "utf16be" else "utf-16-le"
        bom = {"utf16le": b"\xff\xfe", "utf16be": b"\xfe\xff", "utf16_nobom": b""}[kind]
        data = bom + text.encode(codec)
        if rng.random() < 0.1:
            data += b"A"  # an odd trailing byte: rg's decoder ends it with U+FFFD
    elif kind == "latin1":
        data = "".join(
            line if rng.random() < 0.3 else line.replace("é", "\xe9").replace("ï", "\xef").replace("É", "\xc9")
            for line in text.splitlines(keepends=True)
        ).encode("latin-1", "replace")
        if b"\xe9" not in data and data:
            data = data.replace(b"a", b"caf\xe9", 1)
        text = data.decode("latin-1")
    elif kind == "nul":
        at = rng.randint(0, len(data))
        data = data[:at] + b"\x00" + data[at:]
    return Content(data, text, kind)


# ---------------------------------------------------------------------------------------------
# Patterns
# ---------------------------------------------------------------------------------------------

RUST_META = set("\\.+*?()|[]{}^$#&-~")
"""Characters escaped when a literal goes into a regex (rg's regex-syntax ``is_meta_character``)."""


def rust_escape(text: str) -> str:
    """Returns *text* as a Rust-regex literal (meta characters backslash-escaped)."""
    return "".join("\\" + ch if ch in RUST_META else ch for ch in text)


INVALID_PATTERNS = (
    "(foo", "foo)", "a{,2}", "x{2,1}", "(?=foo)", "(?!x)foo", "(?<=a)b", "(?<!a)b", r"(a)\1", r"foo\nbar",
    "foo\nbar", r"[\n]", r"\x0A", "[z-a]", r"\y", "[[]", "(?>a)", r"\p{Foo}", r"\Z", "*a", "+", "a{1001}",
    "(?P<n>a)(?P<n>b)", r"[\b]", r"\0", r"\x00", r"a\x00b", r"\N{DIGIT ONE}", "(?x) f o o # trailing",
    r"\e", r"\cA", "(?z)a", "[a", "a]", ")(", "a)|(b",
)
"""Patterns rg rejects, each with its own error text, plus a few it accepts only thanks to its own
quirks (``a]``, ``a{1001}``; ``)(`` and ``a)|(b`` because several patterns are joined as text)."""

CLASSES = (
    "[abc]", "[a-z]", "[A-Z]", "[a-zA-Z0-9_]", "[^a-z]", "[^ ]", "[0-9]", "[α-ω]", "[Α-Ω]", "[а-я]",
    "[А-ЯЁ]", "[σςΣ]", "[[:alpha:]]", "[[:digit:]]", "[[:space:]]", "[[:punct:]]", "[[:upper:]]",
    "[[:word:]]", r"[\w-]", r"[\d.]", r"[^\s]", "[.]", r"[\p{Greek}]", r"[\pL&&[^a-z]]", "[a-z&&[^aeiou]]",
    "[a-c--b]", r"[\w~~a]", "[éèê]", "[ǅǄ]", "[k]", "[S]", r"[\t ]", r"[^\w\s]", r"[\x{3b1}-\x{3c9}]",
)
PERL_CLASSES = (
    r"\w", r"\d", r"\s", r"\W", r"\D", r"\S", r"\pL", r"\p{L}", r"\PL", r"\p{Lu}", r"\p{Ll}",
    r"\p{Greek}", r"\p{Cyrillic}", r"\p{Han}", r"\p{N}", r"\p{No}", r"\p{Nd}", r"\p{Pc}", r"\p{M}",
    r"\p{Any}", r"\P{Latin}",
)


class PatternGrammar:
    """Draws Rust-regex patterns whose literals come from the haystack, so they usually match.

    Repetition is kept from backtracking catastrophically in the candidate's engine: at most one
    unbounded quantifier per pattern and never one inside a repeated group.
    """

    def __init__(self, rng: random.Random, literals: Sequence[str], lines: Sequence[str]) -> None:
        self.rng = rng
        self.literals = list(literals) or ["foo"]
        self.lines = list(lines) or ["foo"]
        self.unbounded = 0

    def literal(self) -> str:
        """Returns unescaped literal text: a haystack word, a substring of one, or a stray word."""
        rng = self.rng
        word = rng.choice(self.literals)
        roll = rng.random()
        if roll < 0.2 and len(word) > 2:
            start = rng.randrange(len(word) - 1)
            word = word[start : start + rng.randint(1, 4)]
        elif roll < 0.3:
            word = rng.choice(ASCII_WORDS + UNICODE_WORDS)
        if rng.random() < 0.15:
            word = rng.choice([word.upper(), word.lower(), word.title(), word.swapcase()])
        return word

    def quantifier(self, *, allow_unbounded: bool = True) -> str:
        rng = self.rng
        if allow_unbounded and self.unbounded == 0 and rng.random() < 0.5:
            self.unbounded += 1
            return rng.choice(["*", "+", "*?", "+?", "{1,}", "{2,}"])
        return rng.choice(["?", "??", "{2}", "{1,3}", "{0,2}", "{2,3}?", "{1}", "{0}"])

    def atom(self) -> str:
        rng = self.rng
        roll = rng.random()
        if roll < 0.35:
            return rust_escape(rng.choice(self.literal()))
        if roll < 0.6:
            return rng.choice(CLASSES)
        if roll < 0.9:
            return rng.choice(PERL_CLASSES)
        return "."

    def piece(self, depth: int = 0) -> str:
        """Returns one random sub-pattern (the grammar's main production)."""
        rng = self.rng
        kinds = ["literal", "concat", "alternation", "class", "quantified", "anchored", "boundary",
                 "group", "flags", "dot", "escape", "run"]
        weights = [30, 12 if depth < 2 else 0, 10 if depth < 2 else 0, 8, 12, 7, 7,
                   5 if depth < 2 else 0, 6 if depth < 1 else 0, 5, 3, 6]
        kind = rng.choices(kinds, weights=weights)[0]
        if kind == "literal":
            return rust_escape(self.literal())
        if kind == "concat":
            return self.piece(depth + 1) + self.piece(depth + 1)
        if kind == "alternation":
            branches = [self.piece(depth + 1) for _ in range(rng.randint(2, 3))]
            if rng.random() < 0.05:
                branches.append("")  # an empty branch is legal in Rust
            return "(?:" + "|".join(branches) + ")" if depth else "|".join(branches)
        if kind == "class":
            return rng.choice(CLASSES + PERL_CLASSES) + (self.quantifier() if rng.random() < 0.6 else "")
        if kind == "quantified":
            return self.atom() + self.quantifier()
        if kind == "anchored":
            body = rust_escape(self.literal())
            return rng.choice([f"^{body}", f"{body}$", f"\\A{body}", f"{body}\\z", "^$", f"^{body}$", "^", "$"])
        if kind == "boundary":
            body = rust_escape(self.literal())
            return rng.choice([f"\\b{body}\\b", f"\\b{body}", f"{body}\\b", f"\\B{body}", f"{body}\\B",
                               f"\\<{body}\\>", f"\\b{{start}}{body}", f"{body}\\b{{end}}"])
        if kind == "group":
            inner = self.piece(depth + 1)
            opener = rng.choice(["(", "(?:", "(?P<g>", "(?<g>"])
            group = f"{opener}{inner})"
            # Repeating a group is only safe when nothing inside it is unbounded already.
            if rng.random() < 0.3 and self.unbounded == 0 and not any(q in inner for q in "*+{"):
                group += self.quantifier(allow_unbounded=False)
            return group
        if kind == "flags":
            return self.flagged(depth)
        if kind == "run":
            return self.run()
        if kind == "dot":
            a, b = rust_escape(self.literal()), rust_escape(self.literal())
            if self.unbounded == 0 and rng.random() < 0.5:
                self.unbounded += 1
                return f"{a}.*{b}" if rng.random() < 0.5 else f"{a}.*?{b}"
            return f"{a}.{b}" if rng.random() < 0.5 else f"{a}.{{0,3}}{b}"
        codepoint = ord(rng.choice(self.literal() or "a"))
        return rng.choice([f"\\x{{{codepoint:x}}}", f"\\u{{{codepoint:X}}}", f"\\x{codepoint:02x}"
                           if codepoint < 0x80 else f"\\u{codepoint:04x}" if codepoint < 0x10000 else "\\pL"])

    def run(self) -> str:
        """Returns a class repeated into a run of 2-9 characters or more, which the candidate
        may look for as a run of bytes instead of scanning (search/class_run.py)."""
        rng = self.rng
        cls = rng.choice(CLASSES + PERL_CLASSES + (".",))
        low = rng.randint(2, 9)
        if self.unbounded == 0 and rng.random() < 0.5:
            self.unbounded += 1
            return f"{cls}{{{low},}}"
        return rng.choice([f"{cls}{{{low}}}", f"{cls}{{{low},{low + rng.randint(1, 4)}}}"])

    def flagged(self, depth: int) -> str:
        rng = self.rng
        body = self.piece(depth + 1)
        lit = rust_escape(self.literal())
        roll = rng.randrange(8)
        if roll == 0:
            return f"(?i){body}"
        if roll == 1:
            return f"{lit}(?i){body}"
        if roll == 2:
            return f"(?i:{lit}){body}"
        if roll == 3:
            return f"(?i){lit}(?-i){body}"
        if roll == 4:
            spaced = " ".join(lit) if "\\" not in lit else lit
            return f"(?x) {spaced} "
        if roll == 5:
            return f"(?s){lit}.{body}"
        if roll == 6:
            self.unbounded += 1
            return f"(?U){lit}\\w+" if self.unbounded == 1 else f"(?U){lit}\\w?"
        return f"(?is){body}"

    def multiline(self) -> str:
        """Returns a pattern meant for ``-U``: across a line break, or a dot that may cross one."""
        rng = self.rng
        line = rng.randrange(len(self.lines))
        first = self.lines[line]
        second = self.lines[(line + 1) % len(self.lines)]
        tail = rust_escape(first[-rng.randint(1, 4):]) if first else ""
        head = rust_escape(second[: rng.randint(1, 4)]) if second else ""
        return rng.choice([
            f"{tail}\\n{head}", f"{tail}\\r?\\n{head}", f"{tail}$\\n^{head}", f"(?s){tail}.{{0,12}}{head}",
            f"{tail}[\\s]{{1,3}}{head}", r"\n\n", r"^\n", r"\A" + head, tail + r"\n\z", tail + r"\z",
            f"(?-m)^{head}", f"{tail}\\s+{head}", f"{tail}[^x]{{0,40}}",
        ])

    def fixed(self) -> str:
        """Returns a ``-F`` pattern: literal text, often full of regex metacharacters."""
        rng = self.rng
        if rng.random() < 0.4:
            return rng.choice(META_WORDS + ("a.b", "(", ")", "[", "\\", "*", "a{", "$", "^", "|", ".*"))
        return self.literal()


# ---------------------------------------------------------------------------------------------
# Flags and roots
# ---------------------------------------------------------------------------------------------


def _pick(*spellings: str) -> Callable[[CaseDraft], tuple[Arg, ...]]:
    """Returns a builder choosing one of *spellings* (each may hold several space-separated args)."""
    return lambda draft: tuple(draft.rng.choice(spellings).split(" "))


def _context(draft: CaseDraft) -> tuple[Arg, ...]:
    rng = draft.rng
    def n() -> str:
        return str(rng.choice([0, 1, 1, 2, 3]))

    return rng.choice([("-C", n()), ("-A", n()), ("-B", n()), (f"-A{n()}", f"-B{n()}"),
                       (f"--context={n()}",), ("-C", n(), "-A", n())])


def _max_count(draft: CaseDraft) -> tuple[Arg, ...]:
    n = str(draft.rng.choice([0, 1, 1, 2, 3]))
    return draft.rng.choice([("-m", n), (f"--max-count={n}",), (f"-m{n}",)])


def _max_columns(draft: CaseDraft) -> tuple[Arg, ...]:
    n = str(draft.rng.choice([1, 3, 5, 8, 10, 20, 40, 100]))
    out: tuple[Arg, ...] = draft.rng.choice([("-M", n), (f"--max-columns={n}",)])
    if draft.rng.random() < 0.5:
        out += ("--max-columns-preview",)
    return out


CONTENT_FLAGS: tuple[FlagSpec, ...] = (
    FlagSpec("-n", 0.35, _pick("-n", "--line-number", "-N", "-n -N", "-N -n")),
    FlagSpec("-H", 0.15, _pick("-H", "--with-filename", "--no-filename", "-I")),
    FlagSpec("case", 0.4, _pick("-i", "-i", "-s", "-S", "-S", "--ignore-case", "--smart-case", "-i -s", "-S -i")),
    FlagSpec("-F", 0.12, _pick("-F", "--fixed-strings")),
    FlagSpec("-w/-x", 0.18, _pick("-w", "-w", "-x", "--word-regexp", "--line-regexp", "-w -x", "-x -w")),
    FlagSpec("-v", 0.1, _pick("-v", "--invert-match")),
    FlagSpec("mode", 0.38, _pick("-c", "--count", "--count-matches", "-l", "--files-with-matches",
                                 "--files-without-match", "--json", "--json", "--json", "-q", "-c --json")),
    FlagSpec("-o", 0.15, _pick("-o", "--only-matching")),
    FlagSpec("context", 0.18, _context),
    FlagSpec("-m", 0.1, _max_count),
    FlagSpec("-M", 0.12, _max_columns),
    FlagSpec("--column", 0.1, _pick("--column")),
    FlagSpec("-b", 0.1, _pick("-b", "--byte-offset")),
    FlagSpec("-U", 0.14, _pick("-U", "--multiline", "-U --multiline-dotall")),
    FlagSpec("--multiline-dotall", 0.03, _pick("--multiline-dotall")),
    FlagSpec("--crlf", 0.12, _pick("--crlf")),
    FlagSpec("-a", 0.08, _pick("-a", "--text")),
    FlagSpec("--include-zero", 0.06, _pick("--include-zero")),
    FlagSpec("--null", 0.06, _pick("--null", "-0")),
    # Reverse path order collects and sorts the files before searching them (rg's
    # HiArgs::sort); it overrides the runner's --sort path. Timestamp sorts are left out:
    # files written in one burst share times, and their order would then be the walk's.
    FlagSpec("--sortr", 0.05, _pick("--sortr path", "--sortr=path")),
)
"""The content-search flag table: each family is included independently with its probability."""

ROOT_KINDS = ("none", "dot", "file", "files", "many", "dir")
ROOT_WEIGHTS = (30, 12, 20, 16, 7, 15)
"""Roots: none (implicit ./), ``.``, one explicit file, 2-10 files (rg memory-maps those), more than
ten files (streamed again), or a directory."""

FLAT_FILES = ("a.txt", "b.txt", "c.log", "main.rs", "x.py", "README", "notes", "data.json", "foo", "Bar.md",
              "lib.js", "z.csv")


@dataclass(frozen=True)
class ContentCase(Case):
    """A content-search case: a :class:`~benchmarks.parity.walk_cases.Case` plus what it is made of."""

    patterns: tuple[str, ...] = ()
    content_kinds: tuple[str, ...] = ()
    """The kind of every content file (``lf``, ``crlf``, ``nul``, ``big+nul``, ...), in tree order."""
    edge: tuple[str, ...] = ()
    """Unicode-table edge characters in the haystack or the patterns (:func:`edge_reasons`)."""

    def to_shell(self) -> str:
        """Returns the bash replay script, naming the content generator's version."""
        script = super().to_shell().splitlines()
        script[1] = f"# shellfree parity case: {self.title} (content search, generator v{CONTENT_GENERATOR_VERSION})"
        return "\n".join(script)


def _flat_tree(rng: random.Random) -> GeneratedTree:
    """Returns a small tree without ignore files: a few files at the top and in one or two subdirs."""
    nodes: list = [Dir(WORK)]
    dirs, files = [WORK], []
    for name in rng.sample(FLAT_FILES, rng.randint(2, 7)):
        files.append(f"{WORK}/{name}")
    for sub in rng.sample(["sub", "src", "d e", "sub/deep"], rng.randint(0, 2)):
        if sub == "sub/deep" and f"{WORK}/sub" not in dirs:
            continue
        dirs.append(f"{WORK}/{sub}")
        nodes.append(Dir(f"{WORK}/{sub}"))
        files.extend(f"{WORK}/{sub}/{n}" for n in rng.sample(FLAT_FILES, rng.randint(1, 3)))
    nodes.extend(File(f) for f in files)
    names = sorted({p.rsplit("/", 1)[-1] for p in dirs[1:] + files})
    return GeneratedTree(Tree(tuple(nodes)), tuple(dirs), tuple(files), (), (), tuple(names))


def _fill(rng: random.Random, generated: GeneratedTree, edge: bool, extra: int) -> tuple[Tree, dict[str, Content]]:
    """Returns the tree with fresh contents in every regular file (FIFOs dropped: an explicit FIFO
    would block both commands) plus *extra* more files at the top, and the contents by path."""
    paths = [p for p in generated.files if any(isinstance(n, File) and n.path == p for n in generated.tree.nodes)]
    taken = {p.casefold() for p in paths}
    extra_nodes = []
    for i in range(extra):
        path = f"{WORK}/n{i:02d}.txt"
        if path.casefold() not in taken:
            paths.append(path)
            extra_nodes.append(File(path))
    big_one = rng.choice(paths) if paths and rng.random() < 0.07 else None
    contents = {p: draw_content(rng, edge, big=p == big_one) for p in paths}
    nodes = []
    for node in generated.tree.nodes + tuple(extra_nodes):
        if isinstance(node, Fifo):
            continue
        if isinstance(node, File) and node.path in contents:
            node = File(node.path, (contents[node.path].data,) if contents[node.path].data else ())
        nodes.append(node)
    return Tree(tuple(nodes)), contents


def _roots(rng: random.Random, kind: str, draft: CaseDraft, contents: dict[str, Content]) -> tuple[Arg, ...]:
    """Returns the roots of *kind* (one of :data:`ROOT_KINDS`), relative to the cwd."""
    files = [p for p in contents if p.startswith(WORK + "/")]
    # Files with a NUL are the interesting explicit roots (convert mode, mmap), so favour them.
    binary = [p for p in files if b"\x00" in contents[p].data]
    if kind == "none" or not files:
        return ()
    if kind == "dot":
        return (rng.choice([".", "./"]),)
    if kind == "dir":
        below = [d for d in draft.generated.dirs if d.startswith(draft.cwd + "/")]
        if not below:
            return (".",)
        rel = draft.rel(rng.choice(below))
        return (rng.choice([rel, rel + "/", "./" + rel]),)
    if kind == "file":
        pick = rng.choice(binary) if binary and rng.random() < 0.4 else rng.choice(files)
        return (draft.rel(pick),)
    count = rng.randint(2, 10) if kind == "files" else rng.randint(11, 14)
    chosen = rng.sample(files, min(count, len(files)))
    if binary and rng.random() < 0.5 and not set(binary) & set(chosen):
        chosen[rng.randrange(len(chosen))] = rng.choice(binary)
    return tuple(draft.rel(p) for p in chosen)


def _words(text: str) -> list[str]:
    out = []
    for chunk in text.replace("\r", " ").split():
        out.append(chunk)
        out.extend(piece for piece in chunk.replace(".", " ").replace("(", " ").replace(",", " ").split() if piece != chunk)
    return out


def _pattern_args(
    rng: random.Random, grammar: PatternGrammar, families: set[str]
) -> tuple[list[Arg], tuple[str, ...]]:
    """Returns the pattern arguments (positional, ``--`` form or ``-e`` list) and the patterns."""
    fixed = "-F" in families
    multiline = "-U" in families or "--multiline-dotall" in families

    def one() -> str:
        grammar.unbounded = 0
        roll = rng.random()
        if roll < 0.05:
            return rng.choice(INVALID_PATTERNS)
        if roll < 0.07:
            return ""
        if fixed:
            return grammar.fixed()
        if multiline and roll < 0.45:
            return grammar.multiline()
        if "-w/-x" in families and roll < 0.3:
            return rust_escape(rng.choice(grammar.lines))  # -x wants whole lines
        return grammar.piece()

    if rng.random() < 0.2:
        patterns = tuple(one() for _ in range(rng.randint(2, 3)))
        out: list[Arg] = []
        for pattern in patterns:
            out.extend(rng.choice([("-e", pattern), (f"--regexp={pattern}",), ("--regexp", pattern)]))
        return out, patterns
    pattern = one()
    if pattern.startswith("-"):
        return (["-e", pattern] if rng.random() < 0.5 else ["--", pattern]), (pattern,)
    return [pattern], (pattern,)


def content_case(seed: int, caps: FsCapabilities) -> ContentCase:
    """Returns the content-search case for *seed*: tree, contents, cwd, flags, pattern(s), roots."""
    rng = random.Random(seed)
    edge = rng.random() < 0.25
    generated = generate_work_tree(rng, caps) if rng.random() < 0.55 else _flat_tree(rng)
    draft = CaseDraft(rng, generated, draw_cwd(rng, generated), False)
    root_kind = rng.choices(ROOT_KINDS, weights=ROOT_WEIGHTS)[0]
    # More than ten explicit files need that many files; the generated trees often have fewer.
    extra = 12 if root_kind == "many" else 0
    tree, contents = _fill(rng, generated, edge, extra)
    draft.generated = GeneratedTree(tree, generated.dirs, tuple(contents), generated.symlinks,
                                    generated.ignore_files, generated.names)
    groups: list[tuple[Arg, ...]] = []
    families: list[str] = []
    for spec in CONTENT_FLAGS:
        if rng.random() < spec.probability:
            groups.append(spec.build(draft))
            families.append(spec.name)
    rng.shuffle(groups)
    flags: list[Arg] = [a for group in groups for a in group]
    texts = [c.text for c in contents.values()]
    literals = [w for t in texts for w in _words(t)]
    lines = [line for t in texts for line in t.splitlines() if line.strip()][:400]
    grammar = PatternGrammar(rng, literals, lines)
    pattern_args, patterns = _pattern_args(rng, grammar, set(families))
    roots = _roots(rng, root_kind, draft, contents)
    haystack = "".join(texts) + "".join(patterns)
    return ContentCase(
        seed=seed,
        tree=tree,
        invocation=Invocation((*flags, *pattern_args, *roots), draft.cwd),
        mode="search",
        flag_families=tuple(families),
        roots=roots,
        patterns=patterns,
        content_kinds=tuple(c.kind for c in contents.values()),
        edge=edge_reasons(haystack),
    )
