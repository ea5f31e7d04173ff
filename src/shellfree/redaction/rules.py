"""The redaction rules, as data: one table, :data:`RULES`, with one named entry per secret type.

Two kinds of entry. A :class:`TokenRule` is a token recognised by a literal prefix alone
(``ghp_…``, ``AKIA…``); all of them are compiled into one pass (hermes-contract §9 pass 1). A
:class:`PatternRule` is a secret recognised by what surrounds it: a header, a URL, a key name,
a ``-----BEGIN … PRIVATE KEY-----`` block. Pattern rules run in table order after the token
pass; the ``KEY=value`` assignment passes of §9 (:mod:`shellfree.redaction.assignments`) run
after the pattern rules marked ``before_assignments``. :mod:`shellfree.redaction.passes`
compiles the table once, at import.

Every rule is written from the token format's documented shape, cited in the comment beside it,
never copied from another scanner. The entries before the ``# -- Beyond §9`` markers are the
contract's own families, in the contract's order: the sentinel label of a token is the first
listed literal prefix it starts with, so their order must not change. The keyword tables at the
end drive the assignment passes and the header, URL and form passes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from shellfree.redaction.checks import (
    MatchCheck,
    aws_secret_key,
    connection_string_context,
    credential_like,
    discord_user_id,
    jwt_header,
    named_key,
    not_after,
    on_secret,
    opaque_not_placeholder,
    preceded_by,
    pypi_macaroon,
    random_alnum,
    sas_context,
    scheme_is,
    three_kinds,
    two_kinds,
    url_password,
)

__all__ = [
    "API_KEY_HEADERS",
    "DB_URL_SCHEMES",
    "ENV_LOOKUP_MARKERS",
    "JSON_SECRET_KEYS",
    "PASSWORD_WORDS",
    "PATTERN_RULES",
    "RULES",
    "SENSITIVE_QUERY_PARAMS",
    "STRONG_PAIRS",
    "STRONG_WORDS",
    "TOKEN_RULES",
    "TOKEN_URL_SCHEMES",
    "ZERO_WIDTH_AND_CONTROL",
    "MaskStyle",
    "PatternRule",
    "TokenRule",
]

MaskStyle = Literal["secret", "password", "head-tail", "stars", "private-key"]
"""How a pattern rule's secret is replaced (see :func:`shellfree.redaction.masks.replacement`):

* ``secret``: the ``«redacted:…»`` sentinel for file reads, ``_mask_token`` otherwise;
* ``password``: the sentinel for file reads, ``***`` otherwise (no head or tail of a password);
* ``head-tail``: ``_mask_token`` (§9 headers, JWTs, token URLs), the sentinel for file reads;
* ``stars``: ``***`` (§9 database URL passwords, Telegram secrets), the sentinel for file reads;
* ``private-key``: a ``-----BEGIN … PRIVATE KEY-----`` block (:mod:`.private_keys`).
"""


@dataclass(frozen=True, slots=True)
class TokenRule:
    """A token that starts with a known literal prefix (§9 pass 1).

    *body* is a regex character class for what follows the prefix, at least *min_body* and at
    most *max_body* characters (unbounded when None). *dotted* allows single dots between body
    characters. *prefix_pattern*, when set, is the regex used instead of the escaped literals
    (a prefix with a variable part, such as Slack's ``xapp-<digits>-``); the literals still name
    the sentinel label. *check*, when set, must accept the token's body (what follows the
    prefix).
    """

    name: str
    group: str
    prefixes: tuple[str, ...]
    body: str
    min_body: int
    max_body: int | None = None
    dotted: bool = False
    prefix_pattern: str | None = None
    check: Callable[[str], bool] | None = None


@dataclass(frozen=True, slots=True)
class PatternRule:
    """A secret found by its context. *pattern*'s named group ``secret`` is what is replaced,
    together with the group ``lead`` when the pattern has one (a part of the secret matched by
    a lookbehind, so that the pattern can open with a literal the regex engine finds quickly).

    *gates* are lower-case literals of which at least one must occur in the lower-cased text
    for the regex to run at all (a cheap skip). *label* names the sentinel (``«redacted:LABEL…»``)
    when the secret has no known prefix of its own. *check* must accept the match.
    *before_assignments* runs the rule before §9's assignment passes (Zhipu keys, as the
    contract orders them). *keep_braced_in_code* keeps a ``{…}`` template value in code files.
    """

    name: str
    group: str
    pattern: str
    gates: tuple[str, ...] = ()
    mask: MaskStyle = "secret"
    label: str | None = None
    check: MatchCheck | None = None
    before_assignments: bool = False
    keep_braced_in_code: bool = False


ALNUM = "[A-Za-z0-9]"
WORD = "[A-Za-z0-9_]"
WORD_DASH = "[A-Za-z0-9_-]"
HEX = "[0-9a-f]"
ASSIGN = r"""["']?[ \t]*(?:=>|:=|[:=>])[ \t]*["']?"""
"""Between a key and its value: ``=``, ``:``, ``=>``, ``:=``, quotes and spaces (env, JSON,
YAML, Python, Ruby, Go), or the ``>`` closing an XML start tag (``<clientSecret>…``)."""

DB_URL_SCHEMES = ("postgres", "postgresql", "mysql", "mongodb", "mongodb+srv", "redis", "amqp")
TOKEN_URL_SCHEMES = ("http", "https", "ws", "wss", "git", "ssh", "ftp", "ftps", "sftp")
"""URL schemes of §9 pass 8: database URLs lose their password, web and VCS URLs a bare token."""


def ci(word: str) -> str:
    """*word* in lower case, capitalised or upper case (``[Kk](?:ey|EY)``): unlike ``(?i)``, this
    lets the regex engine skip ahead to the places where the first letter occurs."""
    head, rest = word[0], word[1:]
    return f"[{head.upper()}{head.lower()}](?:{re.escape(rest)}|{re.escape(rest.upper())})"


_alnum = on_secret(random_alnum)
_opaque = on_secret(opaque_not_placeholder)
_named = on_secret(named_key)
_credential = on_secret(credential_like)


RULES: tuple[TokenRule | PatternRule, ...] = (
    # == Known-prefix tokens: hermes-contract §9 pass 1, in the contract's order ==================
    # OpenAI (sk-proj-, sk-svcacct-, sk-admin-), Anthropic (sk-ant-api03-, sk-ant-admin01-),
    # DeepSeek, OpenRouter (sk-or-v1-), Langfuse (sk-lf-), Alibaba (sk-sp-): "sk-" + base64url.
    TokenRule("sk-dash-key", "llm", ("sk-",), WORD_DASH, 10, dotted=True),
    # GitHub: ghp_ (classic PAT), gho_ (OAuth), ghu_/ghs_ (App user/server), ghr_ (refresh)
    # + 36 [A-Za-z0-9] (GitHub blog, "authentication token format updates", 2021-03-31).
    TokenRule("github-token", "vcs", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), ALNUM, 10),
    # GitHub fine-grained PAT: github_pat_ + 22 + "_" + 59 (docs: 93 characters in all).
    TokenRule("github-fine-grained-pat", "vcs", ("github_pat_",), WORD, 10),
    # Slack app-level token: xapp-<version digit>-<ids and secret>.
    TokenRule("slack-app-token", "chat", ("xapp-",), "[A-Za-z0-9-]", 10,
              prefix_pattern=r"xapp-\d+-"),
    # Slack bot/user/workspace tokens: xoxb-, xoxp-, xoxa-, xoxr-, xoxs- + digits and secret.
    TokenRule("slack-token", "chat", ("xoxb-", "xoxa-", "xoxp-", "xoxr-", "xoxs-"),
              "[A-Za-z0-9-]", 10),
    # Google API key (Maps, Gemini, Firebase): "AIza" + 35 [A-Za-z0-9_-].
    TokenRule("google-api-key", "cloud", ("AIza",), WORD_DASH, 30),
    TokenRule("perplexity-key", "llm", ("pplx-",), ALNUM, 10),  # pplx- + 48 alnum
    TokenRule("firecrawl-key", "services", ("fc-",), ALNUM, 10),  # fc- + 32 hex
    TokenRule("huggingface-token", "llm", ("hf_",), ALNUM, 10),  # hf_ + 34 letters
    TokenRule("replicate-token", "llm", ("r8_",), ALNUM, 10),  # r8_ + 37 alnum
    TokenRule("npm-token", "registry", ("npm_",), ALNUM, 10),  # npm_ + 36 alnum
    TokenRule("tavily-key", "services", ("tvly-",), ALNUM, 10),
    TokenRule("exa-key", "services", ("exa_",), ALNUM, 10),
    TokenRule("groq-key", "llm", ("gsk_",), ALNUM, 10),  # gsk_ + 52 alnum
    # Matrix (Synapse) access token "syt_<base64 user>_<20 random>_<6 checksum>". EDGE CASE:
    # the contract's alphanumeric body stops at the first "_" and never matched a real one.
    TokenRule("matrix-access-token", "chat", ("syt_",), WORD, 10),
    TokenRule("agent-memory-keys", "services", ("retaindb_", "hsk-", "mem0_", "brv_"), ALNUM,
              10),
    TokenRule("notion-token", "services", ("ntn_",), ALNUM, 10),
    # DigitalOcean personal (dop_v1_) and OAuth (doo_v1_) tokens + 64 hex.
    TokenRule("digitalocean-token", "cloud", ("dop_v1_", "doo_v1_"), ALNUM, 10),
    # Stripe secret keys sk_live_/sk_test_ and restricted keys rk_live_ (Stripe API docs,
    # "Authentication": secret keys carry the sk_test_/sk_live_ prefix).
    TokenRule("stripe-secret-key", "payment", ("sk_live_", "sk_test_"), ALNUM, 10),
    TokenRule("stripe-restricted-key", "payment", ("rk_live_",), ALNUM, 10),
    TokenRule("fal-key", "llm", ("fal_",), WORD_DASH, 10),
    TokenRule("browserbase-key", "services", ("bb_live_",), WORD_DASH, 10),
    # PyPI API token: "pypi-" + a base64url macaroon that starts "AgEIcHlwaS5vcmc" ("AgE":
    # macaroon v2). EDGE CASE: package names such as "pypi-attestations" are not tokens.
    TokenRule("pypi-token", "registry", ("pypi-",), WORD_DASH, 10, check=pypi_macaroon),
    # SendGrid API key "SG.<22>.<43>". EDGE CASE: the contract's body has no dots, which left
    # the 43-character secret half in place; single dots are allowed here.
    TokenRule("sendgrid-key", "services", ("SG.",), WORD_DASH, 10, dotted=True),
    TokenRule("sk-underscore-key", "llm", ("sk_",), WORD, 10),  # ElevenLabs and others
    TokenRule("codex-encrypted-content", "agent", ("gAAAA",), "[A-Za-z0-9_=-]", 20),
    # AWS access key id: "AKIA" + 16 upper-case alphanumerics (IAM "unique identifiers").
    TokenRule("aws-access-key-id", "cloud", ("AKIA",), "[A-Z0-9]", 16, 16),
    TokenRule("agentmail-key", "services", ("am_org_", "am_"), ALNUM, 20),
    TokenRule("xai-key", "llm", ("xai-",), ALNUM, 30),  # xai- + 80 alnum
    TokenRule("fireworks-key", "llm", ("fw-", "fw_", "fpk_"), ALNUM, 30),
    # GitLab token prefixes (GitLab docs, "Token prefixes"): PAT, OAuth app secret, deploy,
    # CI build, pipeline trigger, feed, incoming mail, agent, SCIM, feature flags, workspace,
    # runner registration.
    TokenRule("gitlab-token", "vcs",
              ("glpat-", "gloas-", "gldt-", "glcbt-", "glptt-", "glft-", "glimt-", "glagent-",
               "glsoat-", "glffct-", "glwt-", "GR1348941"), WORD_DASH, 10),
    TokenRule("gitlab-runner-token", "vcs", ("glrt-", "glrtr-"), "[A-Za-z0-9_.-]", 10),
    TokenRule("langfuse-public-key", "llm", ("pk-lf-",), "[A-Za-z0-9-]", 8),

    # -- Beyond §9: further known-prefix tokens ---------------------------------------------------
    # AWS temporary (STS) access key id: "ASIA" + 16 (STS GetAccessKeyInfo: "Access key IDs
    # beginning with ASIA are temporary credentials").
    TokenRule("aws-temporary-access-key-id", "cloud", ("ASIA",), "[A-Z0-9]", 16, 16),
    # Google OAuth client secret "GOCSPX-" + 28, access token "ya29." + opaque base64url.
    TokenRule("google-oauth-client-secret", "cloud", ("GOCSPX-",), WORD_DASH, 24),
    TokenRule("google-oauth-access-token", "cloud", ("ya29.",), WORD_DASH, 20, dotted=True),
    # HashiCorp Vault tokens: hvs. (service), hvb. (batch), hvr. (recovery) + base62 body.
    TokenRule("vault-token", "cloud", ("hvs.", "hvb.", "hvr."), WORD_DASH, 24),
    TokenRule("digitalocean-refresh-token", "cloud", ("dor_v1_",), ALNUM, 10),
    # Atlassian / Bitbucket (Atlassian staff, 2025): API tokens "ATAT…", app passwords "ATBB…",
    # access tokens (repository, project, workspace) "ATCT…".
    TokenRule("atlassian-api-token", "vcs", ("ATATT",), "[A-Za-z0-9_=-]", 24,
              check=two_kinds),
    TokenRule("bitbucket-app-password", "vcs", ("ATBB",), ALNUM, 24,
              check=two_kinds),
    TokenRule("bitbucket-access-token", "vcs", ("ATCTT",), "[A-Za-z0-9_=-]", 24,
              check=two_kinds),
    # Slack configuration tokens "xoxe.xoxp-…"/"xoxe.xoxb-…" and refresh tokens "xoxe-…"
    # (Slack tooling.tokens.rotate).
    TokenRule("slack-config-token", "chat", ("xoxe.xoxp-", "xoxe.xoxb-", "xoxe-"),
              "[A-Za-z0-9-]", 10),
    # Stripe test restricted keys, publishable keys and webhook signing secrets "whsec_".
    TokenRule("stripe-more-keys", "payment", ("rk_test_", "pk_live_", "pk_test_", "whsec_"),
              ALNUM, 16, check=two_kinds),
    # Square: personal access token "sq0atp-" + 22, application secret "sq0csp-" + 43, and
    # OAuth access tokens that "begin with EAAA" and are 64 characters long.
    TokenRule("square-legacy-token", "payment", ("sq0atp-", "sq0csp-"), WORD_DASH, 22),
    TokenRule("square-access-token", "payment", ("EAAA",), WORD_DASH, 56,
              check=three_kinds),
    # RubyGems API key: "rubygems_" + 48 hex.
    TokenRule("rubygems-key", "registry", ("rubygems_",), HEX, 48, 48),
    # NuGet API key: "oy2" + 43 lower-case base32 characters (46 in all).
    TokenRule("nuget-key", "registry", ("oy2",), "[a-z0-9]", 43, 43,
              check=random_alnum),
    # Docker Hub personal and organisation access tokens: "dckr_pat_" / "dckr_oat_" + 27.
    TokenRule("docker-hub-token", "registry", ("dckr_pat_", "dckr_oat_"), WORD_DASH, 20),
    # crates.io API token: "cio" + 32 alphanumerics (crates.io token generator).
    TokenRule("crates-io-token", "registry", ("cio",), ALNUM, 32, 32,
              check=two_kinds),
    # age secret key: "AGE-SECRET-KEY-1" + 58 upper-case bech32 characters (age spec).
    TokenRule("age-secret-key", "keys", ("AGE-SECRET-KEY-1",), "[02-9AC-HJ-NP-Z]", 58, 58),
    # Shopify admin/custom/private app tokens and shared secrets: shpat_/shpca_/shppa_/shpss_
    # + 32 hex.
    TokenRule("shopify-token", "services", ("shpat_", "shpca_", "shppa_", "shpss_"), ALNUM, 32),
    TokenRule("linear-api-key", "services", ("lin_api_",), ALNUM, 32),  # lin_api_ + 40
    TokenRule("postman-api-key", "services", ("PMAK-",), "[A-Za-z0-9-]", 40),  # PMAK-24-34
    # Grafana service-account tokens "glsa_" + 32 alnum + "_" + 8 hex, and Grafana Cloud
    # tokens "glc_" + base64 of a JSON object (so "eyJ" first).
    TokenRule("grafana-token", "services", ("glsa_", "glc_eyJ"), "[A-Za-z0-9_=+/-]", 32),
    # Sentry organisation ("sntrys_") and user ("sntryu_" + 64 hex) auth tokens.
    TokenRule("sentry-token", "services", ("sntrys_", "sntryu_"), "[A-Za-z0-9_=+/-]", 32),
    TokenRule("new-relic-key", "services", ("NRAK-",), "[A-Z0-9]", 27),  # NRAK- + 27
    TokenRule("supabase-token", "services", ("sbp_",), ALNUM, 40),  # sbp_ + 40 hex
    # PlanetScale service tokens and passwords: pscale_tkn_ / pscale_pw_ / pscale_oauth_.
    TokenRule("planetscale-token", "services", ("pscale_tkn_", "pscale_pw_", "pscale_oauth_"),
              WORD_DASH, 32),
    # Doppler tokens: dp.pt. (personal), dp.st. (service), dp.ct. (CLI), dp.sa. (account).
    TokenRule("doppler-token", "services", ("dp.pt.", "dp.st.", "dp.ct.", "dp.sa."), ALNUM, 40),
    TokenRule("pulumi-token", "services", ("pul-",), HEX, 40),  # pul- + 40 hex
    # Mapbox secret access token: "sk." + a base64url JSON payload and signature.
    TokenRule("mapbox-secret-token", "services", ("sk.eyJ",), WORD_DASH, 40, dotted=True),

    # == Context rules =============================================================================
    # Zhipu (BigModel) keys "<32 hex id>.<secret>" (§9 pass 2, before the assignments).
    PatternRule("zhipu-api-key", "llm",
                r"\.(?<=(?P<lead>[0-9a-f]{32})\.)(?P<secret>[A-Za-z0-9]{16,})(?![A-Za-z0-9_.-])",
                gates=(".",), check=not_after("A-Za-z0-9_.-"), before_assignments=True),
    # §9 pass 4: Authorization / Proxy-Authorization headers, scheme word kept.
    # EDGE CASE: unlike the contract, a placeholder credential ("Bearer $TOKEN", "basic ...",
    # "<token>") is documentation, not a secret, and is kept.
    PatternRule("authorization-header", "headers",
                r"(?i)\b(?:proxy-)?authorization[ \t]*:[ \t]*(?:[A-Za-z][A-Za-z0-9_-]*[ \t]+)?"
                r"(?P<secret>[^\s\"']+)",
                gates=("authorization",), mask="head-tail", check=_credential),
    # §9 pass 5: API-key headers.
    # The pattern starts at "key"/"token" and the check looks back for the rest of the name,
    # so the regex engine can skip ahead to the rare places where "key" or "token" occurs.
    PatternRule("api-key-header", "headers",
                r"(?:[Kk][Ee][Yy]|[Tt][Oo][Kk][Ee][Nn])[ \t]*:[ \t]*(?P<secret>[^\s\"']+)",
                gates=("api-key", "apikey", "x-api-token", "x-auth-token", "x-access-token"),
                mask="head-tail",
                check=preceded_by(r"(?<![A-Za-z0-9_-])(?:x-goog-api-|x-api-|api-?|x-auth-|x-access-)",
                                  _credential)),
    # §9 pass 6: Telegram bot token "<bot id>:<35-character secret>" (Bot API docs example
    # "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11"); the id stays.
    PatternRule("telegram-bot-token", "chat", r":(?<=\d{8}:)(?P<secret>[-A-Za-z0-9_]{30,})",
                gates=(":",), mask="stars"),
    # §9 pass 7: PEM / OpenSSH / PGP private key blocks (RSA, EC, DSA, OPENSSH, ENCRYPTED, PGP).
    PatternRule("private-key-block", "keys",
                r"-----(?:BEGIN|END)[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----",
                gates=("private key",), mask="private-key"),
    # §9 pass 8: database URL passwords, then bare-token userinfo of web/VCS URLs.
    PatternRule("database-url-password", "urls",
                r"://[^:/@\s]{0,256}:(?P<secret>[^@\s]{1,256})@", gates=("://",), mask="stars",
                check=scheme_is(DB_URL_SCHEMES), keep_braced_in_code=True),
    PatternRule("token-url-userinfo", "urls", r"://(?P<secret>[^:/@\s]{8,256})@",
                gates=("://",), mask="head-tail", check=scheme_is(TOKEN_URL_SCHEMES)),
    # §9 pass 9: JWTs, three base64url segments whose header decodes to JSON with "alg".
    # EDGE CASE: unlike the contract, a JWT must not continue a word ("xeyJ…"); the check
    # after the literal keeps the regex fast and a long base64 run from being retried.
    PatternRule("jwt", "keys",
                r"(?P<secret>eyJ(?:(?<![A-Za-z0-9_-]eyJ)|(?<=\\[A-Za-z]eyJ)"
                r"|(?<=\\u[0-9A-Fa-f]{4}eyJ))[A-Za-z0-9_-]{10,}"
                r"(?:\.[A-Za-z0-9_-]{4,}){0,2})",
                gates=("eyj",), mask="head-tail", check=on_secret(jwt_header)),

    # -- Beyond §9: context rules -----------------------------------------------------------------
    # scheme://user:password@host for any scheme: the user stays, the password goes. The user
    # is never a mask (``«``): an earlier pass's «redacted:ghp_…» before an @ has a colon in it.
    PatternRule("url-password", "urls", r"://[^:/@\s«]{1,256}:(?P<secret>[^@\s/]{1,256})@",
                gates=("://",), mask="password", check=url_password),
    # ODBC / ADO.NET / JDBC connection strings: "Server=…;User Id=…;Password=…;" or "PWD={…}".
    PatternRule("connection-string-password", "urls",
                "(?:" + ci("password") + "|" + ci("pwd") + r")[ \t]*=[ \t]*"
                r"(?P<secret>\{[^}\n]{0,256}\}|[^;'\"\s]{1,256})",
                gates=("password", "pwd"), mask="password", check=connection_string_context),
    # AWS secret access key: 40 base64 characters (IAM docs' example
    # "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"), named aws_secret_access_key /
    # SecretAccessKey / secretAccessKey in env files, ~/.aws/credentials, JSON and code.
    PatternRule("aws-secret-access-key", "cloud",
                ci("secret") + r"[_.-]?(?P<access>" + ci("access") + r"[_.-]?)?" + ci("key")
                + ASSIGN + r"(?P<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
                gates=("secret",), check=aws_secret_key),
    # AWS session token (STS): a long base64 blob named aws_session_token / SessionToken.
    PatternRule("aws-session-token", "cloud",
                ci("session") + r"[_.-]?" + ci("token") + ASSIGN
                + r"(?P<secret>[A-Za-z0-9/+=]{100,4096})",
                gates=("session",), check=_alnum),
    # Azure Storage / Cosmos DB "AccountKey=" (86 base64 characters + "==") and Service Bus /
    # Event Hubs "SharedAccessKey=" (44) in connection strings (Microsoft Purview SIT
    # "Azure storage account key").
    PatternRule("azure-storage-account-key", "cloud",
                ci("key") + r"[ \t]*=[ \t]*(?P<secret>[A-Za-z0-9+/]{40,256}={0,2})",
                gates=("accountkey", "sharedaccesskey"),
                check=preceded_by("account|sharedaccess", _alnum)),
    # Azure shared access signature: "sig=" + URL-encoded base64 HMAC in a query with "sv=".
    PatternRule("azure-sas-signature", "cloud",
                r"(?<=[?&;])sig=(?P<secret>[A-Za-z0-9%+/]{40,256}(?:%3[Dd]|=){0,2})",
                gates=("sig=",), check=sas_context),
    # Microsoft Entra client secret: up to 40 of [a-z0-9-_.~] with "Q~" after 3 characters
    # and a digit (Microsoft Purview SIT "Microsoft Entra client secret": "abc7Q~…").
    PatternRule("azure-entra-client-secret", "cloud",
                r"Q~(?<=(?P<lead>[A-Za-z0-9_~.-]{3}[0-9])Q~)(?P<secret>[A-Za-z0-9_~.-]{31,34})"
                r"(?![A-Za-z0-9_~.-])",
                gates=("q~",), check=not_after("A-Za-z0-9_~.-", _alnum)),
    # OAuth client secrets in assignments (Entra AZURE_CLIENT_SECRET / ClientSecret /
    # AppSecret, GitHub and Google OAuth apps): 30–44 opaque characters.
    PatternRule("client-secret-assignment", "cloud",
                ci("secret") + ASSIGN
                + r"(?P<secret>[A-Za-z0-9_.~+/=-]{30,44})(?![A-Za-z0-9_.~+/=-])",
                gates=("secret",), check=preceded_by(r"(?:client|app)[_.-]?", _opaque)),
    # GCP service-account key file: "private_key_id" is 40 hex (the "private_key" PEM is
    # handled by private-key-block).
    PatternRule("gcp-private-key-id", "cloud",
                r'"private_key_id"\s*:\s*"(?P<secret>[0-9a-f]{40})"', gates=("private_key_id",)),
    # Slack incoming webhooks: https://hooks.slack.com/services/T…/B…/<24 alnum secret>
    # (also /workflows/ and /triggers/ URLs).
    PatternRule("slack-webhook-url", "chat",
                r"hooks\.slack\.com/(?:services|workflows|triggers)/(?:[A-Za-z0-9_-]+/){1,3}"
                r"(?P<secret>[A-Za-z0-9_-]{20,64})",
                gates=("hooks.slack.com",), check=on_secret(two_kinds)),
    # Discord webhooks: https://discord.com/api/webhooks/<17–20 digit id>/<68-char token>.
    PatternRule("discord-webhook-url", "chat",
                r"discord(?:app)?\.com/api/(?:v\d+/)?webhooks/\d{17,20}/"
                r"(?P<secret>[A-Za-z0-9_-]{60,80})",
                gates=("discord",), check=_alnum),
    # Discord bot token: base64(user id) "." 6+ char timestamp "." 27+ char HMAC.
    PatternRule("discord-bot-token", "chat",
                r"(?P<secret>[MNO][A-Za-z0-9_-]{21,27}\.[A-Za-z0-9_-]{6,7}"
                r"\.[A-Za-z0-9_-]{27,38})(?![A-Za-z0-9_-])",
                gates=(".",), check=not_after("A-Za-z0-9_-", on_secret(discord_user_id))),
    # Braintree (PayPal) access token: access_token$<environment>$<merchant id>$<32 hex>.
    PatternRule("braintree-access-token", "payment",
                r"(?P<secret>access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32})",
                gates=("access_token$",), label="access_token$"),
    # Providers whose keys have no prefix (Cohere: 40 alnum, Mistral: 32 alnum, Together,
    # AI21, Voyage…), named by the provider in an assignment, in any file.
    PatternRule("provider-api-key-assignment", "llm",
                "(?:" + ci("key") + "|" + ci("token") + ")" + ASSIGN
                + r"(?P<secret>[A-Za-z0-9_-]{32,100})(?![A-Za-z0-9_-])",
                gates=("key", "token"),
                check=preceded_by(r"(?<![A-Za-z0-9])(?:cohere|co|mistral|together(?:ai)?|ai21"
                                  r"|voyage|anyscale|deepinfra|deepseek|openrouter|perplexity|groq"
                                  r"|fireworks|replicate|huggingface|hf|openai|anthropic|gemini"
                                  r"|xai|grok|azure[_.-]?openai|elevenlabs|cerebras)"
                                  r"[_.-]?(?:api[_.-]?)?", _named)),
    # Authorization and API-key headers written as dict / JSON entries in code.
    PatternRule("authorization-header-literal", "headers",
                r"(?i)[\"']authorization[\"'][ \t]*:[ \t]*[\"'](?:bearer|basic|token|bot)[ \t]+"
                r"(?P<secret>[A-Za-z0-9._~+/=-]{16,4096})[\"']",
                gates=("authorization",), check=_named),
    PatternRule("api-key-header-literal", "headers",
                r"(?i)[\"'](?:x-api-key|x-goog-api-key|api-key|apikey|x-api-token|x-auth-token"
                r"|x-access-token|private-token|x-gitlab-token)[\"'][ \t]*:[ \t]*[\"']"
                r"(?P<secret>[^\"'\s]{16,4096})[\"']",
                gates=("api-key", "apikey", "token"), check=_named),
)
"""Every redaction rule, grouped by family for reading; see the module docstring for order."""

TOKEN_RULES: tuple[TokenRule, ...] = tuple(r for r in RULES if isinstance(r, TokenRule))
PATTERN_RULES: tuple[PatternRule, ...] = tuple(r for r in RULES if isinstance(r, PatternRule))

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
SENSITIVE_QUERY_PARAMS = (
    "access_token", "refresh_token", "id_token", "token", "api_key", "apikey", "client_secret",
    "password", "auth", "jwt", "session", "secret", "key", "code", "signature",
    "x-amz-signature", "x-goog-signature", "sig",
)
