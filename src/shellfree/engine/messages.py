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
PATH_DANGLING_LINK = " (a symbolic link to '{target}', which does not exist)"
SEARCH_SPECIAL_FILE = (
    "Cannot search '{path}': it is {kind}, not a regular file or directory. Reading it could "
    "block indefinitely, so nothing was searched."
)
"""shellfree's: rg reads a FIFO or device named as the path, and waits on a FIFO forever."""
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
SEARCH_BINARY_MATCHES = (
    "{files} binary file(s) matched, whose lines are not shown: {paths}"
)

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
READ_NO_CONVERTER = (
    "Cannot convert {path!r}: this format needs a converter shellfree does not have (it "
    "extracts .docx, .xlsx, .xlsm, .pdf and .ipynb). Fix: convert the file yourself via terminal "
    "(e.g. libreoffice --headless --convert-to txt)"
)
"""The reason (§2.9) for a format the schema advertises that Hermes reads only through its
optional ``anydoc`` converter, in the place of Hermes' missing-converter text (which would tell
the agent to install a package shellfree does not use)."""
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
DANGLING_LINK_NOTE = "Note: '{path}' is a symbolic link to '{target}', which does not exist."
"""shellfree's hint on a missing file that is a link leading nowhere (Hermes suggested the
link's own name as a similar file)."""
READ_UNICODE_VARIANT = (
    "Note: '{path}' not found byte-for-byte; resolved to the unicode-equivalent file '{variant}' "
    "(invisible encoding difference: NFC/NFD or special space/quote characters)."
)
"""§2.5's note in read_file's hint; shellfree gives write_file, patch and search_files the same
resolution, and the same note as their warning (Hermes patched nothing there, wrote a look-alike
file, or did not find the path)."""
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
    "Transcoded from {encoding} to UTF-8 for display. Text edits via patch/write_file keep "
    "the file in {encoding}."
)
"""Hermes says edits "would re-encode as UTF-8"; shellfree's writes keep the file's encoding."""
READ_LEGACY_DECODED = "Decoded from {encoding} (detected from the file's bytes) for display."
"""shellfree's own: Hermes refuses legacy-encoded text as binary (§2.4); shellfree shows it."""
READ_STRAY_LINES_DECODED = (
    "Lines that are not UTF-8 decoded from {encoding} (detected from the file's bytes) for "
    "display; the rest is UTF-8, and new text is written as UTF-8."
)
"""shellfree's own: a UTF-8 file with lines in a legacy code page (engine/text_decoding.py)."""
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

OUTSIDE_WORKSPACE = (
    "{verb} denied: '{path}' resolves to '{real}', which is outside the workspace root "
    "'{root}' (this FileTools was created with confine=True). Use a path inside the workspace."
)
"""shellfree addition: workspace confinement (``FileTools(confine=True)``)."""

WINDOWS_DEVICE_NAME_DENIED = (
    "{verb} denied: '{path}' names the Windows device {device!r} (CON, PRN, AUX, NUL, COM0-9 "
    "and LPT0-9 are devices in every directory, whatever the extension). Opening it reaches "
    "the device, not a file. Use another file name."
)
"""shellfree addition (Hermes has no such check): Windows reserved device names."""

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

# -- write_file: argument validation and tool-layer guards (§3.2, §3.3, §3.6, §3.7, §8.2) ---------

WRITE_MISSING_PATH = (
    "write_file: missing required field 'path'. Re-emit the tool call with both 'path' and "
    "'content' set."
)
WRITE_MISSING_CONTENT = (
    "write_file: missing required field 'content'. The tool call included a path but no content "
    "argument — this is almost always a dropped-arg bug under context pressure. Re-emit the tool "
    "call with the full content payload, or use execute_code with hermes_tools.write_file() for "
    "very large files."
)
WRITE_CONTENT_NOT_STRING = "write_file: 'content' must be a string, got {type_name}."
SENSITIVE_SYSTEM_PATH = (
    "Refusing to write to sensitive system path: {path}\nUse the terminal tool with sudo if you "
    "need to modify system files."
)
HERMES_CONFIG_WRITE = (
    "Refusing to write to Hermes config file: {path}\nAgent cannot modify security-sensitive "
    "configuration. Edit ~/.hermes/config.yaml directly or use 'hermes config' instead."
)
BINARY_DOCUMENT_WRITE = (
    "Refusing to write plain text to binary document '{path}' ({ext}). A text write cannot "
    "produce a valid document container and would corrupt the file (read_file showed you "
    "EXTRACTED text, not the real bytes). Use the docx/xlsx/powerpoint skills or a library like "
    "python-docx/openpyxl/python-pptx via the terminal to create or edit this document."
)
SQLITE_SIDECAR_WRITE = (
    "Refusing to write plain text to binary SQLite sidecar '{path}' ({ext}). A -wal/-shm/-journal "
    "file holds raw database pages that SQLite reads on the next open; text there corrupts the "
    "database. Use the sqlite3 CLI or a SQLite library via the terminal to modify the database "
    "instead."
)
EXISTING_PDF_WRITE = (
    "Refusing to overwrite existing PDF '{path}' with plain text. read_file showed you EXTRACTED "
    "text, not the real bytes — writing text back would destroy the document. Use the pdf skill "
    "or a PDF library via the terminal to modify it. (Creating a NEW .pdf file is allowed.)"
)
EXISTING_BINARY_WRITE = (
    "Refusing to overwrite existing binary file '{path}' ({ext}) with plain text — read_file "
    "showed you extracted or mojibake text, not the real bytes, and writing text back would "
    "destroy the file. Use a binary-aware tool via the terminal to modify it (for SQLite "
    "databases, the sqlite3 CLI or a SQLite library). (Creating a NEW file with this extension "
    "is allowed.)"
)
EXISTENCE_UNKNOWN_WRITE = (
    "Refusing to write to '{path}': could not establish whether the target file already exists "
    "where this write would execute (the terminal environment may be starting, unreachable, or "
    "was removed). The file was NOT modified — retry once the environment is reachable."
)
PROTECTED_INSTRUCTION_BLOCKED = (
    "BLOCKED: write to protected agent-instruction file(s) ({targets}) {why} The user has NOT "
    "consented to this write. Do NOT retry it or attempt the same edit via another path "
    "(terminal, execute_code, etc.)."
)
SSH_CONFIG_BLOCKED = (
    "BLOCKED: write to SSH config file(s) ({targets}) {why} Do NOT retry it via another path "
    "(terminal, execute_code) without the user's explicit consent."
)
APPROVAL_NO_USER = (
    "requires approval but no interactive user or gateway is present to approve it."
)
APPROVAL_DENIED = "was denied by the user."
APPROVAL_NOT_ANSWERED = "approval prompt could not be delivered or was not answered ({cause})."
PROTECTED_INSTRUCTION_REASON = "protected agent-instruction file"
"""shellfree's own: the *reason* passed to ``FileTools.approval_callback`` (§3.7 gate 1)."""
SSH_CONFIG_REASON = "SSH config file"
"""shellfree's own: the *reason* passed to ``FileTools.approval_callback`` (§3.7 gate 2)."""
DISPLAY_TEXT_WRITE = (
    "Refusing to write internal read_file display text as file content. Strip read_file "
    "line-number prefixes or reconstruct the intended file contents before writing."
)
REDACTED_PLACEHOLDER_WRITE = (
    "Refusing to write '{path}': {what} contains the redaction placeholder {placeholder!r}, which "
    "stands for a secret that was hidden from you — writing it would replace the real value with "
    "the placeholder. The file was NOT created or modified. Leave the lines holding secrets out "
    "of {what} (edit only the lines around them), or ask the user to change them."
)
"""shellfree's own: masked text must never overwrite the secret it masks (issue 6)."""

# -- write_file: file-ops layer and stale-overwrite blocker (§3.4, §3.5, §6.5, §8.2) ---------------

WRITE_DENIED = "{verb} denied: '{path}' is a protected system/credential file."
WRITE_OUTSIDE_SAFE_ROOT = (
    "{verb} denied: '{path}' is outside HERMES_WRITE_SAFE_ROOT ({roots}). Unset the variable or "
    "add this path's directory prefix."
)
LONE_SURROGATE_WRITE = (
    "Refusing to write '{path}': content contains a lone surrogate character ({char!r}) that "
    "cannot be encoded as UTF-8. The file was NOT created or modified."
)
SYNTAX_GATE_WRITE = (
    "Refusing to write '{path}': candidate content fails {ext} syntax validation ({err}). The "
    "file was NOT created or modified. Fix the content and retry."
)
UNENCODABLE_WRITE = (
    "Refusing to write '{path}': the file is stored as {encoding} and the content contains "
    "{char!r}, which {encoding} cannot represent. The file was NOT created or modified. Use only "
    "characters the file's encoding can store (or an escape the file format understands)."
)
"""shellfree's own: an edit never silently re-encodes a legacy-encoded file."""
WRITE_FAILED = "Failed to write file: {output}"
WRITE_SPECIAL_FILE = (
    "Refusing to write '{path}': it is {kind}, not a regular file. Reading it could block "
    "indefinitely and replacing it would destroy it, so nothing was changed."
)
"""shellfree's: write_file and patch leave a FIFO, socket or device alone (Hermes would wait
on a FIFO forever, and rename a new file over a device)."""
WRITE_SPECIAL_TARGET = "the target is {kind}, not a regular file; it was left as it was"
ATOMIC_TEMP_FAILED = "atomic write: could not create temp file"
WRITE_VERIFY_FAILED = (
    "Post-write verification failed for {path}: on-disk content hash differs from the intended "
    "write. The write did not persist correctly — re-read the file and retry."
)
STALE_MODIFIED = (
    "{path} was modified since you last read it (external edit or concurrent agent). Re-read the "
    "file before writing."
)
STALE_NOT_SEEN = (
    "{resolved} exists but this task has not seen its full current content (never read, only "
    "patched, or only a redacted/partial view). Read the file — every page of it, if it needs "
    "offset/limit — or use patch for a targeted edit; a stale conversation copy must not "
    "overwrite the current disk content."
)
STALE_WRITE_REFUSED = (
    "Refusing to overwrite {path}: {reason} The file was NOT modified. Reload the current "
    "contents with read_file (every page, for a file that needs offset/limit), merge the "
    "requested change, then call write_file again. For small edits, prefer patch so existing "
    "unrelated changes are preserved."
)
STALE_WARNING = (
    "Warning: {path} was modified since you last read it (external edit or concurrent agent). The "
    "content you read may be stale. Consider re-reading the file to verify before writing."
)
WORKSPACE_DIVERGENCE = (
    "Relative path {filepath!r} resolved to {resolved!r}, which is OUTSIDE the active workspace "
    "({root!r}). The edit will land in a different directory than the terminal's cwd. If this is "
    "not intended (e.g. a git-worktree session writing into the main checkout), pass an absolute "
    "path under the workspace instead."
)
REWRITE_HINT = (
    "{unchanged:,} of {total:,} lines were already on disk ({ratio:.0%} unchanged); ~{changed:,} "
    "line(s) actually changed. Re-sending a {chars:,}-char file costs output tokens for every "
    "unchanged line; for edits like this use patch (old_string/new_string), which sends only the "
    "changed region."
)
LINT_NO_LINTER = "No linter for {ext} files"
LINT_MISSING_DEPENDENCY = "No linter available for {ext} (missing dependency)"
LINT_PRE_EXISTING = (
    "Pre-existing lint errors — this edit didn't introduce new ones but the file is still broken."
)
LINT_NEW_ERRORS = "New lint errors introduced by this edit (pre-existing errors filtered out):\n"

# -- patch: tool layer and replace mode (§4.2, §4.3) ----------------------------------------------

V4A_TRAVERSAL = (
    "V4A patch header contains '..' traversal: {path!r}. Use the agent's cwd-relative path (no "
    "'..') or an absolute path in '*** Update File:' / '*** Add File:' / '*** Delete File:' / "
    "'*** Move File:' headers."
)
PATCH_PATH_REQUIRED = "path required"
PATCH_STRINGS_REQUIRED = "old_string and new_string required"
PATCH_CONTENT_REQUIRED = "patch content required"
PATCH_UNKNOWN_MODE = "Unknown mode: {mode}"
PATCH_NOT_A_STRING = "patch: '{name}' must be a string, got {type_name}."
"""shellfree's own: Hermes would fail later with a Python error text."""
PATCH_REPEATED_FAILURE_HINT = (
    "This is failure #{count} patching {path!r}. Stop retrying with variations of the same "
    "old_string. Either: (1) re-read the file fresh to verify current content, (2) use a longer / "
    "more unique old_string with surrounding context lines, or (3) use write_file to replace the "
    "entire file if the targeted region is hard to anchor."
)
PATCH_NOT_FOUND_HINT = (
    "old_string not found. Use read_file to verify the current content, or search_files to locate "
    "the text."
)
PATCH_READ_FAILED = "Failed to read file: {path}"
PATCH_ALREADY_APPLIED = (
    "File already contains the target text — the edit appears to be already applied to {path}. No "
    "write performed; do not re-send this patch."
)
PATCH_NO_MATCH = "Could not find match for old_string in {path}"
PATCH_WRITE_FAILED = "Failed to write changes: {error}"
PATCH_REREAD_FAILED = "Post-write verification failed: could not re-read {path}"
PATCH_VERIFY_MISMATCH = (
    "Post-write verification failed for {path}: on-disk content differs from intended write "
    "(wrote {wrote} chars, read back {read} chars after normalizing line endings). The patch did "
    "not persist. Re-read the file and try again."
)
PATCH_NOT_ROUND_TRIP = (
    "Refusing to patch '{path}': its bytes do not survive decoding as {encoding} and encoding "
    "again, so an edit would change bytes outside the edited region. The file was NOT modified."
)
"""shellfree's own: the guard that an edit changes no byte outside it. A legacy code page that
maps two byte sequences to one character (cp932's NEC and IBM rows) no longer trips it: the
lines an edit leaves alone keep their bytes (``TextFormat.encode``)."""

# -- patch: the fuzzy matcher (§4.4) ---------------------------------------------------------------

FUZZY_OLD_EMPTY = "old_string cannot be empty"
FUZZY_OLD_WHITESPACE = "old_string is only whitespace — provide non-blank text to match"
FUZZY_IDENTICAL = "old_string and new_string are identical"
FUZZY_NO_MATCH = "Could not find a match for old_string in the file"
FUZZY_MULTIPLE = (
    "Found {count} matches for old_string. Provide more context to make it unique, or use "
    "replace_all=True. Matches:\n{locations}"
)
FUZZY_LOCATION = "  L{line}: {snippet}"
FUZZY_MORE_LOCATIONS = "  ... and {count} more"
FUZZY_APPROXIMATE_REPLACE_ALL = (
    "Found {count} approximate matches via the '{strategy}' strategy; replace_all only applies to "
    "exact matches. Provide the precise text (whitespace included) so an exact/line-trimmed match "
    "can be made."
)
FUZZY_ESCAPE_DRIFT = (
    "Escape-drift detected: old_string and new_string contain the literal sequence {seq!r} but "
    "the matched region of the file does not. This is almost always a tool-call serialization "
    "artifact where an apostrophe or quote got prefixed with a spurious backslash. Re-read the "
    "file with read_file and pass old_string/new_string without backslash-escaping {plain!r} "
    "characters."
)
FUZZY_ROGUE_INDENT = (
    "Suspicious indentation in new_string: {count} line(s) indented deeper than old_string's max "
    "indent ({indent} spaces), but neither old_string nor new_string opens a nesting block (':', "
    "'{{', '('). Likely a model indent typo — check the indentation of: {sample!r}"
)
DID_YOU_MEAN = "\n\nDid you mean one of these sections?\n"
DID_YOU_MEAN_SEPARATOR = "\n---\n"
WHITESPACE_DIFFERENCE = (
    "\n\nWhitespace difference detected (→ = tab, · = space):\n  file has: {file_has}\n  you "
    "sent: {you_sent}\nUse the exact whitespace shown in 'file has'."
)

# -- patch: V4A mode (§4.5) ------------------------------------------------------------------------

V4A_PARSE_ERROR = "Parse error: {errors}"
V4A_PARSE_FAILED = "Failed to parse patch: {error}"
V4A_EMPTY_PATH = "Operation with empty file path"
V4A_NO_HUNKS = "UPDATE {path!r}: no hunks found"
V4A_MOVE_NO_DESTINATION = "MOVE {path!r}: missing destination path (expected 'src -> dst')"
V4A_MOVE_TO_UNSUPPORTED = (
    "'*** Move to: {dst}' is not supported; rename with '*** Move File: {src} -> {dst}' and put "
    "any edits in their own '*** Update File:' block"
)
V4A_AT_LINE = " (patch line {line})"
"""shellfree's own: appended to each parse error so the agent can find the malformed line."""
V4A_READ_ERROR = "{path}: {error}"
V4A_ADDITION_HINT_MISSING = "{path}: addition-only hunk context hint '{hint}' not found"
V4A_ADDITION_HINT_AMBIGUOUS = (
    "{path}: addition-only hunk context hint '{hint}' is ambiguous ({count} occurrences)"
)
V4A_HUNK_NOT_FOUND = "{path}: hunk {index} '{hint}' not found — {error}"
V4A_NO_HINT = "(no hint)"
V4A_DELETE_MISSING = "{path}: file not found for deletion"
V4A_MOVE_MISSING_DESTINATION = "{path}: MOVE operation missing destination path"
V4A_MOVE_SOURCE_MISSING = "{path}: source file not found for move"
V4A_MOVE_DESTINATION_EXISTS = "{path}: destination already exists — move would overwrite"
V4A_PATH_NOT_FREE = "{path}: could not confirm the path is free — {error}"
V4A_ADD_EXISTS = "{path}: file already exists — use Update File, not Add File"
V4A_NO_CHANGES = "Patch contains no changes (only context lines were provided)"
V4A_VALIDATION_FAILED = "Patch validation failed (no files were modified):\n{errors}"
V4A_BULLET = "  • {error}"
V4A_OP_FAILED = "Failed to {verb} {path}: {error}"
V4A_DELETED_DIFF = "# Deleted: {path}"
V4A_MOVED_DIFF = "# Moved: {src} -> {dst}"
V4A_CHANGED_DURING_PATCH = (
    "the file changed on disk while the patch was being applied"
)
"""shellfree's own: a writer outside shellfree's locks changed a file between checking and
writing."""
V4A_ROLLED_BACK = (
    "Apply phase failed; every file this patch had already changed was restored, so no file was "
    "modified:\n{errors}"
)
"""shellfree's own: V4A patches are all-or-nothing (Hermes leaves the files half-patched)."""
V4A_ROLLBACK_INCOMPLETE = (
    "Apply phase failed and restoring the files this patch had already changed failed too — the "
    "files listed below may be inconsistent (run `git diff` to assess):\n{errors}\nNot restored:\n"
    "{unrestored}"
)
