"""What read_file does when the file is not there: find its unicode twin, or suggest names (§2.5).

:func:`unicode_variant` finds the one entry of the parent directory whose name differs from the
requested one only invisibly (NFC/NFD, narrow or no-break spaces, curly apostrophes), which
read_file then reads instead. :func:`similar_files` scores the directory's entries against the
requested name and returns the best five as suggestions. Fixed defect: a missing path that is a
symbolic link leading nowhere is listed in its directory under the very name asked for, and
Hermes suggested it as the similar file; here it is left out, and :func:`dangling_link` lets
read_file and search_files say where the link points.
"""

from __future__ import annotations

import difflib
import os
import unicodedata

__all__ = ["SIMILAR_FILES_MAX", "SIMILAR_FILES_SCANNED", "dangling_link", "similar_files",
           "unicode_variant"]

SIMILAR_FILES_SCANNED = 50
"""Directory entries looked at for suggestions: the first 50 of ``ls -1`` (§2.5 step 2)."""

SIMILAR_FILES_MAX = 5
"""Suggestions returned (§2.5 step 2)."""

_INVISIBLE = str.maketrans({"\u202f": " ", "\u00a0": " ", "\u2019": "'", "\u2018": "'"})


def canonical_name(name: str) -> str:
    """*name* in NFC with narrow/no-break spaces as spaces and curly single quotes as ``'``."""
    return unicodedata.normalize("NFC", name).translate(_INVISIBLE)


def _listdir(directory: str) -> list[str]:
    try:
        return os.listdir(directory)
    except OSError:
        return []


def unicode_variant(path: str, new_name: bool = False) -> str | None:
    """The path of the single entry next to missing *path* whose name has the same canonical
    form (:func:`canonical_name`) but other bytes, or None when there are none or several.

    A missing directory on the way is resolved the same way first (Hermes looked at the last
    name only, so ``dé/f.txt`` typed in NFC missed an NFD directory ``dé``, and a write there
    made a look-alike directory). With *new_name* (a path about to be written), a last name
    that matches nothing is kept, in the directory so resolved."""
    directory, name = os.path.split(path)
    if not name or not directory:
        return None
    moved = False
    if not os.path.lexists(directory):
        directory = unicode_variant(directory, new_name)  # type: ignore[assignment]
        if directory is None:
            return None
        moved = True
        if os.path.lexists(os.path.join(directory, name)):
            return os.path.join(directory, name)
    wanted = canonical_name(name)
    matches = [entry for entry in _listdir(directory)
               if entry != name and canonical_name(entry) == wanted]
    if len(matches) != 1:
        return os.path.join(directory, name) if new_name and moved and not matches else None
    return os.path.join(directory, matches[0])


def dangling_link(path: str) -> str | None:
    """Where the symbolic link at missing *path* points, when *path* is one that leads nowhere
    (its target, as the link spells it); None for anything else."""
    try:
        if not os.path.islink(path) or os.path.exists(path):
            return None
        return os.readlink(path)
    except (OSError, ValueError):
        return None


def similar_files(path: str) -> list[str]:
    """Up to five paths next to missing *path* whose names resemble its name, best first.

    EDGE CASE: ``ls -1`` lists neither dot entries nor in any order but its own; shellfree
    takes the first 50 non-hidden names in code-point order (ls in the C locale).
    """
    directory, name = os.path.split(path)
    # The name itself is listed when it is a link that leads nowhere: no use suggesting it.
    entries = sorted(e for e in _listdir(directory) if not e.startswith(".") and e != name)
    scored = [(score_name(name, entry), entry) for entry in entries[:SIMILAR_FILES_SCANNED]]
    ranked = sorted((item for item in scored if item[0] > 0), key=lambda item: -item[0])
    return [os.path.join(directory, entry) for _, entry in ranked[:SIMILAR_FILES_MAX]]


def score_name(requested: str, entry: str) -> int:
    """How much *entry* looks like *requested*, case-insensitively; the first rule that holds
    gives the score (§2.5 step 2): 100 same name, 90 same stem, 70 one a prefix of the other,
    60 requested inside entry, 40 entry (over 2 characters) inside requested, 30 same extension
    and enough characters in common, 50 a difflib ratio of at least 0.8, else 0."""
    want = requested.lower()
    have = entry.lower()
    want_stem, want_ext = os.path.splitext(want)
    have_stem, have_ext = os.path.splitext(have)
    if have == want:
        return 100
    if have_stem == want_stem:
        return 90
    if have.startswith(want) or want.startswith(have):
        return 70
    if want in have:
        return 60
    if have in want and len(have) > 2:
        return 40
    if have_ext == want_ext and len(set(want) & set(have)) >= 0.4 * max(len(want), len(have)):
        return 30
    if difflib.SequenceMatcher(None, want, have).ratio() >= 0.8:
        return 50
    return 0
