"""The rule table itself: every rule has true- and false-positive samples in a family test
module, names are unique, the contract's families keep their order (it decides sentinel
labels), and every pattern compiles."""

from __future__ import annotations

import re

import pytest

from shellfree.redaction import rules
from shellfree.redaction.masks import sentinel
from shellfree.redaction.rules import RULES, TOKEN_RULES, PatternRule, TokenRule
from shellfree.redaction.tokens import token_rule_for
from tests.redaction import (
    test_chat,
    test_cloud,
    test_headers,
    test_keys,
    test_llm,
    test_payment,
    test_registry,
    test_services,
    test_urls,
    test_vcs,
)

FAMILY_MODULES = (test_chat, test_cloud, test_headers, test_keys, test_llm, test_payment,
                  test_registry, test_services, test_urls, test_vcs)
ALL_CASES = {name: case for module in FAMILY_MODULES for name, case in module.CASES.items()}
GROUPS = {"agent", "chat", "cloud", "headers", "keys", "llm", "payment", "registry",
          "services", "urls", "vcs"}


def test_rule_names_are_unique() -> None:
    names = [rule.name for rule in RULES]
    assert len(names) == len(set(names)), "duplicate rule names"


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.name)
def test_every_rule_has_true_and_false_positive_samples(rule: TokenRule | PatternRule) -> None:
    case = ALL_CASES.get(rule.name)
    assert case is not None, f"{rule.name} has no Case in any family test module"
    assert case.positives, f"{rule.name} has no true-positive sample"
    assert case.negatives, f"{rule.name} has no near-miss sample"


def test_cases_name_only_existing_rules() -> None:
    assert set(ALL_CASES) <= {rule.name for rule in RULES}


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.name)
def test_groups_and_patterns(rule: TokenRule | PatternRule) -> None:
    assert rule.group in GROUPS
    if isinstance(rule, PatternRule):
        compiled = re.compile(rule.pattern)
        assert rule.mask == "private-key" or "secret" in compiled.groupindex
        assert all(gate == gate.lower() for gate in rule.gates), "gates are lower case"
    else:
        assert rule.prefixes and rule.min_body > 0


def test_contract_families_come_first_in_contract_order() -> None:
    """hermes-contract §9 lists these prefixes in this order; labels depend on it."""
    contract_order = [
        "sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "xapp-", "xoxb-", "xoxa-",
        "xoxp-", "xoxr-", "xoxs-", "AIza", "pplx-", "fc-", "hf_", "r8_", "npm_", "tvly-",
        "exa_", "gsk_", "syt_", "retaindb_", "hsk-", "mem0_", "brv_", "ntn_", "dop_v1_",
        "doo_v1_", "sk_live_", "sk_test_", "rk_live_", "fal_", "bb_live_", "pypi-", "SG.",
        "sk_", "gAAAA", "AKIA", "am_org_", "am_", "xai-", "fw-", "fw_", "fpk_", "glpat-",
        "gloas-", "gldt-", "glcbt-", "glptt-", "glft-", "glimt-", "glagent-", "glsoat-",
        "glffct-", "glwt-", "GR1348941", "glrt-", "glrtr-", "pk-lf-",
    ]
    listed = [prefix for rule in TOKEN_RULES for prefix in rule.prefixes]
    assert listed[:len(contract_order)] == contract_order


@pytest.mark.parametrize("token, label", [
    ("sk-ant-api03-abcdef", "sk-"), ("sk_live_abc", "sk_live_"), ("sk_other", "sk_"),
    ("am_org_abc", "am_org_"), ("xoxe.xoxp-1-abc", "xoxe.xoxp-"), ("glrtr-abc", "glrtr-"),
    ("glrt-abc", "glrt-"),
])
def test_sentinel_label_is_the_first_listed_prefix(token: str, label: str) -> None:
    assert sentinel(token) == f"«redacted:{label}…»"


@pytest.mark.parametrize("token, name", [
    ("ghp_" + "A1" * 18, "github-token"), ("AKIA" + "A1" * 8, "aws-access-key-id"),
    ("sk_live_" + "A1" * 10, "stripe-secret-key"), ("sk_" + "a1" * 10, "sk-underscore-key"),
])
def test_token_rule_for(token: str, name: str) -> None:
    rule = token_rule_for(token)
    assert rule is not None and rule.name == name


def test_keyword_tables_are_unchanged_contract_data() -> None:
    assert rules.DB_URL_SCHEMES == ("postgres", "postgresql", "mysql", "mongodb", "mongodb+srv",
                                    "redis", "amqp")
    assert "x-api-key" in rules.API_KEY_HEADERS
