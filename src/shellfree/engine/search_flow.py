"""The file-ops layer of search_files: from a request to a :class:`SearchResult` (§5.3–§5.5).

:class:`SearchRunner` checks the order, finds the roots (or says "Path not found"), builds the
rg command lines, runs them on its backend, parses the output, adds the multiline, probe,
multi-root and macOS warnings. The tool layer (:mod:`shellfree.engine.search_files`) wraps it
with the guards, the deny-list filter and redaction.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from shellfree.engine import messages
from shellfree.engine.backends import Backend, RgRun
from shellfree.engine.read_tracking import CodePageLookup
from shellfree.engine.results import SearchResult
from shellfree.engine.rg_commands import (
    PATH_LIST_END,
    content_command,
    file_glob_for_pattern,
    files_command,
    wants_newline,
)
from shellfree.engine.search_output import parse_files_output, parse_search_output
from shellfree.engine.search_probes import listed, zero_match_warning
from shellfree.engine.search_request import SearchRequest
from shellfree.engine.search_roots import (
    Protected, macos_protected, path_not_found, search_roots, special_root)
from shellfree.engine.text_decoding import LineDecoder

__all__ = ["SearchLimits", "SearchRunner"]

FILE_ORDERS = ("discovery", "modified")
MODIFIED_ORDER_MIN_RG = (14,)
"""``--sortr=modified`` needs ripgrep 14 or newer (§5.5)."""


@dataclass(frozen=True, slots=True)
class SearchLimits:
    """Bounds of one search.

    *max_result_lines* and *max_result_bytes* cap the rg output collected (lines of any length
    add up: 100,000 previews of 2,000 columns would be 200 MB); past either, ``total_count`` is
    a lower bound. *timeout* and *probe_timeout* are Hermes' 60 s and 30 s.
    """

    max_result_lines: int = 100_000
    max_result_bytes: int = 32 << 20
    timeout: float = 60.0
    probe_timeout: float = 30.0


class SearchRunner:
    """Runs searches for one task root on one backend."""

    def __init__(self, backend: Backend, root: str, limits: SearchLimits) -> None:
        self.backend = backend
        self.root = root
        self.limits = limits

    def __repr__(self) -> str:
        return f"SearchRunner(backend={self.backend!r}, root={self.root!r})"

    def _rg(self, argv: Sequence[str], timeout: float, record_end: bytes = b"\n") -> RgRun:
        return self.backend.run(argv, self.root, max_lines=self.limits.max_result_lines,
                                max_bytes=self.limits.max_result_bytes, timeout=timeout,
                                record_end=record_end)

    def search(self, request: SearchRequest,
               known: CodePageLookup = lambda path: None) -> SearchResult:
        """Hermes ``file_ops.search`` (§5.3); *known* tells how the task knows a file to use a
        legacy code page, so its lines read as read_file showed them."""
        if request.is_file_search and request.order not in FILE_ORDERS:
            return SearchResult(error=messages.INVALID_ORDER.format(order=request.order))
        begin_search = getattr(self.backend, "begin_search", None)  # optional (see Backend)
        if begin_search is not None:
            begin_search()
        roots = search_roots(request.path, self.root)
        if roots is None:
            return path_not_found(request.path, self.root)
        protected = macos_protected(roots.paths, self.root)
        if request.is_file_search:
            result = self._files(request, roots.paths, protected)
        else:
            refused = special_root(roots.paths, self.root)
            if refused is not None:
                return refused
            result = self._content(request, roots.paths, protected,
                                   probe=roots.multi_warning is None, known=known)
        if result.error:
            return result
        if roots.multi_warning is not None:
            # Hermes: the multi-root warning replaces per-root ones (multiline note, probes).
            result = replace(result, warning=roots.multi_warning)
        if roots.variant_note is not None:
            # First: it says which path the results are from.
            result = replace(result, warning=" ".join(filter(None, (roots.variant_note,
                                                                     result.warning))))
        if result.binary_matches:
            # After any other warning (the multi-root one has no full stop of its own).
            binary = messages.SEARCH_BINARY_MATCHES.format(
                files=len(result.binary_matches), paths=listed(result.binary_matches))
            result = replace(result, warning="; ".join(filter(None, (result.warning, binary))))
        if protected.warning is not None:
            result = result.with_warning(protected.warning)
        return result

    def _content(self, request: SearchRequest, paths: tuple[str, ...], protected: Protected,
                 *, probe: bool, known: CodePageLookup) -> SearchResult:
        """Content search (§5.4). Fixed defect: the roots of a multi-root path string are
        searched in one run, so pagination covers them together instead of per root."""
        multiline = wants_newline(request.pattern)
        argv = content_command(
            request.pattern, paths, output_mode=request.output_mode, context=request.context,
            multiline=multiline, file_glob=request.file_glob, exclude_globs=protected.globs,
        )
        decoder = LineDecoder(self.root, known)
        listing = request.output_mode == "files_only"
        run = self._rg(argv, self.limits.timeout, PATH_LIST_END if listing else b"\n")
        result = parse_search_output(
            run, output_mode=request.output_mode,
            limit=request.limit, offset=request.offset, context=request.context, decoder=decoder,
        )
        if result.error:
            return result
        if multiline and request.output_mode != "count":
            # Hermes: count output drops the warning; content and files_only keep it.
            result = result.with_warning(messages.MULTILINE_ENABLED)
        if probe and result.total_count == 0 and not result.binary_matches:
            # Fixed defect: Hermes probed whenever the page was empty, an offset past the end
            # included, and warned of "0 exact matches" for a search that matched (a binary
            # file named as a root too: rg names it, and Hermes dropped that notice).
            warning = zero_match_warning(
                request.pattern, paths[0], request.file_glob,
                lambda probe_argv: self._rg(probe_argv, self.limits.probe_timeout), decoder,
                protected.globs,
            )
            if warning is not None:
                result = result.with_warning(warning)
        return result

    def _files(self, request: SearchRequest, paths: tuple[str, ...],
               protected: Protected) -> SearchResult:
        """File-name search (§5.5): one ``rg --files`` over every root."""
        if not paths:
            return SearchResult(error=messages.NO_SEARCH_ROOT)
        modified = request.order == "modified"
        if modified:
            version = self.backend.version()
            if version is None or version < MODIFIED_ORDER_MIN_RG:
                return SearchResult(error=messages.MODIFIED_ORDER_NEEDS_RG14)
        argv = files_command(file_glob_for_pattern(request.pattern), paths, modified=modified,
                             exclude_globs=protected.globs)
        return parse_files_output(
            self._rg(argv, self.limits.timeout, PATH_LIST_END), limit=request.limit,
            offset=request.offset, modified=modified, decoder=LineDecoder(self.root),
        )
