"""The standings page: hostile player names stay text, every entry links to its replay
report, nothing is fetched from the network, and a real browser shows the ranking."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from explicit_maps import CLUBS_AUTOMA, CLUBS_AUTOMA_TEXT
from league_logs import CODE, games, write_logs

HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>&amp;'
CHROMIUM = "/usr/bin/chromium"


class Page(HTMLParser):
    """The ranking rows (rank and player text), the links, any script and remote URL."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict] = []
        self.links: list[str] = []
        self.scripts = 0
        self.remote: list[str] = []
        self._cell: str | None = None
        self._in_ranking = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script":
            self.scripts += 1
        for value in attrs.values():
            if value and re.match(r"\s*(https?:)?//", value):
                self.remote.append(value)
        if tag == "table":
            self._in_ranking = "ranking" in (attrs.get("class") or "").split()
        if tag == "tr" and self._in_ranking and "data-rank" in attrs:
            self.rows.append({"data-rank": attrs["data-rank"], "rank": "", "player": ""})
        if tag == "td" and self.rows and self._in_ranking:
            classes = (attrs.get("class") or "").split()
            self._cell = "rank" if "rank" in classes else "player" if "player" in classes else None
        if tag == "a":
            self.links.append(attrs.get("href", ""))

    def handle_endtag(self, tag):
        if tag == "td":
            self._cell = None
        if tag == "table":
            self._in_ranking = False

    def handle_data(self, data):
        if self._cell is not None and self.rows:
            self.rows[-1][self._cell] += data


def parse(html: str) -> Page:
    page = Page()
    page.feed(html)
    return page


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    """A league of four players on one challenge, one of them with a hostile name, and one
    invalid entry, published as a page; with the expected ranking worked out from the logs."""
    root = tmp_path_factory.mktemp("site")
    pool = sorted(games(60), key=lambda g: (-g.score, g.turns))
    chosen = [pool[0], pool[5], pool[20], pool[40]]
    names = ["Ada", HOSTILE, "Bo", "Cy"]
    logs = {f"{k}.log": g.by(name) for k, (g, name) in enumerate(zip(chosen, names, strict=True))}
    logs["bad.log"] = pool[1].by("Mallory").decode().replace("claim:", "claim: victory 99\n#", 1).encode()
    write_logs(root / "inbox", logs)
    db = root / "l.db"
    (root / "out").mkdir()
    runner = CliRunner()
    assert runner.invoke(cli, ["league", "init", str(db)]).exit_code == 0
    assert runner.invoke(cli, ["league", "submit", str(db), str(root / "inbox")]).exit_code == 0
    page = root / "out" / "standings.html"
    result = runner.invoke(cli, ["league", "standings", str(db), "--html", str(page)])
    assert result.exit_code == 0, result.output
    expected = sorted(zip(chosen, names, strict=True), key=lambda gn: (-gn[0].score, gn[0].turns))
    return root / "out" / "standings.html", [name for _, name in expected]


def test_a_hostile_player_name_is_text_not_markup(published):
    page_path, _ = published
    html = page_path.read_text(encoding="utf-8")
    assert "<script>" not in html and "onerror=alert" not in html.replace("onerror=alert(1)&gt;", "")
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html
    page = parse(html)
    assert page.scripts == 0 and page.remote == []
    assert HOSTILE in [row["player"].strip() for row in page.rows]


def test_the_page_ranks_as_the_logs_say_and_links_each_entry_to_its_report(published):
    page_path, expected = published
    page = parse(page_path.read_text(encoding="utf-8"))
    assert [row["player"].strip() for row in page.rows] == expected
    assert [row["rank"].strip() for row in page.rows] == ["1", "2", "3", "4"]
    assert len(page.links) == 5  # four ranked, one unranked
    for href in page.links:
        report = page_path.parent / href
        assert report.is_file() and "mission log verification" in report.read_text(encoding="utf-8")
    assert CODE in page_path.read_text(encoding="utf-8")


def test_the_page_fits_a_phone_screen(published):
    html = published[0].read_text(encoding="utf-8")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert "@media (max-width: 640px)" in html


def chromium(*args: str) -> subprocess.CompletedProcess:
    profile = tempfile.mkdtemp(prefix="bgrid-chromium-")
    try:
        return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                               "--disable-background-networking", "--no-first-run",
                               f"--user-data-dir={profile}", *args],
                              capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="chromium is not installed")
def test_a_browser_shows_the_ranking_on_a_phone_sized_screen(published, tmp_path):
    page_path, expected = published
    url = page_path.resolve().as_uri()
    dom = chromium("--dump-dom", url)
    assert dom.returncode == 0, dom.stderr
    page = parse(dom.stdout)
    assert page.scripts == 0
    assert [row["player"].strip() for row in page.rows] == expected
    shot = tmp_path / "standings-phone.png"
    chromium(f"--screenshot={shot}", "--window-size=390,844", url)
    assert shot.is_file() and shot.stat().st_size > 5000
    if os.environ.get("BGRID_KEEP_SCREENSHOT"):  # to look at it by eye
        shutil.copy(shot, Path(os.environ["BGRID_KEEP_SCREENSHOT"]))


def test_an_entrys_replay_report_says_a_clubs_automa_card_holds_the_artillery(tmp_path):
    write_logs(tmp_path / "inbox", {"ada.log": CLUBS_AUTOMA.encode()})
    db, page = tmp_path / "l.db", tmp_path / "standings.html"
    runner = CliRunner()
    for args in (["init", str(db)], ["submit", str(db), str(tmp_path / "inbox")],
                 ["standings", str(db), "--html", str(page)]):
        assert runner.invoke(cli, ["league", *args]).exit_code == 0
    report, = (tmp_path / "standings-reports").glob("*.html")
    assert f'<span class="gloss">{CLUBS_AUTOMA_TEXT}</span>' in report.read_text(encoding="utf-8")
