"""The benchmark's corpora (where each command runs) and queries (the flags every tool gets).

Each query is given to every tool with identical arguments; only the program prefix differs
(``rg``, ``rg -j1``, ``python -m shellfree rg``). The rare literal is chosen per corpus so that it
really is rare: the counts in ``RARE_LITERALS`` were checked with rg 15.1.0 on the pinned corpora.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from benchmarks.speed import corpora, synthetic


@dataclass(frozen=True, slots=True)
class Corpus:
    """Where the commands of one corpus run.

    *cwd* is the working directory; *paths* the path arguments appended after the query (empty
    for trees: rg then searches ``./`` and prints paths without a ``./`` prefix); *tree* says
    whether ``--files`` is meaningful; *rare* is the corpus's rare literal.
    """

    name: str
    cwd: Path
    paths: tuple[str, ...]
    tree: bool
    rare: str


@dataclass(frozen=True, slots=True)
class Query:
    """One query: its short *name* (a table column) and the *args* every tool gets, before the paths."""

    name: str
    args: tuple[str, ...]


RARE_LITERALS: dict[str, str] = {
    "medium": "decrypt_and_get_vault_id",  # 6 lines in ansible-core 2.17.7
    "large": "disable_passthrough_idempotency_result",  # 4 lines in ansible 9.13.0 + Django 5.0.6
    "big": synthetic.BIG_TXT.rare_literal,  # planted on 7 lines
    "minified": synthetic.MINIFIED_JS.rare_literal,  # planted on 5 lines
}

QUERY_NAMES = ("rare", "common", "icase", "alt", "word", "noliteral", "files")
#: Queries run only when named in ``--queries``.
EXTRA_QUERY_NAMES = ("output",)


def corpus(name: str, root: Path = corpora.CORPORA_DIR) -> Corpus:
    """Return the Corpus called *name* (one of ``corpora.ALL_CORPORA``) under *root*."""
    if name in corpora.TREES:
        return Corpus(name, root / name, (), True, RARE_LITERALS[name])
    recipe = corpora.SINGLE_FILES[name]
    return Corpus(name, root, (recipe.filename,), False, RARE_LITERALS[name])


def queries_for(target: Corpus, names: tuple[str, ...] = QUERY_NAMES) -> list[Query]:
    """Return the queries called *names* that make sense on *target*, in the order of *names*.

    Every search gets ``-n``; ``--files`` does not (line numbers mean nothing there) and is only
    run on trees, since on a single file it just prints the file's name.
    """
    every = {
        "rare": Query("rare", ("-n", target.rare)),
        "common": Query("common", ("-n", "return")),
        "icase": Query("icase", ("-n", "-i", "unicode")),
        "alt": Query("alt", ("-n", "TODO|FIXME|XXX|HACK")),
        "word": Query("word", ("-n", r"\w+Error")),
        # No literal can be extracted (every piece is a class): the engine must scan the text
        # with the regex itself (issue 9: measured and documented, <= 12x rg on the 200 MB file).
        "noliteral": Query("noliteral", ("-n", r"[a-z]{14,}")),
        "files": Query("files", ("--files",)),
        # Output-heavy: every line with a 12-letter word (374 MB of output on the large tree).
        # It shows what printing costs, and what holding output for its turn costs in memory.
        "output": Query("output", ("-n", r"\w{12,}")),
    }
    return [every[n] for n in names if n != "files" or target.tree]
