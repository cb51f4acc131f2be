"""A league connection writes only to the file it opened: removed, replaced or truncated
under it, every write is refused with a line naming what happened, and a write committed
while the file went away is reported as not kept (a server answers 503, never 201).

Before the watch, a server whose league file was removed went on answering 201 into the
removed file (gone at its stop), and one whose file was truncated lost what it answered."""

from __future__ import annotations

import os
import shutil
import sqlite3
import threading
import time

import pytest

from bgrid.league import create_league, open_league
from bgrid.league.store import LeagueFileChanged, transaction


def settings(path) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT name, value FROM settings ORDER BY name").fetchall()


def write_setting(conn, name):
    with transaction(conn):
        conn.execute("INSERT INTO settings (name, value) VALUES (?, 'x')", (name,))


@pytest.fixture
def league(tmp_path):
    path = tmp_path / "league.db"
    create_league(path)
    conn = open_league(path)
    write_setting(conn, "before")  # the same connection writes while the file is the one opened
    yield path, conn
    conn.close()


def test_a_write_after_the_league_file_is_removed_is_refused(league):
    path, conn = league
    os.remove(path)
    with pytest.raises(LeagueFileChanged, match="league.db' was removed while in use: nothing more"):
        write_setting(conn, "after")
    assert not path.exists()  # nothing made a new, empty league under the name either


def test_a_write_after_the_league_file_is_replaced_is_refused(league, tmp_path):
    path, conn = league
    other = tmp_path / "other.db"
    create_league(other)
    os.replace(other, path)  # another league moved over the name (a restore done wrong)
    with pytest.raises(LeagueFileChanged, match="removed while in use, and another file put under its name"):
        write_setting(conn, "after")
    assert ("after", "x") not in settings(path)


def test_a_write_after_the_league_file_is_moved_and_copied_back_is_refused(league, tmp_path):
    path, conn = league
    os.replace(path, tmp_path / "moved.db")
    shutil.copyfile(tmp_path / "moved.db", path)  # the same bytes, another inode
    with pytest.raises(LeagueFileChanged, match="another file than the one opened"):
        write_setting(conn, "after")


@pytest.mark.parametrize("size", [0, 50, 4096])
def test_a_write_after_the_league_file_is_truncated_is_refused(league, size):
    path, conn = league
    with sqlite3.connect(path) as other:
        other.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every page in the file itself
    assert path.stat().st_size > 4096
    os.truncate(path, size)
    with pytest.raises(LeagueFileChanged, match="truncated"):
        write_setting(conn, "after")


def test_a_file_growing_to_its_header_size_as_a_checkpoint_writes_it_is_not_a_truncation(league):
    """Another worker's checkpoint writes page 1, with the new size, before the pages that make
    the file that long: a file short of its header for a moment is not a truncation (a 2-worker
    burst once answered such writes 500)."""
    path, conn = league
    with sqlite3.connect(path) as other:
        other.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    whole = path.read_bytes()
    assert len(whole) > 4096
    os.truncate(path, 4096)  # page 1 written, the rest still to come

    def rest_written() -> None:
        time.sleep(0.2)
        fd = os.open(path, os.O_WRONLY)
        try:
            os.pwrite(fd, whole[4096:], 4096)
        finally:
            os.close(fd)

    writer = threading.Thread(target=rest_written)
    writer.start()
    try:
        write_setting(conn, "after")
    finally:
        writer.join()
    assert ("after", "x") in settings(path)


def test_a_write_committed_while_the_file_is_removed_is_not_reported_as_kept(league):
    path, conn = league
    lost = "the last write went to the old file and is not in"
    with pytest.raises(LeagueFileChanged, match=lost), transaction(conn):
        conn.execute("INSERT INTO settings (name, value) VALUES ('during', 'x')")
        os.remove(path)


def test_the_watch_lets_every_write_through_while_the_file_stays(league):
    path, conn = league
    for k in range(20):
        write_setting(conn, f"w{k}")
    assert len(settings(path)) == 21
