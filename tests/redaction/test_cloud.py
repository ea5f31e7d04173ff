"""Cloud credentials: AWS (access key ids, secret access keys, session tokens), Google (API
keys, OAuth client secrets and access tokens, service-account key ids), Azure (storage account
keys, SAS signatures, Entra client secrets), HashiCorp Vault, DigitalOcean."""

from __future__ import annotations

import pytest

from shellfree.redaction import redact_sensitive_text as redact
from tests.redaction.cases import (
    ALNUM,
    B64,
    HEX,
    UPPER_ALNUM,
    WORD_DASH,
    Case,
    assert_kept,
    assert_redacted,
    parametrize_cases,
    synth,
)

AWS_ID = "AKIA" + synth(16, UPPER_ALNUM, "akia")
AWS_TEMP_ID = "ASIA" + synth(16, UPPER_ALNUM, "asia")
AWS_SECRET = synth(40, B64, "aws-secret")
AWS_SESSION = "FwoGZXIvYXdzE" + synth(300, B64, "aws-session")
GOOGLE_KEY = "AIza" + synth(35, WORD_DASH, "google")
GOOGLE_CLIENT_SECRET = "GOCSPX-" + synth(28, WORD_DASH, "gocspx")
GOOGLE_ACCESS = "ya29.a0" + synth(150, WORD_DASH, "ya29")
GCP_KEY_ID = synth(40, HEX, "gcp-key-id")
AZURE_ACCOUNT_KEY = synth(86, B64, "azure-account") + "=="
AZURE_SB_KEY = synth(43, B64, "azure-sb") + "="
AZURE_SIG = synth(40, ALNUM, "azure-sig") + "%2B" + synth(3, ALNUM, "s2") + "%3D"
AZURE_SAS_URL = ("https://acct.blob.core.windows.net/c/report.pdf?sv=2022-11-02&ss=b&srt=o"
                 f"&sp=r&se=2030-01-01T00:00:00Z&spr=https&sig={AZURE_SIG}")
ENTRA_SECRET = "abc7Q~" + synth(34, ALNUM + "_~.-", "entra")
OAUTH_CLIENT_SECRET = synth(40, HEX, "github-oauth")
VAULT = "hvs." + synth(90, WORD_DASH, "vault")
DIGITALOCEAN = "dop_v1_" + synth(64, HEX, "do")
DIGITALOCEAN_REFRESH = "dor_v1_" + synth(64, HEX, "dor")

CASES: dict[str, Case] = {
    "aws-access-key-id": Case(
        positives=[(f"aws_access_key_id = {AWS_ID}", AWS_ID),
                   (f'"AccessKeyId": "{AWS_ID}"', AWS_ID)],
        negatives=["AKIA" + "ABCDEFGHIJKLMNOPQ", "AKIAshort", "XAKIA" + synth(16, UPPER_ALNUM)],
    ),
    "aws-temporary-access-key-id": Case(
        positives=[(f"AWS_ACCESS_KEY_ID={AWS_TEMP_ID}", AWS_TEMP_ID)],
        negatives=["ASIA_PACIFIC_REGIONS", "ASIAN" + "abcdefghijklmnop"],
    ),
    "aws-secret-access-key": Case(
        positives=[(f"aws_secret_access_key = {AWS_SECRET}", AWS_SECRET),
                   (f'"SecretAccessKey": "{AWS_SECRET}",', AWS_SECRET),
                   (f"AWS_SECRET_KEY='{AWS_SECRET}'", AWS_SECRET),
                   (f"secretAccessKey: '{AWS_SECRET}'", AWS_SECRET)],
        negatives=['aws_secret_access_key = os.environ["AWS_SECRET_ACCESS_KEY"]',
                   "secret_key = " + synth(40, B64, "not-aws"),
                   "aws_secret_access_key = None"],
        also_plain=False,
    ),
    "aws-session-token": Case(
        positives=[(f"aws_session_token = {AWS_SESSION}", AWS_SESSION),
                   (f'"SessionToken": "{AWS_SESSION}"', AWS_SESSION)],
        negatives=["session_token = request.cookies.get('session')",
                   "SESSION_TOKEN_HEADER = 'X-Session-Token'"],
        also_plain=False,
    ),
    "google-api-key": Case(
        positives=[(f"const firebaseConfig = {{apiKey: '{GOOGLE_KEY}'}}", GOOGLE_KEY)],
        negatives=["AIzaShort", "FAIza" + synth(35, ALNUM)],
    ),
    "google-oauth-client-secret": Case(
        positives=[(f'"client_secret": "{GOOGLE_CLIENT_SECRET}"', GOOGLE_CLIENT_SECRET)],
        negatives=["GOCSPX-short", "GOCSPX-"],
    ),
    "google-oauth-access-token": Case(
        positives=[(f"Authorization: Bearer {GOOGLE_ACCESS}", GOOGLE_ACCESS),
                   (f"token = '{GOOGLE_ACCESS}'", GOOGLE_ACCESS)],
        negatives=["ya29.short", "version ya29.1"],
    ),
    "gcp-private-key-id": Case(
        positives=[(f'  "private_key_id": "{GCP_KEY_ID}",', GCP_KEY_ID)],
        negatives=['  "private_key_id": "",', '  "client_id": "' + "1" * 21 + '",'],
    ),
    "azure-storage-account-key": Case(
        positives=[
            (("DefaultEndpointsProtocol=https;AccountName=acct;"
              f"AccountKey={AZURE_ACCOUNT_KEY};EndpointSuffix=core.windows.net"),
             AZURE_ACCOUNT_KEY),
            (("Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=RootManage"
              f"SharedAccessKey;SharedAccessKey={AZURE_SB_KEY}"), AZURE_SB_KEY),
        ],
        negatives=["AccountKey=<your-account-key>", "account_key = get_account_key()"],
    ),
    "azure-sas-signature": Case(
        positives=[(f"url = '{AZURE_SAS_URL}'", AZURE_SIG)],
        negatives=["https://example.com/api?sig=" + synth(44, ALNUM, "nosv"),
                   "see ?sv=2022-11-02&sig=short here"],
    ),
    "azure-entra-client-secret": Case(
        positives=[(f"AZURE_CLIENT_SECRET={ENTRA_SECRET}", ENTRA_SECRET),
                   (f"secret = '{ENTRA_SECRET}'", ENTRA_SECRET)],
        negatives=["path = 'abc7Q~backup'", "weird~Q~string~with~tildes"],
    ),
    "client-secret-assignment": Case(
        positives=[(f'client_secret = "{OAUTH_CLIENT_SECRET}"', OAUTH_CLIENT_SECRET),
                   (f'"ClientSecret": "{OAUTH_CLIENT_SECRET}"', OAUTH_CLIENT_SECRET),
                   (f"APP_SECRET={OAUTH_CLIENT_SECRET}", OAUTH_CLIENT_SECRET)],
        negatives=["client_secret = settings.OAUTH_CLIENT_SECRET_VALUE2",
                   'client_secret = "your-client-secret-goes-here-now"',
                   "client_secret = os.environ['CLIENT_SECRET']",
                   f"secret_scanning = '{OAUTH_CLIENT_SECRET}'"],
        also_plain=False,
    ),
    "vault-token": Case(
        positives=[(f"VAULT_TOKEN={VAULT}", VAULT)],
        negatives=["hvs.short", "thvs." + synth(30, ALNUM)],
    ),
    "digitalocean-token": Case(
        positives=[(f"DIGITALOCEAN_TOKEN={DIGITALOCEAN}", DIGITALOCEAN)],
        negatives=["dop_v1_", "dop_v1_short"],
    ),
    "digitalocean-refresh-token": Case(
        positives=[(f'"refresh_token": "{DIGITALOCEAN_REFRESH}"', DIGITALOCEAN_REFRESH)],
        negatives=["dor_v1_short"],
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
    def test_aws_credentials_file(self) -> None:
        text = f"[default]\naws_access_key_id = {AWS_ID}\naws_secret_access_key = {AWS_SECRET}\n"
        assert redact(text, file_read=True) == (
            "[default]\naws_access_key_id = «redacted:AKIA…»\n"
            "aws_secret_access_key = «redacted-secret»\n")

    def test_azure_connection_string_keeps_its_other_fields(self) -> None:
        line = ("DefaultEndpointsProtocol=https;AccountName=acct;"
                f"AccountKey={AZURE_ACCOUNT_KEY};EndpointSuffix=core.windows.net")
        assert redact(line, file_read=True) == (
            "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=«redacted-secret»;"
            "EndpointSuffix=core.windows.net")

    def test_sas_url_keeps_everything_but_the_signature(self) -> None:
        assert redact(f"url = '{AZURE_SAS_URL}'", file_read=True) == (
            "url = '" + AZURE_SAS_URL.replace(AZURE_SIG, "«redacted-secret»") + "'")
