"""The organiser's pages: sign in with the organiser key, then flags, entries, players,
pars and windows, the audit log and the exports. Every action is a POST form (CSRF token)
and goes through ``bgrid.league.admin``, which writes the audit log."""

from __future__ import annotations

import functools
import logging
import sqlite3
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue

from ..league import admin as actions
from ..league.export import export_csv, export_json, export_zip
from ..league.identity import RefusedName
from ..league.integrity import all_flags
from ..league.players import is_admin_key, list_players
from ..league.sessions import end_session, is_organiser_session, open_session
from ..league.submit import utc_now
from ..league.windows import WindowError, league_windows, open_challenge, window_of
from ..rules.errors import BGridError
from .db import connection
from .rate_limits import refuse_spent_address, remote_address, wrong_key

log = logging.getLogger("bgrid.web")

admin_pages = Blueprint("admin", __name__, url_prefix="/admin", template_folder="templates")


ORGANISER = "organiser"  # the session cookie's field: the organiser session's token


def organiser_only(view: Callable[..., ResponseReturnValue]) -> Callable[..., ResponseReturnValue]:
    @functools.wraps(view)
    def run(*args: Any, **kwargs: Any) -> ResponseReturnValue:
        if not is_organiser_session(connection(), session.get(ORGANISER), utc_now()):
            return redirect(url_for("admin.sign_in"), 303)
        return view(*args, **kwargs)

    return run


@admin_pages.route("/sign-in", methods=["GET", "POST"])
def sign_in() -> ResponseReturnValue:
    if request.method == "POST":
        refuse_spent_address()
        conn = connection()
        if is_admin_key(conn, request.form.get("key")):
            end_session(conn, session.get(ORGANISER))
            session[ORGANISER] = open_session(conn, None, utc_now())
            return redirect(url_for("admin.dashboard"), 303)
        refused_organiser_key("/admin/sign-in")
        return render_template("admin_sign_in.html.j2", error="that is not the organiser key"), 401
    return render_template("admin_sign_in.html.j2", error=None)


@admin_pages.post("/sign-out")
def sign_out() -> ResponseReturnValue:
    end_session(connection(), session.pop(ORGANISER, None))
    return redirect(url_for("pages.home"), 303)


@admin_pages.get("/")
@organiser_only
def dashboard() -> ResponseReturnValue:
    conn = connection()
    return render_template(
        "admin.html.j2",
        flags=all_flags(conn),
        players=list_players(conn),
        challenges=league_windows(conn),
        audit=actions.audit_log(conn),
        entries=conn.execute(
            "SELECT id, player, challenge, verdict, score, withdrawn FROM entries ORDER BY id DESC LIMIT 200"
        ).fetchall(),
        message=request.args.get("done"),
        error=request.args.get("error"),
    )


def refused_organiser_key(where: str) -> None:
    """A wrong organiser key: one line in the audit log and one in the server's log, and
    counted against the address (429 once its wrong keys are spent)."""
    address = remote_address()
    actions.refused_organiser_key(connection(), utc_now(), where, address)
    log.warning("a wrong organiser key from %s on %s", address, where)
    wrong_key()


def _act(run: Callable[[sqlite3.Connection, str], str | None]) -> ResponseReturnValue:
    """Do one action; back to the dashboard with what happened (or why not)."""
    try:
        done = run(connection(), utc_now())
    except (BGridError, RefusedName) as exc:
        return redirect(url_for("admin.dashboard", error=str(exc)), 303)
    return redirect(url_for("admin.dashboard", done=done), 303)


@admin_pages.post("/entries/<entry:number>/<any(withdraw, restore):action>")
@organiser_only
def entry_action(number: int, action: str) -> ResponseReturnValue:
    act = actions.withdraw if action == "withdraw" else actions.restore
    reason = request.form.get("reason")
    return _act(lambda conn, now: act(conn, number, reason, now) or f"entry #{number}: {action} done")


@admin_pages.post("/players/<any(disqualify, reinstate, rename, merge):action>")
@organiser_only
def player_action(action: str) -> ResponseReturnValue:
    form = request.form
    name, reason = form.get("name", ""), form.get("reason")

    def run(conn: sqlite3.Connection, now: str) -> str:
        if action in ("disqualify", "reinstate"):
            actions.disqualify(conn, name, reason, now, undo=action == "reinstate")
            return f"{name}: {action} done"
        if action == "rename":
            return f"{name} is now {actions.rename(conn, name, form.get('new_name', ''), reason, now)}"
        actions.merge(conn, name, form.get("into", ""), reason, now)
        return f"{name} merged into {form.get('into', '')}"

    return _act(run)


@admin_pages.post("/challenges")
@organiser_only
def challenge_action() -> ResponseReturnValue:
    form = request.form

    def run(conn: sqlite3.Connection, now: str) -> str:
        if form.get("par", "").strip():
            raw = form["par"].strip()
            if not (raw.lstrip("-").isascii() and raw.lstrip("-").isdigit() and -99 <= int(raw) <= 99):
                raise actions.AdminError(f"par '{raw}': give a whole number from -99 to 99")
            code = form.get("code", "").strip()
            if window_of(conn, code) is None:
                raise actions.AdminError(f"'{code}' is not a challenge this league runs: open it first")
            actions.set_given_par(conn, code, int(raw), form.get("reason"), now)
            return f"{code}: par {int(raw)} set"
        try:
            window = open_challenge(
                conn,
                form.get("code", ""),
                form.get("opens", ""),
                form.get("closes", ""),
                form.get("attempts", "best") or "best",
                now=now,
                reason=(form.get("reason") or "").strip() or "opened from the admin page",
            )
        except WindowError as exc:
            raise actions.AdminError(str(exc)) from None
        return f"{window.code}: {window.text()}"

    return _act(run)


@admin_pages.get("/export.<any(json, csv, zip):kind>")
@organiser_only
def export(kind: str) -> ResponseReturnValue:
    conn = connection()
    body: str | bytes
    if kind == "json":
        body, mimetype = export_json(conn), "application/json"
    elif kind == "csv":
        body, mimetype = export_csv(conn), "text/csv"
    else:
        body, mimetype = export_zip(conn), "application/zip"
    return Response(
        body,
        mimetype=mimetype,
        headers={"Content-Disposition": f'attachment; filename="league-export.{kind}"'},
    )
