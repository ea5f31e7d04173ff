"""Generate the two single-file corpora, big.txt and minified.js, deterministically from a seed.

Only ``random.Random(seed).random()`` is used (the Mersenne Twister stream is the same on every
Python version), so a given recipe always produces the same bytes; the sha256 is pinned in the
recipe to notice when the generator itself changes.

Lines are drawn from a pool of realistic-looking source and prose lines, weighted so that the
benchmark queries (``return``, ``-i unicode``, ``TODO|FIXME|XXX|HACK``, ``\\w+Error``) find
typical amounts, and the recipe's rare literal is planted on exactly ``rare_lines`` lines.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class FileRecipe:
    """How to generate one single-file corpus.

    *kind* is ``"text"`` (one line per pool entry) or ``"minified"`` (a few very long lines of
    ``;``-joined statements); *target_bytes* the approximate size; *rare_literal* is planted on
    exactly *rare_lines* lines; *expected_sha256* is the digest this recipe produced when pinned
    (empty: not pinned yet).
    """

    filename: str
    kind: str
    seed: int
    target_bytes: int
    rare_literal: str
    rare_lines: int
    long_lines: int = 0
    generator_version: int = 1
    expected_sha256: str = ""


BIG_TXT = FileRecipe(
    filename="big.txt",
    kind="text",
    seed=20251130,
    target_bytes=200_000_000,
    rare_literal="reconcile_orphaned_leases",
    rare_lines=7,
    expected_sha256="1d782727302e4a835a42d62cfac88a534d40f32f193221c83647408cb21aac62",
)
MINIFIED_JS = FileRecipe(
    filename="minified.js",
    kind="minified",
    seed=19700101,
    target_bytes=70_000_000,
    rare_literal="reconcileOrphanedLeases",
    rare_lines=5,
    long_lines=36,
    expected_sha256="fde1bd95cb1d36fdf435b0e2b9f073ba9242fa877b66ed177c25bd5878086b70",
)

# None of these words (nor any pair of them) can spell a rare literal, so the only hits are planted.
WORDS = (
    "user config value data index buffer request response handler cache token stream path node tree item "
    "list key count size offset parser result state event message context client server module field record "
    "table query filter option setting entry source target block frame batch queue worker thread lock timer "
    "limit scope session header payload schema format encoder decoder reader writer file line column name "
    "label type kind mode flag status retry policy metric sample window region zone host port address route "
    "channel socket signal job task plan step stage phase group member owner role account tenant project "
    "branch commit patch diff version release build artifact package image layer volume mount device driver "
    "kernel memory page chunk slice range bound width height depth color style theme layout widget view model"
).split()
CLASS_SUFFIXES = ("Manager", "Handler", "Factory", "Service", "Client", "Config", "Builder", "Reader", "Parser")
ERROR_SUFFIXES = ("Error", "Error", "Exception", "Warning")
COMMENT_TAGS = ("TODO", "FIXME", "XXX", "HACK", "NOTE")
UNICODE_WORDS = ("unicode", "Unicode", "UNICODE", "UnicodeDecodeError", "unicode_escape")


class _Gen:
    """Word and line factory over one seeded stream (``random()`` only)."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed).random

    def pick(self, seq: Sequence[str]) -> str:
        return seq[int(self.random() * len(seq))]

    def ident(self) -> str:
        return "_".join(self.pick(WORDS) for _ in range(1 + int(self.random() * 3)))

    def camel(self, suffixes: tuple[str, ...] = CLASS_SUFFIXES) -> str:
        parts = [self.pick(WORDS).capitalize() for _ in range(1 + int(self.random() * 2))]
        return "".join(parts) + self.pick(suffixes)

    def sentence(self) -> str:
        words = [self.pick(WORDS) for _ in range(5 + int(self.random() * 12))]
        if self.random() < 0.03:
            words[int(self.random() * len(words))] = self.pick(UNICODE_WORDS)
        return " ".join(words)

    def text_line(self) -> str:
        """One line of source code, a comment or prose; weights give ~10% ``return``, ~3% ``…Error``."""
        r = self.random()
        ind = "    " * int(self.random() * 4)
        a, b, f = self.ident(), self.ident(), self.ident()
        if r < 0.06:
            return ""
        if r < 0.16:
            return f"{ind}return {a}.{f}({b})" if self.random() < 0.7 else f"{ind}return {a};"
        if r < 0.19:
            return f'{ind}raise {self.camel(ERROR_SUFFIXES)}("{self.sentence()}")'
        if r < 0.205:
            return f"{ind}except {self.camel(ERROR_SUFFIXES)} as exc:"
        if r < 0.21:
            return f"{ind}# {self.pick(COMMENT_TAGS)}: {self.sentence()}"
        if r < 0.27:
            return f"{ind}# {self.sentence()}"
        if r < 0.33:
            return f"{ind}def {f}(self, {a}, {b}=None):"
        if r < 0.42:
            return f'{ind}{a} = {b}.get("{self.pick(WORDS)}", {int(self.random() * 1000)})'
        if r < 0.48:
            return f"{ind}if {a} is None or {b} > {int(self.random() * 64)}:"
        if r < 0.54:
            return f"{ind}for {a} in {b}.{f}():"
        if r < 0.61:
            return f"{ind}const {self.pick(WORDS)}{self.pick(WORDS).capitalize()} = {a}.{f}({b});"
        if r < 0.66:
            return f"{ind}int {self.pick(WORDS)}_{self.pick(WORDS)} = {a}[{int(self.random() * 256)}];"
        if r < 0.71:
            return f"{ind}self.{a} = {self.camel()}({b})"
        if r < 0.75:
            return f"from {self.pick(WORDS)}.{self.pick(WORDS)} import {self.camel()}"
        if r < 0.79:
            return f'{ind}log.debug("{self.sentence()} %s", {a})'
        if r < 0.83:
            return f"{ind}}}" if self.random() < 0.5 else f"{ind}/* {self.sentence()} */"
        return self.sentence().capitalize() + "."

    def js_statement(self) -> str:
        """One minified statement or expression, with short identifiers as a minifier leaves them."""
        r = self.random()
        v = "abcdefghijklmnopqrstuvwxyz"
        a, b, c = self.pick(v), self.pick(v), self.pick(v) + str(int(self.random() * 10))
        name = self.pick(WORDS) + self.pick(WORDS).capitalize()
        if r < 0.2:
            return f"function {c}({a},{b}){{return {a}.{name}({b})}}"
        if r < 0.3:
            return f'if(!{a})throw new {self.camel(ERROR_SUFFIXES)}("{self.sentence()}")'
        if r < 0.45:
            return f"var {c}={a}.{name}||{{}},{b}={a}.length"
        if r < 0.55:
            return f"for(var {a}=0;{a}<{b}.length;{a}++){c}+={b}[{a}]"
        if r < 0.65:
            return f"{a}.prototype.{name}=function({b}){{return this.{self.pick(WORDS)}={b},this}}"
        if r < 0.72:
            return f"{a}[\"{self.pick(WORDS)}\"]='{self.sentence()}'"
        if r < 0.73:
            return f'{a}.note="{self.pick(COMMENT_TAGS)} {self.sentence()}"'
        if r < 0.85:
            return f"{c}=function({a}){{return {a}?{a}.{name}:null}}"
        return f"{a}={b}?{c}:{int(self.random() * 99999)}"


def generate(recipe: FileRecipe, out: Path) -> None:
    """Write the file described by *recipe* to *out* (overwriting it)."""
    if recipe.kind == "text":
        _generate_text(recipe, out)
    elif recipe.kind == "minified":
        _generate_minified(recipe, out)
    else:
        raise ValueError(f"unknown recipe kind {recipe.kind!r}")


def _generate_text(recipe: FileRecipe, out: Path) -> None:
    gen = _Gen(recipe.seed)
    # A pool, then draws from it: per-line generation of ~6 M lines would take a minute of Python.
    pool = [gen.text_line().encode() for _ in range(60_000)]
    mean = sum(len(line) + 1 for line in pool) / len(pool)
    expected_lines = int(recipe.target_bytes / mean)
    # Plant in the first 90% so that the planted lines are always written before the size is reached.
    rare_at = {int(gen.random() * expected_lines * 0.9) for _ in range(recipe.rare_lines)}
    if len(rare_at) != recipe.rare_lines:
        raise ValueError("rare-line positions collided; change the seed")
    rare = recipe.rare_literal
    written = 0
    lineno = 0
    with open(out, "wb") as fh:
        while written < recipe.target_bytes:
            chunk = []
            for _ in range(100_000):
                if lineno in rare_at:
                    line = f"    return {rare}(self.{gen.ident()}, now=None)".encode()
                else:
                    line = pool[int(gen.random() * len(pool))]
                chunk.append(line)
                lineno += 1
            data = b"\n".join(chunk) + b"\n"
            fh.write(data)
            written += len(data)


def _generate_minified(recipe: FileRecipe, out: Path) -> None:
    gen = _Gen(recipe.seed)
    pool = [gen.js_statement().encode() for _ in range(30_000)]
    # Line lengths skewed towards short: most lines a few hundred KB to ~1 MB, a few of several MB.
    weights = [0.05 + gen.random() ** 3 for _ in range(recipe.long_lines)]
    sizes = [int(w / sum(weights) * recipe.target_bytes) for w in weights]
    rare_rows: set[int] = set()
    while len(rare_rows) < recipe.rare_lines:
        rare_rows.add(int(gen.random() * recipe.long_lines))
    with open(out, "wb") as fh:
        for row, size in enumerate(sizes):
            parts: list[bytes] = []
            length = 0
            plant_at = int(gen.random() * size) if row in rare_rows else -1
            while length < size:
                if plant_at >= 0 and length >= plant_at:
                    part = f"function {recipe.rare_literal}(a,b){{return a.filter(b)}}".encode()
                    plant_at = -1
                else:
                    part = pool[int(gen.random() * len(pool))]
                parts.append(part)
                length += len(part) + 1
            fh.write(b";".join(parts) + b"\n")
