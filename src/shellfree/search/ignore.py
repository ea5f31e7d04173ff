"""Compile one ignore file (or a list of ``-g`` globs) into a fast matcher with rg's verdicts.

A :class:`RuleSet` answers, for a path relative to the rule file's directory, whether the last
matching rule ignores it, whitelists it, or whether no rule matches. Lines are read with
ripgrep 15.1's gitignore dialect (rg-semantics §1.5), which is not git's:

- reading stops at the first line that is not valid UTF-8 (that line and the rest are dropped);
- a UTF-8 BOM on line 1 is removed; ``\\r\\n`` endings are removed;
- a line starting with ``#`` is a comment; all trailing Unicode whitespace is trimmed unless
  the line ends in backslash-space;
- ``\\!``/``\\#`` are literals, ``!`` negates, a leading ``/`` anchors, a trailing ``/`` (or
  ``\\/``) makes the rule directory-only; a rule with no inner ``/`` matches at any depth;
  ``x/**`` matches only inside ``x``.

Matching is built for the walker's hot path: every path is tested against a frozenset of exact
basenames, a tuple of basename suffixes, one basename regex and one path regex; only on a hit is
the ordered rule list consulted to find the last matching rule. No per-path Python loop over
rules, and no per-path pathspec call (perf-study §4: 0.3–0.5 µs per path against 3.5–27 µs).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from shellfree._record import Record
from shellfree.search.errors import GlobError
from shellfree.search.glob import (
    ALT,
    CLASS,
    LITERAL,
    RECURSIVE_PREFIX,
    STAR,
    GlobTokens,
    glob_to_regex,
    parse_glob,
)

__all__ = ["NONE", "IGNORE", "WHITELIST", "Rule", "RuleSet", "read_rule_lines", "compile_rules"]

#: Verdicts. ``NONE`` is falsy so callers can write ``if verdict:``.
NONE = 0
IGNORE = 1
WHITELIST = 2

# rg trims with Rust's char::is_whitespace (the White_Space property). Python's str.rstrip()
# would also strip U+001C..U+001F, which are not White_Space.
_RUST_WHITESPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
    "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)

# Rule kinds, from cheapest to dearest test.
_BASENAME = "basename"  # exact basename, in a frozenset
_SUFFIX = "suffix"  # "*.ext": basename ends with a literal
_NAME_REGEX = "name_regex"  # any other glob that only looks at the basename
_PATH = "path"  # a glob with no wildcard that looks at directories: the exact path, in a set
_PATH_REGEX = "path_regex"  # other globs that look at directories too


class Rule(Record):
    """One compiled rule: what it was written as, what it decides, and how it is tested."""

    original: str
    whitelist: bool
    dir_only: bool
    kind: str
    literal: bytes  # for _BASENAME, _SUFFIX and _PATH (lower-cased when case-insensitive)
    body: bytes | None  # for the two regex kinds: the regex's source, compiled with *flags*
    flags: int = 0

    @property
    def regex(self) -> "re.Pattern[bytes] | None":
        """The line's own regex, compiled when first asked for: a rule file's combined regex
        decides most paths alone, and the large benchmark tree's 133 ignore files have 122
        distinct regex lines, which were all compiled for every run (8 ms of its 0.47 s
        ``-j1 --files``)."""
        if self.body is None:
            return None
        key = (self.body, self.flags)
        regex = _LINE_REGEXES.get(key)
        if regex is None:
            regex = _LINE_REGEXES[key] = re.compile(self.body, self.flags)
        return regex

    def matches(self, path: bytes, name: bytes, folded_name: bytes, folded_path: bytes) -> bool:
        kind = self.kind
        if kind == _BASENAME:
            return folded_name == self.literal
        if kind == _SUFFIX:
            return folded_name.endswith(self.literal)
        if kind == _PATH:
            return folded_path == self.literal
        if kind == _NAME_REGEX:
            return self.regex.fullmatch(name) is not None  # type: ignore[union-attr]
        return self.regex.fullmatch(path) is not None  # type: ignore[union-attr]


def read_rule_lines(data: bytes) -> tuple[list[str], int | None]:
    """Split an ignore file's bytes into lines as rg reads them.

    Returns the decoded lines and, if a line was not valid UTF-8, its 1-based number (that line
    and every later one are dropped, as rg does).
    """
    lines: list[str] = []
    terminated = data.endswith(b"\n")
    raw_lines = data.split(b"\n")
    if terminated:
        raw_lines.pop()
    last = len(raw_lines)
    for number, raw in enumerate(raw_lines, 1):
        # Rust's BufRead::lines removes "\r\n" or "\n"; an unterminated last line keeps its "\r".
        if raw.endswith(b"\r") and (terminated or number < last):
            raw = raw[:-1]
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            return lines, number
        if number == 1:
            line = line.lstrip("\ufeff")
        lines.append(line)
    return lines, None


def _class_can_match_slash(payload: tuple) -> bool:
    regex = glob_to_regex(GlobTokens("", ((CLASS, payload),)))
    return re.fullmatch(regex.encode("ascii"), b"/", re.DOTALL) is not None


def _only_looks_at_basename(tokens: Iterable[tuple]) -> bool:
    """True if the tokens (after a leading ``**/``) can never match across a ``/``."""
    for kind, payload in tokens:
        if kind == LITERAL:
            if payload == "/":
                return False
        elif kind == CLASS:
            if _class_can_match_slash(payload):
                return False
        elif kind == ALT:
            if not all(_only_looks_at_basename(alt) for alt in payload):
                return False
        elif kind not in ("any", STAR):
            return False
    return True


def _classify(
    parsed: GlobTokens, case_insensitive: bool, literal_ok: bool = True
) -> tuple[str, bytes, str]:
    """Choose the cheapest exact test for a glob; returns (kind, literal, regex body).

    *literal_ok* False forces a regex kind (a rule whose case handling differs from its set's).
    """
    tokens = parsed.tokens
    if tokens and tokens[0][0] == RECURSIVE_PREFIX and len(tokens) > 1:
        rest = tokens[1:]
        if _only_looks_at_basename(rest):
            if not literal_ok:
                return _NAME_REGEX, b"", glob_to_regex(GlobTokens(parsed.glob, rest))
            if all(kind == LITERAL for kind, _ in rest):
                text = "".join(p for _, p in rest).encode("utf-8", "surrogateescape")
                return _BASENAME, text.lower() if case_insensitive else text, ""
            if rest[0][0] == STAR and len(rest) > 1 and all(k == LITERAL for k, _ in rest[1:]):
                text = "".join(p for _, p in rest[1:]).encode("utf-8", "surrogateescape")
                return _SUFFIX, text.lower() if case_insensitive else text, ""
            return _NAME_REGEX, b"", glob_to_regex(GlobTokens(parsed.glob, rest))
    if literal_ok and all(kind == LITERAL for kind, _ in tokens):
        # A path with no wildcard (`/site`, `docs/_build`): a set lookup, not a regex to
        # compile. Compiling the combined regexes of a tree's ignore files took a tenth of
        # `rg -j1 --files` over the large benchmark tree (133 .gitignore files, mostly copies
        # of one template with a few lines changed, so each combination was new).
        text = "".join(p for _, p in tokens).encode("utf-8", "surrogateescape")
        return _PATH, text.lower() if case_insensitive else text, ""
    return _PATH_REGEX, b"", glob_to_regex(parsed)


def _parse_line(line: str) -> tuple[str, bool, bool, str] | None:
    """Apply rg's line rules; returns (original, whitelist, dir_only, glob) or None to skip."""
    if line.startswith("#"):
        return None
    if not line.endswith("\\ "):
        line = line.rstrip(_RUST_WHITESPACE)
    if not line:
        return None
    original = line
    whitelist = False
    absolute = False
    if line.startswith("\\!") or line.startswith("\\#"):
        line = line[1:]
    else:
        if line.startswith("!"):
            whitelist = True
            line = line[1:]
        if line.startswith("/"):
            line = line[1:]
            absolute = True
    dir_only = False
    if line.endswith("/"):
        dir_only = True
        line = line[:-1]
        # EDGE CASE (rg r2236): an escaped trailing slash also means "directory only".
        if line.endswith("\\"):
            line = line[:-1]
    glob = line
    if not absolute and "/" not in line:
        if not (glob.startswith("**/") or glob == "**"):
            glob = "**/" + glob
    if glob.endswith("/**"):
        glob += "/*"
    return original, whitelist, dir_only, glob


class RuleSet(Record):
    """The compiled rules of one ignore file (or one set of overrides).

    ``matched(path, is_dir)`` takes the path relative to the rule file's directory, as bytes
    with ``/`` separators, and returns NONE, IGNORE or WHITELIST.
    """

    rules: tuple[Rule, ...]
    case_insensitive: bool
    names: frozenset
    suffixes: tuple
    name_regex: "re.Pattern[bytes] | None"
    path_regex: "re.Pattern[bytes] | None"
    # True when any hit is an IGNORE: no whitelist and no directory-only rule.
    all_plain_ignores: bool
    has_whitelist: bool
    paths: frozenset = frozenset()  # the _PATH rules' paths (lower-cased when case-insensitive)

    def __bool__(self) -> bool:
        return bool(self.rules)

    def matched(self, path: bytes, is_dir: bool) -> int:
        name = path[path.rfind(b"/") + 1 :]
        folded = name.lower() if self.case_insensitive else name
        folded_path = path.lower() if self.case_insensitive else path
        if not (
            folded in self.names
            or folded.endswith(self.suffixes)
            or folded_path in self.paths
            or (self.name_regex is not None and self.name_regex.fullmatch(name) is not None)
            or (self.path_regex is not None and self.path_regex.fullmatch(path) is not None)
        ):
            return NONE
        if self.all_plain_ignores:
            return IGNORE
        for rule in reversed(self.rules):
            if rule.dir_only and not is_dir:
                continue
            if rule.matches(path, name, folded, folded_path):
                return WHITELIST if rule.whitelist else IGNORE
        return NONE


EMPTY = RuleSet((), False, frozenset(), (), None, None, True, False)


def compile_rules(
    lines: Sequence[str],
    *,
    case_insensitive: bool = False,
    allow_unclosed_class: bool = True,
    per_line_case_insensitive: Sequence[bool] | None = None,
) -> tuple[RuleSet, list[tuple[int, GlobError]]]:
    """Compile ignore-file *lines*; returns the rule set and the (line number, error) pairs of
    lines whose glob did not parse (rg drops only those lines and warns).

    *per_line_case_insensitive* makes single lines case-insensitive (``--iglob`` among ``-g``
    globs); *allow_unclosed_class* is True for ignore files and False for ``-g`` globs.
    """
    rules: list[Rule] = []
    errors: list[tuple[int, GlobError]] = []
    for number, line in enumerate(lines, 1):
        line_ci = bool(per_line_case_insensitive and per_line_case_insensitive[number - 1])
        key = (line, case_insensitive, allow_unclosed_class, line_ci)
        compiled = _RULES.get(key)
        if compiled is None:
            compiled = _compile_line(*key)
            if len(_RULES) >= _MAX_RULES:
                _RULES.clear()
                _LINE_REGEXES.clear()
            _RULES[key] = compiled
        if isinstance(compiled, GlobError):
            errors.append((number, GlobError(compiled.glob, compiled.reason)))  # a fresh one
        elif compiled is not _SKIPPED_LINE:
            rules.append(compiled)
    return _assemble(rules, case_insensitive), errors


# Compiled lines by (line, case_insensitive, allow_unclosed_class, line_ci). Ignore files
# repeat the same lines (a 50,000-file tree: 9,163 lines in 133 files, 830 distinct), and a
# line compiles to the same immutable Rule wherever it appears: its glob is relative to its
# own file's directory. Cleared when full rather than kept in order: a tree has few distinct.
_RULES: dict[tuple, object] = {}
_MAX_RULES = 8192
# The regexes of Rule.regex by (source, flags); bounded by the distinct lines of _RULES.
_LINE_REGEXES: dict[tuple[bytes, int], "re.Pattern[bytes]"] = {}
_SKIPPED_LINE = object()


def _compile_line(
    line: str, case_insensitive: bool, allow_unclosed_class: bool, line_ci: bool
) -> "Rule | GlobError | object":
    """One ignore-file line as a Rule, the GlobError rg reports for it, or _SKIPPED_LINE for a
    comment or a blank line."""
    parsed_line = _parse_line(line)
    if parsed_line is None:
        return _SKIPPED_LINE
    original, whitelist, dir_only, glob = parsed_line
    try:
        parsed = parse_glob(glob, allow_unclosed_class=allow_unclosed_class)
    except GlobError as err:
        return GlobError(original, err.reason)
    kind, literal, body = _classify(
        parsed, case_insensitive, literal_ok=case_insensitive or not line_ci
    )
    if line_ci and not case_insensitive:
        body = "(?i:" + body + ")"
    flags = re.DOTALL | (re.IGNORECASE if case_insensitive else 0)
    # An empty body is a real regex too ("{,}" matches only the empty path).
    source = None if kind in (_BASENAME, _SUFFIX, _PATH) else body.encode("ascii")
    return Rule(original, whitelist, dir_only, kind, literal, source, flags)


def _assemble(rules: list[Rule], case_insensitive: bool) -> RuleSet:
    if not rules:
        return EMPTY
    flags = re.DOTALL | (re.IGNORECASE if case_insensitive else 0)

    def combined(kind: str) -> "re.Pattern[bytes] | None":
        bodies = [r.body for r in rules if r.kind == kind]
        if not bodies:
            return None
        return re.compile(b"|".join(b"(?:" + b + b")" for b in bodies), flags)

    return RuleSet(
        rules=tuple(rules),
        case_insensitive=case_insensitive,
        names=frozenset(r.literal for r in rules if r.kind == _BASENAME),
        suffixes=tuple(r.literal for r in rules if r.kind == _SUFFIX),
        name_regex=combined(_NAME_REGEX),
        path_regex=combined(_PATH_REGEX),
        all_plain_ignores=not any(r.whitelist or r.dir_only for r in rules),
        has_whitelist=any(r.whitelist for r in rules),
        paths=frozenset(r.literal for r in rules if r.kind == _PATH),
    )
