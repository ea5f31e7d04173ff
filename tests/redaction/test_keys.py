"""Key material: PEM / OpenSSH / PGP private key blocks (whole, cut by a page edge, inside
JSON), JWTs, age secret keys."""

from __future__ import annotations

import base64
import json

import pytest

from shellfree.redaction import redact_sensitive_text as redact
from shellfree.redaction.masks import PRIVATE_KEY_SENTINEL as KEY
from tests.redaction.cases import (
    B64,
    WORD_DASH,
    Case,
    assert_kept,
    assert_redacted,
    parametrize_cases,
    synth,
)

BODY = [synth(64, B64, f"pem-{i}") for i in range(3)] + [synth(20, B64, "pem-last") + "=="]


def pem(kind: str) -> str:
    """A fake ``-----BEGIN {kind}-----`` block with a synthetic base64 body."""
    return "\n".join([f"-----BEGIN {kind}-----", *BODY, f"-----END {kind}-----"])


def b64url(data: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


JWT = (b64url({"alg": "HS256", "typ": "JWT"}) + "." + b64url({"sub": "1234567890", "iat": 1})
       + "." + synth(43, WORD_DASH, "jwt-sig"))
AGE = "AGE-SECRET-KEY-1" + synth(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", "age")
KINDS = ["RSA PRIVATE KEY", "EC PRIVATE KEY", "DSA PRIVATE KEY", "OPENSSH PRIVATE KEY",
         "ENCRYPTED PRIVATE KEY", "PRIVATE KEY", "PGP PRIVATE KEY BLOCK"]

CASES: dict[str, Case] = {
    "private-key-block": Case(
        positives=[(pem(kind), BODY[0]) for kind in KINDS],
        negatives=[pem("CERTIFICATE"), pem("PUBLIC KEY"), pem("RSA PUBLIC KEY"),
                   "# load the PRIVATE KEY from the vault", "-----BEGIN PRIVATE KEY-----"],
    ),
    "jwt": Case(
        positives=[(f"Authorization: Bearer {JWT}", JWT), (f'{{"id_token": "{JWT}"}}', JWT),
                   (f"token={JWT}", JWT)],
        negatives=["payload = 'eyJmb28iOiAiYmFyIiwgImJheiI6IDF9'", "eyJ", "eyJshort"],
    ),
    "age-secret-key": Case(
        positives=[(f"# created: 2024-01-01\n{AGE}", AGE)],
        negatives=["AGE-SECRET-KEY-1",
                   "age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p"],
    ),
}

POSITIVES, NEGATIVES = parametrize_cases(CASES)


@pytest.mark.parametrize("rule, line, secret", POSITIVES)
def test_true_positive(rule: str, line: str, secret: str) -> None:
    assert_redacted(line, secret)


@pytest.mark.parametrize("rule, line, also_plain", NEGATIVES)
def test_near_miss(rule: str, line: str, also_plain: bool) -> None:
    assert_kept(line, also_plain=also_plain)


class TestPrivateKeyBlocks:
    def test_outside_file_reads_the_whole_block_goes(self) -> None:
        assert redact(f"key:\n{pem('RSA PRIVATE KEY')}\nend") == f"key:\n{KEY}\nend"

    def test_file_reads_keep_begin_end_and_line_numbers(self) -> None:
        page = "\n".join(f"{n}|{line}" for n, line in
                         enumerate(["x = 1", *pem("OPENSSH PRIVATE KEY").split("\n"), "y"], 1))
        assert redact(page, file_read=True) == "\n".join([
            "1|x = 1", "2|-----BEGIN OPENSSH PRIVATE KEY-----",
            f"3|{KEY}", f"4|{KEY}", f"5|{KEY}", f"6|{KEY}",
            "7|-----END OPENSSH PRIVATE KEY-----", "8|y"])

    def test_page_ending_inside_a_block(self) -> None:
        page = f"7|-----BEGIN EC PRIVATE KEY-----\n8|{BODY[0]}\n9|{BODY[1]}"
        expected = f"7|-----BEGIN EC PRIVATE KEY-----\n8|{KEY}\n9|{KEY}"
        assert redact(page, file_read=True) == expected
        assert redact(page) == expected

    def test_page_starting_inside_a_block(self) -> None:
        page = f"40|{BODY[2]}\n41|{BODY[3]}\n42|-----END PRIVATE KEY-----\n43|done"
        assert redact(page, file_read=True) == (
            f"40|{KEY}\n41|{KEY}\n42|-----END PRIVATE KEY-----\n43|done")

    def test_json_service_account_key(self) -> None:
        value = ("-----BEGIN PRIVATE KEY-----\\n" + "\\n".join(BODY)
                 + "\\n-----END PRIVATE KEY-----\\n")
        line = f'  "private_key": "{value}",'
        assert redact(line, file_read=True) == (
            f'  "private_key": "-----BEGIN PRIVATE KEY-----\\n{KEY}'
            '\\n-----END PRIVATE KEY-----\\n",')

    def test_encrypted_pem_headers_are_body(self) -> None:
        block = ("-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n"
                 f"DEK-Info: AES-128-CBC,0123456789ABCDEF\n\n{BODY[0]}\n"
                 "-----END RSA PRIVATE KEY-----")
        assert redact(block, file_read=True) == (
            f"-----BEGIN RSA PRIVATE KEY-----\n{KEY}\n{KEY}\n\n{KEY}\n"
            "-----END RSA PRIVATE KEY-----")

    def test_yaml_block_scalar_keeps_indentation(self) -> None:
        text = "tls:\n  key: |\n    -----BEGIN PRIVATE KEY-----\n    " + BODY[0] + \
            "\n    -----END PRIVATE KEY-----\n"
        assert redact(text, file_read=True) == (
            "tls:\n  key: |\n    -----BEGIN PRIVATE KEY-----\n    " + KEY
            + "\n    -----END PRIVATE KEY-----\n")


class TestJwt:
    def test_head_and_tail_mask_outside_file_content(self) -> None:
        masked = f"{JWT[:6]}...{JWT[-4:]}"
        assert redact(f"token={JWT}") == f"token={masked}"
        # File content gets the non-reusable sentinel instead (shellfree, see masks.py).
        assert redact(f"token={JWT}", file_read=True) == "token=«redacted-secret»"

    def test_lone_header_segment_with_alg_is_masked(self) -> None:
        header = b64url({"alg": "RS256", "kid": "abc"})
        assert redact(f"h={header}") == f"h={header[:6]}...{header[-4:]}"
