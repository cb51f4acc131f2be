"""The table companion on a phone (``/play/CODE``): the same core as ``bgrid play``, one
page a statement.

The page shows the board (SVG), the status, what to do on paper after the last statement and
the statements the rules allow now, each a button (a movement card: its steps in a short
field, the legal ones offered as a list). Every choice is a form that POSTs and redirects
back (no script needed). The game is kept server-side under the player (``league.
companion_games``): the player gives their key once per device, and the same key on another
device finds the same game. The device then holds a session (``league.sessions``: a token
in the signed cookie, never the key), ended by signing out or by a new key. At the end one
button submits the log; the entry's page is the receipt.
"""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue

from ..companion import Session
from ..companion.board_svg import board_svg
from ..companion.board_text import side_lines, status_text
from ..league.companion_games import drop_game, load_game, save_game
from ..league.intake import Refusal, submit_entry
from ..league.players import Player, player_by_key
from ..league.sessions import end_session, open_session, replace_player_key
from ..league.public import runs_challenge
from ..league.submit import utc_now
from ..log.messages import LogError
from ..log.notation import Header, UnwritableHeader
from ..log.writer import header_text
from .shared import PLAY_SESSION, failure, limiter, sign_in, signed_in_player
from .db import connection, verifier, write_lock
from .rate_limits import refuse_spent_address, wrong_key
from .views import not_a_challenge, refusal_words, utc_second

play = Blueprint("play", __name__, template_folder="templates")
SESSION = PLAY_SESSION
MOST_BUTTONS = 24  # more ways than this for one card: a field with the legal ones as a list


def _player() -> Player | None:
    return signed_in_player()


def _challenge(code: str) -> str | None:
    return runs_challenge(connection(), code)


def _new_game(player: Player, code: str) -> Session:
    """Raises UnwritableHeader for a name registered before names had to fit a log's
    'player:' line."""
    return Session.start(header_text(Header(challenge=code), player=player.name))


def _game(player: Player, code: str) -> tuple[Session, dict]:
    stored = load_game(connection(), player.id, code)
    if stored is None:
        return _new_game(player, code), {}
    try:
        game, _ = Session.resume(stored[0])
    except LogError as exc:  # a game stored by a version whose rules read it otherwise
        game = _new_game(player, code)
        return game, {"error": f"the game kept here could not be replayed ({exc.code}: {exc.message}); "
                               "it starts again"}
    return game, stored[1]


@play.get("/play/<code>")
def page(code: str) -> ResponseReturnValue:
    stored = _challenge(code)
    if stored is None:
        return not_a_challenge(code)
    if stored != code:
        return redirect(url_for("play.page", code=stored), 301)
    player = _player()
    if player is None:
        return render_template("play_key.html.j2", code=code, error=None)
    try:
        game, said = _game(player, code)
    except UnwritableHeader as exc:
        return _unwritable(exc)
    return render_template("play.html.j2", code=code, player=player, view=_view(game), said=said)


def _key_limit() -> str:
    return current_app.config["REGISTER_LIMIT"]  # a wrong key costs like a registration


def _submit_limit() -> str:
    return current_app.config["SUBMIT_LIMIT"]


@play.post("/play/<code>/key")
def key(code: str) -> ResponseReturnValue:
    if _challenge(code) is None:
        return not_a_challenge(code)
    refuse_spent_address()
    conn = connection()
    player = player_by_key(conn, request.form.get("key", "").strip())
    if player is None:
        wrong_key()
        return render_template("play_key.html.j2", code=code,
                               error="no player holds this key: register a name to get one"), 403
    sign_in(player)
    return redirect(url_for("play.page", code=code), 303)


@play.post("/play/<code>/sign-out")
def sign_out(code: str) -> ResponseReturnValue:
    end_session(connection(), session.pop(SESSION, None))
    return redirect(url_for("play.page", code=code), 303)


@play.post("/play/<code>/new-key")
@limiter.limit(_key_limit)
def new_key(code: str) -> ResponseReturnValue:
    """The player's key replaced: the old one stops working everywhere (API, submit page, other
    devices' sessions); this device stays signed in with the new one, shown once."""
    conn = connection()
    player = _player()
    if player is None:
        return redirect(url_for("play.page", code=code), 303)
    key = replace_player_key(conn, player)
    session[SESSION] = open_session(conn, player, utc_now())
    return render_template("new_key.html.j2", player=player, key=key, code=code)


def _posted(code: str) -> tuple[str, Player, Session, dict] | None:
    """The challenge, the player and their game that a form of the play page posts to; None
    when the challenge or the player's key is unknown (the form goes back to the page)."""
    stored = _challenge(code)
    player = _player()
    if stored is None or player is None:
        return None
    try:
        return (stored, player, *_game(player, stored))
    except UnwritableHeader:
        return None  # the page says why


@play.post("/play/<code>")
def statement(code: str) -> ResponseReturnValue:
    posted = _posted(code)
    if posted is None:
        return redirect(url_for("play.page", code=code), 303)
    stored, player, game, _ = posted
    form = request.form
    if "undo" in form:
        text = "undo"
    else:
        text = " ".join(part for part in (form.get("stem", ""), form.get("rest", ""),
                                          form.get("statement", "")) if part.strip())
    reply = game.submit(text[:200])
    said = ({"error": f"{reply.error.code} {reply.error.name}: {reply.error.message}", "typed": text}
            if reply.error is not None else {"said": ([reply.note] if reply.note else []) + reply.said})
    save_game(connection(), player.id, stored, game.log_text(), said, utc_second())
    return redirect(url_for("play.page", code=stored), 303)


@play.post("/play/<code>/restart")
def restart(code: str) -> ResponseReturnValue:
    stored = _challenge(code)
    player = _player()
    if stored is not None and player is not None:
        drop_game(connection(), player.id, stored)
    return redirect(url_for("play.page", code=code), 303)


@play.post("/play/<code>/submit")
@limiter.limit(_submit_limit)
def submit(code: str) -> ResponseReturnValue:
    posted = _posted(code)
    if posted is None:
        return redirect(url_for("play.page", code=code), 303)
    stored, player, game, said = posted
    if not game.is_over:
        return failure(409, "the mission is not over yet: play it to its end, then submit")
    try:
        receipt = submit_entry(connection(), verifier(), game.log_text().encode("utf-8"), player,
                               utc_second(), utc_now(), write_lock)
    except Refusal as exc:
        words = refusal_words(exc)
        said = {"error": words["text"], "link": words["link"], "label": words["label"]}
        return render_template("play.html.j2", code=stored, player=player, view=_view(game),
                               said=said), exc.status
    return redirect(url_for("pages.entry", number=receipt.entry, duplicate=1 if receipt.duplicate else None),
                    303)


def _unwritable(exc: UnwritableHeader) -> ResponseReturnValue:
    return failure(422, f"your name cannot go into a mission log: {exc}; ask the organiser to "
                        "rename you (the admin page's rename)")


def _view(game: Session) -> dict:
    """What the template shows: the board, the status, the side panel, the offers as
    buttons and fields by group."""
    groups: dict[str, list[dict]] = {}
    moves: dict[str, list[str]] = {}
    for offer in game.offers():
        words = offer.text.split()
        if words[0] in ("move", "throttle") and len(words) > 2:
            stem = " ".join(words[:-1])
            if stem not in moves:
                moves[stem] = []
                groups.setdefault(offer.group, []).append({"stem": stem, "ways": moves[stem]})
            moves[stem].append(words[-1])
        else:
            groups.setdefault(offer.group, []).append({"text": offer.text})
    for choices in groups.values():
        for choice in choices:
            ways = choice.get("ways")
            if ways is not None and len(ways) <= MOST_BUTTONS // 4:
                choice["buttons"] = [f"{choice['stem']} {w}" for w in ways]
    deck = "challenge deck, blind" if game.state.challenge else "own deck"
    return {"svg": board_svg(game.state, game.art),
            "status": status_text(game.state, game.art, game.turn, game.unmet_damage),
            "side": side_lines(game.state, game.art, game.turn, deck, game.unmet_damage), "groups": groups,
            "over": game.is_over, "result": game.result() if game.is_over else None,
            "statements": len(game.body), "log": game.log_text()}


__all__ = ["play"]
