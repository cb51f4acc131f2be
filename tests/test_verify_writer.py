"""The log writer: canonical spelling, the simulate corpus it writes, and the HTML report."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from bgrid.challenges.mission import mission_from_seed
from bgrid.players.simulation import simulate
from bgrid.players.simulated_logs import simulated_log, simulated_logs
from bgrid.log import writer as log_writer
from bgrid.log.reader import parse_log
from bgrid.verifier.report_html import render_report
from bgrid.verifier.verify import verify_log


def test_doctests_of_the_writer():
    failures, _ = doctest.testmod(log_writer)
    assert failures == 0


@pytest.mark.parametrize("challenge_deck", [False, True])
def test_written_logs_are_simulates_games(challenge_deck):
    """Game k of ``simulate`` and log k are the same game: same scores, in order."""
    mission = mission_from_seed(1944, "hard", 2)
    result = simulate(mission, 12, 3, challenge_deck=challenge_deck)
    logs = list(simulated_logs(mission, 12, 3, challenge_deck=challenge_deck))
    verdicts = [verify_log(text) for _, text in logs]
    assert all(v.verdict == "valid" for v in verdicts)
    assert [v.score.total for v in verdicts] == list(result.scores)
    assert [name for name, _ in logs] == [f"game-{k:05d}.log" for k in range(12)]


def test_written_logs_are_already_canonical():
    rng = __import__("bgrid.challenges.seeding", fromlist=["stream"]).stream("standard-1", "canon", 1)
    text, _ = simulated_log(mission_from_seed(77), rng, challenge_deck=True)
    log = parse_log(text)
    body = text.split("\n\n", 1)[1]
    assert "\n".join(s.canonical() for s in log.statements) + "\n" == body


def test_html_report_draws_the_board_path_damage_and_error():
    good = (Path(__file__).parent / "logs" / "worked" / "map-damage.log").read_bytes()
    bad = good.replace(b"state at C5 facing S alt 2 dmg 2", b"state at C5 facing S alt 3 dmg 2")
    html = render_report([verify_log(good, "good.log", history=True),
                          verify_log(bad, "bad.log", history=True)])
    assert html.count("<svg") == 2 and html.count("<script") == 1 and "http://" not in html.replace(
        'xmlns="http://www.w3.org/2000/svg"', "")
    assert "bunker destroyed C2" in html                     # bombed on turn 1
    assert html.count("<title>damage, turn") >= 5            # 3 + 3 damage dots over both boards
    assert "turn 1</title></polyline>" in html and "turn 2</title></polyline>" in html
    assert "the error: C5" in html and "E213" in html         # the failed state check at C5
    assert "1 bunker × +2, 0 artillery × +1, 3 damage × -1 = -1" in html


def _c(text):
    from bgrid.rules.cards import Card
    return Card.parse(text)


@pytest.mark.parametrize("events, last_lines", [
    # R36: the statement that needed the card writes `none`; the marker stands just before it
    ("draw", ["draw 4S", "reshuffle", "draw none"]),
    ("resupply", ["reshuffle", "resupply KD -> none"]),
    ("guns", ["reshuffle", "guns 6H C4 -> none"]),
    ("bomb", ["reshuffle", "bomb 7H -> none"]),
    ("automa", ["reshuffle", "automa none"]),
    ("entry", ["turn 2", "reshuffle", "enter none"]),
])
def test_writer_puts_none_where_the_card_was_needed(events, last_lines):
    from bgrid.rules.actions import Bomb, Guns, Resupply
    from bgrid.rules.board import Cell
    from bgrid.rules.events import Damage, DamageCause, Defeat, Drew, Played, Reshuffled, TurnStarted
    from bgrid.rules.state import CardPurpose, DefeatCause

    purpose = CardPurpose(events)
    before = {"draw": [Drew(_c("4S"), CardPurpose.DRAW)],
              "resupply": [Played(Resupply(_c("KD")))],
              "guns": [Played(Guns(_c("6H"), Cell.parse("C4")))],
              "bomb": [Played(Bomb(_c("7H")))],
              "automa": [],
              "entry": [TurnStarted(2)]}[purpose]
    end = [Reshuffled(20, purpose), Damage(1, DamageCause.EXHAUSTION, 5), Defeat(DefeatCause.DAMAGE, purpose)]
    assert log_writer.body_lines(before + end)[-len(last_lines):] == last_lines
