"""Outputs are written whole or not at all, never over an input, a symlink, a FIFO or a device,
and no temporary file survives a failure or an interrupt (safeio/safe_output.py and the
commands that write: verify --html, simulate --write-logs, sheet/deck/pack)."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.safeio import safe_output
from bgrid.safeio.safe_output import OutputError, write_atomic

LOG = "bgrid-log: 1\nseed: 1944\n\nturn 1\nenter 7H\n"


def run(args, **kwargs):
    return CliRunner().invoke(cli, args, **kwargs)


def leftovers(folder):
    """Every temporary file or folder under ``folder``."""
    return [os.path.join(d, n) for d, dirs, files in os.walk(folder) for n in dirs + files
            if n.endswith(".tmp")]


def test_a_failed_rename_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "sheet.pdf"
    target.write_bytes(b"old")

    def disk_full(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    with pytest.raises(OutputError, match="No space left"):
        write_atomic(target, b"new contents")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.pdf"]


def test_an_interrupt_while_writing_leaves_no_temporary(tmp_path):
    target = tmp_path / "report.html"
    with pytest.raises(KeyboardInterrupt), safe_output.open_atomic(target) as handle:
        handle.write("half")
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


def test_a_write_replaces_whole_with_ordinary_permissions(tmp_path):
    target = tmp_path / "a.bin"
    write_atomic(target, b"one")
    write_atomic(target, b"two")
    assert target.read_bytes() == b"two"
    assert [p.name for p in tmp_path.iterdir()] == ["a.bin"]
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask  # like open(), not mkstemp's 0600


def test_report_over_its_own_log_is_refused_and_the_log_kept(tmp_path):
    log = tmp_path / "ada.log"
    log.write_text(LOG)
    for spelling in (str(log), str(tmp_path / "." / "ada.log"), str(tmp_path / "x" / ".." / "ada.log")):
        (tmp_path / "x").mkdir(exist_ok=True)
        result = run(["verify", str(log), "--html", spelling])
        assert result.exit_code == 2, result.output
        assert "is one of the inputs" in result.output and result.output.count("\n") == 1
        assert log.read_text() == LOG


def test_report_over_a_log_of_the_verified_folder_is_refused(tmp_path):
    (tmp_path / "a.log").write_text(LOG)
    (tmp_path / "b.log").write_text(LOG)
    result = run(["verify", str(tmp_path), "--html", str(tmp_path / "b.log")])
    assert result.exit_code == 2 and "is one of the inputs" in result.output
    assert (tmp_path / "b.log").read_text() == LOG
    assert "valid" not in result.output  # refused before anything was verified


def test_report_through_a_symlink_is_refused_and_the_target_kept(tmp_path):
    (tmp_path / "a.log").write_text(LOG)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (tmp_path / "r.html").symlink_to(victim)
    result = run(["verify", str(tmp_path / "a.log"), "--html", str(tmp_path / "r.html")])
    assert result.exit_code == 2 and "symbolic link" in result.output
    assert (tmp_path / "r.html").is_symlink() and victim.read_text() == "precious"


def test_report_onto_a_fifo_is_refused_and_the_fifo_kept(tmp_path):
    (tmp_path / "a.log").write_text(LOG)
    fifo = tmp_path / "r.html"
    os.mkfifo(fifo)
    result = run(["verify", str(tmp_path / "a.log"), "--html", str(fifo)])
    assert result.exit_code == 2 and "not a regular file" in result.output
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_sheet_onto_a_device_node_is_refused(tmp_path):
    device = tmp_path / "full.pdf"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 7))  # like /dev/full
    except PermissionError:
        pytest.skip("making a device node needs root")
    result = run(["sheet", "--seed", "1", "--out", str(device)])
    assert result.exit_code == 2 and "not a regular file" in result.output
    assert stat.S_ISCHR(os.lstat(device).st_mode)


def test_a_disk_full_while_writing_the_report_is_exit_2_with_nothing_left(tmp_path, monkeypatch):
    (tmp_path / "a.log").write_text(LOG)

    def disk_full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    result = run(["verify", str(tmp_path / "a.log"), "--html", str(tmp_path / "r.html")])
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (f"Error: cannot write the report '{tmp_path / 'r.html'}': "
                                              "No space left on device")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.log"]


def test_write_logs_never_writes_through_a_planted_symlink(tmp_path):
    folder = tmp_path / "L"
    folder.mkdir()
    victim = tmp_path / "victim"
    victim.write_text("precious")
    (folder / ".game-00000.log.tmp").symlink_to(victim)
    result = run(["simulate", "--seed", "1944", "--games", "2", "--write-logs", str(folder), "--force"])
    assert result.exit_code == 0, result.output
    assert victim.read_text() == "precious"
    assert sorted(p.name for p in folder.iterdir()) == [".game-00000.log.tmp", "game-00000.log",
                                                        "game-00001.log"]


def test_write_logs_refuses_a_folder_that_holds_files(tmp_path):
    assert run(["simulate", "--seed", "1", "--games", "3", "--write-logs", str(tmp_path)]).exit_code == 0
    result = run(["simulate", "--seed", "2", "--games", "2", "--write-logs", str(tmp_path)])
    assert result.exit_code == 2 and "already holds 3 files" in result.output and "--force" in result.output
    assert "seed: 1\n" in (tmp_path / "game-00002.log").read_text()


def test_write_logs_with_force_replaces_the_earlier_run_whole(tmp_path):
    (tmp_path / "notes.md").write_text("mine")
    for seed, games in (("1", "5"), ("2", "2")):
        assert run(["simulate", "--seed", seed, "--games", games, "--write-logs", str(tmp_path),
                    "--force"]).exit_code == 0
    logs = sorted(tmp_path.glob("game-*.log"))
    assert [p.name for p in logs] == ["game-00000.log", "game-00001.log"]
    assert all("seed: 2\n" in p.read_text() for p in logs)
    assert (tmp_path / "notes.md").read_text() == "mine"


def test_force_without_write_logs_is_misuse():
    result = run(["simulate", "--seed", "1", "--games", "1", "--force"])
    assert result.exit_code == 2 and "--force goes with --write-logs" in result.output


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_an_interrupted_write_logs_run_leaves_no_temporary_file(tmp_path, signum):
    folder = tmp_path / "L"
    # A shell without job control starts background commands with SIGINT ignored, and the
    # child would inherit that: give the CLI the default Ctrl-C handling whatever runs the tests.
    start = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); " \
            "from bgrid.cli import main; main()"
    proc = subprocess.Popen([sys.executable, "-c", start, "simulate",
                             "--seed", "1944", "--games", "1000000", "--write-logs", str(folder)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list(folder.glob("game-*.log"))) < 3:
        time.sleep(0.05)
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and b"Traceback" not in err
    assert len(list(folder.glob("game-*.log"))) >= 3
    assert leftovers(tmp_path) == []


def test_what_a_killed_write_logs_run_left_is_removed_by_the_next_run_there(tmp_path):
    """SIGKILL runs no way out: the batch being written stays as temporary files (the issue
    counted 218 and 415). The next run writing into that folder removes them."""
    folder = tmp_path / "L"
    proc = subprocess.Popen([sys.executable, "-c", "from bgrid.cli import main; main()", "simulate",
                             "--seed", "1944", "--games", "1000000", "--write-logs", str(folder)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(leftovers(folder)) < 5:
        time.sleep(0.02)
    proc.kill()
    proc.wait(timeout=60)
    assert len(leftovers(folder)) >= 5
    again = run(["simulate", "--seed", "1", "--games", "2", "--write-logs", str(folder), "--force"])
    assert again.exit_code == 0, again.output
    assert leftovers(tmp_path) == []
    assert sorted(p.name for p in folder.iterdir()) == ["game-00000.log", "game-00001.log"]


def test_only_the_temporaries_of_processes_no_longer_running_are_swept(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True).stdout.strip()
    mine = str(os.getpid())
    names = {f".bgrid-{dead}-0a1b2c3d4e5f.tmp": False, f".bgrid-{mine}-0a1b2c3d4e5f.tmp": True,
             ".bgrid-0a1b2c3d4e5f.tmp": True,  # an older bgrid's, recent: perhaps still writing
             ".bgrid-aaaaaaaaaaaa.tmp": False,  # an older bgrid's, two hours old
             "notes.tmp": True, ".bgrid-x.txt": True}
    for name in names:
        (tmp_path / name).write_text("x")
    two_hours_ago = time.time() - 7200
    os.utime(tmp_path / ".bgrid-aaaaaaaaaaaa.tmp", (two_hours_ago, two_hours_ago))
    (tmp_path / f".bgrid-{dead}-k2j4h5g6.tmp").mkdir()  # a pack being built
    (tmp_path / f".bgrid-{dead}-k2j4h5g6.tmp" / "sheet-a4.pdf").write_text("half")
    assert safe_output.sweep_temporaries(tmp_path) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(n for n, kept in names.items() if kept)


def _fake_pack(names):
    def pack_files(mission, paper="a4", **kwargs):
        return {name.format(paper=paper): f"{name} {paper}".encode() for name in names}
    return pack_files


PACK = ("sheet-{paper}.pdf", "deck-{paper}.pdf", "map.json")


def test_an_interrupted_pack_is_absent_not_half_written(tmp_path, monkeypatch):
    monkeypatch.setattr("bgrid.generator.pack.pack_files", _fake_pack(PACK))
    real = safe_output.write_atomic
    calls = []

    def interrupted(path, data, what="the output"):
        calls.append(path)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(path, data, what)

    monkeypatch.setattr(safe_output, "write_atomic", interrupted)
    result = run(["pack", "--seed", "1944", "--out", str(tmp_path)])
    assert result.exit_code == 130
    assert list(tmp_path.iterdir()) == []  # no pack folder, no temporary


def test_a_second_pack_replaces_the_first_whole(tmp_path, monkeypatch):
    monkeypatch.setattr("bgrid.generator.pack.pack_files", _fake_pack(PACK))
    assert run(["pack", "--seed", "1944", "--out", str(tmp_path)]).exit_code == 0
    assert run(["pack", "--seed", "1944", "--out", str(tmp_path), "--paper", "letter"]).exit_code == 0
    (folder,) = tmp_path.iterdir()
    assert sorted(p.name for p in folder.iterdir()) == ["deck-letter.pdf", "map.json", "sheet-letter.pdf"]
    assert (folder / "map.json").read_bytes() == b"map.json letter"


def test_a_pack_folder_holding_the_users_files_is_not_replaced(tmp_path, monkeypatch):
    monkeypatch.setattr("bgrid.generator.pack.pack_files", _fake_pack(PACK))
    assert run(["pack", "--seed", "1944", "--out", str(tmp_path)]).exit_code == 0
    (folder,) = tmp_path.iterdir()
    (folder / "my-notes.txt").write_text("mine")
    result = run(["pack", "--seed", "1944", "--out", str(tmp_path), "--paper", "letter"])
    assert result.exit_code == 2 and "my-notes.txt" in result.output
    assert (folder / "my-notes.txt").read_text() == "mine"
    assert (folder / "map.json").read_bytes() == b"map.json a4"
    assert leftovers(tmp_path) == []


def test_solve_refuses_to_write_its_line_over_the_header_log(tmp_path):
    mine = tmp_path / "mine.log"
    mine.write_text("bgrid-log: 1\nchallenge: 0M00-0001-WR3\n\nturn 1\n")
    result = run(["solve", "--header", str(mine), "--write-log", str(mine)])
    assert result.exit_code == 2 and "is one of the inputs" in result.output
    assert mine.read_text().endswith("turn 1\n")


def test_a_batch_write_interrupted_keeps_whole_batches_and_no_temporary(tmp_path):
    """write_batch (simulate --write-logs, the league's reports): one sync a batch instead of
    an fsync a file; an interruption keeps the finished batches, whole, and nothing else."""
    from bgrid.safeio.safe_output import write_batch

    def logs():
        for k in range(7):
            if k == 5:
                raise KeyboardInterrupt
            yield tmp_path / f"game-{k:05d}.log", f"log {k}\n" * 100

    with pytest.raises(KeyboardInterrupt):
        write_batch(logs(), "a log", batch=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"game-{k:05d}.log" for k in range(4)]
    assert all(p.read_text() == f"log {int(p.stem[-1])}\n" * 100 for p in tmp_path.iterdir())
    assert write_batch([(tmp_path / "a.log", "a"), (tmp_path / "b.log", b"b")], batch=10) == 2
    assert (tmp_path / "b.log").read_bytes() == b"b" and leftovers(tmp_path) == []
