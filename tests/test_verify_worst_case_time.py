"""Every log up to the 1 MiB cap is answered in about a second: each header line and each
body statement written at its worst, one line (or one statement repeated) filling 1 MiB.

The bound here is generous (10 s of CPU time) so that a loaded machine never makes it flake;
``bench/bench_verify.py`` holds the real figures.
"""

from __future__ import annotations

import time

import pytest

from bgrid.log.lexer import MAX_BYTES
from bgrid.verifier.verify import verify_log

BOUND_SECONDS = 10
VERSION = "bgrid-log: 1\n"
MAP = "map bunkers: B1 C1 D1 E1 F1 G1\nmap artillery: B2 C2 D2 E2\n"
BODY_START = VERSION + "seed: 1944\n\nturn 1\nenter 7H\n"


def fill(head: str, unit: str, tail: str = "") -> str:
    """``head``, then ``unit`` repeated to just under 1 MiB, then ``tail``."""
    room = MAX_BYTES - len((head + tail).encode()) - 1
    return head + unit * (room // len(unit.encode())) + tail


HEADER_LINES = {
    "map mountains (one cell repeated)": fill(VERSION + "map mountains: ", "A1 ", "\n" + MAP + "turn 1\n"),
    "map bunkers": fill(VERSION + "map mountains:\nmap artillery: B2 C2 D2 E2\nmap bunkers: ", "B1 ", "\n"),
    "map artillery": fill(VERSION + "map mountains:\nmap bunkers: B1 C1 D1 E1 F1 G1\nmap artillery: ",
                          "B2 ", "\n"),
    "setup ridge": fill(VERSION + "setup ridge: ", "2H ", "\n"),
    "setup bunkers": fill(VERSION + "setup ridge: 2H 3H 4H 5H\nsetup bunkers: ", "KS ", "\n"),
    "setup artillery": fill(VERSION + "setup ridge: 2H 3H 4H 5H\nsetup artillery: ", "JK ", "\n"),
    "challenge": fill(VERSION + "challenge: ", "0"),
    "seed": fill(VERSION + "seed: ", "1"),
    "ridges": fill(VERSION + "seed: 1\nridges: ", "1"),
    "difficulty": fill(VERSION + "seed: 1\ndifficulty: ", "h"),
    "ruleset": fill(VERSION + "seed: 1\nruleset: ", "s"),
    "player": fill(VERSION + "seed: 1\nplayer: ", "Ada "),
    "date": fill(VERSION + "seed: 1\ndate: ", "x"),
    "claim": fill(VERSION + "seed: 1\nclaim: victory ", "9"),
    "version": fill("bgrid-log: ", "1"),
    "comment": fill(VERSION + "# ", "x"),
    "blank lines": fill(VERSION + "seed: 1\n", "\n"),
}
BODY_STATEMENTS = {
    "turn": fill(BODY_START + "turn ", "1"),
    "turn lines": fill(BODY_START, "turn 2\n"),
    "enter": fill(VERSION + "seed: 1944\n\nturn 1\nenter ", "7H "),
    "draw": fill(BODY_START + "draw ", "2S "),
    "draw lines": fill(BODY_START, "draw 2S\n"),
    "draw with variation selectors": fill(BODY_START + "draw 2S", "\ufe0f"),
    "move steps": fill(BODY_START + "move 5C ", "F"),
    "move step words": fill(BODY_START + "move 5C ", "F "),
    "alt": fill(BODY_START + "alt ", "QH "),
    "guns": fill(BODY_START + "guns 6H C4 -> ", "2D "),
    "bomb": fill(BODY_START + "bomb 7H -> ", "AS "),
    "throttle": fill(BODY_START + "throttle 9H move 4C ", "F"),
    "resupply": fill(BODY_START + "resupply KD -> ", "4S "),
    "automa": fill(BODY_START + "automa ", "8C "),
    "reshuffle lines": fill(BODY_START, "reshuffle\n"),
    "state": fill(BODY_START + "state ", "at A1 "),
    "state lines": fill(BODY_START, "state alt 0\n"),
    "arrows": fill(BODY_START + "guns 6H C4 ", "->"),
}


@pytest.mark.parametrize("text", list(HEADER_LINES.values()) + list(BODY_STATEMENTS.values()),
                         ids=list(HEADER_LINES) + list(BODY_STATEMENTS))
def test_a_1_mib_worst_case_is_answered_quickly(text):
    data = text.encode()
    assert MAX_BYTES - 100 < len(data) <= MAX_BYTES
    start = time.process_time()  # CPU time: a loaded machine stretches the wall clock
    verdict = verify_log(data, "worst.log")
    elapsed = time.process_time() - start
    assert verdict.verdict in ("valid", "invalid", "incomplete")
    assert elapsed < BOUND_SECONDS, f"{elapsed:.1f} s"
