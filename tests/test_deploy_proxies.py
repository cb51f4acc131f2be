"""The league behind a real reverse proxy with TLS on 127.0.0.1: nginx (the distribution's) with
the kit's site (deploy/nginx-bgrid-league.conf) and with the set-ups organisers write (nginx's
default Host, ``Host $host`` on a port other than 443, ``Host $http_host``, a bare
``proxy_pass``), over https and http, and Caddy with deploy/Caddyfile. Through each, Chromium
takes the whole path: register, submit, the receipt, the standings, the organiser's sign-in
and a withdrawal. bgrid serve runs with the service unit's options (``--proxies 1``)."""

from __future__ import annotations

import shutil

import pytest

import proxied
from browser import CHROMIUM, NO_CHROMIUM
from league_logs import CODE, games
from league_server import served_league

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
if CHROMIUM is None:
    pytest.skip(NO_CHROMIUM, allow_module_level=True)
if proxied.NGINX is None:
    pytest.skip("no nginx on this machine (apt-get install nginx)", allow_module_level=True)
if shutil.which("openssl") is None:
    pytest.skip("no openssl to make the test's certificate", allow_module_level=True)

SETUPS = ["kit", "default-host", "host", "http-host", "bare", "kit-http"]


@pytest.fixture(scope="module")
def league(tmp_path_factory):
    folder = tmp_path_factory.mktemp("proxied")
    db = served_league(folder)
    cert, key = proxied.certificate(folder)
    backend = proxied.Backend(db, folder)
    yield folder, backend, cert, key, (folder / "org.key").read_text().strip()
    backend.stop()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox", "--disable-gpu", "--no-first-run"])
        yield launched
        launched.close()


def front(setup: str, folder, backend, cert, key):
    """The proxy of ``setup`` in front of ``backend``, started."""
    port = proxied.free_port()
    listen = f"{proxied.HOST}:{port}"
    if setup == "caddy":
        caddyfile = proxied.kit_caddyfile(port, backend.port, cert, key, folder / setup)
        return proxied.Caddy(folder / setup, caddyfile, port)
    if setup == "kit":
        site = proxied.kit_nginx_site(listen, backend.port, cert, key)
    elif setup == "kit-http":  # the kit's location block on plain HTTP (a test bench, a private network)
        site = proxied.kit_nginx_site(listen, backend.port, cert, key).replace(" ssl;", ";")
        site = "\n".join(line for line in site.splitlines() if "ssl_certificate" not in line)
    else:
        site = proxied.nginx_site(setup, listen, backend.port, cert, key)
    return proxied.Nginx(folder / setup, site, port)


def take_the_whole_path(browser, url: str, name: str, game: int, organiser_key: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, ignore_https_errors=True)
    page = context.new_page()
    try:
        page.goto(url + "/register")
        page.fill("#name", name)
        page.get_by_role("button", name="Register").click()
        assert page.locator("h1").inner_text().startswith("Welcome"), page.inner_text("main")
        shown = page.locator("#key")
        key = shown.input_value() if page.locator("input#key").count() else shown.inner_text().strip()
        # the address a script sends the key to is the one the player used, https and all
        page.locator("details summary", has_text="Submitting from a script").click()
        assert f"{url}/api/submissions" in page.locator("details").inner_text()

        page.goto(url + "/submit")
        page.fill("#key", key)
        page.fill("#log", games(8)[game].by(name).decode())
        page.get_by_role("button", name="Submit").click()
        assert "/entries/" in page.url, page.inner_text("main")
        assert "valid" in page.inner_text("h1")
        entry = page.url.rsplit("/entries/", 1)[1].split("?")[0]

        page.goto(f"{url}/challenges/{CODE}")
        assert page.locator("tr", has_text=name).count() == 1

        page.goto(url + "/admin/sign-in")
        page.fill("#key", organiser_key)
        page.get_by_role("button", name="Sign in").click()
        assert page.url.rstrip("/").endswith("/admin"), page.inner_text("main")
        row = page.locator("tr", has=page.locator(f"a[href='/entries/{entry}']"))
        row.locator("input[name=reason]").fill("a test withdrawal")
        row.get_by_role("button", name="Withdraw").click()
        assert f"entry #{entry}: withdraw done" in page.inner_text("main")

        page.goto(f"{url}/challenges/{CODE}")
        assert page.locator("tr", has_text=name).count() == 0
    finally:
        context.close()


@pytest.mark.parametrize("setup", SETUPS + ["caddy"])
def test_a_player_and_the_organiser_take_the_whole_path_through_the_proxy(league, browser, setup):
    folder, backend, cert, key, organiser_key = league
    if setup == "caddy" and proxied.CADDY is None:
        pytest.skip("no caddy on this machine (apt-get install caddy; Debian has it from bookworm)")
    proxy = front(setup, folder, backend, cert, key)
    try:
        game = (SETUPS + ["caddy"]).index(setup)
        take_the_whole_path(browser, proxy.url, f"Via {setup}", game, organiser_key)
    finally:
        proxy.stop()
    assert "Traceback" not in backend.log_text()
