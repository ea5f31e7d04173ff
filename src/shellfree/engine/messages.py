"""Every text an agent can receive from the file tools, copied verbatim from the Hermes contract.

Handlers never spell a message themselves: they format one of these constants, so the tests can
assert each one exactly and a wording change happens in one place. Section numbers refer to
``shared/reference/hermes-contract.md``.
"""

from __future__ import annotations

# -- Envelope keys -------------------------------------------------------------------------------

GUARDRAIL_REFUSAL_KEY = "guardrail_refusal"
"""Key set to ``true`` on loop-guard refusals. Hermes: the key exists but its string value was
never seen (§12.3); this name is shellfree's choice."""

# -- search_files: loop guard (§5.2 step 2, §6.2) -------------------------------------------------

SEARCH_LOOP_BLOCKED = (
    "BLOCKED: You have run this exact search {count} times in a row. The results have NOT "
    "changed. You already have this information. STOP re-searching and proceed with your task."
)
SEARCH_LOOP_WARNING = (
    "You have run this exact search {count} times consecutively. The results have not changed. "
    "Use the information you already have."
)

# -- search_files: tool-layer extras (§5.2 steps 10 and 13) --------------------------------------

OMITTED = (
    "{omitted} result(s) omitted because they target credential, token, cache, or "
    "secret-bearing environment files."
)
TRUNCATED_HINT = (
    "Results truncated. Use offset={next_offset} to see more, or narrow with a more specific "
    "pattern or file_glob."
)

# -- search_files: file-ops layer (§5.3–§5.5) -----------------------------------------------------

INVALID_ORDER = "Invalid file search order {order!r}; expected 'discovery' or 'modified'."
PATH_NOT_FOUND = "Path not found: {path}"
SIMILAR_PATHS = ". Similar paths: {paths}"
MULTI_PATH = "path contained {total} entries; searched {found} that exist"
MULTI_PATH_SKIPPED = "; skipped missing: {names}"
MULTI_PATH_MORE = " (+{more} more)"
MACOS_PROTECTED_SKIPPED = (
    "Skipped macOS protected folders during broad search to avoid an unattended privacy prompt: "
    "{names}. Search a protected folder directly when access is intentional."
)
MULTILINE_ENABLED = (
    "Pattern contains \\n — multiline mode (-U) was enabled automatically so the regex can match "
    "across line boundaries."
)
SEARCH_FAILED = "Search failed: {detail}"
SEARCH_FAILED_DEFAULT = "Search error"
FILE_SEARCH_FAILED = "File search failed while running ripgrep."
MODIFIED_ORDER_FAILED = (
    "Exact modification-time order failed; ripgrep 14+ is required. Upgrade ripgrep or use "
    "order='discovery'."
)
MODIFIED_ORDER_NEEDS_RG14 = (
    "Exact modification-time order requires ripgrep 14 or newer; upgrade ripgrep or use "
    "order='discovery'."
)
NO_SEARCH_ROOT = "File search requires at least one search root in 'path'."

# -- search_files: zero-match probes (§5.4) -------------------------------------------------------

PROBE_CASE = (
    "0 exact matches, but {total} case-insensitive match(es) in {files} file(s): {paths} — the "
    "pattern's casing may be wrong."
)
PROBE_HIDDEN = (
    "0 matches in visible files, but {total} match(es) in {files} hidden or gitignored file(s): "
    "{paths} — these are excluded by default."
)
PROBE_LITERAL = (
    "0 regex matches, but {total} literal match(es) in {files} file(s): {paths} — the pattern "
    "contains regex metacharacters that likely need escaping (or pass a simpler substring)."
)
PROBE_PATHS_MORE = " (+{extra} more)"

# -- SearchResult.to_dict (§5.6) ------------------------------------------------------------------

MATCHES_FORMAT = (
    "path-grouped: each file path on its own line, followed by indented '<line>: <content>' rows "
    "for matches in that file"
)

# -- Safety lists (§8.1, §8.3) --------------------------------------------------------------------

NT_NAMESPACE_DENIED = (
    "{verb} denied: '{path}' uses a Windows NT/device namespace prefix (\\??\\, \\\\.\\, "
    "\\\\?\\UNC\\, or GLOBALROOT). These paths bypass normal path normalization and can trigger "
    "outbound SMB authentication (NTLM credential leak) merely by being resolved. Use a normal "
    "absolute path instead."
)

_NOT_A_BOUNDARY = " (Defense-in-depth — not a security boundary; the terminal tool can still bypass.)"

DENY_SKILLS_HUB = (
    "Access denied: {path} is an internal Hermes cache file and cannot be read directly to prevent "
    "prompt injection. Use the skills_list or skill_view tools instead."
)
DENY_CREDENTIAL_STORE = (
    "Access denied: {path} is a Hermes credential store and cannot be read directly. Provider "
    "tools consume these credentials through internal channels." + _NOT_A_BOUNDARY
)
DENY_DIRECTORY = "Access denied: {path} {reason}" + _NOT_A_BOUNDARY
DENY_DIRECTORY_REASONS: dict[str, tuple[str, str]] = {
    # directory name: (reason for the directory itself, reason for a file inside it)
    "mcp-tokens": (
        "is the Hermes MCP token directory and cannot be read directly.",
        "is a Hermes MCP token file and cannot be read directly.",
    ),
    "browser-profile": (
        "is the Hermes real-profile browser snapshot directory (copied cookies/logins) and cannot "
        "be read directly.",
        "is inside the Hermes real-profile browser snapshot (copied cookies/logins) and cannot be "
        "read directly.",
    ),
    "vault": (
        "is the Hermes credential vault directory and cannot be read directly (secrets are filled "
        "server-side by browser_vault_fill).",
        "is inside the Hermes credential vault (encrypted secrets + local key) and cannot be read "
        "directly (browser_vault_fill resolves them server-side).",
    ),
}
DENY_ENV_FILE = (
    "Access denied: {path} is a secret-bearing environment file and cannot be read to prevent "
    "credential leakage. If you need to check the file structure, read .env.example instead."
    + _NOT_A_BOUNDARY
)

# -- Dispatch (shellfree's own) -------------------------------------------------------------------

UNKNOWN_TOOL = "Unknown tool: {name!r}. Available file tools: {available}."
BAD_ARGUMENTS = "Arguments for {name} must be a JSON object, got {kind}."
