"""A league on a full or a read-only disk says so: "the disk is full", "the league file is
read-only", never SQLite's "cannot rollback - no transaction is active" (a second ROLLBACK
after SQLite had rolled back itself) or "not a league database".

Each test mounts a small tmpfs of its own (root only; skipped elsewhere), unmounted at the end."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from league_logs import CODE, games, write_logs


@pytest.fixture
def small_disk(tmp_path):
    mount = tmp_path / "disk"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
                          capture_output=True)
    if made.returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (needs root)")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def run(*args):
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stderr


def test_a_full_disk_is_said_as_such(small_disk, tmp_path):
    league = str(small_disk / "league.db")
    assert run("league", "init", league)[0] == 0
    inbox = tmp_path / "inbox"
    write_logs(inbox, {f"g{k:03d}.log": g.by(f"P{k}") for k, g in enumerate(games(400))})  # ~1.5 MB
    status, err = run("league", "submit", league, str(inbox))
    assert status == 2
    assert err.strip().endswith("failed: the disk is full: nothing of this write was kept; free some "
                                "space and try again"), err
    assert "rollback" not in err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a read-only remount is Linux's")
def test_a_league_on_a_read_only_disk_is_said_read_only(small_disk, tmp_path):
    league = str(small_disk / "league.db")
    assert run("league", "init", league)[0] == 0
    assert run("league", "open", league, CODE, "--from", "2000-01-01", "--until", "2100-01-01")[0] == 0
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    log = tmp_path / "a.log"
    log.write_bytes(games(1)[0].by("Ada"))
    for args in (["league", "submit", league, str(log)],
                 ["league", "init", league, "--admin-key-file", str(tmp_path / "new.key")]):
        status, err = run(*args)
        assert status == 2, err
        assert "is read-only (a read-only disk or folder, or another user's file)" in err, err
        assert "not a league database" not in err
    assert not (tmp_path / "new.key").exists()
    assert run("league", "list", league)[0] == 0  # reading still works
