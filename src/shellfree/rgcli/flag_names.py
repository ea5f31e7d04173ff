"""The names of rg 15.1's flags, for the suggestions it adds to an unknown flag's error.

``rg --hiden`` answers ``unrecognized flag --hiden`` and, on a line of its own, ``similar flags
that are available: --hidden``: every name of every rg flag (its long name, its negation, its
aliases, in the order of rg's flag table) whose set of three-character pieces shares at least
0.4 of their union with the unknown name's (Jaccard index). The table is rg's (all of its
flags, including those shellfree refuses, which rg would suggest too); the rule was checked
against the binary on 412 misspellings of these names, all alike.
"""

from __future__ import annotations

__all__ = ["is_rg_flag", "similar_flags"]

# Each rg flag's names: the long name, then its negation and aliases, in rg's table order.
RG_FLAG_NAMES: tuple[tuple[str, ...], ...] = (
    ('regexp',),
    ('file',),
    ('after-context',),
    ('before-context',),
    ('binary', 'no-binary'),
    ('block-buffered', 'no-block-buffered'),
    ('byte-offset', 'no-byte-offset'),
    ('case-sensitive',),
    ('color',),
    ('colors',),
    ('column', 'no-column'),
    ('context',),
    ('context-separator', 'no-context-separator'),
    ('count',),
    ('count-matches',),
    ('crlf', 'no-crlf'),
    ('debug',),
    ('dfa-size-limit',),
    ('encoding', 'no-encoding'),
    ('engine',),
    ('field-context-separator',),
    ('field-match-separator',),
    ('files',),
    ('files-with-matches',),
    ('files-without-match',),
    ('fixed-strings', 'no-fixed-strings'),
    ('follow', 'no-follow'),
    ('generate',),
    ('glob',),
    ('glob-case-insensitive', 'no-glob-case-insensitive'),
    ('heading', 'no-heading'),
    ('help',),
    ('hidden', 'no-hidden'),
    ('hostname-bin',),
    ('hyperlink-format',),
    ('iglob',),
    ('ignore-case',),
    ('ignore-file',),
    ('ignore-file-case-insensitive', 'no-ignore-file-case-insensitive'),
    ('include-zero', 'no-include-zero'),
    ('invert-match', 'no-invert-match'),
    ('json', 'no-json'),
    ('line-buffered', 'no-line-buffered'),
    ('line-number',),
    ('no-line-number',),
    ('line-regexp',),
    ('max-columns',),
    ('max-columns-preview', 'no-max-columns-preview'),
    ('max-count',),
    ('max-depth', 'maxdepth'),
    ('max-filesize',),
    ('mmap', 'no-mmap'),
    ('multiline', 'no-multiline'),
    ('multiline-dotall', 'no-multiline-dotall'),
    ('no-config',),
    ('no-ignore', 'ignore'),
    ('no-ignore-dot', 'ignore-dot'),
    ('no-ignore-exclude', 'ignore-exclude'),
    ('no-ignore-files', 'ignore-files'),
    ('no-ignore-global', 'ignore-global'),
    ('no-ignore-messages', 'ignore-messages'),
    ('no-ignore-parent', 'ignore-parent'),
    ('no-ignore-vcs', 'ignore-vcs'),
    ('no-messages', 'messages'),
    ('no-require-git', 'require-git'),
    ('no-unicode', 'unicode'),
    ('null',),
    ('null-data',),
    ('one-file-system', 'no-one-file-system'),
    ('only-matching',),
    ('path-separator',),
    ('passthru', 'passthrough'),
    ('pcre2', 'no-pcre2'),
    ('pcre2-version',),
    ('pre', 'no-pre'),
    ('pre-glob',),
    ('pretty',),
    ('quiet',),
    ('regex-size-limit',),
    ('replace',),
    ('search-zip', 'no-search-zip'),
    ('smart-case',),
    ('sort',),
    ('sortr',),
    ('stats', 'no-stats'),
    ('stop-on-nonmatch',),
    ('text', 'no-text'),
    ('threads',),
    ('trace',),
    ('trim', 'no-trim'),
    ('type',),
    ('type-not',),
    ('type-add',),
    ('type-clear',),
    ('type-list',),
    ('unrestricted',),
    ('version',),
    ('vimgrep',),
    ('with-filename',),
    ('no-filename',),
    ('word-regexp',),
    ('auto-hybrid-regex', 'no-auto-hybrid-regex'),
    ('no-pcre2-unicode', 'pcre2-unicode'),
    ('sort-files', 'no-sort-files'),
)

_THRESHOLD = 0.4


def similar_flags(name: str) -> list[str]:
    """rg's suggestions for the unknown long flag ``--name`` (without its dashes)."""
    pieces = _trigrams(name)
    found = []
    for names in RG_FLAG_NAMES:
        for candidate in names:
            theirs = _trigrams(candidate)
            union = pieces | theirs
            if union and len(pieces & theirs) / len(union) >= _THRESHOLD:
                found.append("--" + candidate)
    return found


def is_rg_flag(name: str) -> bool:
    """Whether ``--name`` is one of rg's flags (shellfree may refuse it all the same)."""
    return any(name in names for names in RG_FLAG_NAMES)


def _trigrams(text: str) -> set[str]:
    return {text[i:i + 3] for i in range(len(text) - 2)}
