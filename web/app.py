"""The application factory: configuration, safety (CSP, CSRF, limits, errors), blueprints."""

from __future__ import annotations

import logging
import secrets
import sqlite3
import threading
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from flask import Blueprint, Flask, Response, g, request
from flask.json.provider import DefaultJSONProvider
from flask.sessions import SecureCookieSessionInterface
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError
from itsdangerous import URLSafeTimedSerializer
from werkzeug.exceptions import HTTPException
from werkzeug.routing import IntegerConverter, Map

from ..league.store import (
    LeagueError,
    LeagueFileChanged,
    create_league,
    failure_text,
    file_problem,
    transaction,
)
from ..safeio.safe_text import html_text, printable_lines
from .access_log import log_requests
from .db import close_connection, connection
from .moments import ordinal, time_element
from .origin import CrossOrigin, MisconfiguredProxy, browser_url, csrf
from .reports import CleanPage
from .shared import failure, limiter

# Forms carry a log encoded (a pasted log grows by a third or so); the log itself is held to
# 256 KiB by the league (``league.intake.MAX_LOG_BYTES``), answering 413 past it.
MAX_BODY = 512 * 1024
DEFAULT_SUBMIT_LIMIT = "30 per minute"
DEFAULT_REGISTER_LIMIT = "10 per hour"
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "form-action 'self'; frame-src 'self'; frame-ancestors 'self'; base-uri 'none'"
)
SESSION_SECRET = "session_secret"

log = logging.getLogger("bgrid.web")


def create_app(
    database: str | Path,
    *,
    submit_limit: str = DEFAULT_SUBMIT_LIMIT,
    register_limit: str = DEFAULT_REGISTER_LIMIT,
    proxies: int = 0,
    blueprints: Iterable[Blueprint] = (),
    testing: bool = False,
) -> Flask:
    """The league server over ``database`` (created or migrated as ``bgrid league`` does).
    ``submit_limit`` and ``register_limit`` are rates (``limits`` notation), each applied per
    address and (submissions) per key. ``proxies``: how many reverse proxies stand in front
    (their X-Forwarded-For, -Proto and -Host are believed, so limits see the player's address
    and forms are checked against the address the browser used); with 0 no such header is
    believed. ``blueprints``: more pages served by the same application,
    under its CSP, CSRF protection and error handling."""
    create_league(database)
    app = Flask(__name__)
    log_requests(app)
    if proxies:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)
    app.config.update(
        DATABASE=str(database),
        MAX_CONTENT_LENGTH=MAX_BODY,
        TESTING=testing,
        SUBMIT_LIMIT=submit_limit,
        REGISTER_LIMIT=register_limit,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        WTF_CSRF_TIME_LIMIT=None,
        WTF_CSRF_SSL_STRICT=False,  # its Referer check is web.shared's origin check, proof against the proxy
        PROXIES=proxies,
        JSON_SORT_KEYS=False,
    )
    app.json = LeagueJSON(app)
    app.session_interface = KeptSessionSigner()
    app.config["SECRET_KEY"] = _session_secret(app)
    # every template is escaped: Flask's default escapes by file name, and ours end in .j2
    app.jinja_options = {**app.jinja_options, "autoescape": True, "trim_blocks": True, "lstrip_blocks": True}
    app.add_template_filter(time_element, "moment")
    app.add_template_filter(ordinal, "ordinal")
    app.add_template_global(browser_url)
    csrf.init_app(app)
    limiter.init_app(app)
    app.teardown_appcontext(close_connection)

    app.url_map.converters["entry"] = EntryNumber
    from .admin import admin_pages
    from .api import api
    from .health import health
    from .pages import pages
    from .play import play

    app.register_blueprint(pages)
    app.register_blueprint(play)
    app.register_blueprint(admin_pages)
    app.register_blueprint(api)
    app.register_blueprint(health)
    csrf.exempt(api)  # the API authenticates by a bearer key, never by a cookie
    for blueprint in blueprints:  # another face's pages (the table companion's, say)
        app.register_blueprint(blueprint)

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "same-origin"
        response.headers.setdefault("X-Frame-Options", "SAMEORIGIN")
        _relative_location(response)
        _clean_text(response)
        return response

    @app.errorhandler(CSRFError)
    def csrf_refused(exc: CSRFError) -> ResponseReturnValue:
        if isinstance(exc, MisconfiguredProxy):
            return failure(400, "the league's server is misconfigured: it cannot tell which address your "
                                "browser used, so it cannot check that this form came from the league's own "
                                "page. Tell the organiser: the server's log says what to change")
        if isinstance(exc, CrossOrigin):
            return failure(400, "this form was sent from another site's page, so it was not taken; open "
                                "the league's own page and send it from there")
        return failure(
            400,
            f"the form has expired or did not come from this site ({exc.description}); "
            "reload the page and send it again",
        )

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> ResponseReturnValue:
        return failure(exc.code or 500, _plain(exc), retry_after=getattr(exc, "retry_after", None))

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> ResponseReturnValue:  # a bug: said once in the log, never a stack trace
        log.exception("unexpected failure on %s %s", request.method, request.path)
        return failure(500, "the server failed on this request; the organiser can find it in the log")

    @app.errorhandler(LeagueError)  # LeagueFileChanged, or a league that no longer opens
    def league_file_changed(exc: LeagueError) -> ResponseReturnValue:
        # the file under the league's name is not the one opened: every write is refused, and
        # nothing written since is answered as kept (league.store.commit)
        problem = exc.problem if isinstance(exc, LeagueFileChanged) else str(exc)
        return _unavailable(problem, "a problem with its file on the server, said in the server's log",
                            told=str(exc))

    @app.errorhandler(sqlite3.DatabaseError)
    def database_failed(exc: sqlite3.DatabaseError) -> ResponseReturnValue:
        # a read of a file cut short fails as "file is not a database": the watch says why
        problem = file_problem(g.league) if "league" in g else None
        if problem is not None:
            return _unavailable(problem, "a problem with its file on the server, said in the server's log")
        said = failure_text(exc)
        if said == str(exc):  # not a full disk nor a read-only file: a bug or worse
            return unexpected(exc)
        return _unavailable(said, f"{said.split(':')[0]} on the server")

    return app


def _relative_location(response: Response) -> None:
    """A redirect names a path of this site, never a host: werkzeug's own (``/admin`` to
    ``/admin/``) builds an absolute URL from the request's ``Host`` header, which the client
    chose."""
    location = response.headers.get("Location")
    if location is not None:
        parts = urlsplit(location)
        if parts.scheme or parts.netloc:
            response.headers["Location"] = urlunsplit(("", "", parts.path or "/", parts.query, ""))


def _clean_text(response: Response) -> None:
    """Text the league holds reaches a client as the command line shows it: JSON with bidi
    controls, invisible marks and controls as ``\\uXXXX`` escapes (``league standings
    --json``: the same strings once parsed), pages with bidi controls dropped and other
    controls replaced (the published standings page's ``html_text``). A name a log gave to
    ``league submit``, or a reason given on the command line, was never checked by the server."""
    if response.direct_passthrough or response.is_streamed or isinstance(response, CleanPage):
        return
    if response.mimetype == "application/json":
        clean = printable_lines
    elif response.mimetype == "text/html":
        clean = html_text
    else:
        return
    text = response.get_data(as_text=True)
    cleaned = clean(text)
    if cleaned != text:
        response.set_data(cleaned)


class LeagueJSON(DefaultJSONProvider):
    """JSON answers keep their keys in the documented order and their text as written."""

    sort_keys = False
    ensure_ascii = False


class KeptSessionSigner(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, their signer built once per secret instead of on
    every request (a request that has no cookie, as every API call, paid for it too). The
    cookie is ``Secure`` whenever the request came over https, directly or through a proxy
    ``--proxies`` trusts (ProxyFix has set the scheme by then)."""

    def __init__(self) -> None:
        self._kept: tuple[tuple, URLSafeTimedSerializer | None] | None = None

    def get_cookie_secure(self, app: Flask) -> bool:
        return request.is_secure or super().get_cookie_secure(app)

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        keys = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))
        kept = self._kept
        if kept is None or kept[0] != keys:
            kept = self._kept = (keys, super().get_signing_serializer(app))
        return kept[1]


class EntryNumber(IntegerConverter):
    """``<entry:number>``: an entry number; one past SQLite's 64-bit integers is no entry (404)."""

    def __init__(self, url_map: Map) -> None:
        super().__init__(url_map, max=999_999_999_999_999_999)


def _plain(exc: HTTPException) -> str:
    if exc.code == 413:
        return (
            f"the request is larger than the server takes ({MAX_BODY // 1024} KiB; a log is at most 256 KiB)"
        )
    if exc.code == 429:
        return f"too many requests from this address or key ({exc.description}); wait and try again"
    if exc.code == 404:
        return "no such page or resource"
    if exc.code == 405:
        return f"{request.method} is not allowed here"
    return exc.description or exc.name


_SAID_UNAVAILABLE: set[str] = set()  # what this process has logged of _unavailable's problems
_SAYING = threading.Lock()  # a worker's threads meet the same problem in the same instant


def _unavailable(problem: str, said: str, told: str | None = None) -> ResponseReturnValue:
    """503: the league cannot be written (or read) now. The server's log says why (``told``,
    by default the problem itself), each problem once a process, whichever write or read
    met it first: a burst refused is one line, not one a request."""
    with _SAYING:
        first = problem not in _SAID_UNAVAILABLE and len(_SAID_UNAVAILABLE) < 100
        if first:
            _SAID_UNAVAILABLE.add(problem)
    if first:
        log.error("league unavailable (first on %s %s): %s", request.method, request.path, told or problem)
    return failure(503, f"the league cannot store anything just now ({said}); nothing of this request "
                        "was kept")


def _session_secret(app: Flask) -> str:
    """The key signing session cookies and CSRF tokens, kept in the league so that a restart
    or a second worker does not sign everyone out."""
    with app.app_context():
        conn = connection()
        row = conn.execute("SELECT value FROM settings WHERE name = ?", (SESSION_SECRET,)).fetchone()
        if row is not None:
            return row["value"]
        with transaction(conn):
            conn.execute(
                "INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                (SESSION_SECRET, secrets.token_hex(32)),
            )
        return conn.execute("SELECT value FROM settings WHERE name = ?", (SESSION_SECRET,)).fetchone()[
            "value"
        ]


__all__ = ["create_app", "csrf", "g"]
