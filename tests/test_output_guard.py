"""No output option of any command replaces a file the run reads or a database needs.

One guard (``safeio.safe_output.refuse_input_as_output``) answers "is this output also an
input?" for every command. The matrix below puts every output option next to the league's
database, its companion files (SQLite's write-ahead log ``-wal``, shared memory ``-shm`` and
rollback journal ``-journal``) and the file standard input reads; each run must be refused
with exit status 2 before anything is written, and every file left byte for byte as it was.

What an unguarded output would do: ``league standings lg.db --html lg.db-wal`` replaces the
write-ahead log (a concurrent ``league list`` then fails with "disk I/O error" and committed
entries are lost); ``bgrid verify - --html a.log < a.log`` replaces ``a.log``;
``bgrid sheet --header hdr.pdf --out hdr.pdf`` replaces the header log.
"""

from __future__ import annotations

import contextlib
import os

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.league import create_league

LOG = "bgrid-log: 1\nchallenge: 0M00-0001-WR3\n\nturn 1\n"

# command -> the arguments before the output path, the output option, a name for the stdin case
OUTPUTS = {
    "verify one --html": (["verify", "game.log", "--html"], "out.html"),
    "verify folder --html": (["verify", "logs", "--html"], "out.html"),
    "verify stdin --html": (["verify", "-", "--html"], "out.html"),
    "solve --write-log": (["solve", "--seed", "1", "--budget", "0.01", "--write-log"], "out.log"),
    "sheet --out": (["sheet", "--seed", "1", "--out"], "out.pdf"),
    "deck --out": (["deck", "--seed", "1", "--out"], "out.pdf"),
    "pack --out": (["pack", "--seed", "1", "--out"], None),
    "simulate --write-logs": (["simulate", "--seed", "1", "--games", "1", "--write-logs"], None),
    "daily --pack --out": (["daily", "--date", "2026-12-01", "--pack", "--out"], None),
    "league standings --html": (["league", "standings", "league.db", "--html"], "out.html"),
    "league init": (["league", "init"], None),
    "play --log": (["play", "--seed", "1", "--log"], "out.log"),
}
COMPANIONS = ["league.db-wal", "league.db-shm", "league.db-journal", "league.db"]


@pytest.fixture
def room(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.log").write_text(LOG)
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "a.log").write_text(LOG)
    (tmp_path / "logs" / "b.log").write_text(LOG.replace("turn 1", "turn 1\nenter 7S"))
    create_league(tmp_path / "league.db")
    for name in COMPANIONS[:3]:
        (tmp_path / name).write_bytes(b"what SQLite keeps beside the database " + name.encode())
    for name in ("out.html", "out.pdf", "out.log"):
        (tmp_path / name).write_text(LOG)  # what standard input will read
    return tmp_path


def snapshot(folder):
    return {str(p.relative_to(folder)): p.read_bytes() if p.is_file() else None
            for p in sorted(folder.rglob("*"))}


def assert_refused(result, before, after):
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.exception is None or \
        isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert after == before


@pytest.mark.parametrize("target", COMPANIONS)
@pytest.mark.parametrize("output", list(OUTPUTS))
def test_no_output_replaces_a_database_or_its_companion_file(room, output, target):
    args, _ = OUTPUTS[output]
    if output == "league init" and target == "league.db":
        pytest.skip("the league itself is what init names")
    before = snapshot(room)
    result = CliRunner().invoke(cli, [*args, target], input=LOG)
    assert_refused(result, before, snapshot(room))


KEY_FILE = (["league", "init", "league.db", "--admin-key-file"], None)


@pytest.mark.parametrize("target", COMPANIONS[:3])
@pytest.mark.parametrize("output", [*OUTPUTS, "league init --admin-key-file"])
def test_no_output_takes_the_name_of_a_companion_file_not_there_yet(room, output, target):
    """With the league closed its companion files are gone; an output named like one was
    written (the guard stopped at "a new name"), and the next open of the league deleted it:
    an organiser key lost, a page gone, a folder that left the league unopenable."""
    for name in COMPANIONS[:3]:
        (room / name).unlink()
    args, _ = KEY_FILE if output == "league init --admin-key-file" else OUTPUTS[output]
    before = snapshot(room)
    result = CliRunner().invoke(cli, [*args, target], input=LOG)
    assert_refused(result, before, snapshot(room))
    assert f"'{target[len('league.db'):]}' file of the database 'league.db'" in result.stderr


@pytest.mark.parametrize("target", ["new.db-wal", "new.db-journal", "new.db"])
def test_league_init_never_writes_the_key_over_the_league_it_creates(room, target):
    before = snapshot(room)
    result = CliRunner().invoke(cli, ["league", "init", "new.db", "--admin-key-file", target])
    assert_refused(result, before, snapshot(room))
    assert not (room / "new.db").exists()


@contextlib.contextmanager
def standard_input_from(path):
    """File descriptor 0 reading ``path``, as ``< path`` in a shell gives it."""
    saved = os.dup(0)
    fd = os.open(path, os.O_RDONLY)
    try:
        os.dup2(fd, 0)
        yield
    finally:
        os.dup2(saved, 0)
        os.close(fd)
        os.close(saved)


@pytest.mark.parametrize("output", [name for name, (_, stdin) in OUTPUTS.items() if stdin])
def test_no_output_replaces_the_file_standard_input_reads(room, output):
    args, name = OUTPUTS[output]
    before = snapshot(room)
    with standard_input_from(room / name):
        result = CliRunner().invoke(cli, [*args, name], input=LOG)
    assert_refused(result, before, snapshot(room))
    assert "standard input" in result.stderr


@pytest.mark.parametrize("command", ["sheet", "pack"])
def test_a_printable_never_replaces_its_header_log(room, command):
    """``bgrid sheet --header hdr.pdf --out hdr.pdf`` replaced the header log (solve refused)."""
    (room / "hdr.pdf").write_text(LOG)
    (room / "packs" / "0M00-0001-WR3").mkdir(parents=True)
    (room / "packs" / "0M00-0001-WR3" / "sheet-a4.pdf").write_text(LOG)
    before = snapshot(room)
    if command == "sheet":
        args = ["sheet", "--header", "hdr.pdf", "--out", "./hdr.pdf"]
    else:
        args = ["pack", "--header", "packs/0M00-0001-WR3/sheet-a4.pdf", "--out", "packs"]
    result = CliRunner().invoke(cli, args)
    assert_refused(result, before, snapshot(room))


@pytest.mark.parametrize("name", ["-", "newdir/"])
def test_an_output_name_that_is_no_file_name_is_refused(room, name):
    """``--html -`` would write a file named '-' (and a folder '--reports'), ``league init
    newdir/`` a file named 'newdir': both are refused, and nothing is written."""
    before = snapshot(room)
    for args in (["league", "standings", "league.db", "--html", name], ["league", "init", name],
                 ["verify", "game.log", "--html", name]):
        result = CliRunner().invoke(cli, args)
        assert_refused(result, before, snapshot(room))
