"""Misuse of any command is one line on standard error and exit status 2, never a traceback.

A generated matrix puts every option of every command next to bad values (empty, blank,
huge, negative, NaN, infinite, non-ASCII digits, bytes that are not UTF-8, control
characters, bidi overrides, path-like values) through click's CliRunner; a few real
subprocesses check what only a real process has (raw argv bytes, a closed standard input,
an unprivileged user). NUL is left out: no shell can pass it in an argument.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile

import pytest
from click.testing import CliRunner

from bgrid.cli import cli

HUGE = "9" * 5000
NUMBERS = ["", "   ", "-1", "nan", "inf", "-inf", "1e309", "0x10", "1_0", "١٢", HUGE, "-" + HUGE]
TEXTS = ["", "\udcff\udcfe", "\x1b[2J", "a\nvalid", "\u202eevil", "../../x", "x" * 5000]
BAD = {  # option -> values it must refuse
    "--seed": NUMBERS + TEXTS[1:],
    "--code": NUMBERS + TEXTS + ["0M00-0001-WR3\n", "0M00-0001-WR4"],
    "--difficulty": ["", "HARDEST", "\udcff", "\x1b[31m", "nan", HUGE],
    "--ridges": NUMBERS + ["0", "5", "\udcff"],
    "--paper": ["", "a3", "\udcff", "\x1b[31ma4", HUGE],
    "--duplex-offset": ["", "1", "nan,0", "0,nan", "inf,0", "0,-inf", "nan,nan", "11,0", "1,2,3",
                        "\udcff,0", f"{HUGE},0", "0x1,0"],
    "--games": NUMBERS + ["0", "10000001"],
    "--sim-seed": NUMBERS,
    "--player-name": ["\udcff", "Ada\x1b[2J", "Ada\nBob", "\x7f", "\x85"],
    "--player-kind": ["", "clever", "\udcff", HUGE],
}
COMMANDS = {  # command -> (options it takes, the valid arguments it is given besides)
    "map": (["--seed", "--code", "--difficulty", "--ridges"], ["--seed", "1"]),
    "sheet": (["--seed", "--code", "--difficulty", "--ridges", "--paper", "--player-name"], ["--seed", "1"]),
    "deck": (["--seed", "--code", "--difficulty", "--ridges", "--paper", "--duplex-offset"], ["--seed", "1"]),
    "pack": (["--seed", "--code", "--difficulty", "--ridges", "--paper", "--duplex-offset", "--player-name"],
             ["--seed", "1"]),
    "simulate": (["--seed", "--code", "--difficulty", "--ridges", "--games", "--sim-seed", "--player-kind"],
                 ["--seed", "1", "--games", "1"]),
}


def _cases():
    for command, (options, base) in COMMANDS.items():
        for option in options:
            name = "--player" if option.startswith("--player") else option
            for value in BAD[option]:
                args = [command] + base + [name, value]
                if option == "--code":  # a code replaces the seed
                    args = [command, "--code", value] + base[2:]
                elif option == "--seed":
                    args = [command, "--seed", value] + base[2:]
                yield pytest.param(args, id=f"{command} {option} {ascii(value)[:24]}")


def _out_cases():
    """Output paths: a folder that is a file, a missing or unmakeable place, a FIFO."""
    for command in ("sheet", "deck", "pack"):
        for out in ("", " ", "blocker", "blocker/x.pdf", "/proc/bgrid-nowhere", "fifo.pdf", "x" * 5000):
            yield pytest.param([command, "--seed", "1", "--out", out], id=f"{command} --out {out[:16]!r}")
    for out in ("", "blocker", "/proc/bgrid-nowhere", "x" * 5000):
        yield pytest.param(["simulate", "--seed", "1", "--games", "1", "--write-logs", out],
                           id=f"simulate --write-logs {out[:16]!r}")
    for html in ("", "folder", "nowhere/r.html", "fifo.pdf", "game.log", "x" * 5000 + ".html"):
        yield pytest.param(["verify", "game.log", "--html", html], id=f"verify --html {html[:16]!r}")
    for logs in (["nothing.log"], ["-", "-"], ["folder"], ["x" * 5000], ["\udcff.log"],
                 ["game.log", "-", "-"]):
        yield pytest.param(["verify", *logs], id=f"verify {ascii(logs)[:24]}")
    yield pytest.param(["deck", "--gutter-fold", "--duplex-offset", "1,0"], id="deck gutter-fold offset")
    yield pytest.param(["deck", "--ridges", "2"], id="deck ridges without seed")
    yield pytest.param(["map"], id="map without seed or code")
    yield pytest.param(["map", "--seed", "1", "--code", "0M00-0001-WR3"], id="map seed and code")
    yield pytest.param(["simulate", "--seed", "1", "--force"], id="simulate force alone")
    yield pytest.param(["nosuchcommand"], id="unknown command")


@pytest.fixture
def playground(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "blocker").write_text("a file, not a folder")
    (tmp_path / "folder").mkdir()
    (tmp_path / "game.log").write_text("bgrid-log: 1\nseed: 1\n\nturn 1\n")
    os.mkfifo(tmp_path / "fifo.pdf")
    return tmp_path


def assert_one_line_misuse(result):
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert len(lines[0]) < 600  # a 5,000-character value is not echoed whole
    assert "\x1b" not in lines[0] and "\u202e" not in lines[0]


@pytest.mark.parametrize("args", list(_cases()) + list(_out_cases()))
def test_misuse_is_one_line_and_exit_2(playground, args):
    result = CliRunner().invoke(cli, args)
    assert_one_line_misuse(result)
    assert sorted(p.name for p in playground.iterdir()) == ["blocker", "fifo.pdf", "folder", "game.log"]


def test_the_matrix_has_hundreds_of_cases():
    assert len(list(_cases())) + len(list(_out_cases())) >= 300


def bgrid(*args, **kwargs):
    """A real ``bgrid`` process; arguments may be bytes (raw argv)."""
    return subprocess.run([sys.executable, "-c", "from bgrid.cli import main; main()", *args],
                          capture_output=True, timeout=120, **kwargs)


def test_real_process_raw_bytes_huge_seed_and_newline_code(tmp_path):
    for args in ([b"sheet", b"--seed", b"1", b"--player", b"\xff", b"--out", str(tmp_path).encode()],
                 ["map", "--seed", HUGE], ["simulate", "--seed", HUGE],
                 ["map", "--code", "0M00-0001-WR3\n"], ["deck", "--seed", "1", "--duplex-offset", "nan,0"]):
        proc = bgrid(*args)
        err = proc.stderr.decode("utf-8")
        assert proc.returncode == 2 and b"Traceback" not in proc.stderr
        assert err.count("\n") == 1 and err.startswith("Error: ") and len(err) < 600, err
    assert list(tmp_path.iterdir()) == []


def test_verify_with_standard_input_closed_is_one_line():
    proc = subprocess.run(["sh", "-c", f"exec '{sys.executable}' -c 'from bgrid.cli import main; main()' "
                           "verify - <&-"], capture_output=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr == b"Error: <stdin>: standard input is closed\n"


def _as_nobody():
    """setpriv arguments that run a command as an unprivileged user, or None if impossible."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    probe = subprocess.run([setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable,
                            "-c", "import bgrid.cli"], capture_output=True)
    return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"] if probe.returncode == 0 else None


@pytest.mark.parametrize("mode", [0o000, 0o600], ids=["no permission at all", "no search permission"])
def test_an_unreadable_folder_is_one_line_exit_2_as_a_normal_user(mode):
    prefix = _as_nobody()
    if prefix is None:
        pytest.skip("cannot run a command as an unprivileged user here")
    top = tempfile.mkdtemp(prefix="bgrid-perm-")
    try:
        os.chmod(top, 0o755)
        sub = os.path.join(top, "subs")
        os.mkdir(sub)
        with open(os.path.join(sub, "alice.log"), "w") as fh:
            fh.write("bgrid-log: 1\nseed: 1\n\nturn 1\n")
        os.chmod(sub, mode)
        proc = subprocess.run([*prefix, sys.executable, "-c", "from bgrid.cli import main; main()",
                               "verify", sub], capture_output=True, timeout=60)
        assert proc.returncode == 2 and b"Traceback" not in proc.stderr
        assert b"Permission denied" in proc.stderr and proc.stderr.count(b"\n") == 1, proc.stderr
    finally:
        os.chmod(sub, 0o700)
        shutil.rmtree(top)
