"""Tokens of other services and agent tooling: Firecrawl, Tavily, Exa, memory services, Notion,
Browserbase, SendGrid, Codex encrypted content, AgentMail, Shopify, Linear, Postman, Grafana,
Sentry, New Relic, Supabase, PlanetScale, Doppler, Pulumi, Mapbox."""

from __future__ import annotations

import base64

import pytest

from shellfree.redaction import redact_sensitive_text as redact
from tests.redaction.cases import (
    ALNUM,
    HEX,
    UPPER_ALNUM,
    WORD_DASH,
    Case,
    assert_kept,
    assert_redacted,
    parametrize_cases,
    synth,
)


def fake(prefix: str, length: int, alphabet: str = ALNUM) -> str:
    """*prefix* followed by a synthetic body."""
    return prefix + synth(length, alphabet, prefix)


FIRECRAWL = fake("fc-", 32, HEX)
TAVILY = fake("tvly-", 32)
EXA = fake("exa_", 32)
MEM0 = fake("mem0_", 40)
RETAINDB = fake("retaindb_", 32)
NOTION = fake("ntn_", 46)
BROWSERBASE = fake("bb_live_", 27, WORD_DASH)
SENDGRID = "SG." + synth(22, WORD_DASH, "sg1") + "." + synth(43, WORD_DASH, "sg2")
CODEX = fake("gAAAAA", 120, WORD_DASH + "=")
AGENTMAIL = fake("am_", 48)
SHOPIFY = fake("shpat_", 32, HEX)
LINEAR = fake("lin_api_", 40)
POSTMAN = "PMAK-" + synth(24, HEX, "pm1") + "-" + synth(34, HEX, "pm2")
GRAFANA = "glsa_" + synth(32, ALNUM, "glsa") + "_" + synth(8, HEX, "glsa-crc")
GRAFANA_CLOUD = "glc_" + base64.b64encode(
    ('{"o":"123456","n":"stack-' + synth(8, HEX, "gn") + '","k":"' + synth(24, ALNUM, "gk")
     + '","m":{"r":"prod-eu-west-0"}}').encode()).decode()
SENTRY = fake("sntryu_", 64, HEX)
NEW_RELIC = fake("NRAK-", 27, UPPER_ALNUM)
SUPABASE = fake("sbp_", 40, HEX)
PLANETSCALE = fake("pscale_tkn_", 43, WORD_DASH)
DOPPLER = fake("dp.st.", 44)
PULUMI = fake("pul-", 40, HEX)
MAPBOX = "sk.eyJ1IjoiZXhhbXBsZSIsImEiOiJjbGV4YW1wbGUifQ." + synth(22, WORD_DASH, "mapbox")

CASES: dict[str, Case] = {
    "firecrawl-key": Case(positives=[(f"FIRECRAWL_API_KEY={FIRECRAWL}", FIRECRAWL)],
                          negatives=["fc-short", "calc-difference-between-values"]),
    "tavily-key": Case(positives=[(f"TAVILY_API_KEY={TAVILY}", TAVILY)],
                       negatives=["tvly-cli"]),
    "exa-key": Case(positives=[(f"EXA_API_KEY={EXA}", EXA)],
                    negatives=["exa_mode = 1", "hexa_" + synth(20, ALNUM, "hexa")]),
    "agent-memory-keys": Case(
        positives=[(f"MEM0_API_KEY={MEM0}", MEM0), (f"RETAINDB_KEY={RETAINDB}", RETAINDB)],
        negatives=["mem0_client = Memory()", "retaindb_"]),
    "notion-token": Case(positives=[(f"NOTION_TOKEN={NOTION}", NOTION)],
                         negatives=["ntn_short"]),
    "browserbase-key": Case(positives=[(f"BROWSERBASE_API_KEY={BROWSERBASE}", BROWSERBASE)],
                            negatives=["bb_live_x"]),
    "sendgrid-key": Case(positives=[(f"SENDGRID_API_KEY={SENDGRID}", SENDGRID)],
                         negatives=["SG.short", "MSG.info('started')"]),
    "codex-encrypted-content": Case(positives=[(f'"encrypted_content": "{CODEX}"', CODEX)],
                                    negatives=["gAAAA", "gAAAAshort"]),
    "agentmail-key": Case(positives=[(f"AGENTMAIL_API_KEY={AGENTMAIL}", AGENTMAIL)],
                          negatives=["am_pm = 'AM'", "am_short_value_x"]),
    "shopify-token": Case(positives=[(f"X-Shopify-Access-Token: {SHOPIFY}", SHOPIFY)],
                          negatives=["shpat_short"]),
    "linear-api-key": Case(positives=[(f"LINEAR_API_KEY={LINEAR}", LINEAR)],
                           negatives=["lin_api_version = 2"]),
    "postman-api-key": Case(positives=[(f"x-api-key: {POSTMAN}", POSTMAN),
                                       (f"POSTMAN_API_KEY={POSTMAN}", POSTMAN)],
                            negatives=["PMAK-short"]),
    "grafana-token": Case(positives=[(f"GRAFANA_TOKEN={GRAFANA}", GRAFANA),
                                     (f"GRAFANA_CLOUD_TOKEN={GRAFANA_CLOUD}", GRAFANA_CLOUD)],
                          negatives=["glsa_short", "glc_tool",
                                     "f.pyi,sha256=glc_FZMyib4OhW7RQ42vav9er5-jeLUo8K4wfDaFsu8,12"]),
    "sentry-token": Case(positives=[(f"SENTRY_AUTH_TOKEN={SENTRY}", SENTRY)],
                         negatives=["sntryu_short"]),
    "new-relic-key": Case(positives=[(f"NEW_RELIC_API_KEY={NEW_RELIC}", NEW_RELIC)],
                          negatives=["NRAK-SHORT"]),
    "supabase-token": Case(positives=[(f"SUPABASE_ACCESS_TOKEN={SUPABASE}", SUPABASE)],
                           negatives=["sbp_short"]),
    "planetscale-token": Case(positives=[(f"PLANETSCALE_TOKEN={PLANETSCALE}", PLANETSCALE)],
                              negatives=["pscale_tkn_short"]),
    "doppler-token": Case(positives=[(f"DOPPLER_TOKEN={DOPPLER}", DOPPLER)],
                          negatives=["dp.st.short"]),
    "pulumi-token": Case(positives=[(f"PULUMI_ACCESS_TOKEN={PULUMI}", PULUMI)],
                         negatives=["pul-request-template", "pul-0123"]),
    "mapbox-secret-token": Case(positives=[(f"MAPBOX_SECRET={MAPBOX}", MAPBOX)],
                                negatives=["sk.eyJ", "task.eyJmb28iOiAiYmFyIiwgImJheiI6IDF9"]),
}

POSITIVES, NEGATIVES = parametrize_cases(CASES)


@pytest.mark.parametrize("rule, line, secret", POSITIVES)
def test_true_positive(rule: str, line: str, secret: str) -> None:
    assert_redacted(line, secret)


@pytest.mark.parametrize("rule, line, also_plain", NEGATIVES)
def test_near_miss(rule: str, line: str, also_plain: bool) -> None:
    assert_kept(line, also_plain=also_plain)


class TestExactOutput:
    @pytest.mark.parametrize("token, label", [
        (FIRECRAWL, "fc-"), (SENDGRID, "SG."), (SHOPIFY, "shpat_"), (POSTMAN, "PMAK-"),
        (GRAFANA, "glsa_"), (DOPPLER, "dp.st."), (MAPBOX, "sk.eyJ"),
    ])
    def test_labels(self, token: str, label: str) -> None:
        assert redact(f"value: {token}", file_read=True) == f"value: «redacted:{label}…»"
