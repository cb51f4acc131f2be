"""A league connection writes only to the file it opened: removed, replaced or truncated
under it, every write is refused with a line naming what happened, and a write committed
while the file went away is reported as not kept (a server answers 503, never 201).

Before the watch, a server whose league file was removed went on answering 201 into the
removed file (gone at its stop), and one whose file was truncated lost what it answered."""

from __future__ import annotations

import os
import pickle
import shutil
import sqlite3

import pytest

from bgrid.league import create_league, open_league
from bgrid.league.store import FileWatch, LeagueFileChanged, transaction


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


def test_the_refusal_names_the_problem_apart_and_survives_a_pickle(league):
    path, conn = league
    os.remove(path)
    with pytest.raises(LeagueFileChanged) as refused:
        write_setting(conn, "after")
    # the server logs each problem once, whichever write met it (web.app._unavailable)
    assert refused.value.problem == f"the league file '{path}' was removed while in use"
    again = pickle.loads(pickle.dumps(refused.value))
    assert (str(again), again.problem) == (str(refused.value), refused.value.problem)


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


def sqlite_file(path, pages_said: int, length: int) -> None:
    """A file with a SQLite header saying ``pages_said`` pages of 4096 bytes, ``length`` long
    (fileformat.html 1.3: the size at 28, valid as the change counter at 24 is repeated at 92)."""
    head = bytearray(b"SQLite format 3\0".ljust(100, b"\0"))
    head[16:18] = (4096).to_bytes(2, "big")
    head[24:28] = head[92:96] = (7).to_bytes(4, "big")
    head[28:32] = pages_said.to_bytes(4, "big")
    path.write_bytes(bytes(head).ljust(length, b"\0"))


def test_a_file_short_of_its_header_while_its_log_holds_frames_is_not_a_truncation(tmp_path):
    """In WAL mode the file is short of its header while the -wal holds the pages: a checkpoint
    (partial, or running in another worker) writes page 1 first. A 2-worker burst found such a
    file 211 pages long, its header saying 213, for minutes, and its writes were answered 500."""
    path = tmp_path / "league.db"
    sqlite_file(path, pages_said=213, length=211 * 4096)
    (tmp_path / "league.db-wal").write_bytes(bytes(32 + 24 + 4096))  # the log header and a frame
    watch = FileWatch(path)
    try:
        assert watch.problem() is None
        (tmp_path / "league.db-wal").write_bytes(bytes(32))  # a log with no frame: the pages are gone
        assert watch.problem() == (f"the league file '{path}' was truncated while in use "
                                   f"({211 * 4096} bytes, its header says {213 * 4096})")
    finally:
        watch.close()


def test_a_file_cut_below_what_the_watch_saw_is_a_truncation_whatever_the_log_holds(tmp_path):
    path = tmp_path / "league.db"
    sqlite_file(path, pages_said=213, length=213 * 4096)
    (tmp_path / "league.db-wal").write_bytes(bytes(32 + 24 + 4096))
    watch = FileWatch(path)
    try:
        assert watch.problem() is None
        os.truncate(path, 200 * 4096)
        assert watch.problem() == (f"the league file '{path}' was truncated while in use "
                                   f"({200 * 4096} bytes, it had {213 * 4096})")
    finally:
        watch.close()


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
