"""The JSON API (docs/league.md has the table): the operations of the pages, for scripts."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request
from flask.typing import ResponseReturnValue

from ..league.admin import AdminError, NotFound, restore, withdraw
from ..league.identity import RefusedName
from ..league.intake import MAX_LOG_BYTES, Refusal, submit_entry
from ..league.players import NameTaken, is_admin_key, player_by_key, register
from ..league.sessions import replace_player_key
from ..league.submit import utc_now
from .shared import current_key, failure, key_or_address, limiter
from .admin import refused_organiser_key
from .db import connection, verifier, write_lock
from .rate_limits import REGISTRATIONS, refuse_spent_address, wrong_key
from .views import (challenge_list, entry_record, log_download, no_entry, not_a_challenge, standings_json,
                    utc_second)

api = Blueprint("api", __name__, url_prefix="/api")


def json_body() -> object:
    """The request's JSON, or None when it is none (silent=True) or nested too deeply for
    Python's parser (a RecursionError, which silent=True lets through)."""
    try:
        return request.get_json(silent=True)
    except RecursionError:
        return None


def _submit_limit() -> str:
    return current_app.config["SUBMIT_LIMIT"]


def _register_limit() -> str:
    return current_app.config["REGISTER_LIMIT"]


@api.post("/players")
@limiter.limit(_register_limit, shared=REGISTRATIONS)
def register_player() -> ResponseReturnValue:
    body = json_body()
    if not isinstance(body, dict) or not isinstance(body.get("name"), str):
        return failure(422, 'send {"name": "…"} as JSON')
    try:
        player, key = register(connection(), body["name"], utc_now())
    except NameTaken as exc:
        return failure(409, str(exc))
    except RefusedName as exc:
        return failure(422, str(exc))
    return jsonify({"name": player.name, "key": key}), 201


@api.post("/players/key")
def replace_key() -> ResponseReturnValue:
    """The player holding the bearer key gets a new one; the old key stops working and every
    session opened with it ends."""
    refuse_spent_address()
    conn = connection()
    player = player_by_key(conn, current_key())
    if player is None:
        wrong_key()
        return failure(401, "this needs your current key (Authorization: Bearer KEY)")
    return jsonify({"name": player.name, "key": replace_player_key(conn, player)}), 200


@api.post("/submissions")
@limiter.limit(_submit_limit)
@limiter.limit(_submit_limit, key_func=key_or_address)
def submit() -> ResponseReturnValue:
    if request.content_length is not None and request.content_length > MAX_LOG_BYTES:
        return failure(
            413,
            f"the log is {request.content_length} bytes; the most a submission takes is "
            f"{MAX_LOG_BYTES} (256 KiB)",
        )
    data = request.get_data(cache=False)
    try:
        receipt = submit_entry(
            connection(), verifier(), data, current_key(), utc_second(), utc_now(), write_lock
        )
    except Refusal as exc:
        if exc.status == 401:
            wrong_key()
        return failure(exc.status, exc.message)
    return jsonify(receipt.as_dict()), 200 if receipt.duplicate else 201


@api.get("/challenges")
def challenges() -> ResponseReturnValue:
    return jsonify({"challenges": challenge_list(connection())})


@api.get("/standings/<code>")
def standings(code: str) -> ResponseReturnValue:
    found = standings_json(connection(), code)
    return not_a_challenge(code) if found is None else jsonify(found)


@api.get("/entries/<entry:number>")
def entry(number: int) -> ResponseReturnValue:
    found = entry_record(connection(), number)
    return no_entry(number) if found is None else jsonify(found)


@api.get("/entries/<entry:number>/log")
def entry_log(number: int) -> ResponseReturnValue:
    return log_download(connection(), number)


@api.post("/admin/entries/<entry:number>/<any(withdraw, restore):action>")
def admin_entry(number: int, action: str) -> ResponseReturnValue:
    refuse_spent_address()
    conn = connection()
    if not is_admin_key(conn, current_key()):
        refused_organiser_key(request.path)
        return failure(401, "this needs the organiser key (Authorization: Bearer KEY)")
    body = json_body()
    reason = body.get("reason") if isinstance(body, dict) else None
    try:
        (withdraw if action == "withdraw" else restore)(
            conn, number, reason if isinstance(reason, str) else None, utc_now()
        )
    except NotFound as exc:
        return failure(404, str(exc))
    except AdminError as exc:
        return failure(422, str(exc))
    return jsonify(entry_record(conn, number)), 200
