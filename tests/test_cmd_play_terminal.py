"""``bgrid play`` in a real terminal (a pseudo-terminal of 80×24): keys in, screen out.

The whole-mission runs through tmux are ``bench/drive_companion_tmux.py``; here a few keys
check that the terminal face takes completion (Tab), writes the log, undoes, honours NO_COLOR
and quits cleanly.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

BGRID = str(Path(sys.executable).with_name("bgrid"))
CODE = "0MER-60SV-GHE"
CSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")  # a terminal control sequence
COLOUR = re.compile(r"\x1b\[[0-9;]*3[0-9;]*m")  # a foreground colour


class Terminal:
    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, env=env,
                                     start_new_session=True)
        os.close(slave)
        self.seen = ""

    def read_until(self, predicate, seconds: float = 20.0) -> bool:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if predicate(self.seen):
                return True
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    self.seen += os.read(self.master, 65536).decode("utf-8", "replace")
                except OSError:
                    break
        return predicate(self.seen)

    def keys(self, text: str) -> None:
        os.write(self.master, text.encode())
        time.sleep(0.3)  # completion runs after each key

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)
        if self.master >= 0:
            os.close(self.master)
            self.master = -1


@pytest.fixture
def terminal(tmp_path):
    made = []

    def start(*options: str, no_color: bool = False) -> Terminal:
        env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
        env.update(TERM="xterm-256color", COLUMNS="80", LINES="24")
        if no_color:
            env["NO_COLOR"] = "1"
        term = Terminal([BGRID, "play", *options, "--log", str(tmp_path / "t.log")], env)
        made.append(term)
        return term

    yield start
    for term in made:
        term.close()


def test_tab_completes_the_offer_and_the_log_follows(terminal, tmp_path):
    term = terminal("--code", CODE)
    assert term.read_until(lambda s: "›" in s), term.seen
    mark = len(term.seen)
    term.keys("\t")
    # the completion runs as a task of the terminal's loop: an Enter read with the Tab would
    # come before it, so the Enter waits for the offer on the screen
    assert term.read_until(lambda s: "› enter" in CSI.sub("", s[mark:])), term.seen
    term.keys("\r")
    assert term.read_until(lambda s: "bomber enters at D1" in s), term.seen
    assert (tmp_path / "t.log").read_text(encoding="utf-8").endswith("turn 1\nenter 4H\n")
    term.keys("undo\r")
    assert term.read_until(lambda s: "undone: turn 1 | enter 4H" in s), term.seen
    term.keys("quit\r")
    assert term.proc.wait(timeout=10) == 0
    assert "enter" not in (tmp_path / "t.log").read_text(encoding="utf-8")


def test_the_board_is_coloured_unless_NO_COLOR(terminal):
    coloured = terminal("--code", CODE)
    assert coloured.read_until(lambda s: "›" in s)
    assert COLOUR.search(coloured.seen)
    coloured.close()
    plain = terminal("--code", CODE, no_color=True)
    assert plain.read_until(lambda s: "›" in s)
    assert "▲" in plain.seen and not COLOUR.search(plain.seen)


def test_up_on_a_resumed_log_recalls_the_last_statements_in_it(terminal, tmp_path):
    log = tmp_path / "t.log"
    log.write_text(f"bgrid-log: 1\nchallenge: {CODE}\n\nturn 1\nenter 4H\ndraw 5S JK 8S KH KC\n"
                   "resupply KH -> 10D\n", encoding="utf-8")
    term = terminal()
    assert term.read_until(lambda s: "resumed" in s and "›" in s), term.seen

    def recalls(key: str, line: str) -> bool:
        """After ``key``, the prompt line is redrawn holding ``line``."""
        mark = len(term.seen)
        term.keys(key)
        return term.read_until(lambda s: line in CSI.sub("", s[mark:]))

    assert recalls("\x1b[A", "resupply KH -> 10D"), term.seen  # Up: the log's last statement
    term.keys("\x15")  # Ctrl-U empties the line, so the next one is drawn whole
    assert recalls("\x1b[A", "draw 5S JK 8S KH KC"), term.seen  # Up again: the one before
    term.keys("\x15quit\r")
    assert term.proc.wait(timeout=10) == 0
