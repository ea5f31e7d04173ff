"""The labelled corpus of fake secrets: every family's secrets, generated from a seed to their
documented shapes, each embedded in realistic surroundings.

A :class:`Sample` is one text (a line, or a few lines for key blocks) with the family it
belongs to, the context it sits in (``.env``, JSON, YAML, Python, JavaScript, shell, HTTP
header, URL, log line, PEM file…) and the secret substrings that must be gone after redaction.
Every value is synthetic: random characters from :class:`random.Random` seeded by the run seed,
shaped like the real format; none is a credential.
"""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["CONTEXTS", "FAMILIES", "Family", "Sample", "generate"]

UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LOWER = "abcdefghijklmnopqrstuvwxyz"
DIGITS = "0123456789"
ALNUM = UPPER + LOWER + DIGITS
WORD_DASH = ALNUM + "_-"
HEX = DIGITS + "abcdef"
B64 = ALNUM + "+/"


@dataclass(frozen=True, slots=True)
class Sample:
    """One labelled text: *secrets* must all be gone from it after redaction."""

    family: str
    context: str
    text: str
    secrets: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Secret:
    """A generated credential: *value* is what a file would hold (a token, a URL, a header
    value, a key block), *secrets* the parts of it that must disappear, *name* the variable
    name a developer would give it."""

    value: str
    secrets: tuple[str, ...]
    name: str


class Gen:
    """Random strings for one run, from one seeded generator."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def s(self, length: int, alphabet: str = ALNUM) -> str:
        """A random string of *length* characters of *alphabet* (uniform, as token generators
        draw them: no filtering, so an occasional all-letter token is in the corpus too)."""
        return "".join(self.rng.choice(alphabet) for _ in range(length))

    def pick(self, *options: str) -> str:
        return self.rng.choice(options)


def _token(name: str, make: Callable[[Gen], str]) -> Callable[[Gen], Secret]:
    def build(g: Gen) -> Secret:
        value = make(g)
        return Secret(value, (value,), name)
    return build


def _b64url_json(data: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


def _jwt(g: Gen) -> Secret:
    header = _b64url_json({"alg": g.pick("HS256", "RS256", "ES256"), "typ": "JWT"})
    payload = _b64url_json({"sub": g.s(12, DIGITS), "iat": int(g.s(9, DIGITS)),
                            "name": g.s(8, LOWER)})
    value = f"{header}.{payload}.{g.s(43, WORD_DASH)}"
    return Secret(value, (value,), "ID_TOKEN")


def _discord_bot(g: Gen) -> Secret:
    user_id = g.pick("1", "2", "9") + g.s(17, DIGITS)
    first = base64.b64encode(user_id.encode()).decode().rstrip("=")
    value = f"{first}.{g.s(6, WORD_DASH)}.{g.s(38, WORD_DASH)}"
    return Secret(value, (value,), "DISCORD_BOT_TOKEN")


def _pem(kind: str) -> Callable[[Gen], Secret]:
    def build(g: Gen) -> Secret:
        lines = [g.s(64, B64) for _ in range(g.rng.randint(4, 12))] + [g.s(28, B64) + "=="]
        value = "\n".join([f"-----BEGIN {kind}-----", *lines, f"-----END {kind}-----"])
        return Secret(value, tuple(lines), "PRIVATE_KEY")
    return build


def _url(scheme: str, host: str, name: str) -> Callable[[Gen], Secret]:
    def build(g: Gen) -> Secret:
        password = g.s(g.rng.randint(12, 24))
        user = g.s(6, LOWER)
        return Secret(f"{scheme}://{user}:{password}@{host}", (password,), name)
    return build


def _odbc(g: Gen) -> Secret:
    password = g.s(16)
    value = g.pick(
        f"Server=tcp:{g.s(6, LOWER)}.database.windows.net,1433;Database=app;User Id=sa;"
        f"Password={password};Encrypt=true;",
        f"Driver={{ODBC Driver 18 for SQL Server}};Server=db;UID=app;PWD={password};",
        f"Host=db;Port=5432;Username=app;Password={password};Database=orders")
    return Secret(value, (password,), "CONNECTION_STRING")


def _azure_storage(g: Gen) -> Secret:
    key = g.s(86, B64) + "=="
    value = (f"DefaultEndpointsProtocol=https;AccountName={g.s(10, LOWER)};AccountKey={key};"
             "EndpointSuffix=core.windows.net")
    return Secret(value, (key,), "AZURE_STORAGE_CONNECTION_STRING")


def _azure_sas(g: Gen) -> Secret:
    sig = g.s(40, ALNUM) + g.pick("%2B", "%2F", "") + g.s(3) + "%3D"
    value = (f"https://{g.s(8, LOWER)}.blob.core.windows.net/data/{g.s(6, LOWER)}.csv?"
             "sv=2022-11-02&ss=b&srt=o&sp=r&se=2030-01-01T00:00:00Z&spr=https&sig=" + sig)
    return Secret(value, (sig,), "AZURE_SAS_URL")


def _gcp_service_account(g: Gen) -> Secret:
    key_id = g.s(40, HEX)
    body = [g.s(64, B64) for _ in range(6)]
    pem = "-----BEGIN PRIVATE KEY-----\\n" + "\\n".join(body) + "\\n-----END PRIVATE KEY-----\\n"
    value = (f'{{"type": "service_account", "project_id": "demo-{g.s(6, LOWER)}", '
             f'"private_key_id": "{key_id}", "private_key": "{pem}", '
             f'"client_email": "ci@demo.iam.gserviceaccount.com"}}')
    return Secret(value, (key_id, *body), "GOOGLE_APPLICATION_CREDENTIALS_JSON")


def _slack_webhook(g: Gen) -> Secret:
    secret = g.s(24)
    workspace, channel = g.s(10, UPPER + DIGITS), g.s(10, UPPER + DIGITS)
    value = f"https://hooks.slack.com/services/T{workspace}/B{channel}/{secret}"
    return Secret(value, (secret,), "SLACK_WEBHOOK_URL")


def _discord_webhook(g: Gen) -> Secret:
    secret = g.s(68, WORD_DASH)
    value = f"https://discord.com/api/webhooks/{g.s(18, DIGITS)}/{secret}"
    return Secret(value, (secret,), "DISCORD_WEBHOOK_URL")


def _telegram(g: Gen) -> Secret:
    secret = "AA" + g.s(33, WORD_DASH)
    value = f"{g.pick('5', '6', '7')}{g.s(9, DIGITS)}:{secret}"
    return Secret(value, (secret,), "TELEGRAM_BOT_TOKEN")


def _api_key_header(g: Gen) -> Secret:
    key = g.s(40)
    return Secret(key, (key,), g.pick("X-Api-Key", "x-api-key", "X-Auth-Token"))


def _bearer(g: Gen) -> Secret:
    token = g.s(40, WORD_DASH)
    return Secret(f"Bearer {token}", (token,), "Authorization")


def _basic(g: Gen) -> Secret:
    raw = f"{g.s(6, LOWER)}:{g.s(16)}".encode()
    token = base64.b64encode(raw).decode()
    return Secret(f"Basic {token}", (token,), "Authorization")


@dataclass(frozen=True, slots=True)
class Family:
    """A family of secrets: its generators and the contexts they are embedded in."""

    name: str
    makers: tuple[Callable[[Gen], Secret], ...]
    contexts: tuple[str, ...]


TOKEN_CONTEXTS = ("env", "json", "yaml", "python", "javascript", "shell", "log", "toml",
                  "markdown", "url-query", "xml-element", "dockerfile", "ini")
HEADER_CONTEXTS = ("http", "curl", "python-dict", "log-header")
URL_CONTEXTS = ("env", "json", "yaml", "python", "javascript", "log", "toml")

FAMILIES: tuple[Family, ...] = (
    Family("aws-access-key-id", (
        _token("AWS_ACCESS_KEY_ID", lambda g: "AKIA" + g.s(16, UPPER + DIGITS)),
        _token("AWS_ACCESS_KEY_ID", lambda g: "ASIA" + g.s(16, UPPER + DIGITS))),
        TOKEN_CONTEXTS),
    Family("aws-secret-access-key", (
        _token("aws_secret_access_key", lambda g: g.s(40, B64)),
        _token("AWS_SECRET_ACCESS_KEY", lambda g: g.s(40, B64)),
        _token("SecretAccessKey", lambda g: g.s(40, B64))), TOKEN_CONTEXTS),
    Family("aws-session-token", (
        _token("aws_session_token", lambda g: "IQoJb3JpZ2luX2Vj" + g.s(300, B64)),),
        TOKEN_CONTEXTS),
    Family("google-api-key", (_token("GOOGLE_API_KEY", lambda g: "AIza" + g.s(35, WORD_DASH)),),
           TOKEN_CONTEXTS),
    Family("google-oauth", (
        _token("GOOGLE_CLIENT_SECRET", lambda g: "GOCSPX-" + g.s(28, WORD_DASH)),
        _token("GOOGLE_ACCESS_TOKEN", lambda g: "ya29.a0" + g.s(150, WORD_DASH))),
        TOKEN_CONTEXTS),
    Family("gcp-service-account", (_gcp_service_account,), ("raw", "python", "env-quoted")),
    Family("azure-storage-key", (_azure_storage,), URL_CONTEXTS),
    Family("azure-sas-token", (_azure_sas,), URL_CONTEXTS),
    Family("azure-entra-client-secret", (
        _token("AZURE_CLIENT_SECRET",
               lambda g: g.s(3, ALNUM) + g.pick(*DIGITS) + "Q~" + g.s(34, ALNUM + "_~.-")),),
        TOKEN_CONTEXTS),
    Family("github", tuple(
        _token("GITHUB_TOKEN", lambda g, p=p: p + g.s(36))
        for p in ("ghp_", "gho_", "ghu_", "ghs_", "ghr_")) + (
        _token("GH_PAT", lambda g: "github_pat_" + g.s(22) + "_" + g.s(59)),), TOKEN_CONTEXTS),
    Family("gitlab", tuple(
        _token("GITLAB_TOKEN", lambda g, p=p: p + g.s(20, WORD_DASH))
        for p in ("glpat-", "gldt-", "glptt-", "glrt-", "gloas-", "glcbt-", "glft-")),
        TOKEN_CONTEXTS),
    Family("bitbucket-atlassian", (
        _token("BITBUCKET_APP_PASSWORD", lambda g: "ATBB" + g.s(32)),
        _token("BITBUCKET_ACCESS_TOKEN", lambda g: "ATCTT3xFfGN0" + g.s(180, WORD_DASH + "=")),
        _token("ATLASSIAN_API_TOKEN", lambda g: "ATATT3xFfGF0" + g.s(180, WORD_DASH + "="))),
        TOKEN_CONTEXTS),
    Family("slack-token", (
        _token("SLACK_BOT_TOKEN", lambda g: f"xoxb-{g.s(12, DIGITS)}-{g.s(13, DIGITS)}-{g.s(24)}"),
        _token("SLACK_USER_TOKEN", lambda g: f"xoxp-{g.s(12, DIGITS)}-{g.s(12, DIGITS)}-"
               f"{g.s(13, DIGITS)}-{g.s(32, HEX)}"),
        _token("SLACK_APP_TOKEN", lambda g: f"xapp-1-A{g.s(10, UPPER + DIGITS)}-"
               f"{g.s(13, DIGITS)}-{g.s(64, HEX)}"),
        _token("SLACK_CONFIG_TOKEN", lambda g: "xoxe.xoxp-1-" + g.s(140))), TOKEN_CONTEXTS),
    Family("slack-webhook", (_slack_webhook,), URL_CONTEXTS),
    Family("discord", (_discord_bot, _discord_webhook), URL_CONTEXTS),
    Family("telegram-bot-token", (_telegram,), TOKEN_CONTEXTS),
    Family("stripe", tuple(
        _token("STRIPE_KEY", lambda g, p=p: p + g.s(99))
        for p in ("sk_live_", "sk_test_", "rk_live_", "rk_test_", "pk_live_")) + (
        _token("STRIPE_WEBHOOK_SECRET", lambda g: "whsec_" + g.s(32)),), TOKEN_CONTEXTS),
    Family("square", (
        _token("SQUARE_ACCESS_TOKEN", lambda g: "EAAA" + g.s(60, WORD_DASH)),
        _token("SQUARE_TOKEN", lambda g: "sq0atp-" + g.s(22, WORD_DASH)),
        _token("SQUARE_APP_SECRET", lambda g: "sq0csp-" + g.s(43, WORD_DASH))), TOKEN_CONTEXTS),
    Family("braintree", (
        _token("BRAINTREE_ACCESS_TOKEN", lambda g: "access_token$production$"
               + g.s(16, LOWER + DIGITS) + "$" + g.s(32, HEX)),), TOKEN_CONTEXTS),
    Family("openai", tuple(
        _token("OPENAI_API_KEY", lambda g, p=p: p + g.s(120, WORD_DASH))
        for p in ("sk-proj-", "sk-svcacct-", "sk-admin-")), TOKEN_CONTEXTS),
    Family("anthropic", (
        _token("ANTHROPIC_API_KEY", lambda g: "sk-ant-api03-" + g.s(93, WORD_DASH) + "AA"),
        _token("ANTHROPIC_ADMIN_KEY", lambda g: "sk-ant-admin01-" + g.s(93, WORD_DASH) + "AA")),
        TOKEN_CONTEXTS),
    Family("llm-prefixed", (
        _token("GROQ_API_KEY", lambda g: "gsk_" + g.s(52)),
        _token("HF_TOKEN", lambda g: "hf_" + g.s(34, UPPER + LOWER)),
        _token("REPLICATE_API_TOKEN", lambda g: "r8_" + g.s(37)),
        _token("PERPLEXITY_API_KEY", lambda g: "pplx-" + g.s(48)),
        _token("XAI_API_KEY", lambda g: "xai-" + g.s(80)),
        _token("DEEPSEEK_API_KEY", lambda g: "sk-" + g.s(32, HEX))), TOKEN_CONTEXTS),
    Family("llm-unprefixed", (
        _token("COHERE_API_KEY", lambda g: g.s(40)),
        _token("MISTRAL_API_KEY", lambda g: g.s(32)),
        _token("TOGETHER_API_KEY", lambda g: g.s(64, HEX))), TOKEN_CONTEXTS),
    Family("npm-pypi", (
        _token("NPM_TOKEN", lambda g: "npm_" + g.s(36)),
        _token("PYPI_TOKEN", lambda g: "pypi-AgEIcHlwaS5vcmc" + g.s(150, WORD_DASH))),
        TOKEN_CONTEXTS),
    Family("other-registries", (
        _token("RUBYGEMS_API_KEY", lambda g: "rubygems_" + g.s(48, HEX)),
        _token("NUGET_API_KEY", lambda g: "oy2" + g.s(43, LOWER + DIGITS)),
        _token("DOCKERHUB_TOKEN", lambda g: "dckr_pat_" + g.s(27, WORD_DASH)),
        _token("CARGO_REGISTRY_TOKEN", lambda g: "cio" + g.s(32))), TOKEN_CONTEXTS),
    Family("private-key", tuple(_pem(kind) for kind in (
        "RSA PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY", "PRIVATE KEY",
        "ENCRYPTED PRIVATE KEY", "DSA PRIVATE KEY", "PGP PRIVATE KEY BLOCK")),
        ("raw", "yaml-block", "json-escaped", "python-triple", "numbered-page")),
    Family("jwt", (_jwt,), TOKEN_CONTEXTS + ("http",)),
    Family("database-url", tuple(
        _url(scheme, host, "DATABASE_URL") for scheme, host in (
            ("postgres", "db.internal:5432/app"), ("postgresql", "10.0.0.5/orders"),
            ("mysql", "mysql:3306/shop"), ("mongodb+srv", "cluster0.abcde.mongodb.net/test"),
            ("redis", "cache:6379/0"), ("amqp", "rabbit:5672/vhost"))), URL_CONTEXTS),
    Family("url-password", tuple(
        _url(scheme, host, "PROXY_URL") for scheme, host in (
            ("http", "proxy.corp:3128"), ("https", "git.example.com/org/repo.git"),
            ("ftp", "files.example.com/pub"), ("smtp", "smtp.example.com:587"))), URL_CONTEXTS),
    Family("connection-string", (_odbc,), ("env-quoted", "json", "python", "xml", "log")),
    Family("authorization-header", (_bearer, _basic), HEADER_CONTEXTS),
    Family("api-key-header", (_api_key_header,), HEADER_CONTEXTS),
    Family("saas-tokens", (
        _token("SENDGRID_API_KEY",
               lambda g: "SG." + g.s(22, WORD_DASH) + "." + g.s(43, WORD_DASH)),
        _token("SHOPIFY_TOKEN", lambda g: "shpat_" + g.s(32, HEX)),
        _token("VAULT_TOKEN", lambda g: "hvs." + g.s(90, WORD_DASH)),
        _token("DOPPLER_TOKEN", lambda g: "dp.st." + g.s(44)),
        _token("LINEAR_API_KEY", lambda g: "lin_api_" + g.s(40)),
        _token("DIGITALOCEAN_TOKEN", lambda g: "dop_v1_" + g.s(64, HEX)),
        _token("AGE_SECRET_KEY",
               lambda g: "AGE-SECRET-KEY-1" + g.s(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"))),
        TOKEN_CONTEXTS),
)


def _python_name(name: str) -> str:
    return name.lower().replace("-", "_")


def _camel(name: str) -> str:
    words = name.lower().replace("-", "_").split("_")
    return words[0] + "".join(w.capitalize() for w in words[1:])


def _numbered(text: str, first: int) -> str:
    return "\n".join(f"{first + i}|{line}" for i, line in enumerate(text.split("\n")))


CONTEXTS: dict[str, Callable[[Secret, Gen], str]] = {
    "env": lambda s, g: f"{s.name.upper()}={s.value}",
    "env-quoted": lambda s, g: f"{s.name.upper()}='{s.value}'",
    "shell": lambda s, g: f"export {s.name.upper()}=\"{s.value}\"",
    "json": lambda s, g: json.dumps({_camel(s.name): s.value, "region": "eu-west-1"}),
    "yaml": lambda s, g: f"  {_python_name(s.name)}: {s.value}",
    "toml": lambda s, g: f'{_python_name(s.name)} = "{s.value}"',
    "python": lambda s, g: f'{_python_name(s.name)} = "{s.value}"  # TODO: move to vault',
    "javascript": lambda s, g: f"const {_camel(s.name)} = '{s.value}';",
    "log": lambda s, g: (f"2026-11-30T12:{g.s(2, DIGITS)}:{g.s(2, DIGITS)}Z DEBUG job "
                         f"{g.s(6, LOWER)} started with {s.name}={s.value} (pid {g.s(5, DIGITS)})"),
    "log-header": lambda s, g: (f"2026-11-30T12:{g.s(2, DIGITS)}:{g.s(2, DIGITS)}Z DEBUG > GET "
                                f"/v1/items HTTP/1.1 > {s.name}: {s.value}"),
    "http": lambda s, g: f"{s.name}: {s.value}",
    "curl": lambda s, g: f"curl -sS -H '{s.name}: {s.value}' https://api.example.com/v1/items",
    "python-dict": lambda s, g: f'requests.get(url, headers={{"{s.name}": "{s.value}"}})',
    "xml": lambda s, g: f'<add name="Default" connectionString="{s.value}" />',
    "xml-element": lambda s, g: f"    <{_camel(s.name)}>{s.value}</{_camel(s.name)}>",
    "markdown": lambda s, g: f"Set `{s.name.upper()}` to `{s.value}` before running `make deploy`.",
    "url-query": lambda s, g: (f"GET https://api.example.com/v2/{g.s(5, LOWER)}?"
                               f"{_python_name(s.name)}={s.value}&page=2"),
    "dockerfile": lambda s, g: f"ENV {s.name.upper()}={s.value}",
    "ini": lambda s, g: f"[default]\n{_python_name(s.name)} = {s.value}",
    "raw": lambda s, g: s.value,
    "yaml-block": lambda s, g: "tls:\n  key: |\n" + "\n".join(
        "    " + line for line in s.value.split("\n")),
    "json-escaped": lambda s, g: json.dumps({"private_key": s.value + "\n"}),
    "python-triple": lambda s, g: f'KEY = """\n{s.value}\n"""',
    "numbered-page": lambda s, g: _numbered(f"# deploy key\n{s.value}\n# end", 40),
}
"""How a secret sits in a file: each returns the text for one sample."""


def generate(seed: int, per_family: int) -> list[Sample]:
    """*per_family* samples of every family, cycling through its generators and contexts."""
    rng = random.Random(seed)
    gen = Gen(rng)
    samples: list[Sample] = []
    for family in FAMILIES:
        for index in range(per_family):
            maker = family.makers[index % len(family.makers)]
            context = family.contexts[(index // len(family.makers)) % len(family.contexts)]
            secret = maker(gen)
            text = CONTEXTS[context](secret, gen)
            samples.append(Sample(family.name, context, text, secret.secrets))
    return samples
