"""redact_sensitive_text (hermes-contract §9). Lives here because the engine owns the seam;
the full rule set has its own issue."""

from __future__ import annotations

import pytest

import shellfree.redaction as redaction
from shellfree.redaction import redact_sensitive_text as redact
from shellfree.redaction.masks import mask_token, sentinel


class TestSwitches:
    def test_none_empty_and_non_strings(self):
        assert redact(None) is None
        assert redact("") == ""
        assert redact(12345) == "12345"

    def test_disabled_by_environment_unless_forced(self, monkeypatch):
        monkeypatch.setattr(redaction, "REDACTION_ENABLED", False)
        token = "ghp_ABCDEFGHIJ0123456789"
        assert redact(token) == token
        assert redact(token, force=True) == "ghp_AB...6789"


class TestMasks:
    @pytest.mark.parametrize("token, masked", [
        ("", "***"), ("short", "***"), ("a" * 17, "***"),
        ("abcdef0123456789xyz", "abcdef...9xyz"), ("ab\x00cdef0123456789xyzw", "abcdef...xyzw"),
    ])
    def test_mask_token(self, token, masked):
        assert mask_token(token) == masked

    def test_sentinel_labels(self):
        assert sentinel("sk-ant-abc") == "«redacted:sk-…»"
        assert sentinel("sk_live_abc") == "«redacted:sk_live_…»"
        assert sentinel("opaque") == "«redacted-secret»"


class TestPrefixTokens:
    @pytest.mark.parametrize("token", [
        "sk-proj-abcdefghij12345", "sk-ant-api03-abcdefghij", "ghp_ABCDEFGHIJ0123456789",
        "github_pat_11ABCDEFG_0123456789", "xoxb-1234567890-abcdefghij", "xapp-1-A0123456789-abc",
        "AIzaSyA0123456789abcdefghijklmnopqrstu", "hf_abcdefghijklmnop", "AKIAABCDEFGHIJKLMNOP",
        "glpat-abcdefghij0123456789", "pk-lf-01234567", "gAAAAABn0123456789abcdefghij",
        "xai-" + "a" * 30, "am_" + "b" * 20, "sk_live_abcdefghij0123",
    ])
    def test_known_prefixes_become_sentinels_for_file_reads(self, token):
        out = redact(f"value = {token} # x", file_read=True)
        assert token not in out and out.startswith("value = «redacted")

    def test_mask_outside_file_reads(self):
        assert redact("key sk-abcdefghijklmnopqrstuvwxyz end") == "key sk-abc...wxyz end"

    @pytest.mark.parametrize("text", [
        "ask-abcdefghijklmnop", "sk-abc", "ghp_short", "AKIAABCDEFGHIJKLMNOPQ",
        "mysk-abcdefghijklmnopq",
    ])
    def test_boundaries_and_lengths(self, text):
        assert redact(text, file_read=True) == text

    def test_inside_escaped_json(self):
        assert redact('"\\nghp_ABCDEFGHIJ0123456789"', file_read=True) == (
            '"\\n«redacted:ghp_…»"')

    def test_split_by_zero_width_characters(self):
        assert redact("t=ghp_ABCDE\u200bFGHIJ0123456789", file_read=True) == "t=«redacted:ghp_…»"

    def test_split_token_followed_by_equals_is_kept(self):
        text = "ghp_ABCDE\u200bFGHIJ0123456789=1"
        assert redact(text, file_read=True) == text


def test_zhipu_key():
    key = "0123456789abcdef0123456789abcdef.AbCdEfGhIjKlMnOpQr"
    assert redact(f"k {key}", file_read=True) == "k «redacted-secret»"


class TestAssignments:
    def test_skipped_for_ordinary_file_reads(self):
        assert redact('API_KEY = "abcd1234efgh5678"', file_read=True) == (
            'API_KEY = "abcd1234efgh5678"')

    @pytest.mark.parametrize("text, expected", [
        ("export TOKEN=opaque123abcdefXYZ", "export TOKEN=«redacted-secret»"),
        ('API_KEY="abcd1234"', 'API_KEY="«redacted-secret»"'),
        ("db_password=hunter2", "db_password=«redacted-secret»"),
        ('{"apiKey": "abc123"}', '{"apiKey": "«redacted-secret»"}'),
        ("password: hunter2", "password: «redacted-secret»"),
        ("5|secret=abc", "5|secret=«redacted-secret»"),
    ])
    def test_secret_files(self, text, expected):
        assert redact(text, file_read=True, secret_file=True) == expected

    @pytest.mark.parametrize("text, expected", [
        ('export DB_PASSWORD="correct horse battery staple"',
         'export DB_PASSWORD="«redacted-secret»"'),
        ("export API_TOKEN='tok en with spaces'", "export API_TOKEN='«redacted-secret»'"),
        ('SECRET="it\'s here" # note', 'SECRET="«redacted-secret»" # note'),
        ('password="a b c" other', 'password="«redacted-secret»" other'),
        ('db.password="x y"', 'db.password="«redacted-secret»"'),
        ('api_key="abc def"', 'api_key="«redacted-secret»"'),
        ('API_KEY="no closing quote', 'API_KEY=«redacted-secret» closing quote'),
        ('NAME="John Smith"', 'NAME="John Smith"'), ('DB_PASSWORD=""', 'DB_PASSWORD=""'),
    ])
    def test_a_quoted_value_is_redacted_to_its_closing_quote(self, text, expected):
        # Hermes' forms stop at the first space: "horse battery staple" stayed in view.
        assert redact(text, file_read=True, secret_file=True) == expected

    @pytest.mark.parametrize("text", [
        "KEYBOARD=qwerty", "SORT_KEY=name", "API_KEY=os.getenv('X')", "author: me",
        "HOME_PATH=/usr/local/bin", "tokenizer=bert", "API_KEY=***",
    ])
    def test_false_positive_guards(self, text):
        assert redact(text, secret_file=True) == text

    def test_python_repr(self):
        assert redact("{'OPENAI_API_KEY': 'abc', 'name': 'x'}") == (
            "{'OPENAI_API_KEY': '***', 'name': 'x'}")


class TestOtherPasses:
    @pytest.mark.parametrize("text, expected", [
        ("Authorization: Bearer abcdefghijklmnopqrstuvwxyz",
         "Authorization: Bearer abcdef...wxyz"),
        ("x-api-key: abcdefghijklmnopqrstuvwxyz", "x-api-key: abcdef...wxyz"),
        ("bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0", "bot123456789:***"),
        ("-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----",
         "[REDACTED PRIVATE KEY]"),
        ("postgres://user:hunter2@db:5432/x", "postgres://user:***@db:5432/x"),
        ("https://abcdef0123456789wxyz@example.com", "https://abcdef...wxyz@example.com"),
        ("https://abcdef01@example.com", "https://***@example.com"),
        ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "eyJhbG...dXJl"),
        ("call +15551234567 today", "call +1555****4567 today"),
        ("call +1234567", "call +12****67"),
        ("user=bob&password=hunter2&x=1", "user=bob&password=***&x=1"),
    ])
    def test_pass(self, text, expected):
        assert redact(text) == expected

    def test_db_template_kept_in_code(self):
        text = "postgres://user:{password}@db/x"
        assert redact(text, code_file=True) == text

    def test_url_query_only_on_request(self):
        url = "https://x.test/cb?code=abc&state=1"
        assert redact(url) == url
        assert redact(url, redact_url_credentials=True) == "https://x.test/cb?code=***&state=1"
