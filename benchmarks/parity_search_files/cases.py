"""Random search_files calls on a generated tree, drawn from ``random.Random(seed)``.

Each case is the argument object an agent would send, plus how many times it is sent in a row
(to reach the loop guard). The draws aim at every branch of the contract: literal, regex,
case-variant (the ``-i`` probe), hidden-only (the hidden probe), metacharacter (the literal
probe), multiline, invalid and empty patterns; missing, multi-root, file and absolute paths;
every target, output mode and order, context, odd pagination values and globs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from benchmarks.parity_search_files.trees import HIDDEN_WORDS, VOCABULARY, SearchTree

__all__ = ["Case", "draw_case"]

REGEXES = (r"\balpha\b", r"fo+", r"\d+", r"[A-Z]\w+", r"^def", r"y$", r"a|b", r"(?i)needle",
           r"\w+\(x\)", r"é", r"\s{4}\w", r"[[:upper:]]{3}", r"\p{Han}+", r".", r"^$",
           # Runs of bytes from one set (search/class_run.py): alone, and instead of "_".
           r"[a-z]{6,}", r"\w{10,}", r"[0-9a-f]{4,}", r".{40,}", r"[A-Z]+_[A-Z]+")
METACHARACTER_LITERALS = ("print(x)", "f(x)", "a.b", "[i]", "x*y", "a+b", "q?", "{k}", "a|b",
                          "$HOME", "path\\to", "end$", "^start")
MULTILINE = (r"alpha\nbeta", r"return\n", "foo\nbar", r"\n\n", r"needle\\n")
INVALID = ("(", "[a-", "a{2,1}", "*x", "\\")
FILE_PATTERNS = ("*.py", "main.py", "*.md", "config", "**/util.py", "src/*.py", "*", "",
                 "*.{py,md}", "[", "café*", ".env", "README*", "*.TXT", "Makefile", "x.log",
                 "pkg/", "*.json")
GLOBS = ("*.py", "*.md", "!*.txt", "src/**", "*.{py,js}", "*.TXT", "**/pkg/*", "[")
PATHS = ("src", "./src", "src/pkg", "a b", "docs", "lib/", ".hidden", "build", "node_modules",
         "srcc", "nope", "src, lib", "src lib nope", "docs,missing,other", "README.md",
         "src/main.py", "hermes", "hermes/mcp-tokens", ".env", "~/nothing", "-dash")


@dataclass(frozen=True)
class Case:
    """One parity case: the tree seed, the arguments, and how many times they are sent."""

    seed: int
    tree_seed: int
    args: dict[str, Any] = field(hash=False)
    repeat: int = 1


def _pattern(rng: random.Random, tree: SearchTree) -> str:
    words = list(tree.words) or list(VOCABULARY)
    kind = rng.choices(
        ["word", "case", "regex", "meta", "hidden", "multiline", "invalid", "absent", "empty",
         "secret", "dash", "unicode"],
        weights=[30, 10, 15, 10, 8, 5, 3, 5, 2, 5, 2, 5])[0]
    if kind == "word":
        return rng.choice(words)
    if kind == "case":
        word = rng.choice([w for w in words if w.isalpha()] or ["alpha"])
        return rng.choice([word.upper(), word.lower(), word.swapcase(), word.title()])
    if kind == "regex":
        return rng.choice(REGEXES)
    if kind == "meta":
        return rng.choice(METACHARACTER_LITERALS)
    if kind == "hidden":
        word = rng.choice(HIDDEN_WORDS)
        return rng.choice([word, word.upper()])
    if kind == "multiline":
        return rng.choice(MULTILINE)
    if kind == "invalid":
        return rng.choice(INVALID)
    if kind == "absent":
        return rng.choice(["zzzqqq", "Zzzqqq", "no.such(thing)"])
    if kind == "empty":
        return ""
    if kind == "secret":
        return rng.choice(["sk-", "ghp_", "token", "password", "AKIA", "eyJ", "Bearer", "+1555"])
    if kind == "dash":
        return rng.choice(["-12-", "--flag", "-x"])
    return rng.choice(["日本", "é", "ÉTÉ", "naïve", "CAFÉ"])


def _path(rng: random.Random, tree: SearchTree) -> str | None:
    roll = rng.random()
    if roll < 0.45:
        return rng.choice([".", ".", None, "", "./"])
    if roll < 0.65:
        return rng.choice([d for d in tree.dirs if d != "."] or ["."])
    if roll < 0.75:
        return rng.choice(tree.files)
    if roll < 0.79 and tree.binary:
        # A binary file among the roots: rg prints a notice line for it, which the parsing
        # must not read as the start of the next root's rows.
        return f"{rng.choice(tree.binary)},{rng.choice(tree.files)}"
    if roll < 0.82:
        return "@ROOT@"  # replaced by the absolute root at run time
    return rng.choice(PATHS)


def draw_case(seed: int, tree_seed: int, tree: SearchTree) -> Case:
    """Returns the case for *seed* on *tree* (which :func:`generate_search_tree` made from
    *tree_seed*)."""
    rng = random.Random(seed)
    target = rng.choices(["content", "files", "grep", "find", None], weights=[62, 25, 4, 4, 5])[0]
    args: dict[str, Any] = {}
    if target in ("files", "find"):
        args["pattern"] = rng.choice(FILE_PATTERNS)
    else:
        args["pattern"] = _pattern(rng, tree)
    if target is not None:
        args["target"] = target
    path = _path(rng, tree)
    if path is not None:
        args["path"] = path
    if rng.random() < 0.25:
        args["file_glob"] = rng.choice(GLOBS)
    if rng.random() < 0.6:
        args["limit"] = rng.choice([1, 2, 3, 5, 10, 20, 50, 100, "bad", 0, -1, "7"])
    if rng.random() < 0.35:
        args["offset"] = rng.choice([0, 1, 2, 5, 10, 30, "x", -3, "4"])
    if rng.random() < 0.4:
        args["output_mode"] = rng.choices(["content", "files_only", "count", "weird"],
                                          weights=[40, 30, 25, 5])[0]
    if rng.random() < 0.2:
        args["context"] = rng.choice([1, 2, 3, 0, "2"])
    if rng.random() < 0.3:
        args["order"] = rng.choices(["discovery", "modified", "bogus"], weights=[40, 50, 10])[0]
    repeat = rng.choices([1, 3, 4], weights=[90, 5, 5])[0]
    return Case(seed=seed, tree_seed=tree_seed, args=args, repeat=repeat)
