"""The league server's pages (Flask's test client): forms with CSRF tokens, the answer
pages, the organiser's pages; and the command line that sets a league up and serves it."""

from __future__ import annotations

import os
import re
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.request

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from league_logs import CODE, games
from league_server import csrf_token as token, register_on_page as register


def test_every_form_needs_its_csrf_token(client, league_db):
    for path, form in (
        ("/register", {"name": "Ada"}),
        ("/submit", {"key": "k", "log": "x"}),
        ("/admin/sign-in", {"key": "k"}),
    ):
        answer = client.post(path, data=form)
        assert answer.status_code == 400 and "did not come from this site" in answer.get_data(as_text=True)


def test_registering_on_the_page_shows_the_key_once(client):
    key = register(client, "Ada")
    assert len(key) >= 32
    again = client.post("/register", data={"name": "ada", "csrf_token": token(client, "/register")})
    assert again.status_code == 409 and "taken" in again.get_data(as_text=True)


def test_a_pasted_log_redirects_to_its_receipt_with_verdict_and_replay(client):
    key = register(client, "Ada")
    game = games(4)[0]
    answer = client.post(
        "/submit", data={"key": key, "log": game.by("Ada").decode(), "csrf_token": token(client, "/submit")}
    )
    assert answer.status_code == 303
    page = client.get(answer.headers["Location"])
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "valid" in text and str(game.score) in text
    number = re.search(r"/entries/(\d+)", answer.headers["Location"]).group(1)
    replay = client.get(f"/entries/{number}/replay")
    assert replay.status_code == 200 and "<svg" in replay.get_data(as_text=True)
    assert client.get(f"/entries/{number}/log").data == game.by("Ada")


def test_an_uploaded_log_is_stored_byte_for_byte(client):
    import io

    key = register(client, "Ada")
    data = games(4)[1].by("Ada")
    answer = client.post(
        "/submit",
        data={"key": key, "file": (io.BytesIO(data), "my.log"), "csrf_token": token(client, "/submit")},
        content_type="multipart/form-data",
    )
    assert answer.status_code == 303
    number = re.search(r"/entries/(\d+)", answer.headers["Location"]).group(1)
    assert client.get(f"/entries/{number}/log").data == data


def test_a_refused_submission_says_why_on_the_form_and_keeps_the_log(client):
    answer = client.post(
        "/submit", data={"key": "wrong", "log": "turn 1\n", "csrf_token": token(client, "/submit")}
    )
    text = answer.get_data(as_text=True)
    assert answer.status_code == 401 and "key" in text and "turn 1" in text


def test_an_invalid_entry_page_shows_the_first_error_with_line_and_column(client):
    key = register(client, "Ada")
    text = games(4)[0].by("Ada").decode()
    broken = re.sub(r"^enter (\S+)", "enter ZZ", text, count=1, flags=re.M)
    answer = client.post("/submit", data={"key": key, "log": broken, "csrf_token": token(client, "/submit")})
    page = client.get(answer.headers["Location"]).get_data(as_text=True)
    assert "invalid" in page and re.search(r"line \d+, column \d+", page)


def test_the_challenge_page_has_standings_window_policy_and_a_chart(client):
    for name, game in zip(["Ada", "Bo"], games(4)[:2], strict=True):
        key = register(client, name)
        client.post(
            "/submit",
            data={"key": key, "log": game.by(name).decode(), "csrf_token": token(client, "/submit")},
        )
    page = client.get(f"/challenges/{CODE}").get_data(as_text=True)
    assert (
        "Ada" in page and "Bo" in page and "2100-01-01T00:00:00Z" in page and "best of all attempts" in page
    )
    assert '<svg class="chart"' in page and "<script" not in page
    # the window as a person reads it (1 Jan 2000 was a Saturday; 36,525 days later, a Friday)
    assert ('<time datetime="2000-01-01T00:00:00Z">Sat 1 Jan 2000 00:00</time> – '
            '<time datetime="2100-01-01T00:00:00Z">Fri 1 Jan 2100 00:00</time> UTC') in page
    assert ">score</text>" in page and ">players</text>" in page  # the chart's axes are named
    home = client.get("/").get_data(as_text=True)
    assert CODE in home and "sheet-a4.pdf" in home and "map.json" in home
    player = client.get("/players/Ada")
    assert player.status_code == 200 and "Results" in player.get_data(as_text=True)
    assert client.get("/players/Nobody").status_code == 404


def test_a_player_name_is_escaped_on_every_page(client):
    key = register(client, "<b>x</b>")
    client.post(
        "/submit",
        data={"key": key, "log": games(4)[0].by(None).decode(), "csrf_token": token(client, "/submit")},
    )
    page = client.get(f"/challenges/{CODE}").get_data(as_text=True)
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page


def test_the_pack_downloads_and_refuses_other_names(client):
    answer = client.get(f"/challenges/{CODE}/map.json")
    assert answer.status_code == 200 and answer.json["code"] == CODE
    assert "deck" not in answer.json  # the order is a file of its own, out of sight
    order = client.get(f"/challenges/{CODE}/deck-order.json")
    assert order.status_code == 200 and order.json["code"] == CODE
    assert len(order.json["deck"]) == 54 and order.json["deck"].count("JK") == 2  # R25: the whole deck
    pdf = client.get(f"/challenges/{CODE}/sheet-letter.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    assert client.get(f"/challenges/{CODE}/league.db").status_code == 404


def test_the_organiser_pages_need_the_key_and_audit_what_they_do(client, league_db):
    key = register(client, "Ada")
    client.post(
        "/submit",
        data={"key": key, "log": games(4)[0].by("Ada").decode(), "csrf_token": token(client, "/submit")},
    )
    assert client.get("/admin/").status_code == 303
    bad = client.post("/admin/sign-in", data={"key": "nope", "csrf_token": token(client, "/admin/sign-in")})
    assert bad.status_code == 401
    organiser = (league_db.parent / "org.key").read_text().strip()
    assert (
        client.post(
            "/admin/sign-in", data={"key": organiser, "csrf_token": token(client, "/admin/sign-in")}
        ).status_code
        == 303
    )
    form = token(client, "/admin/")
    client.post("/admin/entries/1/withdraw", data={"reason": "test withdrawal", "csrf_token": form})
    client.post(
        "/admin/players/rename",
        data={"name": "Ada", "new_name": "Ada L", "reason": "asked", "csrf_token": form},
    )
    client.post(
        "/admin/challenges", data={"code": CODE, "par": "7", "reason": "from the pack", "csrf_token": form}
    )
    page = client.get("/admin/").get_data(as_text=True)
    assert "test withdrawal" in page and "player Ada -&gt; Ada L" in page and "par 7" in page
    exported = client.get("/admin/export.json").json
    assert (
        exported["entries"][0]["player"] == "Ada L"
        and exported["entries"][0]["withdrawn"] == "test withdrawal"
    )
    assert [a["action"] for a in exported["audit"]] == ["open challenge", "organiser key refused", "withdraw",
                                                        "rename", "set par"]
    assert client.get("/admin/export.csv").get_data(as_text=True).startswith("entry,player,challenge")
    import io
    import zipfile

    archive = zipfile.ZipFile(io.BytesIO(client.get("/admin/export.zip").data))
    assert {"entries.json", "entries.csv", "audit.csv"} <= set(archive.namelist())
    assert archive.read([n for n in archive.namelist() if n.startswith("logs/")][0]) == games(4)[0].by("Ada")


# -- the command line ---------------------------------------------------------------------------


def test_init_writes_the_organiser_key_0600_and_stores_its_hash_only(tmp_path):
    db, key_file = tmp_path / "l.db", tmp_path / "org.key"
    result = CliRunner().invoke(cli, ["league", "init", str(db), "--admin-key-file", str(key_file)])
    assert result.exit_code == 0 and "0600" in result.output
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    key = key_file.read_text().strip()
    assert key.encode() not in db.read_bytes()
    again = CliRunner().invoke(cli, ["league", "init", str(db), "--admin-key-file", str(key_file)])
    assert (
        again.exit_code == 2 and "never overwritten" in again.output and key_file.read_text().strip() == key
    )


def test_league_open_sets_the_window_and_refuses_bad_input(tmp_path):
    db = tmp_path / "l.db"
    CliRunner().invoke(cli, ["league", "init", str(db)])
    ok = CliRunner().invoke(
        cli,
        [
            "league",
            "open",
            str(db),
            CODE.lower(),
            "--from",
            "2026-11-30",
            "--until",
            "2026-12-07T00:00+01:00",
            "--attempts",
            "3",
        ],
    )
    assert ok.exit_code == 0
    assert ok.output.strip() == (
        f"{CODE}: open from 2026-11-30T00:00:00Z until 2026-12-06T23:00:00Z (UTC), "
        "best of the first 3 attempts"
    )
    for extra, said in (
        (["--from", "monday", "--until", "2026-12-07"], "ISO 8601"),
        (["--from", "2026-12-07", "--until", "2026-12-01"], "before it opens"),
        (["--from", "2026-12-01", "--until", "2026-12-07", "--attempts", "most"], "attempts"),
    ):
        bad = CliRunner().invoke(cli, ["league", "open", str(db), CODE, *extra])
        assert bad.exit_code == 2 and said in bad.output and "Traceback" not in bad.output
    bad_code = CliRunner().invoke(
        cli, ["league", "open", str(db), "0M00-0001-WR4", "--from", "2026-12-01", "--until", "2026-12-07"]
    )
    assert bad_code.exit_code == 2


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("workers", [[], ["--workers", "1"]], ids=["default workers", "one waitress process"])
def test_serve_prints_its_url_answers_and_stops_on_sigterm(league_db, workers):
    port = _free_port()
    bgrid = os.path.join(os.path.dirname(sys.executable), "bgrid")
    server = subprocess.Popen(
        [bgrid, "serve", str(league_db), "--port", str(port), *workers],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = server.stdout.readline()
        assert line.strip() == f"bgrid league server on http://127.0.0.1:{port}/ (Ctrl-C to stop)"
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/challenges", timeout=5) as answer:
                    assert answer.status == 200 and CODE in answer.read().decode()
                    assert answer.headers["Server"] == "bgrid"
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.2)
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=20) == 0
        assert server.stdout.read().strip() == "stopped"
        # the access log, on standard error: one line for the request, stamped in UTC
        said = server.stderr.read()
        assert re.search(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ INFO bgrid.web.access: 127.0.0.1 GET "
                         r"/api/challenges 200 \d+ ms$", said, re.M), said
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_serve_on_a_missing_league_is_one_line_exit_2(tmp_path):
    result = CliRunner().invoke(cli, ["serve", str(tmp_path / "none.db")])
    assert result.exit_code == 2 and "bgrid league init" in result.output


def test_merging_players_moves_their_entries_and_ends_the_merged_key(client, league_db):
    ada, alt = register(client, "Ada"), register(client, "Ada Two")
    for key, name, game in ((ada, "Ada", games(4)[0]), (alt, "Ada Two", games(4)[1])):
        client.post(
            "/submit",
            data={"key": key, "log": game.by(name).decode(), "csrf_token": token(client, "/submit")},
        )
    organiser = (league_db.parent / "org.key").read_text().strip()
    client.post("/admin/sign-in", data={"key": organiser, "csrf_token": token(client, "/admin/sign-in")})
    form = token(client, "/admin/")
    done = client.post(
        "/admin/players/merge",
        data={"name": "Ada Two", "into": "ada", "reason": "one person", "csrf_token": form},
    )
    assert done.status_code == 303 and "merged" in done.headers["Location"]
    [row] = client.get(f"/api/standings/{CODE}").json["standings"]
    assert row["player"] == "Ada" and row["attempts"] == 2
    refused = client.post(
        "/api/submissions", data=games(4)[2].by(None), headers={"Authorization": f"Bearer {alt}"}
    )
    assert refused.status_code == 401
    client.post("/admin/players/disqualify", data={"name": "Ada", "reason": "shared key", "csrf_token": form})
    assert client.get(f"/api/standings/{CODE}").json["standings"] == []
    client.post("/admin/players/reinstate", data={"name": "Ada", "reason": "appeal", "csrf_token": form})
    assert len(client.get(f"/api/standings/{CODE}").json["standings"]) == 1
    audit = [a["action"] for a in client.get("/admin/export.json").json["audit"]]
    assert audit[-3:] == ["merge", "disqualify", "reinstate"]


def test_a_bad_admin_action_comes_back_with_its_reason_and_changes_nothing(client, league_db):
    organiser = (league_db.parent / "org.key").read_text().strip()
    client.post("/admin/sign-in", data={"key": organiser, "csrf_token": token(client, "/admin/sign-in")})
    form = token(client, "/admin/")
    for path, data, said in (
        ("/admin/players/rename", {"name": "Nobody", "new_name": "X", "reason": "r"}, "no registered"),
        ("/admin/entries/5/withdraw", {"reason": "r"}, "no entry"),
        ("/admin/challenges", {"code": CODE, "par": "x", "reason": "r"}, "whole number"),
        ("/admin/challenges", {"code": CODE, "opens": "soon", "closes": "later"}, "ISO 8601"),
    ):
        answer = client.post(path, data=data | {"csrf_token": form})
        assert answer.status_code == 303 and "error=" in answer.headers["Location"]
        page = client.get(answer.headers["Location"]).get_data(as_text=True)
        assert said in page
    assert [a["action"] for a in client.get("/admin/export.json").json["audit"]] == ["open challenge"]


def test_every_redirect_names_a_path_never_the_host_the_request_gave(client):
    """The slash redirect (``/admin`` to ``/admin/``) is werkzeug's, which builds an absolute
    URL from the ``Host`` header; the league's own redirects name paths."""
    for path, status, location in (("/admin", 308, "/admin/"), ("/admin/", 303, "/admin/sign-in"),
                                   ("/admin?x=1", 308, "/admin/?x=1"),
                                   (f"/challenges/{CODE.lower()}", 301, f"/challenges/{CODE}")):
        answer = client.get(path, headers={"Host": "evil.example"})
        assert (answer.status_code, answer.headers["Location"]) == (status, location), path
