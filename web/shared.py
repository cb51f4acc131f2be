"""What the application factory and its blueprints share: the rate limits, the error answer
(with ``Retry-After`` on a 429), the key a request carries and the player a browser is signed
in as (and signing it in). Here, not in ``app``, so the blueprints import no module that imports them (``app``
only builds the app); the forms' CSRF check is in ``origin``, the access log in ``access_log``.
"""

from __future__ import annotations

from flask import Response, jsonify, make_response, render_template, request, session

from ..league.players import Player
from ..league.sessions import end_session, open_session, session_player
from ..league.submit import utc_now
from .db import connection
from .rate_limits import RateLimits, remote_address

limiter = RateLimits()


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


def sign_in(player: Player) -> None:
    """Sign this browser in as ``player`` (a key just given: ``/play/CODE``'s key form, the key
    page's), ending the session it had."""
    conn = connection()
    end_session(conn, session.get(PLAY_SESSION))
    session[PLAY_SESSION] = open_session(conn, player, utc_now())


def key_or_address() -> str:
    """Rate-limit bucket of a submission: its key when it has one, else its address."""
    key = current_key() or (request.form.get("key") if request.form else None)
    return f"key:{key}" if key else remote_address()
