"""Round-trip safety: text an agent received with a secret masked can never be written back.

read_file and search_files redact secrets in file content with non-reusable sentinels
(``«redacted…»``), and write_file and patch refuse content or strings carrying one, so a masked
page never overwrites the real secret.
"""

from __future__ import annotations

import json

import pytest

from shellfree import FileTools

TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
BEARER = "eyJhbGciOiJIUzI1NiJ9" + "x" * 24
CONFIG = (
    f"github_token = {TOKEN}\n"
    f"headers = 'Authorization: Bearer {BEARER}'\n"
    "db = postgres://app:S3cretPassw0rd@db:5432/app\n"
)


@pytest.fixture
def tools(tmp_path):
    (tmp_path / "settings.py").write_text(CONFIG)
    return FileTools(root=tmp_path), tmp_path


def _page_text(result: str) -> str:
    return "\n".join(line.split("|", 1)[1] for line in json.loads(result)["content"].split("\n"))


def test_read_page_masks_every_secret_with_a_sentinel(tools):
    ft, _ = tools
    text = _page_text(ft.read_file("settings.py"))
    for secret in (TOKEN, BEARER, "S3cretPassw0rd"):
        assert secret not in text
    assert text.count("«redacted") == 3, text


def test_writing_the_masked_page_back_is_refused(tools):
    ft, root = tools
    text = _page_text(ft.read_file("settings.py")) + "\n"
    result = json.loads(ft.write_file("settings.py", text + "extra = 1\n"))
    assert "error" in result and "«redacted" in result["error"], result
    assert (root / "settings.py").read_text() == CONFIG


def test_patching_with_a_masked_search_result_is_refused(tools):
    ft, root = tools
    found = json.loads(ft.search_files("github_token", path="."))
    masked_line = found["matches"][0]["content"]
    assert "«redacted" in masked_line
    result = json.loads(ft.patch(path="settings.py", old_string=masked_line,
                                 new_string="github_token = None"))
    assert "error" in result, result
    assert (root / "settings.py").read_text() == CONFIG
