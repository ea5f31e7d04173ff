"""Ordinary source code must come back unchanged: the near misses every secret scanner trips
on (hashes, UUIDs, base64 fixtures, ``password = getpass()``, ``token_type = "Bearer"``,
environment lookups, identifiers that say key or secret, git SHAs), and pathological inputs
must not make any rule slow."""

from __future__ import annotations

import time

import pytest

from shellfree.redaction import redact_sensitive_text as redact

ORDINARY_LINES = [
    # lockfiles and checksums
    'version = "2.31.0"',
    'checksum = "sha256:9c7c9a0b1b3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a"',
    '"integrity": "sha512-Xh1yCD2Y3fJOdJvOZa0+Km7nJcYvlHkDvZZyqhlvhDGlsNSRZkdQoZtDFd7Gf0gL1ZHQ=="',
    ("requests==2.31.0 --hash=sha256:"
     "58cd2187c01e70e6e26505bca751777aa9f2ee0b7f4300988b709f44e013003f"),
    "urllib3/__init__.py,sha256=JMo1tg1nIV1AeJ2vENC_Txfl0e5h6Gzl9DGVk1rWRbo,6979",
    "numpy/ufunclike.pyi,sha256=sk_HDVLeOoNeF4VOGHDI0iUT8YHeeOJjxyZTO4q0ddE,1346",
    # identifiers, UUIDs, SHAs
    "request_id = '123e4567-e89b-12d3-a456-426614174000'",
    "commit 3f786850e387550fdab836ed7e6dc881de23001b (HEAD -> main)",
    "def get_secret_key(self): return self._secret_key",
    "class ApiKeyAuthentication(BaseAuthentication):",
    "SECRET_KEY_SETTING_NAME = 'SECRET_KEY'",
    "token_type = \"Bearer\"",
    "password = getpass()",
    "api_key = os.environ['OPENAI_API_KEY']",
    "api_key = os.getenv('STRIPE_KEY', '')",
    "const apiKey = process.env.API_KEY;",
    "if not auth_token: raise PermissionError('missing token')",
    "public_key_pem = load_pem_public_key(data)",
    # base64 fixtures of ordinary data
    "FIXTURE = 'SGVsbG8sIHdvcmxkISBUaGlzIGlzIGEgdGVzdCBmaXh0dXJlLg=='",
    ("PNG = b'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJ"
     "RU5ErkJggg=='"),
    "payload = 'eyJuYW1lIjogImFsaWNlIiwgImFnZSI6IDMwfQ=='",
    # URLs, numbers, paths
    "url = 'https://docs.python.org/3/library/urllib.parse.html#url-parsing'",
    "ssh://git@github.com:22/org/repo.git",
    "x = Decimal('1.2345E+12345680')",
    "total = count+12345678",
    "path = '/usr/lib/python3.11/site-packages/pkg-1.0.dist-info/RECORD'",
    "logging.info('%s:%s@%s', user, password, host)",
    # documentation of headers
    "Colon-separated username:password string for 'authorization: basic ...'",
    "curl -H 'Authorization: Bearer $TOKEN' https://api.example.com",
    "X-Api-Key: <your-api-key>",
]


@pytest.mark.parametrize("line", ORDINARY_LINES)
def test_ordinary_code_is_kept_in_file_reads(line: str) -> None:
    assert redact(line, file_read=True) == line


@pytest.mark.parametrize("line", ORDINARY_LINES)
def test_ordinary_code_is_kept_as_code_output(line: str) -> None:
    assert redact(line, code_file=True) == line


PATHOLOGICAL = {
    "hex run": "a" * 200_000,
    "jwt-ish": "eyJ" * 60_000,
    "schemes": "://" * 60_000,
    "userinfo": "http://a:" * 20_000 + "@",
    "begin without end": "-----BEGIN PRIVATE KEY-----\n" * 5_000,
    "equals": "password=" * 20_000,
    "sk run": "sk-" + "a" * 200_000,
    "dots": "sk-" + "a." * 100_000,
    "zero width": "\u200b".join("ghp_abc" for _ in range(20_000)),
    "colons": "12345678:" * 20_000,
    "keys": "api_key = " * 20_000,
    "connection strings": "Server=db;Password=" * 10_000,
    "secrets": ("client_secret=" + "a1" * 20 + " ") * 5_000,
    "signatures": "?sv=2020-01-01&sig=" + "A" * 100_000,
    "hex dots": ("0" * 32 + ".") * 10_000,
    "assignments": "\n".join(f"export TOKEN_{i}=abc{i}def" for i in range(20_000)),
}


@pytest.mark.parametrize("name", sorted(PATHOLOGICAL))
def test_pathological_input_stays_fast(name: str) -> None:
    started = time.perf_counter()
    for kwargs in ({"file_read": True}, {}, {"file_read": True, "secret_file": True}):
        redact(PATHOLOGICAL[name], **kwargs)
    assert time.perf_counter() - started < 5.0, f"{name} took too long (quadratic?)"
