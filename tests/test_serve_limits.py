"""Rate limits an address's, whatever the route: registrations on the API and the page count
together, and so do wrong keys (organiser sign-in and API, /play's key form, a key
replacement, a submission); a wrong organiser key is written to the audit log."""

from __future__ import annotations

import re

import pytest

from bgrid.league import open_league
from bgrid.league.admin import audit_log
from bgrid.web import create_app
from league_logs import CODE, games

PLAYER, OTHER = {"REMOTE_ADDR": "10.0.0.1"}, {"REMOTE_ADDR": "10.0.0.2"}


@pytest.fixture
def app(league_db):
    return create_app(league_db, testing=True, register_limit="3 per hour", submit_limit="100 per minute")


def token(client, path, where=PLAYER):
    page = client.get(path, environ_base=where).get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def refusals(league_db):
    conn = open_league(league_db, write=False)
    try:
        return [line for line in audit_log(conn) if line["action"] == "organiser key refused"]
    finally:
        conn.close()


def test_registrations_count_per_address_across_the_api_and_the_page(app):
    client = app.test_client()
    for k in range(3):
        assert client.post("/api/players", json={"name": f"a{k}"}, environ_base=PLAYER).status_code == 201
    form = {"name": "a9", "csrf_token": token(client, "/register")}
    assert client.post("/register", data=form, environ_base=PLAYER).status_code == 429
    assert client.post("/register", data=form, environ_base=OTHER).status_code == 201


def test_wrong_keys_count_per_address_across_every_route_that_takes_one(app):
    client = app.test_client()
    right = client.post("/api/players", json={"name": "Ada"}, environ_base=OTHER).json["key"]
    wrong = {"Authorization": "Bearer not-a-key"}
    form = {"key": "not-a-key", "csrf_token": token(client, f"/play/{CODE}")}
    assert client.post(f"/play/{CODE}/key", data=form, environ_base=PLAYER).status_code == 403
    assert client.post("/api/players/key", headers=wrong, environ_base=PLAYER).status_code == 401
    assert client.post("/api/submissions", data=b"x", headers=wrong, content_type="text/plain",
                       environ_base=PLAYER).status_code == 401
    # spent: the sign-in forms refuse before looking at the key, even a right one
    form["key"] = right
    assert client.post(f"/play/{CODE}/key", data=form, environ_base=PLAYER).status_code == 429
    assert client.post("/api/submissions", data=b"x", headers=wrong, content_type="text/plain",
                       environ_base=PLAYER).status_code == 429
    # a right key still submits from that address: others' wrong keys never refuse it
    taken = client.post("/api/submissions", data=games(1)[0].by(None), content_type="text/plain",
                        headers={"Authorization": f"Bearer {right}"}, environ_base=PLAYER)
    assert taken.status_code == 201
    assert client.post(f"/play/{CODE}/key", data=form, environ_base=OTHER).status_code == 303


def test_wrong_organiser_keys_are_limited_and_audited(app, league_db):
    client = app.test_client()
    organiser = (league_db.parent / "org.key").read_text().strip()
    for _ in range(2):
        form = {"key": "guess", "csrf_token": token(client, "/admin/sign-in")}
        assert client.post("/admin/sign-in", data=form, environ_base=PLAYER).status_code == 401
    api = client.post("/api/admin/entries/1/withdraw", json={"reason": "x"},
                      headers={"Authorization": "Bearer guess"}, environ_base=PLAYER)
    assert api.status_code == 401
    assert [(r["target"], r["reason"]) for r in refusals(league_db)] == [
        ("/admin/sign-in", "a wrong organiser key from 10.0.0.1")] * 2 + [
        ("/api/admin/entries/1/withdraw", "a wrong organiser key from 10.0.0.1")]
    form = {"key": organiser, "csrf_token": token(client, "/admin/sign-in")}
    spent = client.post("/admin/sign-in", data=form, environ_base=PLAYER)
    assert spent.status_code == 429
    for _ in range(50):  # a flood from the spent address adds nothing to the audit log
        client.post("/api/admin/entries/1/withdraw", json={"reason": "x"},
                    headers={"Authorization": "Bearer guess"}, environ_base=PLAYER)
    assert len(refusals(league_db)) == 3
    assert client.post("/admin/sign-in", data=form, environ_base=OTHER).status_code == 303
