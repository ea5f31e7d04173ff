"""Draw gitignore-style rule lines and ``--glob`` values from a small random grammar.

Everything here is a pure function of a ``random.Random`` and the names that exist in the tree, so
a case seed always yields the same ignore files and globs. The grammar deliberately produces the
awkward corners of rg-semantics.md §1.5/§1.6 (escapes, classes that match ``/``, braces, CRLF, a BOM,
invalid UTF-8, invalid globs) next to ordinary rules.
"""

from __future__ import annotations

import random
import unicodedata
from typing import Callable, Sequence

GLOB_META = frozenset("*?[]{}\\")
"""Characters that are special inside a glob and need a backslash to be literal."""

UNICODE_LITERALS = (
    unicodedata.normalize("NFC", "café"),
    unicodedata.normalize("NFD", "café"),
    "TopÑapa",
    "日本.txt",
)
"""Non-ASCII literals, in both normal forms: a rule in one form must not match a name in the other."""

EXTENSIONS = ("txt", "log", "rs", "md", "TXT", "py", "json")


def usable_names(names: Sequence[str]) -> list[str]:
    """Returns *names* minus those that cannot be written as UTF-8 text (non-UTF-8 file names).

    A rule built from such a name would be an invalid-UTF-8 line, which truncates the whole file;
    that case is generated on purpose elsewhere, so ordinary rules avoid it.
    """
    return [n for n in names if n and _is_utf8(n)]


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def escape_literal(name: str) -> str:
    """Returns *name* escaped so that a gitignore rule or glob matches exactly that name."""
    out = "".join("\\" + c if c in GLOB_META else c for c in name)
    if out[:1] in ("!", "#"):
        out = "\\" + out
    if out.endswith(" "):
        # rg: only a backslash before the final space keeps trailing spaces (§1.5 step 3).
        out = out[:-1] + "\\ "
    return out


def _name(rng: random.Random, names: Sequence[str]) -> str:
    """Returns one literal, escaped most of the time and raw sometimes (raw meta chars are a case too)."""
    pool = list(names) or ["a.txt"]
    if rng.random() < 0.15:
        pool = list(UNICODE_LITERALS)
    name = rng.choice(pool)
    return escape_literal(name) if rng.random() < 0.7 else name


def _class_for(rng: random.Random, ch: str) -> str:
    """Returns a bracket class that may or may not match *ch*."""
    other = rng.choice("abcxyz.")
    options = [
        f"[{ch}{other}]",
        f"[!{other}]",
        f"[^{ch}]",
        f"[{min(ch, other)}-{max(ch, other)}]",
        "[]]",
        "[!]]",
        "[a-c]",
        f"[{ch}-]",
    ]
    if ch in "[]\\!^-":
        # No escapes inside brackets (§1.6): keep these readable and let the grammar try them raw.
        options.append(f"[{ch}]")
    return rng.choice(options)


def _body_name(rng: random.Random, names: Sequence[str], paths: Sequence[str]) -> str:
    return _name(rng, names)


def _body_path(rng: random.Random, names: Sequence[str], paths: Sequence[str]) -> str:
    nested = [p for p in paths if "/" in p]
    if not nested:
        return _name(rng, names)
    parts = rng.choice(nested).split("/")
    return "/".join(escape_literal(p) for p in parts)


def _body_wild(rng: random.Random, names: Sequence[str], paths: Sequence[str]) -> str:
    name = rng.choice(list(names) or ["a.txt"])
    choice = rng.randrange(8)
    if choice == 0:
        return "*"
    if choice == 1:
        return "?"
    if choice == 2:
        return "*." + rng.choice(EXTENSIONS)
    if choice == 3 and len(name) > 1:
        return escape_literal(name[: rng.randrange(1, len(name))]) + "*"
    if choice == 4 and len(name) > 1:
        wide = [j for j, c in enumerate(name) if ord(c) > 0x7F]
        # rg 15.1: `?` matches one byte, not one character (`caf?` misses `café`, hits `caf\xff`);
        # aiming `?` at a non-ASCII char checks that.
        i = rng.choice(wide) if wide and rng.random() < 0.6 else rng.randrange(len(name))
        return escape_literal(name[:i]) + "?" + escape_literal(name[i + 1 :])
    if choice == 5:
        return "*" + escape_literal(name[-2:])
    if choice == 6:
        return ".*"
    return escape_literal(name[:1]) + "*" + escape_literal(name[-1:])


def _body_double_star(rng: random.Random, names: Sequence[str], paths: Sequence[str]) -> str:
    name = escape_literal(rng.choice(list(names) or ["a"]))
    nested = [p.split("/") for p in paths if "/" in p]
    choice = rng.randrange(8)
    if choice == 0:
        return "**"
    if choice == 1:
        return "**/" + name
    if choice == 2:
        return name + "/**"
    if choice == 3 and nested:
        parts = rng.choice(nested)
        return escape_literal(parts[0]) + "/**/" + escape_literal(parts[-1])
    if choice == 4:
        return name[:1] + "**" + name[-1:]  # r1098: `**` inside a component acts like `*`
    if choice == 5:
        return "**/*." + rng.choice(EXTENSIONS)
    if choice == 6:
        return rng.choice(["***", "**/", "*/", "**/**/*", "**/*"])
    return name + "/*"


def _body_class(rng: random.Random, names: Sequence[str], paths: Sequence[str]) -> str:
    nested = [p.split("/") for p in paths if "/" in p]
    if nested and rng.random() < 0.2:
        parts = rng.choice(nested)
        # rg: a class can match `/` (§1.5 table "a[/]c"), git's cannot.
        return escape_literal(parts[0]) + "[/]" + escape_literal("/".join(parts[1:]))
    name = rng.choice(list(names) or ["abc"])
    i = rng.randrange(len(name))
    return escape_literal(name[:i]) + _class_for(rng, name[i]) + escape_literal(name[i + 1 :])


def _body_brace(rng: random.Random, names: Sequence[str], paths: Sequence[str]) -> str:
    pool = list(names) or ["a", "b"]
    choice = rng.randrange(4)
    if choice == 0:
        return "*.{" + ",".join(rng.sample(EXTENSIONS, 2)) + "}"
    if choice == 1:
        return "{" + escape_literal(rng.choice(pool)) + "," + escape_literal(rng.choice(pool)) + "}"
    if choice == 2:
        return "{" + escape_literal(rng.choice(pool)) + ",}"  # empty alternatives are dropped
    return "{" + escape_literal(rng.choice(pool)) + ",{x,y}}"  # nested braces (15.x)


DEGENERATE_BODIES = (
    "", "/", "//", "{}", "{,}", "[]", "[!]", "[^]", "[a-]", "[-a]", "[]-a]", "**/", "*/", "/**", "*/**",
    "**/**", "\\", "\\\\", "./", ".", "..",
)
"""Bodies at the edges of the grammar: empty after processing, only separators, empty alternations,
odd classes. (`/` alone once crashed the candidate; they stay in the mix so such bugs stay found.)"""


def _body_degenerate(rng: random.Random, names: Sequence[str], paths: Sequence[str]) -> str:
    name = escape_literal(rng.choice(list(names) or ["a"]))
    return rng.choice([*DEGENERATE_BODIES, f"./{name}", f"{name}//", f"{name}/./", f"/./{name}", f"{name}/.."])


def _body_unclosed(rng: random.Random, names: Sequence[str], paths: Sequence[str]) -> str:
    # r3127: an unclosed `[` is a literal in ignore files but a fatal error in `-g`.
    return "[" + escape_literal(rng.choice(list(names) or ["abc"]))


BODY_KINDS: tuple[tuple[Callable[[random.Random, Sequence[str], Sequence[str]], str], int], ...] = (
    (_body_name, 30),
    (_body_path, 12),
    (_body_wild, 18),
    (_body_double_star, 12),
    (_body_class, 10),
    (_body_brace, 6),
    (_body_unclosed, 2),
    (_body_degenerate, 3),
)
"""Rule-body generators and their weights (weights are relative, not percentages)."""


def random_body(
    rng: random.Random, names: Sequence[str], paths: Sequence[str], *, allow_unclosed: bool = True
) -> str:
    """Returns a rule body (no `!`, no anchoring `/`, no trailing `/`) built from *names*/*paths*.

    *allow_unclosed* (bool) is whether an unclosed ``[`` may be produced; it is false for ``-g``
    values, where that is a fatal error that :func:`glob_value` produces on its own, rarely.
    """
    names = usable_names(names)
    paths = usable_names(paths)
    kinds = [(g, w) for g, w in BODY_KINDS if allow_unclosed or g is not _body_unclosed]
    generators, weights = zip(*kinds)
    return rng.choices(generators, weights=weights)[0](rng, names, paths)


def ignore_line(rng: random.Random, names: Sequence[str], paths: Sequence[str]) -> str:
    """Returns one line of an ignore file (without its line terminator)."""
    roll = rng.random()
    if roll < 0.05:
        return rng.choice(["", "  ", "\t"])  # blank lines, with whitespace that must be trimmed
    if roll < 0.09:
        return "#" + rng.choice(usable_names(names) or ["comment"])  # a comment that looks like a rule
    if roll < 0.12:
        return rng.choice(["\\!", "\\#"]) + rng.choice(usable_names(names) or ["x"])
    if roll < 0.14:
        return " " + rng.choice(usable_names(names) or ["x"])  # a leading space is literal
    body = random_body(rng, names, paths)
    if rng.random() < 0.15:
        body = "/" + body
    if rng.random() < 0.15:
        body += rng.choice(["/", "/", "\\/"])  # r2236: an escaped trailing slash is dir-only too
    if rng.random() < 0.25:
        body = "!" + body
    if rng.random() < 0.08:
        body += rng.choice([" ", "  ", "\t", " \t", "\\ "])
    return body


def ignore_file_content(rng: random.Random, names: Sequence[str], paths: Sequence[str]) -> bytes:
    """Returns the bytes of a whole ignore file: a few lines plus rare file-level oddities.

    Oddities: CRLF endings, a UTF-8 BOM, a missing final newline, an invalid-UTF-8 line (which drops
    it and every later line), and an invalid glob (warned about on stderr, other rules kept).
    """
    lines = [ignore_line(rng, names, paths).encode("utf-8") for _ in range(rng.randint(1, 6))]
    if rng.random() < 0.06:
        bad = rng.choice([b"[z-a]", b"foo\\", b"a[z-a]b", b"{a,b"])
        lines.insert(rng.randrange(len(lines) + 1), bad)
    if rng.random() < 0.05:
        lines.insert(rng.randrange(len(lines) + 1), rng.choice([b"bad\xff", b"caf\xe9", b"\x80"]))
    newline = b"\r\n" if rng.random() < 0.12 else b"\n"
    data = newline.join(lines)
    if rng.random() < 0.8:
        data += newline
    if rng.random() < 0.08:
        data = b"\xef\xbb\xbf" + data
    return data


def glob_value(rng: random.Random, names: Sequence[str], paths: Sequence[str]) -> str:
    """Returns one ``-g``/``--iglob`` value: usually a valid glob, rarely a comment or a fatal error."""
    roll = rng.random()
    if roll < 0.03:
        return "#" + rng.choice(usable_names(names) or ["x"])  # silently ignored by rg (§1.6)
    if roll < 0.05:
        return rng.choice(["[abc", "a[z-a]", "x\\"])  # fatal glob errors: exit 2 before walking
    body = random_body(rng, names, paths, allow_unclosed=False)
    if rng.random() < 0.12:
        body = "/" + body
    if rng.random() < 0.12:
        body += "/**"
    elif rng.random() < 0.05:
        body += "/"
    if rng.random() < 0.35:
        body = "!" + body
    if rng.random() < 0.04:
        body += " "
    return body
