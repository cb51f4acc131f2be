"""What the server sends never carries a raw bidi control, invisible mark or control
character, whatever the league holds: its JSON escapes them as ``bgrid league standings
--json`` does (``\\u202e``: the same string once parsed), and its pages drop the bidi
controls and replace the other controls as the published standings page does
(``safeio.safe_text.html_text``). The raw strings come in where the server itself refuses
them: a player named by a log sent with ``bgrid league submit`` and a window's reason given
from the command line."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.league import open_league
from bgrid.league.windows import open_challenge
from league_logs import CODE, games, write_logs
from league_server import NOW, league_client

NAME = "Ada\u202egnp.exe\u200f"
REASON = "moved \u202eto Friday\u200b\u2028\u0007"
BIDI = ("\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069")
RAW_IN_JSON = (*BIDI, "\u061c", "\u200b", "\u200e", "\u200f", "\u2028", "\u2029", "\ufeff", "\x07")


@pytest.fixture
def spoofing(league_db, tmp_path):
    write_logs(tmp_path / "in", {"a.log": games(1)[0].by(NAME)})
    result = CliRunner().invoke(cli, ["league", "submit", str(league_db), str(tmp_path / "in")])
    assert result.exit_code == 0, result.output
    conn = open_league(league_db)
    open_challenge(conn, CODE, "2000-01-01", "2100-02-01", now=NOW, reason=REASON)
    conn.close()
    return league_client(league_db)


def organiser(client, league_db):
    page = client.get("/admin/sign-in").get_data(as_text=True)
    form = {"key": (league_db.parent / "org.key").read_text().strip(),
            "csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)}
    assert client.post("/admin/sign-in", data=form).status_code == 303


def test_the_servers_json_escapes_bidi_invisible_and_control_characters(spoofing, league_db):
    organiser(spoofing, league_db)
    for url, held in ((f"/api/standings/{CODE}", NAME), ("/api/entries/1", NAME),
                      ("/admin/export.json", REASON)):
        answer = spoofing.get(url)
        assert answer.status_code == 200, url
        text = answer.get_data(as_text=True)
        for ch in RAW_IN_JSON:
            assert ch not in text, f"{url}: U+{ord(ch):04X} sent raw"
        assert "\\u202e" in text, url
        # JSON's own escapes: the string the league holds, once parsed
        parsed = json.dumps(answer.get_json(), ensure_ascii=False)
        assert json.dumps(held, ensure_ascii=False)[1:-1] in parsed, url


def test_the_servers_pages_drop_bidi_controls(spoofing, league_db):
    organiser(spoofing, league_db)
    for url, shown in ((f"/challenges/{CODE}", "Adagnp.exe"), ("/players/" + NAME, "Adagnp.exe"),
                       ("/admin/", "moved to Friday")):
        answer = spoofing.get(url)
        assert answer.status_code == 200, url
        text = answer.get_data(as_text=True)
        for ch in (*BIDI, "\x07"):
            assert ch not in text, f"{url}: U+{ord(ch):04X} sent raw"
        assert shown in text, url
