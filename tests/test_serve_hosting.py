"""The server as hosted behind a proxy, without one running (tests/test_deploy_proxies.py runs
the real ones): the forms' origin check, ``Retry-After`` on a 429, ``GET /healthz`` and the
access log."""

from __future__ import annotations

import logging
import re
import subprocess
import sys

from bgrid.web import create_app
from league_server import UNLIMITED, csrf_token as token

HTTPS_SITE = "https://league.example.org"


def app_over(league_db, proxies=1, **limits):
    limits = {"submit_limit": UNLIMITED, "register_limit": UNLIMITED, **limits}
    return create_app(league_db, testing=True, proxies=proxies, **limits)


def register(client, name, headers=None, base_url="http://localhost/"):
    headers = headers or {}
    data = {"name": name, "csrf_token": token(client, "/register", headers=headers, base_url=base_url)}
    return client.post("/register", data=data, headers=headers, base_url=base_url)


# what nginx passes with its default Host and X-Forwarded-Proto $scheme: the upstream's address
NGINX_DEFAULT = {"Host": "127.0.0.1:8000", "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.5"}


def test_a_form_through_nginx_with_its_default_host_works_in_a_browser_sending_sec_fetch_site(league_db):
    """Today's main refused it: "the form has expired or did not come from this site (The
    referrer does not match the host.); reload the page and send it again"."""
    client = app_over(league_db).test_client()
    headers = {**NGINX_DEFAULT, "Origin": HTTPS_SITE, "Referer": HTTPS_SITE + "/register",
               "Sec-Fetch-Site": "same-origin"}
    answer = register(client, "Ada", headers=headers)
    assert answer.status_code == 201, answer.get_data(as_text=True)
    # the key page tells the player the address they used, https included
    assert f"{HTTPS_SITE}/api/submissions" in answer.get_data(as_text=True)


def test_x_forwarded_host_from_the_trusted_proxy_is_the_address_the_form_is_checked_against(league_db):
    client = app_over(league_db).test_client()
    headers = {**NGINX_DEFAULT, "X-Forwarded-Host": "league.example.org", "Origin": HTTPS_SITE}
    answer = register(client, "Ada", headers=headers)
    assert answer.status_code == 201, answer.get_data(as_text=True)


def test_without_a_trusted_proxy_x_forwarded_host_is_not_believed(league_db, caplog):
    """A direct client over https naming another host is refused however it sets X-Forwarded-*."""
    client = app_over(league_db, proxies=0).test_client()
    headers = {"X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https", "Origin": "https://evil.example"}
    answer = register(client, "Ada", headers=headers, base_url=HTTPS_SITE + "/")
    assert answer.status_code == 400
    assert "another site" in answer.get_data(as_text=True)


def test_a_form_from_another_site_is_refused_whatever_the_proxy_passes(league_db):
    client = app_over(league_db).test_client()
    headers = {**NGINX_DEFAULT, "Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}
    answer = register(client, "Ada", headers=headers)
    assert answer.status_code == 400
    assert "another site" in answer.get_data(as_text=True)
    again = register(client, "Ada", headers={**NGINX_DEFAULT, "X-Forwarded-Host": "league.example.org",
                                             "Origin": "https://evil.example"})
    assert again.status_code == 400


def test_a_misconfigured_proxy_is_named_on_the_log_and_the_player_is_not_told_to_reload(league_db, caplog):
    """An older browser (no Sec-Fetch-Site) behind nginx's default Host: one log line naming
    the header to set; the player reads that the server is misconfigured."""
    client = app_over(league_db).test_client()
    headers = {**NGINX_DEFAULT, "Origin": "https://league.example.org:8443"}
    with caplog.at_level(logging.WARNING, logger="bgrid.web"):
        answer = register(client, "Ada", headers=headers)
        register(client, "Bob", headers=headers)
    text = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert "misconfigured" in text and "reload" not in text
    told = [r.getMessage() for r in caplog.records if "misconfigured proxy" in r.getMessage()]
    assert len(told) == 1 and "Host $http_host" in told[0], told


def test_every_429_carries_retry_after(league_db):
    """Today's main answered 429 without the header that web/rate_limits.py raised it with."""
    client = app_over(league_db, register_limit="1 per minute").test_client()
    assert client.post("/api/players", json={"name": "a1"}).status_code == 201
    api = client.post("/api/players", json={"name": "a2"})
    page = register(client, "a3")  # the page and the API share the address's registrations
    for answer in (api, page):
        assert answer.status_code == 429
        assert 1 <= int(answer.headers["Retry-After"]) <= 61


def test_healthz_gives_the_schema_and_the_open_challenges(league_db):
    from bgrid.league.store import SCHEMA_VERSION
    from league_logs import CODE

    answer = app_over(league_db).test_client().get("/healthz")
    assert answer.status_code == 200
    assert answer.json == {"status": "ok", "schema": SCHEMA_VERSION, "open_challenges": [CODE]}


def test_healthz_is_503_when_the_league_cannot_be_read(league_db):
    client = app_over(league_db).test_client()
    assert client.get("/healthz").status_code == 200
    league_db.write_bytes(b"not a league at all" * 300)
    answer = client.get("/healthz")
    assert answer.status_code == 503 and answer.json["status"] == "unavailable"


def test_the_access_log_has_one_line_a_request_and_never_a_key(league_db, caplog):
    client = app_over(league_db).test_client()
    with caplog.at_level(logging.INFO, logger="bgrid.web.access"):
        forwarded = {"X-Forwarded-For": "198.51.100.7"}
        registered = client.post("/api/players", json={"name": "Ada"}, headers=forwarded)
        key = registered.json["key"]
        registered.close()  # as the server does once it has sent the answer
        client.get("/api/challenges?key=" + key, headers={"Authorization": f"Bearer {key}"}).close()
    lines = [r.getMessage() for r in caplog.records if r.name == "bgrid.web.access"]
    assert len(lines) == 2, lines
    assert re.fullmatch(r"198\.51\.100\.7 POST /api/players 201 \d+ ms", lines[0]), lines[0]
    assert lines[1].split()[1:4] == ["GET", "/api/challenges", "200"]
    assert not any(key in line for line in lines)


def test_the_server_log_leaves_out_waitress_queue_depth_and_keeps_warnings():
    """Without this, waitress wrote "Task queue depth is 4" for every request that waited for
    a thread: a busy day's burst filled the server's stderr pipe, its workers blocked writing
    it, and gunicorn killed one (WORKER TIMEOUT)."""
    program = ("import logging; from bgrid.web import log_to_stderr; log_to_stderr(access=False); "
               "logging.getLogger('waitress.queue').warning('Task queue depth is %d', 4); "
               "logging.getLogger('bgrid.web').warning('misconfigured proxy: a test')")
    said = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert said.returncode == 0, said.stderr
    assert "queue depth" not in said.stderr
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ WARNING bgrid.web: misconfigured proxy: a test\n",
                        said.stderr), said.stderr
