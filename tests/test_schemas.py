"""tool_schemas: the contract's four tool schemas in OpenAI, Anthropic and MCP shapes (§2.1, §3.1,
§4.1, §5.1), each a valid JSON Schema, each matching hermes-contract.md word for word."""

from __future__ import annotations

import inspect
import json
import os
import re
from pathlib import Path
from typing import Any, ClassVar

import pytest
from jsonschema import Draft202012Validator

import shellfree
from shellfree.engine import file_tools
from shellfree.schemas import FLAVORS, TOOL_NAMES, tool_schemas

CONTRACT = Path(os.environ.get(
    "SHELLFREE_CONTRACT",
    Path(__file__).resolve().parents[1].parent / "shared" / "reference" / "hermes-contract.md"))
"""The contract text; it sits beside the repository (shared/), as on every developer's machine
and in CI."""


def _parameters(schema: dict[str, Any], flavor: str) -> dict[str, Any]:
    if flavor == "openai":
        return schema["function"]["parameters"]
    return schema["input_schema" if flavor == "anthropic" else "inputSchema"]


def _name(schema: dict[str, Any], flavor: str) -> str:
    return schema["function"]["name"] if flavor == "openai" else schema["name"]


def _description(schema: dict[str, Any], flavor: str) -> str:
    return schema["function"]["description"] if flavor == "openai" else schema["description"]


class TestToolSchemas:
    def test_is_exported(self):
        assert "tool_schemas" in shellfree.__all__
        assert shellfree.tool_schemas is tool_schemas

    @pytest.mark.parametrize("flavor", FLAVORS)
    def test_four_tools_in_call_order(self, flavor):
        names = [_name(s, flavor) for s in tool_schemas(flavor)]
        assert names == ["read_file", "write_file", "patch", "search_files"], flavor
        assert tuple(names) == TOOL_NAMES

    def test_openai_shape(self):
        for schema in tool_schemas("openai"):
            assert set(schema) == {"type", "function"} and schema["type"] == "function"
            assert set(schema["function"]) == {"name", "description", "parameters"}

    def test_anthropic_shape(self):
        for schema in tool_schemas("anthropic"):
            assert set(schema) == {"name", "description", "input_schema"}

    def test_mcp_shape_builds_the_sdk_tool(self):
        schemas = tool_schemas("mcp")
        for schema in schemas:
            assert {"name", "description", "inputSchema"} <= set(schema)
        annotations = {s["name"]: s["annotations"] for s in schemas}
        assert annotations["read_file"]["readOnlyHint"] is True
        assert annotations["search_files"]["readOnlyHint"] is True
        assert annotations["write_file"]["destructiveHint"] is True
        assert annotations["patch"]["destructiveHint"] is True
        mcp_types = pytest.importorskip("mcp.types")
        for schema in schemas:
            tool = mcp_types.Tool(**schema)
            dumped = tool.model_dump(by_alias=True, exclude_none=True)
            assert dumped["inputSchema"] == schema["inputSchema"], schema["name"]

    @pytest.mark.parametrize("flavor", FLAVORS)
    def test_every_parameters_object_is_a_draft_2020_12_schema(self, flavor):
        for schema in tool_schemas(flavor):
            params = _parameters(schema, flavor)
            Draft202012Validator.check_schema(params)
            assert params["type"] == "object"
            assert set(params["required"]) <= set(params["properties"])

    def test_the_schemas_accept_and_refuse_arguments(self):
        by_name = {s["name"]: Draft202012Validator(s["inputSchema"])
                   for s in tool_schemas("mcp")}
        assert by_name["search_files"].is_valid({"pattern": "TODO", "target": "files"})
        assert not by_name["search_files"].is_valid({"target": "files"})
        assert not by_name["search_files"].is_valid({"pattern": "x", "output_mode": "lines"})
        assert by_name["read_file"].is_valid({"path": "a.txt", "offset": 1, "limit": 2000})
        assert not by_name["read_file"].is_valid({"path": "a.txt", "offset": 0})
        assert not by_name["read_file"].is_valid({"path": "a.txt", "limit": 2001})
        assert not by_name["write_file"].is_valid({"path": "a.txt"})
        assert by_name["patch"].is_valid({"mode": "patch", "patch": "*** Begin Patch"})
        assert not by_name["patch"].is_valid({"mode": "sed"})

    def test_v4a_picks_the_patch_schema(self):
        def patch(flavor, **kw):
            return next(s for s in tool_schemas(flavor, **kw) if _name(s, flavor) == "patch")

        assert _parameters(patch("openai"), "openai")["required"] == ["mode"]
        assert _parameters(patch("mcp"), "mcp")["required"] == ["mode"]
        base = _parameters(patch("anthropic"), "anthropic")
        assert base["required"] == ["path", "old_string", "new_string"]
        assert list(base["properties"]) == ["path", "old_string", "new_string", "replace_all"]
        assert _parameters(patch("anthropic", v4a=True), "anthropic")["required"] == ["mode"]
        assert "mode" not in _parameters(patch("openai", v4a=False), "openai")["properties"]

    def test_unknown_flavor(self):
        with pytest.raises(ValueError, match="unknown schema flavor 'gemini'; choose from "
                                             "openai, anthropic, mcp"):
            tool_schemas("gemini")  # type: ignore[arg-type]

    def test_each_call_returns_fresh_dicts(self):
        first = tool_schemas("openai")
        first[0]["function"]["parameters"]["properties"].clear()
        assert tool_schemas("openai")[0]["function"]["parameters"]["properties"]

    def test_serialises_as_json(self):
        for flavor in FLAVORS:
            assert json.loads(json.dumps(tool_schemas(flavor))) == tool_schemas(flavor)


class TestAgreesWithFileTools:
    """What the schemas advertise is what ``FileTools.call`` passes on, with the same defaults
    (Hermes pins handler default == schema default in its own tests)."""

    ACCEPTED: ClassVar[dict[str, tuple[str, ...]]] = {
        "read_file": file_tools.READ_FILE_PARAMETERS,
        "write_file": file_tools.WRITE_FILE_PARAMETERS,
        "patch": file_tools.PATCH_PARAMETERS,
        "search_files": file_tools.SEARCH_FILES_PARAMETERS,
    }

    @pytest.mark.parametrize("v4a", [True, False])
    def test_parameter_names(self, v4a):
        for schema in tool_schemas("mcp", v4a=v4a):
            advertised = set(schema["inputSchema"]["properties"])
            assert advertised <= set(self.ACCEPTED[schema["name"]]), schema["name"]

    def test_defaults(self):
        for schema in tool_schemas("mcp"):
            method = getattr(file_tools.FileTools, schema["name"])
            signature = inspect.signature(method).parameters
            for name, prop in schema["inputSchema"]["properties"].items():
                if "default" in prop:
                    assert signature[name].default == prop["default"], (schema["name"], name)


# -- the contract text --------------------------------------------------------------------------

def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n### ", start + len(heading))
    return text[start:end if end != -1 else None]


def _unescape(value: str) -> str:
    # The contract writes newlines inside descriptions as Python source does: \n.
    return value.replace("\\n", "\n")


_BULLET = re.compile(r'^\s*\* `(?P<name>\w+)`:? (?P<type>string|integer|boolean)(?P<rest>.*?)'
                     r' — "(?P<desc>.*)"(?: \(newest only\))?$', re.MULTILINE)
_INLINE = re.compile(r'`(?P<name>\w+)` \((?P<type>string)(?: enum `(?P<enum>\[.*?\])`)?'
                     r'(?:, default "(?P<default>\w+)")?, "(?P<desc>.*?)"\)')
_INLINE_PLAIN = re.compile(r'`(?P<name>\w+)` (?P<type>string) \("(?P<desc>.*?)"\)')


def _bullet_property(match: re.Match[str]) -> dict[str, Any]:
    rest = match["rest"]
    prop: dict[str, Any] = {"type": match["type"]}
    if enum := re.search(r"enum `(\[.*?\])`", rest):
        prop["enum"] = json.loads(enum[1])
    if default := re.search(r"default \**([^,*\s]+)", rest):
        prop["default"] = json.loads(default[1])
    for keyword in ("minimum", "maximum"):
        if bound := re.search(rf"{keyword} (\d+)", rest):
            prop[keyword] = int(bound[1])
    prop["description"] = match["desc"]
    return prop


def _inline_property(match: re.Match[str]) -> dict[str, Any]:
    groups = match.groupdict()
    prop: dict[str, Any] = {"type": groups["type"]}
    if groups.get("enum"):
        prop["enum"] = json.loads(groups["enum"])
    if groups.get("default"):
        prop["default"] = groups["default"]
    prop["description"] = _unescape(groups["desc"])
    return prop


def _contract_schemas() -> dict[str, dict[str, Any]]:
    """``{label: {"description", "properties", "required"}}`` read from hermes-contract.md."""
    if not CONTRACT.is_file():
        pytest.skip(f"the contract text is not at {CONTRACT} (set SHELLFREE_CONTRACT)")
    text = CONTRACT.read_text(encoding="utf-8")
    found: dict[str, dict[str, Any]] = {}

    read = _section(text, "### 2.1 Schema")
    found["read_file"] = {
        "description": re.search(r"description \(verbatim\):\s*`([^`]+)`", read)[1],
        "properties": {m["name"]: _bullet_property(m) for m in _BULLET.finditer(read)},
        "required": json.loads(re.search(r"required: (\[.*?\])", read)[1]),
    }

    write = _section(text, "### 3.1 Schema")
    params = write[write.index("* parameters:"):]
    found["write_file"] = {
        "description": re.search(r"description \(verbatim\):\s*`([^`]+)`", write)[1],
        "properties": {m["name"]: {"type": m["type"], "description": m["desc"]}
                       for m in _INLINE_PLAIN.finditer(params)},
        "required": json.loads(re.search(r"required: (\[.*?\])", params)[1]),
    }

    patch = _section(text, "### 4.1 Schema")
    base, v4a = patch.split("**V4A override")
    base_properties = {m["name"]: _bullet_property(m) for m in _BULLET.finditer(base)}
    found["patch (replace)"] = {
        "description": re.search(r"description: `([^`]+)`", base)[1],
        "properties": base_properties,
        "required": json.loads(re.search(r"required: (\[.*?\])", base)[1]),
    }
    inline = {m["name"]: _inline_property(m) for m in _INLINE.finditer(v4a)}
    found["patch (v4a)"] = {
        "description": _unescape(re.search(r"description becomes\s*`([^`]+)`", v4a)[1]),
        "properties": {"mode": inline["mode"], **base_properties, "patch": inline["patch"]},
        "required": json.loads(re.search(r"required: (\[.*?\])", v4a)[1]),
    }

    search = _section(text, "### 5.1 Schema")
    found["search_files"] = {
        "description": _unescape(re.search(r"description \(verbatim\):\s*`([^`]+)`", search)[1]),
        "properties": {m["name"]: _bullet_property(m) for m in _BULLET.finditer(search)},
        "required": json.loads(re.search(r"required: (\[.*?\])", search)[1]),
    }
    return found


def _ours() -> dict[str, dict[str, Any]]:
    ours: dict[str, dict[str, Any]] = {}
    for v4a in (False, True):
        for schema in tool_schemas("anthropic", v4a=v4a):
            label = schema["name"]
            if label == "patch":
                label = "patch (v4a)" if v4a else "patch (replace)"
            ours[label] = {"description": schema["description"],
                           "properties": schema["input_schema"]["properties"],
                           "required": schema["input_schema"]["required"]}
    return ours


@pytest.mark.parametrize("label", ["read_file", "write_file", "patch (replace)", "patch (v4a)",
                                   "search_files"])
class TestAgainstTheContract:
    def test_description_is_verbatim(self, label):
        assert _ours()[label]["description"] == _contract_schemas()[label]["description"], label

    def test_parameters_are_the_contracts(self, label):
        expected, actual = _contract_schemas()[label], _ours()[label]
        assert list(actual["properties"]) == list(expected["properties"]), label
        for name, prop in expected["properties"].items():
            assert actual["properties"][name] == prop, (label, name)

    def test_required(self, label):
        assert _ours()[label]["required"] == _contract_schemas()[label]["required"], label


def test_contract_parser_found_every_parameter():
    # A guard on the regexes above: a contract edit that they stop matching must fail loudly.
    counts = {label: len(found["properties"]) for label, found in _contract_schemas().items()}
    assert counts == {"read_file": 3, "write_file": 2, "patch (replace)": 4, "patch (v4a)": 6,
                      "search_files": 9}
