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

# -- read_file: tool-layer guards (§2.2, §8.4) ----------------------------------------------------

READ_DEVICE_BLOCKED = (
    "Cannot read '{path}': this is a device file that would block or produce infinite output."
)
READ_SPECIAL_FILE = (
    "'{path}' is {kind}, not a regular file — reading it would block indefinitely, so no read "
    "was attempted. Use terminal utilities if you need to interact with it."
)
"""The ``note`` of ``{"success": false, "note": …}`` (not a ``tool_error``, §2.2 step 5)."""
SPECIAL_FILE_KINDS = {
    "fifo": "a FIFO (named pipe)",
    "socket": "a socket",
    "char": "a character device",
    "block": "a block device",
    "other": "a special (non-regular) file",
}
READ_BINARY_EXTENSION = (
    "Cannot read binary file '{path}' ({ext}). Use vision_analyze for images, or terminal to "
    "inspect binary files."
)
READ_DOCUMENT_FAILED = (
    "Cannot read '{path}' ({ext}): document extraction failed — {reason}. Use terminal utilities "
    "to inspect or convert the file."
)

# -- read_file: file-ops layer (§2.3–§2.5) --------------------------------------------------------

READ_NOT_REGULAR = (
    "Cannot read '{path}': not a regular file (directory, FIFO, socket, or device). Reading it "
    "could block indefinitely."
)
READ_FAILED = "Failed to read file: {detail}"
FILE_NOT_FOUND = "File not found: {path}"
READ_UNICODE_VARIANT = (
    "Note: '{path}' not found byte-for-byte; resolved to the unicode-equivalent file '{variant}' "
    "(invisible encoding difference: NFC/NFD or special space/quote characters)."
)
READ_CONTINUE = (
    "Use offset={next_offset} to continue reading (showing {offset}-{end_line} of {total_lines} "
    "lines)"
)
READ_EMPTY_FILE = "File is empty (0 bytes)."
READ_BEYOND_END = (
    "Note: offset {offset} is beyond the end of the file ({total_lines} lines total). Retry with "
    "offset <= {total_lines}."
)
LINE_TRUNCATED = "... [truncated]"
"""Appended to a displayed line cut at ``max_line_length`` characters (§1.4)."""
READ_IMAGE_REDIRECT = (
    "Image file detected. Automatically redirected to vision_analyze tool. Use vision_analyze "
    "with this file path to inspect the image contents."
)
READ_BINARY_FILE = "Binary file ({kind}, {size}) — cannot display as text."
READ_UTF16_TRANSCODED = (
    "Transcoded from {encoding} to UTF-8 for display. Text edits via patch/write_file would "
    "re-encode as UTF-8."
)
READ_LEGACY_DECODED = "Decoded from {encoding} (detected from the file's bytes) for display."
"""shellfree's own: Hermes refuses legacy-encoded text as binary (§2.4); shellfree shows it."""
BINARY_MAGIC_KINDS: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "PNG image data"),
    (b"\xff\xd8\xff", "JPEG image data"),
    (b"GIF87a", "GIF image data"),
    (b"GIF89a", "GIF image data"),
    (b"RIFF", "RIFF container (WAV/AVI/WebP family)"),
    (b"%PDF-", "PDF document"),
    (b"PK\x03\x04", "ZIP archive (also docx/xlsx/jar/apk)"),
    (b"PK\x05\x06", "ZIP archive (empty)"),
    (b"\x1f\x8b", "gzip compressed data"),
    (b"BZh", "bzip2 compressed data"),
    (b"\xfd7zXZ\x00", "xz compressed data"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip archive"),
    (b"\x7fELF", "ELF executable"),
    (b"MZ", "Windows PE executable"),
    (b"\xcf\xfa\xed\xfe", "Mach-O executable (64-bit)"),
    (b"\xca\xfe\xba\xbe", "Mach-O universal binary / Java class"),
    (b"SQLite format 3\x00", "SQLite database"),
    (b"OggS", "Ogg container"),
    (b"fLaC", "FLAC audio"),
    (b"ID3", "MP3 audio (ID3 tag)"),
    (b"\x00\x00\x00", "ISO media container (MP4/MOV family)"),  # only with b"ftyp" at 4..8
    (b"BM", "BMP image data"),
    (b"II*\x00", "TIFF image data (little-endian)"),
    (b"MM\x00*", "TIFF image data (big-endian)"),
)
"""The first matching prefix names a binary file's kind in :data:`READ_BINARY_FILE` (§2.4)."""
BINARY_KIND_UNKNOWN = "unknown binary"

# -- read_file: tool-layer post-processing and loop guards (§2.6, §6.1, §6.3) ---------------------

READ_BUDGET_TRUNCATED = (
    "Output truncated at the {max_chars:,}-char read budget after {lines_kept} line(s) (showing "
    "lines {offset}-{last_line} of {total_lines}). Use offset={next_offset} to continue."
)
READ_BUDGET_FIRST_LINE = (
    " Note: the first line alone exceeded the budget and was clamped mid-line; its remainder is "
    "not retrievable via offset."
)
READ_CONFLICT_BLOCKS = (
    "{count} unresolved git merge-conflict block(s) (<<<<<<< / ======= / >>>>>>>) in this range. "
    "Resolve them (keep one side or combine, delete the markers) before editing around them."
)
READ_LARGE_FILE = (
    "This file is large ({file_size:,} bytes). Consider reading only the section you need with "
    "offset and limit to keep context usage efficient."
)
READ_LOOP_WARNING = (
    "You have read this exact file region {count} times consecutively. The content has not "
    "changed since your last read. Use the information you already have. If you are stuck in a "
    "loop, stop reading and proceed with writing or responding."
)
READ_LOOP_BLOCKED = (
    "BLOCKED: You have read this exact file region {count} times in a row. The content has NOT "
    "changed. You already have this information. STOP re-reading and proceed with your task."
)
READ_UNCHANGED = (
    "File unchanged since last read. The content from the earlier read_file result in this "
    "conversation is still current — refer to that instead of re-reading."
)
READ_DEDUP_BLOCKED = (
    "BLOCKED: You have called read_file on this exact region {count} times and the file has NOT "
    "changed. STOP calling read_file for this path — the content from your earlier read_file "
    "result in this conversation is still current. Proceed with your task using the information "
    "you already have."
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
