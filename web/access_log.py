"""The access log: one line on the server's log a request, the client's address (the player's,
behind ``--proxies``), the method, the path without its query, the status and the time taken until
the answer was sent. Keys never appear: they travel in headers and form fields, which are not
logged, and no league URL holds one.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from flask import Flask

access = logging.getLogger("bgrid.web.access")
StartResponse = Callable[..., Any]


def log_requests(app: Flask) -> None:
    """Wrap ``app``'s WSGI callable (inside the proxy fix, so the address is the player's) to
    log each request when the server closes its answer (sent, or cut off)."""
    inner = app.wsgi_app

    def logged(environ: dict, start_response: StartResponse) -> Iterable[bytes]:
        started = time.perf_counter()
        status = ["-"]

        def starting(code: str, headers: list, *rest: Any) -> Any:
            status[0] = code.split(" ", 1)[0]
            return start_response(code, headers, *rest)

        def done() -> None:
            access.info("%s %s %s %s %.0f ms", environ.get("REMOTE_ADDR") or "-",
                        environ.get("REQUEST_METHOD", "-"), _printable(environ.get("PATH_INFO", "")),
                        status[0], (time.perf_counter() - started) * 1000)

        try:
            answer = inner(environ, starting)
        except BaseException:
            done()
            raise
        return _Answer(answer, done)

    app.wsgi_app = logged  # type: ignore[method-assign]


class _Answer:
    """A WSGI answer that tells ``done`` when the server closes it (PEP 3333: always)."""

    def __init__(self, answer: Iterable[bytes], done: Callable[[], None]) -> None:
        self.answer, self.done = answer, done

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.answer)

    def close(self) -> None:
        try:
            close = getattr(self.answer, "close", None)
            if close is not None:
                close()
        finally:
            self.done()


def _printable(path: str) -> str:
    """The path as one line of plain text (a request's path is whatever a client sends)."""
    return "".join(c if c.isprintable() and c != " " else f"%{ord(c):02X}" for c in path[:300])
