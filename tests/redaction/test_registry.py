"""Package-registry tokens: npm, PyPI, RubyGems, NuGet, Docker Hub, crates.io."""

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

NPM = "npm_" + synth(36, ALNUM, "npm")
PYPI = "pypi-AgEIcHlwaS5vcmc" + synth(150, WORD_DASH, "pypi")
RUBYGEMS = "rubygems_" + synth(48, HEX, "rubygems")
NUGET = "oy2" + synth(43, LOWER_ALNUM, "nuget")
DOCKER = "dckr_pat_" + synth(27, WORD_DASH, "docker")
DOCKER_ORG = "dckr_oat_" + synth(32, WORD_DASH, "docker-org")
CRATES = "cio" + synth(32, ALNUM, "crates")

CASES: dict[str, Case] = {
    "npm-token": Case(
        positives=[(f"//registry.npmjs.org/:_authToken={NPM}", NPM)],
        negatives=["npm_config_cache=/tmp/npm", "npm_lifecycle_event"],
    ),
    "pypi-token": Case(
        positives=[(f"password = {PYPI}", PYPI),
                   (f"TWINE_PASSWORD={PYPI}", PYPI)],
        negatives=["pypi-simple", "https://pypi.org/project/pypi-attestations/"],
    ),
    "rubygems-key": Case(
        positives=[(f":rubygems_api_key: {RUBYGEMS}", RUBYGEMS)],
        negatives=["rubygems_version = '3.4.0'", "rubygems_" + "0" * 47],
    ),
    "nuget-key": Case(
        positives=[(f"dotnet nuget push pkg.nupkg --api-key {NUGET}", NUGET)],
        negatives=["oy2" + "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopq", "toy2story"],
    ),
    "docker-hub-token": Case(
        positives=[(f"echo {DOCKER} | docker login -u alice --password-stdin", DOCKER),
                   (f"DOCKER_TOKEN={DOCKER_ORG}", DOCKER_ORG)],
        negatives=["dckr_pat_short", "dckr_pat_"],
    ),
    "crates-io-token": Case(
        positives=[(f'token = "{CRATES}"', CRATES),
                   (f"CARGO_REGISTRY_TOKEN={CRATES}", CRATES)],
        negatives=["ciorganizationalunitdescriptions", "cio" + "abcdefghijklmnopqrstuvwxyzabcdef"],
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
    def test_npmrc_line(self) -> None:
        assert redact(f"//registry.npmjs.org/:_authToken={NPM}", file_read=True) == (
            "//registry.npmjs.org/:_authToken=«redacted:npm_…»")

    def test_pypirc_password(self) -> None:
        assert redact(f"password = {PYPI}", file_read=True) == "password = «redacted:pypi-…»"

    @pytest.mark.parametrize("token, label", [(RUBYGEMS, "rubygems_"), (NUGET, "oy2"),
                                              (DOCKER, "dckr_pat_"), (CRATES, "cio")])
    def test_labels(self, token: str, label: str) -> None:
        assert redact(f"key {token}", file_read=True) == f"key «redacted:{label}…»"
