"""``bgrid serve``: the league server (web/): one process (``--workers 1``), or gunicorn's
pre-forked worker processes sharing one socket, each serving with waitress. The CLI starts the web face
through the entry points of its package (``bgrid.web``: the app, its processes), never its
modules (tests/test_architecture.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .options import LEAGUE_DB, F, WholeNumber
from .rules.errors import BGridError

if TYPE_CHECKING:  # Flask loads only when the server starts
    import socket

    from flask import Flask




def _limit(ctx: click.Context, param: click.Parameter, value: str) -> str:
    from limits import parse

    try:
        parse(value)
    except ValueError:
        raise click.BadParameter(f"'{value}': give a rate such as '30 per minute' or '10/hour'") from None
    return value


def _rate_option(name: str, default: str, help: str) -> Callable[[F], F]:
    """A rate limit option (``30 per minute``), checked as the server will read it."""
    return click.option(name, default=default, show_default=True, callback=_limit, metavar="RATE", help=help)


@click.command("serve")
@LEAGUE_DB
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (put a reverse proxy with TLS in front for the public).",
)
@click.option(
    "--port", type=WholeNumber(1, 65535), default=8000, show_default=True, help="Port to listen on."
)
@click.option(
    "--threads",
    type=WholeNumber(1, 64),
    default=4,
    show_default=True,
    help="Requests each worker handles at once.",
)
@click.option(
    "--workers",
    type=WholeNumber(1, 64),
    default=None,
    metavar="N",
    help="Worker processes (default: one a core, at most 8; 1 where processes cannot be forked). "
    "Verifying a log is CPU work: one process uses one core.",
)
@_rate_option("--submit-limit", "30 per minute", "Submissions allowed per address and per key.")
@click.option(
    "--proxies",
    type=WholeNumber(0, 5),
    default=0,
    show_default=True,
    metavar="N",
    help="Reverse proxies in front (1 behind one nginx or Caddy): their X-Forwarded-For, -Proto and "
    "-Host headers are believed, so rate limits see each player's address and forms are checked "
    "against the address the browser used.",
)
@_rate_option("--register-limit", "10 per hour", "Registrations allowed per address.")
@click.option(
    "--access-log/--no-access-log",
    default=True,
    show_default=True,
    help="One line a request on standard error (address, method, path, status, time; never a key), "
    "beside the server's warnings.",
)
def serve_command(league: str, host: str, port: int, threads: int, workers: int | None, submit_limit: str,
                  proxies: int, register_limit: str, access_log: bool) -> None:
    """Serve the league: challenge pages with pack downloads and live standings, registration,
    submission (paste, upload or the JSON API), receipts, and the organiser's pages. Stops
    on Ctrl-C or SIGTERM; requests in flight finish first. For the public, put a reverse
    proxy with TLS in front and give --proxies 1.

    \b
    Examples:
      bgrid league init week49.db --admin-key-file organiser.key
      bgrid serve week49.db
      bgrid serve week49.db --port 8080 --proxies 1
      bgrid serve week49.db --workers 2
    """
    from .web import can_fork, create_app, default_workers, log_to_stderr, warm_missions

    if not Path(league).is_file():
        raise BGridError(
            f"no league at '{league}': create it with 'bgrid league init {league} "
            "--admin-key-file organiser.key'"
        )
    if workers is None:
        workers = default_workers()
    elif workers > 1 and not can_fork():
        raise click.UsageError("--workers above 1 needs a system that can fork processes (Linux, macOS, BSD)")
    log_to_stderr(access=access_log)
    app = create_app(league, submit_limit=submit_limit, register_limit=register_limit, proxies=proxies)
    warm_missions(league)
    if workers > 1:
        _serve_workers(app, host, port, threads, workers, proxies)
    else:
        _serve_one(app, host, port, threads, proxies)
    click.echo("stopped")


def _url_line(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"bgrid league server on http://{shown}:{port}/ (Ctrl-C to stop)"


def _listening(host: str, port: int) -> socket.socket:
    from .web import listen

    try:
        return listen(host, port)
    except OSError as exc:
        raise BGridError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def _serve_workers(app: Flask, host: str, port: int, threads: int, workers: int, proxies: int) -> None:
    from .web import serve_workers

    sock = _listening(host, port)
    click.echo(_url_line(host, sock.getsockname()[1]))
    serve_workers(app, sock, workers, threads, proxies)


def _serve_one(app: Flask, host: str, port: int, threads: int, proxies: int) -> None:
    from .web import league_server, serve_one

    server = league_server(app, _listening(host, port), threads, proxies)
    click.echo(_url_line(host, server.effective_port))
    serve_one(server)
