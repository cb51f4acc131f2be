"""The artillery by number (R43): a state line's ``art`` check, its E213 messages, and the
pieces named by number in the verifier's words.

The small board of tests/test_verify_messages.py: mountains E1 E2; bunkers A5 C3 G7 H2 I9
J4; artillery B9 F8 J1 D10, numbered 1-4 in that (placement) order. ``enter 3H`` puts the
bomber on C1 facing south at altitude 4 (R13).
"""

from __future__ import annotations

import re

import pytest

from bgrid.rules.engine import score
from bgrid.players.simulated_logs import simulated_log
from bgrid.challenges.mission import mission_from_seed
from bgrid.players.playout import play_out, replay
from bgrid.challenges.seeding import stream
from bgrid.log.reader import parse_log
from bgrid.verifier.verify import verify_log

MAP = ("bgrid-log: 1\nmap mountains: E1 E2\nmap bunkers: A5 C3 G7 H2 I9 J4\n"
       "map artillery: B9 F8 J1 D10\n")
START = MAP + "turn 1\nenter 3H\ndraw 2S 3S 4S 5S 6S\n"  # lines 5-7, the bomber on C1


def test_art_check_reads_cells_destroyed_and_unchecked_pieces():
    log = parse_log(START + "state art B9 ✕ - D10s\n")
    checks = {v[0]: str(v[1]) for k, v, _ in log.statements[-1].checks if k == "art"}
    assert checks == {1: "B9", 2: "x", 3: "-", 4: "D10s"}
    assert log.statements[-1].canonical() == "state art B9 x - D10s"


def test_art_check_takes_a_spaced_s_and_stops_at_the_next_key():
    log = parse_log(START + "state art B9 F8 s alt 4\n")
    assert log.statements[-1].canonical() == "state alt 4 art B9 F8s"


def test_art_check_agrees_with_the_start_before_the_automa_moves_anything():
    verdict = verify_log(START + "state at C1 facing S alt 4 dmg 0 art B9 F8 J1 D10\n")
    assert verdict.verdict == "incomplete", verdict.errors


def test_art_mismatch_names_the_piece_by_its_number():
    # piece 2 stands on F8 from setup; the log says F7
    verdict = verify_log(START + "state art B9 F7 J1 D10\n")
    err = verdict.errors[0]
    assert (err.code, err.line, err.column, err.rule) == ("E213", 8, 14, "R43")
    assert err.message == ("artillery 2 is at F8, not at F7; it has not moved since setup "
                           "placed it there (R3, R43)")


def test_art_mismatch_names_the_automa_line_and_the_path():
    # move 2S FF: C1 -> C3. 8H: Hearts, every piece steps toward the bomber on C3 along its
    # larger gap (R19, R20): B9 -> B8, D10 -> D9, F8 -> F7 (3 columns, 5 rows), J1 -> I1.
    log = START + "move 2S FF\nautoma 8H\nstate art B8 F7 I1 D8\n"  # lines 8-10
    err = verify_log(log).errors[0]
    assert (err.code, err.line) == ("E213", 10)
    assert err.message == ("artillery 4 is at D9, not at D8; the Automa card 8H on line 9 moved "
                           "it last; its path since the last check: D10 → D9")
    assert err.rule == "R20"


def test_art_says_destroyed_when_a_piece_stands():
    err = verify_log(START + "state art x\n").errors[0]
    assert err.message.startswith("artillery 1 is at B9, not destroyed")


def test_art_check_with_more_pieces_than_the_map_is_a_mismatch():
    err = verify_log(START + "state art B9 F8 J1 D10 A1\n").errors[0]
    assert (err.code, err.column) == ("E213", 24)
    assert "the mission has 4" in err.message


@pytest.mark.parametrize(("text", "column"), [("state art K3", 11), ("state art", 10)])
def test_art_check_notation_errors(text, column):
    err = verify_log(START + text + "\n").errors[0]
    assert err.code in ("E102", "E107")
    assert (err.line, err.column) == (8, column)


def test_state_message_names_the_pieces_by_number():
    err = verify_log(START + "state alt 3\n").errors[0]
    assert "artillery 1 (B9), 2 (F8), 3 (J1), 4 (D10)" in err.state


# -- a long simulated mission with an art check at every turn's end ------------------------

def _long_log(min_turns: int = 40):
    mission = mission_from_seed(1944, "easy")
    for k in range(300):
        text, state = simulated_log(mission, stream("standard-1", f"art-{k}", 0), challenge_deck=False,
                                    state_lines=True)
        if state.turn >= min_turns:
            return mission, k, text
    raise AssertionError("no long mission")


def _engine_artillery_by_turn(mission, k):
    """The engine's surviving artillery at the end of each turn, replayed step by step:
    an account of the game that does not go through the log or the piece numbering."""
    start = mission.start(False)
    trace: list = []
    play_out(start.copy(), stream("standard-1", f"art-{k}", 0), trace)
    state, ends = start.copy(), {}
    for step in trace:
        turn = state.turn
        replay(state, [step])
        ends[turn] = frozenset(state.artillery)
    return ends, state


@pytest.fixture(scope="module")
def long_mission():
    mission, k, text = _long_log()
    return mission, k, text


def _art_lines(text):
    lines = text.splitlines()
    return [(i + 1, line) for i, line in enumerate(lines) if line.startswith("state ")]


def test_a_40_turn_mission_with_art_on_every_state_line_is_valid(long_mission):
    mission, k, text = long_mission
    verdict = verify_log(text)
    ends, final = _engine_artillery_by_turn(mission, k)
    assert verdict.verdict == "valid", verdict.errors and verdict.errors[0].render()
    assert verdict.score.total == score(final).total
    states = _art_lines(text)
    assert len(states) >= 40 and all(" art " in line for _, line in states)
    # each state line names the engine's pieces, and no piece moves more than a cell a turn
    before = None
    for turn, (_, line) in enumerate(states, start=1):
        cells = line.split(" art ")[1].split()
        assert {c for c in cells if c != "x"} == {str(c) for c in ends[turn]}, turn
        if before is not None:
            for old, new in zip(before, cells, strict=True):
                if "x" not in (old, new):
                    gap = abs(ord(old[0]) - ord(new[0])) + abs(int(old[1:]) - int(new[1:]))
                    assert gap <= 1
        before = cells


def _moves(states):
    """For each state line index and piece: the line index of the state before it at which
    the piece's cell last changed (read from the art columns alone)."""
    out = {}
    last: dict[int, int] = {}
    prev = None
    for s, (_, line) in enumerate(states):
        cells = line.split(" art ")[1].split()
        for n, cell in enumerate(cells):
            if prev is not None and cell != prev[n] and cell != "x":
                last[n] = s
            out[(s, n)] = last.get(n)
        prev = cells
    return out


def test_four_mutated_pieces_each_give_e213_with_number_and_automa_line(long_mission):
    _mission, _k, text = long_mission
    lines = text.splitlines()
    states = _art_lines(text)
    moved = _moves(states)
    picked = []
    for (s, n), since in sorted(moved.items(), reverse=True):
        if since is not None and since == s and len(picked) < 4 and n not in [p[1] for p in picked]:
            picked.append((s, n))
    assert len(picked) == 4
    for s, n in picked:
        line_no, line = states[s]
        head, art = line.split(" art ")
        cells = art.split()
        old = cells[n]
        cells[n] = "A1" if old != "A1" else "A2"
        mutated = list(lines)
        mutated[line_no - 1] = f"{head} art {' '.join(cells)}"
        # the Automa line of the turn this state line closes: the last 'automa' above it
        automa_line = max(i + 1 for i in range(line_no - 1) if lines[i].startswith("automa "))
        card = lines[automa_line - 1].split()[1]
        err = verify_log("\n".join(mutated) + "\n").errors[0]
        assert (err.code, err.line) == ("E213", line_no)
        assert err.message.startswith(f"artillery {n + 1} is at {old}, not at {cells[n]}")
        assert f"the Automa card {card} on line {automa_line} moved it last" in err.message
        assert re.search(r"its path since the last check: \w+ → " + old, err.message)


def test_simulate_writes_state_lines_with_art_that_verify(tmp_path):
    from click.testing import CliRunner

    from bgrid.cli import cli

    out = tmp_path / "logs"
    result = CliRunner().invoke(cli, ["simulate", "--seed", "1944", "--games", "3", "--write-logs",
                                       str(out), "--state-lines"])
    assert result.exit_code == 0, result.output
    for path in sorted(out.glob("*.log")):
        text = path.read_text()
        turns = sum(1 for line in text.splitlines() if line.startswith("turn "))
        states = [line for line in text.splitlines() if line.startswith("state ")]
        assert len(states) == turns and all(" art " in s for s in states)
        assert verify_log(text).verdict == "valid"


def test_state_lines_go_with_write_logs():
    from click.testing import CliRunner

    from bgrid.cli import cli

    result = CliRunner().invoke(cli, ["simulate", "--seed", "1944", "--games", "3", "--state-lines"])
    assert result.exit_code == 2 and "--state-lines goes with --write-logs" in result.output


def test_guns_at_a_piece_out_of_reach_names_its_number():
    # the bomber on C1; F8 (piece 2) is neither in its row nor its column (R15)
    err = verify_log(START + "guns 6S F8 -> 2D\n").errors[0]
    assert (err.code, err.column) == ("E203", 9)
    assert err.message.endswith("(R15); F8 holds artillery 2")
