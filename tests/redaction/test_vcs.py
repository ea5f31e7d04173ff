"""VCS tokens: GitHub (classic, OAuth, App, refresh, fine-grained), GitLab (every documented
prefix, runner tokens), Atlassian / Bitbucket (API tokens, app passwords, access tokens)."""

from __future__ import annotations

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

GITHUB = {prefix: prefix + synth(36, ALNUM, prefix) for prefix in
          ("ghp_", "gho_", "ghu_", "ghs_", "ghr_")}
GITHUB_FINE = "github_pat_" + synth(22, ALNUM, "fg1") + "_" + synth(59, ALNUM, "fg2")
GITLAB = {prefix: prefix + synth(20, WORD_DASH, prefix) for prefix in
          ("glpat-", "gloas-", "gldt-", "glcbt-", "glptt-", "glft-", "glimt-", "glagent-",
           "glsoat-", "glffct-", "glwt-", "GR1348941")}
GITLAB_RUNNER = "glrt-t1_" + synth(20, WORD_DASH, "runner")
ATLASSIAN_API = "ATATT3xFfGF0" + synth(180, WORD_DASH + "=", "atat")
BITBUCKET_APP = "ATBB" + synth(32, ALNUM, "atbb")
BITBUCKET_ACCESS = "ATCTT3xFfGN0" + synth(180, WORD_DASH + "=", "atct")
GIT_SHA = "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3"

CASES: dict[str, Case] = {
    "github-token": Case(
        positives=[(f"GITHUB_TOKEN={token}", token) for token in GITHUB.values()]
        + [(f"git clone https://x-access-token:{GITHUB['ghs_']}@github.com/o/r.git",
            GITHUB["ghs_"])],
        negatives=["ghp_short", f"commit {GIT_SHA}", "def ghp_helper(): pass",
                   "self.gho_cache_dir = path"],
    ),
    "github-fine-grained-pat": Case(
        positives=[(f'token: "{GITHUB_FINE}"', GITHUB_FINE)],
        negatives=["github_pat_", "is_github_pat_valid(value)"],
    ),
    "gitlab-token": Case(
        positives=[(f"PRIVATE-TOKEN: {token}", token) for token in GITLAB.values()],
        negatives=["glpat-short", "x-glpat-" + synth(20, ALNUM, "gx"), "gldt-config"],
    ),
    "gitlab-runner-token": Case(
        positives=[(f'token = "{GITLAB_RUNNER}"', GITLAB_RUNNER)],
        negatives=["glrt-abc", "glrtr-"],
    ),
    "atlassian-api-token": Case(
        positives=[(f"JIRA_API_TOKEN={ATLASSIAN_API}", ATLASSIAN_API)],
        negatives=["ATATTRIBUTE_NAME_CONSTANT_VALUE_FOR_THE_PARSER"],
    ),
    "bitbucket-app-password": Case(
        positives=[(f"BITBUCKET_APP_PASSWORD={BITBUCKET_APP}", BITBUCKET_APP),
                   (f"https://alice:{BITBUCKET_APP}@bitbucket.org/team/repo.git",
                    BITBUCKET_APP)],
        negatives=["ATBBREVIATIONSANDMORELETTERSINAROW", "ATBB1234"],
    ),
    "bitbucket-access-token": Case(
        positives=[(f"Authorization: Bearer {BITBUCKET_ACCESS}", BITBUCKET_ACCESS),
                   (f"git clone https://x-token-auth:{BITBUCKET_ACCESS}@bitbucket.org/o/r.git",
                    BITBUCKET_ACCESS)],
        negatives=["ATCTTEMPLATE_IDENTIFIER_WITHOUT_ANY_DIGITS"],
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
    @pytest.mark.parametrize("prefix", sorted(GITHUB))
    def test_github_sentinel_names_the_prefix(self, prefix: str) -> None:
        assert redact(f"GITHUB_TOKEN={GITHUB[prefix]}", file_read=True) == (
            f"GITHUB_TOKEN=«redacted:{prefix}…»")

    def test_bitbucket_app_password_in_clone_url(self) -> None:
        line = f"https://alice:{BITBUCKET_APP}@bitbucket.org/team/repo.git"
        assert redact(line, file_read=True) == (
            "https://alice:«redacted:ATBB…»@bitbucket.org/team/repo.git")

    def test_gitlab_runner_registration_token(self) -> None:
        assert redact(f"token {GITLAB['GR1348941']}", file_read=True) == (
            "token «redacted:GR1348941…»")
