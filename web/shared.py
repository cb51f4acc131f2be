"""What the application factory and its blueprints share: the rate limits, the error answer
(with ``Retry-After`` on a 429), the forms' CSRF check with its origin half, the key a request
carries, the player a browser is signed in as, and the access log. Here, not in ``app``, so
the blueprints import no module that imports them (``app`` only builds the app).

The origin check: where a form came from, the same-origin half of the forms' CSRF protection,
made proof against the reverse proxy in front, and the address the browser used.

Flask-WTF checks each form's token (kept as it is) and, over HTTPS, that the Referer names the
host the request names. Behind a proxy that passes its upstream's address as ``Host`` (nginx's
default: ``127.0.0.1:8000``) or drops the port (``$host``), every form failed, and the player
was told to reload. Here, after the token:

1. A browser's ``Sec-Fetch-Site`` header (Chromium 76, Firefox 90, Safari 16.4 and later) says
   whether the page that sent the form has the origin of the URL it was sent to: the browser's
   own judgement of the address it used, which no page script can set and no proxy rewrites.
   ``same-origin`` (or ``none``, a request the user made) passes; ``same-site`` or
   ``cross-site`` is another site's form, refused.
2. Without it (an older browser) the ``Origin`` header, else the ``Referer``, must name the
   origin the server sees: the request's scheme and host, which with ``--proxies N`` are
   those the proxy passes in ``X-Forwarded-Proto`` and ``X-Forwarded-Host``. Over plain HTTP
   the token alone decides, as with Flask-WTF.
3. Where the two differ in what only the proxy can have got wrong (the browser's host name on
   another port or scheme, or a ``Host`` that is the server's own loopback address), the
   proxy is misconfigured: one line on the server's log names the header to set (once per
   process and set-up), and the player reads that the league's server is misconfigured.

So nothing is weakened for a direct client: a form is accepted only on the browser's word
that it is same-origin, or on its Origin matching the server's own address.

The access log: one line on the server's log a request, the client's address (the player's,
behind ``--proxies``), the method, the path without its query, the status and the time taken until
the answer was sent. Keys never appear: they travel in headers and form fields, which are not
logged, and no league URL holds one.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any
from urllib.parse import urlsplit

from flask import (Flask, Response, current_app, g, jsonify, make_response, render_template, request, session,
                   url_for)
from flask_wtf.csrf import CSRFError, CSRFProtect

from ..league.players import Player
from ..league.sessions import session_player
from ..league.submit import utc_now
from .db import connection
from .rate_limits import RateLimits, remote_address

log = logging.getLogger("bgrid.web")
access = logging.getLogger("bgrid.web.access")
limiter = RateLimits()
_told: set[tuple[str, str]] = set()  # (seen, used) pairs already logged by this process
MOST_TOLD = 64  # a client making up addresses cannot fill the log
StartResponse = Callable[..., Any]


def wants_json() -> bool:
    return request.path.startswith("/api/")


def failure(status: int, message: str, *, retry_after: int | None = None) -> tuple[Response | str, int]:
    """An error answer: ``{"error": …}`` for the API, an error page for a person. ``retry_after``:
    the seconds until the limit's window frees (``web.rate_limits``), sent as ``Retry-After``."""
    body = jsonify({"error": message}) if wants_json() else render_template(
        "error.html.j2", status=status, message=message)
    if retry_after is None:
        return body, status
    answer = make_response(body)
    answer.headers["Retry-After"] = str(retry_after)
    return answer, status


def current_key() -> str | None:
    """The bearer key of an API request, or None."""
    header = request.headers.get("Authorization", "")
    scheme, _, key = header.partition(" ")
    return key.strip() or None if scheme.lower() == "bearer" else None


PLAY_SESSION = "play"  # the session cookie's field: a signed-in player's session token


def signed_in_player() -> Player | None:
    """The player this browser is signed in as (the key form of ``/play/CODE``), or None:
    the play pages and the submit page take the same session."""
    return session_player(connection(), session.get(PLAY_SESSION), utc_now())


def key_or_address() -> str:
    """Rate-limit bucket of a submission: its key when it has one, else its address."""
    key = current_key() or (request.form.get("key") if request.form else None)
    return f"key:{key}" if key else remote_address()


class CrossOrigin(CSRFError):
    """A form sent from a page of another site."""


class MisconfiguredProxy(CSRFError):
    """A form whose origin the server cannot check, the proxy in front passing the wrong address."""


class OriginCSRF(CSRFProtect):
    """Flask-WTF's token check, then the origin check of the module docstring (set
    ``WTF_CSRF_SSL_STRICT`` off: that Referer check is the one replaced)."""

    def protect(self, apply_exemptions: bool = False) -> None:
        super().protect(apply_exemptions)
        if g.get("csrf_valid"):  # a form checked by its token (not a GET, not the exempt API)
            check_origin()


def _origin(url: str | None) -> str | None:
    """``scheme://host[:port]`` of a URL, the default port left out; None for no URL."""
    if not url or url == "null":
        return None
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if not parts.scheme or not parts.hostname:
        return None
    default = {"https": 443, "http": 80}.get(parts.scheme)
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}" + ("" if port in (None, default) else f":{port}")


def seen_origin() -> str:
    """The origin the server sees this request at (after the trusted proxy's headers)."""
    return _origin(request.host_url) or request.host_url.rstrip("/")


def browser_origin() -> str:
    """The origin the browser used: the ``Origin`` of a form the browser says is same-origin
    (a proxy cannot hide it), else the one the server sees."""
    return g.get("browser_origin") or seen_origin()


def browser_url(endpoint: str, **values: Any) -> str:
    """``url_for(endpoint)`` as a full URL at the address the browser used (the key page's
    example of the API), whatever the proxy passes."""
    return browser_origin() + url_for(endpoint, **values)


def check_origin() -> None:
    """Raises :class:`CrossOrigin` or :class:`MisconfiguredProxy` (module docstring)."""
    fetch_site = request.headers.get("Sec-Fetch-Site", "").strip().lower()
    claimed = _origin(request.headers.get("Origin")) or _origin(request.referrer)
    seen = seen_origin()
    if fetch_site:
        if fetch_site not in ("same-origin", "none"):
            raise CrossOrigin(f"Sec-Fetch-Site: {fetch_site}")
        if claimed is not None:
            g.browser_origin = claimed
            if claimed != seen:
                _tell(seen, claimed, refused=False)
        return
    if not request.is_secure:
        return  # plain HTTP: the token alone, as Flask-WTF does
    if claimed is None:
        raise CrossOrigin("no Origin or Referer header")
    if claimed == seen:
        return
    if _is_proxy_mistake(seen, claimed):
        _tell(seen, claimed, refused=True)
        raise MisconfiguredProxy(f"sent from {claimed}, seen at {seen}")
    raise CrossOrigin(f"sent from {claimed}, not {seen}")


def _host_name(origin: str) -> str:
    return urlsplit(origin).hostname or ""


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _is_proxy_mistake(seen: str, used: str) -> bool:
    """Whether a mismatch is one only the proxy in front can have made: the same host name on
    another scheme or port, or the server's loopback address where the browser used a name."""
    seen_host, used_host = _host_name(seen), _host_name(used)
    return seen_host == used_host or (_is_loopback(seen_host) and not _is_loopback(used_host))


def advice(seen: str, used: str) -> str:
    """What to set so that the server sees the address the browser used."""
    proxies = current_app.config.get("PROXIES", 0)
    fixes = []
    if urlsplit(seen).scheme != urlsplit(used).scheme:
        if proxies:
            fixes.append("make the proxy send X-Forwarded-Proto "
                         "(nginx: proxy_set_header X-Forwarded-Proto $scheme;)")
        else:
            fixes.append("start bgrid serve with --proxies 1 so that X-Forwarded-Proto is believed")
    if urlsplit(seen).netloc != urlsplit(used).netloc:
        fixes.append("make the proxy pass the Host the browser sent, port included (nginx: proxy_set_header "
                     "Host $http_host; not $host, nor nginx's default, the upstream's address)"
                     + ("" if proxies else
                        ", or send X-Forwarded-Host and start bgrid serve with --proxies 1"))
    return "; ".join(fixes)


def _tell(seen: str, used: str, *, refused: bool) -> None:
    if (seen, used) in _told or len(_told) >= MOST_TOLD:
        return
    _told.add((seen, used))
    outcome = ("forms from browsers without Sec-Fetch-Site are refused as misconfigured" if refused
               else "forms still work in browsers that send Sec-Fetch-Site; older ones are refused")
    log.warning("misconfigured proxy: the browser used %s, the server sees %s: %s (%s; "
                "deploy/nginx-bgrid-league.conf has it right)", used, seen, advice(seen, used), outcome)


csrf = OriginCSRF()



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
