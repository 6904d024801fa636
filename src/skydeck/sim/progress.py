"""Progress of a ``skydeck simulate`` run as plain lines, for a log file or a pipe.

Without a terminal rich's bar shows nothing until the run ends (it redraws one line in
place, which a file cannot do), so a long run under ``nohup`` or CI looked hung. This
prints one line every ``every`` seconds from a timer thread, whatever the chunk size:
matches done of the total, failures, speed and the time left.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

DEFAULT_EVERY_S = 5.0


def clock(seconds: float) -> str:
    """``75`` -> ``1m15s``; ``3725`` -> ``1h02m``."""
    s = int(seconds)
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    if s >= 60:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s}s"


class Lines:
    """``start(total, already)``, then ``advance(matches, failed)`` per chunk, ``stop()``
    at the end (or on interruption): lines go to ``write`` every ``every`` seconds."""

    def __init__(self, name: str, write: Callable[[str], None], every: float = DEFAULT_EVERY_S):
        self.name = name
        self.write = write
        self.every = every
        self.total = 0
        self.done = 0
        self.failed = 0
        self.began = 0.0
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def start(self, total: int, already: int) -> None:
        with self._lock:
            self.total = total - already
            self.began = time.perf_counter()
        self._thread = threading.Thread(target=self._tick, daemon=True)
        self._thread.start()

    def advance(self, matches: int, failed: int) -> None:
        with self._lock:
            self.done += matches
            self.failed += failed

    def line(self) -> str:
        with self._lock:
            done, total, failed = self.done, self.total, self.failed
            elapsed = time.perf_counter() - self.began
        speed = done / elapsed if elapsed > 0 else 0.0
        left = f", ETA {clock((total - done) / speed)}" if speed > 0 and done < total else ""
        share = f" ({done / total:.0%})" if total else ""
        return (
            f"{self.name}: {done}/{total} matches{share}, {failed} failed, "
            f"{speed:.1f} games/s, {clock(elapsed)} elapsed{left}"
        )

    def _tick(self) -> None:
        while not self._stop.wait(self.every):
            self.write(self.line())

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
