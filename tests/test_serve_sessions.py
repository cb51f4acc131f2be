"""Signed-in browsers (league.sessions): the organiser's and the player's sessions end with
sign-out and with a key change, whatever copy of the cookie survives; the /play cookie holds
no key; every cookie is HttpOnly, SameSite=Lax, and Secure when the request came over https."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.web import create_app
from league_logs import CODE, games
from league_server import UNLIMITED, csrf_token as token

COOKIE = "session"


@pytest.fixture
def app(league_db):
    return create_app(league_db, testing=True, submit_limit=UNLIMITED, register_limit=UNLIMITED)


def organiser_signed_in(app, league_db):
    client = app.test_client()
    key = (league_db.parent / "org.key").read_text().strip()
    answer = client.post("/admin/sign-in", data={"key": key, "csrf_token": token(client, "/admin/sign-in")})
    assert answer.status_code == 303 and client.get("/admin/").status_code == 200
    return client


def player_key(client, name):
    answer = client.post("/api/players", json={"name": name})
    assert answer.status_code == 201
    return answer.json["key"]


def player_signed_in(client, key):
    answer = client.post(f"/play/{CODE}/key", data={"key": key, "csrf_token": token(client, f"/play/{CODE}")})
    assert answer.status_code == 303
    return client


def is_signed_in_to_play(client):
    return 'name="key"' not in client.get(f"/play/{CODE}").get_data(as_text=True)  # no key form


def test_an_organiser_session_ends_when_the_organiser_key_is_replaced(app, league_db):
    client = organiser_signed_in(app, league_db)
    entry = client.post("/api/submissions", data=games(1)[0].by(None), content_type="text/plain",
                        headers={"Authorization": f"Bearer {player_key(client, 'Ada')}"}).json["entry"]
    new_key = league_db.parent / "new.key"
    replaced = CliRunner().invoke(cli, ["league", "init", str(league_db), "--admin-key-file", str(new_key)])
    assert replaced.exit_code == 0, replaced.output
    assert client.get("/admin/").headers["Location"] == "/admin/sign-in"
    form = {"reason": "test", "csrf_token": token(client, "/admin/sign-in")}
    assert client.post(f"/admin/entries/{entry}/withdraw", data=form).headers["Location"] == "/admin/sign-in"
    assert client.get(f"/api/entries/{entry}").json["withdrawn"] is None


def test_a_copy_of_the_organisers_cookie_is_worthless_after_sign_out(app, league_db):
    client = organiser_signed_in(app, league_db)
    copied = client.get_cookie(COOKIE).value
    assert client.post("/admin/sign-out", data={"csrf_token": token(client, "/admin/")}).status_code == 303
    client.set_cookie(COOKIE, copied)
    assert client.get("/admin/").headers["Location"] == "/admin/sign-in"
    other = app.test_client()
    other.set_cookie(COOKIE, copied)
    assert other.get("/admin/").status_code == 303


def test_the_play_cookie_holds_no_key(app):
    client = app.test_client()
    key = player_key(client, "Ada")
    player_signed_in(client, key)
    cookie = client.get_cookie(COOKIE).value
    held = app.session_interface.get_signing_serializer(app).loads(cookie)
    assert key not in cookie and key not in repr(held)
    assert set(held) == {"play", "csrf_token"}


def test_a_player_signs_out_of_play_and_a_copied_cookie_stays_out(app):
    client = app.test_client()
    player_signed_in(client, player_key(client, "Ada"))
    copied = client.get_cookie(COOKIE).value
    assert is_signed_in_to_play(client)
    client.post(f"/play/{CODE}/sign-out", data={"csrf_token": token(client, f"/play/{CODE}")})
    assert not is_signed_in_to_play(client)
    client.set_cookie(COOKIE, copied)
    assert not is_signed_in_to_play(client)


def test_a_new_key_ends_the_old_one_and_the_other_devices_sessions(app):
    phone, laptop = app.test_client(), app.test_client()
    old = player_key(phone, "Ada")
    player_signed_in(phone, old)
    player_signed_in(laptop, old)
    answer = phone.post(f"/play/{CODE}/new-key", data={"csrf_token": token(phone, f"/play/{CODE}")})
    new = re.search(r'<code class="key" id="key">([^<]+)</code>', answer.get_data(as_text=True)).group(1)
    assert new != old
    assert is_signed_in_to_play(phone) and not is_signed_in_to_play(laptop)
    log = games(1)[0].by(None)
    refused = laptop.post("/api/submissions", data=log, content_type="text/plain",
                          headers={"Authorization": f"Bearer {old}"})
    assert refused.status_code == 401
    page = laptop.post(f"/play/{CODE}/key", data={"key": old, "csrf_token": token(laptop, f"/play/{CODE}")})
    assert page.status_code == 403
    taken = laptop.post("/api/submissions", data=log, content_type="text/plain",
                        headers={"Authorization": f"Bearer {new}"})
    assert taken.status_code == 201 and taken.json["player"] == "Ada"


def test_the_api_replaces_a_key_given_the_current_one(app):
    client = app.test_client()
    old = player_key(client, "Ada")
    assert client.post("/api/players/key", headers={"Authorization": "Bearer nope"}).status_code == 401
    answer = client.post("/api/players/key", headers={"Authorization": f"Bearer {old}"})
    assert answer.status_code == 200 and answer.json["name"] == "Ada" and answer.json["key"] != old
    again = client.post("/api/players/key", headers={"Authorization": f"Bearer {old}"})
    assert again.status_code == 401


@pytest.mark.parametrize("proxies, headers, secure", [
    (0, {}, False),
    (1, {"X-Forwarded-Proto": "https", "X-Forwarded-For": "10.0.0.1"}, True),
    (0, {"X-Forwarded-Proto": "https"}, False),  # no proxy trusted: the header is anyone's
])
def test_cookies_are_httponly_lax_and_secure_over_https(league_db, proxies, headers, secure):
    app = create_app(league_db, testing=True, proxies=proxies)
    client = app.test_client()
    answer = client.get("/register", headers=headers)
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert ("Secure" in cookie) is secure
    direct = app.test_client().get("/register", base_url="https://localhost")
    assert "Secure" in direct.headers["Set-Cookie"]


def test_the_submit_page_takes_the_play_session_of_its_browser(app):
    """Signed in on /play, a player submits on /submit without typing the key again; the
    entry is theirs, and after signing out the page asks for a key once more."""
    client = app.test_client()
    player_signed_in(client, player_key(client, "Ada"))
    page = client.get("/submit").get_data(as_text=True)
    assert "Signed in on this device as <bdi>Ada</bdi>" in page
    form = {"log": games(1)[0].by(None).decode(), "key": "", "csrf_token": token(client, "/submit")}
    answer = client.post("/submit", data=form)
    assert answer.status_code == 303, answer.get_data(as_text=True)
    number = int(answer.headers["Location"].split("/entries/")[1].split("?")[0])
    assert client.get(f"/api/entries/{number}").json["player"] == "Ada"
    signed_out = client.post(f"/play/{CODE}/sign-out", data={"csrf_token": token(client, f"/play/{CODE}")})
    assert signed_out.status_code == 303
    assert "Signed in on this device" not in client.get("/submit").get_data(as_text=True)
    form = {"log": games(2)[1].by(None).decode(), "key": "", "csrf_token": token(client, "/submit")}
    assert client.post("/submit", data=form).status_code == 401


def test_a_key_typed_on_the_submit_page_wins_over_the_session(app):
    client = app.test_client()
    player_signed_in(client, player_key(client, "Ada"))
    bo = player_key(client, "Bo")
    form = {"log": games(1)[0].by(None).decode(), "key": bo, "csrf_token": token(client, "/submit")}
    answer = client.post("/submit", data=form)
    assert answer.status_code == 303
    number = int(answer.headers["Location"].split("/entries/")[1].split("?")[0])
    assert client.get(f"/api/entries/{number}").json["player"] == "Bo"
