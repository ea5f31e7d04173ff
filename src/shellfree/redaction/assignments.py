"""Secrets written as assignments: ``KEY=value``, ``"token": "…"``, ``password: …`` (§9 pass 3).

These passes run only for secret-bearing files (or text that is not file content): in ordinary
source files, an assignment of an ordinary-looking value is code, not a leak. Each form is a
compiled regex plus the decision :func:`should_redact`, shared by every form.

One deliberate change from the contract: a value in quotes is redacted up to its closing quote
on the line. Hermes' forms end a value at the first white space, so in a ``.bashrc`` holding
``export DB_PASSWORD="correct horse battery staple"`` three of the four words stayed in view.
"""

from __future__ import annotations

import re
from typing import Callable

from shellfree.redaction import rules

__all__ = ["redact_assignments", "should_redact"]

Mask = Callable[[str], str]

_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def key_words(key: str) -> list[str]:
    """The lower-cased words of a key: ``apiKey`` → api, key; ``DB_PW`` → db, pw."""
    return [w.lower() for w in _WORDS.findall(key)]


def _all_caps(key: str) -> bool:
    return any(c.isalpha() for c in key) and key.upper() == key


def _embeds(key: str, words) -> bool:  # type: ignore[no-untyped-def]
    # EDGE CASE: an ALL-CAPS key may embed a keyword without separators (GITHUBTOKEN).
    return _all_caps(key) and any(w.upper() in key for w in words)


def is_strong_key(key: str) -> bool:
    """A key whose value is redacted whatever it looks like (``api_key``, ``DB_PW``, ``secret``)."""
    words = key_words(key)
    if any(w in rules.STRONG_WORDS for w in words):
        return True
    firsts, seconds = rules.STRONG_PAIRS
    for a, b in zip(words, words[1:]):
        if (a in firsts and b in seconds) or (a == "key" and b == "material"):
            return True
    compact = key.replace("_", "").replace("-", "")
    pairs = [a + b for a in firsts for b in seconds] + ["keymaterial"]
    return _embeds(key, rules.STRONG_WORDS) or _embeds(compact, pairs)


def is_password_key(key: str) -> bool:
    return bool(set(key_words(key)) & rules.PASSWORD_WORDS) or _embeds(key, rules.PASSWORD_WORDS)


def mentions_keyword(key: str, keywords) -> bool:  # type: ignore[no-untyped-def]
    """Whether a keyword sits at a word boundary of *key* (``KEYBOARD`` and ``tokenizer`` do not
    mention ``key``/``token``)."""
    words = key_words(key)
    joined = "_".join(words)
    for keyword in keywords:
        if "_" in keyword:
            if f"_{keyword}_" in f"_{joined}_":
                return True
        elif keyword in words:
            return True
    return is_strong_key(key) or _embeds(key, keywords)


_HEX16 = re.compile(r"[0-9a-fA-F]{16,}")
_OPAQUE20 = re.compile(r"[A-Za-z0-9_./+=-]{20,}")


def looks_opaque(value: str) -> bool:
    """A value that looks machine-generated: long hex, a long base64-ish run, or a mix of at least
    two of lower case, upper case and digits in 12 characters or more."""
    if _HEX16.fullmatch(value) or _OPAQUE20.fullmatch(value):
        return True
    if len(value) < 12 or any(c.isspace() for c in value):
        return False
    kinds = (any(c.islower() for c in value), any(c.isupper() for c in value),
             any(c.isdigit() for c in value))
    return sum(kinds) >= 2


def _looks_like_path(value: str) -> bool:
    return value.startswith(("/", "./", "../", "~/", "$")) or bool(
        re.match(r"[A-Za-z]:[\\/]", value))


def _opaque_segment(value: str) -> bool:
    for segment in re.split(r"[\\/]", value):
        if (len(segment) >= 16 and "." not in segment and any(c.islower() for c in segment)
                and any(c.isupper() for c in segment) and any(c.isdigit() for c in segment)):
            return True
    return False


def is_kept_value(value: str) -> bool:
    """Values never redacted: empty, an environment lookup, or already masked."""
    bare = value.strip("'\"")
    return (not bare or any(m in value for m in rules.ENV_LOOKUP_MARKERS)
            or bare.startswith(("***", "«redacted")))


def should_redact(key: str, value: str) -> bool:
    """The shared decision of the assignment passes."""
    if is_kept_value(value):
        return False
    bare = value.strip("'\"")
    if _looks_like_path(bare) and not is_password_key(key) and not _opaque_segment(bare):
        return False
    return is_strong_key(key) or looks_opaque(bare)


# -- The forms ------------------------------------------------------------------------------------

_GUTTER = r"[ \t]*(?:\d+[|:\-][ \t]*|\d+\t[ \t]*)?"


def _value(unquoted: str) -> str:
    # A value in quotes runs to the closing quote on its line, spaces included: Hermes' forms
    # stop at the first space, so `export DB_PASSWORD="correct horse battery staple"` kept
    # "horse battery staple" in view (a defect of the contract's regexes, fixed here). Without
    # a closing quote, or without quotes, the contract's *unquoted* class applies.
    return (r"""(?P<q>["'])?(?P<value>(?(q)(?:(?!(?P=q))[^\n])+|%s))(?(q)(?P=q))"""
            % unquoted)


_ENV = re.compile(
    r"""(?<![A-Za-z0-9_])(?P<key>[A-Z][A-Z0-9_]*)(?P<sep>[ \t]*=[ \t]*)"""
    + _value(r"""[^\s"'&;]+"""))
_LOWER = re.compile(
    r"""(?<![A-Za-z0-9_])(?P<key>[a-z0-9_]*_(?:%s))(?![A-Za-z0-9])(?P<sep>[ \t]*=[ \t]*)"""
    % "|".join(rules.LOWER_KEY_WORDS) + _value(r"""[^\s"'&;]+"""))
_DOTTED = re.compile(
    r"(?<![A-Za-z0-9_.])(?P<key>[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.[A-Za-z0-9_-]+)"
    r"(?P<sep>[ \t]*=[ \t]*)" + _value(r"[^\s&]+"))
_LINE = re.compile(
    r"(?m)^(?P<lead>%s(?:export[ \t]+)?)(?P<key>[A-Za-z_][A-Za-z0-9_]*)"
    r"(?P<sep>[ \t]*=[ \t]*)" % _GUTTER + _value(r"[^\s&]+"))
_JSON_KEYS = "|".join(rules.JSON_SECRET_KEYS)
_JSON = re.compile(
    r'(?i)(?P<pre>"(?:%s)"\s*:\s*")(?P<value>[^"\\\n]*(?:\\.[^"\\\n]*)*)(?P<post>")' % _JSON_KEYS)
_JSON_ESCAPED = re.compile(
    r'(?i)(?P<pre>\\"(?:%s)\\"\s*:\s*\\")(?P<value>(?:[^"\\\n]|\\(?!"))*)(?P<post>\\")'
    % _JSON_KEYS)
_REPR = re.compile(r"(?P<pre>'(?P<key>[A-Za-z0-9_]+)'\s*:\s*)'(?P<value>[^'\\\n]*)'")
_YAML = re.compile(
    r"(?m)^(?P<lead>%s(?:-[ \t]+)?)(?P<key>[A-Za-z0-9_.-]+)(?P<sep>:[ \t]+)"
    r"(?P<value>[^\s'\"#][^\s#]*)" % _GUTTER)


def _repr_key_is_secret(key: str) -> bool:
    if key.lower() in rules.REPR_SECRET_KEYS:
        return True
    if key.isupper() and key.endswith(rules.REPR_SECRET_SUFFIXES):
        return True
    return key.endswith(rules.REPR_CAMEL_SUFFIXES) and key[:1].islower()


def redact_assignments(text: str, mask: Mask) -> str:
    """Runs every assignment form over *text*; *mask* turns a value into its replacement."""
    has_url = "://" in text

    def env(m: re.Match[str]) -> str:
        key, value = m.group("key"), m.group("value")
        if not any(w in key for w in rules.ENV_KEY_WORDS) or not should_redact(key, value):
            return m.group(0)
        q = m.group("q") or ""
        return f"{key}{m.group('sep')}{q}{mask(value)}{q}"

    def plain(m: re.Match[str]) -> str:
        key, value = m.group("key"), m.group("value")
        if not should_redact(key, value):
            return m.group(0)
        q = m.groupdict().get("q") or ""
        lead = m.groupdict().get("lead") or ""
        return f"{lead}{key}{m.group('sep')}{q}{mask(value)}{q}"

    def config(m: re.Match[str]) -> str:
        last = m.group("key").rsplit(".", 1)[-1]
        if not mentions_keyword(last, rules.CONFIG_KEY_WORDS):
            return m.group(0)
        return plain(m)

    def json_value(m: re.Match[str]) -> str:
        value = m.group("value")
        if is_kept_value(value):
            return m.group(0)
        return f"{m.group('pre')}{mask(value)}{m.group('post')}"

    def repr_value(m: re.Match[str]) -> str:
        if not _repr_key_is_secret(m.group("key")) or is_kept_value(m.group("value")):
            return m.group(0)
        return f"{m.group('pre')}'***'"

    def yaml(m: re.Match[str]) -> str:
        key = m.group("key")
        words = set(key_words(key))
        if words & {"auth", "author"} and not (words & rules.PASSWORD_WORDS):
            return m.group(0)  # EDGE CASE: "auth:"/"author:" keys are prose in YAML files
        if not mentions_keyword(key, rules.CONFIG_KEY_WORDS):
            return m.group(0)
        return plain(m)

    text = _ENV.sub(env, text)
    if not has_url:
        text = _LOWER.sub(plain, text)
        text = _DOTTED.sub(config, text)
        text = _LINE.sub(config, text)
    text = _JSON.sub(json_value, text)
    text = _JSON_ESCAPED.sub(json_value, text)
    text = _REPR.sub(repr_value, text)
    if not has_url:
        text = _YAML.sub(yaml, text)
    return text
