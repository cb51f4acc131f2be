"""The damage ledger: one entry per point of damage, with its turn, line, cause and source."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.rules.events import Damage, TurnStarted
from bgrid.challenges.mission import mission_from_seed
from bgrid.players.playout import play_out, replay
from bgrid.challenges.seeding import stream
from bgrid.log.writer import mission_lines, write_log
from bgrid.verifier.verify import verify_log

from explicit_maps import explicit_log


def engine_damage(mission, seed: int, challenge_deck: bool):
    """The log of one random mission and its damage points straight from the engine's
    events: (turn, cause), the turn being the engine's at the event."""
    trace: list = []
    start = mission.start(challenge_deck)
    play_out(start.copy(), stream("standard-1", f"ledger-{seed}", 1), trace)
    events = [ev for step in replay(start, trace) for ev in step]
    points, turn = [], 1
    for ev in events:
        if isinstance(ev, TurnStarted):
            turn = ev.turn
        elif isinstance(ev, Damage):
            points += [(turn, str(ev.cause))] * ev.amount
    named = mission.as_challenge() if challenge_deck else mission.as_seed()
    return write_log(events, mission_lines(named)), points, start.damage


@pytest.mark.parametrize("block", range(4))
def test_ledger_matches_the_engine_damage_events_on_simulated_missions(block):
    missions = 0
    for k in range(block * 30, block * 30 + 30):  # 120 missions in all
        mission = mission_from_seed(7000 + k, ("easy", "normal", "hard", "ace")[k % 4], 1 + k % 3)
        text, points, total = engine_damage(mission, k, challenge_deck=k % 2 == 0)
        verdict = verify_log(text)
        assert verdict.verdict == "valid", verdict.render()
        assert [(e.turn, e.cause) for e in verdict.damage_ledger] == points
        assert len(verdict.damage_ledger) == total == verdict.score.damage
        missions += 1
    assert missions == 30


def test_entry_and_artillery_points_say_where_they_came_from():
    # KH: a face card, the player picks column D and takes 1 damage (R13). At D1, altitude
    # 4, artillery reach is max(1, 4 - 4) = 1: the piece in D2 is adjacent in column D and
    # fires on a Club (R18): 1 more point, turn 1, the automa line.
    text = explicit_log("turn 1\nenter KH D\ndraw 2S 3S 5C JS 10S\nautoma 3C\n",
                        artillery="D2 J9 J8 J7")
    ledger = verify_log(text).damage_ledger
    assert [(e.turn, e.line, e.cause, e.rule) for e in ledger] == [(1, 7, "entry", "R13"),
                                                                 (1, 9, "artillery", "R18")]
    assert "KH" in ledger[0].message
    # the map's first piece (R43)
    assert ledger[1].message.startswith("artillery 1 at D2, line of sight along column D, range 1")
    assert str(ledger[1]).startswith("turn 1, line 9: artillery 1 at D2")


def test_ledger_runs_up_to_the_error_and_shows_on_a_damage_mismatch(tmp_path):
    path = tmp_path / "m.log"
    path.write_text(explicit_log("turn 1\nenter KH D\ndraw 2S 3S 5C JS 10S\nautoma 3C\n"
                                 "state dmg 1\n", artillery="D2 J9 J8 J7"), encoding="utf-8")
    runner = CliRunner()
    data = json.loads(runner.invoke(cli, ["verify", str(path), "--json"]).output)
    assert data["errors"][0]["code"] == "E213"
    assert [(e["turn"], e["line"], e["cause"]) for e in data["damage_ledger"]] == [
        (1, 7, "entry"), (1, 9, "artillery")]
    assert set(data["damage_ledger"][0]) == {"turn", "line", "cause", "rule", "message"}
    shown = runner.invoke(cli, ["verify", str(path)]).output
    assert "damage ledger (2 points):" in shown
    assert "turn 1, line 9: artillery 1 at D2" in shown


def test_ledger_is_not_printed_for_other_errors_without_explain(tmp_path):
    path = tmp_path / "m.log"
    path.write_text(explicit_log("turn 1\nenter KH D\ndraw 2S 3S 5C JS 10S\nautoma 3C\n"
                                 "state alt 3\n", artillery="D2 J9 J8 J7"), encoding="utf-8")
    assert "damage ledger" not in CliRunner().invoke(cli, ["verify", str(path)]).output
