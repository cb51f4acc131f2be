"""A real browser (Playwright for Python on the system Chromium, headless) takes the
player's path through `bgrid serve`: register, download the pack, paste a log, read the
verdict with the replay, find yourself in the standings, on a 390-px phone and at 1280 px.
Screenshots go to the test's temporary folder (BGRID_SCREENSHOTS=DIR keeps them)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from browser import CHROMIUM, NO_CHROMIUM
from league_logs import CODE, games

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
if CHROMIUM is None:
    pytest.skip(
        NO_CHROMIUM + "; the browser tests are skipped",
        allow_module_level=True,
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("served")
    db = folder / "league.db"
    runner = CliRunner()
    assert runner.invoke(cli, ["league", "init", str(db)]).exit_code == 0
    assert (
        runner.invoke(
            cli, ["league", "open", str(db), CODE, "--from", "2000-01-01", "--until", "2100-01-01"]
        ).exit_code
        == 0
    )
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = subprocess.Popen(
        [str(Path(sys.executable).with_name("bgrid")), "serve", str(db), "--port", str(port),
         "--no-access-log"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(url + "/api/challenges", timeout=5).read()
            break
        except OSError:
            assert time.monotonic() < deadline and process.poll() is None, "the server did not start"
            time.sleep(0.2)
    yield url
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu", "--no-first-run"]
        )
        yield launched
        launched.close()


def shots(tmp_path) -> Path:
    kept = os.environ.get("BGRID_SCREENSHOTS")
    folder = Path(kept) if kept else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.mark.parametrize("width, name, game", [(390, "Phone Ada", 0), (1280, "Desk Bo", 1)])
def test_a_player_registers_downloads_submits_and_finds_themselves(
    server, browser, tmp_path, width, name, game
):
    folder = shots(tmp_path)
    context = browser.new_context(
        viewport={"width": width, "height": 900}, accept_downloads=True, java_script_enabled=True
    )
    page = context.new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

    page.goto(server + "/")
    page.get_by_role("link", name="Register").click()
    page.fill("#name", name)
    page.get_by_role("button", name="Register").click()
    key = page.inner_text("#key").strip()
    assert len(key) >= 32
    page.screenshot(path=str(folder / f"registered-{width}.png"), full_page=True)
    page.click("#keep-key")  # the form a password manager saves: on to the submit page
    assert page.url.endswith("/submit")

    page.goto(server + "/")
    with page.expect_download() as download:
        page.get_by_role("link", name="sheet-a4.pdf").first.click()
    saved = tmp_path / "sheet.pdf"
    download.value.save_as(saved)
    assert saved.read_bytes().startswith(b"%PDF")
    with page.expect_download() as download:
        page.get_by_role("link", name="map.json").first.click()
    assert CODE in Path(download.value.path()).read_text()

    page.get_by_role("link", name="Submit a log").first.click()
    page.fill("#key", key)
    log = games(4)[game].by(name).decode()
    # first another player's log: refused, and the page keeps the key and the text
    page.fill("#log", games(4)[game].by("Someone Else").decode())
    page.get_by_role("button", name="Submit").click()
    assert "names 'Someone Else'" in page.inner_text("#refusal")
    assert page.input_value("#key") == key and "Someone Else" in page.input_value("#log")
    page.screenshot(path=str(folder / f"refused-{width}.png"), full_page=True)
    page.fill("#log", log)
    page.get_by_role("button", name="Submit").click()
    assert "/entries/" in page.url
    heading = page.inner_text("h1")
    assert "valid" in heading
    assert str(games(4)[game].score) in page.inner_text("main")
    assert " of " in page.inner_text("#place")  # its place in the standings
    page.screenshot(path=str(folder / f"verdict-{width}.png"), full_page=True)
    # the replay, its own page (the whole course without script), with the league's bar
    page.click("#replay-link")
    page.locator("svg").first.wait_for(state="visible", timeout=60_000)
    assert "mission log verification" in page.inner_text("h1")
    assert page.locator("svg polyline").count() > 1  # the bomber's path, turn by turn (the whole course)
    assert not page.locator(".stepper").is_visible()  # its buttons need the script the CSP refuses
    number = page.url.split("/")[-2]
    bar = page.locator("nav.site a").all_inner_texts()
    assert bar == ["B-Grid league", f"Entry #{number}", f"Standings of {CODE}"]
    if width <= 640:  # on a phone the page scrolls, never a box inside it
        assert page.evaluate("(() => { const l = document.querySelector('ol.log');"
                             " return l.scrollHeight <= l.clientHeight + 1; })()")
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    page.screenshot(path=str(folder / f"replay-{width}.png"), full_page=True)
    page.locator("nav.site a", has_text="Entry #").click()
    assert "/entries/" in page.url and "/replay" not in page.url

    page.goto(f"{server}/challenges/{CODE}")
    row = page.locator("tr", has_text=name)
    assert row.count() == 1 and str(games(4)[game].score) in row.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1  # no sideways scroll
    page.screenshot(path=str(folder / f"challenge-{width}.png"), full_page=True)
    # the pages send no script of their own; the replay's inline stepper is refused by the CSP
    # (and the refused submission's 422, which the console reports as a failed load)
    expected = ("violates", "Content Security Policy", "status of 422")
    assert all(any(words in e for words in expected) for e in errors), errors
    context.close()


def test_the_pages_work_without_javascript(server, browser):
    context = browser.new_context(viewport={"width": 390, "height": 800}, java_script_enabled=False)
    page = context.new_page()
    page.goto(server + "/register")
    page.fill("#name", "No Script")
    page.get_by_role("button", name="Register").click()
    key = page.inner_text("#key").strip()
    page.goto(server + "/submit")
    page.fill("#key", key)
    page.fill("#log", games(4)[2].by("No Script").decode())
    page.get_by_role("button", name="Submit").click()
    assert "/entries/" in page.url and "valid" in page.inner_text("h1")
    context.close()
