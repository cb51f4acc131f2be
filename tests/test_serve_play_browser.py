"""The table companion's phone face in a real browser: Chromium (Playwright) at 390 px with
JavaScript off plays a whole mission through ``bgrid serve`` by pressing the offered buttons
and filling the steps fields, then submits it; the entry is valid with the companion's score.
Screenshots go to the test's temporary folder (BGRID_SCREENSHOTS=DIR keeps them)."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

from bgrid.companion import Session
from bgrid.companion.autoplay import next_line
from league_logs import CODE
from test_serve_browser import CHROMIUM, browser, server, sync_api  # noqa: F401 - fixtures

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def shots(tmp_path):
    folder = Path(os.environ.get("BGRID_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_a_whole_mission_on_a_phone_without_javascript(server, browser, shots):  # noqa: F811
    page = browser.new_page(viewport=PHONE, java_script_enabled=False)
    page.goto(server + "/register")
    page.fill("#name", "Phone Ada")
    page.click("button[type=submit]")
    key = page.inner_text("#key").strip()
    page.goto(f"{server}/play/{CODE}")
    page.screenshot(path=str(shots / "play-key.png"), full_page=True)
    page.fill("#key", key)
    with page.expect_navigation():
        page.click("button[type=submit]")
    mirror = Session.start(f"bgrid-log: 1\nchallenge: {CODE}\nplayer: Phone Ada\n")
    rng = random.Random(3)
    moves = 0
    while not mirror.is_over:
        line = next_line(mirror, rng)
        assert mirror.submit(line).ok
        button = page.locator(f'button[name=statement][value="{line}"]')
        with page.expect_navigation():
            if button.count():
                button.first.click()
            else:  # a movement card with many ways: its steps in the field
                stem, steps = line.rsplit(" ", 1)
                field = page.locator(f'form:has(input[name=stem][value="{stem}"]) input[name=rest]')
                field.fill(steps)
                field.press("Enter")
        moves += 1
        if moves in (3, 12):
            page.screenshot(path=str(shots / f"play-{moves:02d}.png"), full_page=True)
        assert page.locator("#status").count(), page.content()
        assert not page.locator(".error-box").count(), page.inner_text(".error-box")
    assert page.locator("#result").count()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scroll
    page.screenshot(path=str(shots / "play-end.png"), full_page=True)
    with page.expect_navigation():
        page.click("#submit")
    assert re.search(r"/entries/\d+", page.url)
    text = page.inner_text("main")
    assert "valid" in text and f"{mirror.score} (" in text
    page.screenshot(path=str(shots / "play-entry.png"), full_page=True)
    page.close()
