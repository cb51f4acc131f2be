"""An entry's replay report (``/entries/N/replay``) is rendered once per entry and version
and served from memory after: the report of a 256 KiB log (a game followed by thousands of
``state`` lines, which R37 allows) cost 0.3 s of CPU and 2.4 MB on every anonymous GET. A
withdrawal, a restore or a rename of the player makes a new version."""

from __future__ import annotations

import pytest

from bgrid.league import open_league
from bgrid.league.admin import rename, restore, withdraw
from bgrid.verifier.report_html import render_report
from bgrid.web import pages
from league_logs import CODE, games
from league_server import NOW, league_client

TRAILING = "state alt 0\n" * 2000  # checks after the end: each line is shown in the report


@pytest.fixture
def renders(monkeypatch):
    made = []

    def counted(items, **options):
        made.append(items[0].source)
        return render_report(items, **options)

    monkeypatch.setattr(pages, "render_report", counted)
    return made


def test_a_replay_is_rendered_once_per_entry_and_version(league_db, renders):
    client = league_client(league_db)
    assert client.post("/api/players", json={"name": "Ada"}).status_code == 201
    key = client.post("/api/players", json={"name": "Bo"}).get_json()["key"]
    log = games(2)[1].by("Bo") + TRAILING.encode()
    answer = client.post("/api/submissions", data=log, headers={"Authorization": f"Bearer {key}"})
    assert answer.status_code == 201, answer.get_json()
    number = answer.get_json()["entry"]
    first = client.get(f"/entries/{number}/replay")
    assert first.status_code == 200 and first.mimetype == "text/html"
    way_back = [("B-Grid league", "/"), (f"Entry #{number}", f"/entries/{number}"),
                (f"Standings of {CODE}", f"/challenges/{CODE}")]
    assert first.get_data() == render_report([pages.verify_log(log, source=f"entry-{number}.log",
                                                                history=True)], links=way_back).encode()
    for _ in range(4):
        assert client.get(f"/entries/{number}/replay").get_data() == first.get_data()
    assert renders == [f"entry-{number}.log"]
    conn = open_league(league_db)
    for change in (lambda: withdraw(conn, number, "a test", NOW),
                   lambda: restore(conn, number, "a test", NOW),
                   lambda: rename(conn, "Bo", "Bob", "a test", NOW)):
        change()
        assert client.get(f"/entries/{number}/replay").status_code == 200
        assert client.get(f"/entries/{number}/replay").status_code == 200
    conn.close()
    # withdrawn, then restored (the first version again, still kept), then renamed
    assert len(renders) == 3
    assert client.get(f"/entries/{number + 1}/replay").status_code == 404


def test_the_kept_reports_are_bounded_in_bytes():
    cache = pages.ReportCache(kept_bytes=250)
    for k in range(10):
        cache.page(k, lambda: "x" * 100)
    assert list(cache._pages) == [8, 9]
    assert cache.page(9, lambda: "changed") == b"x" * 100
    assert cache.page(0, lambda: "new") == b"new"
