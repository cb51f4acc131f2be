"""Client input that gave a 500: deeply nested JSON, a rename onto a name with entries
submitted from the command line, a window in the year 0 in UTC; and the admin page's par,
which took any text as a code. Each is now a clear 4xx or a refusal on the admin page."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.web import create_app
from league_logs import CODE, games
from league_server import UNLIMITED

NESTED = b"[" * 100_000 + b"]" * 100_000


@pytest.fixture
def app(league_db):
    return create_app(league_db, testing=True, submit_limit=UNLIMITED, register_limit=UNLIMITED)


def organiser(app, league_db):
    client = app.test_client()
    page = client.get("/admin/sign-in").get_data(as_text=True)
    form = {"key": (league_db.parent / "org.key").read_text().strip(),
            "csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)}
    assert client.post("/admin/sign-in", data=form).status_code == 303
    return client, form["csrf_token"]


def said(answer) -> dict:
    """What the admin page was sent back with: {"done": …} or {"error": …}."""
    assert answer.status_code == 303
    return {k: v[0] for k, v in parse_qs(urlsplit(answer.headers["Location"]).query).items()}


def test_deeply_nested_json_is_a_4xx(app, league_db):
    client = app.test_client()
    assert client.post("/api/players", data=NESTED, content_type="application/json").status_code == 422
    key = (league_db.parent / "org.key").read_text().strip()
    answer = client.post("/api/admin/entries/1/withdraw", data=NESTED, content_type="application/json",
                         headers={"Authorization": f"Bearer {key}"})
    assert answer.status_code in (404, 422)


def test_a_rename_onto_a_name_with_command_line_entries_is_refused(app, league_db, tmp_path):
    log = tmp_path / "bo.log"
    log.write_bytes(games(1)[0].by("Bo"))
    assert CliRunner().invoke(cli, ["league", "submit", str(league_db), str(log)]).exit_code == 0
    client, csrf = organiser(app, league_db)
    assert client.post("/api/players", json={"name": "Ada"}).status_code == 201
    answer = client.post("/admin/players/rename",
                         data={"name": "Ada", "new_name": "Bo", "reason": "asked", "csrf_token": csrf})
    assert "entries are already recorded under the name 'Bo'" in said(answer)["error"]


def test_a_window_in_the_year_0_in_utc_is_refused(app, league_db):
    client, csrf = organiser(app, league_db)
    form = {"code": CODE, "opens": "0001-01-01T00:00:00+01:00", "closes": "2100-01-01", "reason": "r",
            "csrf_token": csrf}
    answer = client.post("/admin/challenges", data=form)
    assert "outside the years 1-9999" in said(answer)["error"]


def test_the_admin_par_takes_only_a_code_the_league_runs(app, league_db):
    client, csrf = organiser(app, league_db)
    form = {"code": "'; DROP TABLE pars;--", "par": "3", "reason": "r", "csrf_token": csrf}
    answer = client.post("/admin/challenges", data=form)
    assert "is not a challenge this league runs" in said(answer)["error"]
    form = {**form, "code": CODE, "par": "-0"}
    answer = client.post("/admin/challenges", data=form)
    assert said(answer)["done"] == f"{CODE}: par 0 set"
