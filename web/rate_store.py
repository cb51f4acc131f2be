"""The rate limits' counters: the ``limits`` library's in-memory storage, swept in line.

``limits``' ``MemoryStorage`` starts a timer thread (10 ms) on nearly every count to drop
expired counters; under a burst of submissions that is a thread started every few requests,
which cost the server more than the counting. Expiry is also checked on every read
(``MemoryStorage.get``), so the sweep only frees memory: here it runs in line, at most once
a second. :mod:`web.rate_limits` counts in it.
"""

from __future__ import annotations

import time

from limits.storage import MemoryStorage

SWEEP_SECONDS = 1.0


class SweptMemoryStorage(MemoryStorage):
    STORAGE_SCHEME = ["bgrid-memory"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: str) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.timer.cancel()
        self._next_sweep = 0.0

    # MemoryStorage calls its private __schedule_expiry before each count; this replaces it
    def _MemoryStorage__schedule_expiry(self) -> None:
        now = time.time()
        if now >= self._next_sweep:
            self._next_sweep = now + SWEEP_SECONDS
            self._MemoryStorage__expire_events()  # type: ignore[attr-defined]
