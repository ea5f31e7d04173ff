"""The redaction rule tables (hermes-contract §9), as data.

Adding a vendor token format is one :class:`TokenFamily` line in :data:`TOKEN_FAMILIES`; adding a
credential keyword is one word in the keyword sets. :mod:`shellfree.redaction.passes` compiles
these tables once, at import. The order of :data:`TOKEN_FAMILIES` matters: the sentinel label of
a token is the first listed literal prefix it starts with.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "API_KEY_HEADERS",
    "DB_URL_SCHEMES",
    "ENV_LOOKUP_MARKERS",
    "JSON_SECRET_KEYS",
    "PASSWORD_WORDS",
    "SENSITIVE_QUERY_PARAMS",
    "STRONG_PAIRS",
    "STRONG_WORDS",
    "TOKEN_FAMILIES",
    "TOKEN_URL_SCHEMES",
    "TokenFamily",
    "ZERO_WIDTH_AND_CONTROL",
]


@dataclass(frozen=True, slots=True)
class TokenFamily:
    """Tokens that start with a known literal prefix (§9 pass 1).

    *body* is a regex character class for what follows the prefix; the body is at least
    *min_body* characters (exactly, when *exact* is set). *dotted* allows single dots between
    body characters. *prefix_pattern*, when set, is the regex used instead of the escaped
    literals (for prefixes with a variable part, such as Slack's ``xapp-<digits>-``); the
    literals still name the sentinel label.
    """

    prefixes: tuple[str, ...]
    body: str
    min_body: int
    exact: bool = False
    dotted: bool = False
    prefix_pattern: str | None = None


ALNUM = "[A-Za-z0-9]"
WORD_DASH = "[A-Za-z0-9_-]"

TOKEN_FAMILIES: tuple[TokenFamily, ...] = (
    # OpenAI, Anthropic sk-ant-, OpenRouter, Langfuse sk-lf-, Alibaba sk-sp-…
    TokenFamily(("sk-",), WORD_DASH, 10, dotted=True),
    TokenFamily(("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), ALNUM, 10),
    TokenFamily(("github_pat_",), "[A-Za-z0-9_]", 10),
    TokenFamily(("xapp-",), "[A-Za-z0-9-]", 10, prefix_pattern=r"xapp-\d+-"),
    TokenFamily(("xoxb-", "xoxa-", "xoxp-", "xoxr-", "xoxs-"), "[A-Za-z0-9-]", 10),
    TokenFamily(("AIza",), WORD_DASH, 30),
    TokenFamily(
        ("pplx-", "fc-", "hf_", "r8_", "npm_", "tvly-", "exa_", "gsk_", "syt_", "retaindb_",
         "hsk-", "mem0_", "brv_", "ntn_", "dop_v1_", "doo_v1_", "sk_live_", "sk_test_",
         "rk_live_"),
        ALNUM, 10,
    ),
    TokenFamily(("fal_", "bb_live_", "pypi-", "SG."), WORD_DASH, 10),
    TokenFamily(("sk_",), "[A-Za-z0-9_]", 10),
    TokenFamily(("gAAAA",), "[A-Za-z0-9_=-]", 20),  # Codex encrypted content
    TokenFamily(("AKIA",), "[A-Z0-9]", 16, exact=True),  # AWS access key id
    TokenFamily(("am_org_", "am_"), ALNUM, 20),  # AgentMail
    TokenFamily(("xai-",), ALNUM, 30),
    TokenFamily(("fw-", "fw_", "fpk_"), ALNUM, 30),  # Fireworks
    TokenFamily(
        ("glpat-", "gloas-", "gldt-", "glcbt-", "glptt-", "glft-", "glimt-", "glagent-",
         "glsoat-", "glffct-", "glwt-", "GR1348941"),
        WORD_DASH, 10,
    ),
    TokenFamily(("glrt-", "glrtr-"), "[A-Za-z0-9_.-]", 10),
    TokenFamily(("pk-lf-",), "[A-Za-z0-9-]", 8),  # Langfuse public key
)

ZERO_WIDTH_AND_CONTROL = "\x00-\x1f\x7f\u200b-\u200f\u2028-\u202f\u2060\ufeff"
"""Characters that may split a token without stopping its detection (a regex class body)."""

# -- Assignment passes (§9 pass 3) -----------------------------------------------------------------

STRONG_WORDS = frozenset({"secret", "passwd", "password", "pass", "pw", "credential",
                          "credentials", "auth", "bearer"})
"""Key words that make a value redacted whatever it looks like."""

STRONG_PAIRS = (
    frozenset({"api", "auth", "access", "refresh", "session", "id", "bearer"}),
    frozenset({"key", "token"}),
)
"""A word of the first set followed by one of the second (``api_key``, ``accessToken``) is strong;
so is ``key material``."""

PASSWORD_WORDS = frozenset({"passwd", "password", "pass", "pw"})
"""Password-class keys: even a path-looking value is redacted."""

ENV_KEY_WORDS = ("API_KEY", "KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASS", "PW",
                 "CREDENTIAL", "AUTH")
"""An upper-case ``KEY=value`` assignment is considered when its key contains one of these."""

LOWER_KEY_WORDS = ("key", "token", "secret", "password", "passwd", "pass", "pw", "credential",
                   "auth")
"""Lower-case ``*_key=`` style assignments: the underscore-bounded keyword ending the key."""

CONFIG_KEY_WORDS = ("password", "passwd", "pass", "pw", "secret", "token", "api_key", "apikey",
                    "access_key", "private_key", "credential", "credentials", "auth")
"""Keywords of dotted config keys, line-anchored ``key=`` lines and YAML keys."""

JSON_SECRET_KEYS = (
    "apiKey", "api_key", "token", "secret", "password", "access_token", "refresh_token",
    "auth_token", "bearer", "secret_value", "raw_secret", "secret_input", "key_material",
)
"""JSON string keys whose string value is redacted (case-insensitive)."""

REPR_SECRET_KEYS = ("api_key", "apikey", "token", "secret", "password", "passwd",
                    "access_token", "refresh_token", "auth_token", "client_secret",
                    "private_key")
"""Python-repr keys (exact, case-insensitive) whose value becomes ``'***'``."""

REPR_SECRET_SUFFIXES = ("_API_KEY", "_TOKEN", "_SECRET", "_PASSWORD", "_PASSWD", "_KEY")
"""Upper-case repr key suffixes treated as secret (``'OPENAI_API_KEY': '…'``)."""

REPR_CAMEL_SUFFIXES = ("ApiKey", "Token", "Secret", "Password", "Credential")
"""camelCase repr key suffixes treated as secret (``'clientSecret': '…'``)."""

ENV_LOOKUP_MARKERS = ("os.getenv", "os.environ", "process.env", "$ENV{")
"""A value that reads the environment is code, not a secret; it is kept."""

# -- Header, URL and form passes (§9 passes 4, 5, 8, 10, 11) --------------------------------------

API_KEY_HEADERS = ("x-api-key", "x-goog-api-key", "api-key", "apikey", "x-api-token",
                   "x-auth-token", "x-access-token")
DB_URL_SCHEMES = ("postgres", "postgresql", "mysql", "mongodb", "mongodb+srv", "redis", "amqp")
TOKEN_URL_SCHEMES = ("http", "https", "ws", "wss", "git", "ssh", "ftp", "ftps", "sftp")
SENSITIVE_QUERY_PARAMS = (
    "access_token", "refresh_token", "id_token", "token", "api_key", "apikey", "client_secret",
    "password", "auth", "jwt", "session", "secret", "key", "code", "signature",
    "x-amz-signature", "x-goog-signature", "sig",
)
