"""The HTTP server under every way of serving the league (one process, or each process of
``--workers``, :mod:`web.serving`): waitress, with a deadline on each request.

waitress reads a request whole, its headers and its body, in its one event loop before a
thread of the process serves it: a client sending a byte a second holds a connection, never
a thread, and the requests of everyone else are answered meanwhile. (gunicorn's gthread
worker hands a connection to a thread at its first byte; 8 such clients stalled 2 workers of
4 threads for as long as they kept sending.) A connection whose request has not arrived whole
``REQUEST_SECONDS`` after its first byte is closed, so a slow client also holds its
connection for a bounded time; one with no request in progress is closed after
``IDLE_SECONDS``. Each process takes ``CONNECTIONS`` connections at once; past that, new ones
wait in the listening socket's queue until one closes.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from waitress import wasyncore
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer

if TYPE_CHECKING:
    import socket

    from flask import Flask

REQUEST_SECONDS = 20  # from a request's first byte to its last (a 512 KiB body at 26 KB/s)
IDLE_SECONDS = 30  # a kept-alive connection with no request in progress
CONNECTIONS = 100  # open connections a process holds at once (waitress's default)
MAX_REQUEST_BYTES = 1 << 20  # waitress's own cap; the application's is MAX_BODY, 512 KiB


class DeadlineChannel(HTTPChannel):
    """A connection that notes when the request it is receiving began."""

    request_began: float | None = None

    def received(self, data: bytes) -> bool:
        before = self.request
        taken = super().received(data)
        if self.request is None:
            self.request_began = None
        elif self.request is not before:  # a request began in this data
            self.request_began = time.time()
        return taken


class LeagueServer(TcpWSGIServer):
    """waitress's server over a socket already listening, its connections on a deadline."""

    channel_class = DeadlineChannel

    def maintenance(self, now: float) -> None:
        super().maintenance(now)  # the idle connections (IDLE_SECONDS)
        cutoff = now - REQUEST_SECONDS
        for channel in list(self.active_channels.values()):
            began = getattr(channel, "request_began", None)
            if channel.request is not None and began is not None and began < cutoff:
                channel.will_close = True  # closed at the event loop's next turn

    def serve_once(self, timeout: float) -> None:
        """One turn of the event loop, waiting at most ``timeout`` seconds for an event."""
        wasyncore.loop(timeout=timeout, map=self._map, use_poll=True, count=1)

    def is_busy(self) -> bool:
        """Whether a request is being served or an answer is still being sent."""
        return any(channel.requests or channel.total_outbufs_len for channel in self.active_channels.values())

    def finish(self, seconds: float) -> None:
        """Stop taking connections, let the requests being served finish and their answers
        go out (at most ``seconds``), then close every connection."""
        self.accepting = False
        end = time.monotonic() + seconds
        while self.is_busy() and time.monotonic() < end:
            self.serve_once(0.1)
        self.task_dispatcher.shutdown(timeout=1)
        wasyncore.close_all(self._map)


def league_server(app: Flask, sock: socket.socket, threads: int, proxies: int) -> LeagueServer:
    """The server of ``app`` on ``sock`` (listening), serving with ``threads`` threads.
    Behind ``proxies`` the X-Forwarded-* headers are left for the app (``create_app``'s
    ProxyFix judges them): waitress, trusting no proxy of its own, would delete them first and
    put every player behind the proxy in one rate-limit bucket."""
    adj = Adjustments(
        threads=threads,
        ident="bgrid",
        max_request_body_size=MAX_REQUEST_BYTES,
        clear_untrusted_proxy_headers=not proxies,
        channel_timeout=IDLE_SECONDS,
        cleanup_interval=1,
        connection_limit=CONNECTIONS,
        asyncore_use_poll=True,
    )
    return LeagueServer(app, map={}, _sock=sock, adj=adj, bind_socket=False,
                        sockinfo=(sock.family, sock.type, sock.proto, sock.getsockname()))
