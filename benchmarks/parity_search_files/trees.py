"""Random source-like trees for search_files parity cases, as :class:`benchmarks.parity.trees.Tree`.

The walker harness's trees (``benchmarks/parity/trees.py``) stress names and ignore rules but
hold almost no text; search_files needs content: words in several casings, regex
metacharacters, secrets for redaction, long lines for the column and content clamps, CRLF,
UTF-16 and legacy-encoded files, binary files, context-line look-alikes (``a-12-b``), hidden
and ignored files for the probes, and a Hermes home whose files must be filtered. Everything is
drawn from ``random.Random(seed)``, so a seed always gives the same tree.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from benchmarks.parity.trees import Dir, File, Node, Tree

__all__ = ["HERMES_HOME", "SearchTree", "VOCABULARY", "generate_search_tree"]

HERMES_HOME = "hermes"
"""The tree's fake Hermes home (passed as ``hermes_home``), so deny-list filtering happens."""

VOCABULARY = (
    "alpha", "Alpha", "ALPHA", "beta", "gamma", "delta", "needle", "Needle", "foo", "bar",
    "baz", "TODO", "FIXME", "def", "class", "return", "import", "print(x)", "a.b", "f(x)",
    "[i]", "x*y", "a+b", "$HOME", "^start", "end$", "path\\to", "{k}", "a|b", "q?", "error",
    "Error", "warning", "café", "日本語", "naïve", "x-12-y", "a:1:b", "--flag", "ÉTÉ",
)
"""Words the content and the patterns are drawn from."""

SECRETS = (
    "api_key = sk-proj-abcdefghij0123456789", "token: ghp_ABCDEFGHIJ0123456789abcd",
    "aws = AKIAABCDEFGHIJKLMNOP", "call +15551234567", "password=hunter2",
    "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
    "Authorization: Bearer abcdefghijklmnopqrstuvwxyz",
)

HIDDEN_WORDS = ("hiddenword", "ignoredword", "Secretive")
"""Words that only ever appear in hidden or ignored files (the hidden/ignored probe)."""

DIRS = ("src", "src/pkg", "lib", "docs", "tests", "a b", "data", "build", "vendor",
        "node_modules/mod", ".hidden", ".cache", "gen")
FILE_NAMES = ("main.py", "util.py", "README.md", "notes.txt", "config.yaml", "app.js",
              "Index.HTML", "data.json", "space name.txt", "café.md", "x.log", "Makefile",
              "CHANGES.TXT", "test_x.py", "mod.rs")


@dataclass(frozen=True)
class SearchTree:
    """A generated tree and what the case generator needs to know about it."""

    tree: Tree
    dirs: tuple[str, ...]
    files: tuple[str, ...]
    words: tuple[str, ...]
    """Words that occur in some visible file (literal patterns are drawn from these)."""
    binary: tuple[str, ...] = ()
    """Files that hold a NUL (named as a root, rg prints a notice for them, not lines)."""


def _line(rng: random.Random, words: list[str]) -> str:
    roll = rng.random()
    if roll < 0.04:
        return rng.choice(SECRETS)
    if roll < 0.06:
        return "".join(rng.choice("xyz ") for _ in range(rng.choice([600, 2100, 2600])))
    if roll < 0.08:
        return ""
    count = rng.randint(1, 8)
    chosen = [rng.choice(VOCABULARY) for _ in range(count)]
    words.extend(chosen)
    indent = rng.choice(["", "", "    ", "\t"])
    trailing = rng.choice(["", "", "", "  "])
    return indent + " ".join(chosen) + trailing


def _text_file(rng: random.Random, words: list[str]) -> bytes:
    lines = [_line(rng, words) for _ in range(rng.randint(0, 14))]
    newline = "\r\n" if rng.random() < 0.08 else "\n"
    text = newline.join(lines)
    if lines and rng.random() < 0.85:
        text += newline
    kind = rng.random()
    if kind < 0.04:
        return "\ufeff".encode("utf-16-le") + text.encode("utf-16-le")
    if kind < 0.08:
        return text.encode("cp1252", "replace")
    if kind < 0.11:
        return text.encode() + b"\x00binary tail\n"
    return text.encode()


def generate_search_tree(seed: int) -> SearchTree:
    """Returns the tree for *seed*, rooted at the case directory (no ``work/`` prefix)."""
    rng = random.Random(seed)
    nodes: list[Node] = []
    words: list[str] = []
    dirs = ["."] + sorted(rng.sample(DIRS, rng.randint(3, len(DIRS))))
    files: list[str] = []
    binary: list[str] = []
    for directory in dirs:
        if directory != ".":
            nodes.append(Dir(directory))
        for name in rng.sample(FILE_NAMES, rng.randint(1, 4)):
            path = name if directory == "." else f"{directory}/{name}"
            hidden = directory.startswith(".") or directory in ("build", "gen")
            visible_words: list[str] = []
            content = _text_file(rng, visible_words)
            if hidden or name == "x.log":
                content += f"{rng.choice(HIDDEN_WORDS)} here\n".encode()
            else:
                words.extend(visible_words)
            nodes.append(File(path, (content,)))
            files.append(path)
            if b"\0" in content:
                binary.append(path)
    # Ignore rules (a .git directory makes .gitignore apply) and secret-bearing files.
    nodes.append(Dir(".git"))
    nodes.append(File(".gitignore", (b"*.log\nbuild/\n",)))
    nodes.append(File(".ignore", (b"gen/\n",)))
    nodes.append(File(".env", (b"TOKEN=abcdef0123456789abcdef needle\n",)))
    nodes.append(File(".env.example", (b"TOKEN=changeme needle\n",)))
    nodes.append(File("src/.env.local", (b"alpha=1 needle\n",)))
    nodes.append(File(f"{HERMES_HOME}/mcp-tokens/t.json", (b'{"token": "needle alpha"}\n',)))
    nodes.append(File(f"{HERMES_HOME}/auth.json", (b'{"alpha": "needle"}\n',)))
    nodes.append(File(f"{HERMES_HOME}/notes.md", (b"needle alpha notes\n",)))
    return SearchTree(Tree(tuple(nodes)), tuple(dirs), tuple(files),
                      tuple(sorted(set(words))), tuple(binary))
