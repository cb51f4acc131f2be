"""``bgrid play`` scripted through standard input: one reply a line, refusals with the
verifier's code, the log on disk as the save file (killed and reopened)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.cmd_play import _offer_pieces, _reply_pieces, _screen, opening_text, reply_lines
from bgrid.companion import Offer, Session
from bgrid.companion.autoplay import next_line
from bgrid.challenges import mission_from_seed
from bgrid.log.reader import parse_log
from bgrid.log.writer import log_text
from bgrid.verifier.verify import verify_log

CODE = mission_from_seed(4).code
BGRID = str(Path(sys.executable).with_name("bgrid"))


def _play(tmp_path, lines, *options, log="m.log"):
    path = tmp_path / log
    result = CliRunner().invoke(cli, ["play", *options, "--log", str(path)], input="\n".join(lines) + "\n")
    return result, path


def test_one_reply_a_line_and_a_refusal_does_not_stop_the_session(tmp_path):
    result, path = _play(tmp_path, ["enter", "fly 2S", "draw", "# a comment"], "--code", CODE)
    assert result.exit_code == 0, result.output
    replies = result.output.splitlines()
    assert len(replies) == 4
    assert replies[0].startswith("entry card: ")
    assert replies[1].startswith("error E106 unknown-statement: 'fly' is not a statement")
    assert replies[2].startswith("draw ")
    text = path.read_text(encoding="utf-8")
    assert text.startswith(f"bgrid-log: 1\nchallenge: {CODE}\n\nturn 1\nenter ")
    assert verify_log(text).verdict == "incomplete"


def test_a_line_that_is_not_utf8_is_refused_with_E002(tmp_path):
    path = tmp_path / "m.log"
    result = CliRunner().invoke(cli, ["play", "--code", CODE, "--log", str(path)], input=b"\xff\nenter\n")
    assert result.output.splitlines()[0].startswith("error E002 bad-encoding")
    assert result.output.splitlines()[1].startswith("entry card: ")


def test_a_whole_mission_scripted_ends_with_a_valid_log_and_its_claim(tmp_path):
    session = Session.start(f"bgrid-log: 1\nchallenge: {CODE}\n")
    rng, typed = random.Random(4), []
    while not session.is_over:
        typed.append(next_line(session, rng))
        session.submit(typed[-1])
    result, path = _play(tmp_path, typed, "--code", CODE)
    assert "error" not in result.output
    text = path.read_text(encoding="utf-8")
    assert text == session.log_text()
    verdict = verify_log(text)
    assert verdict.verdict == "valid" and verdict.score.total == session.score


def test_reopening_the_log_resumes_where_it_stopped(tmp_path):
    _play(tmp_path, ["enter", "draw"], "--code", CODE)
    result, path = _play(tmp_path, ["undo", "draw"])
    assert result.output.splitlines()[0].startswith("undone: draw ")
    assert path.read_text(encoding="utf-8").count("\ndraw ") == 1


def test_another_missions_options_on_an_existing_log_are_refused(tmp_path):
    _play(tmp_path, ["enter"], "--code", CODE)
    result, _ = _play(tmp_path, ["enter"], "--seed", "3")
    assert result.exit_code == 2 and "is the log of another mission" in result.output


def test_mission_options_are_checked():
    result = CliRunner().invoke(cli, ["play"])
    assert result.exit_code == 2
    assert "give the mission: --seed N, --code CODE or --header FILE" in result.output
    both = CliRunner().invoke(cli, ["play", "--seed", "1", "--code", CODE])
    assert both.exit_code == 2 and "give exactly one of --seed N, --code CODE or --header FILE" in both.output


def test_no_mission_and_no_log_to_resume_says_every_way_to_give_one(tmp_path):
    # the refusal names every way to give a mission, --header and --log included
    result = CliRunner().invoke(cli, ["play", "--log", str(tmp_path / "new.log")], input="quit\n")
    assert result.exit_code == 2
    assert "--seed N, --code CODE or --header FILE, or --log FILE of a game to carry on" in result.output
    assert "new.log' does not exist yet" in result.output and not (tmp_path / "new.log").exists()


def test_killed_mid_turn_the_log_holds_every_accepted_statement(tmp_path):
    """SIGKILL after a move in the middle of a turn: reopened, the same engine state."""
    path = tmp_path / "k.log"
    session = Session.start(f"bgrid-log: 1\nchallenge: {CODE}\n")
    rng = random.Random(4)
    proc = subprocess.Popen([BGRID, "play", "--code", CODE, "--log", str(path)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        for _ in range(40):
            line = next_line(session, rng)
            session.submit(line)
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            proc.stdout.readline()  # the reply: the line is on disk by now
            if session.state.phase.value == "actions" and session.state.actions == 1:
                break
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    text = path.read_text(encoding="utf-8")
    assert text == session.log_text()
    again, dropped = Session.resume(text)
    assert dropped == 0 and again.state == session.state and session.state.actions == 1


# -- the terminal's screen (its pure parts; keys through a real terminal: test_cmd_play_terminal)

def test_quitting_names_the_file_that_keeps_the_game(tmp_path):
    # the player is told where the game is kept: the default log's name is said nowhere else
    result, path = _play(tmp_path, ["quit"], "--code", CODE)
    assert result.output == f"bye: the log keeps the game in {path}\n"
    assert opening_text(Path("m.log"), False, 1).startswith("the log goes to m.log; Tab completes")
    assert opening_text(Path("m.log"), True, 5).startswith("resumed m.log at turn 5; Tab completes")


def test_offers_that_do_not_fit_are_counted_in_words_not_as_plus_n():
    # the offers left out are counted as '3 more': 'alt 10C +3' would read as three more altitude
    offers = [Offer("first action", f"bomb {r}H -> 2S", f"bomb {r}H -> 2S") for r in range(2, 8)]
    (_, group), (_, line) = _offer_pieces(offers)
    # 'first action: ' leaves 65 columns; six offers of 13 need 93, so room is kept for the
    # count (16): three offers (45 columns) and 'three more'
    assert group == "first action: "
    assert line == "bomb 2H -> 2S · bomb 3H -> 2S · bomb 4H -> 2S · 3 more (Tab)\n"
    assert len(group + line) <= 80


def test_the_reply_takes_the_lines_the_offers_leave():
    assert reply_lines(3, False) == 4   # resupply, an action and Automa: 4 + 3 = 7 lines
    assert reply_lines(2, False) == 5
    assert reply_lines(0, True) == 6    # the end: no offers, one line names the log


def test_a_restack_order_is_shown_whole_under_the_board():
    """At the exhaustion of this mission the reply (the restack order of 51 discards, the
    damage, the DMG) wraps to five lines; the screen cut it to four, ending '1 damage: the
    deck ran out at the draw…' without the DMG. One offer line is left there, so it fits.
    With an open deck: blind, the order is not shown."""
    session = Session.start(f"bgrid-log: 1\nchallenge: {CODE}\n", open_deck=True)
    rng = random.Random(0)
    reply = session.submit(next_line(session, rng))
    while "reshuffle now" not in reply.one_line():
        reply = session.submit(next_line(session, rng))
    screen = "".join(text for _, text in _screen(session, _reply_pieces(reply)))
    under_board = screen.split("suppressed\n")[1]
    assert " ".join(reply.one_line().split()) in " ".join(under_board.split())
    assert "…" not in under_board and under_board.count("\n") <= 7
    assert screen.count("\n") <= 19 and max(map(len, screen.splitlines())) < 80


def _typed_mission(seed: int) -> list[str]:
    session = Session.start(f"bgrid-log: 1\nchallenge: {CODE}\n")
    rng, typed = random.Random(seed), []
    while not session.is_over:
        typed.append(next_line(session, rng))
        session.submit(typed[-1])
    return typed


def test_a_finished_log_in_the_row_form_reopens_without_a_traceback(tmp_path):
    # bgrid verify run.log --rows > rows.log; bgrid play --log rows.log: the rows are the
    # body, not a header (a traceback and exit 1 before)
    result, path = _play(tmp_path, _typed_mission(4), "--code", CODE)
    assert result.exit_code == 0
    rows = CliRunner().invoke(cli, ["verify", str(path), "--rows"])
    assert rows.exit_code == 0 and "|" in rows.output
    (tmp_path / "rows.log").write_text(rows.output, encoding="utf-8")
    result = CliRunner().invoke(cli, ["play", "--log", str(tmp_path / "rows.log")], input="?\n")
    assert result.exit_code == 0, result.output
    assert "none: the mission is over" in result.output
    assert verify_log((tmp_path / "rows.log").read_text(encoding="utf-8")).verdict == "valid"


def test_a_half_played_log_in_the_row_form_resumes_where_it_stopped(tmp_path):
    typed = _typed_mission(6)
    half = len(typed) // 2
    result, path = _play(tmp_path, typed[:half], "--code", CODE)
    log = parse_log(path.read_text(encoding="utf-8"))
    rows = log_text(log.header.canonical_lines(), log.statements, rows=True)
    assert "|" in rows
    (tmp_path / "rows.log").write_text(rows, encoding="utf-8")
    result = CliRunner().invoke(cli, ["play", "--log", str(tmp_path / "rows.log")],
                                input="\n".join(typed[half:]) + "\n")
    assert result.exit_code == 0, result.output
    assert "error" not in result.output
    whole, _ = _play(tmp_path, typed, "--code", CODE, log="whole.log")
    assert (verify_log((tmp_path / "rows.log").read_text(encoding="utf-8")).verification_id
            == verify_log((tmp_path / "whole.log").read_text(encoding="utf-8")).verification_id)


def test_without_log_the_game_is_kept_in_a_file_named_for_its_mission(tmp_path, monkeypatch):
    # mission-CODE.log for a challenge, mission-seed-N.log for a seed with its own deck,
    # mission.log for a header that names its map by setup lines
    monkeypatch.chdir(tmp_path)
    setup = ("bgrid-log: 1\nsetup ridge: AH AS AD 2H\nsetup bunkers: 2H 3H 4H 5H 6H 7H 8H 9H 10H 2D 3D 4D\n"
             "setup artillery: 5D 6D 7D 8D 9D 10D 2C 3C\n")
    (tmp_path / "setup.log").write_text(setup, encoding="utf-8")
    for options, name in ((["--code", CODE], f"mission-{CODE}.log"),
                          (["--seed", "1944", "--ridges", "2"], "mission-seed-1944.log"),
                          (["--header", "setup.log"], "mission.log")):
        result = CliRunner().invoke(cli, ["play", *options], input="quit\n")
        assert result.exit_code == 0, result.output
        assert result.output == f"bye: the log keeps the game in {name}\n"
        assert (tmp_path / name).read_text(encoding="utf-8").startswith("bgrid-log: 1\n")
