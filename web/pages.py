"""The pages a player reads: home, a challenge, register, submit, an entry, a player."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from ..league.identity import RefusedName
from ..league.intake import MAX_LOG_BYTES, Refusal, submit_entry
from ..league.players import NameTaken, player_by_key, register
from ..league.public import player_entries, runs_challenge, standings_of
from ..league.standings import par_source
from ..league.submit import utc_now
from ..league.windows import describe_attempts, window_of
from ..verifier.report_html import error_view, render_report
from ..verifier.verify import verify_log
from .shared import failure, key_or_address, limiter, sign_in, signed_in_player
from .rate_limits import REGISTRATIONS, refuse_spent_address, wrong_key
from .chart import score_bars
from .db import connection, verifier, write_lock
from .packs import FILES, PackCache
from .reports import CleanPage, ReportCache
from .views import (challenge_list, entry_record, log_download, no_entry, not_a_challenge, refusal_words,
                    stored_log, utc_second)

pages = Blueprint(
    "pages", __name__, template_folder="templates", static_folder="static", static_url_path="/static"
)
_packs = PackCache()
_reports = ReportCache()


@pages.get("/")
def home() -> ResponseReturnValue:
    now = utc_second()
    listed = challenge_list(connection())
    return render_template(
        "home.html.j2",
        open_now=[c for c in listed if c["open"]],
        others=[c for c in listed if not c["open"]],
        now=now,
        files=FILES,
    )


@pages.get("/challenges/<code>")
def challenge(code: str) -> ResponseReturnValue:
    conn = connection()
    stored = runs_challenge(conn, code)
    if stored is None:
        return not_a_challenge(code)
    if stored != code:
        return redirect(url_for("pages.challenge", code=stored), 301)
    window = window_of(conn, stored)
    table = standings_of(conn, [stored])
    par = table.pars.get(stored)
    return render_template(
        "challenge.html.j2",
        code=stored,
        window=window,
        now=utc_second(),
        attempts=describe_attempts(window.attempts) if window else None,
        par=par_source(par) if par else None,
        table=table,
        files=FILES,
        chart=score_bars([s.score for s in table.standings]),
    )


@pages.get("/challenges/<code>/<name>")
def pack_file(code: str, name: str) -> ResponseReturnValue:
    stored = runs_challenge(connection(), code)
    if stored is None:
        return not_a_challenge(code)
    data = _packs.file(stored, name)
    if data is None:
        return failure(404, f"a pack has {', '.join(FILES)}; not '{name}'")
    mimetype = "application/json" if name.endswith(".json") else "application/pdf"
    return Response(
        data,
        mimetype=mimetype,
        headers={
            "Content-Disposition": f'attachment; filename="{stored}-{name}"',
            "Cache-Control": "public, max-age=3600",
        },
    )


def _register_limit() -> str:
    return current_app.config["REGISTER_LIMIT"]


def _submit_limit() -> str:
    return current_app.config["SUBMIT_LIMIT"]


@pages.route("/register", methods=["GET", "POST"])
@limiter.limit(_register_limit, methods=["POST"], shared=REGISTRATIONS)
def register_page() -> ResponseReturnValue:
    if request.method == "GET":
        return render_template("register.html.j2", error=None, name="")
    name = request.form.get("name", "")
    try:
        player, key = register(connection(), name, utc_now())
    except (NameTaken, RefusedName) as exc:
        status = 409 if isinstance(exc, NameTaken) else 422
        return render_template("register.html.j2", error=str(exc), name=name), status
    # the key is shown this once, on the answer to the form; it is never stored in clear
    response = current_app.make_response(render_template("registered.html.j2", player=player, key=key))
    response.headers["Cache-Control"] = "no-store"
    return response, 201


@pages.post("/key")
def key_kept() -> ResponseReturnValue:
    """Where the form of a key shown once goes (``_key_form.html.j2``): sending it is what lets a
    password manager save the name and key, and it signs this browser in as the key's player
    (the /play session), so the page it leads to does not ask for the key just given. On to the
    game the key was made in, else the submit page. A key that is no one's (the form edited)
    signs nobody in and counts as a wrong key, as on every route that tries one."""
    refuse_spent_address()
    player = player_by_key(connection(), request.form.get("password", "").strip())
    if player is None:
        wrong_key()
    else:
        sign_in(player)
    code = runs_challenge(connection(), request.form.get("code", ""))
    return redirect(url_for("play.page", code=code) if code else url_for("pages.submit_page"), 303)


@pages.route("/submit", methods=["GET", "POST"])
@limiter.limit(_submit_limit, methods=["POST"])
@limiter.limit(_submit_limit, methods=["POST"], key_func=key_or_address)
def submit_page() -> ResponseReturnValue:
    player = signed_in_player()
    if request.method == "GET":
        return render_template("submit.html.j2", error=None, log="", key="", player=player)
    upload = request.files.get("file")
    data = (
        upload.read()
        if upload is not None and upload.filename
        else request.form.get("log", "").encode("utf-8")
    )
    data = data.replace(b"\r\n", b"\n") if upload is None or not upload.filename else data
    # a key typed wins; without one, the player this browser is signed in as (/play)
    key = request.form.get("key", "").strip() or player
    try:
        receipt = submit_entry(connection(), verifier(), data, key, utc_second(), utc_now(), write_lock)
    except Refusal as exc:
        if exc.status == 401:
            wrong_key()
        # the page comes back as the player left it, the reason above: the log (an uploaded
        # file's text in the box, as a browser cannot keep the chosen file) and the key
        answer = current_app.make_response(render_template(
            "submit.html.j2", error=refusal_words(exc), log=_kept_text(data),
            key=request.form.get("key", ""), player=player))
        answer.headers["Cache-Control"] = "no-store"  # the key is in it
        return answer, exc.status
    return redirect(
        url_for("pages.entry", number=receipt.entry, duplicate=1 if receipt.duplicate else None), 303
    )


def _kept_text(data: bytes) -> str:
    """The refused log as text to put back in the box; nothing for what no box can hold (too
    large, not UTF-8): the reason says why."""
    if len(data) > MAX_LOG_BYTES:
        return ""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return ""


@pages.get("/entries/<entry:number>")
def entry(number: int) -> ResponseReturnValue:
    conn = connection()
    record = entry_record(conn, number)
    if record is None:
        return no_entry(number)
    data = stored_log(conn, number)
    assert data is not None  # an entry is stored with its log, in one transaction
    window = window_of(conn, record["challenge"]) if record["challenge"] else None
    verdict = verify_log(data, source=f"entry-{number}.log")
    return render_template(
        "entry.html.j2",
        e=record,
        summary=verdict.summary(),
        notes=[str(n) for n in verdict.notes],
        errors=[error_view(x, verdict.source) for x in verdict.errors],
        breakdown=verdict.score.breakdown() if verdict.score is not None else "",
        duplicate=request.args.get("duplicate") == "1",
        open_now=window is not None and window.is_open(utc_second()),
    )


@pages.get("/entries/<entry:number>/log")
def entry_log(number: int) -> ResponseReturnValue:
    return log_download(connection(), number)


@pages.get("/entries/<entry:number>/replay")
def entry_replay(number: int) -> ResponseReturnValue:
    conn = connection()
    record = entry_record(conn, number)
    data = stored_log(conn, number)
    if record is None or data is None:
        return no_entry(number)
    links = [("B-Grid league", url_for("pages.home")),
             (f"Entry #{number}", url_for("pages.entry", number=number))]
    if record["challenge"]:
        code = record["challenge"]
        links.append((f"Standings of {code}", url_for("pages.challenge", code=code)))
    # the verifier's own report, with the history of every turn (the whole course); its
    # stepper script is refused by the CSP, and the page shows the course without it. Kept
    # per entry and version: a withdrawal, a restore or a rename makes a new one
    version = (number, record["verification_id"], record["player"], record["withdrawn"])
    page = _reports.page(version, lambda: render_report(
        [verify_log(data, source=f"entry-{number}.log", history=True)], links=links))
    return CleanPage(page)


@pages.get("/players/<name>")
def player(name: str) -> ResponseReturnValue:
    conn = connection()
    row = conn.execute("SELECT name FROM players WHERE name = ?", (name,)).fetchone()
    entries = player_entries(conn, name)
    if row is None and not entries:
        return failure(404, f"no player '{name}' in this league")
    table = standings_of(conn, [])
    return render_template(
        "player.html.j2",
        name=name,
        entries=entries,
        results=[s for s in table.standings if s.player == name],
        season=[r for r in table.season if r.player == name],
    )


@pages.get("/favicon.ico")
def favicon() -> ResponseReturnValue:
    return Response(status=204)  # no icon; a browser asking for one is not an error
