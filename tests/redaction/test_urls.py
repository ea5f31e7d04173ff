"""Credentials in URLs and connection strings: database URLs (postgres, mysql, mongodb(+srv),
redis, amqp), bare tokens as userinfo, ``scheme://user:password@host`` for any scheme, and
ODBC / ADO.NET / JDBC ``Password=…;`` connection strings."""

from __future__ import annotations

import pytest

from shellfree.redaction import redact_sensitive_text as redact
from tests.redaction.cases import (
    ALNUM,
    Case,
    assert_kept,
    assert_redacted,
    parametrize_cases,
    synth,
)

PASSWORD = synth(18, ALNUM, "db-password")
TOKEN = synth(40, ALNUM, "url-token")

CASES: dict[str, Case] = {
    "database-url-password": Case(
        positives=[(f"DATABASE_URL=postgres://app:{PASSWORD}@db.internal:5432/app", PASSWORD),
                   (f"mongodb+srv://admin:{PASSWORD}@cluster0.example.net/test", PASSWORD),
                   (f"redis://default:{PASSWORD}@cache:6379/0", PASSWORD),
                   (f"amqp://guest:{PASSWORD}@mq:5672/", PASSWORD),
                   (f"jdbc:mysql://root:{PASSWORD}@localhost/db", PASSWORD)],
        negatives=["postgres://localhost:5432/app", "postgres://app@db/app",
                   "url = 'postgresql://{user}:{password}@{host}/{db}'"],
        also_plain=False,
    ),
    "token-url-userinfo": Case(
        positives=[(f"git clone https://{TOKEN}@github.com/o/r.git", TOKEN),
                   (f"remote = wss://{TOKEN}@stream.example.com", TOKEN)],
        negatives=["ssh://git@github.com/o/r.git", "https://user@example.com/",
                   "mailto:someone@example.com"],
    ),
    "url-password": Case(
        positives=[(f"proxy = 'http://alice:{PASSWORD}@proxy.corp:3128'", PASSWORD),
                   (f"ftp://bob:{PASSWORD}@files.example.com/pub", PASSWORD),
                   (f"smtp://mailer:{PASSWORD}@smtp.example.com:587", PASSWORD)],
        negatives=["'http://user:pass@host/path'", "f'{scheme}://{user}:{password}@{host}'",
                   "'%s://%s:%s@%s' % parts", "http://user:${PASSWORD}@host",
                   "http://localhost:8080/path@section", "https://user:<password>@example.com"],
    ),
    "connection-string-password": Case(
        positives=[(f"Server=tcp:db.example.net,1433;Database=app;User Id=sa;Password={PASSWORD};",
                    PASSWORD),
                   (f'conn = "Driver={{ODBC Driver 18}};Server=db;UID=app;PWD={PASSWORD}"',
                    PASSWORD),
                   (f"Host=db;Username=app;Password={PASSWORD};Database=x", PASSWORD)],
        negatives=["password = getpass()", "connect(host=h, password=password)",
                   "Password=;", "Server=db;User Id=sa;Password={password};",
                   "kwargs = dict(password=pw); run()"],
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
    def test_database_password_is_stars_outside_file_content(self) -> None:
        line = f"postgres://app:{PASSWORD}@db:5432/app"
        assert redact(line) == "postgres://app:***@db:5432/app"
        # File content gets the non-reusable sentinel instead (shellfree, see masks.py).
        assert redact(line, file_read=True) == "postgres://app:«redacted-secret»@db:5432/app"

    def test_web_url_keeps_the_user(self) -> None:
        line = f"http://alice:{PASSWORD}@proxy.corp:3128"
        assert redact(line, file_read=True) == "http://alice:«redacted-secret»@proxy.corp:3128"
        assert redact(line) == "http://alice:***@proxy.corp:3128"

    @pytest.mark.parametrize("token, mask", [
        ("ghp_" + "a" * 36, "«redacted:ghp_…»"), ("sk-" + "b" * 32, "«redacted:sk-…»")])
    def test_a_known_token_as_userinfo_is_masked_once(self, token, mask) -> None:
        # The token pass's mask has a colon in it: the url-password rule must not take the
        # mask's head for a user and its tail for a password (it printed «redacted:«redacted:…).
        line = f"git clone https://{token}@github.com/o/r.git"
        assert redact(line, file_read=True) == f"git clone https://{mask}@github.com/o/r.git"

    def test_opt_in_masks_the_user_too(self) -> None:
        line = f"see http://alice:{PASSWORD}@proxy.corp:3128 now"
        assert redact(line, redact_url_credentials=True) == "see http://***:***@proxy.corp:3128 now"

    def test_odbc_password(self) -> None:
        line = f"Server=db;Database=app;User Id=sa;Password={PASSWORD};"
        assert redact(line, file_read=True) == (
            "Server=db;Database=app;User Id=sa;Password=«redacted-secret»;")

    def test_odbc_braced_password(self) -> None:
        line = f"Driver={{X}};Server=db;UID=app;PWD={{{PASSWORD};x}};"
        assert redact(line, file_read=True) == "Driver={X};Server=db;UID=app;PWD=«redacted-secret»;"
