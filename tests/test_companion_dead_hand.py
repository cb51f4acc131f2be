"""The companion at a dead hand (rules.dead_hand): it says so at once, and ``play out`` writes
the forced turns to the end in one input, the same log as typing ``automa`` turn by turn.

The mission is challenge 0M00-0000-01B (the map of seed 1). The ten lines below fly to D3
at altitude 4 and draw the hand AC QD AD 6H 6D in turn 3: nothing below D3 (R16), QD would
climb to 6 (R7), and the guns' pieces can never come into line: B2, F8 and F9 each step
into a bunker whichever way the Automa card sends them (C2, F7, G9 or F8), and E6 can get no
nearer than E5, behind the bunker at E4 (R19, R20).
"""

from __future__ import annotations

from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.companion import Session
from bgrid.verifier.verify import verify_log

CODE = "0M00-0000-01B"
TO_THE_DEAD_HAND = ["enter", "draw", "throttle 9S move 2C FR", "automa", "draw", "move JK=5H LFLFL",
                    "resupply KC", "resupply KD", "automa", "draw"]


def _at_the_dead_hand() -> tuple[Session, list]:
    session = Session.start(f"bgrid-log: 1\nchallenge: {CODE}\n")
    replies = [session.submit(line) for line in TO_THE_DEAD_HAND]
    assert all(r.ok for r in replies), [r.one_line() for r in replies]
    return session, replies


def _turn_by_turn(session: Session) -> int:
    typed = 0
    while not session.is_over:
        assert session.submit("automa").ok
        typed += 1
    return typed


def test_the_draw_that_fills_a_dead_hand_says_so():
    session, replies = _at_the_dead_hand()
    said = replies[-1].one_line()
    assert said.startswith("draw 6D; dead hand from turn 3: no card in hand can be played again")
    assert "'play out' plays the forced turns to the end (undo takes it back whole)" in said
    assert "AC AD: no target below the bomber at D3, and none can come there" in said
    assert [o.text for o in session.offers()] == ["play out", "automa"]


def test_play_out_writes_the_same_log_as_typing_each_automa():
    session, _ = _at_the_dead_hand()
    reply = session.submit("play out")
    assert reply.ok
    assert reply.said[0].startswith("played out turns 3-")
    assert reply.said[-1].startswith("mission over: defeat (out-of-fuel)")
    played_out = session.log_text()
    one_by_one, _ = _at_the_dead_hand()
    typed = _turn_by_turn(one_by_one)
    assert typed > 80  # every card of both passes but the five in hand, one a turn
    assert one_by_one.log_text() == played_out
    v = verify_log(played_out)
    assert (v.verdict, v.outcome, v.cause) == ("valid", "defeat", "out-of-fuel")
    assert v.score.total == verify_log(one_by_one.log_text()).score.total
    dead = [n.message[:22] for n in v.notes if n.message.startswith("dead hand")]
    assert dead == ["dead hand from turn 3:"]


def test_undo_takes_the_whole_run_back():
    session, _ = _at_the_dead_hand()
    before = (session.log_text(), session.state.serialize())
    session.submit("play out")
    assert session.is_over
    session.submit("undo")
    assert (session.log_text(), session.state.serialize()) == before
    assert session.dead is not None


def test_play_out_with_a_live_hand_writes_nothing():
    session = Session.start(f"bgrid-log: 1\nchallenge: {CODE}\n")
    for line in TO_THE_DEAD_HAND[:2]:
        session.submit(line)
    before = session.log_text()
    reply = session.submit("play out")
    assert reply.written == [] and reply.note.startswith("nothing to play out")
    assert session.log_text() == before


def test_an_own_deck_plays_out_the_automa_cards_given():
    # the map of challenge 0M00-0000-01B with the player's own deck: the same cards typed
    own = Session.start(f"bgrid-log: 1\nchallenge: {CODE}\n")
    for line in TO_THE_DEAD_HAND:
        own.submit(line)
    statements = [ln for ln in own.log_text().splitlines()
                  if ln.split(" ")[0] in ("enter", "draw", "throttle", "automa", "move", "resupply")]
    session = Session.start("bgrid-log: 1\nseed: 1\n")
    for line in statements:
        assert session.submit(line).ok, line
    assert session.dead is not None and "play out" in [o.text for o in session.offers()]
    reply = session.submit("play out 2D 3D 4C")
    assert reply.ok
    assert reply.said[0] == "played out turns 3-5: a pass and an Automa card each (3 Automa lines written)"
    assert session.turn == 6
    assert "dead hand from turn 3" in reply.said[-1]


def test_bgrid_play_says_so_and_plays_out_in_one_command(tmp_path):
    runner = CliRunner()
    out_log, by_turn_log = tmp_path / "out.log", tmp_path / "turns.log"
    result = runner.invoke(cli, ["play", "--code", CODE, "--log", str(out_log)],
                           input="\n".join(TO_THE_DEAD_HAND + ["play out"]) + "\n")
    assert result.exit_code == 0, result.output
    replies = result.output.splitlines()
    assert "dead hand from turn 3" in replies[len(TO_THE_DEAD_HAND) - 1]
    assert replies[-1].startswith("played out turns 3-")
    assert "mission over: defeat (out-of-fuel)" in replies[-1]
    typed = TO_THE_DEAD_HAND + ["automa"] * 200
    runner.invoke(cli, ["play", "--code", CODE, "--log", str(by_turn_log)], input="\n".join(typed) + "\n")
    played_out = verify_log(out_log.read_bytes())
    by_turn = verify_log(by_turn_log.read_bytes())
    assert played_out.verdict == by_turn.verdict == "valid"
    assert played_out.score.total == by_turn.score.total
    assert out_log.read_text(encoding="utf-8") == by_turn_log.read_text(encoding="utf-8")
