"""The replay report in a real browser: headless Chromium loads the page at a turn (the
address ``#log-1:turn=N`` is the page's own way to step) and the DOM it ends with is checked.
Skipped where no Chromium is installed (Debian package ``chromium``).

The artillery positions are the worked log's own hand-worked comments
(tests/logs/worked/challenge-crash.log): start A10 C5 D6 H7; after turn 1 A9 C4 D5 H6; after
turn 2 A8 C3 D4 H5; after turn 3 B8 D3 E4 H5; after turn 4 (and at the end) C8 E3 E4 H5.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bgrid.verifier.report_html import render_report
from bgrid.verifier.verify import verify_log

WORKED = Path(__file__).parent / "logs" / "worked" / "challenge-crash.log"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
AFTER_TURN = {0: "A10 C5 D6 H7", 1: "A9 C4 D5 H6", 2: "A8 C3 D4 H5", 3: "B8 D3 E4 H5",
              4: "C8 E3 E4 H5", 5: "C8 E3 E4 H5"}


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("report") / "report.html"
    path.write_text(render_report([verify_log(WORKED.read_bytes(), "worked.log", history=True)]),
                    encoding="utf-8")
    return path


def shown_artillery(html: str) -> str:
    """The artillery discs not hidden, in board order (each disc carries its number, R43)."""
    found = re.findall(r'<g([^>]*)>\s*<circle [^>]*r="14" fill="#333"[^>]*>(?:</circle>)?\s*'
                       r'<text[^>]*>(\d)</text>\s*<title>artillery (\d) \((\w+)\)</title>', html)
    assert found and all(shown == named for _, shown, named, _ in found)
    return " ".join(sorted((cell for attrs, _, _, cell in found if "gone" not in attrs),
                           key=lambda c: (c[0], int(c[1:]))))


def shown_path_turns(html: str) -> list[int]:
    groups = re.findall(r'<g data-first="(\d+)" data-last=""( class="[^"]*")?>\s*<polyline', html)
    return [int(first) for first, cls in groups if "gone" not in cls]


def test_without_script_the_page_shows_the_end_of_the_mission(page):
    html = page.read_text(encoding="utf-8")
    assert shown_artillery(html) == AFTER_TURN[5]
    assert shown_path_turns(html) == [1, 2, 4, 5]  # turn 3 fired guns and never moved
    assert '<div class="stepper" hidden>' in html  # the buttons need the script
    assert html.count("<script>") == 1 and "http" not in html.replace("http://www.w3.org/2000/svg", "")


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (Debian package chromium)")
@pytest.mark.parametrize("turn", [0, 2, 4])
def test_stepping_to_a_turn_shows_the_board_of_that_turn(page, tmp_path, turn):
    dom = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--no-first-run", f"--user-data-dir={tmp_path}", "--dump-dom",
         f"{page.as_uri()}#log-1:turn={turn}"],
        capture_output=True, text=True, timeout=60, check=True).stdout
    assert f"<output>{'start' if turn == 0 else f'turn {turn} of 5'}</output>" in dom
    assert shown_artillery(dom) == AFTER_TURN[turn]
    assert shown_path_turns(dom) == [t for t in (1, 2, 4, 5) if t <= turn]
    now = re.findall(r'<li id="log-1-line-(\d+)" data-turn="(\d+)" class="[^"]*now', dom)
    assert now and all(int(t) == turn for _, t in now)
    assert '<div class="stepper">' in dom or '<div class="stepper" hidden="">' not in dom


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (Debian package chromium)")
@pytest.mark.parametrize("width, mobile", [(390, True), (1280, False)])
def test_the_board_fits_a_phone_and_keeps_its_size_on_a_desk(page, width, mobile):
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-gpu", "--no-first-run"])
        try:
            tab = browser.new_page(viewport={"width": width, "height": 900}, is_mobile=mobile)
            tab.goto(page.as_uri())
            scroll_width = tab.evaluate("document.documentElement.scrollWidth")
            board = tab.evaluate("(() => { const r = document.querySelector('.board svg')"
                                 ".getBoundingClientRect();"
                                 " return [r.left, r.right, r.width, r.height]; })()")
            label = tab.evaluate("document.querySelector('.board svg text').getBoundingClientRect().height")
        finally:
            browser.close()
    left, right, board_width, board_height = board
    assert scroll_width <= width  # no sideways scroll
    assert 0 <= left and right <= width and board_width == pytest.approx(board_height, abs=1)  # square
    if mobile:
        assert board_width >= width * 0.85  # the board takes the phone's width ...
        assert label >= 9  # ... and its letters stay readable (12 px at full size, not 6)
    else:
        assert board_width == 660  # 11 cells of 60 px, as printed before
