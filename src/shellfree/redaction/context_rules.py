"""Applies the table's :class:`~shellfree.redaction.rules.PatternRule` entries: secrets found by
their surroundings (headers, URLs, key names, connection strings, webhook URLs).

Each rule is compiled once. A rule runs only when one of its lower-case gate literals occurs
in the text, so an ordinary file pays for a handful of substring tests, not thirty regex scans.
Only the rule's ``secret`` group is replaced; the key, the scheme or the user name stay.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shellfree.redaction.masks import is_masked, replacement
from shellfree.redaction.private_keys import redact_private_keys
from shellfree.redaction.rules import PATTERN_RULES, PatternRule

__all__ = ["Compiled", "Gates", "apply_rules", "compile_rules", "secret_span"]


@dataclass(frozen=True, slots=True)
class Compiled:
    """A pattern rule with its regex compiled."""

    rule: PatternRule
    regex: re.Pattern[str]


def compile_rules(rules: tuple[PatternRule, ...]) -> tuple[Compiled, ...]:
    """Compiles every rule's pattern (once, at import)."""
    return tuple(Compiled(rule, re.compile(rule.pattern)) for rule in rules)


BEFORE_ASSIGNMENTS = compile_rules(tuple(r for r in PATTERN_RULES if r.before_assignments))
AFTER_ASSIGNMENTS = compile_rules(tuple(r for r in PATTERN_RULES if not r.before_assignments))


class Gates:
    """Which gate literals occur in a text, each looked up once (a gate is a full scan when it
    is absent, the common case).

    The answers may be reused after replacements: a replacement only removes a secret and
    inserts a mask, so a later rule's real match cannot depend on a literal the mask brought.
    """

    __slots__ = ("_lowered", "_seen")

    def __init__(self, text: str) -> None:
        self._lowered = text.lower()
        self._seen: dict[str, bool] = {}

    def open_for(self, rule: PatternRule) -> bool:
        """Whether *rule* must run: it has no gates, or one of them occurs."""
        if not rule.gates:
            return True
        for gate in rule.gates:
            present = self._seen.get(gate)
            if present is None:
                present = self._seen[gate] = gate in self._lowered
            if present:
                return True
        return False


def apply_rules(text: str, compiled: tuple[Compiled, ...], gates: Gates, *, file_read: bool,
                code_file: bool) -> str:
    """Runs *compiled* rules over *text* in order; *gates* was built from the text before any
    replacement; *code_file* is the effective flag of §9."""
    for entry in compiled:
        rule = entry.rule
        if not gates.open_for(rule):
            continue
        if rule.mask == "private-key":
            text = redact_private_keys(text, file_read=file_read)
        else:
            text = _apply(entry, text, file_read=file_read, code_file=code_file)
    return text


def _apply(entry: Compiled, text: str, *, file_read: bool, code_file: bool) -> str:
    rule, search = entry.rule, entry.regex.search
    pieces: list[str] = []
    last = pos = 0
    while True:
        found = search(text, pos)
        if found is None:
            break
        start, end = secret_span(found)
        secret = text[start:end]
        if start < last or not _redactable(rule, found, secret, code_file):
            pos = found.start() + 1  # EDGE CASE: a valid match may start inside a rejected one
            continue
        pieces.append(text[last:start])
        pieces.append(replacement(rule.mask, secret, file_read=file_read, label=rule.label))
        last = end
        pos = max(found.end(), found.start() + 1)
    if not pieces:
        return text
    pieces.append(text[last:])
    return "".join(pieces)


def secret_span(found: re.Match[str]) -> tuple[int, int]:
    """Where the secret of a match lies: its ``secret`` group, from the ``lead`` group's start
    when the pattern has one."""
    start, end = found.span("secret")
    if "lead" in found.re.groupindex and found.start("lead") != -1:
        start = found.start("lead")
    return start, end


def _redactable(rule: PatternRule, found: re.Match[str], secret: str, code_file: bool) -> bool:
    if not secret or is_masked(secret):
        return False  # an earlier pass masked it already; masking twice loses the head
    if rule.keep_braced_in_code and code_file and secret.startswith("{") and \
            secret.endswith("}"):
        return False  # a template placeholder in code, not a password (§9 pass 8)
    return rule.check is None or rule.check(found)
