"""Second looks at a regex match before it is redacted: is the value random, is it a placeholder,
does it decode to what its format says.

A regex alone cannot tell ``client_secret = "Xy7Q~…"`` from ``client_secret = settings.SECRET``;
these small predicates can, and they keep the rule table in :mod:`shellfree.redaction.rules`
readable. Each takes the matched text (or the match itself) and returns True to redact.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable

__all__ = [
    "MatchCheck",
    "aws_secret_key",
    "connection_string_context",
    "credential_like",
    "discord_user_id",
    "jwt_header",
    "looks_generated",
    "named_key",
    "not_after",
    "not_placeholder",
    "on_secret",
    "opaque_not_placeholder",
    "preceded_by",
    "pypi_macaroon",
    "random_alnum",
    "sas_context",
    "scheme_is",
    "three_kinds",
    "two_kinds",
    "url_password",
]

MatchCheck = Callable[[re.Match[str]], bool]
"""A check on a whole match; rules built from a plain value check use :func:`on_secret`."""


def on_secret(check: Callable[[str], bool]) -> MatchCheck:
    """Adapts a check on the secret text to a check on the match (its ``secret`` group)."""

    def run(match: re.Match[str]) -> bool:
        return check(match.group("secret"))

    run.__name__ = f"on_secret({check.__name__})"
    return run


def _kinds(value: str) -> int:
    return (any("a" <= c <= "z" for c in value) + any("A" <= c <= "Z" for c in value)
            + any("0" <= c <= "9" for c in value))


def random_alnum(value: str) -> bool:
    """Holds a digit and a letter: a generated token almost always does, an English word or an
    identifier such as ``cio_registry_handler`` almost never."""
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def two_kinds(value: str) -> bool:
    """At least two of lower case, upper case and digits (``XXXXXXXX`` placeholders have one)."""
    return _kinds(value) >= 2


def three_kinds(value: str) -> bool:
    """Lower case, upper case and digits all occur (a long random base62 body always has them)."""
    return _kinds(value) == 3


def pypi_macaroon(body: str) -> bool:
    """A PyPI token body: a serialised macaroon (base64url of version 2, so it starts ``AgE``),
    or at least something random-looking, never a package name such as ``attestations``."""
    return body.startswith("AgE") or (len(body) >= 32 and three_kinds(body))


_DOTTED_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+")


def looks_generated(value: str) -> bool:
    """A machine-made value: letters and digits, two of lower/upper/digit, and not a dotted
    name such as ``settings.CLIENT_SECRET2`` (code that refers to a secret, not the secret)."""
    return random_alnum(value) and _kinds(value) >= 2 and not _DOTTED_NAME.fullmatch(value)


_PLACEHOLDER = re.compile(
    r"""(?ix)
    [<{\[$%]            # <password>, {password}, ${VAR}, $VAR, %s, %(password)s, [secret]
    | \*\*\*            # already masked
    | \A(?:x+|\.+|…)\Z  # xxxx, ...
    | \A(?:pass(?:word|wd)?|pwd|secret|changeme|password\d*|none|null|test|example)\Z
    | your[_-]?(?:pass|secret|token|key|api)  # your_password, YOUR_API_KEY
    """)


def not_placeholder(value: str) -> bool:
    """False for template and documentation values: ``{password}``, ``%s``, ``$PASS``,
    ``<secret>``, ``password``, ``xxxx``, ``your_token_here``, values already masked."""
    return bool(value) and not _PLACEHOLDER.search(value)


def credential_like(value: str) -> bool:
    """A header credential: it holds a letter or digit and is no placeholder (``$TOKEN``,
    ``<token>``, ``...``)."""
    return any(c.isalnum() for c in value) and not_placeholder(value)


def opaque_not_placeholder(value: str) -> bool:
    """:func:`looks_generated` and :func:`not_placeholder` together."""
    return looks_generated(value) and not_placeholder(value)


def named_key(value: str) -> bool:
    """A value that a key name already marks as a credential (``MISTRAL_API_KEY = "…"``): two
    of lower/upper/digit, not a placeholder, not a dotted name. No digit is required: a random
    32-letter key has none one time in three hundred."""
    return two_kinds(value) and not_placeholder(value) and not _DOTTED_NAME.fullmatch(value)


def _b64decode(segment: str) -> bytes | None:
    segment = segment[: len(segment) - len(segment) % 4] if len(segment) % 4 == 1 else segment
    try:
        return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
    except (binascii.Error, ValueError):
        return None


def jwt_header(token: str) -> bool:
    """A JWT: its first segment decodes to a JOSE header, which RFC 7515 §4.1.1 and RFC 7516
    §4.1.1 say always carries ``alg``; or the token has several dot-separated segments.

    EDGE CASE: a lone ``eyJ…`` segment that decodes to other JSON (``{"name": "x"}``) is base64
    test data, not a token, and is kept.
    """
    if "." in token:
        return True
    decoded = _b64decode(token[: len(token) - len(token) % 4])
    return decoded is not None and b'"alg"' in decoded


def discord_user_id(token: str) -> bool:
    """Discord bot tokens start with the bot's user id (a 17–20 digit snowflake) in base64, so
    the first segment must decode to such a number."""
    decoded = _b64decode(token.split(".", 1)[0])
    return decoded is not None and decoded.isdigit() and 17 <= len(decoded) <= 20


_CONNECTION_KEYS = re.compile(
    r"(?i)(?:^|[;\s\"'])(?:server|data source|host|database|initial catalog|uid|user id|user|"
    r"username|driver|dsn|provider|addr|address|port)\s*=")


def not_after(chars: str, then: MatchCheck | None = None) -> MatchCheck:
    """A check that the match does not continue a word: the character before it is not one of
    *chars* (a regex class body); then *then*, if given. Rules test this in Python rather than
    open with a lookbehind, which would stop the regex engine from skipping ahead quickly."""
    before = re.compile(f"[{chars}]")

    def run(match: re.Match[str]) -> bool:
        start = match.start()
        if "lead" in match.re.groupindex and match.start("lead") != -1:
            start = match.start("lead")
        if start and before.match(match.string, start - 1):
            return False
        return then is None or then(match)

    run.__name__ = f"not_after({chars!r})"
    return run


def preceded_by(pattern: str, then: MatchCheck | None = None) -> MatchCheck:
    """A check that the text just before the match (40 characters at most) ends with
    *pattern* (matched in any case), such as a provider name before ``_API_KEY = "…"``; then
    *then*, if given."""
    tail = re.compile(f"(?:{pattern})\\Z", re.IGNORECASE)

    def run(match: re.Match[str]) -> bool:
        start = match.start()
        if tail.search(match.string, max(0, start - 40), start) is None:
            return False
        return then is None or then(match)

    run.__name__ = f"preceded_by({pattern[:30]!r})"
    return run


_AWS_BEFORE = re.compile(r"[Aa][Ww][Ss][_.-]?\Z")


def aws_secret_key(match: re.Match[str]) -> bool:
    """``aws_secret_access_key``, ``AWS_SECRET_KEY``, ``SecretAccessKey``: the key says AWS or
    says "access"; the value looks generated."""
    start = match.start()
    says_aws = _AWS_BEFORE.search(match.string, max(0, start - 4), start) is not None
    value = match.group("secret")
    # No digit is needed: 40 characters of this exact alphabet after this key name are the key
    # (one real key in a thousand has no digit).
    return (says_aws or match.group("access") is not None) and two_kinds(value) and \
        not _DOTTED_NAME.fullmatch(value)


def connection_string_context(match: re.Match[str]) -> bool:
    """An ODBC / ADO.NET connection string: ``Password=…`` sits next to a ``;`` and its line
    names another connection key (``Server=``, ``User Id=``, ``Driver=``…).

    EDGE CASE: keeps ``connect(password=pw)`` and ``password = getpass()`` in code.
    """
    text = match.string
    start, end = match.span()
    # The line around the match, at most 512 characters each way: one pathological line must
    # not be rescanned for every candidate on it.
    line_start = max(text.rfind("\n", max(0, start - 512), start) + 1, start - 512, 0)
    line_end = text.find("\n", end, end + 512)
    line = text[line_start: line_end if line_end != -1 else min(len(text), end + 512)]
    previous = text[start - 1:start]
    if previous.isalnum() or previous == "_":
        return False  # "dbpassword=": not the connection string's own key
    before = text[line_start:start].rstrip(" \t")
    after = text[end:end + 2].lstrip(" \t")
    if not (before.endswith((";", '"', "'")) or not before or after.startswith(";")):
        return False
    if ";" not in line or not _CONNECTION_KEYS.search(line):
        return False
    secret = match.group("secret")
    if secret.startswith("{") and secret.endswith("}"):
        secret = secret[1:-1]  # ODBC quotes a value holding ";" in braces: PWD={a;b}
    return not_placeholder(secret)


def sas_context(match: re.Match[str]) -> bool:
    """An Azure shared access signature: the ``sig=`` sits in a query that also carries the
    signed version ``sv=`` (Azure Storage SAS documentation: ``sv``, ``sp``, ``se``, ``sig``)."""
    text = match.string
    start, end = match.span()
    window_start, window_end = max(0, start - 2048), min(len(text), end + 2048)
    left = max(text.rfind(c, window_start, start) for c in " \t\n\"'<>")
    left = window_start - 1 if left == -1 else left
    right_candidates = [i for i in (text.find(c, end, window_end) for c in " \t\n\"'<>")
                        if i != -1]
    right = min(right_candidates) if right_candidates else window_end
    return "sv=" in text[left + 1:right]


_SCHEME_TAIL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*\Z")
_SCHEME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-")


def scheme_before(match: re.Match[str]) -> str | None:
    """The URL scheme ending where *match* (which starts at ``://``) starts, or None when the
    characters before are no scheme or the scheme continues a longer word (``xpostgres://``)."""
    start = match.start()
    window_start = max(0, start - 32)
    found = _SCHEME_TAIL.search(match.string, window_start, start)
    if found is None:
        return None
    before = found.start() - 1
    if before >= 0 and match.string[before] in _SCHEME_CHARS:
        return None  # a scheme must not continue a word: the contract's lookbehind
    return found.group(0)


def scheme_is(schemes: tuple[str, ...]) -> MatchCheck:
    """A check that the URL scheme before the match is one of *schemes* (case-sensitive, as
    the contract's regexes are)."""
    allowed = frozenset(schemes)

    def run(match: re.Match[str]) -> bool:
        return scheme_before(match) in allowed

    run.__name__ = f"scheme_is({'/'.join(schemes[:3])}…)"
    return run


def url_password(match: re.Match[str]) -> bool:
    """``scheme://user:password@`` for any scheme, unless the password is a placeholder or a
    port number (``http://host:8080@…`` is not a credential)."""
    if scheme_before(match) is None:
        return False
    password = match.group("secret")
    return not_placeholder(password) and not password.isdigit()
