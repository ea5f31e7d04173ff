"""A progress bar on stderr for ``shellfree bench``, with no dependency.

On a terminal the bar is redrawn in place (and its clock ticks while a long step runs); into a
pipe or a log file it prints one plain line per tenth of the work, so CI logs stay short.
"""

from __future__ import annotations

import io
import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

_WIDTH = 28
_TICK_S = 0.5


class ProgressBar:
    """Progress through *total* units of work, drawn on *stream* (default: stderr).

    ``advance(n)`` moves it on, ``stage(label)`` names what runs now, ``close()`` ends the line.
    Use it as a context manager so the ticker thread stops and the line ends on errors too.
    """

    def __init__(self, total: float, label: str = "", stream: TextIO | None = None) -> None:
        self.total = max(float(total), 1.0)
        self.done = 0.0
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.started = time.monotonic()
        self._interactive = _isatty(self.stream)
        self._full, self._empty = _bar_glyphs(self.stream)
        self._lock = threading.Lock()
        self._last_tenth = -1
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        if self._interactive:
            # A long step (a corpus round, a latency scenario) advances nothing for seconds;
            # the ticking clock shows the run is alive.
            self._ticker = threading.Thread(target=self._tick, name="bench-progress", daemon=True)
            self._ticker.start()
        self._draw()

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ProgressBar({self.done:g}/{self.total:g}, {self.label!r})"

    def stage(self, label: str) -> None:
        """Name the step that runs now (shown after the bar)."""
        with self._lock:
            self.label = label
        self._draw()

    def advance(self, units: float = 1.0, label: str | None = None) -> None:
        """Count *units* more of the work as done (and name the step that runs now)."""
        with self._lock:
            self.done = min(self.total, self.done + units)
            if label is not None:
                self.label = label
        self._draw()

    def advance_to(self, done: float) -> None:
        """Jump to *done* units (when planned work was skipped); never moves backwards."""
        with self._lock:
            self.done = min(self.total, max(self.done, done))
        self._draw()

    def close(self) -> None:
        """Stop the clock and finish the line."""
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
            self._ticker = None
        if self._interactive:
            self._draw(final=True)

    def _tick(self) -> None:
        while not self._stop.wait(_TICK_S):
            self._draw()

    def _draw(self, final: bool = False) -> None:
        with self._lock:
            fraction = self.done / self.total
            elapsed = time.monotonic() - self.started
            if self._interactive:
                filled = int(fraction * _WIDTH)
                bar = self._full * filled + self._empty * (_WIDTH - filled)
                line = f"\r[{bar}] {fraction:4.0%} {_clock(elapsed)} {self.label}"
                # Pad over the previous, maybe longer, label; cut to stay on one line.
                self.stream.write(line[:119].ljust(119) + ("\n" if final else ""))
            else:
                tenth = int(fraction * 10)
                if tenth == self._last_tenth:
                    return
                self._last_tenth = tenth
                self.stream.write(f"{fraction:4.0%} {_clock(elapsed)} {self.label}\n")
            self.stream.flush()


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes:d}:{secs:02d}"


def _bar_glyphs(stream: TextIO) -> tuple[str, str]:
    # A Windows console in a legacy code page cannot print block characters.
    try:
        "█·".encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return "#", "."
    return "█", "·"


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class LineTap(io.TextIOBase):
    """A text stream that hands every complete line written to it to *on_line* and keeps them.

    ``shellfree bench`` puts it in place of stderr while a harness runs: the harness's own
    progress lines then drive the bar instead of scrolling past it, and stay in the log.
    """

    def __init__(self, on_line: Callable[[str], None]) -> None:
        super().__init__()
        self.lines: list[str] = []
        self._partial = ""
        self._on_line = on_line

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self._partial += text
        *complete, self._partial = self._partial.split("\n")
        for line in complete:
            self.lines.append(line)
            self._on_line(line)
        return len(text)
