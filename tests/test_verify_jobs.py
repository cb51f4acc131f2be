"""``bgrid verify --jobs N``: the same output, in the same order, byte for byte, as one job."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgrid import cmd_verify
from bgrid.cli import cli

LOGS = Path(__file__).parent / "logs"


@pytest.fixture
def folder(tmp_path):
    """Valid, invalid and incomplete logs, worked and simulated, and one unreadable file."""
    for source in (LOGS / "corpus", LOGS / "worked"):
        for path in sorted(source.glob("*.log")):
            shutil.copy(path, tmp_path / f"{source.name}-{path.name}")
    (tmp_path / "zz-broken.log").write_bytes(b"\xff\xfe not a log")
    return tmp_path


@pytest.mark.parametrize("mode", [["--json"], [], ["--explain"], ["--quiet"]])
def test_jobs_give_the_same_bytes_as_one_job(folder, monkeypatch, mode):
    monkeypatch.setattr(cmd_verify, "PARALLEL_FROM", 2)  # the folder is small: use workers anyway
    runner = CliRunner()
    one = runner.invoke(cli, ["verify", str(folder), "--jobs", "1", *mode])
    three = runner.invoke(cli, ["verify", str(folder), "--jobs", "3", *mode])
    assert one.exit_code == three.exit_code == 1
    assert one.output == three.output
    assert one.output.count("invalid") >= 2


def test_jobs_must_be_at_least_one(folder):
    result = CliRunner().invoke(cli, ["verify", str(folder), "--jobs", "0"])
    assert result.exit_code == 2 and "--jobs" in result.output


FIFTH = "corpus-" + sorted(p.name for p in (LOGS / "corpus").glob("*.log"))[4]
_real_work = cmd_verify._work


def _dies_on_the_fifth_log(task):
    """A worker's task that kills its process (out of memory, kill -9) on one log; module-level
    so that the executor can hand it to the workers by name."""
    if task[0].path.endswith(FIFTH):
        os._exit(9)
    return _real_work(task)


def test_a_worker_that_dies_stops_the_run_with_exit_2_instead_of_hanging(folder, monkeypatch):
    monkeypatch.setattr(cmd_verify, "PARALLEL_FROM", 2)
    monkeypatch.setattr(cmd_verify, "_work", _dies_on_the_fifth_log)
    result = CliRunner().invoke(cli, ["verify", str(folder), "--jobs", "2"])
    assert result.exit_code == 2
    assert "a process verifying logs died" in result.output
