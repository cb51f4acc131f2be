"""Where a form came from, the same-origin half of the forms' CSRF protection,
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
"""

from __future__ import annotations

import ipaddress
import logging
from typing import Any
from urllib.parse import urlsplit

from flask import current_app, g, request, url_for
from flask_wtf.csrf import CSRFError, CSRFProtect

log = logging.getLogger("bgrid.web")
_told: set[tuple[str, str]] = set()  # (seen, used) pairs already logged by this process
MOST_TOLD = 64  # a client making up addresses cannot fill the log


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
