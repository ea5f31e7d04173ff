"""LLM-provider keys: OpenAI / Anthropic / DeepSeek ``sk-``, Perplexity, Hugging Face, Replicate,
Groq, fal, ``sk_``, xAI, Fireworks, Langfuse, Zhipu, and prefix-less keys named by provider."""

from __future__ import annotations

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

OPENAI_PROJECT = "sk-proj-" + synth(156, WORD_DASH, "openai-proj")
OPENAI_SVCACCT = "sk-svcacct-" + synth(64, WORD_DASH, "openai-svc")
OPENAI_ADMIN = "sk-admin-" + synth(64, WORD_DASH, "openai-admin")
ANTHROPIC = "sk-ant-api03-" + synth(93, WORD_DASH, "anthropic") + "AA"
ANTHROPIC_ADMIN = "sk-ant-admin01-" + synth(93, WORD_DASH, "anthropic-admin") + "AA"
DEEPSEEK = "sk-" + synth(32, HEX, "deepseek")
PERPLEXITY = "pplx-" + synth(48, ALNUM, "pplx")
HUGGINGFACE = "hf_" + synth(34, ALNUM[:52], "hf")
REPLICATE = "r8_" + synth(37, ALNUM, "r8")
GROQ = "gsk_" + synth(52, ALNUM, "groq")
FAL = "fal_" + synth(40, WORD_DASH, "fal")
ELEVENLABS = "sk_" + synth(48, HEX, "elevenlabs")
XAI = "xai-" + synth(80, ALNUM, "xai")
FIREWORKS = "fw_" + synth(40, ALNUM, "fireworks")
LANGFUSE_PUBLIC = "pk-lf-" + "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
ZHIPU = synth(32, HEX, "zhipu-id") + "." + synth(16, ALNUM, "zhipu-secret")
COHERE = synth(40, ALNUM, "cohere")
MISTRAL = synth(32, ALNUM, "mistral")
TOGETHER = synth(64, HEX, "together")

CASES: dict[str, Case] = {
    "sk-dash-key": Case(
        positives=[
            (f'OPENAI_API_KEY="{OPENAI_PROJECT}"', OPENAI_PROJECT),
            (f"client = OpenAI(api_key='{OPENAI_SVCACCT}')", OPENAI_SVCACCT),
            (f"export OPENAI_ADMIN_KEY={OPENAI_ADMIN}", OPENAI_ADMIN),
            (f'{{"anthropic": "{ANTHROPIC}"}}', ANTHROPIC),
            (f"x-api-key: {ANTHROPIC_ADMIN}", ANTHROPIC_ADMIN),
            (f"DEEPSEEK_API_KEY: {DEEPSEEK}", DEEPSEEK),
        ],
        negatives=["task-management-board-v2", "risk-assessment-matrix", "sk-abc",
                   "locale = 'sk-SK'", "ask-me-anything-about-it"],
    ),
    "perplexity-key": Case(
        positives=[(f"PPLX_API_KEY={PERPLEXITY}", PERPLEXITY)],
        negatives=["pplx-short", "pplx-api-client"],
    ),
    "huggingface-token": Case(
        positives=[(f"login(token='{HUGGINGFACE}')", HUGGINGFACE)],
        negatives=["self.hf_model = load()", "hf_hub_download(repo_id)"],
    ),
    "replicate-token": Case(
        positives=[(f"REPLICATE_API_TOKEN={REPLICATE}", REPLICATE)],
        negatives=["r8_short", "for r8_i in range(8):"],
    ),
    "groq-key": Case(
        positives=[(f'Groq(api_key="{GROQ}")', GROQ)],
        negatives=["gsk_config = {}", "gsk_"],
    ),
    "fal-key": Case(
        positives=[(f"FAL_KEY={FAL}", FAL)],
        negatives=["fal_short", "normal_value"],
    ),
    "sk-underscore-key": Case(
        positives=[(f"ELEVENLABS_API_KEY={ELEVENLABS}", ELEVENLABS)],
        negatives=["sk_buff *skb", "sk_short"],
    ),
    "xai-key": Case(
        positives=[(f"XAI_API_KEY={XAI}", XAI)],
        negatives=["xai-" + "a1" * 10, "maxai-" + synth(40, ALNUM, "mx")],
    ),
    "fireworks-key": Case(
        positives=[(f"FIREWORKS_API_KEY={FIREWORKS}", FIREWORKS)],
        negatives=["fw_" + "ab12" * 5, "self.fw_version = 3"],
    ),
    "langfuse-public-key": Case(
        positives=[(f"LANGFUSE_PUBLIC_KEY={LANGFUSE_PUBLIC}", LANGFUSE_PUBLIC)],
        negatives=["pk-lf-123", "spk-lf-1a2b3c4d-5e6f"],
    ),
    "zhipu-api-key": Case(
        positives=[(f"ZHIPUAI_API_KEY={ZHIPU}", ZHIPU), (f"key: {ZHIPU}", ZHIPU)],
        negatives=["d41d8cd98f00b204e9800998ecf8427e.txt",
                   "a" + synth(32, HEX, "z2") + ".AbCdEfGhIjKlMnOpQr",
                   "cache/" + synth(40, HEX, "z3") + ".AbCdEfGhIjKlMnOpQr"],
    ),
    "provider-api-key-assignment": Case(
        positives=[
            (f'COHERE_API_KEY = "{COHERE}"', COHERE),
            (f"co_api_key: {COHERE}", COHERE),
            (f"mistral_api_key = '{MISTRAL}'", MISTRAL),
            (f'"togetherApiKey": "{TOGETHER}"', TOGETHER),
        ],
        negatives=['MISTRAL_API_KEY = os.environ["MISTRAL_API_KEY"]',
                   'cohere_api_key = "your-cohere-api-key-goes-right-here-ok"',
                   f'TACO_API_KEY = "{COHERE}"',
                   "MISTRAL_API_KEY = get_secret('mistral/api-key/production/v2')"],
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
    def test_openai_key_in_env_line_is_a_labelled_sentinel(self) -> None:
        assert redact(f'OPENAI_API_KEY="{OPENAI_PROJECT}"', file_read=True) == (
            'OPENAI_API_KEY="«redacted:sk-…»"')

    def test_anthropic_key_outside_file_reads_keeps_head_and_tail(self) -> None:
        assert redact(f"key {ANTHROPIC} end") == f"key sk-ant...{ANTHROPIC[-4:]} end"

    def test_provider_assignment_keeps_the_key_name(self) -> None:
        assert redact(f'COHERE_API_KEY = "{COHERE}"', file_read=True) == (
            'COHERE_API_KEY = "«redacted-secret»"')
