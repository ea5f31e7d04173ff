"""HTTP credential headers: ``Authorization`` / ``Proxy-Authorization`` (Bearer, Basic, any
scheme), ``X-Api-Key``-style headers, and both written as dict / JSON entries in code."""

from __future__ import annotations

import base64

import pytest

from shellfree.redaction import redact_sensitive_text as redact
from tests.redaction.cases import (
    ALNUM,
    WORD_DASH,
    Case,
    assert_kept,
    assert_redacted,
    parametrize_cases,
    synth,
)

BEARER = synth(40, WORD_DASH, "bearer")
BASIC = base64.b64encode(b"alice:" + synth(16, ALNUM, "basic-pass").encode()).decode()
API_KEY = synth(32, ALNUM, "api-key-header")

CASES: dict[str, Case] = {
    "authorization-header": Case(
        positives=[(f"Authorization: Bearer {BEARER}", BEARER),
                   (f"curl -H 'Authorization: Basic {BASIC}' https://x.test", BASIC),
                   (f"proxy-authorization: Negotiate {BEARER}", BEARER),
                   (f"> authorization: {BEARER}", BEARER)],
        negatives=["# Authorization is handled by the gateway",
                   "def check_authorization(request): ...",
                   "Authorization"],
    ),
    "api-key-header": Case(
        positives=[(f"X-Api-Key: {API_KEY}", API_KEY),
                   (f"x-goog-api-key: {API_KEY}", API_KEY),
                   (f"X-Auth-Token: {API_KEY}", API_KEY)],
        negatives=["X-Api-Key header required", "my-api-key-loader.py"],
    ),
    "authorization-header-literal": Case(
        positives=[(f'headers = {{"Authorization": "Bearer {BEARER}"}}', BEARER),
                   (f"{{'authorization': 'Basic {BASIC}'}}", BASIC),
                   (f'fetch(url, {{headers: {{"Authorization": "token {BEARER}"}}}})', BEARER)],
        negatives=['headers = {"Authorization": "Bearer " + token}',
                   'headers = {"Authorization": f"Bearer {token}"}',
                   '{"Authorization": "Bearer YOUR_ACCESS_TOKEN_HERE"}',
                   'token_type = "Bearer"'],
        also_plain=False,
    ),
    "api-key-header-literal": Case(
        positives=[(f'headers = {{"X-Api-Key": "{API_KEY}"}}', API_KEY),
                   (f"{{'PRIVATE-TOKEN': '{API_KEY}'}}", API_KEY)],
        negatives=['headers = {"X-Api-Key": api_key}',
                   '{"x-api-key": "<your-api-key>"}',
                   '{"X-Api-Key": "REPLACE_WITH_YOUR_KEY"}'],
        also_plain=False,
    ),
}

POSITIVES, NEGATIVES = parametrize_cases(CASES)


@pytest.mark.parametrize("rule, line, secret", POSITIVES)
def test_true_positive(rule: str, line: str, secret: str) -> None:
    assert_redacted(line, secret)


@pytest.mark.parametrize("rule, line, also_plain", NEGATIVES)
def test_near_miss(rule: str, line: str, also_plain: bool) -> None:
    assert_kept(line, also_plain=also_plain)


class TestExactOutput:
    def test_bearer_scheme_word_stays(self) -> None:
        # In file content every secret becomes a sentinel (a shellfree change to §9, which keeps
        # a reusable head and tail here), so a page written back is refused.
        assert redact(f"Authorization: Bearer {BEARER}", file_read=True) == (
            "Authorization: Bearer «redacted-secret»")
        assert redact(f"Authorization: Bearer {BEARER}") == (
            f"Authorization: Bearer {BEARER[:6]}...{BEARER[-4:]}")

    def test_dict_header_in_code_becomes_a_sentinel(self) -> None:
        assert redact(f'headers = {{"Authorization": "Bearer {BEARER}"}}', file_read=True) == (
            'headers = {"Authorization": "Bearer «redacted-secret»"}')

    def test_api_key_header(self) -> None:
        assert redact(f"X-Api-Key: {API_KEY}") == f"X-Api-Key: {API_KEY[:6]}...{API_KEY[-4:]}"
