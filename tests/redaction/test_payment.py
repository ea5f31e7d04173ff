"""Payment credentials: Stripe (secret, restricted, publishable keys, webhook secrets), Square
(access tokens, legacy personal tokens and application secrets), Braintree access tokens."""

from __future__ import annotations

import pytest

from shellfree.redaction import redact_sensitive_text as redact
from tests.redaction.cases import (
    ALNUM,
    HEX,
    LOWER_ALNUM,
    WORD_DASH,
    Case,
    assert_kept,
    assert_redacted,
    parametrize_cases,
    synth,
)

STRIPE_LIVE = "sk_live_" + synth(99, ALNUM, "sk-live")
STRIPE_TEST = "sk_test_" + synth(99, ALNUM, "sk-test")
STRIPE_RESTRICTED = "rk_live_" + synth(99, ALNUM, "rk-live")
STRIPE_RESTRICTED_TEST = "rk_test_" + synth(99, ALNUM, "rk-test")
STRIPE_PUBLISHABLE = "pk_live_" + synth(99, ALNUM, "pk-live")
STRIPE_WEBHOOK = "whsec_" + synth(32, ALNUM, "whsec")
SQUARE_ACCESS = "EAAA" + synth(60, WORD_DASH, "square")
SQUARE_PERSONAL = "sq0atp-" + synth(22, WORD_DASH, "sq0atp")
SQUARE_SECRET = "sq0csp-" + synth(43, WORD_DASH, "sq0csp")
BRAINTREE = ("access_token$production$" + synth(16, LOWER_ALNUM, "bt-merchant") + "$"
             + synth(32, HEX, "bt-secret"))

CASES: dict[str, Case] = {
    "stripe-secret-key": Case(
        positives=[(f"stripe.api_key = '{STRIPE_LIVE}'", STRIPE_LIVE),
                   (f"curl https://api.stripe.com/v1/charges -u {STRIPE_TEST}:", STRIPE_TEST)],
        negatives=["sk_live_", "is_live_mode = True"],
    ),
    "stripe-restricted-key": Case(
        positives=[(f"STRIPE_RESTRICTED_KEY={STRIPE_RESTRICTED}", STRIPE_RESTRICTED)],
        negatives=["rk_live_short"],
    ),
    "stripe-more-keys": Case(
        positives=[(f"STRIPE_KEY={STRIPE_RESTRICTED_TEST}", STRIPE_RESTRICTED_TEST),
                   (f"Stripe('{STRIPE_PUBLISHABLE}')", STRIPE_PUBLISHABLE),
                   (f"STRIPE_WEBHOOK_SECRET={STRIPE_WEBHOOK}", STRIPE_WEBHOOK)],
        negatives=["pk_test_fixtures_directory", "whsec_placeholderwithoutdigits",
                   "def pk_test_roundtrip(): pass"],
    ),
    "square-access-token": Case(
        positives=[(f"SQUARE_ACCESS_TOKEN={SQUARE_ACCESS}", SQUARE_ACCESS)],
        negatives=["EAAA" + "A" * 60, "EAAAshort"],
    ),
    "square-legacy-token": Case(
        positives=[(f"square_token = '{SQUARE_PERSONAL}'", SQUARE_PERSONAL),
                   (f"SQUARE_APP_SECRET={SQUARE_SECRET}", SQUARE_SECRET)],
        negatives=["sq0atp-short", "application id sq0idp-uCEi65nGfxqyctwVkrLpsQ"],
    ),
    "braintree-access-token": Case(
        positives=[(f"BRAINTREE_ACCESS_TOKEN='{BRAINTREE}'", BRAINTREE)],
        negatives=["access_token$production$", "access_token$sandbox$short$abc"],
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
    def test_stripe_live_key_label(self) -> None:
        assert redact(f"stripe.api_key = '{STRIPE_LIVE}'", file_read=True) == (
            "stripe.api_key = '«redacted:sk_live_…»'")

    def test_webhook_secret_label(self) -> None:
        assert redact(f"secret={STRIPE_WEBHOOK}", file_read=True) == "secret=«redacted:whsec_…»"

    def test_braintree_label(self) -> None:
        assert redact(f"token = '{BRAINTREE}'", file_read=True) == (
            "token = '«redacted:access_token$…»'")
