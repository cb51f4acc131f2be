"""Replay reports of stored entries (``/entries/N/replay``), each rendered once per entry and
version and kept in memory. A report replays the whole log with its history and shows every
line: a 256 KiB log (a game followed by thousands of ``state`` lines, valid by R37) costs
0.3 s of CPU and a 2.4 MB page, and every visitor of a receipt asks for it."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from flask import Response

KEPT_BYTES = 32 * 1024 * 1024  # pages held at once, each process; the oldest asked go first


class CleanPage(Response):
    """A page that has been through ``safe_text.html_text`` already (the verifier's report is
    rendered that way): the app's after-request cleaning (``app._clean_text``) leaves it alone,
    as scanning a 2.4 MB report again would cost 25 ms a request."""

    default_mimetype = "text/html"


class ReportCache:
    def __init__(self, kept_bytes: int = KEPT_BYTES) -> None:
        self._pages: OrderedDict[Hashable, bytes] = OrderedDict()
        self._bytes = 0
        self._kept_bytes = kept_bytes
        self._lock = threading.Lock()

    def page(self, version: Hashable, render: Callable[[], str]) -> bytes:
        """The page of ``version`` (what the page depends on: the entry's number, its
        verification id and what the organiser may change about it), rendered by ``render``
        the first time. One render at a time: many visitors of a new entry wait for one
        render rather than each running their own."""
        with self._lock:
            found = self._pages.get(version)
            if found is None:
                found = render().encode("utf-8")
                self._pages[version] = found
                self._bytes += len(found)
                while self._bytes > self._kept_bytes and len(self._pages) > 1:
                    self._bytes -= len(self._pages.popitem(last=False)[1])
            self._pages.move_to_end(version)
            return found
