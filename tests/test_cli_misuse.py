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
from bgrid.league import create_league

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
BAD.update({
    "--jobs": NUMBERS + ["0", "1025"],
    "--batch": NUMBERS + ["0", "10001"],
    "--best": NUMBERS + ["0"],
    "--date": NUMBERS + TEXTS + ["2026-02-30", "0000-01-01", "+2026-12-01", "2026-12-01T00:00", "1.12.2026"],
    "--ruleset": TEXTS + ["standard-2", "STANDARD-1\x1b"],
    # an input log that is no log, none at all, endless (/dev/zero) or not a file
    "--header": ["", "folder", "nowhere.log", "blocker", "/dev/zero", "x" * 5000, "\udcff.log", "game.log/x"],
    # an output that is not a writable place, or the league database itself
    "--html": ["", " ", "folder", "blocker/x.html", "nowhere/x.html", "/proc/bgrid-nowhere/x.html",
               "fifo.pdf",
               "link", "league.db", "x" * 5000 + ".html"],
    "LEAGUE.db": ["", " ", "blocker", "folder", "fifo.pdf", "nowhere/x.db", "blocker/x.db", "x" * 5000,
                  "/proc/bgrid-nowhere/x.db"],
    "ID": ["", "-1", "nan", HUGE, "\udcff\udcfe", "\x1b[2J", "#", "#" + HUGE, "1" * 19],
    "--budget": NUMBERS + ["0", "0.0", ".", "1e3", "1e-300", "100000"],
    "--write-log": ["", " ", "folder", "blocker/x.log", "nowhere/x.log", "fifo.pdf", "link",
                    "x" * 5000 + ".log"],
    "--filter": ["\udcff\udcfe", "Ada\udcff"],  # text a filter or a title cannot hold
})
LEAGUE = {  # league command -> (its arguments before LEAGUE.db, after, options it takes)
    "init": ([], [], []),
    "list": ([], [], ["--challenge", "--player"]),
    "show": ([], ["1"], ["ID"]),
    "submit": ([], ["game.log"], ["--batch"]),
    "standings": ([], [], ["--challenge", "--best", "--html", "--title"]),
}
COMMANDS = {  # command -> (options it takes, the valid arguments it is given besides)
    "map": (["--seed", "--code", "--difficulty", "--ridges"], ["--seed", "1"]),
    "sheet": (["--seed", "--code", "--difficulty", "--ridges", "--paper", "--player-name"], ["--seed", "1"]),
    "deck": (["--seed", "--code", "--difficulty", "--ridges", "--paper", "--duplex-offset"], ["--seed", "1"]),
    "pack": (["--seed", "--code", "--difficulty", "--ridges", "--paper", "--duplex-offset", "--player-name"],
             ["--seed", "1"]),
    "solve": (["--seed", "--code", "--difficulty", "--ridges", "--budget", "--jobs", "--header",
               "--write-log"],
              ["--seed", "1", "--budget", "0.01"]),
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
                elif option == "--header":  # the header names the mission instead
                    args = [command, "--header", value] + base[2:]
                elif option == "--budget":
                    args = [command] + base[:2] + ["--budget", value]
                yield pytest.param(args, id=f"{command} {option} {ascii(value)[:24]}")


def _new_command_cases():
    """daily, league, the printables' --header and --blank, verify --jobs."""
    for value in BAD["--date"]:
        yield pytest.param(["daily", "--date", value], id=f"daily --date {ascii(value)[:24]}")
    for value in BAD["--ruleset"]:
        yield pytest.param(["daily", "--ruleset", value], id=f"daily --ruleset {ascii(value)[:24]}")
    for value in BAD["--paper"]:
        yield pytest.param(["daily", "--pack", "--paper", value], id=f"daily --paper {ascii(value)[:24]}")
    for out in ("", " ", "blocker", "blocker/x", "fifo.pdf", "/proc/bgrid-nowhere", "x" * 5000):
        yield pytest.param(["daily", "--date", "2026-12-01", "--pack", "--out", out],
                           id=f"daily --pack --out {ascii(out)[:16]}")
    for command in ("sheet", "pack"):
        for value in BAD["--header"]:
            yield pytest.param([command, "--header", value], id=f"{command} --header {ascii(value)[:24]}")
        for extra in (["--seed", "1"], ["--code", "0M00-0001-WR3"], ["--header", "game.log"],
                      ["--ridges", "2"]):
            yield pytest.param([command, "--blank", *extra], id=f"{command} --blank {' '.join(extra)}")
        for value in BAD["--difficulty"]:
            yield pytest.param([command, "--blank", "--difficulty", value],
                               id=f"{command} --blank --difficulty {ascii(value)[:24]}")
        yield pytest.param([command, "--header", "game.log", "--difficulty", "hard"],
                           id=f"{command} --header difficulty")
    yield pytest.param(["pack", "--blank", "--winnable"], id="pack --blank --winnable")
    for value in BAD["--jobs"]:
        yield pytest.param(["verify", "game.log", "--jobs", value], id=f"verify --jobs {ascii(value)[:24]}")
    yield pytest.param(["verify", "game.log", "--html", "link"], id="verify --html symlink")
    for logs in (["game.log", "challenge.log"], ["nothing.log", "game.log"], ["folder", "game.log"]):
        yield pytest.param(["verify", *logs, "--par"], id=f"verify --par {' '.join(logs)}")
    for command, (before, after, options) in LEAGUE.items():
        for db in BAD["LEAGUE.db"]:
            yield pytest.param(["league", command, *before, db, *after],
                               id=f"league {command} db {ascii(db)[:16]}")
        for option in options:
            bad = BAD["--filter"] if option in ("--challenge", "--player", "--title") else BAD[option]
            for value in bad:
                args = ["league", command, *before, "league.db", *after]
                args = args[:-1] + [value] if option == "ID" else args + [option, value]
                yield pytest.param(args, id=f"league {command} {option} {ascii(value)[:24]}")
    for value in ["\udcff.log", "nothing.log", "folder/nothing.log", "x" * 5000]:
        yield pytest.param(["league", "submit", "league.db", value],
                           id=f"league submit log {ascii(value)[:16]}")
    yield pytest.param(["league", "submit", "league.db", "-", "-"], id="league submit stdin twice")
    yield pytest.param(["league", "standings", "league.db", "--json", "--csv"],
                       id="league standings json csv")
    yield pytest.param(["league", "standings", "league.db", "--csv", "--html", "s.html"],
                       id="league standings csv html")
    yield pytest.param(["league", "nosuch", "league.db"], id="league unknown command")
    yield pytest.param(["league", "submit", "league.db"], id="league submit without logs")
    yield pytest.param(["daily", "--json", "--pack"], id="daily json pack")
    yield pytest.param(["solve", "--header", "game.log", "--budget", "0.01"],
                       id="solve --header without a deck order")
    yield pytest.param(["solve", "--header", "challenge.log", "--seed", "1"], id="solve --header and --seed")
    for out in ("challenge.log", "./challenge.log"):  # the input it reads
        yield pytest.param(["solve", "--header", "challenge.log", "--budget", "0.01", "--write-log", out],
                           id=f"solve --write-log the header {out}")


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
    (tmp_path / "link").symlink_to("game.log")
    (tmp_path / "challenge.log").write_text("bgrid-log: 1\nchallenge: 0M00-0001-WR3\n\nturn 1\n")
    create_league(tmp_path / "league.db")
    return tmp_path


def snapshot(folder):
    """What a run could have changed: the names in the folder and the league's bytes."""
    return sorted(p.name for p in folder.iterdir()), (folder / "league.db").read_bytes()


def assert_one_line_misuse(result):
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert len(lines[0]) < 600  # a 5,000-character value is not echoed whole
    assert "\x1b" not in lines[0] and "\u202e" not in lines[0]


def all_cases():
    return list(_cases()) + list(_new_command_cases()) + list(_out_cases())


@pytest.mark.parametrize("args", all_cases())
def test_misuse_is_one_line_and_exit_2(playground, args):
    before = snapshot(playground)
    result = CliRunner().invoke(cli, args)
    assert_one_line_misuse(result)
    assert snapshot(playground) == before
    assert before[0] == ["blocker", "challenge.log", "fifo.pdf", "folder", "game.log", "league.db", "link"]


def test_the_matrix_has_hundreds_of_cases():
    assert len(all_cases()) >= 600


@pytest.mark.parametrize("value", TEXTS + ["../league.db", "' OR 1=1 --"])
def test_hostile_league_filters_and_titles_are_harmless_text(playground, value):
    """A filter or a title is free text: any UTF-8 value is taken, matched literally (no SQL),
    and neither printed raw nor written anywhere. A standings --challenge the league holds no
    entry for is refused (one line, exit 2), not answered with an empty table."""
    if "\udcff" in value:
        value = "Ada"
    before = snapshot(playground)
    for args in (["list", "--player", value], ["list", "--challenge", value],
                 ["standings", "--title", value]):
        result = CliRunner().invoke(cli, ["league", args[0], "league.db", *args[1:]])
        assert result.exit_code == 0 and result.exception is None, result.output
        assert "\x1b" not in result.output and "\u202e" not in result.output
    result = CliRunner().invoke(cli, ["league", "standings", "league.db", "--challenge", value])
    assert_one_line_misuse(result)
    assert snapshot(playground) == before


def test_bare_group_prints_its_help_not_an_escaped_line():
    result = CliRunner().invoke(cli, ["league"])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "\\u000a" not in result.output
    assert result.output.startswith("Usage: ") and "\n  standings " in result.output


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


@pytest.mark.parametrize("mode", [0o000, 0o600], ids=["no permission at all", "no search permission"])
def test_an_unreadable_folder_is_one_line_exit_2_as_a_normal_user(mode, as_nobody):
    prefix = as_nobody
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


def test_output_names_that_are_not_utf8_are_written_and_shown_with_replacement_characters(playground):
    for args, written in ((["league", "init", "\udcff.db"], "\udcff.db"),
                          (["league", "standings", "league.db", "--html", "\udcff.html"], "\udcff.html")):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0 and result.exception is None, repr(result.exception)
        assert "\ufffd" in result.output.splitlines()[0]
        assert (playground / written).is_file()


def test_league_init_does_not_create_a_file_through_a_dangling_symlink(playground):
    (playground / "dangling.db").symlink_to("elsewhere.db")
    result = CliRunner().invoke(cli, ["league", "init", "dangling.db"])
    assert_one_line_misuse(result)
    assert "symbolic link" in result.stderr and not (playground / "elsewhere.db").exists()
