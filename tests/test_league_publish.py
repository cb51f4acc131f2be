"""Publishing a league: the replay reports show the whole mission, name no local path, go
through the same text cleaning as every page, are rewritten when an older bgrid made them and
kept when current, and nothing planted in the reports folder is followed or linked.

Each test names the hostile or mistaken input it guards against and what publishing does with it.
"""

from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from league_logs import CODE, games, write_logs


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture
def league(tmp_path):
    """Three players' logs sent in from folders whose names give away the organiser's machine
    (an e-mail address in one), and the league they were submitted to."""
    inbox = tmp_path / "home" / "ada.lovelace@example.org" / "inbox"
    pool = sorted(games(12), key=lambda g: -g.turns)
    write_logs(inbox, {"ada.log": pool[0].by("Ada"), "bo.log": pool[1].by("Ada\u202egnp.exe"),
                       "cy.log": pool[2].by("Cy"),
                       # an invalid and an incomplete entry, without a player: line
                       "dee.log": pool[3].by(None).replace(b"claim:", b"claim: victory 99\n#", 1),
                       "eve.log": b"\n".join(pool[4].by(None).split(b"\n")[:12]) + b"\n"})
    db = tmp_path / "l.db"
    assert run("league", "init", db).exit_code == 0
    assert run("league", "submit", db, inbox).exit_code == 0
    return db, pool[0]


def reports_of(page: Path) -> dict[str, str]:
    folder = page.parent / f"{page.stem}-reports"
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir())}


def test_a_published_report_replays_every_turn_of_the_mission(league, tmp_path):
    """A published report replays the whole mission, all 21 turns with paths and trails, as
    ``bgrid verify --html`` of the same log does: the report needs the replay's history, not
    the verdict alone (without it every report reads "turn 1 of 1")."""
    db, longest = league
    page = tmp_path / "site" / "standings.html"
    page.parent.mkdir()
    assert run("league", "standings", db, "--html", page).exit_code == 0
    turns = {int(m) for text in reports_of(page).values()
             for m in re.findall(r"<output>turn (\d+) of \1</output>", text)}
    assert longest.turns in turns and longest.turns > 5
    assert all("turn 1 of 1</output>" not in text for text in reports_of(page).values())


def test_nothing_published_names_a_path_of_the_submitting_machine(league, tmp_path):
    """No report shows the submitted file's path: a folder name may hold an e-mail address."""
    db, _ = league
    page = tmp_path / "site" / "standings.html"
    page.parent.mkdir()
    assert run("league", "standings", db, "--html", page).exit_code == 0
    published = b"".join(p.read_bytes() for p in page.parent.rglob("*") if p.is_file())
    assert b"invalid" in published and b"incomplete" in published
    for leak in (str(tmp_path), "example.org", "ada.lovelace", "inbox", "ada.log", "bo.log", "/home"):
        assert leak.encode() not in published, leak
    assert b"entry #1" in published


def test_a_report_goes_through_the_same_cleaning_as_every_page(league, tmp_path):
    """The league's reports go through the text cleaning ``verify --html`` applies: raw, the
    player ``Ada\\u202egnp.exe`` shows in Chromium as "Adaexe.png"."""
    db, _ = league
    page = tmp_path / "site" / "standings.html"
    page.parent.mkdir()
    assert run("league", "standings", db, "--html", page, "--title", "Week \u202e49\x1b").exit_code == 0
    for path in page.parent.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert "\u202e" not in text and "\x1b" not in text, path.name
    assert any("Adagnp.exe" in text for text in reports_of(page).values())


def test_a_site_published_by_the_defective_version_is_republished_with_full_reports(league, tmp_path):
    """A report of an older format (no history, no format mark) is rewritten on the next
    publish; a current one is kept, so a second republish writes none."""
    from bgrid.league.page import REPORT_FORMAT

    db, longest = league
    page = tmp_path / "site" / "standings.html"
    page.parent.mkdir()
    assert run("league", "standings", db, "--html", page).exit_code == 0
    folder = page.parent / "standings-reports"
    old = "<!DOCTYPE html>\n<html><body><output>turn 1 of 1</output> ada.log</body></html>\n"
    for report in folder.iterdir():  # what bgrid c92c520 left: every report "turn 1 of 1"
        report.write_text(old, encoding="utf-8")
    again = run("league", "standings", db, "--html", page)
    assert again.exit_code == 0 and "5 replay reports, 5 written" in again.output
    assert all(REPORT_FORMAT in text and "turn 1 of 1</output>" not in text
               for text in reports_of(page).values())
    mtimes = {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}
    third = run("league", "standings", db, "--html", page)
    assert third.exit_code == 0 and "5 replay reports, 0 written" in third.output
    assert mtimes == {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}


def test_a_symlink_planted_under_a_report_name_is_refused_not_linked(league, tmp_path):
    """A symlink (to /etc/passwd) planted under a report's name is refused, never kept and linked
    from the page."""
    db, _ = league
    page = tmp_path / "site" / "standings.html"
    folder = page.parent / "standings-reports"
    folder.mkdir(parents=True)
    vid = sqlite3.connect(db).execute("SELECT verification_id FROM entries LIMIT 1").fetchone()[0]
    (folder / f"{vid}.html").symlink_to("/etc/passwd")
    result = run("league", "standings", db, "--html", page)
    assert result.exit_code == 2 and "symbolic link" in result.output
    assert not page.exists() and os.readlink(folder / f"{vid}.html") == "/etc/passwd"
    assert sorted(p.name for p in folder.iterdir()) == [f"{vid}.html"]


def test_a_reports_folder_that_is_a_symlink_is_not_followed(league, tmp_path):
    """A reports folder that is itself a symlink is not followed."""
    db, _ = league
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "standings-reports").symlink_to(elsewhere)
    result = run("league", "standings", db, "--html", tmp_path / "site" / "standings.html")
    assert result.exit_code == 2 and "symbolic link" in result.output
    assert list(elsewhere.iterdir()) == [] and not (tmp_path / "site" / "standings.html").exists()


def test_a_mistyped_challenge_is_refused_with_the_leagues_codes(league, tmp_path):
    """A mistyped ``league standings --challenge 0GDR-FC73-W4X`` is refused with the league's
    codes (exit 2), not answered "no entries yet" with the page overwritten."""
    db, _ = league
    page = tmp_path / "standings.html"
    page.write_text("last week's page")
    for code in ("0GDR-FC73-W4X", "%"):
        result = run("league", "standings", db, "--challenge", code, "--html", page)
        assert result.exit_code == 2 and CODE in result.output, result.output
        assert result.output.count("\n") == 1
    assert page.read_text() == "last week's page" and not (tmp_path / "standings-reports").exists()


def test_a_page_name_that_is_not_utf8_links_its_reports(league, tmp_path):
    """``--html "$(printf 'bad\\xff\\xfe.html')"``: a page name that is not UTF-8 still links
    its reports, each href percent-encoded from the name's bytes."""
    db, _ = league
    name = os.fsdecode(b"bad\xff\xfe.html")
    result = CliRunner().invoke(cli, ["league", "standings", str(db), "--html", str(tmp_path / name)])
    assert result.exit_code == 0 and result.exception is None, repr(result.exception)
    html = (tmp_path / name).read_text(encoding="utf-8")
    assert 'href="bad%FF%FE-reports/' in html


def test_an_oversized_junk_file_is_kept_as_its_first_bytes_and_its_refusal(tmp_path):
    """An oversized junk file keeps only its first 4 KiB (at 1 MiB each, 7 such files would
    make an 11 MB database); ``league show`` and the published report still tell its refusal
    (E001) with the id it was recorded under."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for k in range(7):
        (inbox / f"junk{k}.log").write_bytes(bytes([65 + k]) * (3 << 20))
    db = tmp_path / "l.db"
    assert run("league", "init", db).exit_code == 0
    submitted = run("league", "submit", db, inbox)
    assert submitted.exit_code == 0 and "recorded 7" in submitted.output
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        stored = conn.execute("SELECT MAX(LENGTH(log)) FROM logs").fetchone()[0]
        vid = conn.execute("SELECT verification_id FROM entries WHERE id = 1").fetchone()[0]
    assert stored == 4096 and db.stat().st_size < 200_000
    shown = run("league", "show", db, "1")
    assert shown.exit_code == 1 and "E001" in shown.output and vid in shown.output
    page = tmp_path / "standings.html"
    assert run("league", "standings", db, "--html", page).exit_code == 0
    report = (tmp_path / "standings-reports" / f"{vid}.html").read_text(encoding="utf-8")
    assert "E001" in report and vid in report


def test_a_page_name_with_a_newline_and_an_escape_links_its_reports_encoded(league, tmp_path):
    """A newline or ESC in the page's file name is percent-encoded in every ``href``, never
    written raw."""
    db, _ = league
    page = tmp_path / "week\n\x1b[31m.html"
    result = run("league", "standings", db, "--html", page)
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    assert "\x1b" not in html and 'href="week%0A%1B%5B31m-reports/' in html


def test_what_a_killed_publish_left_in_the_reports_folder_is_not_published_again(league, tmp_path):
    """A SIGKILL while the reports are written leaves that batch's temporary files in the
    folder the README says to publish as it is (82-193 of them for 3,000 entries); the next
    publish removes them, even when every report is current and nothing is rewritten."""
    db, _ = league
    page = tmp_path / "standings.html"
    assert run("league", "standings", db, "--html", page).exit_code == 0
    folder = tmp_path / "standings-reports"
    gone = 2**22 + 1  # above Linux's default pid_max: no process has it
    for k in range(3):
        (folder / f".bgrid-{gone}-00000000000{k}.tmp").write_text("<!DOCTYPE html><p>half a rep")
    before = {p.name: p.stat().st_mtime_ns for p in folder.iterdir() if p.suffix == ".html"}
    assert run("league", "standings", db, "--html", page).exit_code == 0
    assert {p.name: p.stat().st_mtime_ns for p in folder.iterdir()} == before
