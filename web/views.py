"""Small request-side helpers shared by the pages and the API (no league logic here)."""

from __future__ import annotations

import sqlite3

from flask import Response, url_for
from flask.typing import ResponseReturnValue

from ..league.intake import Refusal
from ..league.public import challenge_list as _challenge_list
from ..league.public import entry_record, runs_challenge, standings_of, stored_log
from ..league.windows import utc_moment
from .moments import readable_day
from .shared import failure


def utc_second() -> str:
    return utc_moment()


def challenge_list(conn: sqlite3.Connection) -> list[dict]:
    return _challenge_list(conn, utc_second())


def standings_json(conn: sqlite3.Connection, code: str) -> dict | None:
    stored = runs_challenge(conn, code)
    return None if stored is None else standings_of(conn, [stored]).as_dict()


def not_a_challenge(code: str) -> tuple[Response | str, int]:
    """The 404 of a challenge code the league does not run."""
    return failure(404, f"'{code}' is not a challenge of this league")


def no_entry(number: int) -> tuple[Response | str, int]:
    """The 404 of an entry number the league does not hold."""
    return failure(404, f"no entry #{number}")


def refusal_words(exc: Refusal) -> dict:
    """A refused submission as a page says it: ``{text, link, label}`` in plain words, a link
    where there is somewhere to go instead of the API's names (which ``exc.message`` keeps)."""
    home = url_for("pages.home")
    if exc.reason == "no-key":
        return {"text": "give your key with the log: it was shown when you registered",
                "link": url_for("pages.register_page"), "label": "no key yet? register a name"}
    if exc.reason == "wrong-key":
        return {"text": "no player holds this key: check it against the one you kept (l, 1 and I, "
                        "O and 0 look alike; paste it rather than type it)",
                "link": url_for("pages.register_page"), "label": "no key yet? register a name"}
    if exc.reason == "not-a-challenge":
        return {"text": f"the log is for {exc.challenge}, which is not a challenge of this league",
                "link": home, "label": "see the challenges open now"}
    if exc.reason in ("closed", "not-open-yet") and exc.window is not None:
        when = (f"closed on {readable_day(exc.window.closes)}" if exc.reason == "closed"
                else f"opens on {readable_day(exc.window.opens)}")
        return {"text": f"challenge {exc.challenge} {when} (UTC)", "link": home,
                "label": "see the challenges open now"}
    return {"text": exc.message, "link": None, "label": None}


def log_download(conn: sqlite3.Connection, number: int) -> ResponseReturnValue:
    """The entry's stored log as a download, byte for byte (404 when there is no such entry)."""
    data = stored_log(conn, number)
    if data is None:
        return no_entry(number)
    return Response(data, mimetype="text/plain",
                    headers={"Content-Disposition": f'attachment; filename="entry-{number}.log"'})


__all__ = ["log_download", "no_entry", "not_a_challenge", "refusal_words",
           "challenge_list", "entry_record", "standings_json", "stored_log", "utc_second"]
