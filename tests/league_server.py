"""A league the server tests serve: created by the CLI with an organiser key (``org.key``
beside it) and running the test challenge over a window open from 2000 to 2100."""

from __future__ import annotations

import re

from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.league import open_league
from bgrid.league.windows import open_challenge
from bgrid.web import create_app
from league_logs import CODE

NOW = "2026-12-01T10:00:00Z"
UNLIMITED = "1000 per minute"


def served_league(folder):
    path = folder / "league.db"
    key_file = folder / "org.key"
    result = CliRunner().invoke(cli, ["league", "init", str(path), "--admin-key-file", str(key_file)])
    assert result.exit_code == 0, result.output
    conn = open_league(path)
    open_challenge(conn, CODE, "2000-01-01", "2100-01-01", now=NOW)
    conn.close()
    return path


def league_client(path):
    """A Flask test client of the server over the league at ``path``, its limits out of the way."""
    return create_app(path, testing=True, submit_limit=UNLIMITED, register_limit=UNLIMITED).test_client()


def csrf_token(client, path, **request):
    """The CSRF token of the form on the page at ``path`` (``request``: what client.get takes)."""
    page = client.get(path, **request).get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def register_on_page(client, name):
    """Register ``name`` through the /register form; the key the answer page shows once."""
    answer = client.post("/register", data={"name": name, "csrf_token": csrf_token(client, "/register")})
    assert answer.status_code == 201
    return re.search(r'<code class="key" id="key">([^<]+)</code>', answer.get_data(as_text=True)).group(1)
