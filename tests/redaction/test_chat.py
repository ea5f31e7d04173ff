"""Chat tokens: Slack (bot, user, app-level, configuration, webhooks), Matrix, Telegram bots,
Discord (bot tokens and webhooks)."""

from __future__ import annotations

import base64

import pytest

from shellfree.redaction import redact_sensitive_text as redact
from tests.redaction.cases import (
    ALNUM,
    HEX,
    WORD_DASH,
    Case,
    assert_kept,
    assert_redacted,
    parametrize_cases,
    synth,
)

SLACK_BOT = "xoxb-" + "123456789012-1234567890123-" + synth(24, ALNUM, "xoxb")
SLACK_USER = "xoxp-" + "123456789012-123456789012-1234567890123-" + synth(32, HEX, "xoxp")
SLACK_APP = "xapp-1-A0123456789-1234567890123-" + synth(64, HEX, "xapp")
SLACK_CONFIG = "xoxe.xoxp-1-" + synth(140, ALNUM, "xoxe")
SLACK_REFRESH = "xoxe-1-" + synth(140, ALNUM, "xoxe-refresh")
SLACK_WEBHOOK_SECRET = synth(24, ALNUM, "slack-hook")
SLACK_WEBHOOK = f"https://hooks.slack.com/services/T01ABCDEF23/B04GHIJKL56/{SLACK_WEBHOOK_SECRET}"
MATRIX = "syt_YWxpY2U_" + synth(20, ALNUM, "matrix") + "_" + synth(6, ALNUM, "crc")
TELEGRAM_SECRET = "AA" + synth(33, WORD_DASH, "telegram")
TELEGRAM = f"7123456789:{TELEGRAM_SECRET}"
DISCORD_ID = "123456789012345678"
DISCORD_BOT = (base64.b64encode(DISCORD_ID.encode()).decode().rstrip("=") + ".Gh1jKl."
               + synth(38, WORD_DASH, "discord-hmac"))
DISCORD_HOOK_SECRET = synth(68, WORD_DASH, "discord-hook")
DISCORD_HOOK = f"https://discord.com/api/webhooks/{DISCORD_ID}/{DISCORD_HOOK_SECRET}"

CASES: dict[str, Case] = {
    "slack-token": Case(
        positives=[(f"SLACK_BOT_TOKEN={SLACK_BOT}", SLACK_BOT),
                   (f'client = WebClient(token="{SLACK_USER}")', SLACK_USER)],
        negatives=["xoxb-short", "proxoxb-" + synth(20, ALNUM, "px")],
    ),
    "slack-app-token": Case(
        positives=[(f"SLACK_APP_TOKEN={SLACK_APP}", SLACK_APP)],
        negatives=["xapp-1-short", "xapp-config-value"],
    ),
    "slack-config-token": Case(
        positives=[(f'"token": "{SLACK_CONFIG}"', SLACK_CONFIG),
                   (f'"refresh_token": "{SLACK_REFRESH}"', SLACK_REFRESH)],
        negatives=["xoxe-1-abc", "see xoxe.xoxp- tokens in the docs"],
    ),
    "slack-webhook-url": Case(
        positives=[(f"SLACK_WEBHOOK_URL={SLACK_WEBHOOK}", SLACK_WEBHOOK_SECRET),
                   (f"requests.post('{SLACK_WEBHOOK}', json=payload)", SLACK_WEBHOOK_SECRET)],
        negatives=["https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
                   "https://hooks.slack.com/services/"],
    ),
    "matrix-access-token": Case(
        positives=[(f"access_token: {MATRIX}", MATRIX)],
        negatives=["syt_short", "easyt_" + synth(20, ALNUM, "easy")],
    ),
    "telegram-bot-token": Case(
        positives=[(f"TELEGRAM_BOT_TOKEN={TELEGRAM}", TELEGRAM_SECRET),
                   (f"https://api.telegram.org/bot{TELEGRAM}/getMe", TELEGRAM_SECRET)],
        negatives=["2026-11-30 14:31:11,123 INFO started", "1234567:short-value",
                   "ratio 12345678:abc"],
    ),
    "discord-bot-token": Case(
        positives=[(f"DISCORD_TOKEN='{DISCORD_BOT}'", DISCORD_BOT),
                   (f"client.run('{DISCORD_BOT}')", DISCORD_BOT)],
        negatives=["NotAnIdentifierValue1234.abcdef." + synth(30, ALNUM, "nd"),
                   "MTIzNDU2.abcdef.ghijk"],
    ),
    "discord-webhook-url": Case(
        positives=[(f"DISCORD_WEBHOOK={DISCORD_HOOK}", DISCORD_HOOK_SECRET)],
        negatives=["https://discord.com/api/webhooks/{webhook_id}/{webhook_token}",
                   f"https://discord.com/api/webhooks/{DISCORD_ID}/messages"],
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
    def test_slack_webhook_keeps_workspace_and_channel_ids(self) -> None:
        assert redact(f"url: {SLACK_WEBHOOK}", file_read=True) == (
            "url: https://hooks.slack.com/services/T01ABCDEF23/B04GHIJKL56/«redacted-secret»")

    def test_telegram_keeps_the_bot_id(self) -> None:
        assert redact(f"https://api.telegram.org/bot{TELEGRAM}/getMe") == (
            "https://api.telegram.org/bot7123456789:***/getMe")

    def test_discord_webhook_outside_file_reads(self) -> None:
        assert redact(DISCORD_HOOK) == (
            f"https://discord.com/api/webhooks/{DISCORD_ID}/"
            f"{DISCORD_HOOK_SECRET[:6]}...{DISCORD_HOOK_SECRET[-4:]}")

    def test_slack_config_token_label(self) -> None:
        assert redact(SLACK_CONFIG, file_read=True) == "«redacted:xoxe.xoxp-…»"
