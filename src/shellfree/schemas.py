"""The four file tools' schemas, as an agent runtime registers them, in one table.

:data:`TOOL_SPECS` holds each tool's name, description and parameters exactly as the Hermes
contract gives them (hermes-contract §2.1, §3.1, §4.1, §5.1); :func:`tool_schemas` renders that
one table in the shape an OpenAI, Anthropic or MCP client expects. Nothing here imports the
engine, so asking for schemas stays cheap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["FLAVORS", "TOOL_NAMES", "TOOL_SPECS", "Param", "ToolSpec", "tool_schemas"]

Flavor = Literal["openai", "anthropic", "mcp"]

FLAVORS: tuple[str, ...] = ("openai", "anthropic", "mcp")
"""The shapes :func:`tool_schemas` renders."""

_NO_DEFAULT: Any = object()


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of a tool: its JSON *type*, *description* and optional constraints.

    *default* is advertised in the schema when given (it is also what the handler assumes);
    *enum*, *minimum* and *maximum* become the JSON Schema keywords of the same names.
    """

    name: str
    type: Literal["string", "integer", "boolean"]
    description: str
    default: Any = _NO_DEFAULT
    enum: tuple[str, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def to_json_schema(self) -> dict[str, Any]:
        """The property's JSON Schema, keys in the order the contract lists them."""
        schema: dict[str, Any] = {"type": self.type}
        if self.enum is not None:
            schema["enum"] = list(self.enum)
        if self.default is not _NO_DEFAULT:
            schema["default"] = self.default
        if self.minimum is not None:
            schema["minimum"] = self.minimum
        if self.maximum is not None:
            schema["maximum"] = self.maximum
        schema["description"] = self.description
        return schema


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool: *name*, model-facing *description*, *params* in schema order, *required* names.

    *read_only*, *destructive* and *idempotent* become MCP tool annotations (hints a client may
    use to decide which calls need the user's approval); the OpenAI and Anthropic shapes have no
    such field.
    """

    name: str
    description: str
    params: tuple[Param, ...]
    required: tuple[str, ...]
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False
    title: str = ""

    def __post_init__(self) -> None:
        unknown = set(self.required) - {p.name for p in self.params}
        if unknown:
            raise ValueError(f"{self.name}: required names no parameter: {sorted(unknown)}")

    def parameters_schema(self) -> dict[str, Any]:
        """The tool's arguments as a JSON Schema object (the same in every flavor)."""
        return {
            "type": "object",
            "properties": {p.name: p.to_json_schema() for p in self.params},
            "required": list(self.required),
        }


# -- the table ------------------------------------------------------------------------------
# Every string below is the contract's text verbatim: agents are tuned on these exact words, and
# tests/test_schemas.py compares them with hermes-contract.md. Edit them only together.

READ_FILE = ToolSpec(
    name="read_file",
    title="Read file",
    description=(
        "Read a text file with line numbers and pagination. Use this instead of cat/head/tail in "
        "terminal. Output format: 'LINE_NUM|CONTENT'. Suggests similar filenames if not found. "
        "Use offset and limit for large files. Reads exceeding ~100K characters are truncated on "
        "a line boundary and return a next_offset; continue with offset to read the rest. "
        "Documents auto-extract to readable text: .ipynb, Office (.docx/.xlsx/.pptx and legacy "
        ".doc/.ppt/.xls), PDF (text layer), OpenDocument, RTF, EPUB, SQLite (.db/.sqlite: schema, "
        "row counts, first rows). Cannot read images/binary — use vision_analyze for images."
    ),
    params=(
        Param("path", "string", "Path to the file to read (absolute, relative, or ~/path)"),
        Param("offset", "integer", "Line number to start reading from (1-indexed, default: 1)",
              default=1, minimum=1),
        Param("limit", "integer",
              "Maximum number of lines to read (default: 2000, max: 2000). Reads are additionally "
              "capped at a ~100K-character budget with a next_offset continuation.",
              default=2000, maximum=2000),
    ),
    required=("path",),
    read_only=True,
    idempotent=True,
)

WRITE_FILE = ToolSpec(
    name="write_file",
    title="Write file",
    description=(
        "Write content to a file, completely replacing existing content. Use this instead of "
        "echo/cat heredoc in terminal. Creates parent directories automatically. OVERWRITES the "
        "entire file — use 'patch' for targeted edits. For an EXISTING file, call read_file "
        "first: write_file refuses (file untouched) when this task has no current full "
        "read/write of the file or the file changed on disk since; on refusal, read_file, merge, "
        "then retry. Auto-runs syntax checks on .py/.json/.yaml/.toml and other linted "
        "languages; only NEW errors introduced by this write are surfaced (pre-existing errors "
        "are filtered out). The result's verified:true means the on-disk content hash was "
        "confirmed — do NOT re-read the file to check the write landed."
    ),
    params=(
        Param("path", "string",
              "Path to the file to write (will be created if it doesn't exist, overwritten if it "
              "does)"),
        Param("content", "string", "Complete content to write to the file"),
    ),
    required=("path", "content"),
    destructive=True,
    # Writing the same content again changes nothing more.
    idempotent=True,
)

_PATCH_INTRO = (
    "Targeted find-and-replace edits in files. Use this instead of sed/awk in terminal. Uses "
    "fuzzy matching (9 strategies) so minor whitespace/indentation differences won't break it. "
    "Returns a unified diff. Auto-runs syntax checks after editing."
)

_PATCH_REPLACE_PARAMS = (
    Param("path", "string", "File path to edit."),
    Param("old_string", "string",
          "Exact text to find and replace. Must be unique in the file unless replace_all=true. "
          "Include surrounding context lines to ensure uniqueness."),
    Param("new_string", "string",
          "Changed replacement text; it must differ from old_string. Pass empty string '' to "
          "delete the matched text."),
    Param("replace_all", "boolean",
          "Replace all occurrences instead of requiring a unique match (default: false)",
          default=False),
)

PATCH_REPLACE = ToolSpec(
    name="patch",
    title="Patch file",
    description=_PATCH_INTRO + " Finds a unique string and replaces it.",
    params=_PATCH_REPLACE_PARAMS,
    required=("path", "old_string", "new_string"),
    destructive=True,
)
"""The base patch schema Hermes gives every model: replace mode only."""

PATCH_V4A = ToolSpec(
    name="patch",
    title="Patch files",
    description=(
        _PATCH_INTRO + "\n\nREPLACE MODE (mode='replace', default): find a unique string and "
        "replace it. REQUIRED PARAMETERS: mode, path, old_string, new_string.\nPATCH MODE "
        "(mode='patch'): apply V4A multi-file patches for bulk changes. REQUIRED PARAMETERS: "
        "mode, patch."
    ),
    params=(
        Param("mode", "string",
              "Edit mode. 'replace' (default): requires path + old_string + new_string. 'patch': "
              "requires patch content only.",
              default="replace", enum=("replace", "patch")),
        *_PATCH_REPLACE_PARAMS,
        Param("patch", "string",
              "REQUIRED when mode='patch'. V4A format patch content. Format:\n*** Begin Patch\n"
              "*** Update File: path/to/file\n@@ context hint @@\n context line\n-removed line\n"
              "+added line\n*** End Patch"),
    ),
    required=("mode",),
    destructive=True,
)
"""The patch schema with V4A multi-file patches (Hermes' override for OpenAI-family models)."""

SEARCH_FILES = ToolSpec(
    name="search_files",
    title="Search files",
    description=(
        "Search file contents or find files by name. Use this instead of grep/rg/find/ls in "
        "terminal. Ripgrep-backed, faster than shell equivalents. On macOS, broad searches above "
        "the user home automatically skip TCC-protected folders (Desktop, Documents, Downloads, "
        "Library, Movies, Music, Pictures); target one directly when access is intentional.\n\n"
        "Content search (target='content'): Regex search inside files. Output modes: full "
        "matches with line numbers, file paths only, or match counts.\n\nFile search "
        "(target='files'): Find files by glob pattern (e.g., '*.py', '*config*'). Also use this "
        "instead of ls. Discovery order is the fast bounded default; exact global newest-first "
        "order is an explicit opt-in and may scan the full tree."
    ),
    params=(
        Param("pattern", "string",
              "Regex pattern for content search, or glob pattern (e.g., '*.py') for file search"),
        Param("target", "string",
              "'content' searches inside file contents, 'files' searches for files by name",
              default="content", enum=("content", "files")),
        Param("path", "string",
              "Directory or file to search in (default: current working directory)", default="."),
        Param("file_glob", "string",
              "Filter files by pattern in grep mode (e.g., '*.py' to only search Python files)"),
        Param("limit", "integer", "Maximum number of results to return (default: 50)",
              default=50),
        Param("offset", "integer", "Skip first N results for pagination (default: 0)",
              default=0),
        Param("order", "string",
              "File-search order: 'discovery' is fast bounded traversal order; 'modified' is "
              "exact global newest-first and may scan the full tree; ignored for content",
              default="discovery", enum=("discovery", "modified")),
        Param("output_mode", "string",
              "Output format for grep mode: 'content' shows matching lines with line numbers, "
              "'files_only' lists file paths, 'count' shows match counts per file",
              default="content", enum=("content", "files_only", "count")),
        Param("context", "integer",
              "Number of context lines before and after each match (grep mode only)", default=0),
    ),
    required=("pattern",),
    read_only=True,
    idempotent=True,
)

TOOL_SPECS: tuple[ToolSpec, ...] = (READ_FILE, WRITE_FILE, PATCH_V4A, SEARCH_FILES)
"""The four tools in the order ``FileTools.call`` lists them (patch with both modes)."""

TOOL_NAMES: tuple[str, ...] = tuple(spec.name for spec in TOOL_SPECS)

_V4A_BY_DEFAULT = {"openai": True, "anthropic": False, "mcp": True}
"""Whether each flavor advertises V4A patches unless told. Hermes shows V4A only to OpenAI-family
models; an MCP server cannot know its model, and FileTools accepts V4A from anyone, so MCP gets
both modes too."""


def tool_schemas(flavor: Flavor = "openai", *, v4a: bool | None = None) -> list[dict[str, Any]]:
    """The four tools' schemas for *flavor*, in the order read_file, write_file, patch,
    search_files. Each call returns fresh dicts, so callers may change them.

    - ``"openai"``: ``{"type": "function", "function": {"name", "description", "parameters"}}``
      (Chat Completions function calling);
    - ``"anthropic"``: ``{"name", "description", "input_schema"}`` (Messages API tools);
    - ``"mcp"``: the Model Context Protocol ``Tool`` fields ``{"name", "title", "description",
      "inputSchema", "annotations"}``.

    *v4a* picks the patch schema: True advertises replace and V4A patch modes (``mode`` and
    ``patch`` parameters), False the replace-only base schema. The default is True for
    ``"openai"`` and ``"mcp"`` and False for ``"anthropic"``, as Hermes does per model family.
    Raises ``ValueError`` for an unknown *flavor*.
    """
    if flavor not in _V4A_BY_DEFAULT:
        raise ValueError(f"unknown schema flavor {flavor!r}; choose from {', '.join(FLAVORS)}")
    with_v4a = _V4A_BY_DEFAULT[flavor] if v4a is None else v4a
    specs = [spec if spec.name != "patch" or with_v4a else PATCH_REPLACE for spec in TOOL_SPECS]
    return [_render(spec, flavor) for spec in specs]


def _render(spec: ToolSpec, flavor: str) -> dict[str, Any]:
    parameters = spec.parameters_schema()
    if flavor == "openai":
        return {"type": "function",
                "function": {"name": spec.name, "description": spec.description,
                             "parameters": parameters}}
    if flavor == "anthropic":
        return {"name": spec.name, "description": spec.description, "input_schema": parameters}
    return {
        "name": spec.name,
        "title": spec.title,
        "description": spec.description,
        "inputSchema": parameters,
        "annotations": {
            "title": spec.title,
            "readOnlyHint": spec.read_only,
            "destructiveHint": spec.destructive,
            "idempotentHint": spec.idempotent,
            # The tools touch the local file system only.
            "openWorldHint": False,
        },
    }
